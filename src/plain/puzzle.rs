//! `mancala puzzle --plain`: puzzles line by line. Each puzzle shows its
//! board and asks for a move; the answer is judged (best or not, the best
//! moves, what every other move loses), the best line is played out with
//! each sowing, and the streak and rating are said. `q` (or the end of
//! the input) stops; the progress is kept after every answer. From a
//! pipe or a script (input not a terminal) each answer read is echoed
//! after its prompt, as in the plain game, so that a transcript reads
//! like a session.

use std::io::{BufRead, Write};

use super::board;
use crate::analysis::puzzles::{origin_words, task_words, verdict_words};
use crate::rules::{Board, Step};
use crate::store::puzzles::{Dealt, Trainer};

/// Moves of the best line played out after an answer.
pub const BEST_LINE_PLIES: usize = 4;

/// The names the board shows: a puzzle is about the sides.
const NAMES: [&str; 2] = ["South", "North"];

/// How a session of puzzles is shown.
#[derive(Clone, Copy, Debug, Default)]
pub struct PuzzleShow {
    /// Each sowing of the best line is shown.
    pub animate: bool,
    /// Each answer read is printed after its prompt (input not a
    /// terminal).
    pub echo: bool,
}

/// Plays puzzles from `trainer` with `input` and `out` until the player
/// stops, the input ends or none are left.
///
/// # Errors
/// When the output fails.
pub fn run(
    trainer: &mut Trainer,
    input: &mut impl BufRead,
    out: &mut impl Write,
    shown: PuzzleShow,
) -> anyhow::Result<()> {
    let mut number = 0;
    loop {
        let Some(dealt) = trainer.deal() else {
            writeln!(
                out,
                "No puzzle left to set. Your own rounds give more: play, then come back."
            )?;
            break;
        };
        number += 1;
        let pit = match ask(trainer, &dealt, number, input, out, shown.echo)? {
            PuzzleAnswer::Move(pit) => pit,
            PuzzleAnswer::Stop => {
                writeln!(
                    out,
                    "Stopped. Your puzzle rating: {:.0}.",
                    trainer.progress().rating
                )?;
                break;
            }
            PuzzleAnswer::EndOfInput => {
                writeln!(
                    out,
                    "End of input. Your puzzle rating: {:.0}.",
                    trainer.progress().rating
                )?;
                break;
            }
        };
        for line in verdict_words(&dealt.puzzle, pit) {
            writeln!(out, "{line}")?;
        }
        let (answered, problem) = trainer.answer(&dealt, pit);
        show_best_line(trainer, &dealt, shown.animate, out)?;
        writeln!(out, "{answered}")?;
        if let Some(problem) = problem {
            writeln!(out, "Note: {problem}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// What the player answered a puzzle.
enum PuzzleAnswer {
    /// A legal move.
    Move(crate::rules::Pit),
    /// `q`.
    Stop,
    /// The input ended.
    EndOfInput,
}

/// Sets the puzzle and reads moves until one is legal (each line echoed
/// after its prompt with `echo`), or the player stops.
fn ask(
    trainer: &Trainer,
    dealt: &Dealt,
    number: usize,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> anyhow::Result<PuzzleAnswer> {
    let puzzle = &dealt.puzzle;
    let progress = trainer.progress();
    writeln!(
        out,
        "Puzzle {number} (rated {:.0}) · your rating {:.0} · streak {}",
        puzzle.rating(),
        progress.rating,
        progress.streak
    )?;
    writeln!(out, "{}", origin_words(puzzle))?;
    if dealt.review.is_some() {
        writeln!(out, "You missed this one before: here it is again.")?;
    }
    writeln!(out, "Rules: {}.", puzzle.board.rules())?;
    write!(out, "{}", board::render(&puzzle.board, NAMES))?;
    let rules = puzzle.board.rules();
    let mover = puzzle.board.to_move();
    loop {
        write!(out, "{} Your move (q stops): ", task_words(puzzle))?;
        out.flush()?;
        let Some(line) = super::lines::read_line(input) else {
            writeln!(out)?;
            return Ok(PuzzleAnswer::EndOfInput);
        };
        if echo {
            writeln!(out, "{}", crate::game::names::shown(&line))?;
        }
        let text = line.trim();
        if text.eq_ignore_ascii_case("q") || text.eq_ignore_ascii_case("quit") {
            return Ok(PuzzleAnswer::Stop);
        }
        match rules.parse_pit(text, mover) {
            Some(pit) if puzzle.board.check(pit).is_ok() => return Ok(PuzzleAnswer::Move(pit)),
            Some(pit) => {
                let why = puzzle.board.check(pit).err().map(|e| e.to_string());
                writeln!(out, "{}", why.unwrap_or_default())?;
            }
            None => writeln!(
                out,
                "'{}' is not one of {mover}'s pits ({}).",
                crate::game::names::shown(text),
                rules.letter_range(mover)
            )?,
        }
    }
}

/// Plays out the best line from the puzzle's position, each move with its
/// sowing and the board after it.
fn show_best_line(
    trainer: &mut Trainer,
    dealt: &Dealt,
    animate: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let line = trainer.best_line(&dealt.puzzle, BEST_LINE_PLIES);
    if line.is_empty() {
        return Ok(());
    }
    let mut board: Board = dealt.puzzle.board;
    let rules = *board.rules();
    writeln!(out, "The best line:")?;
    for pit in line {
        let mover = board.to_move();
        let mut steps: Vec<Step> = Vec::new();
        if board.play_traced(pit, &mut steps).is_err() {
            break;
        }
        let letter = rules.letter(pit).unwrap_or('?');
        match board::sowing_line(&rules, &steps).filter(|_| animate) {
            Some(sowing) => writeln!(out, "{mover} plays {letter}: {sowing}")?,
            None => writeln!(out, "{mover} plays {letter}.")?,
        }
    }
    write!(out, "{}", board::render(&board, NAMES))?;
    Ok(())
}
