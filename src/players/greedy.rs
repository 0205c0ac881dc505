//! One-move lookahead: the best store difference after its own move.

use super::{Limits, TurnFn};
use crate::rules::{Board, Pit};

/// Picks the pit that leaves the best store difference for the mover once
/// its own move is over, extra turns included (it keeps choosing greedily
/// while it has the move). Ties go to the first pit from the mover's left.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Greedy {
    /// The best store difference the side to move can reach by its own turn.
    fn best(board: &Board) -> (i32, Option<Pit>) {
        let me = board.to_move();
        let mut best: Option<(i32, Pit)> = None;
        for pit in board.legal_moves() {
            let mut next = *board;
            let played = next.play_unchecked(pit);
            let value = if played.extra_turn {
                Greedy::best(&next).0
            } else {
                next.score().margin(me)
            };
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, pit));
            }
        }
        match best {
            Some((v, p)) => (v, Some(p)),
            None => (board.score().margin(me), None),
        }
    }
}

impl TurnFn for Greedy {
    fn choose(&mut self, board: &Board, _limits: &Limits) -> Option<Pit> {
        Greedy::best(board).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Side};

    #[test]
    fn greedy_takes_the_extra_turn_chain_from_the_start() {
        // From the start, c lands in the store (extra turn); greedy prefers it
        // over every single move that ends the turn with 1 seed.
        let board = Board::new(Rules::KALAH);
        let pit = Greedy.choose(&board, &Limits::none()).unwrap();
        assert_eq!(Rules::KALAH.letter(pit), Some('c'));
    }

    #[test]
    fn greedy_captures_when_it_pays() {
        // South: a=1, b=0 with North's k (opposite b) holding 9: a→b captures 10.
        let counts = [1, 0, 0, 0, 0, 2, 0, 3, 3, 3, 3, 9, 3, 0];
        let board = Board::from_counts(Rules::KALAH, &counts, Side::South).unwrap();
        let pit = Greedy.choose(&board, &Limits::none()).unwrap();
        assert_eq!(Rules::KALAH.letter(pit), Some('a'));
    }
}
