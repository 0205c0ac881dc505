//! The network match for any front end: the host's match with the friend
//! at the [`FriendSeat`] (around the host's [`Hosted`] session, the
//! referee), the joiner's following the host's events in a session of its
//! own that draws and keeps them ([`crate::session::Session::following`],
//! fed by the [`Follower`] over the [`JoinLink`]). Plain mode drives both
//! one event at a time ([`HostGame::handle`], [`JoinGame::handle`]) and by
//! a clock ([`HostGame::tick`], [`JoinGame::tick`]), shown through the
//! [`Show`] trait, as is the host's full screen; the joiner's full screen
//! draws the followed session itself.
//!
//! Both ends say the same things for the same match: each confirmed move
//! (its sowing), the board, the rules' messages, whose turn it is
//! (`Waiting for Michael…`), the tally, "Play again? (y/n)" and the other
//! player's answer, requests to take back a move, and who left.
//!
//! A player's input is a typed [`Command`] (the session's): play a pit,
//! take the pie rule's swap, ask to take back your last move, leave (the
//! match stays saved on the host), help, and yes or no to questions. The full screen gives commands;
//! plain mode's lines are read as the session reads them (a letter that
//! names a pit is that pit; `undo`, `quit`, `help` always are commands).
//!
//! [`Hosted`]: crate::net::hosted::Hosted

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use super::code::JoinCode;
use super::hosted::{HOST_SEAT, Happening, JOINER_SEAT};
use super::link::HostEvent;
use super::message::{OpenQuestion, ToJoiner};
use super::session::SessionError;
use crate::game::{Match, MatchConfig, Seat, match_score_line, outcome_message};
use crate::players::PlayerKind;
use crate::rules::{Game, Rules, Side};
use crate::session::Session;
use crate::store::{Keeper, RESUME_QUESTION};

mod friend;
mod host;
mod joiner;

pub use friend::FriendSeat;
pub use host::HostGame;
pub use joiner::{Followed, Follower, JoinGame, JoinLink, Linked, cannot_go_on, greeting};

/// What `mancala host` was asked for.
#[derive(Clone, Debug)]
pub struct HostSetup {
    /// The host player's name.
    pub name: String,
    /// The game family played.
    pub game: crate::rules::Game,
    /// The match's rules.
    pub rules: Rules,
    /// Who starts each round.
    pub first: crate::game::FirstMover,
    /// Where to listen.
    pub bind: SocketAddr,
    /// Pause between two seeds of the sowing animation; `None` shows each
    /// move at once (plain mode prints the sowing line when `Some`).
    pub seed_delay: Option<Duration>,
    /// The pie rule (`--swap`, RULES.md §5.3): after the first turn the
    /// other player may take its position, on either end.
    pub pie_rule: bool,
}

impl HostSetup {
    /// The host's match config against `opponent` (the friend's seat is
    /// the network's).
    #[must_use]
    pub fn config(&self, opponent: &str) -> MatchConfig {
        MatchConfig {
            game: self.game,
            rules: self.rules,
            seats: [
                Seat::new(self.name.clone(), PlayerKind::Human),
                Seat::new(opponent, PlayerKind::Network),
            ],
            first: self.first,
            start: None,
        }
    }

    /// The host's session until a friend joins (every host front end
    /// holds it, and a declined resume question starts it again): the
    /// match that waits for a friend (the host's rules and name, no move
    /// played), or the unfinished match offered; it keeps nothing. It is
    /// a following session, not a referee, because the match is not known
    /// yet: the friend's name is in its seats, which name its save and its
    /// resume note, the unfinished match played depends on who joins, and
    /// a new match's seed is drawn at the join (the referee is built then).
    #[must_use]
    pub fn waiting_session(&self) -> Session {
        let waiting = Match::new(self.config("your friend"), 0);
        let mut session = Session::following(waiting, Keeper::new(None));
        session.set_pie_rule(self.pie_rule);
        session
    }
}

/// What `mancala join` was asked for.
#[derive(Clone, Debug)]
pub struct JoinSetup {
    /// The joiner's name.
    pub name: String,
    /// The game the joiner means to play, if said (a host of another is
    /// not joined); else the host's.
    pub game: Option<crate::rules::Game>,
    /// The host's address as given.
    pub address: String,
    /// The host's addresses, resolved.
    pub addresses: Vec<SocketAddr>,
    /// The join code.
    pub code: JoinCode,
    /// How long to keep trying to reconnect after a lost connection.
    pub reconnect_for: Duration,
    /// Pause between two seeds of the sowing animation; `None` shows each
    /// move at once (plain mode prints the sowing line when `Some`).
    pub seed_delay: Option<Duration>,
}

pub use crate::console::LineInput;
/// A player's command to the network game, typed: the session's.
pub use crate::session::SessionCommand as Command;
use crate::session::commands::{
    command_key, parse_turn, spelled, swap_offer, swap_prompt, turn_offers, yes_no,
};

/// Everything the host's loop waits for.
pub enum HostIn {
    /// From the network threads.
    Net(HostEvent),
    /// From the player.
    Input(LineInput),
}

impl From<HostEvent> for HostIn {
    fn from(e: HostEvent) -> HostIn {
        HostIn::Net(e)
    }
}

/// Everything the joiner's loop waits for.
// Each event is moved once, through a channel: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum JoinIn {
    /// A message on connection number `.0`, or its end.
    Net(u64, Result<ToJoiner, SessionError>),
    /// From the player: a typed line (plain mode).
    Input(LineInput),
}

/// How a front end shows the network match. The required methods are the
/// primitives; the provided ones compose them, so that every front end
/// says the same things.
pub trait Show {
    /// A line of news.
    ///
    /// # Errors
    /// When the output fails.
    fn say(&mut self, text: &str) -> io::Result<()>;
    /// What the player at seat `me` of `m` is asked now; plain mode
    /// prints [`Ask::text`].
    ///
    /// # Errors
    /// When the output fails.
    fn ask(&mut self, ask: Ask, m: &Match, me: Side) -> io::Result<()>;
    /// A line the player typed, as read (plain mode echoes a line read
    /// from a pipe; a screen shows nothing).
    ///
    /// # Errors
    /// When the output fails.
    fn echo(&mut self, _line: &str) -> io::Result<()> {
        Ok(())
    }
    /// The match as it stands (after a welcome, an undo, a new round).
    ///
    /// # Errors
    /// When the output fails.
    fn board(&mut self, m: &Match) -> io::Result<()>;
    /// The resume question was answered no: `waiting` is the match shown
    /// until a friend joins (a screen shows it in place of the saved one,
    /// whose moves are no longer in play; plain mode's lines go on).
    ///
    /// # Errors
    /// When the output fails.
    fn declined(&mut self, _waiting: &Match) -> io::Result<()> {
        Ok(())
    }

    /// The match score.
    ///
    /// # Errors
    /// When the output fails.
    fn tally(&mut self, m: &Match) -> io::Result<()> {
        self.say(&match_score_line(m.tally(), m.names()))
    }

    /// The round in play and its board, and its result when it is over
    /// (a match joined or resumed between two rounds).
    ///
    /// # Errors
    /// When the output fails.
    fn round_start(&mut self, m: &Match) -> io::Result<()> {
        self.say("")?;
        self.say(&m.opening().text)?;
        self.board(m)?;
        match m.outcome() {
            Some(outcome) => self.say(&outcome_message(outcome, m.position().score(), m.names())),
            None => Ok(()),
        }
    }

    /// Shows `what` happened in `m` (the match as it is after it).
    ///
    /// # Errors
    /// When the output fails.
    fn show(&mut self, m: &Match, what: &Happening) -> io::Result<()> {
        show_happening(self, m, what)
    }

    /// The keys.
    ///
    /// # Errors
    /// When the output fails.
    fn help(&mut self, game: Game, rules: &Rules, side: Side) -> io::Result<()> {
        self.say(&help_text(game, rules, side))
    }
}

/// The keys of a network match of `game` for `side`'s player under
/// `rules`.
#[must_use]
pub fn help_text(game: Game, rules: &Rules, side: Side) -> String {
    format!(
        "Choose a {} by its letter ({}) or its number {} from your left; {} asks to take back your last move, {} leaves (the match stays saved on the host), ? shows this help.",
        game.pit_word(),
        rules.letter_range(side),
        rules.number_range(),
        command_key(rules, 'u'),
        command_key(rules, 'q')
    )
}

/// What is said of `what` in `m` (the match after it) when it is news
/// only the network has (a request, an answer, the end, who left);
/// nothing for a change of the match.
#[must_use]
pub fn news_lines(m: &Match, what: &Happening) -> Vec<String> {
    let name = |seat: Side| m.seat_name(seat);
    vec![match what {
        Happening::UndoAsked { by } => format!("{} asks to take back their last move.", name(*by)),
        Happening::UndoDeclined { by } => {
            format!("{} does not agree to take back the move.", name(*by))
        }
        Happening::Again { seat, yes } => {
            let does = if *yes { "wants" } else { "does not want" };
            format!("{} {does} to play again.", name(*seat))
        }
        Happening::Finished => {
            return vec![
                "The match is over. Thanks for playing!".to_string(),
                match_score_line(m.tally(), m.names()),
            ];
        }
        Happening::Left { seat } => {
            let who = name(*seat);
            let mut lines = vec![format!("{who} left the match.")];
            // on the joiner's end: the match waits on the host's machine
            if *seat == HOST_SEAT {
                lines.push(format!(
                    "The match is saved on {who}'s machine: join again with the same command when {who} hosts it again."
                ));
            }
            return lines;
        }
        Happening::HowToJoin(lines) => return lines.clone(),
        Happening::Joined { back, from } => {
            let joined = if *back { "is back" } else { "joined" };
            format!("{} {joined} (from {from}).", name(JOINER_SEAT))
        }
        Happening::Note(text) => format!("Note: {text}"),
        Happening::Swapped { text } => text.clone(),
        Happening::Said(text) => text.clone(),
        _ => return Vec::new(),
    }]
}

/// How every front end shows `what` happened in `m` (the match as it is
/// after it), by [`Show`]'s primitives; a front end that words some
/// happenings itself hands the rest here.
///
/// # Errors
/// When the output fails.
pub fn show_happening<S: Show + ?Sized>(
    show: &mut S,
    m: &Match,
    what: &Happening,
) -> io::Result<()> {
    match what {
        Happening::RoundOver { result, record } => {
            show.say(&result.text)?;
            show.tally(m)?;
            if let Some(path) = record {
                show.say(&format!("Round recorded in {}.", path.display()))?;
            }
        }
        Happening::Undone { text } => {
            show.say(text)?;
            show.board(m)?;
        }
        Happening::NextRound => show.round_start(m)?,
        Happening::Swapped { text } => {
            show.say(text)?;
            show.board(m)?;
        }
        news => {
            for line in news_lines(m, news) {
                show.say(&line)?;
            }
        }
    }
    Ok(())
}

/// What the network game asks of its player now, as data, so that each
/// front end words or shows it in its own way ([`Ask::text`] is the line
/// plain mode prints): the question of the host's session, the referee
/// (worked out once, by [`Hosted::question`](crate::net::hosted::Hosted::question),
/// and carried to the joiner as it is, [`ToJoiner::Asked`]), or what only
/// this end knows. The names and sides it speaks of are the match's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The host's session asks this player.
    Open(OpenQuestion),
    /// "Resume the unfinished match? (y/n)" (the host, before listening).
    Resume,
    /// The connection to the host was lost; the joiner's program tries to
    /// connect again by itself.
    Reconnecting,
    /// The other player left or lost the connection: the host waits for
    /// them to come back (the match is saved).
    Away,
}

impl Ask {
    /// The prompt as plain mode prints it to the player at seat `me` of
    /// `m` (ends with a space when it asks for an answer).
    #[must_use]
    pub fn text(self, m: &Match, me: Side) -> String {
        let rules = m.rules();
        let side = m.holder(me);
        let (name, other) = (m.name(side), m.name(side.opponent()));
        match self {
            Ask::Resume => format!("{RESUME_QUESTION} "),
            Ask::Open(OpenQuestion::Move) => {
                let pit = m.game().pit_word();
                format!("{name}, choose a {pit} ({}): ", rules.letter_range(side))
            }
            Ask::Open(OpenQuestion::Swap) => swap_prompt(rules, name, other, side),
            Ask::Open(OpenQuestion::Wait) => format!("Waiting for {other}…"),
            Ask::Open(OpenQuestion::Agree) => "Agree? (y/n) ".to_string(),
            Ask::Open(OpenQuestion::WaitAgree) => format!("Waiting for {other} to answer…"),
            Ask::Open(OpenQuestion::PlayAgain) => "Play again? (y/n) ".to_string(),
            Ask::Open(OpenQuestion::WaitAgain) => format!("Waiting for {other}'s answer…"),
            Ask::Away => {
                format!("Waiting for {other} to come back (the match is saved; q quits)…")
            }
            Ask::Reconnecting => format!("Trying to reconnect to {other}'s match… (q leaves)"),
        }
    }

    /// Whether this player answers it (a move or a yes or no), rather
    /// than waiting for the other player.
    #[must_use]
    pub fn is_answered_by_this_player(self) -> bool {
        self.is_question() || matches!(self, Ask::Open(OpenQuestion::Move | OpenQuestion::Swap))
    }

    /// Whether it asks for a yes or a no.
    #[must_use]
    pub fn is_question(self) -> bool {
        matches!(
            self,
            Ask::Resume | Ask::Open(OpenQuestion::Agree | OpenQuestion::PlayAgain)
        )
    }
}

/// What a line typed by the player at `seat` in `m` means (on the side
/// the seat plays: [`Match::holder`]), read as the session reads
/// it ([`crate::session::commands`]): a yes or no while `question` is open,
/// a letter that names a pit is that pit, and `undo`, `quit`, `help` and
/// the pie rule's `swap` (or their keys on this board) are the commands
/// (whether a swap is open is the host's session's word). `Ok(None)` for
/// an empty line; `Err` says why it is none of these.
fn read(m: &Match, seat: Side, question: bool, line: &str) -> Result<Option<Command>, String> {
    let (rules, side) = (m.rules(), m.holder(seat));
    let text = line.trim();
    if text.is_empty() {
        return Ok(None);
    }
    // At a question no pit is open: the session's answers, as it spells them.
    let answers = yes_no(("agrees", "yes"), ("refuses", "no"));
    if let Some(answer) = spelled(&answers, text).filter(|_| question) {
        return Ok(Some(answer));
    }
    let offers: Vec<_> = turn_offers(rules)
        .into_iter()
        .filter(|o| is_command(o.command))
        .chain([swap_offer(rules)])
        .collect();
    parse_turn(rules, side, &offers, text).map(Some).map_err(|_| {
        let key = |letter| command_key(rules, letter);
        let pit = m.game().pit_word();
        format!(
            "'{text}' is not a {pit}: type a letter {} or a number {} ({} asks to take back a move, {} leaves).",
            rules.letter_range(side),
            rules.number_range(),
            key('u'),
            key('q')
        )
    })
}

/// Whether `command` works at any moment (quit, help, asking to take a
/// move back) rather than answering the question it waits for.
fn is_command(command: Command) -> bool {
    matches!(command, Command::Quit | Command::Help | Command::Undo)
}

/// Whether `line` can be taken at any moment: an empty line or a command.
fn is_command_line(m: &Match, seat: Side, line: &str) -> bool {
    read(m, seat, false, line).is_ok_and(|c| c.is_none_or(is_command))
}
