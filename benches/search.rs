//! Benchmarks of the computer players: the engine's nodes per second and
//! the exact solver's time to solve whole games.
//!
//! `cargo bench --bench search -- --warm-up-time 1 --measurement-time 3`.
//! Criterion measures the engine's speed and the solver on Kalah(6,2) (10
//! samples). Solving Kalah(6,3) takes tens of seconds, so it is measured by
//! one run per capture rule, printing time and nodes; Kalah(6,4) likewise,
//! only when `MANCALA_BENCH_6_4=1` is set (it takes far longer).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, Throughput};
use mancala::players::solver::{DEFAULT_ENDGAME_ENTRIES, DEFAULT_TABLE_BYTES};
use mancala::players::{Engine, Limits, Solver};
use mancala::rules::{Board, Capture, Rules};

const ENGINE_NODES: u64 = 200_000;

fn engine_nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(ENGINE_NODES));
    let board = Board::new(Rules::KALAH);
    group.bench_function("kalah_6_4_opening_200k_nodes", |b| {
        // a fresh table each time (allocated outside the measurement)
        b.iter_batched(
            || Engine::new(20),
            |mut engine| {
                let result = engine
                    .search(black_box(&board), &Limits::nodes(ENGINE_NODES), 99, None)
                    .unwrap();
                assert_eq!(result.nodes, ENGINE_NODES);
                (result.best, engine)
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

fn solve(rules: Rules) -> (i32, u64) {
    let mut solver = Solver::new(DEFAULT_TABLE_BYTES, DEFAULT_ENDGAME_ENTRIES);
    let value = solver.value(&Board::new(rules), &Limits::none()).unwrap();
    (value, solver.nodes)
}

fn solve_6_2(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(1));
    for (name, capture, value) in [
        ("kalah_6_2_nonempty", Capture::NonEmpty, 6),
        ("kalah_6_2_always", Capture::Always, 10),
    ] {
        let rules = Rules::new(6, 2).unwrap().with_capture(capture);
        group.bench_function(name, |b| b.iter(|| assert_eq!(solve(rules).0, value)));
    }
    group.finish();
}

/// One measured run of each capture rule with `seeds` per pit.
fn solve_once(seeds: usize, known: [i32; 2]) {
    for ((name, capture), value) in [("nonempty", Capture::NonEmpty), ("always", Capture::Always)]
        .into_iter()
        .zip(known)
    {
        let start = Instant::now();
        let (v, nodes) = solve(Rules::new(6, seeds).unwrap().with_capture(capture));
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(v, value, "Kalah(6,{seeds}) capture {name}");
        println!(
            "solve/kalah_6_{seeds}_{name}: value {v}, {nodes} nodes, {seconds:.1} s (one run)"
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    engine_nodes_per_second(&mut c);
    solve_6_2(&mut c);
    c.final_summary();
    solve_once(3, [2, 2]);
    if std::env::var_os("MANCALA_BENCH_6_4").is_some() {
        solve_once(4, [8, 10]);
    }
}
