//! The engine's transposition table: what its search remembers about
//! positions (the exact solver has a lock-free table of its own).
//!
//! The engine's table ([`SearchTable`]) is keyed by [`position_key`], a 64-bit hash of the seeds in
//! the pits seen from the side to move (its own pits first). Stores are left
//! out on purpose: the searches value a position by what the side to move
//! will still gain from now on ("the future margin"), which depends on the
//! pits only, so positions that differ only in their stores share an entry.
//! It is allocated once; probing and storing never allocate.

use zerocopy::FromZeros;

use crate::rules::{Board, Side};

/// A 64-bit hash of the pits as the side to move sees them (its own pits
/// first, then the opponent's), never 0 (0 marks an empty slot).
///
/// Each step `h = mix(h ^ count)` is a bijection of `h` for a given count,
/// so two different boards collide only by chance (about 2^-64 per pair).
#[inline]
#[must_use]
pub fn position_key(board: &Board) -> u64 {
    let counts = board.counts();
    let n = board.rules().pits();
    let (mine, theirs) = match board.to_move() {
        Side::South => (&counts[..n], &counts[n + 1..2 * n + 1]),
        Side::North => (&counts[n + 1..2 * n + 1], &counts[..n]),
    };
    let mut h = 0x243F_6A88_85A3_08D3_u64 ^ n as u64;
    for &c in mine.iter().chain(theirs) {
        h = (h ^ u64::from(c)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h | 1
}

/// How a stored search value relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, FromZeros)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    None = 0,
    /// The true value is at least the stored one (the search failed high).
    Lower = 1,
    /// The true value is at most the stored one (the search failed low).
    Upper = 2,
    /// The stored value is the value at that depth.
    Exact = 3,
}

/// The depth recorded for a value that saw no search horizon: it is the
/// game's true value and holds at any depth.
pub const DEPTH_EXACT: u8 = u8::MAX;

/// One remembered result of the depth-limited search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, FromZeros)]
pub struct SearchEntry {
    /// [`position_key`] of the position (0: empty slot).
    pub key: u64,
    /// Future margin for the side to move, within `bound`.
    pub value: i16,
    /// Plies searched below the position ([`DEPTH_EXACT`]: to the end).
    pub depth: u8,
    /// How `value` bounds the true value at `depth`.
    pub bound: Bound,
    /// The best move found, as the mover's pit number 0..pits (255: none).
    pub best: u8,
}

/// The depth-limited search's table: buckets of two entries, one kept for
/// the deepest result and one always replaced.
#[derive(Debug)]
pub struct SearchTable {
    buckets: Vec<[SearchEntry; 2]>,
    mask: usize,
}

impl SearchTable {
    /// A table of `2^bits` buckets (32 bytes each), allocated zeroed (an
    /// empty entry is all zeros): the system supplies a page only when a
    /// search first writes to it, so an engine that searches little (an
    /// analysis whose positions the solver proves) costs little memory.
    #[must_use]
    pub fn new(bits: u32) -> SearchTable {
        let len = 1usize << bits;
        SearchTable {
            buckets: <[SearchEntry; 2]>::new_vec_zeroed(len).unwrap_or_else(|_| {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[SearchEntry; 2]>())
            }),
            mask: len - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill([SearchEntry::default(); 2]);
    }

    /// The entry for `key`, if remembered.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<SearchEntry> {
        let bucket = &self.buckets[key as usize & self.mask];
        bucket.iter().find(|e| e.key == key).copied()
    }

    /// Remembers `entry`: in the deep slot when it is at least as deep as
    /// what is there (or is the same position), else in the other slot.
    #[inline]
    pub fn store(&mut self, entry: SearchEntry) {
        let bucket = &mut self.buckets[entry.key as usize & self.mask];
        if bucket[0].key == entry.key || entry.depth >= bucket[0].depth {
            if bucket[0].key != entry.key {
                bucket[1] = bucket[0];
            }
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}

/// One remembered result of the exact solver: bounds on the position's
/// future margin, proven to the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveEntry {
    /// [`position_key`] of the position (0: empty slot).
    pub key: u64,
    /// The future margin is at least this.
    pub lower: i16,
    /// The future margin is at most this.
    pub upper: i16,
    /// The move that proved the lower bound, as the mover's pit number
    /// 0..pits (255: none).
    pub best: u8,
    /// log2 of the positions searched to find these bounds: the cost of
    /// finding them again, used to choose what to overwrite.
    pub work: u8,
}

/// The exact solver's table: buckets of four entries (one cache line);
/// bounds of the same position are merged, and a new position replaces the
/// entry that was cheapest to find.
#[derive(Debug)]
pub struct SolveTable {
    buckets: Vec<[SolveEntry; 4]>,
    mask: usize,
}

impl SolveTable {
    /// A table of about `bytes` bytes (rounded down to a power of two
    /// buckets of 64 bytes, at least one).
    #[must_use]
    pub fn with_bytes(bytes: usize) -> SolveTable {
        let wanted = (bytes / 64).max(1);
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        SolveTable {
            buckets: vec![[SolveEntry::default(); 4]; len],
            mask: len - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill([SolveEntry::default(); 4]);
    }

    /// The entry for `key`, if remembered.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<SolveEntry> {
        let bucket = &self.buckets[key as usize & self.mask];
        bucket.iter().find(|e| e.key == key).copied()
    }

    /// Remembers bounds for `key`, merging them with bounds already known.
    #[inline]
    pub fn store(&mut self, key: u64, lower: i16, upper: i16, best: u8, work: u8) {
        let bucket = &mut self.buckets[key as usize & self.mask];
        if let Some(e) = bucket.iter_mut().find(|e| e.key == key) {
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            if best != u8::MAX && lower >= e.lower {
                e.best = best;
            }
            e.work = e.work.max(work);
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| if e.key == 0 { 0 } else { u16::from(e.work) + 1 })
            .expect("a bucket has four entries");
        *victim = SolveEntry {
            key,
            lower,
            upper,
            best,
            work,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn key_ignores_stores_and_sees_the_board_from_the_mover() {
        let r = Rules::KALAH;
        let a = Board::from_counts(r, &[1, 2, 3, 4, 5, 6, 10, 6, 5, 4, 3, 2, 1, 0], Side::South)
            .unwrap();
        let b = Board::from_counts(r, &[1, 2, 3, 4, 5, 6, 0, 6, 5, 4, 3, 2, 1, 10], Side::South)
            .unwrap();
        // the mirror image with North to move
        let c = Board::from_counts(r, &[6, 5, 4, 3, 2, 1, 3, 1, 2, 3, 4, 5, 6, 7], Side::North)
            .unwrap();
        let d = Board::from_counts(r, &[1, 2, 3, 4, 5, 6, 0, 6, 5, 4, 3, 2, 1, 10], Side::North)
            .unwrap();
        assert_eq!(position_key(&a), position_key(&b));
        assert_eq!(position_key(&a), position_key(&c));
        assert_ne!(position_key(&a), position_key(&d));
    }

    #[test]
    fn solve_table_merges_bounds_and_keeps_costly_entries() {
        let mut t = SolveTable::with_bytes(64); // one bucket
        t.store(3, -5, 9, 1, 10);
        t.store(3, 2, 20, 2, 1);
        let e = t.probe(3).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.work), (2, 9, 2, 10));
        for key in [5, 7, 9, 11] {
            t.store(key, 0, 0, 0, 0);
        }
        assert!(t.probe(3).is_some(), "the costly entry survives");
        assert!(t.probe(5).is_none() || t.probe(7).is_none());
    }

    #[test]
    fn a_new_search_table_allocated_zeroed_is_empty() {
        // zeroed memory must read as empty entries, the default
        let t = SearchTable::new(4);
        assert!(t.buckets.iter().all(|b| *b == [SearchEntry::default(); 2]));
        assert_eq!(t.probe(1), None);
    }

    #[test]
    fn search_table_keeps_the_deeper_entry() {
        let mut t = SearchTable::new(0);
        let deep = SearchEntry {
            key: 3,
            value: 4,
            depth: 9,
            bound: Bound::Exact,
            best: 0,
        };
        t.store(deep);
        t.store(SearchEntry {
            key: 5,
            depth: 1,
            ..deep
        });
        t.store(SearchEntry {
            key: 7,
            depth: 2,
            ..deep
        });
        assert_eq!(t.probe(3), Some(deep));
        assert_eq!(t.probe(7).map(|e| e.depth), Some(2));
        assert_eq!(t.probe(5), None);
    }
}
