//! The game screen's input: a key, a click or an interrupt at a given time
//! is a pit, or is looked up in the screen's one table of what can be
//! done now ([`keys::offers`], the table the key bar and the help read)
//! and acted on. What a move then does is in [`turns`](super::turns).

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Position, Rect};

use super::{App, Mode, Note, Overlay, Tone};
use crate::rules::{MoveError, Pit, Side};
use crate::session::commands::keys_said;
use crate::session::{Asking, SessionCommand};
use crate::tui::chrome::HelpScroll;
use crate::tui::clipboard;
use crate::tui::digits::{DIGIT_WAIT, Entered};
use crate::tui::game::keys::{self, Does};
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
    pub fn handle_event(&mut self, event: &crossterm::event::Event, now: Instant) {
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
        // While the analysis is on screen the input goes there; leaving it
        // comes back to the end of the round with the theme chosen there.
        if self.review.input(&input, &mut self.chosen) {
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
        if self.dialog == Some(Overlay::Help) {
            // The arrows scroll a help screen taller than the terminal;
            // any other key closes it.
            let help = crate::tui::game::help::text(self);
            if !self.help_scroll.key(key.code, &help, self.size) {
                self.dialog = None;
            }
            return;
        }
        if self.dialog.is_none() && self.remote.is_some() && self.on_waiting_key(key) {
            return;
        }
        if self.dialog.is_none() && matches!(self.mode, Mode::Sowing(_)) {
            // Keys about the screen itself (help, quit, speed, pause) do
            // their job and let the sowing go on; any other key shows the
            // rest of the move at once.
            if let Some(offer) = keys::offers(self).into_iter().find(|o| o.answers(key.code))
                && matches!(
                    offer.does,
                    Does::Session(SessionCommand::Help | SessionCommand::Quit)
                        | Does::Speed
                        | Does::Theme
                        | Does::Pause
                        | Does::Copy
                )
            {
                return self.act(offer.does, key.code, now);
            }
            self.finish_sowing(now);
            // A pit key also plays its pit once the move on show is done:
            // a player who types ahead loses nothing.
            let pit_key = matches!(key.code, KeyCode::Char(c) if c.is_ascii_digit()
                || (c.is_ascii_lowercase() && self.rules().pit_by_letter(c).is_some()));
            if !pit_key || matches!(self.mode, Mode::Sowing(_)) {
                return;
            }
        }
        let mut offers = keys::offers(self);
        if self.too_small() {
            // A question is answered even on the too-small screen, which
            // shows it (see `question`); nothing else is played there.
            offers.retain(|o| {
                matches!(
                    o.does,
                    Does::Session(SessionCommand::Answer(_) | SessionCommand::Quit)
                        | Does::Leave(_)
                )
            });
        } else if self.dialog.is_none()
            && let Asking::Move(side) | Asking::Computer(side) | Asking::Swap(side) =
                self.session.asking()
        {
            if self.human_to_move().is_some() && self.digit_key(key, side, now) {
                return;
            }
            self.digits.clear();
            match keys::pit_key(key.code, self.rules(), side, &offers) {
                Some(Some(pit)) => return self.choose(pit, now),
                Some(None) => return self.refuse(MoveError::NoSuchPit),
                None => {}
            }
        }
        match offers.iter().find(|o| o.answers(key.code)) {
            Some(offer) => self.act(offer.does, key.code, now),
            None => self.unknown_key(key),
        }
    }

    /// A digit typed at `side`'s turn: whether the digit entry took it
    /// (a pit chosen by number, or a first digit waiting for a second).
    fn digit_key(&mut self, key: KeyEvent, side: Side, now: Instant) -> bool {
        let pits = self.rules().pits();
        match self.digits.key(key.code, pits, Some(DIGIT_WAIT), now) {
            Entered::Complete(number) => self.choose_number(side, number, now),
            // 0 is the tenth pit, as on a keyboard's number row.
            Entered::Zero => self.choose_number(side, 10, now),
            Entered::OutOfRange(number) if number >= 10 => {
                self.notes.say(Note::new(
                    format!("There is no pit {number}: the pits are 1 to {pits}."),
                    Tone::Error,
                ));
            }
            Entered::OutOfRange(_) => self.refuse(MoveError::NoSuchPit),
            Entered::Waiting(first) => {
                let tens = match pits {
                    n if n == first * 10 => format!("pit {n}"),
                    n => format!("pits {}-{}", first * 10, n.min(first * 10 + 9)),
                };
                self.notes.say(Note::plain(format!(
                    "{first}… a second digit for {tens}; Enter or a moment's wait plays pit {first}."
                )));
            }
            Entered::Cleared => self.notes.hush(),
            Entered::NotADigit => return false,
        }
        true
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
        let name = key_name(key);
        let text = if self.dialog == Some(Overlay::ConfirmQuit) {
            format!("{name} is not an answer: y quits, n goes back to the game.")
        } else if let Some(side) = self.human_to_move() {
            format!(
                "{name} is not a key here: {} or {} to play, ? for help.",
                self.rules().letter_range(side),
                self.rules().number_range()
            )
        } else if matches!(self.session.asking(), Asking::Move(_) | Asking::Computer(_)) {
            format!("{name} is not a key here: ? for help.")
        } else {
            let keys = keys_said(&self.session.open_commands(), &[]);
            format!("{name} is not an answer: {keys}.")
        };
        self.notes.say(Note::plain(text));
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
        if let Some(pit) = layout.geometry.hit(position) {
            self.choose(pit, now);
        }
    }

    /// The position key: the position now (a move being sown is shown
    /// whole first) on the status line, and its line to the clipboard.
    fn copy_position(&mut self, now: Instant) {
        if matches!(self.mode, Mode::Sowing(_)) {
            self.finish_sowing(now);
        }
        let (said, line) = clipboard::copy(&self.session.current().position());
        self.notes.say(Note::plain(said));
        self.copied = Some(line);
    }

    fn open_help(&mut self) {
        self.help_scroll = HelpScroll::default();
        self.dialog = Some(Overlay::Help);
    }

    /// Does what the table says a key does (see [`keys`]).
    fn act(&mut self, does: Does, code: KeyCode, now: Instant) {
        match does {
            Does::Session(command) => self.run(command, now),
            Does::Cursor => match code {
                KeyCode::Left => self.move_cursor(-1),
                KeyCode::Right => self.move_cursor(1),
                _ => {
                    if let Some(pit) = self.selection() {
                        self.choose(pit, now);
                    }
                }
            },
            Does::Speed => self.change_speed(matches!(code, KeyCode::Char('+' | '=')), now),
            Does::Theme => {
                let message = self.chosen.switch_theme();
                self.notes.say(Note::plain(message));
            }
            Does::Copy => self.copy_position(now),
            Does::Pause => self.toggle_pause(now),
            Does::Step => self.step(now),
            Does::Hurry => self.hurry(now),
            Does::Leave(true) => self.quit_now(),
            Does::Leave(false) => {
                self.dialog = None;
                self.notes.hush();
            }
            Does::Pits | Does::Skip => {}
        }
    }

    /// A command of the session's, from a key: the screen's own parts of
    /// it (the help, the quit question, the network's agreement) here,
    /// the rest to the session.
    fn run(&mut self, command: SessionCommand, now: Instant) {
        match command {
            SessionCommand::Help => self.open_help(),
            SessionCommand::Analyse => self.open_analysis(),
            SessionCommand::Quit if self.session.asking() == Asking::Busy => self.quit_now(),
            SessionCommand::Quit => self.dialog = Some(Overlay::ConfirmQuit),
            SessionCommand::MoveNow => self.move_now(now),
            SessionCommand::Hint => self.ask_hint(now),
            // Both players agree before a move is taken back.
            SessionCommand::Undo if self.remote.is_some() => self.ask_take_back(),
            SessionCommand::Answer(yes) if self.remote.is_some() => self.answer_remote(yes),
            // The host's session decides the pie rule's swap too.
            SessionCommand::Swap if self.remote.is_some() => self.send_swap(),
            command => self.command(command, now),
        }
    }

    /// The human to move typed pit `number` (counted from their left).
    fn choose_number(&mut self, side: Side, number: usize, now: Instant) {
        match self.rules().pit(side, number) {
            Some(pit) => self.choose(pit, now),
            None => self.refuse(MoveError::NoSuchPit),
        }
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
        // In a network match, on both ends, moves wait for the host's session to keep them.
        if self.is_networked() {
            match self.session.game().position().check(pit) {
                Ok(()) => self.send_move(pit),
                Err(e) => self.refuse(e),
            }
            return;
        }
        if self.session.game().position().check(pit).is_ok() {
            // A hint being looked for is no longer wanted.
            self.cancel_thinking();
        }
        self.command(SessionCommand::Play(pit), now);
    }

    pub(super) fn refuse(&mut self, error: MoveError) {
        let game = self.session.game();
        let opponent = game.name(game.position().to_move().opponent());
        self.notes.say(Note::new(
            error.naming_in(game.game(), opponent),
            Tone::Error,
        ));
    }

    fn move_cursor(&mut self, direction: i32) {
        let Some(side) = self.human_to_move() else {
            return;
        };
        let Some(current) = self.selection() else {
            return;
        };
        let rules = *self.rules();
        let legal = self.session.game().position().legal_moves();
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
