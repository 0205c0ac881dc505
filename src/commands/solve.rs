//! `mancala solve`: a position's value under perfect play, as JSON.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde_json::json;

use crate::players::solver::solve_once;
use crate::rules::Board;

/// The JSON report of solving `board`:
/// `{"value":V,"best":["c"],"nodes":N,"seconds":S}`.
///
/// `value` is the final score of the side to move minus its opponent's with
/// perfect play by both; `best` lists every move reaching it, by letter in
/// pit order (empty for a finished game, whose value is its final score).
#[must_use]
pub fn solve_json(board: &Board) -> serde_json::Value {
    let (solution, seconds) =
        solve_once(board, Arc::new(AtomicBool::new(false))).expect("nothing stops this search");
    let rules = board.rules();
    let best: Vec<String> = solution
        .best
        .iter()
        .filter_map(|&p| rules.letter(p).map(String::from))
        .collect();
    json!({
        "value": solution.value,
        "best": best,
        "nodes": solution.nodes,
        "seconds": (seconds * 1000.0).round() / 1000.0,
    })
}
