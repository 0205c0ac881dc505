//! Generates `perfect`'s opening book with the project's own solver.
//!
//! `cargo run --release --example make_book > src/players/solver/book.txt`
//!
//! For 6-pit boards under both capture rules, and for `perfect` in either
//! seat, it walks every position `perfect` can meet in its first plies
//! (its own moves from the book, every reply of the opponent) and writes
//! each with a proven best move (see `src/players/solver/book.rs` for the
//! line format). `MANCALA_BOOK` lists the boards and depths as
//! `SEEDS:PLIES`, comma-separated; the default, `3:4,4:6`, is the shipped
//! book (Kalah(6,3) 4 plies deep, Kalah(6,4) 6 plies deep). A move that
//! earns an extra turn counts as a ply.

use std::collections::HashSet;

use mancala::players::solver::book::{BookMove, line};
use mancala::players::{Limits, Solver};
use mancala::rules::{Board, Capture, Compact, Rules, Side};

fn walk(
    board: &Board,
    perfect: Side,
    plies: u32,
    solver: &mut Solver,
    seen: &mut HashSet<(Compact, bool)>,
    out: &mut Vec<String>,
) {
    if plies == 0 || board.is_over() {
        return;
    }
    let Some(pos) = Compact::from_board(board) else {
        return;
    };
    let mine = board.to_move() == perfect;
    if !seen.insert((pos, mine)) {
        return;
    }
    if mine {
        let solution = solver
            .solve(board, &Limits::none())
            .expect("the book's boards fit the solver");
        let pit = solution.best[0];
        let number = board.rules().number(pit).expect("a pit") - 1;
        let future = solution.value - board.score().margin(board.to_move());
        let entry = BookMove {
            number: number as u8,
            future,
        };
        out.push(line(board.rules(), &pos, entry).expect("standard rules"));
        eprintln!(
            "{} ({} so far)",
            out.last().expect("just pushed"),
            out.len()
        );
        let mut next = *board;
        next.play_unchecked(pit);
        walk(&next, perfect, plies - 1, solver, seen, out);
    } else {
        for pit in board.legal_moves() {
            let mut next = *board;
            next.play_unchecked(pit);
            walk(&next, perfect, plies - 1, solver, seen, out);
        }
    }
}

fn main() {
    let spec = std::env::var("MANCALA_BOOK").unwrap_or_else(|_| "3:4,4:6".into());
    let mut boards = Vec::new();
    for item in spec.split(',') {
        let parsed = item.split_once(':').and_then(|(s, p)| {
            Some((
                s.trim().parse::<usize>().ok()?,
                p.trim().parse::<u32>().ok()?,
            ))
        });
        match parsed {
            Some((seeds, plies)) if (1..=12).contains(&seeds) && plies <= 12 => {
                boards.push((seeds, plies));
            }
            _ => {
                eprintln!(
                    "MANCALA_BOOK: '{item}' is not SEEDS:PLIES (seeds 1 to 12, plies up to 12)"
                );
                std::process::exit(2);
            }
        }
    }
    let mut lines = Vec::new();
    for (seeds, plies, capture) in boards
        .iter()
        .flat_map(|&(s, p)| [(s, p, Capture::Always), (s, p, Capture::NonEmpty)])
    {
        let rules = Rules::new(6, seeds)
            .expect("a 6-pit board")
            .with_capture(capture);
        let mut solver = Solver::new(2 << 30);
        let mut seen = HashSet::new();
        for perfect in Side::BOTH {
            // South starts; `perfect` sits on either side
            walk(
                &Board::new(rules),
                perfect,
                plies,
                &mut solver,
                &mut seen,
                &mut lines,
            );
        }
    }
    lines.sort();
    lines.dedup();
    for l in lines {
        println!("{l}");
    }
}
