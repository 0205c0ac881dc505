//! A match with a friend on another machine, full screen: the one game
//! screen ([`App`], see `tui/game/app/remote.rs`).
//!
//! On both ends the screen shows the match that the host's session plays
//! (the referee, [`crate::net::hosted`]). On the host that session is the
//! screen's own: `NetScreen` hands the screen's typed commands (play a
//! pit, ask to take back, yes or no, quit) and the friend's messages to
//! the friend's seat, which plays them in it, and shows the screen what
//! happened. On the joiner it carries the screen's messages to the host
//! (`JoinEngine`, around the connection) and brings back the host's,
//! which the joiner's session follows. Each move is sown seed by seed;
//! both say the same words as plain mode, and look at the network at each
//! tick.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ratatui::Frame;

use crate::console;
use crate::game::{Match, PlayOptions};
use crate::net::hosted::{HOST_SEAT, Happening};
use crate::net::message::{ToHost, ToJoiner};
use crate::net::play::{
    Ask, Command, FriendSeat, HostIn, HostSetup, JoinIn, JoinLink, JoinSetup, Linked, Show,
};
use crate::rules::Side;
use crate::session::Session;
use crate::tui::game::app::{App, Shown};
use crate::tui::game::computer::Worker;
use crate::tui::game::world::{Effect, GameMessage, GameWorld};
use crate::tui::input::Input;
use crate::tui::prefs::{self, Chosen};
use crate::tui::screen::{self, Screen, WHILE_BUSY};

/// How long a hint may think.
const HINT_THINK: Duration = Duration::from_secs(1);

/// A line of news for the screen.
fn said(text: &str) -> Shown {
    Shown::Happened(Happening::Said(text.to_string()))
}

/// The [`Show`] of the host's full screen: it collects what is said for
/// the screen.
#[derive(Debug, Default)]
pub struct Feed {
    news: Vec<Shown>,
}

impl Show for Feed {
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.news.push(said(text));
        Ok(())
    }

    fn ask(&mut self, ask: Ask, _: &Match, _: Side) -> io::Result<()> {
        self.news.push(Shown::Ask(ask));
        Ok(())
    }

    /// The screen's session shows it already.
    fn board(&mut self, _: &Match) -> io::Result<()> {
        self.news.push(Shown::Board);
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

/// The joiner's end: the connection to the host, whose messages the
/// joiner's session follows.
struct JoinEngine {
    link: JoinLink,
    rx: mpsc::Receiver<JoinIn>,
    /// The host's name.
    host: String,
    news: Vec<Shown>,
}

impl JoinEngine {
    /// A message for the host; `Some` when the game ends with that code.
    fn send(&mut self, message: ToHost) -> Option<ExitCode> {
        if message == ToHost::Leave {
            self.link.leave();
            return Some(ExitCode::SUCCESS);
        }
        if !self.link.is_lost() {
            self.link.send(&message);
        }
        None
    }

    /// What came from the network, and time passed; `Some` when the
    /// game ends with that code.
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
                        self.news.push(said(&words));
                        return Ok(Some(ExitCode::FAILURE));
                    }
                    self.news.push(Shown::Host(Box::new(message)));
                }
                Err(e) => {
                    let (words, ask) = self.link.lost(&e);
                    self.news.extend([said(&words), Shown::Ask(ask)]);
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
                self.news.extend(why.as_deref().map(said));
                Some(ExitCode::FAILURE)
            }
        })
    }
}

/// How the network game goes on: `Some` when it ended with that code.
type Going = anyhow::Result<Option<ExitCode>>;

/// The end of the network game, if `result` says it ended, as the
/// screen is told it.
fn ending(result: Going) -> Vec<Shown> {
    match result {
        Ok(None) => Vec::new(),
        Ok(Some(code)) => vec![Shown::Ended(u8::from(code != ExitCode::SUCCESS))],
        Err(e) => vec![said(&format!("mancala: {e:#}")), Shown::Ended(1)],
    }
}

/// The host's seat's turn, in the host's session `s`: the player's
/// `command`, else what came from the network (`rx`) and time passed;
/// `Some` when the game ends with that code.
fn host_turn(
    seat: &mut FriendSeat<Feed>,
    rx: &mpsc::Receiver<HostIn>,
    s: &mut Session,
    command: Option<Command>,
) -> anyhow::Result<Option<ExitCode>> {
    if let Some(command) = command {
        return Ok(match seat.command(s, command)? {
            Some(code) => Some(code),
            None => seat.settle(s, true)?,
        });
    }
    while let Ok(event) = rx.try_recv() {
        let HostIn::Net(event) = event else {
            continue;
        };
        let changed = seat.on_net(s, event)?;
        if let Some(code) = seat.settle(s, changed)? {
            return Ok(Some(code));
        }
    }
    seat.tick(s)?;
    Ok(seat.settle(s, false)?)
}

/// The screen of either end: the game screen and its [`NetEnd`] of the
/// network game.
struct NetScreen {
    app: App,
    end: NetEnd,
}

/// A screen's end of the network game.
enum NetEnd {
    /// The host's: the friend's seat (with the network's events for it),
    /// which plays the match in the screen's own session, the referee.
    Host(Box<FriendSeat<Feed>>, mpsc::Receiver<HostIn>),
    /// The joiner's: the connection to the host.
    Join(Box<JoinEngine>),
    /// The network game has ended: nothing more goes to the network.
    Over,
}

impl NetScreen {
    /// The host's seat's turn ([`host_turn`]), then what it said shown.
    fn host(&mut self, command: Option<Command>, now: Instant) -> Vec<Effect> {
        let NetEnd::Host(seat, rx) = &mut self.end else {
            return Vec::new();
        };
        let result = host_turn(seat, rx, self.app.session_mut(), command);
        let news = std::mem::take(&mut seat.show_mut().news);
        self.show(news, result, now)
    }

    /// The joiner's `message` for the host, else what came from the host
    /// and time passed; then what came shown.
    fn join(&mut self, message: Option<ToHost>, now: Instant) -> Vec<Effect> {
        let NetEnd::Join(join) = &mut self.end else {
            return Vec::new();
        };
        let result = match message {
            Some(message) => Ok(join.send(message)),
            None => join.poll(),
        };
        let news = std::mem::take(&mut join.news);
        self.show(news, result, now)
    }

    /// Shows `news`, and the game's end if `result` ended it (nothing
    /// more goes to the network then); the effects of showing them.
    fn show(&mut self, mut news: Vec<Shown>, result: Going, now: Instant) -> Vec<Effect> {
        news.extend(ending(result));
        if matches!(news.last(), Some(Shown::Ended(_))) {
            self.end = NetEnd::Over;
        }
        let shown = news.into_iter().map(GameMessage::Net);
        shown
            .flat_map(|message| self.update(message, now))
            .collect()
    }
}

impl Screen for NetScreen {
    type Message = GameMessage;
    type Effect = Effect;

    /// The screen's commands go to the host's seat at once; the seat looks
    /// for the friend's messages at each tick.
    fn update(&mut self, message: GameMessage, now: Instant) -> Vec<Effect> {
        let tick = matches!(message, GameMessage::Input(Input::Tick));
        let mut effects = Vec::new();
        for effect in self.app.update(message, now) {
            match effect {
                Effect::Net(command) => effects.extend(self.host(Some(command), now)),
                Effect::ToHost(message) => effects.extend(self.join(Some(message), now)),
                effect => effects.push(effect),
            }
        }
        if tick {
            effects.extend(self.host(None, now));
            effects.extend(self.join(None, now));
        }
        effects
    }

    fn view(&self, frame: &mut Frame) {
        self.app.view(frame);
    }

    /// The network is looked at every [`WHILE_BUSY`] while it is there.
    fn next_wake(&self) -> Option<Instant> {
        let net = (!matches!(self.end, NetEnd::Over)).then(|| Instant::now() + WHILE_BUSY);
        self.app.next_wake().into_iter().chain(net).min()
    }

    fn done(&self) -> bool {
        self.app.done()
    }

    fn take_copy(&mut self) -> Option<String> {
        self.app.take_copy()
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
    // The match on show until a friend joins; the host's session from then.
    let mut session = setup.waiting_session();
    let seat = FriendSeat::open(setup, Feed::default(), tx, &mut session)?;
    let app = App::start(session, options, *chosen.theme(), (80, 24), Instant::now());
    let (app, end) = (app.networked(HOST_SEAT), NetEnd::Host(Box::new(seat), rx));
    run_world(NetScreen { app, end }, kept_at, chosen)
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
    let news = Vec::new();
    let end = NetEnd::Join(Box::new(JoinEngine {
        link,
        rx,
        host,
        news,
    }));
    run_world(NetScreen { app, end }, kept_at, chosen)
}

/// Runs `screen` until the game ends, then prints the last news on the
/// normal screen.
fn run_world(
    mut screen: NetScreen,
    prefs: Option<PathBuf>,
    chosen: Chosen,
) -> anyhow::Result<ExitCode> {
    let worker = Worker::new(screen.app.game().config(), HINT_THINK, 0);
    screen.app.keep_prefs(chosen);
    // What was said before the screen started.
    screen.host(None, Instant::now());
    let mut world = GameWorld { worker, prefs };
    screen::run(&mut screen, &mut world)?;
    if let Some(status) = crate::tui::terminal::signal_exit_status() {
        return Ok(ExitCode::from(status));
    }
    let app = screen.app;
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
    use crate::rules::{Game, NoTrace, Rules, Side};
    use crate::store::Keeper;
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

    /// The host's screen under `setup`, offering to resume `saved`
    /// (Alice against Michael), as a start that found it does.
    fn offered(setup: &HostSetup, saved: Match, t0: Instant) -> NetScreen {
        let (tx, rx) = mpsc::channel();
        let mut seat = FriendSeat::new(setup.clone(), Feed::default(), Keeper::new(None), tx);
        let note = HostNote {
            opponent: "Michael".into(),
            code: JoinCode::random(),
        };
        let waiting = setup.waiting_session().current().clone();
        let mut app = crate::tui::game::testing::host_screen(waiting, None, t0);
        seat.offering(app.session_mut(), saved, note).unwrap();
        let end = NetEnd::Host(Box::new(seat), rx);
        let mut net = NetScreen { app, end };
        net.host(None, t0);
        net
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
        let mut net = offered(&setup, saved, t0);
        assert_eq!(net.app.game().moves().len(), 2, "the saved match is shown");
        assert!(net.app.remote_resume_question());
        let n = Input::from_event(&ch('n')).unwrap();
        net.update(GameMessage::Input(n), t0);
        assert!(matches!(net.end, NetEnd::Host(..)), "listening");
        let app = &mut net.app;
        let screen = render(app, 80, 24);
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

    /// Yes to the resume question resumes the match offered, as the
    /// session on show holds it: a saved round that is over stays over
    /// (its moves and result), with "Play again?" next.
    #[test]
    fn resuming_a_saved_round_that_is_over_resumes_it_as_it_was() {
        let t0 = Instant::now();
        let setup = alice_hosts();
        let mut saved = Match::new(setup.config("Michael"), 1);
        while let Some(pit) = saved.board().legal_moves().next() {
            saved.play(pit, &mut NoTrace).unwrap();
        }
        let mut net = offered(&setup, saved.clone(), t0);
        let y = Input::from_event(&ch('y')).unwrap();
        net.update(GameMessage::Input(y), t0);
        let s = net.app.session();
        let resumed = s.current();
        assert_eq!(resumed.name(Side::North), "Michael");
        assert_eq!(resumed.round(), saved.round());
        assert_eq!(resumed.moves(), saved.moves());
        assert_eq!(resumed.outcome(), saved.outcome());
        assert_eq!(s.asking(), crate::session::Asking::PlayAgain);
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
        let draw = crate::rules::Outcome::Draw;
        let result = crate::game::outcome_event(draw, m.position().score(), m.names());
        let over = Happening::RoundOver {
            result,
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
