//! A match with a friend on another machine, full screen: the one game
//! screen ([`App`], see [`crate::tui::game::app::remote`]) shows what the
//! network game ([`crate::net::play`]) says, the same words as plain mode,
//! each confirmed move sown seed by seed; the player's keys become the
//! answers plain mode reads (a pit letter, `u`, `y`, `n`, `q`). The
//! network threads answer through [`NetWorld`], which the screen loop
//! polls; hints are worked out on this machine as in a local match.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::{FirstMover, Match, MatchConfig, PlayOptions, Seat, console};
use crate::net::play::{
    Ask, HostGame, HostIn, HostSetup, JoinGame, JoinIn, JoinSetup, LineInput as Typed, Show,
};
use crate::net::referee::{HOST_SIDE, Happening, JOINER_SIDE};
use crate::players::PlayerKind;
use crate::rules::{Played, Rules, Side, Step};
use crate::tui::game::app::{App, Shown};
use crate::tui::game::computer::Worker;
use crate::tui::game::world::{Effect, GameMessage};
use crate::tui::prefs::{self, Chosen};
use crate::tui::screen::{self, World};

/// How long a hint may think.
const HINT_THINK: Duration = Duration::from_secs(1);

/// The [`Show`] of the full screen: it collects what is said for the
/// world to hand to the screen.
#[derive(Debug, Default)]
pub struct Feed {
    shown: Vec<Shown>,
    last: Option<Vec<u16>>,
}

impl Show for Feed {
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.shown.push(Shown::Say(text.to_string()));
        Ok(())
    }

    fn prompt(&mut self, text: &str) -> io::Result<()> {
        // Every prompt of the network game comes as an `Ask` (see `ask`).
        self.shown.push(Shown::Say(text.trim_end().to_string()));
        Ok(())
    }

    fn ask(&mut self, ask: &Ask, _: &Rules) -> io::Result<()> {
        self.shown.push(Shown::Ask(ask.clone()));
        Ok(())
    }

    fn echo(&mut self, _: &str) -> io::Result<()> {
        Ok(())
    }

    fn board(&mut self, m: &Match) -> io::Result<()> {
        self.last = Some(m.board().counts().to_vec());
        self.shown.push(Shown::Board(Box::new(m.clone())));
        Ok(())
    }

    fn moved(&mut self, m: &Match, played: &Played, steps: &[Step]) -> io::Result<()> {
        let after = m.board().counts().to_vec();
        let before = self.last.replace(after).unwrap_or_else(|| {
            // Never seen a board: the move is shown from where it ended.
            m.board().counts().to_vec()
        });
        self.shown.push(Shown::Moved {
            before,
            after: Box::new(m.clone()),
            played: *played,
            steps: steps.to_vec(),
        });
        Ok(())
    }

    fn show(&mut self, m: &Match, what: &Happening) -> io::Result<()> {
        match what {
            // The screen words a move, its captures and extra turns, and the
            // round's result itself, with their marks, as in a local match.
            Happening::Moved { played, steps } => self.moved(m, played, steps),
            Happening::RoundOver { record, .. } => {
                if let Some(path) = record {
                    self.shown.push(Shown::Recorded(format!(
                        "Round recorded in {}.",
                        path.display()
                    )));
                }
                Ok(())
            }
            Happening::NextRound => self.board(m),
            other => crate::net::play::show_happening(self, m, other),
        }
    }
}

/// One end of the network game, as the screen's world drives it.
pub trait NetEngine {
    /// Hands a typed line to the game; `Some` ends it.
    ///
    /// # Errors
    /// What ends the program with an error.
    fn typed(&mut self, line: String) -> anyhow::Result<Option<ExitCode>>;
    /// Handles what arrived from the network; `Some` ends the game.
    ///
    /// # Errors
    /// What ends the program with an error.
    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>>;
    /// What was said since the last call.
    fn drain(&mut self) -> Vec<Shown>;
}

/// The host's end.
pub struct HostEngine {
    game: HostGame<Feed>,
    rx: mpsc::Receiver<HostIn>,
}

impl NetEngine for HostEngine {
    fn typed(&mut self, line: String) -> anyhow::Result<Option<ExitCode>> {
        self.game.handle(HostIn::Input(Typed::Line(line)))
    }

    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>> {
        while let Ok(event) = self.rx.try_recv() {
            if let Some(code) = self.game.handle(event)? {
                return Ok(Some(code));
            }
        }
        self.game.tick()?;
        Ok(None)
    }

    fn drain(&mut self) -> Vec<Shown> {
        std::mem::take(&mut self.game.show_mut().shown)
    }
}

/// The joiner's end.
pub struct JoinEngine {
    game: JoinGame<Feed>,
    rx: mpsc::Receiver<JoinIn>,
}

impl NetEngine for JoinEngine {
    fn typed(&mut self, line: String) -> anyhow::Result<Option<ExitCode>> {
        Ok(self.game.handle(JoinIn::Input(Typed::Line(line)))?)
    }

    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>> {
        while let Ok(event) = self.rx.try_recv() {
            if let Some(code) = self.game.handle(event)? {
                return Ok(Some(code));
            }
        }
        Ok(self.game.tick()?)
    }

    fn drain(&mut self) -> Vec<Shown> {
        std::mem::take(&mut self.game.show_mut().shown)
    }
}

/// Carries the screen's answers to the network game and brings back what
/// it says; works out hints on this machine.
pub struct NetWorld<E> {
    engine: E,
    ended: bool,
    hints: Worker,
    prefs: Option<PathBuf>,
}

impl<E: NetEngine> NetWorld<E> {
    fn settle(&mut self, result: anyhow::Result<Option<ExitCode>>, answers: &mut Vec<GameMessage>) {
        let mut shown = self.engine.drain();
        match result {
            Ok(None) => {}
            Ok(Some(code)) => {
                self.ended = true;
                let code = if code == ExitCode::SUCCESS { 0 } else { 1 };
                shown.push(Shown::Ended(code));
            }
            Err(e) => {
                self.ended = true;
                shown.push(Shown::Say(format!("mancala: {e:#}")));
                shown.push(Shown::Ended(1));
            }
        }
        answers.extend(shown.into_iter().map(GameMessage::Net));
    }
}

impl<E: NetEngine> World<App> for NetWorld<E> {
    fn perform(&mut self, effect: Effect, answers: &mut Vec<GameMessage>) {
        match effect {
            Effect::Line(line) if !self.ended => {
                let result = self.engine.typed(line);
                self.settle(result, answers);
            }
            Effect::Think(request) => self.hints.submit(request),
            Effect::SavePrefs(kept) => {
                if let Some(path) = &self.prefs
                    && let Err(warning) = prefs::save(path, &kept)
                {
                    answers.push(GameMessage::Warning(warning));
                }
            }
            // The host's referee keeps the match; the screen keeps nothing.
            Effect::Line(_) | Effect::Save(_) | Effect::CloseRound(_) | Effect::EndMatch(_) => {}
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

/// The match shown until the network game sends one: the host's rules and
/// names, nobody's move; `me` plays at this keyboard, the other seat is
/// the friend over the network.
fn placeholder(rules: Rules, first: FirstMover, names: [&str; 2], me: Side) -> Match {
    let seat = |side: Side| {
        let kind = if side == me {
            PlayerKind::Human
        } else {
            PlayerKind::Network
        };
        Seat::new(names[side.index()], kind)
    };
    let config = MatchConfig {
        rules,
        seats: [seat(Side::South), seat(Side::North)],
        first,
    };
    Match::new(config, 0)
}

/// Runs the screen until the game ends, then prints the last news on the
/// normal screen.
fn run_screen<E: NetEngine>(
    mut app: App,
    engine: E,
    chosen: Chosen,
    kept_at: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    app.keep_prefs(chosen);
    let hints = Worker::new(app.game().config(), HINT_THINK, 0);
    let mut world = NetWorld {
        engine,
        ended: false,
        hints,
        prefs: kept_at,
    };
    let mut first = Vec::new();
    world.settle(Ok(None), &mut first);
    let now = Instant::now();
    for message in first {
        if let GameMessage::Net(shown) = message {
            app.on_shown(shown, now);
        }
    }
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
    let shown = placeholder(
        setup.rules,
        setup.first,
        [&setup.name, "your friend"],
        HOST_SIDE,
    );
    let game = HostGame::new(setup, Feed::default(), tx)?;
    let app = App::networked(
        shown,
        HOST_SIDE,
        options,
        *chosen.theme(),
        (80, 24),
        Instant::now(),
    );
    run_screen(app, HostEngine { game, rx }, chosen, kept_at)
}

/// Runs `mancala join` full screen, sowing at the speed `given` on the
/// command line, else at the kept one.
///
/// # Errors
/// When the terminal fails.
pub fn join(setup: JoinSetup, given: Option<Option<Duration>>) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel();
    let (chosen, kept_at, options) = settings(given);
    let name = setup.name.clone();
    let game = match JoinGame::connect(setup, Feed::default(), tx)? {
        Ok(game) => game,
        Err((feed, code)) => {
            // Not connected: say why on the normal screen.
            for shown in feed.shown {
                if let Shown::Say(text) = shown {
                    console::say(text);
                }
            }
            return Ok(code);
        }
    };
    let shown = placeholder(
        Rules::KALAH,
        FirstMover::South,
        ["the host", &name],
        JOINER_SIDE,
    );
    let app = App::networked(
        shown,
        JOINER_SIDE,
        options,
        *chosen.theme(),
        (80, 24),
        Instant::now(),
    );
    run_screen(app, JoinEngine { game, rx }, chosen, kept_at)
}
