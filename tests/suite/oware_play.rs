//! `mancala --game oware` through the real binary (RULES.md §7): plain
//! transcripts (captures named house by house, a refused move that does
//! not feed, the end of a round, a match killed and resumed), records,
//! replay and statistics that name the game, the options Oware refuses,
//! and the full screen in tmux.

use std::path::{Path, PathBuf};

use mancala::plain::board::render_piles;
use mancala::rules::oware::{OwareBoard, OwareRound};
use mancala::rules::{GameBoard, MoveError, Pit, Rules, Step};
use mancala::store::Record;

use crate::common;

use common::program::{Program, run};
use common::scratch::Scratch;
use common::tmux::{Tmux, wait_for_line};

const NAMES: [&str; 2] = ["Alice", "Michael"];

fn letter(pit: Pit) -> char {
    Rules::KALAH.letter(pit).unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Deterministic pseudo-random rounds of Oware from the start (South
/// first), each move handed to `visit` with the round before it; stops at
/// the first round and move for which `visit` returns `Some`.
fn find<T>(mut visit: impl FnMut(&[Pit], &OwareRound, Pit) -> Option<T>) -> T {
    for seed in 1..500u64 {
        let mut state = seed;
        let mut round = OwareRound::new(OwareBoard::new());
        let mut moves = Vec::new();
        while !round.board().is_over() && moves.len() < 300 {
            let legal: Vec<Pit> = round.board().legal_moves().collect();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pit = legal[(state >> 33) as usize % legal.len()];
            if let Some(found) = visit(&moves, &round, pit) {
                return found;
            }
            round.play(pit).unwrap();
            moves.push(pit);
        }
    }
    panic!("no round of the walk has it");
}

fn typed(moves: &[Pit]) -> String {
    moves.iter().map(|&p| format!("{}\n", letter(p))).collect()
}

/// The five lines of each board box printed, in order.
fn boxes(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    (0..lines.len())
        .filter(|&i| lines[i].starts_with('╔'))
        .map(|i| lines[i..i + 5].join("\n"))
        .collect()
}

fn box_of(board: &OwareBoard) -> String {
    let drawn = GameBoard::Oware(*board).drawn();
    boxes(&render_piles(&drawn, NAMES, Some("captures"))).remove(0)
}

fn records(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

fn play(scratch: &Scratch, args: &[&str], input: &str) -> std::process::Output {
    run(&scratch.data(), &scratch.config(), args, input)
}

/// The full screen in tmux, `size` columns and rows, started with `args`,
/// and the file its exit status goes to; `None` without tmux.
fn full_screen(
    scratch: &Scratch,
    name: &str,
    (columns, rows): (u16, u16),
    args: &str,
) -> Option<(Tmux, PathBuf)> {
    let status = scratch.file("status");
    let tmux = Tmux::start(name, columns, rows, &scratch.command(args, &status))?;
    Some((tmux, status))
}

/// Quits the full screen, which exits with status 0.
fn quit(tmux: &Tmux, status: &Path) {
    tmux.keys(&["q"]);
    tmux.wait_for("Quit? (y/n)");
    tmux.keys(&["y"]);
    assert_eq!(wait_for_line(status), "0");
}

/// What `mancala replay --plain` shows of the record at `path`.
fn replayed(scratch: &Scratch, path: &Path) -> String {
    let replay = play(scratch, &["replay", "--plain", path.to_str().unwrap()], "");
    let shown = text(&replay.stdout);
    assert!(replay.status.success(), "{shown}");
    shown
}

/// `args` are refused: exit code 2, one line on standard error that
/// contains `needle`.
fn refused(scratch: &Scratch, args: &[&str], needle: &str) {
    let out = play(scratch, args, "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

/// Oware's refusals say "house", its word (RULES.md §7): an empty house,
/// the opponent's, one that is not on the board, a word that is no
/// house. Kalah's say "pit".
#[test]
fn oware_refusals_name_houses() {
    let scratch = Scratch::new("oware-houses");
    // a sows b-e; g sows h-k; a again is empty; h is North's; m is no
    // house; xyz is no house either.
    let out = play(
        &scratch,
        &[
            "--game", "oware", "--plain", "--first", "south", "Alice", "Michael",
        ],
        "a\ng\na\nh\nm\nxyz\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for said in [
        "Sorry, that house is empty.\n",
        "Sorry, you don't control that house.\n",
        "Sorry, there is no such house.\n",
        "'xyz' is not a house.\n",
    ] {
        assert!(stdout.contains(said), "{said:?} not in:\n{stdout}");
    }
    let refusals = stdout
        .lines()
        .filter(|l| l.starts_with("Sorry") || l.contains("is not a"));
    assert!(refusals.clone().count() >= 4, "{stdout}");
    assert!(refusals.clone().all(|l| !l.contains("pit")), "{stdout}");
}

#[test]
fn a_capture_of_several_houses_is_named_house_by_house() {
    // The first move of the walk that captures two houses or more.
    let (moves, said) = find(|moves, round, pit| {
        let mut next = round.clone();
        let mut steps = Vec::new();
        let played = next.play_traced(pit, &mut steps).unwrap();
        let takes: Vec<String> = steps
            .iter()
            .filter_map(|s| match *s {
                Step::Take { pit, seeds, .. } => Some(format!("{seeds} from {}", letter(pit))),
                _ => None,
            })
            .collect();
        (takes.len() >= 2 && played.end.is_none()).then(|| {
            let mut line = moves.to_vec();
            line.push(pit);
            let name = NAMES[played.mover.index()];
            (
                line,
                format!(
                    "{name} captured {} seeds: {}.\n",
                    played.captured,
                    takes.join(", ")
                ),
            )
        })
    });
    let scratch = Scratch::new("oware-capture");
    let out = play(
        &scratch,
        &[
            "--game", "oware", "--plain", "--first", "south", "Alice", "Michael",
        ],
        &typed(&moves),
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(&said), "{said:?} not in:\n{stdout}");
    assert!(
        stdout.contains("Rules: Oware (Abapa): 6 houses × 4 seeds"),
        "{stdout}"
    );
    // Every board as the rules core has it, the captured seeds labelled
    // where Kalah's stores are.
    let mut round = OwareRound::new(OwareBoard::new());
    let mut expected = vec![box_of(round.board())];
    for &pit in &moves {
        round.play(pit).unwrap();
        expected.push(box_of(round.board()));
    }
    assert_eq!(boxes(&stdout), expected, "{stdout}");
    assert!(stdout.contains("║ captures ║"), "{stdout}");
}

#[test]
fn a_move_that_does_not_feed_a_bare_opponent_is_refused_by_name() {
    // A position of the walk where the mover's opponent has no seeds and
    // a house of the mover's does not reach them.
    let (prefix, refused, feeding, opponent) = find(|moves, round, _| {
        let board = round.board();
        let mut refused = None;
        let mut feeding = None;
        for i in 0..14u8 {
            let pit = Pit::new(i);
            match board.check(pit) {
                Err(MoveError::MustFeed) => refused = Some(pit),
                Ok(()) => feeding = Some(pit),
                Err(_) => {}
            }
        }
        let opponent = NAMES[board.to_move().opponent().index()];
        Some((moves.to_vec(), refused?, feeding?, opponent))
    });
    let scratch = Scratch::new("oware-feed");
    let mut input = typed(&prefix);
    input.push_str(&format!("{}\n{}\n", letter(refused), letter(feeding)));
    let out = play(
        &scratch,
        &[
            "--game", "oware", "--plain", "--first", "south", "Alice", "Michael",
        ],
        &input,
    );
    let stdout = text(&out.stdout);
    let refusal = format!("Sorry, you must give {opponent} seeds.");
    let at = stdout.find(&refusal).unwrap_or_else(|| panic!("{stdout}"));
    // Nothing moved: the same player is asked again, and the feeding move
    // is played.
    let after = &stdout[at..];
    assert!(after.contains("choose a house"), "{after}");
    assert!(
        after.contains(&format!("sows {}:", letter(feeding))),
        "{after}"
    );
}

#[test]
fn a_round_of_oware_ends_is_recorded_replayed_and_counted_apart_from_kalah() {
    let scratch = Scratch::new("oware-round");
    let oware = play(
        &scratch,
        &[
            "--game", "oware", "--plain", "--south", "greedy", "--north", "random", "--first",
            "south", "--speed", "0", "Alice", "Michael",
        ],
        "n\n",
    );
    let stdout = text(&oware.stdout);
    assert!(oware.status.success(), "{stdout}");
    assert!(stdout.contains("The round is over: "), "{stdout}");
    let record_path = records(&scratch.data()).remove(0);
    let record_text = std::fs::read_to_string(&record_path).unwrap();
    assert!(record_text.contains("\ngame: oware\n"), "{record_text}");
    assert!(!record_text.contains("\ncapture:"), "{record_text}");
    // The record rebuilds the round by Oware's rules: its result line
    // agrees with the rules core's own replay of its moves.
    let record = Record::parse(&record_text).unwrap();
    let mut round = OwareRound::new(OwareBoard::new());
    for &pit in &record.moves {
        round.play(pit).unwrap();
    }
    assert!(round.board().is_over());
    let score = round.board().score();
    assert_eq!(score.south + score.north, 48);
    let result = format!("result: south {}, north {} (", score.south, score.north);
    assert!(record_text.contains(&result), "{record_text}");
    assert!(
        stdout.contains(&format!("{}–", score.south.max(score.north))),
        "{stdout}"
    );

    // mancala replay of the record shows the same round to its end.
    let shown = replayed(&scratch, &record_path);
    assert!(shown.contains("Rules: Oware (Abapa)"), "{shown}");
    assert_eq!(
        shown.matches("plays ").count(),
        record.moves.len(),
        "{shown}"
    );
    let last_box = boxes(&shown).pop().unwrap();
    assert_eq!(last_box, box_of(round.board()), "{shown}");
    // The analysis reads it by Oware's rules (estimates marked ≈).
    let analysed = play(
        &scratch,
        &[
            "analyze",
            "--plain",
            "--think",
            "5",
            record_path.to_str().unwrap(),
        ],
        "",
    );
    let analysed = text(&analysed.stdout);
    assert!(analysed.contains("Rules: Oware (Abapa)"), "{analysed}");
    // PGN is Kalah's: refused with one line, exit 2.
    let args = ["replay", "--format", "pgn", record_path.to_str().unwrap()];
    let out = play(&scratch, &args, "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");

    // A Kalah round of the same two: the statistics keep the games apart.
    let kalah = play(
        &scratch,
        &[
            "--plain", "--south", "greedy", "--north", "random", "--speed", "0", "Alice", "Michael",
        ],
        "n\n",
    );
    assert!(kalah.status.success());
    let stats = play(&scratch, &["stats", "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    let rules: Vec<String> = json["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rules"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rules.len(), 2, "{json}");
    assert!(rules.iter().any(|r| r.starts_with("Oware")), "{rules:?}");
    assert!(rules.iter().any(|r| r.starts_with("6 pits")), "{rules:?}");
}

#[test]
fn a_killed_oware_match_resumes_where_it_stopped() {
    let scratch = Scratch::new("oware-resume");
    let (moves, _) = find(|moves, round, _| {
        (moves.len() == 40 || round.board().is_over()).then(|| (moves.to_vec(), ()))
    });
    let args = [
        "--game", "oware", "--plain", "--first", "south", "Alice", "Michael",
    ];
    let played = 7;
    let mut program = Program::spawn(&scratch.data(), &args);
    for (i, &pit) in moves[..played].iter().enumerate() {
        program.wait_for("the question", |out| {
            out.matches("choose a house").count() > i
        });
        program.send(&letter(pit).to_string());
    }
    program.wait_for("the question", |out| {
        out.matches("choose a house").count() > played
    });
    program.kill(); // SIGKILL: no chance to clean up

    let mut round = OwareRound::new(OwareBoard::new());
    for &pit in &moves[..played] {
        round.play(pit).unwrap();
    }
    let mut input = String::from("y\n");
    input.push_str(&typed(&moves[played..]));
    let out = play(&scratch, &args, &input);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Resume the unfinished match? (y/n) y"),
        "{stdout}"
    );
    let mut expected = vec![box_of(round.board())];
    for &pit in &moves[played..] {
        round.play(pit).unwrap();
        expected.push(box_of(round.board()));
    }
    assert_eq!(boxes(&stdout), expected, "{stdout}");
}

#[test]
fn oware_refuses_what_only_kalah_has_with_one_line_and_exit_2() {
    let scratch = Scratch::new("oware-refuse");
    for (args, needle) in [
        (
            vec!["--game", "oware", "--south", "level:3", "Alice"],
            "the rated levels are Kalah's",
        ),
        (
            vec!["--game", "oware", "--pits", "4", "Alice", "Michael"],
            "leave out the rule options",
        ),
        (
            vec!["host", "Alice", "--game", "oware", "--seeds", "3"],
            "leave out the rule options",
        ),
    ] {
        refused(&scratch, &args, needle);
    }
    // One name alone plays Oware's computer (the levels are Kalah's).
    let out = play(&scratch, &["--game", "oware", "--plain", "Alice"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("(North, medium)"), "{stdout}");
}

#[test]
fn the_full_screen_plays_oware_with_the_captured_seeds_where_the_stores_were() {
    let scratch = Scratch::new("oware-screen");
    let args = "--game oware --first south Alice Michael";
    let Some((tmux, status)) = full_screen(&scratch, "oware", (80, 24), args) else {
        return;
    };
    let opening = tmux.wait_for("▶ Alice to move");
    assert!(opening.contains("Oware (Abapa)"), "{opening}");
    assert!(opening.contains("Michael's captures"), "{opening}");
    // f sows g, h, i, j: no store on the way.
    tmux.keys(&["f"]);
    let after = tmux.wait_for("▶ Michael to move");
    assert!(after.contains("Alice played f."), "{after}");
    // Alice's houses are not Michael's to play.
    tmux.keys(&["a"]);
    tmux.wait_for("Sorry, you don't control that house.");
    quit(&tmux, &status);
}

#[test]
fn an_oware_hint_in_plain_mode_names_a_house_and_says_it_is_an_estimate() {
    let scratch = Scratch::new("oware-hint");
    let out = play(
        &scratch,
        &[
            "--game", "oware", "--plain", "--first", "south", "--think", "50", "Alice", "Michael",
        ],
        "hint\n",
    );
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Hint: play "))
        .unwrap_or_else(|| panic!("{stdout}"));
    // South's houses a–f are all legal at the start
    let house = line["Hint: play ".len()..].chars().next().unwrap();
    assert!(('a'..='f').contains(&house), "{line}");
    assert!(
        line.ends_with("(an estimate: beyond the endgame database)."),
        "{line}"
    );
    assert!(!stdout.contains("no hints"), "{stdout}");
}

/// The one-line position of RULES.md §8.2 that the tests below play on
/// from: 24 to 20 captured, five seeds left, South to move.
const NEAR_THE_END: &str = "oware grandslam=nocapture S:0,0,0,1,2,0:24 N:1,0,0,0,0,0:20 south";

/// `mancala NAME NAME --from LINE` plays Oware on from the line `position
/// --format line` printed: its houses, captured seeds and mover; the
/// record keeps the start, its "same position" command rebuilds the end,
/// and the replay starts from the line.
#[test]
fn a_round_of_oware_plays_on_from_a_position_printed_as_a_line() {
    let scratch = Scratch::new("oware-from");
    let args = "position --game oware --board 0,0,0,1,2,0,1,0,0,0,0,0 --score 24,20 --format line";
    let printed = play(&scratch, &args.split_whitespace().collect::<Vec<_>>(), "");
    assert!(printed.status.success(), "{}", text(&printed.stderr));
    let line = text(&printed.stdout);
    assert_eq!(line.trim_end(), NEAR_THE_END);
    let start = *line
        .trim()
        .parse::<mancala::rules::Position>()
        .unwrap()
        .oware()
        .unwrap();

    let args = [
        "--plain",
        "--from",
        NEAR_THE_END,
        "--south",
        "greedy",
        "--north",
        "greedy",
        "Alice",
        "Michael",
    ];
    let out = play(&scratch, &args, "n\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Round 1: Alice moves first."), "{stdout}");
    assert_eq!(boxes(&stdout)[0], box_of(&start), "{stdout}");
    assert!(stdout.contains("The round is over: "), "{stdout}");

    let record_path = records(&scratch.data()).remove(0);
    let kept = std::fs::read_to_string(&record_path).unwrap();
    assert!(
        kept.contains("\nstart: 0,0,0,1,2,0,24,1,0,0,0,0,0,20\n"),
        "{kept}"
    );
    let record = Record::parse(&kept).unwrap();
    let mut round = OwareRound::new(start);
    for &pit in &record.moves {
        round.play(pit).unwrap();
    }
    assert!(round.board().is_over());
    let score = round.board().score();
    assert_eq!(score.south + score.north, 48);
    assert!(
        kept.contains(&format!(
            "result: south {}, north {} (",
            score.south, score.north
        )),
        "{kept}"
    );
    // The record's "same position" command gives the round's end.
    let command = kept
        .lines()
        .find_map(|l| l.strip_prefix("# The same position: mancala "))
        .expect("the command");
    let same = play(
        &scratch,
        &command.split_whitespace().collect::<Vec<_>>(),
        "",
    );
    let same: serde_json::Value = serde_json::from_slice(&same.stdout).unwrap();
    assert_eq!(same["board"], serde_json::json!(round.board().houses()));
    assert_eq!(same["score"]["south"], score.south, "{command}");

    let shown = replayed(&scratch, &record_path);
    assert!(
        shown.contains(&format!("From the position {NEAR_THE_END}")),
        "{shown}"
    );
    assert_eq!(boxes(&shown)[0], box_of(&start), "{shown}");
    assert_eq!(
        boxes(&shown).pop().unwrap(),
        box_of(round.board()),
        "{shown}"
    );

    // A line of another game, or of other rules, is refused in one line.
    for (args, needle) in [
        (
            vec![
                "--game",
                "oware",
                "--from",
                "kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south",
                "Alice",
                "Michael",
            ],
            "leave out --game oware",
        ),
        (
            vec![
                "--from",
                "oware grandslam=illegal S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south",
                "Alice",
                "Michael",
            ],
            "plays Abapa",
        ),
        (
            vec!["--from", "oware S:4,4,4:0 N:4,4,4,4,4,4:0 south", "Alice"],
            "3 houses given",
        ),
    ] {
        refused(&scratch, &args, needle);
    }
}

/// The full screen plays on from an Oware line, and its position key
/// (`C`) says the position in the same notation.
#[test]
fn the_full_screen_plays_on_from_an_oware_line_and_copies_it() {
    let scratch = Scratch::new("oware-from-screen");
    let args = format!("--from '{NEAR_THE_END}' Alice Michael");
    let Some((tmux, status)) = full_screen(&scratch, "oware-from", (100, 30), &args) else {
        return;
    };
    let opening = tmux.wait_for("▶ Alice to move");
    assert!(opening.contains("Oware (Abapa)"), "{opening}");
    assert!(opening.contains("24"), "{opening}");
    tmux.keys(&["C"]);
    let copied = tmux.wait_for("Position: oware");
    assert!(
        copied.contains(&format!("Position: {}", &NEAR_THE_END[..40])),
        "{copied}"
    );
    quit(&tmux, &status);
}
