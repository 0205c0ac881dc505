//! What a host needs to offer an unfinished network match again after a
//! restart: the opponent's name and the join code, so that the joiner's
//! same command finds the same match. One small file per match in the
//! data directory's `net/` folder (opened the guarded way,
//! [`files::own_dir`], never through a link planted there), named by the
//! host, the opponent and the settings (rules and who starts), as the
//! match's save is: hosting someone else, or under other rules, never
//! touches another match's note. The match itself is in the
//! [`crate::store::Keeper`]'s save.
//!
//! The end of a round needs no mark here: the keeper notes it itself and
//! completes it after a restart ([`crate::store::Keeper::close_round`]).

use std::fs;
use std::io;
use std::path::PathBuf;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use super::code::JoinCode;
use crate::game::FirstMover;
use crate::rules::{Game, Rules};
use crate::store::data_dir;
use crate::store::files::{self, Follow, read_text, write_atomic};

/// The host's unfinished network match: who it is against, and its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostNote {
    /// The joiner's name.
    pub opponent: String,
    /// The match's join code.
    pub code: JoinCode,
}

/// The settings a note belongs to: the game, the rules and who starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game family.
    pub game: Game,
    /// The match's rules.
    pub rules: Rules,
    /// Who starts each round.
    pub first: FirstMover,
}

impl Settings {
    /// The settings of match `m`.
    #[must_use]
    pub fn of(m: &crate::game::Match) -> Settings {
        Settings {
            game: m.game(),
            rules: *m.rules(),
            first: m.config().first,
        }
    }
}

/// The longest note read, in bytes.
const MAX_NOTE: u64 = 4096;

/// Sixteen hexadecimal digits of a hash of `text`: any text makes a plain
/// file name.
fn hashed(text: &str) -> String {
    files::hex(&Sha256::digest(text.as_bytes())[..8])
}

/// The `net/` folder of the data directory, created if needed and
/// refused when it is a link or not a folder.
fn folder() -> io::Result<PathBuf> {
    let root = data_dir().ok_or_else(|| io::Error::other("no data directory"))?;
    files::data_root(&root)?;
    let dir = root.join("net");
    files::own_dir(&dir)?;
    Ok(dir)
}

/// How the notes of host `host` start.
fn prefix(host: &str) -> String {
    format!("host-{}-", hashed(host))
}

/// How the notes under `settings` end.
fn suffix(settings: Settings) -> String {
    format!(
        "-{}.txt",
        // Kalah's notes keep the names they had before Oware was hosted.
        hashed(&match settings.game {
            Game::Kalah => format!("{:?} {:?}", settings.rules, settings.first),
            game => format!("{:?} {:?} {game}", settings.rules, settings.first),
        })
    )
}

/// The note's file name of host `host` against `opponent` under
/// `settings` (the opponent's name as the save's, case aside).
fn file_name(host: &str, opponent: &str, settings: Settings) -> String {
    format!(
        "{}{}{}",
        prefix(host),
        hashed(&opponent.to_lowercase()),
        suffix(settings)
    )
}

/// Reads one note.
fn read(path: &std::path::Path) -> Option<HostNote> {
    let text = read_text(path, MAX_NOTE, Follow::Never).ok()?;
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::trim)
    };
    Some(HostNote {
        opponent: super::clean_remote_name(field("opponent:")?)?,
        code: field("code:")?.parse().ok()?,
    })
}

/// The notes of host `name` under `settings`, the most recent first (an
/// earlier version's one note per host, whatever its settings, last: the
/// match's save says whether it is one of these settings).
#[must_use]
pub fn load(name: &str, settings: Settings) -> Vec<HostNote> {
    let Ok(dir) = folder() else {
        return Vec::new();
    };
    let (prefix, suffix) = (prefix(name), suffix(settings));
    let legacy = format!("host-{}.txt", hashed(name));
    let mut found: Vec<(bool, SystemTime, HostNote)> = fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let file = entry.file_name();
            let file = file.to_str()?;
            let old = file == legacy;
            let current = file.starts_with(&prefix) && file.ends_with(&suffix);
            if !old && !current {
                return None;
            }
            let when = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            Some((old, when, read(&entry.path())?))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut notes: Vec<HostNote> = Vec::new();
    for (_, _, note) in found {
        if !notes
            .iter()
            .any(|n| crate::game::names::same_name(&n.opponent, &note.opponent))
        {
            notes.push(note);
        }
    }
    notes
}

/// Keeps the note of host `name`'s match under `settings`.
///
/// # Errors
/// When the folder or the file cannot be written.
pub fn store(name: &str, settings: Settings, note: &HostNote) -> io::Result<()> {
    let path = folder()?.join(file_name(name, &note.opponent, settings));
    write_atomic(
        &path,
        &format!("opponent: {}\ncode: {}\n", note.opponent, note.code),
    )?;
    // An earlier version's note of this host stands for this match now.
    clear_legacy(name, &note.opponent);
    Ok(())
}

/// Forgets the note of host `name`'s match against `opponent` under
/// `settings` (the match is over).
pub fn clear(name: &str, opponent: &str, settings: Settings) {
    if let Ok(dir) = folder() {
        let _ = fs::remove_file(dir.join(file_name(name, opponent, settings)));
    }
    clear_legacy(name, opponent);
}

/// Removes an earlier version's note of host `name` when it is of the
/// match against `opponent`.
fn clear_legacy(name: &str, opponent: &str) {
    let Ok(dir) = folder() else { return };
    let path = dir.join(format!("host-{}.txt", hashed(name)));
    if read(&path).is_some_and(|n| crate::game::names::same_name(&n.opponent, opponent)) {
        let _ = fs::remove_file(path);
    }
}
