//! Every file the game reads or writes goes through here, because every
//! file is untrusted: a record given on the command line, and anything in
//! the data directory, where another program (or person) may have put a
//! device, a FIFO, a directory, a symbolic link or a huge file.
//!
//! - Reading ([`read_text`]): the file is opened without blocking (so a
//!   FIFO never hangs the game), checked *on the opened handle* to be a
//!   regular file (no race between a check and the open), and read through
//!   a size cap (so `/dev/zero` or a file that grows cannot exhaust memory).
//!   Files in the data directory are opened without following a symbolic
//!   link ([`Follow::Never`]).
//! - Replacing ([`write_atomic`]): the text goes to a temporary file
//!   created exclusively under an unpredictable name in the same directory
//!   (so a link planted at a guessable name is never followed), is flushed
//!   to disk, and is renamed over the target, which replaces a link there
//!   rather than writing through it. A crash leaves the old file or the new.
//! - Creating ([`create_new`]): like replacing, but the final name is taken
//!   only if nothing has it (`A`, then `A-2`, ...), atomically, so two
//!   programs writing at the same moment never overwrite each other.
//! - Appending ([`append_line`]): opened without following a link and
//!   without blocking, and only a regular file is written.
//! - Leftovers ([`remove_leftovers`]): temporary files of programs killed
//!   mid-write are removed at the next start, once they are old enough not
//!   to belong to a program still writing. Only names the game makes
//!   itself (they start with [`TEMP_PREFIX`]) are touched: a data
//!   directory shared with other programs keeps their files.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Whether a path's last part may be a symbolic link that is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    /// Follow a link (a file the user named on the command line).
    Allowed,
    /// Refuse a link (a file in the data directory, where nobody but the
    /// game should put anything).
    Never,
}

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// There is no such file.
    NotFound,
    /// Something other than a regular file is there.
    NotRegular {
        /// What is there, as words: "a directory", "a FIFO", ...
        what: &'static str,
    },
    /// The file is larger than the cap.
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    NotText,
    /// Any other failure.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound => f.write_str("there is no such file"),
            ReadError::NotRegular { what } => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge { limit } => {
                write!(f, "it is too large (more than {limit} bytes)")
            }
            ReadError::NotText => f.write_str("it is not text"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// What kind of thing `file_type` is, in words.
fn describe(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// Whether `error` is the refusal to follow a symbolic link.
fn is_link_refused(error: &io::Error) -> bool {
    #[cfg(unix)]
    {
        error.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

/// Opens `path` with `options`, never blocking on a FIFO and, with
/// [`Follow::Never`], never following a link at its last part.
fn open(path: &Path, options: &mut OpenOptions, follow: Follow) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut flags = libc::O_NONBLOCK | libc::O_CLOEXEC;
        if follow == Follow::Never {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    #[cfg(not(unix))]
    let _ = follow;
    options.open(path)
}

/// Opens `path` for reading and checks, on the handle, that it is a
/// regular file.
fn open_regular(path: &Path, follow: Follow) -> Result<File, ReadError> {
    let file = open(path, OpenOptions::new().read(true), follow).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            ReadError::NotFound
        } else if is_link_refused(&e) {
            ReadError::NotRegular {
                what: "a symbolic link",
            }
        } else {
            ReadError::Io(e)
        }
    })?;
    let file_type = file.metadata().map_err(ReadError::Io)?.file_type();
    if !file_type.is_file() {
        return Err(ReadError::NotRegular {
            what: describe(file_type),
        });
    }
    Ok(file)
}

/// `bytes` in lower-case hexadecimal, two digits a byte (names made from
/// hashes, keys).
///
/// ```
/// assert_eq!(mancala::store::files::hex(&[0, 0xab, 7]), "00ab07");
/// ```
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// Reads at most `limit` bytes of the regular file at `path`.
///
/// # Errors
/// A [`ReadError`]: no file, not a regular file, more than `limit` bytes,
/// or an I/O failure.
pub fn read_bytes(path: &Path, limit: u64, follow: Follow) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path, follow)?;
    // Room for the whole file at once (within the cap): a growing buffer
    // would double and copy, holding up to three times a large file
    // (Oware's database: a count's bounds are up to 572 MB).
    let size = file.metadata().map_or(0, |meta| meta.len()).min(limit);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // One byte more than the cap tells a file of exactly `limit` bytes from
    // a larger one without reading the rest.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Reads the regular file at `path` as UTF-8 text, at most `limit` bytes.
///
/// ```
/// use mancala::store::files::{read_text, Follow, ReadError};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("a.txt");
/// std::fs::write(&path, "hello").unwrap();
/// assert_eq!(read_text(&path, 5, Follow::Never).unwrap(), "hello");
/// assert!(matches!(read_text(&path, 4, Follow::Never), Err(ReadError::TooLarge { limit: 4 })));
/// assert!(matches!(read_text(dir.path(), 5, Follow::Allowed), Err(ReadError::NotRegular { .. })));
/// ```
///
/// # Errors
/// As [`read_bytes`], and [`ReadError::NotText`] for bytes that are not
/// UTF-8.
pub fn read_text(path: &Path, limit: u64, follow: Follow) -> Result<String, ReadError> {
    String::from_utf8(read_bytes(path, limit, follow)?).map_err(|_| ReadError::NotText)
}

/// Calls `each` with every line (without its line break, `\n` or
/// `\r\n`) of the regular file at `path`, read a piece at a time: a file
/// of more than `limit` bytes is refused before any line, and a line
/// longer than `max_line` bytes (before its break), or not UTF-8, is
/// read through without being kept in memory and left out, so that one
/// corrupt line costs neither memory nor the lines after it.
///
/// ```
/// use mancala::store::files::{read_lines, Follow};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("a.jsonl");
/// std::fs::write(&path, format!("one\n{}\nthree", "x".repeat(100))).unwrap();
/// let mut lines = Vec::new();
/// read_lines(&path, 1000, 10, Follow::Never, |l| lines.push(l.to_string())).unwrap();
/// assert_eq!(lines, ["one", "three"]);
/// ```
///
/// # Errors
/// As [`read_bytes`] (a file growing past `limit` while read is
/// [`ReadError::TooLarge`] too).
pub fn read_lines(
    path: &Path,
    limit: u64,
    max_line: usize,
    follow: Follow,
    mut each: impl FnMut(&str),
) -> Result<(), ReadError> {
    use io::BufRead as _;
    let file = open_regular(path, follow)?;
    if file.metadata().map_err(ReadError::Io)?.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut reader = io::BufReader::new(file.take(limit.saturating_add(1)));
    let mut line = Vec::new();
    let mut too_long = false;
    let mut total = 0u64;
    loop {
        let buf = reader.fill_buf().map_err(ReadError::Io)?;
        if buf.is_empty() {
            break;
        }
        let end = buf.iter().position(|&b| b == b'\n');
        let piece = &buf[..end.unwrap_or(buf.len())];
        // one byte more than `max_line` for the `\r` of a `\r\n` break
        if too_long || line.len() + piece.len() > max_line.saturating_add(1) {
            too_long = true;
            line.clear();
        } else {
            line.extend_from_slice(piece);
        }
        let used = end.map_or(buf.len(), |at| at + 1);
        reader.consume(used);
        total += used as u64;
        if total > limit {
            return Err(ReadError::TooLarge { limit });
        }
        if end.is_some() {
            let text = line.strip_suffix(b"\r").unwrap_or(&line);
            if !too_long
                && text.len() <= max_line
                && let Ok(text) = std::str::from_utf8(text)
            {
                each(text);
            }
            line.clear();
            too_long = false;
        }
    }
    let text = line.strip_suffix(b"\r").unwrap_or(&line);
    if !too_long
        && !line.is_empty()
        && text.len() <= max_line
        && let Ok(text) = std::str::from_utf8(text)
    {
        each(text);
    }
    Ok(())
}

/// A temporary file next to `target`, created exclusively under an
/// unpredictable name that starts with [`TEMP_PREFIX`] and `NAME.`, and
/// ends with `.tmp`.
fn temp_next_to(target: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}{name}."))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
}

/// How the temporary files of [`write_atomic`] and [`create_new`] start:
/// a prefix of the game's own, so that [`remove_leftovers`] never takes
/// another program's file for one of them.
pub const TEMP_PREFIX: &str = ".mancala-";

/// How the temporary files of [`write_atomic`] and [`create_new`] end.
const TEMP_SUFFIX: &str = ".tmp";

/// Makes a rename in `dir` durable (best effort: not every platform can
/// open a directory).
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes `text` to a fresh temporary file next to `target`, on disk.
fn written_temp(target: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let mut temp = temp_next_to(target)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    Ok(temp)
}

/// Replaces `path` with `text` atomically (see the [module docs](self)).
///
/// # Errors
/// Any I/O failure; `path` is untouched then and no temporary file is left.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    write_atomic_bytes(path, text.as_bytes())
}

/// Replaces `path` with `bytes` atomically, as [`write_atomic`] does text
/// (a file of the game's own that is not text: Oware's endgame database).
///
/// # Errors
/// Any I/O failure; `path` is untouched then and no temporary file is left.
pub fn write_atomic_bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = written_temp(path, bytes)?;
    temp.persist(path).map_err(|e| e.error)?;
    sync_dir(path.parent().unwrap_or(Path::new(".")));
    Ok(())
}

/// Writes `text` under a name that nothing has yet: `dir/BASE.EXT`, else
/// `dir/BASE-2.EXT`, `dir/BASE-3.EXT`, ..., each taken atomically and only
/// if free. Returns the path written.
///
/// # Errors
/// Any I/O failure (no temporary file is left then), or no free name
/// among the first thousand.
pub fn create_new(dir: &Path, base: &str, ext: &str, text: &str) -> io::Result<PathBuf> {
    let mut temp = written_temp(&dir.join(format!("{base}.{ext}")), text.as_bytes())?;
    for attempt in 1..=1000 {
        let path = if attempt == 1 {
            dir.join(format!("{base}.{ext}"))
        } else {
            dir.join(format!("{base}-{attempt}.{ext}"))
        };
        match temp.persist_noclobber(&path) {
            Ok(_) => {
                sync_dir(dir);
                return Ok(path);
            }
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => temp = e.file,
            Err(e) => return Err(e.error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free name for {base}.{ext}"),
    ))
}

/// Appends `line` (which ends with a line break) to the regular file at
/// `path`, creating it if needed; a last line cut short by a crash is
/// ended first, so that it cannot swallow this one.
///
/// # Errors
/// A link or anything but a regular file at `path`, or any I/O failure.
pub fn append_line(path: &Path, line: &str) -> io::Result<()> {
    let mut file = open(
        path,
        OpenOptions::new().read(true).append(true).create(true),
        Follow::Never,
    )
    .map_err(|e| {
        if is_link_refused(&e) {
            io::Error::other("it is a symbolic link; it is left alone")
        } else {
            e
        }
    })?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(io::Error::other(format!(
            "it is {}, not a regular file; it is left alone",
            describe(meta.file_type())
        )));
    }
    let mut text = String::with_capacity(line.len() + 1);
    let len = meta.len();
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            text.push('\n');
        }
    }
    text.push_str(line);
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

/// `error` in words, without the system's error number: what a player
/// can act on ("the disk is full"), else the system's sentence.
#[must_use]
pub fn words(error: &io::Error) -> String {
    use io::ErrorKind as K;
    let said = match error.kind() {
        K::NotFound => "there is no such file or folder",
        K::PermissionDenied => "permission denied",
        K::AlreadyExists => "something else is already there",
        K::StorageFull => "the disk is full",
        K::ReadOnlyFilesystem => "the disk is read-only",
        K::NotADirectory => "a part of the path is a file, not a folder",
        K::IsADirectory => "it is a folder, not a file",
        K::QuotaExceeded => "the disk quota is used up",
        _ => {
            let text = error.to_string();
            return match text.rfind(" (os error ") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
        }
    };
    said.to_string()
}

/// Makes sure the data directory `root` is there: created with its
/// parents when missing. The data directory itself may be a link (to a
/// synced folder, say): the player chose it.
///
/// # Errors
/// When it cannot be made, in words: a file in its place is named as
/// such, with the way out.
pub fn data_root(root: &Path) -> io::Result<()> {
    fs::create_dir_all(root).map_err(|e| {
        if fs::metadata(root).is_ok_and(|m| !m.is_dir()) {
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the data directory is a file, not a folder: move the file, or point MANCALA_DATA_DIR at a folder",
            )
        } else {
            io::Error::new(e.kind(), format!("the data directory cannot be made: {}", words(&e)))
        }
    })
}

/// Makes sure the folder `path` is a folder of its own: creates it when
/// missing (its parent must exist), and refuses a symbolic link or
/// anything else there, so that nothing is written through a link planted
/// in the data directory (its target would be written instead).
///
/// # Errors
/// A link or anything but a folder at `path`, or any I/O failure.
pub fn own_dir(path: &Path) -> io::Result<()> {
    match fs::create_dir(path) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    // `symlink_metadata` looks at the name itself, not at a link's target.
    let file_type = fs::symlink_metadata(path)?.file_type();
    if file_type.is_dir() {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "{} is {}, not a folder; it is left alone",
            path.display(),
            describe(file_type)
        )))
    }
}

/// Opens (creating it if needed) the lock file at `path` for
/// [`File::try_lock`], without following a link or blocking.
///
/// # Errors
/// A link or anything but a regular file at `path`, or any I/O failure.
pub fn open_lock(path: &Path) -> io::Result<File> {
    let file = open(
        path,
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
        Follow::Never,
    )?;
    let file_type = file.metadata()?.file_type();
    if !file_type.is_file() {
        return Err(io::Error::other(format!(
            "{} is {}, not a regular file",
            path.display(),
            describe(file_type)
        )));
    }
    Ok(file)
}

/// How old a temporary file must be before [`remove_leftovers`] takes it
/// for a leftover: far longer than any write takes.
pub const LEFTOVER_AGE: Duration = Duration::from_secs(60);

/// Whether `name` is one of our temporary files: `.mancala-NAME.RANDOM.tmp`
/// (see [`temp_next_to`]); nothing else, whatever it looks like.
fn is_temp_name(name: &str) -> bool {
    name.len() > TEMP_PREFIX.len() + TEMP_SUFFIX.len()
        && name.starts_with(TEMP_PREFIX)
        && name.ends_with(TEMP_SUFFIX)
}

/// Removes the temporary files in `dir` left by programs killed while
/// writing (older than [`LEFTOVER_AGE`]); returns how many. Only regular
/// files with our temporary names are touched.
pub fn remove_leftovers(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let is_ours = entry.file_name().to_str().is_some_and(is_temp_name);
        // `DirEntry::metadata` does not follow a link.
        let old_file = entry.metadata().is_ok_and(|meta| {
            meta.file_type().is_file()
                && meta
                    .modified()
                    .ok()
                    .and_then(|at| now.duration_since(at).ok())
                    .is_some_and(|age| age >= LEFTOVER_AGE)
        });
        if is_ours && old_file && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// A unit test's own temporary folder, `mancala-TAG-XXXXXX`, removed when
/// dropped, also when the test panics, so test runs leave nothing behind.
#[cfg(test)]
pub(crate) fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("mancala-{tag}-"))
        .tempdir()
        .expect("a temporary directory")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line as `read_lines` gives it, of a file holding `bytes`,
    /// with lines of at most `max_line` bytes.
    fn lines_of(bytes: &[u8], max_line: usize) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines");
        std::fs::write(&path, bytes).unwrap();
        let mut lines = Vec::new();
        read_lines(&path, 1 << 20, max_line, Follow::Never, |l| {
            lines.push(l.to_string());
        })
        .unwrap();
        lines
    }

    /// Lines longer than the reader's buffer (8 KiB) come whole; a line
    /// of exactly `max_line` bytes is kept and one a byte longer left out,
    /// as is one not UTF-8, and neither costs the lines after it; `\r\n`
    /// ends a line as `\n` does; the last line needs no line break.
    #[test]
    fn read_lines_keeps_every_good_line_and_only_those() {
        let long = "a".repeat(20_000);
        let text = format!("{long}\nshort\n{long}b\n");
        assert_eq!(lines_of(text.as_bytes(), 20_000), [&*long, "short"]);
        assert_eq!(
            lines_of(text.as_bytes(), 20_001),
            [&*long, "short", &format!("{long}b")]
        );
        let exact = "x".repeat(10);
        let over = "y".repeat(11);
        let text = format!("{exact}\n{over}\nafter\n");
        assert_eq!(lines_of(text.as_bytes(), 10), [&*exact, "after"]);
        // the `\r` of a `\r\n` break is not part of the line's length
        let text = format!("{exact}\r\n{over}\r\nafter\r\n{exact}\r");
        assert_eq!(lines_of(text.as_bytes(), 10), [&*exact, "after", &*exact]);
        let text = format!("{over}\n{over}");
        assert_eq!(lines_of(text.as_bytes(), 10), Vec::<String>::new());
        assert_eq!(
            lines_of(b"good\n\xff\xfe bad\nnext\n", 100),
            ["good", "next"],
            "a line not UTF-8 is left out"
        );
        assert_eq!(lines_of(b"one\r\ntwo\r\n", 100), ["one", "two"]);
        assert_eq!(lines_of(b"one\r\ntwo\r", 100), ["one", "two"]);
        assert_eq!(lines_of(b"one\nlast", 100), ["one", "last"]);
        assert_eq!(lines_of(b"one\n\nthree", 100), ["one", "", "three"]);
        assert_eq!(lines_of(b"", 100), Vec::<String>::new());
    }

    #[test]
    fn a_fifo_a_device_and_a_directory_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = read_text(&fifo, 10, Follow::Allowed).unwrap_err();
            assert!(err.to_string().contains("a FIFO"), "{err}");
        }
        if Path::new("/dev/zero").exists() {
            let err = read_bytes(Path::new("/dev/zero"), 10, Follow::Allowed).unwrap_err();
            assert!(err.to_string().contains("a device"), "{err}");
        }
        let err = read_text(dir.path(), 10, Follow::Allowed).unwrap_err();
        assert!(err.to_string().contains("a directory"), "{err}");
        assert!(matches!(
            read_text(&dir.path().join("none"), 10, Follow::Allowed),
            Err(ReadError::NotFound)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_in_the_data_directory_are_neither_read_nor_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "secret\n").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(read_text(&link, 100, Follow::Allowed).unwrap(), "secret\n");
        let err = read_text(&link, 100, Follow::Never).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(append_line(&link, "more\n").is_err());
        write_atomic(&link, "replaced\n").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "secret\n");
        assert_eq!(fs::read_to_string(&link).unwrap(), "replaced\n");
        assert!(
            !fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_folder_is_not_taken_for_ours() {
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join("own");
        own_dir(&own).unwrap();
        own_dir(&own).unwrap();
        assert!(own.is_dir());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&own, &link).unwrap();
        let err = own_dir(&link).unwrap_err();
        assert!(
            err.to_string().contains("is a symbolic link, not a folder"),
            "{err}"
        );
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        assert!(
            own_dir(&file)
                .unwrap_err()
                .to_string()
                .contains("not a folder")
        );
    }

    #[test]
    fn errors_are_said_in_words_without_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        let err = data_root(&file).unwrap_err().to_string();
        assert!(err.contains("is a file, not a folder"), "{err}");
        let err = data_root(&file.join("below")).unwrap_err().to_string();
        assert!(!err.contains("os error"), "{err}");
        assert_eq!(
            words(&io::Error::from_raw_os_error(libc::ENOSPC)),
            "the disk is full"
        );
        assert!(!words(&io::Error::from_raw_os_error(libc::EIO)).contains("os error"));
    }

    #[test]
    fn new_names_are_never_taken_twice() {
        let dir = tempfile::tempdir().unwrap();
        let a = create_new(dir.path(), "r", "txt", "one").unwrap();
        let b = create_new(dir.path(), "r", "txt", "two").unwrap();
        assert_eq!(a, dir.path().join("r.txt"));
        assert_eq!(b, dir.path().join("r-2.txt"));
        assert_eq!(fs::read_to_string(a).unwrap(), "one");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporary file left"
        );
    }

    #[test]
    fn a_cut_last_line_is_ended_before_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.jsonl");
        fs::write(&path, "{\"cut").unwrap();
        append_line(&path, "whole\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"cut\nwhole\n");
    }

    #[test]
    fn only_old_temporary_files_are_leftovers() {
        assert!(is_temp_name(".mancala-a.txt.x1Y2z3.tmp"));
        // Other programs' temporary files, and earlier versions' names.
        assert!(!is_temp_name(".a.txt.x1Y2z3.tmp"));
        assert!(!is_temp_name(".a.txt.tmp-1234"));
        assert!(!is_temp_name("a.txt"));
        assert!(!is_temp_name(".mancala-.tmp"));
        let dir = tempfile::tempdir().unwrap();
        let made = temp_next_to(&dir.path().join("s.txt")).unwrap();
        let made_name = made.path().file_name().unwrap().to_str().unwrap();
        assert!(is_temp_name(made_name), "{made_name}");
        drop(made);
        let fresh = dir.path().join(".mancala-s.txt.abc.tmp");
        fs::write(&fresh, "x").unwrap();
        assert_eq!(remove_leftovers(dir.path()), 0, "a fresh one may be in use");
        assert!(fresh.exists());
    }
}
