//! `mancala analyze` through the real binary: the JSON shape and its
//! figures against `mancala solve`, the text report with its chart, and a
//! file that is not a record refused in one line.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mancala")
}

/// A whole round of Kalah(4,3) (capture nonempty), South first.
const MOVES: &str = "a,h,b,g,c,e,a,h,d,f,a,g,b,h,c";

fn write_record(dir: &Path, moves: &str) -> String {
    let path = dir.join("round.txt");
    std::fs::write(
        &path,
        format!(
            "mancala record 1\npits: 4\nseeds: 3\ncapture: nonempty\nsowing: single\nsweep: owner\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: {moves}\n"
        ),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

/// The moves of a legal round: `MOVES` as far as `mancala position`
/// accepts them (the record is checked on reading, so it must be legal).
fn legal_prefix() -> String {
    let all: Vec<&str> = MOVES.split(',').collect();
    let mut legal = Vec::new();
    for m in all {
        let mut tried = legal.clone();
        tried.push(m);
        let out = mancala(&[
            "position",
            "--pits",
            "4",
            "--seeds",
            "3",
            "--capture",
            "nonempty",
            "--moves",
            &tried.join(","),
        ]);
        if !out.status.success() {
            break;
        }
        legal = tried;
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        if v["over"] == true {
            break;
        }
    }
    legal.join(",")
}

fn solve(moves: &[&str]) -> Value {
    let out = mancala(&[
        "solve",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--capture",
        "nonempty",
        "--threads",
        "1",
        "--moves",
        &moves.join(","),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn json_lists_every_move_with_the_solvers_values() {
    let dir = tempfile::tempdir().unwrap();
    let moves = legal_prefix();
    assert!(moves.split(',').count() >= 6, "{moves}");
    let file = write_record(dir.path(), &moves);
    // time enough that a loaded machine still proves every value
    let out = mancala(&["analyze", &file, "--json", "--think", "60000"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let list = v["moves"].as_array().unwrap();
    let letters: Vec<&str> = moves.split(',').collect();
    assert_eq!(list.len(), letters.len());
    for (i, m) in list.iter().enumerate() {
        let keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "ply",
                "side",
                "pit",
                "best",
                "value_before",
                "value_after",
                "loss",
                "exact",
                "all_best"
            ]
        );
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["pit"], letters[i]);
        let side = m["side"].as_str().unwrap();
        let pit = letters[i].chars().next().unwrap();
        assert_eq!(side, if pit <= 'd' { "south" } else { "north" });
        assert_eq!(m["exact"], true);
        let before = m["value_before"].as_i64().unwrap();
        let after = m["value_after"].as_i64().unwrap();
        assert_eq!(m["loss"].as_i64().unwrap(), before - after);
        assert!(before >= after);
        // the value before and the best pits are the solver's for that position
        let solved = solve(&letters[..i]);
        assert_eq!(solved["value"].as_i64().unwrap(), before, "move {}", i + 1);
        assert_eq!(solved["best"], m["best"], "move {}", i + 1);
    }
}

#[test]
fn a_file_that_is_not_a_record_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "shopping list\neggs\n").unwrap();
    for args in [
        vec!["analyze", path.to_str().unwrap()],
        vec!["analyze", path.to_str().unwrap(), "--json"],
        vec!["analyze", "/nonexistent/record.txt", "--plain"],
    ] {
        let out = mancala(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("record") || err.contains("cannot read"),
            "{err}"
        );
    }
}

#[test]
fn plain_prints_the_table_the_turning_points_and_a_chart() {
    let dir = tempfile::tempdir().unwrap();
    let moves = legal_prefix();
    let file = write_record(dir.path(), &moves);
    // through a pipe, plain is the default; --plain asks for it anyway
    for args in [vec!["analyze", &file], vec!["analyze", &file, "--plain"]] {
        let out = mancala(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Analysis of round 1: Alice (South"), "{text}");
        assert!(text.contains("move  player"), "{text}");
        assert!(
            text.contains("Value for Alice (South) over the round"),
            "{text}"
        );
        // the chart: value rows with a point each, an axis, and words
        let rows: Vec<&str> = text.lines().filter(|l| l.contains(" |")).collect();
        assert!(rows.len() >= 2, "{text}");
        assert!(rows.iter().any(|r| r.contains('*')), "{text}");
        assert!(text.contains("For Alice (South): "), "{text}");
        assert!(!text.contains('\x1b'), "no escape codes");
    }
}

/// A whole round of Kalah(6,3) (capture always, South first), played by
/// taking the legal pits in turn from a fixed pattern.
fn kalah_6_3_round() -> String {
    use mancala::rules::{Board, Rules};
    let rules = Rules::new(6, 3).unwrap();
    let mut board = Board::new(rules);
    let mut letters = Vec::new();
    for choice in [2usize, 5, 0, 3, 1].into_iter().cycle() {
        if board.is_over() {
            break;
        }
        let legal: Vec<_> = board.legal_moves().collect();
        let pit = legal[choice % legal.len()];
        board.play(pit).unwrap();
        letters.push(rules.letter(pit).unwrap().to_string());
    }
    letters.join(",")
}

#[test]
fn a_round_the_solver_can_prove_is_proven_whatever_the_time_given() {
    // one millisecond a position: the values do not depend on the time
    // (nor on the machine's load), every move is exact
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("round.txt");
    std::fs::write(
        &path,
        format!(
            "mancala record 1\npits: 6\nseeds: 3\ncapture: always\nsowing: single\nsweep: owner\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: {}\n",
            kalah_6_3_round()
        ),
    )
    .unwrap();
    let path = path.to_string_lossy().into_owned();
    let out = mancala(&["analyze", &path, "--json", "--think", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first: Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = first["moves"].as_array().unwrap();
    assert!(moves.len() > 10);
    for m in moves {
        assert_eq!(m["exact"], true, "{m}");
    }
    let again = mancala(&["analyze", &path, "--json", "--think", "1"]);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(first, again, "the same figures on every run");
}

/// A whole round of Oware from the start, South first, by a fixed walk
/// over the legal houses, with a position before its end whose every
/// reply the endgame database values, and whose own value does not depend
/// on repetition (so that its value is proven): the
/// moves as letters, that position's index, and its value for its mover
/// worked out from the database here.
fn oware_round_with_a_proven_position() -> (Vec<char>, usize, i64) {
    use mancala::players::oware::{Probe, analysis_endgame};
    use mancala::rules::Rules;
    use mancala::rules::oware::{OwareBoard, OwareRound};
    let endgame = analysis_endgame();
    // the mover's value of `board` from its replies' database values
    let valued = |board: &OwareBoard| -> Option<i64> {
        let me = board.to_move();
        board
            .legal_moves()
            .map(|pit| {
                let mut next = *board;
                next.play_unchecked(pit);
                let score = next.score();
                let mine = i64::from(score.of(me)) - i64::from(score.of(me.opponent()));
                match (next.is_over(), endgame.probe(&next)) {
                    (true, _) => Some(mine),
                    (false, Probe::Value(v)) => Some(mine - i64::from(v)),
                    _ => None,
                }
            })
            .try_fold(i64::MIN, |best, v| Some(best.max(v?)))
    };
    for seed in 1..5000u64 {
        let mut state = seed;
        let mut round = OwareRound::new(OwareBoard::new());
        let mut letters = Vec::new();
        let mut proven = None;
        while !round.board().is_over() && letters.len() < 400 {
            let board = *round.board();
            // (a position whose own value depends on repetition is
            // searched on, never proven: RULES.md §7.9)
            if proven.is_none()
                && board.legal_moves().count() > 1
                && endgame.probe(&board) != Probe::Repetition
            {
                proven = valued(&board).map(|v| (letters.len(), v));
            }
            let legal: Vec<_> = board.legal_moves().collect();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pit = legal[(state >> 33) as usize % legal.len()];
            round.play(pit).unwrap();
            letters.push(Rules::KALAH.letter(pit).unwrap());
        }
        if let (Some((at, value)), true) = (proven, round.board().is_over()) {
            return (letters, at, value);
        }
    }
    panic!("no round of the walk has a position the database proves");
}

/// Whether a move's value before it (`"before"`) or after it is proven:
/// the move is, or its bounds are one value.
fn proven(m: &Value, when: &str) -> bool {
    let bounds = &m[format!("bounds_{when}")];
    m["exact"] == true || (bounds[0] == bounds[1] && bounds[0] == m[format!("value_{when}")])
}

#[test]
fn an_oware_round_is_analysed_exactly_inside_the_database_and_estimated_outside() {
    let dir = tempfile::tempdir().unwrap();
    let (letters, at, value) = oware_round_with_a_proven_position();
    let moves: Vec<String> = letters.iter().map(char::to_string).collect();
    let path = dir.path().join("oware.txt");
    std::fs::write(
        &path,
        format!(
            "mancala record 1\ngame: oware\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: {}\n",
            moves.join(",")
        ),
    )
    .unwrap();
    let file = path.to_string_lossy().into_owned();
    // the database the analysis grows is kept in a data directory of the
    // test's own
    let data = dir.path().join("data");
    let mancala = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(args)
            .env("MANCALA_DATA_DIR", &data)
            .env("MANCALA_CONFIG_DIR", dir.path().join("config"))
            .stdin(Stdio::null())
            .output()
            .expect("run mancala")
    };
    let out = mancala(&["analyze", &file, "--json", "--think", "20"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "oware");
    let list = v["moves"].as_array().unwrap();
    assert_eq!(list.len(), moves.len());
    for (i, m) in list.iter().enumerate() {
        assert_eq!(m["pit"], moves[i].as_str());
        assert_eq!(m["side"], if letters[i] <= 'f' { "south" } else { "north" });
        let before = m["value_before"].as_i64().unwrap();
        let after = m["value_after"].as_i64().unwrap();
        assert_eq!(m["loss"].as_i64().unwrap(), (before - after).max(0));
        if m["exact"] == false {
            // an estimate comes with the range it is known to lie in
            for (value, bounds) in [(before, &m["bounds_before"]), (after, &m["bounds_after"])] {
                let (lo, hi) = (bounds[0].as_i64().unwrap(), bounds[1].as_i64().unwrap());
                assert!(lo <= value && value <= hi, "{m}");
            }
        }
    }
    // 48 seeds in 20 ms are an estimate; the position the database
    // proves is proven, at the database's value; the end is exact
    assert!(!proven(&list[0], "before"), "{}", list[0]);
    assert!(proven(&list[at], "before"), "{}", list[at]);
    assert_eq!(list[at]["value_before"], value, "{}", list[at]);
    assert!(proven(list.last().unwrap(), "after"));
    // the text report says which values are estimates
    let out = mancala(&["analyze", &file, "--plain", "--think", "20"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Rules: Oware (Abapa)"), "{text}");
    assert!(text.contains("final score differences"), "{text}");
    assert!(text.contains('≈'), "{text}");
}
