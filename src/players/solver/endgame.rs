//! The endgame database: the exact future margin of every position with at
//! most `K` seeds left in the pits, one byte each in a dense array indexed
//! by the rank of the pit counts.
//!
//! Entries are computed lazily by memoised minimax the first time the
//! search reaches a position, and kept while the rules stay the same (a
//! move never adds seeds to the pits, and a move that keeps them all in the
//! pits moves seeds towards the mover's store, so the recursion ends).
//! Entries are atomic bytes, so the solver's threads share one database;
//! two threads computing the same entry write the same value.

use std::sync::atomic::{AtomicI8, Ordering};

use super::Counter;
use crate::rules::{Compact, CompactRules, MAX_PITS, Next};

/// Marks an entry not computed yet.
const UNKNOWN: i8 = i8::MIN;
/// The most seeds a database may cover (values must fit in a byte).
pub(crate) const MAX_DB_SEEDS: u32 = 100;
/// Rows of the binomial table: `seeds + 2 * pits` stays below this.
const ROWS: usize = MAX_DB_SEEDS as usize + 2 * MAX_PITS + 1;
/// Columns: `k <= 2 * pits`.
const COLS: usize = 2 * MAX_PITS + 1;

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

/// The largest seed count (below `total`, at most [`MAX_DB_SEEDS`]) whose
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

/// The database (see the module docs).
#[derive(Debug)]
pub(crate) struct Endgame {
    rules: CompactRules,
    max_seeds: u8,
    values: Vec<AtomicI8>,
    binomial: Vec<[u64; COLS]>,
}

impl Endgame {
    /// An empty database of `rules` up to `max_seeds` seeds in the pits.
    pub fn new(rules: CompactRules, max_seeds: u32) -> Endgame {
        let binomial = binomials();
        let max_seeds = max_seeds.min(MAX_DB_SEEDS);
        let len = binomial[max_seeds as usize + 2 * rules.pits()][2 * rules.pits()] as usize;
        let mut values = Vec::with_capacity(len);
        values.resize_with(len, || AtomicI8::new(UNKNOWN));
        Endgame {
            rules,
            max_seeds: max_seeds as u8,
            values,
            binomial,
        }
    }

    /// The rules it was built for.
    pub fn rules(&self) -> &CompactRules {
        &self.rules
    }

    /// Seeds covered.
    #[inline]
    pub fn max_seeds(&self) -> u8 {
        self.max_seeds
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    /// The rank of a position: stars and bars over the pits, the mover's
    /// first (the i-th bar sits after the first i+1 pits' seeds).
    #[inline]
    fn rank(&self, pos: &Compact) -> usize {
        let n = self.rules.pits();
        let bytes = pos.bytes();
        let mut prefix = 0usize;
        let mut rank = 0u64;
        for (i, &x) in bytes[..n].iter().chain(&bytes[n + 1..=2 * n]).enumerate() {
            prefix += usize::from(x);
            rank += self.binomial[prefix + i][i + 1];
        }
        rank as usize
    }

    /// The future margin of `pos` (in play, at most `max_seeds` in the
    /// pits), computed now if not known yet. Each position computed counts
    /// against `counter`; once it stops the search, the answer means
    /// nothing and nothing unproven is kept.
    pub fn value(&self, pos: &Compact, counter: &mut Counter) -> i32 {
        let index = self.rank(pos);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return i32::from(known);
        }
        if counter.tick() {
            return 0;
        }
        let mut best = i32::MIN;
        let mut moves = pos.moves(&self.rules);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (child, gain, next) = pos.play(&self.rules, i);
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
        self.values[index].store(best as i8, Ordering::Relaxed);
        best
    }

    /// Computes every entry (for tests): every split of up to `max_seeds`
    /// seeds over the pits with both sides holding some.
    #[cfg(test)]
    pub fn fill_all(&self, counter: &mut Counter) {
        let n = self.rules.pits();
        let mut pits = [0u8; 2 * MAX_PITS];
        for total in 0..=self.max_seeds {
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
