//! Oware's computer players and their endgame database (RULES.md §7).
//!
//! [`endgame`] is the database by retrograde analysis; [`search`] the
//! iterative-deepening alpha-beta search with a transposition table that
//! probes it, and [`OwarePlayer`], a turn function for Oware;
//! [`oware_player`] gives each kind of computer player its Oware form.

pub mod endgame;
pub mod search;

use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};

pub use endgame::{Builder, LevelReport, OwareEndgame, Probe};
pub use search::{OwarePlayer, OwareSearch, OwareSearchResult};

use super::PlayerKind;

/// The deepest search of `hard` and `perfect`, hints and the analysis
/// (the think time ends it first).
pub const DEEPEST: u32 = 200;

/// Seeds on the board up to which the process's shared database
/// ([`shared_endgame`]) knows every exact value (of those that do not
/// depend on repetition).
pub const SHARED_ENDGAME_SEEDS: usize = 8;

/// The process's shared database: what is built so far, and whether it
/// is complete.
struct GrowingEndgame {
    built: Mutex<(Arc<OwareEndgame>, bool)>,
    grown: Condvar,
}

impl GrowingEndgame {
    /// Builds every count up to [`SHARED_ENDGAME_SEEDS`], publishing each.
    fn grow(&self) {
        let mut builder = Builder::new();
        while builder.built() <= SHARED_ENDGAME_SEEDS {
            builder.build_next();
            let complete = builder.built() > SHARED_ENDGAME_SEEDS;
            *self.built.lock().unwrap_or_else(PoisonError::into_inner) =
                (Arc::new(builder.database()), complete);
            self.grown.notify_all();
        }
    }
}

/// The shelf, its growth started on a thread of its own on first use (or
/// at once here if no thread can start).
fn shelf() -> &'static GrowingEndgame {
    static SHELF: OnceLock<GrowingEndgame> = OnceLock::new();
    static STARTED: OnceLock<()> = OnceLock::new();
    let shelf = SHELF.get_or_init(|| GrowingEndgame {
        built: Mutex::new((Arc::new(OwareEndgame::default()), false)),
        grown: Condvar::new(),
    });
    STARTED.get_or_init(|| {
        let spawned = std::thread::Builder::new()
            .name("mancala-oware-db".into())
            .spawn(move || shelf.grow());
        if spawned.is_err() {
            shelf.grow();
        }
    });
    shelf
}

/// The endgame database that hints probe: as much of it as is built now
/// (every count up to [`SHARED_ENDGAME_SEEDS`], built once per process on
/// a thread of its own from the first call, so that no hint waits for
/// it).
#[must_use]
pub fn shared_endgame() -> Arc<OwareEndgame> {
    Arc::clone(
        &shelf()
            .built
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .0,
    )
}

/// [`shared_endgame`] once complete: what the analysis of a round probes,
/// so that its figures are the same on every run.
#[must_use]
pub fn shared_endgame_complete() -> Arc<OwareEndgame> {
    let shelf = shelf();
    let mut built = shelf.built.lock().unwrap_or_else(PoisonError::into_inner);
    while !built.1 {
        built = shelf
            .grown
            .wait(built)
            .unwrap_or_else(PoisonError::into_inner);
    }
    Arc::clone(&built.0)
}

/// The Oware player of a kind: `random`; `greedy` (the most seeds
/// captured now); `tree:N` (the search N plies deep); `easy` (2 plies) and
/// `medium` (6 plies); `hard` (as deep as the think time allows);
/// `perfect`, the strongest (`hard` probing `endgame`). `Ok(None)` for
/// the kinds whose moves come from a person.
///
/// # Errors
/// The rated ladder's levels are Kalah's: a message for `level:N`.
pub fn oware_player(
    kind: PlayerKind,
    seed: u64,
    endgame: &Arc<OwareEndgame>,
) -> Result<Option<OwarePlayer>, String> {
    let none = || Arc::new(OwareEndgame::default());
    Ok(Some(match kind {
        PlayerKind::Human | PlayerKind::Network => return Ok(None),
        PlayerKind::Random => OwarePlayer::random(seed),
        PlayerKind::Greedy => OwarePlayer::greedy(),
        PlayerKind::Tree(depth) => OwarePlayer::searching(u32::from(depth), none()),
        PlayerKind::Easy => OwarePlayer::searching(2, none()),
        PlayerKind::Medium => OwarePlayer::searching(6, none()),
        PlayerKind::Hard => OwarePlayer::searching(DEEPEST, none()),
        PlayerKind::Perfect => OwarePlayer::searching(DEEPEST, Arc::clone(endgame)),
        PlayerKind::Level(_) | PlayerKind::AutoLevel => {
            return Err(format!(
                "'{kind}': the rated levels are Kalah's; Oware's players are random, greedy, tree:N, easy, medium, hard and perfect"
            ));
        }
    }))
}

#[cfg(test)]
pub(crate) mod tests;
