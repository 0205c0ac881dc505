//! The rules of Mancala: a pure core with no I/O, no terminal and no
//! randomness. Everything else in the crate plays through it. It depends
//! on nothing else in the crate.
//!
//! [`solitaire`] holds the rules of the one-player game, Tchoukaillon;
//! [`oware`] those of the second two-player family, Oware (Abapa), and
//! [`Game`], the family a round is played in.
//!
//! ```
//! use mancala_engine::rules::{Board, Outcome, Rules};
//! let mut board = Board::new(Rules::KALAH);
//! while let Some(pit) = board.legal_moves().next() {
//!     board.play(pit).unwrap();
//! }
//! assert!(board.is_over());
//! let score = board.score();
//! assert_eq!(score.south + score.north, 48);
//! assert!(matches!(board.outcome(), Some(Outcome::Win(_) | Outcome::Draw)));
//! ```

mod board;
mod compact;
mod config;
mod error;
mod family;
mod notation;
pub mod oware;
mod pit;
mod side;
pub mod solitaire;
mod trace;
mod words;

pub use board::{Board, Captured, MAX_TOTAL_SEEDS, Moves, Outcome, Played, Score};
pub use compact::{Compact, CompactRules, Next};
pub use config::{
    Capture, MAX_CELLS, MAX_PITS, MAX_SEEDS, Rules, RulesError, Sowing, Sweep, Variant,
};
pub use error::{MoveError, PositionError};
pub use family::{GameBoard, GamePlayed, GameRound, taken_houses};
pub use notation::{ParsePositionError, Position};
pub use oware::Game;
pub use pit::Pit;
pub use side::{ParseSideError, Side};
pub use trace::{NoTrace, Step, Tracer};
pub use words::{Counted, plural};
