//! The game screen's input: a key, a click or an interrupt at a given time
//! becomes an [`Action`] and is acted on, or answers the question or dialog
//! on screen (help, quit, resume, the match open in another window, play
//! again). Kept apart from the model so that every key's meaning is read in
//! one place; what a move then does is in [`turns`](super::turns).

use std::time::Instant;

#[cfg(test)]
use crossterm::event::Event;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Position, Rect};

use super::{App, Mode, Note, Overlay, Tone};
use crate::rules::{MoveError, Pit, Side};
use crate::session::commands::keys_said;
use crate::session::{Asking, SessionCommand};
use crate::tui::chrome::HelpScroll;
use crate::tui::digits::{DIGIT_WAIT, Entered};
use crate::tui::game::keys::{self, Action, Situation};
use crate::tui::input::{Input, chord_message};
use crate::tui::layout::ScreenLayout;

impl App {
    /// The terminal changed size.
    pub fn resize(&mut self, columns: u16, lines: u16) {
        self.size = Rect::new(0, 0, columns, lines);
    }

    /// Reacts to one terminal event at time `now` (through [`Input`], the
    /// one input path).
    #[cfg(test)]
    pub fn handle_event(&mut self, event: &Event, now: Instant) {
        if let Some(input) = Input::from_event(event) {
            self.on_input(input, now);
        }
    }

    /// Reacts to one input at time `now`.
    pub fn on_input(&mut self, input: Input, now: Instant) {
        self.now = now;
        if let Input::Resize(columns, lines) = input {
            self.resize(columns, lines);
        }
        if self.analysis_input(&input) {
            if matches!(input, Input::Interrupt) {
                self.quit_now();
            }
            return;
        }
        match input {
            Input::Key(key) => self.on_key(key, now),
            Input::Interrupt => self.quit_now(),
            Input::Chord(key) => {
                // Never a move: Ctrl-D is not d, nor Ctrl-U undo.
                self.notes.say(Note::plain(chord_message(key)));
            }
            Input::Click(position) => self.on_click(position, now),
            // The wheel scrolls an open help; it does nothing else here.
            Input::Scroll(step) if self.dialog == Some(Overlay::Help) => {
                let help = crate::tui::game::help::text(self);
                self.help_scroll.wheel(step, &help, self.size);
            }
            // A resize was taken in above, before the analysis could.
            Input::Scroll(_) | Input::Tick | Input::Resize(..) => {}
        }
        self.tick(now);
    }

    fn on_key(&mut self, key: KeyEvent, now: Instant) {
        match self.dialog {
            Some(Overlay::Help) => {
                // The arrows scroll a help screen taller than the terminal;
                // any other key closes it.
                let help = crate::tui::game::help::text(self);
                if !self.help_scroll.key(key.code, &help, self.size) {
                    self.dialog = None;
                }
                return;
            }
            Some(Overlay::ConfirmQuit) => {
                match key.code {
                    KeyCode::Char('y' | 'Y') => self.quit_now(),
                    KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => {
                        self.dialog = None;
                        self.notes.hush();
                    }
                    _ => self.notes.say(Note::plain(format!(
                        "{} is not an answer: y quits, n goes back to the game.",
                        key_name(key)
                    ))),
                }
                return;
            }
            None => {}
        }
        let asking = self.session.asking();
        if matches!(asking, Asking::Busy | Asking::Resume) {
            return self.answer_key(key, asking, now);
        }
        // A question is answered even on the too-small screen, which shows
        // it (see `question`); nothing else is played there.
        if self.too_small() && asking != Asking::Resume {
            match key.code {
                KeyCode::Char('q') | KeyCode::Esc => self.dialog = Some(Overlay::ConfirmQuit),
                KeyCode::Char('y' | 'Y') if self.round_over() => {
                    self.command(SessionCommand::Answer(true), now);
                }
                KeyCode::Char('n' | 'N') if self.round_over() => {
                    self.command(SessionCommand::Answer(false), now);
                }
                _ => {}
            }
            return;
        }
        if self.remote.is_some() && self.on_waiting_key(key) {
            return;
        }
        if matches!(self.mode, Mode::Sowing(_)) {
            let action = self.key_action(key);
            // Keys about the screen itself (help, quit, speed, pause) do
            // their job and let the sowing go on; any other key shows the
            // rest of the move at once.
            if matches!(
                action,
                Action::Help
                    | Action::AskQuit
                    | Action::Faster
                    | Action::Slower
                    | Action::Theme
                    | Action::Pause
            ) {
                self.act(action, now);
                return;
            }
            self.finish_sowing(now);
            // A pit key also plays its pit once the move on show is done:
            // a player who types ahead loses nothing.
            let pit_key = matches!(action, Action::Choose(_))
                || matches!(key.code, KeyCode::Char(c) if c.is_ascii_digit());
            if !pit_key || matches!(self.mode, Mode::Sowing(_)) {
                return;
            }
        }
        if let (Asking::Swap(_), KeyCode::Char(c)) = (asking, key.code)
            && self.human_to_move().is_some()
            && self
                .session
                .open_commands()
                .iter()
                .any(|o| o.command == SessionCommand::Swap && o.key == c)
        {
            return self.command(SessionCommand::Swap, now);
        }
        if let Some(side) = self.human_to_move() {
            let pits = self.rules().pits();
            match self.digits.key(key.code, pits, Some(DIGIT_WAIT), now) {
                Entered::Complete(number) => return self.choose_number(side, number, now),
                // 0 is the tenth pit, as on a keyboard's number row.
                Entered::Zero => return self.choose_number(side, 10, now),
                Entered::OutOfRange(number) if number >= 10 => {
                    return self.notes.say(Note::new(
                        format!("There is no pit {number}: the pits are 1 to {pits}."),
                        Tone::Error,
                    ));
                }
                Entered::OutOfRange(_) => return self.refuse(MoveError::NoSuchPit),
                Entered::Waiting(first) => {
                    let tens = match pits {
                        n if n == first * 10 => format!("pit {n}"),
                        n => format!("pits {}-{}", first * 10, n.min(first * 10 + 9)),
                    };
                    return self.notes.say(Note::plain(format!(
                        "{first}… a second digit for {tens}; Enter or a moment's wait plays pit {first}."
                    )));
                }
                Entered::Cleared => return self.notes.hush(),
                Entered::NotADigit => {}
            }
        } else {
            self.digits.clear();
        }
        let action = self.key_action(key);
        if action == Action::Nothing {
            self.unknown_key(key);
            return;
        }
        self.act(action, now);
    }

    /// A key at a question before play (the match open in another window,
    /// the resume offer): the session's answer it spells, the help, or
    /// why it is none. The question about another window is about
    /// quitting: q quits without asking again.
    fn answer_key(&mut self, key: KeyEvent, asking: Asking, now: Instant) {
        let command = match key.code {
            KeyCode::Esc => Some(SessionCommand::Quit),
            KeyCode::Char('?') => return self.open_help(),
            KeyCode::Char(c) => self.session.parse(&c.to_string()).ok(),
            _ => None,
        };
        match command {
            Some(SessionCommand::Quit) if asking == Asking::Busy => self.quit_now(),
            Some(SessionCommand::Quit) => self.dialog = Some(Overlay::ConfirmQuit),
            Some(command) => self.command(command, now),
            None => {
                let keys = keys_said(&self.session.open_commands(), &[]);
                self.notes.say(Note::plain(format!(
                    "{} is not an answer: {keys}.",
                    key_name(key)
                )));
            }
        }
    }

    /// A key with no meaning here: say so, change nothing else.
    fn unknown_key(&mut self, key: KeyEvent) {
        if matches!(
            key.code,
            KeyCode::Modifier(_) | KeyCode::Null | KeyCode::CapsLock | KeyCode::NumLock
        ) {
            // Modifier keys alone and keys the terminal cannot name say nothing.
            return;
        }
        let what = if self.can_analyse() {
            "y plays again, n stops, A shows its analysis".to_string()
        } else if self.round_over() {
            "y plays again, n stops".to_string()
        } else if let Some(side) = self.human_to_move() {
            format!(
                "{} or {} to play",
                self.rules().letter_range(side),
                self.rules().number_range()
            )
        } else {
            "p pauses".to_string()
        };
        self.notes.say(Note::plain(format!(
            "{} is not a key here: {what}, ? for help.",
            key_name(key)
        )));
    }

    fn on_click(&mut self, position: Position, now: Instant) {
        self.digits.clear();
        if self.dialog == Some(Overlay::Help) {
            self.dialog = None;
            return;
        }
        if self.dialog.is_some() || matches!(self.session.asking(), Asking::Resume | Asking::Busy) {
            return;
        }
        if matches!(self.mode, Mode::Sowing(_)) {
            self.finish_sowing(now);
            return;
        }
        let Ok(layout) = ScreenLayout::new(self.size, self.rules()) else {
            return;
        };
        if let Some(pit) = layout.geometry().hit(position) {
            self.act(Action::Choose(pit), now);
        }
    }

    /// What a key means now (see [`keys`](crate::tui::game::keys)).
    pub(super) fn key_action(&self, key: KeyEvent) -> Action {
        keys::action_for(
            key,
            &Situation {
                rules: *self.rules(),
                to_move: self.session.game().board().to_move(),
                round_over: self.round_over(),
            },
        )
    }

    fn open_help(&mut self) {
        self.help_scroll = HelpScroll::default();
        self.dialog = Some(Overlay::Help);
    }

    fn act(&mut self, action: Action, now: Instant) {
        match action {
            Action::Help => self.open_help(),
            Action::AskQuit => self.dialog = Some(Overlay::ConfirmQuit),
            Action::Faster => self.change_speed(true, now),
            Action::Slower => self.change_speed(false, now),
            Action::Theme => {
                let message = self.chosen.switch_theme();
                self.notes.say(Note::plain(message));
            }
            Action::Pause => self.toggle_pause(now),
            Action::Step => self.step(now),
            Action::MoveNow => self.move_now(now),
            Action::Undo if self.remote.is_some() => {
                // Both players agree before a move is taken back.
                self.ask_take_back();
            }
            Action::Redo if self.remote.is_some() => self.notes.say(Note::plain(
                "In a network match a move taken back stays taken back: play it again.",
            )),
            Action::Undo => self.command(SessionCommand::Undo, now),
            Action::Redo => self.command(SessionCommand::Redo, now),
            _ if self.round_over() && self.remote.is_some() => match action {
                Action::Yes => self.answer_remote(true),
                Action::No => self.answer_remote(false),
                Action::Analyse => self.open_analysis(),
                _ => self.unknown_answer(),
            },
            _ if self.round_over() => match action {
                Action::Yes => self.command(SessionCommand::Answer(true), now),
                Action::No => self.command(SessionCommand::Answer(false), now),
                Action::Analyse => self.open_analysis(),
                _ => self.unknown_answer(),
            },
            Action::Choose(pit) => self.choose(pit, now),
            Action::NoSuchPit => self.refuse(MoveError::NoSuchPit),
            Action::Cursor(direction) => self.move_cursor(direction),
            Action::Confirm => {
                if let Some(pit) = self.selection() {
                    self.choose(pit, now);
                }
            }
            Action::Hint => self.ask_hint(now),
            Action::Yes | Action::No | Action::Analyse | Action::Nothing => {}
        }
    }

    /// The human to move typed pit `number` (counted from their left).
    fn choose_number(&mut self, side: Side, number: usize, now: Instant) {
        match self.rules().pit(side, number) {
            Some(pit) => self.choose(pit, now),
            None => self.refuse(MoveError::NoSuchPit),
        }
    }

    fn unknown_answer(&mut self) {
        self.notes.say(Note::plain(if self.can_analyse() {
            "The round is over: y plays again, n stops, A shows its analysis, q quits."
        } else {
            "The round is over: y plays again, n stops, q quits."
        }));
    }

    fn quit_now(&mut self) {
        if self.quit {
            return;
        }
        self.cancel_thinking();
        if self.remote.is_some() {
            // The network game tells the other player; the host keeps the match.
            self.quit = true;
            self.leave_network();
            return;
        }
        // Stopping after a finished round ends the match (as "n" to "Play
        // again?" does); stopping mid-round keeps it saved.
        let command = match self.session.asking() {
            Asking::PlayAgain => SessionCommand::Finish,
            _ => SessionCommand::Quit,
        };
        self.command(command, self.now);
        self.quit = true;
    }

    /// A person chose `pit`: the session plays it if the rules allow, else
    /// says why not; on a network joiner it goes to the host first.
    pub(super) fn choose(&mut self, pit: Pit, now: Instant) {
        let Some(side) = self.human_to_move() else {
            if let Some(side) = self.to_move() {
                let name = self.session.game().name(side).to_string();
                self.notes.say(Note::new(
                    format!("Please wait: it is {name}'s turn."),
                    Tone::Error,
                ));
            }
            return;
        };
        self.cursor[side.index()] = Some(pit);
        if self.moves_wait_for_the_host() {
            match self.session.game().board().check(pit) {
                Ok(()) => self.send_move(pit),
                Err(e) => self.refuse(e),
            }
            return;
        }
        if self.session.game().board().check(pit).is_ok() {
            // A hint being looked for is no longer wanted.
            self.cancel_thinking();
        }
        self.command(SessionCommand::Play(pit), now);
    }

    pub(super) fn refuse(&mut self, error: MoveError) {
        self.notes.say(Note::new(error.to_string(), Tone::Error));
    }

    fn move_cursor(&mut self, direction: i32) {
        let Some(side) = self.human_to_move() else {
            return;
        };
        let Some(current) = self.selection() else {
            return;
        };
        let rules = *self.rules();
        let legal = self.session.game().board().legal_moves();
        // On screen North's row runs right to left, so "right" means a
        // lower pit number for North.
        let step = if side == Side::South {
            direction
        } else {
            -direction
        };
        let mut number = rules.number(current).unwrap_or(1) as i32;
        loop {
            number += step;
            if number < 1 || number > rules.pits() as i32 {
                return;
            }
            if let Some(pit) = rules.pit(side, number as usize)
                && legal.contains(pit)
            {
                self.cursor[side.index()] = Some(pit);
                return;
            }
        }
    }
}

/// How a key reads in a message.
pub(super) fn key_name(key: KeyEvent) -> String {
    match key.code {
        KeyCode::Char(c) => c.to_string(),
        other => other.to_string(),
    }
}
