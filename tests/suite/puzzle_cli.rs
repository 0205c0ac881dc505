//! `mancala puzzle` through the real binary: every puzzle's stated best
//! moves and losses are checked against an independent brute-force search
//! written here (on the oracle's rules, `common::oracle`), and the
//! progress (streak, rating, failed puzzles coming back) is kept in the
//! data directory.

use crate::common;

use std::collections::HashMap;
use std::process::Output;

use common::Oracle;
use common::scratch::Scratch;
use mancala::rules::{Position, Side};
use serde_json::Value;

fn mancala(scratch: &Scratch, args: &[&str], input: &str) -> Output {
    common::program::run(&scratch.data(), &scratch.config(), args, input)
}

fn puzzles(scratch: &Scratch, args: &[&str]) -> Vec<Value> {
    let out = mancala(scratch, &[&["puzzle", "--json"], args].concat(), "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

/// Values found so far, by position and mover (of one set of rules).
type Memo = HashMap<(Vec<u32>, usize), i32>;

/// The final margin for the side to move under perfect play, by trying
/// every line (memoised on the position).
fn brute(o: &Oracle, memo: &mut Memo) -> i32 {
    let me = o.mover;
    if o.over {
        let store = |p: usize| o.cells[if p == 0 { o.n } else { 2 * o.n + 1 }] as i32;
        return store(me) - store(1 - me);
    }
    let key = (o.cells.clone(), me);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let best = o
        .legal()
        .into_iter()
        .map(|m| after(o, m, memo))
        .max()
        .expect("a legal move");
    memo.insert(key, best);
    best
}

/// The value for the side to move of playing `m` (cell index).
fn after(o: &Oracle, m: usize, memo: &mut Memo) -> i32 {
    let me = o.mover;
    let mut next = o.clone();
    next.play(m);
    let v = brute(&next, memo);
    if next.over {
        // the margin of the finished game for the mover after it
        let store = |p: usize| next.cells[if p == 0 { next.n } else { 2 * next.n + 1 }] as i32;
        store(me) - store(1 - me)
    } else if next.mover == me {
        v
    } else {
        -v
    }
}

/// Each legal move's letter and value for the side to move, by brute force.
fn move_values(puzzle: &Value, memo: &mut Memo) -> (Vec<(char, i32)>, Side) {
    let position: Position = puzzle["position"].as_str().unwrap().parse().unwrap();
    let board = position.kalah().expect("a puzzle is Kalah's");
    let rules = board.rules();
    assert_eq!(
        puzzle["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as u16)
            .collect::<Vec<_>>(),
        board.counts(),
        "board and position agree"
    );
    let o = Oracle::new(rules, board.counts(), board.to_move());
    let values = o
        .legal()
        .into_iter()
        .map(|m| {
            let pit = rules
                .pits_of(Side::South)
                .chain(rules.pits_of(Side::North))
                .find(|p| p.index() == m)
                .unwrap();
            (rules.letter(pit).unwrap(), after(&o, m, memo))
        })
        .collect();
    (values, board.to_move())
}

/// The puzzle's `best` and `losses` are exactly the brute force's.
fn check_against_brute_force(puzzle: &Value, memo: &mut Memo) -> Vec<(char, i32)> {
    let (values, to_move) = move_values(puzzle, memo);
    assert_eq!(puzzle["to_move"], to_move.as_str());
    let top = values.iter().map(|&(_, v)| v).max().unwrap();
    let best: Vec<String> = values
        .iter()
        .filter(|&&(_, v)| v == top)
        .map(|&(c, _)| c.to_string())
        .collect();
    let stated: Vec<String> = puzzle["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(stated, best, "best moves of {puzzle}");
    let losses: serde_json::Map<String, Value> = values
        .iter()
        .filter(|&&(_, v)| v < top)
        .map(|&(c, v)| (c.to_string(), (top - v).into()))
        .collect();
    assert_eq!(
        puzzle["losses"],
        Value::Object(losses),
        "losses of {puzzle}"
    );
    assert_eq!(puzzle["value"], top);
    values
}

#[test]
fn builtin_puzzles_best_moves_and_losses_are_the_brute_forces() {
    let scratch = Scratch::new("puzzle-brute");
    let mut checked = 0;
    for args in [
        &["--pits", "3", "--seeds", "3"][..],
        &["--pits", "4", "--seeds", "2", "--seed", "5"],
        &[
            "--pits",
            "4",
            "--seeds",
            "2",
            "--capture",
            "nonempty",
            "--seed",
            "3",
        ],
        &[
            "--pits", "3", "--seeds", "4", "--sweep", "none", "--seed", "11",
        ],
        &["--pits", "2", "--seeds", "5", "--sowing", "relay"],
    ] {
        let listed = puzzles(&scratch, &[args, &["--count", "4"]].concat());
        assert!(!listed.is_empty(), "{args:?} deals puzzles");
        let mut memo = Memo::new();
        for puzzle in &listed {
            assert_eq!(puzzle["source"], "builtin");
            let values = check_against_brute_force(puzzle, &mut memo);
            // a built-in puzzle: one move keeps the value, every other
            // loses at least 4
            let top = values.iter().map(|&(_, v)| v).max().unwrap();
            assert_eq!(values.iter().filter(|&&(_, v)| v == top).count(), 1);
            assert!(values.iter().all(|&(_, v)| v == top || top - v >= 4));
            checked += 1;
        }
        // the same seed, the same puzzles
        assert_eq!(
            puzzles(&scratch, &[args, &["--count", "4"]].concat()),
            listed
        );
    }
    assert!(checked >= 12, "{checked} puzzles checked");
}

#[test]
fn own_puzzles_are_the_moves_of_a_record_that_lost_three_or_more() {
    let scratch = Scratch::new("puzzle-mine");
    let records = scratch.data().join("records");
    std::fs::create_dir_all(&records).unwrap();
    // A round of 3x3 where South (a person) plays the first legal pit and
    // North (a computer) the last: South's mistakes are the puzzles.
    let rules = mancala::rules::Rules::new(3, 3).unwrap();
    let mut board = mancala::rules::Board::new(rules);
    let mut moves = Vec::new();
    while !board.is_over() {
        let legal: Vec<_> = board.legal_moves().collect();
        let pit = if board.to_move() == Side::South {
            legal[0]
        } else {
            *legal.last().unwrap()
        };
        moves.push(rules.letter(pit).unwrap().to_string());
        board.play(pit).unwrap();
    }
    let record = format!(
        "mancala record 1\npits: 3\nseeds: 3\ncapture: always\nsowing: single\nsweep: owner\nsouth: Alice\nsouth-player: human\nnorth: Bot\nnorth-player: greedy\nstarter: south\nmoves: {}\n",
        moves.join(",")
    );
    std::fs::write(records.join("20260101-120000-Alice-vs-Bot-r1.txt"), record).unwrap();
    let listed = puzzles(&scratch, &["--mine", "--count", "100"]);
    // every South position of the round, by brute force
    let mut board = mancala::rules::Board::new(rules);
    let mut expected = Vec::new();
    let mut memo = Memo::new();
    for (i, letter) in moves.iter().enumerate() {
        let letter = letter.chars().next().unwrap();
        if board.to_move() == Side::South && board.legal_moves().count() >= 2 {
            let value = serde_json::json!({
                "position": Position::from(board).to_string(),
                "board": board.counts(),
            });
            let (values, _) = move_values(&value, &mut memo);
            let top = values.iter().map(|&(_, v)| v).max().unwrap();
            let played = values.iter().find(|&&(c, _)| c == letter).unwrap().1;
            if top - played >= 3 {
                expected.push((i + 1, letter));
            }
        }
        board.play(rules.pit_by_letter(letter).unwrap()).unwrap();
    }
    let found: Vec<(usize, char)> = listed
        .iter()
        .map(|p| {
            assert_eq!(p["source"], "mine");
            assert_eq!(p["player"], "Alice");
            check_against_brute_force(p, &mut memo);
            (
                p["ply"].as_u64().unwrap() as usize,
                p["played"].as_str().unwrap().chars().next().unwrap(),
            )
        })
        .collect();
    assert!(!expected.is_empty(), "the round has mistakes");
    assert_eq!(found, expected);
}

#[test]
fn answers_keep_the_streak_and_a_missed_puzzle_comes_back() {
    let scratch = Scratch::new("puzzle-plain");
    let args = ["--pits", "4", "--seeds", "3"];
    let first = &puzzles(&scratch, &[&args[..], &["--count", "1"]].concat())[0];
    let best = first["best"][0].as_str().unwrap().to_string();
    let wrong = first["losses"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    // solve the first, miss the second on purpose (its first wrong move)
    let out = mancala(
        &scratch,
        &[&["puzzle", "--plain"], &args[..]].concat(),
        &format!("{best}\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Best!"), "{text}");
    assert!(text.contains("The best line:"), "{text}");
    assert!(text.contains("Solved · streak 1"), "{text}");
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(scratch.data().join("puzzles.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(kept["streak"], 1);
    assert!(kept["rating"].as_f64().unwrap() > 1200.0);
    // the next run deals the next built-in puzzle, not the first again
    let out = mancala(
        &scratch,
        &[&["puzzle", "--plain"], &args[..]].concat(),
        "q\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(seed 2)"), "{text}");
    // a missed puzzle: said, and queued to come back
    let scratch = Scratch::new("puzzle-missed");
    let out = mancala(
        &scratch,
        &[&["puzzle", "--plain"], &args[..]].concat(),
        &format!("{wrong}\nq\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Not the best"), "{text}");
    assert!(text.contains("comes back after 3 more puzzles"), "{text}");
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(scratch.data().join("puzzles.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(kept["streak"], 0);
    assert_eq!(kept["reviews"].as_array().unwrap().len(), 1);
    assert_eq!(kept["reviews"][0]["puzzle"]["position"], first["position"]);
}

/// Puzzles from a pipe, as a script plays them: each prompt with the
/// answer read echoed after it, the verdict, the next puzzle, and a clean
/// end (exit 0, the rating said) when the input ends.
#[test]
fn puzzles_from_a_pipe_read_as_a_transcript_and_end_with_the_input() {
    let scratch = Scratch::new("puzzle-pipe");
    let args = ["--pits", "4", "--seeds", "3"];
    let listed = puzzles(&scratch, &[&args[..], &["--count", "2"]].concat());
    let best: Vec<String> = listed
        .iter()
        .map(|p| p["best"][0].as_str().unwrap().to_string())
        .collect();
    // a pit of the other side first: refused, asked again
    let mover = listed[0]["to_move"].as_str().unwrap();
    let other = if mover == "south" { "h" } else { "a" };
    let input = format!("{other}\n{}\n{}\n", best[0], best[1]);
    let out = mancala(
        &scratch,
        &[&["puzzle", "--plain", "--no-animation"], &args[..]].concat(),
        &input,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains('\u{1b}'), "no escape codes: {text}");
    let prompt = "Your move (q stops): ";
    assert!(
        text.contains(&format!(
            "{prompt}{other}\nSorry, you don't control that pit.\n"
        )),
        "{text}"
    );
    for (i, best) in best.iter().enumerate() {
        assert!(text.contains(&format!("Puzzle {} ", i + 1)), "{text}");
        assert!(
            text.contains(&format!("{prompt}{best}\nBest! ")),
            "puzzle {}: {text}",
            i + 1
        );
        assert!(
            text.contains(&format!("Solved · streak {}", i + 1)),
            "{text}"
        );
    }
    // the third is set, and the end of input ends the session cleanly
    assert!(
        text.contains("Puzzle 3 ")
            && text.trim_end().ends_with(&format!(
                "{prompt}\nEnd of input. Your puzzle rating: {}.",
                rating(&scratch)
            )),
        "{text}"
    );
}

/// The puzzle rating kept in the data directory, as the game says it.
fn rating(scratch: &Scratch) -> String {
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(scratch.data().join("puzzles.json")).unwrap(),
    )
    .unwrap();
    format!("{:.0}", kept["rating"].as_f64().unwrap())
}
