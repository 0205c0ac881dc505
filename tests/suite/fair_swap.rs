//! The pie rule (`--swap`) and fair starts (`--fair`) in a game, through
//! the real binary in plain mode: the question asked and answered, the
//! seats swapped, the records keeping both and replaying (RULES.md §5.3,
//! §5.4).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use mancala::rules::{Board, Rules, Side};
use mancala::store::Record;

use crate::common::program::run;
use crate::common::scratch::Scratch;

fn records(data: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(data.join("records"))
        .map(|dir| dir.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    paths.sort();
    paths
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Plain minimax to the end on the final margin for the side to move: an
/// independent check of the solver's "draw".
fn minimax(board: &Board, seen: &mut HashMap<(Vec<u16>, Side), i32>) -> i32 {
    let me = board.to_move();
    if board.is_over() {
        return board.score().margin(me);
    }
    let key = (board.counts().to_vec(), me);
    if let Some(&v) = seen.get(&key) {
        return v;
    }
    let best = board
        .legal_moves()
        .map(|pit| {
            let mut next = *board;
            next.play_unchecked(pit);
            if next.is_over() {
                next.score().margin(me)
            } else if next.to_move() == me {
                minimax(&next, seen)
            } else {
                -minimax(&next, seen)
            }
        })
        .max()
        .expect("a move");
    seen.insert(key, best);
    best
}

/// Alice starts (c earns her another turn, then f); Michael answers the
/// pie rule's question with `swap` and plays on as South; the round is
/// played to its end by trying every letter in turn. The record keeps the
/// swap, reads back to the same match, and replays to the same result.
#[test]
fn swap_takes_the_first_turns_position_and_the_record_replays_it() {
    let scratch = Scratch::new("swap");
    let data = scratch.path().join("data");
    let mut input = String::from("c\nf\nswap\n");
    for _ in 0..120 {
        input.push_str("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n");
    }
    let out = run(
        &data,
        &scratch.path().join("config"),
        &["--plain", "--no-animation", "--swap", "Alice", "Michael"],
        &input,
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(
        said.contains("Michael, swap sides? 'swap' takes Alice's position; a pit plays on from yours (g-l): swap"),
        "{said}"
    );
    assert!(
        said.contains("Michael swaps sides: Michael now plays South, and Alice moves for North."),
        "{said}"
    );
    assert!(said.contains("Alice, choose a pit (g-l):"), "{said}");
    assert!(said.contains("Michael, choose a pit (a-f):"), "{said}");
    let [path] = &records(&data)[..] else {
        panic!("one record: {said}");
    };
    let kept = std::fs::read_to_string(path).unwrap();
    assert!(kept.contains("\nswap: 2\n"), "{kept}");
    let record = Record::parse(&kept).unwrap();
    assert_eq!(record.swapped, Some(2));
    assert_eq!(record.names(), ["Michael", "Alice"]);
    // The match it rebuilds has the seats swapped, the tally by person.
    let m = record.to_match(1).unwrap();
    assert_eq!(m.names(), ["Michael", "Alice"]);
    let end = *record.stepper().unwrap().last_board();
    let name = end
        .outcome()
        .unwrap()
        .winner()
        .map(|side| record.names()[side.index()])
        .expect("the scripted round has a winner");
    assert!(said.contains(&format!("{name} wins!")), "{said}");
    // Every match score counts the round for its winner (the one at its
    // end once named the sides of the next round, turned round).
    let scores: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("Match score: "))
        .collect();
    assert!(!scores.is_empty(), "{said}");
    for line in scores {
        let won = [format!("{name} 1 "), format!(" 1 {name}")];
        assert!(
            won.iter().any(|w| line.contains(w.as_str())),
            "{line}\n{said}"
        );
    }
    // The replay of the record says the same result.
    let replay = run(
        &data,
        &scratch.path().join("config"),
        &["replay", path.to_str().unwrap()],
        "",
    );
    let shown = text(&replay.stdout);
    assert!(replay.status.success(), "{shown}{}", text(&replay.stderr));
    assert!(
        shown.contains("Replay of round 1: Michael (South, human) against Alice (North, human)."),
        "{shown}"
    );
    assert!(shown.contains(&format!("{name} wins")), "{shown}");
}

/// Undo takes the swap back with the move it followed, and redo brings
/// both back: the move told as Hank's with Hank at South, the swap told
/// again, Hank asked to move for North as before the undo, and the match
/// saved swapped, so that it resumes so. (Redo brought back only the move,
/// and asked "swap sides?" again.)
#[test]
fn redo_brings_back_the_swap_undo_took_back() {
    let scratch = Scratch::new("redo-swap");
    let (data, config) = (scratch.path().join("data"), scratch.path().join("config"));
    let args = ["--plain", "--no-animation", "--swap", "Hank", "Ivy"];
    let out = run(&data, &config, &args, "b\nswap\nundo\nredo\nquit\n");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    let swap = "Ivy swaps sides: Ivy now plays South, and Hank moves for North.\n";
    let (_, redone) = said
        .split_once("Hank, choose a pit (a-f): redo\n")
        .expect(&said);
    let (moved, after) = redone.split_once(swap).expect(redone);
    assert!(moved.starts_with("Hank plays b.\n"), "{said}");
    assert!(moved.ends_with("South: Hank\n"), "{said}");
    assert!(after.ends_with("South: Ivy\nRedid 1 move.\nHank, choose a pit (g-l): quit\nStopped. The match is saved: start mancala with the same names to resume it.\nThis round so far: Ivy 0, Hank 0.\nMatch score: Ivy 0 – 0 Hank, 0 draws (0 rounds).\n"), "{said}");
    assert!(!redone.contains("swap sides?"), "{said}");
    let resumed = run(&data, &config, &args, "y\nquit\n");
    let said = text(&resumed.stdout);
    assert!(resumed.status.success(), "{said}{}", text(&resumed.stderr));
    assert!(
        said.contains("South: Ivy\nHank, choose a pit (g-l): quit"),
        "{said}"
    );
}

/// A computer that swaps straight after the person's first turn: the
/// board under that turn's last move still shows the sides it was
/// played from, then the swap is said and the board shows them swapped
/// (the board was drawn with the swapped names already).
#[test]
fn a_computers_swap_follows_the_board_of_the_move_it_answers() {
    let scratch = Scratch::new("computer-swap");
    let (data, config) = (scratch.path().join("data"), scratch.path().join("config"));
    let args = [
        "--plain",
        "--no-animation",
        "--swap",
        "--north",
        "greedy",
        "Hank",
        "Ivy",
    ];
    let out = run(&data, &config, &args, "c\nf\nquit\n");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    let (_, after_f) = said
        .split_once("Hank, choose a pit (a-f): f\n")
        .expect(&said);
    let swap = "Ivy swaps sides: Ivy now plays South, and Hank moves for North.\n";
    let (board, swapped) = after_f.split_once(swap).expect(after_f);
    assert!(
        board.starts_with("\nNorth: Ivy\n") && board.ends_with("South: Hank\n"),
        "{said}"
    );
    assert!(swapped.starts_with("\nNorth: Hank\n"), "{said}");
    assert!(
        swapped.contains("South: Ivy\nHank, choose a pit (g-l)"),
        "{said}"
    );
}

/// A swap written after a move that did not end the starter's first turn
/// is refused when the record is read.
#[test]
fn a_record_with_a_swap_where_none_can_be_is_refused() {
    let good = "mancala record 1\npits: 6\nseeds: 4\ncapture: always\nsowing: single\nsweep: owner\nfirst: alternate\nsouth: Alice\nnorth: Michael\nround: 1\nstarter: south\nmoves: c,f,g\nswap: 2\n";
    assert_eq!(Record::parse(good).unwrap().swapped, Some(2));
    for bad in ["swap: 1", "swap: 3", "swap: 0", "swap: 9"] {
        let text = good.replace("swap: 2", bad);
        let e = Record::parse(&text).unwrap_err();
        assert!(e.to_string().contains("swap"), "{bad}: {e}");
    }
}

/// `--fair` on the game: every round starts from a fair start, said with
/// its proof, kept in the records; a round North starts begins from the
/// same position seen from North. Both are draws by an independent search.
#[test]
fn fair_starts_each_round_from_a_drawn_position_that_the_records_keep() {
    let scratch = Scratch::new("fair");
    let data = scratch.path().join("data");
    let out = run(
        &data,
        &scratch.path().join("config"),
        &[
            "--plain",
            "--no-animation",
            "--fair",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--south",
            "greedy",
            "--north",
            "greedy",
        ],
        "y\nn\n",
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains("A fair start: "), "{said}");
    assert!(
        said.contains("a draw under perfect play (value 0)"),
        "{said}"
    );
    let rules = Rules::new(3, 2).unwrap();
    let usual = Board::starting(rules, Side::South);
    let paths = records(&data);
    assert_eq!(paths.len(), 2, "{said}");
    let starts: Vec<Board> = paths
        .iter()
        .map(|path| {
            let kept = std::fs::read_to_string(path).unwrap();
            assert!(kept.contains("\nstart: "), "{kept}");
            let record = Record::parse(&kept).unwrap();
            let start = record.start_board();
            assert_eq!(start.to_move(), record.starter);
            assert_eq!(minimax(&start, &mut HashMap::new()), 0, "{start:?}");
            // The game played from it: the record replays to its result.
            assert!(record.stepper().unwrap().last_board().is_over());
            start
        })
        .collect();
    assert_ne!(starts[0].counts(), usual.counts());
    assert_eq!(starts[0].to_move(), Side::South);
    assert_eq!(starts[1].to_move(), Side::North);
    let mut mirrored = starts[0].counts().to_vec();
    let half = mirrored.len() / 2;
    mirrored.rotate_left(half);
    assert_eq!(starts[1].counts(), &mirrored[..]);
    // The fair start said is the one played.
    let counts: Vec<String> = starts[0].counts().iter().map(u16::to_string).collect();
    assert!(
        said.contains(&format!("A fair start: {} ", counts.join(","))),
        "{said}"
    );
}

/// `--fair` plays from its own position: `--from` beside it is refused.
#[test]
fn fair_and_from_together_are_refused() {
    let scratch = Scratch::new("fair-from");
    let out = run(
        &scratch.path().join("data"),
        &scratch.path().join("config"),
        &["--plain", "--fair", "--from", "x", "Alice", "Michael"],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--from"),
        "{}",
        text(&out.stderr)
    );
}

/// A round against a rated level says what it did to the person's
/// rating, as `mancala stats` then counts it ("Rating: Alice 1200 → …").
#[test]
fn a_round_against_a_level_says_the_rating_change() {
    let scratch = Scratch::new("rated");
    let data = scratch.path().join("data");
    let mut input = String::new();
    for _ in 0..80 {
        input.push_str("a\nb\nc\nd\ne\nf\n");
    }
    let out = run(
        &data,
        &scratch.path().join("config"),
        &["--plain", "--no-animation", "--north", "level:1", "Alice"],
        &input,
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    let line = said
        .lines()
        .find(|l| l.starts_with("Rating: Alice 1200 → "))
        .unwrap_or_else(|| panic!("{said}"));
    let stats = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["stats", "--json"])
        .env("MANCALA_DATA_DIR", &data)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    let rating = json["ratings"][0]["rating"].as_f64().unwrap();
    assert!(
        line.contains(&format!("→ {} (", rating.round() as i64)),
        "{line} / {json}"
    );
}
