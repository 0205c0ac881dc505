//! Oware's endgame database kept in the data directory (RULES.md §7.9):
//! built once, a seed count at a time, and read back at the next start
//! instead of being built again.
//!
//! Each count is a file of its own, `oware-endgame/seeds-NN.bin`: the
//! magic `OWLEVEL1`, the count (one byte), its positions (eight bytes,
//! little-endian), both bounds of every position (two bytes each, what
//! the next counts are built from; see [`Builder::level_bytes`]), and an
//! FNV-1a checksum of everything before it. A file is read through the
//! store's one door ([`files::read_bytes`]: no link followed, a size cap
//! of exactly its length), and checked whole (magic, count, length,
//! checksum, every bound) before it is used; one that fails is built
//! again and replaced, never trusted.
//!
//! [`register`] gives the process's [`shelf()`] its grower: the first
//! time something wants the database (the first Oware game), a thread of
//! low priority reads or builds count after count up to [`GROW_TO`],
//! writing each count it builds, and shows each on the shelf as soon as
//! it has it, so that no game waits.

use std::path::{Path, PathBuf};

use super::files::{self, Follow};
use crate::players::oware::endgame::{MAX_DB_SEEDS, checksum, positions};
use crate::players::oware::{Builder, EndgameShelf, OwareEndgame, shelf};

/// The folder, in the data directory, of the database's files.
pub const DIR: &str = "oware-endgame";

/// The most seeds on the board the database is grown to on spare time:
/// about two minutes of CPU time and 300 MB at the largest (count 18's
/// build), 173 MB of files (docs/PERFORMANCE.md).
pub const GROW_TO: usize = 18;

/// The first bytes of a count's file.
const MAGIC: &[u8; 8] = b"OWLEVEL1";

/// The bytes before the bounds: the magic, the count, the positions.
const HEADER: usize = MAGIC.len() + 1 + 8;

/// The file of count `n` in `dir`.
#[must_use]
pub fn level_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("seeds-{n:02}.bin"))
}

/// The file of count `n` holding `bounds` ([`Builder::level_bytes`]).
#[must_use]
pub fn level_file(n: usize, bounds: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER + bounds.len() + 8);
    bytes.extend_from_slice(MAGIC);
    bytes.push(n as u8);
    bytes.extend_from_slice(&positions(n).to_le_bytes());
    bytes.extend_from_slice(bounds);
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// The length of count `n`'s file.
fn file_len(n: usize) -> u64 {
    HEADER as u64 + 2 * positions(n) + 8
}

/// The bounds in `bytes`, when they are a whole, undamaged file of count
/// `n`; else what is wrong.
///
/// # Errors
/// The header, the length or the checksum is not that of count `n`'s file.
pub fn level_bounds(n: usize, bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.len() < HEADER + 8 || &bytes[..MAGIC.len()] != MAGIC {
        return Err("no header".to_string());
    }
    if usize::from(bytes[MAGIC.len()]) != n
        || bytes[MAGIC.len() + 1..HEADER] != positions(n).to_le_bytes()
    {
        return Err("another seed count".to_string());
    }
    if bytes.len() as u64 != file_len(n) {
        return Err("wrong length".to_string());
    }
    let (data, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(data).to_le_bytes() != sum {
        return Err("checksum mismatch".to_string());
    }
    Ok(&data[HEADER..])
}

/// Reads count `n`'s file from `dir` into `builder` (whose next count it
/// must be); false when there is none or it is refused (then `builder` is
/// unchanged).
fn read_level(dir: &Path, n: usize, builder: &mut Builder) -> bool {
    let Ok(bytes) = files::read_bytes(&level_path(dir, n), file_len(n), Follow::Never) else {
        return false;
    };
    level_bounds(n, &bytes).is_ok_and(|bounds| builder.push_level_bytes(bounds).is_ok())
}

/// The database as far as its files in the data directory go (counts
/// `0..=upto` at most, in order, up to the first missing or refused),
/// read without building anything: for a command that answers at once.
#[must_use]
pub fn kept(upto: usize) -> OwareEndgame {
    let mut builder = Builder::new();
    // Reading makes nothing: no data directory, no database.
    if let Some(dir) = super::dirs::data_dir().map(|root| root.join(DIR)) {
        while builder.built() <= upto.min(MAX_DB_SEEDS)
            && read_level(&dir, builder.built(), &mut builder)
        {}
    }
    builder.database()
}

/// How one count came to be there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grown {
    /// Read from its file.
    Read,
    /// Built, and its file written.
    Built,
    /// Built, but its file could not be written (kept in memory only; the
    /// next start tries again).
    NotWritten,
}

/// Reads or builds every count from 0 to `upto` into a fresh builder,
/// keeping the files in `dir` (none when `None`), and hands the database
/// to `show` after each count. How each count came.
pub fn grow(dir: Option<&Path>, upto: usize, mut show: impl FnMut(&Builder)) -> Vec<Grown> {
    let dir = dir.filter(|dir| files::own_dir(dir).is_ok());
    if let Some(dir) = dir {
        files::remove_leftovers(dir);
    }
    let mut builder = Builder::new();
    let mut how = Vec::new();
    while builder.built() <= upto.min(MAX_DB_SEEDS) {
        let n = builder.built();
        let grown = match dir {
            Some(dir) if read_level(dir, n, &mut builder) => Grown::Read,
            _ => {
                builder.build_next();
                let written = dir.is_some_and(|dir| {
                    builder.level_bytes(n).is_some_and(|bounds| {
                        files::write_atomic_bytes(&level_path(dir, n), &level_file(n, &bounds))
                            .is_ok()
                    })
                });
                if written {
                    Grown::Built
                } else {
                    Grown::NotWritten
                }
            }
        };
        how.push(grown);
        show(&builder);
    }
    how
}

/// The database's folder in the data directory, when there is one.
fn data_folder() -> Option<PathBuf> {
    let root = super::dirs::data_dir()?;
    files::data_root(&root).ok()?;
    Some(root.join(DIR))
}

/// Grows the process's shelf on a thread of low priority.
fn grow_in_background() {
    let _ = std::thread::Builder::new()
        .name("oware-endgame".to_string())
        .spawn(|| {
            crate::players::lower_thread_priority();
            let shelf: &EndgameShelf = shelf();
            grow(data_folder().as_deref(), GROW_TO, |builder| {
                shelf.publish(builder.database());
            });
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
        let how = grow(Some(dir.path()), 7, |b| first = b.database());
        assert_eq!(how, vec![Grown::Built; 8]);
        assert_eq!(first, OwareEndgame::build(7));
        let mut again = OwareEndgame::default();
        let how = grow(Some(dir.path()), 7, |b| again = b.database());
        assert_eq!(how, vec![Grown::Read; 8]);
        same_probes(&first, &again, 7);
        // Grown one count further from the files: the new count is built
        // from bounds read back, and is the one built from scratch.
        let how = grow(Some(dir.path()), 8, |b| again = b.database());
        assert_eq!(how.last(), Some(&Grown::Built));
        assert_eq!(again, OwareEndgame::build(8));
    }

    #[test]
    fn a_damaged_or_truncated_count_is_refused_and_built_again() {
        let dir = files::scratch("owaredb-bad");
        let mut db = OwareEndgame::default();
        grow(Some(dir.path()), 6, |b| db = b.database());
        let good = std::fs::read(level_path(dir.path(), 5)).unwrap();
        // A flipped byte among the bounds; a file cut short; a bound out
        // of range with its checksum made right; another count's file.
        let mut flipped = good.clone();
        flipped[HEADER + 100] ^= 1;
        let cut = good[..good.len() - 1].to_vec();
        let mut out_of_range = good[..good.len() - 8].to_vec();
        out_of_range[HEADER] = 60;
        let sum = checksum(&out_of_range);
        out_of_range.extend_from_slice(&sum.to_le_bytes());
        let other = std::fs::read(level_path(dir.path(), 4)).unwrap();
        for bad in [flipped, cut, out_of_range, other, Vec::new()] {
            std::fs::write(level_path(dir.path(), 5), &bad).unwrap();
            let mut again = OwareEndgame::default();
            let how = grow(Some(dir.path()), 6, |b| again = b.database());
            assert_eq!(how[5], Grown::Built, "{:?}", bad.get(..HEADER));
            assert_eq!(how[6], Grown::Read);
            assert_eq!(again, db);
            assert_eq!(std::fs::read(level_path(dir.path(), 5)).unwrap(), good);
        }
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
        let how = grow(Some(&db_dir), 2, |_| {});
        assert_eq!(how[0], Grown::Built);
        assert_eq!(std::fs::read(&target).unwrap(), b"not a database");
    }

    #[test]
    fn without_a_folder_the_database_is_still_built() {
        let mut db = OwareEndgame::default();
        let how = grow(None, 5, |b| db = b.database());
        assert_eq!(how, vec![Grown::NotWritten; 6]);
        assert_eq!(db, OwareEndgame::build(5));
    }
}
