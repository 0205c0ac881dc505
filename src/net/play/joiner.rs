//! The joiner's program: the connection to the host, the [`Mirror`], and
//! what the joiner's player types.

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::{Match, outcome_message};
use crate::net::hosted::{HOST_SIDE, Happening, JOINER_SIDE};
use crate::net::link::{self, PING_EVERY};
use crate::net::message::{At, ToHost, ToJoiner};
use crate::net::mirror::Mirror;
use crate::net::session::{Sender, SessionError};
use crate::store::Keeper;

use super::{Ask, Command, JoinIn, JoinSetup, LineInput, Show, is_command_line, names, read};

/// The joiner's program. (see this module's docs).
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
    /// Keeps this player's record and statistics of each finished round
    /// (the host keeps the match itself).
    keeper: Keeper,
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
        let (keeper, warning) = Keeper::open_recording();
        if let Some(warning) = warning {
            show.say(&format!("Note: {warning}"))?;
        }
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
            keeper,
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
            JoinIn::Command(command) => match self.on_command(command)? {
                Some(code) => return Ok(Some(code)),
                None => self.lost.is_none(),
            },
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
        is_command_line(self.m().rules(), JOINER_SIDE, line)
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
        for what in happenings {
            let m = self.m().clone();
            // This player keeps its own record and statistics of the round.
            let (what, warnings) = match what {
                Happening::RoundOver { outcome, .. } => {
                    let kept = self.keeper.close_round(&m);
                    let record = kept.record;
                    (Happening::RoundOver { outcome, record }, kept.warnings)
                }
                what => (what, Vec::new()),
            };
            let what = &what;
            self.show.show(&m, what)?;
            for warning in warnings {
                self.show.say(&format!("Note: {warning}"))?;
            }
            match what {
                Happening::UndoAsked { .. } => self.asked = Some(At::of(&m)),
                Happening::UndoDeclined { .. } | Happening::Undone { .. } => {
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
                // Told to wait: come back then, not sooner, but never past
                // the `--reconnect` deadline (the wait is the peer's word,
                // clamped already: `session::MAX_RETRY_IN`).
                let pause = match e {
                    SessionError::TooManyTries(wait) => wait,
                    _ => Duration::from_millis(200),
                };
                self.lost = Some((deadline, (Instant::now() + pause).min(deadline)));
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
        let round_over = self.m().outcome().is_some();
        let question = self.asked.is_some() || (round_over && self.again.is_none());
        match read(self.m().rules(), JOINER_SIDE, question, line) {
            Ok(Some(command)) => return self.on_command(command),
            Ok(None) => {}
            Err(_) if self.lost.is_some() => self
                .show
                .say("Not connected yet; reconnecting… (q leaves)")?,
            Err(_) if round_over || self.asked.is_some() => {
                self.show.say("Please answer y or n.")?;
            }
            Err(said) => self.show.say(&said)?,
        }
        Ok(None)
    }

    /// Carries out the joiner's `command` (typed in plain mode, or from the
    /// full screen); `Some` ends the program with that code.
    fn on_command(&mut self, command: Command) -> io::Result<Option<ExitCode>> {
        let rules = *self.m().rules();
        let host = self.host_name();
        let round_over = self.m().outcome().is_some();
        match command {
            Command::Quit if self.lost.is_some() => {
                self.show.say("You left while the connection was lost.")?;
                return Ok(Some(ExitCode::SUCCESS));
            }
            _ if self.lost.is_some() => self
                .show
                .say("Not connected yet; reconnecting… (q leaves)")?,
            Command::Answer(yes) => {
                if let Some(at) = self.asked.take() {
                    self.send(&ToHost::UndoAnswer { at, yes });
                    if !yes {
                        self.show.say("You said no: the move stays.")?;
                    }
                } else if round_over && self.again.is_none() {
                    self.again = Some(yes);
                    self.send(&ToHost::Again { yes });
                }
            }
            Command::Quit => return self.leave().map(Some),
            Command::Help => self.show.help(&rules, JOINER_SIDE)?,
            Command::Undo => {
                if round_over {
                    self.show
                        .say("The round is over: its moves are recorded.")?;
                } else if let Some(refused) = self.m().undo_for_refused(JOINER_SIDE) {
                    self.show.say(&refused.message().text)?;
                } else if self.asking || self.asked.is_some() || self.pending.is_some() {
                    self.show
                        .say("A request is already waiting for an answer.")?;
                } else {
                    self.asking = true;
                    let at = At::of(self.m());
                    self.send(&ToHost::Undo { at });
                    self.show.say(&format!(
                        "You asked {host} to agree to take back your last move."
                    ))?;
                }
            }
            Command::Play(pit) => {
                if self.asked.is_some() {
                    self.show
                        .say("First answer: take back their last move? (y/n)")?;
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
            // Not offered over the network.
            _ => {}
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
        Some(Ask::now(
            self.m(),
            JOINER_SIDE,
            self.asked.is_some(),
            self.asking,
            self.again.is_some(),
        ))
    }
}
