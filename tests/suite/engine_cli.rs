//! `mancala engine` through the real binary: whole games over the
//! protocol Aualé speaks (Oware, and Kalah by `setoption`), checked move
//! by move against the rules; `go infinite` stopped; pondering; and bad
//! input answered without losing the position.

use crate::common;

use std::thread;
use std::time::{Duration, Instant};

use common::program::Program;
use common::scratch::Scratch;
use mancala::rules::oware::{OwareBoard, OwareRound};
use mancala::rules::{Board, Pit, Rules, Side};

/// The engine, given `uci` and `isready` and answered.
fn engine(scratch: &Scratch) -> Program {
    let mut program = Program::spawn(&scratch.data(), &["engine", "--endgame-seeds", "4"]);
    program.send("uci");
    program.wait_for("uciok", |t| t.contains("uciok\n"));
    program.send("isready");
    program.wait_for("readyok", |t| t.contains("readyok\n"));
    program
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
    program.send("quit");
    assert_eq!(program.wait_exit(), 0);
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
    program.send("quit");
    assert_eq!(program.wait_exit(), 0);
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
        String::from_utf8_lossy(b"\xff\xfe\x00 go").into_owned(),
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
    program.send("quit");
    assert_eq!(program.wait_exit(), 0);
    program.assert_clean("the engine");
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
