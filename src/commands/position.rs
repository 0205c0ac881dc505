//! `mancala position`: a position as one JSON object.

use serde_json::json;

use super::{UsageError, usage};
use crate::cli::PositionCmd;
use crate::rules::oware::{End, OwareBoard, OwareRound, OwareRules};
use crate::rules::{Board, Game, GameBoard, Outcome, Position, Rules, Score, Side};

/// The JSON object `mancala position` prints:
/// `{"pits":6,"seeds":4,"board":[...],"to_move":"south","over":false,"score":{"south":0,"north":0},"winner":null}`.
///
/// `winner` is `"south"`, `"north"`, `"draw"` or `null` while the game is on;
/// `score` counts stores (and, once the game is over, the sweep).
#[must_use]
pub fn position_json(board: &Board) -> serde_json::Value {
    let score = board.score();
    let winner = board.outcome().map(|o| match o {
        Outcome::Win(side) => side.as_str(),
        Outcome::Draw => "draw",
    });
    json!({
        "pits": board.rules().pits(),
        "seeds": board.rules().seeds(),
        "board": board.counts(),
        "to_move": board.to_move().as_str(),
        "over": board.is_over(),
        "score": { Side::South.as_str(): score.south, Side::North.as_str(): score.north },
        "winner": winner,
    })
}

/// The JSON object `mancala position --game oware` prints:
/// `{"game":"oware","board":[a..l],"score":{"south":N,"north":N},"to_move":"south","over":false,"winner":null,"end":null}`.
///
/// `score` counts captured seeds and, once the round is over, the seeds
/// each side took from its own houses (so that they add up to every
/// seed); `end` says why the round ended: `"goal"`, `"no_feed"` or
/// `"repetition"` (RULES.md §7.6).
#[must_use]
pub fn oware_json(board: &OwareBoard) -> serde_json::Value {
    let score = board.score();
    let winner = board.outcome().map(|o| match o {
        Outcome::Win(side) => side.as_str(),
        Outcome::Draw => "draw",
    });
    let end = board.end().map(|end| match end {
        End::Goal => "goal",
        End::NoFeed => "no_feed",
        End::Repetition => "repetition",
    });
    json!({
        "game": Game::Oware.as_str(),
        "board": board.houses(),
        "score": { Side::South.as_str(): score.south, Side::North.as_str(): score.north },
        "to_move": board.to_move().as_str(),
        "over": board.is_over(),
        "winner": winner,
        "end": end,
    })
}

/// [`oware_json`] with the legal moves as letters (`"legal":"abf"`): the
/// lines of the hidden `--each` option.
#[must_use]
pub fn oware_json_with_moves(board: &OwareBoard) -> serde_json::Value {
    let mut value = oware_json(board);
    let legal: String = board
        .legal_moves()
        .filter_map(|pit| Rules::KALAH.letter(pit))
        .collect();
    value["legal"] = legal.into();
    value
}

/// Refuses Kalah's rule options given with `--game oware`.
///
/// # Errors
/// A [`UsageError`] naming the first one given.
pub fn no_kalah_options(rules: &crate::cli::RuleArgs) -> anyhow::Result<()> {
    let kalah_only = [
        (rules.variant.is_some(), "--variant"),
        (rules.pits.is_some(), "--pits"),
        (rules.seeds.is_some(), "--seeds"),
        (rules.capture.is_some(), "--capture"),
        (rules.sowing.is_some(), "--sowing"),
        (rules.sweep.is_some(), "--sweep"),
    ];
    match kalah_only.iter().find(|(given, _)| *given) {
        Some((_, option)) => usage(format!(
            "{option} is a Kalah option; Oware has 6 houses of 4 seeds"
        )),
        None => Ok(()),
    }
}

/// What a command plays from: the game it is about, with the board its
/// `--from` position gives (read once, here).
#[derive(Clone, Copy, Debug)]
pub enum Start {
    /// Kalah, from the `--from` board or the command's own options.
    Kalah(Option<Board>),
    /// Oware, from the `--from` board or the command's own options.
    Oware(Option<OwareBoard>),
}

impl Start {
    /// The game it is about.
    #[must_use]
    pub const fn game(&self) -> Game {
        match self {
            Start::Kalah(_) => Game::Kalah,
            Start::Oware(_) => Game::Oware,
        }
    }

    /// The board `--from` gives, if it was given.
    #[must_use]
    pub fn board(&self) -> Option<GameBoard> {
        match *self {
            Start::Kalah(board) => board.map(GameBoard::Kalah),
            Start::Oware(board) => board.map(GameBoard::Oware),
        }
    }
}

/// What a command with `--game game` and `--from from` plays from: the
/// game its `--from` position states, else `--game`'s.
///
/// # Errors
/// A [`UsageError`] when `--from` is not a position, or is Kalah's where
/// `--game oware` was asked for.
pub fn start(game: Game, from: Option<&str>) -> anyhow::Result<Start> {
    let Some(text) = from else {
        return Ok(match game {
            Game::Kalah => Start::Kalah(None),
            Game::Oware => Start::Oware(None),
        });
    };
    let position = text
        .parse::<Position>()
        .map_err(|e| UsageError(format!("--from: {e}")))?;
    match *position.board() {
        GameBoard::Oware(board) => {
            abapa_only(&board)?;
            Ok(Start::Oware(Some(board)))
        }
        GameBoard::Kalah(_) if game == Game::Oware => usage(format!(
            "--from gives a position of {}: leave out --game oware (the position states its game)",
            Game::Kalah
        )),
        GameBoard::Kalah(board) => Ok(Start::Kalah(Some(board))),
    }
}

/// Refuses an Oware position played by other rules than Abapa's: the
/// command line, its players and the endgame database play Abapa
/// (RULES.md §7.4).
///
/// # Errors
/// A [`UsageError`] naming the position's grand-slam rule.
fn abapa_only(board: &OwareBoard) -> anyhow::Result<()> {
    if board.rules() == OwareRules::ABAPA {
        return Ok(());
    }
    usage(format!(
        "--from: grandslam={} is not played here; the command line plays Abapa (grandslam={})",
        board.rules().grand_slam,
        OwareRules::ABAPA.grand_slam
    ))
}

/// The Oware round a [`PositionCmd`] describes: its `--from` position, or
/// its houses (or the start), captured seeds and side to move; and its
/// moves played in order, with the
/// positions since the last capture (for repetition). `each` sees the
/// start and the position after every move.
///
/// # Errors
/// A [`UsageError`] naming the bad item: a count, a Kalah-only option, a
/// letter, or a move the rules refuse (with its place in the list and the
/// reason).
pub fn oware_from(
    cmd: &PositionCmd,
    from: Option<OwareBoard>,
    each: &mut dyn FnMut(&OwareBoard) -> anyhow::Result<()>,
) -> anyhow::Result<OwareRound> {
    no_kalah_options(&cmd.rules)?;
    let captured = match &cmd.score {
        Some(text) => match crate::cli::parse_counts::<u16>(text, "--score")
            .map_err(|e| UsageError(e.to_string()))?[..]
        {
            [south, north] => Score { south, north },
            ref other => {
                return usage(format!(
                    "--score needs 2 counts (South's, North's captured seeds), not {}",
                    other.len()
                ));
            }
        },
        None => Score::default(),
    };
    let board = match (from, &cmd.board) {
        (Some(board), _) => {
            if cmd.score.is_some() {
                return usage("--score: the --from position states the captured seeds");
            }
            board
        }
        (None, Some(text)) => {
            let houses = crate::cli::parse_counts::<u16>(text, "--board")
                .map_err(|e| UsageError(e.to_string()))?;
            OwareBoard::from_houses(OwareRules::ABAPA, &houses, captured, cmd.to_move)
                .map_err(|e| UsageError(format!("--board: {e}")))?
        }
        (None, None) if cmd.score.is_some() => {
            return usage("--score needs --board: the start has nothing captured");
        }
        (None, None) => OwareBoard::starting(OwareRules::ABAPA, cmd.to_move),
    };
    let mut round = OwareRound::new(board);
    each(round.board())?;
    if let Some(text) = &cmd.moves {
        let letters = Rules::KALAH;
        let moves = letters.parse_moves(text).map_err(UsageError)?;
        for (i, pit) in moves.into_iter().enumerate() {
            let mover = round.board().to_move();
            round.play(pit).map_err(|e| {
                UsageError(format!(
                    "move {} ('{}', {mover} to move): {}",
                    i + 1,
                    letters.letter(pit).unwrap_or('?'),
                    e.naming_in(Game::Oware, &mover.opponent().to_string())
                ))
            })?;
            each(round.board())?;
        }
    }
    Ok(round)
}
