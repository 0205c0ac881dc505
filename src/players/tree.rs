//! The classic game-tree player (`tree:N`).
//!
//! It looks `N` plies ahead and scores each line by the difference between
//! its own store and the opponent's at the end of the line (or at the end of
//! the game, seeds swept as the rules say). Every move is one ply, an
//! extra-turn move included: after an extra turn the same side chooses
//! again at the next ply. `tree:1` therefore looks at its own move only,
//! `tree:2` at its move and the reply (or its second move after an extra
//! turn). On ties it takes the first best pit from its own left, as the classic
//! game-tree player does (RULES.md §1.1). Alpha-beta pruning gives the same choice as the plain tree (a later
//! move must be strictly better to be chosen), only faster.

use super::search::{AfterMove, Budget, Child, Children};
use super::{Limits, TurnFn};
use crate::rules::{Board, Pit};

/// The classic game-tree player at a fixed depth.
#[derive(Clone, Copy, Debug)]
pub struct TreePlayer {
    depth: u8,
}

impl TreePlayer {
    /// A player looking `depth` plies ahead (at least 1).
    #[must_use]
    pub fn new(depth: u8) -> TreePlayer {
        TreePlayer {
            depth: depth.max(1),
        }
    }

    /// The chosen pit and its store difference `depth` plies ahead, from
    /// the mover's side; `None` when there is no move.
    ///
    /// It deepens one ply at a time (1, 2, ... `depth`) and answers with
    /// the choice of the deepest tree it finished within the limits, so a
    /// deep tree that runs out of time still plays its best shallower
    /// choice, never a first-legal-pit fallback. The one-ply tree needs no
    /// budget (it only plays each move once), so there is always a choice.
    #[must_use]
    pub fn best(&self, board: &Board, limits: &Limits) -> Option<(Pit, i32)> {
        let mut budget = Budget::new(limits, None);
        let base = board.score().margin(board.to_move());
        let children = Children::new(board);
        let mut finished: Option<(Pit, i32)> = None;
        for depth in 1..=u32::from(self.depth) {
            let mut best: Option<(Pit, i32)> = None;
            for child in children.as_slice() {
                let alpha = best.map_or(-INF, |(_, v)| v);
                let value = child_value(child, depth, alpha, INF, &mut budget);
                if budget.aborted {
                    break;
                }
                if best.is_none_or(|(_, v)| value > v) {
                    best = Some((child.pit, value));
                }
            }
            if budget.aborted {
                break;
            }
            finished = best;
        }
        finished.map(|(p, v)| (p, base + v))
    }
}

const INF: i32 = 1 << 20;

/// Fail-hard alpha-beta on the store difference gained from `board` on.
fn search(board: &Board, depth: u32, mut alpha: i32, beta: i32, budget: &mut Budget) -> i32 {
    if depth == 0 || budget.tick() {
        return 0;
    }
    for child in Children::new(board).as_slice() {
        let value = child_value(child, depth, alpha, beta, budget);
        if value >= beta {
            return beta;
        }
        alpha = alpha.max(value);
    }
    alpha
}

/// The store difference gained by playing `child` and searching on until
/// `depth` plies in all: an extra turn keeps the sign, a turn that passes
/// to the opponent flips it.
fn child_value(child: &Child, depth: u32, alpha: i32, beta: i32, budget: &mut Budget) -> i32 {
    match child.next {
        AfterMove::Over => child.gain,
        AfterMove::Again => {
            child.gain
                + search(
                    &child.board,
                    depth - 1,
                    alpha - child.gain,
                    beta - child.gain,
                    budget,
                )
        }
        AfterMove::Opponent => {
            child.gain
                - search(
                    &child.board,
                    depth - 1,
                    child.gain - beta,
                    child.gain - alpha,
                    budget,
                )
        }
    }
}

impl TurnFn for TreePlayer {
    fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Pit> {
        self.best(board, limits).map(|(p, _)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::random_position;
    use crate::rng::Rng;
    use crate::rules::{Capture, Rules, Side};

    /// The classic tree as written: every line to `depth` plies, the store
    /// difference at its end, the first best pit on ties.
    fn plain_tree(board: &Board, depth: u32) -> (Option<Pit>, i32) {
        let me = board.to_move();
        if depth == 0 || board.is_over() {
            return (None, board.score().margin(me));
        }
        let mut best: Option<(Pit, i32)> = None;
        for pit in board.legal_moves() {
            let mut next = *board;
            next.play_unchecked(pit);
            let (_, v) = plain_tree(&next, depth - 1);
            // `v` is from the view of the side to move in `next`
            let v = if !next.is_over() && next.to_move() != me {
                -v
            } else {
                v
            };
            let v = if next.is_over() {
                next.score().margin(me)
            } else {
                v
            };
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((pit, v));
            }
        }
        let (p, v) = best.unwrap();
        (Some(p), v)
    }

    #[test]
    fn tree_player_makes_the_plain_trees_choice() {
        let mut rng = Rng::new(7);
        for rules in [
            Rules::KALAH,
            Rules::new(4, 3).unwrap().with_capture(Capture::NonEmpty),
        ] {
            for _ in 0..25 {
                let plies = rng.below(15);
                let board = random_position(&mut rng, Board::new(rules), plies);
                if board.is_over() {
                    continue;
                }
                for depth in 1..=4u8 {
                    let (pit, value) = TreePlayer::new(depth)
                        .best(&board, &Limits::none())
                        .unwrap();
                    let (want_pit, want_value) = plain_tree(&board, u32::from(depth));
                    assert_eq!(
                        (Some(pit), value),
                        (want_pit, want_value),
                        "{board:?} depth {depth}"
                    );
                }
            }
        }
    }

    /// A deep tree out of budget plays the choice of the deepest tree it
    /// finished, not its first legal pit (issue 35 point 5: `tree:12` on
    /// 12×20 played `a`, `a`, `a`).
    #[test]
    fn a_deep_tree_out_of_budget_plays_its_deepest_finished_choice() {
        let rules = Rules::new(12, 20).unwrap();
        let board = Board::new(rules);
        let cut = TreePlayer::new(12)
            .best(&board, &Limits::nodes(20_000))
            .unwrap();
        let shallower: Vec<(Pit, i32)> = (1..=4)
            .map(|d| TreePlayer::new(d).best(&board, &Limits::none()).unwrap())
            .collect();
        // (the old fallback, the first pit valued 0, is none of them)
        assert!(shallower.contains(&cut), "{cut:?} not in {shallower:?}");
    }

    #[test]
    fn tree_one_takes_the_first_best_pit() {
        // From the start every pit but c gives +0 in the store... c gives +1
        // (with an extra turn, not followed at depth 1); d, e, f give +1 too.
        let board = Board::new(Rules::KALAH);
        let (pit, value) = TreePlayer::new(1).best(&board, &Limits::none()).unwrap();
        assert_eq!(Rules::KALAH.letter(pit), Some('c'));
        assert_eq!(value, 1);
        let north = Board::starting(Rules::KALAH, Side::North);
        let (pit, _) = TreePlayer::new(1).best(&north, &Limits::none()).unwrap();
        assert_eq!(Rules::KALAH.letter(pit), Some('i'));
    }
}
