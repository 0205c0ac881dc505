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
        random_move(board, &mut self.rng)
    }
}

/// A uniformly random legal pit of `board`, or `None` when it has none.
///
/// ```
/// use mancala_engine::players::random_move;
/// use mancala_engine::rng::Rng;
/// use mancala_engine::rules::{Board, Rules};
/// let board = Board::new(Rules::KALAH);
/// let pit = random_move(&board, &mut Rng::new(1)).unwrap();
/// assert!(board.legal_moves().contains(pit));
/// ```
pub fn random_move(board: &Board, rng: &mut Rng) -> Option<Pit> {
    let moves = board.legal_moves();
    let k = moves.count();
    if k == 0 {
        return None;
    }
    moves.into_iter().nth(rng.below(k))
}

/// The position after `plies` random legal moves from `start` (fewer when
/// the game ends first): seeded sample positions for tests and benchmarks.
///
/// ```
/// use mancala_engine::players::random_position;
/// use mancala_engine::rng::Rng;
/// use mancala_engine::rules::{Board, Rules};
/// let start = Board::new(Rules::KALAH);
/// let board = random_position(&mut Rng::new(3), start, 10);
/// assert_eq!(board, random_position(&mut Rng::new(3), start, 10));
/// assert_ne!(board, start);
/// ```
pub fn random_position(rng: &mut Rng, start: Board, plies: usize) -> Board {
    let mut board = start;
    for _ in 0..plies {
        let Some(pit) = random_move(&board, rng) else {
            break;
        };
        board.play_unchecked(pit);
    }
    board
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

    #[test]
    fn random_positions_play_legal_moves_and_stop_at_the_end() {
        let mut rng = Rng::new(4);
        let start = Board::new(Rules::KALAH);
        assert_eq!(random_position(&mut rng, start, 0), start);
        let one = random_position(&mut rng, start, 1);
        assert!(
            start.legal_moves().any(|pit| {
                let mut b = start;
                b.play_unchecked(pit);
                b == one
            }),
            "one ply is one legal move"
        );
        let end = random_position(&mut rng, start, usize::MAX);
        assert!(end.is_over(), "a game ends long before usize::MAX plies");
        assert_eq!(random_move(&end, &mut rng), None);
    }
}
