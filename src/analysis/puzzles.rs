//! Puzzles: positions where one move (or a few) keeps the value under
//! perfect play and the others give seeds away, for a player to find.
//!
//! Two sources:
//! - **Built-in** ([`Puzzler::builtin`]), for any board: random rounds
//!   dealt from a seed, and along them the positions where *exactly one*
//!   move keeps the value and every other loses at least
//!   [`BUILTIN_MARGIN`] seeds. The same rules and seed give the same
//!   puzzles: the solver runs on one thread within a budget of positions
//!   (not of time), and a position it cannot prove in that budget is
//!   passed over.
//! - **The player's own rounds** ([`Puzzler::from_round`]): the
//!   positions of a recorded round where a person's move lost
//!   [`MISTAKE`] seeds or more (the round's turning points), with every
//!   move's value.
//!
//! Every value is the solver's exact value ([`crate::players::solver`]);
//! a position it cannot prove within the budget is never a puzzle.

use std::sync::Arc;

use serde_json::json;

use crate::game::Seat;
use crate::players::Limits;
use crate::players::search::seeds_in_play;
use crate::players::solver::Solver;
use crate::rng::Rng;
use crate::rules::{Board, Pit, Position, Rules, Side};

/// The least loss of a person's move for its position to be a puzzle.
pub const MISTAKE: i32 = 3;

/// A built-in puzzle's every other move loses at least this much.
pub const BUILTIN_MARGIN: i32 = 4;

/// Positions the solver may search for one puzzle candidate (all its
/// moves together): enough for the middle and end of a 6×4 round.
const CANDIDATE_NODES: u64 = 4_000_000;

/// Random rounds a built-in puzzle is looked for in before giving up.
const ROUNDS_PER_PUZZLE: usize = 40;

/// Memory of the puzzles' solver.
const PUZZLE_MEMORY: usize = 64 << 20;

/// Where a puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Dealt by the generator from this seed.
    Builtin {
        /// The seed.
        seed: u64,
    },
    /// A move of a person in a recorded round.
    Mine {
        /// The record's file name.
        record: String,
        /// The move's number in the round, from 1.
        ply: usize,
        /// The pit the person played.
        played: Pit,
        /// The person's name.
        player: String,
    },
}

/// A position to solve, with the exact value of every legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position; its side to move is the one to find the move.
    pub board: Board,
    /// Every legal move, in pit order, with its value for the side to
    /// move (final margin under perfect play after it).
    pub values: Vec<(Pit, i32)>,
    /// Where it comes from.
    pub origin: Origin,
}

impl Puzzle {
    /// The position's value: the best move's.
    #[must_use]
    pub fn value(&self) -> i32 {
        self.values.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// Every move that keeps the value, in pit order.
    #[must_use]
    pub fn best(&self) -> Vec<Pit> {
        let value = self.value();
        self.values
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(p, _)| p)
            .collect()
    }

    /// Every other legal move with the seeds it loses against the best.
    #[must_use]
    pub fn losses(&self) -> Vec<(Pit, i32)> {
        let value = self.value();
        self.values
            .iter()
            .filter(|&&(_, v)| v < value)
            .map(|&(p, v)| (p, value - v))
            .collect()
    }

    /// What `pit` loses against the best (0 for a best move), `None` for
    /// a move that is not legal here.
    #[must_use]
    pub fn loss_of(&self, pit: Pit) -> Option<i32> {
        let value = self.value();
        self.values
            .iter()
            .find(|&&(p, _)| p == pit)
            .map(|&(_, v)| value - v)
    }

    /// The puzzle's rating on the players' Elo scale, an estimate of how
    /// hard it is: more moves to choose from, and a nearest wrong move
    /// that loses little, make it harder.
    #[must_use]
    pub fn rating(&self) -> f64 {
        let choices = self.values.len().saturating_sub(2) as f64;
        let nearest = self
            .losses()
            .iter()
            .map(|&(_, l)| l)
            .min()
            .unwrap_or(BUILTIN_MARGIN);
        900.0 + 120.0 * choices + 600.0 / f64::from(1 + nearest)
    }

    /// The position in the one-line notation: the puzzle's key.
    #[must_use]
    pub fn key(&self) -> String {
        Position::from(self.board).to_string()
    }

    /// The puzzle as JSON: `{"board":[...],"position":"kalah 6x4 …",
    /// "to_move":"south","best":["c"],"losses":{"a":5,…},"value":3,
    /// "rating":1380,"source":"builtin"}` (`board` as `mancala position`
    /// prints it; own rounds add `record`, `ply`, `played` and `player`).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let rules = self.board.rules();
        let letter = |pit: Pit| rules.letter(pit).unwrap_or('?').to_string();
        let losses: serde_json::Map<String, serde_json::Value> = self
            .losses()
            .into_iter()
            .map(|(p, l)| (letter(p), l.into()))
            .collect();
        let mut value = json!({
            "board": self.board.counts(),
            "pits": rules.pits(),
            "seeds": rules.seeds(),
            "position": self.key(),
            "to_move": self.board.to_move().as_str(),
            "best": self.best().into_iter().map(letter).collect::<Vec<_>>(),
            "losses": losses,
            "value": self.value(),
            "rating": self.rating().round() as i64,
        });
        match &self.origin {
            Origin::Builtin { seed } => {
                value["source"] = "builtin".into();
                value["seed"] = (*seed).into();
            }
            Origin::Mine {
                record,
                ply,
                played,
                player,
            } => {
                value["source"] = "mine".into();
                value["record"] = record.clone().into();
                value["ply"] = (*ply).into();
                value["played"] = letter(*played).into();
                value["player"] = player.clone().into();
            }
        }
        value
    }
}

/// Finds and checks puzzles with one exact solver (its table kept from
/// one position to the next).
#[derive(Debug)]
pub struct Puzzler {
    solver: Solver,
}

impl Default for Puzzler {
    fn default() -> Self {
        Puzzler::new()
    }
}

/// The most seeds in play a built-in candidate may have on `rules`' board:
/// the solver proves these within [`CANDIDATE_NODES`] on one thread.
fn candidate_seeds(rules: &Rules) -> u32 {
    match rules.pits() {
        0..=4 => 60,
        5..=6 => 32,
        7..=8 => 20,
        _ => 14,
    }
}

impl Puzzler {
    /// A puzzler on one thread (repeatable), with a small table.
    #[must_use]
    pub fn new() -> Puzzler {
        Puzzler {
            solver: Solver::new(PUZZLE_MEMORY)
                .with_threads(1)
                .with_endgame_seeds(8),
        }
    }

    /// The exact value of `board` for its side to move, within `nodes`
    /// positions (`None` when not proven in them).
    fn solve(&mut self, board: &Board, nodes: u64) -> Option<i32> {
        let limits = Limits {
            deadline: None,
            nodes: Some(nodes.max(1)),
            stop: Arc::default(),
        };
        self.solver.value(board, &limits)
    }

    /// Every legal move of `board` with its exact value for the side to
    /// move, in pit order; `None` when one is not proven within `nodes`
    /// positions in all (or the game is over).
    pub fn move_values(&mut self, board: &Board, nodes: u64) -> Option<Vec<(Pit, i32)>> {
        if board.is_over() || Solver::check(board, PUZZLE_MEMORY).is_err() {
            return None;
        }
        self.solver.reserve(board);
        let mover = board.to_move();
        let moves: Vec<Pit> = board.legal_moves().collect();
        let mut values = Vec::with_capacity(moves.len());
        let mut left = nodes;
        for pit in moves {
            let mut child = *board;
            child.play(pit).ok()?;
            let value = if child.is_over() {
                child.score().margin(mover)
            } else {
                let value = self.solve(&child, left)?;
                left = left.saturating_sub(self.solver.nodes);
                if left == 0 {
                    return None;
                }
                if child.to_move() == mover {
                    value
                } else {
                    -value
                }
            };
            values.push((pit, value));
        }
        Some(values)
    }

    /// The best line from `board`: at most `plies` moves, each a best move
    /// (the first in pit order) of the position it is played in; shorter
    /// when the round ends or a position is not proven in time.
    pub fn best_line(&mut self, board: &Board, plies: usize) -> Vec<Pit> {
        let mut line = Vec::new();
        let mut board = *board;
        while line.len() < plies && !board.is_over() {
            let Some(values) = self.move_values(&board, CANDIDATE_NODES) else {
                break;
            };
            let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
            let Some(&(pit, _)) = values.iter().find(|&&(_, v)| v == best) else {
                break;
            };
            if board.play(pit).is_err() {
                break;
            }
            line.push(pit);
        }
        line
    }

    /// The built-in puzzle dealt by `seed` on `rules`' board, if one is
    /// found (see the [module docs](self)).
    pub fn builtin(&mut self, rules: Rules, seed: u64) -> Option<Puzzle> {
        let mut rng = Rng::new(seed ^ 0x7075_7a7a_6c65);
        let cap = candidate_seeds(&rules);
        for _ in 0..ROUNDS_PER_PUZZLE {
            let starter = if rng.coin() { Side::South } else { Side::North };
            let mut board = Board::starting(rules, starter);
            // a random round; the positions where few enough seeds are
            // left are the candidates, one of them taken at random
            let mut candidates = Vec::new();
            while !board.is_over() {
                let legal: Vec<Pit> = board.legal_moves().collect();
                if legal.len() >= 2 && seeds_in_play(&board) as u32 <= cap {
                    candidates.push(board);
                }
                let pit = legal[rng.below(legal.len())];
                board.play_unchecked(pit);
            }
            if candidates.is_empty() {
                continue;
            }
            let board = candidates[rng.below(candidates.len())];
            if let Some(puzzle) = self.builtin_at(&board, seed) {
                return Some(puzzle);
            }
        }
        None
    }

    /// Whether `board` may be a built-in puzzle: one move keeps its value
    /// and every other loses at least [`BUILTIN_MARGIN`], within `nodes`
    /// positions. Cheaper than every move's value: after the position's
    /// value, each move is only asked whether it lies within the margin
    /// ([`Solver::value_within`], one or two null-window searches), and the
    /// first second move that does rejects the position.
    fn one_clear_best(&mut self, board: &Board, nodes: u64) -> bool {
        if board.is_over() || Solver::check(board, PUZZLE_MEMORY).is_err() {
            return false;
        }
        let mover = board.to_move();
        let Some(value) = self.solve(board, nodes) else {
            return false;
        };
        let mut left = nodes.saturating_sub(self.solver.nodes);
        // the mover's values that keep too much: value - MARGIN + 1 ..= value
        let (lo, hi) = (value - BUILTIN_MARGIN + 1, value);
        let mut keeping = 0;
        for pit in board.legal_moves() {
            let mut child = *board;
            child.play_unchecked(pit);
            let kept = if child.is_over() {
                child.score().margin(mover)
            } else {
                if left == 0 {
                    return false;
                }
                let limits = Limits::nodes(left);
                let flip = child.to_move() != mover;
                let window = if flip { (-hi, -lo) } else { (lo, hi) };
                let Some(v) = self
                    .solver
                    .value_within(&child, &limits, window.0, window.1)
                else {
                    return false;
                };
                left = left.saturating_sub(self.solver.nodes);
                if flip { -v } else { v }
            };
            if kept >= lo {
                keeping += 1;
                if keeping > 1 || kept != value {
                    return false;
                }
            }
        }
        keeping == 1
    }

    /// `board` as a built-in puzzle, when it is one.
    fn builtin_at(&mut self, board: &Board, seed: u64) -> Option<Puzzle> {
        if !self.one_clear_best(board, CANDIDATE_NODES) {
            return None;
        }
        let values = self.move_values(board, CANDIDATE_NODES)?;
        let puzzle = Puzzle {
            board: *board,
            values,
            origin: Origin::Builtin { seed },
        };
        let one_best = puzzle.best().len() == 1;
        let far_behind = puzzle.losses().iter().all(|&(_, l)| l >= BUILTIN_MARGIN);
        (one_best && far_behind && puzzle.values.len() >= 2).then_some(puzzle)
    }

    /// `count` built-in puzzles on `rules`' board, dealt from the seeds
    /// `seed`, `seed + 1`, … (a seed that deals none is passed over; at
    /// most `4 × count` seeds are tried).
    pub fn builtins(&mut self, rules: Rules, seed: u64, count: usize) -> Vec<Puzzle> {
        let mut puzzles: Vec<Puzzle> = Vec::with_capacity(count);
        let mut next = seed;
        while puzzles.len() < count && next < seed.saturating_add(4 * count as u64) {
            if let Some(puzzle) = self.builtin(rules, next)
                && !puzzles.iter().any(|p| p.board == puzzle.board)
            {
                puzzles.push(puzzle);
            }
            next += 1;
        }
        puzzles
    }

    /// The puzzles of a recorded round (`boards[i]` the position `moves[i]`
    /// was played in, `seats` who played): each position where a person's
    /// move lost [`MISTAKE`] seeds or more, in playing order (worked out
    /// latest first, so that each reuses what the later ones proved).
    /// `name` is the record's file name; positions not proven within the
    /// budget are left out.
    pub fn from_round(
        &mut self,
        boards: &[Board],
        moves: &[Pit],
        seats: &[Seat; 2],
        name: &str,
    ) -> Vec<Puzzle> {
        let mut puzzles = Vec::new();
        for (i, &pit) in moves.iter().enumerate().rev() {
            let Some(&board) = boards.get(i) else {
                continue;
            };
            let mover = board.to_move();
            let seat = &seats[mover.index()];
            if !seat.kind.is_human() || board.legal_moves().count() < 2 {
                continue;
            }
            let Some(values) = self.move_values(&board, CANDIDATE_NODES) else {
                continue;
            };
            let puzzle = Puzzle {
                board,
                values,
                origin: Origin::Mine {
                    record: name.to_string(),
                    ply: i + 1,
                    played: pit,
                    player: seat.name.clone(),
                },
            };
            if puzzle.loss_of(pit).is_some_and(|l| l >= MISTAKE) {
                puzzles.push(puzzle);
            }
        }
        puzzles.reverse();
        puzzles
    }
}

/// What a value means for `side` at the end: "a win by 3 for South",
/// "a draw", "a loss by 2 for South".
fn result_words(value: i32, side: Side) -> String {
    match value {
        0 => "a draw".to_string(),
        v if v > 0 => format!("a win by {v} for {side}"),
        v => format!("a loss by {} for {side}", -v),
    }
}

/// Letters of `pits`, comma separated.
fn letters(rules: &Rules, pits: &[Pit]) -> String {
    pits.iter()
        .map(|&p| rules.letter(p).unwrap_or('?').to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where the puzzle comes from, in words: "From your round
/// 20260101-….txt: move 12, where Alice played c." or "A built-in
/// puzzle (seed 7).".
#[must_use]
pub fn origin_words(puzzle: &Puzzle) -> String {
    let rules = puzzle.board.rules();
    match &puzzle.origin {
        Origin::Builtin { seed } => format!("A built-in puzzle (seed {seed})."),
        Origin::Mine {
            record,
            ply,
            played,
            player,
        } => format!(
            "From your round {record}: move {ply}, where {player} played {}.",
            rules.letter(*played).unwrap_or('?')
        ),
    }
}

/// What to find: "South to move: find the best move (a-f)."
#[must_use]
pub fn task_words(puzzle: &Puzzle) -> String {
    let side = puzzle.board.to_move();
    format!(
        "{side} to move: find the best move ({}).",
        puzzle.board.rules().letter_range(side)
    )
}

/// What the answer `pit` was worth: whether it was best, the best moves
/// with the value they keep, and what every other move loses.
#[must_use]
pub fn verdict_words(puzzle: &Puzzle, pit: Pit) -> Vec<String> {
    let rules = puzzle.board.rules();
    let side = puzzle.board.to_move();
    let best = puzzle.best();
    let letter = rules.letter(pit).unwrap_or('?');
    let keeps = format!("{} under perfect play", result_words(puzzle.value(), side));
    let mut lines = Vec::new();
    match puzzle.loss_of(pit) {
        Some(0) if best.len() == 1 => {
            lines.push(format!(
                "Best! {letter} is the one move that keeps {keeps}."
            ));
        }
        Some(0) => lines.push(format!(
            "Best! {letter} keeps {keeps}; so do {}.",
            letters(rules, &best)
        )),
        Some(loss) => lines.push(format!(
            "Not the best: {letter} loses {} against the best. {} {} keeps {keeps}.",
            crate::rules::plural(loss, "seed"),
            if best.len() == 1 {
                "The best move"
            } else {
                "The best moves"
            },
            letters(rules, &best)
        )),
        None => lines.push(format!("{letter} is not a legal move here.")),
    }
    let others: Vec<String> = puzzle
        .losses()
        .iter()
        .map(|&(p, l)| {
            let letter = rules.letter(p).unwrap_or('?');
            format!("{letter} {}", crate::rules::plural(l, "seed"))
        })
        .collect();
    // "against the best": each loses that much more than the best keeps,
    // not a round lost by that much
    if !others.is_empty() {
        lines.push(format!(
            "The other moves lose against the best: {}.",
            others.join(", ")
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_puzzles_have_one_best_move_and_are_repeatable() {
        let rules = Rules::new(4, 3).unwrap();
        let mut puzzler = Puzzler::new();
        let puzzles = puzzler.builtins(rules, 1, 3);
        assert_eq!(puzzles.len(), 3);
        for p in &puzzles {
            assert_eq!(p.best().len(), 1, "{}", p.key());
            assert!(p.losses().iter().all(|&(_, l)| l >= BUILTIN_MARGIN));
        }
        assert_eq!(Puzzler::new().builtins(rules, 1, 3), puzzles);
    }

    /// The verdict says what each other move loses against the best, so
    /// that "loses 4" is not read as a round lost by 4 when the best move
    /// itself keeps a loss by 4.
    #[test]
    fn the_verdict_says_what_the_other_moves_lose_against_the_best() {
        let board = Board::starting(Rules::KALAH, Side::South);
        let pits: Vec<Pit> = board.legal_moves().collect();
        let values = pits
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, if i == 0 { -4 } else { -5 - i as i32 }))
            .collect();
        let puzzle = Puzzle {
            board,
            values,
            origin: Origin::Builtin { seed: 1 },
        };
        let words = verdict_words(&puzzle, pits[0]);
        assert_eq!(
            words[1],
            "The other moves lose against the best: b 2 seeds, c 3 seeds, d 4 seeds, e 5 seeds, f 6 seeds."
        );
    }
}
