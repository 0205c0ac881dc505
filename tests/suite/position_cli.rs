//! `mancala position` through the real binary: JSON out, bad input refused.

use crate::common;

use std::process::{Command, Output};

use serde_json::Value;

fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("run mancala")
}

fn position(args: &[&str]) -> Value {
    let out = mancala(&[&["position"], args].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Exit code 2, one line on stderr that contains `needle`, nothing on stdout.
fn refused(args: &[&str], needle: &str) {
    let out = mancala(&[&["position"], args].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
}

#[test]
fn start_position_as_json_in_the_documented_shape() {
    let v = position(&[]);
    let expected: Value = serde_json::from_str(
        r#"{"pits":6,"seeds":4,"board":[4,4,4,4,4,4,0,4,4,4,4,4,4,0],"to_move":"south","over":false,"score":{"south":0,"north":0},"winner":null}"#,
    )
    .unwrap();
    assert_eq!(v, expected);
}

#[test]
fn moves_are_played_in_order_and_extra_turns_continue_with_the_same_side() {
    let v = position(&["--moves", "c,a"]);
    assert_eq!(
        v["board"],
        serde_json::json!([0, 5, 1, 6, 6, 5, 1, 4, 4, 4, 4, 4, 4, 0])
    );
    assert_eq!(v["to_move"], "north");
    assert_eq!(v["score"]["south"], 1);
}

#[test]
fn rule_options_and_custom_boards_are_honoured() {
    let v = position(&["--pits", "4", "--seeds", "3"]);
    assert_eq!(
        v["board"],
        serde_json::json!([3, 3, 3, 3, 0, 3, 3, 3, 3, 0])
    );
    let v = position(&["--board", "0,0,0,0,0,1,20,1,1,1,1,1,1,20", "--moves", "f"]);
    assert_eq!(v["over"], true);
    assert_eq!(v["winner"], "north");
    assert_eq!(v["score"]["north"], 26);
    let v = position(&[
        "--board",
        "0,0,0,0,0,1,20,1,1,1,1,1,1,20",
        "--sweep",
        "none",
        "--moves",
        "f",
    ]);
    assert_eq!(v["winner"], "south");
    let v = position(&[
        "--variant",
        "avalanche",
        "--to-move",
        "north",
        "--moves",
        "g",
    ]);
    assert_eq!(v["pits"], 6);
    let total: u64 = v["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 48);
}

#[test]
fn an_illegal_move_names_its_position_letter_and_reason() {
    refused(
        &["--moves", "c,h"],
        "move 2 ('h', South to move): Sorry, you don't control that pit.",
    );
    refused(
        &["--moves", "c,c"],
        "move 2 ('c', South to move): Sorry, that pit is empty.",
    );
    refused(&["--moves", "a,z"], "move 2 ('z') is not a pit letter");
    refused(&["--moves", "a,,b"], "move 2 ('') is not a pit letter");
    refused(
        &["--board", "0,0,0,0,0,1,20,1,1,1,1,1,1,20", "--moves", "f,g"],
        "Sorry, the game is over.",
    );
}

#[test]
fn malformed_boards_and_impossible_rules_are_refused() {
    refused(&["--board", "4,4,x"], "board item 3 ('x')");
    refused(&["--board", "4,4,4"], "the board needs 14 counts");
    refused(
        &["--board", "-1,4,4,4,4,4,0,4,4,4,4,4,4,0"],
        "board item 1 ('-1')",
    );
    refused(&["--pits", "13"], "--pits");
    refused(&["--seeds", "0"], "--seeds");
    refused(&["--capture", "sometimes"], "sometimes");
    refused(&["--to-move", "east"], "east");
}

#[test]
fn a_position_printed_as_one_line_reads_back_as_the_same_position() {
    let args = [
        "--pits",
        "5",
        "--seeds",
        "3",
        "--capture",
        "nonempty",
        "--moves",
        "c,d",
    ];
    let out = mancala(&[&["position"], &args[..], &["--format", "line"]].concat());
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.starts_with("kalah 5x3 capture=nonempty "), "{line}");
    let back = position(&["--from", line.trim_end()]);
    assert_eq!(back, position(&args));
    // moves played on from it, as from any position
    let on = position(&["--from", line.trim_end(), "--moves", "g"]);
    assert_eq!(on, position(&[&args[..6], &["--moves", "c,d,g"]].concat()));
    // the example of RULES.md §8.1, as a person types it
    let typed = position(&["--from", "kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south"]);
    assert_eq!(typed, position(&[]));
    refused(
        &["--from", "kalah 6x4 S:1,2:0 N:4,4,4,4,4,4:0 south"],
        "2 houses",
    );
    // Oware's positions have their own line (RULES.md §8.2), read back
    // the same, played on from, its game stated by the line itself.
    let oware = ["--game", "oware", "--moves", "c,h,d"];
    let out = mancala(&[&["position"], &oware[..], &["--format", "line"]].concat());
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        line.trim_end(),
        "oware grandslam=nocapture S:4,4,0,0,6,6:0 N:6,1,6,5,5,5:0 north"
    );
    assert_eq!(position(&["--from", line.trim_end()]), position(&oware));
    assert_eq!(
        position(&["--from", line.trim_end(), "--moves", "i"]),
        position(&["--game", "oware", "--moves", "c,h,d,i"])
    );
    refused(
        &["--from", "oware S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 east"],
        "'east' is not part of a position",
    );
    refused(
        &["--from", line.trim_end(), "--score", "1,2"],
        "the --from position states the captured seeds",
    );
}

/// `mancala NAME NAME --from POSITION` plays on from the position a
/// `position --format line` printed: its rules, its houses and stores, its
/// side to move; and the record of the round keeps where it started.
#[test]
fn a_game_plays_on_from_a_position_printed_as_a_line() {
    let out = mancala(&[
        "position",
        "--board",
        "0,0,0,0,1,1,20,3,0,0,0,0,2,21",
        "--format",
        "line",
    ]);
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    let line = line.trim();
    let data = std::env::temp_dir().join(format!("mancala-from-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    // f ends in the store (an extra turn); e ends in the empty f and takes
    // g's 3: South's side is empty, 25 to 23.
    let out = common::program::run(
        &data,
        &data,
        &["--plain", "Alice", "Bob", "--from", line],
        "f\ne\nn\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Round 1: Alice moves first."), "{text}");
    assert!(text.contains("Alice gets an extra turn!"), "{text}");
    assert!(text.contains("Alice wins! 25–23"), "{text}");
    // The record keeps the start, so replay starts from it too.
    let records = data.join("records");
    let record = std::fs::read_dir(&records)
        .expect("a records folder")
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "txt"))
        .expect("one record");
    let kept = std::fs::read_to_string(&record).unwrap();
    assert!(kept.contains("start:"), "{kept}");
    let _ = std::fs::remove_dir_all(&data);

    // The position states its own rules: rule options beside it are refused.
    let out = mancala(&["Alice", "Bob", "--from", line, "--pits", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from states its own rules"));
    let out = mancala(&["Alice", "Bob", "--from", "kalah 6x4 nonsense"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A finished position (one side's pits empty; in Oware a player past
/// half, or a mover with no move) is refused for play, before any screen,
/// with one line and exit code 2: it used to start a round that was over
/// and record an empty round at every "Play again?". `position --from`
/// still reads it.
#[test]
fn a_finished_position_is_refused_for_play() {
    let scratch = common::scratch::Scratch::new("finished-from");
    let (data, config) = (scratch.data(), scratch.config());
    for (line, why) in [
        (
            "kalah 6x4 S:0,0,0,0,0,0:8 N:1,1,3,1,0,0:33 south",
            "one side's pits are all empty",
        ),
        (
            "oware S:0,0,0,1,2,0:26 N:1,0,0,0,0,0:18 south",
            "captured more than half of the seeds",
        ),
        (
            "oware S:0,0,0,0,0,0:20 N:4,4,0,0,0,0:20 south",
            "no legal move",
        ),
    ] {
        for plain in [&["--plain"][..], &[]] {
            let args = [plain, &["Ann", "Ben", "--from", line]].concat();
            let out = common::program::run(&data, &config, &args, "y\ny\nn\n");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(out.stdout.is_empty(), "{args:?}: {:?}", out.stdout);
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains("--from: that round is finished"), "{err}");
            assert!(err.contains(why), "{err}");
        }
        assert_eq!(position(&["--from", line])["over"], true, "{line}");
    }
    assert!(!data.join("records").exists(), "a round was recorded");
}

/// A bad line's words are quoted in the error with their control
/// characters escaped: an escape sequence in `--from` never reaches the
/// terminal (it did: the error printed the ESC byte as it came).
#[test]
fn an_escape_sequence_in_a_bad_line_is_shown_escaped() {
    for from in [
        "\u{1b}[31mkalah S:1:0",
        "oware S:1,2,3,4,5,x\u{1b}[2J:0 N:1:0 south",
    ] {
        let out = mancala(&["position", "--from", from]);
        assert_eq!(out.status.code(), Some(2));
        let said = String::from_utf8(out.stderr).unwrap();
        assert!(!said.contains('\u{1b}'), "{said:?}");
        assert!(said.contains("\\u{1b}["), "{said:?}");
    }
}

/// A bidirectional override or an invisible character in a bad `--from`
/// line is shown escaped too: the line reads as it was typed, not
/// reversed or with a character hidden (the error once escaped control
/// characters only).
#[test]
fn a_bidi_or_invisible_character_in_a_bad_line_is_shown_escaped() {
    for (from, hidden) in [
        (
            "kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4\u{202e},4,4,4:0 south",
            "\\u{202e}",
        ),
        ("oware S:1,2,3,4,5,x\u{200b}:0 N:1:0 south", "\\u{200b}"),
    ] {
        let out = mancala(&["position", "--from", from]);
        assert_eq!(out.status.code(), Some(2));
        let said = String::from_utf8(out.stderr).unwrap();
        assert!(!said.contains(['\u{202e}', '\u{200b}']), "{said:?}");
        assert!(said.contains(hidden), "{said:?}");
    }
}
