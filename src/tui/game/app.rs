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
//!
//! This file holds the model's types and what the screen reads from it;
//! the ways it changes are in submodules, one concern each:
//! `input` (keys, clicks and the answers to questions), `turns` (moves
//! made and taken back, whose turn comes next, new rounds), `clock` (time
//! passing, and the computer's requests and answers) and `remote` (the
//! network's part).

use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use crate::game::{Match, PlayOptions, match_score, perfect_warning, plural};
use crate::players::Hint;
use crate::rules::{Pit, Rules, Side};
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

/// What happened to the match, for whoever keeps it (the
/// [world](crate::tui::game::world) saves it with a [`Keeper`](crate::store::Keeper)).
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
    /// (see `app/remote.rs`).
    Waiting,
}

/// The screen state of a match. See the [module docs](self).
pub struct App {
    game: Match,
    mode: Mode,
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
    /// it is not proven: said on that move's own log line, so that a
    /// computer's moves do not each take two lines of a short log.
    unproven: Option<std::time::Duration>,
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
    /// The analysis of the round just played, once asked for (`A`).
    review: HostedAnalysis,
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
            requests: Vec::new(),
            events: Vec::new(),
            remote: None,
            review: HostedAnalysis::default(),
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
            Mode::Busy => Some(crate::store::BUSY_QUESTION),
            Mode::Resume(_) => Some(crate::store::RESUME_QUESTION),
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

    /// The question about a saved match, while it is asked.
    #[must_use]
    pub fn resume_summary(&self) -> Option<&str> {
        match &self.mode {
            Mode::Resume(offer) => Some(&offer.summary),
            _ => None,
        }
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
}

#[cfg(test)]
mod tests;
