//! The engine of `mancala`: everything that needs speed, and nothing that
//! draws on a terminal, keeps a file or opens a socket. Its modules live beside the rest
//! of the program's in `src/` (one tree to read); this crate compiles them
//! on their own so that the tests build them optimised once while the
//! front ends build unoptimised (see the root `Cargo.toml`'s `fast` profile).
//!
//! Each layer uses only itself and the layers above it (checked by
//! `tests/suite/architecture.rs`):
//!
//! - [`rules`] (and [`rng`], and [`escape`] for text from outside): the pure rules core: board, sowing, captures,
//!   variants, the Oware family and solitaire. Every rule is written down,
//!   with worked examples, in the repository's `RULES.md`.
//! - [`players`]: turn functions, from random moves to perfect play.
//! - [`game`]: a match of rounds and its tally, and the policies and words
//!   every front end shares.
//! - [`analysis`]: a round analysed under perfect play.
#![warn(missing_docs)]

#[path = "../analysis/mod.rs"]
pub mod analysis;
#[path = "../escape.rs"]
pub mod escape;
#[path = "../game/mod.rs"]
pub mod game;
#[path = "../players/mod.rs"]
pub mod players;
#[path = "../rng.rs"]
pub mod rng;
#[path = "../rules/mod.rs"]
pub mod rules;
