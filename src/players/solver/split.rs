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
//! Split points are made only high in the tree (their subtrees take
//! milliseconds or more), so the allocation and the lock they take are
//! far off the hot path.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::rules::Compact;

/// Offset that makes every value non-negative in the packed best.
const VALUE_BIAS: i64 = 1 << 20;

/// A node whose remaining moves are searched by whichever threads are free.
#[derive(Debug)]
pub(crate) struct Split {
    /// The node.
    pub pos: Compact,
    /// The window every move is searched with.
    pub alpha: i32,
    pub beta: i32,
    moves: [u8; 16],
    len: usize,
    /// Index of the next move to hand out.
    next: AtomicUsize,
    /// Moves handed out and not finished.
    active: AtomicUsize,
    /// Best value so far and its move, packed so that `fetch_max` keeps
    /// the best.
    best: AtomicU64,
    /// Set when a move reached beta (or the search was abandoned).
    stop: AtomicBool,
    /// The split point this node lies under, if any.
    parent: Option<Arc<Split>>,
}

fn pack(value: i32, pit: u8) -> u64 {
    ((i64::from(value) + VALUE_BIAS) as u64) << 8 | u64::from(pit)
}

impl Split {
    /// A split point of `pos` searched with `alpha..beta`, with `moves`
    /// left to search (at most 16), the best so far and its move, under
    /// `parent`.
    pub fn new(
        pos: Compact,
        (alpha, beta): (i32, i32),
        moves: &[u8],
        (best, best_move): (i32, u8),
        parent: Option<Arc<Split>>,
    ) -> Split {
        let mut list = [0u8; 16];
        let len = moves.len().min(16);
        list[..len].copy_from_slice(&moves[..len]);
        Split {
            pos,
            alpha,
            beta,
            moves: list,
            len,
            next: AtomicUsize::new(0),
            active: AtomicUsize::new(0),
            best: AtomicU64::new(pack(best, best_move)),
            stop: AtomicBool::new(false),
            parent,
        }
    }

    /// Whether this split point or one above it was stopped: the searches
    /// under it are wasted.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.parent.as_ref().is_some_and(|p| p.stopped())
    }

    /// Whether one above it was stopped (its own stop is a cutoff).
    pub fn abandoned(&self) -> bool {
        self.parent.as_ref().is_some_and(|p| p.stopped())
    }

    /// Hands out the next move (counted as active until [`Split::done`]).
    pub fn take(&self) -> Option<u8> {
        if self.stopped() {
            return None;
        }
        self.active.fetch_add(1, Ordering::AcqRel);
        let k = self.next.fetch_add(1, Ordering::AcqRel);
        if k < self.len {
            Some(self.moves[k])
        } else {
            self.active.fetch_sub(1, Ordering::AcqRel);
            None
        }
    }

    /// Whether moves are left to hand out.
    fn open(&self) -> bool {
        self.next.load(Ordering::Relaxed) < self.len && !self.stopped()
    }

    /// Reports a move's value (`None`: its search was given up).
    pub fn done(&self, pit: u8, value: Option<i32>) {
        if let Some(value) = value {
            self.best.fetch_max(pack(value, pit), Ordering::AcqRel);
            if value >= self.beta {
                self.stop.store(true, Ordering::Release);
            }
        }
        self.active.fetch_sub(1, Ordering::AcqRel);
    }

    /// Whether a move is still being searched.
    pub fn busy(&self) -> bool {
        self.active.load(Ordering::Acquire) > 0
    }

    /// The best value and its move.
    pub fn best(&self) -> (i32, u8) {
        let b = self.best.load(Ordering::Acquire);
        (((b >> 8) as i64 - VALUE_BIAS) as i32, b as u8)
    }

    /// Whether `self` lies under `ancestor`.
    fn under(&self, ancestor: &Arc<Split>) -> bool {
        let mut at = self.parent.as_ref();
        while let Some(p) = at {
            if Arc::ptr_eq(p, ancestor) {
                return true;
            }
            at = p.parent.as_ref();
        }
        false
    }
}

/// The split points with moves left, shared by the threads of one solve.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    open: Mutex<Vec<Arc<Split>>>,
    /// Set when the solve is over: idle threads leave.
    pub finished: AtomicBool,
    /// Split points offered.
    pub offered: AtomicU64,
}

impl Pool {
    fn list(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Split>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Offers the moves of `split` to idle threads.
    pub fn offer(&self, split: &Arc<Split>) {
        self.offered.fetch_add(1, Ordering::Relaxed);
        self.list().push(Arc::clone(split));
    }

    /// Withdraws `split` (its moves are all handed out or no longer wanted).
    pub fn withdraw(&self, split: &Arc<Split>) {
        self.list().retain(|s| !Arc::ptr_eq(s, split));
    }

    /// A move to search: from the highest split point with moves left, or,
    /// with `under`, only from split points below it.
    pub fn take(&self, under: Option<&Arc<Split>>) -> Option<(Arc<Split>, u8)> {
        let list = self.list();
        for split in list.iter() {
            if under.is_some_and(|a| !split.under(a)) || !split.open() {
                continue;
            }
            if let Some(pit) = split.take() {
                return Some((Arc::clone(split), pit));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn start() -> Compact {
        Compact::from_board(&crate::rules::Board::new(Rules::new(6, 4).unwrap())).unwrap()
    }

    #[test]
    fn moves_are_handed_out_once_and_the_best_is_kept() {
        let s = Split::new(start(), (4, 5), &[3, 1, 0], (-2, 5), None);
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
    }

    #[test]
    fn a_cutoff_stops_the_split_point_and_everything_under_it() {
        let top = Arc::new(Split::new(start(), (0, 1), &[1, 2, 3], (-1, 0), None));
        let below = Arc::new(Split::new(
            start(),
            (0, 1),
            &[4, 5],
            (-3, 0),
            Some(Arc::clone(&top)),
        ));
        let pool = Pool::default();
        pool.offer(&top);
        pool.offer(&below);
        // the owner of `below` helps only under it; `top` is not under it
        assert!(pool.take(Some(&below)).is_none());
        let (s, pit) = pool.take(None).unwrap();
        assert!(Arc::ptr_eq(&s, &top));
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
        pool.withdraw(&below);
        pool.withdraw(&top);
        assert!(pool.list().is_empty());
    }
}
