//! Writing a headless command's report to standard output, the way Unix
//! tools do: a reader that went away (`| head`) ends the command quietly
//! with exit code 0; any other failure (a full disk) is one line on
//! standard error and exit code 1. `main` does the deciding (see
//! [`OutputError::exit`]); the commands only write through [`emit`].

use std::fmt;
use std::io::{self, Write as _};
use std::process::ExitCode;

/// Standard output could not be written.
#[derive(Debug)]
pub struct OutputError(pub io::Error);

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the output: {}", self.0)
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

impl OutputError {
    /// How the program ends after this failure: quietly with success when
    /// the reader closed the pipe, else with the one-line message on
    /// standard error and failure.
    #[must_use]
    pub fn exit(&self) -> ExitCode {
        if self.0.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
        let _ = writeln!(io::stderr(), "mancala: {self}");
        ExitCode::FAILURE
    }
}

/// Writes `text` to standard output and flushes it.
///
/// # Errors
/// An [`OutputError`] when standard output cannot be written.
pub fn emit(text: &str) -> Result<(), OutputError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(OutputError)
}

/// Writes `text` and a line break to standard output, and flushes it.
///
/// # Errors
/// An [`OutputError`] when standard output cannot be written.
pub fn emit_line(text: impl fmt::Display) -> Result<(), OutputError> {
    emit(&format!("{text}\n"))
}
