//! Generates `perfect`'s opening book with the project's own solver.
//!
//! `cargo run --release -p mancala-benches --example make_book > src/players/solver/book.txt`
//!
//! For 6-pit boards under both capture rules, and for `perfect` in either
//! seat, it walks every position `perfect` can meet in its first plies
//! (its own moves from the book, every reply of the opponent) and writes
//! each with a proven best move (see `src/players/solver/book.rs` for the
//! line format). `MANCALA_BOOK` lists the boards and depths as
//! `SEEDS:PLIES` or `SEEDS:PLIES:NORTH_PLIES` (deeper where `perfect` is
//! North, who moves second), comma-separated; the default, `3:4,4:12`, is
//! the shipped book (Kalah(6,3) 4 plies deep, Kalah(6,4) 12 plies deep for
//! either seat). A move that earns an extra turn counts as a
//! ply. With `MANCALA_BOOK_REUSE` set, the entries of the book compiled
//! into this program are taken as they are and only the positions it lacks
//! are solved: a deeper book costs only its new positions.
//!
//! `MANCALA_BOOK_EVERY` adds every position of the first plies, whoever
//! plays what (`SEEDS:PLIES` for both capture rules, or
//! `SEEDS:PLIES:CAPTURE` for one, comma-separated; the default, `3:2,4:2`,
//! is the shipped book: on Kalah(6,3) and Kalah(6,4), both capture rules,
//! every position after at most two plies, so that
//! the analysis of a round from the start, where both players may have
//! left the book at once, values its first three positions from the book
//! and lists every best move of its first two; see docs/PERFORMANCE.md).

use std::collections::HashMap;

use mancala::players::solver::book::{self, BookMove, line};
use mancala::players::{Limits, Solver};
use mancala::rules::{Board, Capture, Compact, Rules, Side};

fn walk(
    board: &Board,
    perfect: Side,
    plies: u32,
    solver: &mut Solver,
    seen: &mut HashMap<(Compact, bool), u32>,
    out: &mut Vec<String>,
    known: &mut Known,
) {
    if plies == 0 || board.is_over() {
        return;
    }
    let Some(pos) = Compact::from_board(board) else {
        return;
    };
    let mine = board.to_move() == perfect;
    // a position met again is walked again only with more plies to go (a
    // transposition reached first by a longer way must not cut the book
    // short on the shorter one)
    let walked = seen.entry((pos, mine)).or_insert(0);
    if *walked >= plies {
        return;
    }
    *walked = plies;
    if mine {
        let (entry, shipped) = entry_of(board, solver, known);
        let pit = board
            .rules()
            .pit(board.to_move(), usize::from(entry.number) + 1)
            .expect("a pit of the mover");
        out.push(line(board.rules(), &pos, entry).expect("standard rules"));
        eprintln!(
            "{} ({} so far{})",
            out.last().expect("just pushed"),
            out.len(),
            if shipped { ", from the book" } else { "" }
        );
        let mut next = *board;
        next.play_unchecked(pit);
        walk(&next, perfect, plies - 1, solver, seen, out, known);
    } else {
        for pit in board.legal_moves() {
            let mut next = *board;
            next.play_unchecked(pit);
            walk(&next, perfect, plies - 1, solver, seen, out, known);
        }
    }
}

/// What is known before solving: the shipped book's entries (taken as
/// they are with `reuse`) and the entries solved in this run, so that the
/// pass over every position does not solve again what the pass along
/// `perfect`'s lines solved.
struct Known {
    reuse: bool,
    solved: HashMap<(Capture, usize, Compact), BookMove>,
}

/// The book's line for `board` (known already, else solved), and whether
/// it came from the shipped book.
fn entry_of(board: &Board, solver: &mut Solver, known: &mut Known) -> (BookMove, bool) {
    if let Some(shipped) = known.reuse.then(|| book::shipped().get(board)).flatten() {
        return (shipped, true);
    }
    let rules = board.rules();
    let key = Compact::from_board(board).map(|pos| (rules.capture(), rules.seeds(), pos));
    if let Some(entry) = key.and_then(|key| known.solved.get(&key)) {
        return (*entry, false);
    }
    let solution = solver
        .solve(board, &Limits::none())
        .expect("the book's boards fit the solver");
    let pit = solution.best[0];
    let number = board.rules().number(pit).expect("a pit") - 1;
    let entry = BookMove {
        number: number as u8,
        future: solution.value - board.score().margin(board.to_move()),
    };
    if let Some(key) = key {
        known.solved.insert(key, entry);
    }
    (entry, false)
}

/// Writes every position within `plies` of `board`, whoever moves.
fn walk_every(
    board: &Board,
    plies: u32,
    solver: &mut Solver,
    seen: &mut HashMap<Compact, u32>,
    out: &mut Vec<String>,
    known: &mut Known,
) {
    if board.is_over() {
        return;
    }
    let Some(pos) = Compact::from_board(board) else {
        return;
    };
    let walked = seen.entry(pos).or_insert(0);
    if *walked > plies {
        return;
    }
    let first = *walked == 0;
    *walked = plies + 1;
    if first {
        let (entry, shipped) = entry_of(board, solver, known);
        out.push(line(board.rules(), &pos, entry).expect("standard rules"));
        let from = if shipped { ", from the book" } else { "" };
        eprintln!(
            "{} ({} so far{from})",
            out.last().expect("just pushed"),
            out.len()
        );
    }
    if plies == 0 {
        return;
    }
    for pit in board.legal_moves() {
        let mut next = *board;
        next.play_unchecked(pit);
        walk_every(&next, plies - 1, solver, seen, out, known);
    }
}

fn main() {
    let spec = std::env::var("MANCALA_BOOK").unwrap_or_else(|_| "3:4,4:12".into());
    let mut boards = Vec::new();
    for item in spec.split(',') {
        let numbers: Option<Vec<u32>> = item.split(':').map(|n| n.trim().parse().ok()).collect();
        let parsed = match numbers.as_deref() {
            Some(&[seeds, plies]) => Some((seeds, plies, plies)),
            Some(&[seeds, plies, north]) => Some((seeds, plies, north)),
            _ => None,
        };
        match parsed {
            Some((seeds, plies, north))
                if (1..=12).contains(&seeds) && plies <= 12 && north <= 12 =>
            {
                boards.push((seeds as usize, plies, north));
            }
            _ => {
                eprintln!(
                    "MANCALA_BOOK: '{item}' is not SEEDS:PLIES or SEEDS:PLIES:NORTH_PLIES \
                     (seeds 1 to 12, plies up to 12)"
                );
                std::process::exit(2);
            }
        }
    }
    // entries of the shipped book are taken as they are (a deeper book
    // then solves only the new positions)
    let mut known = Known {
        reuse: std::env::var_os("MANCALA_BOOK_REUSE").is_some(),
        solved: HashMap::new(),
    };
    let mut lines = Vec::new();
    for (seeds, south_plies, north_plies, capture) in boards
        .iter()
        .flat_map(|&(s, p, q)| [(s, p, q, Capture::Always), (s, p, q, Capture::NonEmpty)])
    {
        let rules = Rules::new(6, seeds)
            .expect("a 6-pit board")
            .with_capture(capture);
        let mut solver = Solver::new(2 << 30);
        let mut seen = HashMap::new();
        for perfect in Side::BOTH {
            // South starts; `perfect` sits on either side
            let plies = if perfect == Side::South {
                south_plies
            } else {
                north_plies
            };
            walk(
                &Board::new(rules),
                perfect,
                plies,
                &mut solver,
                &mut seen,
                &mut lines,
                &mut known,
            );
        }
    }
    let every = std::env::var("MANCALA_BOOK_EVERY").unwrap_or_else(|_| "3:2,4:2".into());
    for item in every.split(',').filter(|i| !i.trim().is_empty()) {
        let fields: Vec<&str> = item.split(':').map(str::trim).collect();
        let captures = match fields.get(2).copied() {
            None => Some(vec![Capture::Always, Capture::NonEmpty]),
            Some("always") => Some(vec![Capture::Always]),
            Some("nonempty") => Some(vec![Capture::NonEmpty]),
            Some(_) => None,
        };
        let parsed = match (fields.first(), fields.get(1), captures, fields.len()) {
            (Some(s), Some(p), Some(c), 2 | 3) => s
                .parse::<usize>()
                .ok()
                .zip(p.parse::<u32>().ok())
                .filter(|&(seeds, plies)| (1..=12).contains(&seeds) && plies <= 4)
                .map(|(seeds, plies)| (seeds, plies, c)),
            _ => None,
        };
        let Some((seeds, plies, captures)) = parsed else {
            eprintln!(
                "MANCALA_BOOK_EVERY: '{item}' is not SEEDS:PLIES or SEEDS:PLIES:CAPTURE \
                 (seeds 1 to 12, plies up to 4, capture always or nonempty)"
            );
            std::process::exit(2);
        };
        for capture in captures {
            let rules = Rules::new(6, seeds)
                .expect("a 6-pit board")
                .with_capture(capture);
            let mut solver = Solver::new(2 << 30);
            let mut seen = HashMap::new();
            walk_every(
                &Board::new(rules),
                plies,
                &mut solver,
                &mut seen,
                &mut lines,
                &mut known,
            );
        }
    }
    lines.sort();
    lines.dedup();
    for l in lines {
        println!("{l}");
    }
}
