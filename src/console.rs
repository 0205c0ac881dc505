//! Lines for the person at the terminal that must never end the program:
//! warnings and problems on standard error, a closing word on standard
//! output. `eprintln!` and `println!` panic when the write fails (the
//! reader of a pipe went away, a full disk, a terminal that hung up); a
//! line nobody can read is not worth a panic, so these write and ignore
//! the failure. Reports whose loss matters (a command's output) go through
//! `commands::output` instead, which turns the failure into an exit code.

use std::fmt::Display;
use std::io::{self, Write as _};

use crate::escape::escaped;

/// Writes `text` and a line break to standard error; a failure is ignored.
/// A warning may quote what came from outside (a `--from` line, a file's
/// text): each line is written [`escaped`], so no escape sequence or
/// invisible character reaches the terminal.
///
/// ```
/// // Never panics, even with standard error closed or a broken pipe.
/// mancala::console::warn(format_args!("mancala: {}", "a warning"));
/// ```
pub fn warn(text: impl Display) {
    // One write: standard error is unbuffered, and a line written in
    // pieces interleaves with other output (seen: "mancala: " alone).
    let text = text.to_string();
    let mut said: Vec<String> = text.split('\n').map(|l| escaped(l, usize::MAX)).collect();
    said.push(String::new());
    let _ = io::stderr().lock().write_all(said.join("\n").as_bytes());
}

/// Writes `text` and a line break to standard output and flushes it; a
/// failure is ignored.
pub fn say(text: impl Display) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// What the person at the terminal typed, one line at a time: every line
/// front end (a local match, a network match) reads its input as these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineInput {
    /// A line typed (without its end).
    Line(String),
    /// The input ended.
    End,
}
