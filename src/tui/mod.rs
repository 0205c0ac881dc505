//! The full-screen front end (ratatui + crossterm).
//!
//! Every full-screen view runs on one loop, and shares its parts:
//! - [`screen`]: the [`Screen`](screen::Screen) trait (messages in, effects
//!   out, a view) and the one loop that polls the terminal with a timeout;
//! - [`input`]: the one input path (presses only; Ctrl/Alt never make moves);
//! - [`animation`] (one animation type with pacing), [`digits`] (typing
//!   two-digit numbers), [`chrome`] (the key bar and the too-small screen),
//!   [`text`], [`theme`], [`prefs`] (kept preferences), [`terminal`]
//!   (entering and always leaving full-screen mode), [`clipboard`] (the
//!   position key's notation line and OSC 52);
//! - the board drawn by every two-sided view: [`widgets`] and [`layout`].
//!
//! The views:
//! - [`game`]: the two-player game (its own folder: model, keys, drawing,
//!   effects, computer turns);
//! - [`replay`]: a recorded round, stepped with the arrows;
//! - [`analysis`]: a recorded round's moves valued under perfect play;
//! - [`net`]: the network game (the other player as a turn source);
//! - [`solitaire`]: the one-player game (Tchoukaillon, RULES.md §6).

pub mod analysis;
pub mod animation;
pub mod chrome;
pub mod clipboard;
pub mod digits;
pub mod game;
pub mod input;
pub mod layout;
pub mod net;
pub mod prefs;
pub mod puzzle;
pub mod replay;
pub mod screen;
pub mod solitaire;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod widgets;

pub use game::{App, run};
