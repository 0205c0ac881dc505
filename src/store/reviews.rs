//! The analysis of the recorded rounds behind the statistics
//! (`mancala stats --analysis`): each round counted in `stats.jsonl` is
//! found in `records/` by its id (the record's `# Round id:` line and the
//! statistics line's `"id"`), analysed ([`Analyst::round_from`], Kalah
//! and Oware alike) and summed up per side ([`RoundLoss`]).
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
//! [`MAX_CACHE_BYTES`] (a larger one is started afresh), a line at a time:
//! a line longer than [`MAX_CACHE_LINE`] is read through but not kept.
//!
//! `file` says which file of `records/` the line was made from (its name,
//! length and time of change) and that file's round id: a file listed
//! with the same name, length and time is taken to hold the same bytes,
//! and is not read again (the statistics' rounds find their record by id,
//! which is inside the file). Only the files the cache does not know are
//! read. A known file is answered by the line that carries its stamp
//! (written once its moves were checked against the record), never by
//! another line for the same bytes; of two lines with one stamp, as of two
//! for one record, the one proven or thought longer (the first of equals). Only regular files are stamped: a
//! link, a folder or a FIFO named like a record is no record. A stamp too
//! long to be one of `records/` is dropped, the figures kept. Lines
//! without `file` (as earlier versions wrote them) are still
//! used, once their record has been read and hashed; the line then
//! written with `file` spares the next run that read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::files::{self, Follow, ReadError, hex};
use super::record::{MAX_RECORD_BYTES, Record};
use super::save::{record_files, round_id};
use super::stats::{RoundLoss, RoundResult};
use crate::analysis::{Analyst, PositionBudget};

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
    /// [`RoundLoss::lost`]. The figures are plain fields, not a
    /// flattened [`RoundLoss`]: flattening makes the parser keep every
    /// unknown field of a line in memory.
    lost: [u32; 2],
    /// [`RoundLoss::moves`].
    moves: [u32; 2],
    /// [`RoundLoss::estimated`].
    estimated: [u32; 2],
    /// The file it was made from, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<FileStamp>,
}

impl From<&CacheLine> for RoundLoss {
    fn from(line: &CacheLine) -> RoundLoss {
        RoundLoss {
            lost: line.lost,
            moves: line.moves,
            estimated: line.estimated,
        }
    }
}

impl CacheLine {
    /// The line for `loss` of the record hashed `record`.
    fn new(record: String, think_ms: u64, loss: RoundLoss, file: Option<FileStamp>) -> CacheLine {
        let RoundLoss {
            lost,
            moves,
            estimated,
        } = loss;
        CacheLine {
            record,
            think_ms,
            lost,
            moves,
            estimated,
            file,
        }
    }

    /// Whether the figures hold together and are good enough for
    /// `think_ms` per position.
    fn sound(&self, think_ms: u64) -> bool {
        let (moves, estimated) = (self.moves, self.estimated);
        let sane = (0..2).all(|i| estimated[i] <= moves[i]);
        let good_enough = estimated == [0, 0] || self.think_ms >= think_ms;
        sane && good_enough
    }

    /// Whether this line answers for a record of `moves` moves analysed
    /// with `think_ms` per position.
    fn serves(&self, moves: usize, think_ms: u64) -> bool {
        let [south, north] = self.moves;
        self.sound(think_ms) && u64::from(south) + u64::from(north) == moves as u64
    }

    /// Which of two lines for one record to keep: the one proven, else
    /// thought about longer, else the one that knows its file.
    fn rank(&self) -> (bool, u64, bool) {
        (self.estimated == [0, 0], self.think_ms, self.file.is_some())
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
    /// The stamp of the regular file at `path` (not a link, a folder, a
    /// FIFO, ...), without reading it; `id` is to be found inside. `None`
    /// when it is not a regular file or its time cannot be had.
    fn of(path: &Path) -> Option<FileStamp> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.is_file() {
            return None;
        }
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
    /// The cache's line made from this very file (same stamp), when the
    /// cache knew the file: it was not read.
    known: Option<CacheLine>,
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
    /// Record files read (to find their id, or to analyse them): what the
    /// tests check a warm cache by.
    files_read: ReadCount,
    cache_path: PathBuf,
    /// The cache is to be written afresh before the next line (it was too
    /// large to read).
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
        let mut files_read = ReadCount::default();
        let records = index_records(&root.join("records"), &known, &mut files_read);
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
    /// to analyse them): the files the cache knows are not. For the tests.
    #[cfg(test)]
    fn files_read(&self) -> usize {
        self.files_read.0
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
        // A file the cache knows is not read again: it is answered by the
        // line made from it (whose moves were checked against the record
        // when it was written), not by another line for the same hash.
        if let Some(line) = &file.known
            && line.sound(think_ms)
        {
            self.counts.cached += 1;
            return Some(RoundLoss::from(line));
        }
        self.files_read.add();
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
            let loss = RoundLoss::from(&line);
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
            .round_from(
                record.start_round(),
                &record.moves,
                &PositionBudget::time(self.think),
                progress,
            )
            .ok()?;
        let loss = RoundLoss::of(&analysis);
        self.counts.analysed += 1;
        self.keep(CacheLine::new(hash, think_ms, loss, file.stamp));
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

/// The files of `records/` the cache knows: (name, length, time) -> the
/// round id inside that file and the line made from it.
type Known = HashMap<(String, u64, u64), (String, CacheLine)>;

/// How many record files were read: counted for the tests only (nothing
/// at all outside them).
#[derive(Debug, Default)]
struct ReadCount(#[cfg(test)] usize);

impl ReadCount {
    /// One more file read.
    fn add(&mut self) {
        #[cfg(test)]
        {
            self.0 += 1;
        }
    }
}

/// The longest cache line kept: a real one is under 400 bytes. A longer
/// one is read through but not kept, so that a corrupt line cannot take
/// memory.
pub const MAX_CACHE_LINE: usize = 4096;

/// The cache's lines by record hash and the files it knows; whether to
/// start the file afresh; why it cannot be used at all, if so.
fn load_cache(path: &Path) -> (HashMap<String, CacheLine>, Known, bool, Option<String>) {
    let mut cache = HashMap::new();
    let mut known = HashMap::new();
    let read = files::read_lines(
        path,
        MAX_CACHE_BYTES,
        MAX_CACHE_LINE,
        Follow::Never,
        |line| {
            take_line(line, &mut cache, &mut known);
        },
    );
    match read {
        Ok(()) => (cache, known, false, None),
        Err(ReadError::NotFound) => (HashMap::new(), HashMap::new(), false, None),
        Err(ReadError::TooLarge { .. }) => (HashMap::new(), HashMap::new(), true, None),
        Err(e) => (
            HashMap::new(),
            HashMap::new(),
            false,
            Some(format!(
                "cannot use the analyses kept in {}: {e}",
                path.display()
            )),
        ),
    }
}

/// Takes one line of the cache file into `cache` (by record hash) and, if
/// it says which file it was made from, `known`; a line that cannot be
/// used is left out.
fn take_line(text: &str, cache: &mut HashMap<String, CacheLine>, known: &mut Known) {
    let Ok(mut line) = serde_json::from_str::<CacheLine>(text) else {
        return;
    };
    if line.record.len() != 64 || !line.record.bytes().all(|b| b.is_ascii_hexdigit()) {
        return;
    }
    // Only ever compared with the names listed in `records/`; a stamp too
    // long for that is dropped, the figures are still good.
    if line
        .file
        .as_ref()
        .is_some_and(|stamp| stamp.id.len() > MAX_ID_BYTES || stamp.name.len() > MAX_NAME_BYTES)
    {
        line.file = None;
    }
    // Of two lines for one file, as of two for one record, the one proven
    // or thought longer (the first of equals).
    if let Some(stamp) = &line.file
        && known
            .get(&stamp.key())
            .is_none_or(|(_, kept)| line.rank() > kept.rank())
    {
        known.insert(stamp.key(), (stamp.id.clone(), line.clone()));
    }
    let better = cache
        .get(&line.record)
        .is_none_or(|kept| line.rank() > kept.rank());
    if better {
        cache.insert(line.record.clone(), line);
    }
}

/// The longest round id and file name taken from the cache.
const MAX_ID_BYTES: usize = 64;
const MAX_NAME_BYTES: usize = 255;

/// Round id -> record file, for the records in `dir` (regular `.txt`
/// files, not links, at most [`MAX_RECORD_FILES`] looked at; unreadable
/// ones skipped), counting in `read` the files read: a file `known` to the cache
/// (same name, length and time) is not read, its id is the cache's.
fn index_records(dir: &Path, known: &Known, read: &mut ReadCount) -> HashMap<String, RecordFile> {
    let mut records = HashMap::new();
    for path in record_files(dir, MAX_RECORD_FILES) {
        let stamp = FileStamp::of(&path);
        let (id, line) = match stamp.as_ref().and_then(|s| known.get(&s.key())) {
            Some((id, line)) => (id.clone(), Some(line.clone())),
            None => {
                read.add();
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
            known: line,
        });
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Analyst;
    use crate::game::{FirstMover, MatchConfig, Seat, Tally};
    use crate::players::PlayerKind;
    use crate::rules::{Game, GameRound, NoTrace, Rules, Side};
    use crate::store::save::ROUND_ID_LINE;
    use std::fs;

    const THINK: Duration = Duration::from_secs(60);

    /// A whole round of Kalah(4,3), each move the `choice`-th legal one
    /// (wrapping), as a record kept under round id `id`.
    fn record_text(id: &str, choice: usize) -> (Record, String) {
        record_text_of(Game::Kalah, Rules::new(4, 3).unwrap(), id, choice)
    }

    /// [`record_text`] of a round of `game` under `rules`.
    fn record_text_of(game: Game, rules: Rules, id: &str, choice: usize) -> (Record, String) {
        let mut round = GameRound::starting(game, rules, None, Side::South);
        let mut moves = Vec::new();
        while !round.position().is_over() {
            let legal: Vec<_> = round.position().legal_moves().collect();
            let pit = legal[(choice + moves.len()) % legal.len()];
            round.play(pit, &mut NoTrace).unwrap();
            moves.push(pit);
        }
        let record = Record {
            config: MatchConfig {
                game,
                rules,
                seats: [
                    Seat::new("Alice", PlayerKind::Human),
                    Seat::new("Bob", PlayerKind::Human),
                ],
                first: FirstMover::South,
                start: None,
            },
            round: 1,
            starter: Side::South,
            earlier: Tally::default(),
            moves,
            swapped: None,
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
            kinds: None,
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
        expected_within(record, THINK)
    }

    /// The figures of `record`'s analysis with `think` per position.
    fn expected_within(record: &Record, think: Duration) -> RoundLoss {
        let analysis = Analyst::new()
            .round_from(
                record.start_round(),
                &record.moves,
                &PositionBudget::time(think),
                |_, _| {},
            )
            .unwrap();
        RoundLoss::of(&analysis)
    }

    #[test]
    fn an_oware_round_is_analysed_and_kept_like_a_kalah_one() {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir(root.path().join("records")).unwrap();
        let (record, text) = record_text_of(Game::Oware, Rules::KALAH, "owa", 1);
        fs::write(root.path().join("records/r0.txt"), text).unwrap();
        // No time at all: each search stops at its first look at the
        // clock, after the same positions on every run (a whole round from
        // 48 seeds is never proven, and a time limit would not repeat).
        let think = Duration::ZERO;
        let mut reviews = Reviews::open(root.path(), think);
        let mut positions = 0;
        let loss = reviews
            .review(&round(Some("owa")), |_, _| positions += 1)
            .expect("an Oware round is analysed");
        assert_eq!(loss, expected_within(&record, think));
        let south = record.moves.len().div_ceil(2);
        assert_eq!(
            loss.moves.map(|m| m as usize),
            [south, record.moves.len() - south]
        );
        assert!(loss.estimated.iter().sum::<u32>() > 0, "{loss:?}");
        assert_eq!(positions, record.moves.len() + 1, "progress told");
        assert_eq!(reviews.counts().analysed, 1);
        // Kept: the next run takes it from the cache.
        let mut again = Reviews::open(root.path(), think);
        let cached = again
            .review(&round(Some("owa")), |_, _| panic!("analysed again"))
            .unwrap();
        assert_eq!((cached, again.counts().cached), (loss, 1));
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
            serde_json::to_string(&CacheLine::new(
                hash.clone(),
                think_ms,
                RoundLoss {
                    lost: [99, 99],
                    moves,
                    estimated,
                },
                None,
            ))
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

    /// Of two lines with one file's stamp, the known file is answered by
    /// the better ranked (here proven), as the record's hash is, not by
    /// whichever comes last in the file.
    #[test]
    fn a_known_file_is_answered_by_its_best_ranked_line() {
        let (root, records) = data_with(&["aaa"]);
        let mut reviews = Reviews::open(root.path(), THINK);
        assert_eq!(
            reviews.review(&round(Some("aaa")), |_, _| {}),
            Some(expected(&records[0]))
        );
        let path = root.path().join(CACHE_FILE);
        let cache = fs::read_to_string(&path).unwrap();
        let mut worse: serde_json::Value = serde_json::from_str(cache.trim()).unwrap();
        assert_eq!(
            worse["estimated"],
            serde_json::json!([0, 0]),
            "proven: {cache}"
        );
        worse["estimated"] = serde_json::json!([1, 1]);
        worse["lost"] = serde_json::json!([99, 99]);
        worse["think_ms"] = serde_json::json!(1_000_000);
        fs::write(&path, format!("{cache}{worse}\n")).unwrap();
        let mut warm = Reviews::open(root.path(), THINK);
        assert_eq!(
            warm.review(&round(Some("aaa")), |_, _| {}),
            Some(expected(&records[0])),
            "the proven line, not the last"
        );
        assert_eq!((warm.files_read(), warm.counts().cached), (0, 1));
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

    /// The hash of record file `i` of `root`, as the cache keys it.
    fn hash_of(root: &Path, i: usize) -> String {
        hex(&Sha256::digest(
            fs::read(root.join(format!("records/r{i}.txt"))).unwrap(),
        ))
    }

    /// A cache line of `loss` for the record hashed `hash`, made from the
    /// file `stamp`, if any.
    fn line_of(hash: &str, loss: RoundLoss, stamp: Option<FileStamp>) -> String {
        let mut line =
            serde_json::to_string(&CacheLine::new(hash.to_string(), 60_000, loss, stamp)).unwrap();
        line.push('\n');
        line
    }

    /// A line far longer than any real one (a corrupt file) is skipped
    /// without being kept, and the lines around it still answer.
    #[test]
    fn a_huge_cache_line_is_skipped_and_the_rest_still_serves() {
        let (root, records) = data_with(&["aaa", "bbb"]);
        // A line that would rank first (thought longest) if it were read.
        let lie = RoundLoss {
            lost: [99, 99],
            ..expected(&records[0])
        };
        let mut huge = line_of(&hash_of(root.path(), 0), lie, None);
        huge.replace_range(..1, &format!("{{\"junk\":\"{}\",", "x".repeat(1 << 20)));
        let huge = huge.replace("\"think_ms\":60000", &format!("\"think_ms\":{}", u64::MAX));
        let cache = [
            line_of(&hash_of(root.path(), 0), expected(&records[0]), None),
            huge,
            line_of(&hash_of(root.path(), 1), expected(&records[1]), None),
        ]
        .concat();
        fs::write(root.path().join(CACHE_FILE), cache).unwrap();
        let (lines, _, afresh, problem) = load_cache(&root.path().join(CACHE_FILE));
        assert_eq!((lines.len(), afresh, problem), (2, false, None));
        let mut reviews = Reviews::open(root.path(), THINK);
        for (i, id) in ["aaa", "bbb"].into_iter().enumerate() {
            let served = reviews.review(&round(Some(id)), |_, _| panic!("analysed again"));
            assert_eq!(served, Some(expected(&records[i])));
        }
        assert_eq!(reviews.counts().cached, 2);
    }

    /// A file the cache knows is answered by the line made from it, not
    /// by another line for the same bytes that ranks higher (proven,
    /// thought longer) but does not fit the record.
    #[test]
    fn a_known_file_is_answered_by_its_own_line() {
        let (root, records) = data_with(&["aaa"]);
        let mut reviews = Reviews::open(root.path(), THINK);
        let loss = reviews.review(&round(Some("aaa")), |_, _| {}).unwrap();
        let n = u32::try_from(records[0].moves.len()).unwrap();
        let planted = CacheLine::new(
            hash_of(root.path(), 0),
            u64::MAX,
            RoundLoss {
                lost: [99, 99],
                moves: [n, 1],
                estimated: [0, 0],
            },
            None,
        );
        let planted = format!("{}\n", serde_json::to_string(&planted).unwrap());
        files::append_line(&root.path().join(CACHE_FILE), &planted).unwrap();
        let mut again = Reviews::open(root.path(), THINK);
        assert_eq!(again.review(&round(Some("aaa")), |_, _| {}), Some(loss));
        assert_eq!((again.files_read(), again.counts().cached), (0, 1));
    }

    /// A stamp too long to be taken back (a round id of 65 bytes) is
    /// dropped, not the figures: the record is read and hashed, and the
    /// line answers.
    #[test]
    fn a_line_with_a_stamp_too_long_keeps_its_figures() {
        let (root, records) = data_with(&["aaa"]);
        let mut stamp = FileStamp::of(&root.path().join("records/r0.txt")).unwrap();
        stamp.id = "a".repeat(MAX_ID_BYTES + 1);
        let line = line_of(&hash_of(root.path(), 0), expected(&records[0]), Some(stamp));
        fs::write(root.path().join(CACHE_FILE), line).unwrap();
        let mut reviews = Reviews::open(root.path(), THINK);
        let served = reviews.review(&round(Some("aaa")), |_, _| panic!("analysed again"));
        assert_eq!(served, Some(expected(&records[0])));
        assert_eq!(reviews.counts().cached, 1);
    }

    /// A link or a folder named like a record is no record, even when a
    /// planted cache line carries its stamp.
    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_records() {
        let (root, records) = data_with(&["aaa"]);
        let elsewhere = tempfile::tempdir().unwrap();
        let (_, text) = record_text("linked", 1);
        let target = elsewhere.path().join("linked.txt");
        fs::write(&target, text).unwrap();
        let link = root.path().join("records/link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let folder = root.path().join("records/folder.txt");
        fs::create_dir(&folder).unwrap();
        let planted = |path: &Path, id: &str| {
            let meta = fs::symlink_metadata(path).unwrap();
            let since = meta
                .modified()
                .unwrap()
                .duration_since(std::time::UNIX_EPOCH);
            let stamp = FileStamp {
                id: id.to_string(),
                name: path.file_name().unwrap().to_str().unwrap().to_string(),
                len: meta.len(),
                modified_ns: u64::try_from(since.unwrap().as_nanos()).unwrap(),
            };
            line_of(&"0".repeat(64), expected(&records[0]), Some(stamp))
        };
        let cache = [planted(&link, "linked"), planted(&folder, "folder")].concat();
        fs::write(root.path().join(CACHE_FILE), cache).unwrap();
        assert_eq!(FileStamp::of(&link), None);
        assert_eq!(FileStamp::of(&folder), None);
        let listed = record_files(&root.path().join("records"), usize::MAX);
        assert_eq!(listed, [root.path().join("records/r0.txt")]);
        let mut reviews = Reviews::open(root.path(), THINK);
        assert_eq!(reviews.review(&round(Some("linked")), |_, _| {}), None);
        assert_eq!(reviews.review(&round(Some("folder")), |_, _| {}), None);
        assert!(reviews.review(&round(Some("aaa")), |_, _| {}).is_some());
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
