//! The game screen's clock and computer: time moving the screen on (sowing
//! frames, a computer's chosen move, a digit waiting for its second, the
//! clock standing still under a dialog), the requests for the computer and
//! its answers, and the keys that steer it (speed, pause, step, move now,
//! hint). Kept apart so that everything that happens without a key press
//! is read in one place.

use std::time::{Duration, Instant};

use super::{App, Mode, Note, Purpose, Thinking, Tone, paused_text};
use crate::game::messages::hint_text;
use crate::session::{Asking, SessionCommand};
use crate::tui::game::computer::{Answer, Request};
use crate::tui::prefs;

impl App {
    fn thinking(&self) -> Option<Thinking> {
        match self.mode {
            Mode::Thinking(t) | Mode::Turn { hint: Some(t) } => Some(t),
            _ => None,
        }
    }

    /// The next time something on screen changes by itself (an animation
    /// frame, a computer move, the thinking indicator), if any.
    #[must_use]
    pub fn next_wake(&self) -> Option<Instant> {
        let spinner = self
            .thinking()
            .map(|_| self.now + Duration::from_millis(100));
        if self.frozen_since.is_some() {
            // Frames and moves wait for the clock to start again; waking
            // up for them now would only spin.
            return spinner.into_iter().chain(self.review.next_wake()).min();
        }
        let due = match &self.mode {
            Mode::Sowing(a) => a.next_frame_at(),
            Mode::Chosen { at, .. } => Some(*at),
            _ => None,
        };
        [due, self.digits.due(), spinner, self.review.next_wake()]
            .into_iter()
            .flatten()
            .min()
    }

    /// `+` and `-`: the next speed; a move being sown goes on at it.
    pub(super) fn change_speed(&mut self, faster: bool, now: Instant) {
        let next = match self.chosen.change_speed(faster) {
            Ok(next) => next,
            Err(end) => return self.notes.say(Note::plain(end)),
        };
        match next {
            Some(delay) => {
                if let Mode::Sowing(a) = &mut self.mode {
                    a.set_delay(delay);
                }
            }
            None => self.finish_sowing(now),
        }
        self.notes.say(Note::plain(prefs::speed_message(next)));
    }

    pub(super) fn toggle_pause(&mut self, now: Instant) {
        if !self.any_computer() {
            self.notes.say(Note::plain(
                "Pause is for computer players: nobody to pause.",
            ));
            return;
        }
        self.paused = !self.paused;
        self.steps_allowed = 0;
        if self.paused {
            self.notes.say(Note::plain(paused_text(self.rules())));
            // A search under way is dropped and a chosen move is not
            // played: paused means nothing moves a second later.
            if matches!(
                self.mode,
                Mode::Thinking(_) | Mode::Chosen { .. } | Mode::Ready
            ) {
                self.cancel_thinking();
                self.mode = Mode::Paused;
            }
        } else {
            self.notes.say(Note::plain("Resumed."));
            if matches!(self.mode, Mode::Paused) {
                self.next_turn(now);
            }
        }
    }

    pub(super) fn step(&mut self, now: Instant) {
        if self.paused {
            self.steps_allowed += 1;
            if matches!(self.mode, Mode::Paused) {
                self.next_turn(now);
            }
        } else if self.any_computer() {
            self.notes.say(Note::plain("Press p to pause first."));
        }
    }

    /// `m`: the session's move now, when a computer is to move; else the
    /// hint being looked for answers now.
    pub(super) fn move_now(&mut self, now: Instant) {
        match self.session.asking() {
            Asking::Computer(_) => self.command(SessionCommand::MoveNow, now),
            _ => self.hurry(now),
        }
    }

    /// The computer thinking (a move or a hint) answers now with the best
    /// it has found; a move it has chosen is played at once.
    pub(super) fn hurry(&mut self, now: Instant) {
        match &mut self.mode {
            Mode::Thinking(t) | Mode::Turn { hint: Some(t) } => {
                self.requests.push(Request::Hurry { id: t.id });
            }
            Mode::Chosen { at, .. } => {
                *at = now;
                self.tick(now);
            }
            _ => self.notes.say(Note::plain(
                "Nobody is thinking: m makes a thinking computer move now.",
            )),
        }
    }

    /// `h`: the session asks for a hint when one is open now.
    pub(super) fn ask_hint(&mut self, now: Instant) {
        match self.mode {
            Mode::Turn { hint: Some(_) } => {}
            Mode::Turn { hint: None } if self.human_to_move().is_some() => {
                self.command(SessionCommand::Hint, now);
            }
            _ => self
                .notes
                .say(Note::plain("Hints are for the human to move.")),
        }
    }

    pub(super) fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Stops the search under way, if any (its answer is then stale).
    pub(super) fn cancel_thinking(&mut self) {
        let searching = match &mut self.mode {
            Mode::Thinking(_) => true,
            Mode::Turn { hint } => hint.take().is_some(),
            _ => false,
        };
        if searching {
            self.requests.push(Request::StopAll);
            if matches!(self.mode, Mode::Thinking(_)) {
                self.mode = Mode::Paused;
            }
        }
    }

    /// The requests for the computer made since the last call.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// The computer answered.
    pub fn on_answer(&mut self, answer: Answer, now: Instant) {
        self.now = now;
        match (answer, self.mode.clone()) {
            (Answer::Move { id, pit }, Mode::Thinking(thinking)) if id == thinking.id => {
                let Purpose::Move(side) = thinking.purpose else {
                    return;
                };
                let board = self.session.game().position();
                // An answer the rules refuse goes to the session at once,
                // which plays the first legal pit and says so.
                let Some(pit) = pit.filter(|&p| board.check(p).is_ok()) else {
                    self.mode = Mode::Turn { hint: None };
                    let unproven = self.unproven.take();
                    return self.command(SessionCommand::Computer { pit, unproven }, now);
                };
                self.cursor[side.index()] = Some(pit);
                // A computer's choice shows for a moment before it is played.
                self.mode = Mode::Chosen {
                    pit,
                    at: now + self.move_pause,
                };
            }
            (Answer::Unproven { id, thought }, Mode::Thinking(thinking)) if id == thinking.id => {
                if let Purpose::Move(_) = thinking.purpose {
                    self.unproven = Some(thought);
                }
            }
            (Answer::Hint { id, hint }, Mode::Turn { hint: Some(asked) }) if id == asked.id => {
                self.mode = Mode::Turn { hint: None };
                let Some(hint) = hint else {
                    return;
                };
                if let Some(side) = self.human_to_move() {
                    self.cursor[side.index()] = Some(hint.pit);
                }
                self.hint = Some(hint);
                self.notes.say(Note::new(
                    hint_text(self.rules(), self.game().game(), &hint),
                    Tone::Good,
                ));
            }
            _ => {}
        }
    }

    /// Moves the screen on to `now`: animation frames, the computer's
    /// chosen move, a digit waiting for its second. The game clock stands
    /// still while a dialog is up or the terminal is too small.
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        let frozen = self.dialog.is_some()
            || matches!(self.session.asking(), Asking::Resume | Asking::Busy)
            || self.too_small()
            || self.quit;
        match (frozen, self.frozen_since) {
            (true, None) => self.frozen_since = Some(now),
            (false, Some(since)) => {
                let stood = now.saturating_duration_since(since);
                match &mut self.mode {
                    Mode::Sowing(a) => a.postpone(stood),
                    Mode::Chosen { at, .. } => *at += stood,
                    _ => {}
                }
                self.digits.postpone(stood);
                self.frozen_since = None;
            }
            _ => {}
        }
        if frozen {
            return;
        }
        if matches!(self.mode, Mode::Ready) {
            self.next_turn(now);
        }
        if let Some(side) = self.human_to_move()
            && let Some(number) = self.digits.expired(now)
            && let Some(pit) = self.rules().pit(side, number)
        {
            self.choose(pit, now);
        }
        let sown = match &mut self.mode {
            Mode::Sowing(a) => {
                a.advance(now);
                a.is_done(now)
            }
            _ => false,
        };
        if sown {
            self.finish_sowing(now);
        }
        if let Mode::Chosen { pit, at } = self.mode
            && now >= at
        {
            self.mode = Mode::Turn { hint: None };
            let unproven = self.unproven.take();
            self.command(
                SessionCommand::Computer {
                    pit: Some(pit),
                    unproven,
                },
                now,
            );
        }
    }

    /// The thinking indicator's words, if the computer is thinking.
    #[must_use]
    pub fn thinking_text(&self) -> Option<String> {
        let thinking = self.thinking()?;
        const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        let elapsed = self.now.saturating_duration_since(thinking.since);
        let frame = SPINNER[(elapsed.as_millis() / 100) as usize % SPINNER.len()];
        Some(match thinking.purpose {
            Purpose::Hint => format!("{frame} Looking for the best move for you…"),
            Purpose::Move(side) => {
                format!(
                    "{frame} {} is thinking… {:.1} s",
                    self.session.game().name(side),
                    elapsed.as_secs_f32()
                )
            }
        })
    }
}
