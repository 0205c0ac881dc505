//! Places on the board.

use std::fmt;

/// A place on the board that holds seeds: a pit or a store.
///
/// A `Pit` is an index into the layout of RULES.md §2.1, which [`Rules`](super::Rules)
/// interprets: South's pits `0..n`, South's store `n`, North's pits
/// `n+1..2n+1`, North's store `2n+1`. Keeping stores addressable is what lets
/// [`Board::play`](super::Board::play) answer "Sorry, you can't select the
/// store." instead of making that mistake impossible to express.
///
/// ```
/// use mancala_engine::rules::{Pit, Rules, Side};
/// let pit = Rules::KALAH.pit_by_letter('c').unwrap();
/// assert_eq!(pit, Pit::new(2));
/// assert_eq!(Rules::KALAH.owner(pit), Side::South);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit(u8);

impl Pit {
    /// The place with layout index `index`.
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Pit {
        Pit(index)
    }

    /// The layout index, for indexing [`Board::counts`](super::Board::counts).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
