//! Young brothers wait: how the solver's threads share one search.
//!
//! A thread at a node with many seeds in play searches the first move
//! alone (the one most likely to cut off). If it does not, the node
//! becomes a *split point*: the remaining moves are offered in the shared
//! [`Pool`], and any idle thread may take one. The owner takes moves of its
//! own split point too, then waits until the others are done, meanwhile
//! helping only at split points below its own (so it never buries its own
//! node under unrelated work, and no two threads wait for each other).
//!
//! When a move reaches beta, the split point is stopped: every search
//! under it (in any thread) notices within a few thousand positions and
//! gives up, storing nothing. Every search is a null window, so the
//! siblings need no window updates.
//!
//! Split points are made by the ten thousand in a solve, so they live in
//! slots allocated once per solve, [`DEPTH`] per thread: a thread's split
//! points nest (each one ends before the one it lies under), so its
//! `depth`-th open split point always takes its `depth`-th slot, and a
//! slot is free again once its owner has seen every move of it back.
//! Nothing is allocated and no lock is taken while searching.
//!
//! A thread takes a move of someone else's split point by counting itself
//! active first and only then checking that the slot is still offered;
//! the owner withdraws it first and only then waits for no one to be
//! active (both in sequentially consistent order): so either the taker
//! sees the withdrawal, or the owner waits for the taker.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::rules::Compact;

/// Split points one thread may have open at once (nested); a node deeper
/// than that is searched by its thread alone (Kalah(6,3) and Kalah(5,4)
/// nest up to 22 deep on two threads).
pub(crate) const DEPTH: usize = 128;

/// Offset that makes every value non-negative in the packed best.
const VALUE_BIAS: i64 = 1 << 20;

/// No parent split point.
const NONE: usize = usize::MAX;

fn pack(value: i32, pit: u8) -> u64 {
    ((i64::from(value) + VALUE_BIAS) as u64) << 8 | u64::from(pit)
}

/// One slot: a split point while offered or while moves of it are being
/// searched. Every field is written by its owner before it offers the slot.
/// Aligned so that no two threads' slots share a cache line.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Slot {
    /// The node, as [`Compact::words`].
    pos: [AtomicU64; 4],
    /// The window every move is searched with: alpha high, beta low.
    window: AtomicU64,
    /// The moves to search, four bits each, first in the lowest.
    moves: AtomicU64,
    len: AtomicUsize,
    /// Index of the next move to hand out.
    next: AtomicUsize,
    /// Moves handed out and not finished (and, for a moment, threads
    /// checking whether they may take one).
    active: AtomicUsize,
    /// Best value so far and its move, packed so that `fetch_max` keeps
    /// the best.
    best: AtomicU64,
    /// Set when a move reached beta (or the search was abandoned).
    stop: AtomicBool,
    /// Whether other threads may take its moves.
    offered: AtomicBool,
    /// The slot of the split point this node lies under, or [`NONE`].
    parent: AtomicUsize,
}

/// The split points of one solve, shared by its threads.
#[derive(Debug)]
pub(crate) struct Pool {
    /// Thread `t`'s split point at nesting `d` is slot `d * threads + t`,
    /// so that a scan in slot order meets the highest ones first.
    slots: Box<[Slot]>,
    threads: usize,
    /// Pits per side of the positions.
    pits: usize,
    /// Slots up to here have been offered at least once (a scan stops there).
    used: AtomicUsize,
    /// Set when the solve is over: idle threads leave.
    pub finished: AtomicBool,
    /// Split points offered.
    pub offered: AtomicU64,
}

/// A split point: a node whose remaining moves are searched by whichever
/// threads are free (a slot of the [`Pool`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split<'a> {
    pool: &'a Pool,
    index: usize,
}

impl Pool {
    /// The slots of `threads` threads, on boards of `pits` pits a side.
    pub fn new(threads: usize, pits: usize) -> Pool {
        Pool {
            slots: (0..threads * DEPTH).map(|_| Slot::default()).collect(),
            threads,
            pits,
            used: AtomicUsize::new(0),
            finished: AtomicBool::new(false),
            offered: AtomicU64::new(0),
        }
    }

    /// The slot of `thread`'s split point at nesting `depth` (its split
    /// points open at the time), or `None` past [`DEPTH`].
    pub fn slot(&self, thread: usize, depth: usize) -> Option<Split<'_>> {
        (depth < DEPTH && thread < self.threads).then_some(Split {
            pool: self,
            index: depth * self.threads + thread,
        })
    }

    /// A move to search: from the highest split point with moves left, or,
    /// with `under`, only from split points below it.
    pub fn take(&self, under: Option<Split<'_>>) -> Option<(Split<'_>, u8)> {
        let used = self.used.load(Ordering::Acquire);
        for (index, slot) in self.slots[..used].iter().enumerate() {
            if !slot.offered.load(Ordering::Relaxed)
                || slot.next.load(Ordering::Relaxed) >= slot.len.load(Ordering::Relaxed)
            {
                continue;
            }
            let split = Split { pool: self, index };
            // counted first, then checked: see the module docs
            slot.active.fetch_add(1, Ordering::SeqCst);
            if slot.offered.load(Ordering::SeqCst)
                && under.is_none_or(|a| split.under(a))
                && !split.stopped()
            {
                let k = slot.next.fetch_add(1, Ordering::AcqRel);
                if k < slot.len.load(Ordering::Relaxed) {
                    return Some((split, split.move_at(k)));
                }
            }
            slot.active.fetch_sub(1, Ordering::AcqRel);
        }
        None
    }
}

impl<'a> Split<'a> {
    fn slot(self) -> &'a Slot {
        &self.pool.slots[self.index]
    }

    fn parent(self) -> Option<Split<'a>> {
        let p = self.slot().parent.load(Ordering::Relaxed);
        (p != NONE).then_some(Split {
            pool: self.pool,
            index: p,
        })
    }

    /// Offers this (free) slot as the split point of `pos` searched with
    /// `alpha..beta`, with `moves` left to search (at most 16), the best
    /// so far and its move, under `parent`.
    pub fn offer(
        self,
        pos: &Compact,
        (alpha, beta): (i32, i32),
        moves: &[u8],
        (best, best_move): (i32, u8),
        parent: Option<Split<'_>>,
    ) {
        let slot = self.slot();
        for (word, w) in slot.pos.iter().zip(pos.words()) {
            word.store(w, Ordering::Relaxed);
        }
        let window = u64::from(alpha as u32) << 32 | u64::from(beta as u32);
        slot.window.store(window, Ordering::Relaxed);
        let len = moves.len().min(16);
        let packed = moves[..len]
            .iter()
            .rev()
            .fold(0u64, |acc, &m| acc << 4 | u64::from(m & 15));
        slot.moves.store(packed, Ordering::Relaxed);
        slot.len.store(len, Ordering::Relaxed);
        slot.next.store(0, Ordering::Relaxed);
        slot.best.store(pack(best, best_move), Ordering::Relaxed);
        slot.stop.store(false, Ordering::Relaxed);
        slot.parent
            .store(parent.map_or(NONE, |p| p.index), Ordering::Relaxed);
        self.pool.offered.fetch_add(1, Ordering::Relaxed);
        if self.pool.used.load(Ordering::Relaxed) <= self.index {
            self.pool.used.fetch_max(self.index + 1, Ordering::AcqRel);
        }
        slot.offered.store(true, Ordering::SeqCst);
    }

    /// Withdraws it from the other threads (its moves are all handed out
    /// or no longer wanted).
    pub fn withdraw(self) {
        self.slot().offered.store(false, Ordering::SeqCst);
    }

    /// The node.
    pub fn pos(self) -> Compact {
        let mut bytes = [0u8; 32];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(&self.slot().pos) {
            chunk.copy_from_slice(&word.load(Ordering::Relaxed).to_le_bytes());
        }
        let n = self.pool.pits;
        let pos = Compact::from_pits(&bytes[..n], &bytes[n + 1..=2 * n])
            .expect("a position stored whole");
        debug_assert_eq!(pos.bytes(), &bytes, "every byte outside the pits is 0");
        pos
    }

    /// The window every move is searched with.
    pub fn window(self) -> (i32, i32) {
        let w = self.slot().window.load(Ordering::Relaxed);
        ((w >> 32) as u32 as i32, w as u32 as i32)
    }

    fn move_at(self, k: usize) -> u8 {
        (self.slot().moves.load(Ordering::Relaxed) >> (4 * k) & 15) as u8
    }

    /// Whether this split point or one above it was stopped: the searches
    /// under it are wasted.
    pub fn stopped(self) -> bool {
        self.slot().stop.load(Ordering::Relaxed) || self.abandoned()
    }

    /// Whether one above it was stopped (its own stop is a cutoff).
    pub fn abandoned(self) -> bool {
        self.parent().is_some_and(Split::stopped)
    }

    /// Hands out the next move to its owner (counted as active until
    /// [`Split::done`]).
    pub fn take(self) -> Option<u8> {
        if self.stopped() {
            return None;
        }
        let slot = self.slot();
        slot.active.fetch_add(1, Ordering::AcqRel);
        let k = slot.next.fetch_add(1, Ordering::AcqRel);
        if k < slot.len.load(Ordering::Relaxed) {
            Some(self.move_at(k))
        } else {
            slot.active.fetch_sub(1, Ordering::AcqRel);
            None
        }
    }

    /// Reports a move's value (`None`: its search was given up).
    pub fn done(self, pit: u8, value: Option<i32>) {
        let slot = self.slot();
        if let Some(value) = value {
            slot.best.fetch_max(pack(value, pit), Ordering::AcqRel);
            if value >= self.window().1 {
                slot.stop.store(true, Ordering::Release);
            }
        }
        slot.active.fetch_sub(1, Ordering::AcqRel);
    }

    /// Whether a move is still being searched.
    pub fn busy(self) -> bool {
        self.slot().active.load(Ordering::SeqCst) > 0
    }

    /// The best value and its move.
    pub fn best(self) -> (i32, u8) {
        let b = self.slot().best.load(Ordering::Acquire);
        (((b >> 8) as i64 - VALUE_BIAS) as i32, b as u8)
    }

    /// Whether `self` lies under `ancestor`.
    fn under(self, ancestor: Split<'_>) -> bool {
        let mut at = self.parent();
        while let Some(p) = at {
            if p.index == ancestor.index {
                return true;
            }
            at = p.parent();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Rules};

    fn start() -> Compact {
        Compact::from_board(&Board::new(Rules::new(6, 4).unwrap())).unwrap()
    }

    #[test]
    fn moves_are_handed_out_once_and_the_best_is_kept() {
        let pool = Pool::new(2, 6);
        let s = pool.slot(0, 0).unwrap();
        s.offer(&start(), (4, 5), &[3, 1, 0], (-2, 5), None);
        assert_eq!(s.pos(), start());
        assert_eq!(s.window(), (4, 5));
        assert_eq!(s.take(), Some(3));
        assert_eq!(s.take(), Some(1));
        assert!(s.busy());
        s.done(3, Some(2));
        s.done(1, None); // given up: no value
        assert_eq!(s.best(), (2, 3));
        assert_eq!(s.take(), Some(0));
        assert_eq!(s.take(), None, "every move handed out once");
        s.done(0, Some(-7));
        assert!(!s.busy());
        assert_eq!(s.best(), (2, 3));
        assert!(!s.stopped());
        // the slot is used again: nothing of the old split point is left
        s.withdraw();
        s.offer(&start(), (-9, -8), &[5], (-30, 2), None);
        assert_eq!(s.window(), (-9, -8));
        assert_eq!(pool.take(None).map(|(t, pit)| (t.index, pit)), Some((0, 5)));
        assert_eq!(s.best(), (-30, 2));
        assert_eq!(pool.offered.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_cutoff_stops_the_split_point_and_everything_under_it() {
        let pool = Pool::new(2, 6);
        let top = pool.slot(0, 0).unwrap();
        top.offer(&start(), (0, 1), &[1, 2, 3], (-1, 0), None);
        // thread 1, running a move of `top`, splits below it
        let below = pool.slot(1, 1).unwrap();
        below.offer(&start(), (0, 1), &[4, 5], (-3, 0), Some(top));
        // the owner of `below` helps only under it; `top` is not under it
        assert!(pool.take(Some(below)).is_none());
        let (s, pit) = pool.take(None).unwrap();
        assert_eq!(s.index, top.index, "the highest split point first");
        s.done(pit, Some(3)); // reaches beta
        assert!(top.stopped() && below.stopped() && below.abandoned());
        assert!(
            !top.abandoned(),
            "its own stop is a cutoff, not abandonment"
        );
        assert_eq!(top.best(), (3, 1));
        assert!(
            pool.take(None).is_none(),
            "nothing is handed out once stopped"
        );
        assert!(!top.busy() && !below.busy(), "failed takes leave no count");
    }

    #[test]
    fn a_withdrawn_split_point_hands_out_nothing_more() {
        let pool = Pool::new(1, 6);
        let s = pool.slot(0, 0).unwrap();
        s.offer(&start(), (0, 1), &[1, 2], (-1, 0), None);
        let (_, pit) = pool.take(None).unwrap();
        s.withdraw();
        assert!(pool.take(None).is_none());
        assert!(s.busy(), "the move taken before is still searched");
        s.done(pit, Some(0));
        assert!(!s.busy());
        assert_eq!(s.take(), Some(2), "its owner still takes the rest");
        assert!(pool.slot(0, DEPTH).is_none());
    }
}
