//! The analysis of the recorded rounds behind the statistics
//! (`mancala stats --analysis`): each round counted in `stats.jsonl` is
//! found in `records/` by its id (the record's `# Round id:` line and the
//! statistics line's `"id"`), analysed ([`Analyst::round`]) and summed up
//! per side ([`RoundLoss`]).
//!
//! # The cache
//! Analysing a record takes seconds (up to the think time for each of its
//! positions), so each is analysed once: the result is kept in
//! `analysis-cache.jsonl` in the data directory, one line per record,
//! keyed by the SHA-256 of the record file's bytes (an edited record is a
//! new record):
//!
//! ```text
//! {"record":"9f86d0…","think_ms":1000,"lost":[3,12],"moves":[15,14],"estimated":[0,2],
//!  "file":{"id":"5e1f…","name":"20260101-120000-Alice-vs-Bob-r1.txt","len":412,"modified_ns":…}}
//! ```
//!
//! A line is used when its record is the one read, its move counts match
//! the record's moves, and it is proven (`estimated` all 0) or was thought
//! about at least as long as asked now; anything else, or a line that
//! cannot be read, is recomputed. New lines are appended as each record
//! is done, so that a run cut short keeps what it did. The file is read
//! like every file of the data directory: never through a link, at most
//! [`MAX_CACHE_BYTES`] (a larger one is started afresh).
//!
//! `file` says which file of `records/` the line was made from (its name,
//! length and time of change) and that file's round id: a file listed
//! with the same name, length and time is taken to hold the same bytes,
//! and is not read again (the statistics' rounds find their record by id,
//! which is inside the file). Only the files the cache does not know are
//! read. Lines without `file` (as earlier versions wrote them) are still
//! used, once their record has been read and hashed; the line then
//! written with `file` spares the next run that read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::analysis::{Analyst, PositionBudget};
use super::files::{self, Follow, ReadError, hex};
use super::record::{MAX_RECORD_BYTES, Record};
use super::save::{record_files, round_id};
use super::stats::{RoundLoss, RoundResult};

/// The cache's file name in the data directory.
pub const CACHE_FILE: &str = "analysis-cache.jsonl";

/// The largest cache read: some 100,000 records.
pub const MAX_CACHE_BYTES: u64 = 16 << 20;

/// The most files of `records/` looked at.
pub const MAX_RECORD_FILES: usize = 100_000;

/// One line of the cache. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct CacheLine {
    /// SHA-256 of the record file, in hexadecimal.
    record: String,
    /// The time each position was given, in milliseconds.
    think_ms: u64,
    /// The figures, as [`RoundLoss`] writes them (`lost`, `moves`,
    /// `estimated` at the top level of the line).
    #[serde(flatten)]
    loss: RoundLoss,
    /// The file it was made from, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<FileStamp>,
}

impl CacheLine {
    /// Whether the figures hold together and are good enough for
    /// `think_ms` per position.
    fn sound(&self, think_ms: u64) -> bool {
        let RoundLoss {
            moves, estimated, ..
        } = self.loss;
        let sane = (0..2).all(|i| estimated[i] <= moves[i]);
        let good_enough = estimated == [0, 0] || self.think_ms >= think_ms;
        sane && good_enough
    }

    /// Whether this line answers for a record of `moves` moves analysed
    /// with `think_ms` per position.
    fn serves(&self, moves: usize, think_ms: u64) -> bool {
        let [south, north] = self.loss.moves;
        self.sound(think_ms) && u64::from(south) + u64::from(north) == moves as u64
    }

    /// Which of two lines for one record to keep: the one proven, else
    /// thought about longer, else the one that knows its file.
    fn rank(&self) -> (bool, u64, bool) {
        (
            self.loss.estimated == [0, 0],
            self.think_ms,
            self.file.is_some(),
        )
    }
}

/// A file of `records/` as listed, and the round id inside it. See the
/// [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct FileStamp {
    /// The round id in the file.
    id: String,
    /// The file's name in `records/`.
    name: String,
    /// Its length in bytes.
    len: u64,
    /// When it was last changed, in nanoseconds since 1970.
    modified_ns: u64,
}

impl FileStamp {
    /// The stamp of the regular file at `path` (not a link), without
    /// reading it; `id` is to be found inside. `None` when its time cannot
    /// be had.
    fn of(path: &Path) -> Option<FileStamp> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        let since = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        Some(FileStamp {
            id: String::new(),
            name: path.file_name()?.to_str()?.to_string(),
            len: meta.len(),
            modified_ns: u64::try_from(since.as_nanos()).unwrap_or(u64::MAX),
        })
    }

    /// The stamp without its id: what a listed file is looked up by.
    fn key(&self) -> (String, u64, u64) {
        (self.name.clone(), self.len, self.modified_ns)
    }
}

/// A record file found for a round id.
#[derive(Clone, Debug)]
struct RecordFile {
    path: PathBuf,
    /// Its stamp (with the id), when its time could be had.
    stamp: Option<FileStamp>,
    /// The hash of its bytes, when the cache knew the file: it was not
    /// read.
    known_hash: Option<String>,
}

/// What became of the rounds looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewCounts {
    /// Rounds analysed in this run.
    pub analysed: usize,
    /// Rounds answered from the cache.
    pub cached: usize,
    /// Rounds with no usable record (no id, no record of that id, or a
    /// record that cannot be read).
    pub left_out: usize,
}

/// Analyses the recorded rounds of one data directory for the statistics.
/// See the [module docs](self).
pub struct Reviews {
    /// Round id -> its record file.
    records: HashMap<String, RecordFile>,
    /// Record hash -> its cached line.
    cache: HashMap<String, CacheLine>,
    /// Record files read (to find their id, or to analyse them).
    files_read: usize,
    cache_path: PathBuf,
    /// The cache is to be written afresh before the next line (it could
    /// not be read as lines: too large, or not text).
    start_afresh: bool,
    /// The cache cannot be written (a link, a folder, …): why.
    cache_problem: Option<String>,
    analyst: Option<Analyst>,
    think: Duration,
    counts: ReviewCounts,
}

impl Reviews {
    /// Reviews of the rounds recorded in the data directory `root`, each
    /// position given `think` (see [`PositionBudget::time`]).
    #[must_use]
    pub fn open(root: &Path, think: Duration) -> Reviews {
        let cache_path = root.join(CACHE_FILE);
        let (cache, known, start_afresh, cache_problem) = load_cache(&cache_path);
        let (records, files_read) = index_records(&root.join("records"), &known);
        Reviews {
            records,
            cache,
            files_read,
            cache_path,
            start_afresh,
            cache_problem,
            analyst: None,
            think,
            counts: ReviewCounts::default(),
        }
    }

    /// What became of the rounds so far.
    #[must_use]
    pub fn counts(&self) -> ReviewCounts {
        self.counts
    }

    /// How many record files were read so far (to find their round id, or
    /// to analyse them): the files the cache knows are not.
    #[must_use]
    pub fn files_read(&self) -> usize {
        self.files_read
    }

    /// Why the cache could not be kept, if it could not.
    #[must_use]
    pub fn cache_problem(&self) -> Option<&str> {
        self.cache_problem.as_deref()
    }

    /// The analysis of `round`, South's figures first (`None`: no usable
    /// record); `progress` is told of each position analysed (done, of).
    pub fn review(
        &mut self,
        round: &RoundResult,
        progress: impl FnMut(usize, usize),
    ) -> Option<RoundLoss> {
        let loss = self.try_review(round, progress);
        if loss.is_none() {
            self.counts.left_out += 1;
        }
        loss
    }

    fn try_review(
        &mut self,
        round: &RoundResult,
        progress: impl FnMut(usize, usize),
    ) -> Option<RoundLoss> {
        let file = self.records.get(round.id.as_deref()?)?.clone();
        let think_ms = u64::try_from(self.think.as_millis()).unwrap_or(u64::MAX);
        // A file the cache knows is not read again.
        if let Some(line) = file.known_hash.and_then(|hash| self.cache.get(&hash))
            && line.sound(think_ms)
        {
            self.counts.cached += 1;
            return Some(line.loss);
        }
        self.files_read += 1;
        let bytes = files::read_bytes(&file.path, MAX_RECORD_BYTES as u64, Follow::Never).ok()?;
        let record = Record::parse(std::str::from_utf8(&bytes).ok()?).ok()?;
        let hash = hex(&Sha256::digest(&bytes));
        if let Some(line) = self.cache.get(&hash)
            && line.serves(record.moves.len(), think_ms)
        {
            self.counts.cached += 1;
            let line = CacheLine {
                file: file.stamp,
                ..line.clone()
            };
            let loss = line.loss;
            // Known by its file from now on (a line from before files
            // were kept, or a file copied or touched).
            if line.file.is_some() {
                self.keep(line);
            }
            return Some(loss);
        }
        let analysis = self
            .analyst
            .get_or_insert_with(Analyst::new)
            .round(
                *record.rules(),
                record.starter,
                &record.moves,
                &PositionBudget::time(self.think),
                progress,
            )
            .ok()?;
        let loss = RoundLoss::of(&analysis);
        self.counts.analysed += 1;
        self.keep(CacheLine {
            record: hash,
            think_ms,
            loss,
            file: file.stamp,
        });
        Some(loss)
    }

    /// Adds `line` to the cache, and to its file (best effort: a cache
    /// that cannot be written only costs time, and says so once).
    fn keep(&mut self, line: CacheLine) {
        let text = serde_json::to_string(&line);
        self.cache.insert(line.record.clone(), line);
        if self.cache_problem.is_some() {
            return;
        }
        let Ok(mut text) = text else {
            return;
        };
        text.push('\n');
        let written = if self.start_afresh {
            self.start_afresh = false;
            files::write_atomic(&self.cache_path, &text)
        } else {
            files::append_line(&self.cache_path, &text)
        };
        if let Err(e) = written {
            self.cache_problem = Some(format!(
                "cannot keep the analyses in {}: {e}",
                self.cache_path.display()
            ));
        }
    }
}

/// The files of `records/` the cache knows: (name, length, time) -> (the
/// round id inside, the hash of the bytes).
type Known = HashMap<(String, u64, u64), (String, String)>;

/// The cache's lines by record hash and the files it knows; whether to
/// start the file afresh; why it cannot be used at all, if so.
fn load_cache(path: &Path) -> (HashMap<String, CacheLine>, Known, bool, Option<String>) {
    let bytes = match files::read_bytes(path, MAX_CACHE_BYTES, Follow::Never) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return (HashMap::new(), HashMap::new(), false, None),
        Err(ReadError::TooLarge { .. } | ReadError::NotText) => {
            return (HashMap::new(), HashMap::new(), true, None);
        }
        Err(e) => {
            return (
                HashMap::new(),
                HashMap::new(),
                false,
                Some(format!(
                    "cannot use the analyses kept in {}: {e}",
                    path.display()
                )),
            );
        }
    };
    let (cache, known) = parse_cache(&String::from_utf8_lossy(&bytes));
    (cache, known, false, None)
}

/// The lines of a cache file's `text` that can be used, by record hash,
/// and the files they were made from.
fn parse_cache(text: &str) -> (HashMap<String, CacheLine>, Known) {
    let mut cache: HashMap<String, CacheLine> = HashMap::new();
    let mut known = HashMap::new();
    for line in text.lines() {
        let Ok(line) = serde_json::from_str::<CacheLine>(line) else {
            continue;
        };
        if line.record.len() != 64 || !line.record.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        if let Some(stamp) = &line.file {
            // Only ever compared with the names listed in `records/`.
            if stamp.id.len() > MAX_ID_BYTES || stamp.name.len() > MAX_NAME_BYTES {
                continue;
            }
            known.insert(stamp.key(), (stamp.id.clone(), line.record.clone()));
        }
        // Of two lines for one record, the one proven or thought longer.
        let better = cache
            .get(&line.record)
            .is_none_or(|kept| line.rank() > kept.rank());
        if better {
            cache.insert(line.record.clone(), line);
        }
    }
    (cache, known)
}

/// The longest round id and file name taken from the cache.
const MAX_ID_BYTES: usize = 64;
const MAX_NAME_BYTES: usize = 255;

/// Round id -> record file, for the records in `dir` (regular `.txt`
/// files, not links, at most [`MAX_RECORD_FILES`] looked at; unreadable
/// ones skipped), and how many were read: a file `known` to the cache
/// (same name, length and time) is not read, its id is the cache's.
fn index_records(dir: &Path, known: &Known) -> (HashMap<String, RecordFile>, usize) {
    let mut records = HashMap::new();
    let mut read = 0;
    for path in record_files(dir, MAX_RECORD_FILES) {
        let stamp = FileStamp::of(&path);
        let (id, known_hash) = match stamp.as_ref().and_then(|s| known.get(&s.key())) {
            Some((id, hash)) => (id.clone(), Some(hash.clone())),
            None => {
                read += 1;
                let Ok(text) = files::read_text(&path, MAX_RECORD_BYTES as u64, Follow::Never)
                else {
                    continue;
                };
                let Some(id) = round_id(&text) else {
                    continue;
                };
                (id.to_string(), None)
            }
        };
        // An id too long for the cache to take back is not kept there.
        let stamp = stamp
            .filter(|_| id.len() <= MAX_ID_BYTES)
            .map(|stamp| FileStamp {
                id: id.clone(),
                ..stamp
            });
        records.entry(id).or_insert(RecordFile {
            path,
            stamp,
            known_hash,
        });
    }
    (records, read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::analysis::Analyst;
    use crate::game::save::ROUND_ID_LINE;
    use crate::game::{FirstMover, MatchConfig, Seat, Tally};
    use crate::players::PlayerKind;
    use crate::rules::{Board, Rules, Side};
    use std::fs;

    const THINK: Duration = Duration::from_secs(60);

    /// A whole round of Kalah(4,3), each move the `choice`-th legal one
    /// (wrapping), as a record kept under round id `id`.
    fn record_text(id: &str, choice: usize) -> (Record, String) {
        let rules = Rules::new(4, 3).unwrap();
        let mut board = Board::starting(rules, Side::South);
        let mut moves = Vec::new();
        while !board.is_over() {
            let legal: Vec<_> = board.legal_moves().collect();
            let pit = legal[(choice + moves.len()) % legal.len()];
            board.play(pit).unwrap();
            moves.push(pit);
        }
        let record = Record {
            config: MatchConfig {
                rules,
                seats: [
                    Seat::new("Alice", PlayerKind::Human),
                    Seat::new("Bob", PlayerKind::Human),
                ],
                first: FirstMover::South,
            },
            round: 1,
            starter: Side::South,
            earlier: Tally::default(),
            moves,
        };
        let text = format!("{}{ROUND_ID_LINE}{id}\n", record.to_text());
        (record, text)
    }

    fn round(id: Option<&str>) -> RoundResult {
        RoundResult {
            time: 1,
            south: "Alice".into(),
            north: "Bob".into(),
            score: [0, 0],
            rules: String::new(),
            id: id.map(str::to_string),
        }
    }

    /// A data directory with the records of `ids` (choices 0, 1, ...).
    fn data_with(ids: &[&str]) -> (tempfile::TempDir, Vec<Record>) {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir(root.path().join("records")).unwrap();
        let records = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let (record, text) = record_text(id, i);
                fs::write(root.path().join(format!("records/r{i}.txt")), text).unwrap();
                record
            })
            .collect();
        (root, records)
    }

    fn expected(record: &Record) -> RoundLoss {
        let analysis = Analyst::new()
            .round(
                *record.rules(),
                record.starter,
                &record.moves,
                &PositionBudget::time(THINK),
                |_, _| {},
            )
            .unwrap();
        RoundLoss::of(&analysis)
    }

    #[test]
    fn each_record_is_analysed_once_then_taken_from_the_cache() {
        let (root, records) = data_with(&["aaa", "bbb"]);
        let mut reviews = Reviews::open(root.path(), THINK);
        let first = reviews.review(&round(Some("aaa")), |_, _| {}).unwrap();
        assert_eq!(first, expected(&records[0]));
        assert!(first.moves[0] > 0 && first.estimated == [0, 0], "{first:?}");
        assert_eq!(reviews.review(&round(None), |_, _| {}), None, "no id");
        assert_eq!(reviews.review(&round(Some("zzz")), |_, _| {}), None);
        let mut positions = 0;
        let second = reviews
            .review(&round(Some("bbb")), |_, _| positions += 1)
            .unwrap();
        assert_eq!(second, expected(&records[1]));
        assert_eq!(positions, records[1].moves.len() + 1, "progress told");
        assert_eq!(
            reviews.counts(),
            ReviewCounts {
                analysed: 2,
                cached: 0,
                left_out: 2
            }
        );
        let cache = fs::read_to_string(root.path().join(CACHE_FILE)).unwrap();
        assert_eq!(cache.lines().count(), 2, "{cache}");

        // A later run: no analysis at all (the progress is never told).
        let mut again = Reviews::open(root.path(), THINK);
        let cached = again
            .review(&round(Some("aaa")), |_, _| panic!("analysed again"))
            .unwrap();
        assert_eq!(cached, first);
        assert_eq!(again.counts().cached, 1);
    }

    #[test]
    fn a_corrupt_or_mismatched_cache_line_is_recomputed() {
        let (root, records) = data_with(&["aaa"]);
        let bytes = fs::read(root.path().join("records/r0.txt")).unwrap();
        let hash = hex(&Sha256::digest(&bytes));
        let lie = |moves: [u32; 2], estimated: [u32; 2], think_ms: u64| {
            serde_json::to_string(&CacheLine {
                record: hash.clone(),
                think_ms,
                loss: RoundLoss {
                    lost: [99, 99],
                    moves,
                    estimated,
                },
                file: None,
            })
            .unwrap()
        };
        let n = u32::try_from(records[0].moves.len()).unwrap();
        for cache in [
            "{\"record\":\"trunc\n\u{0}garbage".to_string(),
            // counts that are not the record's
            lie([n, 1], [0, 0], 60_000),
            // estimates from less thought than asked now
            lie([n - n / 2, n / 2], [1, 0], 10),
            // more estimated moves than moves
            lie([n - n / 2, n / 2], [n, 0], 60_000),
        ] {
            fs::write(root.path().join(CACHE_FILE), &cache).unwrap();
            let mut reviews = Reviews::open(root.path(), THINK);
            let loss = reviews.review(&round(Some("aaa")), |_, _| {}).unwrap();
            assert_eq!(loss, expected(&records[0]), "{cache}");
            assert_eq!(reviews.counts().analysed, 1, "{cache}");
        }
        // A cache that is too large to read is started afresh.
        let big = "x".repeat(usize::try_from(MAX_CACHE_BYTES).unwrap() + 1);
        fs::write(root.path().join(CACHE_FILE), big).unwrap();
        let mut reviews = Reviews::open(root.path(), THINK);
        assert!(reviews.review(&round(Some("aaa")), |_, _| {}).is_some());
        let cache = fs::read_to_string(root.path().join(CACHE_FILE)).unwrap();
        assert_eq!(cache.lines().count(), 1, "afresh");
        assert!(reviews.cache_problem().is_none());
    }

    /// A cache line as versions before `file` wrote it (the format of
    /// `RoundLoss`'s fields at the top level) still answers; the run then
    /// writes one that knows its file, and the next run reads no record.
    #[test]
    fn a_cache_written_before_still_serves_and_learns_its_file() {
        let (root, records) = data_with(&["aaa"]);
        let bytes = fs::read(root.path().join("records/r0.txt")).unwrap();
        let hash = hex(&Sha256::digest(&bytes));
        let loss = expected(&records[0]);
        let old = format!(
            "{{\"record\":\"{hash}\",\"think_ms\":60000,\"lost\":[{},{}],\"moves\":[{},{}],\"estimated\":[{},{}]}}\n",
            loss.lost[0],
            loss.lost[1],
            loss.moves[0],
            loss.moves[1],
            loss.estimated[0],
            loss.estimated[1]
        );
        fs::write(root.path().join(CACHE_FILE), &old).unwrap();
        let mut reviews = Reviews::open(root.path(), THINK);
        let served = reviews
            .review(&round(Some("aaa")), |_, _| panic!("analysed again"))
            .unwrap();
        assert_eq!(served, loss);
        assert_eq!(reviews.counts().cached, 1);
        let cache = fs::read_to_string(root.path().join(CACHE_FILE)).unwrap();
        assert!(cache.starts_with(&old), "the old line stays: {cache}");
        assert!(
            cache
                .lines()
                .nth(1)
                .unwrap()
                .contains("\"file\":{\"id\":\"aaa\""),
            "{cache}"
        );
        let mut again = Reviews::open(root.path(), THINK);
        assert_eq!(again.review(&round(Some("aaa")), |_, _| {}), Some(loss));
        assert_eq!((again.files_read(), again.counts().cached), (0, 1));
    }

    /// With every round in the cache, no record file is read: not to find
    /// its id, not to hash it. A file changed behind the cache's back but
    /// listed the same (name, length, time) is taken as known, which shows
    /// it is not read; one with another time is read again.
    #[test]
    fn with_a_warm_cache_no_record_is_read() {
        let (root, records) = data_with(&["aaa", "bbb"]);
        let mut reviews = Reviews::open(root.path(), THINK);
        for id in ["aaa", "bbb"] {
            assert!(reviews.review(&round(Some(id)), |_, _| {}).is_some());
        }
        assert_eq!(reviews.files_read(), 4, "cold: each found, then analysed");
        let path = root.path().join("records/r0.txt");
        let time = fs::metadata(&path).unwrap().modified().unwrap();
        let len = fs::metadata(&path).unwrap().len();
        fs::write(&path, "x".repeat(usize::try_from(len).unwrap())).unwrap();
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(time).unwrap();
        drop(file);
        let mut warm = Reviews::open(root.path(), THINK);
        let first = warm.review(&round(Some("aaa")), |_, _| {});
        assert_eq!(first, Some(expected(&records[0])), "from the cache, unread");
        assert!(warm.review(&round(Some("bbb")), |_, _| {}).is_some());
        assert_eq!(warm.files_read(), 0);
        assert_eq!(warm.counts().cached, 2);
        // Another time: read again, and this one is no record any more.
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(time + Duration::from_secs(1)).unwrap();
        drop(file);
        let mut touched = Reviews::open(root.path(), THINK);
        assert_eq!(touched.review(&round(Some("aaa")), |_, _| {}), None);
        assert_eq!(touched.files_read(), 1, "the changed file only");
    }

    #[test]
    fn an_edited_record_is_a_new_record() {
        let (root, _) = data_with(&["aaa"]);
        let mut reviews = Reviews::open(root.path(), THINK);
        let first = reviews.review(&round(Some("aaa")), |_, _| {}).unwrap();
        // The same id, other moves: the cache keyed by the old bytes
        // does not answer.
        let (other, text) = record_text("aaa", 1);
        fs::write(root.path().join("records/r0.txt"), text).unwrap();
        let mut reviews = Reviews::open(root.path(), THINK);
        let second = reviews.review(&round(Some("aaa")), |_, _| {}).unwrap();
        assert_eq!(reviews.counts().analysed, 1);
        assert_eq!(second, expected(&other));
        assert_ne!(first, second);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_never_followed() {
        let (root, _) = data_with(&["aaa"]);
        let elsewhere = tempfile::tempdir().unwrap();
        // A record planted as a link is not read.
        let (_, text) = record_text("planted", 1);
        let target = elsewhere.path().join("planted.txt");
        fs::write(&target, text).unwrap();
        std::os::unix::fs::symlink(&target, root.path().join("records/p.txt")).unwrap();
        // The cache as a link is neither read nor written through.
        let cache_target = elsewhere.path().join("cache");
        fs::write(&cache_target, "untouched").unwrap();
        std::os::unix::fs::symlink(&cache_target, root.path().join(CACHE_FILE)).unwrap();
        let mut reviews = Reviews::open(root.path(), THINK);
        assert_eq!(reviews.review(&round(Some("planted")), |_, _| {}), None);
        assert!(reviews.review(&round(Some("aaa")), |_, _| {}).is_some());
        assert!(reviews.cache_problem().is_some());
        assert_eq!(fs::read_to_string(&cache_target).unwrap(), "untouched");
        assert!(
            fs::symlink_metadata(root.path().join(CACHE_FILE))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}
