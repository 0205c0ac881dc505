//! The joiner's program: the connection to the host, and what the
//! joiner's player types. The host's session is the referee: the joiner
//! follows its events ([`ToJoiner`]) in a session of its own
//! ([`Session::following`]), which works out each kept move's sowing with
//! the rules, draws it, and keeps this player's record and statistics of
//! each round; what the player is asked is the host's word
//! ([`ToJoiner::Asked`]).

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::{Match, outcome_message};
use crate::net::RemoteText;
use crate::net::hosted::{HOST_SIDE, Happening, JOINER_SIDE, happenings};
use crate::net::link::{self, PING_EVERY};
use crate::net::message::{At, NotNow, OpenQuestion, Snapshot, ToHost, ToJoiner};
use crate::net::session::{Sender, SessionError};
use crate::session::{Session, SessionCommand, SessionEvent};
use crate::store::Keeper;

use super::{Ask, Command, JoinIn, JoinSetup, LineInput, Show, is_command_line, names, read};

/// The joiner's program. (see this module's docs).
pub struct JoinGame<S> {
    show: S,
    setup: JoinSetup,
    tx: mpsc::Sender<JoinIn>,
    /// The host's match as this program follows it.
    f: Follower,
    sender: Sender,
    conn: u64,
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
        // This player keeps its own record and statistics of each round
        // (the host keeps the match itself).
        let (keeper, warning) = Keeper::open_recording();
        let f = match Follower::new(&state, keeper) {
            Ok(f) => f,
            Err(e) => {
                show.say(&format!("The game cannot start: {e}."))?;
                return Ok(Err((show, ExitCode::FAILURE)));
            }
        };
        let game = f.m().game();
        if setup.game.is_some_and(|wanted| wanted != game) {
            show.say(&format!(
                "This host plays {game}: join it with --game {}.",
                game.as_str()
            ))?;
            return Ok(Err((show, ExitCode::FAILURE)));
        }
        if let Some(warning) = warning {
            show.say(&format!("Note: {warning}"))?;
        }
        let mut joiner = JoinGame {
            show,
            setup,
            tx,
            f,
            sender,
            conn: 1,
            typed_ahead: VecDeque::new(),
            last_sent: Instant::now(),
            lost: None,
            seat_key: Some(seat_key),
        };
        joiner.welcomed(false)?;
        joiner.prompt()?;
        Ok(Ok(joiner))
    }

    /// The game the host plays.
    #[must_use]
    pub fn game(&self) -> crate::rules::Game {
        self.f.m().game()
    }

    /// Whether the player is asked something now (see [`ToJoiner::Asked`]).
    #[must_use]
    pub fn is_asked(&self) -> bool {
        self.current_ask().is_some()
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
            JoinIn::Net(_, Ok(message)) => {
                let asked = matches!(message, ToJoiner::Asked { .. });
                match self.on_message(message)? {
                    Some(code) => return Ok(Some(code)),
                    None => asked,
                }
            }
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
        self.f.session.current()
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
        let m = self.f.session.current();
        if again {
            self.show
                .say(&format!("Reconnected to {}'s match.", m.name(HOST_SIDE)))?;
        } else {
            self.show.say(&format!(
                "Connected: {} (South, bottom row) against you, {} (North, top row).",
                m.name(HOST_SIDE),
                m.name(JOINER_SIDE)
            ))?;
            self.show
                .say(&format!("Rules: {}.", m.config().rules_text()))?;
            self.show.help(m.rules(), JOINER_SIDE)?;
        }
        self.show.round_start(m)?;
        if let Some(outcome) = m.outcome() {
            self.show
                .say(&outcome_message(outcome, m.position().score(), names(m)))?;
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
        let happenings = match self.f.follow(message) {
            Ok(happenings) => happenings,
            Err(e) => {
                self.show.say(&format!(
                    "The game cannot go on: {e}. The host's match is kept on the host."
                ))?;
                self.send(&ToHost::Leave);
                return Ok(Some(ExitCode::FAILURE));
            }
        };
        for what in happenings {
            self.show.show(self.f.m(), &what)?;
            match what {
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
                let ToJoiner::Welcome { seat_key, .. } = &first else {
                    if let ToJoiner::Refused { text } | ToJoiner::Error { text } = first {
                        self.show.say(&crate::net::remote_text(&text))?;
                    }
                    return Ok(Some(ExitCode::FAILURE));
                };
                self.seat_key = Some(seat_key.clone());
                if let Err(e) = self.f.follow(first) {
                    self.show.say(&format!("The game cannot go on: {e}."))?;
                    return Ok(Some(ExitCode::FAILURE));
                }
                self.lost = None;
                self.last_sent = Instant::now();
                self.welcomed(true)?;
                if let Some((at, pit)) = self.f.pending.take()
                    && at == At::of(self.m())
                {
                    self.f.pending = Some((at, pit));
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
        let question = matches!(
            self.f.question,
            Some(OpenQuestion::Agree | OpenQuestion::PlayAgain)
        );
        match read(self.m().rules(), JOINER_SIDE, question, line) {
            Ok(Some(command)) => return self.on_command(command),
            Ok(None) => {}
            Err(_) if self.lost.is_some() => self
                .show
                .say("Not connected yet; reconnecting… (q leaves)")?,
            Err(_) if round_over || question => {
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
                // Answered once: the same question asked before the answer
                // reached the host is not asked again.
                self.f.answered = self.f.question.take();
                match self.f.answered {
                    Some(OpenQuestion::Agree) => {
                        let at = self.f.asked.take().unwrap_or_else(|| At::of(self.m()));
                        self.send(&ToHost::UndoAnswer { at, yes });
                        if !yes {
                            self.show.say("You said no: the move stays.")?;
                        }
                    }
                    Some(OpenQuestion::PlayAgain) => self.send(&ToHost::Again { yes }),
                    _ => {}
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
                } else if !matches!(
                    self.f.question,
                    Some(OpenQuestion::Move | OpenQuestion::Wait)
                ) || self.f.pending.is_some()
                {
                    self.show
                        .say("A request is already waiting for an answer.")?;
                } else {
                    self.f.question = None;
                    let at = At::of(self.m());
                    self.send(&ToHost::Undo { at });
                    self.show.say(&format!(
                        "You asked {host} to agree to take back your last move."
                    ))?;
                }
            }
            Command::Play(pit) => {
                if self.f.question == Some(OpenQuestion::Agree) {
                    self.show
                        .say("First answer: take back their last move? (y/n)")?;
                } else if round_over {
                    self.show.say("The round is over: answer y or n.")?;
                } else if self.m().position().to_move() != JOINER_SIDE {
                    self.show.say(&format!("It is {host}'s turn."))?;
                } else if self.f.pending.is_some() || self.f.question != Some(OpenQuestion::Move) {
                    self.show
                        .say(&format!("Waiting for {host}'s program to answer…"))?;
                } else if let Err(e) = self.m().position().check(pit) {
                    self.show.say(&e.to_string())?;
                } else {
                    let at = At::of(self.m());
                    let letter = rules.letter(pit).unwrap_or('?');
                    self.f.pending = Some((at, letter));
                    self.f.question = None;
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

    /// What the joiner's player is asked now: the host's question
    /// ([`ToJoiner::Asked`]), nothing while a move or an answer is on its
    /// way.
    fn current_ask(&self) -> Option<Ask> {
        if self.f.pending.is_some() {
            return None;
        }
        Some(Ask::of(self.f.question?, self.m(), JOINER_SIDE))
    }
}

/// The host's match as the joiner's program follows it: a session of its
/// own that plays the host's kept moves by the rules (never trusting a
/// board it cannot check), and what the host asks this player.
pub struct Follower {
    /// The match as it was told, to draw and to keep.
    session: Session,
    /// A move sent and not yet confirmed.
    pending: Option<(At, char)>,
    /// What the host asks this player now; `None` while an answer is on
    /// its way.
    question: Option<OpenQuestion>,
    /// The host asked to take back a move, at this place.
    asked: Option<At>,
    /// The question this player answered last, until the match changes.
    answered: Option<OpenQuestion>,
}

impl Follower {
    /// Follows the match of the host's welcome, `state`, kept by `keeper`.
    ///
    /// # Errors
    /// Why the host's match cannot be used (cleaned).
    pub fn new(state: &Snapshot, keeper: Keeper) -> Result<Follower, RemoteText> {
        Ok(Follower {
            session: Session::following(state.to_match().map_err(|e| RemoteText::new(&e))?, keeper),
            pending: None,
            question: None,
            asked: None,
            answered: None,
        })
    }

    /// The match as it stands.
    #[must_use]
    pub fn m(&self) -> &Match {
        self.session.current()
    }

    /// Follows the host's `message`: what it did, in order. The host's
    /// word is untrusted: a move or a take-back is played by this
    /// program's rules, at the place the host names.
    /// # Errors
    /// Why the game cannot go on (cleaned).
    pub fn follow(&mut self, message: ToJoiner) -> Result<Vec<Happening>, RemoteText> {
        let disagree = |what: String| Err(RemoteText::new(&what));
        let here = At::of(self.m());
        // What is asked now is the host's word after this change.
        if !matches!(message, ToJoiner::Asked { .. } | ToJoiner::Ping) {
            self.question = None;
        }
        if matches!(
            message,
            ToJoiner::Moved { .. }
                | ToJoiner::TookBack { .. }
                | ToJoiner::NextRound { .. }
                | ToJoiner::Welcome { .. }
                | ToJoiner::UndoAsked { .. }
        ) {
            self.answered = None;
        }
        let events = match message {
            ToJoiner::Error { text } | ToJoiner::Refused { text } => return disagree(text),
            ToJoiner::Moved { at, by, pit } => {
                if at != here {
                    return disagree(format!(
                        "the host confirmed move {} of round {}, but this board is at move {} of round {}",
                        at.ply + 1,
                        at.round,
                        here.ply + 1,
                        here.round
                    ));
                }
                let Some(pit) = self.m().rules().pit_by_letter(pit) else {
                    return disagree(format!(
                        "the host confirmed a move from pit '{}', which this board does not have",
                        crate::game::names::shown(&pit.to_string())
                    ));
                };
                if self.pending.is_some_and(|(p, _)| p == at) {
                    self.pending = None;
                }
                let events = self.session.handle_for(by, SessionCommand::Play(pit));
                if let Some(SessionEvent::Refused(e)) = events.first() {
                    return disagree(format!(
                        "the host confirmed a move this board refuses ({e})"
                    ));
                }
                events
            }
            ToJoiner::TookBack { at, by } => {
                let events = self.session.handle(SessionCommand::TakeBack(by));
                if At::of(self.m()) != at {
                    return disagree(
                        "after taking back a move the host's match and this one differ".into(),
                    );
                }
                events
            }
            ToJoiner::NextRound { round, starter } => {
                let events = self.session.handle(SessionCommand::Answer(true));
                let m = self.m();
                if m.round() != round || m.starter() != starter || !m.moves().is_empty() {
                    return disagree("the next round could not start".into());
                }
                events
            }
            ToJoiner::Welcome { state, .. } => {
                self.session
                    .follow(state.to_match().map_err(|e| RemoteText::new(&e))?);
                self.asked = None;
                Vec::new()
            }
            ToJoiner::Asked { question } => {
                self.question = Some(question).filter(|&q| self.answered != Some(q));
                Vec::new()
            }
            ToJoiner::UndoAsked { at } => {
                self.asked = Some(at);
                return Ok(vec![Happening::UndoAsked { by: HOST_SIDE }]);
            }
            ToJoiner::UndoDeclined => return Ok(vec![Happening::UndoDeclined { by: HOST_SIDE }]),
            ToJoiner::MoveRefused { at, why } => {
                if self.pending.is_some_and(|(p, _)| p == at) {
                    self.pending = None;
                }
                let host = self.m().name(HOST_SIDE);
                return Ok(vec![Happening::Said(match why {
                    NotNow::TakeBackAsked => format!(
                        "Your move was not played: {host} asked first to take back their last move."
                    ),
                })]);
            }
            ToJoiner::Again { yes } => {
                return Ok(vec![Happening::Again {
                    side: HOST_SIDE,
                    yes,
                }]);
            }
            ToJoiner::Finished => return Ok(vec![Happening::Finished]),
            ToJoiner::Leave => return Ok(vec![Happening::Left { side: HOST_SIDE }]),
            ToJoiner::Ping => Vec::new(),
        };
        Ok(happenings(events, self.m()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::hosted::tests::a_match;

    /// The race on the joiner's side: its move is on its way when the
    /// host's request to take back a move arrives. The host refuses the
    /// move ([`ToJoiner::MoveRefused`]): nothing is played here, the move
    /// is no longer waited for, and the request is what is asked.
    #[test]
    fn a_move_refused_for_the_hosts_take_back_request_leaves_the_request_open() {
        let mut m = a_match();
        let a = m.rules().pit_by_letter('a').unwrap();
        m.play(a, &mut crate::rules::NoTrace).unwrap();
        let mut f = Follower::new(&Snapshot::of(&m), Keeper::new(None)).unwrap();
        let at = At::of(f.m());
        f.pending = Some((at, 'd'));
        let undo_asked = f.follow(ToJoiner::UndoAsked { at }).unwrap();
        assert_eq!(undo_asked, [Happening::UndoAsked { by: HOST_SIDE }]);
        let question = OpenQuestion::Agree;
        f.follow(ToJoiner::Asked { question }).unwrap();
        let why = NotNow::TakeBackAsked;
        let said = f.follow(ToJoiner::MoveRefused { at, why }).unwrap();
        assert!(
            matches!(&said[..], [Happening::Said(text)] if text.contains("Your move was not played")),
            "{said:?}"
        );
        assert_eq!(f.pending, None, "the move is no longer waited for");
        f.follow(ToJoiner::Asked { question }).unwrap();
        assert_eq!(f.question, Some(OpenQuestion::Agree));
        assert_eq!(f.asked, Some(at));
        assert_eq!(f.m().moves().len(), 1, "nothing played here");
    }
}
