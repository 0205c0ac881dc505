//! `mancala solitaire` through the real binary: the `--plan` JSON, bad
//! input, and the refusal to start the full-screen game without a terminal.

use std::process::{Command, Output, Stdio};

fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn plan(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["solitaire", "--plan"];
    all.extend_from_slice(args);
    let out = mancala(&all);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn counts(value: &serde_json::Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[test]
fn plan_of_the_rules_6_3_boards() {
    let out = mancala(&["solitaire", "--plan", "--board", "0,1,1,3,0,0,0"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"board\":[0,1,1,3,0,0,0],\"moves\":[1,3,1,2,1],\"won\":true,\"final\":[5,0,0,0,0,0,0]}\n"
    );
    // RULES.md §6.3's board after house 3 was played first: lost.
    let middle = plan(&["--board", "1,2,2,0,0,0,0"]);
    assert_eq!(middle["won"], false);
    assert_eq!(counts(&middle["moves"]), [2]);
    assert_eq!(counts(&middle["final"]), [2, 3, 0, 0, 0, 0, 0]);
    // RULES.md §6.3's board played closest first: won.
    let bottom = plan(&["--board", "1,0,1,3,0,0,0"]);
    assert_eq!(bottom["won"], true);
    assert_eq!(counts(&bottom["moves"]), [3, 1, 2, 1]);
}

#[test]
fn plan_of_dealt_boards_wins_with_one_move_per_seed() {
    for seeds in [1u64, 2, 7, 60, 1000] {
        let value = plan(&["--seeds", &seeds.to_string()]);
        let board = counts(&value["board"]);
        assert_eq!(board[0], 0);
        assert_eq!(board.iter().sum::<u64>(), seeds);
        // The formula, worked out here independently.
        let mut rest = seeds;
        for (i, &count) in board.iter().enumerate().skip(1) {
            assert_eq!(count, rest % (i as u64 + 1), "{seeds} seeds, house {i}");
            rest -= count;
        }
        assert_eq!(rest, 0);
        assert_eq!(value["won"], true);
        assert_eq!(counts(&value["moves"]).len() as u64, seeds);
        let last = counts(&value["final"]);
        assert_eq!(last[0], seeds);
        assert!(last[1..].iter().all(|&c| c == 0));
    }
}

#[test]
fn plan_without_a_board_deals_a_winnable_board_of_10_to_40_seeds() {
    for _ in 0..5 {
        let value = plan(&[]);
        let seeds: u64 = counts(&value["board"]).iter().sum();
        assert!((10..=40).contains(&seeds), "{seeds}");
        assert_eq!(value["won"], true);
    }
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--seeds", "0"], "at least 1"),
        (&["--seeds", "abc"], "not a number"),
        (&["--seeds", "-3"], "negative"),
        (&["--seeds", "10000001"], "at most"),
        (&["--board", ""], "empty"),
        (&["--board", "0,-1,2"], "negative"),
        (&["--board", "0,x"], "not a number"),
        (&["--board", "0,,1"], "missing"),
        (&["--board", "0,18446744073709551616"], "too large"),
        (
            &["--board", "1,18446744073709551615"],
            "too many seeds in total: 18446744073709551616, and at most 18446744073709551615 fit",
        ),
        (&["--board", "0,1", "--seeds", "3"], "cannot be used with"),
    ];
    for (args, expected) in cases {
        for with_plan in [true, false] {
            let mut all = vec!["solitaire"];
            if with_plan {
                all.push("--plan");
            }
            all.extend_from_slice(args);
            let out = mancala(&all);
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{all:?}");
            assert_eq!(stderr.lines().count(), 1, "{all:?}: {stderr}");
            assert!(stderr.contains(expected), "{all:?}: {stderr}");
        }
    }
}

/// `position --board` and `solitaire --board` read counts with one parser:
/// the same fault gets the same words from both.
#[test]
fn both_commands_word_a_bad_count_the_same_way() {
    let stderr = |args: &[&str]| {
        let out = mancala(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr)
            .unwrap()
            .trim_end()
            .to_string()
    };
    for (item, why) in [
        ("-1", "is negative: a count of seeds is 0 or more"),
        (
            "x",
            "is not a number: a count of seeds is a whole number, like 4",
        ),
        (
            "1e3",
            "is not a number: a count of seeds is a whole number, like 4",
        ),
    ] {
        let expected = format!("--board item 2 ('{item}') {why}");
        let position = stderr(&["position", "--board", &format!("4,{item},4")]);
        let solitaire = stderr(&["solitaire", "--plan", "--board", &format!("0,{item},4")]);
        assert!(position.ends_with(&expected), "{position}");
        assert!(solitaire.ends_with(&expected), "{solitaire}");
    }
    // Each command states its own limit.
    assert!(
        stderr(&["position", "--board", "4,70000"]).ends_with("at most 65535"),
        "a position's counts are u16"
    );
    assert!(
        stderr(&["solitaire", "--plan", "--board", "0,18446744073709551616"])
            .ends_with("at most 18446744073709551615")
    );
    assert!(
        stderr(&["solitaire", "--plan", "--seeds", "-3"])
            .ends_with("--seeds '-3' is negative: a count of seeds is 0 or more")
    );
}

#[test]
fn without_a_terminal_the_game_says_so_and_fails() {
    let out = mancala(&["solitaire", "--seeds", "5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing drawn");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("needs a terminal") && stderr.contains("--plan"),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "no escape codes: {stderr:?}");
}
