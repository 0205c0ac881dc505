//! The Oware endgame database one process shares: as far as it is built
//! now ([`EndgameShelf::current`]), grown by a grower that a layer which
//! keeps files gives it ([`EndgameShelf::set_grower`]: the store keeps
//! the database in the data directory and grows it a seed count at a time
//! on a thread of low priority), started the first time anything wants
//! the database ([`EndgameShelf::wake`]), so that no game waits for it.
//!
//! A searcher holds an `Arc` of one database and probes it without a lock;
//! a player takes the newer one between moves ([`EndgameShelf::newer`]).
//! What the grower has to tell the players (a damaged file built again)
//! waits here until a game's session takes it ([`EndgameShelf::tell`],
//! [`EndgameShelf::take_news`]): the grower has no front end of its own.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Once, OnceLock, PoisonError, RwLock};

use super::endgame::OwareEndgame;

/// The database of the process as far as it is built.
pub struct EndgameShelf {
    built: RwLock<Arc<OwareEndgame>>,
    /// Seed counts in `built` (0 when empty), read without the lock.
    counts: AtomicUsize,
    grower: OnceLock<fn()>,
    started: Once,
    /// What the grower said that no session has taken yet.
    news: Mutex<Vec<String>>,
}

/// The process's shelf.
static SHELF: LazyLock<EndgameShelf> = LazyLock::new(EndgameShelf::new);

/// The process's shared Oware endgame database shelf.
#[must_use]
pub fn shelf() -> &'static EndgameShelf {
    &SHELF
}

impl EndgameShelf {
    /// An empty shelf with no grower.
    #[must_use]
    pub fn new() -> EndgameShelf {
        EndgameShelf {
            built: RwLock::new(Arc::new(OwareEndgame::empty())),
            counts: AtomicUsize::new(0),
            grower: OnceLock::new(),
            started: Once::new(),
            news: Mutex::new(Vec::new()),
        }
    }

    /// Says how the database is grown: `grow` is called once, the first
    /// time [`EndgameShelf::wake`] is, and must return at once (it starts
    /// a thread). False when a grower was set already.
    pub fn set_grower(&self, grow: fn()) -> bool {
        self.grower.set(grow).is_ok()
    }

    /// Starts growing the database if it is not growing yet (and a grower
    /// is set): the first Oware game calls this.
    pub fn wake(&self) {
        if let Some(&grow) = self.grower.get() {
            self.started.call_once(grow);
        }
    }

    /// The database as far as it is built now (waking the grower).
    #[must_use]
    pub fn current(&self) -> Arc<OwareEndgame> {
        self.wake();
        Arc::clone(&self.built.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The database as far as it is built now when it holds more seed
    /// counts than `held` does (waking the grower), else `None`: a player
    /// asks this before each move, without a lock when nothing changed.
    #[must_use]
    pub fn newer(&self, held: &OwareEndgame) -> Option<Arc<OwareEndgame>> {
        self.wake();
        let held = held.max_seeds().map_or(0, |m| m + 1);
        (self.counts.load(Ordering::Acquire) > held).then(|| self.current())
    }

    /// Shows `db` from now on, when it holds more seed counts than the
    /// database shown.
    pub fn publish(&self, db: OwareEndgame) {
        let counts = db.max_seeds().map_or(0, |m| m + 1);
        let mut built = self.built.write().unwrap_or_else(PoisonError::into_inner);
        if counts > built.max_seeds().map_or(0, |m| m + 1) {
            *built = Arc::new(db);
            self.counts.store(counts, Ordering::Release);
        }
    }

    /// Keeps `words` for the players, to be said once by the next
    /// session that takes them ([`EndgameShelf::take_news`]).
    pub fn tell(&self, words: String) {
        self.news
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(words);
    }

    /// What the grower said since this was last asked, oldest first;
    /// each sentence is handed out once.
    #[must_use]
    pub fn take_news(&self) -> Vec<String> {
        std::mem::take(&mut *self.news.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Default for EndgameShelf {
    fn default() -> EndgameShelf {
        EndgameShelf::new()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;

    static GROWN: AtomicU32 = AtomicU32::new(0);

    fn count_growing() {
        GROWN.fetch_add(1, Ordering::SeqCst);
    }

    #[test]
    fn the_grower_starts_once_and_bigger_databases_replace_smaller_ones() {
        let shelf = EndgameShelf::new();
        assert_eq!(shelf.current().max_seeds(), None);
        assert!(shelf.set_grower(count_growing));
        assert!(!shelf.set_grower(count_growing));
        let held = shelf.current();
        shelf.wake();
        assert_eq!(GROWN.load(Ordering::SeqCst), 1);
        assert!(shelf.newer(&held).is_none());
        shelf.publish(OwareEndgame::build(3));
        let newer = shelf.newer(&held).expect("three counts more");
        assert_eq!(newer.max_seeds(), Some(3));
        assert!(shelf.newer(&newer).is_none());
        // A smaller database never replaces a bigger one.
        shelf.publish(OwareEndgame::build(2));
        assert_eq!(shelf.current().max_seeds(), Some(3));
        assert_eq!(GROWN.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn what_the_grower_tells_is_handed_out_once_in_order() {
        let shelf = EndgameShelf::new();
        assert!(shelf.take_news().is_empty());
        shelf.tell("one".to_string());
        shelf.tell("two".to_string());
        assert_eq!(shelf.take_news(), ["one", "two"]);
        assert!(shelf.take_news().is_empty());
    }
}
