//! Mancala in the terminal: Kalah and Oware (Abapa). Every rule is written down, with
//! worked examples, in the repository's `RULES.md`.
//!
//! The crate is laid out the way data flows through it, and each layer
//! uses only itself and the layers above it in this list (checked by
//! `tests/suite/architecture.rs`):
//!
//! - [`rules`] (and [`rng`], [`console`]): the pure rules core: board,
//!   sowing, captures, variants, the Oware family ([`rules::oware`]) and
//!   [`rules::solitaire`], the one-player game's board, moves, plan and deal.
//! - [`players`]: turn functions, from random moves to perfect play.
//! - [`game`]: a match of rounds and its tally, and the policies and words
//!   every front end shares: undo and redo by turn, a computer with no
//!   move, seat seeds, messages with their kinds, players' names.
//! - [`analysis`]: a round analysed under perfect play.
//! - [`store`]: what is kept on disk (saves, records, statistics, ratings,
//!   analyses), every file through one door.
//! - [`session`]: the headless match session every front end drives.
//! - [`net`]: play over the network; the host's session is the referee.
//! - The front ends, siblings that never use each other: [`tui`] (the full
//!   screen: game, replay, analysis, solitaire) and [`plain`] (line by line).
//! - [`commands`]: what each command-line command does; [`cli`] parses them.
#![warn(missing_docs)]

pub use mancala_engine::{analysis, escape, game, players, rng, rules};
pub mod cli;
pub mod commands;
pub mod console;
pub mod net;
pub mod plain;
pub mod session;
pub mod store;
pub mod tui;
