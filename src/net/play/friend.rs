//! The friend's seat on the host: listening, who may take the seat, and
//! what only a network match adds to the host's session ([`Hosted`]). The
//! session, the referee, is the front end's: each call is handed it (`s`:
//! the match that waits for a friend, or the unfinished one offered,
//! until one joins and [`referee`] starts it). Both host front ends use
//! it: plain mode's [`super::HostGame`] and the full screen's
//! `NetScreen`, whose game screen draws that one session. What the match
//! says is shown through [`Show`]; the joiner is told of a change only
//! once the session has kept it.

use std::io;
use std::net::{SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::{Match, rules_text};
use crate::net::code::JoinCode;
use crate::net::frame::FrameError;
use crate::net::hosted::{HOST_SEAT, Happening, Hosted, JOINER_SEAT, Said, referee};
use crate::net::link::{self, HostEvent, PING_EVERY};
use crate::net::message::{ToHost, ToJoiner};
use crate::net::resume::{self, HostNote};
use crate::net::seat::{Admission, SeatKeeper};
use crate::net::session::{Sender, SessionError};
use crate::rng::Rng;
use crate::rules::Game;
use crate::session::{Asking, Session};
use crate::store::Keeper;
use crate::store::keeper::saved_summary;

use super::{Ask, Command, HostIn, HostSetup, Show};

/// The friend's seat on the host (see this module's docs).
pub struct FriendSeat<S> {
    show: S,
    setup: HostSetup,
    tx: mpsc::Sender<HostIn>,
    code: JoinCode,
    /// Keeps the match: here until the match starts (see
    /// [`FriendSeat::begun`]), then its session's.
    keeper: Option<Keeper>,
    /// What the network match adds to the session, once it has begun.
    hosted: Hosted,
    resumed: bool,
    conn: Option<(u64, Sender)>,
    /// Who may take the joiner's seat.
    seat: SeatKeeper,
    last_sent: Instant,
    /// A join without the seat's key while the seat's connection still
    /// looked open: it is let in if that connection ends within
    /// [`REJOIN_GRACE`] (a program restarted at once after a crash reaches
    /// the host before the old connection's end does), else turned away.
    contender: Option<Contender>,
    /// When a save that failed is tried again (the joiner hears of the
    /// change once it is saved).
    save_again_at: Option<Instant>,
    /// The host's unfinished matches under these rules, when there are
    /// several: the one whose opponent joins resumes.
    unfinished: Vec<HostNote>,
    /// The note of the host's unfinished match offered for resuming (the
    /// match is the one on show in the session): the resume question
    /// waits for its answer.
    offer: Option<HostNote>,
}

/// How often a save that failed is tried again.
const SAVE_AGAIN_EVERY: Duration = Duration::from_secs(1);

/// How long a join waits for the seat's old connection to end, when it
/// came while that connection still looked open.
pub const REJOIN_GRACE: Duration = Duration::from_secs(2);

/// A join waiting for the seat: see `FriendSeat`'s `contender`.
struct Contender {
    id: u64,
    name: String,
    peer: SocketAddr,
    sender: Sender,
    until: Instant,
}

impl<S: Show> FriendSeat<S> {
    /// The seat for `setup`'s match, before listening, kept by `keeper`;
    /// network events will be sent to `tx`.
    pub fn new(
        setup: HostSetup,
        show: S,
        keeper: Keeper,
        tx: mpsc::Sender<HostIn>,
    ) -> FriendSeat<S> {
        FriendSeat {
            show,
            code: JoinCode::random(),
            setup,
            tx,
            keeper: Some(keeper),
            hosted: Hosted::default(),
            resumed: false,
            conn: None,
            seat: SeatKeeper::default(),
            last_sent: Instant::now(),
            contender: None,
            save_again_at: None,
            unfinished: Vec::new(),
            offer: None,
        }
    }

    /// The host's network match as every front end opens it: its keeper,
    /// kept apart from local matches, and the seat for `setup`, with the
    /// unfinished match found for it if there is one (its resume question
    /// asked, see [`FriendSeat::is_offering`]), else listening already.
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn open(
        setup: HostSetup,
        show: S,
        tx: mpsc::Sender<HostIn>,
        s: &mut Session,
    ) -> anyhow::Result<FriendSeat<S>> {
        let (keeper, warning) = Keeper::open_network();
        let mut seat = FriendSeat::new(setup, show, keeper, tx);
        if let Some(warning) = warning {
            seat.show.say(&format!("Note: {warning}"))?;
        }
        seat.offer = seat.look_for_saved(s)?;
        if seat.offer.is_none() {
            seat.listen(s)?;
        }
        Ok(seat)
    }

    /// Whether the resume question waits for its answer.
    #[must_use]
    pub fn is_offering(&self) -> bool {
        self.offer.is_some()
    }

    /// The answer to the resume question: the saved match (yes) or a new
    /// one; listening starts either way.
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn answer_offer(&mut self, s: &mut Session, yes: bool) -> anyhow::Result<()> {
        match self.offer.take() {
            Some(note) if yes => self.resume(s, s.current().clone(), note)?,
            // Declined: nothing of the saved match stays on show.
            Some(_) => {
                *s = self.setup.waiting_session();
                self.show.declined(s.current())?;
            }
            None => {}
        }
        self.listen(s)
    }

    /// The front end's view.
    pub fn show_mut(&mut self) -> &mut S {
        &mut self.show
    }

    /// Whether the match has begun: a friend joined, or the host's
    /// player resumed the unfinished one (its session keeps it since).
    #[must_use]
    pub fn begun(&self) -> bool {
        self.keeper.is_none()
    }

    /// The host's unfinished network match, if its note and save are
    /// found: shown with its summary, and the resume question asked.
    ///
    /// # Errors
    /// When the output fails.
    fn look_for_saved(&mut self, s: &mut Session) -> io::Result<Option<HostNote>> {
        let settings = resume::Settings {
            game: self.setup.game,
            rules: self.setup.rules,
            first: self.setup.first,
        };
        // The most recent unfinished match under these settings is
        // offered; the others are named, so that none is forgotten.
        let notes = resume::load(&self.setup.name, settings);
        let Some(note) = notes.first().cloned() else {
            return Ok(None);
        };
        if notes.len() > 1 {
            let against: Vec<String> = notes
                .iter()
                .map(|n| format!("against {}", n.opponent))
                .collect();
            let how = format!(
                "Unfinished network matches of {} under these rules: {}. Whoever of them joins (with the code below) goes on with their match; anyone else starts a new one.",
                self.setup.name,
                against.join(", ")
            );
            self.show
                .show(s.current(), &Happening::HowToJoin(vec![how]))?;
            self.unfinished = notes;
            return Ok(None);
        }
        let Some(saved) = self.saved_against(&note.opponent)? else {
            return Ok(None);
        };
        self.offer(s, saved)?;
        Ok(Some(note))
    }

    /// Shows `saved` with its summary (in `s`, the session on show until
    /// a friend joins: resuming takes it from there), and asks whether to
    /// resume it.
    fn offer(&mut self, s: &mut Session, saved: Match) -> io::Result<()> {
        s.follow(saved);
        self.show.board(s.current())?;
        self.show.say(&saved_summary(s.current()))?;
        self.show.ask(Ask::Resume, s.current(), HOST_SEAT)
    }

    /// Offers `saved` (kept under `note`) for resuming, as a start that
    /// found it does: the resume question waits for its answer.
    ///
    /// # Errors
    /// When the output fails.
    #[cfg(test)]
    pub(crate) fn offering(
        &mut self,
        s: &mut Session,
        saved: Match,
        note: HostNote,
    ) -> io::Result<()> {
        self.offer(s, saved)?;
        self.offer = Some(note);
        Ok(())
    }

    /// The first to join is one of the host's several unfinished matches'
    /// opponents: that match resumes (with this session's code).
    fn resume_for(&mut self, s: &mut Session, name: &str) -> io::Result<()> {
        let name = crate::net::clean_remote_name(name).unwrap_or_default();
        let same = |n: &HostNote| crate::game::names::same_name(&n.opponent, &name);
        let Some(i) = self.unfinished.iter().position(same) else {
            return Ok(());
        };
        let note = self.unfinished.swap_remove(i);
        if let Some(saved) = self.saved_against(&note.opponent)? {
            self.show.say(&format!(
                "Your unfinished match against {name} goes on: round {}, {} played.",
                saved.round(),
                crate::rules::plural(saved.moves().len(), "move")
            ))?;
            let code = self.code;
            self.resume(s, saved, HostNote { code, ..note })?;
        }
        Ok(())
    }

    /// The saved match against `opponent` under these rules, if any (a
    /// problem with the file is said).
    fn saved_against(&mut self, opponent: &str) -> io::Result<Option<Match>> {
        let config = self.setup.config(opponent);
        let Some(keeper) = self.keeper.as_mut() else {
            return Ok(None);
        };
        let found = keeper.look(&config);
        if let Some(problem) = found.problem {
            self.show.say(&format!("Note: {problem}"))?;
        }
        Ok(found.saved)
    }

    /// Resumes `saved` (answered yes to the resume question): it is the
    /// match from now on, and the friend joins it with the same code.
    fn resume(&mut self, s: &mut Session, saved: Match, note: HostNote) -> io::Result<()> {
        self.code = note.code;
        self.resumed = true;
        self.begin(s, saved, &note)
    }

    /// `m` is the match from now on: its session keeps it, and host's
    /// resume note (see [`resume`]) offers it again after a restart (a
    /// note that could not be kept is said).
    fn begin(&mut self, s: &mut Session, m: Match, note: &HostNote) -> io::Result<()> {
        let Some(keeper) = self.keeper.take() else {
            return Ok(());
        };
        let kept = resume::store(&self.setup.name, resume::Settings::of(&m), note);
        *s = referee(m, keeper, self.setup.pie_rule);
        match kept {
            Err(e) => self.show.say(&format!(
                "Note: the note that offers this match again after a restart could not be kept ({}); the match itself is saved as usual.",
                crate::store::files::words(&e)
            )),
            Ok(()) => Ok(()),
        }
    }

    /// Listens, says how to join, and accepts joiners from now on.
    fn listen(&mut self, s: &Session) -> anyhow::Result<()> {
        let listener = TcpListener::bind(self.setup.bind)
            .map_err(|e| anyhow::anyhow!(link::bind_failure(self.setup.bind, &e)))?;
        let bound = listener.local_addr()?;
        self.announce(s, bound)?;
        link::listen(listener, self.code, self.tx.clone());
        Ok(())
    }

    /// How long the caller may wait for the next event before calling
    /// [`FriendSeat::tick`].
    #[must_use]
    pub fn wait(&self) -> Duration {
        let mut ping = PING_EVERY.saturating_sub(self.last_sent.elapsed());
        if let Some(at) = self.save_again_at {
            ping = ping.min(at.saturating_duration_since(Instant::now()));
        }
        match &self.contender {
            Some(c) => ping.min(c.until.saturating_duration_since(Instant::now())),
            None => ping,
        }
    }

    /// Time passed: tries again a save that failed, and keeps the
    /// connection alive.
    ///
    /// # Errors
    /// When the output fails.
    pub fn tick(&mut self, s: &mut Session) -> io::Result<()> {
        // Only a match that has begun saves (FriendSeat::apply).
        if self.save_again_at.is_some_and(|at| at <= Instant::now()) {
            let said = self.hosted.save_again(s);
            let saved = !s.is_behind();
            self.apply(s, said)?;
            if saved {
                self.prompt(s)?;
            }
        }
        if self.contender.is_some() && self.settle_contender(s)? {
            // Say again what is asked now, under the news.
            self.prompt(s)?;
        }
        if PING_EVERY <= self.last_sent.elapsed() {
            let connected = self.conn.is_some();
            self.send(&ToJoiner::Ping)?;
            if connected && self.conn.is_none() {
                // Lost on the ping: say what is waited for now.
                self.prompt(s)?;
            }
        }
        Ok(())
    }

    /// Carries out the host's player's `command` (a move, asking to take
    /// one back, a yes or no, the answer to the resume question, leaving:
    /// see [`FriendSeat::leave`]); `Some` when the program ends with that
    /// code.
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn command(
        &mut self,
        s: &mut Session,
        command: Command,
    ) -> anyhow::Result<Option<ExitCode>> {
        if command == Command::Quit {
            self.leave(s)?;
            return Ok(Some(ExitCode::SUCCESS));
        }
        if self.is_offering() {
            // A resumed match waits for the friend (Ask::Away).
            if let Command::Answer(yes) = command {
                self.answer_offer(s, yes)?;
            }
            return Ok(None);
        }
        let opponent = self.opponent(s);
        let connected = self.conn.is_some();
        if !self.begun() {
            self.show.say("Nobody has joined yet; q quits.")?;
            return Ok(None);
        }
        let hosted = &mut self.hosted;
        let said = match command {
            Command::Answer(yes) => match hosted.local_answer(s, yes) {
                Some(said) => Ok(said),
                None => return Ok(None),
            },
            Command::Help => {
                let rules = *s.current().rules();
                let side = s.current().holder(HOST_SEAT);
                self.show.help(s.current().game(), &rules, side)?;
                return Ok(None);
            }
            _ if !connected => Err(format!(
                "{opponent} is not connected: waiting for {opponent} to come back (q quits)."
            )),
            Command::Undo => hosted.local_undo(s).map(|mut said| {
                said.show.push(Happening::Said(format!(
                    "You asked {opponent} to agree to take back your last move."
                )));
                said
            }),
            Command::Play(pit) => hosted.local_move(s, pit),
            Command::Swap => hosted.local_swap(s),
            // Not offered over the network.
            _ => return Ok(None),
        };
        match said {
            Ok(said) => self.apply(s, said)?,
            Err(why) => self.show.say(&why)?,
        }
        Ok(None)
    }

    /// Handles what came from the network; `true` when what the host's
    /// player is asked may have changed.
    ///
    /// # Errors
    /// When the output fails.
    pub fn on_net(&mut self, s: &mut Session, event: HostEvent) -> io::Result<bool> {
        let changed = self.on_event(s, event)?;
        if self.contender.is_some() {
            return Ok(self.settle_contender(s)? || changed);
        }
        Ok(changed)
    }

    /// Lets the join waiting for the seat in once the seat's connection
    /// has ended, or turns it away once its grace is over; `true` when
    /// either happened (what the host's player is asked may change).
    fn settle_contender(&mut self, s: &mut Session) -> io::Result<bool> {
        let held = self.conn.as_ref().is_some_and(|(_, s)| s.is_open());
        let Some(c) = self.contender.take() else {
            return Ok(false);
        };
        if !held {
            return self.on_join(s, c.id, &c.name, None, c.peer, c.sender);
        }
        if Instant::now() < c.until {
            self.contender = Some(c);
            return Ok(false);
        }
        self.turn_away_contender(c.sender, &c.name, c.peer)?;
        Ok(true)
    }

    fn on_event(&mut self, s: &mut Session, event: HostEvent) -> io::Result<bool> {
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
            } => {
                self.resume_for(s, &name)?;
                self.on_join(s, id, &name, seat_key.as_deref(), peer, sender)
            }
            HostEvent::Message { id, message } => {
                if self.conn.as_ref().is_none_or(|(current, _)| *current != id) {
                    return Ok(false);
                }
                let name = self.opponent(s);
                let message = match message {
                    Ok(message) => message,
                    Err(SessionError::Frame(e))
                        if !matches!(e, FrameError::TooLarge(_) | FrameError::Malformed) =>
                    {
                        self.lost(&e.to_string())?;
                        return Ok(true);
                    }
                    // A message that fails to open was altered, replayed or
                    // reordered on the way, not sent so by the joiner's
                    // program: the connection is as good as cut (its count
                    // is off), and the joiner reconnects as after a cut.
                    // Nothing is sent on it, so that no answer of the host
                    // ends the joiner's program.
                    Err(e @ SessionError::Forged) => {
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
                if !self.begun() {
                    return Ok(false);
                }
                match self.hosted.remote(s, message) {
                    Ok(said) => self.apply(s, said)?,
                    Err(violation) => {
                        self.violation(&format!("{name}'s program {}", violation.0))?;
                    }
                }
                Ok(true)
            }
        }
    }

    /// The host's player stops: the friend is told, the match stays saved.
    ///
    /// # Errors
    /// When the output fails.
    pub fn leave(&mut self, s: &Session) -> io::Result<()> {
        if self.begun() {
            self.send(&ToJoiner::Leave)?;
            self.show.say(&format!(
                "Stopped. The match is saved: run `mancala host {}` with the same rules to resume it.",
                self.setup.name
            ))?;
            self.show.tally(s.current())?;
        }
        self.close();
        Ok(())
    }

    /// Ends the connection, if any (the match is over or the host left).
    pub fn close(&mut self) {
        if let Some((_, mut sender)) = self.conn.take() {
            sender.close();
        }
    }

    /// The match is over for good: its resume note goes, and the friend's
    /// connection ends.
    pub fn end(&mut self, s: &Session) {
        if self.begun() {
            let m = s.current();
            resume::clear(
                &self.setup.name,
                m.seat_name(JOINER_SEAT),
                resume::Settings::of(m),
            );
        }
        self.close();
    }

    /// The friend's name in the match on show in `s` ("your friend"
    /// before anyone joined).
    fn opponent(&self, s: &Session) -> String {
        s.current().seat_name(JOINER_SEAT).to_string()
    }

    /// Says how the friend joins.
    fn announce(&mut self, s: &Session, bound: SocketAddr) -> io::Result<()> {
        let name = self.setup.name.clone();
        let rules = rules_text(self.setup.game, self.setup.rules);
        self.show.say(&match self.setup.game {
            Game::Kalah if self.setup.pie_rule => format!(
                "{name} hosts a match of Mancala. Rules: {rules}. {}",
                crate::game::messages::pie_rule_greeting().text
            ),
            Game::Kalah => format!("{name} hosts a match of Mancala. Rules: {rules}."),
            Game::Oware => format!("{name} hosts a match of {rules}."),
        })?;
        let who = if self.begun() {
            s.current().seat_name(JOINER_SEAT)
        } else {
            "NAME"
        };
        let code = self.code;
        let mut lines = vec![format!(
            "Your friend joins with this code: {code}. On another machine, type:"
        )];
        lines.extend(
            link::reachable_addresses(bound)
                .into_iter()
                .map(|address| format!("  mancala join {address} --code {code} {who}")),
        );
        if !self.begun() {
            lines.push("(NAME is your friend's name.) Over the internet, see the README's network section.".into());
        }
        lines.push(format!(
            "Listening on {bound}. Waiting for {} to join… (q quits)",
            self.opponent(s)
        ));
        self.show.show(s.current(), &Happening::HowToJoin(lines))
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

    /// Carries out what the host's match `said`: news for the host's
    /// player, then messages for the joiner; a save that failed is tried
    /// again every second until it works.
    fn apply(&mut self, s: &Session, said: Said) -> io::Result<()> {
        if !self.begun() {
            return Ok(());
        }
        for what in &said.show {
            self.show.show(s.current(), what)?;
        }
        if said.show.contains(&Happening::Left { seat: JOINER_SEAT }) {
            // What is waited for now is asked next (Ask::Away).
            self.close();
        }
        for message in said.send {
            self.send(&message)?;
        }
        self.save_again_at = s.is_behind().then(|| Instant::now() + SAVE_AGAIN_EVERY);
        Ok(())
    }

    /// Turns away a join without the seat's key while the seat is held.
    fn turn_away_contender(
        &mut self,
        sender: Sender,
        name: &str,
        peer: SocketAddr,
    ) -> io::Result<()> {
        self.refuse(
            sender,
            &format!(
                "{name} is already playing in this match from another program, which is still connected: only that program can take the seat back. If that was you, leave it (q), or wait {} s for {} to see that it is gone, then join again.",
                link::SILENCE.as_secs(),
                self.setup.name
            ),
            &format!(
                "A program at {peer} tried to take {name}'s seat while {name} is connected, without {name}'s seat key; it was turned away."
            ),
        )
    }

    /// Tells the program at `sender` why it is turned away (`text`), and
    /// this player what happened (`said`).
    fn refuse(&mut self, mut sender: Sender, text: &str, said: &str) -> io::Result<()> {
        let _ = sender.send(&ToJoiner::Refused {
            text: text.to_string(),
        });
        sender.close();
        self.show.say(said)
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
        s: &mut Session,
        id: u64,
        name: &str,
        seat_key: Option<&str>,
        peer: SocketAddr,
        sender: Sender,
    ) -> io::Result<bool> {
        let Some(name) = crate::net::clean_remote_name(name) else {
            let said = format!("A player at {peer} gave no name and was turned away.");
            self.refuse(sender, "Give a name to join with.", &said)?;
            return Ok(false);
        };
        if crate::game::names::same_name(&name, &self.setup.name) {
            self.refuse(
                sender,
                &format!("{name} is the host's name: join with your own name."),
                &format!(
                    "A player at {peer} tried to join as {name} (your name) and was turned away."
                ),
            )?;
            return Ok(false);
        }
        let playing = self.opponent(s);
        let in_use = self.conn.as_ref().is_some_and(|(_, s)| s.is_open());
        if self.begun() && in_use && playing != name {
            let text = format!("{} is already playing with {playing}.", self.setup.name);
            let said = format!(
                "{name} at {peer} tried to join and was turned away: you are playing with {playing}."
            );
            self.refuse(sender, &text, &said)?;
            return Ok(false);
        }
        let admission = self.seat.admit(seat_key, in_use);
        if admission == Admission::Taken {
            if self.contender.is_none() {
                // Perhaps the same player's program, restarted before the
                // old connection's end reached this host: wait a moment
                // for it, and make a dead connection show itself.
                self.contender = Some(Contender {
                    id,
                    name,
                    peer,
                    sender,
                    until: Instant::now() + REJOIN_GRACE,
                });
                self.send(&ToJoiner::Ping)?;
                return Ok(false);
            }
            self.turn_away_contender(sender, &name, peer)?;
            // Ask again what was asked before the line.
            return Ok(true);
        }
        let newcomer = matches!(admission, Admission::Newcomer(_)) && !self.seat.key().is_empty();
        let first_join = !self.begun();
        if first_join {
            let seed = Rng::from_entropy().next_u64();
            let m = Match::new(self.setup.config(&name), seed);
            let note = HostNote {
                opponent: name.clone(),
                code: self.code,
            };
            self.begin(s, m, &note)?;
        }
        if !self.begun() {
            return Ok(false);
        }
        let resumed = self.resumed || !first_join;
        match self.hosted.welcome(s, &name, resumed) {
            Err(text) => {
                let said = format!("{name} at {peer} was turned away: {text}");
                self.refuse(sender, &text, &said)?;
                Ok(false)
            }
            Ok(mut messages) => {
                // The same player again: the old connection is dead.
                self.close();
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
                let joined = Happening::Joined {
                    back: resumed,
                    from: peer,
                };
                self.show.show(s.current(), &joined)?;
                if newcomer {
                    self.show.say(&format!(
                        "(From a new program: {name}'s seat was free, so it took it; the program that played before can no longer take it back.)"
                    ))?;
                }
                self.show.round_start(s.current())?;
                Ok(true)
            }
        }
    }

    /// After a change: ends the match once it is over (`Some` is the
    /// program's exit code), else says what is asked now when `changed`.
    ///
    /// # Errors
    /// When the output fails.
    pub fn settle(&mut self, s: &mut Session, changed: bool) -> io::Result<Option<ExitCode>> {
        if s.asking() == Asking::Over {
            self.end(s);
            return Ok(Some(ExitCode::SUCCESS));
        }
        if changed {
            self.prompt(s)?;
        }
        Ok(None)
    }

    /// Says what the host's player may do now.
    ///
    /// # Errors
    /// When the output fails.
    pub fn prompt(&mut self, s: &Session) -> io::Result<()> {
        let Some(ask) = self.current_ask(s) else {
            return Ok(());
        };
        self.show.ask(ask, s.current(), HOST_SEAT)
    }

    /// What the host's player is asked now, if anything.
    #[must_use]
    pub fn current_ask(&self, s: &Session) -> Option<Ask> {
        if !self.begun() || s.asking() == Asking::Over {
            return None;
        }
        if self.conn.is_none() {
            return Some(Ask::Away);
        }
        self.hosted.question(s, HOST_SEAT).map(Ask::Open)
    }
}
