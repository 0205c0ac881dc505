//! The game screen's model: which mode the screen is in, and the small
//! parts it is made of. The rules state is the [`Match`]; this only asks it.
//!
//! - [`Mode`]: exactly one of the question about a match open in another
//!   window, resume offer, a human's turn, sowing, a computer thinking, a
//!   computer's choice on show, paused, round over;
//!   a dialog ([`Overlay`]: help, quit) may sit on top of any of them.
//! - [`Notes`]: the status line and the log.
//! - the cursor and digit entry ([`DigitEntry`]), the speed and theme
//!   ([`Chosen`], shared with the other screens), the computers' pause,
//!   and the outbox of effects.
//!
//! [`App::on_input`] and [`App::tick`] take the time as an argument and
//! never touch the terminal or the disk or start threads: what the
//! computer should think about comes out of [`App::take_requests`], its
//! answers go in through [`App::on_answer`]; what happened to the match
//! comes out of [`App::take_match_events`]. The [`world`](crate::tui::game::world)
//! turns both into effects. That keeps every screen testable without a
//! terminal.

use std::time::{Duration, Instant};

#[cfg(test)]
use crossterm::event::Event;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Position, Rect};

use crate::game::keeper::saved_summary;
use crate::game::{
    FirstMover, Match, PlayOptions, Undo, computer_move, describe, gave_no_move, match_score,
    outcome_message, perfect_warning, played as game_played, plural, redo_message, round_goes_on,
    round_starts, unproven,
};
use crate::players::Hint;
use crate::rules::{MoveError, Pit, Played, Rules, Side, Step};
use crate::tui::animation::Animation;
use crate::tui::digits::{DIGIT_WAIT, DigitEntry, Entered};
use crate::tui::game::computer::{Answer, Request};
use crate::tui::game::keys::{self, Action, Situation};
use crate::tui::game::notes::Notes;
pub use crate::tui::game::notes::{Note, Tone};
use crate::tui::input::{Input, chord_message};
use crate::tui::layout::ScreenLayout;
use crate::tui::prefs::{self, Chosen, Prefs};
use crate::tui::theme::Theme;

mod remote;
pub use remote::{Remote, Shown};

/// How far the help screen scrolls (it is about this many lines long).
const HELP_SCROLL_LIMIT: u16 = 40;
/// The question at the end of a round.
pub const PLAY_AGAIN: &str = "Play again? (y/n)";
/// The one wording of the pause, with the keys that work on this board.
#[must_use]
pub fn paused_text(rules: &Rules) -> String {
    format!(
        "Paused: {} plays one computer move, {} resumes.",
        keys::command_key(rules, 's'),
        keys::command_key(rules, 'p')
    )
}

/// A dialog over the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The rules and keys (`?`).
    Help,
    /// "Quit? (y/n)".
    ConfirmQuit,
}

/// What happened to the match, for whoever keeps it (the
/// [world](crate::tui::game::world) saves it with a [`Keeper`](crate::game::Keeper)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEvent {
    /// A move was made or taken back, or a new round started: save it.
    Changed,
    /// A move ended the round: record it, and save the next round.
    /// Sent once per round: a finished round cannot be taken back.
    RoundFinished,
    /// The players stopped after a finished round: the match is over and
    /// its save can go.
    Ended,
}

/// A saved match offered for resuming, and the new one to play instead.
#[derive(Clone, Debug)]
pub struct ResumeOffer {
    /// The new match, if the players answer "n".
    fresh: Match,
    /// "There is an unfinished match of …".
    summary: String,
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

/// What the screen is doing. Exactly one at a time; see the [module docs](self).
#[derive(Clone, Debug)]
pub enum Mode {
    /// Another running game holds this match: "Play it here unsaved, or
    /// quit? (p/q)". Nothing moves until it is answered.
    Busy,
    /// "Resume the unfinished match? (y/n)", the saved board on show.
    Resume(Box<ResumeOffer>),
    /// A human's turn; maybe a hint being looked for.
    Turn {
        /// The hint search under way, if any.
        hint: Option<Thinking>,
    },
    /// A move is being sown seed by seed.
    Sowing(Box<Animation>),
    /// A computer is choosing its move.
    Thinking(Thinking),
    /// A computer chose `pit`; it is played at `at`.
    Chosen {
        /// The pit.
        pit: Pit,
        /// When it is played.
        at: Instant,
    },
    /// A computer's turn, held by the pause (`p`).
    Paused,
    /// The round is over: [`PLAY_AGAIN`].
    RoundOver,
    /// A computer is to move but has not been asked yet: the first tick
    /// asks it (so that a resume offer or a pause made before then comes
    /// first).
    Ready,
    /// A network match waits for the other machine: the other player's
    /// move or answer, a connection, or the network game's next question
    /// (see [`remote`]).
    Waiting,
}

/// The screen state of a match. See the [module docs](self).
pub struct App {
    game: Match,
    mode: Mode,
    dialog: Option<Overlay>,
    /// Lines the help screen is scrolled down by (on a small terminal).
    help_scroll: u16,
    notes: Notes,
    /// The speed and theme, and the keys that change them.
    chosen: Chosen,
    move_pause: Duration,
    /// Each side's cursor, remembered between turns.
    cursor: [Option<Pit>; 2],
    digits: DigitEntry,
    /// Whether the computers wait for `s` or `p`.
    paused: bool,
    /// Computer moves `s` allowed while paused.
    steps_allowed: u32,
    /// The last hint, shown until the next move.
    hint: Option<Hint>,
    next_id: u64,
    /// Set while the game clock stands still (a dialog, a too-small terminal).
    frozen_since: Option<Instant>,
    size: Rect,
    now: Instant,
    quit: bool,
    requests: Vec<Request>,
    events: Vec<MatchEvent>,
    /// The network's part, in a match with a friend on another machine.
    remote: Option<Remote>,
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
            mode: Mode::Turn { hint: None },
            dialog: None,
            help_scroll: 0,
            notes: Notes::default(),
            chosen: Chosen::unkept(settings.seed_delay, theme),
            move_pause: settings.move_pause,
            cursor: [None; 2],
            digits: DigitEntry::default(),
            paused: false,
            steps_allowed: 0,
            hint: None,
            next_id: 1,
            frozen_since: None,
            size: Rect::new(0, 0, size.0, size.1),
            now,
            quit: false,
            requests: Vec::new(),
            events: Vec::new(),
            remote: None,
        };
        app.announce_round();
        if let Some(notice) = perfect_warning(app.game.config(), settings.think) {
            app.notes.say(Note::from(notice.clone()));
            app.notes.log_lines([Note::from(notice)]);
        }
        let board = app.game.board();
        if board.is_over() || app.is_human(board.to_move()) {
            app.next_turn(now);
        } else {
            app.mode = Mode::Ready;
        }
        app
    }

    /// Shows the `saved` match and asks "Resume the unfinished match?
    /// (y/n)": `y` goes on with it exactly where it stopped, `n` goes on
    /// with the new match this app was made with. Until then nothing moves.
    pub fn offer_resume(&mut self, saved: Match) {
        self.cancel_thinking();
        let summary = saved_summary(&saved);
        let fresh = std::mem::replace(&mut self.game, saved);
        self.notes.clear_log();
        self.cursor = [None; 2];
        self.mode = Mode::Resume(Box::new(ResumeOffer { fresh, summary }));
    }

    /// Asks, before anything is played, whether to play this match here
    /// unsaved (`p`) or quit (`q`): another running game holds it.
    pub fn ask_busy(&mut self) {
        self.cancel_thinking();
        self.mode = Mode::Busy;
    }

    /// The question waiting for an answer before play goes on, if any
    /// (the too-small screen shows it).
    #[must_use]
    pub fn question(&self) -> Option<&'static str> {
        match self.mode {
            Mode::Busy => Some(crate::game::BUSY_QUESTION),
            Mode::Resume(_) => Some(crate::game::RESUME_QUESTION),
            Mode::RoundOver => Some(PLAY_AGAIN),
            _ => None,
        }
    }

    /// Whether the question about the match open in another window waits
    /// for its answer.
    #[must_use]
    pub fn busy_question(&self) -> bool {
        matches!(self.mode, Mode::Busy)
    }

    fn answer_busy(&mut self, now: Instant) {
        self.mode = Mode::Turn { hint: None };
        self.warn("This match is open in another window: it is played here unsaved.");
        let board = self.game.board();
        if board.is_over() || self.is_human(board.to_move()) {
            self.next_turn(now);
        } else {
            self.mode = Mode::Ready;
        }
    }

    /// The question about a saved match, while it is asked.
    #[must_use]
    pub fn resume_summary(&self) -> Option<&str> {
        match &self.mode {
            Mode::Resume(offer) => Some(&offer.summary),
            _ => None,
        }
    }

    fn answer_resume(&mut self, resume: bool, now: Instant) {
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

    /// What happened to the match since the last call, in order.
    pub fn take_match_events(&mut self) -> Vec<MatchEvent> {
        std::mem::take(&mut self.events)
    }

    /// Shows with `chosen`'s speed and theme, and keeps what the players
    /// change from there.
    pub fn keep_prefs(&mut self, chosen: Chosen) {
        self.chosen = chosen;
    }

    /// The preferences, if the players changed them since the last call.
    pub fn take_prefs(&mut self) -> Option<Prefs> {
        self.chosen.take_changed()
    }

    /// Shows a problem (with keeping the match, say) in the status line and
    /// the log; the game goes on.
    pub fn warn(&mut self, text: impl Into<String>) {
        let note = Note::new(text, Tone::Error);
        self.notes.say(note.clone());
        self.notes.log_lines([note]);
    }

    /// Adds a line of news to the log.
    pub fn tell(&mut self, text: impl Into<String>) {
        self.notes.log_lines([Note::plain(text)]);
    }

    /// Says where the finished round was recorded (on the end-of-round
    /// panel and in the log).
    pub fn round_recorded(&mut self, text: impl Into<String>) {
        self.notes.set_round_note(Some(Note::plain(text)));
    }

    // ----- what the screen shows -------------------------------------------

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

    /// The styles to draw with.
    #[must_use]
    pub fn theme(&self) -> &Theme {
        self.chosen.theme()
    }

    /// Whether `t` can change the theme (`NO_COLOR` keeps it black and white).
    #[must_use]
    pub fn can_switch_theme(&self) -> bool {
        self.chosen.can_switch_theme()
    }

    /// What the screen is doing.
    #[must_use]
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The dialog on top, if any.
    #[must_use]
    pub fn dialog(&self) -> Option<Overlay> {
        self.dialog
    }

    /// How far the help screen is scrolled.
    #[must_use]
    pub fn help_scroll(&self) -> u16 {
        self.help_scroll
    }

    /// The status line and the log.
    #[must_use]
    pub fn notes(&self) -> &Notes {
        &self.notes
    }

    /// Where the finished round was recorded, once it was.
    #[must_use]
    pub fn round_note(&self) -> Option<&Note> {
        self.notes.round_note()
    }

    /// Whether the computers are paused.
    #[must_use]
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The move being sown, if any.
    #[must_use]
    pub fn animation(&self) -> Option<&Animation> {
        match &self.mode {
            Mode::Sowing(animation) => Some(animation),
            _ => None,
        }
    }

    /// The pit a computer chose and is about to play.
    #[must_use]
    pub fn chosen(&self) -> Option<Pit> {
        match self.mode {
            Mode::Chosen { pit, .. } => Some(pit),
            _ => None,
        }
    }

    /// The terminal's size.
    #[must_use]
    pub fn size(&self) -> Rect {
        self.size
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
        match self.animation() {
            Some(a) => a.counts(),
            None => self.game.board().counts(),
        }
    }

    /// Whether the round is over and its result is on screen.
    #[must_use]
    pub fn round_over(&self) -> bool {
        matches!(self.mode, Mode::RoundOver)
    }

    /// The side whose turn it is, once any move being shown is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        if self.waits_for_the_network() {
            return None;
        }
        (self.animation().is_none() && !self.game.board().is_over())
            .then(|| self.game.board().to_move())
    }

    fn is_human(&self, side: Side) -> bool {
        self.game.seat(side).kind.is_human()
    }

    /// The human whose turn it is (`None` on a computer's turn, mid-move, or
    /// when the round is over).
    #[must_use]
    pub fn human_to_move(&self) -> Option<Side> {
        match self.mode {
            Mode::Turn { .. } => Some(self.game.board().to_move()),
            _ => None,
        }
    }

    fn any_computer(&self) -> bool {
        self.remote.is_none() && Side::BOTH.iter().any(|&s| !self.is_human(s))
    }

    /// The pit under the cursor: the human mover's choice, or the pit a
    /// computer has just chosen.
    #[must_use]
    pub fn selection(&self) -> Option<Pit> {
        if let Some(pit) = self.chosen() {
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
        self.chosen.seed_delay()
    }

    /// Whether the terminal is too small for the game screen.
    #[must_use]
    pub fn too_small(&self) -> bool {
        ScreenLayout::new(self.size, self.rules()).is_err()
    }

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
            return spinner;
        }
        let due = match &self.mode {
            Mode::Sowing(a) => a.next_frame_at(),
            Mode::Chosen { at, .. } => Some(*at),
            _ => None,
        };
        [due, self.digits.due(), spinner]
            .into_iter()
            .flatten()
            .min()
    }

    /// The line printed on the normal screen after the game.
    #[must_use]
    pub fn final_score(&self) -> String {
        let [south, north] = self.names();
        if self.busy_question() {
            return "Nothing was played here: the match goes on in the other window.".to_string();
        }
        if self.resume_summary().is_some() {
            return format!(
                "Nothing was played; the unfinished match of {south} and {north} is still saved."
            );
        }
        let tally = self.game.tally();
        let rounds = tally.rounds();
        let mut line = format!(
            "Final score: {} ({} played)",
            match_score(tally, self.names()),
            plural(rounds, "round"),
        );
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
                self.notes.say(Note::plain(chord_message(key)));
            }
            Input::Click(position) => self.on_click(position, now),
            Input::Scroll(_) | Input::Tick => {}
            Input::Resize(columns, lines) => self.resize(columns, lines),
        }
        self.tick(now);
    }

    fn on_key(&mut self, key: KeyEvent, now: Instant) {
        match self.dialog {
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
                    _ => self.dialog = None,
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
        if matches!(self.mode, Mode::Busy) {
            // The question is about quitting: q quits without asking again.
            match key.code {
                KeyCode::Char('p' | 'P') => self.answer_busy(now),
                KeyCode::Char('q' | 'Q') | KeyCode::Esc => self.quit_now(),
                KeyCode::Char('?') => self.open_help(),
                _ => self.notes.say(Note::plain(format!(
                    "{} is not an answer: p plays here unsaved, q quits.",
                    key_name(key)
                ))),
            }
            return;
        }
        // A question is answered even on the too-small screen, which shows
        // it (see `question`); nothing else is played there.
        if self.too_small() && !matches!(self.mode, Mode::Resume(_)) {
            match key.code {
                KeyCode::Char('q') | KeyCode::Esc => self.dialog = Some(Overlay::ConfirmQuit),
                KeyCode::Char('y' | 'Y') if self.round_over() => self.play_again(now),
                KeyCode::Char('n' | 'N') if self.round_over() => self.quit_now(),
                _ => {}
            }
            return;
        }
        if self.remote.is_some() && self.on_waiting_key(key) {
            return;
        }
        if matches!(self.mode, Mode::Resume(_)) {
            match key.code {
                KeyCode::Char('y' | 'Y') => self.answer_resume(true, now),
                KeyCode::Char('n' | 'N') => self.answer_resume(false, now),
                KeyCode::Char('q') | KeyCode::Esc => self.dialog = Some(Overlay::ConfirmQuit),
                KeyCode::Char('?') => self.open_help(),
                _ => self.notes.say(Note::plain(format!(
                    "{} is not an answer: y resumes, n starts a new match, q quits.",
                    key_name(key)
                ))),
            }
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
            } else {
                self.finish_sowing(now);
            }
            return;
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

    /// A key with no meaning here: say so, change nothing else.
    fn unknown_key(&mut self, key: KeyEvent) {
        if matches!(
            key.code,
            KeyCode::Modifier(_) | KeyCode::Null | KeyCode::CapsLock | KeyCode::NumLock
        ) {
            // Modifier keys alone and keys the terminal cannot name say nothing.
            return;
        }
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
        if self.dialog.is_some() || matches!(self.mode, Mode::Resume(_) | Mode::Busy) {
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
    fn key_action(&self, key: KeyEvent) -> Action {
        keys::action_for(
            key,
            &Situation {
                rules: *self.rules(),
                to_move: self.game.board().to_move(),
                round_over: self.round_over(),
            },
        )
    }

    fn open_help(&mut self) {
        self.help_scroll = 0;
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
            Action::Undo => self.undo(now),
            Action::Redo => self.redo(now),
            _ if self.round_over() && self.remote.is_some() => match action {
                Action::Yes => self.answer_remote(true),
                Action::No => self.answer_remote(false),
                _ => self.unknown_answer(),
            },
            _ if self.round_over() => match action {
                Action::Yes => self.play_again(now),
                Action::No => self.quit_now(),
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
            Action::Yes | Action::No | Action::Nothing => {}
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
        self.notes.say(Note::plain(
            "The round is over: y plays again, n stops, q quits.",
        ));
    }

    fn quit_now(&mut self) {
        if self.quit {
            return;
        }
        self.quit = true;
        self.cancel_thinking();
        if self.remote.is_some() {
            // The network game tells the other player; the host keeps the match.
            self.leave_network();
            return;
        }
        // Stopping after a finished round ends the match (as "n" to "Play
        // again?" does in plain mode); stopping mid-round keeps it saved.
        if !matches!(self.mode, Mode::Resume(_) | Mode::Busy) && self.game.outcome().is_some() {
            self.events.push(MatchEvent::Ended);
        }
    }

    fn refuse(&mut self, error: MoveError) {
        self.notes.say(Note::new(error.to_string(), Tone::Error));
    }

    /// A human chose `pit`: play it if the rules allow, else say why not.
    fn choose(&mut self, pit: Pit, now: Instant) {
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
        if self.remote.is_some() {
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
        self.notes.hush();
        let notes = self.move_notes(&played);
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
    fn move_notes(&self, played: &Played) -> Vec<Note> {
        let names = self.names();
        let letter = self.rules().letter(played.pit).unwrap_or('?');
        let said = game_played(names[played.mover.index()], letter);
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
    fn finish_sowing(&mut self, now: Instant) {
        if matches!(self.mode, Mode::Sowing(_)) {
            self.notes.release();
            self.next_turn(now);
            self.show_queued(now);
        }
    }

    /// Decides what comes after a move (or an undo, a new round, a resumed
    /// match): the round's end, a human's turn, the pause, or a computer's
    /// thinking.
    fn next_turn(&mut self, now: Instant) {
        self.cancel_thinking();
        if self.remote.is_some() {
            self.next_network_turn();
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
        if self.paused {
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

    /// `+` and `-`: the next speed; a move being sown goes on at it.
    fn change_speed(&mut self, faster: bool, now: Instant) {
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

    fn toggle_pause(&mut self, now: Instant) {
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

    fn step(&mut self, now: Instant) {
        if self.paused {
            self.steps_allowed += 1;
            if matches!(self.mode, Mode::Paused) {
                self.next_turn(now);
            }
        } else if self.any_computer() {
            self.notes.say(Note::plain("Press p to pause first."));
        }
    }

    /// `m`: the computer thinking (a move or a hint) answers now with the
    /// best it has found; a move it has chosen is played at once.
    fn move_now(&mut self, now: Instant) {
        match &mut self.mode {
            Mode::Thinking(t) | Mode::Turn { hint: Some(t) } => {
                self.requests.push(Request::Hurry { id: t.id });
            }
            Mode::Chosen { at, .. } => *at = now,
            _ => self.notes.say(Note::plain(
                "Nobody is thinking: m makes a thinking computer move now.",
            )),
        }
    }

    fn ask_hint(&mut self, now: Instant) {
        let Mode::Turn { hint } = self.mode else {
            self.notes
                .say(Note::plain("Hints are for the human to move."));
            return;
        };
        if hint.is_some() {
            return;
        }
        let id = self.fresh_id();
        self.requests.push(Request::Hint {
            id,
            board: *self.game.board(),
        });
        self.mode = Mode::Turn {
            hint: Some(Thinking {
                id,
                purpose: Purpose::Hint,
                since: now,
            }),
        };
    }

    /// Undo by turn, the policy every front end shares ([`Match::undo_turn`]).
    fn undo(&mut self, now: Instant) {
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
    fn redo(&mut self, now: Instant) {
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
            notes.extend(self.move_notes(&move_.played));
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
    fn settle(&mut self) {
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

    fn play_again(&mut self, now: Instant) {
        self.settle();
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

    fn announce_round(&mut self) {
        let starter = self.game.name(self.game.starter()).to_string();
        let coin = self.game.config().first == FirstMover::Random;
        let notice = round_starts(self.game.round(), &starter, coin);
        self.notes.log_lines([Note::from(notice)]);
    }

    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Stops the search under way, if any (its answer is then stale).
    fn cancel_thinking(&mut self) {
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

    // ----- time and the computer -------------------------------------------

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
                // The shared policy: an answer that cannot be played gives
                // the first legal pit, so the game never stalls.
                let Some(choice) = computer_move(self.game.board(), pit) else {
                    return;
                };
                let pit = choice.pit;
                if choice.fallback {
                    let letter = self.rules().letter(pit).unwrap_or('?');
                    let notice = gave_no_move(self.game.name(side), letter);
                    self.notes.say(Note::from(notice));
                }
                self.cursor[side.index()] = Some(pit);
                self.mode = Mode::Chosen {
                    pit,
                    at: now + self.move_pause,
                };
            }
            (Answer::Unproven { id, thought }, Mode::Thinking(thinking)) if id == thinking.id => {
                if let Purpose::Move(side) = thinking.purpose {
                    let notice = unproven(self.game.name(side), thought);
                    self.notes.log_lines([Note::from(notice)]);
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
                self.notes
                    .say(Note::new(hint_text(self.rules(), &hint), Tone::Good));
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
            || matches!(self.mode, Mode::Resume(_) | Mode::Busy)
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
            if let Err(e) = self.apply_move(pit, now) {
                self.refuse(e);
                self.next_turn(now);
            }
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
                    self.game.name(side),
                    elapsed.as_secs_f32()
                )
            }
        })
    }
}

/// How a key reads in a message.
fn key_name(key: KeyEvent) -> String {
    match key.code {
        KeyCode::Char(c) => c.to_string(),
        other => other.to_string(),
    }
}

/// What a hint says: the pit, and how the round ends if both sides play
/// on as the engine sees it ("you win by 9"), and whether that is certain.
#[must_use]
pub fn hint_text(rules: &Rules, hint: &Hint) -> String {
    let letter = rules.letter(hint.pit).unwrap_or('?');
    let result = match hint.value {
        v if v > 0 => format!("win by {v}"),
        v if v < 0 => format!("lose by {}", -v),
        _ => "draw".to_string(),
    };
    if hint.exact {
        format!("Hint: play {letter}: with perfect play you {result}.")
    } else {
        format!("Hint: play {letter}: the engine expects you to {result}.")
    }
}

#[cfg(test)]
mod tests;
