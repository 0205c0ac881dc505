//! The network game line by line: `mancala host` and `mancala join` in
//! plain mode (`--plain`, or whenever standard input or output is not a
//! terminal), so that a whole network match can be driven through pipes.
//! What is said is [`crate::net::play`]'s; this prints it, reads standard
//! input on a thread, and waits for the next event.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc;

use crate::game::Match;
use crate::net::play::{
    HostGame, HostIn, HostSetup, JoinGame, JoinIn, JoinSetup, LineInput, Show, names,
};
use crate::rules::{Played, Step};

use super::board;

/// The longest input line read, in bytes.
const MAX_LINE: u64 = 1024;

/// Reads standard input on a thread: one event per line (cut at
/// [`MAX_LINE`] bytes, control characters replaced), then its end.
fn spawn_input<E: Send + 'static>(tx: mpsc::Sender<E>, wrap: fn(LineInput) -> E) {
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            let mut bytes = Vec::new();
            let read = (&mut input).take(MAX_LINE).read_until(b'\n', &mut bytes);
            match read {
                Ok(0) | Err(_) => {
                    let _ = tx.send(wrap(LineInput::End));
                    return;
                }
                Ok(_) => {}
            }
            if bytes.last() != Some(&b'\n') && bytes.len() as u64 == MAX_LINE {
                // Skip the rest of an endless line.
                let mut rest = Vec::new();
                let _ = input.read_until(b'\n', &mut rest);
            }
            let line: String = String::from_utf8_lossy(&bytes)
                .trim_end_matches(['\n', '\r'])
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect();
            if tx.send(wrap(LineInput::Line(line))).is_err() {
                return;
            }
        }
    });
}

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

/// Runs `mancala host` line by line.
///
/// # Errors
/// When the port cannot be listened on, or standard output fails.
pub fn host(setup: HostSetup) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel::<HostIn>();
    spawn_input(tx.clone(), HostIn::Input);
    let animate = setup.seed_delay.is_some();
    let mut game = HostGame::new(setup, lines(animate), tx)?;
    loop {
        match rx.recv_timeout(game.wait()) {
            Ok(event) => {
                if let Some(code) = game.handle(event)? {
                    return Ok(code);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => game.tick()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(ExitCode::SUCCESS),
        }
    }
}

/// Runs `mancala join` line by line.
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
    loop {
        let ended = match rx.recv_timeout(game.wait()) {
            Ok(event) => game.handle(event)?,
            Err(mpsc::RecvTimeoutError::Timeout) => game.tick()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(ExitCode::SUCCESS),
        };
        if let Some(code) = ended {
            return Ok(code);
        }
    }
}
