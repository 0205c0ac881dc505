//! What a host needs to offer its unfinished match again after a restart:
//! the opponent's name and the join code, so that the joiner's same
//! command finds the same match. One small file per host name in the data
//! directory's `net/` folder; the match itself is in the
//! [`crate::game::Keeper`]'s save.
//!
//! The end of a round needs no mark here: the keeper notes it itself and
//! completes it after a restart ([`crate::game::Keeper::close_round`]).

use std::fs;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::code::JoinCode;
use crate::game::data_dir;
use crate::game::files::{Follow, read_text, write_atomic};

/// The host's unfinished network match: who it is against, and its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostNote {
    /// The joiner's name.
    pub opponent: String,
    /// The match's join code.
    pub code: JoinCode,
}

/// The note's file for host `name`: named by a hash, so that any name
/// makes a plain file name.
fn path(name: &str) -> Option<PathBuf> {
    let hash = Sha256::digest(name.as_bytes());
    let hex = crate::game::files::hex(&hash[..8]);
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
    write_atomic(
        &path,
        &format!("opponent: {}\ncode: {}\n", note.opponent, note.code),
    )
}

/// Forgets the note of host `name` (the match is over).
pub fn clear(name: &str) {
    if let Some(path) = path(name) {
        let _ = fs::remove_file(path);
    }
}
