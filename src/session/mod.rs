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
//! [`Session::new`]'s thinking time, before the session hands control back
//! (plain mode). A front end that thinks on its own threads (the full
//! screen: an animation, a pause, `m` to move now) builds the session with
//! [`Session::thinking_outside`]: the session then asks for a computer's
//! move ([`Asking::Computer`]) and takes it as a command
//! ([`SessionCommand::Computer`]), and asks for hints with
//! [`SessionEvent::HintWanted`]. Either way the session decides whose turn
//! it is and plays the move.

pub mod commands;

use std::time::Duration;

use crate::analysis::live::{LiveAnalysis, Pause, Watch};
use crate::game::Tally;
use crate::game::messages::{fair_start, pie_rule_greeting, swapped, taken_back};
use crate::game::{
    EventKind, Match, MatchConfig, Notice, Redone, SeatPlayer, Undo, computer_move_in,
    outcome_event, perfect_warning, redo_message, seat_player_for,
};
use crate::players::{Advisor, Hint, Limits, MoveProof};
use crate::rules::{Board, Game, GameBoard, GamePlayed, MoveError, Pit, Side, Step};
use crate::store::keeper::{Found, saved_summary};
use crate::store::{BUSY_NOTICE, Keeper};

pub use commands::{OpenCommand, Unparsed};

/// The search budget of a computer's answer to the pie rule's question:
/// a few milliseconds, so that the full screen (which asks it on its own
/// thread) never waits on it.
const SWAP_NODES: u64 = 100_000;

/// The value of `board` for its side to move, as a computer judges the
/// pie rule's question: the opening book's exact value where it has the
/// position, else a small search's estimate (the same on every run).
fn swap_value(board: &Board) -> Option<i32> {
    use crate::players::search::{Engine, Level};
    if let Some((_, value)) = crate::players::solver::book::known(board) {
        return Some(value);
    }
    let mut engine = Engine::new(16);
    let limits = Limits::nodes(SWAP_NODES);
    engine
        .search(board, &limits, Level::HARD.max_depth, None)
        .map(|result| result.value)
}

/// What a `swap` when the pie rule's question is not open is told
/// (RULES.md §5.3): it is refused, never taken for a move.
#[must_use]
pub fn no_swap_open() -> Notice {
    Notice::new(
        EventKind::Problem,
        "No swap is open now: the pie rule's swap is offered once, to the second player, just after the first turn.",
    )
}

/// What plays one seat.
pub enum SeatKind {
    /// A person at this front end: the session waits for their commands.
    Human,
    /// A computer player: the session asks it for its move.
    Computer(SeatPlayer),
    /// A person on another machine: the session waits for their commands,
    /// which arrive over the network.
    Network,
    /// A player whose moves come from outside the session (a computer
    /// thinking on the front end's thread): the session asks for its move ([`Asking::Computer`]) and takes it as
    /// [`SessionCommand::Computer`].
    Outside,
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
    /// `side`'s [`SeatKind::Outside`] seat is to move: its move comes as
    /// [`SessionCommand::Computer`].
    Computer(Side),
    /// The pie rule (RULES.md §5.3): the person on `side`'s seat may take
    /// the position the starter's first turn made ([`SessionCommand::Swap`])
    /// or play on from their own side (a pit).
    Swap(Side),
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
    /// The move of the seat asked for at [`Asking::Computer`]: `pit` as it
    /// chose it (`None`: it gave up; the first legal pit is played), and
    /// how long it thought when the move is not proven best.
    Computer {
        /// Its choice.
        pit: Option<Pit>,
        /// The time a search took for a move not proven best.
        unproven: Option<Duration>,
    },
    /// The thinking computer answers now with the best it has found
    /// ([`SessionEvent::Hurry`] tells the front end running it).
    MoveNow,
    /// Both players agreed: take back `side`'s last move and the replies
    /// to it.
    TakeBack(Side),
    /// The answer to [`Asking::Swap`]: take the other side's position.
    Swap,
    /// At "Play again?": the analysis of the round just finished (the
    /// front end's own page, as [`SessionCommand::Help`] is; see
    /// [`Session::analysis_of_round`]).
    Analyse,
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
    /// A person on another machine, kept by the host's session: shown as
    /// played, since it was not typed here.
    Network,
}

/// One move made, with everything a front end shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// Who made it.
    pub by: MovedBy,
    /// What it did.
    pub played: GamePlayed,
    /// Every step of its sowing, for the animation.
    pub steps: Vec<Step>,
    /// The position before it, as drawn ([`crate::rules::GameBoard::drawn`]).
    pub before: Board,
    /// The position after it, as drawn.
    pub after: Board,
    /// South's and North's names as the sides were held when it was made
    /// (a pie rule's swap told after it, in the same events, changes the
    /// match's names before they are drawn).
    pub names: [String; 2],
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
    /// A session [thinking outside](Session::thinking_outside) wants the
    /// advice for the person to move in this position worked out.
    HintWanted(GameBoard),
    /// The computer thinking for [`Asking::Computer`] should answer now.
    Hurry,
    /// The rules refused a move; nothing changed.
    Refused(MoveError),
    /// The round is over: its result, and the match's tally with it.
    RoundOver(Notice, Tally),
    /// The round's record was written here.
    Recorded(std::path::PathBuf),
    /// What the round did to a person's rating against the computer's
    /// levels ("Alice 1210 → 1236").
    Rated(crate::store::rating::RatingChange),
    /// Something could not be kept (said each time; the match goes on and
    /// keeping is tried again at the next change).
    KeepFailed(String),
    /// A kept file could not be used and is being made again on spare time
    /// (Oware's endgame database, [`crate::store::oware_endgame::Refused`]):
    /// said once, by every front end and on both ends of a network match.
    Rebuilding(String),
    /// The players swapped sides by the pie rule: what to say ([`Session::game`]'s
    /// seats are the new ones).
    Swapped(Notice),
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
    Computer,
    Swap,
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
    /// Hints are worked out by the front end ([`SessionEvent::HintWanted`]).
    hints_outside: bool,
    /// The round just finished, while "Play again?" is asked.
    finished: Option<Box<Match>>,
    events: Vec<SessionEvent>,
    /// Whether the pie rule is played (`--swap`, RULES.md §5.3).
    pie_rule: bool,
    /// Whether the match's start was dealt fair (`--fair`, RULES.md §5.4).
    fair: bool,
    /// The position where a computer seat chose not to swap (it is not
    /// asked again there).
    kept_sides: Option<(u32, Board)>,
    /// The analysis of the round worked out as it is played
    /// ([`Session::analyse_as_played`]).
    live: Option<LiveAnalysis>,
}

impl Session {
    /// A new match of `config`, its computer seats seeded from `seed`, each
    /// thinking for `think` per move, kept by `keeper`.
    #[must_use]
    pub fn new(config: MatchConfig, seed: u64, think: Duration, keeper: Keeper) -> Session {
        let seats = Side::BOTH.map(|side| {
            seat_player_for(&config, seed, side).map_or(SeatKind::Human, SeatKind::Computer)
        });
        Session::with_seats(Match::new(config, seed), seats, think, keeper)
    }

    /// The match `game` for a front end that runs every search itself:
    /// each seat that is no person at this front end is
    /// [`SeatKind::Outside`], and hints are asked for with
    /// [`SessionEvent::HintWanted`].
    #[must_use]
    pub fn thinking_outside(game: Match, think: Duration, keeper: Keeper) -> Session {
        let seats = Side::BOTH.map(|side| {
            if game.seat(side).kind.is_human() {
                SeatKind::Human
            } else {
                SeatKind::Outside
            }
        });
        let mut session = Session::with_seats(game, seats, think, keeper);
        session.hints_outside = true;
        session
    }

    /// A network match's host: `network`'s seat is the friend's
    /// ([`SeatKind::Network`]), the other this front end's person; its
    /// commands come through [`Session::handle_for`], which checks whose
    /// they are. The match is played on to its first question (nothing is
    /// kept before the first change). Hints are worked out by the front
    /// end ([`SessionEvent::HintWanted`]): the full screen's computer, as
    /// before a friend joined (plain mode's host offers none).
    #[must_use]
    pub fn hosting(game: Match, network: Side, keeper: Keeper) -> Session {
        let mut seats = [SeatKind::Human, SeatKind::Human];
        seats[network.index()] = SeatKind::Network;
        let mut session = Session::with_seats(game, seats, Duration::ZERO, keeper);
        session.hints_outside = true;
        session.play_on();
        session.events.clear();
        session
    }

    /// A network match's screen on either end: the match `game` as the
    /// host's session keeps it, with both seats [`SeatKind::Network`], since every move comes from the
    /// host's session, the referee ([`Session::handle_for`]); `keeper` keeps
    /// each finished round's record and statistics. Hints are worked out by
    /// the front end ([`SessionEvent::HintWanted`]).
    #[must_use]
    pub fn following(game: Match, keeper: Keeper) -> Session {
        let seats = [SeatKind::Network, SeatKind::Network];
        let mut session = Session::with_seats(game, seats, Duration::ZERO, keeper);
        session.hints_outside = true;
        session.follow_game();
        session
    }

    /// Takes `game` as the followed match from here on (the host's, as
    /// it stands after a welcome or a take-back); a finished round waits at
    /// "Play again?" and is not kept again.
    pub fn follow(&mut self, game: Match) {
        self.game = game;
        self.follow_game();
        self.follow_analysis();
    }

    fn follow_game(&mut self) {
        self.finished = None;
        self.pending = self.turn();
        if self.game.position().is_over() {
            self.finished = Some(Box::new(self.game.clone()));
            self.game.next_round();
            self.pending = Pending::PlayAgain;
        }
    }

    fn with_seats(game: Match, seats: [SeatKind; 2], think: Duration, keeper: Keeper) -> Session {
        Session {
            game,
            seats,
            pending: Pending::Over,
            keeper,
            think,
            advisor: None,
            hints_outside: false,
            finished: None,
            events: Vec::new(),
            pie_rule: false,
            fair: false,
            kept_sides: None,
            live: None,
        }
    }

    /// Works out the analysis of each round on spare time as it is played
    /// (a thread of low priority, held still while a computer of this
    /// session thinks; a front end that thinks outside holds
    /// [`Session::analysis_pause`] meanwhile), each position within
    /// `per_position`, so that it is ready when the round ends
    /// ([`Session::round_analysis`]). Kalah only: nothing for another game.
    pub fn analyse_as_played(&mut self, per_position: Duration) {
        if self.game.game() == Game::Kalah {
            self.start_analysis(per_position);
        }
    }

    /// Starts the analysis of the rounds as they are played, if not yet.
    fn start_analysis(&mut self, per_position: Duration) {
        if self.live.is_none() {
            self.live = LiveAnalysis::start(per_position);
            self.follow_analysis();
        }
    }

    /// What holds the analysis worked out as the round is played still
    /// while a computer thinks outside the session.
    #[must_use]
    pub fn analysis_pause(&self) -> Option<Pause> {
        self.live.as_ref().map(LiveAnalysis::pause)
    }

    /// The analysis of the round as it stands ([`Session::current`]: the
    /// round just finished while "Play again?" is asked), when it is
    /// worked out as the round is played.
    #[must_use]
    pub fn round_analysis(&self) -> Option<Watch> {
        self.live.as_ref().map(LiveAnalysis::watch)
    }

    /// The analysis of the round just finished, asked for at "Play
    /// again?" ([`SessionCommand::Analyse`]), of either family: the one
    /// worked out as it was played, started now (within `per_position` a
    /// position, then kept for the rounds after) where it was not. The
    /// one path of every front end: none analyses a round itself. `None`
    /// only when the system refuses the analysis a thread.
    pub fn analysis_of_round(&mut self, per_position: Duration) -> Option<Watch> {
        self.start_analysis(per_position);
        self.round_analysis()
    }

    /// Tells the analysis the round as it stands.
    fn follow_analysis(&mut self) {
        let Some(live) = &mut self.live else {
            return;
        };
        let m = self.finished.as_deref().unwrap_or(&self.game);
        live.follow(m.config().start_round(m.starter()), m.moves());
    }

    /// Plays the pie rule (`--swap`, RULES.md §5.3): when the starter's
    /// first turn ends, the other player may take its position.
    /// A followed match's open turn becomes the pie rule's question where
    /// it is due.
    pub fn set_pie_rule(&mut self, on: bool) {
        self.pie_rule = on;
        if matches!(self.pending, Pending::Move | Pending::Swap) {
            self.pending = self.turn();
        }
    }

    /// The question of a person's turn now: the pie rule's where it is due
    /// (RULES.md §5.3, Kalah's only), else a move.
    fn turn(&self) -> Pending {
        if self.pie_rule && self.game.game() == Game::Kalah && self.game.at_pie_point() {
            Pending::Swap
        } else {
            Pending::Move
        }
    }

    /// Whether the pie rule is played.
    #[must_use]
    pub fn pie_rule(&self) -> bool {
        self.pie_rule
    }

    /// The match's start (its configuration's) was dealt fair (`--fair`,
    /// RULES.md §5.4): said as it starts.
    pub fn set_fair_start(&mut self, on: bool) {
        self.fair = on;
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
            Pending::Move => Asking::Move(self.game.position().to_move()),
            Pending::Computer => Asking::Computer(self.game.position().to_move()),
            Pending::Swap => Asking::Swap(self.game.position().to_move()),
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

    /// The round just finished, while "Play again?" is asked (and after
    /// the session ended there): [`Session::game`] is the next round's
    /// already.
    #[must_use]
    pub fn finished_round(&self) -> Option<&Match> {
        self.finished.as_deref()
    }

    /// Whether the match is saved here now (to resume it later).
    #[must_use]
    pub fn has_save(&self) -> bool {
        self.keeper.has_save(self.game.config())
    }

    /// What to say once as the match starts, before anything else (both
    /// front ends say these): the fair start dealt and its proof, the pie
    /// rule, a perfect player that may not prove its moves in time.
    #[must_use]
    pub fn greetings(&self) -> Vec<Notice> {
        let config = self.game.config();
        let fair = config.start.as_ref().filter(|_| self.fair).map(fair_start);
        let pie = (self.pie_rule && config.game == Game::Kalah).then(pie_rule_greeting);
        fair.into_iter()
            .chain(pie)
            .chain(perfect_warning(config, self.think))
            .collect()
    }

    /// Starts the session: the saved match on offer, or the match played
    /// up to its first question.
    pub fn start(&mut self) -> Vec<SessionEvent> {
        if !matches!(self.pending, Pending::Over) {
            // Started already: a followed match.
            return Vec::new();
        }
        let config = self.game.config().clone();
        let found = self.keeper.look(&config);
        if found.busy {
            self.say(Notice::new(EventKind::Problem, BUSY_NOTICE));
            self.ask(Pending::Busy(Box::new(found)));
        } else {
            self.offer(found);
        }
        self.follow_analysis();
        std::mem::take(&mut self.events)
    }

    /// Carries out `command` given by `side`'s player: a move is refused
    /// ([`MoveError::NotYours`]) unless that player is the one asked to
    /// move now (a seat at another machine may send one at any time).
    /// At the pie rule's question a pit of the player asked plays on, and
    /// [`SessionCommand::Swap`] is taken from that player only; a swap
    /// when none is open is refused with [`no_swap_open`]'s sentence.
    pub fn handle_for(&mut self, side: Side, command: SessionCommand) -> Vec<SessionEvent> {
        let asking = self.asking();
        let theirs = matches!(asking, Asking::Move(s) | Asking::Swap(s) if s == side);
        if matches!(command, SessionCommand::Play(_)) && !theirs {
            let error = match asking {
                Asking::Move(_) | Asking::Computer(_) | Asking::Swap(_) => MoveError::NotYours,
                _ => MoveError::GameOver,
            };
            return vec![SessionEvent::Refused(error)];
        }
        if command == SessionCommand::Swap && asking != Asking::Swap(side) {
            return vec![SessionEvent::Notice(no_swap_open())];
        }
        self.handle(command)
    }

    /// Whether the last change is not saved yet (its save failed).
    #[must_use]
    pub fn is_behind(&self) -> bool {
        self.keeper.is_behind()
    }

    /// Tries again the save that failed; what could not be kept.
    pub fn save_again(&mut self) -> Vec<SessionEvent> {
        self.save();
        std::mem::take(&mut self.events)
    }

    /// The match as it stands: the round just finished while "Play
    /// again?" is asked, else the round in play.
    #[must_use]
    pub fn current(&self) -> &Match {
        self.finished.as_deref().unwrap_or(&self.game)
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
                self.finished = None;
                self.open_round();
                self.play_on();
            }
            (Pending::PlayAgain, SessionCommand::Answer(false) | SessionCommand::Finish) => {
                self.finish();
                self.end(Ending::Finished { after_round: true });
            }
            (Pending::PlayAgain, SessionCommand::Undo) => {
                let round = self.finished.as_ref().map_or(0, |m| m.round());
                self.say(Undo::RoundOver(round).message());
                self.pending = Pending::PlayAgain;
            }
            (Pending::PlayAgain, SessionCommand::Quit) => self.end(Ending::Stopped {
                saved: self.keeper.is_saving(),
            }),
            (Pending::Swap, SessionCommand::Swap) => {
                self.swap();
                self.play_on();
            }
            (Pending::Move | Pending::Swap, command) => self.on_turn(command),
            (Pending::Computer, command) => self.on_computer(command),
            (pending, _) => self.pending = pending,
        }
        // Whatever the command, the question open after it is asked again
        // (unless the session ended).
        if !matches!(self.pending, Pending::Over)
            && !matches!(self.events.last(), Some(SessionEvent::Asked(_)))
        {
            self.events.push(SessionEvent::Asked(self.asking()));
        }
        self.tell_endgame_news();
        self.follow_analysis();
        std::mem::take(&mut self.events)
    }

    /// Says what Oware's endgame database's grower has to tell (a damaged
    /// file it builds again on spare time), once, in an Oware match, before
    /// the question asked or the ending: the grower runs on its own
    /// thread, so it is told at the next command, never waited for.
    fn tell_endgame_news(&mut self) {
        if self.game.game() != Game::Oware {
            return;
        }
        let news = crate::players::oware::shelf().take_news();
        if news.is_empty() {
            return;
        }
        let at = match self.events.last() {
            Some(SessionEvent::Asked(_) | SessionEvent::Ended(_)) => self.events.len() - 1,
            _ => self.events.len(),
        };
        let said = news.into_iter().map(SessionEvent::Rebuilding);
        self.events.splice(at..at, said);
    }

    fn on_turn(&mut self, command: SessionCommand) {
        self.pending = Pending::Move;
        match command {
            SessionCommand::Play(pit) => {
                let seat = &self.seats[self.game.holder(self.game.position().to_move()).index()];
                let by = match seat {
                    SeatKind::Network => MovedBy::Network,
                    _ => MovedBy::Person,
                };
                if let Err(e) = self.game.position().check(pit) {
                    self.events.push(SessionEvent::Refused(e));
                } else {
                    self.play(pit, by);
                }
            }
            SessionCommand::Undo => self.undo(),
            SessionCommand::Redo => self.redo(),
            SessionCommand::Hint if self.hints_outside => {
                self.events
                    .push(SessionEvent::HintWanted(self.game.position()));
            }
            SessionCommand::Hint => {
                let _held = self.live.as_ref().map(|live| live.pause().hold());
                let advisor = self.advisor.get_or_insert_with(Advisor::new);
                let limits = Limits::time(self.think);
                if let Some(hint) = advisor.advise(&self.game.position(), &limits) {
                    self.events.push(SessionEvent::Hinted(hint));
                }
            }
            SessionCommand::Help
            | SessionCommand::Analyse
            | SessionCommand::Answer(_)
            | SessionCommand::Computer { .. }
            | SessionCommand::Swap
            | SessionCommand::MoveNow => {}
            SessionCommand::TakeBack(side) => self.take_back(side),
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

    /// A command while an outside seat is to move: its move, or what a
    /// person may do meanwhile (undo, redo, move now, quit).
    fn on_computer(&mut self, command: SessionCommand) {
        match command {
            SessionCommand::Computer { pit, unproven } => {
                let position = self.game.position();
                self.pending = Pending::Computer;
                if let Some(choice) = computer_move_in(&position, pit) {
                    let by = MovedBy::Computer {
                        fallback: choice.fallback,
                        unproven,
                    };
                    self.play(choice.pit, by);
                }
                self.play_on();
            }
            SessionCommand::MoveNow => {
                self.pending = Pending::Computer;
                self.events.push(SessionEvent::Hurry);
            }
            SessionCommand::Play(_) | SessionCommand::Hint => self.pending = Pending::Computer,
            command => self.on_turn(command),
        }
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
        let opening = self.game.opening();
        let board = *self.game.board();
        self.events.push(SessionEvent::RoundOpened(opening, board));
    }

    /// Plays the computers' moves until a person's turn or the round's
    /// end, and asks the question that comes then.
    fn play_on(&mut self) {
        loop {
            let position = self.game.position();
            if position.is_over() {
                break;
            }
            let side = position.to_move();
            // The pie rule is Kalah's (RULES.md §5.3).
            if self.pie_rule
                && self.game.game() == crate::rules::Game::Kalah
                && self.game.at_pie_point()
            {
                let board = *self.game.board();
                let here = Some((self.game.round(), board));
                let person = matches!(
                    self.seats[self.game.holder(side).index()],
                    SeatKind::Human | SeatKind::Network
                );
                if person {
                    return self.ask(Pending::Swap);
                }
                if self.kept_sides != here {
                    if self.computer_swaps(&board) {
                        self.swap();
                        continue;
                    }
                    self.kept_sides = here;
                }
            }
            self.follow_analysis();
            // the analysis stands still while this computer thinks
            let held = self.live.as_ref().map(|live| live.pause().hold());
            let player = match &mut self.seats[self.game.holder(side).index()] {
                SeatKind::Computer(player) => player,
                SeatKind::Outside => return self.ask(Pending::Computer),
                SeatKind::Human | SeatKind::Network => return self.ask(Pending::Move),
            };
            let chosen = player.choose(&position, &Limits::time(self.think));
            drop(held);
            let unproven = match player.last_proof() {
                Some(MoveProof::Unproven { thought }) => Some(thought),
                _ => None,
            };
            let Some(choice) = computer_move_in(&position, chosen) else {
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

    /// Whether a computer to move takes the position its opponent's first
    /// turn made: when that position is better for the side that made
    /// it, by the engine's advice in a small fixed budget (the same
    /// answer on every run).
    fn computer_swaps(&mut self, board: &Board) -> bool {
        swap_value(board).is_some_and(|value| value < 0)
    }

    /// The pie rule's swap: the seats change sides for the rest of the
    /// round; the match is kept.
    fn swap(&mut self) {
        self.stop_thinking_ahead();
        self.game.swap_seats();
        self.events.push(SessionEvent::Swapped(self.swap_said()));
        self.save();
    }

    /// What the pie rule's swap in this round says: the second player took
    /// the position of the starter's first turn (RULES.md §5.3), and the
    /// starter moves next from the other side.
    fn swap_said(&self) -> Notice {
        let side = self.game.starter().opponent();
        swapped(self.game.name(side.opponent()), self.game.name(side), side)
    }

    /// South's and North's names when move `index` of this round was made:
    /// the seats' own sides before the pie rule's swap, the other after.
    fn names_at(&self, index: usize) -> [String; 2] {
        let swapped = self.game.swapped().is_some_and(|after| index >= after);
        let [south, north] = [Side::South, Side::North].map(|side| {
            let seat = if swapped { side.opponent() } else { side };
            self.game.seat_name(seat).to_string()
        });
        [south, north]
    }

    /// Plays a checked pit and keeps the match.
    fn play(&mut self, pit: Pit, by: MovedBy) {
        let before = *self.game.board();
        let mut steps = Vec::new();
        let played = match self.game.play_move(pit, &mut steps) {
            Ok(played) => played,
            Err(e) => return self.events.push(SessionEvent::Refused(e)),
        };
        self.save();
        let after = *self.game.board();
        let names = self.names_at(self.game.moves().len() - 1);
        self.events.push(SessionEvent::Moved(Box::new(Moved {
            by,
            played,
            steps,
            before,
            after,
            names,
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
        let result = outcome_event(outcome, m.position().score(), m.names());
        let tally = *m.tally();
        self.events.push(SessionEvent::RoundOver(result, tally));
        let kept = self.keeper.close_round(&self.game);
        self.events.extend(kept.record.map(SessionEvent::Recorded));
        self.events
            .extend(kept.ratings.into_iter().map(SessionEvent::Rated));
        self.events
            .extend(kept.warnings.into_iter().map(SessionEvent::KeepFailed));
        self.finished = Some(Box::new(self.game.clone()));
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

    /// Both agreed: `side`'s last move and the replies to it go.
    fn take_back(&mut self, side: Side) {
        self.stop_thinking_ahead();
        if let Undo::Undone(moves) = self.game.undo_for(side) {
            let board = *self.game.board();
            let mover = self.game.name(self.game.position().to_move());
            let said = Notice::new(EventKind::News, taken_back(moves, mover));
            self.events.push(SessionEvent::TookBack(said, board));
            self.save();
        }
    }

    fn redo(&mut self) {
        self.stop_thinking_ahead();
        let (was_swapped, played_before) = (self.game.swapped(), self.game.moves().len());
        let redone = self.game.redo_turn();
        let said = redo_message(&redone);
        let any = !redone.is_empty();
        // The pie rule's swap that undo took back with a move comes back
        // with it, said after that move as when it was made.
        let swapped_after = match (was_swapped, self.game.swapped()) {
            (None, Some(after)) => Some(after),
            _ => None,
        };
        for (
            i,
            Redone {
                played,
                steps,
                before,
                after,
            },
        ) in redone.into_iter().enumerate()
        {
            let names = self.names_at(played_before + i);
            self.events.push(SessionEvent::Moved(Box::new(Moved {
                by: MovedBy::Redone,
                played,
                steps,
                before,
                after,
                names,
            })));
            if swapped_after == Some(played_before + i + 1) {
                self.events.push(SessionEvent::Swapped(self.swap_said()));
            }
        }
        self.say(said);
        if any {
            self.save();
        }
    }
}

#[cfg(test)]
mod tests;
