//! `mancala position`: a position as one JSON object.

use serde_json::json;

use crate::rules::{Board, Outcome, Side};

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
