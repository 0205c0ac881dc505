//! The host's program: listening, the friend's seat, the [`Referee`] and
//! what the host's player types.

use std::collections::VecDeque;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::keeper::saved_summary;
use crate::game::{Keeper, Match, MatchConfig, Seat, outcome_message};
use crate::net::code::JoinCode;
use crate::net::link::{self, HostEvent, PING_EVERY};
use crate::net::message::{ToHost, ToJoiner};
use crate::net::referee::{HOST_SIDE, Happening, JOINER_SIDE, Out, Referee};
use crate::net::resume::{self, HostNote};
use crate::net::seat::{Admission, SeatKeeper};
use crate::net::session::{Sender, SessionError};
use crate::players::PlayerKind;
use crate::rng::Rng;

use super::{
    Ask, HostIn, HostSetup, LineInput, Show, Taken, Typed, is_command, names, not_a_pit, typed,
    yes_no,
};

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
            let connected = self.conn.is_some();
            self.send(&ToJoiner::Ping)?;
            if connected && self.conn.is_none() {
                // Lost on the ping: say what is waited for now.
                self.prompt()?;
            }
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
                Seat::new(opponent, PlayerKind::Network),
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
            self.show.say(&format!("Connection lost ({why})."))?;
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
                    if what == (Happening::Left { side: JOINER_SIDE })
                        && let Some((_, mut sender)) = self.conn.take()
                    {
                        // What is waited for now is asked next (Ask::Away).
                        sender.close();
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
        self.show.say(&format!(
            "{text}. The connection was closed and the match is unchanged."
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
                        "You asked {opponent} to agree to take back your last move."
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
        if r.is_finished() {
            return None;
        }
        let m = r.game();
        let opponent = m.name(JOINER_SIDE).to_string();
        let ask = if self.conn.is_none() {
            Ask::Away { name: opponent }
        } else if r.undo_request() == Some(JOINER_SIDE) {
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
