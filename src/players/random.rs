//! The classic game tree's level 0: any legal pit, uniformly at random.

use super::{Limits, TurnFn};
use crate::rng::Rng;
use crate::rules::{Board, Pit};

/// Plays a uniformly random legal pit.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl TurnFn for RandomPlayer {
    fn choose(&mut self, board: &Board, _limits: &Limits) -> Option<Pit> {
        let moves = board.legal_moves();
        let k = moves.count();
        if k == 0 {
            return None;
        }
        moves.into_iter().nth(self.rng.below(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn random_player_plays_only_legal_pits_and_varies() {
        let board = Board::new(Rules::KALAH);
        let mut player = RandomPlayer::new(1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100 {
            let pit = player.choose(&board, &Limits::none()).unwrap();
            assert!(board.legal_moves().contains(pit));
            seen.insert(pit);
        }
        assert_eq!(seen.len(), 6);
    }
}
