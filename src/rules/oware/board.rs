//! An Oware position and the one move that changes it (RULES.md §7).

use std::fmt;

use super::super::board::{Moves, Outcome, Score};
use super::super::error::{MoveError, PositionError};
use super::super::pit::Pit;
use super::super::side::Side;
use super::super::trace::{NoTrace, Step, Tracer};

/// Houses per side.
pub const HOUSES: usize = 6;
/// Places in the layout: both rows of houses and the two captured piles.
const CELLS: usize = 2 * HOUSES + 2;

/// The most seeds an Oware position may hold (a set-up board; the game
/// itself has 48).
const MAX_SEEDS: usize = u8::MAX as usize;
/// Seeds per house at the start.
const START_SEEDS: u16 = 4;

/// The place after each place in sowing order: the captured piles (6 and
/// 13) are never sown into, so `f` (5) is followed by `g` (7) and `l` (12)
/// by `a` (0).
const NEXT: [usize; CELLS] = [1, 2, 3, 4, 5, 7, 7, 8, 9, 10, 11, 12, 0, 0];

/// What a grand slam (a move that would capture every seed the opponent
/// has, RULES.md §7.4) does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// Abapa: the move is legal and captures nothing.
    #[default]
    NoCapture,
    /// The move captures as any other would, leaving the opponent bare.
    CaptureAll,
    /// The move may not be played.
    Illegal,
}

/// The options of Oware: Abapa by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OwareRules {
    /// What a grand slam does.
    pub grand_slam: GrandSlam,
}

impl OwareRules {
    /// Abapa, as the World Oware Federation, the Mind Sports Olympiad and
    /// OpenSpiel play it.
    pub const ABAPA: OwareRules = OwareRules {
        grand_slam: GrandSlam::NoCapture,
    };
}

/// Why a round of Oware ended (RULES.md §7.5, §7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// A player captured more than half of the seeds (25 of 48), or both
    /// exactly half.
    Goal,
    /// The player to move could not give the opponent seeds (or had none).
    NoFeed,
    /// The position repeated.
    Repetition,
}

/// What an Oware move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwarePlayed {
    /// Who moved.
    pub mover: Side,
    /// The house the move started from.
    pub pit: Pit,
    /// Where the last seed landed.
    pub last: Pit,
    /// Seeds captured.
    pub captured: u16,
    /// Houses captured, from `last` backwards.
    pub houses: u8,
    /// The move was a grand slam that captured nothing (Abapa).
    pub grand_slam: bool,
    /// How the round ended, if this move ended it.
    pub end: Option<End>,
    /// Seeds each side took from its own houses at the end, by
    /// [`Side::index`].
    pub swept: [u16; 2],
}

/// An Oware position: the houses, the captured seeds, whose turn it is.
/// Pure data, `Copy`; the history that repetition needs is the caller's
/// (see [`OwareRound`](super::OwareRound)).
///
/// ```
/// use mancala_engine::rules::{Rules, Side};
/// use mancala_engine::rules::oware::OwareBoard;
/// let mut board = OwareBoard::new();
/// board.play(Rules::KALAH.pit_by_letter('c').unwrap()).unwrap();
/// assert_eq!(board.houses(), [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
/// assert_eq!(board.to_move(), Side::North);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OwareBoard {
    cells: [u16; CELLS],
    rules: OwareRules,
    to_move: Side,
    end: Option<End>,
    /// Seeds in play and captured: a player with more than half has won.
    total: u16,
}

impl Default for OwareBoard {
    fn default() -> Self {
        OwareBoard::new()
    }
}

#[inline]
const fn first_house(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => HOUSES + 1,
    }
}

#[inline]
const fn pile(side: Side) -> usize {
    match side {
        Side::South => HOUSES,
        Side::North => 2 * HOUSES + 1,
    }
}

impl OwareBoard {
    /// The starting position of Abapa, South to move.
    #[must_use]
    pub fn new() -> OwareBoard {
        OwareBoard::starting(OwareRules::ABAPA, Side::South)
    }

    /// The starting position with `first` to move.
    #[must_use]
    pub fn starting(rules: OwareRules, first: Side) -> OwareBoard {
        let mut cells = [START_SEEDS; CELLS];
        cells[pile(Side::South)] = 0;
        cells[pile(Side::North)] = 0;
        OwareBoard {
            cells,
            rules,
            to_move: first,
            end: None,
            total: 2 * HOUSES as u16 * START_SEEDS,
        }
    }

    /// Any position: `houses` are the twelve houses `a`–`l` (South's from
    /// its left, then North's from its left), `captured` each side's
    /// captured seeds.
    ///
    /// A position where a player has already captured more than half, or
    /// where the mover cannot move, is a finished round (its houses count
    /// for their owners in [`OwareBoard::score`]).
    ///
    /// # Errors
    /// [`PositionError`] when `houses` does not have twelve counts or the
    /// seeds are more than 255 (a bound that keeps every count in a byte
    /// for the database and the search).
    pub fn from_houses(
        rules: OwareRules,
        houses: &[u16],
        captured: Score,
        to_move: Side,
    ) -> Result<OwareBoard, PositionError> {
        if houses.len() != 2 * HOUSES {
            return Err(PositionError::Length {
                expected: 2 * HOUSES,
                found: houses.len(),
            });
        }
        let total = houses.iter().map(|&c| usize::from(c)).sum::<usize>()
            + usize::from(captured.south)
            + usize::from(captured.north);
        if total > MAX_SEEDS {
            return Err(PositionError::TooManySeeds {
                seeds: total,
                most: MAX_SEEDS,
            });
        }
        let mut cells = [0; CELLS];
        cells[..HOUSES].copy_from_slice(&houses[..HOUSES]);
        cells[HOUSES + 1..2 * HOUSES + 1].copy_from_slice(&houses[HOUSES..]);
        cells[pile(Side::South)] = captured.south;
        cells[pile(Side::North)] = captured.north;
        let mut board = OwareBoard {
            cells,
            rules,
            to_move,
            end: None,
            total: total as u16,
        };
        let [south, north] = [captured.south, captured.north].map(|c| 2 * usize::from(c));
        board.end = if south > total || north > total || (south == total && north == total) {
            Some(End::Goal)
        } else if board.legal_moves().is_empty() {
            Some(End::NoFeed)
        } else {
            None
        };
        Ok(board)
    }

    /// Any position from every count in the layout ([`OwareBoard::counts`]:
    /// South's houses, South's captured seeds, North's houses, North's),
    /// as [`OwareBoard::from_houses`] reads it.
    ///
    /// # Errors
    /// As [`OwareBoard::from_houses`], and when there are not fourteen
    /// counts.
    pub fn from_counts(
        rules: OwareRules,
        counts: &[u16],
        to_move: Side,
    ) -> Result<OwareBoard, PositionError> {
        if counts.len() != CELLS {
            return Err(PositionError::Length {
                expected: CELLS,
                found: counts.len(),
            });
        }
        let mut houses = [0; 2 * HOUSES];
        houses[..HOUSES].copy_from_slice(&counts[..HOUSES]);
        houses[HOUSES..].copy_from_slice(&counts[HOUSES + 1..2 * HOUSES + 1]);
        let captured = Score {
            south: counts[pile(Side::South)],
            north: counts[pile(Side::North)],
        };
        OwareBoard::from_houses(rules, &houses, captured, to_move)
    }

    /// A position with nothing captured where the round is **played out**:
    /// it ends only when the mover cannot feed (RULES.md §7.5) or on a
    /// repetition, never at 25. What the side to move can then win from
    /// the seeds on the board decides the real round too (more than half
    /// of all seeds is for ever more than half), and it does not depend on
    /// the seeds already captured: what endgame databases store.
    ///
    /// # Errors
    /// As [`OwareBoard::from_houses`].
    pub fn played_out(
        rules: OwareRules,
        houses: &[u16],
        to_move: Side,
    ) -> Result<OwareBoard, PositionError> {
        if houses.len() != 2 * HOUSES {
            return Err(PositionError::Length {
                expected: 2 * HOUSES,
                found: houses.len(),
            });
        }
        let seeds = houses.iter().map(|&c| usize::from(c)).sum::<usize>();
        if seeds > MAX_SEEDS {
            return Err(PositionError::TooManySeeds {
                seeds,
                most: MAX_SEEDS,
            });
        }
        // Built directly (the database's build makes millions of these):
        // nothing captured, and no capture can reach half of `total`.
        let mut cells = [0; CELLS];
        cells[..HOUSES].copy_from_slice(&houses[..HOUSES]);
        cells[HOUSES + 1..2 * HOUSES + 1].copy_from_slice(&houses[HOUSES..]);
        let mut board = OwareBoard {
            cells,
            rules,
            to_move,
            end: None,
            total: u16::MAX / 4,
        };
        board.end = board.legal_moves().is_empty().then_some(End::NoFeed);
        Ok(board)
    }

    /// Whether the round from here is sure to be the round played out
    /// ([`OwareBoard::played_out`]) with the seeds captured so far added:
    /// no player can capture more than half of all seeds while a seed is
    /// still on the board, so the round never stops at 25 (§7.5) with
    /// seeds left to sweep. Only then is an endgame database's margin the
    /// real one (its winner always is; RULES.md §7.9). Always true of a
    /// position played out; with 48 seeds, true only with at most two on
    /// the board.
    #[must_use]
    pub fn ends_as_played_out(&self) -> bool {
        let on_board = self.seeds_on_board();
        let captured = self.captured();
        on_board == 0
            || [captured.south, captured.north]
                .iter()
                .all(|&c| 2 * u32::from(c + on_board - 1) <= u32::from(self.total))
    }

    /// The rules in force.
    #[must_use]
    pub const fn rules(&self) -> OwareRules {
        self.rules
    }

    /// Whose turn it is (while the round is on).
    #[inline]
    #[must_use]
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// Every count in the layout of RULES.md §2.1 with six pits: South's
    /// houses, South's captured seeds, North's houses, North's captured
    /// seeds.
    #[inline]
    #[must_use]
    pub fn counts(&self) -> &[u16] {
        &self.cells
    }

    /// The twelve houses `a`–`l`.
    #[must_use]
    pub fn houses(&self) -> [u16; 2 * HOUSES] {
        let mut houses = [0; 2 * HOUSES];
        houses[..HOUSES].copy_from_slice(&self.cells[..HOUSES]);
        houses[HOUSES..].copy_from_slice(&self.cells[HOUSES + 1..2 * HOUSES + 1]);
        houses
    }

    /// Seeds in one place.
    ///
    /// # Panics
    /// When `pit` is not on the board.
    #[inline]
    #[must_use]
    pub fn seeds(&self, pit: Pit) -> u16 {
        self.cells[pit.index()]
    }

    /// Seeds in `side`'s houses.
    #[inline]
    #[must_use]
    pub fn seeds_in_houses(&self, side: Side) -> u16 {
        let first = first_house(side);
        self.cells[first..first + HOUSES].iter().sum()
    }

    /// Seeds in all twelve houses (not yet captured).
    #[inline]
    #[must_use]
    pub fn seeds_on_board(&self) -> u16 {
        self.seeds_in_houses(Side::South) + self.seeds_in_houses(Side::North)
    }

    /// Seeds each side has captured: once the round is over, with the
    /// seeds left on its side (so that the two add up to every seed).
    #[must_use]
    pub fn score(&self) -> Score {
        let count = |side: Side| {
            let captured = self.cells[pile(side)];
            if self.end.is_some() {
                captured + self.seeds_in_houses(side)
            } else {
                captured
            }
        };
        Score {
            south: count(Side::South),
            north: count(Side::North),
        }
    }

    /// Seeds captured so far by each side (without the final sweep).
    #[must_use]
    pub fn captured(&self) -> Score {
        Score {
            south: self.cells[pile(Side::South)],
            north: self.cells[pile(Side::North)],
        }
    }

    /// Whether the round is over.
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Why the round ended, or `None` while it is on.
    #[must_use]
    pub const fn end(&self) -> Option<End> {
        self.end
    }

    /// How the round ended, or `None` while it is on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.end?;
        let score = self.score();
        Some(match score.south.cmp(&score.north) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::South),
            std::cmp::Ordering::Less => Outcome::Win(Side::North),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// The houses the side to move may play: non-empty, feeding the
    /// opponent when the opponent has no seeds (RULES.md §7.5), and not a
    /// grand slam when the rules forbid those.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Moves {
        if self.end.is_some() {
            return Moves::from_bits(0);
        }
        let bits = self.candidates();
        if self.rules.grand_slam == GrandSlam::Illegal {
            return Moves::from_bits(self.without_grand_slams(bits));
        }
        Moves::from_bits(bits)
    }

    /// Non-empty houses, feeding ones only when the opponent is bare.
    #[inline]
    fn candidates(&self) -> u32 {
        let first = first_house(self.to_move);
        let bare = self.seeds_in_houses(self.to_move.opponent()) == 0;
        let mut bits = 0u32;
        for i in 0..HOUSES {
            let c = self.cells[first + i];
            // From the i-th house, 6 - i seeds reach the opponent's row.
            let ok = if bare {
                usize::from(c) >= HOUSES - i
            } else {
                c > 0
            };
            bits |= u32::from(ok) << (first + i);
        }
        bits
    }

    #[cold]
    fn without_grand_slams(&self, bits: u32) -> u32 {
        Moves::from_bits(bits)
            .filter(|&pit| !self.is_grand_slam(pit))
            .fold(0, |acc, pit| acc | 1 << pit.index())
    }

    /// Whether playing `pit` (a non-empty house of the mover) would capture
    /// every seed the opponent has.
    #[must_use]
    pub fn is_grand_slam(&self, pit: Pit) -> bool {
        let mut trial = *self;
        trial.rules.grand_slam = GrandSlam::NoCapture;
        trial.sow(pit, &mut NoTrace).grand_slam
    }

    /// Checks that the side to move may play `pit`, without playing it.
    ///
    /// # Errors
    /// The [`MoveError`] that [`OwareBoard::play`] would return.
    pub fn check(&self, pit: Pit) -> Result<(), MoveError> {
        let i = pit.index();
        if self.end.is_some() {
            Err(MoveError::GameOver)
        } else if i >= CELLS {
            Err(MoveError::NoSuchPit)
        } else if i == pile(Side::South) || i == pile(Side::North) {
            Err(MoveError::Store)
        } else if (i > HOUSES) != (self.to_move == Side::North) {
            Err(MoveError::NotYours)
        } else if self.cells[i] == 0 {
            Err(MoveError::Empty)
        } else if self.candidates() & (1 << i) == 0 {
            Err(MoveError::MustFeed)
        } else if self.rules.grand_slam == GrandSlam::Illegal && self.is_grand_slam(pit) {
            Err(MoveError::GrandSlam)
        } else {
            Ok(())
        }
    }

    /// Plays `pit` for the side to move.
    ///
    /// # Errors
    /// A [`MoveError`] when the house cannot be played; the board is unchanged.
    pub fn play(&mut self, pit: Pit) -> Result<OwarePlayed, MoveError> {
        self.check(pit)?;
        Ok(self.sow(pit, &mut NoTrace))
    }

    /// Plays `pit` and hands every step (lift, each seed, each house
    /// captured, the final sweep) to `trace`, for animation.
    ///
    /// # Errors
    /// As [`OwareBoard::play`]; nothing is traced then.
    pub fn play_traced(
        &mut self,
        pit: Pit,
        trace: &mut impl Tracer,
    ) -> Result<OwarePlayed, MoveError> {
        self.check(pit)?;
        Ok(self.sow(pit, trace))
    }

    /// Plays a house known to be legal (from [`OwareBoard::legal_moves`]):
    /// the search's fast path. Debug builds assert legality.
    #[inline]
    pub fn play_unchecked(&mut self, pit: Pit) -> OwarePlayed {
        debug_assert_eq!(self.check(pit), Ok(()), "illegal move {pit} in {self:?}");
        self.sow(pit, &mut NoTrace)
    }

    /// Ends the round because the position repeated (RULES.md §7.6): each
    /// side takes the seeds on its side. The seeds each side took.
    pub fn end_by_repetition(&mut self, tracer: &mut impl Tracer) -> [u16; 2] {
        if self.end.is_some() {
            return [0; 2];
        }
        self.end = Some(End::Repetition);
        let swept = self.sweep(tracer);
        tracer.step(Step::GameOver);
        swept
    }

    /// Counts the move sequences of exactly `depth` plies from here, like
    /// chess's perft; rounds that end sooner are not counted. Repetition is
    /// not looked at (a position cannot repeat within the first dozen plies
    /// from the start: no seed ever goes back).
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

    /// The one implementation of a move, traced or not (with [`NoTrace`]
    /// the tracer calls compile away). No allocation.
    #[inline(always)]
    fn sow<T: Tracer>(&mut self, start: Pit, tracer: &mut T) -> OwarePlayed {
        let me = self.to_move;
        let s = start.index();
        let mut hand = self.cells[s];
        self.cells[s] = 0;
        tracer.step(Step::Lift {
            pit: start,
            seeds: hand,
        });
        let mut at = s;
        while hand > 0 {
            at = NEXT[at];
            // 12 or more seeds: the emptied house is skipped on every lap.
            if at == s {
                continue;
            }
            self.cells[at] += 1;
            hand -= 1;
            tracer.step(Step::Sow {
                pit: Pit::new(at as u8),
            });
        }

        let their_first = first_house(me.opponent());
        let mine = pile(me);
        let (mut captured, mut houses, mut grand_slam) = (0u16, 0u8, false);
        if (their_first..their_first + HOUSES).contains(&at) && matches!(self.cells[at], 2 | 3) {
            let mut i = at;
            while i >= their_first && matches!(self.cells[i], 2 | 3) {
                captured += self.cells[i];
                houses += 1;
                if i == 0 {
                    break;
                }
                i -= 1;
            }
            if captured == self.seeds_in_houses(me.opponent())
                && self.rules.grand_slam != GrandSlam::CaptureAll
            {
                grand_slam = true;
                captured = 0;
                houses = 0;
            } else {
                for k in 0..usize::from(houses) {
                    let pit = at - k;
                    let seeds = self.cells[pit];
                    self.cells[pit] = 0;
                    self.cells[mine] += seeds;
                    tracer.step(Step::Take {
                        pit: Pit::new(pit as u8),
                        seeds,
                        store: Pit::new(mine as u8),
                    });
                }
            }
        }

        let total = self.total;
        let [won, shared] = [2 * self.cells[mine], 2 * self.cells[pile(me.opponent())]];
        self.to_move = me.opponent();
        self.end = if won > total || (won == total && shared == total) {
            Some(End::Goal)
        } else if self.legal_moves().is_empty() {
            Some(End::NoFeed)
        } else {
            None
        };
        let mut swept = [0; 2];
        if self.end.is_some() {
            swept = self.sweep(tracer);
            tracer.step(Step::GameOver);
        }
        OwarePlayed {
            mover: me,
            pit: start,
            last: Pit::new(at as u8),
            captured,
            houses,
            grand_slam,
            end: self.end,
            swept,
        }
    }

    /// Each side takes the seeds on its side; the seeds each took.
    #[cold]
    fn sweep<T: Tracer>(&mut self, tracer: &mut T) -> [u16; 2] {
        let mut swept = [0; 2];
        for side in Side::BOTH {
            let first = first_house(side);
            let store = pile(side);
            for pit in first..first + HOUSES {
                let seeds = self.cells[pit];
                if seeds > 0 {
                    self.cells[pit] = 0;
                    self.cells[store] += seeds;
                    swept[side.index()] += seeds;
                    tracer.step(Step::Sweep {
                        side,
                        pit: Pit::new(pit as u8),
                        seeds,
                        store: Pit::new(store as u8),
                    });
                }
            }
        }
        swept
    }
}

impl fmt::Debug for OwareBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "OwareBoard {{ {:?}, to_move: {}, end: {:?}, rules: {:?} }}",
            self.cells, self.to_move, self.end, self.rules
        )
    }
}
