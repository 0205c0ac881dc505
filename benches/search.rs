//! Benchmarks of the computer players: the engine's nodes per second and
//! the exact solver's time to solve whole games.
//!
//! `cargo bench --bench search -- --warm-up-time 1 --measurement-time 3`.
//! Solving Kalah(6,3) is measured by criterion with the minimum sample size
//! (10 runs); Kalah(6,4) takes too long for repeated runs and is measured
//! once, only when `MANCALA_BENCH_6_4=1` is set, printing its time and nodes.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use mancala::players::solver::{DEFAULT_ENDGAME_ENTRIES, DEFAULT_TABLE_BYTES};
use mancala::players::{Engine, Limits, Solver};
use mancala::rules::{Board, Capture, Rules};

const ENGINE_NODES: u64 = 200_000;

fn engine_nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(ENGINE_NODES));
    let board = Board::new(Rules::KALAH);
    group.bench_function("kalah_6_4_opening_200k_nodes", |b| {
        b.iter(|| {
            let mut engine = Engine::new(20);
            let result = engine
                .search(black_box(&board), &Limits::nodes(ENGINE_NODES), 99, None)
                .unwrap();
            assert_eq!(result.nodes, ENGINE_NODES);
            result.best
        });
    });
    group.finish();
}

fn solve(rules: Rules) -> (i32, u64) {
    let mut solver = Solver::new(DEFAULT_TABLE_BYTES, DEFAULT_ENDGAME_ENTRIES);
    let value = solver.value(&Board::new(rules), &Limits::none()).unwrap();
    (value, solver.nodes)
}

fn solve_6_3(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(1));
    group.warm_up_time(Duration::from_millis(1));
    for (name, capture, value) in [
        ("kalah_6_3_nonempty", Capture::NonEmpty, 2),
        ("kalah_6_3_always", Capture::Always, 2),
    ] {
        let rules = Rules::new(6, 3).unwrap().with_capture(capture);
        group.bench_function(name, |b| b.iter(|| assert_eq!(solve(rules).0, value)));
    }
    group.finish();
}

fn solve_6_4_once() {
    if std::env::var_os("MANCALA_BENCH_6_4").is_none() {
        return;
    }
    for (name, capture, value) in [
        ("kalah_6_4_nonempty", Capture::NonEmpty, 8),
        ("kalah_6_4_always", Capture::Always, 10),
    ] {
        let start = Instant::now();
        let (v, nodes) = solve(Rules::new(6, 4).unwrap().with_capture(capture));
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "solve/{name}: value {v} (known {value}), {nodes} nodes, {seconds:.1} s (one run)"
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    engine_nodes_per_second(&mut c);
    solve_6_3(&mut c);
    c.final_summary();
    solve_6_4_once();
}
