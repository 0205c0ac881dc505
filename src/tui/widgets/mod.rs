//! Widgets of the game screen.

pub mod board;
