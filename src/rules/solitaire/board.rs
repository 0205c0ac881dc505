//! The pure core of Solitaire Mancala: a board, its moves and its plan.

use std::fmt;

/// One thing the hand does during a move, for animation and for checking.
///
/// Replaying the steps of a move with [`SolitaireStep::apply`] on the counts from
/// before the move gives the counts after it, one visible change at a time
/// (the same idea as the two-player core's `rules::Step`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolitaireStep {
    /// Every seed of `house` is lifted to start the move.
    Lift {
        /// The house played.
        house: usize,
        /// How many seeds were lifted (always `house`).
        seeds: u64,
    },
    /// One seed is dropped into `house` (house 0 is the store).
    Sow {
        /// Where it landed.
        house: usize,
    },
}

impl SolitaireStep {
    /// Applies this step to a list of counts (store first).
    pub fn apply(&self, counts: &mut [u64]) {
        match *self {
            SolitaireStep::Lift { house, .. } => counts[house] = 0,
            SolitaireStep::Sow { house } => counts[house] += 1,
        }
    }
}

/// Why a list of counts is not a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The list is empty: a board has at least a store.
    Empty,
    /// The counts add up to more than a `u64` can hold.
    TooManySeeds {
        /// What they add up to.
        total: u128,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => f.write_str("the board is empty: give at least the store's count"),
            BoardError::TooManySeeds { total } => write!(
                f,
                "the board holds too many seeds in total: {total}, and at most {} fit",
                u64::MAX
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// Why a house cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolitaireError {
    /// House 0 is the store; seeds never leave it.
    Store,
    /// The board has no house with this number.
    NoSuchHouse {
        /// The number asked for.
        house: usize,
        /// How many houses the board has.
        houses: usize,
    },
    /// The house does not hold exactly its number of seeds, so its last seed
    /// would not land in the store.
    WrongCount {
        /// The house.
        house: usize,
        /// What it holds.
        seeds: u64,
    },
}

impl fmt::Display for SolitaireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolitaireError::Store => f.write_str("The store cannot be played."),
            SolitaireError::NoSuchHouse { house, houses } => {
                write!(
                    f,
                    "There is no house {house}: the houses are 1 to {houses}."
                )
            }
            SolitaireError::WrongCount { house, seeds: 0 } => {
                write!(f, "House {house} is empty.")
            }
            SolitaireError::WrongCount { house, seeds } => write!(
                f,
                "House {house} holds {}; it can be played only when it holds exactly {house}.",
                crate::rules::plural(seeds, "seed")
            ),
        }
    }
}

impl std::error::Error for SolitaireError {}

/// A Solitaire Mancala board: the store (index 0) and houses 1, 2, 3, ...,
/// numbered from the store outwards, as in RULES.md §6.1.
///
/// The board may have any number of houses; counts are `u64`, and the total
/// always fits in a `u64` (checked when the board is set), so no move can
/// overflow.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolitaireBoard {
    counts: Vec<u64>,
}

impl Default for SolitaireBoard {
    fn default() -> Self {
        SolitaireBoard::new()
    }
}

impl SolitaireBoard {
    /// An empty store and no houses, `[0]`.
    #[must_use]
    pub fn new() -> SolitaireBoard {
        SolitaireBoard { counts: vec![0] }
    }

    /// A board with these counts: the store first, then houses 1, 2, 3, ...
    ///
    /// ```
    /// use mancala_engine::rules::solitaire::SolitaireBoard;
    /// let board = SolitaireBoard::from_counts(&[0, 1, 1, 3]).unwrap();
    /// assert_eq!(board.seeds(3), 3);
    /// assert_eq!(board.to_string(), "[3, 1, 1, 0]");
    /// ```
    ///
    /// # Errors
    /// An empty list, or counts whose total overflows a `u64`.
    pub fn from_counts(counts: &[u64]) -> Result<SolitaireBoard, BoardError> {
        let mut board = SolitaireBoard::new();
        board.set_board(counts)?;
        Ok(board)
    }

    /// Sets the board to a copy of `counts`.
    ///
    /// # Errors
    /// As [`SolitaireBoard::from_counts`]; the board is left unchanged then.
    pub fn set_board(&mut self, counts: &[u64]) -> Result<(), BoardError> {
        if counts.is_empty() {
            return Err(BoardError::Empty);
        }
        if counts
            .iter()
            .try_fold(0u64, |total, &c| total.checked_add(c))
            .is_none()
        {
            // A u128 cannot overflow: that would take 2^64 counts.
            let total = counts.iter().map(|&c| u128::from(c)).sum();
            return Err(BoardError::TooManySeeds { total });
        }
        self.counts.clear();
        self.counts.extend_from_slice(counts);
        Ok(())
    }

    /// The counts, store first.
    #[must_use]
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// How many houses the board has (the store not included).
    #[must_use]
    pub fn houses(&self) -> usize {
        self.counts.len() - 1
    }

    /// The seeds in house `house`; house 0 is the store, and a house past the
    /// end of the board holds none.
    #[must_use]
    pub fn seeds(&self, house: usize) -> u64 {
        self.counts.get(house).copied().unwrap_or(0)
    }

    /// The seeds in the store.
    #[must_use]
    pub fn store(&self) -> u64 {
        self.counts[0]
    }

    /// Every seed on the board, store included.
    #[must_use]
    pub fn total(&self) -> u64 {
        // Cannot overflow: checked when the board was set, and moves keep it.
        self.counts.iter().sum()
    }

    /// The seeds still in houses.
    #[must_use]
    pub fn in_houses(&self) -> u64 {
        self.counts[1..].iter().sum()
    }

    /// Whether house `house` may be played: it holds exactly `house` seeds,
    /// so its last seed lands in the store. House 0 (the store) never may
    #[must_use]
    pub fn is_legal(&self, house: usize) -> bool {
        house != 0 && self.counts.get(house).is_some_and(|&c| c == house as u64)
    }

    /// Why `house` may not be played, or `Ok` when it may.
    ///
    /// # Errors
    /// The reason, with doc-style messages for the player.
    pub fn check(&self, house: usize) -> Result<(), SolitaireError> {
        if house == 0 {
            return Err(SolitaireError::Store);
        }
        match self.counts.get(house) {
            None => Err(SolitaireError::NoSuchHouse {
                house,
                houses: self.houses(),
            }),
            Some(&seeds) if seeds != house as u64 => {
                Err(SolitaireError::WrongCount { house, seeds })
            }
            Some(_) => Ok(()),
        }
    }

    /// The legal houses, closest to the store first.
    pub fn legal_moves(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.counts.len()).filter(|&h| self.is_legal(h))
    }

    /// Plays `house` (RULES.md §6.2): its seeds are sown one per
    /// house towards the store, the last one into the store.
    ///
    /// # Errors
    /// When the move is not legal; the board is unchanged then.
    pub fn apply(&mut self, house: usize) -> Result<(), SolitaireError> {
        self.check(house)?;
        self.apply_unchecked(house);
        Ok(())
    }

    /// Plays `house` and records each step in `trace` (cleared first).
    ///
    /// # Errors
    /// When the move is not legal; the board and trace are unchanged then.
    pub fn apply_traced(
        &mut self,
        house: usize,
        trace: &mut Vec<SolitaireStep>,
    ) -> Result<(), SolitaireError> {
        self.check(house)?;
        trace.clear();
        trace.push(SolitaireStep::Lift {
            house,
            seeds: house as u64,
        });
        trace.extend((0..house).rev().map(|h| SolitaireStep::Sow { house: h }));
        self.apply_unchecked(house);
        Ok(())
    }

    /// Plays a house known to be legal: the hot path of planning.
    fn apply_unchecked(&mut self, house: usize) {
        debug_assert!(self.is_legal(house));
        self.counts[house] = 0;
        for count in &mut self.counts[..house] {
            *count += 1;
        }
    }

    /// Takes back a move from `house`: the reverse of [`SolitaireBoard::apply`]. One
    /// seed returns from the store and from each house between, and the
    /// house holds its `house` seeds again. Used for undo, and for playing
    /// backwards from the won board.
    ///
    /// # Errors
    /// When the board cannot be the result of playing `house`: the store
    /// itself, a house past the end, a house that is not empty, or a house
    /// closer to the store (or the store) that is empty.
    pub fn unapply(&mut self, house: usize) -> Result<(), SolitaireError> {
        let seeds = self.seeds(house);
        if house == 0 {
            return Err(SolitaireError::Store);
        }
        if house >= self.counts.len() {
            return Err(SolitaireError::NoSuchHouse {
                house,
                houses: self.houses(),
            });
        }
        if seeds != 0 || self.counts[..house].contains(&0) {
            return Err(SolitaireError::WrongCount { house, seeds });
        }
        for count in &mut self.counts[..house] {
            *count -= 1;
        }
        self.counts[house] = house as u64;
        Ok(())
    }

    /// The legal house closest to the store, or 0 when no house is legal
    ///
    /// Playing a farther house first would drop a seed into the closer legal
    /// house, leaving it with more seeds than its number for ever.
    #[must_use]
    pub fn choose(&self) -> usize {
        // A scan from the store costs no more than the move it finds.
        (1..self.counts.len())
            .find(|&h| self.counts[h] == h as u64)
            .unwrap_or(0)
    }

    /// Whether every house is empty (RULES.md §6.3).
    #[must_use]
    pub fn is_won(&self) -> bool {
        self.counts[1..].iter().all(|&c| c == 0)
    }

    /// Whether seeds are left in houses but no house can be played.
    #[must_use]
    pub fn is_stuck(&self) -> bool {
        !self.is_won() && self.choose() == 0
    }

    /// The moves the closest-to-store rule (RULES.md §6.3) makes from here (always the legal house
    /// closest to the store) until no move is legal, and the board they
    /// leave. The board itself is not changed.
    ///
    /// The moves win exactly when the board is winnable. The cost is one
    /// step per seed moved, `sum(i * count_i)`, with no allocation per move
    /// beyond the list of moves.
    ///
    /// ```
    /// use mancala_engine::rules::solitaire::SolitaireBoard;
    /// let board = SolitaireBoard::from_counts(&[0, 1, 1, 3]).unwrap();
    /// let plan = board.plan();
    /// assert_eq!(plan.moves, [1, 3, 1, 2, 1]);
    /// assert!(plan.won());
    /// assert_eq!(plan.end.counts(), [5, 0, 0, 0]);
    /// ```
    #[must_use]
    pub fn plan(&self) -> Plan {
        let mut planned = self.plan_moves();
        let moves = planned.by_ref().collect();
        Plan {
            moves,
            end: planned.end,
        }
    }

    /// The moves of [`SolitaireBoard::plan`] one at a time, without
    /// keeping a list of them: a plan has one move per seed, so for millions
    /// of seeds the list alone is tens of megabytes. The board itself is
    /// not changed.
    ///
    /// ```
    /// use mancala_engine::rules::solitaire::SolitaireBoard;
    /// let board = SolitaireBoard::from_counts(&[0, 1, 1, 3]).unwrap();
    /// let mut planned = board.plan_moves();
    /// assert_eq!(planned.by_ref().collect::<Vec<_>>(), [1, 3, 1, 2, 1]);
    /// assert!(planned.end().is_won());
    /// ```
    #[must_use]
    pub fn plan_moves(&self) -> PlanMoves {
        PlanMoves { end: self.clone() }
    }
}

/// The moves of a plan, found as they are asked for: see
/// [`SolitaireBoard::plan_moves`].
#[derive(Clone, Debug)]
pub struct PlanMoves {
    /// The board after the moves given so far.
    end: SolitaireBoard,
}

impl PlanMoves {
    /// The board after the moves given so far: once the moves have run
    /// out, won or with no legal move.
    #[must_use]
    pub fn end(&self) -> &SolitaireBoard {
        &self.end
    }

    /// The board the whole plan leaves (the remaining moves are played).
    #[must_use]
    pub fn finish(mut self) -> SolitaireBoard {
        self.by_ref().for_each(drop);
        self.end
    }
}

impl Iterator for PlanMoves {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        // Each move puts one seed into the store: the scan for the next move
        // starts at house 1 and stops at the house played, so it costs no
        // more than the sowing itself.
        let house = self.end.choose();
        if house == 0 {
            return None;
        }
        self.end.apply_unchecked(house);
        Some(house)
    }
}

/// The exercise's `__str__` (RULES.md §1.5): the list with the store last, as the board is seen
/// with the store at the right end (`[0, 0, 0, 3, 1, 1, 0]`).
impl fmt::Display for SolitaireBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, count) in self.counts.iter().rev().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{count}")?;
        }
        f.write_str("]")
    }
}

/// What [`SolitaireBoard::plan`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The houses played, in order.
    pub moves: Vec<usize>,
    /// The board after the last of them: won, or with no legal move.
    pub end: SolitaireBoard,
}

impl Plan {
    /// Whether the plan brings every seed into the store.
    #[must_use]
    pub fn won(&self) -> bool {
        self.end.is_won()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(counts: &[u64]) -> SolitaireBoard {
        SolitaireBoard::from_counts(counts).unwrap()
    }

    #[test]
    fn rules_6_3_example_house_3_first_is_lost_house_1_first_wins() {
        let top = board(&[0, 1, 1, 3, 0, 0, 0]);
        assert_eq!(top.to_string(), "[0, 0, 0, 3, 1, 1, 0]");
        assert!(top.is_legal(1) && top.is_legal(3));
        assert!(!top.is_legal(0) && !top.is_legal(2) && !top.is_legal(4));
        assert_eq!(top.choose(), 1);

        let mut middle = top.clone();
        middle.apply(3).unwrap();
        assert_eq!(middle.counts(), [1, 2, 2, 0, 0, 0, 0]);
        assert_eq!(middle.to_string(), "[0, 0, 0, 0, 2, 2, 1]");
        // House 1 holds 2 > 1 seeds: it can never be cleared. House 2 can
        // still be played, which only adds to house 1.
        let plan = middle.plan();
        assert!(!plan.won());
        assert_eq!(plan.moves, [2]);
        assert_eq!(plan.end.counts(), [2, 3, 0, 0, 0, 0, 0]);
        assert!(plan.end.is_stuck());

        let mut bottom = top.clone();
        bottom.apply(1).unwrap();
        assert_eq!(bottom.counts(), [1, 0, 1, 3, 0, 0, 0]);
        assert_eq!(bottom.to_string(), "[0, 0, 0, 3, 1, 0, 1]");
        assert_eq!(bottom.choose(), 3);
        let plan = bottom.plan();
        assert!(plan.won());
        assert_eq!(plan.moves, [3, 1, 2, 1]);
        assert_eq!(plan.end.counts(), [5, 0, 0, 0, 0, 0, 0]);
        assert_eq!(top.plan().moves, [1, 3, 1, 2, 1]);
    }

    #[test]
    fn new_board_is_just_an_empty_store_and_is_won() {
        let b = SolitaireBoard::new();
        assert_eq!(b.counts(), [0]);
        assert_eq!(b.houses(), 0);
        assert!(b.is_won());
        assert!(!b.is_stuck());
        assert_eq!(b.choose(), 0);
        assert_eq!(b.to_string(), "[0]");
    }

    #[test]
    fn set_board_copies_and_rejects_bad_lists() {
        let mut source = vec![2, 1, 0, 3];
        let mut b = SolitaireBoard::new();
        b.set_board(&source).unwrap();
        source[1] = 9;
        assert_eq!(b.seeds(1), 1, "the board holds its own copy");
        assert_eq!(b.seeds(0), 2);
        assert_eq!(b.seeds(3), 3);
        assert_eq!(b.seeds(17), 0, "houses past the end are empty");
        assert_eq!(b.set_board(&[]), Err(BoardError::Empty));
        let too_many = b.set_board(&[u64::MAX, 1]).unwrap_err();
        assert_eq!(
            too_many,
            BoardError::TooManySeeds {
                total: u128::from(u64::MAX) + 1
            }
        );
        assert_eq!(
            too_many.to_string(),
            "the board holds too many seeds in total: 18446744073709551616, \
             and at most 18446744073709551615 fit"
        );
        assert_eq!(b.counts(), [2, 1, 0, 3], "unchanged after an error");
    }

    #[test]
    fn illegal_moves_are_refused_with_a_reason_and_change_nothing() {
        let mut b = board(&[0, 2, 0, 3, 1]);
        let before = b.clone();
        assert_eq!(b.apply(0), Err(SolitaireError::Store));
        assert_eq!(
            b.apply(1),
            Err(SolitaireError::WrongCount { house: 1, seeds: 2 })
        );
        assert_eq!(
            b.apply(2),
            Err(SolitaireError::WrongCount { house: 2, seeds: 0 })
        );
        assert_eq!(
            b.apply(9),
            Err(SolitaireError::NoSuchHouse {
                house: 9,
                houses: 4
            })
        );
        assert_eq!(b, before);
        assert_eq!(
            SolitaireError::Store.to_string(),
            "The store cannot be played."
        );
        assert_eq!(b.check(2).unwrap_err().to_string(), "House 2 is empty.");
        assert_eq!(
            b.check(4).unwrap_err().to_string(),
            "House 4 holds 1 seed; it can be played only when it holds exactly 4."
        );
        b.apply(3).unwrap();
        assert_eq!(b.counts(), [1, 3, 1, 0, 1]);
    }

    #[test]
    fn trace_replays_to_the_same_board_one_seed_at_a_time() {
        let mut b = board(&[4, 0, 1, 3, 4]);
        let mut counts = b.counts().to_vec();
        let mut trace = vec![SolitaireStep::Sow { house: 0 }];
        b.apply_traced(4, &mut trace).unwrap();
        assert_eq!(
            trace,
            [
                SolitaireStep::Lift { house: 4, seeds: 4 },
                SolitaireStep::Sow { house: 3 },
                SolitaireStep::Sow { house: 2 },
                SolitaireStep::Sow { house: 1 },
                SolitaireStep::Sow { house: 0 },
            ]
        );
        for step in &trace {
            step.apply(&mut counts);
        }
        assert_eq!(counts, b.counts());
        assert_eq!(b.counts(), [5, 1, 2, 4, 0]);
        assert!(b.apply_traced(4, &mut trace).is_err());
        assert_eq!(trace.len(), 5, "trace untouched by a refused move");
    }

    #[test]
    fn unapply_undoes_apply_and_refuses_impossible_takebacks() {
        let start = board(&[0, 1, 1, 3, 0, 0, 0]);
        let mut b = start.clone();
        let plan = b.plan();
        for &m in &plan.moves {
            b.apply(m).unwrap();
        }
        assert_eq!(b, plan.end);
        for &m in plan.moves.iter().rev() {
            b.unapply(m).unwrap();
        }
        assert_eq!(b, start);
        assert_eq!(b.unapply(0), Err(SolitaireError::Store));
        assert!(b.unapply(7).is_err());
        assert!(b.unapply(3).is_err(), "house 3 is not empty");
        // House 2 is empty but the store is empty too: nothing came from house 2.
        assert!(board(&[0, 1, 0]).unapply(2).is_err());
    }

    #[test]
    fn plan_leaves_the_board_alone_and_stops_when_stuck() {
        let b = board(&[0, 0, 2, 3, 1]);
        let plan = b.plan();
        assert_eq!(b.counts(), [0, 0, 2, 3, 1]);
        assert_eq!(plan.moves, [2, 1, 3, 1]);
        assert!(!plan.won(), "houses 2 and 4 hold 1 seed each for ever");
        assert_eq!(plan.end.counts(), [4, 0, 1, 0, 1]);
        assert!(plan.end.is_stuck());
    }
}
