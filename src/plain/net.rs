//! The network game line by line: `mancala host` and `mancala join` in
//! plain mode (`--plain`, or whenever standard input or output is not a
//! terminal), so that a whole network match can be driven through pipes.
//! What is said is [`crate::net::play`]'s; this prints it, reads standard
//! input on a thread, and waits for the next event.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use crate::game::Match;
use crate::net::play::{HostGame, HostIn, HostSetup, JoinGame, JoinIn, JoinSetup, Show, names};
use crate::rules::{Played, Step};

use super::board;
use super::lines::{LineGame, drive, spawn_input};

/// Lines on standard output.
struct Lines<W> {
    out: W,
    echo: bool,
    animate: bool,
}

impl<W: Write> Show for Lines<W> {
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

    fn moved(&mut self, m: &Match, played: &Played, steps: &[Step]) -> io::Result<()> {
        let mover = m.name(played.mover).to_string();
        match board::sowing_line(m.rules(), steps).filter(|_| self.animate) {
            Some(line) => self.say(&format!("{mover} {line}"))?,
            None => self.say(&format!(
                "{mover} plays {}.",
                m.rules().letter(played.pit).unwrap_or('?')
            ))?,
        }
        self.board(m)
    }
}

fn lines(animate: bool) -> Lines<io::StdoutLock<'static>> {
    Lines {
        out: io::stdout().lock(),
        echo: !io::stdin().is_terminal(),
        animate,
    }
}

impl<S: Show> LineGame for HostGame<S> {
    type Event = HostIn;

    fn handle(&mut self, event: HostIn) -> anyhow::Result<Option<ExitCode>> {
        HostGame::handle(self, event)
    }

    fn wait(&self) -> Duration {
        HostGame::wait(self)
    }

    fn tick(&mut self) -> anyhow::Result<Option<ExitCode>> {
        HostGame::tick(self)?;
        Ok(None)
    }
}

impl<S: Show> LineGame for JoinGame<S> {
    type Event = JoinIn;

    fn handle(&mut self, event: JoinIn) -> anyhow::Result<Option<ExitCode>> {
        Ok(JoinGame::handle(self, event)?)
    }

    fn wait(&self) -> Duration {
        JoinGame::wait(self)
    }

    fn tick(&mut self) -> anyhow::Result<Option<ExitCode>> {
        Ok(JoinGame::tick(self)?)
    }
}

/// Runs `mancala host` line by line, in the one plain loop.
///
/// # Errors
/// When the port cannot be listened on, or standard output fails.
pub fn host(setup: HostSetup) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel::<HostIn>();
    spawn_input(tx.clone(), HostIn::Input);
    let animate = setup.seed_delay.is_some();
    let mut game = HostGame::new(setup, lines(animate), tx)?;
    drive(&mut game, &rx)
}

/// Runs `mancala join` line by line, in the one plain loop.
///
/// # Errors
/// When standard output fails.
pub fn join(setup: JoinSetup) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel::<JoinIn>();
    spawn_input(tx.clone(), JoinIn::Input);
    let animate = setup.seed_delay.is_some();
    let mut game = match JoinGame::connect(setup, lines(animate), tx)? {
        Ok(game) => game,
        Err((_, code)) => return Ok(code),
    };
    drive(&mut game, &rx)
}
