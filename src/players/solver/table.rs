//! The solver's transposition table, shared by its threads without locks.
//!
//! Each entry is two atomic words: the data (proven lower and upper bounds
//! on the future margin, the move that proved the lower one, the work it
//! took) and the key XOR the data. A reader accepts an entry only when the
//! two words agree with its key, so a torn write by another thread reads
//! as a miss, never as a wrong bound (the "lockless hashing" of Hyatt and
//! Mann). Every stored bound is a proven fact about a position, so two
//! threads merging bounds of the same position can only tighten them.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket: one 64-byte cache line.
const WAYS: usize = 4;

/// One cache line of entries.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The future margin is at least this.
    pub lower: i16,
    /// The future margin is at most this.
    pub upper: i16,
    /// The mover's pit (0-based from its left) that proved `lower`; 255: none.
    pub best: u8,
    /// log2 of the positions searched to find these bounds.
    pub work: u8,
}

impl Entry {
    #[inline]
    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
    }

    #[inline]
    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            work: (data >> 40) as u8,
        }
    }
}

/// A fixed-size table of proven bounds, keyed by 64-bit position keys
/// (never 0). Allocated once; probing and storing never allocate.
#[derive(Debug)]
pub(crate) struct Table {
    buckets: Vec<Bucket>,
}

/// Bytes of one bucket.
pub(crate) const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl Table {
    /// A table of about `bytes` (at least one bucket).
    pub fn with_bytes(bytes: usize) -> Table {
        let len = (bytes / BUCKET_BYTES).max(1);
        let mut buckets = Vec::with_capacity(len);
        buckets.resize_with(len, Bucket::default);
        Table { buckets }
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // multiply-shift: any table length, indexed by the key's high bits
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        &self.buckets[index as usize]
    }

    /// What is known about `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let words = &self.bucket(key).0;
        for way in 0..WAYS {
            let data = words[2 * way + 1].load(Ordering::Relaxed);
            if words[2 * way].load(Ordering::Relaxed) ^ data == key {
                return Some(Entry::unpack(data));
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
        for way in 0..WAYS {
            let data = words[2 * way + 1].load(Ordering::Relaxed);
            let stored_key = words[2 * way].load(Ordering::Relaxed) ^ data;
            if stored_key == key {
                let old = Entry::unpack(data);
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
                let packed = merged.pack();
                words[2 * way + 1].store(packed, Ordering::Relaxed);
                words[2 * way].store(key ^ packed, Ordering::Relaxed);
                return;
            }
            let work = if data == 0 && stored_key == 0 {
                0
            } else {
                u16::from(Entry::unpack(data).work) + 1
            };
            if work < victim_work {
                victim = way;
                victim_work = work;
            }
        }
        let packed = entry.pack();
        words[2 * victim + 1].store(packed, Ordering::Relaxed);
        words[2 * victim].store(key ^ packed, Ordering::Relaxed);
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
        for e in [entry(-48, 48, 3, 20), entry(i16::MIN, i16::MAX, 255, 0)] {
            assert_eq!(Entry::unpack(e.pack()), e);
        }
    }

    #[test]
    fn bounds_merge_and_costly_entries_survive() {
        let t = Table::with_bytes(BUCKET_BYTES); // one bucket
        t.store(3, entry(-5, 9, 1, 10));
        t.store(3, entry(2, 20, 2, 1));
        assert_eq!(t.probe(3), Some(entry(2, 9, 2, 10)));
        for key in [5, 7, 9, 11] {
            t.store(key, entry(0, 0, 0, 0));
        }
        assert!(t.probe(3).is_some(), "the costly entry survives");
        assert!(t.probe(5).is_none() || t.probe(7).is_none());
        assert_eq!(t.probe(4), None);
    }
}
