//! The solver's transposition table, shared by its threads without locks.
//!
//! Each entry is one atomic word: a tag of the position's key, the proven
//! lower and upper bounds on the future margin (a byte each), the move
//! that proved the lower one and the work it took. A word is written and
//! read whole, so a reader never sees half of another thread's entry.
//! Every stored bound is a proven fact about a position, so two threads
//! merging bounds of the same position can only tighten them (a merge lost
//! to a race only loses information). Eight entries share one 64-byte
//! cache line, so a probe costs one cache miss.
//!
//! The memory ([`TableMemory`]) is owned by the solver between calls, on
//! huge pages where possible (see the `memory` module); a search borrows it
//! as a [`Table`] for the length of one solve. Solvers that share
//! (`Solver::sharing`: the players of a process, its hint giver and its
//! live analysis) use the process's one table for their rules and size
//! instead ([`kept`]): a bound one of them proved is there for the others,
//! and its memory is held once.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use zerocopy::{FromBytes, IntoBytes, KnownLayout};

use super::memory::{PAGE_BYTES, STOP_STRIDE, Zeroed};
use crate::rules::CompactRules;

/// Entries per bucket: one 64-byte cache line.
const WAYS: usize = 8;

/// One cache line of entries (all zero: empty).
#[derive(FromBytes, IntoBytes, KnownLayout)]
#[repr(C, align(64))]
struct Bucket([AtomicU64; WAYS]);

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The future margin is at least this.
    pub lower: i16,
    /// The future margin is at most this.
    pub upper: i16,
    /// The mover's pit (0-based from its left) that proved `lower`; 255: none.
    pub best: u8,
    /// log2 of the positions searched to find these bounds (at most 63).
    pub work: u8,
}

/// Bits of the key kept in an entry to tell positions apart.
const TAG_BITS: u32 = 38;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;
/// A lower bound byte meaning "none" (below every value).
const NO_LOWER: i8 = i8::MIN;
/// An upper bound byte meaning "none" (above every value).
const NO_UPPER: i8 = i8::MAX;
/// The move nibble meaning "none".
const NO_MOVE: u64 = 0xF;

impl Entry {
    /// The entry as a word with the tag of `key`. Bounds beyond a byte
    /// are stored weaker (a lower bound lower, an upper bound higher),
    /// which stays true.
    #[inline]
    fn pack(self, key: u64) -> u64 {
        let lower = self
            .lower
            .clamp(i16::from(NO_LOWER), i16::from(NO_UPPER) - 1) as i8;
        let upper = self
            .upper
            .clamp(i16::from(NO_LOWER) + 1, i16::from(NO_UPPER)) as i8;
        let best = if self.best < 12 {
            u64::from(self.best)
        } else {
            NO_MOVE
        };
        u64::from(lower as u8)
            | u64::from(upper as u8) << 8
            | best << 16
            | u64::from(self.work.min(63)) << 20
            | (key & TAG_MASK) << 26
    }

    #[inline]
    fn unpack(word: u64) -> Entry {
        let lower = word as u8 as i8;
        let upper = (word >> 8) as u8 as i8;
        let best = (word >> 16) & 0xF;
        Entry {
            lower: if lower == NO_LOWER {
                i16::MIN
            } else {
                i16::from(lower)
            },
            upper: if upper == NO_UPPER {
                i16::MAX
            } else {
                i16::from(upper)
            },
            best: if best == NO_MOVE { u8::MAX } else { best as u8 },
            work: ((word >> 20) & 63) as u8,
        }
    }

    #[inline]
    fn tag_matches(word: u64, key: u64) -> bool {
        word >> 26 == key & TAG_MASK
    }
}

/// The memory of a table: allocated once, zeroed (empty), kept between
/// solves.
#[derive(Debug)]
pub(crate) struct TableMemory {
    buckets: Buckets,
}

/// Where a table's buckets live.
#[derive(Debug)]
enum Buckets {
    /// Owned by one solver, lent to one solve at a time.
    Owned(Zeroed<Bucket>),
    /// Kept for the process's life and shared (see [`kept`]).
    Kept(&'static KeptTable),
}

/// A table kept for the process's life (see [`kept`]).
struct KeptTable {
    rules: CompactRules,
    buckets: &'static [Bucket],
    /// Buckets [`TableMemory::fault_in`] has brought in so far (by any of
    /// its solvers).
    faulted: AtomicUsize,
}

impl std::fmt::Debug for KeptTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptTable")
            .field("buckets", &self.buckets.len())
            .finish_non_exhaustive()
    }
}

/// The tables kept for the process's life, one per rules and size.
static KEPT: Mutex<Vec<&'static KeptTable>> = Mutex::new(Vec::new());

/// The table of `rules` of about `bytes` that every sharing solver of this
/// process uses: made on the first call, then the same one, with what any
/// of them stored. Every entry is a proven bound of a position of these
/// rules, whoever stored it, and the threads of several solves may use it
/// at once as those of one do. It is kept for the process's life (a
/// process plays one game's rules at a time): its entries are atomics over
/// a fresh mapping, which can be shared only while the mapping is borrowed
/// for good (see the `memory` module).
pub(crate) fn kept(rules: CompactRules, bytes: usize) -> TableMemory {
    let len = (bytes / BUCKET_BYTES).max(1);
    let mut kept = KEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let table = match kept
        .iter()
        .find(|t| t.rules == rules && t.buckets.len() == len)
    {
        Some(table) => table,
        None => {
            let memory = Box::leak(Box::new(Zeroed::<Bucket>::new(len)));
            // heap memory is all in already
            let faulted = if memory.is_mapped() { 0 } else { len };
            let table: &'static KeptTable = Box::leak(Box::new(KeptTable {
                rules,
                buckets: memory.view(),
                faulted: AtomicUsize::new(faulted),
            }));
            kept.push(table);
            table
        }
    };
    TableMemory {
        buckets: Buckets::Kept(table),
    }
}

/// Bytes of one bucket.
pub(crate) const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// Bytes of one entry as a bucket holds it.
pub(crate) const ENTRY_BYTES: usize = BUCKET_BYTES / WAYS;

impl TableMemory {
    /// A table of about `bytes` (at least one bucket).
    pub fn with_bytes(bytes: usize) -> TableMemory {
        TableMemory {
            buckets: Buckets::Owned(Zeroed::new((bytes / BUCKET_BYTES).max(1))),
        }
    }

    /// Entries the table holds at most.
    pub fn entries(&self) -> usize {
        self.bytes() / BUCKET_BYTES * WAYS
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        let len = match &self.buckets {
            Buckets::Owned(owned) => owned.len(),
            Buckets::Kept(kept) => kept.buckets.len(),
        };
        len * BUCKET_BYTES
    }

    /// Whether this and `other` are the same memory (one kept table).
    pub fn is_same(&self, other: &TableMemory) -> bool {
        matches!((&self.buckets, &other.buckets),
            (Buckets::Kept(a), Buckets::Kept(b)) if std::ptr::eq(*a, *b))
    }

    /// Has the system supply the table's memory now, until `stop` holds;
    /// true when it is all in (see [`Zeroed::fault_in`]; a kept table's
    /// pages are brought in by an atomic write that changes nothing, as
    /// other solvers may be storing in them).
    pub fn fault_in(&mut self, stop: impl Fn() -> bool) -> bool {
        let kept = match &mut self.buckets {
            Buckets::Owned(owned) => return owned.fault_in(stop),
            Buckets::Kept(kept) => *kept,
        };
        let page = (PAGE_BYTES / BUCKET_BYTES).max(1);
        let stride = STOP_STRIDE / BUCKET_BYTES;
        loop {
            let at = kept.faulted.load(Ordering::Relaxed);
            if at >= kept.buckets.len() {
                return true;
            }
            if at.is_multiple_of(stride) && stop() {
                return false;
            }
            kept.buckets[at].0[0].fetch_or(0, Ordering::Relaxed);
            kept.faulted.fetch_max(at + page, Ordering::Relaxed);
        }
    }

    /// Whether [`TableMemory::fault_in`] has brought it all in.
    pub fn is_faulted_in(&self) -> bool {
        match &self.buckets {
            Buckets::Owned(owned) => owned.is_faulted_in(),
            Buckets::Kept(kept) => kept.faulted.load(Ordering::Relaxed) >= kept.buckets.len(),
        }
    }

    /// The table, shared by the threads of one solve.
    pub fn table(&mut self) -> Table<'_> {
        let buckets = match &mut self.buckets {
            Buckets::Owned(owned) => owned.view(),
            Buckets::Kept(kept) => kept.buckets,
        };
        Table { buckets }
    }
}

/// A fixed-size table of proven bounds, keyed by 64-bit position keys
/// (odd, so a tag is never 0 and an empty word matches no key), lent out
/// by its [`TableMemory`]. Probing and storing never allocate.
#[derive(Clone, Copy)]
pub(crate) struct Table<'a> {
    buckets: &'a [Bucket],
}

impl<'a> Table<'a> {
    /// The table of its first `buckets` buckets only (all if fewer): a
    /// smaller table in the same memory.
    pub fn prefix(self, buckets: usize) -> Table<'a> {
        Table {
            buckets: &self.buckets[..buckets.min(self.buckets.len())],
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for bucket in self.buckets {
            for word in &bucket.0 {
                word.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // multiply-shift on the key's high bits (the tag takes its low ones)
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        &self.buckets[index as usize]
    }

    /// Starts loading `key`'s bucket into the cache, for a probe soon
    /// after (see the `prefetch` module).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(self.bucket(key));
    }

    /// What is known about `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let words = &self.bucket(key).0;
        for word in words {
            let w = word.load(Ordering::Relaxed);
            if Entry::tag_matches(w, key) {
                return Some(Entry::unpack(w));
            }
        }
        None
    }

    /// Adds what was proven about `key`, merging it with what is known; a
    /// new position replaces the entry that took the least work.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let words = &self.bucket(key).0;
        let mut victim = 0;
        let mut victim_work = u16::MAX;
        for (way, word) in words.iter().enumerate() {
            let w = word.load(Ordering::Relaxed);
            if Entry::tag_matches(w, key) {
                let old = Entry::unpack(w);
                let lower = old.lower.max(entry.lower);
                let merged = Entry {
                    lower,
                    upper: old.upper.min(entry.upper),
                    best: if entry.best != u8::MAX && entry.lower >= old.lower {
                        entry.best
                    } else {
                        old.best
                    },
                    work: old.work.max(entry.work),
                };
                word.store(merged.pack(key), Ordering::Relaxed);
                return;
            }
            let work = if w == 0 {
                0
            } else {
                u16::from(Entry::unpack(w).work) + 1
            };
            if work < victim_work {
                victim = way;
                victim_work = work;
            }
        }
        words[victim].store(entry.pack(key), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lower: i16, upper: i16, best: u8, work: u8) -> Entry {
        Entry {
            lower,
            upper,
            best,
            work,
        }
    }

    #[test]
    fn entries_round_trip_through_their_packing() {
        let key = 0x1234_5678_9ABC_DEF1;
        for e in [
            entry(-48, 48, 3, 20),
            entry(i16::MIN, i16::MAX, 255, 0),
            entry(-127, 126, 11, 63),
        ] {
            let word = e.pack(key);
            assert!(Entry::tag_matches(word, key));
            assert!(!Entry::tag_matches(word, key ^ 2));
            assert_eq!(Entry::unpack(word), e);
        }
        // bounds beyond a byte are kept weaker, never wrong
        let weak = Entry::unpack(entry(200, -200, 0, 0).pack(key));
        assert_eq!((weak.lower, weak.upper), (126, -127));
        let none = Entry::unpack(entry(-200, 200, 0, 0).pack(key));
        assert_eq!((none.lower, none.upper), (i16::MIN, i16::MAX));
    }

    #[test]
    fn bounds_merge_and_costly_entries_survive() {
        let mut memory = TableMemory::with_bytes(BUCKET_BYTES); // one bucket
        let t = memory.table();
        t.store(3, entry(-5, 9, 1, 10));
        t.store(3, entry(2, 20, 2, 1));
        assert_eq!(t.probe(3), Some(entry(2, 9, 2, 10)));
        let cheap = [5, 7, 9, 11, 13, 15, 17, 19];
        for key in cheap {
            t.store(key, entry(0, 0, 0, 0));
        }
        assert!(t.probe(3).is_some(), "the costly entry survives");
        let kept = cheap.iter().filter(|&&k| t.probe(k).is_some()).count();
        assert_eq!(kept, WAYS - 1, "one cheap entry made way for another");
        assert_eq!(t.probe(4), None);
    }

    #[test]
    fn a_table_starts_empty_in_whole_cache_lines_and_keeps_its_entries() {
        let mut memory = TableMemory::with_bytes(8 << 20);
        assert_eq!(memory.bytes(), 8 << 20);
        // eight bytes an entry
        assert_eq!(memory.entries(), (8 << 20) / 8);
        let t = memory.table();
        assert_eq!(t.buckets.len(), (8 << 20) / 64);
        for bucket in t.buckets {
            assert_eq!(bucket as *const Bucket as usize % 64, 0, "one cache line");
            assert!(bucket.0.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        }
        let keys: Vec<u64> = (0..1000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
            .collect();
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
        for &k in &keys {
            t.store(k, entry(-1, 1, 2, 3));
        }
        // the next solve borrows the same memory again
        let again = memory.table();
        assert!(
            keys.iter()
                .all(|&k| again.probe(k) == Some(entry(-1, 1, 2, 3)))
        );
        assert_eq!(memory.bytes(), 8 << 20);
    }
}
