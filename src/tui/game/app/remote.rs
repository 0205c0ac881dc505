//! The game screen for a match with a friend on another machine.
//!
//! Both ends show the match the host's session plays (the referee): the
//! moves come from that session, shown as a local match shows its own,
//! and what the network game asks this player decides whose turn it is.
//! On the host the screen's session *is* the host's session (the friend's
//! seat plays the match in it, see `tui/net.rs`), and the screen is told
//! what happened in it as plain mode is ([`Shown::Happened`], a
//! [`Happening`]); until a friend joins it shows the match that waits for
//! one, or the unfinished match offered ([`Shown::Board`]). The joiner's
//! screen has a session of its own, on another machine, that follows the
//! host's messages ([`Shown::Host`], see [`crate::net::play::Follower`]
//! and [`crate::session::Session::following`]), and is shown what happened
//! in it as the same [`Happening`]s. Both are the same [`App`]
//! as a local match (board, cursor, key bar, ★ notes, header,
//! `+ - t ?`, the quit question), and turn the keys that only the network
//! has into the commands the network game carries out
//! ([`App::take_commands`]). What only the network has (waiting for the
//! friend, asking to take a move back, both answering "Play again?", a
//! lost connection) comes in as the network game's [`Ask`], and holds the
//! game while it is open.

use std::collections::VecDeque;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Mode, Note, Overlay, Tone, key_name};
use crate::net::hosted::{HOST_SEAT, Happening, JOINER_SEAT, undo_refused};
use crate::net::message::{OpenQuestion as Open, ToHost, ToJoiner};
use crate::net::play::{Ask, Command, Followed, Follower, cannot_go_on, greeting};
use crate::rules::{Pit, Side};
use crate::session::{Asking, SessionCommand};
use crate::tui::game::keys::Does;

/// What the network game says, in order, for the screen to show.
#[derive(Clone, Debug)]
pub enum Shown {
    /// What the player is asked now.
    Ask(Ask),
    /// Another match is on show in the host's screen's session (an
    /// unfinished match offered, declined, the match the friend joined).
    Board,
    /// What happened (a line of news is [`Happening::Said`]), as plain
    /// mode is told it too ([`crate::net::play::Show::show`]).
    Happened(Happening),
    /// A message of the host's, for the joiner's screen to follow.
    Host(Box<ToJoiner>),
    /// The network game ended with this exit code.
    Ended(u8),
}

/// The network's part of the screen's state.
#[derive(Debug)]
pub struct Remote {
    /// The seat of this screen's player (the host's or the joiner's:
    /// its side is the match's word, see [`crate::game::Match::holder`]).
    me: Side,
    /// What the network game asks now (`None` until it asks, and while a
    /// move or an answer is on its way).
    ask: Option<Ask>,
    /// What arrived while a move was being sown, shown after it.
    queue: VecDeque<Shown>,
    /// The commands given since the last [`App::take_commands`].
    commands: Vec<Command>,
    /// The exit code, once the network game has ended.
    ended: Option<u8>,
    /// On the joiner: what the host asks this player (the screen's session
    /// follows the host's).
    follower: Option<Follower>,
    /// On the joiner: the messages for the host since the last
    /// [`App::take_messages`].
    outbox: Vec<ToHost>,
    /// On the host: the lines that say how the friend joins, in the log
    /// until the friend is in ([`Happening::HowToJoin`]).
    how_to_join: Vec<String>,
}

impl Remote {
    /// The network's part of the screen of `me`'s player; the joiner's
    /// screen follows the host's messages with a [`Follower`].
    fn new(me: Side) -> Remote {
        Remote {
            me,
            ask: None,
            queue: VecDeque::new(),
            commands: Vec::new(),
            ended: None,
            follower: (me == JOINER_SEAT).then(Follower::default),
            outbox: Vec::new(),
            how_to_join: Vec::new(),
        }
    }
}

impl App {
    /// This screen as the network match's screen for the player of `me`
    /// (its session is the host's on the host, a follower of it on the
    /// joiner): it waits for what the network game asks.
    #[must_use]
    pub fn networked(self, me: Side) -> App {
        let mut app = self;
        // the greetings of the screen's own session go: the network's
        // welcome says them (once)
        app.notes.clear_log();
        app.notes.hush();
        app.remote = Some(Remote::new(me));
        app.mode = Mode::Waiting;
        app
    }

    /// The joiner's screen: this screen's session follows the host's
    /// match (see [`crate::net::play::JoinLink::join`]); `said` comes
    /// first in the log.
    #[must_use]
    pub fn following(self, said: Vec<String>) -> App {
        let mut app = self.networked(JOINER_SEAT);
        app.notes.log_lines(said.into_iter().map(Note::plain));
        app.greet(false);
        app
    }

    /// The joiner's screen greets its player in the host's match (the
    /// same words as plain mode, [`greeting`]), and says the round.
    fn greet(&mut self, again: bool) {
        let mut lines = greeting(&self.session, again);
        lines.push(self.session.current().opening().text);
        self.notes.log_lines(lines.into_iter().map(Note::plain));
    }

    /// The messages for the host since the last call, in order (the
    /// joiner's screen).
    pub fn take_messages(&mut self) -> Vec<ToHost> {
        self.remote
            .as_mut()
            .map(|r| std::mem::take(&mut r.outbox))
            .unwrap_or_default()
    }

    /// Whether this screen shows a network match.
    #[must_use]
    pub fn is_networked(&self) -> bool {
        self.remote.is_some()
    }

    /// Whether the network game holds the match: the player moves or
    /// answers "Play again?" only when the network game asks it (not
    /// before the match is in play, nor while a move or an answer is on
    /// its way, nor while something only the network has waits: taking a
    /// move back, the other's answer to "Play again?", the other player or
    /// the connection coming back, the resume question).
    pub(super) fn held_by_the_network(&self) -> bool {
        self.remote.as_ref().is_some_and(|r| {
            !matches!(
                r.ask,
                Some(Ask::Open(Open::Move | Open::Swap | Open::PlayAgain))
            )
        })
    }

    /// The answers typed for the network game since the last call, in order.
    pub fn take_commands(&mut self) -> Vec<Command> {
        self.remote
            .as_mut()
            .map(|r| std::mem::take(&mut r.commands))
            .unwrap_or_default()
    }

    /// What becomes of the match when this player quits mid-round: the
    /// host resumes it by hosting again, the joiner by joining again.
    #[must_use]
    pub fn network_quit_fate(&self) -> Option<&'static str> {
        Some(if self.remote.as_ref()?.me == HOST_SEAT {
            "The match stays saved: host it again with the same name to resume."
        } else {
            "The match stays saved on the host's machine: join again to resume."
        })
    }

    /// The network game's exit code, once it has ended.
    #[must_use]
    pub fn network_ended(&self) -> Option<u8> {
        self.remote.as_ref().and_then(|r| r.ended)
    }

    /// Whether nobody can move until the network game asks again (no
    /// friend yet, or an answer on its way): no side is marked to move.
    pub(super) fn waits_for_the_network(&self) -> bool {
        matches!(self.mode, Mode::Waiting)
            && self
                .remote
                .as_ref()
                .is_some_and(|r| r.ask != Some(Ask::Open(Open::Wait)))
    }

    /// What the network game asks now, as the status line says it.
    #[must_use]
    pub fn remote_prompt(&self) -> Option<String> {
        let remote = self.remote.as_ref()?;
        if !matches!(self.mode, Mode::Waiting) {
            return None;
        }
        Some(match remote.ask? {
            Ask::Open(Open::Agree) => "Take back their last move? y agrees, n refuses.".to_string(),
            Ask::Resume => crate::store::RESUME_QUESTION.to_string(),
            other => other
                .text(self.session.current(), remote.me)
                .trim_end()
                .to_string(),
        })
    }

    /// Whether the other player is away: they left or lost the connection
    /// (the host waits), or the joiner is reconnecting. Nothing can be
    /// asked of them then.
    #[must_use]
    pub fn other_away(&self) -> bool {
        self.waiting_on(|a| matches!(a, Ask::Away | Ask::Reconnecting))
    }

    /// Whether the screen waits on the network with a prompt that `is`.
    fn waiting_on(&self, is: impl Fn(Ask) -> bool) -> bool {
        matches!(self.mode, Mode::Waiting)
            && self.remote.as_ref().and_then(|r| r.ask).is_some_and(is)
    }

    /// Whether `u` can ask the other player to take back this player's
    /// last move now: the round goes on, this player has a move in it to
    /// take back, and the other player is there to agree.
    #[must_use]
    pub fn can_ask_take_back(&self) -> bool {
        let Some(remote) = &self.remote else {
            return false;
        };
        !self.other_away()
            && !self.remote_question()
            && remote.ask != Some(Ask::Open(Open::WaitAgree))
            && undo_refused(self.session.game(), remote.me).is_none()
    }

    /// Whether the network game asks whether to resume a saved match.
    #[must_use]
    pub fn remote_resume_question(&self) -> bool {
        self.waiting_on(|a| matches!(a, Ask::Resume))
    }

    /// Whether the network game waits for a yes or a no from this player
    /// (other than "Play again?", which the round-over panel asks).
    #[must_use]
    pub fn remote_question(&self) -> bool {
        self.waiting_on(|a| matches!(a, Ask::Open(Open::Agree) | Ask::Resume))
    }

    /// Shows what the network game said; behind a move being sown it waits
    /// for the end of that move.
    pub fn on_shown(&mut self, shown: Shown, now: Instant) {
        self.now = now;
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        if matches!(self.mode, Mode::Sowing(_)) || !remote.queue.is_empty() {
            remote.queue.push_back(shown);
            return;
        }
        self.show_now(shown, now);
    }

    /// Shows what waited behind a move, up to the next move to sow.
    pub(super) fn show_queued(&mut self, now: Instant) {
        while !matches!(self.mode, Mode::Sowing(_)) {
            let Some(next) = self.remote.as_mut().and_then(|r| r.queue.pop_front()) else {
                return;
            };
            self.show_now(next, now);
        }
    }

    fn show_now(&mut self, shown: Shown, now: Instant) {
        match shown {
            Shown::Ask(ask) => {
                if let Some(remote) = self.remote.as_mut() {
                    // The friend is away: how to join is news again.
                    if ask == Ask::Away && remote.ask != Some(Ask::Away) {
                        let how = remote.how_to_join.iter().cloned().map(Note::plain);
                        self.notes.log_lines(how);
                    }
                    remote.ask = Some(ask);
                }
                // What the local flow asks itself (a move, the other's
                // move, "Play again?") is left as it is.
                if self.held_by_the_network() || matches!(self.mode, Mode::Waiting) {
                    self.next_turn(now);
                }
            }
            Shown::Happened(what) => self.happened(what, now),
            // Another match on show (offered, declined, joined).
            Shown::Board => {
                self.settle();
                self.cursor = [None; 2];
                self.notes.set_round_note(None);
                self.notes.hush();
                self.hint = None;
                self.next_turn(now);
            }
            Shown::Host(message) => self.follow_host(*message, now),
            Shown::Ended(code) => {
                if let Some(remote) = self.remote.as_mut() {
                    remote.ended.get_or_insert(code);
                    remote.ask = None;
                }
                self.cancel_thinking();
                self.quit = true;
            }
        }
    }

    /// The joiner's screen follows the host's `message` in its session:
    /// what happened is shown as on the host ([`App::happened`], the
    /// values plain mode prints), and what the host asks now decides what
    /// the player may do.
    fn follow_host(&mut self, message: ToJoiner, now: Instant) {
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        let Some(follower) = remote.follower.as_mut() else {
            return;
        };
        match follower.follow(&mut self.session, message) {
            Err(e) => {
                remote.outbox.push(ToHost::Leave);
                self.warn(cannot_go_on(e));
                return self.show_now(Shown::Ended(1), now);
            }
            Ok(Followed::Happened(happened)) => {
                for what in happened {
                    self.happened(what, now);
                }
            }
            Ok(Followed::Welcomed(again)) => {
                remote.outbox.extend(again);
                self.settle();
                self.cursor = [None; 2];
                self.hint = None;
                self.greet(true);
            }
        }
        self.refresh_ask(now);
    }

    /// Shows what happened in the host's match, on either end: a change
    /// of the match is in the screen's session already (on the host it is
    /// the host's session, the referee; on the joiner the session that
    /// follows it, [`App::follow_host`]) and is shown as a local match
    /// shows its own; news is said in plain mode's words.
    fn happened(&mut self, what: Happening, now: Instant) {
        match what {
            Happening::Moved(moved) => self.show_move(*moved, now),
            Happening::Undone { text } => self.took_back(Note::plain(text)),
            Happening::NextRound => {
                let opening = self.session.game().opening();
                self.round_opened(opening, Asking::PlayAgain);
            }
            Happening::Swapped { text } => self.swapped(Note::plain(text)),
            // A write that failed (or a take-back refused) stands out.
            Happening::Note(text) => return self.warn(format!("Note: {text}")),
            Happening::RoundOver { result, record } => {
                self.notes.add_to_move(Note::new(result.text, Tone::Good));
                if let Some(path) = record {
                    self.round_recorded(crate::tui::game::world::recorded_note(&path));
                }
                return;
            }
            news => {
                let lines = crate::net::play::news_lines(self.session.current(), &news);
                match (news, self.remote.as_mut()) {
                    (Happening::HowToJoin(how), Some(remote)) => remote.how_to_join.extend(how),
                    (Happening::Joined { .. }, Some(remote)) => {
                        // Stale once the friend is in: the log drops them
                        // (and shows them again if the friend goes away).
                        self.notes.forget(&remote.how_to_join);
                    }
                    _ => {}
                }
                // plain mode's blank lines are the log's own spacing
                let lines = lines.into_iter().filter(|line| !line.is_empty());
                return self.notes.log_lines(lines.map(Note::plain));
            }
        }
        self.cancel_thinking();
        if !matches!(self.mode, Mode::Sowing(_)) {
            self.next_turn(now);
        }
    }

    /// The joiner's screen: what the host asks now, and what the player
    /// may do (nothing while a move is sown: its end asks again).
    fn refresh_ask(&mut self, now: Instant) {
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        let Some(follower) = &remote.follower else {
            return;
        };
        remote.ask = follower.ask();
        if !matches!(self.mode, Mode::Sowing(_)) {
            self.next_turn(now);
        }
    }

    /// Hands `command` to the network game: on the joiner, checked and
    /// turned into a message for the host, what the player is told said.
    fn send(&mut self, command: Command) {
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        let Some(follower) = remote.follower.as_mut() else {
            remote.commands.push(command);
            return;
        };
        let (send, say) = follower.command(self.session.current(), command);
        remote.outbox.extend(send);
        self.notes.log_lines(say.map(Note::plain));
    }

    /// The joiner chose `pit` (already checked with the rules): the host
    /// decides it; the board waits for its word (its `Moved`).
    pub(super) fn send_move(&mut self, pit: Pit) {
        self.send(Command::Play(pit));
        self.answered();
    }

    /// The pie rule's swap, answered by this player: the host decides it;
    /// the board waits for its word (its `Swapped`).
    pub(super) fn send_swap(&mut self) {
        self.send(Command::Swap);
        self.answered();
    }

    /// `u`: ask the other player to agree to take back the last move.
    pub(super) fn ask_take_back(&mut self) {
        self.send(Command::Undo);
        self.refresh_ask(self.now);
    }

    /// `y` or `n` to the question the network game asked.
    pub(super) fn answer_remote(&mut self, yes: bool) {
        if !yes && self.remote_resume_question() {
            // Declined: what was said of the saved match goes with it.
            self.notes.clear_log();
        }
        self.send(Command::Answer(yes));
        self.answered();
    }

    /// Leaving: the network game tells the other player and ends.
    pub(super) fn leave_network(&mut self) {
        self.send(Command::Quit);
    }

    /// An answer is on its way: wait for what the network game asks next.
    fn answered(&mut self) {
        self.cancel_thinking();
        if let Some(remote) = self.remote.as_mut() {
            remote.ask = None;
        }
        self.mode = Mode::Waiting;
        self.refresh_ask(self.now);
    }

    /// A key while waiting for the other machine (or for its question's
    /// answer); `false` when the key is left to the usual keys.
    pub(super) fn on_waiting_key(&mut self, key: KeyEvent) -> bool {
        if !matches!(self.mode, Mode::Waiting) {
            return false;
        }
        let question = self.remote_question();
        // The session's open commands, as the key table offers them: a
        // letter that names a pit here is that pit, never a command (at a
        // question no pit is open, and y and n answer it).
        let pit = matches!(key.code, KeyCode::Char(c) if !question
            && c.is_ascii_lowercase() && self.rules().pit_by_letter(c).is_some());
        let offers = crate::tui::game::keys::offers(self);
        let does = offers.iter().find(|o| !pit && o.answers(key.code));
        match does.map(|o| o.does) {
            Some(Does::Session(SessionCommand::Answer(yes))) if question => self.answer_remote(yes),
            Some(Does::Session(SessionCommand::Quit)) => self.dialog = Some(Overlay::ConfirmQuit),
            Some(Does::Session(SessionCommand::Help) | Does::Speed | Does::Theme) => return false,
            Some(Does::Session(SessionCommand::Undo)) if self.can_ask_take_back() => {
                self.ask_take_back();
            }
            _ if question => self.notes.say(Note::plain(format!(
                "{} is not an answer: y agrees, n refuses.",
                key_name(key)
            ))),
            _ => {
                let remote = self.remote.as_ref();
                let other =
                    remote.map_or("", |r| self.session.current().seat_name(r.me.opponent()));
                let text = match remote.and_then(|r| r.ask) {
                    // The local screen's words for a key pressed out of turn.
                    Some(Ask::Open(Open::Wait)) => format!("Please wait: it is {other}'s turn."),
                    Some(Ask::Away | Ask::Reconnecting) => {
                        format!("Nothing can be played until {other} is back.")
                    }
                    _ => format!(
                        "{} does nothing now: {}",
                        key_name(key),
                        self.remote_prompt()
                            .unwrap_or_else(|| "Waiting for the other player…".to_string())
                    ),
                };
                self.notes.say(Note::new(text, Tone::Plain));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crossterm::event::KeyCode;

    use super::*;
    use crate::game::{Match, MatchConfig, PlayOptions};
    use crate::net::message::{At, OpenQuestion};
    use crate::players::PlayerKind;
    use crate::rules::{NoTrace, Rules};
    use crate::session::Session;
    use crate::store::Keeper;
    use crate::tui::game::computer::Request;
    use crate::tui::game::testing::host_screen;
    use crate::tui::game::testing::{ch, config, press};
    use crate::tui::theme::Theme;

    /// Alice (the host, over the network) against Michael, as the
    /// joiner's screen sees it.
    fn a_match() -> Match {
        let config: MatchConfig = config(Rules::KALAH, PlayerKind::Network, PlayerKind::Human);
        Match::new(config, 1)
    }

    /// The joiner's screen (North) following the host's match `m`.
    fn joiner_with(m: &Match, delay: Option<Duration>, t0: Instant) -> App {
        let options = PlayOptions {
            seed_delay: delay,
            ..PlayOptions::default()
        };
        let session = Session::following(m.clone(), Keeper::new(None));
        App::start(session, options, Theme::monochrome(), (80, 24), t0).following(Vec::new())
    }

    /// The host's `message` reaches the joiner's screen.
    fn host(app: &mut App, message: ToJoiner, t0: Instant) {
        app.on_shown(Shown::Host(Box::new(message)), t0);
    }

    /// The host kept `by`'s move from `pit`, the round's move `ply` + 1.
    fn moved(app: &mut App, ply: u32, by: Side, pit: char, t0: Instant) {
        let at = at(ply);
        host(app, ToJoiner::Moved { at, by, pit }, t0);
    }

    /// The host asks the joiner's player `question`.
    fn asked(app: &mut App, question: OpenQuestion, t0: Instant) {
        host(app, ToJoiner::Asked { question }, t0);
    }

    /// The joiner's screen after the moves `letters` (from Alice's a):
    /// Michael to move.
    fn joiner_after(letters: &str, delay: Option<Duration>, t0: Instant) -> App {
        let mut m = a_match();
        for letter in letters.chars() {
            let pit = m.rules().pit_by_letter(letter).unwrap();
            m.play(pit, &mut NoTrace).unwrap();
        }
        let mut app = joiner_with(&m, delay, t0);
        asked(&mut app, OpenQuestion::Move, t0);
        app
    }

    /// The joiner's screen after Alice's a: Michael to move.
    fn joiner(delay: Option<Duration>, t0: Instant) -> App {
        joiner_after("a", delay, t0)
    }

    fn at(ply: u32) -> At {
        At { round: 1, ply }
    }

    fn alice_to_move() -> Ask {
        Ask::Open(OpenQuestion::Move)
    }

    fn pit(app: &App, letter: char) -> Pit {
        app.rules().pit_by_letter(letter).unwrap()
    }

    fn log(app: &App) -> Vec<String> {
        app.notes().log().iter().map(|n| n.text.clone()).collect()
    }

    #[test]
    fn a_key_out_of_turn_says_whose_turn_it_is_as_on_the_local_screen() {
        let t0 = Instant::now();
        let mut app = joiner_with(&a_match(), None, t0);
        asked(&mut app, OpenQuestion::Wait, t0);
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        let bar = screen.lines().last().unwrap_or_default();
        assert!(!bar.contains("hint"), "not on Alice's turn: {screen}");
        for key in ['g', 'i', '3'] {
            app.handle_event(&ch(key), t0);
            let said = app.notes().message().map(|n| n.text.clone());
            assert_eq!(
                said.as_deref(),
                Some("Please wait: it is Alice's turn."),
                "after {key}"
            );
            assert!(app.take_messages().is_empty(), "nothing is sent for {key}");
        }
    }

    /// On the joiner the host decides: the screen draws the one session
    /// that follows the host's events. The joiner's move is sent, nothing
    /// else can be sent meanwhile, and it is played when the host confirms
    /// it, with the local screen's ★ notes; the host's moves come the
    /// same way, and the host's question says whose turn it is.
    #[test]
    fn the_joiners_move_is_sent_and_played_once_the_host_confirms_it() {
        let t0 = Instant::now();
        let mut app = joiner_with(&a_match(), None, t0);
        asked(&mut app, OpenQuestion::Wait, t0);
        assert_eq!(app.remote_prompt().as_deref(), Some("Waiting for Alice…"));
        assert_eq!(app.human_to_move(), None);
        moved(&mut app, 0, Side::South, 'a', t0);
        assert_eq!(app.game().moves().len(), 1);
        assert!(
            log(&app).contains(&"Alice played a.".to_string()),
            "{:?}",
            log(&app)
        );
        asked(&mut app, OpenQuestion::Move, t0);
        assert_eq!(app.human_to_move(), Some(Side::North));
        app.handle_event(&ch('i'), t0);
        assert_eq!(
            app.take_messages(),
            [ToHost::Move {
                at: at(1),
                pit: 'i'
            }]
        );
        assert_eq!(
            app.game().moves().len(),
            1,
            "nothing played before the host's word"
        );
        assert!(matches!(app.mode(), Mode::Waiting));
        app.handle_event(&ch('j'), t0);
        assert!(
            app.take_messages().is_empty(),
            "one move is on its way already"
        );
        moved(&mut app, 1, Side::North, 'i', t0);
        assert_eq!(app.game().moves().len(), 2);
        assert!(log(&app).contains(&"Michael gets an extra turn!".to_string()));
        let extra = app.notes().log().iter().find(|n| n.text.contains("extra"));
        assert_eq!(
            extra.map(|n| n.tone),
            Some(Tone::Good),
            "★ notes, as in a local match"
        );
        assert_eq!(app.human_to_move(), None, "until the host asks");
        asked(&mut app, OpenQuestion::Move, t0);
        assert_eq!(app.human_to_move(), Some(Side::North), "the extra turn");
    }

    /// The pie rule on the joiner's screen: after Alice's first turn the
    /// host asks Michael the swap question; `w` sends the swap (nothing
    /// changes before the host's word), and the host's `Swapped` puts
    /// Michael on South and Alice on North; he then plays South's pits.
    #[test]
    fn the_joiners_swap_is_sent_and_taken_once_the_host_confirms_it() {
        let t0 = Instant::now();
        let mut m = a_match();
        m.play(Rules::KALAH.pit_by_letter('a').unwrap(), &mut NoTrace)
            .unwrap();
        let mut session = Session::following(m, Keeper::new(None));
        session.set_pie_rule(true);
        let options = PlayOptions {
            seed_delay: None,
            ..PlayOptions::default()
        };
        let mut app =
            App::start(session, options, Theme::monochrome(), (80, 24), t0).following(Vec::new());
        // said once, by the welcome (the screen's own session said it too)
        let screen = crate::tui::game::testing::render(&app, 100, 30);
        assert_eq!(screen.matches("The pie rule:").count(), 1, "{screen}");
        asked(&mut app, OpenQuestion::Swap, t0);
        assert_eq!(app.human_to_move(), Some(Side::North));
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(screen.contains("w swap"), "{screen}");
        app.handle_event(&ch('w'), t0);
        assert_eq!(app.take_messages(), [ToHost::Swap { at: at(1) }]);
        assert_eq!(app.game().swapped(), None, "not before the host's word");
        host(&mut app, ToJoiner::Swapped { at: at(1) }, t0);
        assert_eq!(app.game().swapped(), Some(1));
        assert_eq!(app.game().names(), ["Michael", "Alice"]);
        asked(&mut app, OpenQuestion::Wait, t0);
        assert_eq!(app.remote_prompt().as_deref(), Some("Waiting for Alice…"));
        moved(&mut app, 1, Side::North, 'h', t0);
        asked(&mut app, OpenQuestion::Move, t0);
        assert_eq!(app.human_to_move(), Some(Side::South), "Michael's side now");
        app.handle_event(&ch('b'), t0);
        assert_eq!(
            app.take_messages(),
            [ToHost::Move {
                at: at(2),
                pit: 'b'
            }]
        );
    }

    /// A host whose confirmed move this board refuses is not followed:
    /// the screen says why and leaves.
    #[test]
    fn a_move_the_rules_refuse_ends_the_joiners_game() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        moved(&mut app, 1, Side::North, 'a', t0);
        assert_eq!(app.game().moves().len(), 1);
        assert_eq!(app.take_messages(), [ToHost::Leave]);
        assert!(app.wants_quit());
        assert_eq!(app.network_ended(), Some(1));
    }

    /// The host left: the joiner's screen says so and where the match
    /// waits, in plain mode's words (`news_lines`).
    #[test]
    fn the_host_leaving_is_said_with_where_the_match_waits() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        host(&mut app, ToJoiner::Leave, t0);
        let log = log(&app);
        let tail: Vec<&str> = log.iter().rev().take(2).rev().map(String::as_str).collect();
        assert_eq!(
            tail,
            [
                "Alice left the match.",
                "The match is saved on Alice's machine: join again with the same command when Alice hosts it again."
            ]
        );
    }

    #[test]
    fn an_illegal_pit_is_refused_here_and_never_sent() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        app.handle_event(&ch('a'), t0);
        app.handle_event(&ch('9'), t0);
        assert!(app.take_messages().is_empty());
        assert_eq!(app.human_to_move(), Some(Side::North));
    }

    #[test]
    fn quitting_asks_first_and_then_leaves_through_the_network_game() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        app.handle_event(&ch('q'), t0);
        assert_eq!(app.dialog(), Some(Overlay::ConfirmQuit));
        app.handle_event(&ch('n'), t0);
        assert_eq!(app.dialog(), None);
        assert!(app.take_messages().is_empty(), "n sends nothing");
        app.handle_event(&ch('q'), t0);
        app.handle_event(&ch('y'), t0);
        assert_eq!(app.take_messages(), [ToHost::Leave]);
        assert!(
            log(&app)
                .iter()
                .any(|l| l.starts_with("You left the match"))
        );
        app.on_shown(Shown::Ended(0), t0);
        assert!(app.wants_quit());
        assert_eq!(app.network_ended(), Some(0));
    }

    #[test]
    fn a_request_to_take_back_is_answered_with_y_or_n_only() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        host(&mut app, ToJoiner::UndoAsked { at: at(1) }, t0);
        asked(&mut app, OpenQuestion::Agree, t0);
        assert!(app.remote_question());
        assert!(log(&app).contains(&"Alice asks to take back their last move.".to_string()));
        assert_eq!(app.human_to_move(), None, "no move meanwhile");
        app.handle_event(&ch('i'), t0);
        assert!(
            app.take_messages().is_empty(),
            "i is no answer to the question"
        );
        assert!(
            app.notes()
                .message()
                .is_some_and(|m| m.text.contains("y agrees")),
            "the key says what the answers are"
        );
        app.handle_event(&ch('y'), t0);
        let yes = ToHost::UndoAnswer {
            at: at(1),
            yes: true,
        };
        assert_eq!(app.take_messages(), [yes]);
        assert!(!app.remote_question());
        let by = Side::South;
        host(&mut app, ToJoiner::TookBack { at: at(0), by }, t0);
        assert!(app.game().moves().is_empty(), "Alice's a is taken back");
    }

    /// The race, as the joiner's screen sees it: its move crossed the
    /// host's request to take back a move; the host refused the move, and
    /// the request is what the player answers.
    #[test]
    fn a_move_refused_for_the_hosts_request_leaves_the_request_to_answer() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        app.handle_event(&ch('h'), t0);
        assert_eq!(app.take_messages().len(), 1);
        host(&mut app, ToJoiner::UndoAsked { at: at(1) }, t0);
        asked(&mut app, OpenQuestion::Agree, t0);
        assert!(!app.remote_question(), "the move is still on its way");
        let why = crate::net::message::NotNow::TakeBackAsked;
        host(&mut app, ToJoiner::MoveRefused { at: at(1), why }, t0);
        asked(&mut app, OpenQuestion::Agree, t0);
        assert!(app.remote_question());
        assert_eq!(app.game().moves().len(), 1, "nothing played");
        assert!(
            log(&app)
                .iter()
                .any(|l| l.starts_with("Your move was not played"))
        );
    }

    #[test]
    fn u_asks_to_take_back_r_redoes_nothing_and_p_pauses_nobody() {
        let t0 = Instant::now();
        // Alice a, Michael i (an extra turn): his move can be taken back.
        let mut app = joiner_after("ai", None, t0);
        app.handle_event(&ch('u'), t0);
        assert_eq!(app.take_messages(), [ToHost::Undo { at: at(2) }]);
        app.handle_event(&ch('r'), t0);
        app.handle_event(&ch('p'), t0);
        assert!(app.take_messages().is_empty());
        assert!(!app.paused());
    }

    #[test]
    fn what_arrives_while_a_move_is_sown_waits_for_its_end() {
        let t0 = Instant::now();
        let delay = Duration::from_millis(100);
        let mut app = joiner(Some(delay), t0);
        app.handle_event(&ch('i'), t0);
        app.take_messages();
        moved(&mut app, 1, Side::North, 'i', t0);
        asked(&mut app, OpenQuestion::Move, t0);
        assert!(app.animation().is_some());
        assert_eq!(app.human_to_move(), None, "not while the move is sown");
        app.tick(t0 + delay * 10);
        assert!(app.animation().is_none());
        assert_eq!(app.human_to_move(), Some(Side::North));
    }

    #[test]
    fn play_again_is_answered_once_and_the_next_round_comes_from_the_host() {
        let t0 = Instant::now();
        let mut m = a_match();
        while !m.board().is_over() {
            let pit = m.board().legal_moves().next().unwrap();
            m.play(pit, &mut NoTrace).unwrap();
        }
        let mut app = joiner_with(&m, None, t0);
        asked(&mut app, OpenQuestion::PlayAgain, t0);
        assert!(app.round_over());
        app.handle_event(&ch('y'), t0);
        assert_eq!(app.take_messages(), [ToHost::Again { yes: true }]);
        assert!(!app.round_over(), "the answer is given once");
        app.handle_event(&ch('n'), t0);
        assert!(app.take_messages().is_empty());
        asked(&mut app, OpenQuestion::WaitAgain, t0);
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        let bar = screen.lines().last().unwrap_or_default();
        assert!(!bar.contains("take back"), "the round is over: {screen}");
        app.handle_event(&ch('u'), t0);
        assert!(app.take_messages().is_empty(), "a finished round stays");
        host(&mut app, ToJoiner::Again { yes: true }, t0);
        assert!(log(&app).contains(&"Alice wants to play again.".to_string()));
        m.next_round();
        let (round, starter) = (2, m.starter());
        host(&mut app, ToJoiner::NextRound { round, starter }, t0);
        assert_eq!(app.game().round(), 2);
        assert!(app.game().moves().is_empty());
        assert!(
            !log(&app).contains(&"Alice wants to play again.".to_string()),
            "a new round starts on a clean log"
        );
    }

    /// Michael joins the host's screen `app`: its session is the host's
    /// match from now on (the referee), as the friend's seat makes it.
    fn joined(app: &mut App, t0: Instant) {
        let config: MatchConfig = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Network);
        app.session = crate::net::hosted::referee(Match::new(config, 1), Keeper::new(None), false);
        app.on_shown(Shown::Board, t0);
    }

    /// The host's screen showing a fresh match against Michael, a friend
    /// at a network seat: Alice to move.
    fn hosting(delay: Option<Duration>, t0: Instant) -> App {
        let config: MatchConfig = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Network);
        let mut app = host_screen(Match::new(config, 0), delay, t0);
        joined(&mut app, t0);
        app.on_shown(Shown::Ask(alice_to_move()), t0);
        app
    }

    /// The host's player plays `letter`: the move goes to the host's
    /// session, and is shown once it is kept.
    fn host_plays(app: &mut App, letter: char, t0: Instant) {
        let pit = pit(app, letter);
        app.handle_event(&ch(letter), t0);
        assert_eq!(app.take_commands(), [Command::Play(pit)]);
        played(app, Side::South, pit, t0);
    }

    /// The host's session, the screen's, keeps `side`'s move from `pit`,
    /// and the screen is told.
    fn played(app: &mut App, side: Side, pit: Pit, t0: Instant) {
        let events = app.session.handle_for(side, SessionCommand::Play(pit));
        let moved = events.into_iter().find_map(|e| match e {
            crate::session::SessionEvent::Moved(moved) => Some(moved),
            _ => None,
        });
        let moved = Happening::Moved(moved.expect("a legal move"));
        app.on_shown(Shown::Happened(moved), t0);
    }

    /// The host's session kept Michael's move from `letter`, and asks
    /// Alice to move.
    fn friend_plays(app: &mut App, letter: char, t0: Instant) {
        let pit = pit(app, letter);
        played(app, Side::North, pit, t0);
        app.on_shown(Shown::Ask(alice_to_move()), t0);
    }

    /// On the host the screen shows the host's session: the host's pit
    /// goes to the friend's seat and is shown once that session kept it; on the
    /// friend's turn the screen waits for Michael, nobody is paused or
    /// hurried, and his kept move is played at once.
    #[test]
    fn the_hosts_screen_plays_each_move_the_hosts_session_kept() {
        let t0 = Instant::now();
        let mut app = hosting(None, t0);
        assert_eq!(app.human_to_move(), Some(Side::South));
        app.handle_event(&ch('a'), t0);
        assert_eq!(app.take_commands(), [Command::Play(pit(&app, 'a'))]);
        assert!(app.game().moves().is_empty(), "nothing before it is kept");
        let a = pit(&app, 'a');
        played(&mut app, Side::South, a, t0);
        assert!(
            log(&app).contains(&"Alice played a.".to_string()),
            "{:?}",
            log(&app)
        );
        app.on_shown(Shown::Ask(Ask::Open(OpenQuestion::Wait)), t0);
        assert_eq!(app.remote_prompt().as_deref(), Some("Waiting for Michael…"));
        assert_eq!(app.human_to_move(), None);
        app.take_requests();
        app.handle_event(&ch('m'), t0);
        app.handle_event(&ch('p'), t0);
        assert!(app.take_requests().is_empty(), "nobody is hurried");
        assert!(!app.paused(), "nobody to pause");
        friend_plays(&mut app, 'h', t0);
        let said = log(&app);
        assert!(
            said.contains(&"Michael played h.".to_string()),
            "played at once: {said:?}"
        );
        assert_eq!(app.human_to_move(), Some(Side::South));
    }

    /// A hint on the host's turn, once the friend has joined, is worked
    /// out by the screen's computer, as before the friend joined (the
    /// referee's session once ran an advisor with no time itself, and the
    /// screen showed nothing).
    #[test]
    fn a_hint_on_the_hosts_turn_is_asked_of_the_screens_computer() {
        let t0 = Instant::now();
        let mut app = hosting(None, t0);
        app.take_requests();
        app.handle_event(&ch('H'), t0);
        let [Request::Hint { id, board }] = app.take_requests()[..] else {
            panic!("no hint asked for")
        };
        assert_eq!(board, app.game().position());
        assert!(app.take_commands().is_empty(), "nothing for the friend");
        let hint = crate::players::Hint {
            pit: pit(&app, 'c'),
            value: 3,
            exact: false,
        };
        let hint = Some(hint);
        app.on_answer(crate::tui::game::computer::Answer::Hint { id, hint }, t0);
        let said = app.notes().message().map(|n| n.text.clone());
        assert_eq!(
            said.as_deref(),
            Some("Hint: play c: the engine expects you to win by 3.")
        );
    }

    /// A take-back both agreed to comes from the host's session as the
    /// take-back, shown as a local match shows one; a new round both
    /// wanted is shown on a clean log, as in a local match.
    #[test]
    fn on_the_host_an_agreed_take_back_and_a_new_round_are_shown() {
        let t0 = Instant::now();
        let mut app = hosting(None, t0);
        host_plays(&mut app, 'a', t0);
        friend_plays(&mut app, 'h', t0);
        app.handle_event(&ch('u'), t0);
        assert_eq!(app.take_commands(), [Command::Undo]);
        app.on_shown(Shown::Ask(Ask::Open(OpenQuestion::WaitAgree)), t0);
        assert_eq!(app.human_to_move(), None, "nothing is played meanwhile");
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(!screen.contains("u take back"), "asked already: {screen}");
        let by = Side::South;
        let events = app.session.handle(SessionCommand::TakeBack(by));
        let Some(crate::session::SessionEvent::TookBack(notice, _)) = events.into_iter().next()
        else {
            panic!("taken back");
        };
        let text = notice.text;
        app.on_shown(Shown::Happened(Happening::Undone { text }), t0);
        assert!(
            log(&app).contains(&"Took back 2 moves: Alice plays again.".to_string()),
            "said as a take-back: {:?}",
            log(&app)
        );
        app.on_shown(Shown::Ask(alice_to_move()), t0);
        assert_eq!(app.human_to_move(), Some(Side::South));
        // The round played to its end, each move as the host's session kept it.
        while app.game().outcome().is_none() {
            let board = app.game().board();
            let (side, pit) = (board.to_move(), board.legal_moves().next().unwrap());
            played(&mut app, side, pit, t0);
        }
        app.on_shown(Shown::Ask(Ask::Open(OpenQuestion::PlayAgain)), t0);
        assert!(app.round_over());
        app.handle_event(&ch('a'), t0);
        assert!(app.notes().message().is_some(), "a is no answer");
        app.session.handle(SessionCommand::Answer(true));
        app.on_shown(Shown::Happened(Happening::NextRound), t0);
        let log = log(&app);
        assert!(log.len() == 1 && log[0].starts_with("Round 2"), "{log:?}");
        assert!(app.notes().message().is_none(), "nothing said of round 1");
    }

    /// A key pressed while the host waits for a friend is answered in the
    /// status line; once the friend has joined that answer is gone (it
    /// stayed above "Alice, your move" before the fix).
    #[test]
    fn what_was_said_while_waiting_for_a_friend_goes_when_the_friend_joins() {
        let t0 = Instant::now();
        let config: MatchConfig = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Network);
        let mut app = host_screen(Match::new(config, 0), None, t0);
        app.handle_event(&ch('a'), t0);
        let said = app.notes().message().map(|n| n.text.clone());
        assert!(said.is_some_and(|s| s.contains("does nothing now")));
        // What the friend's seat says as Michael joins.
        let from = "127.0.0.1:5000".parse().unwrap();
        let joined_now = Happening::Joined { back: false, from };
        app.on_shown(Shown::Happened(joined_now), t0);
        joined(&mut app, t0);
        app.on_shown(Shown::Ask(alice_to_move()), t0);
        assert_eq!(app.notes().message(), None);
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(!screen.contains("does nothing"), "{screen}");
    }

    /// The lines that say how the friend joins (which unfinished matches a
    /// join resumes, the code, where the host listens) go from the host's
    /// log once the friend is in; the welcome stays, with who joined.
    #[test]
    fn how_to_join_goes_from_the_hosts_log_once_the_friend_is_in() {
        let t0 = Instant::now();
        let config: MatchConfig = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Network);
        let mut app = host_screen(Match::new(config, 0), None, t0);
        let how = |lines: &[&str]| {
            let lines = lines.iter().map(|line| (*line).to_string()).collect();
            Shown::Happened(Happening::HowToJoin(lines))
        };
        app.on_shown(how(&["Unfinished network matches of Alice: …"]), t0);
        let welcome = "Alice hosts a match of Mancala.";
        app.on_shown(Shown::Happened(Happening::Said(welcome.into())), t0);
        app.on_shown(
            how(&["Your friend joins with this code: …", "Listening on …"]),
            t0,
        );
        assert_eq!(log(&app).len(), 4, "{:?}", log(&app));
        let from = "127.0.0.1:5000".parse().unwrap();
        app.on_shown(Shown::Happened(Happening::Joined { back: false, from }), t0);
        let name = app.game().seat_name(JOINER_SEAT).to_string();
        let joined = format!("{name} joined (from 127.0.0.1:5000).");
        assert_eq!(log(&app), [welcome.to_string(), joined.clone()]);
        // The friend goes away: how to join is shown again, once.
        app.on_shown(Shown::Ask(Ask::Away), t0);
        app.on_shown(Shown::Ask(Ask::Away), t0);
        let again = log(&app);
        assert_eq!(again.len(), 5, "{again:?}");
        assert!(
            again[2].starts_with("Unfinished network matches"),
            "{again:?}"
        );
        assert!(
            again[3].starts_with("Your friend joins with this code"),
            "{again:?}"
        );
        // Back again: the lines go again.
        app.on_shown(Shown::Happened(Happening::Joined { back: true, from }), t0);
        assert!(
            !log(&app).iter().any(|l| l.starts_with("Your friend joins")),
            "{:?}",
            log(&app)
        );
    }

    /// A note of the host's session (a record or statistics line it could
    /// not write) stands out on the status line, as a local screen's does,
    /// not only in the log.
    #[test]
    fn a_note_of_what_could_not_be_kept_is_a_warning_on_the_status_line() {
        let t0 = Instant::now();
        let mut app = hosting(None, t0);
        let text = "the round's record could not be written (disk full); it is tried again";
        app.on_shown(Shown::Happened(Happening::Note(text.into())), t0);
        let message = app.notes().message().expect("a message on the status line");
        assert_eq!(message.text, format!("Note: {text}"));
        assert_eq!(message.tone, Tone::Error);
        assert_eq!(log(&app).last(), Some(&format!("Note: {text}")));
    }

    #[test]
    fn while_the_friend_is_away_the_host_is_offered_no_move_nor_take_back() {
        let t0 = Instant::now();
        let mut app = hosting(None, t0);
        host_plays(&mut app, 'a', t0);
        app.on_shown(Shown::Ask(Ask::Away), t0);
        assert!(app.other_away());
        assert_eq!(app.human_to_move(), None);
        for key in ['c', 'u', '3'] {
            app.handle_event(&ch(key), t0);
            assert!(app.take_commands().is_empty(), "nothing is sent for {key}");
        }
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(
            screen.contains("Waiting for Michael to come back"),
            "{screen}"
        );
        assert!(!screen.contains("take back"), "{screen}");
        assert!(!screen.contains("a-f play"), "{screen}");
        assert!(
            screen.contains("Nothing can be played until Michael is back."),
            "{screen}"
        );
        app.on_shown(Shown::Ask(Ask::Open(OpenQuestion::Wait)), t0);
        assert_eq!(app.remote_prompt().as_deref(), Some("Waiting for Michael…"));
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(screen.contains("u take back"), "back: {screen}");
    }

    #[test]
    fn while_reconnecting_no_move_is_offered_or_sent() {
        let t0 = Instant::now();
        let mut app = joiner(None, t0);
        app.on_shown(Shown::Ask(Ask::Reconnecting), t0);
        assert_eq!(app.human_to_move(), None);
        assert_eq!(app.to_move(), None, "nobody is marked to move");
        app.handle_event(&ch('c'), t0);
        assert!(app.take_commands().is_empty());
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(screen.contains("Trying to reconnect"), "{screen}");
        assert!(!screen.contains("g-l play"), "{screen}");
    }

    #[test]
    fn the_key_bar_offers_what_the_network_allows() {
        let t0 = Instant::now();
        let mut app = hosting(None, t0);
        let bar = crate::tui::game::testing::render(&app, 80, 24);
        assert!(bar.contains("a-f play"), "{bar}");
        assert!(!bar.contains("take back"), "no move of Alice's yet: {bar}");
        assert!(!bar.contains("redo"), "{bar}");
        // Alice c (an extra turn): her move can be taken back.
        host_plays(&mut app, 'c', t0);
        app.on_shown(Shown::Ask(alice_to_move()), t0);
        let bar = crate::tui::game::testing::render(&app, 80, 24);
        assert!(bar.contains("u take back"), "{bar}");
        app.on_shown(Shown::Ask(Ask::Open(OpenQuestion::Agree)), t0);
        let screen = crate::tui::game::testing::render(&app, 80, 24);
        assert!(screen.contains("y yes"), "{screen}");
        assert!(screen.contains("Take back their last move?"), "{screen}");
        app.handle_event(&press(KeyCode::Esc), t0);
        assert_eq!(app.dialog(), Some(Overlay::ConfirmQuit));
    }
}
