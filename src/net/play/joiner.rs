//! The joiner's end, in three parts that every joiner front end shares:
//! the connection to the host ([`JoinLink`]: joining, pings, reconnecting
//! after a cut), the host's match followed in a session of its own
//! ([`Session::following`]: the host's session is the referee; the
//! follower plays each kept move by the rules, draws it, and keeps this
//! player's record and statistics of each round), and what the host asks
//! this player ([`Follower`]: the host's word, [`ToJoiner::Asked`], and the
//! player's commands turned into messages). Plain mode's [`JoinGame`]
//! prints them; the full screen draws the same session.

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::Match;
use crate::net::RemoteText;
use crate::net::hosted::{HOST_SEAT, Happening, JOINER_SEAT, happenings, undo_refused};
use crate::net::link::{self, PING_EVERY};
use crate::net::message::{At, NotNow, OpenQuestion, Snapshot, ToHost, ToJoiner};
use crate::net::session::{Sender, SessionError};
use crate::rules::Side;
use crate::session::{Session, SessionCommand, SessionEvent};
use crate::store::Keeper;

use super::{Ask, Command, JoinIn, JoinSetup, LineInput, Show, is_command_line, read};

/// The connection to the host, kept alive and made again after a cut.
pub struct JoinLink {
    setup: JoinSetup,
    tx: mpsc::Sender<JoinIn>,
    sender: Sender,
    conn: u64,
    last_sent: Instant,
    /// The connection is lost: give up at `.0`, try next at `.1`.
    lost: Option<(Instant, Instant)>,
    /// The seat key from the host's last welcome, shown when reconnecting.
    seat_key: Option<String>,
}

/// What a tick of the [`JoinLink`] brought.
pub enum Linked {
    /// Nothing to show.
    Nothing,
    /// Connected again: the host's welcome.
    Welcome(ToJoiner),
    /// It gave up: why, where there are words for it; the program ends.
    Failed(Option<String>),
}

impl JoinLink {
    /// Connects and joins: the link and the host's match; the host's
    /// messages are sent to `tx`, each as [`JoinIn::Net`] with the number
    /// of its connection ([`JoinLink::is_current`]).
    ///
    /// # Errors
    /// The sentence that says why not.
    fn connect(
        setup: JoinSetup,
        tx: mpsc::Sender<JoinIn>,
    ) -> Result<(JoinLink, Box<Snapshot>), String> {
        let (sender, receiver, first) =
            link::connect(&setup.addresses, &setup.code, &setup.name, None)
                .map_err(|e| link::join_failure(&setup.address, &setup.code, &e))?;
        link::spawn_reader(receiver, tx.clone(), move |m| JoinIn::Net(1, m));
        let ToJoiner::Welcome {
            state, seat_key, ..
        } = first
        else {
            let other = "The host answered with something other than a welcome; try again.";
            return Err(first.closing_words().unwrap_or_else(|| other.into()));
        };
        let joined = JoinLink {
            setup,
            tx,
            sender,
            conn: 1,
            last_sent: Instant::now(),
            lost: None,
            seat_key: Some(seat_key),
        };
        Ok((joined, state))
    }

    /// Connects, joins and follows the host's match (see `following`): the
    /// link, the session, and what to say of what it keeps.
    ///
    /// # Errors
    /// The sentence that says why not.
    pub fn join(
        setup: JoinSetup,
        tx: mpsc::Sender<JoinIn>,
    ) -> Result<(JoinLink, Session, Option<String>), String> {
        let (link, state) = JoinLink::connect(setup, tx)?;
        let (session, warning) = following(&state, link.setup.game)?;
        Ok((link, session, warning))
    }

    /// Whether `id` is the connection in use (a message of an older one
    /// is dropped).
    #[must_use]
    pub fn is_current(&self, id: u64) -> bool {
        id == self.conn
    }

    /// Whether the connection is lost (and being made again).
    #[must_use]
    pub fn is_lost(&self) -> bool {
        self.lost.is_some()
    }

    /// Sends `message`; a failure shows as the reader's end of connection.
    pub fn send(&mut self, message: &ToHost) {
        self.last_sent = Instant::now();
        let _ = self.sender.send(message);
    }

    /// Closes the connection.
    pub fn close(&mut self) {
        self.sender.close();
    }

    /// The player leaves: the host is told, the connection closed.
    pub fn leave(&mut self) {
        self.send(&ToHost::Leave);
        self.close();
    }

    /// The connection to the host's match broke (`why`): it is made again
    /// from now on. What the player is told, and what is asked meanwhile.
    pub fn lost(&mut self, why: &SessionError) -> (String, Ask) {
        self.sender.close();
        let now = Instant::now();
        self.lost = Some((now + self.setup.reconnect_for, now));
        (format!("Connection lost ({why})."), Ask::Reconnecting)
    }

    /// How long the caller may wait before calling [`JoinLink::tick`].
    #[must_use]
    pub fn wait(&self) -> Duration {
        match self.lost {
            Some((_, next_try)) => next_try.saturating_duration_since(Instant::now()),
            None => PING_EVERY.saturating_sub(self.last_sent.elapsed()),
        }
    }

    /// Time passed: keeps the connection alive, or tries to make it again.
    pub fn tick(&mut self, host: &str) -> Linked {
        if !self.wait().is_zero() {
            return Linked::Nothing;
        }
        if self.lost.is_none() {
            self.send(&ToHost::Ping);
            return Linked::Nothing;
        }
        self.try_reconnect(host)
    }

    /// One try at reconnecting to `host`'s match.
    fn try_reconnect(&mut self, host: &str) -> Linked {
        let Some((deadline, _)) = self.lost else {
            return Linked::Nothing;
        };
        let setup = &self.setup;
        let seat_key = self.seat_key.as_deref();
        match link::connect(&setup.addresses, &setup.code, &setup.name, seat_key) {
            Ok((sender, receiver, first)) => {
                self.conn += 1;
                let id = self.conn;
                link::spawn_reader(receiver, self.tx.clone(), move |m| JoinIn::Net(id, m));
                self.sender = sender;
                let ToJoiner::Welcome { seat_key, .. } = &first else {
                    return Linked::Failed(first.closing_words());
                };
                self.seat_key = Some(seat_key.clone());
                self.lost = None;
                self.last_sent = Instant::now();
                Linked::Welcome(first)
            }
            Err(e @ (SessionError::WrongCode | SessionError::Version(_))) => {
                Linked::Failed(Some(link::join_failure(&setup.address, &setup.code, &e)))
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
                Linked::Nothing
            }
            Err(e) => Linked::Failed(Some(format!(
                "Could not reconnect to {host}'s match. {} Run the same command again to go on: the match is saved on {host}'s machine.",
                link::join_failure(&setup.address, &setup.code, &e)
            ))),
        }
    }
}

/// The session that follows the host's match of the welcome, `state`,
/// keeping this player's record and statistics of each round with a
/// keeper of its own; what to say of the keeper too.
///
/// # Errors
/// Why the host's match cannot be used, or is not the game `wanted`.
fn following(
    state: &Snapshot,
    wanted: Option<crate::rules::Game>,
) -> Result<(Session, Option<String>), String> {
    let m = state
        .to_match()
        .map_err(|e| format!("The game cannot start: {}.", RemoteText::new(&e)))?;
    let game = m.game();
    if wanted.is_some_and(|wanted| wanted != game) {
        return Err(format!(
            "This host plays {game}: join it with --game {}.",
            game.as_str()
        ));
    }
    // This player keeps its own record and statistics of each round (the
    // host keeps the match itself).
    let (keeper, warning) = Keeper::open_recording();
    let mut session = Session::following(m, keeper);
    session.set_pie_rule(state.pie_rule);
    Ok((session, warning))
}

/// The sentences that greet the joiner's player in the followed
/// `session`'s match, every front end's: who plays whom, the rules (the
/// pie rule's too) and the keys (not again after a reconnection).
#[must_use]
pub fn greeting(session: &Session, again: bool) -> Vec<String> {
    let m = session.current();
    if again {
        return vec![format!(
            "Reconnected to {}'s match.",
            m.seat_name(HOST_SEAT)
        )];
    }
    let row = |side: Side| match side {
        Side::South => "South, bottom row",
        Side::North => "North, top row",
    };
    let (host, me) = (m.holder(HOST_SEAT), m.holder(JOINER_SEAT));
    vec![
        format!(
            "Connected: {} ({}) against you, {} ({}).",
            m.name(host),
            row(host),
            m.name(me),
            row(me)
        ),
        format!("Rules: {}.", m.config().rules_text()),
        super::help_text(m.game(), m.rules(), me),
    ]
    .into_iter()
    .chain(
        session
            .pie_rule()
            .then(|| crate::game::messages::pie_rule_greeting().text),
    )
    .collect()
}

/// What the player is told when the host's events cannot be followed.
#[must_use]
pub fn cannot_go_on(why: impl std::fmt::Display) -> String {
    format!("The game cannot go on: {why}. The host's match is kept on the host.")
}

/// What the player is told on leaving.
#[must_use]
fn you_left(host: &str) -> String {
    format!(
        "You left the match; it stays saved on {host}'s machine: join again with the same command while {host} hosts it."
    )
}

/// Plain mode's joiner (see this module's docs).
pub struct JoinGame<S> {
    show: S,
    link: JoinLink,
    session: Session,
    f: Follower,
    /// Lines typed before the question they answer.
    typed_ahead: VecDeque<LineInput>,
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
        let (link, session, warning) = match JoinLink::join(setup, tx) {
            Ok(joined) => joined,
            Err(why) => {
                show.say(&why)?;
                return Ok(Err((show, ExitCode::FAILURE)));
            }
        };
        if let Some(warning) = warning {
            show.say(&format!("Note: {warning}"))?;
        }
        let mut joiner = JoinGame {
            show,
            link,
            session,
            f: Follower::default(),
            typed_ahead: VecDeque::new(),
        };
        joiner.welcomed(false)?;
        joiner.prompt()?;
        Ok(Ok(joiner))
    }

    /// Whether the player is asked something now (see [`ToJoiner::Asked`]).
    #[must_use]
    pub fn is_asked(&self) -> bool {
        self.f.ask().is_some()
    }

    /// The front end's view.
    pub fn show_mut(&mut self) -> &mut S {
        &mut self.show
    }

    /// How long the caller may wait for the next event before calling
    /// [`JoinGame::tick`].
    #[must_use]
    pub fn wait(&self) -> Duration {
        self.link.wait()
    }

    /// Time passed: keeps the connection alive, or tries to reconnect;
    /// `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the output fails.
    pub fn tick(&mut self) -> io::Result<Option<ExitCode>> {
        match self.link.tick(&self.host_name()) {
            Linked::Nothing => Ok(None),
            Linked::Failed(why) => {
                if let Some(why) = why {
                    self.show.say(&why)?;
                }
                Ok(Some(ExitCode::FAILURE))
            }
            Linked::Welcome(first) => {
                let ended = self.on_message(first)?;
                if ended.is_none() {
                    self.prompt()?;
                }
                Ok(ended)
            }
        }
    }

    /// Handles one event; `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the output fails.
    pub fn handle(&mut self, event: JoinIn) -> io::Result<Option<ExitCode>> {
        let changed = match event {
            JoinIn::Net(id, _) if !self.link.is_current(id) => false,
            JoinIn::Net(_, Ok(ToJoiner::Ping)) => false,
            JoinIn::Net(_, Ok(message)) => {
                let asked = matches!(message, ToJoiner::Asked { .. });
                match self.on_message(message)? {
                    Some(code) => return Ok(Some(code)),
                    None => asked,
                }
            }
            JoinIn::Net(_, Err(e)) => {
                let (said, ask) = self.link.lost(&e);
                self.show.say(&said)?;
                self.show.ask(ask, self.session.current(), JOINER_SEAT)?;
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
        while let Some(input) = self.typed_ahead.front().filter(|i| self.ready_for(i)) {
            let input = input.clone();
            self.typed_ahead.pop_front();
            let changed = match input {
                LineInput::Line(line) => {
                    self.show.echo(&line)?;
                    if let Some(code) = self.on_line(&line)? {
                        return Ok(Some(code));
                    }
                    !self.link.is_lost()
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
        is_command_line(self.m(), JOINER_SEAT, line)
            || (!self.link.is_lost() && self.f.ask().is_some_and(Ask::is_answered_by_this_player))
    }

    fn m(&self) -> &Match {
        self.session.current()
    }

    fn host_name(&self) -> String {
        self.m().seat_name(HOST_SEAT).to_string()
    }

    /// Shows the match just received from the host.
    fn welcomed(&mut self, again: bool) -> io::Result<()> {
        for line in greeting(&self.session, again) {
            self.show.say(&line)?;
        }
        self.show.round_start(self.session.current())
    }

    fn leave(&mut self) -> io::Result<ExitCode> {
        self.link.leave();
        self.show.say(&you_left(&self.host_name()))?;
        Ok(ExitCode::SUCCESS)
    }

    fn on_message(&mut self, message: ToJoiner) -> io::Result<Option<ExitCode>> {
        if let Some(words) = message.closing_words() {
            self.show.say(&words)?;
            return Ok(Some(ExitCode::FAILURE));
        }
        let followed = match self.f.follow(&mut self.session, message) {
            Ok(followed) => followed,
            Err(e) => {
                self.show.say(&cannot_go_on(e))?;
                self.link.send(&ToHost::Leave);
                return Ok(Some(ExitCode::FAILURE));
            }
        };
        let happened = match followed {
            Followed::Happened(happened) => happened,
            Followed::Welcomed(again) => {
                // Reconnected: the move the host never saved goes again.
                self.welcomed(true)?;
                again.iter().for_each(|message| self.link.send(message));
                return Ok(None);
            }
        };
        for what in happened {
            self.show.show(self.session.current(), &what)?;
            match what {
                Happening::Finished | Happening::Left { .. } => {
                    self.link.close();
                    return Ok(Some(ExitCode::SUCCESS));
                }
                _ => {}
            }
        }
        Ok(None)
    }

    fn on_line(&mut self, line: &str) -> io::Result<Option<ExitCode>> {
        let round_over = self.m().outcome().is_some();
        let question = self.f.is_yes_no();
        match read(self.m(), JOINER_SEAT, question, line) {
            Ok(Some(command)) => return self.on_command(command),
            Ok(None) => {}
            Err(_) if self.link.is_lost() => self
                .show
                .say("Not connected yet; reconnecting… (q leaves)")?,
            Err(_) if round_over || question => {
                self.show.say("Please answer y or n.")?;
            }
            Err(said) => self.show.say(&said)?,
        }
        Ok(None)
    }

    /// Carries out the player's `command`; `Some` ends the program with
    /// that code.
    fn on_command(&mut self, command: Command) -> io::Result<Option<ExitCode>> {
        match command {
            Command::Quit if self.link.is_lost() => {
                self.show.say("You left while the connection was lost.")?;
                Ok(Some(ExitCode::SUCCESS))
            }
            _ if self.link.is_lost() => {
                self.show
                    .say("Not connected yet; reconnecting… (q leaves)")?;
                Ok(None)
            }
            Command::Quit => self.leave().map(Some),
            Command::Help => {
                let (game, rules) = (self.m().game(), *self.m().rules());
                self.show.help(game, &rules, self.m().holder(JOINER_SEAT))?;
                Ok(None)
            }
            command => {
                let (send, say) = self.f.command(self.session.current(), command);
                if let Some(message) = &send {
                    self.link.send(message);
                }
                if let Some(text) = &say {
                    self.show.say(text)?;
                }
                Ok(None)
            }
        }
    }

    fn prompt(&mut self) -> io::Result<()> {
        let Some(ask) = self.f.ask() else {
            return Ok(());
        };
        self.show.ask(ask, self.session.current(), JOINER_SEAT)
    }
}

/// What following one host message did.
#[derive(Debug)]
pub enum Followed {
    /// What happened, as every front end of either end shows it: a change
    /// of the followed session's match, or what only the network has (a
    /// request, an answer, the end); none when only the question changed
    /// ([`Follower::ask`]).
    Happened(Vec<Happening>),
    /// The match was taken from the host's welcome; with the move the
    /// host never saved, to send again.
    Welcomed(Option<ToHost>),
}

/// What the joiner's player sent the host and waits to see confirmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sent {
    /// A move from the pit of this letter.
    Move(char),
    /// The pie rule's swap.
    Swap,
}

/// What the host asks the joiner's player, and what is on its way to
/// the host: the host's word on whose turn it is, never this end's. The
/// match itself is the followed session's, handed in.
#[derive(Debug, Default)]
pub struct Follower {
    /// A move (its pit's letter) or the swap sent and not yet confirmed.
    pending: Option<(At, Sent)>,
    /// What the host asks this player now; `None` while an answer is on
    /// its way.
    question: Option<OpenQuestion>,
    /// The host asked to take back a move, at this place.
    asked: Option<At>,
    /// The question this player answered last, until the match changes.
    answered: Option<OpenQuestion>,
}

impl Follower {
    /// What the player is asked now (the host's question), nothing while
    /// a move or an answer is on its way.
    #[must_use]
    pub fn ask(&self) -> Option<Ask> {
        self.question
            .filter(|_| self.pending.is_none())
            .map(Ask::Open)
    }

    /// Whether the question open asks for a yes or a no.
    #[must_use]
    pub fn is_yes_no(&self) -> bool {
        matches!(
            self.question,
            Some(OpenQuestion::Agree | OpenQuestion::PlayAgain)
        )
    }

    /// After a reconnection to `m`: the move the host never saved, sent
    /// again (one it saved is in the match already and is never resent).
    fn resend(&mut self, m: &Match) -> Option<ToHost> {
        self.pending = self.pending.take().filter(|&(at, _)| at == At::of(m));
        Some(match self.pending? {
            (at, Sent::Move(pit)) => ToHost::Move { at, pit },
            (at, Sent::Swap) => ToHost::Swap { at },
        })
    }

    /// The player's `command` in `m`: what goes to the host (checked here
    /// first, so that nothing the host would refuse is sent; leaving is
    /// said to the host), what the player is told.
    pub fn command(&mut self, m: &Match, command: Command) -> (Option<ToHost>, Option<String>) {
        let host = m.seat_name(HOST_SEAT);
        let me = m.holder(JOINER_SEAT);
        let round_over = m.outcome().is_some();
        let say = |text: String| (None, Some(text));
        match command {
            Command::Answer(yes) => {
                // Answered once: the same question asked before the answer
                // reached the host is not asked again.
                self.answered = self.question.take();
                match self.answered {
                    Some(OpenQuestion::Agree) => {
                        let at = self.asked.take().unwrap_or_else(|| At::of(m));
                        let no = (!yes).then(|| "You said no: the move stays.".into());
                        (Some(ToHost::UndoAnswer { at, yes }), no)
                    }
                    Some(OpenQuestion::PlayAgain) => (Some(ToHost::Again { yes }), None),
                    _ => (None, None),
                }
            }
            Command::Undo => {
                if round_over {
                    say("The round is over: its moves are recorded.".into())
                } else if let Some(refused) = undo_refused(m, JOINER_SEAT) {
                    say(refused)
                } else if !matches!(
                    self.question,
                    Some(OpenQuestion::Move | OpenQuestion::Swap | OpenQuestion::Wait)
                ) || self.pending.is_some()
                {
                    say("A request is already waiting for an answer.".into())
                } else {
                    self.question = None;
                    let asked = format!("You asked {host} to agree to take back your last move.");
                    (Some(ToHost::Undo { at: At::of(m) }), Some(asked))
                }
            }
            Command::Play(pit) => {
                if self.question == Some(OpenQuestion::Agree) {
                    say("First answer: take back their last move? (y/n)".into())
                } else if round_over {
                    say("The round is over: answer y or n.".into())
                } else if m.position().to_move() != me {
                    say(format!("It is {host}'s turn."))
                } else if self.pending.is_some()
                    || !matches!(self.question, Some(OpenQuestion::Move | OpenQuestion::Swap))
                {
                    say(format!("Waiting for {host}'s program to answer…"))
                } else if let Err(e) = m.position().check(pit) {
                    say(e.naming_in(m.game(), host))
                } else {
                    let at = At::of(m);
                    let letter = m.rules().letter(pit).unwrap_or('?');
                    self.pending = Some((at, Sent::Move(letter)));
                    self.question = None;
                    (Some(ToHost::Move { at, pit: letter }), None)
                }
            }
            // The host's session is the referee; this end does not send
            // a swap its last word did not open.
            Command::Swap
                if self.pending.is_none() && self.question == Some(OpenQuestion::Swap) =>
            {
                let at = At::of(m);
                self.pending = Some((at, Sent::Swap));
                self.question = None;
                (Some(ToHost::Swap { at }), None)
            }
            Command::Swap => say(crate::session::no_swap_open().text),
            Command::Quit => (Some(ToHost::Leave), Some(you_left(host))),
            // Not offered over the network.
            _ => (None, None),
        }
    }

    /// Follows the host's `message` in `session`. The host's word is
    /// untrusted: a move or a take-back is played by this program's rules,
    /// at the place the host names.
    ///
    /// # Errors
    /// Why the game cannot go on (cleaned).
    pub fn follow(
        &mut self,
        session: &mut Session,
        message: ToJoiner,
    ) -> Result<Followed, RemoteText> {
        let disagree = |what: String| Err(RemoteText::new(&what));
        let here = At::of(session.current());
        // What is asked now is the host's word after this change.
        if !matches!(message, ToJoiner::Asked { .. } | ToJoiner::Ping) {
            self.question = None;
        }
        if matches!(
            message,
            ToJoiner::Moved { .. }
                | ToJoiner::Swapped { .. }
                | ToJoiner::TookBack { .. }
                | ToJoiner::NextRound { .. }
                | ToJoiner::Welcome { .. }
                | ToJoiner::UndoAsked { .. }
        ) {
            self.answered = None;
        }
        let news = |what| Ok(Followed::Happened(vec![what]));
        let events = match message {
            ToJoiner::Moved { at, by, pit } => {
                in_place("confirmed move", at, here)?;
                let Some(pit) = session.current().rules().pit_by_letter(pit) else {
                    return disagree(format!(
                        "the host confirmed a move from pit '{}', which this board does not have",
                        crate::game::names::shown(&pit.to_string())
                    ));
                };
                self.pending.take_if(|(p, _)| *p == at);
                let events = session.handle_for(by, SessionCommand::Play(pit));
                if let Some(SessionEvent::Refused(e)) = events.first() {
                    return disagree(format!(
                        "the host confirmed a move this board refuses ({e})"
                    ));
                }
                events
            }
            ToJoiner::Swapped { at } => {
                in_place("swapped sides at move", at, here)?;
                self.pending.take_if(|(p, _)| *p == at);
                let events = session.handle(SessionCommand::Swap);
                if !events.iter().any(|e| matches!(e, SessionEvent::Swapped(_))) {
                    return disagree(
                        "the host swapped sides where this board has no swap open".into(),
                    );
                }
                events
            }
            ToJoiner::TookBack { at, by } => {
                let events = session.handle(SessionCommand::TakeBack(by));
                if At::of(session.current()) != at {
                    return disagree(
                        "after taking back a move the host's match and this one differ".into(),
                    );
                }
                events
            }
            ToJoiner::NextRound { round, starter } => {
                let events = session.handle(SessionCommand::Answer(true));
                let m = session.current();
                if m.round() != round || m.starter() != starter || !m.moves().is_empty() {
                    return disagree("the next round could not start".into());
                }
                events
            }
            ToJoiner::Welcome { state, .. } => {
                session.set_pie_rule(state.pie_rule);
                session.follow(state.to_match().map_err(|e| RemoteText::new(&e))?);
                self.asked = None;
                return Ok(Followed::Welcomed(self.resend(session.current())));
            }
            ToJoiner::Asked { question } => {
                self.question = Some(question).filter(|&q| self.answered != Some(q));
                return Ok(Followed::Happened(Vec::new()));
            }
            ToJoiner::UndoAsked { at } => {
                self.asked = Some(at);
                return news(Happening::UndoAsked { by: HOST_SEAT });
            }
            ToJoiner::UndoDeclined => return news(Happening::UndoDeclined { by: HOST_SEAT }),
            ToJoiner::MoveRefused { at, why } => {
                self.pending.take_if(|(p, _)| *p == at);
                let host = session.current().seat_name(HOST_SEAT);
                return news(Happening::Said(match why {
                    NotNow::TakeBackAsked => format!(
                        "Your move was not played: {host} asked first to take back their last move."
                    ),
                    NotNow::NoSwapOpen => format!(
                        "Your swap was not taken: {}",
                        crate::session::no_swap_open().text
                    ),
                }));
            }
            ToJoiner::Again { yes } => {
                return news(Happening::Again {
                    seat: HOST_SEAT,
                    yes,
                });
            }
            ToJoiner::Finished => return news(Happening::Finished),
            ToJoiner::Leave => return news(Happening::Left { seat: HOST_SEAT }),
            // Ping; the host's closing words end the connection before
            // they would be followed (`ToJoiner::closing_words`).
            _ => return Ok(Followed::Happened(Vec::new())),
        };
        Ok(Followed::Happened(happenings(events)))
    }
}

/// Whether the host's change `at` (what it `did` at which move) is where
/// this board is, `here`.
///
/// # Errors
/// Why the game cannot go on, when it is not.
fn in_place(did: &str, at: At, here: At) -> Result<(), RemoteText> {
    if at == here {
        return Ok(());
    }
    Err(RemoteText::new(&format!(
        "the host {did} {} of round {}, but this board is at move {} of round {}",
        at.ply + 1,
        at.round,
        here.ply + 1,
        here.round
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::hosted::tests::a_match;

    /// After a reconnection a move the host never saved is sent again; one
    /// it saved (the match is past it) is no longer waited for, so that
    /// the host's next question is asked (a cut test once hung there).
    #[test]
    fn a_move_is_resent_only_when_the_host_never_saved_it() {
        let m = a_match();
        let mut f = Follower::default();
        let at = At::of(&m);
        f.pending = Some((at, Sent::Move('a')));
        assert_eq!(f.resend(&m), Some(ToHost::Move { at, pit: 'a' }));
        let mut after = m.clone();
        let a = m.rules().pit_by_letter('a').unwrap();
        after.play(a, &mut crate::rules::NoTrace).unwrap();
        assert_eq!(f.resend(&after), None);
        assert_eq!(f.pending, None);
        f.question = Some(OpenQuestion::Wait);
        assert!(f.ask().is_some());
    }

    /// An Oware move the rules refuse is refused on the joiner's side in
    /// Oware's words: a house, not a pit (RULES.md §7.8).
    #[test]
    fn an_oware_refusal_names_a_house() {
        use crate::game::{FirstMover, MatchConfig, Seat};
        use crate::players::PlayerKind;
        let config = MatchConfig {
            game: crate::rules::Game::Oware,
            rules: crate::rules::Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Network),
            ],
            first: FirstMover::North,
            start: None,
        };
        let mut m = Match::new(config, 1);
        let letter = |c| m.rules().pit_by_letter(c).unwrap();
        let (g, a) = (letter('g'), letter('a'));
        m.play(g, &mut crate::rules::NoTrace).unwrap();
        m.play(a, &mut crate::rules::NoTrace).unwrap();
        let mut f = Follower {
            question: Some(OpenQuestion::Move),
            ..Follower::default()
        };
        let (sent, said) = f.command(&m, Command::Play(g));
        assert_eq!(sent, None);
        assert_eq!(said.as_deref(), Some("Sorry, that house is empty."));
    }

    /// The race on the joiner's side: its move is on its way when the
    /// host's request to take back a move arrives. The host refuses the
    /// move ([`ToJoiner::MoveRefused`]): nothing is played here, the move
    /// is no longer waited for, and the request is what is asked.
    #[test]
    fn a_move_refused_for_the_hosts_take_back_request_leaves_the_request_open() {
        let mut m = a_match();
        let a = m.rules().pit_by_letter('a').unwrap();
        m.play(a, &mut crate::rules::NoTrace).unwrap();
        let mut session = Session::following(m, Keeper::new(None));
        let mut f = Follower::default();
        let at = At::of(session.current());
        f.pending = Some((at, Sent::Move('d')));
        let mut follow = |f: &mut Follower, message| match f.follow(&mut session, message).unwrap()
        {
            Followed::Happened(happened) => happened,
            Followed::Welcomed(_) => Vec::new(),
        };
        let undo_asked = follow(&mut f, ToJoiner::UndoAsked { at });
        assert_eq!(undo_asked, [Happening::UndoAsked { by: HOST_SEAT }]);
        let question = OpenQuestion::Agree;
        follow(&mut f, ToJoiner::Asked { question });
        let why = NotNow::TakeBackAsked;
        let said = follow(&mut f, ToJoiner::MoveRefused { at, why });
        assert!(
            matches!(&said[..], [Happening::Said(text)] if text.contains("Your move was not played")),
            "{said:?}"
        );
        assert_eq!(f.pending, None, "the move is no longer waited for");
        follow(&mut f, ToJoiner::Asked { question });
        assert_eq!(f.question, Some(OpenQuestion::Agree));
        assert_eq!(f.asked, Some(at));
        assert_eq!(session.current().moves().len(), 1, "nothing played here");
    }
}
