//! The network game line by line: `mancala host` and `mancala join` in
//! plain mode (`--plain`, or whenever standard input or output is not a
//! terminal), so that a whole network match can be driven through pipes.
//!
//! Both ends print the same lines for the same match: each confirmed
//! move's sowing (`Alice sows c: d e f store`, or `Alice plays c.` with
//! `--no-animation`), the board, the rules' messages, whose turn it is
//! (`Waiting for Michael…`), the tally, "Play again? (y/n)" and the other
//! player's answer, requests to take back a move, and who left. The host's
//! [`Referee`] decides; the joiner's [`Mirror`] follows.
//!
//! Answers: a pit letter or number, `u` (ask to take back the last move),
//! `q` (leave; the match stays saved on the host), `?` (help), and `y`/`n`
//! to questions.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::keeper::saved_summary;
use crate::game::{Keeper, Match, MatchConfig, RESUME_QUESTION, Seat, describe, outcome_message};
use crate::net::code::JoinCode;
use crate::net::link::{self, HostEvent, PING_EVERY};
use crate::net::message::{At, ToHost, ToJoiner};
use crate::net::referee::{HOST_SIDE, Happening, JOINER_SIDE, Mirror, Out, Referee};
use crate::net::resume::{self, HostNote};
use crate::net::session::{Sender, SessionError};
use crate::players::PlayerKind;
use crate::rng::Rng;
use crate::rules::{Pit, Rules, Side};

use super::board;

/// The longest input line read, in bytes.
const MAX_LINE: u64 = 1024;

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
    /// Print each move's sowing line.
    pub animate: bool,
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
    /// Print each move's sowing line.
    pub animate: bool,
}

/// One input line, or its end.
enum Input {
    Line(String),
    End,
}

/// Everything the host's loop waits for.
enum HostIn {
    Net(HostEvent),
    Input(Input),
}

impl From<HostEvent> for HostIn {
    fn from(e: HostEvent) -> HostIn {
        HostIn::Net(e)
    }
}

/// Everything the joiner's loop waits for.
enum JoinIn {
    Net(u64, Result<ToJoiner, SessionError>),
    Input(Input),
}

/// Reads standard input on a thread: one event per line (cut at
/// [`MAX_LINE`] bytes, control characters replaced), then its end.
fn spawn_input<E: Send + 'static>(tx: mpsc::Sender<E>, wrap: fn(Input) -> E) {
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            let mut bytes = Vec::new();
            let read = (&mut input).take(MAX_LINE).read_until(b'\n', &mut bytes);
            match read {
                Ok(0) | Err(_) => {
                    let _ = tx.send(wrap(Input::End));
                    return;
                }
                Ok(_) => {}
            }
            if bytes.last() != Some(&b'\n') && bytes.len() as u64 == MAX_LINE {
                // Skip the rest of an endless line.
                let mut rest = Vec::new();
                let _ = input.read_until(b'\n', &mut rest);
            }
            let line: String = String::from_utf8_lossy(&bytes)
                .trim_end_matches(['\n', '\r'])
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect();
            if tx.send(wrap(Input::Line(line))).is_err() {
                return;
            }
        }
    });
}

/// The lines both ends print.
struct Lines<W> {
    out: W,
    echo: bool,
    animate: bool,
}

impl<W: Write> Lines<W> {
    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    fn prompt(&mut self, text: &str) -> io::Result<()> {
        if text.ends_with(' ') {
            write!(self.out, "{text}")?;
        } else {
            writeln!(self.out, "{text}")?;
        }
        self.out.flush()
    }

    fn echo(&mut self, line: &str) -> io::Result<()> {
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    fn board(&mut self, m: &Match) -> io::Result<()> {
        writeln!(self.out)?;
        write!(self.out, "{}", board::render(m.board(), names(m)))?;
        self.out.flush()
    }

    fn tally(&mut self, m: &Match) -> io::Result<()> {
        let t = m.tally();
        let [s, n] = names(m);
        let rounds = t.rounds();
        writeln!(
            self.out,
            "Match score after {rounds} round{}: {s} {}, {n} {}, draws {}.",
            if rounds == 1 { "" } else { "s" },
            t.wins[0],
            t.wins[1],
            t.draws
        )
    }

    fn round_start(&mut self, m: &Match) -> io::Result<()> {
        writeln!(self.out)?;
        match m.moves().len() {
            0 => writeln!(
                self.out,
                "Round {}: {} moves first.",
                m.round(),
                m.name(m.starter())
            )?,
            played => writeln!(
                self.out,
                "Round {} goes on after {played} move{} ({} moved first).",
                m.round(),
                if played == 1 { "" } else { "s" },
                m.name(m.starter())
            )?,
        }
        self.board(m)
    }

    /// Shows `what` happened in `m` (the match as it is after it).
    fn show(&mut self, m: &Match, what: &Happening) -> io::Result<()> {
        let name = |side: Side| m.name(side).to_string();
        match what {
            Happening::Moved { played, steps } => {
                let mover = name(played.mover);
                match board::sowing_line(m.rules(), steps).filter(|_| self.animate) {
                    Some(line) => self.say(&format!("{mover} {line}"))?,
                    None => self.say(&format!(
                        "{mover} plays {}.",
                        m.rules().letter(played.pit).unwrap_or('?')
                    ))?,
                }
                self.board(m)?;
                for line in describe(m.rules(), played, names(m)) {
                    self.say(&line)?;
                }
            }
            Happening::RoundOver { outcome, record } => {
                self.say(&outcome_message(*outcome, m.board().score(), names(m)))?;
                self.tally(m)?;
                if let Some(path) = record {
                    self.say(&format!("Round recorded in {}.", path.display()))?;
                }
            }
            Happening::UndoAsked { by } => {
                self.say(&format!("{} asks to take back the last move.", name(*by)))?;
            }
            Happening::UndoDeclined { by } => {
                self.say(&format!(
                    "{} does not agree to take back the move.",
                    name(*by)
                ))?;
            }
            Happening::Undone => {
                self.say("The last move was taken back.")?;
                self.board(m)?;
            }
            Happening::Again { side, yes } => {
                let does = if *yes { "wants" } else { "does not want" };
                self.say(&format!("{} {does} to play again.", name(*side)))?;
            }
            Happening::NextRound => self.round_start(m)?,
            Happening::Finished => {
                self.say("The match is over. Thanks for playing!")?;
                self.tally(m)?;
            }
            Happening::Left { side } => {
                self.say(&format!("{} left the match.", name(*side)))?;
            }
            Happening::Note(text) => self.say(&format!("Note: {text}"))?,
        }
        Ok(())
    }

    fn help(&mut self, rules: &Rules, side: Side) -> io::Result<()> {
        self.say(&format!(
            "Choose a pit by its letter ({}) or its number {} from your left; u asks to take back the last move, q leaves (the match stays saved on the host), ? shows this help.",
            rules.letter_range(side),
            rules.number_range()
        ))
    }
}

fn names(m: &Match) -> [&str; 2] {
    [m.name(Side::South), m.name(Side::North)]
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
struct Host<W> {
    lines: Lines<W>,
    setup: HostSetup,
    code: JoinCode,
    keeper: Option<Keeper>,
    referee: Option<Referee>,
    resumed: bool,
    conn: Option<(u64, Sender)>,
    last_sent: Instant,
}

/// Runs `mancala host` line by line.
///
/// # Errors
/// When the port cannot be listened on, or standard output fails.
pub fn host(setup: HostSetup) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel::<HostIn>();
    spawn_input(tx.clone(), HostIn::Input);
    let (keeper, warning) = Keeper::open();
    let mut host = Host {
        lines: Lines {
            out: io::stdout().lock(),
            echo: !io::stdin().is_terminal(),
            animate: setup.animate,
        },
        code: JoinCode::random(),
        setup,
        keeper: Some(keeper),
        referee: None,
        resumed: false,
        conn: None,
        last_sent: Instant::now(),
    };
    if let Some(warning) = warning {
        host.lines.say(&format!("Note: {warning}"))?;
    }
    if !host.offer_resume(&rx)? {
        return Ok(ExitCode::SUCCESS);
    }
    let listener = TcpListener::bind(host.setup.bind).map_err(|e| {
        anyhow::anyhow!(
            "could not listen on {} ({e}): is another mancala host running there? Choose another --port",
            host.setup.bind
        )
    })?;
    let bound = listener.local_addr()?;
    host.announce(bound)?;
    link::listen(listener, host.code, tx);
    host.run(&rx)
}

impl<W: Write> Host<W> {
    /// Offers the unfinished match of this host, if any: `false` when the
    /// input ended at the question.
    fn offer_resume(&mut self, rx: &mpsc::Receiver<HostIn>) -> io::Result<bool> {
        let Some(note) = resume::load(&self.setup.name) else {
            return Ok(true);
        };
        let config = self.config(&note.opponent);
        let Some(keeper) = self.keeper.as_mut() else {
            return Ok(true);
        };
        let found = keeper.look(&config);
        if let Some(problem) = found.problem {
            self.lines.say(&format!("Note: {problem}"))?;
        }
        let Some(saved) = found.saved else {
            return Ok(true);
        };
        self.lines.say(&saved_summary(&saved))?;
        loop {
            self.lines.prompt(&format!("{RESUME_QUESTION} "))?;
            let line = loop {
                match rx.recv() {
                    Ok(HostIn::Input(Input::Line(line))) => break line,
                    Ok(HostIn::Input(Input::End)) | Err(_) => {
                        self.lines.say("")?;
                        self.lines.say("End of input: nothing was played.")?;
                        return Ok(false);
                    }
                    Ok(HostIn::Net(_)) => {}
                }
            };
            self.lines.echo(&line)?;
            match yes_no(&line) {
                Some(true) => {
                    self.code = note.code;
                    self.resumed = true;
                    let keeper = self.keeper.take().unwrap_or_else(|| Keeper::new(None));
                    self.referee =
                        Some(Referee::new(saved, keeper).with_journal(&self.setup.name, note));
                    return Ok(true);
                }
                Some(false) => return Ok(true),
                None => self.lines.say("Please answer y or n.")?,
            }
        }
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
        self.lines.say(&format!(
            "{name} hosts a match of Mancala. Rules: {}.",
            self.setup.rules
        ))?;
        let who = match &self.referee {
            Some(r) => r.game().name(JOINER_SIDE).to_string(),
            None => "NAME".to_string(),
        };
        self.lines.say(&format!(
            "Your friend joins with this code: {}. On another machine, type:",
            self.code
        ))?;
        for address in link::reachable_addresses(bound) {
            self.lines.say(&format!(
                "  mancala join {address} --code {} {who}",
                self.code
            ))?;
        }
        if self.referee.is_none() {
            self.lines
                .say("(NAME is your friend's name.) Over the internet, see the README's network section.")?;
        }
        self.lines.say(&format!(
            "Listening on {bound}. Waiting for {} to join… (q quits)",
            self.opponent()
        ))
    }

    fn run(&mut self, rx: &mpsc::Receiver<HostIn>) -> anyhow::Result<ExitCode> {
        loop {
            let wait = PING_EVERY.saturating_sub(self.last_sent.elapsed());
            let event = match rx.recv_timeout(wait) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.send(&ToJoiner::Ping)?;
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(ExitCode::SUCCESS),
            };
            let changed = match event {
                HostIn::Net(event) => self.on_net(event)?,
                HostIn::Input(Input::Line(line)) => {
                    self.lines.echo(&line)?;
                    match self.on_line(&line)? {
                        Some(code) => return Ok(code),
                        None => true,
                    }
                }
                HostIn::Input(Input::End) => {
                    self.lines.say("")?;
                    self.lines.say("End of input.")?;
                    return self.quit();
                }
            };
            if self.referee.as_ref().is_some_and(Referee::is_finished) {
                resume::clear(&self.setup.name);
                if let Some((_, mut sender)) = self.conn.take() {
                    sender.close();
                }
                return Ok(ExitCode::SUCCESS);
            }
            if changed {
                self.prompt()?;
            }
        }
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
            self.lines.say(&format!(
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
                        self.lines.show(r.game(), &what)?;
                    }
                    if what == (Happening::Left { side: JOINER_SIDE }) {
                        let name = self.opponent();
                        if let Some((_, mut sender)) = self.conn.take() {
                            sender.close();
                        }
                        self.lines.say(&format!(
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
                self.lines.say(&text)?;
                Ok(false)
            }
            HostEvent::Joined {
                id,
                name,
                peer,
                sender,
            } => self.on_join(id, &name, peer, sender),
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
        self.lines.say(&format!(
            "{text}. The connection was closed and the match is unchanged. Waiting for {name} to come back (the match is saved)."
        ))
    }

    fn on_join(
        &mut self,
        id: u64,
        name: &str,
        peer: SocketAddr,
        sender: Sender,
    ) -> io::Result<bool> {
        let Some(name) = crate::net::clean_remote_name(name) else {
            self.refuse(sender, "Give a name to join with.");
            self.lines.say(&format!(
                "A player at {peer} gave no name and was turned away."
            ))?;
            return Ok(false);
        };
        if name.eq_ignore_ascii_case(&self.setup.name) {
            self.refuse(
                sender,
                &format!("{name} is the host's name: join with your own name."),
            );
            self.lines.say(&format!(
                "A player at {peer} tried to join as {name} (your name) and was turned away."
            ))?;
            return Ok(false);
        }
        let playing = self.opponent();
        if self.referee.is_some() && self.conn.is_some() && playing != name {
            let text = format!("{} is already playing with {playing}.", self.setup.name);
            self.refuse(sender, &text);
            self.lines.say(&format!(
                "{name} at {peer} tried to join and was turned away: you are playing with {playing}."
            ))?;
            return Ok(false);
        }
        let first_join = self.referee.is_none();
        if first_join {
            let seed = Rng::from_entropy().next_u64();
            let m = Match::new(self.config(&name), seed);
            let keeper = self.keeper.take().unwrap_or_else(|| Keeper::new(None));
            let note = HostNote {
                opponent: name.clone(),
                code: self.code,
                closing: None,
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
                self.lines
                    .say(&format!("{name} at {peer} was turned away: {text}"))?;
                Ok(false)
            }
            Ok(messages) => {
                if let Some((_, mut old)) = self.conn.take() {
                    // The same player again: the old connection is dead.
                    old.close();
                }
                self.conn = Some((id, sender));
                for message in &messages {
                    self.send(message)?;
                }
                let joined = if resumed { "is back" } else { "joined" };
                self.lines.say(&format!("{name} {joined} (from {peer})."))?;
                if let Some(r) = &self.referee {
                    let m = r.game().clone();
                    self.lines.round_start(&m)?;
                    if let Some(outcome) = m.outcome() {
                        self.lines
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
            self.lines.say(&format!(
                "Stopped. The match is saved: run `mancala host {}` with the same rules to resume it.",
                self.setup.name
            ))?;
            self.lines.tally(&m)?;
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
                _ => self.lines.say("Nobody has joined yet; q quits.")?,
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
                    self.lines.say("You said no: the move stays.")?;
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
            Typed::Help => self.lines.help(&rules, HOST_SIDE)?,
            _ if self.conn.is_none() => self.lines.say(&format!(
                "{opponent} is not connected: waiting for {opponent} to come back (q quits)."
            ))?,
            Typed::Undo => match referee.local_undo() {
                Ok(out) => {
                    self.apply(out)?;
                    self.lines.say(&format!(
                        "You asked {opponent} to agree to take back the last move."
                    ))?;
                }
                Err(why) => self.lines.say(&why)?,
            },
            Typed::Pit(pit) => {
                if referee.undo_request().is_some() {
                    self.lines
                        .say("First the request to take back a move must be answered.")?;
                } else if round_over {
                    self.lines.say("The round is over: answer y or n.")?;
                } else if referee.game().board().to_move() != HOST_SIDE {
                    self.lines.say(&format!("It is {opponent}'s turn."))?;
                } else {
                    match referee.local_move(pit) {
                        Ok(out) => self.apply(out)?,
                        Err(e) => self.lines.say(&e.to_string())?,
                    }
                }
            }
            Typed::Unknown(text) => {
                if round_over || referee.undo_request() == Some(JOINER_SIDE) {
                    self.lines.say("Please answer y or n.")?;
                } else {
                    self.lines.say(&not_a_pit(&rules, HOST_SIDE, &text))?;
                }
            }
        }
        Ok(None)
    }

    /// Says what the host's player may do now.
    fn prompt(&mut self) -> io::Result<()> {
        let Some(r) = &self.referee else {
            return Ok(());
        };
        if self.conn.is_none() || r.is_finished() {
            return Ok(());
        }
        let m = r.game();
        let opponent = m.name(JOINER_SIDE).to_string();
        let text = if r.undo_request() == Some(JOINER_SIDE) {
            "Agree? (y/n) ".to_string()
        } else if r.undo_request() == Some(HOST_SIDE) {
            format!("Waiting for {opponent} to answer…")
        } else if m.outcome().is_some() {
            match r.again()[HOST_SIDE.index()] {
                None => "Play again? (y/n) ".to_string(),
                Some(_) => format!("Waiting for {opponent}'s answer…"),
            }
        } else if m.board().to_move() == HOST_SIDE {
            format!(
                "{}, choose a pit ({}): ",
                m.name(HOST_SIDE),
                m.rules().letter_range(HOST_SIDE)
            )
        } else {
            format!("Waiting for {opponent}…")
        };
        self.lines.prompt(&text)
    }
}

/// The joiner's program. See the [module docs](self).
struct Joiner<W> {
    lines: Lines<W>,
    setup: JoinSetup,
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
    last_sent: Instant,
}

/// Runs `mancala join` line by line.
///
/// # Errors
/// When standard output fails.
pub fn join(setup: JoinSetup) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel::<JoinIn>();
    spawn_input(tx.clone(), JoinIn::Input);
    let mut lines = Lines {
        out: io::stdout().lock(),
        echo: !io::stdin().is_terminal(),
        animate: setup.animate,
    };
    lines.say(&format!("Joining the match at {}…", setup.address))?;
    let (sender, receiver, first) = match link::connect(&setup.addresses, &setup.code, &setup.name)
    {
        Ok(session) => session,
        Err(e) => {
            lines.say(&connect_failure(&setup, &e))?;
            return Ok(ExitCode::FAILURE);
        }
    };
    let reader_tx = tx.clone();
    link::spawn_reader(receiver, reader_tx, move |m| JoinIn::Net(1, m));
    let state = match first {
        ToJoiner::Welcome { state, .. } => state,
        ToJoiner::Refused { text } | ToJoiner::Error { text } => {
            lines.say(&crate::game::record::clean_name(&text))?;
            return Ok(ExitCode::FAILURE);
        }
        _ => {
            lines.say("The host answered with something other than a welcome; try again.")?;
            return Ok(ExitCode::FAILURE);
        }
    };
    let mirror = match Mirror::new(&state) {
        Ok(mirror) => mirror,
        Err(e) => {
            lines.say(&format!("The game cannot start: {}.", e.0))?;
            return Ok(ExitCode::FAILURE);
        }
    };
    let mut joiner = Joiner {
        lines,
        setup,
        mirror,
        sender,
        conn: 1,
        pending: None,
        asked: None,
        asking: false,
        again: None,
        last_sent: Instant::now(),
    };
    joiner.welcomed(false)?;
    joiner.prompt()?;
    joiner.run(&rx, &tx)
}

/// The sentence for a failed connection.
fn connect_failure(setup: &JoinSetup, e: &SessionError) -> String {
    match e {
        SessionError::WrongCode => format!(
            "The host did not accept the code {}: check it with the host (each new match has a new code).",
            setup.code
        ),
        SessionError::Version(_) => e.to_string(),
        SessionError::Frame(crate::net::frame::FrameError::Io(io)) => format!(
            "Could not reach a mancala host at {} ({io}). Is the host running, and is the address right?",
            setup.address
        ),
        other => format!("Could not join the match at {}: {other}.", setup.address),
    }
}

impl<W: Write> Joiner<W> {
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
            self.lines
                .say(&format!("Reconnected to {}'s match.", m.name(HOST_SIDE)))?;
        } else {
            self.lines.say(&format!(
                "Connected: {} (South, bottom row) against you, {} (North, top row).",
                m.name(HOST_SIDE),
                m.name(JOINER_SIDE)
            ))?;
            self.lines.say(&format!("Rules: {}.", m.rules()))?;
            self.lines.help(m.rules(), JOINER_SIDE)?;
        }
        self.lines.round_start(&m)?;
        if let Some(outcome) = m.outcome() {
            self.lines
                .say(&outcome_message(outcome, m.board().score(), names(&m)))?;
        }
        Ok(())
    }

    fn run(
        &mut self,
        rx: &mpsc::Receiver<JoinIn>,
        tx: &mpsc::Sender<JoinIn>,
    ) -> anyhow::Result<ExitCode> {
        loop {
            let wait = PING_EVERY.saturating_sub(self.last_sent.elapsed());
            let event = match rx.recv_timeout(wait) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.send(&ToHost::Ping);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(ExitCode::SUCCESS),
            };
            let changed = match event {
                JoinIn::Net(id, _) if id != self.conn => false,
                JoinIn::Net(_, Ok(ToJoiner::Ping)) => false,
                JoinIn::Net(_, Ok(message)) => match self.on_message(message)? {
                    Some(code) => return Ok(code),
                    None => true,
                },
                JoinIn::Net(_, Err(e)) => {
                    if let Some(code) = self.reconnect(&e, rx, tx)? {
                        return Ok(code);
                    }
                    true
                }
                JoinIn::Input(Input::Line(line)) => {
                    self.lines.echo(&line)?;
                    if let Some(code) = self.on_line(&line)? {
                        return Ok(code);
                    }
                    true
                }
                JoinIn::Input(Input::End) => {
                    self.lines.say("")?;
                    self.lines.say("End of input.")?;
                    return Ok(self.leave()?);
                }
            };
            if changed {
                self.prompt()?;
            }
        }
    }

    fn leave(&mut self) -> io::Result<ExitCode> {
        self.send(&ToHost::Leave);
        self.sender.close();
        let host = self.host_name();
        self.lines.say(&format!(
            "You left the match; it stays saved on {host}'s machine: join again with the same command while {host} hosts it."
        ))?;
        Ok(ExitCode::SUCCESS)
    }

    fn on_message(&mut self, message: ToJoiner) -> io::Result<Option<ExitCode>> {
        if let ToJoiner::Error { text } | ToJoiner::Refused { text } = &message {
            self.lines.say(&crate::game::record::clean_name(text))?;
            return Ok(Some(ExitCode::FAILURE));
        }
        let confirms_pending = matches!(&message, ToJoiner::Moved { at, .. } if self.pending.is_some_and(|(p, _)| p == *at));
        let happenings = match self.mirror.apply(message) {
            Ok(happenings) => happenings,
            Err(e) => {
                self.lines.say(&format!(
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
            self.lines.show(&m, what)?;
            match what {
                Happening::UndoAsked { .. } => self.asked = Some(At::of(&m)),
                Happening::UndoDeclined { .. } | Happening::Undone => {
                    self.asking = false;
                    self.asked = None;
                }
                Happening::Moved { .. } => self.asked = None,
                Happening::NextRound => self.again = None,
                Happening::Finished => {
                    self.sender.close();
                    return Ok(Some(ExitCode::SUCCESS));
                }
                Happening::Left { .. } => {
                    let host = self.host_name();
                    self.lines.say(&format!(
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

    /// After a lost connection: tries to reconnect for a while, then
    /// resends an unconfirmed move if the host has not played it.
    fn reconnect(
        &mut self,
        why: &SessionError,
        rx: &mpsc::Receiver<JoinIn>,
        tx: &mpsc::Sender<JoinIn>,
    ) -> io::Result<Option<ExitCode>> {
        if let SessionError::Malformed(_) | SessionError::Forged = why {
            self.lines
                .say(&format!("The connection to the host broke: {why}."))?;
        }
        let host = self.host_name();
        self.lines.say(&format!(
            "Connection lost ({why}); trying to reconnect to {host}'s match…"
        ))?;
        self.sender.close();
        let deadline = Instant::now() + self.setup.reconnect_for;
        loop {
            // Lines typed meanwhile: only q counts.
            while let Ok(event) = rx.try_recv() {
                match event {
                    JoinIn::Input(Input::Line(line)) => {
                        self.lines.echo(&line)?;
                        if matches!(typed(self.m().rules(), JOINER_SIDE, &line), Typed::Quit) {
                            self.lines.say("You left while the connection was lost.")?;
                            return Ok(Some(ExitCode::SUCCESS));
                        }
                        self.lines
                            .say("Not connected yet; reconnecting… (q leaves)")?;
                    }
                    JoinIn::Input(Input::End) => {
                        self.lines.say("End of input.")?;
                        return Ok(Some(ExitCode::SUCCESS));
                    }
                    JoinIn::Net(..) => {}
                }
            }
            match link::connect(&self.setup.addresses, &self.setup.code, &self.setup.name) {
                Ok((sender, receiver, first)) => {
                    self.conn += 1;
                    let id = self.conn;
                    link::spawn_reader(receiver, tx.clone(), move |m| JoinIn::Net(id, m));
                    self.sender = sender;
                    let ToJoiner::Welcome { state, .. } = first else {
                        if let ToJoiner::Refused { text } | ToJoiner::Error { text } = first {
                            self.lines.say(&crate::game::record::clean_name(&text))?;
                        }
                        return Ok(Some(ExitCode::FAILURE));
                    };
                    self.mirror = match Mirror::new(&state) {
                        Ok(mirror) => mirror,
                        Err(e) => {
                            self.lines
                                .say(&format!("The game cannot go on: {}.", e.0))?;
                            return Ok(Some(ExitCode::FAILURE));
                        }
                    };
                    self.asked = None;
                    self.asking = false;
                    self.again = None;
                    self.welcomed(true)?;
                    // A move the host never saved is sent again; one it
                    // saved is in the match already and is never resent.
                    if let Some((at, pit)) = self.pending.take()
                        && at == At::of(self.m())
                    {
                        self.pending = Some((at, pit));
                        self.send(&ToHost::Move { at, pit });
                    }
                    return Ok(None);
                }
                Err(e @ (SessionError::WrongCode | SessionError::Version(_))) => {
                    self.lines.say(&connect_failure(&self.setup, &e))?;
                    return Ok(Some(ExitCode::FAILURE));
                }
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(200));
                }
                Err(e) => {
                    self.lines.say(&format!(
                        "Could not reconnect to {host}'s match ({e}). Run the same command again to go on: the match is saved on {host}'s machine."
                    ))?;
                    return Ok(Some(ExitCode::FAILURE));
                }
            }
        }
    }

    fn on_line(&mut self, line: &str) -> io::Result<Option<ExitCode>> {
        let rules = *self.m().rules();
        let host = self.host_name();
        let round_over = self.m().outcome().is_some();
        if let Some(at) = self.asked
            && let Some(yes) = yes_no(line)
        {
            self.asked = None;
            self.send(&ToHost::UndoAnswer { at, yes });
            if !yes {
                self.lines.say("You said no: the move stays.")?;
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
            Typed::Help => self.lines.help(&rules, JOINER_SIDE)?,
            Typed::Undo => {
                if round_over {
                    self.lines
                        .say("The round is over: its moves are recorded.")?;
                } else if self.m().moves().is_empty() {
                    self.lines.say("There is no move to take back.")?;
                } else if self.asking || self.asked.is_some() || self.pending.is_some() {
                    self.lines
                        .say("A request is already waiting for an answer.")?;
                } else {
                    self.asking = true;
                    let at = At::of(self.m());
                    self.send(&ToHost::Undo { at });
                    self.lines.say(&format!(
                        "You asked {host} to agree to take back the last move."
                    ))?;
                }
            }
            Typed::Pit(pit) => {
                if self.asked.is_some() {
                    self.lines
                        .say("First answer: take back the last move? (y/n)")?;
                } else if round_over {
                    self.lines.say("The round is over: answer y or n.")?;
                } else if self.m().board().to_move() != JOINER_SIDE {
                    self.lines.say(&format!("It is {host}'s turn."))?;
                } else if self.pending.is_some() || self.asking {
                    self.lines
                        .say(&format!("Waiting for {host}'s program to answer…"))?;
                } else if let Err(e) = self.m().board().check(pit) {
                    self.lines.say(&e.to_string())?;
                } else {
                    let at = At::of(self.m());
                    let letter = rules.letter(pit).unwrap_or('?');
                    self.pending = Some((at, letter));
                    self.send(&ToHost::Move { at, pit: letter });
                }
            }
            Typed::Unknown(text) => {
                if round_over || self.asked.is_some() {
                    self.lines.say("Please answer y or n.")?;
                } else {
                    self.lines.say(&not_a_pit(&rules, JOINER_SIDE, &text))?;
                }
            }
        }
        Ok(None)
    }

    fn prompt(&mut self) -> io::Result<()> {
        if self.pending.is_some() {
            return Ok(());
        }
        let m = self.m();
        let host = m.name(HOST_SIDE).to_string();
        let text = if self.asked.is_some() {
            "Agree? (y/n) ".to_string()
        } else if self.asking {
            format!("Waiting for {host} to answer…")
        } else if m.outcome().is_some() {
            match self.again {
                None => "Play again? (y/n) ".to_string(),
                Some(_) => format!("Waiting for {host}'s answer…"),
            }
        } else if m.board().to_move() == JOINER_SIDE {
            format!(
                "{}, choose a pit ({}): ",
                m.name(JOINER_SIDE),
                m.rules().letter_range(JOINER_SIDE)
            )
        } else {
            format!("Waiting for {host}…")
        };
        self.lines.prompt(&text)
    }
}
