//! The game screen's model: the view of a match a [`Session`] plays.
//! The session owns the match (whose turn it is, what is legal, the
//! question open, what is kept); this only asks it and shows it.
//!
//! - [`Mode`]: what the screen is doing while the session waits: showing
//!   its question (a person's turn, the question about a match open in
//!   another window, the resume offer, "Play again?"), sowing a move, a
//!   computer thinking, a computer's choice on show, paused; a dialog
//!   ([`Overlay`]: help, quit) may sit on top of any of them.
//! - [`Notes`]: the status line and the log.
//! - the cursor and digit entry ([`DigitEntry`]), the speed and theme
//!   ([`Chosen`], shared with the other screens), the computers' pause,
//!   and the outbox of effects.
//!
//! [`App::on_input`] and [`App::tick`] take the time as an argument and
//! never touch the terminal or start threads: keys become the session's
//! commands, its events become drawing; what the computer should think
//! about comes out of [`App::take_requests`], its answers go in through
//! [`App::on_answer`] and on to the session. That keeps every screen
//! testable without a terminal.
//!
//! This file holds the model's types and what the screen reads from it;
//! the ways it changes are in submodules, one concern each:
//! `input` (keys and clicks become commands), `turns` (the session's
//! events shown: moves sown, taken back, new rounds), `clock` (time
//! passing, and the computer's requests and answers) and `remote` (the
//! network's part).

use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use crate::game::{Match, PlayOptions, match_score, plural};
use crate::players::Hint;
use crate::rules::{Pit, Rules, Side};
use crate::session::{Asking, Ending, Session};
use crate::store::Keeper;
use crate::store::keeper::saved_summary;
use crate::tui::analysis::HostedAnalysis;
use crate::tui::animation::Animation;
use crate::tui::chrome::HelpScroll;
use crate::tui::digits::DigitEntry;
use crate::tui::game::computer::Request;
use crate::tui::game::keys;
use crate::tui::game::notes::Notes;
pub use crate::tui::game::notes::{Note, Tone};
use crate::tui::layout::ScreenLayout;
use crate::tui::prefs::{Chosen, Prefs};
use crate::tui::theme::Theme;

mod clock;
mod input;
mod remote;
mod review;
mod turns;
use input::key_name;
pub use remote::{Remote, Shown};

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
    /// The session's question is on screen (a person's turn, the question
    /// about another window, the resume offer, "Play again?"); maybe a
    /// hint being looked for.
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
    /// A computer is to move but has not been asked yet: the first tick
    /// asks it (so that a pause made before then comes first).
    Ready,
    /// A network match waits for the other machine: the other player's
    /// move or answer, a connection, or the network game's next question
    /// (see `app/remote.rs`).
    Waiting,
}

/// The screen state of a match. See the [module docs](self).
pub struct App {
    session: Session,
    mode: Mode,
    /// South's and North's names as held when the move on show was made
    /// (the pie rule's swap may follow it before it is sown).
    sown_by: [String; 2],
    dialog: Option<Overlay>,
    /// How far the help screen is scrolled (on a small terminal).
    help_scroll: HelpScroll,
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
    /// How long the computer thought for the move about to be played when
    /// it is not proven (handed to the session with the move).
    unproven: Option<Duration>,
    next_id: u64,
    /// Set while the game clock stands still (a dialog, a too-small terminal).
    frozen_since: Option<Instant>,
    size: Rect,
    now: Instant,
    quit: bool,
    /// How the session ended, once it did.
    ended: Option<Ending>,
    requests: Vec<Request>,
    /// The network's part, in a match with a friend on another machine.
    remote: Option<Remote>,
    /// The analysis of the round just played, once asked for (`A`).
    review: HostedAnalysis,
    /// What the round just finished did to the players' ratings (the end
    /// panel says it).
    rated: Vec<crate::store::rating::RatingChange>,
    /// The position line to copy to the clipboard (the position key),
    /// until the screen loop takes it.
    copied: Option<String>,
}

impl App {
    /// The screen for a new `game` kept nowhere (a test's) on a terminal
    /// of `size` (columns, lines).
    #[must_use]
    pub fn new(
        game: Match,
        settings: PlayOptions,
        theme: Theme,
        size: (u16, u16),
        now: Instant,
    ) -> App {
        let mut session = Session::thinking_outside(game, settings.think, Keeper::new(None));
        session.set_pie_rule(settings.pie_rule);
        session.set_fair_start(settings.fair);
        App::start(session, settings, theme, size, now)
    }

    /// The screen of `session`, started here: the question it asks first
    /// (a saved match to resume, a match open in another window) or the
    /// first turn.
    #[must_use]
    pub fn start(
        session: Session,
        settings: PlayOptions,
        theme: Theme,
        size: (u16, u16),
        now: Instant,
    ) -> App {
        let mut app = App {
            session,
            mode: Mode::Turn { hint: None },
            sown_by: Default::default(),
            dialog: None,
            help_scroll: HelpScroll::default(),
            notes: Notes::default(),
            chosen: Chosen::unkept(settings.seed_delay, theme),
            move_pause: settings.move_pause,
            cursor: [None; 2],
            digits: DigitEntry::default(),
            paused: false,
            steps_allowed: 0,
            hint: None,
            unproven: None,
            next_id: 1,
            frozen_since: None,
            size: Rect::new(0, 0, size.0, size.1),
            now,
            quit: false,
            ended: None,
            requests: Vec::new(),
            remote: None,
            review: HostedAnalysis::default(),
            rated: Vec::new(),
            copied: None,
        };
        let events = app.session.start();
        app.opening(events);
        let greetings = app.session.greetings();
        if let Some(last) = greetings.last() {
            app.notes.say(Note::from(last.clone()));
        }
        app.notes.log_lines(greetings.into_iter().map(Note::from));
        if matches!(app.session.asking(), Asking::Computer(_)) {
            app.mode = Mode::Ready;
        }
        app
    }

    /// The question waiting for an answer before play goes on, if any
    /// (the too-small screen shows it).
    #[must_use]
    pub fn question(&self) -> Option<&'static str> {
        match self.session.asking() {
            Asking::Busy => Some(crate::store::BUSY_QUESTION),
            Asking::Resume => Some(crate::store::RESUME_QUESTION),
            Asking::PlayAgain if self.round_over() => Some(PLAY_AGAIN),
            _ => None,
        }
    }

    /// Whether the question about the match open in another window waits
    /// for its answer.
    #[must_use]
    pub fn busy_question(&self) -> bool {
        self.session.asking() == Asking::Busy
    }

    /// The question about a saved match, while it is asked.
    #[must_use]
    pub fn resume_summary(&self) -> Option<String> {
        self.session.offered().map(saved_summary)
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

    /// What the round just finished did to the players' ratings.
    #[must_use]
    pub fn rating_changes(&self) -> &[crate::store::rating::RatingChange] {
        &self.rated
    }

    /// The session playing the match.
    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session playing the match, for the host's seat to referee the
    /// friend's commands in (the host's full screen: the screen is told
    /// what changed, [`Shown::Happened`]).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The match on show: the saved one while its resume is asked, the
    /// round just finished while "Play again?" is, else the one in play.
    #[must_use]
    pub fn game(&self) -> &Match {
        self.session
            .offered()
            .or(self.session.finished_round())
            .unwrap_or(self.session.game())
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.session.game().rules()
    }

    /// The styles to draw with.
    #[must_use]
    pub fn theme(&self) -> &Theme {
        self.chosen.theme()
    }

    /// The speed and theme, and which keys change them.
    #[must_use]
    pub fn prefs(&self) -> &Chosen {
        &self.chosen
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
    pub fn help_scroll(&self) -> HelpScroll {
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

    /// South's and North's names in the match on show ([`App::game`]:
    /// the round just finished keeps the sides of the pie rule's swap).
    #[must_use]
    pub fn names(&self) -> [&str; 2] {
        self.game().names()
    }

    /// The names on the board: while a move is sown, the sides as held
    /// when it was made, else [`App::names`].
    #[must_use]
    pub fn board_names(&self) -> [&str; 2] {
        match self.mode {
            Mode::Sowing(_) => [self.sown_by[0].as_str(), self.sown_by[1].as_str()],
            _ => self.names(),
        }
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
            None => self.game().board().counts(),
        }
    }

    /// Whether the round is over and its result is on screen.
    #[must_use]
    pub fn round_over(&self) -> bool {
        matches!(self.mode, Mode::Turn { .. }) && self.session.asking() == Asking::PlayAgain
    }

    /// The side whose turn it is, once any move being shown is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        if self.waits_for_the_network() || self.animation().is_some() {
            return None;
        }
        let position = self.game().position();
        (!position.is_over()).then(|| position.to_move())
    }

    /// The human whose turn it is (`None` on a computer's turn, mid-move, or
    /// when the round is over).
    #[must_use]
    pub fn human_to_move(&self) -> Option<Side> {
        match (&self.mode, self.session.asking()) {
            (Mode::Turn { .. }, Asking::Move(side) | Asking::Swap(side)) => Some(side),
            _ => None,
        }
    }

    /// Whether a computer plays a seat here (the pause is for them).
    #[must_use]
    pub fn any_computer(&self) -> bool {
        self.remote.is_none()
            && Side::BOTH
                .iter()
                .any(|&s| !self.session.game().seat(s).kind.is_human())
    }

    /// The pit under the cursor: the human mover's choice, or the pit a
    /// computer has just chosen.
    #[must_use]
    pub fn selection(&self) -> Option<Pit> {
        if let Some(pit) = self.chosen() {
            return Some(pit);
        }
        let side = self.human_to_move()?;
        let legal = self.session.game().position().legal_moves();
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

    /// Whether the match is saved here to resume (said after the game).
    #[must_use]
    pub fn left_saved(&self) -> bool {
        matches!(self.ended, Some(Ending::Stopped { saved: true })) && self.session.has_save()
    }

    /// The line printed on the normal screen after the game.
    #[must_use]
    pub fn final_score(&self) -> String {
        let [south, north] = self.names();
        match self.ended {
            Some(Ending::LeftToOther) => {
                return "Nothing was played here: the match goes on in the other window."
                    .to_string();
            }
            Some(Ending::Untouched) => {
                return format!(
                    "Nothing was played; the unfinished match of {south} and {north} is still saved."
                );
            }
            _ => {}
        }
        let game = self.game();
        let tally = game.tally();
        let rounds = tally.rounds();
        let mut line = format!(
            "Final score: {} ({} played)",
            match_score(tally, self.names()),
            plural(rounds, "round"),
        );
        if game.outcome().is_none() && !game.moves().is_empty() {
            line.push_str(&format!("; round {} was left unfinished", game.round()));
        }
        line.push('.');
        line
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod swap_tests;
