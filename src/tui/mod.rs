//! The full-screen front end (ratatui + crossterm).

pub mod terminal;
