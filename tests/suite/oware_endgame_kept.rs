//! Oware's endgame database kept in the data directory, through the real
//! binary (RULES.md §7.9): the first Oware game starts growing it and
//! writes each seed count's file; a damaged file is built again, never
//! trusted.

use std::path::Path;
use std::time::{Duration, Instant};

use mancala::players::oware::Builder;
use mancala::store::oware_endgame::{DIR, level_file, level_path};

use crate::common;

use common::program::Program;
use common::scratch::Scratch;

/// Every count's file from 0 to `upto` as it must be.
fn expected_files(upto: usize) -> Vec<Vec<u8>> {
    let mut builder = Builder::new();
    (0..=upto)
        .map(|n| {
            builder.build_next();
            level_file(n, &builder.level_bytes(n).unwrap())
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

#[test]
fn the_first_oware_game_keeps_the_database_and_a_damaged_count_is_built_again() {
    let scratch = Scratch::new("oware-kept");
    let data = scratch.data();
    let dir = data.join(DIR);
    std::fs::create_dir_all(&dir).unwrap();
    // A count planted damaged (its header, then nothing) and one cut short.
    let expected = expected_files(8);
    std::fs::write(level_path(&dir, 3), &expected[3][..20]).unwrap();
    let mut cut = expected[5].clone();
    cut.pop();
    std::fs::write(level_path(&dir, 5), &cut).unwrap();
    // Two people at one keyboard: nothing asks for the database, and the
    // game still waits for no one while it grows.
    let mut game = Program::spawn(&data, &["--game", "oware", "--plain", "Alice", "Michael"]);
    wait_for_file(&level_path(&dir, 8), &game);
    game.wait_for("the first board", |out| out.contains("Alice"));
    game.kill();
    for (n, want) in expected.iter().enumerate() {
        let got = std::fs::read(level_path(&dir, n)).unwrap();
        assert!(got == *want, "count {n}'s file is not the one built");
    }
}
