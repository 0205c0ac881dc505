//! The one-line position notation (RULES.md §8): a position a person can
//! read, type, paste into a message and play on from, in either game
//! family.
//!
//! ```text
//! kalah 6x4 capture=always sowing=single sweep=owner S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south
//! oware grandslam=nocapture S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south
//! ```
//!
//! The game; for Kalah the board size (pits per side × seeds per pit at
//! the start); the rule options; South's houses from South's left and its
//! store (Oware: its captured seeds), North's houses from North's left and
//! its store or captured seeds; and who moves. On reading, the rule
//! options may be left out (Kalah's, or Abapa's, are meant) or given in any
//! order, and the words are case-blind.
//!
//! ```
//! use mancala_engine::rules::{Board, Position, Rules};
//! use mancala_engine::rules::oware::OwareBoard;
//! let start: Position = "kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south".parse().unwrap();
//! assert_eq!(start.kalah(), Some(&Board::new(Rules::KALAH)));
//! assert_eq!(start.to_string().parse::<Position>().unwrap(), start);
//! let oware: Position = "oware S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south".parse().unwrap();
//! assert_eq!(oware.oware(), Some(&OwareBoard::new()));
//! ```

use std::fmt;
use std::str::FromStr;

use super::oware::{GrandSlam, HOUSES, OwareBoard, OwareRules};
use super::{Board, Capture, Game, GameBoard, Rules, Side, Sowing, Sweep};

/// A position in the one-line notation: [`Display`](fmt::Display) writes
/// it, [`FromStr`] reads it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    board: GameBoard,
}

impl Position {
    /// The position of `board`.
    #[must_use]
    pub const fn new(board: GameBoard) -> Position {
        Position { board }
    }

    /// The board, of either family.
    #[must_use]
    pub const fn board(&self) -> &GameBoard {
        &self.board
    }

    /// The game family the position is of.
    #[must_use]
    pub const fn game(&self) -> Game {
        self.board.game()
    }

    /// The Kalah board, when this is a position of Kalah.
    #[must_use]
    pub const fn kalah(&self) -> Option<&Board> {
        self.board.kalah()
    }

    /// The Oware board, when this is a position of Oware.
    #[must_use]
    pub const fn oware(&self) -> Option<&OwareBoard> {
        self.board.oware()
    }
}

impl From<GameBoard> for Position {
    fn from(board: GameBoard) -> Position {
        Position::new(board)
    }
}

impl From<Board> for Position {
    fn from(board: Board) -> Position {
        Position::new(GameBoard::Kalah(board))
    }
}

impl From<OwareBoard> for Position {
    fn from(board: OwareBoard) -> Position {
        Position::new(GameBoard::Oware(board))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.board {
            GameBoard::Kalah(board) => {
                let rules = board.rules();
                write!(
                    f,
                    "{} {}x{} capture={} sowing={} sweep={}",
                    Game::Kalah.as_str(),
                    rules.pits(),
                    rules.seeds(),
                    rules.capture(),
                    rules.sowing(),
                    rules.sweep()
                )?;
            }
            GameBoard::Oware(board) => write!(
                f,
                "{} grandslam={}",
                Game::Oware.as_str(),
                board.rules().grand_slam
            )?,
        }
        // Both families share the layout of RULES.md §2.1: each side's
        // houses, then its store or captured seeds.
        let layout = self.board.layout();
        let counts = self.board.counts();
        for (side, letter) in [(Side::South, 'S'), (Side::North, 'N')] {
            let houses: Vec<String> = layout
                .pits_of(side)
                .map(|pit| counts[pit.index()].to_string())
                .collect();
            let store = counts[layout.store(side).index()];
            write!(f, " {letter}:{}:{store}", houses.join(","))?;
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
            "{} (a position reads like \"kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south\" or \"oware S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south\")",
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

/// A board size such as `6x4`: pits per side and seeds per pit.
fn board_size(word: &str) -> Option<(usize, usize)> {
    let (pits, seeds) = word.split_once(['x', 'X'])?;
    Some((pits.parse().ok()?, seeds.parse().ok()?))
}

/// The words after the game and its size: rule options (each handed to
/// `rule` as a lower-case key and value), both sides' counts and who
/// moves. Returns every count in the layout of RULES.md §2.1 and the side
/// to move.
fn sides_and_mover<'a>(
    words: impl Iterator<Item = &'a str>,
    pits: usize,
    mut rule: impl FnMut(&str, &str) -> Result<(), ParsePositionError>,
) -> Result<(Vec<u16>, Side), ParsePositionError> {
    let (mut south, mut north, mut to_move) = (None, None, None);
    for word in words {
        let lower = word.to_ascii_lowercase();
        if let Some((key, value)) = lower.split_once('=') {
            rule(key, value)?;
        } else if let Some(rest) = lower.strip_prefix("s:") {
            if south.replace(side_counts(rest, pits)?).is_some() {
                return fail("South's houses are given twice");
            }
        } else if let Some(rest) = lower.strip_prefix("n:") {
            if north.replace(side_counts(rest, pits)?).is_some() {
                return fail("North's houses are given twice");
            }
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
    Ok((counts, to_move))
}

/// A Kalah position: its size, then its options, sides and mover.
fn kalah<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Board, ParsePositionError> {
    let Some(size) = words.next() else {
        return fail("the board size (such as 6x4) is missing");
    };
    let Some((pits, seeds)) = board_size(size) else {
        return fail(format!("'{size}' is not a board size such as 6x4"));
    };
    let mut rules = Rules::new(pits, seeds).map_err(|e| ParsePositionError(e.to_string()))?;
    let (counts, to_move) = sides_and_mover(words, pits, |key, value| {
        rules = match key {
            "capture" => rules.with_capture(value.parse::<Capture>().map_err(ParsePositionError)?),
            "sowing" => rules.with_sowing(value.parse::<Sowing>().map_err(ParsePositionError)?),
            "sweep" => rules.with_sweep(value.parse::<Sweep>().map_err(ParsePositionError)?),
            _ => {
                return fail(format!(
                    "'{key}' is not a rule of Kalah (capture, sowing, sweep)"
                ));
            }
        };
        Ok(())
    })?;
    Board::from_counts(rules, &counts, to_move).map_err(|e| ParsePositionError(e.to_string()))
}

/// An Oware position: a size of 6x4 may be given (the only one), then its
/// option, sides and mover.
fn oware<'a>(words: impl Iterator<Item = &'a str>) -> Result<OwareBoard, ParsePositionError> {
    let mut words = words.peekable();
    if let Some(size) = words.next_if(|word| board_size(word).is_some())
        && board_size(size) != Some((HOUSES, 4))
    {
        return fail(format!("Oware is played on 6x4, not {size}"));
    }
    let mut rules = OwareRules::ABAPA;
    let (counts, to_move) = sides_and_mover(words, HOUSES, |key, value| match key {
        "grandslam" => {
            rules.grand_slam = value.parse::<GrandSlam>().map_err(ParsePositionError)?;
            Ok(())
        }
        _ => fail(format!("'{key}' is not a rule of Oware (grandslam)")),
    })?;
    OwareBoard::from_counts(rules, &counts, to_move).map_err(|e| ParsePositionError(e.to_string()))
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        // bounded: the longest position is a few hundred characters
        if text.len() > 1000 {
            return fail("the text is too long for a position");
        }
        let mut words = text.split_whitespace();
        let Some(game) = words.next() else {
            return fail("the position is empty");
        };
        match game.parse::<Game>() {
            Ok(Game::Kalah) => kalah(words).map(Position::from),
            Ok(Game::Oware) => oware(words).map(Position::from),
            Err(_) => fail(format!(
                "'{game}' is not a game this knows ({}, {})",
                Game::Kalah.as_str(),
                Game::Oware.as_str()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_reads_and_writes_in_full() {
        let start = Position::from(Board::new(Rules::KALAH));
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
            ("awele 6x4", "not a game"),
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
            ("kalah 2x1 S:1,1:0 S:1,1:0 N:1,1:0 south", "twice"),
            (
                "kalah 2x1 grandslam=illegal S:1,1:0 N:1,1:0 south",
                "not a rule of Kalah",
            ),
            ("oware 6x4", "both sides"),
            (
                "oware 7x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south",
                "6x4, not 7x4",
            ),
            ("oware S:4,4,4,4,4:0 N:4,4,4,4,4,4:0 south", "5 houses"),
            ("oware S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0", "who moves"),
            (
                "oware capture=always S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south",
                "not a rule of Oware",
            ),
            (
                "oware grandslam=sometimes S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south",
                "grand-slam rule",
            ),
            (
                "oware S:200,4,4,4,4,4:0 N:4,4,4,4,4,4:50 south",
                "more than a board can hold (255)",
            ),
            ("oware S:4,4,4,4,4,4:99999 N:4,4,4,4,4,4:0 south", "'99999'"),
        ] {
            let err = text.parse::<Position>().unwrap_err();
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn an_oware_position_states_its_rule_houses_captures_and_mover() {
        let mut board = OwareBoard::new();
        board
            .play(Rules::KALAH.pit_by_letter('c').unwrap())
            .unwrap();
        let position = Position::from(board);
        assert_eq!(
            position.to_string(),
            "oware grandslam=nocapture S:4,4,0,5,5,5:0 N:5,4,4,4,4,4:0 north"
        );
        assert_eq!(position.to_string().parse::<Position>().unwrap(), position);
        // the rule may be left out (Abapa), the size given, the case any
        let typed: Position = "Oware 6X4 N:5,4,4,4,4,4:0 S:4,4,0,5,5,5:0 NORTH"
            .parse()
            .unwrap();
        assert_eq!(typed, position);
        // captured seeds, and the other grand-slam rules, read back
        let captured = "oware grandslam=illegal S:0,0,0,1,2,0:24 N:1,0,0,0,0,0:20 south";
        let read: Position = captured.parse().unwrap();
        let oware = read.oware().unwrap();
        assert_eq!(oware.captured().south, 24);
        assert_eq!(oware.rules().grand_slam, GrandSlam::Illegal);
        assert_eq!(read.to_string(), captured);
        assert_eq!(read.kalah(), None);
    }
}
