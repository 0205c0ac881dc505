//! The position and the rules that move it.

use std::fmt;

use super::config::{Capture, MAX_CELLS, Rules, Sowing, Sweep};
use super::error::{MoveError, PositionError};
use super::pit::Pit;
use super::side::Side;
use super::trace::{NoTrace, Step, Tracer};

/// The most seeds a position may hold (they are counted in `u16`).
pub const MAX_TOTAL_SEEDS: usize = u16::MAX as usize;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side has more seeds.
    Win(Side),
    /// Both sides have the same.
    Draw,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }
}

/// Seeds counted for each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// South's seeds.
    pub south: u16,
    /// North's seeds.
    pub north: u16,
}

impl Score {
    /// `side`'s seeds.
    #[must_use]
    pub const fn of(self, side: Side) -> u16 {
        match side {
            Side::South => self.south,
            Side::North => self.north,
        }
    }

    /// `side`'s seeds minus its opponent's.
    #[must_use]
    pub const fn margin(self, side: Side) -> i32 {
        self.of(side) as i32 - self.of(side.opponent()) as i32
    }
}

/// A capture made by a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Captured {
    /// The mover's pit where the last seed landed.
    pub pit: Pit,
    /// The opponent's pit across from it.
    pub opposite: Pit,
    /// Seeds that went to the store, the last seed included.
    pub seeds: u16,
}

/// What a move did, for messages and for the caller's bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// Who moved.
    pub mover: Side,
    /// The pit the move started from.
    pub pit: Pit,
    /// Where the last seed landed (before any capture).
    pub last: Pit,
    /// The capture, if any.
    pub capture: Option<Captured>,
    /// Relay lifts made (always 0 with single sowing).
    pub relays: u16,
    /// The mover moves again. Never true when the move ended the game.
    pub extra_turn: bool,
    /// The last seed landed in the mover's store but the move also ended
    /// the game, so the extra turn is void.
    pub extra_turn_voided: bool,
    /// The move ended the game.
    pub game_over: bool,
    /// Seeds the end-of-game sweep (RULES.md §3.5, `sweep owner`) moved from
    /// each side's pits to its own store, by [`Side::index`]; zeros when
    /// the game goes on or the sweep rule is `none`.
    pub swept: [u16; 2],
}

/// Legal moves as a set of pits, iterated from the mover's left.
///
/// ```
/// use mancala_engine::rules::{Board, Rules};
/// let board = Board::new(Rules::KALAH);
/// let letters: String = board.legal_moves().map(|p| Rules::KALAH.letter(p).unwrap()).collect();
/// assert_eq!(letters, "abcdef");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moves(u32);

impl Moves {
    /// The set of the pits whose bits are set (for the other families).
    #[inline]
    pub(super) const fn from_bits(bits: u32) -> Moves {
        Moves(bits)
    }

    /// Whether there is no legal move.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many legal moves there are.
    #[must_use]
    pub const fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether `pit` is among them.
    #[must_use]
    pub const fn contains(self, pit: Pit) -> bool {
        pit.index() < 32 && self.0 & (1 << pit.index()) != 0
    }
}

impl Iterator for Moves {
    type Item = Pit;

    #[inline]
    fn next(&mut self) -> Option<Pit> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Pit::new(i as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Moves {}

/// A position: the seeds in every pit and store, the rules, and whose turn
/// it is. Pure data with no I/O; `Copy`, so searching copies and plays.
///
/// ```
/// use mancala_engine::rules::{Board, Rules, Side};
/// let rules = Rules::KALAH;
/// let mut board = Board::new(rules);
/// // c holds 4 seeds: d, e, f and South's store. Last seed in the store.
/// let played = board.play(rules.pit_by_letter('c').unwrap()).unwrap();
/// assert!(played.extra_turn);
/// assert_eq!(board.to_move(), Side::South);
/// assert_eq!(board.counts(), &[4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u16; MAX_CELLS],
    rules: Rules,
    to_move: Side,
    over: bool,
}

impl Board {
    /// The starting position of `rules`, South to move.
    #[must_use]
    pub fn new(rules: Rules) -> Board {
        Board::starting(rules, Side::South)
    }

    /// The starting position of `rules` with `first` to move.
    #[must_use]
    pub fn starting(rules: Rules, first: Side) -> Board {
        let mut cells = [0; MAX_CELLS];
        for side in Side::BOTH {
            for pit in rules.pits_of(side) {
                cells[pit.index()] = rules.seeds() as u16;
            }
        }
        Board {
            cells,
            rules,
            to_move: first,
            over: false,
        }
    }

    /// Any position: `counts` lists South's pits, South's store, North's pits,
    /// North's store (the layout of [`Board::counts`]).
    ///
    /// A position where a side's pits are already empty is a finished game.
    ///
    /// # Errors
    /// [`PositionError`] when the list has the wrong length or holds more
    /// than [`MAX_TOTAL_SEEDS`].
    ///
    /// ```
    /// use mancala_engine::rules::{Board, Rules, Side};
    /// // a classroom test board (RULES.md §1.1)
    /// let b = Board::from_counts(Rules::KALAH, &[3, 0, 6, 1, 2, 3, 3, 1, 2, 3, 6, 0, 2, 1], Side::South).unwrap();
    /// assert_eq!(b.seeds(Rules::KALAH.store(Side::South)), 3);
    /// ```
    pub fn from_counts(
        rules: Rules,
        counts: &[u16],
        to_move: Side,
    ) -> Result<Board, PositionError> {
        if counts.len() != rules.cells() {
            return Err(PositionError::Length {
                expected: rules.cells(),
                found: counts.len(),
            });
        }
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        if total > MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds {
                seeds: total,
                most: MAX_TOTAL_SEEDS,
            });
        }
        let mut cells = [0; MAX_CELLS];
        cells[..counts.len()].copy_from_slice(counts);
        let mut board = Board {
            cells,
            rules,
            to_move,
            over: false,
        };
        board.over = board.side_is_empty(Side::South) || board.side_is_empty(Side::North);
        Ok(board)
    }

    /// The rules in force.
    #[inline]
    #[must_use]
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whose turn it is (while the game is on).
    #[inline]
    #[must_use]
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// Every count in layout order: South's pits, South's store, North's
    /// pits, North's store (`2 * pits + 2` entries).
    #[inline]
    #[must_use]
    pub fn counts(&self) -> &[u16] {
        &self.cells[..self.rules.cells()]
    }

    /// Seeds in one pit or store.
    ///
    /// # Panics
    /// When `pit` is not on this board.
    #[inline]
    #[must_use]
    pub fn seeds(&self, pit: Pit) -> u16 {
        self.counts()[pit.index()]
    }

    /// Seeds in `side`'s pits, its store not included.
    #[must_use]
    pub fn seeds_in_pits(&self, side: Side) -> u16 {
        self.side_pits(side).iter().sum()
    }

    /// Whether the game is over.
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.over
    }

    /// The seeds each side has: its store, plus (once the game is over and
    /// the sweep is `owner`) anything left in its pits.
    #[must_use]
    pub fn score(&self) -> Score {
        let count = |side: Side| {
            let store = self.cells[self.rules.store(side).index()];
            if self.over && self.rules.sweep() == Sweep::Owner {
                store + self.seeds_in_pits(side)
            } else {
                store
            }
        };
        Score {
            south: count(Side::South),
            north: count(Side::North),
        }
    }

    /// How the game ended, or `None` while it is on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let score = self.score();
        Some(match score.south.cmp(&score.north) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::South),
            std::cmp::Ordering::Less => Outcome::Win(Side::North),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// The pits the side to move may play (none once the game is over).
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Moves {
        if self.over {
            return Moves(0);
        }
        let first = self.first_pit(self.to_move);
        let mut bits = 0u32;
        for (i, &c) in self.side_pits(self.to_move).iter().enumerate() {
            bits |= u32::from(c != 0) << (first + i);
        }
        Moves(bits)
    }

    /// Checks that the side to move may play `pit`, without playing it.
    ///
    /// # Errors
    /// The [`MoveError`] that [`Board::play`] would return.
    pub fn check(&self, pit: Pit) -> Result<(), MoveError> {
        if self.over {
            Err(MoveError::GameOver)
        } else if !self.rules.contains(pit) {
            Err(MoveError::NoSuchPit)
        } else if self.rules.is_store(pit) {
            Err(MoveError::Store)
        } else if self.rules.owner(pit) != self.to_move {
            Err(MoveError::NotYours)
        } else if self.cells[pit.index()] == 0 {
            Err(MoveError::Empty)
        } else {
            Ok(())
        }
    }

    /// Plays `pit` for the side to move.
    ///
    /// # Errors
    /// A [`MoveError`] when the pit cannot be played; the board is unchanged.
    pub fn play(&mut self, pit: Pit) -> Result<Played, MoveError> {
        self.check(pit)?;
        Ok(self.sow(pit, &mut NoTrace))
    }

    /// Plays `pit` and appends every step (lift, each seed, relay lifts,
    /// capture, sweep) to `trace`, for animation.
    ///
    /// # Errors
    /// As [`Board::play`]; nothing is appended then.
    pub fn play_traced(&mut self, pit: Pit, trace: &mut impl Tracer) -> Result<Played, MoveError> {
        self.check(pit)?;
        Ok(self.sow(pit, trace))
    }

    /// Plays a pit known to be legal (for example one from
    /// [`Board::legal_moves`]): the search's fast path.
    ///
    /// Playing an illegal pit does not fail memory safety but leaves a
    /// meaningless position; debug builds assert legality.
    #[inline]
    pub fn play_unchecked(&mut self, pit: Pit) -> Played {
        debug_assert_eq!(self.check(pit), Ok(()), "illegal move {pit} in {self:?}");
        self.sow(pit, &mut NoTrace)
    }

    /// Counts the move sequences of exactly `depth` plies from here (an
    /// extra-turn continuation is a ply of its own), like chess's perft.
    /// Finished games before `depth` are not counted.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.count() as u64;
        }
        moves
            .map(|pit| {
                let mut next = *self;
                next.play_unchecked(pit);
                next.perft(depth - 1)
            })
            .sum()
    }

    #[inline]
    fn first_pit(&self, side: Side) -> usize {
        match side {
            Side::South => 0,
            Side::North => self.rules.pits() + 1,
        }
    }

    #[inline]
    fn side_pits(&self, side: Side) -> &[u16] {
        let first = self.first_pit(side);
        &self.cells[first..first + self.rules.pits()]
    }

    #[inline]
    fn side_is_empty(&self, side: Side) -> bool {
        self.side_pits(side).iter().all(|&c| c == 0)
    }

    /// The one implementation of a move. With [`NoTrace`] the tracer calls
    /// compile away, so the fast path and the animated path cannot disagree.
    ///
    /// Why relay sowing always ends: every seed dropped moves the hand one
    /// place forward around the ring of `2n + 1` places the mover sows into
    /// (the opponent's store is skipped), and a relay lift carries on from
    /// where the hand is, so the hand never moves back. Each time it passes
    /// the mover's store with seeds left it drops one there, and a store
    /// never gives seeds back during a move. A move that did not end would
    /// therefore put more seeds into the store than there are on the board
    /// (`T`). So the hand passes the store at most `T` times and a move drops
    /// at most `(T + 1) * (2n + 1)` seeds, whatever the position
    /// (`relay_sowing_always_ends` in the tests checks this bound).
    #[inline(always)]
    fn sow<T: Tracer>(&mut self, start: Pit, tracer: &mut T) -> Played {
        let n = self.rules.pits();
        let len = 2 * n + 2;
        let me = self.to_move;
        let (my_store, their_store) = match me {
            Side::South => (n, 2 * n + 1),
            Side::North => (2 * n + 1, n),
        };
        let relay = self.rules.sowing() == Sowing::Relay;

        let mut hand = self.cells[start.index()];
        self.cells[start.index()] = 0;
        tracer.step(Step::Lift {
            pit: start,
            seeds: hand,
        });
        // Sow in contiguous runs: each run ends at the opponent's store
        // (skipped) or at the end of the layout (wrap to 0), so no seed pays
        // for a wrap-around or skip test of its own.
        let mut next = start.index() + 1;
        let mut last = start.index();
        let mut relays = 0u16;
        loop {
            while hand > 0 {
                if next == their_store {
                    next += 1;
                }
                if next == len {
                    next = 0;
                }
                let run_end = if next < their_store { their_store } else { len };
                let run = (hand as usize).min(run_end - next);
                for (i, cell) in self.cells[next..next + run].iter_mut().enumerate() {
                    *cell += 1;
                    tracer.step(Step::Sow {
                        pit: Pit::new((next + i) as u8),
                    });
                }
                hand -= run as u16;
                next += run;
                last = next - 1;
            }
            if relay && last != my_store && self.cells[last] > 1 {
                hand = self.cells[last];
                self.cells[last] = 0;
                relays += 1;
                tracer.step(Step::Relay {
                    pit: Pit::new(last as u8),
                    seeds: hand,
                });
                continue;
            }
            break;
        }

        let mut capture = None;
        let own_pit = match me {
            Side::South => last < n,
            Side::North => last > n && last < my_store,
        };
        if own_pit && self.cells[last] == 1 {
            let opposite = 2 * n - last;
            let take = match self.rules.capture() {
                Capture::Always => true,
                Capture::NonEmpty => self.cells[opposite] > 0,
                Capture::Never => false,
            };
            if take {
                let seeds = 1 + self.cells[opposite];
                self.cells[last] = 0;
                self.cells[opposite] = 0;
                self.cells[my_store] += seeds;
                let captured = Captured {
                    pit: Pit::new(last as u8),
                    opposite: Pit::new(opposite as u8),
                    seeds,
                };
                tracer.step(Step::Capture {
                    pit: captured.pit,
                    opposite: captured.opposite,
                    seeds,
                    store: Pit::new(my_store as u8),
                });
                capture = Some(captured);
            }
        }

        let landed_in_store = last == my_store;
        // Sowing only adds to the opponent's pits; they can empty only
        // through a capture or a relay lift.
        self.over = self.side_is_empty(me)
            || ((capture.is_some() || relays > 0) && self.side_is_empty(me.opponent()));
        let mut swept = [0; 2];
        if self.over {
            if self.rules.sweep() == Sweep::Owner {
                swept = self.sweep(tracer);
            }
            tracer.step(Step::GameOver);
        } else if landed_in_store {
            tracer.step(Step::ExtraTurn);
        } else {
            self.to_move = me.opponent();
        }

        Played {
            mover: me,
            pit: start,
            last: Pit::new(last as u8),
            capture,
            relays,
            extra_turn: landed_in_store && !self.over,
            extra_turn_voided: landed_in_store && self.over,
            game_over: self.over,
            swept,
        }
    }

    /// Empties every pit into its owner's store; the seeds each side got.
    #[cold]
    fn sweep<T: Tracer>(&mut self, tracer: &mut T) -> [u16; 2] {
        let mut swept = [0; 2];
        for side in Side::BOTH {
            let store = self.rules.store(side);
            for pit in self.rules.pits_of(side) {
                let seeds = self.cells[pit.index()];
                if seeds > 0 {
                    self.cells[pit.index()] = 0;
                    self.cells[store.index()] += seeds;
                    swept[side.index()] += seeds;
                    tracer.step(Step::Sweep {
                        side,
                        pit,
                        seeds,
                        store,
                    });
                }
            }
        }
        swept
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {{ {:?}, to_move: {}, over: {}, rules: {} }}",
            self.counts(),
            self.to_move,
            self.over,
            self.rules
        )
    }
}
