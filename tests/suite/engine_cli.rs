//! `mancala engine` through the real binary: whole games over the
//! protocol Aualé speaks (Oware, and Kalah by `setoption`), checked move
//! by move against the rules; `go infinite` stopped; pondering; and bad
//! input answered without losing the position; Oware answered from the
//! endgame database kept in the data directory.

use crate::common;

use std::thread;
use std::time::{Duration, Instant};

use common::program::Program;
use common::scratch::Scratch;
use mancala::players::oware::endgame::positions;
use mancala::players::oware::{Builder, OwareEndgame, Probe};
use mancala::rules::oware::{OwareBoard, OwareRound, OwareRules};
use mancala::rules::{Board, Pit, Rules, Score, Side};
use mancala::store::oware_endgame::{DIR, level_file, level_path};

/// The engine, given `uci` and `isready` and answered.
fn engine(scratch: &Scratch) -> Program {
    let mut program = Program::spawn(&scratch.data(), &["engine"]);
    program.send("uci");
    program.wait_for("uciok", |t| t.contains("uciok\n"));
    program.send("isready");
    program.wait_for("readyok", |t| t.contains("readyok\n"));
    program
}

/// Sends `quit`; the engine ends at once, and well.
fn quit(program: &mut Program) {
    program.send("quit");
    assert_eq!(program.wait_exit(), 0);
}

/// The lines starting with `bestmove`.
fn bestmoves(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("bestmove"))
        .map(str::to_string)
        .collect()
}

/// Sends `go …` and returns the `bestmove` line that answers it.
fn go(program: &mut Program, go: &str) -> String {
    let before = bestmoves(&program.text()).len();
    program.send(go);
    let text = program.wait_for("bestmove", |t| bestmoves(t).len() > before);
    bestmoves(&text)[before].clone()
}

/// Aalina's letter of a house on a board of `pits` houses a side.
fn letter(pits: usize, pit: Pit) -> char {
    let i = pit.index();
    if i < pits {
        char::from(b'A' + i as u8)
    } else {
        char::from(b'a' + (i - pits - 1) as u8)
    }
}

/// The house an Aalina letter names.
fn pit(pits: usize, letter: char) -> Pit {
    if letter.is_ascii_uppercase() {
        Pit::new(letter as u8 - b'A')
    } else {
        Pit::new((pits + 1) as u8 + (letter as u8 - b'a'))
    }
}

/// The move of a `bestmove` line, and its ponder move if any.
fn parse_bestmove(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["bestmove", best] => ((*best).to_string(), None),
        ["bestmove", best, "ponder", ponder] => ((*best).to_string(), Some((*ponder).to_string())),
        _ => panic!("not a bestmove line: {line}"),
    }
}

#[test]
fn a_whole_oware_round_is_played_over_the_protocol() {
    let scratch = Scratch::new("engine-oware");
    let mut program = engine(&scratch);
    program.send("ucinewgame");
    let mut round = OwareRound::new(OwareBoard::new());
    let mut moves = String::new();
    let mut plies = 0;
    while !round.board().is_over() {
        assert!(plies < 600, "the round does not end: {moves}");
        program.send(&format!("position startpos moves {moves}"));
        let line = go(&mut program, "go depth 3");
        let (best, ponder) = parse_bestmove(&line);
        let mut letters = best.chars();
        let (Some(c), None) = (letters.next(), letters.next()) else {
            panic!("one letter expected: {line}");
        };
        let chosen = pit(6, c);
        let mover = round.board().to_move();
        assert_eq!(c.is_ascii_uppercase(), mover == Side::South, "{line}");
        round
            .play(chosen)
            .unwrap_or_else(|e| panic!("{line} is illegal after '{moves}': {e}"));
        if let Some(ponder) = ponder {
            let reply = pit(6, ponder.chars().next().unwrap());
            assert!(
                round.board().legal_moves().contains(reply),
                "{line}: the ponder move is not the opponent's legal move"
            );
        }
        moves.push(c);
        plies += 1;
    }
    // Every `info` line carries a depth, a score and the line it expects.
    let text = program.text();
    assert!(
        text.lines()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.contains(" score cp ") && l.contains(" pv ")),
        "{text}"
    );
    // The round is over: no move, said as the protocol says it.
    program.send(&format!("position startpos moves {moves}"));
    assert_eq!(go(&mut program, "go depth 3"), "bestmove 0000");
    let score = round.board().score();
    assert_eq!(score.south + score.north, 48);
    quit(&mut program);
    program.assert_clean("the engine");
}

#[test]
fn a_whole_kalah_round_is_played_after_setoption_game_kalah() {
    let scratch = Scratch::new("engine-kalah");
    let mut program = engine(&scratch);
    program.send("setoption name Game value kalah");
    // A smaller Kalah, from a position: 4 houses a side, 3 seeds each.
    let start = "3-3-3-3-3-3-3-3-0-0-S";
    let rules = Rules::new(4, 3).unwrap();
    let mut board = Board::new(rules);
    let mut moves = String::new();
    while !board.is_over() {
        assert!(moves.len() < 200, "the round does not end: {moves}");
        program.send(&format!("position fen {start} moves {moves}"));
        let line = go(&mut program, "go movetime 50");
        let (best, _) = parse_bestmove(&line);
        let c = best.chars().next().unwrap();
        assert_eq!(
            c.is_ascii_uppercase(),
            board.to_move() == Side::South,
            "{line}"
        );
        board
            .play(pit(4, c))
            .unwrap_or_else(|e| panic!("{line} is illegal after '{moves}': {e}"));
        moves.push(c);
    }
    assert_eq!(letter(4, Pit::new(5)), 'a');
    quit(&mut program);
}

#[test]
fn go_infinite_thinks_until_stop_and_stop_is_answered_at_once() {
    let scratch = Scratch::new("engine-infinite");
    let mut program = engine(&scratch);
    program.send("position startpos moves FfBe");
    program.send("go infinite");
    thread::sleep(Duration::from_millis(500));
    program.send("isready");
    let text = program.wait_for("readyok while thinking", |t| {
        t.matches("readyok").count() == 2
    });
    assert!(
        bestmoves(&text).is_empty(),
        "no bestmove before stop:\n{text}"
    );
    let asked = Instant::now();
    program.send("stop");
    let text = program.wait_for("bestmove after stop", |t| !bestmoves(t).is_empty());
    let took = asked.elapsed();
    // Generous for a loaded machine; without the stop flag the search
    // would go on for ever.
    assert!(took < Duration::from_secs(5), "stop took {took:?}");
    let (best, _) = parse_bestmove(&bestmoves(&text)[0]);
    let mut board = OwareBoard::new();
    for c in "FfBe".chars() {
        board.play(pit(6, c)).unwrap();
    }
    assert!(
        board
            .legal_moves()
            .contains(pit(6, best.chars().next().unwrap()))
    );
    // Pondering: no bestmove until ponderhit, then within the move time.
    program.send("position startpos moves Ff");
    program.send("go ponder movetime 200");
    thread::sleep(Duration::from_millis(400));
    assert_eq!(bestmoves(&program.text()).len(), 1, "pondering waits");
    program.send("ponderhit");
    program.wait_for("bestmove after ponderhit", |t| bestmoves(t).len() == 2);
    // The end of the input ends the engine, as quit does.
    program.close_input();
    assert_eq!(program.wait_exit(), 0);
}

#[test]
fn bad_input_is_answered_with_an_error_line_and_changes_nothing() {
    let scratch = Scratch::new("engine-bad");
    let mut program = engine(&scratch);
    program.send("position startpos moves F");
    let bad = [
        "fly me to the moon".to_string(),
        "\u{1b}[2J\u{7}".to_string(),
        "position startpos moves Fg".to_string(),
        "position startpos moves FA".to_string(),
        "position startpos moves Fa".repeat(2_000),
        "position fen 4-4-4-S".to_string(),
        "position fen 99999999999999-4-4-4-4-4-4-4-4-4-4-4-0-0-S".to_string(),
        "position sideways".to_string(),
        "go depth -1".to_string(),
        "go movetime".to_string(),
        "setoption name Game value chess".to_string(),
        "setoption name Hash value 99999999999".to_string(),
        "ponderhit".to_string(),
        "x".repeat(100_000),
        String::from_utf8_lossy(b"\xff\xfe\x00 fly").into_owned(),
    ];
    for line in &bad {
        program.send(line);
    }
    program.send("isready");
    let text = program.wait_for("readyok after the bad lines", |t| {
        t.matches("readyok").count() == 2
    });
    let errors = text
        .lines()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(errors, bad.len(), "one error line per bad line:\n{text}");
    // The position is still the one given before: North to move after F.
    let line = go(&mut program, "go depth 2");
    let (best, _) = parse_bestmove(&line);
    let c = best.chars().next().unwrap();
    assert!(c.is_ascii_lowercase(), "North moves: {line}");
    let mut board = OwareBoard::new();
    board.play(pit(6, 'F')).unwrap();
    assert!(board.legal_moves().contains(pit(6, c)), "{line}");
    quit(&mut program);
    program.assert_clean("the engine");
}

/// The `info depth` line of the search `go` started, once the engine
/// (after `debug on`) says its database holds `seeds` or more.
fn search_with_database(program: &mut Program, fen: &str, seeds: usize) -> String {
    let start = Instant::now();
    loop {
        let seen = program.text().len();
        program.send(&format!("position fen {fen}"));
        go(program, "go depth 1");
        let text = program.text()[seen..].to_string();
        let held = text
            .split("endgame database up to ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok());
        if held.is_some_and(|n| n >= seeds) {
            return text
                .lines()
                .find(|l| l.starts_with("info depth 1 "))
                .unwrap_or_else(|| panic!("no info line:\n{text}"))
                .to_string();
        }
        assert!(
            start.elapsed() < common::program::PATIENCE,
            "the database never held {seeds} seeds:\n{text}"
        );
        thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_engine_answers_from_the_database_kept_in_the_data_directory() {
    // Counts 0 and 1 kept as built; count 2 kept with every position
    // valued `planted` for its mover (well formed, checksummed, and false):
    // an engine that built its own database would not answer with it.
    let scratch = Scratch::new("engine-kept");
    let dir = scratch.data().join(DIR);
    std::fs::create_dir_all(&dir).unwrap();
    let mut builder = Builder::new();
    for n in 0..2 {
        builder.build_next();
        std::fs::write(
            level_path(&dir, n),
            level_file(n, &builder.level_bytes(n).unwrap()),
        )
        .unwrap();
    }
    // South's only move, A, leaves North to move with two seeds (B and f)
    // and nothing captured: the position's value is that child's.
    let fen = "1-0-0-0-0-0-0-0-0-0-0-1-23-23-S";
    let mut child = OwareBoard::from_houses(
        OwareRules::ABAPA,
        &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        Score {
            south: 23,
            north: 23,
        },
        Side::South,
    )
    .unwrap();
    child.play(pit(6, 'A')).unwrap();
    let Probe::Value(truth) = OwareEndgame::build(2).probe(&child) else {
        panic!("two seeds without a repetition have a value");
    };
    let planted: i8 = if truth == 2 { -2 } else { 2 };
    let bounds = [planted as u8; 2].repeat(positions(2) as usize);
    std::fs::write(level_path(&dir, 2), level_file(2, &bounds)).unwrap();

    let mut program = engine(&scratch);
    program.send("debug on");
    let line = search_with_database(&mut program, fen, 2);
    let want = format!("info depth 1 score cp {} ", -100 * i32::from(planted));
    assert!(
        line.starts_with(&want),
        "the kept value {planted} (the true one is {truth}): {line}"
    );
    // Without the database, the search is an estimate at depth 1.
    program.send("setoption name UseLeaves value false");
    program.send(&format!("position fen {fen}"));
    let before = program.text().len();
    go(&mut program, "go depth 1");
    let text = program.text()[before..].to_string();
    assert!(!text.contains(&want), "{text}");
    quit(&mut program);
    program.assert_clean("the engine");
}

/// Waits, at most [`common::program::PATIENCE`], for `file` to exist.
fn wait_for_file(file: &std::path::Path) {
    let start = Instant::now();
    while !file.exists() {
        assert!(
            start.elapsed() < common::program::PATIENCE,
            "{} never came",
            file.display()
        );
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_engine_that_only_plays_kalah_never_grows_the_oware_database() {
    // Two engines started together: one told to play Kalah before anything
    // else, one left on Oware (the default). The Oware one's first counts
    // written show that a grower started with a process has had its time;
    // the Kalah one's data directory must still have no database.
    let kalah_dir = Scratch::new("engine-kalah-only");
    let oware_dir = Scratch::new("engine-oware-grows");
    let mut kalah = Program::spawn(&kalah_dir.data(), &["engine"]);
    let mut oware = Program::spawn(&oware_dir.data(), &["engine"]);
    for line in [
        "uci",
        "setoption name Game value kalah",
        "isready",
        "ucinewgame",
        "position startpos moves C",
    ] {
        kalah.send(line);
    }
    kalah.wait_for("readyok", |t| t.contains("readyok\n"));
    assert!(go(&mut kalah, "go depth 3").starts_with("bestmove "));
    oware.send("uci");
    oware.send("isready");
    oware.wait_for("readyok", |t| t.contains("readyok\n"));
    wait_for_file(&level_path(&oware_dir.data().join(DIR), 6));
    quit(&mut kalah);
    kalah.assert_clean("the Kalah engine");
    assert!(
        !kalah_dir.data().join(DIR).exists(),
        "a Kalah-only engine session made {}",
        kalah_dir.data().join(DIR).display()
    );
    quit(&mut oware);
}

/// The error lines in `text`.
fn errors(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

#[test]
fn ownbook_as_auale_sends_it_is_taken_without_an_error() {
    // Aualé sets OwnBook on every engine at every strength (true from
    // medium up); Aalina takes it. There is no book here: nothing changes.
    let scratch = Scratch::new("engine-ownbook");
    let mut program = engine(&scratch);
    program.send("setoption name OwnBook value true");
    program.send("setoption name OwnBook value false");
    program.send("setoption name OwnBook value maybe");
    program.send("isready");
    let text = program.wait_for("readyok", |t| t.matches("readyok").count() == 2);
    assert_eq!(
        errors(&text),
        ["info string error: setoption OwnBook: the value is true or false"],
        "{text}"
    );
    quit(&mut program);
}

#[test]
fn words_before_a_command_are_skipped_and_the_command_done() {
    // "If the engine receives an unknown command or token it should just
    // ignore it and try to parse the rest of the string" (Aalina reads a
    // word at a time): the command after them is done.
    let scratch = Scratch::new("engine-skip");
    let mut program = engine(&scratch);
    program.send("joho isready");
    let text = program.wait_for("readyok", |t| t.matches("readyok").count() == 2);
    assert!(errors(&text).is_empty(), "{text}");
    quit(&mut program);
}

#[test]
fn go_with_limits_it_does_not_know_still_answers_a_bestmove() {
    // A runner's `go searchmoves …` or `go mate N`: the words are skipped
    // and the search answers, as Aalina's does (a `go` left unanswered
    // hangs the runner).
    let scratch = Scratch::new("engine-go-unknown");
    let mut program = engine(&scratch);
    program.send("position startpos moves F");
    let line = go(&mut program, "go searchmoves a b depth 2 mate 3");
    let (best, _) = parse_bestmove(&line);
    let mut board = OwareBoard::new();
    board.play(pit(6, 'F')).unwrap();
    assert!(
        board
            .legal_moves()
            .contains(pit(6, best.chars().next().unwrap())),
        "{line}"
    );
    assert!(errors(&program.text()).is_empty(), "{}", program.text());
    quit(&mut program);
}

#[test]
fn the_arena_plays_oware_between_computer_players() {
    let scratch = Scratch::new("arena-oware");
    let mut program = Program::spawn(
        &scratch.data(),
        &[
            "arena", "--game", "oware", "medium", "random", "--rounds", "2", "--nodes", "2000",
            "--json",
        ],
    );
    assert_eq!(program.wait_exit(), 0, "{}", program.text());
    let report: serde_json::Value = serde_json::from_str(program.text().trim()).unwrap();
    assert_eq!(report["rounds"], 2);
    assert_eq!(report["a"]["kind"], "medium");
    assert_eq!(report["a"]["wins"], 2, "{report}");
    // The rated ladder is Kalah's; Kalah's rule options are refused.
    for args in [
        &["arena", "--game", "oware", "level:3", "random"][..],
        &[
            "arena", "--game", "oware", "--pits", "4", "random", "random",
        ][..],
    ] {
        let mut program = Program::spawn(&scratch.data(), args);
        assert_eq!(program.wait_exit(), 2, "{args:?}: {}", program.text());
    }
}
