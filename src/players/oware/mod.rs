//! Oware's computer players and their endgame database (RULES.md §7).
//!
//! [`endgame`] is the database by retrograde analysis, [`shelf`](mod@shelf) the one a
//! process shares as it grows; [`search`] the
//! iterative-deepening alpha-beta search with a transposition table that
//! probes it, and [`OwarePlayer`], a turn function for Oware;
//! [`oware_player`] gives each kind of computer player its Oware form.

pub mod endgame;
pub mod real;
pub mod search;
pub mod shelf;

use std::sync::{Arc, OnceLock};

pub use endgame::{Builder, LevelReport, OwareEndgame, Probe};
pub use search::{OwarePlayer, OwareSearch, OwareSearchResult};
pub use shelf::{EndgameShelf, shelf};

use super::PlayerKind;

/// The deepest search of `hard` and `perfect`, hints and the analysis
/// (the think time ends it first).
pub const DEEPEST: u32 = 200;

/// Seeds on the board up to which the analysis of a round always knows
/// every exact value (of those that do not depend on repetition): the
/// database it probes ([`analysis_endgame`]) covers at least these.
pub const ANALYSIS_ENDGAME_SEEDS: usize = 8;

/// The endgame database the analysis of a round probes: the process's
/// [`shelf()`] when it holds [`ANALYSIS_ENDGAME_SEEDS`] or more, else
/// those counts built here (a moment; the analysis runs on a thread of
/// its own) and put on the shelf for everything else. The same figures on
/// every run where nothing bigger is kept.
#[must_use]
pub fn analysis_endgame() -> Arc<OwareEndgame> {
    static BUILT: OnceLock<()> = OnceLock::new();
    let shelf = shelf();
    let current = shelf.current();
    if current.max_seeds() >= Some(ANALYSIS_ENDGAME_SEEDS) {
        return current;
    }
    BUILT.get_or_init(|| shelf.publish(OwareEndgame::build(ANALYSIS_ENDGAME_SEEDS)));
    shelf.current()
}

/// The Oware player of a kind: `random`; `greedy` (the most seeds
/// captured now); `tree:N` (the search N plies deep); `easy` (2 plies) and
/// `medium` (6 plies); `hard` (as deep as the think time allows);
/// `perfect`, the strongest (`hard` probing `endgame`; a game's seat
/// also follows the shared [`shelf()`]: [`OwarePlayer::following_shelf`]). `Ok(None)` for
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
