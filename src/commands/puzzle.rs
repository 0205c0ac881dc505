//! `mancala puzzle`: positions to find the best move in, from the
//! player's own recorded rounds and built in; listed as JSON, or played
//! full screen or line by line.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use super::UsageError;
use crate::cli::PuzzleCmd;
use crate::store::data_dir;
use crate::store::puzzles::Trainer;

/// Runs `mancala puzzle`.
///
/// # Errors
/// A [`UsageError`] for rules that do not make a board; output failures.
pub fn run(cmd: &PuzzleCmd) -> anyhow::Result<ExitCode> {
    let rules = cmd.rules.rules().map_err(UsageError)?;
    let r = &cmd.rules;
    let given = r.variant.is_some()
        || r.pits.is_some()
        || r.seeds.is_some()
        || r.capture.is_some()
        || r.sowing.is_some()
        || r.sweep.is_some();
    let root = data_dir();
    if cmd.mine && root.is_none() {
        return super::usage("--mine needs a data directory: set MANCALA_DATA_DIR or HOME");
    }
    let (mut trainer, problem) = Trainer::open(
        root.as_deref(),
        rules,
        given.then_some(rules),
        cmd.mine,
        cmd.seed,
    );
    if let Some(problem) = problem {
        crate::console::warn(format_args!("mancala: {problem}"));
    }
    let progress = std::io::stderr().is_terminal();
    let (_, problem) = trainer.scan(|i, of| {
        if progress {
            super::progress(format_args!(
                "Looking for puzzles in your rounds: {i} of {of}"
            ));
        }
    });
    if progress {
        super::progress(format_args!(""));
    }
    if let Some(problem) = problem {
        crate::console::warn(format_args!("mancala: {problem}"));
    }
    if cmd.json {
        let count = cmd.count as usize;
        let mut puzzles = trainer.mine();
        puzzles.truncate(count);
        if !cmd.mine && puzzles.len() < count {
            let more = trainer.builtins(count - puzzles.len());
            puzzles.extend(more);
        }
        for puzzle in puzzles {
            super::output::emit_line(puzzle.to_json())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if terminal && !cmd.plain {
        crate::tui::puzzle::run(trainer, cmd.speed.given())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let shown = crate::plain::puzzle::PuzzleShow {
        animate: !cmd.speed.no_animation,
        echo: !std::io::stdin().is_terminal(),
    };
    let played = crate::plain::puzzle::run(&mut trainer, &mut input, &mut out, shown);
    crate::plain::quiet_when_unread(played.map(|()| ExitCode::SUCCESS))
}
