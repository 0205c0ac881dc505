//! `mancala analyze FILE`: every move of a recorded round of either family
//! valued under perfect play (exact, or the engine's estimate where it is
//! not proven), full screen on a terminal, else as text or JSON.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use crate::analysis::{Analysis, Analyst, PositionBudget};
use crate::cli::AnalyzeCmd;
use crate::store::Record;

use super::history::read_record;

/// Analyses `record`'s round within `think` per position; with
/// `progress`, a line on standard error counts the positions done.
///
/// # Errors
/// When the record's moves are refused by the rules (a record that passed
/// [`Record::parse`] never is).
pub fn analyse(record: &Record, think: Duration, progress: bool) -> anyhow::Result<Analysis> {
    let mut analyst = Analyst::new();
    let analysis = analyst
        .round_from(
            record.start_round(),
            &record.moves,
            &PositionBudget::time(think),
            |done, total| {
                if progress {
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\rAnalysing: position {done} of {total}");
                    if done == total {
                        let _ = write!(err, "\r\x1b[K");
                    }
                    let _ = err.flush();
                }
            },
        )
        .map_err(|(i, e)| anyhow::anyhow!("move {} of the record: {e}", i + 1))?;
    Ok(analysis)
}

/// Runs `mancala analyze`.
///
/// # Errors
/// A [`super::UsageError`] for a missing or corrupt record; output
/// failures.
pub fn run(cmd: &AnalyzeCmd) -> anyhow::Result<ExitCode> {
    let record = read_record(&cmd.file)?;
    let think = Duration::from_millis(cmd.think);
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if terminal && !cmd.plain && !cmd.json {
        crate::tui::analysis::run(&record, think)?;
        return Ok(ExitCode::SUCCESS);
    }
    let analysis = analyse(&record, think, std::io::stderr().is_terminal())?;
    if cmd.json {
        super::output::emit_line(analysis.to_json())?;
    } else {
        super::output::emit(&crate::plain::analysis::report(&record, &analysis))?;
    }
    Ok(ExitCode::SUCCESS)
}
