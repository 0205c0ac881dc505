//! Mancala (Kalah) in the terminal.
//!
//! The crate is laid out the way data flows through it:
//!
//! - [`rules`]: the pure rules core: board, sowing, captures, variants, and
//!   [`rules::solitaire`], the one-player game's board, moves, plan and deal.
//! - [`players`]: turn functions, from a person at the keyboard to perfect play.
//! - [`game`]: a match of rounds, the tally, undo and redo.
//! - [`tui`]: the full-screen front end; [`plain`]: the line-by-line one.
//! - [`solitaire`]: Solitaire Mancala (Tchoukaillon) on the screen.
//! - [`commands`]: what each command-line command does; [`cli`] parses them.
#![warn(missing_docs)]

pub mod cli;
pub mod commands;
pub mod game;
pub mod net;
pub mod plain;
pub mod players;
pub mod rng;
pub mod rules;
pub mod solitaire;
pub mod tui;
