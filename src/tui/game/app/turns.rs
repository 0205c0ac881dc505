//! The game screen and its session: the one place a command goes to the
//! [`Session`](crate::session::Session) and its events come back to be
//! shown (a move sown, moves taken back, a new round, where a round was
//! recorded, a problem keeping the match), and what the screen does next
//! (a person's turn, a computer asked to think, the round's end).

use std::time::Instant;

use super::{App, Mode, Note, Purpose, Thinking, Tone};
use crate::game::{describe_move, gave_no_move, messages::played_unproven, played as game_played};
use crate::session::{Asking, Moved, MovedBy, SessionCommand, SessionEvent};
use crate::tui::analysis::HostedAnalysis;
use crate::tui::animation::Animation;
use crate::tui::game::computer::Request;

impl App {
    /// Hands `command` to the session and shows what it says.
    pub(super) fn command(&mut self, command: SessionCommand, now: Instant) {
        let before = self.session.asking();
        let events = self.session.handle(command);
        let changed = self.show_events(events, before, now);
        if changed && !self.quit && !matches!(self.mode, Mode::Sowing(_)) {
            self.next_turn(now);
        }
    }

    /// The session's first words: its notes on other saved matches (one
    /// line however many there are: they would fill the message area) and
    /// what could not be kept; the question it asks is drawn from the
    /// session itself.
    pub(super) fn opening(&mut self, events: Vec<SessionEvent>) {
        let mut notes = Vec::new();
        let mut rest = Vec::new();
        for event in events {
            match event {
                SessionEvent::Note(note) => notes.push(note),
                // The busy notice and the saved match's summary are the
                // question panels' own words.
                SessionEvent::Notice(_) => {}
                other => rest.push(other),
            }
        }
        match notes.len() {
            0 => {}
            1 => self.tell(format!("Note: {}", notes[0])),
            n => self.tell(format!(
                "Note: {n} unfinished matches of these players with other settings are saved{}.",
                crate::store::data_dir().map_or(String::new(), |d| format!(" in {}", d.display()))
            )),
        }
        let now = self.now;
        self.show_events(rest, Asking::Over, now);
        self.mode = Mode::Turn { hint: None };
    }

    /// Shows what the session said after a command asked at `before`;
    /// `true` when the screen moves on to what comes next (a move, a
    /// take-back, a new round or another question).
    pub(super) fn show_events(
        &mut self,
        events: Vec<SessionEvent>,
        before: Asking,
        now: Instant,
    ) -> bool {
        let mut changed = false;
        for event in events {
            match event {
                SessionEvent::Notice(notice) => self.notes.say(Note::from(notice)),
                SessionEvent::Note(note) => self.tell(format!("Note: {note}")),
                SessionEvent::RoundOpened(opening, _) => {
                    changed = true;
                    self.round_opened(opening, before);
                }
                SessionEvent::Moved(moved) => {
                    changed = true;
                    self.show_move(*moved, now);
                }
                SessionEvent::TookBack(said, _) => {
                    changed = true;
                    self.took_back(Note::from(said));
                }
                SessionEvent::HintWanted(board) => {
                    let id = self.fresh_id();
                    self.requests.push(Request::Hint { id, board });
                    self.mode = Mode::Turn {
                        hint: Some(Thinking {
                            id,
                            purpose: Purpose::Hint,
                            since: now,
                        }),
                    };
                }
                SessionEvent::Hurry => self.hurry(now),
                SessionEvent::Swapped(said) => {
                    changed = true;
                    self.swapped(Note::from(said));
                }
                SessionEvent::Refused(e) => self.refuse(e),
                SessionEvent::RoundOver(result, _) => {
                    self.notes.add_to_move(Note::new(result.text, Tone::Good));
                }
                SessionEvent::Recorded(path) => {
                    self.round_recorded(super::super::world::recorded_note(&path));
                }
                SessionEvent::KeepFailed(problem) | SessionEvent::Rebuilding(problem) => {
                    self.warn(problem);
                }
                // The end panel says it.
                SessionEvent::Rated(change) => self.rated.push(change),
                // Hints are worked out here (HintWanted), never inside.
                SessionEvent::Hinted(_) | SessionEvent::Asked(_) => {}
                SessionEvent::Ended(ending) => {
                    self.ended = Some(ending);
                    self.cancel_thinking();
                    self.quit = true;
                }
            }
        }
        changed || self.session.asking() != before
    }

    /// Moves were taken back: `said` how many, and who plays again.
    pub(super) fn took_back(&mut self, said: Note) {
        self.settle();
        self.hint = None;
        let redo = format!("{} r redoes.", said.text);
        self.notes.log_lines([said]);
        if self.remote.is_none() {
            self.notes.say(Note::plain(redo));
        }
    }

    /// The pie rule's swap was taken, as `said`.
    pub(super) fn swapped(&mut self, said: Note) {
        self.cursor = [None; 2];
        self.hint = None;
        self.notes.say(said.clone());
        // after the move it follows, when that is still sown (a redo)
        self.notes.add_to_move(said);
    }

    /// A round begins or goes on: under its own heading on a clean log
    /// after "Play again?", "Resumed." when a saved one goes on.
    pub(super) fn round_opened(&mut self, opening: crate::game::Notice, before: Asking) {
        self.cursor = [None; 2];
        self.hint = None;
        if before == Asking::Resume {
            // The answer is given: what was said about the question goes.
            self.notes.hush();
        }
        match before {
            Asking::PlayAgain => {
                self.rated.clear();
                self.settle();
                // the last round's analysis goes (its thread stops if still at work)
                self.review = HostedAnalysis::default();
                self.notes.hush();
                self.notes.set_round_note(None);
                self.notes.clear_log();
                self.notes.log_lines([Note::from(opening)]);
            }
            // A fresh match (n): nothing played in it yet, no round before.
            Asking::Resume
                if self.session.game().moves().is_empty()
                    && self.session.game().tally().rounds() == 0 =>
            {
                self.notes.log_lines([Note::from(opening)]);
                self.notes.say(Note::plain(
                    "A new match: the saved one is replaced once a move is made.",
                ));
            }
            Asking::Resume => {
                self.notes
                    .log_lines([Note::plain(format!("Resumed. {}", opening.text))]);
            }
            _ => self.notes.log_lines([Note::from(opening)]),
        }
    }

    /// A move the session made: sown on screen (the one before it, in a
    /// redo of several, shown at once), with its notes in the log.
    pub(super) fn show_move(&mut self, moved: Moved, now: Instant) {
        self.finish_sowing_quietly();
        self.hint = None;
        self.notes.hush();
        let Moved {
            by,
            played,
            steps,
            before,
            names,
            ..
        } = moved;
        // the round the move was played in (a last move's, just finished)
        let game = self.session.current();
        // the sides as held when it was made (a swap may follow it)
        self.sown_by.clone_from(&names);
        let names = [names[0].as_str(), names[1].as_str()];
        let letter = game.rules().letter(played.pit()).unwrap_or('?');
        let name = names[played.mover().index()];
        let said = match by {
            MovedBy::Computer {
                unproven: Some(thought),
                ..
            } => played_unproven(name, letter, thought),
            _ => game_played(name, letter),
        };
        let fallback = matches!(by, MovedBy::Computer { fallback: true, .. })
            .then(|| Note::from(gave_no_move(name, letter)));
        let mut notes = vec![Note::from(said)];
        notes.extend(
            describe_move(game.rules(), &played, &steps, names)
                .into_iter()
                .map(Note::from),
        );
        if let Some(note) = fallback {
            self.notes.say(note);
        }
        match self.chosen.seed_delay() {
            Some(delay) => {
                self.notes.hold(notes);
                self.mode =
                    Mode::Sowing(Box::new(Animation::new(before.counts(), steps, delay, now)));
            }
            None => self.notes.log_lines(notes),
        }
    }

    /// Shows the rest of the move being sown at once.
    pub(super) fn finish_sowing(&mut self, now: Instant) {
        if matches!(self.mode, Mode::Sowing(_)) {
            self.notes.release();
            self.next_turn(now);
            self.show_queued(now);
        }
    }

    /// Ends the move on show without moving on (another follows it).
    fn finish_sowing_quietly(&mut self) {
        if matches!(self.mode, Mode::Sowing(_)) {
            self.notes.release();
            self.mode = Mode::Turn { hint: None };
        }
    }

    /// What comes after a move (or an undo, a new round, a resumed match),
    /// as the session asks it: a person's turn or a question, the pause,
    /// or a computer's thinking.
    pub(super) fn next_turn(&mut self, now: Instant) {
        self.cancel_thinking();
        if self.held_by_the_network() {
            self.mode = Mode::Waiting;
            return;
        }
        let asking = self.session.asking();
        if let Asking::Swap(side) = asking {
            self.ask_swap(side);
        }
        let Asking::Computer(side) = asking else {
            self.mode = Mode::Turn { hint: None };
            return;
        };
        if self.paused {
            if self.steps_allowed == 0 {
                self.mode = Mode::Paused;
                return;
            }
            self.steps_allowed -= 1;
        }
        let id = self.fresh_id();
        let board = self.session.game().position();
        // The turn function of the seat that plays `side` in this round
        // (the pie rule may have swapped them).
        let seat = self.session.game().holder(side);
        self.requests.push(Request::Move {
            id,
            side: seat,
            board,
        });
        self.mode = Mode::Thinking(Thinking {
            id,
            purpose: Purpose::Move(side),
            since: now,
        });
    }

    /// The pie rule's question to the person on `side`'s seat, on the
    /// status line (the key bar shows its key).
    fn ask_swap(&mut self, side: crate::rules::Side) {
        let game = self.session.game();
        // the session's key for it on this board
        let key = crate::session::commands::swap_offer(game.rules()).key;
        let question = crate::game::messages::swap_question(
            game.name(side),
            game.name(side.opponent()),
            &key.to_string(),
        );
        self.notes.say(Note::plain(format!("{question}.")));
    }

    /// Ends whatever is in flight (sowing, thinking, a computer's chosen
    /// move) so that the match can be changed under it.
    pub(super) fn settle(&mut self) {
        if matches!(self.mode, Mode::Sowing(_)) {
            self.notes.release();
        }
        self.cancel_thinking();
        // and any thinking ahead on the line of play being changed
        if !self.requests.contains(&Request::StopAll) {
            self.requests.push(Request::StopAll);
        }
        self.mode = Mode::Turn { hint: None };
    }
}
