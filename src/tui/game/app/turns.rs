//! The game screen's turn flow: the one place a move is made on the match
//! (a human's, a computer's, or one redone), what follows it (sowing, the
//! next turn, the end of the round), taking moves back and playing them
//! again, a new round, and the answers that start play on a resumed or busy
//! match. Every change to the match goes through here, so every change is
//! told to the keeper ([`MatchEvent`]).

use std::time::{Duration, Instant};

use super::{App, MatchEvent, Mode, Note, Purpose, Thinking, Tone};
use crate::game::{
    FirstMover, Undo, describe, messages::played_unproven, outcome_message, played as game_played,
    redo_message, round_goes_on, round_starts,
};
use crate::rules::{MoveError, Pit, Played, Step};
use crate::tui::animation::Animation;
use crate::tui::game::computer::Request;

impl App {
    pub(super) fn answer_busy(&mut self, now: Instant) {
        self.mode = Mode::Turn { hint: None };
        self.warn("This match is open in another window: it is played here unsaved.");
        let board = self.game.board();
        if board.is_over() || self.is_human(board.to_move()) {
            self.next_turn(now);
        } else {
            self.mode = Mode::Ready;
        }
    }

    pub(super) fn answer_resume(&mut self, resume: bool, now: Instant) {
        let Mode::Resume(offer) = std::mem::replace(&mut self.mode, Mode::Turn { hint: None })
        else {
            return;
        };
        if resume {
            let starter = self.game.name(self.game.starter()).to_string();
            let notice = round_goes_on(self.game.round(), self.game.moves().len(), &starter);
            self.notes
                .log_lines([Note::plain(format!("Resumed. {}", notice.text))]);
            // A save holding a finished round (written by hand) is
            // recorded now, as it would have been when it ended.
            if self.game.outcome().is_some() {
                self.events.push(MatchEvent::RoundFinished);
            }
        } else {
            // The old save stays until the first move of the new match
            // replaces it, as in plain mode.
            self.game = offer.fresh;
            self.announce_round();
            self.notes.say(Note::plain(
                "A new match: the saved one is replaced once a move is made.",
            ));
        }
        self.next_turn(now);
    }

    /// A human chose `pit`: play it if the rules allow, else say why not.
    pub(super) fn choose(&mut self, pit: Pit, now: Instant) {
        let Some(side) = self.human_to_move() else {
            if let Some(side) = self.to_move() {
                let name = self.game.name(side).to_string();
                self.notes.say(Note::new(
                    format!("Please wait: it is {name}'s turn."),
                    Tone::Error,
                ));
            }
            return;
        };
        if let Err(e) = self.game.board().check(pit) {
            self.refuse(e);
            return;
        }
        self.cursor[side.index()] = Some(pit);
        if self.moves_wait_for_the_host() {
            self.send_move(pit);
            return;
        }
        self.cancel_thinking();
        // Checked just above, so this cannot be refused.
        let _ = self.apply_move(pit, now);
    }

    /// The one place where a move is made on the match (humans, computers,
    /// redo alike): plays it, starts its animation, queues its messages and
    /// tells the keeper ([`MatchEvent`]).
    pub(super) fn apply_move(&mut self, pit: Pit, now: Instant) -> Result<Played, MoveError> {
        let before = self.game.board().counts().to_vec();
        let mut steps: Vec<Step> = Vec::new();
        let played = self.game.play(pit, &mut steps)?;
        self.events.push(if self.game.outcome().is_some() {
            MatchEvent::RoundFinished
        } else {
            MatchEvent::Changed
        });
        self.hint = None;
        self.notes.hush();
        let unproven = self.unproven.take();
        let notes = self.move_notes(&played, unproven);
        match self.chosen.seed_delay() {
            Some(delay) => {
                self.notes.hold(notes);
                self.mode = Mode::Sowing(Box::new(Animation::new(&before, steps, delay, now)));
            }
            None => {
                self.notes.log_lines(notes);
                self.next_turn(now);
            }
        }
        Ok(played)
    }

    /// What the log says about a move just played: who played what, what
    /// it did (the tone from what happened, never from the words), and the
    /// end of the round if it came.
    pub(super) fn move_notes(&self, played: &Played, unproven: Option<Duration>) -> Vec<Note> {
        let names = self.names();
        let letter = self.rules().letter(played.pit).unwrap_or('?');
        let name = names[played.mover.index()];
        let said = match unproven {
            Some(thought) => played_unproven(name, letter, thought),
            None => game_played(name, letter),
        };
        let mut notes = vec![Note::from(said)];
        notes.extend(
            describe(self.rules(), played, names)
                .into_iter()
                .map(Note::from),
        );
        if let Some(outcome) = self.game.outcome() {
            let text = outcome_message(outcome, self.game.board().score(), names);
            notes.push(Note::new(text, Tone::Good));
        }
        notes
    }

    /// Shows the rest of the move being sown at once.
    pub(super) fn finish_sowing(&mut self, now: Instant) {
        if matches!(self.mode, Mode::Sowing(_)) {
            self.notes.release();
            self.next_turn(now);
            self.show_queued(now);
        }
    }

    /// Decides what comes after a move (or an undo, a new round, a resumed
    /// match): the round's end, a human's turn, the pause, or a computer's
    /// thinking.
    pub(super) fn next_turn(&mut self, now: Instant) {
        self.cancel_thinking();
        if self.held_by_the_network() {
            self.mode = Mode::Waiting;
            return;
        }
        let board = *self.game.board();
        if board.is_over() {
            self.mode = Mode::RoundOver;
            return;
        }
        let side = board.to_move();
        if self.is_human(side) {
            self.mode = Mode::Turn { hint: None };
            return;
        }
        // A friend over the network is asked like a computer, but never
        // paused.
        if self.paused && !self.game.seat(side).kind.is_person() {
            if self.steps_allowed == 0 {
                self.mode = Mode::Paused;
                return;
            }
            self.steps_allowed -= 1;
        }
        let id = self.fresh_id();
        self.requests.push(Request::Move { id, side, board });
        self.mode = Mode::Thinking(Thinking {
            id,
            purpose: Purpose::Move(side),
            since: now,
        });
    }

    /// Undo by turn, the policy every front end shares ([`Match::undo_turn`]).
    pub(super) fn undo(&mut self, now: Instant) {
        if self.remote.is_some() {
            // Both players agree before a move is taken back.
            self.ask_take_back();
            return;
        }
        let mut probe = self.game.clone();
        let undo = probe.undo_turn();
        let notice = undo.message();
        let Undo::Undone(_) = undo else {
            self.notes.say(Note::from(notice));
            return;
        };
        self.settle();
        self.game = probe;
        self.events.push(MatchEvent::Changed);
        self.hint = None;
        self.notes
            .log_lines([Note::new(notice.text.clone(), notice.tone())]);
        self.notes
            .say(Note::plain(format!("{} r redoes.", notice.text)));
        self.next_turn(now);
    }

    /// Redo by turn ([`Match::redo_turn`]): the move taken back, and the
    /// computer's replies as they were played; the last one is sown on
    /// screen, the ones before it shown at once.
    pub(super) fn redo(&mut self, now: Instant) {
        if self.remote.is_some() {
            self.notes.say(Note::plain(
                "In a network match a move taken back stays taken back: play it again.",
            ));
            return;
        }
        if self.game.redo_move().is_none() {
            let notice = redo_message(&[]);
            self.notes.say(Note::from(notice));
            return;
        }
        self.settle();
        let redone = self.game.redo_turn();
        let mut notes = Vec::new();
        for move_ in &redone {
            notes.extend(self.move_notes(&move_.played, None));
        }
        self.events.push(if self.game.outcome().is_some() {
            MatchEvent::RoundFinished
        } else {
            MatchEvent::Changed
        });
        self.hint = None;
        let notice = redo_message(&redone);
        self.notes.say(Note::from(notice));
        match (self.chosen.seed_delay(), redone.last()) {
            (Some(delay), Some(last)) => {
                self.notes.hold(notes);
                let steps = last.steps.clone();
                self.mode = Mode::Sowing(Box::new(Animation::new(
                    last.before.counts(),
                    steps,
                    delay,
                    now,
                )));
            }
            _ => {
                self.notes.log_lines(notes);
                self.next_turn(now);
            }
        }
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

    pub(super) fn play_again(&mut self, now: Instant) {
        self.settle();
        self.forget_analysis();
        self.game.next_round();
        self.events.push(MatchEvent::Changed);
        self.hint = None;
        self.notes.hush();
        self.notes.set_round_note(None);
        // The new round starts on a clean log under its own heading.
        self.notes.clear_log();
        self.cursor = [None; 2];
        self.announce_round();
        self.next_turn(now);
    }

    pub(super) fn announce_round(&mut self) {
        let starter = self.game.name(self.game.starter()).to_string();
        let coin = self.game.config().first == FirstMover::Random;
        let notice = round_starts(self.game.round(), &starter, coin);
        self.notes.log_lines([Note::from(notice)]);
    }
}
