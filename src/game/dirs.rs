//! The one place that finds the game's directories on this platform.
//!
//! Each lookup takes an override from the environment first (so that tests
//! and players can point the game elsewhere), then the platform's own place
//! as the `directories` crate knows it (`$XDG_CONFIG_HOME/mancala` or
//! `~/.config/mancala` on Linux, `~/Library/Application Support/mancala` on
//! macOS, `%APPDATA%\mancala` on Windows).

use std::path::PathBuf;

/// Overrides [`config_dir`].
pub const CONFIG_DIR_ENV: &str = "MANCALA_CONFIG_DIR";

/// Where preferences are kept: `$MANCALA_CONFIG_DIR` when set (and not
/// empty), else the platform's configuration directory for `mancala`;
/// `None` when the platform names none (no home directory).
#[must_use]
pub fn config_dir() -> Option<PathBuf> {
    config_dir_from(std::env::var_os(CONFIG_DIR_ENV))
}

/// [`config_dir`] with the override given.
fn config_dir_from(override_dir: Option<std::ffi::OsString>) -> Option<PathBuf> {
    if let Some(dir) = override_dir.filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "mancala").map(|p| p.config_dir().to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_override_wins_and_an_empty_one_is_ignored() {
        assert_eq!(
            config_dir_from(Some("/tmp/prefs".into())),
            Some(PathBuf::from("/tmp/prefs"))
        );
        let platform = config_dir_from(Some("".into()));
        assert_eq!(platform, config_dir_from(None));
        if let Some(dir) = platform {
            assert!(dir.ends_with("mancala"), "{}", dir.display());
        }
    }
}
