//! Generates `perfect`'s opening book with the project's own solver.
//!
//! `cargo run --release --example make_book > src/players/solver/book.txt`
//!
//! For Kalah(6,4) under both capture rules, and for `perfect` in either
//! seat, it walks every position `perfect` can meet in its first plies
//! (its own moves from the book, every reply of the opponent) and writes
//! each with a proven best move (see `src/players/solver/book.rs` for the
//! line format). `MANCALA_BOOK_PLIES` sets how many plies deep (default 1:
//! the opening position for either seat), `MANCALA_BOOK_SEEDS` the seeds per
//! pit of the 6-pit boards covered, comma-separated (default `4`).

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
    let plies = std::env::var("MANCALA_BOOK_PLIES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(1);
    let seeds: Vec<usize> = std::env::var("MANCALA_BOOK_SEEDS")
        .unwrap_or_else(|_| "4".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let mut lines = Vec::new();
    for (seeds, capture) in seeds
        .iter()
        .flat_map(|&s| [(s, Capture::Always), (s, Capture::NonEmpty)])
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
