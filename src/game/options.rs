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
/// use mancala_engine::game::PlayOptions;
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
    /// The pie rule (`--swap`, RULES.md §5.3): the second player may take
    /// the position the first turn made.
    pub pie_rule: bool,
    /// Each round starts from a fair start (`--fair`, RULES.md §5.4), said
    /// as the match starts.
    pub fair: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            seed_delay: Some(Duration::from_millis(DEFAULT_SPEED_MS)),
            think: Duration::from_millis(1000),
            move_pause: MOVE_PAUSE,
            speed_given: false,
            pie_rule: false,
            fair: false,
        }
    }
}

/// The slowest speed, in milliseconds per seed: the most `--speed` and
/// the preferences file take.
pub const MAX_SPEED_MS: u64 = 5000;

/// Reads a sowing speed as `--speed` and the preferences file write it:
/// milliseconds per seed from 0 to [`MAX_SPEED_MS`], or `off`; `0` and
/// `off` (any case) are no animation (`None`).
///
/// ```
/// use std::time::Duration;
/// use mancala_engine::game::parse_speed;
/// assert_eq!(parse_speed(" 120 "), Ok(Some(Duration::from_millis(120))));
/// assert_eq!(parse_speed("OFF"), Ok(None));
/// assert!(parse_speed("-5").unwrap_err().contains("0 to 5000"));
/// ```
///
/// # Errors
/// The sentence saying what a speed is, for anything else (a sign, a
/// fraction, a word, a number past the slowest speed).
pub fn parse_speed(text: &str) -> Result<Option<Duration>, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(0) if digits => Ok(None),
        Ok(ms) if digits && ms <= MAX_SPEED_MS => Ok(Some(Duration::from_millis(ms))),
        _ => Err(format!(
            "a speed is milliseconds per seed, a whole number from 0 to {MAX_SPEED_MS}, or off for no animation"
        )),
    }
}
