//! What each command does: the glue between the command line and the
//! front ends, players and headless reports.

mod analyze;
pub mod arena;
mod engine;
mod history;
mod levels;
mod net;
pub mod output;
mod play;
mod position;
mod puzzle;
mod solitaire;
mod solve;

use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command, CompletionShell, PositionCmd, PositionFormat};
use crate::console;
use crate::rules::{Board, Position};

use position::Start;

pub use position::{oware_json, position_json};
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

/// Shows `line` as the progress line on standard error, over the one
/// before (the rest of the terminal's line cleared; an empty `line`
/// clears it); a failure is ignored.
fn progress(line: std::fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r{line}\x1b[K").and_then(|()| err.flush());
}

/// Parses the command line and runs the command; the whole program.
#[must_use]
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: written like any report, so that a
            // full disk is a failure and a closed pipe is not.
            return match output::emit(&help_text(&e)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(failure) => failure.exit(),
            };
        }
        Err(e) => {
            // One line, as promised, naming what is missing or wrong.
            console::warn(format_args!(
                "{}",
                crate::cli::usage_line(&crate::cli::error_line(&e), &args)
            ));
            return ExitCode::from(2);
        }
    };
    if let Some(message) = crate::cli::mistyped_command(&cli, &args) {
        console::warn(format_args!("{}", crate::cli::usage_line(&message, &args)));
        return ExitCode::from(2);
    }
    // Oware's endgame database is kept in the data directory and grown
    // on spare time from the first Oware game on.
    crate::store::oware_endgame::register();
    if let Some(n) = cli.oware_db() {
        crate::store::oware_endgame::set_grow_to(usize::from(n));
    }
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
            console::warn(format_args!("mancala: {e:#}"));
            if e.is::<UsageError>() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// The text of `--help` or `--version`, coloured as clap colours it when
/// standard output is a terminal.
fn help_text(shown: &clap::Error) -> String {
    let styled = shown.render();
    if std::io::stdout().is_terminal() {
        styled.ansi().to_string()
    } else {
        styled.to_string()
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// A [`UsageError`] for bad input, anything else for a failure.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Position(cmd)) => {
            match position::start(cmd.position.game, cmd.position.from.as_deref())? {
                Start::Oware(from) => {
                    let each = cmd.position.each;
                    let round = position::oware_from(&cmd.position, from, &mut |board| {
                        if each {
                            output::emit_line(position::oware_json_with_moves(board))?;
                        }
                        Ok(())
                    })?;
                    // --each printed every position already, as JSON
                    match cmd.format {
                        _ if each => {}
                        PositionFormat::Line => {
                            output::emit_line(Position::from(*round.board()))?;
                        }
                        PositionFormat::Json => output::emit_line(oware_json(round.board()))?,
                    }
                }
                Start::Kalah(from) => {
                    let board = board_from(&cmd.position, from)?;
                    if cmd.format == PositionFormat::Line {
                        output::emit_line(Position::from(board))?;
                    } else {
                        output::emit_line(position_json(&board))?;
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Solve(cmd)) => {
            match position::start(cmd.position.game, cmd.position.from.as_deref())? {
                Start::Oware(from) => {
                    let round = position::oware_from(&cmd.position, from, &mut |_| Ok(()))?;
                    output::emit_line(solve::oware_solve_json(round.board(), &cmd)?)?;
                }
                Start::Kalah(from) => {
                    let board = board_from(&cmd.position, from)?;
                    output::emit_line(solve_json(&board, &solve::options(&cmd))?)?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Arena(cmd)) => {
            arena::run(&cmd)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Levels(cmd)) => {
            levels::run(&cmd)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Solitaire(cmd)) => solitaire::run(&cmd),
        Some(Command::Replay(cmd)) => history::replay(&cmd),
        Some(Command::Analyze(cmd)) => analyze::run(&cmd),
        Some(Command::Puzzle(cmd)) => puzzle::run(&cmd),
        Some(Command::Stats(cmd)) => history::stats(&cmd),
        Some(Command::Completions(cmd)) => {
            output::emit(&completions(cmd.shell))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Engine(cmd)) => engine::run(&cmd),
        Some(Command::Host(cmd)) => net::host(&cmd),
        Some(Command::Join(cmd)) => net::join(&cmd),
        None => play::run(&cli.play),
    }
}

/// The completion script of `mancala` for `shell`, generated by
/// `clap_complete` from the one command-line definition ([`Cli`]).
#[must_use]
pub fn completions(shell: CompletionShell) -> String {
    use clap::CommandFactory;
    let shell = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "mancala", &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// How long `--fair` may look for a fair start.
const FAIR_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// The position a [`PositionCmd`] describes: its rules, its board (`from`,
/// the `--from` board read already, or the start), its side to move, and
/// its moves played in order.
///
/// # Errors
/// A [`UsageError`] naming the bad item: a count, a letter, or a move the
/// rules refuse (with its position in the list and the reason).
pub fn board_from(cmd: &PositionCmd, from: Option<Board>) -> anyhow::Result<Board> {
    if cmd.score.is_some() {
        return usage("--score is an Oware option (--game oware): Kalah's stores are in --board");
    }
    let rules = match &from {
        Some(board) => *board.rules(),
        None => cmd.rules.rules().map_err(UsageError)?,
    };
    let mut board = match (from, &cmd.board) {
        (Some(board), _) => board,
        (None, None) if cmd.fair => crate::players::fair::deal(rules, cmd.seed, FAIR_BUDGET)
            .map_err(|e| UsageError(e.to_string()))?,
        (None, Some(text)) => {
            let counts = crate::cli::parse_counts::<u16>(text, "--board")
                .map_err(|e| UsageError(e.to_string()))?;
            Board::from_counts(rules, &counts, cmd.to_move)
                .map_err(|e| UsageError(e.to_string()))?
        }
        (None, None) => Board::starting(rules, cmd.to_move),
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
