//! Preferences kept between games: the sowing speed (and, later, more), in
//! a small text file in the configuration directory
//! ([`crate::game::dirs::config_dir`]):
//!
//! ```text
//! # mancala preferences
//! speed = 150
//! ```
//!
//! `speed` is milliseconds per seed, `off` for no animation. The file is
//! read with a bound; a file that is missing gives the defaults quietly,
//! one that is unreadable or corrupt gives the defaults and a one-line
//! message, never a crash.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::game::dirs::config_dir;
use crate::game::files::{self, Follow, ReadError};
use crate::game::save::write_atomic;

/// The file's name in the configuration directory.
pub const FILE_NAME: &str = "preferences";
/// The most bytes read from the file: it holds a few short lines.
const MAX_BYTES: u64 = 4096;
/// The slowest speed kept (as the `--speed` option allows).
const MAX_SPEED_MS: u64 = 10_000;

/// What the players chose last time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefs {
    /// Pause between two seeds of the animation; `None`: no animation.
    pub seed_delay: Option<Duration>,
}

/// Where the preferences file is, if there is a configuration directory.
#[must_use]
pub fn path() -> Option<PathBuf> {
    config_dir().map(|dir| dir.join(FILE_NAME))
}

/// Reads the preferences: `Ok(None)` when there are none yet; `Err` with a
/// one-line message when the file cannot be read or makes no sense.
///
/// # Errors
/// A sentence naming the file and what is wrong with it.
pub fn load(path: &Path) -> Result<Option<Prefs>, String> {
    // The game's one bounded reader: a regular file only (a FIFO or a
    // device there never blocks or floods), at most MAX_BYTES. A link is
    // followed: people keep their configuration files in linked dotfiles.
    let text = match files::read_text(path, MAX_BYTES, Follow::Allowed) {
        Ok(text) => text,
        Err(ReadError::NotFound) => return Ok(None),
        Err(e) => return Err(problem(path, &e.to_string())),
    };
    parse(&text).map(Some).map_err(|e| problem(path, &e))
}

fn problem(path: &Path, what: &str) -> String {
    format!(
        "Preferences in {} were not used ({what}); the defaults apply.",
        path.display()
    )
}

/// The preferences in `text` (see the [module docs](self)).
///
/// # Errors
/// What is wrong, in a few words.
pub fn parse(text: &str) -> Result<Prefs, String> {
    let mut speed = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err("a line without '='".into());
        };
        match (key.trim(), value.trim()) {
            ("speed", "off") => speed = Some(None),
            ("speed", ms) => match ms.parse::<u64>() {
                Ok(0) => speed = Some(None),
                Ok(ms) if ms <= MAX_SPEED_MS => speed = Some(Some(Duration::from_millis(ms))),
                _ => return Err("the speed is not a number of milliseconds".into()),
            },
            // Keys of later versions are left alone.
            _ => {}
        }
    }
    match speed {
        Some(seed_delay) => Ok(Prefs { seed_delay }),
        None => Err("no speed".into()),
    }
}

/// The file's text for `prefs`.
#[must_use]
pub fn render(prefs: &Prefs) -> String {
    let speed = prefs
        .seed_delay
        .map_or("off".to_string(), |d| d.as_millis().to_string());
    format!("# mancala preferences\nspeed = {speed}\n")
}

/// Writes `prefs` to `path` (creating its directory), replacing the file
/// whole so that a crash never leaves half of it.
///
/// # Errors
/// A one-line message naming the file.
pub fn save(path: &Path, prefs: &Prefs) -> Result<(), String> {
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        write_atomic(path, &render(prefs))
    };
    write().map_err(|e| {
        format!(
            "The preferences could not be saved in {}: {e}.",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mancala-prefs-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir.join(FILE_NAME)
    }

    #[test]
    fn preferences_round_trip_and_a_missing_file_is_no_problem() {
        let path = temp("round-trip");
        assert_eq!(load(&path), Ok(None));
        for seed_delay in [None, Some(Duration::from_millis(330))] {
            save(&path, &Prefs { seed_delay }).unwrap();
            assert_eq!(load(&path), Ok(Some(Prefs { seed_delay })));
        }
        fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_corrupt_or_huge_file_gives_one_line_and_the_defaults() {
        let path = temp("corrupt");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        for text in [
            "speed = fast\n".to_string(),
            "\u{0}\u{1}garbage".to_string(),
            "speed = 99999999999999999999\n".to_string(),
            format!("# {}\nspeed = 100\n", "x".repeat(10_000)),
        ] {
            fs::write(&path, &text).unwrap();
            let message = load(&path).unwrap_err();
            assert!(message.starts_with("Preferences in "), "{message}");
            assert!(message.ends_with("the defaults apply."), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
        fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        assert!(load(&path).is_err(), "not UTF-8");
        fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
