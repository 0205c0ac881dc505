//! The full-screen front end (ratatui + crossterm).

pub mod terminal;

use std::process::ExitCode;

use crate::commands::PlayOptions;
use crate::game::MatchConfig;

/// Plays a match full screen until the players quit.
///
/// # Errors
/// When the terminal fails.
pub fn run(_config: MatchConfig, _options: &PlayOptions) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the full-screen game is not built yet (issue 3)")
}
