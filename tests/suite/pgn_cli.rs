//! `mancala replay --format pgn` and `mancala replay -` through the real
//! binary: a finished round written as PGN-style text and read back from
//! standard input replays to the same result.

use crate::common;

fn mancala(args: &[&str], input: &str) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("mancala-pgn-{}", std::process::id()));
    let out = common::program::run(&dir, &dir, args, input);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_round_written_as_pgn_and_read_back_replays_to_the_same_result() {
    // a whole round of 4x2, each side playing its first legal pit
    let rules = mancala::rules::Rules::new(4, 2).unwrap();
    let mut board = mancala::rules::Board::new(rules);
    let mut moves = Vec::new();
    while let Some(pit) = board.legal_moves().next() {
        moves.push(rules.letter(pit).unwrap().to_string());
        board.play(pit).unwrap();
    }
    let record = format!(
        "mancala record 1\npits: 4\nseeds: 2\ncapture: always\nsowing: single\nsweep: owner\nsouth: Ann\nnorth: Bob \"B\"\nstarter: south\nmoves: {}\n",
        moves.join(",")
    );
    let (ok, pgn, err) = mancala(&["replay", "-", "--format", "pgn"], &record);
    assert!(ok, "{err}");
    let score = board.score();
    assert!(
        pgn.contains(&format!("[Score \"{}-{}\"]", score.south, score.north)),
        "{pgn}"
    );
    assert!(pgn.contains("[North \"Bob \\\"B\\\"\"]"), "{pgn}");
    assert!(
        pgn.trim_end().starts_with("[Event") && pgn.contains("\n1. "),
        "{pgn}"
    );
    // read back from standard input, both forms replay to the same end
    let (ok, from_pgn, err) = mancala(&["replay", "-", "--plain", "--no-animation"], &pgn);
    assert!(ok, "{err}");
    let (ok, from_record, err) = mancala(&["replay", "-", "--plain", "--no-animation"], &record);
    assert!(ok, "{err}");
    assert_eq!(from_pgn, from_record);
    let high = score.south.max(score.north);
    let low = score.south.min(score.north);
    assert!(
        from_pgn.contains(&format!("{high}–{low}")),
        "the final score {high}–{low}: {from_pgn}"
    );
    // a result that the moves do not give is refused
    let (ok, _, err) = mancala(
        &["replay", "-", "--plain"],
        &pgn.replace("[Result \"", "[Result \"x"),
    );
    assert!(!ok && err.contains("result"), "{err}");
}
