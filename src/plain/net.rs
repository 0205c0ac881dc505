//! The network game line by line: `mancala host` and `mancala join` in
//! plain mode (`--plain`, or whenever standard input or output is not a
//! terminal), so that a whole network match can be driven through pipes.
//! What is said is [`crate::net::play`]'s; this prints it (a move through
//! the local game's printer), reads standard input on a thread, and waits
//! for the next event.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use crate::game::Match;
use crate::net::hosted::Happening;
use crate::net::play::{Ask, HostGame, HostIn, HostSetup, JoinGame, JoinIn, JoinSetup, Show};
use crate::rules::Side;

use super::board;
use super::lines::{LineGame, drive, spawn_input};

/// Lines on standard output.
struct Lines<W> {
    out: W,
    echo: bool,
    animate: bool,
    /// The prompt waiting for an answer on the last line, and whether news
    /// from the other player cut it (it is printed again under the news).
    open: Option<(String, bool)>,
}

impl<W: Write> Lines<W> {
    /// News goes on its own line, never after an open prompt.
    fn cut(&mut self) -> io::Result<()> {
        if let Some((_, cut @ false)) = &mut self.open {
            *cut = true;
            writeln!(self.out)?;
        }
        Ok(())
    }

    /// Prints the prompt again if news cut it, while it is still `asked`
    /// (the joiner's question waits for the host's word after news).
    fn restore_prompt(&mut self, asked: bool) -> io::Result<()> {
        match self.open.take() {
            Some((prompt, true)) if asked => self.prompt(&prompt),
            Some((_, true)) => Ok(()),
            open => {
                self.open = open;
                Ok(())
            }
        }
    }

    /// What the player may do now: a question (ending with a space) stays
    /// open on its line for the answer.
    fn prompt(&mut self, text: &str) -> io::Result<()> {
        self.open = None;
        self.cut()?;
        if text.ends_with(' ') {
            write!(self.out, "{text}")?;
            self.open = Some((text.to_string(), false));
        } else {
            writeln!(self.out, "{text}")?;
        }
        self.out.flush()
    }
}

impl<W: Write> Show for Lines<W> {
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.cut()?;
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    fn ask(&mut self, ask: Ask, m: &Match, me: Side) -> io::Result<()> {
        self.prompt(&ask.text(m, me))
    }

    fn echo(&mut self, line: &str) -> io::Result<()> {
        // The answer ends the prompt's line (typed at a terminal, or here).
        self.open = None;
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    fn board(&mut self, m: &Match) -> io::Result<()> {
        self.cut()?;
        writeln!(self.out)?;
        let piles = super::piles(m);
        write!(
            self.out,
            "{}",
            board::render_piles(m.board(), m.names(), piles)
        )?;
        self.out.flush()
    }

    /// A kept move through the local game's printer (a move typed here is
    /// not announced); the rest as every front end says it.
    fn show(&mut self, m: &Match, what: &Happening) -> io::Result<()> {
        let Happening::Moved(moved) = what else {
            return crate::net::play::show_happening(self, m, what);
        };
        self.cut()?;
        super::report_move(&mut self.out, self.animate, m, moved)?;
        self.out.flush()
    }
}

fn lines(animate: bool) -> Lines<io::StdoutLock<'static>> {
    Lines {
        out: io::stdout().lock(),
        echo: !io::stdin().is_terminal(),
        animate,
        open: None,
    }
}

impl<W: Write> LineGame for HostGame<Lines<W>> {
    type Event = HostIn;

    fn handle(&mut self, event: HostIn) -> anyhow::Result<Option<ExitCode>> {
        let ended = HostGame::handle(self, event)?;
        self.show_mut().restore_prompt(true)?;
        Ok(ended)
    }

    fn wait(&self) -> Duration {
        HostGame::wait(self)
    }

    fn tick(&mut self) -> anyhow::Result<Option<ExitCode>> {
        HostGame::tick(self)?;
        self.show_mut().restore_prompt(true)?;
        Ok(None)
    }
}

impl<W: Write> LineGame for JoinGame<Lines<W>> {
    type Event = JoinIn;

    fn handle(&mut self, event: JoinIn) -> anyhow::Result<Option<ExitCode>> {
        let ended = JoinGame::handle(self, event)?;
        let asked = self.is_asked();
        self.show_mut().restore_prompt(asked)?;
        Ok(ended)
    }

    fn wait(&self) -> Duration {
        JoinGame::wait(self)
    }

    fn tick(&mut self) -> anyhow::Result<Option<ExitCode>> {
        let ended = JoinGame::tick(self)?;
        let asked = self.is_asked();
        self.show_mut().restore_prompt(asked)?;
        Ok(ended)
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
