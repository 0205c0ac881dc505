//! Builds Oware's endgame database one seed count at a time and prints
//! each count's positions, repetition-marked positions, worklist rounds,
//! positions valued and time:
//! `cargo run --profile fast --example oware_endgame -- 16 [FILE]`.

use std::time::Instant;

use mancala::players::oware::Builder;

fn main() {
    let mut args = std::env::args().skip(1);
    let max: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let file = args.next();
    let mut builder = Builder::new();
    let all = Instant::now();
    while builder.built() <= max {
        let start = Instant::now();
        let r = builder.build_next();
        println!(
            "{} {} {} {} {} {:.3}s {:.3}s",
            r.seeds,
            r.positions,
            r.repetition,
            r.sweeps,
            r.evaluations,
            start.elapsed().as_secs_f64(),
            all.elapsed().as_secs_f64()
        );
    }
    if let Some(file) = file {
        std::fs::write(file, builder.database().to_bytes()).expect("write the database");
    }
}
