//! A match with a friend on another machine, full screen: the one game
//! screen ([`App`], see `tui/game/app/remote.rs`).
//!
//! On both ends the screen shows the match that the host's session plays
//! (the referee, [`crate::net::hosted`]): [`NetWorld`] carries the screen's
//! typed commands (play a pit, ask to take back, yes or no, quit) to the
//! friend's seat on the host ([`HostEngine`]), the joiner's messages to
//! the host ([`JoinEngine`], around the connection), and brings back what
//! comes: what happened in the host's session (on the joiner, the host's
//! messages), which the screen's session follows, each move sown seed by
//! seed. Both say the same
//! words as plain mode; the screen loop polls both.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::console;
use crate::game::{Match, PlayOptions};
use crate::net::hosted::{HOST_SEAT, Happening};
use crate::net::message::{ToHost, ToJoiner};
use crate::net::play::{
    Ask, Command, FriendSeat, HostIn, HostSetup, JoinIn, JoinLink, JoinSetup, Linked, Show,
};
use crate::rules::Rules;
use crate::session::Session;
use crate::store::Keeper;
use crate::tui::game::app::{App, Shown};
use crate::tui::game::computer::Worker;
use crate::tui::game::world::{Effect, GameMessage};
use crate::tui::prefs::{self, Chosen};
use crate::tui::screen::{self, World};

/// How long a hint may think.
const HINT_THINK: Duration = Duration::from_secs(1);

/// The [`Show`] of the host's full screen: it collects what is said for
/// the world to hand to the screen.
#[derive(Debug, Default)]
pub struct Feed {
    news: Vec<Shown>,
}

impl Show for Feed {
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.news.push(Shown::Say(text.to_string()));
        Ok(())
    }

    fn ask(&mut self, ask: &Ask, _: &Rules) -> io::Result<()> {
        self.news.push(Shown::Ask(ask.clone()));
        Ok(())
    }

    fn board(&mut self, m: &Match) -> io::Result<()> {
        self.news.push(Shown::Board(Box::new(m.clone())));
        Ok(())
    }

    /// The saved match leaves the screen, and its moves the key bar.
    fn declined(&mut self, waiting: &Match) -> io::Result<()> {
        self.board(waiting)
    }

    /// The screen takes what happened as it is ([`Shown::Happened`]).
    fn show(&mut self, _: &Match, what: &Happening) -> io::Result<()> {
        self.news.push(Shown::Happened(what.clone()));
        Ok(())
    }
}

/// One end of the network game, as the screen's world drives it.
trait NetEnd {
    /// A command from the screen (the host's: the joiner's screen sends
    /// messages); `Some` when the game ends with that code.
    ///
    /// # Errors
    /// When the network game fails (a port, the output).
    fn command(&mut self, _command: Command) -> anyhow::Result<Option<ExitCode>> {
        Ok(None)
    }
    /// A message for the host (the joiner's); `Some` when the game ends
    /// with that code.
    fn to_host(&mut self, _message: ToHost) -> Option<ExitCode> {
        None
    }
    /// What came from the network, and time passed.
    ///
    /// # Errors
    /// As [`NetEnd::command`].
    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>>;
    /// What the network game said since the last call.
    fn drain(&mut self) -> Vec<Shown>;
}

/// The host's end: the friend's seat, whose session plays and keeps the
/// match (and is the referee of the friend's moves).
struct HostEngine {
    seat: FriendSeat<Feed>,
    rx: mpsc::Receiver<HostIn>,
}

impl NetEnd for HostEngine {
    fn command(&mut self, command: Command) -> anyhow::Result<Option<ExitCode>> {
        Ok(match self.seat.command(command)? {
            Some(code) => Some(code),
            None => self.seat.settle(true)?,
        })
    }

    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>> {
        while let Ok(event) = self.rx.try_recv() {
            let HostIn::Net(event) = event else {
                continue;
            };
            let changed = self.seat.on_net(event)?;
            if let Some(code) = self.seat.settle(changed)? {
                return Ok(Some(code));
            }
        }
        self.seat.tick()?;
        Ok(self.seat.settle(false)?)
    }

    fn drain(&mut self) -> Vec<Shown> {
        std::mem::take(&mut self.seat.show_mut().news)
    }
}

/// The joiner's end: the connection to the host, whose messages the
/// screen's session follows.
struct JoinEngine {
    link: JoinLink,
    rx: mpsc::Receiver<JoinIn>,
    /// The host's name.
    host: String,
    news: Vec<Shown>,
}

impl NetEnd for JoinEngine {
    fn to_host(&mut self, message: ToHost) -> Option<ExitCode> {
        if message == ToHost::Leave {
            self.link.leave();
            return Some(ExitCode::SUCCESS);
        }
        if !self.link.is_lost() {
            self.link.send(&message);
        }
        None
    }

    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>> {
        while let Ok(JoinIn::Net(id, message)) = self.rx.try_recv() {
            match message {
                _ if !self.link.is_current(id) => {}
                Ok(ToJoiner::Ping) => {}
                Ok(end @ (ToJoiner::Finished | ToJoiner::Leave)) => {
                    self.link.close();
                    self.news.push(Shown::Host(Box::new(end)));
                    return Ok(Some(ExitCode::SUCCESS));
                }
                Ok(message) => {
                    if let Some(words) = message.closing_words() {
                        self.news.push(Shown::Say(words));
                        return Ok(Some(ExitCode::FAILURE));
                    }
                    self.news.push(Shown::Host(Box::new(message)));
                }
                Err(e) => {
                    let (said, ask) = self.link.lost(&e, &self.host);
                    self.news.extend([Shown::Say(said), Shown::Ask(ask)]);
                }
            }
        }
        Ok(match self.link.tick(&self.host) {
            Linked::Nothing => None,
            Linked::Welcome(first) => {
                self.news.push(Shown::Host(Box::new(first)));
                None
            }
            Linked::Failed(why) => {
                self.news.extend(why.map(Shown::Say));
                Some(ExitCode::FAILURE)
            }
        })
    }

    fn drain(&mut self) -> Vec<Shown> {
        std::mem::take(&mut self.news)
    }
}

/// The world of either end: carries the screen's commands to the network
/// game and brings back what it says; works out hints on this machine.
struct NetWorld<E> {
    engine: E,
    ended: bool,
    hints: Worker,
    prefs: Option<PathBuf>,
}

impl<E: NetEnd> NetWorld<E> {
    fn settle(&mut self, result: anyhow::Result<Option<ExitCode>>, answers: &mut Vec<GameMessage>) {
        answers.extend(self.engine.drain().into_iter().map(GameMessage::Net));
        match result {
            Ok(None) => {}
            Ok(Some(code)) => {
                self.ended = true;
                let code = if code == ExitCode::SUCCESS { 0 } else { 1 };
                answers.push(GameMessage::Net(Shown::Ended(code)));
            }
            Err(e) => {
                self.ended = true;
                answers.push(GameMessage::Net(Shown::Say(format!("mancala: {e:#}"))));
                answers.push(GameMessage::Net(Shown::Ended(1)));
            }
        }
    }
}

impl<E: NetEnd> World<App> for NetWorld<E> {
    fn perform(&mut self, effect: Effect, answers: &mut Vec<GameMessage>) {
        match effect {
            Effect::Net(command) if !self.ended => {
                let result = self.engine.command(command);
                self.settle(result, answers);
            }
            Effect::ToHost(message) if !self.ended => {
                let ended = self.engine.to_host(message);
                self.settle(Ok(ended), answers);
            }
            Effect::Think(request) => self.hints.submit(request),
            Effect::SavePrefs(kept) => {
                if let Some(path) = &self.prefs
                    && let Err(warning) = prefs::save(path, &kept)
                {
                    answers.push(GameMessage::Warning(warning));
                }
            }
            Effect::Net(_) | Effect::ToHost(_) => {}
        }
    }

    fn poll(&mut self, answers: &mut Vec<GameMessage>) {
        if !self.ended {
            let result = self.engine.poll();
            self.settle(result, answers);
        }
        answers.extend(self.hints.poll().into_iter().map(GameMessage::Computer));
    }

    fn busy(&self) -> bool {
        !self.ended || self.hints.busy()
    }

    fn shut_down(&mut self) {
        self.hints.stop_all();
    }
}

/// The screen's settings: the speed `given` on the command line (see
/// [`SpeedArgs::given`](crate::cli::SpeedArgs::given)), else the kept one,
/// and the kept theme (`NO_COLOR` still wins).
fn settings(given: Option<Option<Duration>>) -> (Chosen, Option<PathBuf>, PlayOptions) {
    let kept = prefs::Kept::load();
    let chosen = Chosen::for_run(given, kept.prefs);
    let options = PlayOptions {
        seed_delay: chosen.seed_delay(),
        ..PlayOptions::default()
    };
    (chosen, kept.path, options)
}

/// Runs `mancala host` full screen, sowing at the speed `given` on the
/// command line, else at the kept one.
///
/// # Errors
/// When the port cannot be listened on, or the terminal fails.
pub fn host(setup: HostSetup, given: Option<Option<Duration>>) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel();
    let (chosen, kept_at, options) = settings(given);
    let mut session = Session::following(setup.waiting_match(), Keeper::new(None));
    session.set_pie_rule(setup.pie_rule);
    let seat = FriendSeat::open(setup, Feed::default(), tx)?;
    let app = App::start(session, options, *chosen.theme(), (80, 24), Instant::now());
    let app = app.networked(HOST_SEAT);
    let engine = HostEngine { seat, rx };
    run_world(app, engine, kept_at, chosen)
}

/// Runs `mancala join` full screen, sowing at the speed `given` on the
/// command line, else at the kept one.
///
/// # Errors
/// When the terminal fails.
pub fn join(setup: JoinSetup, given: Option<Option<Duration>>) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel();
    let (chosen, kept_at, options) = settings(given);
    let joining = format!("Joining the match at {}…", setup.address);
    let (link, session, warning) = match JoinLink::join(setup, tx) {
        Ok(joined) => joined,
        Err(why) => {
            // Not connected: say why on the normal screen.
            console::say(joining);
            console::say(why);
            return Ok(ExitCode::FAILURE);
        }
    };
    let host = session.current().seat_name(HOST_SEAT).to_string();
    let mut said = vec![joining];
    said.extend(warning.map(|w| format!("Note: {w}")));
    let app = App::start(session, options, *chosen.theme(), (80, 24), Instant::now());
    let app = app.following(said);
    let engine = JoinEngine {
        link,
        rx,
        host,
        news: Vec::new(),
    };
    run_world(app, engine, kept_at, chosen)
}

/// Runs the screen of `app` around `engine` until the game ends, then
/// prints the last news on the normal screen.
fn run_world<E: NetEnd>(
    mut app: App,
    mut engine: E,
    prefs: Option<PathBuf>,
    chosen: Chosen,
) -> anyhow::Result<ExitCode> {
    let hints = Worker::new(app.game().config(), HINT_THINK, 0);
    app.keep_prefs(chosen);
    // What was said before the screen started.
    let now = Instant::now();
    for shown in engine.drain() {
        app.on_shown(shown, now);
    }
    let mut world = NetWorld {
        engine,
        ended: false,
        hints,
        prefs,
    };
    screen::run(&mut app, &mut world)?;
    if let Some(status) = crate::tui::terminal::signal_exit_status() {
        return Ok(ExitCode::from(status));
    }
    let last: Vec<String> = app.notes().log().iter().map(|n| n.text.clone()).collect();
    for line in &last[last.len().saturating_sub(3)..] {
        console::say(line);
    }
    Ok(match app.network_ended() {
        Some(0) | None => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(code),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::FirstMover;
    use crate::net::code::JoinCode;
    use crate::net::resume::HostNote;
    use crate::rules::{Game, NoTrace, Side};
    use crate::tui::game::testing::{ch, render};

    /// Alice hosts Kalah, moving first.
    fn alice_hosts() -> HostSetup {
        HostSetup {
            name: "Alice".into(),
            game: Game::Kalah,
            rules: Rules::KALAH,
            first: FirstMover::South,
            bind: "127.0.0.1:0".parse().unwrap(),
            seed_delay: None,
            pie_rule: false,
        }
    }

    /// Hosting the unfinished match of Alice against Michael (Alice a,
    /// Michael h: Alice has a move to take back), answering `n` to the
    /// resume question shows the new match that waits for a friend: no
    /// move of the declined match on the board, and no take-back offered
    /// or sent, and nothing said of it in the log. (Before the fixes the
    /// saved board stayed, with "u take back" in the key bar, until the
    /// friend joined; the log kept the declined match's summary.)
    #[test]
    fn declining_the_resume_question_shows_a_fresh_start_without_take_back() {
        let t0 = Instant::now();
        let setup = alice_hosts();
        let mut saved = Match::new(setup.config("Michael"), 1);
        for letter in ['a', 'h'] {
            let pit = saved.rules().pit_by_letter(letter).unwrap();
            saved.play(pit, &mut NoTrace).unwrap();
        }
        let (tx, rx) = mpsc::channel();
        let mut seat = FriendSeat::new(setup.clone(), Feed::default(), Keeper::new(None), tx);
        let note = HostNote {
            opponent: "Michael".into(),
            code: JoinCode::random(),
        };
        seat.offering(saved, note).unwrap();
        let mut engine = HostEngine { seat, rx };
        let waiting = setup.waiting_match();
        let mut app = crate::tui::game::testing::host_screen(waiting, None, t0);
        for shown in engine.drain() {
            app.on_shown(shown, t0);
        }
        assert_eq!(app.game().moves().len(), 2, "the saved match is shown");
        assert!(app.remote_resume_question());
        app.handle_event(&ch('n'), t0);
        let commands = app.take_commands();
        assert_eq!(commands, [Command::Answer(false)]);
        for command in commands {
            assert_eq!(engine.command(command).unwrap(), None);
        }
        for shown in engine.drain() {
            app.on_shown(shown, t0);
        }
        let screen = render(&app, 80, 24);
        let log: Vec<&str> = app.notes().log().iter().map(|n| n.text.as_str()).collect();
        assert!(
            !log.iter().any(|l| l.contains("unfinished match")),
            "nothing said of the declined match stays: {log:?}"
        );
        assert!(log.iter().any(|l| l.starts_with("Listening on")), "{log:?}");
        assert!(app.game().moves().is_empty(), "a fresh start: {screen}");
        assert_eq!(app.game().name(Side::North), "your friend", "{screen}");
        assert!(!screen.contains("take back"), "{screen}");
        assert!(
            screen.contains("q quit") && screen.contains("? help"),
            "{screen}"
        );
        app.handle_event(&ch('u'), t0);
        assert!(app.take_commands().is_empty(), "u does nothing: {screen}");
    }

    /// Where the host's round was recorded is said as the joiner's screen
    /// and a local match say it: under the home directory, from `~`.
    /// (Before, the host's screen wrote the whole path.)
    #[test]
    fn the_hosts_screen_says_where_the_round_was_recorded_from_home() {
        let Some(home) = std::env::var_os("HOME").map(std::path::PathBuf::from) else {
            return;
        };
        let m = Match::new(alice_hosts().config("Michael"), 1);
        let mut feed = Feed::default();
        let record = home.join("records").join("r1.txt");
        let over = Happening::RoundOver {
            outcome: crate::rules::Outcome::Draw,
            record: Some(record),
        };
        feed.show(&m, &over).unwrap();
        let t0 = Instant::now();
        let mut app = crate::tui::game::testing::host_screen(m, None, t0);
        for shown in std::mem::take(&mut feed.news) {
            app.on_shown(shown, t0);
        }
        let said = app.notes().round_note().map(|n| n.text.as_str());
        assert_eq!(said, Some("Round recorded in ~/records/r1.txt."));
    }
}
