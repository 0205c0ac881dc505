//! Perft of Oware (Abapa) from the start, with the time each depth took:
//! `cargo run --profile fast -p mancala-benches --example oware_perft -- 11`.

use std::time::Instant;

use mancala::rules::oware::OwareBoard;

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let board = OwareBoard::new();
    for d in 1..=depth {
        let start = Instant::now();
        let count = board.perft(d);
        println!("{d} {count} {:.3}s", start.elapsed().as_secs_f64());
    }
}
