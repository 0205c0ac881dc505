//! The rated ladder of computer levels (`level:N`, 1 to [`MAX_LEVEL`]).
//!
//! The top level is `perfect`. Below it, a level plays like a person who
//! sees the board less well the lower it is: it values every legal move by
//! a search of its own depth (the engine's iterative deepening, whose
//! values are the game's true values wherever it reaches every end, see
//! [`Engine::move_values`]), and picks among them by how much each loses
//! against the best: a move losing `l` seeds has weight `exp(-l / T)`, and
//! no move losing more than the level's cap is ever played. Small slips
//! are therefore frequent, big blunders rare, both rarer the higher the
//! level. The choice is drawn from the player's own seeded generator, and
//! a level's search is bounded by a fixed number of positions (not by the
//! clock), so a level plays the same moves from the same seed.
//!
//! The ratings of the levels are measured, not set: see
//! [`crate::players::ladder`] and docs/PERFORMANCE.md.

use super::search::{Engine, MoveValues};
use super::{Limits, MoveProof, PerfectPlayer, TurnFn};
use crate::rng::Rng;
use crate::rules::{Board, Pit};

/// The strongest level: `perfect`.
pub const MAX_LEVEL: u8 = 10;

/// How a level below the top plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// The deepest iteration of its search, in plies.
    pub depth: u32,
    /// Positions its search may play per move (a repeatable budget).
    pub nodes: u64,
    /// Seeds of loss that divide a move's weight by e.
    pub temperature: f64,
    /// The most seeds a move it plays may lose against its best.
    pub cap: i32,
}

/// Levels 1 to `MAX_LEVEL - 1`, weakest first (tuned against the measured
/// ladder: see docs/PERFORMANCE.md).
const STYLES: [Style; MAX_LEVEL as usize - 1] = [
    Style {
        depth: 1,
        nodes: 10_000,
        temperature: 12.0,
        cap: 99,
    },
    Style {
        depth: 2,
        nodes: 10_000,
        temperature: 7.0,
        cap: 30,
    },
    Style {
        depth: 2,
        nodes: 10_000,
        temperature: 4.0,
        cap: 14,
    },
    Style {
        depth: 3,
        nodes: 20_000,
        temperature: 2.8,
        cap: 10,
    },
    Style {
        depth: 4,
        nodes: 50_000,
        temperature: 2.3,
        cap: 6,
    },
    Style {
        depth: 5,
        nodes: 80_000,
        temperature: 1.7,
        cap: 5,
    },
    Style {
        depth: 6,
        nodes: 100_000,
        temperature: 1.4,
        cap: 4,
    },
    Style {
        depth: 8,
        nodes: 200_000,
        temperature: 1.0,
        cap: 3,
    },
    Style {
        depth: 12,
        nodes: 800_000,
        temperature: 0.4,
        cap: 1,
    },
];

/// The style of `level` (1 to `MAX_LEVEL - 1`); `None` for the top level
/// (perfect) and for levels out of range.
#[must_use]
pub fn style(level: u8) -> Option<Style> {
    STYLES.get(usize::from(level).checked_sub(1)?).copied()
}

/// Table size of a weak level's engine: `2^TABLE_BITS` buckets.
const TABLE_BITS: u32 = 16;

/// A computer player at one level of the ladder.
#[derive(Debug)]
pub struct LevelPlayer {
    level: u8,
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Weak {
        engine: Box<Engine>,
        style: Style,
        rng: Rng,
    },
    Perfect(Box<PerfectPlayer>),
}

impl LevelPlayer {
    /// A player at `level` (clamped to 1..=[`MAX_LEVEL`]); `seed` fixes its
    /// choices.
    #[must_use]
    pub fn new(level: u8, seed: u64) -> LevelPlayer {
        let level = level.clamp(1, MAX_LEVEL);
        let inner = match style(level) {
            Some(style) => Inner::Weak {
                engine: Box::new(Engine::new(TABLE_BITS)),
                style,
                rng: Rng::new(seed),
            },
            None => Inner::Perfect(Box::new(PerfectPlayer::sharing())),
        };
        LevelPlayer { level, inner }
    }

    /// The level played.
    #[must_use]
    pub fn level(&self) -> u8 {
        self.level
    }
}

/// The move a weak level picks from `values`: weights `exp(-loss / T)`
/// over the moves losing at most `cap`, drawn with `rng`.
fn pick(values: &MoveValues, style: &Style, rng: &mut Rng) -> Option<Pit> {
    let best = values.best();
    let weight = |v: i32| {
        let loss = best - v;
        if loss > style.cap {
            0.0
        } else {
            (-f64::from(loss) / style.temperature).exp()
        }
    };
    let total: f64 = values.as_slice().iter().map(|&(_, v)| weight(v)).sum();
    // 53 random bits: a uniform draw in [0, total)
    let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut last = None;
    for &(pit, v) in values.as_slice() {
        let w = weight(v);
        if w > 0.0 {
            last = Some(pit);
            if draw < w {
                return Some(pit);
            }
            draw -= w;
        }
    }
    last
}

impl TurnFn for LevelPlayer {
    fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Pit> {
        match &mut self.inner {
            Inner::Perfect(player) => player.choose(board, limits),
            Inner::Weak { engine, style, rng } => {
                // the level's own budget, so that it plays the same at any
                // think time; the deadline and the stop flag still hold
                let own = Limits {
                    deadline: limits.deadline,
                    nodes: Some(style.nodes),
                    stop: std::sync::Arc::clone(&limits.stop),
                };
                let values = engine.move_values(board, &own, style.depth, None, style.cap)?;
                pick(&values, style, rng)
            }
        }
    }

    fn think_on_opponents_time(&mut self, allowed: bool) {
        if let Inner::Perfect(player) = &mut self.inner {
            player.think_on_opponents_time(allowed);
        }
    }

    fn stop_thinking_ahead(&mut self) {
        if let Inner::Perfect(player) = &mut self.inner {
            player.stop_thinking_ahead();
        }
    }

    fn last_proof(&self) -> Option<MoveProof> {
        match &self.inner {
            Inner::Perfect(player) => player.last_proof(),
            Inner::Weak { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::random_position;
    use crate::rules::{Capture, Rules, Side};

    /// Every level plays only legal moves, on boards from 1×1 up.
    #[test]
    fn every_level_plays_only_legal_moves() {
        let mut rng = Rng::new(3);
        for (pits, seeds) in [(1, 1), (2, 3), (3, 5), (6, 4), (7, 2)] {
            let rules = Rules::new(pits, seeds).unwrap();
            for level in 1..=MAX_LEVEL {
                let mut player = LevelPlayer::new(level, u64::from(level));
                for _ in 0..4 {
                    let plies = rng.below(20);
                    let board = random_position(&mut rng, Board::new(rules), plies);
                    if board.is_over() {
                        continue;
                    }
                    let pit = player.choose(&board, &Limits::nodes(20_000)).unwrap();
                    assert!(board.legal_moves().contains(pit), "level {level} {board:?}");
                }
            }
        }
    }

    /// The same seed gives the same moves, move after move; another seed
    /// (at a weak level) plays differently somewhere.
    #[test]
    fn a_level_is_reproducible_with_its_seed() {
        let rules = Rules::new(6, 4).unwrap();
        let game = |level: u8, seed: u64| {
            let mut player = LevelPlayer::new(level, seed);
            let mut other = LevelPlayer::new(1, 99);
            let mut board = Board::new(rules);
            let mut moves = Vec::new();
            while !board.is_over() {
                let pit = if board.to_move() == Side::South {
                    player.choose(&board, &Limits::none()).unwrap()
                } else {
                    other.choose(&board, &Limits::none()).unwrap()
                };
                moves.push(pit);
                board.play_unchecked(pit);
            }
            moves
        };
        for level in 1..MAX_LEVEL {
            assert_eq!(game(level, 5), game(level, 5), "level {level}");
        }
        assert!((1..=5).any(|seed| game(2, seed) != game(2, 6)));
    }

    /// Level 5 takes a capture of 10 seeds when one is on the board, every
    /// time (its cap forbids a move losing that much).
    #[test]
    fn level_five_never_ignores_a_capture_of_ten() {
        // South's a (1 seed) sows into b (empty), opposite North's k with
        // 10 seeds: a capture of 11 with the sower; no other move captures
        // or earns an extra turn.
        let counts = [1, 0, 1, 1, 1, 3, 10, 1, 1, 1, 1, 10, 1, 16];
        let board = Board::from_counts(
            Rules::KALAH.with_capture(Capture::NonEmpty),
            &counts,
            Side::South,
        )
        .unwrap();
        let capture = board.rules().pit(Side::South, 1).unwrap();
        for seed in 0..50 {
            let mut player = LevelPlayer::new(5, seed);
            assert_eq!(
                player.choose(&board, &Limits::none()),
                Some(capture),
                "seed {seed}"
            );
        }
    }

    /// Weak levels err, and the weaker ones err more (the mean loss of
    /// their moves against their own search's best, over the same
    /// positions).
    #[test]
    fn lower_levels_slip_more_often() {
        let rules = Rules::KALAH;
        let mut rng = Rng::new(11);
        let boards: Vec<Board> = (0..40)
            .map(|_| {
                let plies = rng.below(16);
                random_position(&mut rng, Board::new(rules), plies)
            })
            .filter(|b| !b.is_over())
            .collect();
        let mut judge = Engine::new(16);
        let mut mean_loss = Vec::new();
        for level in [1, 3, 6, 9] {
            let mut player = LevelPlayer::new(level, 7);
            let mut lost = 0;
            for board in &boards {
                let pit = player.choose(board, &Limits::none()).unwrap();
                let values = judge
                    .move_values(board, &Limits::none(), 6, None, 99)
                    .unwrap();
                let v = values.as_slice().iter().find(|(p, _)| *p == pit).unwrap().1;
                lost += values.best() - v;
            }
            mean_loss.push(lost);
        }
        // (level 9 searches deeper than the judge, which may disagree
        // with it by a seed or two: it is only compared with the weak end)
        assert!(
            mean_loss[0] > mean_loss[1]
                && mean_loss[1] > mean_loss[2]
                && mean_loss[1] > mean_loss[3],
            "{mean_loss:?}"
        );
    }
}
