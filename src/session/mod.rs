//! The headless match session: the one owner of a match being played.
//!
//! A [`Session`] holds the [`Match`], what plays each seat ([`SeatKind`]),
//! the question that is open ([`Asking`]), the [`Keeper`] that saves and
//! records it, and how long a computer may think. A front end hands it
//! typed commands ([`SessionCommand`]) and shows the typed events it gives
//! back ([`SessionEvent`]); it never decides whose turn it is, what is
//! legal or what to keep. There is no terminal, socket or file format
//! here: the words are [`crate::game::messages`]', the files the
//! [`Keeper`]'s.
//!
//! Which commands are open now, and how each is typed on this board, is
//! asked of [`Session::open_commands`] (see [`commands`]): the key bar, the
//! help and both front ends' parsers come from that one answer.
//!
//! Computer seats move as soon as it is their turn, within
//! [`Session::new`]'s thinking time, before the session hands control back.

pub mod commands;

use std::time::Duration;

use crate::game::Tally;
use crate::game::messages::round_goes_on;
use crate::game::{
    EventKind, Match, MatchConfig, Notice, Redone, Undo, computer_move, outcome_event,
    perfect_warning, redo_message, seat_player,
};
use crate::players::{Advisor, Hint, Limits, MoveProof, TurnFn};
use crate::rules::{Board, MoveError, Pit, Played, Side, Step};
use crate::store::keeper::{Found, saved_summary};
use crate::store::{BUSY_NOTICE, Keeper};

pub use commands::{OpenCommand, Unparsed};

/// What plays one seat.
pub enum SeatKind {
    /// A person at this front end: the session waits for their commands.
    Human,
    /// A computer player: the session asks it for its move.
    Computer(Box<dyn TurnFn>),
    /// A person on another machine: the session waits for their commands,
    /// which arrive over the network.
    Network,
}

/// The question the session waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asking {
    /// [`crate::store::BUSY_QUESTION`]: the match is open in another window.
    Busy,
    /// [`crate::store::RESUME_QUESTION`] about a saved match.
    Resume,
    /// The person on `side`'s seat chooses a pit.
    Move(Side),
    /// "Play again? (y/n)" after a finished round.
    PlayAgain,
    /// The session has ended: nothing more is asked.
    Over,
}

/// A command to the session: what a player asked for, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionCommand {
    /// Play this pit (the rules may still refuse it).
    Play(Pit),
    /// Take moves back to the last human turn.
    Undo,
    /// Replay the moves taken back, up to the next human turn.
    Redo,
    /// The engine's advice for the person to move.
    Hint,
    /// Show the rules and commands (the front end's own page).
    Help,
    /// Yes or no to the open question (`p` plays on unsaved at
    /// [`Asking::Busy`]).
    Answer(bool),
    /// Stop here; an unfinished match stays saved.
    Quit,
    /// End the match here for good and clear its save (a script's end of
    /// input: the same script run again plays the same game).
    Finish,
}

/// How the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Nothing was played: the match goes on in another window.
    LeftToOther,
    /// The resume question was not answered: the saved match is untouched.
    Untouched,
    /// Stopped in the middle; `saved` says whether the match is kept to
    /// resume.
    Stopped {
        /// Whether the match is saved here.
        saved: bool,
    },
    /// The match is over and its save cleared; `after_round` when it ended
    /// at "Play again?" rather than in the middle of a round.
    Finished {
        /// Whether a round had just ended.
        after_round: bool,
    },
}

/// Who made a move the session reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovedBy {
    /// A person's command.
    Person,
    /// A computer seat; `fallback` when it gave no legal move and its first
    /// legal pit was played; `unproven` the time a search took when its
    /// move is not proven best.
    Computer {
        /// Its own answer could not be played.
        fallback: bool,
        /// How long it thought, when the move is not proven.
        unproven: Option<Duration>,
    },
    /// Replayed by redo.
    Redone,
}

/// One move made, with everything a front end shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// Who made it.
    pub by: MovedBy,
    /// What it did.
    pub played: Played,
    /// Every step of its sowing, for the animation.
    pub steps: Vec<Step>,
    /// The position before it.
    pub before: Board,
    /// The position after it.
    pub after: Board,
}

/// What the session tells its front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEvent {
    /// A sentence for the players (a warning, a result of undo, …).
    Notice(Notice),
    /// Something to know about what is kept ("Note: …" in plain mode).
    Note(String),
    /// A round begins (or goes on after a resume): its opening sentence
    /// and board.
    RoundOpened(Notice, Board),
    /// A move was made.
    Moved(Box<Moved>),
    /// Moves were taken back: what was said, and the board now.
    TookBack(Notice, Board),
    /// The engine's advice for the person to move.
    Hinted(Hint),
    /// The rules refused a move; nothing changed.
    Refused(MoveError),
    /// The round is over: its result, and the match's tally with it.
    RoundOver(Notice, Tally),
    /// The round's record was written here.
    Recorded(std::path::PathBuf),
    /// Something could not be kept (said each time; the match goes on and
    /// keeping is tried again at the next change).
    KeepFailed(String),
    /// The session waits on this question.
    Asked(Asking),
    /// The session is over.
    Ended(Ending),
}

/// The question that is open, with what it needs.
enum Pending {
    Busy(Box<Found>),
    Resume(Box<Match>),
    Move,
    PlayAgain,
    Over,
}

/// A match being played. See the [module docs](self).
pub struct Session {
    game: Match,
    seats: [SeatKind; 2],
    pending: Pending,
    keeper: Keeper,
    think: Duration,
    advisor: Option<Advisor>,
    events: Vec<SessionEvent>,
}

impl Session {
    /// A new match of `config`, its computer seats seeded from `seed`, each
    /// thinking for `think` per move, kept by `keeper`.
    #[must_use]
    pub fn new(config: MatchConfig, seed: u64, think: Duration, keeper: Keeper) -> Session {
        let kinds = config.kinds();
        let seats = Side::BOTH
            .map(|side| seat_player(kinds, seed, side).map_or(SeatKind::Human, SeatKind::Computer));
        Session {
            game: Match::new(config, seed),
            seats,
            pending: Pending::Over,
            keeper,
            think,
            advisor: None,
            events: Vec::new(),
        }
    }

    /// Replaces what plays `side`'s seat.
    pub fn set_seat(&mut self, side: Side, kind: SeatKind) {
        self.seats[side.index()] = kind;
    }

    /// The match.
    #[must_use]
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The question open now.
    #[must_use]
    pub fn asking(&self) -> Asking {
        match self.pending {
            Pending::Busy(_) => Asking::Busy,
            Pending::Resume(_) => Asking::Resume,
            Pending::Move => Asking::Move(self.game.board().to_move()),
            Pending::PlayAgain => Asking::PlayAgain,
            Pending::Over => Asking::Over,
        }
    }

    /// The match saved for resuming while [`Asking::Resume`] is open.
    #[must_use]
    pub fn offered(&self) -> Option<&Match> {
        match &self.pending {
            Pending::Resume(saved) => Some(saved),
            _ => None,
        }
    }

    /// What to say once as the match starts, before anything else: a
    /// perfect player that may not prove its moves in time.
    #[must_use]
    pub fn greeting(&self) -> Option<Notice> {
        perfect_warning(self.game.config(), self.think)
    }

    /// Starts the session: the saved match on offer, or the match played
    /// up to its first question.
    pub fn start(&mut self) -> Vec<SessionEvent> {
        let config = self.game.config().clone();
        let found = self.keeper.look(&config);
        if found.busy {
            self.say(Notice::new(EventKind::Problem, BUSY_NOTICE));
            self.ask(Pending::Busy(Box::new(found)));
        } else {
            self.offer(found);
        }
        std::mem::take(&mut self.events)
    }

    /// Carries out `command`, and plays on to the next question.
    pub fn handle(&mut self, command: SessionCommand) -> Vec<SessionEvent> {
        let pending = std::mem::replace(&mut self.pending, Pending::Over);
        match (pending, command) {
            (Pending::Busy(found), SessionCommand::Answer(true)) => {
                self.say(Notice::new(
                    EventKind::News,
                    "Playing unsaved: rounds are still recorded.",
                ));
                self.offer(*found);
            }
            (Pending::Busy(_), SessionCommand::Answer(false) | SessionCommand::Quit) => {
                self.end(Ending::LeftToOther);
            }
            (Pending::Resume(saved), SessionCommand::Answer(yes)) => {
                if yes {
                    self.game = *saved;
                }
                self.begin();
            }
            (Pending::Resume(_), SessionCommand::Quit | SessionCommand::Finish) => {
                self.end(Ending::Untouched);
            }
            (Pending::PlayAgain, SessionCommand::Answer(true)) => {
                self.open_round();
                self.play_on();
            }
            (Pending::PlayAgain, SessionCommand::Answer(false) | SessionCommand::Finish) => {
                self.finish();
                self.end(Ending::Finished { after_round: true });
            }
            (Pending::PlayAgain, SessionCommand::Quit) => self.end(Ending::Stopped {
                saved: self.keeper.is_saving(),
            }),
            (Pending::Move, command) => self.on_turn(command),
            (pending, _) => self.pending = pending,
        }
        // Whatever the command, the question open after it is asked again
        // (unless the session ended).
        if !matches!(self.pending, Pending::Over)
            && !matches!(self.events.last(), Some(SessionEvent::Asked(_)))
        {
            self.events.push(SessionEvent::Asked(self.asking()));
        }
        std::mem::take(&mut self.events)
    }

    fn on_turn(&mut self, command: SessionCommand) {
        self.pending = Pending::Move;
        match command {
            SessionCommand::Play(pit) => {
                if let Err(e) = self.game.board().check(pit) {
                    self.events.push(SessionEvent::Refused(e));
                } else {
                    self.play(pit, MovedBy::Person);
                }
            }
            SessionCommand::Undo => self.undo(),
            SessionCommand::Redo => self.redo(),
            SessionCommand::Hint => {
                let advisor = self.advisor.get_or_insert_with(Advisor::new);
                let limits = Limits::time(self.think);
                if let Some(hint) = advisor.hint(self.game.board(), &limits) {
                    self.events.push(SessionEvent::Hinted(hint));
                }
            }
            SessionCommand::Help | SessionCommand::Answer(_) => {}
            SessionCommand::Quit => {
                let saved = self.keeper.is_saving();
                self.end(Ending::Stopped { saved });
                return;
            }
            SessionCommand::Finish => {
                self.finish();
                self.end(Ending::Finished { after_round: false });
                return;
            }
        }
        self.play_on();
    }

    fn say(&mut self, notice: Notice) {
        self.events.push(SessionEvent::Notice(notice));
    }

    fn ask(&mut self, pending: Pending) {
        self.pending = pending;
        self.events.push(SessionEvent::Asked(self.asking()));
    }

    fn end(&mut self, ending: Ending) {
        self.pending = Pending::Over;
        self.events.push(SessionEvent::Ended(ending));
    }

    /// Offers the saved match `found`, if any, else plays the new one.
    fn offer(&mut self, found: Found) {
        self.events
            .extend(found.notes.into_iter().map(SessionEvent::Note));
        self.events
            .extend(found.problem.map(SessionEvent::KeepFailed));
        match found.saved {
            Some(saved) => {
                self.say(Notice::new(EventKind::News, saved_summary(&saved)));
                self.ask(Pending::Resume(Box::new(saved)));
            }
            None => self.begin(),
        }
    }

    fn begin(&mut self) {
        self.open_round();
        self.play_on();
    }

    fn open_round(&mut self) {
        let m = &self.game;
        let opening = match m.moves().len() {
            0 => m.round_message(),
            played => round_goes_on(m.round(), played, m.name(m.starter())),
        };
        let board = *m.board();
        self.events.push(SessionEvent::RoundOpened(opening, board));
    }

    /// Plays the computers' moves until a person's turn or the round's
    /// end, and asks the question that comes then.
    fn play_on(&mut self) {
        loop {
            let board = *self.game.board();
            if board.is_over() {
                break;
            }
            let side = board.to_move();
            let SeatKind::Computer(player) = &mut self.seats[side.index()] else {
                self.ask(Pending::Move);
                return;
            };
            let chosen = player.choose(&board, &Limits::time(self.think));
            let unproven = match player.last_proof() {
                Some(MoveProof::Unproven { thought }) => Some(thought),
                _ => None,
            };
            let Some(choice) = computer_move(&board, chosen) else {
                break;
            };
            let by = MovedBy::Computer {
                fallback: choice.fallback,
                unproven,
            };
            self.play(choice.pit, by);
        }
        self.end_round();
        self.ask(Pending::PlayAgain);
    }

    /// Plays a checked pit and keeps the match.
    fn play(&mut self, pit: Pit, by: MovedBy) {
        let before = *self.game.board();
        let mut steps = Vec::new();
        let played = match self.game.play(pit, &mut steps) {
            Ok(played) => played,
            Err(e) => return self.events.push(SessionEvent::Refused(e)),
        };
        self.save();
        let after = *self.game.board();
        self.events.push(SessionEvent::Moved(Box::new(Moved {
            by,
            played,
            steps,
            before,
            after,
        })));
    }

    fn save(&mut self) {
        if let Some(warning) = self.keeper.save(&self.game) {
            self.events.push(SessionEvent::KeepFailed(warning));
        }
    }

    fn finish(&mut self) {
        if let Some(warning) = self.keeper.finish(self.game.config()) {
            self.events.push(SessionEvent::KeepFailed(warning));
        }
    }

    /// Announces the end of the round, keeps its record and statistics,
    /// and moves the match on to the next round.
    fn end_round(&mut self) {
        let m = &self.game;
        let Some(outcome) = m.outcome() else {
            return;
        };
        let result = outcome_event(outcome, m.board().score(), m.names());
        let tally = *m.tally();
        self.events.push(SessionEvent::RoundOver(result, tally));
        let kept = self.keeper.close_round(&self.game);
        self.events.extend(kept.record.map(SessionEvent::Recorded));
        self.events
            .extend(kept.warnings.into_iter().map(SessionEvent::KeepFailed));
        self.game.next_round();
    }

    /// The computers stop thinking ahead: the line of play they were
    /// thinking about is being changed.
    fn stop_thinking_ahead(&mut self) {
        for seat in &mut self.seats {
            if let SeatKind::Computer(player) = seat {
                player.stop_thinking_ahead();
            }
        }
    }

    fn undo(&mut self) {
        self.stop_thinking_ahead();
        let undo = self.game.undo_turn();
        if let Undo::Undone(_) = undo {
            let board = *self.game.board();
            self.events
                .push(SessionEvent::TookBack(undo.message(), board));
            self.save();
        } else {
            self.say(undo.message());
        }
    }

    fn redo(&mut self) {
        self.stop_thinking_ahead();
        let redone = self.game.redo_turn();
        let said = redo_message(&redone);
        let any = !redone.is_empty();
        for Redone {
            played,
            steps,
            before,
            after,
        } in redone
        {
            self.events.push(SessionEvent::Moved(Box::new(Moved {
                by: MovedBy::Redone,
                played,
                steps,
                before,
                after,
            })));
        }
        self.say(said);
        if any {
            self.save();
        }
    }
}

#[cfg(test)]
mod tests;
