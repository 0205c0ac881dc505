//! Why a move or a position was refused.

use std::fmt;

use super::Game;
use super::config::RulesError;

/// Why a pit cannot be played. The board is left untouched.
///
/// The first three messages are the classic ones, word for word (RULES.md §3.7).
///
/// ```
/// use mancala_engine::rules::{Board, MoveError, Rules};
/// let mut board = Board::new(Rules::KALAH);
/// let store = Rules::KALAH.store(mancala_engine::rules::Side::South);
/// assert_eq!(board.play(store), Err(MoveError::Store));
/// assert_eq!(MoveError::Store.to_string(), "Sorry, you can't select the store.");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// The game is over: nobody moves any more.
    GameOver,
    /// There is no such place on this board.
    NoSuchPit,
    /// Stores are never played from.
    Store,
    /// The pit belongs to the other player.
    NotYours,
    /// The pit holds no seeds.
    Empty,
    /// Oware: the opponent has no seeds and this move gives them none
    /// while another would (RULES.md §7.5).
    MustFeed,
    /// Oware with grand slams forbidden: the move would capture every seed
    /// the opponent has (RULES.md §7.4).
    GrandSlam,
}

impl MoveError {
    /// The message with the opponent named where it speaks of them:
    /// "Sorry, you must give Michael seeds."
    ///
    /// ```
    /// use mancala_engine::rules::MoveError;
    /// assert_eq!(MoveError::MustFeed.naming("Michael"), "Sorry, you must give Michael seeds.");
    /// assert_eq!(MoveError::Empty.naming("Michael"), "Sorry, that pit is empty.");
    /// ```
    #[must_use]
    pub fn naming(&self, opponent: &str) -> String {
        self.worded(Game::Kalah, opponent)
    }

    /// [`MoveError::naming`] in the words of `game`: Oware's places are
    /// houses (RULES.md §7.8), Kalah's pits.
    ///
    /// ```
    /// use mancala_engine::rules::{Game, MoveError};
    /// assert_eq!(MoveError::Empty.naming_in(Game::Oware, "Michael"), "Sorry, that house is empty.");
    /// assert_eq!(MoveError::Empty.naming_in(Game::Kalah, "Michael"), "Sorry, that pit is empty.");
    /// ```
    #[must_use]
    pub fn naming_in(&self, game: Game, opponent: &str) -> String {
        self.worded(game, opponent)
    }

    /// The one wording of every refusal: `game`'s word for a place, and
    /// `opponent` where it speaks of them.
    fn worded(&self, game: Game, opponent: &str) -> String {
        let place = game.pit_word();
        match self {
            MoveError::GameOver => "Sorry, the game is over.".to_string(),
            MoveError::NoSuchPit => format!("Sorry, there is no such {place}."),
            MoveError::Store => match game {
                Game::Kalah => "Sorry, you can't select the store.".to_string(),
                Game::Oware => "Sorry, you can't select the captured seeds.".to_string(),
            },
            MoveError::NotYours => format!("Sorry, you don't control that {place}."),
            MoveError::Empty => format!("Sorry, that {place} is empty."),
            MoveError::MustFeed => format!("Sorry, you must give {opponent} seeds."),
            MoveError::GrandSlam => {
                format!("Sorry, that would capture all of {opponent}'s seeds (a grand slam).")
            }
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(Game::Kalah, "your opponent"))
    }
}

impl std::error::Error for MoveError {}

/// Why a position cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The rules themselves are not playable.
    Rules(RulesError),
    /// The count list does not have `2 * pits + 2` entries.
    Length {
        /// How many the rules need.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// More seeds than the board can count: `seeds` of at most `most`.
    TooManySeeds {
        /// The seeds asked for.
        seeds: usize,
        /// The most this game's board counts.
        most: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Rules(e) => e.fmt(f),
            PositionError::Length { expected, found } => write!(
                f,
                "the board needs {expected} counts (each side's pits then its store), not {found}"
            ),
            PositionError::TooManySeeds { seeds, most } => {
                write!(f, "{seeds} seeds are more than a board can hold ({most})")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl From<RulesError> for PositionError {
    fn from(e: RulesError) -> Self {
        PositionError::Rules(e)
    }
}
