//! Keeping every game: the unfinished match saved after every move, a
//! record of every finished round, and the statistics, all in the user's
//! data directory.
//!
//! # Where
//!
//! [`data_dir`]: `$MANCALA_DATA_DIR` if set, else `$XDG_DATA_HOME/mancala`
//! (when that is an absolute path), else `$HOME/.local/share/mancala`.
//! Inside it:
//!
//! - `saves/SOUTH-vs-NORTH-HASH.txt`: the unfinished match of those players
//!   with those rules, kinds and starter setting (the hash tells matches
//!   of the same names under other settings apart), in the
//!   [record format](super::record) with `earlier-rounds` holding the tally.
//! - `records/YYYYMMDD-HHMMSS-SOUTH-vs-NORTH-rN.txt`: one record per
//!   finished round.
//! - `stats.jsonl`: one line per finished round (see [`super::stats`]).
//! - `locks/SOUTH-vs-NORTH-HASH.lock`: empty files whose OS locks tell
//!   which matches are open in a running game.
//! - `saves/network/` and `locks/network/`: the same for matches played
//!   over the network (`mancala host`), kept apart so that a local match
//!   of the same names and rules never resumes one
//!   ([`SaveStore::for_network`]).
//!
//! # For a front end
//!
//! ```no_run
//! # fn demo(config: mancala::game::MatchConfig) -> anyhow::Result<()> {
//! use mancala::game::Match;
//! use mancala::store::save::{SaveStore, new_round_id};
//! let store = SaveStore::open()?;
//! // Only one program saves a match at a time: `None` means another has it.
//! let Some(_lock) = store.lock(&config)? else { return Ok(()) };
//! let mut m = match store.load(&config) {
//!     Ok(Some(saved)) => saved, // ask "Resume the unfinished match? (y/n)" first
//!     Ok(None) => Match::new(config.clone(), 1),
//!     Err(problem) => {
//!         eprintln!("{problem}"); // a corrupt file, already set aside
//!         Match::new(config.clone(), 1)
//!     }
//! };
//! // ... after every move, undo, redo and new round:
//! store.save(&m)?;
//! // ... when a round ends:
//! // its record and the statistics, under a new id
//! let archived = store.archive_round_as(&m, &new_round_id(), false);
//! archived.record?;
//! archived.stats?;
//! // ... when the players stop playing for good:
//! store.finish(m.config())?;
//! # Ok(()) }
//! ```
//!
//! Every write is atomic and never follows a planted link (see
//! [`super::files`]): the text goes to a temporary file created exclusively
//! under an unpredictable name in the same directory, is flushed to disk,
//! and is renamed over the old file, so a crash leaves either the old save
//! or the new one. Records are created under names nothing else has, and
//! temporary files left by killed programs are removed at the next start.
//! A save that cannot be read, or that belongs to another match, is never overwritten: it is
//! renamed to `NAME.corrupt-UNIXSECONDS` and reported with its path.
//!
//! Two programs playing the same match at once: the first takes the
//! match's lock ([`SaveStore::lock`], `saves/...-HASH.lock`); the second is
//! told that the match is open in another window and may play it unsaved.
//! The lock files (`locks/SOUTH-vs-NORTH-HASH.lock`) stay; they are empty.
//!
//! Limits: a resumed match with `--first random` flips its later coins from
//! a seed made of the round number (the generator's state is not saved).

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::files::{self, Follow, ReadError, write_atomic};
use super::record::{MAX_RECORD_BYTES, Record, clean_name};
use crate::game::{Match, MatchConfig};

pub use super::dirs::{DATA_DIR_ENV, data_dir};

/// Seconds since the Unix epoch (0 if the clock is before it).
fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYYMMDD-HHMMSS` (UTC) for a time in Unix seconds. The calendar is the
/// `time` crate's; a time past its range (year 9999) is shown as its last
/// second.
#[must_use]
pub fn timestamp(unix: u64) -> String {
    let at = i64::try_from(unix)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or_else(|| time::PrimitiveDateTime::MAX.assume_utc());
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// A name as a file-name part: letters and digits kept (lower case), each
/// run of anything else one `_`, none at either end, at most 24 characters:
/// "Computer (random)" is `computer_random`, "Mary Ann" `mary_ann`.
fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars().filter(|c| !c.is_control()) {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.is_empty() && !s.ends_with('_') {
            s.push('_');
        }
    }
    let s: String = s.chars().take(24).collect();
    let s = s.trim_end_matches('_');
    if s.is_empty() { "_".into() } else { s.into() }
}

/// FNV-1a: a hash that stays the same across Rust versions, for file names.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The settings that make two matches the same match, as one line.
fn identity(config: &MatchConfig) -> String {
    let r = &config.rules;
    let [s, n] = &config.seats;
    // Kalah's identity is as it was before there were other games, so that
    // its saves still resume.
    let game = match config.game {
        crate::rules::Game::Kalah => String::new(),
        game => format!("{}|", game.as_str()),
    };
    format!(
        "{game}{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
        r.pits(),
        r.seeds(),
        r.capture(),
        r.sowing(),
        r.sweep(),
        config.first,
        clean_name(&s.name),
        s.kind,
        clean_name(&n.name),
        n.kind
    )
}

/// The most rounds a saved match may have counted: far more than anyone
/// plays (a round a minute for two years), and far enough below
/// `u32::MAX` that the round number and the tally never wrap around.
pub const MAX_ROUNDS: u32 = 1_000_000;

/// What makes a saved match's counts unusable: a round number or a tally
/// past [`MAX_ROUNDS`] (a save that says round 4294967295 would go on to
/// round 0).
fn past_counting(record: &Record) -> Option<String> {
    if record.round > MAX_ROUNDS {
        return Some(format!(
            "its round number {} is past the most a match counts, {MAX_ROUNDS}",
            record.round
        ));
    }
    let tally = &record.earlier;
    let counts = [tally.wins[0], tally.wins[1], tally.draws];
    counts.iter().any(|&n| n > MAX_ROUNDS).then(|| {
        format!(
            "its tally of earlier rounds (south {}, north {}, draws {}) is past the most a match counts, {MAX_ROUNDS} each",
            counts[0], counts[1], counts[2]
        )
    })
}

/// A save that could not be used.
#[derive(Debug)]
pub enum SaveError {
    /// The file is not a save of this match; it was renamed to `moved_to`
    /// (`None` if even that failed) and is left for the user.
    Corrupt {
        /// Where it was.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
        /// Where it is now.
        moved_to: Option<PathBuf>,
    },
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        error: io::Error,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Corrupt {
                path,
                reason,
                moved_to: Some(to),
            } => write!(
                f,
                "the saved match {} cannot be used ({reason}); it was moved to {} and a new match starts",
                path.display(),
                to.display()
            ),
            SaveError::Corrupt {
                path,
                reason,
                moved_to: None,
            } => write!(
                f,
                "the saved match {} cannot be used ({reason}) and could not be moved aside; it is left as it is and this match will not be saved",
                path.display()
            ),
            SaveError::Io { path, error } => {
                write!(f, "cannot read the saved match {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for SaveError {}

/// The data directory, for saving matches, writing records and keeping the
/// statistics. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct SaveStore {
    root: PathBuf,
    /// Whether this store keeps network matches: their saves and locks are
    /// in folders of their own (see [`SaveStore::for_network`]).
    network: bool,
}

/// The folder, inside `saves/` and `locks/`, of network matches.
const NETWORK_FOLDER: &str = "network";

impl SaveStore {
    /// The store in [`data_dir`], created if needed.
    ///
    /// # Errors
    /// When no data directory is known or it cannot be created.
    pub fn open() -> io::Result<SaveStore> {
        let root = data_dir().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("no data directory: set {DATA_DIR_ENV} or HOME"),
            )
        })?;
        SaveStore::at(root)
    }

    /// The store in `root`, created if needed.
    ///
    /// # Errors
    /// When the directories cannot be created.
    pub fn at(root: impl Into<PathBuf>) -> io::Result<SaveStore> {
        let store = SaveStore {
            root: root.into(),
            network: false,
        };
        // The data directory itself may be a link (to a synced folder, say):
        // the player chose it. Its folders are the game's own.
        files::data_root(&store.root)?;
        files::own_dir(&store.root.join("saves"))?;
        // Without `records/` the match is still saved and counted; the
        // round's record fails then, and says so.
        let records = files::own_dir(&store.root.join("records"));
        // Temporary files of programs killed while writing; never in a
        // linked folder's target.
        files::remove_leftovers(&store.root);
        files::remove_leftovers(&store.root.join("saves"));
        if records.is_ok() {
            files::remove_leftovers(&store.root.join("records"));
        }
        Ok(store)
    }

    /// The same data directory, for matches played over the network: their
    /// saves are kept in `saves/network/` and their locks in
    /// `locks/network/`, so that a network match and a local match of the
    /// same names and rules never resume (or lock) each other. Records and
    /// statistics are shared.
    ///
    /// # Errors
    /// When the folder cannot be created.
    pub fn for_network(self) -> io::Result<SaveStore> {
        let store = SaveStore {
            network: true,
            ..self
        };
        files::remove_leftovers(&store.own_folder("saves")?);
        Ok(store)
    }

    /// The folder `name` (`saves` or `locks`) of this store, and its
    /// network folder for network matches, each created if missing and
    /// refused when it is a symbolic link (see [`files::own_dir`]). Checked
    /// at every use, so that a link planted while the game runs is met too.
    fn own_folder(&self, name: &str) -> io::Result<PathBuf> {
        let dir = self.root.join(name);
        files::own_dir(&dir)?;
        if !self.network {
            return Ok(dir);
        }
        let dir = dir.join(NETWORK_FOLDER);
        files::own_dir(&dir)?;
        Ok(dir)
    }

    fn of_kind(&self, dir: PathBuf) -> PathBuf {
        if self.network {
            dir.join(NETWORK_FOLDER)
        } else {
            dir
        }
    }

    /// The data directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the statistics are kept.
    #[must_use]
    pub fn stats_path(&self) -> PathBuf {
        SaveStore::stats_path_in(&self.root)
    }

    /// Where the statistics are kept in the data directory `root`
    /// (without creating anything).
    #[must_use]
    pub fn stats_path_in(root: &Path) -> PathBuf {
        root.join("stats.jsonl")
    }

    /// Where the unfinished match with these settings is saved.
    #[must_use]
    pub fn path_for(&self, config: &MatchConfig) -> PathBuf {
        let [s, n] = &config.seats;
        self.of_kind(self.root.join("saves")).join(format!(
            "{}-vs-{}-{:016x}.txt",
            slug(&s.name),
            slug(&n.name),
            fnv1a(&identity(config))
        ))
    }

    /// Saved matches of the same two names under other settings (rules,
    /// kinds or starter), which [`SaveStore::load`] does not offer: worth
    /// a mention to players who changed an option.
    #[must_use]
    pub fn other_saves(&self, config: &MatchConfig) -> Vec<PathBuf> {
        let own = self.path_for(config);
        let [s, n] = &config.seats;
        let prefix = format!("{}-vs-{}-", slug(&s.name), slug(&n.name));
        let mut found: Vec<PathBuf> = fs::read_dir(self.own_folder("saves").unwrap_or_default())
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p != &own
                    && p.file_name().and_then(|n| n.to_str()).is_some_and(|name| {
                        name.strip_prefix(&prefix)
                            .is_some_and(|rest| rest.len() == 20 && rest.ends_with(".txt"))
                    })
            })
            .collect();
        found.sort();
        found
    }

    /// The unfinished match with these settings, if one was saved.
    ///
    /// # Errors
    /// [`SaveError::Corrupt`] for a file that cannot be read as this match
    /// (it has been set aside; start a new match), [`SaveError::Io`] when
    /// it cannot be read at all.
    pub fn load(&self, config: &MatchConfig) -> Result<Option<Match>, SaveError> {
        let path = self.path_for(config);
        if let Err(error) = self.own_folder("saves") {
            return Err(SaveError::Io { path, error });
        }
        // Anything but a readable regular file of a sensible size is set
        // aside: a device, a FIFO, a directory or a link planted there
        // would otherwise be met again at every start.
        let text = match files::read_text(&path, MAX_RECORD_BYTES as u64, Follow::Never) {
            Ok(text) => text,
            Err(ReadError::NotFound) => return Ok(None),
            Err(ReadError::Io(error)) => return Err(SaveError::Io { path, error }),
            Err(problem) => return Err(self.set_aside(path, problem.to_string())),
        };
        let checked = Record::parse(&text)
            .map_err(|e| e.to_string())
            .and_then(|record| {
                if let Some(problem) = past_counting(&record) {
                    Err(problem)
                } else if identity(&record.config) == identity(config) {
                    record
                        .to_match(u64::from(record.round))
                        .map_err(|e| e.to_string())
                } else {
                    Err("it belongs to another match".to_string())
                }
            });
        match checked {
            Ok(m) => Ok(Some(m)),
            Err(reason) => Err(self.set_aside(path, reason)),
        }
    }

    fn set_aside(&self, path: PathBuf, reason: String) -> SaveError {
        let stamp = unix_seconds();
        let mut moved_to = None;
        for attempt in 0..100 {
            let suffix = if attempt == 0 {
                format!(".corrupt-{stamp}")
            } else {
                format!(".corrupt-{stamp}-{attempt}")
            };
            let mut to = path.clone().into_os_string();
            to.push(suffix);
            let to = PathBuf::from(to);
            if fs::symlink_metadata(&to).is_ok() {
                continue;
            }
            if fs::rename(&path, &to).is_ok() {
                moved_to = Some(to);
            }
            break;
        }
        SaveError::Corrupt {
            path,
            reason,
            moved_to,
        }
    }

    /// Saves the match as it stands (atomically).
    ///
    /// # Errors
    /// Any I/O failure; the previous save is untouched then.
    pub fn save(&self, m: &Match) -> io::Result<()> {
        self.own_folder("saves")?;
        write_atomic(&self.path_for(m.config()), &Record::of_match(m).to_text())
    }

    /// Forgets the saved match with these settings (the players are done).
    ///
    /// # Errors
    /// Any I/O failure other than there being no save.
    pub fn finish(&self, config: &MatchConfig) -> io::Result<()> {
        self.own_folder("saves")?;
        match fs::remove_file(self.path_for(config)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Keeps the finished round `m` as round `id`: writes its record to
    /// `records/` under a name nothing else has (the id in a comment line,
    /// [`ROUND_ID_LINE`]), and adds it to the statistics with the same id.
    /// Each is tried whatever became of the other. `again` (the round's
    /// end is being completed after a restart, see [`SaveStore::closing`])
    /// first looks for each: a record or statistics line with this id is
    /// not written twice, so a round counts once however often this runs.
    pub fn archive_round_as(&self, m: &Match, id: &str, again: bool) -> Archived {
        let now = unix_seconds();
        let found = if again { self.record_of(m, id) } else { None };
        let record = match found {
            Some(path) => Ok(path),
            None => {
                let [s, n] = &m.config().seats;
                let base = format!(
                    "{}-{}-vs-{}-r{}",
                    timestamp(now),
                    slug(&s.name),
                    slug(&n.name),
                    m.round()
                );
                let text = format!("{}{ROUND_ID_LINE}{id}\n", Record::of_match(m).to_text());
                let records = self.root.join("records");
                files::own_dir(&records)
                    .and_then(|()| files::create_new(&records, &base, "txt", &text))
            }
        };
        let path = self.stats_path();
        let counted = if again {
            super::stats::counts(&path, id).map_err(|e| {
                io::Error::other(format!(
                    "cannot read the statistics {}: {e}",
                    path.display()
                ))
            })
        } else {
            Ok(false)
        };
        let stats = counted.and_then(|counted| {
            if counted {
                Ok(())
            } else {
                super::stats::append_round(&path, m, now, Some(id))
            }
        });
        Archived { record, stats }
    }

    /// The record of round `id` (of `m`'s round number), if one was written.
    fn record_of(&self, m: &Match, id: &str) -> Option<PathBuf> {
        let round = format!("-r{}", m.round());
        record_files(&self.root.join("records"), usize::MAX)
            .into_iter()
            .filter(|path| {
                path.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.contains(&round))
            })
            .find(|path| {
                files::read_text(path, MAX_RECORD_BYTES as u64, Follow::Never)
                    .is_ok_and(|text| round_id(&text) == Some(id))
            })
    }

    /// Where the end of a round of `config`'s match is noted while it is
    /// kept (`saves/…-HASH.closing`): see [`SaveStore::begin_closing`].
    #[must_use]
    pub fn closing_path(&self, config: &MatchConfig) -> PathBuf {
        self.path_for(config).with_extension("closing")
    }

    /// Notes, before anything of it is kept, that the round `finished` is
    /// being kept as round `id`: its id and its record. Until
    /// [`SaveStore::end_closing`], a program that stops (killed, a disk
    /// that fails) leaves the note, and the next one completes the round's
    /// end from it ([`SaveStore::closing`], then
    /// [`SaveStore::archive_round_as`] with `again`).
    ///
    /// # Errors
    /// Any I/O failure.
    pub fn begin_closing(&self, finished: &Match, id: &str) -> io::Result<()> {
        self.own_folder("saves")?;
        write_atomic(
            &self.closing_path(finished.config()),
            &format!("{CLOSING_ID}{id}\n{}", Record::of_match(finished).to_text()),
        )
    }

    /// The round of `config`'s match whose end was being kept when a
    /// program stopped: its id and the finished round, if a note is there
    /// ([`SaveStore::begin_closing`]).
    ///
    /// # Errors
    /// A note that cannot be used, as words: it has been set aside
    /// (`NAME.corrupt-SECONDS`), or removed when even that failed.
    pub fn closing(&self, config: &MatchConfig) -> Result<Option<(String, Match)>, String> {
        let path = self.closing_path(config);
        self.own_folder("saves").map_err(|e| e.to_string())?;
        let text = match files::read_text(&path, MAX_RECORD_BYTES as u64 + 64, Follow::Never) {
            Ok(text) => text,
            Err(ReadError::NotFound) => return Ok(None),
            Err(problem) => return Err(self.set_aside(path, problem.to_string()).to_string()),
        };
        let parsed = text
            .split_once('\n')
            .and_then(|(first, rest)| {
                let id = first.strip_prefix(CLOSING_ID)?;
                let valid = id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit());
                valid.then(|| (id.to_string(), rest))
            })
            .ok_or_else(|| "it has no round id".to_string())
            .and_then(|(id, rest)| {
                let record = Record::parse(rest).map_err(|e| e.to_string())?;
                if identity(&record.config) != identity(config) {
                    return Err("it belongs to another match".to_string());
                }
                let m = record
                    .to_match(u64::from(record.round))
                    .map_err(|e| e.to_string())?;
                if m.outcome().is_none() {
                    return Err("its round is not finished".to_string());
                }
                Ok((id, m))
            });
        parsed
            .map(Some)
            .map_err(|reason| self.set_aside(path, reason).to_string())
    }

    /// Forgets the note of a round's end (it is kept: record, statistics
    /// and the save of the next round).
    ///
    /// # Errors
    /// Any I/O failure other than there being no note.
    pub fn end_closing(&self, config: &MatchConfig) -> io::Result<()> {
        self.own_folder("saves")?;
        match fs::remove_file(self.closing_path(config)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Whether the save of `config`'s match is at round `round` or
    /// before: the round's end being completed moves it on. No save (the
    /// players stopped the match) stays none, and a save that cannot be
    /// read is left for [`SaveStore::load`] to set aside.
    #[must_use]
    pub fn save_is_behind(&self, config: &MatchConfig, round: u32) -> bool {
        let limit = MAX_RECORD_BYTES as u64;
        let text = files::read_text(&self.path_for(config), limit, Follow::Never);
        let saved = text.map(|text| Record::parse(&text).map(|r| r.round));
        matches!(saved, Ok(Ok(saved)) if saved <= round)
    }

    /// Takes the lock of the match with these settings, so that a second
    /// copy of the game cannot save the same match at the same time.
    /// `Ok(None)` when another program holds it. The lock is the operating
    /// system's: it goes when the [`MatchLock`] is dropped or the program
    /// ends in any way, `kill -9` included.
    ///
    /// # Errors
    /// When the lock file cannot be opened (it is not a regular file, or
    /// the directory cannot be written).
    pub fn lock(&self, config: &MatchConfig) -> io::Result<Option<MatchLock>> {
        let name = self.path_for(config).with_extension("lock");
        self.lock_file(&name.file_name().unwrap_or_default().to_string_lossy())
    }

    /// Takes the lock of everything host `name` keeps in this store (its
    /// network match and the note that finds it again,
    /// `locks/network/host-NAME-HASH.lock`): one `mancala host NAME` at a
    /// time per data directory. `Ok(None)` when another program holds it;
    /// otherwise as [`SaveStore::lock`].
    ///
    /// # Errors
    /// As [`SaveStore::lock`].
    pub fn lock_host(&self, name: &str) -> io::Result<Option<MatchLock>> {
        let name = clean_name(name);
        self.lock_file(&format!("host-{}-{:016x}.lock", slug(&name), fnv1a(&name)))
    }

    /// Takes the lock file `file_name` in this store's folder of locks.
    fn lock_file(&self, file_name: &str) -> io::Result<Option<MatchLock>> {
        let dir = self.own_folder("locks")?;
        let file = files::open_lock(&dir.join(file_name))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(MatchLock { _file: file })),
            Err(fs::TryLockError::WouldBlock) => Ok(None),
            Err(fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

/// The comment line that carries a round's id in its record: `# Round id: `
/// and 16 hex digits.
pub const ROUND_ID_LINE: &str = "# Round id: ";

/// The round id a record's text carries on its [`ROUND_ID_LINE`], if any.
#[must_use]
pub fn round_id(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|line| line.strip_prefix(ROUND_ID_LINE))
        .map(str::trim)
        .filter(|id| !id.is_empty())
}

/// The record files in `dir` (`records/`): regular `.txt` files not
/// starting with a dot, at most `limit` of them looked at; none when `dir`
/// is not a real folder (a link to elsewhere is not followed).
#[must_use]
pub fn record_files(dir: &Path, limit: usize) -> Vec<PathBuf> {
    if fs::symlink_metadata(dir).map_or(true, |meta| !meta.is_dir()) {
        return Vec::new();
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .take(limit)
        // Not followed: a link, a folder or a FIFO named like a record is
        // no record.
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.') && n.ends_with(".txt"))
        })
        .collect()
}

/// The first line of a round's closing note, before its id.
const CLOSING_ID: &str = "closing round id: ";

/// A new round id: 16 hex digits from the system's entropy.
#[must_use]
pub fn new_round_id() -> String {
    format!("{:016x}", crate::rng::Rng::from_entropy().next_u64())
}

/// What became of a finished round: see [`SaveStore::archive_round_as`].
#[derive(Debug)]
pub struct Archived {
    /// Where its record was written, or why it was not.
    pub record: io::Result<PathBuf>,
    /// Whether it was added to the statistics.
    pub stats: io::Result<()>,
}

/// The lock of one match, held while a program may save it: see
/// [`SaveStore::lock`].
#[derive(Debug)]
pub struct MatchLock {
    _file: fs::File,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, Seat};
    use crate::players::PlayerKind;
    use crate::rules::{NoTrace, Rules};

    fn temp_root(tag: &str) -> tempfile::TempDir {
        crate::store::files::scratch(&format!("save-{tag}"))
    }

    fn config(north: &str) -> MatchConfig {
        MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new(north, PlayerKind::Human),
            ],
            first: FirstMover::Alternate,
            start: None,
        }
    }

    #[test]
    fn names_become_readable_file_name_parts() {
        assert_eq!(slug("Computer (random)"), "computer_random");
        assert_eq!(slug("Computer (tree:4)"), "computer_tree_4");
        assert_eq!(slug("  Mary  Ann "), "mary_ann");
        assert_eq!(slug("../../etc/passwd"), "etc_passwd");
        assert_eq!(slug("((("), "_");
        assert_eq!(slug("Éva"), "éva");
        assert_eq!(slug(&"ab ".repeat(20)).len(), 23, "cut, no `_` at the end");
    }

    #[test]
    fn timestamps_are_civil_dates() {
        assert_eq!(timestamp(0), "19700101-000000");
        assert_eq!(timestamp(951_782_400), "20000229-000000");
        assert_eq!(timestamp(1_763_780_940), "20251122-030900");
        assert_eq!(timestamp(u64::MAX), "99991231-235959");
    }

    #[test]
    fn a_saved_match_loads_back_and_finish_forgets_it() {
        let scratch = temp_root("roundtrip");
        let root = scratch.path();
        let store = SaveStore::at(root).unwrap();
        let cfg = config("Michael");
        assert!(store.load(&cfg).unwrap().is_none());
        let mut m = Match::new(cfg.clone(), 1);
        for letter in ['c', 'f', 'h'] {
            m.play(Rules::KALAH.pit_by_letter(letter).unwrap(), &mut NoTrace)
                .unwrap();
        }
        store.save(&m).unwrap();
        let back = store.load(&cfg).unwrap().unwrap();
        assert_eq!(back.board(), m.board());
        assert_eq!(back.moves(), m.moves());
        assert!(
            store.load(&config("Bob")).unwrap().is_none(),
            "other names, other save"
        );
        store.finish(&cfg).unwrap();
        assert!(store.load(&cfg).unwrap().is_none());
    }

    #[test]
    fn network_and_local_matches_of_the_same_names_never_meet() {
        let scratch = temp_root("network");
        let local = SaveStore::at(scratch.path()).unwrap();
        let network = local.clone().for_network().unwrap();
        let cfg = config("Michael");
        let played = |letters: &[char]| {
            let mut m = Match::new(cfg.clone(), 1);
            for &letter in letters {
                m.play(Rules::KALAH.pit_by_letter(letter).unwrap(), &mut NoTrace)
                    .unwrap();
            }
            m
        };
        network.save(&played(&['c'])).unwrap();
        assert!(local.load(&cfg).unwrap().is_none(), "network → local");
        local.save(&played(&['c', 'f', 'h'])).unwrap();
        assert_eq!(network.load(&cfg).unwrap().unwrap().moves().len(), 1);
        assert_eq!(local.load(&cfg).unwrap().unwrap().moves().len(), 3);
        assert!(
            local.other_saves(&cfg).is_empty(),
            "{:?}",
            local.other_saves(&cfg)
        );
        // Each holds its own lock.
        let _local_lock = local.lock(&cfg).unwrap().expect("the local lock");
        let _network_lock = network.lock(&cfg).unwrap().expect("the network lock");
        network.finish(&cfg).unwrap();
        assert_eq!(local.load(&cfg).unwrap().unwrap().moves().len(), 3);
        // Local saves stay where they were.
        assert_eq!(
            local.path_for(&cfg).parent(),
            Some(scratch.path().join("saves").as_path())
        );
    }

    #[test]
    fn a_foreign_save_is_set_aside_and_other_settings_are_found() {
        let scratch = temp_root("foreign");
        let root = scratch.path();
        let store = SaveStore::at(root).unwrap();
        let ours = config("Michael");
        let mut other = config("Michael");
        other.first = FirstMover::North;
        let theirs = Match::new(config("Bob"), 1);
        fs::write(store.path_for(&ours), Record::of_match(&theirs).to_text()).unwrap();
        let err = store.load(&ours).unwrap_err();
        assert!(
            err.to_string().contains("it belongs to another match"),
            "{err}"
        );
        assert!(
            store.other_saves(&ours).is_empty(),
            "the foreign file is set aside"
        );
        store.save(&Match::new(other.clone(), 1)).unwrap();
        assert_eq!(store.other_saves(&ours), vec![store.path_for(&other)]);
        assert!(store.other_saves(&other).is_empty());
    }

    #[test]
    fn a_save_past_counting_is_set_aside() {
        let scratch = temp_root("counting");
        let store = SaveStore::at(scratch.path()).unwrap();
        let cfg = config("Michael");
        let text = Record::of_match(&Match::new(cfg.clone(), 1)).to_text();
        for (from, to, why) in [
            ("round: 1", "round: 4294967295", "round number 4294967295"),
            ("round: 1", "round: 1000001", "round number 1000001"),
            (
                "earlier-rounds: south 0,",
                "earlier-rounds: south 4294967295,",
                "tally of earlier rounds",
            ),
        ] {
            assert!(text.contains(from), "{text}");
            fs::write(store.path_for(&cfg), text.replace(from, to)).unwrap();
            let err = store.load(&cfg).unwrap_err();
            assert!(matches!(err, SaveError::Corrupt { .. }), "{err}");
            assert!(err.to_string().contains(why), "{err}");
            assert!(!store.path_for(&cfg).exists(), "set aside");
        }
        fs::write(
            store.path_for(&cfg),
            text.replace("round: 1", &format!("round: {MAX_ROUNDS}")),
        )
        .unwrap();
        assert_eq!(store.load(&cfg).unwrap().unwrap().round(), MAX_ROUNDS);
    }

    #[cfg(unix)]
    #[test]
    fn linked_folders_are_never_written_through() {
        let scratch = temp_root("linked");
        let elsewhere = scratch.path().join("elsewhere");
        let root = scratch.path().join("data");
        fs::create_dir_all(&root).unwrap();
        for name in ["saves", "locks", "records"] {
            fs::create_dir_all(elsewhere.join(name)).unwrap();
            std::os::unix::fs::symlink(elsewhere.join(name), root.join(name)).unwrap();
        }
        let err = SaveStore::at(&root).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        // With `saves` its own, `locks` and `records` are still refused.
        fs::remove_file(root.join("saves")).unwrap();
        let store = SaveStore::at(&root).unwrap();
        let cfg = config("Michael");
        assert!(store.lock(&cfg).is_err());
        let mut m = Match::new(cfg.clone(), 1);
        while m.outcome().is_none() {
            let pit = m.board().legal_moves().next().unwrap();
            m.play(pit, &mut NoTrace).unwrap();
        }
        let archived = store.archive_round_as(&m, &new_round_id(), false);
        assert!(archived.record.is_err());
        assert!(archived.stats.is_ok());
        // A link planted after the start is met at the next use.
        fs::remove_dir_all(root.join("saves")).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("saves"), root.join("saves")).unwrap();
        assert!(store.save(&m).is_err());
        assert!(matches!(store.load(&cfg), Err(SaveError::Io { .. })));
        assert!(store.finish(&cfg).is_err());
        for name in ["saves", "locks", "records"] {
            assert_eq!(
                fs::read_dir(elsewhere.join(name)).unwrap().count(),
                0,
                "nothing written in {name}'s target"
            );
        }
    }

    #[test]
    fn a_corrupt_save_is_set_aside_not_overwritten() {
        let scratch = temp_root("corrupt");
        let root = scratch.path();
        let store = SaveStore::at(root).unwrap();
        let cfg = config("Michael");
        let path = store.path_for(&cfg);
        fs::write(&path, "mancala record 1\npits: 6\nmoves: zz\n").unwrap();
        let err = store.load(&cfg).unwrap_err();
        let SaveError::Corrupt {
            path: p, moved_to, ..
        } = &err
        else {
            panic!("{err}")
        };
        assert_eq!(p, &path);
        let moved_to = moved_to.as_ref().unwrap();
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(
            fs::read_to_string(moved_to).unwrap(),
            "mancala record 1\npits: 6\nmoves: zz\n"
        );
        assert!(!path.exists());
        assert!(store.load(&cfg).unwrap().is_none());
        // A file too large to be a save is set aside without being read.
        fs::write(
            &path,
            vec![b'#'; crate::store::record::MAX_RECORD_BYTES + 1],
        )
        .unwrap();
        let err = store.load(&cfg).unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
        assert!(!path.exists());
    }
}
