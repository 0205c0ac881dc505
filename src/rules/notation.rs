//! The one-line position notation (RULES.md §8): a position a person can
//! read, type, paste into a message and play on from.
//!
//! ```text
//! kalah 6x4 capture=always sowing=single sweep=owner S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south
//! ```
//!
//! The game, the board size (pits per side × seeds per pit at the start),
//! the rule options, South's houses from South's left and its store,
//! North's houses from North's left and its store, and who moves. On
//! reading, the rule options may be left out (Kalah's are meant) or given
//! in any order, and the words are case-blind.
//!
//! ```
//! use mancala_engine::rules::{Board, Position, Rules};
//! let start: Position = "kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south".parse().unwrap();
//! assert_eq!(start.board(), &Board::new(Rules::KALAH));
//! assert_eq!(start.to_string().parse::<Position>().unwrap(), start);
//! ```

use std::fmt;
use std::str::FromStr;

use super::{Board, Capture, Rules, Side, Sowing, Sweep};

/// The one game family this notation names today.
const GAME: &str = "kalah";

/// A position in the one-line notation: [`Display`](fmt::Display) writes
/// it, [`FromStr`] reads it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    board: Board,
}

impl Position {
    /// The position of `board`.
    #[must_use]
    pub const fn new(board: Board) -> Position {
        Position { board }
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }
}

impl From<Board> for Position {
    fn from(board: Board) -> Position {
        Position::new(board)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.board.rules();
        write!(
            f,
            "{GAME} {}x{} capture={} sowing={} sweep={}",
            rules.pits(),
            rules.seeds(),
            rules.capture(),
            rules.sowing(),
            rules.sweep()
        )?;
        for (side, letter) in [(Side::South, 'S'), (Side::North, 'N')] {
            let houses: Vec<String> = rules
                .pits_of(side)
                .map(|pit| self.board.seeds(pit).to_string())
                .collect();
            write!(
                f,
                " {letter}:{}:{}",
                houses.join(","),
                self.board.seeds(rules.store(side))
            )?;
        }
        write!(f, " {}", self.board.to_move().as_str())
    }
}

/// Why a text is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError(pub String);

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (a position reads like \"kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south\")",
            self.0
        )
    }
}

impl std::error::Error for ParsePositionError {}

fn fail<T>(why: impl Into<String>) -> Result<T, ParsePositionError> {
    Err(ParsePositionError(why.into()))
}

/// A side's houses and store: `S:4,4,4,4,4,4:0` (the letter read already).
fn side_counts(text: &str, pits: usize) -> Result<(Vec<u16>, u16), ParsePositionError> {
    let Some((houses, store)) = text.rsplit_once(':') else {
        return fail(format!("'{text}' lacks the store after a ':'"));
    };
    let count = |t: &str| {
        t.trim()
            .parse::<u16>()
            .map_err(|_| ParsePositionError(format!("'{t}' is not a count of seeds")))
    };
    let houses = houses
        .split(',')
        .map(count)
        .collect::<Result<Vec<u16>, _>>()?;
    if houses.len() != pits {
        return fail(format!(
            "{} houses given where the board has {pits} a side",
            houses.len()
        ));
    }
    Ok((houses, count(store)?))
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        // bounded: the longest position is a few hundred characters
        if text.len() > 1000 {
            return fail("the text is too long for a position");
        }
        let mut words = text.split_whitespace();
        match words.next() {
            Some(game) if game.eq_ignore_ascii_case(GAME) => {}
            Some(game) => return fail(format!("'{game}' is not a game this knows ({GAME})")),
            None => return fail("the position is empty"),
        }
        let Some(size) = words.next() else {
            return fail("the board size (such as 6x4) is missing");
        };
        let Some((pits, seeds)) = size
            .to_ascii_lowercase()
            .split_once('x')
            .and_then(|(p, s)| Some((p.parse::<usize>().ok()?, s.parse::<usize>().ok()?)))
        else {
            return fail(format!("'{size}' is not a board size such as 6x4"));
        };
        let mut rules = Rules::new(pits, seeds).map_err(|e| ParsePositionError(e.to_string()))?;
        let (mut south, mut north, mut to_move) = (None, None, None);
        for word in words {
            let lower = word.to_ascii_lowercase();
            if let Some((key, value)) = lower.split_once('=') {
                rules = match key {
                    "capture" => {
                        rules.with_capture(value.parse::<Capture>().map_err(ParsePositionError)?)
                    }
                    "sowing" => {
                        rules.with_sowing(value.parse::<Sowing>().map_err(ParsePositionError)?)
                    }
                    "sweep" => {
                        rules.with_sweep(value.parse::<Sweep>().map_err(ParsePositionError)?)
                    }
                    _ => return fail(format!("'{key}' is not a rule (capture, sowing, sweep)")),
                };
            } else if let Some(rest) = lower.strip_prefix("s:") {
                south = Some(side_counts(rest, pits)?);
            } else if let Some(rest) = lower.strip_prefix("n:") {
                north = Some(side_counts(rest, pits)?);
            } else if let Ok(side) = lower.parse::<Side>() {
                if to_move.replace(side).is_some() {
                    return fail("who moves is said twice");
                }
            } else {
                return fail(format!("'{word}' is not part of a position"));
            }
        }
        let (Some(south), Some(north)) = (south, north) else {
            return fail("both sides are needed: S:houses:store and N:houses:store");
        };
        let Some(to_move) = to_move else {
            return fail("who moves (south or north) is missing");
        };
        let mut counts = south.0;
        counts.push(south.1);
        counts.extend(north.0);
        counts.push(north.1);
        let board = Board::from_counts(rules, &counts, to_move)
            .map_err(|e| ParsePositionError(e.to_string()))?;
        Ok(Position { board })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_reads_and_writes_in_full() {
        let start = Position::new(Board::new(Rules::KALAH));
        assert_eq!(
            start.to_string(),
            "kalah 6x4 capture=always sowing=single sweep=owner S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south"
        );
        let typed: Position = "KALAH 6x4 N:4,4,4,4,4,4:0 S:4,4,4,4,4,4:0 South"
            .parse()
            .unwrap();
        assert_eq!(typed, start);
    }

    #[test]
    fn bad_text_is_refused_with_the_reason() {
        for (text, needle) in [
            ("", "empty"),
            ("oware 6x4", "not a game"),
            ("kalah 6by4", "board size"),
            ("kalah 13x4 S:1:0 N:1:0 south", "13 pits"),
            ("kalah 2x1 S:1,1:0 N:1,1:0", "who moves"),
            ("kalah 2x1 S:1,1:0 south", "both sides"),
            ("kalah 2x1 S:1,1,1:0 N:1,1:0 south", "3 houses"),
            ("kalah 2x1 S:1,x:0 N:1,1:0 south", "'x'"),
            ("kalah 2x1 S:1,1 N:1,1:0 south", "store"),
            (
                "kalah 2x1 capture=sometimes S:1,1:0 N:1,1:0 south",
                "sometimes",
            ),
            ("kalah 2x1 speed=1 S:1,1:0 N:1,1:0 south", "not a rule"),
            ("kalah 2x1 S:1,1:0 N:1,1:0 south north", "twice"),
            ("kalah 2x1 S:1,1:0 N:1,1:0 east", "'east'"),
        ] {
            let err = text.parse::<Position>().unwrap_err();
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }
}
