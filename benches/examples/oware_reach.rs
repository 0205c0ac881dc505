//! How much of a real round of Oware an endgame database of `N` seeds
//! covers: plays rounds between two searching players (the engine's
//! search, `NODES` positions a move, from openings of 4 random plies) and
//! prints, for N = 12, 18 and 24, how many rounds ever reach a position
//! with at most N seeds on the board before they end, the median ply at
//! which they do, and the share of all the rounds' positions with at most
//! N seeds: `cargo run --profile fast -p mancala-benches --example oware_reach -- [ROUNDS]
//! [NODES]` (40 and 50,000 by default; figures in docs/PERFORMANCE.md).

use std::sync::Arc;

use mancala::players::Limits;
use mancala::players::oware::{OwareEndgame, OwarePlayer};
use mancala::rng::Rng;
use mancala::rules::Side;
use mancala::rules::oware::{OwareBoard, OwareRound};

/// The database sizes asked about.
const COUNTS: [u16; 3] = [12, 18, 24];

fn median(mut values: Vec<usize>) -> Option<usize> {
    values.sort_unstable();
    values.get(values.len() / 2).copied()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50_000);
    // The database the players probe is small on purpose: what is counted
    // is where the rounds go, not what a bigger database would change.
    let endgame = Arc::new(OwareEndgame::build(6));
    let mut positions = 0usize;
    let mut inside = [0usize; COUNTS.len()];
    let mut first: [Vec<usize>; COUNTS.len()] = Default::default();
    let mut on_board_at_end = Vec::new();
    let mut lengths = Vec::new();
    for round in 0..rounds {
        let mut rng = Rng::new(round + 1);
        let mut players = [0, 1].map(|_| OwarePlayer::searching(64, Arc::clone(&endgame)));
        let mut round_played = OwareRound::new(OwareBoard::new());
        let mut ply = 0;
        let mut reached = [None; COUNTS.len()];
        while !round_played.board().is_over() {
            let board = *round_played.board();
            let on_board = board.seeds_in_houses(Side::South) + board.seeds_in_houses(Side::North);
            positions += 1;
            for (i, &n) in COUNTS.iter().enumerate() {
                if on_board <= n {
                    inside[i] += 1;
                    reached[i].get_or_insert(ply);
                }
            }
            let pit = if ply < 4 {
                let moves = board.legal_moves();
                moves.clone().nth(rng.below(moves.count())).expect("a move")
            } else {
                let player = &mut players[board.to_move().index()];
                player
                    .choose(&board, &Limits::nodes(nodes))
                    .expect("a move")
            };
            round_played.play(pit).expect("a legal move");
            ply += 1;
        }
        let board = round_played.board();
        on_board_at_end.push(usize::from(
            board.seeds_in_houses(Side::South) + board.seeds_in_houses(Side::North),
        ));
        lengths.push(ply);
        for (i, at) in reached.iter().enumerate() {
            if let Some(at) = at {
                first[i].push(*at);
            }
        }
    }
    println!(
        "{rounds} rounds, {nodes} positions a move: median length {} plies, median seeds left on the board at the end {}",
        median(lengths).unwrap_or(0),
        median(on_board_at_end).unwrap_or(0)
    );
    for (i, n) in COUNTS.iter().enumerate() {
        println!(
            "N = {n}: {} of {rounds} rounds reach it (median at ply {}), {:.1}% of all positions",
            first[i].len(),
            median(first[i].clone()).map_or("-".to_string(), |p| p.to_string()),
            100.0 * inside[i] as f64 / positions as f64
        );
    }
}
