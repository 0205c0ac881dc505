//! What a host needs to offer its unfinished match again after a restart:
//! the opponent's name and the join code, so that the joiner's same
//! command finds the same match. One small file per host name in the data
//! directory's `net/` folder; the match itself is in the
//! [`crate::game::Keeper`]'s save.
//!
//! The note also journals the end of a round. The keeper writes a round's
//! record and then saves the next round; a host killed between the two
//! restarts one move before the end, and the joiner's unconfirmed last
//! move, sent again, would record the round twice. So the note marks the
//! round as closing before its record is written, and a round closing
//! again under that mark is recorded only if no identical record exists
//! ([`recorded`]).

use std::fs;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::code::JoinCode;
use super::message::At;
use crate::game::data_dir;
use crate::game::files::{Follow, read_text, write_atomic};
use crate::game::{Match, Record};

/// The host's unfinished network match: who it is against, and its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostNote {
    /// The joiner's name.
    pub opponent: String,
    /// The match's join code.
    pub code: JoinCode,
    /// A round whose record was being written, at its final position.
    pub closing: Option<At>,
}

/// The note's file for host `name`: named by a hash, so that any name
/// makes a plain file name.
fn path(name: &str) -> Option<PathBuf> {
    let hash = Sha256::digest(name.as_bytes());
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    Some(data_dir()?.join("net").join(format!("host-{hex}.txt")))
}

/// The note of host `name`, if there is a readable one.
#[must_use]
pub fn load(name: &str) -> Option<HostNote> {
    let text = read_text(&path(name)?, 4096, Follow::Never).ok()?;
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::trim)
    };
    Some(HostNote {
        opponent: super::clean_remote_name(field("opponent:")?)?,
        code: field("code:")?.parse().ok()?,
        closing: field("closing:").and_then(|c| {
            let (round, ply) = c.split_once(' ')?;
            Some(At {
                round: round.parse().ok()?,
                ply: ply.parse().ok()?,
            })
        }),
    })
}

/// Keeps the note of host `name`.
///
/// # Errors
/// When the file cannot be written.
pub fn store(name: &str, note: &HostNote) -> std::io::Result<()> {
    let path = path(name).ok_or_else(|| std::io::Error::other("no data directory"))?;
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let closing = note
        .closing
        .map(|at| format!("closing: {} {}\n", at.round, at.ply))
        .unwrap_or_default();
    write_atomic(
        &path,
        &format!(
            "opponent: {}\ncode: {}\n{closing}",
            note.opponent, note.code
        ),
    )
}

/// Whether the data directory's records hold exactly the round `m` is at
/// (same players, rules, round, starter, tally and moves).
#[must_use]
pub fn recorded(m: &Match) -> bool {
    let Some(dir) = data_dir().map(|d| d.join("records")) else {
        return false;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let ours = Record::of_match(m);
    let suffix = format!("-r{}", m.round());
    entries.flatten().any(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stem = name.strip_suffix(".txt").unwrap_or(&name);
        let stem = stem
            .rsplit_once('-')
            .filter(|(_, n)| n.parse::<u32>().is_ok())
            .map_or(stem, |(s, _)| s);
        if !stem.ends_with(&suffix) {
            return false;
        }
        let limit = crate::game::record::MAX_RECORD_BYTES as u64;
        read_text(&entry.path(), limit, Follow::Never)
            .is_ok_and(|text| Record::parse(&text).is_ok_and(|r| r == ours))
    })
}

/// Forgets the note of host `name` (the match is over).
pub fn clear(name: &str) {
    if let Some(path) = path(name) {
        let _ = fs::remove_file(path);
    }
}
