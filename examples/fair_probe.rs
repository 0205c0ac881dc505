//! Probe: how long proving 6x4 fair-start candidates takes with a given
//! endgame database size (not kept).
use mancala::players::{Limits, Solver};
use mancala::rules::{Board, Capture, Rules, Side};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let db: u32 = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let capture = if args.get(3).map(String::as_str) == Some("nonempty") {
        Capture::NonEmpty
    } else {
        Capture::Always
    };
    let count: usize = args.get(4).map_or(5, |a| a.parse().unwrap());
    let rules = Rules::KALAH.with_capture(capture);
    let mut list = mancala::players::fair::candidates(rules);
    let mut rng = mancala::rng::Rng::new(seed);
    for i in (1..list.len()).rev() {
        let j = rng.below(i + 1);
        list.swap(i, j);
    }
    let mut solver = Solver::new(256 << 20).with_endgame_seeds(db);
    let t0 = Instant::now();
    for counts in list.iter().take(count) {
        let board = Board::from_counts(rules, counts, Side::South).unwrap();
        let t = Instant::now();
        let v = solver.value_within(&board, &Limits::time(Duration::from_secs(60)), 0, 0);
        println!(
            "{counts:?} {v:?} {:.2}s (total {:.2}s)",
            t.elapsed().as_secs_f64(),
            t0.elapsed().as_secs_f64()
        );
    }
}
