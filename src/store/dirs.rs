//! The one place that finds the game's directories on this platform.
//!
//! The data directory ([`data_dir`]: saves, records, statistics) is
//! `$MANCALA_DATA_DIR`, else `$XDG_DATA_HOME/mancala` (when that is an
//! absolute path), else `$HOME/.local/share/mancala`.
//!
//! Each lookup takes an override from the environment first (so that tests
//! and players can point the game elsewhere), then the platform's own place
//! as the `directories` crate knows it (`$XDG_CONFIG_HOME/mancala` or
//! `~/.config/mancala` on Linux, `~/Library/Application Support/mancala` on
//! macOS, `%APPDATA%\mancala` on Windows).

use std::path::PathBuf;

/// The environment variable that overrides the data directory.
pub const DATA_DIR_ENV: &str = "MANCALA_DATA_DIR";

/// The directory where mancala keeps saves, records and statistics (see
/// [`super::save`]); `None` when neither `MANCALA_DATA_DIR`,
/// `XDG_DATA_HOME` nor `HOME` says where.
#[must_use]
pub fn data_dir() -> Option<PathBuf> {
    data_dir_from(|name| std::env::var_os(name))
}

/// [`data_dir`] with the environment given as a lookup function.
fn data_dir_from(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(DATA_DIR_ENV) {
        return Some(PathBuf::from(dir));
    }
    // The XDG spec says relative paths are to be ignored.
    if let Some(xdg) = var("XDG_DATA_HOME").map(PathBuf::from)
        && xdg.is_absolute()
    {
        return Some(xdg.join("mancala"));
    }
    var("HOME").map(|home| PathBuf::from(home).join(".local/share/mancala"))
}

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
    fn data_dir_prefers_the_override_then_xdg_then_home() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let all = &[
            (DATA_DIR_ENV, "/d"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(data_dir_from(env(all)), Some(PathBuf::from("/d")));
        assert_eq!(
            data_dir_from(env(&[
                (DATA_DIR_ENV, ""),
                ("XDG_DATA_HOME", "/x"),
                ("HOME", "/h")
            ])),
            Some(PathBuf::from("/x/mancala"))
        );
        assert_eq!(
            data_dir_from(env(&[("XDG_DATA_HOME", "rel"), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.local/share/mancala"))
        );
        assert_eq!(data_dir_from(env(&[])), None);
    }

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
