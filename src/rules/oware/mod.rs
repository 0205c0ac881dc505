//! The rules of Oware (Abapa), RULES.md §7: the second game family beside
//! Kalah. Two rows of six houses, four seeds each, no store sown into;
//! captured seeds are a player's score.
//!
//! The layout is Kalah's with six pits (RULES.md §2.1): South's houses `a`–`f`
//! at indices 0–5, South's captured seeds at 6 (where Kalah's store is),
//! North's houses `g`–`l` at 7–12 and North's captured seeds at 13. So the
//! same letters, the same board drawing and the same [`Step`](super::Step)s
//! serve both families; a move never sows into 6 or 13.
//!
//! Like the rest of the rules core this is pure. A round ends on a repeated
//! position (RULES.md §7.6), which needs the positions seen so far: the
//! caller keeps them in an [`OwareRound`], or keeps its own and ends the
//! round with [`OwareBoard::end_by_repetition`].
//!
//! ```
//! use mancala_engine::rules::oware::{OwareBoard, OwareRound};
//! let mut round = OwareRound::new(OwareBoard::new());
//! while let Some(pit) = round.board().legal_moves().next() {
//!     round.play(pit).unwrap();
//! }
//! let score = round.board().score();
//! assert_eq!(score.south + score.north, 48);
//! ```

mod board;
mod round;

pub use board::{End, GrandSlam, HOUSES, OwareBoard, OwarePlayed, OwareRules};
pub use round::OwareRound;

use std::fmt;
use std::str::FromStr;

/// The game family a round is played in: data, like the rules' options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    /// Kalah and its variants (RULES.md §3, §4): the default.
    #[default]
    Kalah,
    /// Oware, Abapa rules (RULES.md §7).
    Oware,
}

impl Game {
    /// The family's word for a place a move starts from: Kalah's pits,
    /// Oware's houses (RULES.md §7.1).
    #[must_use]
    pub const fn pit_word(self) -> &'static str {
        match self {
            Game::Kalah => "pit",
            Game::Oware => "house",
        }
    }

    /// Lower-case name, as on the command line and in JSON.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Game::Kalah => "kalah",
            Game::Oware => "oware",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Game::Kalah => "Kalah",
            Game::Oware => "Oware",
        })
    }
}

/// The text given for a game was not the name of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGameError(pub String);

impl fmt::Display for ParseGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a game (expected kalah or oware)", self.0)
    }
}

impl std::error::Error for ParseGameError {}

impl FromStr for Game {
    type Err = ParseGameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "kalah" => Ok(Game::Kalah),
            "oware" | "abapa" | "awale" | "awari" => Ok(Game::Oware),
            _ => Err(ParseGameError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests;
