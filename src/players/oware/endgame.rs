//! Oware's endgame database: the exact value of every position with at most
//! `N` seeds on the board, by retrograde analysis (RULES.md §7.9): kept
//! as the values of the few positions that have one ([`CountValues`]).
//!
//! A position is the twelve houses with the mover's row first (a position
//! with North to move is turned round), indexed by its rank among the
//! ways to share its `n` seeds between twelve houses (the combinatorial
//! number system: `C(n + 11, 11)` positions with `n` seeds). CountValues are
//! those of the round played out ([`OwareBoard::played_out`]): what the
//! mover captures from here on, the final sweep included, minus what the
//! opponent does.
//!
//! Captures leave fewer seeds, so the database is built one seed count at
//! a time, each from the ones below. Within one count, moves that capture
//! nothing can go round in circles, and a circle ends the round by
//! repetition, each side taking the seeds on its side of the position that
//! repeated. Whether a position ends the round that way depends on the
//! history, so each position gets two bounds that hold whatever the
//! history, as least fixed points (found by a worklist over each
//! position's moves, worked out once: see [`Builder::build_next`]): what
//! the mover can force by a line that surely ends (a capture or the end of the round) whatever the
//! opponent does, and the most the opponent cannot stop it from getting
//! the same way. Where they meet, both players' best lines end without a
//! repetition and the value is the round's from this position on (with
//! no position before it since the last capture that play returns to:
//! a forced line never does). Where they do not, the value depends on
//! repetition and the position is marked [`REPETITION`] rather than
//! guessed. Of the positions with `n` seeds, most are marked for small
//! `n` (docs/PERFORMANCE.md gives the counts). Both bounds of each count
//! can be taken out and put back ([`Builder::level_bytes`],
//! [`Builder::push_level_bytes`]), so that the store keeps them on disk
//! and later counts are built from counts read back.

use std::sync::Arc;

use crate::players::solver::prefetch::prefetch;

use crate::rules::Side;
use crate::rules::oware::{HOUSES, OwareBoard, OwareRules};

/// The byte of a position whose value depends on which position repeats.
pub const REPETITION: u8 = 0xFF;
/// Stored bytes are the value plus this (values are `-48..=48`).
const OFFSET: i16 = 64;
/// The largest seed count the index tables cover.
pub const MAX_DB_SEEDS: usize = 48;
/// Positions valued together in a build: their moves first, each child's
/// bounds prefetched, then their values.
const BATCH: usize = 256;

/// Below every value.
const LOW: i16 = -1000;
/// Above every value.
const HIGH: i16 = 1000;
/// A lower bound not proven yet.
pub(super) const UNKNOWN_LOW: i8 = -127;
/// An upper bound not proven yet.
pub(super) const UNKNOWN_HIGH: i8 = 127;

/// `C(a, b)` for `a < MAX_DB_SEEDS + 12`, `b ≤ 12`.
struct Binomials([[u64; 13]; MAX_DB_SEEDS + 13]);

impl Binomials {
    const fn new() -> Binomials {
        let mut t = [[0u64; 13]; MAX_DB_SEEDS + 13];
        let mut a = 0;
        while a < MAX_DB_SEEDS + 13 {
            t[a][0] = 1;
            let mut b = 1;
            while b < 13 {
                t[a][b] = if a == 0 {
                    0
                } else {
                    t[a - 1][b - 1] + t[a - 1][b]
                };
                b += 1;
            }
            a += 1;
        }
        Binomials(t)
    }

    #[inline]
    fn c(&self, a: usize, b: usize) -> u64 {
        self.0[a][b]
    }
}

static BINOMIALS: Binomials = Binomials::new();

/// Positions with exactly `n` seeds on the board.
#[must_use]
pub fn positions(n: usize) -> u64 {
    BINOMIALS.c(n + 11, 11)
}

/// The rank of `houses` (mover's row first) among the positions with the
/// same number of seeds.
#[must_use]
pub fn rank(houses: &[u16; 2 * HOUSES]) -> u64 {
    let mut left: usize = houses.iter().map(|&c| usize::from(c)).sum();
    let mut index = 0;
    for (i, &c) in houses[..2 * HOUSES - 1].iter().enumerate() {
        let parts = 2 * HOUSES - i;
        let c = usize::from(c);
        index +=
            BINOMIALS.c(left + parts - 1, parts - 1) - BINOMIALS.c(left - c + parts - 1, parts - 1);
        left -= c;
    }
    index
}

/// The houses of rank `index` among the positions with `n` seeds.
#[must_use]
pub fn unrank(mut index: u64, n: usize) -> [u16; 2 * HOUSES] {
    let mut houses = [0u16; 2 * HOUSES];
    let mut left = n;
    for (i, house) in houses[..2 * HOUSES - 1].iter_mut().enumerate() {
        let parts = 2 * HOUSES - i;
        let mut v = 0;
        loop {
            let with_v = BINOMIALS.c(left - v + parts - 2, parts - 2);
            if index < with_v {
                break;
            }
            index -= with_v;
            v += 1;
        }
        *house = v as u16;
        left -= v;
    }
    houses[2 * HOUSES - 1] = left as u16;
    houses
}

/// `board`'s houses with the mover's row first.
#[must_use]
pub fn mover_first(board: &OwareBoard) -> [u16; 2 * HOUSES] {
    let mut houses = board.houses();
    if board.to_move() == Side::North {
        turn_round(&mut houses);
    }
    houses
}

/// The two rows of `houses` swapped (a swap of halves, where
/// `rotate_left` would call `memmove`: this is the build's inner loop).
#[inline]
fn turn_round(houses: &mut [u16; 2 * HOUSES]) {
    let (first, second) = houses.split_at_mut(HOUSES);
    first.swap_with_slice(second);
}

/// The database: the values of each seed count `0..=max_seeds`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwareEndgame {
    // Shared, so that a database grown by a count shares the counts below
    // with the one before it.
    tables: Vec<Arc<CountValues>>,
}

/// The values of one seed count: only its positions that have one (the
/// others depend on repetition, [`REPETITION`]), in a table of open
/// addressing keyed by rank. Nearly every position depends on repetition
/// (all but 126,637 of count 24's 417,225,900: docs/PERFORMANCE.md), so
/// this holds 32 to 64 bytes a valued position where a byte a position
/// would hold the same marker 99.97 % of the time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountValues {
    seeds: usize,
    /// `rank << 8 | value byte`, or [`EMPTY`]; a power of two long, at
    /// most a quarter full, so that a miss (the usual probe) stops soon
    /// (half full, a probe took 1.2 times as long: docs/PERFORMANCE.md).
    slots: Box<[u64]>,
    valued: u64,
}

/// A slot of [`CountValues`] holding nothing (no rank reaches `2^56`).
const EMPTY: u64 = u64::MAX;

/// The bytes of one valued position in a count's file
/// ([`CountValues::entry_bytes`]): its rank (eight bytes, little-endian) and
/// its value (an `i8`).
pub const ENTRY_BYTES: usize = 9;

impl CountValues {
    /// The values of count `seeds` from its valued positions, by rank.
    fn new(seeds: usize, valued: &[(u64, i8)]) -> CountValues {
        let len = (4 * valued.len()).next_power_of_two().max(2);
        let mut values = CountValues {
            seeds,
            slots: vec![EMPTY; len].into_boxed_slice(),
            valued: valued.len() as u64,
        };
        let mask = len - 1;
        for &(rank, value) in valued {
            let mut i = CountValues::slot(rank, mask);
            while values.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            values.slots[i] = rank << 8 | u64::from(value as u8);
        }
        values
    }

    #[inline]
    fn slot(rank: u64, mask: usize) -> usize {
        (rank.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
    }

    /// The value of the position of rank `rank`, `None` when it depends
    /// on repetition.
    #[inline]
    #[must_use]
    pub fn get(&self, rank: u64) -> Option<i8> {
        let mask = self.slots.len() - 1;
        let mut i = CountValues::slot(rank, mask);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                return None;
            }
            if slot >> 8 == rank {
                return Some(slot as u8 as i8);
            }
            i = (i + 1) & mask;
        }
    }

    /// Seeds on the board of this count's positions.
    #[must_use]
    pub fn seeds(&self) -> usize {
        self.seeds
    }

    /// Positions of this count with a value (the others depend on
    /// repetition).
    #[must_use]
    pub fn valued(&self) -> u64 {
        self.valued
    }

    /// The valued positions, by rank.
    fn sorted(&self) -> Vec<(u64, i8)> {
        let mut valued: Vec<(u64, i8)> = self
            .slots
            .iter()
            .filter(|&&s| s != EMPTY)
            .map(|&s| (s >> 8, s as u8 as i8))
            .collect();
        valued.sort_unstable();
        valued
    }

    /// The valued positions as a file keeps them: [`ENTRY_BYTES`] each,
    /// by rank.
    #[must_use]
    pub fn entry_bytes(&self) -> Vec<u8> {
        self.sorted()
            .iter()
            .flat_map(|&(rank, value)| {
                let mut entry = [0u8; ENTRY_BYTES];
                entry[..8].copy_from_slice(&rank.to_le_bytes());
                entry[8] = value as u8;
                entry
            })
            .collect()
    }

    /// Count `seeds`'s values from `bytes` as [`CountValues::entry_bytes`]
    /// gave them (read back from a file, so untrusted): every rank a
    /// position of the count, in increasing order, every value one the
    /// count's seeds allow.
    ///
    /// # Errors
    /// [`EndgameFileError`] saying what is wrong.
    pub fn from_entry_bytes(seeds: usize, bytes: &[u8]) -> Result<CountValues, EndgameFileError> {
        if seeds > MAX_DB_SEEDS || !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(EndgameFileError("wrong length".to_string()));
        }
        let mut valued = Vec::with_capacity(bytes.len() / ENTRY_BYTES);
        for entry in bytes.chunks_exact(ENTRY_BYTES) {
            let mut rank = [0u8; 8];
            rank.copy_from_slice(&entry[..8]);
            let rank = u64::from_le_bytes(rank);
            let value = entry[8] as i8;
            if rank >= positions(seeds) || valued.last().is_some_and(|&(last, _)| rank <= last) {
                return Err(EndgameFileError("a position out of order".to_string()));
            }
            if i16::from(value).unsigned_abs() > seeds as u16 {
                return Err(EndgameFileError("a value out of range".to_string()));
            }
            valued.push((rank, value));
        }
        Ok(CountValues::new(seeds, &valued))
    }

    /// Count `seeds`'s values from both bounds of its positions as
    /// [`Builder::level_bytes`] gave them (untrusted: checked as
    /// [`Builder::push_level_bytes`] checks them): a position has a
    /// value where its bounds meet.
    ///
    /// # Errors
    /// [`EndgameFileError`] saying what is wrong.
    pub fn from_level_bytes(seeds: usize, bytes: &[u8]) -> Result<CountValues, EndgameFileError> {
        let level = parse_level(seeds, bytes)?;
        Ok(CountValues::of_level(seeds, &level))
    }

    /// The values of a count built: where both bounds meet.
    fn of_level(seeds: usize, level: &[Bounds]) -> CountValues {
        let valued: Vec<(u64, i8)> = level
            .iter()
            .enumerate()
            .filter(|(_, b)| b.lo == b.hi)
            .map(|(rank, b)| (rank as u64, b.lo))
            .collect();
        CountValues::new(seeds, &valued)
    }
}

/// Both bounds of every position of count `n` from `bytes` (untrusted):
/// a bound is a value the count's seeds allow, or not yet proven, and no
/// lower bound is above its upper one.
fn parse_level(n: usize, bytes: &[u8]) -> Result<Vec<Bounds>, EndgameFileError> {
    if n > MAX_DB_SEEDS {
        return Err(EndgameFileError("too many seed counts".to_string()));
    }
    if bytes.len() as u64 != 2 * positions(n) {
        return Err(EndgameFileError("wrong length".to_string()));
    }
    let max = n as i8;
    let mut level = Vec::with_capacity(bytes.len() / 2);
    for pair in bytes.chunks_exact(2) {
        let (lo, hi) = (pair[0] as i8, pair[1] as i8);
        let lo_ok = lo == UNKNOWN_LOW || (-max..=max).contains(&lo);
        let hi_ok = hi == UNKNOWN_HIGH || (-max..=max).contains(&hi);
        if !lo_ok || !hi_ok || lo > hi {
            return Err(EndgameFileError("a bound out of range".to_string()));
        }
        level.push(Bounds { lo, hi });
    }
    Ok(level)
}

/// Figures of one seed count's build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelReport {
    /// Seeds on the board.
    pub seeds: usize,
    /// Positions (bytes).
    pub positions: u64,
    /// Positions whose value depends on repetition.
    pub repetition: u64,
    /// Rounds of the worklist until nothing changed: the first values
    /// every position, each later one only the positions a move of which
    /// leads to one that changed in the round before.
    pub sweeps: u32,
    /// Positions valued, over all rounds.
    pub evaluations: u64,
}

/// Bounds of a position while the database (or the real round's,
/// [`super::real`]) is built.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Bounds {
    pub(super) lo: i8,
    pub(super) hi: i8,
}

fn to_i8(v: i16) -> i8 {
    v.clamp(i16::from(UNKNOWN_LOW), i16::from(UNKNOWN_HIGH)) as i8
}

/// A builder keeping both bounds of every count below, so that a capture
/// into a repetition-dependent position is bounded, not guessed.
#[derive(Default)]
pub struct Builder {
    levels: Vec<Vec<Bounds>>,
    /// Each count's values (see [`Builder::database`]).
    tables: Vec<Arc<CountValues>>,
}

impl Builder {
    /// A builder with nothing built.
    #[must_use]
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Seed counts built so far (`0..built()`).
    #[must_use]
    pub fn built(&self) -> usize {
        self.levels.len()
    }

    /// The moves of the position of rank `index` among those with `n`
    /// seeds: the bounds it has whatever its moves that capture nothing
    /// lead to (the end of the round, or a capture into a count built,
    /// whose bounds are final; only when `fixed`, else nothing is looked
    /// up), and the rank of each position of the same count a move leads
    /// to, handed to `same_count`.
    #[inline]
    fn moves_of(
        &self,
        index: u64,
        n: usize,
        fixed: bool,
        mut same_count: impl FnMut(usize),
    ) -> Bounds {
        let houses = unrank(index, n);
        let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South)
            .expect("a database position is a position");
        if board.is_over() {
            let s = board.score();
            let v = s.south as i16 - s.north as i16;
            return Bounds {
                lo: to_i8(v),
                hi: to_i8(v),
            };
        }
        let mut best = (LOW, LOW);
        for pit in board.legal_moves() {
            let mut child = board;
            let played = child.play_unchecked(pit);
            if played.end.is_none() && played.captured == 0 {
                // Same count: its bounds are still being found.
                same_count(rank(&mover_first(&child)) as usize);
                continue;
            }
            if !fixed {
                continue;
            }
            let c = played.captured as i16;
            let (lo, hi) = if played.end.is_some() {
                let me = played.mover.index();
                let v = c + played.swept[me] as i16 - played.swept[1 - me] as i16;
                (v, v)
            } else {
                let rank = rank(&mover_first(&child));
                let b = self.levels[n - usize::from(played.captured)][rank as usize];
                let lo = if b.hi == UNKNOWN_HIGH {
                    LOW
                } else {
                    c - i16::from(b.hi)
                };
                let hi = if b.lo == UNKNOWN_LOW {
                    HIGH
                } else {
                    c - i16::from(b.lo)
                };
                (lo, hi)
            };
            best = (best.0.max(lo), best.1.max(hi));
        }
        Bounds {
            lo: to_i8(best.0),
            hi: to_i8(best.1),
        }
    }

    /// Builds the next seed count; what it took.
    ///
    /// Nothing is kept of a position's moves: two bytes of bounds it has
    /// whatever the positions of its own count hold (its moves that end
    /// the round or capture, worked out once), two of its current bounds,
    /// and two bits, so that a count's build takes about 4.25 bytes a
    /// position beside the counts below (three bytes a position each).
    /// Every position is valued once, in order; a position whose bounds
    /// change marks the positions that lead to it by a move that captures
    /// nothing (found by un-sowing it, `for_each_parent`) to be valued
    /// again: later in the same round when they come after it, else in
    /// the next round; its moves are worked out again each time it is
    /// valued. Bounds only ever tighten, so this reaches the same least
    /// fixed point as sweeping every position until nothing changes,
    /// whatever the order.
    ///
    /// # Panics
    /// Past [`MAX_DB_SEEDS`].
    pub fn build_next(&mut self) -> LevelReport {
        let n = self.levels.len();
        assert!(n <= MAX_DB_SEEDS, "{n} seeds is past the index tables");
        let count = usize::try_from(positions(n)).expect("a count that fits in memory");
        // Least fixed points: nothing is known at first; a bound is set
        // once a line that ends (a capture, the end of the round) forces it.
        let unknown = Bounds {
            lo: UNKNOWN_LOW,
            hi: UNKNOWN_HIGH,
        };
        let mut level = vec![unknown; count];
        let mut fixed = vec![unknown; count];
        let words = count.div_ceil(64);
        // To be valued this round (all at first), and in the next one.
        let mut round = vec![u64::MAX; words];
        if count % 64 != 0 {
            round[words - 1] = (1u64 << (count % 64)) - 1;
        }
        let mut next = vec![0u64; words];
        let (mut sweeps, mut evaluations) = (0, 0u64);
        let mut first_round = true;
        let mut any = true;
        // A batch of positions to value and the positions of this count
        // their moves lead to (`kids[starts[j]..starts[j + 1]]`), each
        // prefetched when found: its bounds are a cache miss read only
        // once the whole batch's moves are worked out.
        let mut batch: Vec<usize> = Vec::with_capacity(BATCH);
        let mut kids: Vec<usize> = Vec::with_capacity(BATCH * HOUSES);
        let mut starts: Vec<usize> = Vec::with_capacity(BATCH + 1);
        while any {
            sweeps += 1;
            any = false;
            // Words before `w` have nothing left to value this round.
            let mut w = 0;
            while w < words {
                batch.clear();
                while w < words && batch.len() < BATCH {
                    if round[w] == 0 {
                        w += 1;
                        continue;
                    }
                    batch.push(w * 64 + round[w].trailing_zeros() as usize);
                    round[w] &= round[w] - 1;
                }
                kids.clear();
                starts.clear();
                for &index in &batch {
                    starts.push(kids.len());
                    let f = self.moves_of(index as u64, n, first_round, |child| {
                        prefetch(&level[child]);
                        kids.push(child);
                    });
                    if first_round {
                        fixed[index] = f;
                    }
                }
                starts.push(kids.len());
                for (j, &index) in batch.iter().enumerate() {
                    evaluations += 1;
                    // The best of the moves into this count (each worth
                    // minus the opponent's bounds there);
                    // `-UNKNOWN_HIGH` is `UNKNOWN_LOW`: an unknown bound
                    // stays unknown.
                    let mut b = fixed[index];
                    for &child in &kids[starts[j]..starts[j + 1]] {
                        let c = level[child];
                        b.lo = b.lo.max(-c.hi);
                        b.hi = b.hi.max(-c.lo);
                    }
                    if b == level[index] {
                        continue;
                    }
                    level[index] = b;
                    for_each_parent(index, n, |parent| {
                        let (pw, bit) = (parent / 64, 1u64 << (parent % 64));
                        if pw >= w {
                            // Still to come this round.
                            round[pw] |= bit;
                        } else {
                            next[pw] |= bit;
                            any = true;
                        }
                    });
                }
            }
            first_round = false;
            std::mem::swap(&mut round, &mut next);
        }
        drop(fixed);
        debug_assert!(level.iter().all(|b| b.lo <= b.hi));
        let repetition = self.push(level);
        LevelReport {
            seeds: n,
            positions: count as u64,
            repetition,
            sweeps,
            evaluations,
        }
    }

    /// Keeps `level` as the next count built; how many of its positions
    /// depend on repetition.
    fn push(&mut self, level: Vec<Bounds>) -> u64 {
        let values = CountValues::of_level(self.levels.len(), &level);
        let repetition = level.len() as u64 - values.valued();
        self.levels.push(level);
        self.tables.push(Arc::new(values));
        repetition
    }

    /// The values of count `n` (built).
    #[must_use]
    pub fn values(&self, n: usize) -> Option<Arc<CountValues>> {
        self.tables.get(n).cloned()
    }

    /// Both bounds of every position of count `n` (built), two bytes a
    /// position (the lower, then the upper, each an `i8`): what the next
    /// counts are built from, for keeping on disk.
    #[must_use]
    pub fn level_bytes(&self, n: usize) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        self.extend_level_bytes(n, &mut bytes).then_some(bytes)
    }

    /// [`Builder::level_bytes`] added to `bytes` (no copy of them made
    /// first: count 23's are 572 MB); false when count `n` is not built.
    pub fn extend_level_bytes(&self, n: usize, bytes: &mut Vec<u8>) -> bool {
        let Some(level) = self.levels.get(n) else {
            return false;
        };
        bytes.reserve(2 * level.len());
        bytes.extend(level.iter().flat_map(|b| [b.lo as u8, b.hi as u8]));
        true
    }

    /// Takes `bytes` (as [`Builder::level_bytes`] gave them, read back from
    /// a file, so untrusted) as the next count instead of building it,
    /// once every bound in it is checked: a bound is a value the count's
    /// seeds allow, or not yet proven, and no lower bound is above its
    /// upper one. How many positions depend on repetition.
    ///
    /// # Errors
    /// [`EndgameFileError`] saying what is wrong; nothing is taken then.
    pub fn push_level_bytes(&mut self, bytes: &[u8]) -> Result<u64, EndgameFileError> {
        let level = parse_level(self.levels.len(), bytes)?;
        Ok(self.push(level))
    }

    /// The database of every count built (sharing
    /// the builder's tables: no copy).
    #[must_use]
    pub fn database(&self) -> OwareEndgame {
        OwareEndgame {
            tables: self.tables.clone(),
        }
    }
}

/// Calls `parent` with the rank of every position of `n` seeds that
/// leads to the one of rank `index` by a move that captures nothing and
/// does not end the round: the move's sowing taken back (the house it
/// started from was emptied, each house after it got its share of the
/// seeds), each candidate played forward to check it.
fn for_each_parent(index: usize, n: usize, mut parent: impl FnMut(usize)) {
    let child = unrank(index as u64, n);
    // The child has the parent's opponent to move: the parent's row is
    // the child's second.
    let mut after = child;
    turn_round(&mut after);
    for from in 0..HOUSES {
        if after[from] != 0 {
            continue;
        }
        let mut before = after;
        for k in 1..=n {
            // The k-th seed's house: the houses after `from`, in turn,
            // skipping `from` itself.
            let to = (from + 1 + (k - 1) % (2 * HOUSES - 1)) % (2 * HOUSES);
            if before[to] == 0 {
                break;
            }
            before[to] -= 1;
            before[from] = k as u16;
            let board = OwareBoard::played_out(OwareRules::ABAPA, &before, Side::South)
                .expect("a database position is a position");
            let pit = crate::rules::Pit::new(from as u8);
            if board.legal_moves().contains(pit) {
                let mut played = board;
                let what = played.play_unchecked(pit);
                if what.captured == 0 && what.end.is_none() && mover_first(&played) == child {
                    parent(rank(&before) as usize);
                }
            }
            before[from] = 0;
        }
    }
}

/// What the database says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// More seeds on the board than the database holds.
    Outside,
    /// The value for the mover, the round played out.
    Value(i16),
    /// The value depends on which position repeats.
    Repetition,
}

/// Why a database file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameFileError(pub String);

impl std::fmt::Display for EndgameFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not an Oware endgame database: {}", self.0)
    }
}

impl std::error::Error for EndgameFileError {}

/// The first bytes of a database file.
const MAGIC: &[u8; 8] = b"OWAREDB1";

impl OwareEndgame {
    /// The database of no seed count (what [`Default`] gives, as a
    /// constant).
    #[must_use]
    pub const fn empty() -> OwareEndgame {
        OwareEndgame { tables: Vec::new() }
    }

    /// The database of `counts`, each count's values in turn from 0.
    ///
    /// # Errors
    /// A count out of its place.
    pub fn from_counts(counts: Vec<Arc<CountValues>>) -> Result<OwareEndgame, EndgameFileError> {
        if counts.iter().enumerate().any(|(n, v)| v.seeds() != n) {
            return Err(EndgameFileError("a seed count out of place".to_string()));
        }
        Ok(OwareEndgame { tables: counts })
    }

    /// Builds every count up to `max_seeds` (for tests and small databases).
    #[must_use]
    pub fn build(max_seeds: usize) -> OwareEndgame {
        let mut builder = Builder::new();
        while builder.built() <= max_seeds {
            builder.build_next();
        }
        builder.database()
    }

    /// The most seeds on the board the database covers (`None` when empty).
    #[must_use]
    pub fn max_seeds(&self) -> Option<usize> {
        self.tables.len().checked_sub(1)
    }

    /// The value of `board` for its mover, the round played out.
    #[must_use]
    pub fn probe(&self, board: &OwareBoard) -> Probe {
        let houses = mover_first(board);
        let n: usize = houses.iter().map(|&c| usize::from(c)).sum();
        let Some(table) = self.tables.get(n) else {
            return Probe::Outside;
        };
        match table.get(rank(&houses)) {
            None => Probe::Repetition,
            Some(value) => Probe::Value(i16::from(value)),
        }
    }

    /// The file's bytes: a magic, the largest count, the tables (one byte
    /// a position: the value plus 64, or [`REPETITION`]), and a checksum
    /// of everything before it.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.push(self.tables.len() as u8);
        for table in &self.tables {
            let at = bytes.len();
            bytes.resize(at + positions(table.seeds()) as usize, REPETITION);
            for (rank, value) in table.sorted() {
                bytes[at + rank as usize] = (i16::from(value) + OFFSET) as u8;
            }
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads a file written by [`OwareEndgame::to_bytes`], checking its
    /// length, its checksum and every byte.
    ///
    /// # Errors
    /// [`EndgameFileError`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<OwareEndgame, EndgameFileError> {
        let fail = |why: &str| Err(EndgameFileError(why.to_string()));
        if bytes.len() < MAGIC.len() + 9 || &bytes[..MAGIC.len()] != MAGIC {
            return fail("no header");
        }
        let levels = usize::from(bytes[MAGIC.len()]);
        if levels > MAX_DB_SEEDS + 1 {
            return fail("too many seed counts");
        }
        let body: u64 = (0..levels).map(positions).sum();
        let expected = MAGIC.len() as u64 + 1 + body + 8;
        if bytes.len() as u64 != expected {
            return fail("wrong length");
        }
        let (data, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(data).to_le_bytes() != sum {
            return fail("checksum mismatch");
        }
        let mut at = MAGIC.len() + 1;
        let mut tables = Vec::with_capacity(levels);
        for n in 0..levels {
            let len = positions(n) as usize;
            let mut valued = Vec::new();
            for (rank, &b) in data[at..at + len].iter().enumerate() {
                if b == REPETITION {
                    continue;
                }
                let value = i16::from(b) - OFFSET;
                if value.abs() > n as i16 {
                    return fail("a value out of range");
                }
                valued.push((rank as u64, value as i8));
            }
            tables.push(Arc::new(CountValues::new(n, &valued)));
            at += len;
        }
        Ok(OwareEndgame { tables })
    }
}

/// FNV-1a, 64 bits: enough to catch a truncated or damaged file (this
/// one's, and the counts' files the store keeps).
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count's values written as a file keeps them and read back probe
    /// the same, and they are those of its bounds; damage is refused.
    #[test]
    fn a_counts_values_round_trip_and_damage_is_refused() {
        let mut builder = Builder::new();
        for _ in 0..=7 {
            builder.build_next();
        }
        for n in 0..=7 {
            let values = builder.values(n).unwrap();
            let bytes = values.entry_bytes();
            assert_eq!(bytes.len() as u64, values.valued() * ENTRY_BYTES as u64);
            assert_eq!(
                CountValues::from_entry_bytes(n, &bytes).as_ref(),
                Ok(&*values)
            );
            let bounds = builder.level_bytes(n).unwrap();
            assert_eq!(
                CountValues::from_level_bytes(n, &bounds).as_ref(),
                Ok(&*values)
            );
            for rank in 0..positions(n) {
                let b = &bounds[2 * rank as usize..2 * rank as usize + 2];
                let want = (b[0] == b[1]).then_some(b[0] as i8);
                assert_eq!(values.get(rank), want, "{n} seeds, rank {rank}");
            }
        }
        let bytes = builder.values(7).unwrap().entry_bytes();
        assert!(bytes.len() > 2 * ENTRY_BYTES);
        // Out of order, out of range, past the count, cut short.
        let mut swapped = bytes.clone();
        swapped[..ENTRY_BYTES].copy_from_slice(&bytes[ENTRY_BYTES..2 * ENTRY_BYTES]);
        let mut too_big = bytes.clone();
        too_big[8] = 8;
        let mut past = bytes.clone();
        let last = past.len() - ENTRY_BYTES;
        past[last..last + 8].copy_from_slice(&positions(7).to_le_bytes());
        for bad in [swapped, too_big, past, bytes[..bytes.len() - 1].to_vec()] {
            assert!(CountValues::from_entry_bytes(7, &bad).is_err());
        }
    }

    /// Un-sowing finds exactly the positions whose moves lead to each
    /// position without a capture or the end of the round: the reverse of
    /// every such move, found by playing every move of every position of
    /// the count forward.
    #[test]
    fn un_sowing_finds_exactly_the_positions_that_lead_to_each_one() {
        for n in [2, 5, 8] {
            let count = positions(n) as usize;
            let mut forward: Vec<Vec<usize>> = vec![Vec::new(); count];
            for index in 0..count {
                let board = OwareBoard::played_out(
                    OwareRules::ABAPA,
                    &unrank(index as u64, n),
                    Side::South,
                )
                .unwrap();
                for pit in board.legal_moves() {
                    let mut child = board;
                    let played = child.play_unchecked(pit);
                    if played.captured == 0 && played.end.is_none() {
                        forward[rank(&mover_first(&child)) as usize].push(index);
                    }
                }
            }
            let mut found = 0;
            for (index, expected) in forward.iter_mut().enumerate() {
                let mut parents = Vec::new();
                for_each_parent(index, n, |p| parents.push(p));
                parents.sort_unstable();
                expected.sort_unstable();
                assert_eq!(
                    &parents,
                    expected,
                    "{n} seeds, {:?}",
                    unrank(index as u64, n)
                );
                found += parents.len();
            }
            assert!(found > 0, "{n} seeds");
        }
    }

    /// A sowing of 12 seeds or more laps the board, skipping the house it
    /// started from: un-sowing the position it leads to finds the one it
    /// came from.
    #[test]
    fn un_sowing_takes_back_a_sowing_that_laps_the_board() {
        let mut checked = 0;
        for big in 12..=23u16 {
            for house in 0..HOUSES {
                let mut houses = [0u16; 2 * HOUSES];
                houses[house] = big;
                houses[(house + 7) % (2 * HOUSES)] = 1;
                houses[HOUSES + 2] += 2;
                let n = houses.iter().sum::<u16>() as usize;
                let board =
                    OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
                let pit = crate::rules::Pit::new(house as u8);
                let mut child = board;
                let played = child.play_unchecked(pit);
                if played.captured != 0 || played.end.is_some() {
                    continue;
                }
                let mut parents = Vec::new();
                for_each_parent(rank(&mover_first(&child)) as usize, n, |p| parents.push(p));
                assert!(parents.contains(&(rank(&houses) as usize)), "{houses:?}");
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }
}
