//! Oware's computer players and their endgame database (RULES.md §7).
//!
//! [`endgame`] is the database by retrograde analysis; [`search`] the
//! iterative-deepening alpha-beta search with a transposition table that
//! probes it, and [`OwarePlayer`], a turn function for Oware.

pub mod endgame;
pub mod search;

pub use endgame::{Builder, LevelReport, OwareEndgame, Probe};
pub use search::{OwarePlayer, OwareSearch, OwareSearchResult};

#[cfg(test)]
mod tests;
