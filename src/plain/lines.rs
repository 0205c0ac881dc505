//! The one plain loop: every line-by-line game (a local match, the host's
//! and the joiner's side of a network match) is a [`LineGame`] that takes
//! one event at a time, and [`drive`] runs it: standard input is read on a
//! thread ([`spawn_input`]), and the loop waits for the next line, network
//! message or clock tick.

use std::io::{self, BufRead, Read};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use crate::console::LineInput;

/// The longest input line read, in bytes: a longer line is cut there (the
/// rest is skipped), so that endless input without a newline cannot
/// exhaust memory.
pub const MAX_LINE: u64 = 1024;

/// How long a game with nothing to do by itself waits between ticks.
pub const IDLE: Duration = Duration::from_secs(3600);

/// A game played line by line, one event at a time.
pub trait LineGame {
    /// What it waits for: typed lines, and for a network game its
    /// connection's messages.
    type Event;

    /// Handles one event; `Some` when the program should end with that
    /// exit code.
    ///
    /// # Errors
    /// When the output fails, or the network cannot be used.
    fn handle(&mut self, event: Self::Event) -> anyhow::Result<Option<ExitCode>>;

    /// How long to wait for the next event before [`LineGame::tick`].
    fn wait(&self) -> Duration {
        IDLE
    }

    /// Time passed with no event (a network game keeps its connection alive).
    ///
    /// # Errors
    /// When the output fails.
    fn tick(&mut self) -> anyhow::Result<Option<ExitCode>> {
        Ok(None)
    }
}

/// Runs `game` until it ends, on the events that arrive on `events`.
///
/// # Errors
/// When the game's output fails.
pub fn drive<G: LineGame>(
    game: &mut G,
    events: &mpsc::Receiver<G::Event>,
) -> anyhow::Result<ExitCode> {
    loop {
        let ended = match events.recv_timeout(game.wait()) {
            Ok(event) => game.handle(event)?,
            Err(mpsc::RecvTimeoutError::Timeout) => game.tick()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(ExitCode::SUCCESS),
        };
        if let Some(code) = ended {
            return Ok(code);
        }
    }
}

/// Reads standard input on a thread: one event per line, then its end.
pub fn spawn_input<E: Send + 'static>(tx: mpsc::Sender<E>, wrap: fn(LineInput) -> E) {
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        while let Some(line) = read_line(&mut input) {
            if tx.send(wrap(LineInput::Line(line))).is_err() {
                return;
            }
        }
        let _ = tx.send(wrap(LineInput::End));
    });
}

/// Reads one line (without its end) from `input`; `None` at its end or on
/// an error. It is cut at [`MAX_LINE`] bytes, bytes that are not UTF-8 are
/// replaced, and control characters (escape sequences included) become
/// `�`, so that nothing typed is ever printed back raw.
pub fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    match input.take(MAX_LINE).read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if bytes.last() != Some(&b'\n') && bytes.len() as u64 == MAX_LINE {
        skip_rest_of_line(input);
    }
    Some(
        String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\n', '\r'])
            .chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect(),
    )
}

/// Skips the rest of an endless line, a buffer at a time.
fn skip_rest_of_line(input: &mut impl BufRead) {
    loop {
        let Ok(buf) = input.fill_buf() else {
            return;
        };
        if buf.is_empty() {
            return;
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return;
        }
        let len = buf.len();
        input.consume(len);
    }
}

/// Every line of `input` as the events a game reads, then its end (for
/// tests that hold their input in memory).
#[cfg(test)]
pub fn lines_of(mut input: impl BufRead) -> Vec<LineInput> {
    let mut lines = Vec::new();
    while let Some(line) = read_line(&mut input) {
        lines.push(LineInput::Line(line));
    }
    lines.push(LineInput::End);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_cleaned_and_end() {
        let long = "x".repeat(3000);
        let input = format!("c\r\n{long}\nd\u{1b}[2J\n\u{ff}");
        let lines = lines_of(input.as_bytes());
        let cut = "x".repeat(MAX_LINE as usize);
        assert_eq!(
            lines,
            vec![
                LineInput::Line("c".into()),
                LineInput::Line(cut),
                LineInput::Line("d\u{fffd}[2J".into()),
                LineInput::Line("\u{ff}".into()),
                LineInput::End,
            ]
        );
    }
}
