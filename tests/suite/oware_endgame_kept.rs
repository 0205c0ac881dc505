//! Oware's endgame database kept in the data directory, through the real
//! binary (RULES.md §7.9): the first Oware game starts growing it, as far
//! as `--oware-db` says, and writes each seed count's files; a damaged
//! file is said, not used, and built again, never trusted; `solve` reads
//! what is kept.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mancala::players::oware::Builder;
use mancala::players::oware::endgame::CountValues;
use mancala::store::oware_endgame::{DIR, level_file, level_path, values_file, values_path};

use crate::common;

use common::program::{PATIENCE, Program};
use common::scratch::Scratch;

/// Every count's files from 0 to `upto` as they must be: the bounds, the
/// values.
fn expected_files(upto: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut builder = Builder::new();
    (0..=upto)
        .map(|n| {
            builder.build_next();
            (
                level_file(n, &builder.level_bytes(n).unwrap()),
                values_file(&builder.values(n).unwrap()),
            )
        })
        .collect()
}

/// Waits (a generous bound: the machine may be busy) until `path` exists.
fn wait_for_file(path: &Path, game: &Program) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{} never came; the game said:\n{}",
            path.display(),
            game.text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The threads of `game` named as the database's grower.
fn growers(game: &Program) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", game.id())) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|name| name.trim_end() == "oware-endgame")
        })
        .count()
}

/// Waits (up to [`PATIENCE`]) until `game` has no grower thread left.
fn wait_for_grower_to_end(game: &Program) {
    let start = Instant::now();
    while growers(game) > 0 {
        assert!(
            start.elapsed() < PATIENCE,
            "the database's grower still runs after {PATIENCE:?}; the game said:\n{}",
            game.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (up to [`PATIENCE`]) until the file at `path` holds `good`: a
/// count built again. (Not until the grower's thread is gone: a thread
/// takes its name once it runs, so just after it is started it may not
/// be found yet, and the file not written.)
fn wait_for_bytes(path: &Path, good: &[u8], game: &Program) {
    let start = Instant::now();
    while std::fs::read(path).ok().as_deref() != Some(good) {
        assert!(
            start.elapsed() < PATIENCE,
            "{} was not built again after {PATIENCE:?}; the game said:\n{}",
            path.display(),
            game.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A position with 8 seeds on the board.
const EIGHT: &str = "oware S:2,1,1,0,0,0:20 N:1,1,1,1,0,1:20 south";

/// `mancala solve` of the position `from` in `data`: the seeds its
/// endgame database holds, and what it said on standard error.
fn solve_from(scratch: &Scratch, from: &str, extra: &[&str]) -> (u64, String) {
    let mut args = vec!["solve", "--from", from, "--nodes", "2000"];
    args.extend_from_slice(extra);
    let out = common::program::run(&scratch.data(), &scratch.config(), &args, "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).expect(&stdout);
    (
        json["endgame_seeds"].as_u64().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`solve_from`] the position of 8 seeds.
fn solve(scratch: &Scratch, extra: &[&str]) -> (u64, String) {
    solve_from(scratch, EIGHT, extra)
}

#[test]
fn the_first_oware_game_keeps_the_database_and_a_damaged_count_is_built_again() {
    let scratch = Scratch::new("oware-kept");
    let data = scratch.data();
    let dir = data.join(DIR);
    std::fs::create_dir_all(&dir).unwrap();
    let expected = expected_files(8);
    for (n, (bounds, values)) in expected.iter().enumerate().take(5) {
        std::fs::write(level_path(&dir, n), bounds).unwrap();
        std::fs::write(values_path(&dir, n), values).unwrap();
    }
    // Count 3's values planted damaged (their header, then nothing), and
    // both of count 4's files cut short.
    std::fs::write(values_path(&dir, 3), &expected[3].1[..20]).unwrap();
    for (path, good) in [
        (level_path(&dir, 4), &expected[4].0),
        (values_path(&dir, 4), &expected[4].1),
    ] {
        std::fs::write(path, &good[..good.len() - 1]).unwrap();
    }
    // `solve` says so and uses none of it: counts 0-2 are too few to
    // matter, so it builds its own 6.
    let (seeds, said) = solve(&scratch, &[]);
    assert_eq!(seeds, 6, "{said}");
    assert!(
        said.contains("values-03.bin is not used (no header)"),
        "{said}"
    );
    // Two people at one keyboard: nothing asks for the database, and the
    // game still waits for no one while it grows, to 8 as asked.
    let mut game = Program::spawn(
        &data,
        &[
            "--game",
            "oware",
            "--oware-db",
            "8",
            "--plain",
            "Alice",
            "Michael",
        ],
    );
    wait_for_file(&values_path(&dir, 8), &game);
    game.wait_for("the first board", |out| out.contains("Alice"));
    // The grower's thread is gone before count 9's file is looked for:
    // had it gone on, it would still be there (or count 9 would be).
    wait_for_grower_to_end(&game);
    game.kill();
    assert!(!values_path(&dir, 9).exists() && !level_path(&dir, 9).exists());
    for (n, (bounds, values)) in expected.iter().enumerate() {
        let got = std::fs::read(level_path(&dir, n)).unwrap();
        assert!(
            got == *bounds,
            "count {n}'s bounds file is not the one built"
        );
        let got = std::fs::read(values_path(&dir, n)).unwrap();
        assert!(
            got == *values,
            "count {n}'s values file is not the one built"
        );
    }
    // `solve` now reads every count kept, or as far as `--oware-db` says.
    assert_eq!(solve(&scratch, &[]), (8, String::new()));
    assert_eq!(solve(&scratch, &["--oware-db", "7"]), (7, String::new()));
}

/// Counts kept past the 18 grown on spare time (a player who once grew
/// the database further with `--oware-db`) are read by `solve` without
/// the flag, as far as they go; `--oware-db` caps the reading. The files
/// are planted sound but hold no values (every position depends on
/// repetition): what is read, not what it says, is asked here.
#[test]
fn solve_reads_every_count_kept_unless_the_flag_caps_it() {
    let scratch = Scratch::new("oware-past");
    let dir = scratch.data().join(DIR);
    std::fs::create_dir_all(&dir).unwrap();
    for n in 0..=20 {
        let none = CountValues::from_entry_bytes(n, &[]).unwrap();
        std::fs::write(values_path(&dir, n), values_file(&none)).unwrap();
    }
    // 20 seeds on the board.
    let solve = |extra: &[&str]| {
        solve_from(
            &scratch,
            "oware S:2,1,1,0,0,6:10 N:1,1,1,1,0,6:18 south",
            extra,
        )
        .0
    };
    assert_eq!(solve(&[]), 20);
    assert_eq!(solve(&["--oware-db", "19"]), 19);
    std::fs::remove_file(values_path(&dir, 20)).unwrap();
    assert_eq!(solve(&[]), 19);
}

/// What is said of count 5's values file when it is refused.
const TOLD: &str = "Oware's endgame database: the file for 5 seeds (values-05.bin) could not be used (checksum mismatch); it is being built again on spare time.";

/// A data directory holding the database's files to 6 seeds, count 5's
/// values damaged (a byte flipped before its checksum); its folder, and
/// count 5's values as they should be.
fn with_count_5_damaged(scratch: &Scratch) -> (PathBuf, Vec<u8>) {
    let dir = scratch.data().join(DIR);
    std::fs::create_dir_all(&dir).unwrap();
    let expected = expected_files(6);
    for (n, (bounds, values)) in expected.iter().enumerate() {
        std::fs::write(level_path(&dir, n), bounds).unwrap();
        std::fs::write(values_path(&dir, n), values).unwrap();
    }
    let mut damaged = expected[5].1.clone();
    let at = damaged.len() - 9;
    damaged[at] ^= 1;
    std::fs::write(values_path(&dir, 5), &damaged).unwrap();
    (dir, expected[5].1.clone())
}

/// A game that finds a damaged file as the database grows goes on at
/// once, and says so in words at the next command, once: the file is
/// not used, and is built again on spare time.
#[test]
fn a_game_says_once_that_a_damaged_count_is_built_again() {
    let scratch = Scratch::new("oware-told");
    let data = scratch.data();
    let (dir, good) = with_count_5_damaged(&scratch);
    let mut game = Program::spawn(
        &data,
        &[
            "--game",
            "oware",
            "--oware-db",
            "6",
            "--plain",
            "Alice",
            "Michael",
        ],
    );
    game.wait_for("the first board", |out| out.contains("Alice"));
    // The grower has told the shelf before it makes count 5 again.
    wait_for_bytes(&values_path(&dir, 5), &good, &game);
    game.send("a");
    game.wait_for("the notice", |out| out.contains(TOLD));
    game.send("g");
    game.close_input();
    assert_eq!(game.wait_exit(), 0);
    let text = game.text();
    assert_eq!(text.matches(TOLD).count(), 1, "{text}");
    // Before the question that follows the move, not in place of it.
    let after = &text[text.find(TOLD).unwrap()..];
    assert!(after.contains("Michael"), "{text}");
}

/// `mancala engine` says it too, once, as an engine says things
/// (`info string …`), at the command after the grower found it.
#[test]
fn the_engine_says_once_that_a_damaged_count_is_built_again() {
    let scratch = Scratch::new("oware-told-engine");
    let data = scratch.data();
    let (dir, good) = with_count_5_damaged(&scratch);
    let mut engine = Program::spawn(&data, &["engine", "--oware-db", "6"]);
    engine.send("isready");
    engine.wait_for("readyok", |out| out.contains("readyok"));
    wait_for_bytes(&values_path(&dir, 5), &good, &engine);
    engine.send("isready");
    engine.wait_for("the notice", |out| {
        out.contains(&format!("info string {TOLD}"))
    });
    engine.send("isready");
    engine.send("quit");
    engine.close_input();
    assert_eq!(engine.wait_exit(), 0);
    let text = engine.text();
    assert_eq!(text.matches(TOLD).count(), 1, "{text}");
}
