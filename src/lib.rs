//! Mancala (Kalah) in the terminal. Every rule is written down, with
//! worked examples, in the repository's `RULES.md`.
//!
//! The crate is laid out the way data flows through it, and each layer
//! uses only itself and the layers above it in this list (checked by
//! `tests/architecture.rs`):
//!
//! - [`rules`] (and [`rng`]): the pure rules core: board, sowing, captures,
//!   variants, and [`rules::solitaire`], the one-player game's board, moves,
//!   plan and deal.
//! - [`players`]: turn functions, from random moves to perfect play.
//! - [`game`]: a match of rounds and its tally, and the policies and words
//!   every front end shares: undo and redo by turn, a computer with no
//!   move, seat seeds, messages with their kinds; saves and records.
//! - The front ends: [`tui`] (full screen), [`plain`] (line by line),
//!   [`solitaire`] (the one-player game on the screen), and [`net`]
//!   (play over the network).
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
pub mod session;
pub mod solitaire;
pub mod tui;
