//! A player's puzzle progress, kept in `puzzles.json` in the data
//! directory: the streak (puzzles solved in a row), a puzzle rating
//! (Glicko-2 against each puzzle's own rating, [`Puzzle::rating`]), the
//! next built-in seed, the puzzles found in the player's own records
//! (each record looked at once), and the failed puzzles that come back.
//!
//! # Spaced repetition
//! A failed puzzle comes back after [`FIRST_INTERVAL`] more puzzles; each
//! time it is then solved the wait doubles, and once solved at a wait of
//! more than [`LEARNT_INTERVAL`] it is learnt and leaves the queue. A
//! failure starts it again from the first wait. Waits count puzzles
//! answered, not days, so that they work however often one plays.
//!
//! The file is read through the one door ([`super::files`]): never
//! through a link, at most [`MAX_PROGRESS_BYTES`]; each puzzle in it is
//! checked against the rules (a position that does not read, or values
//! that are not one per legal move, is dropped). A file that cannot be
//! read starts the progress afresh, and says so.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::files::{self, Follow, ReadError};
use super::rating::Rating;
use super::record::{MAX_RECORD_BYTES, Record};
use super::save::record_files;
use crate::analysis::puzzles::{Origin, Puzzle, Puzzler};
use crate::rules::{Pit, Position, Rules};

/// The file's name in the data directory.
pub const PROGRESS_FILE: &str = "puzzles.json";

/// The largest progress file read.
pub const MAX_PROGRESS_BYTES: u64 = 4 << 20;

/// Puzzles answered before a failed one comes back the first time.
pub const FIRST_INTERVAL: u32 = 3;

/// A puzzle solved at a longer wait than this is learnt.
pub const LEARNT_INTERVAL: u32 = 12;

/// The most own puzzles and reviews kept (the oldest go first).
const MAX_KEPT: usize = 2000;

/// The deviation given to a puzzle's rating.
const PUZZLE_DEVIATION: f64 = 150.0;

/// A puzzle as kept: its position, every move's value, where it is from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptPuzzle {
    /// The position in the one-line notation.
    pub position: String,
    /// Each legal move's letter and value, in pit order.
    pub values: Vec<(char, i32)>,
    /// `builtin` or `mine`.
    pub source: String,
    /// The built-in seed, or the record's file name.
    #[serde(default)]
    pub from: String,
    /// An own puzzle's move number, the move played and the player.
    #[serde(default)]
    pub ply: usize,
    #[serde(default)]
    played: char,
    #[serde(default)]
    player: String,
}

impl KeptPuzzle {
    /// `puzzle` as kept.
    #[must_use]
    pub fn of(puzzle: &Puzzle) -> KeptPuzzle {
        let rules = puzzle.board.rules();
        let letter = |pit: Pit| rules.letter(pit).unwrap_or('?');
        let (source, from, ply, played, player) = match &puzzle.origin {
            Origin::Builtin { seed } => ("builtin", seed.to_string(), 0, ' ', String::new()),
            Origin::Mine {
                record,
                ply,
                played,
                player,
            } => (
                "mine",
                record.clone(),
                *ply,
                letter(*played),
                player.clone(),
            ),
        };
        KeptPuzzle {
            position: puzzle.key(),
            values: puzzle.values.iter().map(|&(p, v)| (letter(p), v)).collect(),
            source: source.to_string(),
            from,
            ply,
            played,
            player,
        }
    }

    /// The puzzle, when everything kept is sound: the position reads, and
    /// the values are one per legal move in pit order, within the seeds
    /// on the board.
    #[must_use]
    pub fn puzzle(&self) -> Option<Puzzle> {
        let board = *self.position.parse::<Position>().ok()?.kalah()?;
        let rules = *board.rules();
        let legal: Vec<Pit> = board.legal_moves().collect();
        let seeds: i32 = board.counts().iter().map(|&c| i32::from(c)).sum();
        let mut values = Vec::with_capacity(self.values.len());
        for &(letter, value) in &self.values {
            let pit = rules.pit_by_letter(letter)?;
            if value.abs() > seeds {
                return None;
            }
            values.push((pit, value));
        }
        if values.iter().map(|&(p, _)| p).ne(legal.iter().copied()) || legal.is_empty() {
            return None;
        }
        let origin = if self.source == "mine" {
            Origin::Mine {
                record: self.from.clone(),
                ply: self.ply,
                played: rules.pit_by_letter(self.played)?,
                player: self.player.clone(),
            }
        } else {
            Origin::Builtin {
                seed: self.from.parse().unwrap_or(0),
            }
        };
        Some(Puzzle {
            board,
            values,
            origin,
        })
    }
}

/// A failed puzzle waiting to come back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleReview {
    /// The puzzle.
    pub puzzle: KeptPuzzle,
    /// It is due once this many puzzles have been answered in all.
    pub due: u32,
    /// The wait it was given last, in puzzles.
    pub interval: u32,
}

/// How an answer went, for the words on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answered {
    /// Whether the move was a best one.
    pub solved: bool,
    /// The rating before and after.
    pub rating: (f64, f64),
    /// The streak after.
    pub streak: u32,
    /// A failed puzzle comes back after this many more puzzles.
    pub comes_back: Option<u32>,
}

/// The progress after an answer: "Solved · streak 3 · puzzle rating
/// 1200 → 1235." (a failed puzzle: when it comes back). Here, beside the
/// streak and rating it words, not with the verdict's sentences in
/// `analysis::puzzles`: those are the engine crate's, which cannot name
/// this type.
impl std::fmt::Display for Answered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} · streak {} · puzzle rating {:.0} → {:.0}",
            if self.solved { "Solved" } else { "Missed" },
            self.streak,
            self.rating.0,
            self.rating.1
        )?;
        if let Some(after) = self.comes_back {
            let more = crate::rules::plural(after, "more puzzle");
            write!(f, " · it comes back after {more}")?;
        }
        f.write_str(".")
    }
}

/// The progress kept in [`PROGRESS_FILE`]. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleProgress {
    /// Puzzles solved in a row.
    pub streak: u32,
    /// The longest streak.
    pub best_streak: u32,
    /// Puzzles solved.
    pub solved: u32,
    /// Puzzles failed.
    pub failed: u32,
    /// The puzzle rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Glicko-2's volatility.
    pub volatility: f64,
    /// The next built-in seed to deal, per board (`"6x4 always single
    /// owner"`-like keys: the rules' summary).
    pub next_seed: Vec<(String, u64)>,
    /// Record files already looked at for own puzzles.
    pub scanned: Vec<String>,
    /// Own puzzles not answered yet.
    pub mine: Vec<KeptPuzzle>,
    /// Failed puzzles waiting to come back.
    pub reviews: Vec<PuzzleReview>,
}

impl Default for PuzzleProgress {
    fn default() -> Self {
        let rating = Rating::new();
        PuzzleProgress {
            streak: 0,
            best_streak: 0,
            solved: 0,
            failed: 0,
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
            next_seed: Vec::new(),
            scanned: Vec::new(),
            mine: Vec::new(),
            reviews: Vec::new(),
        }
    }
}

impl PuzzleProgress {
    /// Where the progress is kept under the data directory `root`.
    #[must_use]
    pub fn path_in(root: &Path) -> PathBuf {
        root.join(PROGRESS_FILE)
    }

    /// The progress kept at `path`, and what went wrong reading it (a
    /// missing file is no problem: a new player).
    #[must_use]
    pub fn load(path: &Path) -> (PuzzleProgress, Option<String>) {
        match files::read_text(path, MAX_PROGRESS_BYTES, Follow::Never) {
            Ok(text) => match serde_json::from_str::<PuzzleProgress>(&text) {
                Ok(mut progress) => {
                    progress.sanitise();
                    (progress, None)
                }
                Err(_) => (
                    PuzzleProgress::default(),
                    Some(format!(
                        "{} could not be read; the puzzle progress starts afresh",
                        path.display()
                    )),
                ),
            },
            Err(ReadError::NotFound) => (PuzzleProgress::default(), None),
            Err(e) => (
                PuzzleProgress::default(),
                Some(format!(
                    "{} could not be read ({e}); the puzzle progress starts afresh",
                    path.display()
                )),
            ),
        }
    }

    /// Drops what cannot be sound (a rating that is not a number, puzzles
    /// that do not check), and keeps the lists bounded.
    fn sanitise(&mut self) {
        let fresh = Rating::new();
        if !self.rating.is_finite() || !(0.0..=5000.0).contains(&self.rating) {
            self.rating = fresh.rating;
        }
        if !self.deviation.is_finite() || !(1.0..=350.0).contains(&self.deviation) {
            self.deviation = fresh.deviation;
        }
        if !self.volatility.is_finite() || !(0.0..=1.0).contains(&self.volatility) {
            self.volatility = fresh.volatility;
        }
        self.mine.retain(|p| p.puzzle().is_some());
        self.reviews.retain(|r| r.puzzle.puzzle().is_some());
        self.mine.truncate(MAX_KEPT);
        self.reviews.truncate(MAX_KEPT);
        self.scanned.truncate(100_000);
    }

    /// Writes the progress to `path` (atomically).
    ///
    /// # Errors
    /// Any I/O failure; the file is untouched then.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        files::write_atomic(path, &text)
    }

    /// Puzzles answered in all.
    #[must_use]
    pub fn answered(&self) -> u32 {
        self.solved + self.failed
    }

    /// The next built-in seed on a board of `rules_key`.
    #[must_use]
    pub fn seed_for(&self, rules_key: &str) -> u64 {
        self.next_seed
            .iter()
            .find(|(k, _)| k == rules_key)
            .map_or(1, |&(_, s)| s)
    }

    /// Notes that the built-in seeds up to `seed` were dealt on `rules_key`.
    pub fn dealt(&mut self, rules_key: &str, seed: u64) {
        match self.next_seed.iter_mut().find(|(k, _)| k == rules_key) {
            Some(entry) => entry.1 = entry.1.max(seed + 1),
            None => self.next_seed.push((rules_key.to_string(), seed + 1)),
        }
    }

    /// The review due now, if any (the longest overdue first), taken out
    /// of the queue.
    pub fn take_due(&mut self) -> Option<PuzzleReview> {
        let now = self.answered();
        let i = (0..self.reviews.len())
            .filter(|&i| self.reviews[i].due <= now)
            .min_by_key(|&i| self.reviews[i].due)?;
        Some(self.reviews.remove(i))
    }

    /// Records the answer to `puzzle`: the streak, the rating, and the
    /// queue of reviews (`review` is the puzzle's place in the queue when
    /// it came back from there).
    pub fn answer(
        &mut self,
        puzzle: &Puzzle,
        solved: bool,
        review: Option<&PuzzleReview>,
    ) -> Answered {
        let before = self.rating;
        let rating = Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
            rounds: 0,
        }
        .after(
            puzzle.rating(),
            PUZZLE_DEVIATION,
            if solved { 1.0 } else { 0.0 },
        );
        self.rating = rating.rating;
        self.deviation = rating.deviation;
        self.volatility = rating.volatility;
        let key = puzzle.key();
        self.mine.retain(|p| p.position != key);
        self.reviews.retain(|r| r.puzzle.position != key);
        let mut comes_back = None;
        if solved {
            self.solved += 1;
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
            if let Some(review) = review {
                let interval = review.interval * 2;
                if interval <= LEARNT_INTERVAL {
                    self.reviews.push(PuzzleReview {
                        puzzle: review.puzzle.clone(),
                        due: self.answered() + interval,
                        interval,
                    });
                }
            }
        } else {
            self.failed += 1;
            self.streak = 0;
            comes_back = Some(FIRST_INTERVAL);
            self.reviews.push(PuzzleReview {
                puzzle: KeptPuzzle::of(puzzle),
                due: self.answered() + FIRST_INTERVAL,
                interval: FIRST_INTERVAL,
            });
            if self.reviews.len() > MAX_KEPT {
                self.reviews.remove(0);
            }
        }
        Answered {
            solved,
            rating: (before, self.rating),
            streak: self.streak,
            comes_back,
        }
    }
}

/// The most record files looked at for own puzzles in one run (the
/// newest first; the rest on later runs).
pub const MAX_SCAN: usize = 20;

/// A puzzle dealt to the player.
#[derive(Clone, Debug)]
pub struct Dealt {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its place in the review queue, when it came back from there.
    pub review: Option<PuzzleReview>,
}

/// Which puzzles to deal and where they are kept: the puzzles of the
/// player's own rounds first (those due again before them), then built-in
/// ones.
#[derive(Debug)]
pub struct Trainer {
    progress: PuzzleProgress,
    /// Where the progress is kept (`None`: nowhere, a run without a data
    /// directory).
    path: Option<PathBuf>,
    records: Option<PathBuf>,
    puzzler: Puzzler,
    /// The built-in puzzles' board.
    rules: Rules,
    /// Own puzzles only of these rules (`None`: of any).
    only: Option<Rules>,
    /// Only own puzzles.
    mine_only: bool,
    /// The next built-in seed when given on the command line (the kept
    /// one is not moved on then).
    seed: Option<u64>,
}

impl Trainer {
    /// The trainer of the data directory `root` (`None`: nothing kept),
    /// dealing built-in puzzles on `rules` (from `seed` when given), own
    /// puzzles of `only`'s rules when given, and only own ones with
    /// `mine_only`. Also says what went wrong reading the progress.
    #[must_use]
    pub fn open(
        root: Option<&Path>,
        rules: Rules,
        only: Option<Rules>,
        mine_only: bool,
        seed: Option<u64>,
    ) -> (Trainer, Option<String>) {
        let path = root.map(PuzzleProgress::path_in);
        let (progress, problem) = match &path {
            Some(path) => PuzzleProgress::load(path),
            None => (PuzzleProgress::default(), None),
        };
        let trainer = Trainer {
            progress,
            path,
            records: root.map(|r| r.join("records")),
            puzzler: Puzzler::new(),
            rules,
            only,
            mine_only,
            seed,
        };
        (trainer, problem)
    }

    /// The progress so far.
    #[must_use]
    pub fn progress(&self) -> &PuzzleProgress {
        &self.progress
    }

    /// Looks through the record files not looked at yet (at most
    /// [`MAX_SCAN`], the newest first) for own puzzles; `each` is told
    /// before each file (its number, of how many). Returns how many
    /// puzzles were found, and what could not be kept.
    pub fn scan(&mut self, mut each: impl FnMut(usize, usize)) -> (usize, Option<String>) {
        let Some(dir) = &self.records else {
            return (0, None);
        };
        let mut names: Vec<(String, PathBuf)> = record_files(dir, MAX_SCAN_FILES)
            .into_iter()
            .filter_map(|p| Some((p.file_name()?.to_str()?.to_string(), p)))
            .filter(|(name, _)| !self.progress.scanned.contains(name))
            .collect();
        // record names start with the date: the newest last
        names.sort();
        names.reverse();
        names.truncate(MAX_SCAN);
        let total = names.len();
        let mut found = 0;
        for (i, (name, path)) in names.into_iter().enumerate() {
            each(i + 1, total);
            let record = files::read_text(&path, MAX_RECORD_BYTES as u64, Follow::Never)
                .ok()
                .and_then(|text| Record::parse(&text).ok());
            // The puzzles are Kalah's (its solver finds them).
            if let Some(record) = record
                && record.config.game == crate::rules::Game::Kalah
                && let Ok(stepper) = record.stepper()
            {
                let puzzles = self.puzzler.from_round(
                    stepper.boards(),
                    &record.moves,
                    &record.seats().map(Clone::clone),
                    &name,
                );
                found += puzzles.len();
                for puzzle in &puzzles {
                    let kept = KeptPuzzle::of(puzzle);
                    if !self.progress.mine.contains(&kept) {
                        self.progress.mine.push(kept);
                    }
                }
            }
            self.progress.scanned.push(name);
        }
        if total == 0 {
            return (0, None);
        }
        (found, self.save().err())
    }

    /// Whether `puzzle` is one this trainer deals (its board's rules).
    fn wanted(&self, puzzle: &Puzzle) -> bool {
        self.only.is_none_or(|rules| *puzzle.board.rules() == rules)
    }

    /// The own puzzles kept (of the rules asked for), in the order found.
    #[must_use]
    pub fn mine(&self) -> Vec<Puzzle> {
        self.progress
            .mine
            .iter()
            .filter_map(KeptPuzzle::puzzle)
            .filter(|p| self.wanted(p))
            .collect()
    }

    /// `count` built-in puzzles from the seed given (else 1), for a list.
    pub fn builtins(&mut self, count: usize) -> Vec<Puzzle> {
        let seed = self.seed.unwrap_or(1);
        self.puzzler.builtins(self.rules, seed, count)
    }

    /// The next puzzle: a failed one due again, else an own one, else
    /// (unless only own ones are wanted) a built-in one; `None` when
    /// there is none left.
    pub fn deal(&mut self) -> Option<Dealt> {
        while let Some(review) = self.progress.take_due() {
            if let Some(puzzle) = review.puzzle.puzzle()
                && self.wanted(&puzzle)
            {
                return Some(Dealt {
                    puzzle,
                    review: Some(review),
                });
            }
            // of other rules: it waits for a run on them
            let mut later = review;
            later.due += 1;
            self.progress.reviews.push(later);
            if self.progress.take_due().is_none() {
                break;
            }
        }
        if let Some(puzzle) = self.mine().into_iter().next() {
            return Some(Dealt {
                puzzle,
                review: None,
            });
        }
        if self.mine_only {
            return None;
        }
        let key = self.rules.to_string();
        let start = self.seed.unwrap_or_else(|| self.progress.seed_for(&key));
        for seed in start..start.saturating_add(20) {
            if let Some(puzzle) = self.puzzler.builtin(self.rules, seed) {
                match &mut self.seed {
                    Some(next) => *next = seed + 1,
                    None => self.progress.dealt(&key, seed),
                }
                return Some(Dealt {
                    puzzle,
                    review: None,
                });
            }
        }
        None
    }

    /// The player answered `pit` to `dealt`: the progress is updated and
    /// kept. Returns how it went, and what could not be kept.
    pub fn answer(&mut self, dealt: &Dealt, pit: Pit) -> (Answered, Option<String>) {
        let solved = dealt.puzzle.loss_of(pit) == Some(0);
        let answered = self
            .progress
            .answer(&dealt.puzzle, solved, dealt.review.as_ref());
        (answered, self.save().err())
    }

    /// The best line from the puzzle's position, at most `plies` moves.
    pub fn best_line(&mut self, puzzle: &Puzzle, plies: usize) -> Vec<Pit> {
        self.puzzler.best_line(&puzzle.board, plies)
    }

    /// Keeps the progress, if there is somewhere to keep it.
    ///
    /// # Errors
    /// What went wrong, in words.
    pub fn save(&self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if let Some(parent) = path.parent() {
            files::data_root(parent)
                .map_err(|e| format!("cannot keep the puzzle progress: {e}"))?;
        }
        self.progress.save(path).map_err(|e| {
            format!(
                "cannot keep the puzzle progress in {}: {}",
                path.display(),
                files::words(&e)
            )
        })
    }
}

/// The most files of `records/` listed.
const MAX_SCAN_FILES: usize = 100_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::puzzles::Puzzler;
    use crate::rules::Rules;

    fn puzzle() -> Puzzle {
        Puzzler::new()
            .builtin(Rules::new(4, 3).unwrap(), 2)
            .expect("a puzzle")
    }

    #[test]
    fn a_failed_puzzle_comes_back_and_is_learnt_by_solving_it_at_growing_waits() {
        let p = puzzle();
        let mut progress = PuzzleProgress::default();
        let answered = progress.answer(&p, false, None);
        assert_eq!(answered.comes_back, Some(FIRST_INTERVAL));
        assert_eq!(progress.streak, 0);
        assert!(progress.rating < Rating::NEW_RATING);
        assert!(progress.take_due().is_none(), "not due at once");
        let other = Puzzler::new()
            .builtin(Rules::new(4, 3).unwrap(), 3)
            .unwrap();
        for _ in 0..FIRST_INTERVAL {
            progress.answer(&other, true, None);
        }
        let mut waits = Vec::new();
        while let Some(review) = {
            // answer other puzzles until the failed one is due
            let mut due = progress.take_due();
            for _ in 0..100 {
                if due.is_some() {
                    break;
                }
                progress.answer(&other, true, None);
                due = progress.take_due();
            }
            due
        } {
            assert_eq!(review.puzzle.puzzle().as_ref(), Some(&p));
            waits.push(review.interval);
            progress.answer(&p, true, Some(&review));
        }
        assert_eq!(waits, [3, 6, 12], "each wait doubles, then it is learnt");
        assert!(progress.reviews.is_empty());
        assert!(progress.streak > 3);
    }

    #[test]
    fn progress_survives_the_file_and_a_tampered_file_is_sanitised() {
        let dir = tempfile::tempdir().unwrap();
        let path = PuzzleProgress::path_in(dir.path());
        let mut progress = PuzzleProgress::default();
        progress.answer(&puzzle(), false, None);
        progress.save(&path).unwrap();
        let (back, problem) = PuzzleProgress::load(&path);
        assert_eq!(problem, None);
        assert_eq!(back.reviews, progress.reviews);
        assert_eq!(back.failed, 1);
        assert!((back.rating - progress.rating).abs() < 1e-6);
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("kalah 4x3", "kalah 9x3");
        std::fs::write(&path, text).unwrap();
        let (back, _) = PuzzleProgress::load(&path);
        assert!(
            back.reviews.is_empty(),
            "a position that does not read is dropped"
        );
        std::fs::write(&path, "{not json").unwrap();
        let (back, problem) = PuzzleProgress::load(&path);
        assert_eq!(back, PuzzleProgress::default());
        assert!(problem.unwrap().contains("starts afresh"));
    }
}
