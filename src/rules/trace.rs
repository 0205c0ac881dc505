//! A step-by-step account of a move, for animation and for checking.

use super::pit::Pit;
use super::side::Side;

/// One thing a hand does during a move.
///
/// Replaying the steps of a move with [`Step::apply`] on the counts from
/// before the move gives the counts after it, one visible change at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The mover lifts every seed from `pit` to start the move.
    Lift {
        /// Where the seeds came from.
        pit: Pit,
        /// How many were lifted.
        seeds: u16,
    },
    /// One seed is dropped into `pit` (a pit or the mover's store).
    Sow {
        /// Where it landed.
        pit: Pit,
    },
    /// Relay sowing: the last seed landed in an occupied pit, which is lifted
    /// in turn.
    Relay {
        /// The pit lifted.
        pit: Pit,
        /// How many seeds it held, the last one included.
        seeds: u16,
    },
    /// The last seed and the opposite pit's seeds go to the mover's store.
    Capture {
        /// The mover's pit where the last seed landed.
        pit: Pit,
        /// The opponent's pit across from it.
        opposite: Pit,
        /// Seeds taken from both pits together.
        seeds: u16,
        /// The store that receives them.
        store: Pit,
    },
    /// Oware: one of the opponent's houses that the move brought to 2 or 3
    /// seeds is captured (RULES.md §7.3).
    Take {
        /// The house emptied.
        pit: Pit,
        /// Seeds taken.
        seeds: u16,
        /// Where the mover's captured seeds are kept.
        store: Pit,
    },
    /// The last seed landed in the mover's own store: the mover plays again.
    ExtraTurn,
    /// End of game: `side`'s pit `pit` is emptied into `store` (owner sweep).
    Sweep {
        /// Whose pit.
        side: Side,
        /// The pit emptied.
        pit: Pit,
        /// Seeds moved.
        seeds: u16,
        /// The store that receives them.
        store: Pit,
    },
    /// The game is over after this move.
    GameOver,
}

impl Step {
    /// Applies this step to a list of counts in the board's layout.
    ///
    /// ```
    /// use mancala_engine::rules::{Board, Rules, Step};
    /// let mut board = Board::new(Rules::KALAH);
    /// let before = board.counts().to_vec();
    /// let mut trace = Vec::new();
    /// board.play_traced(Rules::KALAH.pit_by_letter('c').unwrap(), &mut trace).unwrap();
    /// let mut counts = before.clone();
    /// for step in &trace {
    ///     step.apply(&mut counts);
    /// }
    /// assert_eq!(counts, board.counts());
    /// ```
    pub fn apply(&self, counts: &mut [u16]) {
        match *self {
            Step::Lift { pit, .. } | Step::Relay { pit, .. } => counts[pit.index()] = 0,
            Step::Sow { pit } => counts[pit.index()] += 1,
            Step::Capture {
                pit,
                opposite,
                seeds,
                store,
            } => {
                counts[pit.index()] = 0;
                counts[opposite.index()] = 0;
                counts[store.index()] += seeds;
            }
            Step::Sweep {
                pit, seeds, store, ..
            }
            | Step::Take { pit, seeds, store } => {
                counts[pit.index()] = 0;
                counts[store.index()] += seeds;
            }
            Step::ExtraTurn | Step::GameOver => {}
        }
    }
}

/// Receives the steps of a move as the board carries them out.
///
/// [`NoTrace`] ignores them and compiles away, which is how the fast path
/// and the traced path share one implementation without the fast path paying.
pub trait Tracer {
    /// Called once per step, in order.
    fn step(&mut self, step: Step);
}

/// A [`Tracer`] that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn step(&mut self, _step: Step) {}
}

impl Tracer for Vec<Step> {
    #[inline]
    fn step(&mut self, step: Step) {
        self.push(step);
    }
}
