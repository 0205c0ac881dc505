//! `mancala replay FILE` as plain text: every position of a recorded round.

use std::io::{self, Write};

use super::board;
use crate::game::{describe_move, outcome_message};
use crate::store::Record;

/// Prints the round of `record` move by move: each move, (with `animate`)
/// its sowing line, the board after it and the messages of RULES.md §3; then the
/// result.
///
/// # Errors
/// When the record's moves are refused by the rules (a record that passed
/// [`Record::parse`] never is), or the output fails.
pub fn print(record: &Record, animate: bool, out: &mut impl Write) -> anyhow::Result<()> {
    let mut stepper = record.stepper()?;
    let names = record.names();
    let rules = record.rules();
    let [s, n] = record.seats();
    writeln!(
        out,
        "Replay of round {}: {} (South, {}) against {} (North, {}).",
        record.round, s.name, s.kind, n.name, n.kind
    )?;
    writeln!(out, "Rules: {}.", record.config.rules_text())?;
    let piles = super::pile_caption(&record.config);
    writeln!(out, "{} moves first.", names[record.starter.index()])?;
    if record.config.start.is_some() {
        writeln!(
            out,
            "From the position {}",
            crate::rules::Position::new(record.start_round().position())
        )?;
    }
    writeln!(out)?;
    write!(
        out,
        "{}",
        board::render_piles(stepper.board(), names, piles)
    )?;
    let total = stepper.len();
    loop {
        let steps = stepper.next_steps();
        if !stepper.forward() {
            break;
        }
        let Some(played) = stepper.last_played().copied() else {
            break;
        };
        writeln!(out)?;
        writeln!(
            out,
            "Move {} of {total}: {} plays {}.",
            stepper.index(),
            names[played.mover().index()],
            rules.letter(played.pit()).unwrap_or('?')
        )?;
        if animate && let Some(line) = board::sowing_line(rules, &steps) {
            writeln!(out, "{} {line}", names[played.mover().index()])?;
        }
        write!(
            out,
            "{}",
            board::render_piles(stepper.board(), names, piles)
        )?;
        for line in describe_move(rules, &played, &steps, names) {
            writeln!(out, "{line}")?;
        }
    }
    let last = stepper.last_position();
    match last.outcome() {
        Some(outcome) => writeln!(out, "{}", outcome_message(outcome, last.score(), names))?,
        None => writeln!(
            out,
            "The record ends here, with the round unfinished ({} to move).",
            names[last.to_move().index()]
        )?,
    }
    out.flush().map_err(|e: io::Error| e.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_is_shown_with_its_board() {
        let text = "mancala record 1\npits: 4\nseeds: 2\ncapture: always\nsowing: single\nsweep: owner\nsouth: A\nnorth: B\nstarter: south\nmoves: c,a\n";
        let record = Record::parse(text).unwrap();
        let mut out = Vec::new();
        print(&record, true, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("Move 1 of 2: A plays c.\nA sows c: d store\n"),
            "{out}"
        );
        assert!(out.contains("A gets an extra turn!"), "{out}");
        assert!(out.contains("Move 2 of 2: A plays a."), "{out}");
        assert!(out.contains("round unfinished (B to move)"), "{out}");
        assert_eq!(out.matches("╔").count(), 3, "{out}");
    }
}
