//! What each command does: the glue between the command line and the
//! front ends, players and headless reports.

pub mod arena;
mod history;
mod net;
pub mod output;
mod play;
mod position;
mod solitaire;
mod solve;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command, PositionCmd};
use crate::rules::Board;

pub use history::read_record;
pub use play::settings;
pub use position::position_json;
pub use solitaire::{MAX_DEAL_SEEDS, parse_seed_count, plan_json, solitaire_board};
pub use solve::solve_json;

/// A mistake in what the user asked for (exit code 2), as opposed to a
/// failure while doing it (exit code 1).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for returning a [`UsageError`].
pub fn usage<T>(message: impl Into<String>) -> anyhow::Result<T> {
    Err(UsageError(message.into()).into())
}

/// Parses the command line and runs the command; the whole program.
#[must_use]
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, as promised, naming what is missing or wrong.
            eprintln!("{} (see mancala --help)", crate::cli::error_line(&e));
            return ExitCode::from(2);
        }
    };
    let result = run(cli);
    // A full-screen screen left because of a signal: exit as the signal
    // would have (128 + its number), whatever the screen returned.
    if let Some(status) = crate::tui::terminal::signal_exit_status() {
        return ExitCode::from(status);
    }
    match result {
        Ok(code) => code,
        Err(e) if e.is::<output::OutputError>() => e
            .downcast_ref::<output::OutputError>()
            .map_or(ExitCode::FAILURE, output::OutputError::exit),
        Err(e) => {
            eprintln!("mancala: {e:#}");
            if e.is::<UsageError>() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// A [`UsageError`] for bad input, anything else for a failure.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Position(cmd)) => {
            let board = board_from(&cmd)?;
            output::emit_line(position_json(&board))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Solve(cmd)) => {
            let board = board_from(&cmd.position)?;
            output::emit_line(solve_json(&board, &solve::options(&cmd))?)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Arena(cmd)) => {
            arena::run(&cmd)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Solitaire(cmd)) => solitaire::run(&cmd),
        Some(Command::Replay(cmd)) => history::replay(&cmd),
        Some(Command::Stats(cmd)) => history::stats(&cmd),
        Some(Command::Host(cmd)) => net::host(&cmd),
        Some(Command::Join(cmd)) => net::join(&cmd),
        None => play::run(&cli.play),
    }
}

/// The position a [`PositionCmd`] describes: its rules, its board (or the
/// start), its side to move, and its moves played in order.
///
/// # Errors
/// A [`UsageError`] naming the bad item: a count, a letter, or a move the
/// rules refuse (with its position in the list and the reason).
pub fn board_from(cmd: &PositionCmd) -> anyhow::Result<Board> {
    let rules = cmd.rules.rules().map_err(UsageError)?;
    let mut board = match &cmd.board {
        Some(text) => {
            let counts = crate::cli::parse_counts::<u16>(text, "--board")
                .map_err(|e| UsageError(e.to_string()))?;
            Board::from_counts(rules, &counts, cmd.to_move)
                .map_err(|e| UsageError(e.to_string()))?
        }
        None => Board::starting(rules, cmd.to_move),
    };
    if let Some(text) = &cmd.moves {
        let moves = rules.parse_moves(text).map_err(UsageError)?;
        for (i, pit) in moves.into_iter().enumerate() {
            let mover = board.to_move();
            board.play(pit).map_err(|e| {
                UsageError(format!(
                    "move {} ('{}', {mover} to move): {e}",
                    i + 1,
                    rules.letter(pit).unwrap_or('?')
                ))
            })?;
        }
    }
    Ok(board)
}
