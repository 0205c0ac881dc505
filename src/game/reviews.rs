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
//! {"record":"9f86d0…","think_ms":1000,"lost":[3,12],"moves":[15,14],"estimated":[0,2]}
//! ```
//!
//! A line is used when its record is the one read, its move counts match
//! the record's moves, and it is proven (`estimated` all 0) or was thought
//! about at least as long as asked now; anything else, or a line that
//! cannot be read, is recomputed. New lines are appended as each record
//! is done, so that a run cut short keeps what it did. The file is read
//! like every file of the data directory: never through a link, at most
//! [`MAX_CACHE_BYTES`] (a larger one is started afresh).

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
    lost: [u32; 2],
    moves: [u32; 2],
    estimated: [u32; 2],
}

impl CacheLine {
    fn loss(&self) -> RoundLoss {
        RoundLoss {
            lost: self.lost,
            moves: self.moves,
            estimated: self.estimated,
        }
    }

    /// Whether this line answers for a record of `moves` moves analysed
    /// with `think_ms` per position.
    fn serves(&self, moves: usize, think_ms: u64) -> bool {
        let sane = (0..2).all(|i| self.estimated[i] <= self.moves[i]);
        let counted = u64::from(self.moves[0]) + u64::from(self.moves[1]) == moves as u64;
        let good_enough = self.estimated == [0, 0] || self.think_ms >= think_ms;
        sane && counted && good_enough
    }
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
    records: HashMap<String, PathBuf>,
    /// Record hash -> its cached line.
    cache: HashMap<String, CacheLine>,
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
        let (cache, start_afresh, cache_problem) = load_cache(&cache_path);
        Reviews {
            records: index_records(&root.join("records")),
            cache,
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
        let path = self.records.get(round.id.as_deref()?)?;
        let bytes = files::read_bytes(path, MAX_RECORD_BYTES as u64, Follow::Never).ok()?;
        let record = Record::parse(std::str::from_utf8(&bytes).ok()?).ok()?;
        let hash = hex(&Sha256::digest(&bytes));
        let think_ms = u64::try_from(self.think.as_millis()).unwrap_or(u64::MAX);
        if let Some(line) = self.cache.get(&hash)
            && line.serves(record.moves.len(), think_ms)
        {
            self.counts.cached += 1;
            return Some(line.loss());
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
        let line = CacheLine {
            record: hash.clone(),
            think_ms,
            lost: loss.lost,
            moves: loss.moves,
            estimated: loss.estimated,
        };
        self.keep(&line);
        self.cache.insert(hash, line);
        Some(loss)
    }

    /// Adds `line` to the cache file (best effort: a cache that cannot be
    /// written only costs time, and says so once).
    fn keep(&mut self, line: &CacheLine) {
        if self.cache_problem.is_some() {
            return;
        }
        let Ok(mut text) = serde_json::to_string(line) else {
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

/// The cache's lines by record hash; whether to start the file afresh;
/// why it cannot be used at all, if so.
fn load_cache(path: &Path) -> (HashMap<String, CacheLine>, bool, Option<String>) {
    let bytes = match files::read_bytes(path, MAX_CACHE_BYTES, Follow::Never) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return (HashMap::new(), false, None),
        Err(ReadError::TooLarge { .. } | ReadError::NotText) => {
            return (HashMap::new(), true, None);
        }
        Err(e) => {
            return (
                HashMap::new(),
                false,
                Some(format!(
                    "cannot use the analyses kept in {}: {e}",
                    path.display()
                )),
            );
        }
    };
    let mut cache: HashMap<String, CacheLine> = HashMap::new();
    for line in String::from_utf8_lossy(&bytes).lines() {
        let Ok(line) = serde_json::from_str::<CacheLine>(line) else {
            continue;
        };
        if line.record.len() != 64 || !line.record.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        // Of two lines for one record, the one proven or thought longer.
        let better = cache.get(&line.record).is_none_or(|kept| {
            (line.estimated == [0, 0], line.think_ms) > (kept.estimated == [0, 0], kept.think_ms)
        });
        if better {
            cache.insert(line.record.clone(), line);
        }
    }
    (cache, false, None)
}

/// Round id -> record file, for the records in `dir` (regular `.txt`
/// files, not links, at most [`MAX_RECORD_FILES`] looked at; unreadable
/// ones skipped).
fn index_records(dir: &Path) -> HashMap<String, PathBuf> {
    let mut records = HashMap::new();
    for path in record_files(dir, MAX_RECORD_FILES) {
        let Ok(text) = files::read_text(&path, MAX_RECORD_BYTES as u64, Follow::Never) else {
            continue;
        };
        if let Some(id) = round_id(&text) {
            records.entry(id.to_string()).or_insert(path);
        }
    }
    records
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
                lost: [99, 99],
                moves,
                estimated,
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
