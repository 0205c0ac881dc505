//! Solitaire Mancala (Tchoukaillon, RULES.md §6) as a game on the screen.
//!
//! The rules (the board, legality, moves, the plan, the deal) are in the
//! rules core, [`crate::rules::solitaire`]; this module only plays them:
//! [`run`] is the full-screen game, [`app`] holds its state and reacts to
//! keys, clicks and time, `layout` places it on the screen, [`view`] draws
//! it in the two-player game's [`Theme`](crate::tui::theme::Theme) (which
//! also decides about `NO_COLOR`), and [`deal_random`] picks a winnable
//! board of a random size.

pub mod app;
mod layout;
mod random;
mod screen;
pub mod view;

pub use app::SolitaireGame;
pub use random::{RANDOM_MAX_SEEDS, RANDOM_MIN_SEEDS, deal_random};
pub use screen::run;
