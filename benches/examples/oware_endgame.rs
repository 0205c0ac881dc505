//! Builds Oware's endgame database one seed count at a time and prints
//! each count's positions, repetition-marked positions, worklist rounds,
//! positions valued, wall seconds for the count and in all, and the
//! process's CPU seconds for the count (Linux: `/proc/self/schedstat`;
//! `-` elsewhere):
//! `cargo run --profile fast -p mancala-benches --example oware_endgame -- 16 [FILE]`.

use std::time::Instant;

use mancala::players::oware::Builder;

/// CPU seconds this process has run, where the system says.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let max: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let file = args.next();
    let mut builder = Builder::new();
    let all = Instant::now();
    while builder.built() <= max {
        let start = Instant::now();
        let cpu = cpu_seconds();
        let r = builder.build_next();
        let cpu = match (cpu, cpu_seconds()) {
            (Some(before), Some(after)) => format!("{:.3}", after - before),
            _ => "-".to_string(),
        };
        println!(
            "{} {} {} {} {} {:.3}s {:.3}s {cpu}",
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
