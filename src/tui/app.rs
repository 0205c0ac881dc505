//! Everything on the screen that is not the rules: which screen is up, the
//! cursor, the move being animated, the messages and log, the computer's
//! thinking. The rules state is the [`Match`]; this only asks it.
//!
//! [`App::handle_event`] and [`App::tick`] take the time as an argument and
//! never touch the terminal, the disk or spawn threads: what the computer
//! should think about comes out of [`App::take_requests`], its answers go in
//! through [`App::on_answer`]; what happened to the match (a move, a finished
//! round, the end) comes out of [`App::take_match_events`] for the event loop
//! to save (see [`crate::game::keeper`]). That keeps every screen testable
//! without a terminal.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

#[cfg(test)]
use crossterm::event::Event;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Position, Rect};

use crate::game::keeper::saved_summary;
use crate::game::{Match, PlayOptions, describe, outcome_message};
use crate::players::{Hint, PlayerKind};
use crate::rules::{MoveError, Pit, Played, Rules, Side, Step};
use crate::tui::animation::Animation;
use crate::tui::computer::{Answer, Request};
use crate::tui::input::{Input, chord_message};
use crate::tui::keys::{self, Action, Situation};
use crate::tui::layout::ScreenLayout;
use crate::tui::theme::Theme;

/// Lines of history kept (the screen shows the last few that fit).
const LOG_LENGTH: usize = 40;
/// How far the help screen scrolls (it is about this many lines long).
const HELP_SCROLL_LIMIT: u16 = 40;
/// How long a digit that could start a two-digit pit number (on boards of
/// ten pits or more) waits for the second digit before it is played alone.
pub const DIGIT_WAIT: Duration = Duration::from_millis(1200);
/// Sowing speeds `+` and `-` step through, in milliseconds per seed (0: no animation).
const SPEEDS_MS: [u64; 11] = [0, 20, 40, 70, 100, 150, 220, 330, 500, 750, 1000];

/// A dialog over the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The rules and keys (`?`).
    Help,
    /// "Quit? (y/n)".
    ConfirmQuit,
}

/// What happened to the match, for whoever keeps it (the event loop saves
/// it with a [`Keeper`](crate::game::Keeper)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEvent {
    /// A move was made or taken back, or a new round started: save it.
    Changed,
    /// A move ended the round: record it, and save the next round
    /// ([`Keeper::close_round`](crate::game::Keeper::close_round)).
    /// Sent once per round: a finished round cannot be taken back.
    RoundFinished,
    /// The players stopped after a finished round: the match is over and
    /// its save can go.
    Ended,
}

/// A saved match offered for resuming, and the new one to play instead.
struct ResumeOffer {
    /// The new match, if the players answer "n".
    fresh: Match,
    /// "There is an unfinished match of …".
    summary: String,
}

pub use crate::game::Tone;

/// One line of the log or status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The words.
    pub text: String,
    /// How it reads.
    pub tone: Tone,
}

impl Note {
    fn new(text: impl Into<String>, tone: Tone) -> Note {
        Note {
            text: text.into(),
            tone,
        }
    }
}

/// What the computer is thinking about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// `side`'s next move.
    Move(Side),
    /// A hint for the human to move.
    Hint,
}

/// A search under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The request's id; answers with another id are stale.
    pub id: u64,
    /// What for.
    pub purpose: Purpose,
    /// When it started (for the indicator).
    pub since: Instant,
}

/// The screen state of a match. See the [module docs](self).
pub struct App {
    pub(super) game: Match,
    pub(super) theme: Theme,
    seed_delay: Option<Duration>,
    move_pause: Duration,
    pub(super) overlay: Option<Overlay>,
    /// Lines the help screen is scrolled down by (on a small terminal).
    pub(super) help_scroll: u16,
    /// Set while the game clock stands still (a dialog, a too-small terminal).
    frozen_since: Option<Instant>,
    /// Each side's cursor, remembered between turns.
    cursor: [Option<Pit>; 2],
    pub(super) animation: Option<Animation>,
    /// What the move being animated did, told once it has been seen.
    after_animation: Vec<Note>,
    pub(super) log: VecDeque<Note>,
    pub(super) message: Option<Note>,
    pub(super) thinking: Option<Thinking>,
    /// A computer's chosen pit, played when the pause is over.
    pub(super) pending_move: Option<(Pit, Instant)>,
    pub(super) hint: Option<Hint>,
    next_id: u64,
    requests: Vec<Request>,
    pub(super) paused: bool,
    steps_allowed: u32,
    /// A digit typed by `side` that may start a two-digit pit number, and
    /// when it is played alone if no second digit comes.
    typed: Option<(Side, usize, Instant)>,
    pub(super) size: Rect,
    pub(super) now: Instant,
    quit: bool,
    /// A saved match waiting for "Resume the unfinished match? (y/n)".
    resume: Option<ResumeOffer>,
    events: Vec<MatchEvent>,
    /// What became of the finished round (where it was recorded).
    pub(super) round_note: Option<Note>,
}

impl App {
    /// The screen for `game` on a terminal of `size` (columns, lines).
    #[must_use]
    pub fn new(
        game: Match,
        settings: PlayOptions,
        theme: Theme,
        size: (u16, u16),
        now: Instant,
    ) -> App {
        let mut app = App {
            game,
            theme,
            seed_delay: settings.seed_delay.filter(|d| !d.is_zero()),
            move_pause: settings.move_pause,
            overlay: None,
            help_scroll: 0,
            frozen_since: None,
            cursor: [None; 2],
            animation: None,
            after_animation: Vec::new(),
            log: VecDeque::new(),
            message: None,
            thinking: None,
            pending_move: None,
            hint: None,
            next_id: 1,
            requests: Vec::new(),
            paused: false,
            steps_allowed: 0,
            typed: None,
            size: Rect::new(0, 0, size.0, size.1),
            now,
            quit: false,
            resume: None,
            events: Vec::new(),
            round_note: None,
        };
        app.announce_round();
        app
    }

    /// Shows the `saved` match and asks "Resume the unfinished match?
    /// (y/n)": `y` goes on with it exactly where it stopped, `n` goes on
    /// with the new match this app was made with. Until then nothing moves.
    pub fn offer_resume(&mut self, saved: Match) {
        let summary = saved_summary(&saved);
        let fresh = std::mem::replace(&mut self.game, saved);
        self.log.clear();
        self.cursor = [None; 2];
        self.resume = Some(ResumeOffer { fresh, summary });
    }

    /// The question about a saved match, while it is asked.
    #[must_use]
    pub fn resume_summary(&self) -> Option<&str> {
        self.resume.as_ref().map(|r| r.summary.as_str())
    }

    fn answer_resume(&mut self, resume: bool) {
        let Some(offer) = self.resume.take() else {
            return;
        };
        if resume {
            let played = self.game.moves().len();
            self.push_log(vec![Note::new(
                format!(
                    "Resumed: round {} goes on after {played} move{} ({} moved first).",
                    self.game.round(),
                    if played == 1 { "" } else { "s" },
                    self.game.name(self.game.starter())
                ),
                Tone::Plain,
            )]);
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
            self.message = Some(Note::new(
                "A new match: the saved one is replaced once a move is made.",
                Tone::Plain,
            ));
        }
    }

    /// What happened to the match since the last call, in order.
    pub fn take_match_events(&mut self) -> Vec<MatchEvent> {
        std::mem::take(&mut self.events)
    }

    /// Shows a problem (with keeping the match, say) in the status line and
    /// the log; the game goes on.
    pub fn warn(&mut self, text: impl Into<String>) {
        let note = Note::new(text, Tone::Error);
        self.message = Some(note.clone());
        self.push_log(vec![note]);
    }

    /// Adds a line of news to the log.
    pub fn tell(&mut self, text: impl Into<String>) {
        self.push_log(vec![Note::new(text, Tone::Plain)]);
    }

    /// Says where the finished round was recorded (on the end-of-round
    /// panel and in the log).
    pub fn round_recorded(&mut self, text: impl Into<String>) {
        let note = Note::new(text, Tone::Plain);
        self.round_note = Some(note.clone());
        self.push_log(vec![note]);
    }

    // ----- what the screen shows -------------------------------------------

    /// Where the finished round was recorded, once it was.
    #[must_use]
    pub fn round_note(&self) -> Option<&Note> {
        self.round_note.as_ref()
    }

    /// The match.
    #[must_use]
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// South's and North's names.
    #[must_use]
    pub fn names(&self) -> [&str; 2] {
        [self.game.name(Side::South), self.game.name(Side::North)]
    }

    /// Whether the players have quit.
    #[must_use]
    pub fn wants_quit(&self) -> bool {
        self.quit
    }

    /// The counts on the board now (mid-move while a move is animated).
    #[must_use]
    pub fn shown_counts(&self) -> &[u16] {
        match &self.animation {
            Some(a) => a.counts(),
            None => self.game.board().counts(),
        }
    }

    /// Whether the round is over and its result is on screen.
    #[must_use]
    pub fn round_over(&self) -> bool {
        self.game.outcome().is_some() && self.animation.is_none()
    }

    /// The side whose turn it is, once any move being shown is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        (self.animation.is_none() && !self.game.board().is_over())
            .then(|| self.game.board().to_move())
    }

    fn is_human(&self, side: Side) -> bool {
        self.game.seat(side).kind.is_human()
    }

    /// The human whose turn it is (`None` on a computer's turn, mid-move, or
    /// when the round is over).
    #[must_use]
    pub fn human_to_move(&self) -> Option<Side> {
        self.to_move().filter(|&side| self.is_human(side))
    }

    fn any_computer(&self) -> bool {
        Side::BOTH.iter().any(|&s| !self.is_human(s))
    }

    /// The pit under the cursor: the human mover's choice, or the pit a
    /// computer has just chosen.
    #[must_use]
    pub fn selection(&self) -> Option<Pit> {
        if self.resume.is_some() {
            return None;
        }
        if let Some((pit, _)) = self.pending_move {
            return Some(pit);
        }
        let side = self.human_to_move()?;
        let legal = self.game.board().legal_moves();
        self.cursor[side.index()]
            .filter(|&p| legal.contains(p))
            .or_else(|| legal.into_iter().next())
    }

    /// The current sowing delay (`None`: no animation).
    #[must_use]
    pub fn seed_delay(&self) -> Option<Duration> {
        self.seed_delay
    }

    /// Whether the terminal is too small for the game screen.
    #[must_use]
    pub fn too_small(&self) -> bool {
        ScreenLayout::new(self.size, self.rules()).is_err()
    }

    /// The next time something on screen changes by itself (an animation
    /// frame, a computer move, the thinking indicator), if any.
    #[must_use]
    pub fn next_wake(&self) -> Option<Instant> {
        let spinner = self.thinking.map(|_| self.now + Duration::from_millis(100));
        if self.frozen_since.is_some() {
            // Frames and moves wait for the clock to start again; waking
            // up for them now would only spin.
            return spinner;
        }
        [
            self.animation.as_ref().and_then(Animation::next_frame_at),
            self.pending_move.map(|(_, at)| at),
            self.typed.map(|(_, _, at)| at),
            spinner,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The line printed on the normal screen after the game.
    #[must_use]
    pub fn final_score(&self) -> String {
        let tally = self.game.tally();
        let [south, north] = self.names();
        let rounds = tally.rounds();
        let draws = match tally.draws {
            1 => "1 draw".to_string(),
            n => format!("{n} draws"),
        };
        let mut line = format!(
            "Final score: {south} {} – {} {north}, {draws} ({rounds} round{} played)",
            tally.wins[0],
            tally.wins[1],
            if rounds == 1 { "" } else { "s" }
        );
        if self.resume.is_some() {
            return format!(
                "Nothing was played; the unfinished match of {south} and {north} is still saved."
            );
        }
        if self.game.outcome().is_none() && !self.game.moves().is_empty() {
            line.push_str(&format!(
                "; round {} was left unfinished",
                self.game.round()
            ));
        }
        line.push('.');
        line
    }

    // ----- input -----------------------------------------------------------

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
        match input {
            Input::Key(key) => self.on_key(key, now),
            Input::Interrupt => self.quit_now(),
            Input::Chord(key) => {
                // Never a move: Ctrl-D is not d, nor Ctrl-U undo.
                self.message = Some(Note::new(chord_message(key), Tone::Plain));
            }
            Input::Click(position) => self.on_click(position, now),
            Input::Scroll(_) | Input::Tick => {}
            Input::Resize(columns, lines) => self.resize(columns, lines),
        }
        self.tick(now);
    }

    fn on_key(&mut self, key: KeyEvent, now: Instant) {
        match self.overlay {
            Some(Overlay::Help) => {
                // The arrows scroll a help screen taller than the terminal;
                // any other key closes it.
                match key.code {
                    KeyCode::Up | KeyCode::PageUp => {
                        self.help_scroll = self.help_scroll.saturating_sub(1);
                    }
                    KeyCode::Down | KeyCode::PageDown => {
                        self.help_scroll = (self.help_scroll + 1).min(HELP_SCROLL_LIMIT);
                    }
                    _ => self.overlay = None,
                }
                return;
            }
            Some(Overlay::ConfirmQuit) => {
                match key.code {
                    KeyCode::Char('y' | 'Y') => self.quit_now(),
                    KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => self.overlay = None,
                    _ => {}
                }
                return;
            }
            None => {}
        }
        if self.too_small() {
            if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
                self.overlay = Some(Overlay::ConfirmQuit);
            }
            return;
        }
        if self.resume.is_some() {
            match key.code {
                KeyCode::Char('y' | 'Y') => self.answer_resume(true),
                KeyCode::Char('n' | 'N') => self.answer_resume(false),
                // Nothing is played yet: nothing to confirm.
                KeyCode::Char('q') | KeyCode::Esc => self.quit_now(),
                KeyCode::Char('?') => {
                    self.help_scroll = 0;
                    self.overlay = Some(Overlay::Help);
                }
                _ => {}
            }
            return;
        }
        if let Some(animation) = &mut self.animation {
            // Any key finishes the move on screen at once; keys about the
            // screen itself (help, quit, speed, pause) also do their job.
            animation.finish();
            self.tick(now);
            let action = self.key_action(key);
            if !matches!(
                action,
                Action::Help | Action::AskQuit | Action::Faster | Action::Slower | Action::Pause
            ) {
                return;
            }
            self.act(action, now);
            return;
        }
        if self.typed_number(key, now) {
            return;
        }
        let action = self.key_action(key);
        if action == Action::Nothing {
            self.unknown_key(key);
            return;
        }
        self.act(action, now);
    }

    /// Two-digit pit numbers: a digit that could start one waits for the
    /// second digit, Enter, or [`DIGIT_WAIT`]. Returns whether the key was
    /// taken for that.
    fn typed_number(&mut self, key: KeyEvent, now: Instant) -> bool {
        let Some(side) = self.human_to_move() else {
            self.typed = None;
            return false;
        };
        let rules = *self.rules();
        let digit = match key.code {
            KeyCode::Char(c) => c.to_digit(10).map(|d| d as usize),
            _ => None,
        };
        match (self.typed.take(), digit, key.code) {
            (Some((_, first, _)), Some(second), _) => {
                let number = first * 10 + second;
                match rules.pit(side, number) {
                    Some(pit) => self.choose(pit, now),
                    None => {
                        self.message = Some(Note::new(
                            format!(
                                "There is no pit {number}: the pits are 1 to {}.",
                                rules.pits()
                            ),
                            Tone::Error,
                        ));
                    }
                }
                true
            }
            (Some((_, first, _)), None, KeyCode::Enter) => {
                if let Some(pit) = rules.pit(side, first) {
                    self.choose(pit, now);
                }
                true
            }
            (None, Some(first), _) if first >= 1 && first * 10 <= rules.pits() => {
                self.typed = Some((side, first, now + DIGIT_WAIT));
                let tens = match rules.pits() {
                    n if n == first * 10 => format!("pit {n}"),
                    n => format!("pits {}-{}", first * 10, n.min(first * 10 + 9)),
                };
                self.message = Some(Note::new(
                    format!(
                        "{first}… a second digit for {tens}; Enter or a moment's wait plays pit {first}."
                    ),
                    Tone::Plain,
                ));
                true
            }
            // Any other key forgets the digit and does its own job.
            _ => false,
        }
    }

    /// A key with no meaning here: say so, change nothing else.
    fn unknown_key(&mut self, key: KeyEvent) {
        let name = match key.code {
            // Modifier keys alone and keys the terminal cannot name say nothing.
            KeyCode::Modifier(_) | KeyCode::Null | KeyCode::CapsLock | KeyCode::NumLock => return,
            KeyCode::Char(c) => c.to_string(),
            other => other.to_string(),
        };
        let what = if self.round_over() {
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
        self.message = Some(Note::new(
            format!("{name} is not a key here: {what}, ? for help."),
            Tone::Plain,
        ));
    }

    fn on_click(&mut self, position: Position, now: Instant) {
        self.typed = None;
        if self.overlay == Some(Overlay::Help) {
            self.overlay = None;
            return;
        }
        if self.overlay.is_some() || self.resume.is_some() {
            return;
        }
        if let Some(animation) = &mut self.animation {
            animation.finish();
            self.tick(now);
            return;
        }
        let Ok(layout) = ScreenLayout::new(self.size, self.rules()) else {
            return;
        };
        if let Some(pit) = layout.geometry.hit(position) {
            self.act(Action::Choose(pit), now);
        }
    }

    /// What a key means now (see [`keys`](crate::tui::keys)).
    fn key_action(&self, key: KeyEvent) -> Action {
        keys::action_for(
            key,
            &Situation {
                rules: *self.rules(),
                to_move: self.game.board().to_move(),
                human_to_move: self.human_to_move(),
                round_over: self.round_over(),
            },
        )
    }

    fn act(&mut self, action: Action, now: Instant) {
        match action {
            Action::Help => {
                self.help_scroll = 0;
                self.overlay = Some(Overlay::Help);
            }
            Action::AskQuit if self.round_over() => self.quit_now(),
            Action::AskQuit => self.overlay = Some(Overlay::ConfirmQuit),
            Action::Faster => self.change_speed(true),
            Action::Slower => self.change_speed(false),
            Action::Pause => self.toggle_pause(),
            Action::Step => self.step(),
            Action::Undo => self.undo(now),
            Action::Redo => self.redo(now),
            _ if self.round_over() => match action {
                Action::Yes => self.play_again(),
                Action::No => self.quit_now(),
                _ => {}
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
            Action::Yes | Action::No | Action::Nothing => {}
        }
    }

    fn quit_now(&mut self) {
        if self.quit {
            return;
        }
        self.quit = true;
        self.cancel_thinking();
        // Stopping after a finished round ends the match (as "n" to "Play
        // again?" does in plain mode); stopping mid-round keeps it saved.
        if self.resume.is_none() && self.game.outcome().is_some() {
            self.events.push(MatchEvent::Ended);
        }
    }

    fn refuse(&mut self, error: MoveError) {
        self.message = Some(Note::new(error.to_string(), Tone::Error));
    }

    /// A human chose `pit`: play it if the rules allow, else say why not.
    fn choose(&mut self, pit: Pit, now: Instant) {
        let Some(side) = self.human_to_move() else {
            if let Some(side) = self.to_move() {
                let name = self.game.name(side).to_string();
                self.message = Some(Note::new(
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
        self.cancel_thinking();
        // Checked just above, so this cannot be refused.
        let _ = self.apply_move(pit, now);
    }

    /// The one place where a move is made on the match (humans, computers,
    /// redo alike): plays it, starts its animation, queues its messages and
    /// tells the keeper ([`MatchEvent`]).
    fn apply_move(&mut self, pit: Pit, now: Instant) -> Result<Played, MoveError> {
        let before = self.game.board().counts().to_vec();
        let mut steps: Vec<Step> = Vec::new();
        let played = self.game.play(pit, &mut steps)?;
        self.events.push(if self.game.outcome().is_some() {
            MatchEvent::RoundFinished
        } else {
            MatchEvent::Changed
        });
        self.hint = None;
        self.message = None;
        self.pending_move = None;
        let names = self.names();
        let letter = self.rules().letter(pit).unwrap_or('?');
        let mut notes = vec![Note::new(
            format!("{} played {letter}.", names[played.mover.index()]),
            Tone::Plain,
        )];
        for message in describe(self.rules(), &played, names) {
            // The tone comes from what happened, never from the words.
            let tone = message.tone();
            notes.push(Note::new(message.text, tone));
        }
        if let Some(outcome) = self.game.outcome() {
            let text = outcome_message(outcome, self.game.board().score(), names);
            notes.push(Note::new(text, Tone::Good));
        }
        match self.seed_delay {
            Some(delay) => {
                self.after_animation = notes;
                self.animation = Some(Animation::new(played.mover, &before, steps, delay, now));
            }
            None => {
                self.animation = None;
                self.push_log(notes);
            }
        }
        Ok(played)
    }

    fn push_log(&mut self, notes: Vec<Note>) {
        for note in notes {
            if self.log.len() == LOG_LENGTH {
                self.log.pop_front();
            }
            self.log.push_back(note);
        }
    }

    fn move_cursor(&mut self, direction: i32) {
        let Some(side) = self.human_to_move() else {
            return;
        };
        let Some(current) = self.selection() else {
            return;
        };
        let rules = *self.rules();
        let legal = self.game.board().legal_moves();
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

    fn change_speed(&mut self, faster: bool) {
        let now_ms = self.seed_delay.map_or(0, |d| d.as_millis() as u64);
        let next = if faster {
            SPEEDS_MS.iter().rev().find(|&&ms| ms < now_ms)
        } else {
            SPEEDS_MS.iter().find(|&&ms| ms > now_ms)
        };
        let Some(&ms) = next else {
            return;
        };
        self.seed_delay = (ms > 0).then(|| Duration::from_millis(ms));
        match self.seed_delay {
            Some(delay) => {
                if let Some(a) = &mut self.animation {
                    a.set_delay(delay);
                }
                self.message = Some(Note::new(
                    format!("Sowing speed: {ms} ms per seed."),
                    Tone::Plain,
                ));
            }
            None => {
                if let Some(a) = &mut self.animation {
                    a.finish();
                }
                self.message = Some(Note::new("Animation off.", Tone::Plain));
            }
        }
    }

    fn toggle_pause(&mut self) {
        if !self.any_computer() {
            self.message = Some(Note::new(
                "Pause is for computer players: nobody to pause.",
                Tone::Plain,
            ));
            return;
        }
        self.paused = !self.paused;
        self.steps_allowed = 0;
        if self.paused
            && matches!(
                self.thinking,
                Some(Thinking {
                    purpose: Purpose::Move(_),
                    ..
                })
            )
        {
            // The search under way is dropped, or its answer would be
            // played a moment later as if nothing were paused.
            self.cancel_thinking();
        }
        if self.paused {
            // A chosen move not yet played waits too.
            self.pending_move = None;
        }
        self.message = Some(Note::new(
            if self.paused {
                "Paused: s steps one computer move, p resumes."
            } else {
                "Resumed."
            },
            Tone::Plain,
        ));
    }

    fn step(&mut self) {
        if self.paused {
            self.steps_allowed += 1;
        } else if self.any_computer() {
            self.message = Some(Note::new("Press p to pause first.", Tone::Plain));
        }
    }

    fn ask_hint(&mut self, now: Instant) {
        if self.human_to_move().is_none() {
            self.message = Some(Note::new("Hints are for the human to move.", Tone::Plain));
            return;
        }
        if matches!(self.thinking, Some(t) if t.purpose == Purpose::Hint) {
            return;
        }
        let id = self.fresh_id();
        self.requests.push(Request::Hint {
            id,
            board: *self.game.board(),
        });
        self.thinking = Some(Thinking {
            id,
            purpose: Purpose::Hint,
            since: now,
        });
    }

    fn undo(&mut self, now: Instant) {
        if !self.any_human() {
            self.message = Some(Note::new(
                "Undo goes back to a human's turn; both players here are computers.",
                Tone::Plain,
            ));
            return;
        }
        if self.game.outcome().is_some() {
            // Its record and statistics are written when it ends (as in
            // plain mode), so its result stands.
            self.message = Some(Note::new(
                format!(
                    "Round {} is over; a finished round cannot be taken back.",
                    self.game.round()
                ),
                Tone::Plain,
            ));
            return;
        }
        self.settle();
        let undone = self.game.undo_to_human();
        if undone > 0 {
            self.events.push(MatchEvent::Changed);
        }
        self.message = Some(if undone == 0 {
            Note::new("Nothing to undo in this round.", Tone::Plain)
        } else {
            self.hint = None;
            let s = if undone == 1 { "" } else { "s" };
            self.push_log(vec![Note::new(
                format!("Took back {undone} move{s}."),
                Tone::Plain,
            )]);
            Note::new(
                format!("Took back {undone} move{s}; r redoes."),
                Tone::Plain,
            )
        });
        self.tick(now);
    }

    fn redo(&mut self, now: Instant) {
        let Some(pit) = self.game.redo_move() else {
            self.message = Some(Note::new("Nothing to redo.", Tone::Plain));
            return;
        };
        self.settle();
        if self.apply_move(pit, now).is_err() {
            self.message = Some(Note::new("Nothing to redo.", Tone::Plain));
        }
    }

    fn any_human(&self) -> bool {
        Side::BOTH.iter().any(|&s| self.is_human(s))
    }

    /// Ends whatever is in flight (animation, thinking, a pending computer
    /// move) so that the match can be changed under it.
    fn settle(&mut self) {
        if let Some(a) = &mut self.animation {
            a.finish();
        }
        self.end_animation();
        self.cancel_thinking();
        self.pending_move = None;
    }

    fn play_again(&mut self) {
        self.settle();
        self.game.next_round();
        self.events.push(MatchEvent::Changed);
        self.hint = None;
        self.message = None;
        self.round_note = None;
        self.cursor = [None; 2];
        self.announce_round();
    }

    fn announce_round(&mut self) {
        let starter = self.game.starter();
        let note = Note::new(
            format!(
                "Round {}: {} starts.",
                self.game.round(),
                self.game.name(starter)
            ),
            Tone::Plain,
        );
        self.push_log(vec![note]);
    }

    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn cancel_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.requests.push(Request::StopAll);
        }
    }

    // ----- time and the computer -------------------------------------------

    /// The requests for the computer made since the last call.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// The computer answered.
    pub fn on_answer(&mut self, answer: Answer, now: Instant) {
        self.now = now;
        let Some(thinking) = self.thinking else {
            return;
        };
        match answer {
            Answer::Move { id, pit } if id == thinking.id => {
                self.thinking = None;
                let board = *self.game.board();
                let Purpose::Move(side) = thinking.purpose else {
                    return;
                };
                let pit = match pit.filter(|&p| board.legal_moves().contains(p)) {
                    Some(p) => p,
                    None => {
                        // A turn function that gives up or errs must not
                        // stall the game: play its first legal move.
                        let Some(first) = board.legal_moves().next() else {
                            return;
                        };
                        self.message = Some(Note::new(
                            format!(
                                "{} gave no legal move; playing its first legal pit.",
                                self.game.name(side)
                            ),
                            Tone::Error,
                        ));
                        first
                    }
                };
                self.cursor[side.index()] = Some(pit);
                self.pending_move = Some((pit, now + self.move_pause));
            }
            Answer::Hint { id, hint } if id == thinking.id => {
                self.thinking = None;
                let Some(hint) = hint else {
                    return;
                };
                if let Some(side) = self.human_to_move() {
                    self.cursor[side.index()] = Some(hint.pit);
                }
                let letter = self.rules().letter(hint.pit).unwrap_or('?');
                let how = if hint.exact {
                    "with perfect play you finish"
                } else {
                    "the engine expects you to finish"
                };
                self.hint = Some(hint);
                self.message = Some(Note::new(
                    format!("Hint: play {letter} ({how} {:+}).", hint.value),
                    Tone::Good,
                ));
            }
            _ => {}
        }
    }

    fn end_animation(&mut self) {
        if self.animation.take().is_some() {
            let notes = std::mem::take(&mut self.after_animation);
            self.push_log(notes);
        }
    }

    /// Moves the screen on to `now`: animation frames, the computer's
    /// pending move, starting the computer's thinking. The game clock stands
    /// still while a dialog is up or the terminal is too small.
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        let frozen =
            self.overlay.is_some() || self.resume.is_some() || self.too_small() || self.quit;
        match (frozen, self.frozen_since) {
            (true, None) => self.frozen_since = Some(now),
            (false, Some(since)) => {
                let stood = now.saturating_duration_since(since);
                if let Some(a) = &mut self.animation {
                    a.postpone(stood);
                }
                if let Some((_, at)) = &mut self.pending_move {
                    *at += stood;
                }
                self.frozen_since = None;
            }
            _ => {}
        }
        if frozen {
            return;
        }
        if let Some((side, first, at)) = self.typed
            && now >= at
        {
            self.typed = None;
            if let Some(pit) = self.rules().pit(side, first)
                && self.human_to_move() == Some(side)
            {
                self.choose(pit, now);
            }
        }
        if let Some(a) = &mut self.animation {
            a.advance(now);
            if a.is_done(now) {
                self.end_animation();
            }
        }
        if let Some((pit, at)) = self.pending_move
            && self.animation.is_none()
            && now >= at
        {
            self.pending_move = None;
            if let Err(e) = self.apply_move(pit, now) {
                self.refuse(e);
            }
        }
        self.start_thinking(now);
    }

    fn start_thinking(&mut self, now: Instant) {
        let Some(side) = self.to_move() else {
            return;
        };
        if self.is_human(side) || self.thinking.is_some() || self.pending_move.is_some() {
            return;
        }
        if self.paused {
            if self.steps_allowed == 0 {
                return;
            }
            self.steps_allowed -= 1;
        }
        let id = self.fresh_id();
        self.requests.push(Request::Move {
            id,
            side,
            board: *self.game.board(),
        });
        self.thinking = Some(Thinking {
            id,
            purpose: Purpose::Move(side),
            since: now,
        });
    }

    /// The thinking indicator's words, if the computer is thinking.
    #[must_use]
    pub fn thinking_text(&self) -> Option<String> {
        let thinking = self.thinking?;
        const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        let elapsed = self.now.saturating_duration_since(thinking.since);
        let frame = SPINNER[(elapsed.as_millis() / 100) as usize % SPINNER.len()];
        Some(match thinking.purpose {
            Purpose::Hint => format!("{frame} Looking for the best move for you…"),
            Purpose::Move(side) => {
                let seat = self.game.seat(side);
                let slow = if seat.kind == PlayerKind::Perfect {
                    " (perfect play may take a while)"
                } else {
                    ""
                };
                format!(
                    "{frame} {} is thinking…{slow} {:.1} s",
                    seat.name,
                    elapsed.as_secs_f32()
                )
            }
        })
    }
}

#[cfg(test)]
mod tests;
