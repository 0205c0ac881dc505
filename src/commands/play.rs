//! Playing a match: full screen on a terminal, line by line otherwise.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::PlayArgs;
use crate::game::{MatchConfig, Seat};
use crate::rules::Side;

use super::UsageError;

/// How a front end presents a match (the rules and seats are in [`MatchConfig`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Pause between two seeds of the sowing animation; `None` shows moves at once.
    pub seed_delay: Option<Duration>,
    /// Thinking time per move for computer players.
    pub think: Duration,
    /// Whether the command line chose the speed (`--speed` or
    /// `--no-animation`); if not, the full screen uses the speed the
    /// players chose last time.
    pub speed_given: bool,
}

/// Milliseconds per seed when neither the command line nor the
/// preferences say.
pub const DEFAULT_SPEED_MS: u64 = 150;

/// The match and presentation settings a [`PlayArgs`] describes.
///
/// # Errors
/// A [`UsageError`] when the rules are not playable.
pub fn settings(args: &PlayArgs) -> anyhow::Result<(MatchConfig, PlayOptions)> {
    let rules = args.rules.rules().map_err(UsageError)?;
    let [south, north] = args.names();
    let config = MatchConfig {
        rules,
        seats: [Seat::new(south, args.south), Seat::new(north, args.north)],
        first: args.first,
    };
    let options = PlayOptions {
        seed_delay: (!args.no_animation)
            .then(|| Duration::from_millis(args.speed.unwrap_or(DEFAULT_SPEED_MS))),
        think: Duration::from_millis(args.think),
        speed_given: args.speed.is_some() || args.no_animation,
    };
    debug_assert_eq!(config.seats.len(), Side::BOTH.len());
    Ok((config, options))
}

/// Plays a match: the full-screen game when both standard input and output
/// are a terminal, else (or with `--plain`) the line-by-line game.
///
/// # Errors
/// Bad settings, or a terminal that fails.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let (config, options) = settings(args)?;
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if args.plain || !terminal {
        crate::plain::run(config, &options)
    } else {
        crate::tui::run(config, &options)
    }
}
