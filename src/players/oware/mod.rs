//! Oware's computer players and their endgame database (RULES.md §7).
//!
//! [`endgame`] is the database by retrograde analysis; [`search`] the
//! iterative-deepening alpha-beta search with a transposition table that
//! probes it, and [`OwarePlayer`], a turn function for Oware;
//! [`oware_player`] gives each kind of computer player its Oware form.

pub mod endgame;
pub mod search;

use std::sync::Arc;

pub use endgame::{Builder, LevelReport, OwareEndgame, Probe};
pub use search::{OwarePlayer, OwareSearch, OwareSearchResult};

use super::PlayerKind;

/// The deepest search of `hard` and `perfect`, hints and the analysis
/// (the think time ends it first).
pub const DEEPEST: u32 = 200;

/// Seeds on the board up to which the process's shared database
/// ([`shared_endgame`]) knows every exact value.
pub const SHARED_ENDGAME_SEEDS: usize = 8;

/// The endgame database that hints and the analysis of a round probe:
/// built once per process, on first use (a few milliseconds), and shared
/// by every caller after that.
#[must_use]
pub fn shared_endgame() -> Arc<OwareEndgame> {
    static SHARED: std::sync::OnceLock<Arc<OwareEndgame>> = std::sync::OnceLock::new();
    Arc::clone(SHARED.get_or_init(|| Arc::new(OwareEndgame::build(SHARED_ENDGAME_SEEDS))))
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
mod tests;
