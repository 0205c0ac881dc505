//! Oware's endgame database kept in the data directory (RULES.md §7.9):
//! built once, a seed count at a time, and read back at the next start
//! instead of being built again.
//!
//! Each count has two files of its own in `oware-endgame/`:
//! - `values-NN.bin`, what a game reads and probes: the magic
//!   `OWVALUE1`, the count (one byte), its positions and its valued
//!   positions (eight bytes each, little-endian), each valued position's
//!   rank and value ([`CountValues::entry_bytes`]: nine bytes; nearly every
//!   position depends on repetition and has none), and a checksum;
//! - `seeds-NN.bin`, what the next counts are built from: the magic
//!   `OWLEVEL1`, the count, its positions, both bounds of every position
//!   (two bytes each, see [`Builder::level_bytes`]), and a checksum. A
//!   game reads these only to build a count it does not have; they cannot
//!   be rebuilt from the values (a position that depends on repetition
//!   keeps its bounds only here), and the next count needs those of every
//!   count below it (a capture takes two seeds or more). The last count
//!   offered ([`MOST`]) has none: no count is built from it.
//!
//! The checksum is FNV-1a of everything before it. A file is read through
//! the store's one door ([`files::read_bytes`]: no link followed, a size
//! cap), and checked whole (magic, count, length, checksum, every bound,
//! rank and value) before it is used; one that fails is refused, said
//! (by `solve`: [`kept`]; by a game, at its next command: the grower
//! tells the shelf, [`grow_telling`]), built again and replaced, never
//! trusted. A file is written
//! under a temporary name and renamed, so a count half written when the
//! process was killed is never read: growth takes up where it stopped.
//!
//! [`register`] gives the process's [`shelf()`] its grower: the first
//! time something wants the database (the first Oware game), a thread of
//! low priority reads or builds count after count up to [`grow_to`]
//! ([`GROW_TO`] unless the player asked for more with `--oware-db`,
//! [`set_grow_to`]), writing each count it builds, and shows each on the
//! shelf as soon as it has it, so that no game waits. Counts kept past
//! that (grown further once) are read too, never built ([`read_to`]).
//! One process at a time grows a folder (its lock file, `grow.lock`,
//! [`grow_shared`]): another reads what it writes instead of building
//! the same counts.

use std::fs::TryLockError;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::files::{self, Follow};
use crate::players::oware::endgame::{CountValues, ENTRY_BYTES, MAX_DB_SEEDS, checksum, positions};
use crate::players::oware::{Builder, EndgameShelf, OwareEndgame, shelf};

/// The folder, in the data directory, of the database's files.
pub const DIR: &str = "oware-endgame";

/// The most seeds on the board the database is grown to on spare time
/// unless the player asks for more: about 75 s of CPU time and
/// 300 MB at the largest (count 18's build), 173 MB of files
/// (docs/PERFORMANCE.md).
pub const GROW_TO: usize = 18;

/// The most seeds on the board a player may ask the database to be grown
/// to (`--oware-db`): counts 19 to 24 took 23 minutes of one core more,
/// 3.5 GB (3,427,812 KiB) at the peak (count 24's build) and 1.5 GB of files more,
/// grown by a game (docs/PERFORMANCE.md).
pub const MOST: usize = 24;

/// What `--oware-db` asked for ([`set_grow_to`]); [`NOT_ASKED`] when
/// nothing did.
static GROW_TARGET: AtomicUsize = AtomicUsize::new(NOT_ASKED);

/// [`GROW_TARGET`] when no `--oware-db` was given.
const NOT_ASKED: usize = usize::MAX;

/// Grows the database to `n` seeds (at most [`MOST`]) rather than
/// [`GROW_TO`], and reads no further: the command line's `--oware-db N`,
/// before anything wakes the grower.
pub fn set_grow_to(n: usize) {
    GROW_TARGET.store(n.min(MOST), Ordering::Relaxed);
}

/// The count the grower builds to.
#[must_use]
pub fn grow_to() -> usize {
    match GROW_TARGET.load(Ordering::Relaxed) {
        NOT_ASKED => GROW_TO,
        n => n,
    }
}

/// The count the database is read to when its files are there: all that
/// is kept (a player who once grew it further with `--oware-db` keeps
/// the use of it), unless `--oware-db` caps it.
#[must_use]
pub fn read_to() -> usize {
    match GROW_TARGET.load(Ordering::Relaxed) {
        NOT_ASKED => MOST,
        n => n,
    }
}

/// The first bytes of a count's bounds file.
const MAGIC: &[u8; 8] = b"OWLEVEL1";

/// The first bytes of a count's values file.
const VALUES_MAGIC: &[u8; 8] = b"OWVALUE1";

/// The bytes before the bounds: the magic, the count, the positions.
const HEADER: usize = MAGIC.len() + 1 + 8;

/// The bytes before the values: the magic, the count, the positions, the
/// valued positions.
const VALUES_HEADER: usize = VALUES_MAGIC.len() + 1 + 8 + 8;

/// The most valued positions a values file is read with: a cap on what is
/// read from a file that may be planted, and so on the table made of it
/// ([`CountValues`] holds four slots of eight bytes a position, rounded
/// up to a power of two: 8 MiB at most). The most of any count offered is
/// count 24's 126,637 (count 18's, 38,581); this leaves twice that room.
const MOST_VALUED: u64 = 1 << 18;

/// The bounds file of count `n` in `dir`.
#[must_use]
pub fn level_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("seeds-{n:02}.bin"))
}

/// The values file of count `n` in `dir`.
#[must_use]
pub fn values_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("values-{n:02}.bin"))
}

/// A file of `magic`, count `n` and `fields`, its body added by `body`
/// (false: none), then the checksum.
fn file_of(
    magic: &[u8; 8],
    n: usize,
    fields: &[u64],
    body: impl FnOnce(&mut Vec<u8>) -> bool,
) -> Option<Vec<u8>> {
    let mut bytes = magic.to_vec();
    bytes.push(n as u8);
    for field in fields {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    if !body(&mut bytes) {
        return None;
    }
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    Some(bytes)
}

/// The bounds file of count `n` holding `bounds` ([`Builder::level_bytes`]).
#[must_use]
pub fn level_file(n: usize, bounds: &[u8]) -> Vec<u8> {
    file_of(MAGIC, n, &[positions(n)], |bytes| {
        bytes.extend_from_slice(bounds);
        true
    })
    .expect("a body")
}

/// The values file of count `n` holding `values`.
#[must_use]
pub fn values_file(values: &CountValues) -> Vec<u8> {
    let n = values.seeds();
    file_of(VALUES_MAGIC, n, &[positions(n), values.valued()], |bytes| {
        bytes.extend_from_slice(&values.entry_bytes());
        true
    })
    .expect("a body")
}

/// The length of count `n`'s bounds file.
fn file_len(n: usize) -> u64 {
    HEADER as u64 + 2 * positions(n) + 8
}

/// The body of `bytes` (between the header and the checksum) when they
/// are a whole, undamaged file of `magic` and count `n` whose length is
/// `len` (given the header's field after the positions); else what is
/// wrong.
fn checked_body<'a>(
    magic: &[u8; 8],
    n: usize,
    bytes: &'a [u8],
    len: impl Fn(u64) -> Option<u64>,
) -> Result<&'a [u8], String> {
    let header = magic.len() + 1 + 8;
    if bytes.len() < header + 8 || &bytes[..magic.len()] != magic {
        return Err("no header".to_string());
    }
    if usize::from(bytes[magic.len()]) != n
        || bytes[magic.len() + 1..header] != positions(n).to_le_bytes()
    {
        return Err("another seed count".to_string());
    }
    let field = bytes.get(header..header + 8).map_or(0, |f| {
        u64::from_le_bytes(f.try_into().expect("eight bytes"))
    });
    if len(field) != Some(bytes.len() as u64) {
        return Err("wrong length".to_string());
    }
    let (data, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(data).to_le_bytes() != sum {
        return Err("checksum mismatch".to_string());
    }
    Ok(&data[header..])
}

/// The bounds in `bytes`, when they are a whole, undamaged bounds file of
/// count `n`; else what is wrong.
///
/// # Errors
/// The header, the length or the checksum is not that of count `n`'s file.
pub fn level_bounds(n: usize, bytes: &[u8]) -> Result<&[u8], String> {
    checked_body(MAGIC, n, bytes, |_| Some(file_len(n)))
}

/// The values in `bytes`, when they are a whole, undamaged values file of
/// count `n`; else what is wrong.
///
/// # Errors
/// The header, the length, the checksum or an entry is not right.
pub fn level_values(n: usize, bytes: &[u8]) -> Result<CountValues, String> {
    let body = checked_body(VALUES_MAGIC, n, bytes, |valued| {
        if valued > MOST_VALUED {
            return None;
        }
        let entries = valued.checked_mul(ENTRY_BYTES as u64)?;
        (VALUES_HEADER as u64 + 8).checked_add(entries)
    })?;
    CountValues::from_entry_bytes(n, &body[8..]).map_err(|e| e.0)
}

/// Count `n`'s values file in `dir`: `Ok(None)` when there is none, what
/// is wrong with it when it is refused.
fn read_values(dir: &Path, n: usize) -> Result<Option<CountValues>, String> {
    let cap = VALUES_HEADER as u64 + ENTRY_BYTES as u64 * positions(n).min(MOST_VALUED) + 8;
    match files::read_bytes(&values_path(dir, n), cap, Follow::Never) {
        Err(files::ReadError::NotFound) => Ok(None),
        Err(e) => Err(e.to_string()),
        Ok(bytes) => level_values(n, &bytes).map(Some),
    }
}

/// Count `n`'s bounds file in `dir`, read and checked (its bounds are
/// [`level_bounds`] of it): `Ok(None)` when there is none, what is wrong
/// with it when it is refused.
fn read_bounds_checked(dir: &Path, n: usize) -> Result<Option<Vec<u8>>, String> {
    match files::read_bytes(&level_path(dir, n), file_len(n), Follow::Never) {
        Err(files::ReadError::NotFound) => Ok(None),
        Err(e) => Err(e.to_string()),
        Ok(bytes) => match level_bounds(n, &bytes).err() {
            Some(why) => Err(why),
            None => Ok(Some(bytes)),
        },
    }
}

/// [`read_bounds_checked`], `None` when there is none or it is refused.
fn read_bounds(dir: &Path, n: usize) -> Option<Vec<u8>> {
    read_bounds_checked(dir, n).ok().flatten()
}

/// The bounds of a file [`read_bounds`] read.
fn bounds_of(file: &[u8]) -> &[u8] {
    &file[HEADER..file.len() - 8]
}

/// Reads count `n`'s bounds file from `dir` into `builder` (whose next
/// count it must be): `Ok(false)` when there is none, what is wrong when
/// it is refused (either way `builder` is unchanged).
fn read_level(dir: &Path, n: usize, builder: &mut Builder) -> Result<bool, String> {
    match read_bounds_checked(dir, n)? {
        None => Ok(false),
        Some(file) => builder
            .push_level_bytes(bounds_of(&file))
            .map(|_| true)
            .map_err(|e| e.0),
    }
}

/// Count `n`'s values as kept in `dir`: its values file, else (a folder
/// grown before values files were kept) its bounds file's; `Ok(None)`
/// when neither is there, what is wrong when the values file is refused.
fn kept_count(dir: &Path, n: usize) -> Result<Option<CountValues>, String> {
    match read_values(dir, n) {
        Ok(None) => Ok(read_bounds(dir, n)
            .and_then(|file| CountValues::from_level_bytes(n, bounds_of(&file)).ok())),
        other => other,
    }
}

/// The database as far as its files in the data directory go (counts
/// `0..=upto` at most, in order, up to the first missing or refused),
/// read without building or writing anything: for a command that answers
/// at once. A refused file is said in the second part, in words.
#[must_use]
pub fn kept(upto: usize) -> (OwareEndgame, Option<String>) {
    // Reading makes nothing: no data directory, no database.
    let (counts, refused) = super::dirs::data_dir()
        .map(|root| kept_in(&root.join(DIR), upto))
        .unwrap_or_default();
    let db = OwareEndgame::from_counts(counts).unwrap_or_default();
    (db, refused)
}

/// The counts kept in `dir`, `0..=upto` at most, in order, up to the
/// first missing or refused (said in the second part, in words).
fn kept_in(dir: &Path, upto: usize) -> (Vec<Arc<CountValues>>, Option<String>) {
    let mut counts = Vec::new();
    let refused = read_on(dir, upto, &mut counts);
    (counts, refused)
}

/// [`kept_in`], adding to `counts` the counts after those it holds: what
/// is read once is not read again.
fn read_on(dir: &Path, upto: usize, counts: &mut Vec<Arc<CountValues>>) -> Option<String> {
    while counts.len() <= upto.min(MAX_DB_SEEDS) {
        let n = counts.len();
        match kept_count(dir, n) {
            Ok(Some(values)) => counts.push(Arc::new(values)),
            Ok(None) => break,
            Err(why) => {
                return Some(format!(
                    "the Oware endgame database's file {} is not used ({why}); the next Oware game builds it again",
                    values_path(dir, n).display()
                ));
            }
        }
    }
    None
}

/// How one count came to be there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grown {
    /// Read from its values file.
    Read,
    /// Its values taken from its bounds file (kept before values files
    /// were), and their file written.
    FromBounds,
    /// Built, and its files written.
    Built,
    /// Built, but a file could not be written (kept in memory only; the
    /// next start tries again).
    NotWritten,
}

/// Writes count `n`'s bounds from `builder` into `dir` (not for
/// [`MOST`]: nothing is built from it); whether it is there.
fn write_bounds(dir: &Path, n: usize, builder: &Builder) -> bool {
    // The file made with the bounds in place: no copy of them first.
    n >= MOST
        || file_of(MAGIC, n, &[positions(n)], |bytes| {
            builder.extend_level_bytes(n, bytes)
        })
        .is_some_and(|file| files::write_atomic_bytes(&level_path(dir, n), &file).is_ok())
}

/// Writes `values`' file into `dir`; whether it is there.
fn write_values(dir: &Path, values: &CountValues) -> bool {
    files::write_atomic_bytes(&values_path(dir, values.seeds()), &values_file(values)).is_ok()
}

/// A file of the database found damaged or refused while it grows: it is
/// not used, and its count is made again (from its bounds, or built).
/// Displayed, the sentence a player is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The file's seed count.
    pub seeds: usize,
    /// The file's name in the database's folder (`values-05.bin`).
    pub file: String,
    /// What is wrong with it ("checksum mismatch").
    pub why: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Oware's endgame database: the file for {} seeds ({}) could not be used ({}); it is being built again on spare time.",
            self.seeds, self.file, self.why
        )
    }
}

/// The [`Refused`] of count `n`'s file at `path`.
fn refused(n: usize, path: &Path, why: String) -> Refused {
    let file = path
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    Refused {
        seeds: n,
        file,
        why,
    }
}

/// Reads or builds every count from 0 to `upto`, keeping the files in
/// `dir` (none when `None`), then reads on (never building) while the
/// next count's values file is there and sound, up to `read_upto`, and
/// hands the database to `show` after each count, and `tell` each file it
/// refuses and makes again, as it finds it (one a count: the first
/// found). How each count came.
///
/// A count whose values file is there and sound is only read: the bounds
/// of the counts below are read (or built again, when refused) only to
/// build one that is not, and let go once it is.
pub fn grow_telling(
    dir: Option<&Path>,
    upto: usize,
    read_upto: usize,
    mut show: impl FnMut(&OwareEndgame),
    mut tell: impl FnMut(Refused),
) -> Vec<Grown> {
    // The counts told of: a count whose values and bounds are both
    // damaged is said once.
    let mut told = [false; MAX_DB_SEEDS + 1];
    let mut tell = |n: usize, path: PathBuf, why: String| {
        if let Some(done) = told.get_mut(n).filter(|done| !**done) {
            *done = true;
            tell(refused(n, &path, why));
        }
    };
    let dir = dir.filter(|dir| files::own_dir(dir).is_ok());
    if let Some(dir) = dir {
        files::remove_leftovers(dir);
    }
    let mut counts: Vec<Arc<CountValues>> = Vec::new();
    // The bounds of the counts below, made only when a count must be built.
    let mut builder: Option<Builder> = None;
    let mut how = Vec::new();
    while counts.len() <= upto.min(MAX_DB_SEEDS) {
        let n = counts.len();
        let kept = dir.and_then(|dir| match read_values(dir, n) {
            Ok(Some(values)) => Some((values, Grown::Read)),
            values => {
                if let Err(why) = values {
                    tell(n, values_path(dir, n), why);
                }
                let bounds = read_bounds_checked(dir, n)
                    .inspect_err(|why| tell(n, level_path(dir, n), why.clone()))
                    .ok()??;
                let values = CountValues::from_level_bytes(n, bounds_of(&bounds)).ok()?;
                let written = write_values(dir, &values);
                Some((
                    values,
                    if written {
                        Grown::FromBounds
                    } else {
                        Grown::NotWritten
                    },
                ))
            }
        });
        let (values, grown) = match kept {
            Some((values, grown)) => (Arc::new(values), grown),
            None => {
                let builder = builder.get_or_insert_with(Builder::new);
                // The bounds of every count below, from their files or
                // built again.
                while builder.built() < n {
                    let k = builder.built();
                    let read = dir.is_some_and(|dir| {
                        read_level(dir, k, builder)
                            .inspect_err(|why| tell(k, level_path(dir, k), why.clone()))
                            .unwrap_or(false)
                    });
                    if !read {
                        builder.build_next();
                        if let Some(dir) = dir {
                            write_bounds(dir, k, builder);
                        }
                    }
                }
                builder.build_next();
                let values = builder.values(n).expect("the count just built");
                let written = dir
                    .is_some_and(|dir| write_bounds(dir, n, builder) && write_values(dir, &values));
                (
                    values,
                    if written {
                        Grown::Built
                    } else {
                        Grown::NotWritten
                    },
                )
            }
        };
        counts.push(values);
        how.push(grown);
        if let Ok(db) = OwareEndgame::from_counts(counts.clone()) {
            show(&db);
        }
    }
    // Counts kept past the target (grown further once) are read, not built.
    if let Some(dir) = dir {
        while counts.len() <= read_upto.min(MAX_DB_SEEDS) {
            let Ok(Some(values)) = read_values(dir, counts.len()) else {
                break;
            };
            counts.push(Arc::new(values));
            how.push(Grown::Read);
            if let Ok(db) = OwareEndgame::from_counts(counts.clone()) {
                show(&db);
            }
        }
    }
    how
}

/// The database's folder in the data directory, when there is one.
fn data_folder() -> Option<PathBuf> {
    let root = super::dirs::data_dir()?;
    files::data_root(&root).ok()?;
    Some(root.join(DIR))
}

/// The lock file, in the database's folder, of the one process that
/// grows it.
const LOCK: &str = "grow.lock";

/// How often a process that does not grow the database looks again for
/// the counts the one that does has written.
const POLL: Duration = Duration::from_secs(2);

/// [`grow_telling`], by one process at a time per folder: the one that takes
/// `dir`'s lock file grows it; another only reads what is kept (every
/// `poll`, handing each new count to `show`) until it has `upto`, or
/// takes the lock when the grower has gone (ended or killed) and grows
/// the rest itself. Without a folder, or a lock file that cannot be
/// opened, it grows alone (as [`grow_telling`]). The one that grows hands `tell`
/// each file it refuses ([`grow_telling`]). How each count came.
pub fn grow_shared(
    dir: Option<&Path>,
    upto: usize,
    read_upto: usize,
    poll: Duration,
    mut show: impl FnMut(&OwareEndgame),
    tell: impl FnMut(Refused),
) -> Vec<Grown> {
    let Some(dir) = dir.filter(|dir| files::own_dir(dir).is_ok()) else {
        return grow_telling(None, upto, read_upto, show, tell);
    };
    let Ok(lock) = files::open_lock(&dir.join(LOCK)) else {
        return grow_telling(Some(dir), upto, read_upto, show, tell);
    };
    // The counts read so far: each poll reads only the ones after them.
    let mut counts = Vec::new();
    let mut shown = 0;
    loop {
        match lock.try_lock() {
            Err(TryLockError::WouldBlock) => {}
            // Held until the growth ends (the file dropped with it).
            Ok(()) | Err(TryLockError::Error(_)) => {
                return grow_telling(Some(dir), upto, read_upto, show, tell);
            }
        }
        read_on(dir, read_upto.max(upto), &mut counts);
        if counts.len() > shown {
            shown = counts.len();
            if let Ok(db) = OwareEndgame::from_counts(counts.clone()) {
                show(&db);
            }
        }
        if shown > upto.min(MAX_DB_SEEDS) {
            return vec![Grown::Read; shown];
        }
        std::thread::sleep(poll);
    }
}

/// Grows the process's shelf on a thread of low priority; a file found
/// damaged is told on the shelf, for the game's session to say.
fn grow_in_background() {
    let _ = std::thread::Builder::new()
        .name("oware-endgame".to_string())
        .spawn(|| {
            crate::players::lower_thread_priority();
            let shelf: &EndgameShelf = shelf();
            grow_shared(
                data_folder().as_deref(),
                grow_to(),
                read_to(),
                POLL,
                |db| shelf.publish(db.clone()),
                |refused| shelf.tell(refused.to_string()),
            );
        });
}

/// Gives the process's shelf its grower (the command line does this once
/// at start): the database is then kept in the data directory and grown
/// on spare time from the first Oware game on.
pub fn register() {
    shelf().set_grower(grow_in_background);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`grow_telling`] telling nothing.
    fn grow(
        dir: Option<&Path>,
        upto: usize,
        read_upto: usize,
        show: impl FnMut(&OwareEndgame),
    ) -> Vec<Grown> {
        grow_telling(dir, upto, read_upto, show, |_| {})
    }
    use crate::players::oware::Probe;
    use crate::players::oware::endgame::unrank;
    use crate::rules::Side;
    use crate::rules::oware::{OwareBoard, OwareRules};

    /// Every probe of counts `0..=max` in `a` and `b`.
    fn same_probes(a: &OwareEndgame, b: &OwareEndgame, max: usize) {
        for n in 0..=max {
            for index in 0..positions(n) {
                let houses = unrank(index, n);
                let board =
                    OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
                assert_eq!(a.probe(&board), b.probe(&board), "{houses:?}");
                assert_ne!(a.probe(&board), Probe::Outside);
            }
        }
    }

    #[test]
    fn a_database_written_and_read_back_probes_the_same() {
        let dir = files::scratch("owaredb");
        let mut first = OwareEndgame::default();
        let how = grow(Some(dir.path()), 7, 7, |db| first = db.clone());
        assert_eq!(how, vec![Grown::Built; 8]);
        assert_eq!(first, OwareEndgame::build(7));
        let mut again = OwareEndgame::default();
        let how = grow(Some(dir.path()), 7, 7, |db| again = db.clone());
        assert_eq!(how, vec![Grown::Read; 8]);
        same_probes(&first, &again, 7);
        // Grown one count further from the files: the new count is built
        // from bounds read back, and is the one built from scratch.
        let how = grow(Some(dir.path()), 8, 8, |db| again = db.clone());
        assert_eq!(how.last(), Some(&Grown::Built));
        assert_eq!(again, OwareEndgame::build(8));
    }

    /// Counts kept past the target are read (up to `read_upto`), never
    /// built; reading stops at the first missing or refused one.
    #[test]
    fn counts_kept_past_the_target_are_read_not_built() {
        let dir = files::scratch("owaredb-past");
        grow(Some(dir.path()), 8, 8, |_| {});
        let mut db = OwareEndgame::default();
        let how = grow(Some(dir.path()), 6, MOST, |d| db = d.clone());
        assert_eq!(how, vec![Grown::Read; 9]);
        assert_eq!(db, OwareEndgame::build(8));
        assert_eq!(grow(Some(dir.path()), 6, 7, |_| {}).len(), 8);
        // A refused count 8 ends the reading; nothing is built or written.
        std::fs::write(values_path(dir.path(), 8), b"OWVALUE1").unwrap();
        assert_eq!(
            grow(Some(dir.path()), 6, MOST, |_| {}),
            vec![Grown::Read; 8]
        );
        assert_eq!(
            std::fs::read(values_path(dir.path(), 8)).unwrap(),
            b"OWVALUE1"
        );
        assert!(!values_path(dir.path(), 9).exists());
    }

    /// Two growers of one folder at once: one builds, the other reads
    /// what it writes; every count is built once, and both end with the
    /// whole database.
    #[test]
    fn two_growers_of_one_folder_build_each_count_once() {
        let dir = files::scratch("owaredb-two");
        let db_dir = dir.path().join(DIR);
        let start = std::sync::Barrier::new(2);
        let (a, b) = std::thread::scope(|scope| {
            let grower = || {
                start.wait();
                let mut db = OwareEndgame::default();
                let how = grow_shared(
                    Some(&db_dir),
                    9,
                    9,
                    Duration::from_millis(20),
                    |d| db = d.clone(),
                    |_| {},
                );
                (how, db)
            };
            let a = scope.spawn(grower);
            let b = scope.spawn(grower);
            (a.join().unwrap(), b.join().unwrap())
        });
        let built = |how: &[Grown]| how.iter().filter(|&&g| g == Grown::Built).count();
        assert_eq!(built(&a.0) + built(&b.0), 10, "{:?} {:?}", a.0, b.0);
        assert_eq!(a.1, OwareEndgame::build(9));
        assert_eq!(b.1, a.1);
    }

    /// The values of a folder grown before values files were kept come
    /// from its bounds files, and their files are written.
    #[test]
    fn a_folder_of_bounds_only_gets_its_values_without_a_build() {
        let dir = files::scratch("owaredb-old");
        grow(Some(dir.path()), 6, 6, |_| {});
        for n in 0..=6 {
            std::fs::remove_file(values_path(dir.path(), n)).unwrap();
        }
        let mut db = OwareEndgame::default();
        let how = grow(Some(dir.path()), 6, 6, |d| db = d.clone());
        assert_eq!(how, vec![Grown::FromBounds; 7]);
        assert_eq!(db, OwareEndgame::build(6));
        assert!(values_path(dir.path(), 6).exists());
    }

    #[test]
    fn a_damaged_or_truncated_count_is_refused_and_built_again() {
        let dir = files::scratch("owaredb-bad");
        let mut db = OwareEndgame::default();
        grow(Some(dir.path()), 6, 6, |d| db = d.clone());
        let good = std::fs::read(values_path(dir.path(), 5)).unwrap();
        let good_bounds = std::fs::read(level_path(dir.path(), 5)).unwrap();
        // A flipped byte among the values; a file cut short; a value out
        // of range with its checksum made right; another count's file.
        let mut flipped = good.clone();
        flipped[VALUES_HEADER + 3] ^= 1;
        let cut = good[..good.len() - 1].to_vec();
        let mut out_of_range = good[..good.len() - 8].to_vec();
        out_of_range[VALUES_HEADER + 8] = 60;
        let sum = checksum(&out_of_range);
        out_of_range.extend_from_slice(&sum.to_le_bytes());
        let other = std::fs::read(values_path(dir.path(), 4)).unwrap();
        for (bad, bounds_too) in [
            (flipped, false),
            (cut.clone(), false),
            (out_of_range, false),
            (other, false),
            (Vec::new(), false),
            (cut, true),
        ] {
            std::fs::write(values_path(dir.path(), 5), &bad).unwrap();
            if bounds_too {
                std::fs::write(level_path(dir.path(), 5), &bad).unwrap();
            }
            let mut again = OwareEndgame::default();
            let mut told = Vec::new();
            let how = grow_telling(
                Some(dir.path()),
                6,
                6,
                |d| again = d.clone(),
                |refused| told.push(refused),
            );
            // Said once, of the values file, even when both are damaged.
            assert_eq!(told.len(), 1, "{told:?}");
            assert_eq!((told[0].seeds, told[0].file.as_str()), (5, "values-05.bin"));
            let want = if bounds_too {
                Grown::Built
            } else {
                Grown::FromBounds
            };
            assert_eq!(how[5], want, "{:?}", bad.get(..VALUES_HEADER));
            assert_eq!(how[6], Grown::Read);
            assert_eq!(again, db);
            assert_eq!(std::fs::read(values_path(dir.path(), 5)).unwrap(), good);
            assert_eq!(
                std::fs::read(level_path(dir.path(), 5)).unwrap(),
                good_bounds
            );
        }
        // A damaged bounds file is not read while no count is built from
        // it; it is built again when one is, and said.
        std::fs::write(level_path(dir.path(), 5), b"OWLEVEL1").unwrap();
        let mut told = Vec::new();
        let how = grow_telling(Some(dir.path()), 6, 6, |_| {}, |r| told.push(r));
        assert_eq!(how, vec![Grown::Read; 7]);
        assert!(told.is_empty(), "{told:?}");
        let how = grow_telling(Some(dir.path()), 7, 7, |d| db = d.clone(), |r| told.push(r));
        assert_eq!(
            told,
            [Refused {
                seeds: 5,
                file: "seeds-05.bin".to_string(),
                why: "no header".to_string(),
            }]
        );
        assert_eq!(
            told[0].to_string(),
            "Oware's endgame database: the file for 5 seeds (seeds-05.bin) could not be used (no header); it is being built again on spare time."
        );
        assert_eq!(how[7], Grown::Built);
        assert_eq!(db, OwareEndgame::build(7));
        assert_eq!(
            std::fs::read(level_path(dir.path(), 5)).unwrap(),
            good_bounds
        );
    }

    /// A sound values file of count `n` valuing its first `valued`
    /// positions 0.
    fn planted(n: usize, valued: u64) -> Vec<u8> {
        file_of(VALUES_MAGIC, n, &[positions(n), valued], |bytes| {
            for rank in 0..valued {
                bytes.extend_from_slice(&rank.to_le_bytes());
                bytes.push(0);
            }
            true
        })
        .unwrap()
    }

    /// A planted values file claiming more valued positions than any
    /// count has (each entry in order and in range, the checksum right)
    /// is refused, not made into a table of that size.
    #[test]
    fn a_values_file_claiming_too_many_positions_is_refused() {
        let dir = files::scratch("owaredb-huge");
        let n = 12;
        let valued = MOST_VALUED + 1;
        assert!(valued < positions(n));
        let file = planted(n, valued);
        assert!(level_values(n, &file).is_err());
        std::fs::write(values_path(dir.path(), n), &file).unwrap();
        assert!(read_values(dir.path(), n).is_err());
        // One fewer is read.
        let file = planted(n, MOST_VALUED);
        std::fs::write(values_path(dir.path(), n), &file).unwrap();
        assert_eq!(
            read_values(dir.path(), n).unwrap().unwrap().valued(),
            MOST_VALUED
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_a_count_is_not_followed() {
        let dir = files::scratch("owaredb-link");
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, b"not a database").unwrap();
        let db_dir = dir.path().join(DIR);
        std::fs::create_dir(&db_dir).unwrap();
        std::os::unix::fs::symlink(&target, level_path(&db_dir, 0)).unwrap();
        std::os::unix::fs::symlink(&target, values_path(&db_dir, 0)).unwrap();
        let how = grow(Some(&db_dir), 2, 2, |_| {});
        assert_eq!(how[0], Grown::Built);
        assert_eq!(std::fs::read(&target).unwrap(), b"not a database");
    }

    #[test]
    fn without_a_folder_the_database_is_still_built() {
        let mut db = OwareEndgame::default();
        let how = grow(None, 5, 5, |d| db = d.clone());
        assert_eq!(how, vec![Grown::NotWritten; 6]);
        assert_eq!(db, OwareEndgame::build(5));
    }
}
