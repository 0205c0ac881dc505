//! The keeping policy both front ends share: when the match is saved, when a
//! round is recorded, when the save is cleared, and what to tell the players
//! when something cannot be kept. The files themselves are [`SaveStore`]'s.
//!
//! A front end holds one [`Keeper`] and calls it:
//!
//! - at the start, [`Keeper::look`]: a saved match of these players (to
//!   offer with [`RESUME_QUESTION`]), notes about saves under other
//!   settings, and any save that had to be set aside; or, when another
//!   copy of the game has the match open ([`Found::busy`]), the
//!   [`BUSY_QUESTION`]: play here unsaved, or quit. Answering "no" starts
//!   a new match *without* saving it: the old save is replaced only when the
//!   first move is made;
//! - after every move, undo, redo and new round, [`Keeper::save`];
//! - when a move ends a round, [`Keeper::close_round`] *instead of*
//!   [`Keeper::save`]: the round's record and statistics line are written,
//!   and the save moves on to the next round at once, so that a program
//!   killed at "Play again? (y/n)" never counts that round twice. The
//!   finished round cannot be taken back after that (its record is kept);
//! - when the players stop at the end of a round, [`Keeper::finish`]:
//!   the save is cleared. Stopping in the middle of a round keeps it.
//!
//! Nothing here panics or stops the game, and keeping never switches off:
//! a save that fails is reported each time (the text is returned for the
//! front end to show) and tried again at the next change; a round whose
//! record or statistics line could not be written stays noted (and held
//! here) and is written at the next change once it can be, exactly once.

use std::path::PathBuf;

use super::save::{Archived, MatchLock, SaveError, SaveStore};
use crate::game::{Match, MatchConfig};
use crate::rules::Side;

/// The question asked when a saved match of the same players exists.
pub const RESUME_QUESTION: &str = "Resume the unfinished match? (y/n)";

/// What is said when the match is open in another window ([`Found::busy`]).
pub const BUSY_NOTICE: &str = "This match is open in another window: it is saved there.";

/// What `mancala host NAME` says, before anything else, when another
/// `mancala host NAME` runs on the same data directory: it then ends
/// without touching that one's match (see [`hold_host`]).
#[must_use]
pub fn host_busy_notice(name: &str) -> String {
    format!(
        "{name} is already hosting a match in another window, from this data directory: that match is saved there and goes on there. Nothing was changed; host again once that one has ended, or host under another name."
    )
}

/// The question asked after [`BUSY_NOTICE`]: `p` plays on here without
/// saving (rounds are still recorded and counted), `q` quits.
pub const BUSY_QUESTION: &str = "Play it here unsaved, or quit? (p/q)";

/// What [`Keeper::look`] found for a match's settings.
#[derive(Debug, Default)]
pub struct Found {
    /// The saved unfinished match, to offer for resuming.
    pub saved: Option<Match>,
    /// Saves of the same names under other settings, as sentences.
    pub notes: Vec<String>,
    /// A save that could not be used (it has been set aside), as a sentence
    /// with its path.
    pub problem: Option<String>,
    /// The match is open in another copy of the game, which holds its
    /// lock: nothing is offered for resuming and this copy does not save
    /// the match. Say [`BUSY_NOTICE`], ask [`BUSY_QUESTION`], and quit or
    /// play on as answered.
    pub busy: bool,
}

/// What became of a finished round.
#[derive(Debug, Default)]
pub struct RoundKept {
    /// Where its record was written.
    pub record: Option<PathBuf>,
    /// What could not be kept, as sentences.
    pub warnings: Vec<String>,
    /// What the round did to each person's rating against the computer.
    pub ratings: Vec<super::rating::RatingChange>,
}

/// What round `id` of `finished`, just counted in `store`'s statistics,
/// did to the rating of each person playing a rated level.
fn rating_changes(
    store: &SaveStore,
    finished: &Match,
    id: &str,
) -> Vec<super::rating::RatingChange> {
    let rated = Side::BOTH.map(|side| {
        finished.seat(side).kind.is_person()
            && matches!(
                finished.seat(side.opponent()).kind,
                crate::players::PlayerKind::Level(_)
            )
    });
    if !rated.contains(&true) {
        return Vec::new();
    }
    let Ok(rounds) = super::stats::rated_rounds(&store.stats_path()) else {
        return Vec::new();
    };
    Side::BOTH
        .into_iter()
        .filter(|side| rated[side.index()])
        .filter_map(|side| super::rating::change_of(&rounds, id, finished.name(side)))
        .collect()
}

/// Saves, records and clears one match's files. See the [module docs](self).
#[derive(Debug)]
pub struct Keeper {
    store: Option<SaveStore>,
    /// The match's lock, once [`Keeper::look`] (or the first save) has
    /// taken it.
    lock: Option<MatchLock>,
    /// Whether this copy saves (and clears) the match: not when another
    /// copy holds its lock.
    saving: bool,
    /// Finished rounds (their ids and last positions) whose record or
    /// statistics line could not be written yet: tried again at each
    /// change.
    unkept: Vec<(String, Match)>,
    /// The last save failed: the match on disk is behind the one in play.
    behind: bool,
}

impl Keeper {
    /// The keeper of the user's data directory, and a warning when it cannot
    /// be used (the match is then played without being kept).
    #[must_use]
    pub fn open() -> (Keeper, Option<String>) {
        Keeper::opened(SaveStore::open())
    }

    /// [`Keeper::open`] for a match played over the network, whose save is
    /// kept apart from local matches' (see [`SaveStore::for_network`]).
    #[must_use]
    pub fn open_network() -> (Keeper, Option<String>) {
        Keeper::opened(SaveStore::open().and_then(SaveStore::for_network))
    }

    /// The joiner's keeper of a network match: the host saves the match,
    /// this keeps only its finished rounds' records and statistics.
    #[must_use]
    pub fn open_recording() -> (Keeper, Option<String>) {
        let (mut keeper, warning) = Keeper::open_network();
        keeper.saving = false;
        (keeper, warning)
    }

    fn opened(store: std::io::Result<SaveStore>) -> (Keeper, Option<String>) {
        match store {
            Ok(store) => (Keeper::new(Some(store)), None),
            Err(e) => {
                let place = super::save::data_dir()
                    .map(|dir| format!(" (data directory {})", dir.display()))
                    .unwrap_or_default();
                (
                    Keeper::new(None),
                    Some(format!("this match will not be saved: {e}{place}")),
                )
            }
        }
    }

    /// A keeper of `store`; `None` keeps nothing.
    #[must_use]
    pub fn new(store: Option<SaveStore>) -> Keeper {
        Keeper {
            store,
            lock: None,
            saving: true,
            unkept: Vec::new(),
            behind: false,
        }
    }

    /// Whether the last save failed, so that the match on disk is behind
    /// the one in play (a host tells its friend of a move only once it is
    /// saved).
    #[must_use]
    pub fn is_behind(&self) -> bool {
        self.behind
    }

    /// Whether moves are being saved: a store is open and the match is not
    /// open in another window.
    #[must_use]
    pub fn is_saving(&self) -> bool {
        self.store.is_some() && self.saving
    }

    /// Whether this copy saved the match with `config`'s settings and the
    /// save is there now.
    #[must_use]
    pub fn has_save(&self, config: &MatchConfig) -> bool {
        self.saving
            && self
                .store
                .as_ref()
                .is_some_and(|store| store.path_for(config).exists())
    }

    /// What is saved for `config`: see [`Found`]. A save that could not
    /// even be moved aside is never overwritten: nothing is kept from then on.
    ///
    /// It first takes the match's lock: when another copy of the game holds
    /// it, [`Found::busy`] is set, nothing is loaded, and this keeper never
    /// saves or clears the match (it still records finished rounds).
    pub fn look(&mut self, config: &MatchConfig) -> Found {
        let Some(store) = &self.store else {
            return Found::default();
        };
        if self.lock.is_none() {
            match store.lock(config) {
                Ok(Some(lock)) => self.lock = Some(lock),
                Ok(None) => {
                    self.saving = false;
                    return Found {
                        busy: true,
                        ..Found::default()
                    };
                }
                Err(e) => {
                    self.saving = false;
                    return Found {
                        problem: Some(format!(
                            "this match will not be saved: its lock cannot be taken ({e})"
                        )),
                        ..Found::default()
                    };
                }
            }
        }
        let unfinished_end = self.finish_closing(config);
        let Some(store) = &self.store else {
            return Found {
                problem: unfinished_end,
                ..Found::default()
            };
        };
        let notes = store
            .other_saves(config)
            .into_iter()
            .map(|other| {
                format!(
                    "an unfinished match of these players with other settings is saved in {}.",
                    other.display()
                )
            })
            .collect();
        let mut found = Found {
            notes,
            problem: unfinished_end,
            ..Found::default()
        };
        match store.load(config) {
            Ok(saved) => found.saved = saved,
            Err(SaveError::Corrupt {
                reason,
                moved_to: Some(to),
                ..
            }) => {
                // The new name holds the old one: one path says it all,
                // short enough for a status line.
                add_problem(
                    &mut found.problem,
                    format!(
                        "the saved match cannot be used ({reason}); it was set aside as {} and a new match starts",
                        to.display()
                    ),
                );
            }
            Err(problem) => {
                if matches!(problem, SaveError::Corrupt { moved_to: None, .. }) {
                    self.store = None;
                }
                add_problem(&mut found.problem, problem.to_string());
            }
        }
        found
    }

    /// Takes the lock of `config`'s match if this keeper has not yet (a
    /// match begun without [`Keeper::look`], as a new network match is):
    /// `None` when it holds it now (or keeps nothing), else why it stops
    /// saving: another copy of the game has the match, so its save is
    /// left alone.
    fn claim(&mut self, config: &MatchConfig) -> Option<String> {
        if self.lock.is_some() || !self.saving {
            return None;
        }
        let store = self.store.as_ref()?;
        let problem = match store.lock(config) {
            Ok(Some(lock)) => {
                self.lock = Some(lock);
                return None;
            }
            Ok(None) => format!("{BUSY_NOTICE} This copy goes on without saving."),
            Err(e) => format!("this match will not be saved: its lock cannot be taken ({e})"),
        };
        self.saving = false;
        Some(problem)
    }

    /// Saves the match as it stands, after writing any round kept late.
    /// On failure the warning is returned; the next save tries again.
    pub fn save(&mut self, m: &Match) -> Option<String> {
        if let Some(problem) = self.claim(m.config()) {
            return Some(problem);
        }
        let mut problems = self.keep_late();
        let saved = match (&self.store, self.saving) {
            (Some(store), true) => store.save(m).map_err(|e| (e, store.path_for(m.config()))),
            _ => Ok(()),
        };
        self.behind = saved.is_err();
        if let Err((error, path)) = saved {
            problems.push(format!(
                "could not save the match to {}: {error}; it is tried again at the next move",
                path.display()
            ));
        }
        (!problems.is_empty()).then(|| problems.join("; "))
    }

    /// Writes what is missing of the rounds that could not be kept at
    /// their end; what still cannot be, as sentences.
    fn keep_late(&mut self) -> Vec<String> {
        let Some(store) = self.store.clone() else {
            return Vec::new();
        };
        let mut problems = Vec::new();
        self.unkept.retain(|(id, finished)| {
            let mut kept = RoundKept::default();
            let archived = store.archive_round_as(finished, id, true);
            let whole = take_archived(&store, archived, &mut kept);
            let config = finished.config();
            if whole && matches!(store.closing(config), Ok(Some((noted, _))) if noted == *id) {
                kept.warnings.extend(end_closing(&store, config));
            }
            problems.extend(kept.warnings);
            !whole
        });
        problems
    }

    /// Keeps the round `finished` just ended: its record and statistics
    /// line, then the save of the next round, exactly as
    /// [`Match::next_round`] will make it.
    ///
    /// The copy that saves the match first notes the round's end
    /// ([`SaveStore::begin_closing`]) under a new round id, which its
    /// record and statistics line carry too, and forgets the note only
    /// when all three are kept: a program stopped anywhere in between
    /// (killed, or a write that failed) leaves the note, and the next
    /// [`Keeper::look`] (or round end) completes exactly what is missing,
    /// so the round is recorded and counted once.
    pub fn close_round(&mut self, finished: &Match) -> RoundKept {
        let mut kept = RoundKept::default();
        let config = finished.config();
        kept.warnings.extend(self.claim(config));
        // A note left by an earlier round's end is completed first: there
        // is one note per match.
        kept.warnings.extend(self.finish_closing(config));
        let Some(store) = self.store.clone() else {
            return kept;
        };
        let id = super::save::new_round_id();
        let noted = self.saving
            && match store.begin_closing(finished, &id) {
                Ok(()) => true,
                Err(e) => {
                    kept.warnings.push(format!(
                        "could not note the end of the round ({e}); it is kept all the same"
                    ));
                    false
                }
            };
        let archived = store.archive_round_as(finished, &id, false);
        let whole = take_archived(&store, archived, &mut kept);
        kept.ratings = rating_changes(&store, finished, &id);
        let mut next = finished.clone();
        next.next_round();
        kept.warnings.extend(self.save(&next));
        if !whole {
            // Held after the save above, which would try it again at once.
            self.unkept.push((id.clone(), finished.clone()));
        }
        if noted && whole && self.store.is_some() {
            kept.warnings.extend(end_closing(&store, config));
        }
        kept
    }

    /// Completes the end of a round that a stopped program left noted
    /// ([`SaveStore::closing`]): writes its record and statistics line if
    /// they are missing, and moves the save on to the next round if it is
    /// not there yet. What could not be done, as a sentence.
    fn finish_closing(&mut self, config: &MatchConfig) -> Option<String> {
        if !self.saving {
            return None;
        }
        let store = self.store.clone()?;
        let (id, finished) = match store.closing(config) {
            Ok(None) => return None,
            Ok(Some(found)) => found,
            Err(problem) => {
                return Some(format!(
                    "the note of a round's end could not be used: {problem}"
                ));
            }
        };
        let mut kept = RoundKept::default();
        let archived = store.archive_round_as(&finished, &id, true);
        let whole = take_archived(&store, archived, &mut kept);
        if store.save_is_behind(config, finished.round()) {
            let mut next = finished.clone();
            next.next_round();
            kept.warnings.extend(self.save(&next));
        }
        if !whole && self.unkept.iter().all(|(kept_id, _)| *kept_id != id) {
            self.unkept.push((id.clone(), finished.clone()));
        }
        if whole && self.store.is_some() {
            kept.warnings.extend(end_closing(&store, config));
        }
        (!kept.warnings.is_empty()).then(|| kept.warnings.join("; "))
    }

    /// Clears the save of `config`'s match: the players are done with it.
    pub fn finish(&mut self, config: &MatchConfig) -> Option<String> {
        if let Some(problem) = self.claim(config) {
            return Some(problem);
        }
        if !self.saving {
            return None;
        }
        let store = self.store.as_ref()?;
        store
            .finish(config)
            .err()
            .map(|e| format!("could not clear the saved match: {e}"))
    }
}

/// The hold of one `mancala host NAME` on what it keeps in the data
/// directory (its network match, and the note that finds that match
/// again): see [`hold_host`]. Released when dropped, or when the program
/// ends in any way.
#[derive(Debug)]
pub struct HostHold {
    _lock: Option<MatchLock>,
}

/// Takes host `name`'s lock ([`SaveStore::lock_host`], in
/// `locks/network/`) for as long as the [`HostHold`] lives, so that two
/// `mancala host NAME` on one data directory never share one match (the
/// second would overwrite the first's save and note). When the lock
/// cannot be taken at all (no data directory, a lock file that is not a
/// file), the hold is empty: the match's own lock, taken at its first save
/// ([`Keeper::save`]), still keeps it from another program's match.
///
/// # Errors
/// [`host_busy_notice`] when another program holds the lock.
pub fn hold_host(name: &str) -> Result<HostHold, String> {
    let store = SaveStore::open().and_then(SaveStore::for_network);
    match store.map(|store| store.lock_host(name)) {
        Ok(Ok(None)) => Err(host_busy_notice(name)),
        Ok(Ok(Some(lock))) => Ok(HostHold { _lock: Some(lock) }),
        Ok(Err(_)) | Err(_) => Ok(HostHold { _lock: None }),
    }
}

/// Adds the sentence `more` to `problem`.
fn add_problem(problem: &mut Option<String>, more: String) {
    *problem = Some(match problem.take() {
        Some(first) => format!("{first}; {more}"),
        None => more,
    });
}

/// Forgets the note of the end of `config`'s round, now that the round is
/// kept whole; the warning when it cannot.
fn end_closing(store: &SaveStore, config: &MatchConfig) -> Option<String> {
    store
        .end_closing(config)
        .err()
        .map(|e| format!("could not clear the note of the round's end: {e}"))
}

/// Adds what became of a round's record and statistics line to `kept`:
/// whether both were kept.
fn take_archived(store: &SaveStore, archived: Archived, kept: &mut RoundKept) -> bool {
    let mut whole = true;
    match archived.record {
        Ok(path) => kept.record = Some(path),
        Err(e) => {
            whole = false;
            kept.warnings.push(format!(
                "could not record the round in {}: {e}",
                store.root().join("records").display()
            ));
        }
    }
    if let Err(e) = archived.stats {
        whole = false;
        kept.warnings
            .push(format!("could not count the round: {e}"));
    }
    whole
}

/// One line describing a saved match, said before [`RESUME_QUESTION`]:
/// "There is an unfinished match of Alice and Michael: round 2, 3 moves
/// played."
#[must_use]
pub fn saved_summary(saved: &Match) -> String {
    let moves = saved.moves().len();
    format!(
        "There is an unfinished match of {} and {}: round {}, {} played.",
        saved.name(crate::rules::Side::South),
        saved.name(crate::rules::Side::North),
        saved.round(),
        crate::rules::plural(moves, "move")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, Seat};
    use crate::players::PlayerKind;
    use crate::rules::{NoTrace, Rules};
    use std::fs;

    fn config() -> MatchConfig {
        MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Human),
            ],
            first: FirstMover::Random,
            start: None,
        }
    }

    fn root(tag: &str) -> tempfile::TempDir {
        crate::store::files::scratch(&format!("keeper-{tag}"))
    }

    #[test]
    fn closing_a_round_records_it_once_and_saves_the_next_round() {
        let scratch = root("close");
        let dir = scratch.path();
        let store = SaveStore::at(dir).unwrap();
        let mut keeper = Keeper::new(Some(store.clone()));
        let mut m = Match::new(config(), 7);
        while let Some(pit) = m.board().legal_moves().next() {
            m.play(pit, &mut NoTrace).unwrap();
            if !m.board().is_over() {
                assert!(keeper.save(&m).is_none());
            }
        }
        let kept = keeper.close_round(&m);
        assert!(kept.warnings.is_empty(), "{:?}", kept.warnings);
        assert!(kept.record.unwrap().exists());
        let stats = fs::read_to_string(store.stats_path()).unwrap();
        assert_eq!(stats.lines().count(), 1);
        // The save is the next round, with the same coin for its starter
        // as the match on screen will flip.
        let saved = keeper.look(&config()).saved.unwrap();
        m.next_round();
        assert_eq!(
            (saved.round(), saved.starter(), saved.tally(), saved.moves()),
            (2, m.starter(), m.tally(), &[][..])
        );
        assert!(keeper.finish(&config()).is_none());
        assert!(keeper.look(&config()).saved.is_none());
    }

    #[test]
    fn a_keeper_without_a_store_keeps_nothing_and_says_nothing() {
        let mut keeper = Keeper::new(None);
        let m = Match::new(config(), 1);
        assert!(keeper.store.is_none());
        assert!(keeper.save(&m).is_none());
        assert!(keeper.close_round(&m).record.is_none());
        assert!(keeper.look(m.config()).saved.is_none());
    }

    #[test]
    fn a_save_that_fails_is_reported_each_time_and_tried_again() {
        let scratch = root("fail");
        let dir = scratch.path();
        let store = SaveStore::at(dir).unwrap();
        let m = Match::new(config(), 1);
        // A directory where the save should go: the rename fails.
        fs::create_dir_all(store.path_for(m.config())).unwrap();
        let mut keeper = Keeper::new(Some(store.clone()));
        for _ in 0..2 {
            let warning = keeper.save(&m).expect("said each time");
            assert!(
                warning.contains(&store.path_for(m.config()).display().to_string()),
                "{warning}"
            );
            assert!(keeper.is_saving(), "keeping never switches off");
        }
        fs::remove_dir(store.path_for(m.config())).unwrap();
        assert!(keeper.save(&m).is_none());
        assert!(
            store.load(m.config()).unwrap().is_some(),
            "saved once it can be"
        );
    }

    /// A round whose record and statistics line could not be written is
    /// written at the next change that can, once.
    #[test]
    fn a_round_not_kept_at_its_end_is_kept_at_the_next_change() {
        let scratch = root("late");
        let store = SaveStore::at(scratch.path()).unwrap();
        // A file where the records folder goes, a folder where the
        // statistics file goes: neither can be written.
        fs::remove_dir(store.root().join("records")).unwrap();
        fs::write(store.root().join("records"), "").unwrap();
        fs::create_dir(store.stats_path()).unwrap();
        let (mut keeper, finished, kept) = end_a_round(&store);
        assert!(kept.record.is_none());
        assert_eq!(kept.warnings.len(), 2, "{:?}", kept.warnings);
        let mut next = finished.clone();
        next.next_round();
        let still = keeper.save(&next).expect("still said");
        assert!(still.contains("could not record"), "{still}");
        fs::remove_file(store.root().join("records")).unwrap();
        fs::remove_dir(store.stats_path()).unwrap();
        for _ in 0..2 {
            assert_eq!(keeper.save(&next), None);
            assert_eq!((records(&store), stats_lines(&store)), (1, 1));
        }
        assert!(
            !store.closing_path(&config()).exists(),
            "the note is cleared"
        );
    }

    #[test]
    fn a_corrupt_save_is_set_aside_and_named_in_one_short_sentence() {
        let scratch = root("corrupt");
        let dir = scratch.path();
        let store = SaveStore::at(dir).unwrap();
        let path = store.path_for(&config());
        fs::write(&path, "garbage").unwrap();
        let mut keeper = Keeper::new(Some(store));
        let found = keeper.look(&config());
        assert!(found.saved.is_none());
        let problem = found.problem.unwrap();
        let aside = format!("{}.corrupt-", path.display());
        assert!(problem.contains(&aside), "{problem}");
        assert_eq!(problem.matches(&path.display().to_string()).count(), 1);
        assert!(!path.exists());
        assert!(keeper.store.is_some(), "the new match is kept");
    }

    #[test]
    fn the_summary_counts_moves() {
        let mut m = Match::new(config(), 1);
        let pit = m.board().legal_moves().next().unwrap();
        m.play(pit, &mut NoTrace).unwrap();
        assert_eq!(
            saved_summary(&m),
            "There is an unfinished match of Alice and Michael: round 1, 1 move played."
        );
    }

    /// A finished round of `config()` (Kalah, Alice against Michael) and
    /// the match one move before its end.
    fn last_move() -> (Match, Match) {
        let mut m = Match::new(config(), 7);
        loop {
            let pit = m.board().legal_moves().next().unwrap();
            let before = m.clone();
            m.play(pit, &mut NoTrace).unwrap();
            if m.board().is_over() {
                return (before, m);
            }
        }
    }

    /// A new keeper of `store` that saves the last move but one of a round
    /// and closes the round: the keeper, the round, what became of it.
    fn end_a_round(store: &SaveStore) -> (Keeper, Match, RoundKept) {
        let (before, finished) = last_move();
        let mut keeper = Keeper::new(Some(store.clone()));
        assert!(keeper.look(&config()).saved.is_none());
        assert!(keeper.save(&before).is_none());
        let kept = keeper.close_round(&finished);
        (keeper, finished, kept)
    }

    fn stats_lines(store: &SaveStore) -> usize {
        fs::read_to_string(store.stats_path())
            .map(|t| t.lines().count())
            .unwrap_or(0)
    }

    fn records(store: &SaveStore) -> usize {
        fs::read_dir(store.root().join("records")).unwrap().count()
    }

    /// A program stopped at each point of a round's end (after the note,
    /// the record, the statistics line, the next round's save): the next
    /// one records and counts the round exactly once, and moves the save
    /// on to the next round; starting again changes nothing more.
    #[test]
    fn a_round_ended_by_a_stopped_program_counts_once_whenever_it_stopped() {
        for stopped_after in 0..4 {
            let scratch = root(&format!("stopped-{stopped_after}"));
            let store = SaveStore::at(scratch.path()).unwrap();
            let (before, finished) = last_move();
            store.save(&before).unwrap();
            // What close_round does, cut short.
            let id = super::super::save::new_round_id();
            store.begin_closing(&finished, &id).unwrap();
            if stopped_after >= 1 {
                let archived = store.archive_round_as(&finished, &id, false);
                archived.record.unwrap();
                archived.stats.unwrap();
                if stopped_after == 1 {
                    // The record without its statistics line.
                    fs::remove_file(store.stats_path()).unwrap();
                }
            }
            if stopped_after >= 3 {
                let mut next = finished.clone();
                next.next_round();
                store.save(&next).unwrap();
            }
            for start in 0..2 {
                let mut keeper = Keeper::new(Some(store.clone()));
                let found = keeper.look(&config());
                assert_eq!(found.problem, None, "stopped after {stopped_after}");
                let saved = found.saved.expect("the match is saved");
                assert_eq!(
                    (saved.round(), saved.moves().len(), saved.tally()),
                    (2, 0, finished.tally()),
                    "stopped after {stopped_after}, start {start}"
                );
                assert_eq!(records(&store), 1, "stopped after {stopped_after}");
                assert_eq!(stats_lines(&store), 1, "stopped after {stopped_after}");
                assert!(!store.closing_path(&config()).exists());
            }
            let stats = crate::store::stats::read(&store.stats_path()).unwrap();
            assert_eq!(stats.pairs[0].rounds, 1);
        }
    }

    /// A statistics file that cannot be written keeps the note: the next
    /// start counts the round, and a match the players stopped stays
    /// stopped.
    #[test]
    fn a_round_not_counted_is_counted_at_the_next_start() {
        let scratch = root("uncounted");
        let store = SaveStore::at(scratch.path()).unwrap();
        fs::create_dir(store.stats_path()).unwrap();
        let (mut keeper, _, kept) = end_a_round(&store);
        assert!(kept.record.is_some());
        assert!(
            kept.warnings.iter().any(|w| w.contains("could not count")),
            "{:?}",
            kept.warnings
        );
        assert!(keeper.finish(&config()).is_none());
        drop(keeper);
        fs::remove_dir(store.stats_path()).unwrap();
        for _ in 0..2 {
            let mut keeper = Keeper::new(Some(store.clone()));
            let found = keeper.look(&config());
            assert!(found.saved.is_none(), "the stopped match stays stopped");
            assert_eq!((records(&store), stats_lines(&store)), (1, 1));
        }
    }

    /// Two keepers of one match that never looked (a new network match):
    /// the first save takes the lock, the second keeper saves nothing.
    #[test]
    fn the_first_save_takes_the_match_lock() {
        let scratch = root("claim");
        let store = SaveStore::at(scratch.path())
            .unwrap()
            .for_network()
            .unwrap();
        let (before, _) = last_move();
        let mut first = Keeper::new(Some(store.clone()));
        let mut second = Keeper::new(Some(store.clone()));
        assert!(first.save(&before).is_none());
        let fresh = Match::new(config(), 1);
        let warning = second.save(&fresh).expect("told it is open elsewhere");
        assert!(warning.starts_with(BUSY_NOTICE), "{warning}");
        assert!(!second.is_saving());
        assert!(second.finish(&config()).is_none());
        assert_eq!(
            store.load(&config()).unwrap().unwrap().moves(),
            before.moves(),
            "the first one's save is untouched"
        );
        // One host of a name per data directory.
        let hold = store.lock_host("Alice").unwrap();
        assert!(hold.is_some());
        assert!(store.lock_host("Alice").unwrap().is_none());
        assert!(store.lock_host("Bob").unwrap().is_some());
        drop(hold);
        assert!(store.lock_host("Alice").unwrap().is_some());
    }
}
