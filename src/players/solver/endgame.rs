//! The endgame database: the exact future margin of every position with at
//! most `K` seeds left in the pits, one byte each in a dense array indexed
//! by the rank of the pit counts.
//!
//! # Building it
//! With single sowing the database is built eagerly, level by level (all
//! positions with 1 seed in the pits, then 2, ...), before the search
//! starts. A move either puts a seed into the store or captures (its
//! successor has fewer seeds: a finished level), or keeps every seed in the
//! pits; then it only moves the mover's seeds towards its store, so the
//! sum over both sides of each seed's distance from its own left end grows,
//! and memoised recursion within the level ends. Each level is split into
//! chunks that the threads take in turn; entries are atomic bytes, and two
//! threads computing the same entry write the same value. A build stopped
//! by the limits keeps the levels it finished, and a later call resumes it.
//!
//! With relay sowing a move may carry seeds round without touching a store,
//! so no such order is known: that database stays small and its entries
//! are computed lazily, the first time the search reaches them.
//!
//! # Memory
//! The entries live in an `EndgameMemory`, kept by the solver between
//! calls, on huge pages where possible (see the `memory` module); a search
//! borrows it as an `Endgame` for the length of one solve. Fresh memory
//! is all zero bytes, so an entry holds its value with the sign bit
//! flipped, and the zero byte means "not computed yet".

use std::sync::atomic::{AtomicI8, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use super::Counter;
use super::memory::Zeroed;
use crate::players::Limits;
use crate::rules::{Compact, CompactRules, MAX_PITS, Next, Sowing};

/// Marks an entry not computed yet: the zero byte of fresh memory (it
/// stands for -128, beyond any value: they lie within ±`MAX_DB_SEEDS`).
const UNKNOWN: i8 = 0;

/// The entry holding `value`.
#[inline]
fn encode(value: i32) -> i8 {
    value as i8 ^ i8::MIN
}

/// The value an entry (not `UNKNOWN`) holds.
#[inline]
fn decode(entry: i8) -> i32 {
    i32::from(entry ^ i8::MIN)
}
/// The most seeds a database may cover (values must fit in a byte).
pub(crate) const MAX_DB_SEEDS: u32 = 100;
/// Rows of the binomial table: `seeds + 2 * pits` stays below this.
const ROWS: usize = MAX_DB_SEEDS as usize + 2 * MAX_PITS + 1;
/// Columns: `k <= 2 * pits`.
const COLS: usize = 2 * MAX_PITS + 1;
/// Splits of the mover's side a build thread takes at a time. Entries
/// that differ only in the mover's side lie next to each other, so a
/// thread's writes fill whole cache lines that no other thread writes
/// (measured: with 64 at a time instead of 8, the two-thread build of a
/// 12-seed database took 25% less time).
const SIDES_PER_CHUNK: u64 = 64;

/// Binomial coefficients `C(n, k)`, saturating.
fn binomials() -> Vec<[u64; COLS]> {
    let mut c = vec![[0u64; COLS]; ROWS];
    for n in 0..ROWS {
        c[n][0] = 1;
        for k in 1..COLS.min(n + 1) {
            c[n][k] = c[n - 1][k - 1].saturating_add(if k < n { c[n - 1][k] } else { 0 });
        }
    }
    c
}

/// Positions in a database of `pits` pits per side up to `seeds` seeds.
#[must_use]
pub fn entries(pits: usize, seeds: u32) -> u64 {
    let n = seeds as usize + 2 * pits;
    if n >= ROWS || 2 * pits >= COLS {
        return u64::MAX;
    }
    binomials()[n][2 * pits]
}

/// The largest seed count (below `total`, at most `MAX_DB_SEEDS`) whose
/// database holds at most `max_entries` positions.
#[must_use]
pub fn seeds_for(pits: usize, total: u32, max_entries: u64) -> u32 {
    let cap = total.saturating_sub(1).min(MAX_DB_SEEDS);
    let mut k = 0;
    while k < cap && entries(pits, k + 1) <= max_entries {
        k += 1;
    }
    k
}

/// What a database is, beside its entries; kept with them between solves.
#[derive(Debug)]
struct Shape {
    rules: CompactRules,
    max_seeds: u8,
    /// Levels (seed counts) complete: every entry up to this is known.
    ready: AtomicU8,
    eager: bool,
    /// `binomial[n][k]` = C(n, k), flat: row `n` starts at `n * COLS`.
    binomial: Vec<u64>,
    /// The rank's terms: `C(prefix + i, i + 1)` at `i * (max_seeds + 1) +
    /// prefix`, a table small enough to stay in the first-level cache.
    terms: Vec<u64>,
}

impl Shape {
    /// Seeds the search may look up (see [`Endgame::ready`]).
    #[inline]
    fn ready(&self) -> u8 {
        self.ready.load(Ordering::Acquire)
    }
}

/// A database and its memory, kept by the solver between solves: the
/// levels built stay built (see the module docs).
#[derive(Debug)]
pub(crate) struct EndgameMemory {
    shape: Shape,
    values: Zeroed<AtomicI8>,
}

impl EndgameMemory {
    /// An empty database of `rules` up to `max_seeds` seeds in the pits.
    pub fn new(rules: CompactRules, max_seeds: u32) -> EndgameMemory {
        let binomial: Vec<u64> = binomials().into_iter().flatten().collect();
        let max_seeds = max_seeds.min(MAX_DB_SEEDS);
        let pits = rules.pits();
        let len = binomial[(max_seeds as usize + 2 * pits) * COLS + 2 * pits] as usize;
        let eager = rules.rules().sowing() == Sowing::Single;
        let row = max_seeds as usize + 1;
        let mut terms = vec![0u64; 2 * pits * row];
        for i in 0..2 * pits {
            for prefix in 0..row {
                terms[i * row + prefix] = binomial[(prefix + i) * COLS + i + 1];
            }
        }
        EndgameMemory {
            shape: Shape {
                terms,
                rules,
                max_seeds: max_seeds as u8,
                ready: AtomicU8::new(if eager { 0 } else { max_seeds as u8 }),
                eager,
                binomial,
            },
            values: Zeroed::new(len),
        }
    }

    /// The rules it was built for.
    pub fn rules(&self) -> &CompactRules {
        &self.shape.rules
    }

    /// Seeds the search may look up (see [`Endgame::ready`]).
    pub fn ready(&self) -> u8 {
        self.shape.ready()
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    /// The database, shared by the threads of one solve.
    pub fn database(&mut self) -> Endgame<'_> {
        Endgame {
            shape: &self.shape,
            values: self.values.view(),
        }
    }
}

/// The database (see the module docs), lent out by its [`EndgameMemory`].
#[derive(Clone, Copy)]
pub(crate) struct Endgame<'a> {
    shape: &'a Shape,
    values: &'a [AtomicI8],
}

impl Endgame<'_> {
    /// Seeds the search may look up: the levels built so far (all of them
    /// for a lazy database).
    #[inline]
    pub fn ready(&self) -> u8 {
        self.shape.ready()
    }

    /// Seeds it covers once built.
    pub fn max_seeds(&self) -> u8 {
        self.shape.max_seeds
    }

    /// Bytes allocated (for tests).
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    #[inline]
    fn choose(&self, n: usize, k: usize) -> u64 {
        self.shape.binomial[n * COLS + k]
    }

    /// The rank of a position: stars and bars over the pits, the mover's
    /// first (the i-th bar sits after the first i+1 pits' seeds). The
    /// positions with `s` seeds take the ranks `C(s-1+2n, 2n)..C(s+2n, 2n)`.
    #[inline]
    fn rank(&self, pos: &Compact) -> usize {
        let n = self.shape.rules.pits();
        let row = usize::from(self.shape.max_seeds) + 1;
        let bytes = pos.bytes();
        let mut rank = 0u64;
        let mut prefix = 0usize;
        for (i, &x) in bytes[..n].iter().chain(&bytes[n + 1..=2 * n]).enumerate() {
            prefix += usize::from(x);
            rank += self.shape.terms[i * row + prefix];
        }
        rank as usize
    }

    /// The pit counts (mover's first) of `rank`, the inverse of the rank.
    fn unrank(&self, mut rank: u64, pits: &mut [u8]) {
        let m = pits.len();
        // c[i] = prefix[i] + i: strictly increasing, rank = sum C(c[i], i+1)
        let mut above = ROWS - 1;
        let mut prefix_above = 0;
        for i in (0..m).rev() {
            let mut c = above;
            while c > i && self.choose(c, i + 1) > rank {
                c -= 1;
            }
            rank -= self.choose(c, i + 1);
            let prefix = c - i;
            if i + 1 < m {
                pits[i + 1] = (prefix_above - prefix) as u8;
            }
            prefix_above = prefix;
            above = c;
        }
        pits[0] = prefix_above as u8;
    }

    /// The future margin of `pos` (in play, at most `max_seeds` in the
    /// pits), computed now if not known yet. Each position computed counts
    /// against `counter`; once it stops the search, the answer means
    /// nothing and nothing unproven is kept.
    #[inline]
    pub fn value(&self, pos: &Compact, counter: &mut Counter) -> i32 {
        let index = self.rank(pos);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return decode(known);
        }
        self.compute(pos, index, counter)
    }

    #[cold]
    fn compute(&self, pos: &Compact, index: usize, counter: &mut Counter) -> i32 {
        if counter.tick() {
            return 0;
        }
        let mut best = i32::MIN;
        let mut moves = pos.moves(&self.shape.rules);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (child, gain, next) = pos.play(&self.shape.rules, i);
            let value = match next {
                Next::Over => gain,
                Next::Again => gain + self.value(&child, counter),
                Next::Opponent => gain - self.value(&child, counter),
            };
            if counter.aborted {
                return 0;
            }
            best = best.max(value);
        }
        self.values[index].store(encode(best), Ordering::Relaxed);
        best
    }

    /// The value of `pos` during the build: lower levels are complete, so
    /// only positions of the same level may still be missing.
    fn build_value(&self, pos: &Compact) -> i32 {
        let index = self.rank(pos);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return decode(known);
        }
        let v = self.build_entry(pos);
        self.values[index].store(encode(v), Ordering::Relaxed);
        v
    }

    /// Minimax of `pos` over its moves, one ply, from the database. The
    /// children's entries are all located first, then read together, so
    /// their cache misses overlap.
    fn build_entry(&self, pos: &Compact) -> i32 {
        let mut index = [0usize; MAX_PITS];
        let mut gain = [0i32; MAX_PITS];
        let mut sign = [0i32; MAX_PITS];
        let mut pit = [0u8; MAX_PITS];
        let mut len = 0;
        let mut moves = pos.moves(&self.shape.rules);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (child, g, next) = pos.play(&self.shape.rules, i);
            gain[len] = g;
            pit[len] = i as u8;
            match next {
                Next::Over => sign[len] = 0,
                Next::Again => {
                    sign[len] = 1;
                    index[len] = self.rank(&child);
                }
                Next::Opponent => {
                    sign[len] = -1;
                    index[len] = self.rank(&child);
                }
            }
            len += 1;
        }
        let mut value = [0i8; MAX_PITS];
        for j in 0..len {
            value[j] = if sign[j] == 0 {
                encode(0)
            } else {
                self.values[index[j]].load(Ordering::Relaxed)
            };
        }
        let mut best = i32::MIN;
        for j in 0..len {
            let v = if value[j] == UNKNOWN {
                // a child of the same level not reached yet
                let (child, _, _) = pos.play(&self.shape.rules, usize::from(pit[j]));
                self.build_value(&child)
            } else {
                decode(value[j])
            };
            best = best.max(gain[j] + sign[j] * v);
        }
        best
    }

    /// Builds the missing levels up to `upto` seeds with `threads` threads
    /// (see the module docs); stops early, keeping the levels finished,
    /// when `limits` stop it (their node budget is for the search, so not
    /// counted here). Nothing to do for a lazy database.
    pub fn build(&self, threads: usize, upto: u8, limits: &Limits, shown: &AtomicU8) {
        shown.store(self.ready(), Ordering::Relaxed);
        if !self.shape.eager {
            return;
        }
        let n = self.shape.rules.pits();
        for level in usize::from(self.ready()) + 1..=usize::from(self.shape.max_seeds.min(upto)) {
            // work items: the mover's side, with 1 to level - 1 seeds
            let end = self.choose(level - 1 + n, n);
            let next = AtomicU64::new(1);
            let stopped = std::sync::atomic::AtomicBool::new(false);
            let work = || loop {
                if limits.stop.load(Ordering::Relaxed)
                    || limits.deadline.is_some_and(|d| Instant::now() >= d)
                {
                    stopped.store(true, Ordering::Relaxed);
                    return;
                }
                let from = next.fetch_add(SIDES_PER_CHUNK, Ordering::Relaxed);
                if from >= end {
                    return;
                }
                for mine in from..(from + SIDES_PER_CHUNK).min(end) {
                    self.build_side(level, mine);
                }
            };
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(work);
                }
                work();
            });
            if stopped.load(Ordering::Relaxed) {
                return;
            }
            self.shape.ready.store(level as u8, Ordering::Release);
            shown.store(level as u8, Ordering::Relaxed);
        }
    }

    /// Computes the entries of `level` seeds whose mover's side has the
    /// rank `mine` (among the splits over one side), for every split of
    /// the rest over the opponent's side. Taken in this order, the
    /// positions after a given move of consecutive entries lie close
    /// together in the database (their opponent's side is the same), so
    /// most lookups hit the cache.
    fn build_side(&self, level: usize, mine: u64) {
        let n = self.shape.rules.pits();
        let mut pits = [0u8; 2 * MAX_PITS];
        let (a, b) = pits.split_at_mut(n);
        let b = &mut b[..n];
        self.unrank(mine, a);
        let rest = level - a.iter().map(|&x| usize::from(x)).sum::<usize>();
        let first = self.choose(rest - 1 + n, n);
        let count = self.choose(rest + n, n) - first;
        self.unrank(first, b);
        for k in 0..count {
            let pos = Compact::from_pits(a, b).expect("few seeds");
            let index = self.rank(&pos);
            let slot = &self.values[index];
            if slot.load(Ordering::Relaxed) == UNKNOWN {
                let v = self.build_entry(&pos);
                slot.store(encode(v), Ordering::Relaxed);
            }
            if k + 1 < count {
                next_composition(b);
            }
        }
    }

    /// Computes every entry (for tests), lazily for a lazy database.
    #[cfg(test)]
    pub fn fill_all(&self, counter: &mut Counter) {
        if self.shape.eager {
            self.build(1, u8::MAX, &Limits::none(), &AtomicU8::new(0));
            return;
        }
        let n = self.shape.rules.pits();
        let mut pits = [0u8; 2 * MAX_PITS];
        for total in 0..=self.shape.max_seeds {
            self.fill(&mut pits[..2 * n], 0, total, counter);
        }
    }

    #[cfg(test)]
    fn fill(&self, pits: &mut [u8], at: usize, left: u8, counter: &mut Counter) {
        if at + 1 == pits.len() {
            pits[at] = left;
            let n = pits.len() / 2;
            if pits[..n].iter().any(|&x| x > 0) && pits[n..].iter().any(|&x| x > 0) {
                let pos = Compact::from_pits(&pits[..n], &pits[n..]).expect("fits");
                self.value(&pos, counter);
            }
            return;
        }
        for here in 0..=left {
            pits[at] = here;
            self.fill(pits, at + 1, left - here, counter);
        }
    }

    /// Entries computed so far (for tests).
    #[cfg(test)]
    pub fn known(&self) -> usize {
        self.values
            .iter()
            .filter(|v| v.load(Ordering::Relaxed) != UNKNOWN)
            .count()
    }
}

/// The next split of the same number of seeds in rank order (colex on the
/// prefix sums): the first pit `i` whose right neighbour holds seeds takes
/// all the seeds left of it plus one from that neighbour.
#[inline]
fn next_composition(pits: &mut [u8]) {
    let mut moved = 0u8;
    for i in 0..pits.len() - 1 {
        if pits[i + 1] > 0 {
            moved += pits[i] + 1;
            pits[i] = moved;
            pits[i + 1] -= 1;
            return;
        }
        moved += pits[i];
        pits[i] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn ranks_step_and_invert_in_order() {
        let mut memory = EndgameMemory::new(CompactRules::new(Rules::new(3, 4).unwrap()), 5);
        let db = memory.database();
        let m = 6;
        let mut pits = [0u8; 6];
        let mut count = 0;
        for level in 0..=5usize {
            let start = db.choose(level + m - 1, m);
            let end = db.choose(level + m, m);
            db.unrank(start, &mut pits);
            for r in start..end {
                let pos = Compact::from_pits(&pits[..3], &pits[3..]).unwrap();
                assert_eq!(db.rank(&pos) as u64, r, "{pits:?}");
                assert_eq!(usize::from(pos.in_play()), level);
                let mut back = [0u8; 6];
                db.unrank(r, &mut back);
                assert_eq!(back, pits);
                count += 1;
                if r + 1 < end {
                    next_composition(&mut pits);
                }
            }
        }
        assert_eq!(count, db.bytes());
    }
}
