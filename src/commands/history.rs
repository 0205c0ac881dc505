//! `mancala replay` and `mancala stats`: looking back at games played.

use std::io::{IsTerminal, Read as _};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{ReplayCmd, StatsCmd};
use crate::game::names::shown;
use crate::store::files::{self, Follow, ReadError};
use crate::store::reviews::{self, Reviews};
use crate::store::{Record, SaveStore, data_dir, stats};

use super::UsageError;

/// Reads and checks the record at `file`.
///
/// # Errors
/// A [`UsageError`] naming the file: unreadable, or not a valid record
/// (with the line at fault).
pub fn read_record(file: &Path) -> anyhow::Result<Record> {
    // The path is the user's, but it may hold anything: shown escaped.
    let path = shown(&file.to_string_lossy());
    let limit = crate::store::record::MAX_RECORD_BYTES as u64;
    if file == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock().take(limit + 1), &mut bytes)
            .map_err(|e| UsageError(format!("cannot read standard input: {e}")))?;
        if bytes.len() as u64 > limit {
            return super::usage(format!(
                "standard input is too large for a round (more than {limit} bytes)"
            ));
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| UsageError("standard input is not text".to_string()))?;
        return crate::store::pgn::parse_any(&text).map_err(|e| {
            UsageError(format!("standard input is not a usable game record: {e}")).into()
        });
    }
    let text = match files::read_text(file, limit, Follow::Allowed) {
        Ok(text) => text,
        Err(ReadError::Io(e)) => return super::usage(format!("cannot read {path}: {e}")),
        Err(ReadError::NotFound) => {
            return super::usage(format!("cannot read {path}: there is no such file"));
        }
        Err(problem) => return super::usage(format!("{path} is not a game record: {problem}")),
    };
    crate::store::pgn::parse_any(&text)
        .map_err(|e| UsageError(format!("{path} is not a usable game record: {e}")).into())
}

/// `mancala replay FILE`: the recorded round, move by move: full screen
/// with the arrow keys on a terminal, else (or with `--plain`) printed.
///
/// # Errors
/// A [`UsageError`] for a missing or corrupt record; output failures.
pub fn replay(cmd: &ReplayCmd) -> anyhow::Result<ExitCode> {
    let record = read_record(&cmd.file)?;
    match cmd.format.as_deref() {
        Some("pgn") if record.config.game != crate::rules::Game::Kalah => {
            return Err(UsageError(format!(
                "PGN is written for Kalah rounds; this record is of {}",
                record.config.game
            ))
            .into());
        }
        Some("pgn") => {
            let date = record_date(&cmd.file);
            super::output::emit(&crate::store::pgn::to_pgn(&record, date.as_deref()))?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(_) => {
            super::output::emit(&record.to_text())?;
            return Ok(ExitCode::SUCCESS);
        }
        None => {}
    }
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if terminal && !cmd.show.plain {
        crate::tui::replay::run(&record, cmd.show.speed.given())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = std::io::stdout().lock();
    let printed = crate::plain::replay::print(&record, !cmd.show.speed.no_animation, &mut out);
    crate::plain::quiet_when_unread(printed.map(|()| ExitCode::SUCCESS))
}

/// The date of a record named as the game names them
/// (`20260101-120000-…`), as PGN writes dates: `2026.01.01`.
fn record_date(file: &Path) -> Option<String> {
    let name = file.file_name()?.to_str()?;
    let digits = name.get(..8)?;
    (digits.bytes().all(|b| b.is_ascii_digit()) && name.as_bytes().get(8) == Some(&b'-'))
        .then(|| format!("{}.{}.{}", &digits[..4], &digits[4..6], &digits[6..]))
}

/// `mancala stats [--json] [--analysis]`: the history of every pair of
/// players under each set of rules; with `--analysis`, each player's mean
/// loss per move over their recorded rounds ([`Reviews`]).
///
/// # Errors
/// When no data directory is known or the statistics cannot be read.
pub fn stats(cmd: &StatsCmd) -> anyhow::Result<ExitCode> {
    let Some(root) = data_dir() else {
        return super::usage("no data directory: set MANCALA_DATA_DIR or HOME");
    };
    let path = SaveStore::stats_path_in(&root);
    let mut reviews = cmd
        .analysis
        .then(|| Reviews::open(&root, Duration::from_millis(cmd.think)));
    let progress = std::io::stderr().is_terminal();
    let mut review = reviews.as_mut().map(|reviews| {
        move |round: &stats::RoundResult| {
            let done = reviews.counts();
            let number = done.analysed + done.cached + done.left_out + 1;
            reviews.review(round, |position, of| {
                if progress {
                    super::progress(format_args!(
                        "Analysing round {number}: position {position} of {of}"
                    ));
                }
            })
        }
    });
    let history = stats::read_reviewed(
        &path,
        review
            .as_mut()
            .map(|r| r as &mut dyn FnMut(&stats::RoundResult) -> _),
    )
    .map_err(|e| anyhow::anyhow!("cannot read the statistics {}: {e}", path.display()))?;
    if let Some(reviews) = &reviews {
        if progress {
            super::progress(format_args!(""));
        }
        let analysed = crate::game::plural(reviews.counts().analysed, "recorded round");
        match reviews.cache_problem() {
            // Not kept: say so, never that they were.
            Some(problem) => {
                if reviews.counts().analysed > 0 {
                    crate::console::warn(format_args!("mancala: analysed {analysed}"));
                }
                crate::console::warn(format_args!("mancala: {problem}"));
            }
            None if reviews.counts().analysed > 0 => {
                crate::console::warn(format_args!(
                    "mancala: analysed {analysed}, kept in {} for next time",
                    root.join(reviews::CACHE_FILE).display()
                ));
            }
            None => {}
        }
    }
    if history.skipped_lines > 0 {
        crate::console::warn(format_args!(
            "mancala: {} in {} left out",
            crate::game::plural(history.skipped_lines, "damaged line"),
            path.display()
        ));
    }
    if cmd.json {
        super::output::emit_line(history.to_json())?;
    } else {
        super::output::emit(&history.to_text())?;
    }
    Ok(ExitCode::SUCCESS)
}
