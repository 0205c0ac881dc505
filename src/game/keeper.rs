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
//! Nothing here panics or stops the game: a store that fails is reported
//! once (the text is returned for the front end to show) and the match goes
//! on unsaved.

use std::path::PathBuf;

use super::save::{MatchLock, SaveError, SaveStore};
use super::{Match, MatchConfig};

/// The question asked when a saved match of the same players exists.
pub const RESUME_QUESTION: &str = "Resume the unfinished match? (y/n)";

/// What is said when the match is open in another window ([`Found::busy`]).
pub const BUSY_NOTICE: &str = "This match is open in another window: it is saved there.";

/// The question asked after [`BUSY_NOTICE`]: `p` plays on here without
/// saving (rounds are still recorded and counted), `q` quits.
pub const BUSY_QUESTION: &str = "Play it here unsaved, or quit? (p/q)";

/// An answer to [`BUSY_QUESTION`]: `Some(true)` plays on unsaved (`p`),
/// `Some(false)` quits (`q`), `None` is no answer (ask again).
#[must_use]
pub fn busy_answer(line: &str) -> Option<bool> {
    match line.trim().to_ascii_lowercase().as_str() {
        "p" | "play" => Some(true),
        "q" | "quit" => Some(false),
        _ => None,
    }
}

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
}

/// Saves, records and clears one match's files. See the [module docs](self).
#[derive(Debug)]
pub struct Keeper {
    store: Option<SaveStore>,
    /// The match's lock, once [`Keeper::look`] has taken it.
    lock: Option<MatchLock>,
    /// Whether this copy saves (and clears) the match: not when another
    /// copy holds its lock.
    saving: bool,
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
        }
    }

    /// Whether anything is being kept.
    #[must_use]
    pub fn is_keeping(&self) -> bool {
        self.store.is_some()
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
                found.problem = Some(format!(
                    "the saved match cannot be used ({reason}); it was set aside as {} and a new match starts",
                    to.display()
                ));
            }
            Err(problem) => {
                if matches!(problem, SaveError::Corrupt { moved_to: None, .. }) {
                    self.store = None;
                }
                found.problem = Some(problem.to_string());
            }
        }
        found
    }

    /// Saves the match as it stands. On failure the warning is returned
    /// and nothing more is saved.
    pub fn save(&mut self, m: &Match) -> Option<String> {
        if !self.saving {
            return None;
        }
        let store = self.store.as_ref()?;
        let error = store.save(m).err()?;
        let warning = format!(
            "could not save the match to {}: {error}; going on without saving",
            store.path_for(m.config()).display()
        );
        self.store = None;
        Some(warning)
    }

    /// Keeps the round `finished` just ended: its record and statistics
    /// line, then the save of the next round, exactly as
    /// [`Match::next_round`] will make it.
    pub fn close_round(&mut self, finished: &Match) -> RoundKept {
        let mut kept = RoundKept::default();
        let Some(store) = &self.store else {
            return kept;
        };
        let archived = store.archive_round(finished);
        match archived.record {
            Ok(path) => kept.record = Some(path),
            Err(e) => kept.warnings.push(format!(
                "could not record the round in {}: {e}",
                store.root().join("records").display()
            )),
        }
        if let Err(e) = archived.stats {
            kept.warnings
                .push(format!("could not count the round: {e}"));
        }
        let mut next = finished.clone();
        next.next_round();
        kept.warnings.extend(self.save(&next));
        kept
    }

    /// Clears the save of `config`'s match: the players are done with it.
    pub fn finish(&mut self, config: &MatchConfig) -> Option<String> {
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
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Human),
            ],
            first: FirstMover::Random,
        }
    }

    fn root(tag: &str) -> tempfile::TempDir {
        crate::game::files::scratch(&format!("keeper-{tag}"))
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
        assert!(!keeper.is_keeping());
        assert!(keeper.save(&m).is_none());
        assert!(keeper.close_round(&m).record.is_none());
        assert!(keeper.look(m.config()).saved.is_none());
    }

    #[test]
    fn a_save_that_fails_is_reported_once_with_its_path() {
        let scratch = root("fail");
        let dir = scratch.path();
        let store = SaveStore::at(dir).unwrap();
        let m = Match::new(config(), 1);
        // A directory where the save should go: the rename fails.
        fs::create_dir_all(store.path_for(m.config())).unwrap();
        let mut keeper = Keeper::new(Some(store.clone()));
        let warning = keeper.save(&m).unwrap();
        assert!(
            warning.contains(&store.path_for(m.config()).display().to_string()),
            "{warning}"
        );
        assert!(!keeper.is_keeping());
        assert!(keeper.save(&m).is_none(), "said once");
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
        assert!(keeper.is_keeping(), "the new match is kept");
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
}
