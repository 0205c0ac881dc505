//! The line-by-line front end: plain text in, plain text out.

use std::process::ExitCode;

use crate::commands::PlayOptions;
use crate::game::MatchConfig;

/// Plays a match line by line on standard input and output.
///
/// # Errors
/// When standard input or output fails.
pub fn run(_config: MatchConfig, _options: &PlayOptions) -> anyhow::Result<ExitCode> {
    crate::commands::usage(
        "the plain-text game is not built yet (issue 6); run mancala in a terminal",
    )
}
