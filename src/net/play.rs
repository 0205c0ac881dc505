//! The network match for any front end: the host's program around the
//! [`Referee`], the joiner's around the [`Mirror`], driven by one event at
//! a time ([`HostGame::handle`], [`JoinGame::handle`]) and a clock
//! ([`HostGame::tick`], [`JoinGame::tick`]), and shown through the
//! [`Show`] trait: plain mode prints lines, the full screen animates.
//!
//! Both ends say the same things for the same match: each confirmed move
//! (its sowing), the board, the rules' messages, whose turn it is
//! (`Waiting for Michael…`), the tally, "Play again? (y/n)" and the other
//! player's answer, requests to take back a move, and who left.
//!
//! Answers are lines (a front end turns keys into them): a pit letter or
//! number, `u` (ask to take back the last move), `q` (leave; the match
//! stays saved on the host), `?` (help), and `y`/`n` to questions.

use std::collections::VecDeque;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::code::JoinCode;
use super::link::{self, HostEvent, PING_EVERY};
use super::message::{At, ToHost, ToJoiner};
use super::referee::{HOST_SIDE, Happening, JOINER_SIDE, Mirror, Out, Referee};
use super::resume::{self, HostNote};
use super::seat::{Admission, SeatKeeper};
use super::session::{Sender, SessionError};
use crate::game::keeper::saved_summary;
use crate::game::messages::round_goes_on;
use crate::game::{
    Keeper, Match, MatchConfig, RESUME_QUESTION, Seat, describe, match_score_line, outcome_message,
};
use crate::players::PlayerKind;
use crate::rng::Rng;
use crate::rules::{Pit, Played, Rules, Side, Step};

/// What `mancala host` was asked for.
#[derive(Clone, Debug)]
pub struct HostSetup {
    /// The host player's name.
    pub name: String,
    /// The match's rules.
    pub rules: Rules,
    /// Who starts each round.
    pub first: crate::game::FirstMover,
    /// Where to listen.
    pub bind: SocketAddr,
    /// Pause between two seeds of the sowing animation; `None` shows each
    /// move at once (plain mode prints the sowing line when `Some`).
    pub seed_delay: Option<Duration>,
}

/// What `mancala join` was asked for.
#[derive(Clone, Debug)]
pub struct JoinSetup {
    /// The joiner's name.
    pub name: String,
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

/// One input line, or its end.
pub enum LineInput {
    /// A line typed (without its end).
    Line(String),
    /// The input ended.
    End,
}

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
    /// From the player.
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
    /// What the player may do now (ends with a space when it asks for an
    /// answer).
    ///
    /// # Errors
    /// When the output fails.
    fn prompt(&mut self, text: &str) -> io::Result<()>;
    /// What the player is asked now, under `rules`; plain mode prints
    /// [`Ask::text`].
    ///
    /// # Errors
    /// When the output fails.
    fn ask(&mut self, ask: &Ask, rules: &Rules) -> io::Result<()> {
        self.prompt(&ask.text(rules))
    }
    /// A line the player typed, as read.
    ///
    /// # Errors
    /// When the output fails.
    fn echo(&mut self, line: &str) -> io::Result<()>;
    /// The match as it stands (after a welcome, an undo, a new round).
    ///
    /// # Errors
    /// When the output fails.
    fn board(&mut self, m: &Match) -> io::Result<()>;
    /// A confirmed move: `m` is the match after it.
    ///
    /// # Errors
    /// When the output fails.
    fn moved(&mut self, m: &Match, played: &Played, steps: &[Step]) -> io::Result<()>;

    /// The match score.
    ///
    /// # Errors
    /// When the output fails.
    fn tally(&mut self, m: &Match) -> io::Result<()> {
        self.say(&match_score_line(m.tally(), names(m)))
    }

    /// The round in play and its board.
    ///
    /// # Errors
    /// When the output fails.
    fn round_start(&mut self, m: &Match) -> io::Result<()> {
        self.say("")?;
        // The same words as every front end (crate::game::messages).
        let opening = match m.moves().len() {
            0 => m.round_message(),
            played => round_goes_on(m.round(), played, m.name(m.starter())),
        };
        self.say(&opening.text)?;
        self.board(m)
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
    fn help(&mut self, rules: &Rules, side: Side) -> io::Result<()> {
        self.say(&format!(
            "Choose a pit by its letter ({}) or its number {} from your left; u asks to take back the last move, q leaves (the match stays saved on the host), ? shows this help.",
            rules.letter_range(side),
            rules.number_range()
        ))
    }
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
    let name = |side: Side| m.name(side).to_string();
    match what {
        Happening::Moved { played, steps } => {
            show.moved(m, played, steps)?;
            for line in describe(m.rules(), played, names(m)) {
                show.say(&line.text)?;
            }
        }
        Happening::RoundOver { outcome, record } => {
            show.say(&outcome_message(*outcome, m.board().score(), names(m)))?;
            show.tally(m)?;
            if let Some(path) = record {
                show.say(&format!("Round recorded in {}.", path.display()))?;
            }
        }
        Happening::UndoAsked { by } => {
            show.say(&format!("{} asks to take back the last move.", name(*by)))?;
        }
        Happening::UndoDeclined { by } => {
            show.say(&format!(
                "{} does not agree to take back the move.",
                name(*by)
            ))?;
        }
        Happening::Undone => {
            show.say("The last move was taken back.")?;
            show.board(m)?;
        }
        Happening::Again { side, yes } => {
            let does = if *yes { "wants" } else { "does not want" };
            show.say(&format!("{} {does} to play again.", name(*side)))?;
        }
        Happening::NextRound => show.round_start(m)?,
        Happening::Finished => {
            show.say("The match is over. Thanks for playing!")?;
            show.tally(m)?;
        }
        Happening::Left { side } => {
            show.say(&format!("{} left the match.", name(*side)))?;
        }
        Happening::Note(text) => show.say(&format!("Note: {text}"))?,
    }
    Ok(())
}

/// South's and North's names.
#[must_use]
pub fn names(m: &Match) -> [&str; 2] {
    [m.name(Side::South), m.name(Side::North)]
}

/// What the network game asks of its player now: the prompt, as data,
/// so that each front end words or shows it in its own way
/// ([`Ask::text`] is the line plain mode prints).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// "Resume the unfinished match? (y/n)" (the host, before listening).
    Resume,
    /// The player's turn: `name` chooses one of `side`'s pits.
    Move {
        /// The player's name.
        name: String,
        /// Their side.
        side: Side,
    },
    /// The other player's turn.
    Waiting {
        /// The other player's name.
        name: String,
    },
    /// The other player asks to take back the last move: "Agree? (y/n)".
    Agree,
    /// This player asked to take back a move; the other has to answer.
    WaitingAgree {
        /// The other player's name.
        name: String,
    },
    /// "Play again? (y/n)".
    PlayAgain,
    /// The connection to the host was lost; the joiner's program tries to
    /// connect again by itself.
    Reconnecting {
        /// The host's name.
        name: String,
    },
    /// This player answered "Play again?"; the other has not yet.
    WaitingAgain {
        /// The other player's name.
        name: String,
    },
}

impl Ask {
    /// The prompt as plain mode prints it (ends with a space when it asks
    /// for an answer).
    #[must_use]
    pub fn text(&self, rules: &Rules) -> String {
        match self {
            Ask::Resume => format!("{RESUME_QUESTION} "),
            Ask::Move { name, side } => {
                format!("{name}, choose a pit ({}): ", rules.letter_range(*side))
            }
            Ask::Waiting { name } => format!("Waiting for {name}…"),
            Ask::Agree => "Agree? (y/n) ".to_string(),
            Ask::WaitingAgree { name } => format!("Waiting for {name} to answer…"),
            Ask::PlayAgain => "Play again? (y/n) ".to_string(),
            Ask::WaitingAgain { name } => format!("Waiting for {name}'s answer…"),
            Ask::Reconnecting { name } => {
                format!("Trying to reconnect to {name}'s match… (q leaves)")
            }
        }
    }

    /// Whether this player answers it (a move or a yes or no), rather
    /// than waiting for the other player.
    #[must_use]
    pub fn is_answered_by_this_player(&self) -> bool {
        self.is_question() || matches!(self, Ask::Move { .. })
    }

    /// Whether it asks for a yes or a no.
    #[must_use]
    pub fn is_question(&self) -> bool {
        matches!(self, Ask::Resume | Ask::Agree | Ask::PlayAgain)
    }
}

/// What taking one input did.
enum Taken {
    /// The program ends with this code.
    Exit(ExitCode),
    /// It went on; `true` when the match or a question changed.
    Changed(bool),
}

/// Whether `line`, typed by `side`'s player, is a command that works at
/// any moment (quit, help, asking to take a move back, an empty line)
/// rather than an answer that waits for its question.
fn is_command(rules: &Rules, side: Side, line: &str) -> bool {
    matches!(
        typed(rules, side, line),
        Typed::Nothing | Typed::Quit | Typed::Help | Typed::Undo
    )
}

/// A yes or no answer, if `text` is one.
fn yes_no(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(true),
        "n" | "no" => Some(false),
        _ => None,
    }
}

/// What a line typed at a turn means.
enum Typed {
    Nothing,
    Quit,
    Help,
    Undo,
    Pit(Pit),
    Unknown(String),
}

/// Reads a line typed by `side`'s player (the mover's own pit letters win
/// over the command letters on large boards, as in plain mode).
fn typed(rules: &Rules, side: Side, line: &str) -> Typed {
    let text = line.trim();
    let own_pit = rules
        .parse_pit(text, side)
        .filter(|&p| !text.starts_with(|c: char| c.is_ascii_digit()) && rules.owner(p) == side);
    if let Some(pit) = own_pit {
        return Typed::Pit(pit);
    }
    match text.to_ascii_lowercase().as_str() {
        "" => Typed::Nothing,
        "q" | "quit" => Typed::Quit,
        "?" | "help" => Typed::Help,
        "u" | "undo" => Typed::Undo,
        _ => match rules.parse_pit(text, side) {
            Some(pit) => Typed::Pit(pit),
            None => Typed::Unknown(text.to_string()),
        },
    }
}

fn not_a_pit(rules: &Rules, side: Side, text: &str) -> String {
    format!(
        "'{text}' is not a pit: type a letter {} or a number {} (u asks to take back a move, q leaves).",
        rules.letter_range(side),
        rules.number_range()
    )
}

/// The host's program. See the [module docs](self).
pub struct HostGame<S> {
    show: S,
    setup: HostSetup,
    tx: mpsc::Sender<HostIn>,
    code: JoinCode,
    keeper: Option<Keeper>,
    /// A saved match offered for resuming, with its note.
    offer: Option<(Match, HostNote)>,
    referee: Option<Referee>,
    resumed: bool,
    conn: Option<(u64, Sender)>,
    /// Who may take the joiner's seat.
    seat: SeatKeeper,
    last_sent: Instant,
    /// Lines typed before the question they answer.
    typed_ahead: VecDeque<LineInput>,
}

impl<S: Show> HostGame<S> {
    /// Opens the host's match: offers the unfinished one if there is one
    /// (answered through [`HostGame::handle`]), else starts listening.
    /// Network events are sent to `tx`, which the caller reads and hands
    /// back to [`HostGame::handle`].
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn new(setup: HostSetup, show: S, tx: mpsc::Sender<HostIn>) -> anyhow::Result<HostGame<S>> {
        let (keeper, warning) = Keeper::open_network();
        let mut host = HostGame {
            show,
            code: JoinCode::random(),
            setup,
            tx,
            keeper: Some(keeper),
            offer: None,
            referee: None,
            resumed: false,
            conn: None,
            seat: SeatKeeper::default(),
            last_sent: Instant::now(),
            typed_ahead: VecDeque::new(),
        };
        if let Some(warning) = warning {
            host.show.say(&format!("Note: {warning}"))?;
        }
        host.look_for_saved()?;
        if host.offer.is_none() {
            host.listen()?;
        }
        Ok(host)
    }

    /// The front end's view.
    pub fn show_mut(&mut self) -> &mut S {
        &mut self.show
    }

    /// Finds this host's unfinished match, and asks whether to resume it.
    fn look_for_saved(&mut self) -> io::Result<()> {
        let Some(note) = resume::load(&self.setup.name) else {
            return Ok(());
        };
        let config = self.config(&note.opponent);
        let Some(keeper) = self.keeper.as_mut() else {
            return Ok(());
        };
        let found = keeper.look(&config);
        if let Some(problem) = found.problem {
            self.show.say(&format!("Note: {problem}"))?;
        }
        let Some(saved) = found.saved else {
            return Ok(());
        };
        self.show.board(&saved)?;
        self.show.say(&saved_summary(&saved))?;
        self.show.ask(&Ask::Resume, &self.setup.rules)?;
        self.offer = Some((saved, note));
        Ok(())
    }

    /// The answer to the resume question.
    fn answer_offer(&mut self, line: &str) -> anyhow::Result<()> {
        match yes_no(line) {
            Some(true) => {
                if let Some((saved, note)) = self.offer.take() {
                    self.code = note.code;
                    self.resumed = true;
                    let keeper = self.keeper.take().unwrap_or_else(|| Keeper::new(None));
                    self.referee =
                        Some(Referee::new(saved, keeper).with_journal(&self.setup.name, note));
                }
                self.listen()
            }
            Some(false) => {
                self.offer = None;
                self.listen()
            }
            None => {
                self.show.say("Please answer y or n.")?;
                self.show.ask(&Ask::Resume, &self.setup.rules)?;
                Ok(())
            }
        }
    }

    /// Listens, says how to join, and accepts joiners from now on.
    fn listen(&mut self) -> anyhow::Result<()> {
        let listener = TcpListener::bind(self.setup.bind).map_err(|e| {
            anyhow::anyhow!(
                "could not listen on {} ({e}): is another mancala host running there? Choose another --port",
                self.setup.bind
            )
        })?;
        let bound = listener.local_addr()?;
        self.announce(bound)?;
        link::listen(listener, self.code, self.tx.clone());
        Ok(())
    }

    /// How long the caller may wait for the next event before calling
    /// [`HostGame::tick`].
    #[must_use]
    pub fn wait(&self) -> Duration {
        PING_EVERY.saturating_sub(self.last_sent.elapsed())
    }

    /// Time passed: keeps the connection alive.
    ///
    /// # Errors
    /// When the output fails.
    pub fn tick(&mut self) -> io::Result<()> {
        if self.wait().is_zero() {
            self.send(&ToJoiner::Ping)?;
        }
        Ok(())
    }

    /// Handles one event; `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn handle(&mut self, event: HostIn) -> anyhow::Result<Option<ExitCode>> {
        let changed = match event {
            HostIn::Net(event) => self.on_net(event)?,
            HostIn::Input(input) => {
                self.typed_ahead.push_back(input);
                false
            }
        };
        if let Some(code) = self.settle(changed)? {
            return Ok(Some(code));
        }
        // What was typed answers the questions as they come, in order:
        // a line typed ahead waits for the question it answers.
        while let Some(input) = self.typed_ahead.pop_front() {
            if !self.ready_for(&input) {
                self.typed_ahead.push_front(input);
                break;
            }
            let changed = match self.take_input(input)? {
                Taken::Exit(code) => return Ok(Some(code)),
                Taken::Changed(changed) => changed,
            };
            if let Some(code) = self.settle(changed)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    /// Whether `input` can be taken now: a command at any time, an answer
    /// when a question for this player is open.
    fn ready_for(&self, input: &LineInput) -> bool {
        let LineInput::Line(line) = input else {
            return true;
        };
        if self.offer.is_some() {
            return true;
        }
        let rules = self
            .referee
            .as_ref()
            .map_or(self.setup.rules, |r| *r.game().rules());
        is_command(&rules, HOST_SIDE, line)
            || self
                .current_ask()
                .is_some_and(|a| a.is_answered_by_this_player())
    }

    /// Takes one input: a line or the end of input.
    fn take_input(&mut self, input: LineInput) -> anyhow::Result<Taken> {
        Ok(match input {
            LineInput::Line(line) if self.offer.is_some() => {
                self.show.echo(&line)?;
                self.answer_offer(&line)?;
                Taken::Changed(false)
            }
            LineInput::End if self.offer.is_some() => {
                self.show.say("")?;
                self.show.say("End of input: nothing was played.")?;
                Taken::Exit(ExitCode::SUCCESS)
            }
            LineInput::Line(line) => {
                self.show.echo(&line)?;
                match self.on_line(&line)? {
                    Some(code) => Taken::Exit(code),
                    None => Taken::Changed(true),
                }
            }
            LineInput::End => {
                self.show.say("")?;
                self.show.say("End of input.")?;
                Taken::Exit(self.quit()?)
            }
        })
    }

    /// After a change: ends the program once the match is over, else asks
    /// what comes next.
    fn settle(&mut self, changed: bool) -> anyhow::Result<Option<ExitCode>> {
        if self.referee.as_ref().is_some_and(Referee::is_finished) {
            resume::clear(&self.setup.name);
            if let Some((_, mut sender)) = self.conn.take() {
                sender.close();
            }
            return Ok(Some(ExitCode::SUCCESS));
        }
        if changed {
            self.prompt()?;
        }
        Ok(None)
    }

    fn config(&self, opponent: &str) -> MatchConfig {
        MatchConfig {
            rules: self.setup.rules,
            seats: [
                Seat::new(self.setup.name.clone(), PlayerKind::Human),
                Seat::new(opponent, PlayerKind::Human),
            ],
            first: self.setup.first,
        }
    }

    fn opponent(&self) -> String {
        self.referee.as_ref().map_or_else(
            || "your friend".to_string(),
            |r| r.game().name(JOINER_SIDE).to_string(),
        )
    }

    /// Says how the friend joins.
    fn announce(&mut self, bound: SocketAddr) -> io::Result<()> {
        let name = self.setup.name.clone();
        self.show.say(&format!(
            "{name} hosts a match of Mancala. Rules: {}.",
            self.setup.rules
        ))?;
        let who = match &self.referee {
            Some(r) => r.game().name(JOINER_SIDE).to_string(),
            None => "NAME".to_string(),
        };
        self.show.say(&format!(
            "Your friend joins with this code: {}. On another machine, type:",
            self.code
        ))?;
        for address in link::reachable_addresses(bound) {
            self.show.say(&format!(
                "  mancala join {address} --code {} {who}",
                self.code
            ))?;
        }
        if self.referee.is_none() {
            self.show
                .say("(NAME is your friend's name.) Over the internet, see the README's network section.")?;
        }
        self.show.say(&format!(
            "Listening on {bound}. Waiting for {} to join… (q quits)",
            self.opponent()
        ))
    }

    /// Sends `message` to the joiner, if one is connected; a failure counts
    /// as a lost connection (its reader reports it too).
    fn send(&mut self, message: &ToJoiner) -> io::Result<()> {
        self.last_sent = Instant::now();
        if let Some((_, sender)) = &mut self.conn
            && sender.send(message).is_err()
        {
            self.lost("the connection failed")?;
        }
        Ok(())
    }

    fn lost(&mut self, why: &str) -> io::Result<()> {
        if let Some((_, mut sender)) = self.conn.take() {
            sender.close();
            let name = self.opponent();
            self.show.say(&format!(
                "Connection lost, waiting for {name} to come back (the match is saved). ({why})"
            ))?;
        }
        Ok(())
    }

    fn apply(&mut self, out: Vec<Out>) -> io::Result<()> {
        for item in out {
            match item {
                Out::Send(message) => self.send(&message)?,
                Out::Show(what) => {
                    if let Some(r) = &self.referee {
                        self.show.show(r.game(), &what)?;
                    }
                    if what == (Happening::Left { side: JOINER_SIDE }) {
                        let name = self.opponent();
                        if let Some((_, mut sender)) = self.conn.take() {
                            sender.close();
                        }
                        self.show.say(&format!(
                            "Waiting for {name} to come back (the match is saved); q quits."
                        ))?;
                    }
                }
            }
        }
        Ok(())
    }

    fn refuse(&mut self, mut sender: Sender, text: &str) {
        let _ = sender.send(&ToJoiner::Refused {
            text: text.to_string(),
        });
        sender.close();
    }

    fn on_net(&mut self, event: HostEvent) -> io::Result<bool> {
        match event {
            HostEvent::Turned(text) => {
                self.show.say(&text)?;
                Ok(false)
            }
            HostEvent::Joined {
                id,
                name,
                seat_key,
                peer,
                sender,
            } => self.on_join(id, &name, seat_key.as_deref(), peer, sender),
            HostEvent::Message { id, message } => {
                if self.conn.as_ref().is_none_or(|(current, _)| *current != id) {
                    return Ok(false);
                }
                let name = self.opponent();
                let message = match message {
                    Ok(message) => message,
                    Err(SessionError::Frame(e))
                        if !matches!(
                            e,
                            crate::net::frame::FrameError::TooLarge(_)
                                | crate::net::frame::FrameError::Malformed
                        ) =>
                    {
                        self.lost(&e.to_string())?;
                        return Ok(true);
                    }
                    Err(e) => {
                        self.violation(&format!("{name}'s program sent what cannot be used: {e}"))?;
                        return Ok(true);
                    }
                };
                if message == ToHost::Ping {
                    return Ok(false);
                }
                let Some(referee) = self.referee.as_mut() else {
                    return Ok(false);
                };
                match referee.remote(message) {
                    Ok(out) => self.apply(out)?,
                    Err(violation) => {
                        self.violation(&format!("{name}'s program {}", violation.0))?;
                    }
                }
                Ok(true)
            }
        }
    }

    /// Ends the joiner's connection over a broken message; the match is
    /// unchanged.
    fn violation(&mut self, text: &str) -> io::Result<()> {
        if let Some((_, mut sender)) = self.conn.take() {
            let _ = sender.send(&ToJoiner::Error {
                text: format!("The host closed the connection: {text}. The match is unchanged."),
            });
            sender.close();
        }
        let name = self.opponent();
        self.show.say(&format!(
            "{text}. The connection was closed and the match is unchanged. Waiting for {name} to come back (the match is saved)."
        ))
    }

    fn on_join(
        &mut self,
        id: u64,
        name: &str,
        seat_key: Option<&str>,
        peer: SocketAddr,
        sender: Sender,
    ) -> io::Result<bool> {
        let Some(name) = crate::net::clean_remote_name(name) else {
            self.refuse(sender, "Give a name to join with.");
            self.show.say(&format!(
                "A player at {peer} gave no name and was turned away."
            ))?;
            return Ok(false);
        };
        if crate::game::names::same_name(&name, &self.setup.name) {
            self.refuse(
                sender,
                &format!("{name} is the host's name: join with your own name."),
            );
            self.show.say(&format!(
                "A player at {peer} tried to join as {name} (your name) and was turned away."
            ))?;
            return Ok(false);
        }
        let playing = self.opponent();
        let in_use = self.conn.as_ref().is_some_and(|(_, s)| s.is_open());
        if self.referee.is_some() && in_use && playing != name {
            let text = format!("{} is already playing with {playing}.", self.setup.name);
            self.refuse(sender, &text);
            self.show.say(&format!(
                "{name} at {peer} tried to join and was turned away: you are playing with {playing}."
            ))?;
            return Ok(false);
        }
        let admission = self.seat.admit(seat_key, in_use);
        if admission == Admission::Taken {
            self.refuse(
                sender,
                &format!(
                    "{name} is already playing in this match from another program, which is still connected: only that program can take the seat back. If that was you, leave it (q), or wait {} s for {} to see that it is gone, then join again.",
                    link::SILENCE.as_secs(),
                    self.setup.name
                ),
            );
            self.show.say(&format!(
                "A program at {peer} tried to take {name}'s seat while {name} is connected, without {name}'s seat key; it was turned away."
            ))?;
            // Ask again what was asked before the line.
            return Ok(true);
        }
        let newcomer = matches!(admission, Admission::Newcomer(_)) && !self.seat.key().is_empty();
        let first_join = self.referee.is_none();
        if first_join {
            let seed = Rng::from_entropy().next_u64();
            let m = Match::new(self.config(&name), seed);
            let keeper = self.keeper.take().unwrap_or_else(|| Keeper::new(None));
            let note = HostNote {
                opponent: name.clone(),
                code: self.code,
            };
            self.referee = Some(Referee::new(m, keeper).with_journal(&self.setup.name, note));
        }
        let Some(referee) = self.referee.as_mut() else {
            return Ok(false);
        };
        let resumed = self.resumed || !first_join;
        match referee.welcome(&name, resumed) {
            Err(text) => {
                self.refuse(sender, &text);
                self.show
                    .say(&format!("{name} at {peer} was turned away: {text}"))?;
                Ok(false)
            }
            Ok(mut messages) => {
                if let Some((_, mut old)) = self.conn.take() {
                    // The same player again: the old connection is dead.
                    old.close();
                }
                self.seat.seat(admission);
                for message in &mut messages {
                    if let ToJoiner::Welcome { seat_key, .. } = message {
                        *seat_key = self.seat.key().to_string();
                    }
                }
                self.conn = Some((id, sender));
                for message in &messages {
                    self.send(message)?;
                }
                let joined = if resumed { "is back" } else { "joined" };
                self.show.say(&format!("{name} {joined} (from {peer})."))?;
                if newcomer {
                    self.show.say(&format!(
                        "(From a new program: {name}'s seat was free, so it took it; the program that played before can no longer take it back.)"
                    ))?;
                }
                if let Some(r) = &self.referee {
                    let m = r.game().clone();
                    self.show.round_start(&m)?;
                    if let Some(outcome) = m.outcome() {
                        self.show
                            .say(&outcome_message(outcome, m.board().score(), names(&m)))?;
                    }
                }
                Ok(true)
            }
        }
    }

    fn quit(&mut self) -> anyhow::Result<ExitCode> {
        if let Some(r) = &self.referee {
            let out = r.local_leave();
            let m = r.game().clone();
            self.apply(out)?;
            self.show.say(&format!(
                "Stopped. The match is saved: run `mancala host {}` with the same rules to resume it.",
                self.setup.name
            ))?;
            self.show.tally(&m)?;
        }
        if let Some((_, mut sender)) = self.conn.take() {
            sender.close();
        }
        Ok(ExitCode::SUCCESS)
    }

    /// Handles a typed line; `Some` ends the program with that code.
    fn on_line(&mut self, line: &str) -> anyhow::Result<Option<ExitCode>> {
        let rules = self.setup.rules;
        let Some(referee) = self.referee.as_mut() else {
            match typed(&rules, HOST_SIDE, line) {
                Typed::Quit => return self.quit().map(Some),
                Typed::Nothing => {}
                _ => self.show.say("Nobody has joined yet; q quits.")?,
            }
            return Ok(None);
        };
        let opponent = referee.game().name(JOINER_SIDE).to_string();
        let round_over = referee.game().outcome().is_some();
        // Questions first: an answer to them is y or n.
        if referee.undo_request() == Some(JOINER_SIDE) {
            if let Some(yes) = yes_no(line) {
                let out = referee.local_undo_answer(yes);
                self.apply(out)?;
                if !yes {
                    self.show.say("You said no: the move stays.")?;
                }
                return Ok(None);
            }
        } else if round_over
            && referee.again()[HOST_SIDE.index()].is_none()
            && let Some(yes) = yes_no(line)
        {
            let out = referee.local_again(yes);
            self.apply(out)?;
            return Ok(None);
        }
        match typed(&rules, HOST_SIDE, line) {
            Typed::Nothing => {}
            Typed::Quit => return self.quit().map(Some),
            Typed::Help => self.show.help(&rules, HOST_SIDE)?,
            _ if self.conn.is_none() => self.show.say(&format!(
                "{opponent} is not connected: waiting for {opponent} to come back (q quits)."
            ))?,
            Typed::Undo => match referee.local_undo() {
                Ok(out) => {
                    self.apply(out)?;
                    self.show.say(&format!(
                        "You asked {opponent} to agree to take back the last move."
                    ))?;
                }
                Err(why) => self.show.say(&why)?,
            },
            Typed::Pit(pit) => {
                if referee.undo_request().is_some() {
                    self.show
                        .say("First the request to take back a move must be answered.")?;
                } else if round_over {
                    self.show.say("The round is over: answer y or n.")?;
                } else if referee.game().board().to_move() != HOST_SIDE {
                    self.show.say(&format!("It is {opponent}'s turn."))?;
                } else {
                    match referee.local_move(pit) {
                        Ok(out) => self.apply(out)?,
                        Err(e) => self.show.say(&e.to_string())?,
                    }
                }
            }
            Typed::Unknown(text) => {
                if round_over || referee.undo_request() == Some(JOINER_SIDE) {
                    self.show.say("Please answer y or n.")?;
                } else {
                    self.show.say(&not_a_pit(&rules, HOST_SIDE, &text))?;
                }
            }
        }
        Ok(None)
    }

    /// Says what the host's player may do now.
    fn prompt(&mut self) -> io::Result<()> {
        let Some(ask) = self.current_ask() else {
            return Ok(());
        };
        let rules = self
            .referee
            .as_ref()
            .map_or(self.setup.rules, |r| *r.game().rules());
        self.show.ask(&ask, &rules)
    }

    /// What the host's player is asked now, if anything.
    fn current_ask(&self) -> Option<Ask> {
        let r = self.referee.as_ref()?;
        if self.conn.is_none() || r.is_finished() {
            return None;
        }
        let m = r.game();
        let opponent = m.name(JOINER_SIDE).to_string();
        let ask = if r.undo_request() == Some(JOINER_SIDE) {
            Ask::Agree
        } else if r.undo_request() == Some(HOST_SIDE) {
            Ask::WaitingAgree { name: opponent }
        } else if m.outcome().is_some() {
            match r.again()[HOST_SIDE.index()] {
                None => Ask::PlayAgain,
                Some(_) => Ask::WaitingAgain { name: opponent },
            }
        } else if m.board().to_move() == HOST_SIDE {
            Ask::Move {
                name: m.name(HOST_SIDE).to_string(),
                side: HOST_SIDE,
            }
        } else {
            Ask::Waiting { name: opponent }
        };
        Some(ask)
    }
}

/// The joiner's program. See the [module docs](self).
pub struct JoinGame<S> {
    show: S,
    setup: JoinSetup,
    tx: mpsc::Sender<JoinIn>,
    mirror: Mirror,
    sender: Sender,
    conn: u64,
    /// A move sent and not yet confirmed.
    pending: Option<(At, char)>,
    /// The host asked to take back a move, at this place.
    asked: Option<At>,
    /// This player asked to take back a move.
    asking: bool,
    /// This player's answer to "Play again?".
    again: Option<bool>,
    /// The host's answer to "Play again?".
    host_again: Option<bool>,
    /// Lines typed before the question they answer.
    typed_ahead: VecDeque<LineInput>,
    last_sent: Instant,
    /// The connection is lost: give up at `.0`, try next at `.1`.
    lost: Option<(Instant, Instant)>,
    /// The seat key from the host's last welcome, shown when reconnecting.
    seat_key: Option<String>,
}

/// The sentence for a failed connection.
fn connect_failure(setup: &JoinSetup, e: &SessionError) -> String {
    link::join_failure(&setup.address, &setup.code, e)
}

impl<S: Show> JoinGame<S> {
    /// Connects and joins; `Err` gives back the view (which said why) and
    /// the exit code when that failed. The host's messages are sent to
    /// `tx`, which the caller reads and hands back to [`JoinGame::handle`].
    ///
    /// # Errors
    /// When the output fails.
    pub fn connect(
        setup: JoinSetup,
        mut show: S,
        tx: mpsc::Sender<JoinIn>,
    ) -> io::Result<Result<JoinGame<S>, (S, ExitCode)>> {
        show.say(&format!("Joining the match at {}…", setup.address))?;
        let (sender, receiver, first) =
            match link::connect(&setup.addresses, &setup.code, &setup.name, None) {
                Ok(session) => session,
                Err(e) => {
                    show.say(&connect_failure(&setup, &e))?;
                    return Ok(Err((show, ExitCode::FAILURE)));
                }
            };
        link::spawn_reader(receiver, tx.clone(), move |m| JoinIn::Net(1, m));
        let (state, seat_key) = match first {
            ToJoiner::Welcome {
                state, seat_key, ..
            } => (state, seat_key),
            ToJoiner::Refused { text } | ToJoiner::Error { text } => {
                show.say(&crate::net::remote_text(&text))?;
                return Ok(Err((show, ExitCode::FAILURE)));
            }
            _ => {
                show.say("The host answered with something other than a welcome; try again.")?;
                return Ok(Err((show, ExitCode::FAILURE)));
            }
        };
        let mirror = match Mirror::new(&state) {
            Ok(mirror) => mirror,
            Err(e) => {
                show.say(&format!("The game cannot start: {}.", e.0))?;
                return Ok(Err((show, ExitCode::FAILURE)));
            }
        };
        let mut joiner = JoinGame {
            show,
            setup,
            tx,
            mirror,
            sender,
            conn: 1,
            pending: None,
            asked: None,
            asking: false,
            again: None,
            host_again: None,
            typed_ahead: VecDeque::new(),
            last_sent: Instant::now(),
            lost: None,
            seat_key: Some(seat_key),
        };
        joiner.welcomed(false)?;
        joiner.prompt()?;
        Ok(Ok(joiner))
    }

    /// The front end's view.
    pub fn show_mut(&mut self) -> &mut S {
        &mut self.show
    }

    /// How long the caller may wait for the next event before calling
    /// [`JoinGame::tick`].
    #[must_use]
    pub fn wait(&self) -> Duration {
        match self.lost {
            Some((_, next_try)) => next_try.saturating_duration_since(Instant::now()),
            None => PING_EVERY.saturating_sub(self.last_sent.elapsed()),
        }
    }

    /// Time passed: keeps the connection alive, or tries to reconnect;
    /// `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the output fails.
    pub fn tick(&mut self) -> io::Result<Option<ExitCode>> {
        if self.lost.is_some() {
            if self.wait().is_zero() {
                let ended = self.try_reconnect()?;
                if ended.is_none() && self.lost.is_none() {
                    self.prompt()?;
                }
                return Ok(ended);
            }
        } else if self.wait().is_zero() {
            self.send(&ToHost::Ping);
        }
        Ok(None)
    }

    /// Handles one event; `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the output fails.
    pub fn handle(&mut self, event: JoinIn) -> io::Result<Option<ExitCode>> {
        let changed = match event {
            JoinIn::Net(id, _) if id != self.conn => false,
            JoinIn::Net(_, Ok(ToJoiner::Ping)) => false,
            JoinIn::Net(_, Ok(message)) => match self.on_message(message)? {
                Some(code) => return Ok(Some(code)),
                None => true,
            },
            JoinIn::Net(_, Err(e)) => {
                self.connection_lost(&e)?;
                false
            }
            JoinIn::Input(input) => {
                self.typed_ahead.push_back(input);
                false
            }
        };
        if changed {
            self.prompt()?;
        }
        // What was typed answers the questions as they come, in order.
        while let Some(input) = self.typed_ahead.pop_front() {
            if !self.ready_for(&input) {
                self.typed_ahead.push_front(input);
                break;
            }
            let changed = match input {
                LineInput::Line(line) => {
                    self.show.echo(&line)?;
                    if let Some(code) = self.on_line(&line)? {
                        return Ok(Some(code));
                    }
                    self.lost.is_none()
                }
                LineInput::End => {
                    self.show.say("")?;
                    self.show.say("End of input.")?;
                    return Ok(Some(self.leave()?));
                }
            };
            if changed {
                self.prompt()?;
            }
        }
        Ok(None)
    }

    /// Whether `input` can be taken now: a command at any time, an answer
    /// when a question for this player is open.
    fn ready_for(&self, input: &LineInput) -> bool {
        let LineInput::Line(line) = input else {
            return true;
        };
        is_command(self.m().rules(), JOINER_SIDE, line)
            || (self.lost.is_none()
                && self
                    .current_ask()
                    .is_some_and(|a| a.is_answered_by_this_player()))
    }

    fn m(&self) -> &Match {
        self.mirror.game()
    }

    fn host_name(&self) -> String {
        self.m().name(HOST_SIDE).to_string()
    }

    fn send(&mut self, message: &ToHost) {
        self.last_sent = Instant::now();
        // A failure shows as the reader's end of connection.
        let _ = self.sender.send(message);
    }

    /// Shows the match just received from the host.
    fn welcomed(&mut self, again: bool) -> io::Result<()> {
        let m = self.m().clone();
        if again {
            self.show
                .say(&format!("Reconnected to {}'s match.", m.name(HOST_SIDE)))?;
        } else {
            self.show.say(&format!(
                "Connected: {} (South, bottom row) against you, {} (North, top row).",
                m.name(HOST_SIDE),
                m.name(JOINER_SIDE)
            ))?;
            self.show.say(&format!("Rules: {}.", m.rules()))?;
            self.show.help(m.rules(), JOINER_SIDE)?;
        }
        self.show.round_start(&m)?;
        if let Some(outcome) = m.outcome() {
            self.show
                .say(&outcome_message(outcome, m.board().score(), names(&m)))?;
        }
        Ok(())
    }

    fn leave(&mut self) -> io::Result<ExitCode> {
        self.send(&ToHost::Leave);
        self.sender.close();
        let host = self.host_name();
        self.show.say(&format!(
            "You left the match; it stays saved on {host}'s machine: join again with the same command while {host} hosts it."
        ))?;
        Ok(ExitCode::SUCCESS)
    }

    fn on_message(&mut self, message: ToJoiner) -> io::Result<Option<ExitCode>> {
        if let ToJoiner::Error { text } | ToJoiner::Refused { text } = &message {
            self.show.say(&crate::net::remote_text(text))?;
            return Ok(Some(ExitCode::FAILURE));
        }
        let confirms_pending = matches!(&message, ToJoiner::Moved { at, .. } if self.pending.is_some_and(|(p, _)| p == *at));
        let happenings = match self.mirror.apply(message) {
            Ok(happenings) => happenings,
            Err(e) => {
                self.show.say(&format!(
                    "The game cannot go on: {}. The host's match is kept on the host.",
                    e.0
                ))?;
                self.send(&ToHost::Leave);
                return Ok(Some(ExitCode::FAILURE));
            }
        };
        if confirms_pending {
            self.pending = None;
        }
        for what in &happenings {
            let m = self.m().clone();
            self.show.show(&m, what)?;
            match what {
                Happening::UndoAsked { .. } => self.asked = Some(At::of(&m)),
                Happening::UndoDeclined { .. } | Happening::Undone => {
                    self.asking = false;
                    self.asked = None;
                }
                Happening::Moved { .. } => self.asked = None,
                Happening::NextRound => {
                    self.again = None;
                    self.host_again = None;
                }
                Happening::Again { side, yes } if *side == HOST_SIDE => {
                    self.host_again = Some(*yes);
                }
                Happening::Finished => {
                    self.sender.close();
                    return Ok(Some(ExitCode::SUCCESS));
                }
                Happening::Left { .. } => {
                    let host = self.host_name();
                    self.show.say(&format!(
                        "The match is saved on {host}'s machine: join again with the same command when {host} hosts it again."
                    ))?;
                    self.sender.close();
                    return Ok(Some(ExitCode::SUCCESS));
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// The connection broke: say so and start trying to reconnect.
    fn connection_lost(&mut self, why: &SessionError) -> io::Result<()> {
        let host = self.host_name();
        self.show.say(&format!("Connection lost ({why})."))?;
        let rules = *self.m().rules();
        self.show.ask(&Ask::Reconnecting { name: host }, &rules)?;
        self.sender.close();
        let now = Instant::now();
        self.lost = Some((now + self.setup.reconnect_for, now));
        Ok(())
    }

    /// One try at reconnecting; a move the host never saved is sent again,
    /// one it saved is in the match already and is never resent.
    fn try_reconnect(&mut self) -> io::Result<Option<ExitCode>> {
        let Some((deadline, _)) = self.lost else {
            return Ok(None);
        };
        let host = self.host_name();
        let seat_key = self.seat_key.as_deref();
        match link::connect(
            &self.setup.addresses,
            &self.setup.code,
            &self.setup.name,
            seat_key,
        ) {
            Ok((sender, receiver, first)) => {
                self.conn += 1;
                let id = self.conn;
                link::spawn_reader(receiver, self.tx.clone(), move |m| JoinIn::Net(id, m));
                self.sender = sender;
                let ToJoiner::Welcome {
                    state, seat_key, ..
                } = first
                else {
                    if let ToJoiner::Refused { text } | ToJoiner::Error { text } = first {
                        self.show.say(&crate::net::remote_text(&text))?;
                    }
                    return Ok(Some(ExitCode::FAILURE));
                };
                self.mirror = match Mirror::new(&state) {
                    Ok(mirror) => mirror,
                    Err(e) => {
                        self.show.say(&format!("The game cannot go on: {}.", e.0))?;
                        return Ok(Some(ExitCode::FAILURE));
                    }
                };
                self.seat_key = Some(seat_key);
                self.lost = None;
                self.asked = None;
                self.asking = false;
                self.again = None;
                self.host_again = None;
                self.last_sent = Instant::now();
                self.welcomed(true)?;
                if let Some((at, pit)) = self.pending.take()
                    && at == At::of(self.m())
                {
                    self.pending = Some((at, pit));
                    self.send(&ToHost::Move { at, pit });
                }
                Ok(None)
            }
            Err(e @ (SessionError::WrongCode | SessionError::Version(_))) => {
                self.show.say(&connect_failure(&self.setup, &e))?;
                Ok(Some(ExitCode::FAILURE))
            }
            Err(e) if Instant::now() < deadline => {
                // Told to wait: come back then, not sooner.
                let pause = match e {
                    SessionError::TooManyTries(wait) => wait,
                    _ => Duration::from_millis(200),
                };
                self.lost = Some((deadline, Instant::now() + pause));
                Ok(None)
            }
            Err(e) => {
                self.show.say(&format!(
                    "Could not reconnect to {host}'s match. {} Run the same command again to go on: the match is saved on {host}'s machine.",
                    connect_failure(&self.setup, &e)
                ))?;
                Ok(Some(ExitCode::FAILURE))
            }
        }
    }

    fn on_line(&mut self, line: &str) -> io::Result<Option<ExitCode>> {
        let rules = *self.m().rules();
        let host = self.host_name();
        if self.lost.is_some() {
            if matches!(typed(&rules, JOINER_SIDE, line), Typed::Quit) {
                self.show.say("You left while the connection was lost.")?;
                return Ok(Some(ExitCode::SUCCESS));
            }
            self.show
                .say("Not connected yet; reconnecting… (q leaves)")?;
            return Ok(None);
        }
        let round_over = self.m().outcome().is_some();
        if let Some(at) = self.asked
            && let Some(yes) = yes_no(line)
        {
            self.asked = None;
            self.send(&ToHost::UndoAnswer { at, yes });
            if !yes {
                self.show.say("You said no: the move stays.")?;
            }
            return Ok(None);
        }
        if round_over
            && self.again.is_none()
            && let Some(yes) = yes_no(line)
        {
            self.again = Some(yes);
            self.send(&ToHost::Again { yes });
            return Ok(None);
        }
        match typed(&rules, JOINER_SIDE, line) {
            Typed::Nothing => {}
            Typed::Quit => return self.leave().map(Some),
            Typed::Help => self.show.help(&rules, JOINER_SIDE)?,
            Typed::Undo => {
                if round_over {
                    self.show
                        .say("The round is over: its moves are recorded.")?;
                } else if self.m().moves().is_empty() {
                    self.show.say("There is no move to take back.")?;
                } else if self.asking || self.asked.is_some() || self.pending.is_some() {
                    self.show
                        .say("A request is already waiting for an answer.")?;
                } else {
                    self.asking = true;
                    let at = At::of(self.m());
                    self.send(&ToHost::Undo { at });
                    self.show.say(&format!(
                        "You asked {host} to agree to take back the last move."
                    ))?;
                }
            }
            Typed::Pit(pit) => {
                if self.asked.is_some() {
                    self.show
                        .say("First answer: take back the last move? (y/n)")?;
                } else if round_over {
                    self.show.say("The round is over: answer y or n.")?;
                } else if self.m().board().to_move() != JOINER_SIDE {
                    self.show.say(&format!("It is {host}'s turn."))?;
                } else if self.pending.is_some() || self.asking {
                    self.show
                        .say(&format!("Waiting for {host}'s program to answer…"))?;
                } else if let Err(e) = self.m().board().check(pit) {
                    self.show.say(&e.to_string())?;
                } else {
                    let at = At::of(self.m());
                    let letter = rules.letter(pit).unwrap_or('?');
                    self.pending = Some((at, letter));
                    self.send(&ToHost::Move { at, pit: letter });
                }
            }
            Typed::Unknown(text) => {
                if round_over || self.asked.is_some() {
                    self.show.say("Please answer y or n.")?;
                } else {
                    self.show.say(&not_a_pit(&rules, JOINER_SIDE, &text))?;
                }
            }
        }
        Ok(None)
    }

    fn prompt(&mut self) -> io::Result<()> {
        let Some(ask) = self.current_ask() else {
            return Ok(());
        };
        let rules = *self.m().rules();
        self.show.ask(&ask, &rules)
    }

    /// What the joiner's player is asked now, if anything (nothing while a
    /// move is on its way, or once the host has said it will not play
    /// again).
    fn current_ask(&self) -> Option<Ask> {
        if self.pending.is_some() || self.host_again == Some(false) {
            return None;
        }
        let m = self.m();
        let host = m.name(HOST_SIDE).to_string();
        let ask = if self.asked.is_some() {
            Ask::Agree
        } else if self.asking {
            Ask::WaitingAgree { name: host }
        } else if m.outcome().is_some() {
            match self.again {
                None => Ask::PlayAgain,
                Some(_) => Ask::WaitingAgain { name: host },
            }
        } else if m.board().to_move() == JOINER_SIDE {
            Ask::Move {
                name: m.name(JOINER_SIDE).to_string(),
                side: JOINER_SIDE,
            }
        } else {
            Ask::Waiting { name: host }
        };
        Some(ask)
    }
}
