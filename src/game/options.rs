//! How a match is presented and paced: the one settings type that the
//! full screen, plain mode and the commands share. The rules and the seats
//! are in [`MatchConfig`](super::MatchConfig).

use std::time::Duration;

/// Milliseconds per seed when neither the command line nor the players'
/// preferences say.
pub const DEFAULT_SPEED_MS: u64 = 150;

/// How long a computer's chosen pit shows before it is played (full screen).
pub const MOVE_PAUSE: Duration = Duration::from_millis(600);

/// How a front end presents a match.
///
/// ```
/// use mancala::game::PlayOptions;
/// let options = PlayOptions::default();
/// assert_eq!(options.seed_delay.unwrap().as_millis(), 150);
/// assert!(PlayOptions { seed_delay: None, ..options }.seed_delay.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Pause between two seeds of the sowing animation; `None` shows moves at once.
    pub seed_delay: Option<Duration>,
    /// Thinking time per move for computer players.
    pub think: Duration,
    /// How long a computer's chosen pit shows before it is played.
    pub move_pause: Duration,
    /// Whether the command line chose the speed (`--speed` or
    /// `--no-animation`); if not, the full screen uses the speed the
    /// players chose last time (their preferences).
    pub speed_given: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            seed_delay: Some(Duration::from_millis(DEFAULT_SPEED_MS)),
            think: Duration::from_millis(1000),
            move_pause: MOVE_PAUSE,
            speed_given: false,
        }
    }
}
