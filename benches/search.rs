//! Benchmarks of the computer players: the engine's and the solver's
//! positions per second, and the exact solver's time to solve whole games.
//!
//! `cargo bench -p mancala-benches --bench search -- --warm-up-time 1 --measurement-time 3`.
//! Criterion measures the engine's speed, the solver's speed on a fixed
//! node budget, Oware's search with and without its principal variation
//! read after each iteration (`-- oware_search`), Oware's endgame
//! database probed as it is kept and as a byte a position
//! (`-- oware_probe`), building a 12-seed endgame database on one and two threads,
//! and whole solves of Kalah(6,2) and Kalah(5,3) on one thread and of
//! Kalah(6,3) on two (10 samples).
//! Bigger solves take seconds to minutes, so they are one measured run
//! each (a fresh solver, cold, as `mancala solve` runs), printing value,
//! time, positions and memory, on demand:
//! `MANCALA_BENCH=6x3` (Kalah(6,3), both capture rules), `MANCALA_BENCH=6x4`
//! and `MANCALA_BENCH=6x5` (Kalah(6,5), with 8 GiB of memory: about 4 and
//! 6.5 minutes on the README's 2-core machine), comma-separated for
//! several. `MANCALA_BENCH_THREADS=1` solves on one thread.
//! `MANCALA_BENCH=arena` plays `mancala arena perfect random --pits 6
//! --seeds 4 --rounds 4` for each capture rule (a fresh `perfect`, the
//! arena's seeds) and prints `perfect`'s time per move: mean, 95th
//! percentile and maximum (the first moves past the book wait for what
//! the endgame database has of its levels, and for the table's memory).
//! `MANCALA_BENCH=hint` asks a fresh `Advisor` (as a new match holds) for
//! its first hint on positions of Kalah(6,4) past the opening book (at
//! most 30 seeds in the pits), with a 1 s budget, and prints the time of
//! each.
//! `MANCALA_BENCH=analysis` analyses a random round of Kalah(6,4) (capture
//! always, the round `Rng::new(MANCALA_BENCH_ROUND)` plays, 1 by default)
//! as `mancala analyze ROUND` does (a fresh [`Analyst`], 1 s a position),
//! the same with a variant solver (by default a solve's 18-seed endgame
//! database instead of the analysis's 16, the same 64 MiB of table first:
//! measured, no faster, see docs/PERFORMANCE.md; `MANCALA_BENCH_DB_SCALE`,
//! default 3, and `MANCALA_BENCH_TABLE_MIB`, default 64, size it), and solves
//! the start of the same rules as `mancala solve --pits 6 --seeds 4` does
//! (a fresh solver of 1 GiB listing every best move), in turn,
//! `MANCALA_BENCH_PAIRS` times (3 by default), and prints each run's wall
//! and CPU time, the medians and the ratios (analysis / solve, each).
//! (Not on Kalah(6,5): its positions of more than 48 seeds in play are
//! estimated by design, so its analysis is never every move exact; its
//! figure is the live analysis's, `live6x5` below.)
//! `MANCALA_BENCH=live` plays a round of Kalah(6,4) (capture always) as
//! a person plays against `greedy` with the full screen's analysis worked
//! out as it is played ([`LiveAnalysis`], 1 s a position): South a person
//! who thinks `MANCALA_BENCH_PAUSE_MS` (2000 by default) and plays a
//! random move (`Rng::new(MANCALA_BENCH_ROUND)`), or with
//! `MANCALA_BENCH_PERSON=engine` the `hard` engine's on 20,000 positions
//! (a person who keeps the round even), North `greedy` at once,
//! each move then sown at the animation's default 150 ms a seed; it prints
//! at the round's end the positions valued and proven, then how long the
//! analysis takes to be complete (what `A` at "Play again?" waits for)
//! and its positions proven. `MANCALA_BENCH=live6x5` the same on
//! Kalah(6,5).
//! `MANCALA_BENCH=real` builds Oware's real round's endgame database
//! (`RealEndgame`) to each count up to `MANCALA_BENCH_SEEDS` seeds (12 by
//! default), anew each time as a process builds it, and prints each
//! count's positions, those valued and the CPU seconds of the build.
//! `MANCALA_BENCH=positions` analyses the round `MANCALA_BENCH_ROUND` of
//! the `analysis` entry position by position (the last first, as the
//! analysis goes) and prints each one's seeds in play, value and CPU time
//! (`MANCALA_BENCH_MOVES=c,d,i,...`: that round instead, South first).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, Throughput};
use mancala::analysis::live::{LiveAnalysis, Standing};
use mancala::analysis::{Analyst, DEFAULT_THINK, PositionBudget, RoundAnalyser};
use mancala::commands::arena::{MoveBudget, MoveStats, play_arena};
use mancala::players::oware::endgame;
use mancala::players::oware::real::RealEndgame;
use mancala::players::solver::book;
use mancala::players::solver::{DEFAULT_PLAYER_MEMORY, DEFAULT_SOLVE_MEMORY};
use mancala::players::{
    Advisor, Engine, Greedy, Level, Limits, PlayerKind, Solver, TurnFn, random_move,
};
use mancala::rng::Rng;
use mancala::rules::{Board, Capture, Pit, Rules, Side};

const ENGINE_NODES: u64 = 200_000;
const SOLVER_NODES: u64 = 2_000_000;
/// Positions of Oware's search per measured run.
const OWARE_NODES: u64 = 300_000;
/// Positions the live analysis's skilled person searches a move.
const PERSON_NODES: u64 = 20_000;
/// Memory for solving Kalah(6,5): 8 GiB.
const KALAH_6_5_MEMORY: usize = 8 << 30;

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

fn solver_nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.throughput(Throughput::Elements(SOLVER_NODES));
    group.sample_size(10);
    let board = Board::new(Rules::KALAH);
    group.bench_function("kalah_6_4_opening_2m_nodes_1_thread", |b| {
        b.iter_batched(
            || {
                // a solver whose table is already allocated and whose
                // endgame database (10 seeds) is built
                let mut solver = Solver::new(256 << 20)
                    .with_threads(1)
                    .with_endgame_seeds(10);
                let _ = solver.value(
                    &Board::new(Rules::new(6, 1).unwrap().with_capture(Capture::Always)),
                    &Limits::none(),
                );
                let _ = solver.value(&board, &Limits::nodes(1));
                solver
            },
            |mut solver| {
                let outcome =
                    solver.solve_bounded(black_box(&board), &Limits::nodes(SOLVER_NODES), false);
                (outcome, solver)
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

/// Seeds on the board up to which `oware_probe` builds its database.
const PROBE_SEEDS: usize = 14;

/// Oware's endgame database probed on 4,096 random positions of 6 to
/// [`PROBE_SEEDS`] seeds, side by side: as it is kept (the valued
/// positions of each count, looked up by rank) and as a byte a position
/// (each count's table as `OwareEndgame::to_bytes` writes it, indexed by
/// rank, as the database was kept before).
fn oware_probe(c: &mut Criterion) {
    use mancala::players::oware::OwareEndgame;
    use mancala::players::oware::endgame::{REPETITION, mover_first, positions, rank, unrank};
    use mancala::rules::oware::{OwareBoard, OwareRules};
    let db = OwareEndgame::build(PROBE_SEEDS);
    let bytes = db.to_bytes();
    // Each count's table: after the magic and the count of tables.
    let mut at = 9;
    let dense: Vec<&[u8]> = (0..=PROBE_SEEDS)
        .map(|n| {
            let len = positions(n) as usize;
            at += len;
            &bytes[at - len..at]
        })
        .collect();
    let mut rng = Rng::new(7);
    let boards: Vec<OwareBoard> = (0..4096)
        .map(|_| {
            let n = 6 + rng.below(PROBE_SEEDS - 5);
            let houses = unrank(rng.below(positions(n) as usize) as u64, n);
            OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap()
        })
        .collect();
    let mut group = c.benchmark_group("oware_probe");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("valued_positions_4096", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|board| {
                    matches!(
                        db.probe(black_box(board)),
                        mancala::players::oware::Probe::Value(_)
                    )
                })
                .count()
        });
    });
    group.bench_function("byte_a_position_4096", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|board| {
                    let houses = mover_first(black_box(board));
                    let n: usize = houses.iter().map(|&c| usize::from(c)).sum();
                    dense[n][rank(&houses) as usize] != REPETITION
                })
                .count()
        });
    });
    group.finish();
}

/// Oware's search from the start on a fixed budget of positions, side by
/// side: reading the principal variation out of the table after every
/// iteration (as `mancala engine` reports it) and not at all (a player's
/// move, a hint, the analysis).
fn oware_search_pv(c: &mut Criterion) {
    use mancala::players::oware::{DEEPEST, OwareEndgame, OwareSearch};
    use mancala::rules::oware::OwareBoard;
    use std::sync::Arc;
    let mut group = c.benchmark_group("oware_search");
    group.throughput(Throughput::Elements(OWARE_NODES));
    let board = OwareBoard::new();
    let fresh = || OwareSearch::new(20, Arc::new(OwareEndgame::default()));
    group.bench_function("pv_each_iteration_300k_nodes", |b| {
        b.iter_batched(
            fresh,
            |mut search| {
                let mut lines = 0;
                let result = search.search_reporting(
                    black_box(&board),
                    DEEPEST,
                    &Limits::nodes(OWARE_NODES),
                    &mut |_, line| lines += line.len(),
                );
                (result.best, lines, search)
            },
            BatchSize::PerIteration,
        );
    });
    group.bench_function("pv_not_built_300k_nodes", |b| {
        b.iter_batched(
            fresh,
            |mut search| {
                let result = search.search(black_box(&board), DEEPEST, &Limits::nodes(OWARE_NODES));
                (result.best, search)
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

fn endgame_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("endgame");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    // Kalah(6,2) solves in a moment once its database is built, so this
    // measures building the 2.7 M positions of up to 12 seeds on 6 pits
    let board = Board::new(Rules::new(6, 2).unwrap());
    for threads in [1, 2] {
        group.throughput(Throughput::Elements(2_704_156));
        group.bench_function(format!("build_6_pits_12_seeds_{threads}_threads"), |b| {
            b.iter(|| {
                let mut solver = Solver::new(DEFAULT_SOLVE_MEMORY)
                    .with_threads(threads)
                    .with_endgame_seeds(12);
                assert_eq!(solver.value(&board, &Limits::none()), Some(10));
                assert_eq!(solver.endgame().0, 12);
            });
        });
    }
    group.finish();
}

fn solve(rules: Rules, threads: usize) -> (i32, u64, usize) {
    let mut solver = Solver::new(DEFAULT_SOLVE_MEMORY).with_threads(threads);
    let value = solver.value(&Board::new(rules), &Limits::none()).unwrap();
    (value, solver.nodes, solver.memory_used())
}

fn small_solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(1));
    for (name, pits, seeds, capture, value) in [
        ("kalah_6_2_nonempty", 6, 2, Capture::NonEmpty, 6),
        ("kalah_6_2_always", 6, 2, Capture::Always, 10),
        ("kalah_5_3_always", 5, 3, Capture::Always, 0),
    ] {
        let rules = Rules::new(pits, seeds).unwrap().with_capture(capture);
        let expected = if value == 0 { solve(rules, 1).0 } else { value };
        group.bench_function(name, |b| b.iter(|| assert_eq!(solve(rules, 1).0, expected)));
    }
    // two threads sharing split points (tens of thousands of them per solve)
    for (name, capture) in [
        ("kalah_6_3_nonempty_2_threads", Capture::NonEmpty),
        ("kalah_6_3_always_2_threads", Capture::Always),
    ] {
        let rules = Rules::new(6, 3).unwrap().with_capture(capture);
        group.bench_function(name, |b| b.iter(|| assert_eq!(solve(rules, 2).0, 2)));
    }
    group.finish();
}

/// One measured run of each capture rule with `seeds` per pit, with
/// `memory` bytes for the table and database.
fn solve_once(seeds: usize, known: [i32; 2], threads: usize, memory: usize) {
    for ((name, capture), value) in [("nonempty", Capture::NonEmpty), ("always", Capture::Always)]
        .into_iter()
        .zip(known)
    {
        let start = Instant::now();
        let mut solver = Solver::new(memory).with_threads(threads);
        let rules = Rules::new(6, seeds).unwrap().with_capture(capture);
        let v = solver.value(&Board::new(rules), &Limits::none()).unwrap();
        let seconds = start.elapsed().as_secs_f64();
        let (endgame_seeds, endgame_time) = solver.endgame();
        assert_eq!(v, value, "Kalah(6,{seeds}) capture {name}");
        println!(
            "solve/kalah_6_{seeds}_{name}: value {v}, {} positions, {seconds:.1} s \
             ({:.1} s of it building the {endgame_seeds}-seed endgame database), {} MB, \
             {threads} threads (one run)",
            solver.nodes,
            endgame_time.as_secs_f64(),
            solver.memory_used() >> 20
        );
    }
}

/// One arena of `perfect` against `random` on Kalah(6,4) for each capture
/// rule, as `mancala arena perfect random --pits 6 --seeds 4 --capture C
/// --rounds 4` plays it: `perfect`'s time per move.
fn arena_once() {
    for (name, capture) in [("nonempty", Capture::NonEmpty), ("always", Capture::Always)] {
        let rules = Rules::KALAH.with_capture(capture);
        let kinds = [PlayerKind::Perfect, PlayerKind::Random];
        let budget = MoveBudget::Think(mancala::commands::arena::DEFAULT_ARENA_THINK_MS);
        let start = Instant::now();
        let result = play_arena(rules, kinds, 4, 1, budget, |_| {}).expect("computer players");
        let times = &result.move_times[0];
        let MoveStats { mean, p95, max, .. } = times.stats();
        println!(
            "arena/perfect_random_kalah_6_4_{name}: {} moves of perfect, mean {mean:.1} ms, \
             p95 {p95:.1} ms, max {max:.1} ms, {:.1} s in all (one run)",
            times.len(),
            start.elapsed().as_secs_f64()
        );
    }
}

/// Seeds in the pits of the positions of [`first_hints`]: at most this many
/// (few enough that the first hint can prove its move; the bench counts
/// how many of them it did).
const HINT_SEEDS: u16 = 30;

/// Seeds in the pits of `board`.
fn in_pits(board: &Board) -> u16 {
    board.seeds_in_pits(Side::South) + board.seeds_in_pits(Side::North)
}

/// A fresh [`Advisor`]'s first hint on positions of Kalah(6,4) reached by
/// random moves past the opening book, with at most [`HINT_SEEDS`] in the
/// pits, within 1 s each: its time, and whether it is exact.
fn first_hints() {
    for (name, capture) in [("nonempty", Capture::NonEmpty), ("always", Capture::Always)] {
        let mut rng = Rng::new(7);
        let mut times = Vec::new();
        let mut exact = 0;
        for _ in 0..6 {
            let mut board = Board::new(Rules::KALAH.with_capture(capture));
            while !board.is_over()
                && (book::shipped().get(&board).is_some() || in_pits(&board) > HINT_SEEDS)
            {
                board.play_unchecked(random_move(&board, &mut rng).expect("not over"));
            }
            if board.is_over() {
                continue;
            }
            let start = Instant::now();
            let hint = Advisor::new().hint(&board, &Limits::time(Duration::from_secs(1)));
            times.push(start.elapsed().as_secs_f64() * 1e3);
            exact += usize::from(hint.expect("a hint").exact);
        }
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let max = times.iter().copied().fold(0.0, f64::max);
        let each: Vec<String> = times.iter().map(|t| format!("{t:.0}")).collect();
        println!(
            "hint/first_kalah_6_4_{name}: {} positions, {exact} exact, mean {mean:.1} ms, \
             max {max:.1} ms, each [{}] ms (one run)",
            times.len(),
            each.join(" ")
        );
    }
}

/// CPU time of this process so far (all its threads, those ended too), in
/// seconds: the system's process CPU clock (`CLOCK_PROCESS_CPUTIME_ID`),
/// counted in nanoseconds rather than in the kernel's clock ticks (`None`
/// where the system has no such clock).
fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec that the call only writes
        let read = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &raw mut now) };
        (read == 0).then(|| now.tv_sec as f64 + now.tv_nsec as f64 / 1e9)
    }
    #[cfg(not(unix))]
    None
}

/// The median of `values` (sorted here).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Wall and CPU seconds of `work`.
fn timed(work: impl FnOnce()) -> (f64, f64) {
    let (start, cpu) = (Instant::now(), cpu_seconds().unwrap_or(0.0));
    work();
    (
        start.elapsed().as_secs_f64(),
        cpu_seconds().unwrap_or(0.0) - cpu,
    )
}

/// The number the environment variable `name` holds, else `default`.
fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(default)
}

/// The moves of the random round `Rng::new(round)` plays on `rules`.
fn random_round(rules: Rules, round: u64) -> Vec<Pit> {
    let mut rng = Rng::new(round);
    let mut board = Board::new(rules);
    let mut moves = Vec::new();
    while let Some(pit) = random_move(&board, &mut rng) {
        board.play_unchecked(pit);
        moves.push(pit);
    }
    moves
}

/// The analysis of the round `MANCALA_BENCH_ROUND` of Kalah(6,4) (as
/// [`analysis_against_solve`] plays it) position by position, as
/// `mancala analyze` values them (the last first): each one's seeds in
/// play, value and CPU time.
fn analysis_by_position() {
    let rules = Rules::new(6, 4).unwrap().with_capture(Capture::Always);
    let round: u64 = env_number("MANCALA_BENCH_ROUND", 1);
    // or a round's moves given as a record writes them (`c,d,i,...`)
    let moves = std::env::var("MANCALA_BENCH_MOVES").map_or_else(
        |_| random_round(rules, round),
        |letters| rules.parse_moves(&letters).expect("pit letters"),
    );
    let given = std::env::var("MANCALA_BENCH_MOVES").is_ok();
    let start = Board::new(rules);
    let mut boards = vec![start];
    for &pit in &moves {
        let mut next = boards[boards.len() - 1];
        next.play_unchecked(pit);
        boards.push(next);
    }
    let mut analyser = RoundAnalyser::from_start(Analyst::new(), start);
    for &pit in &moves {
        analyser.push(pit).expect("a legal move");
    }
    let budget = PositionBudget::time(Duration::from_secs(1));
    let mut cpu = Vec::new();
    let all = timed(|| {
        loop {
            let before = cpu_seconds().unwrap_or(0.0);
            let done = analyser.work_one(&budget);
            cpu.push(cpu_seconds().unwrap_or(0.0) - before);
            if done {
                break;
            }
        }
    });
    let analysis = analyser.analysis(&budget);
    println!(
        "analysis/positions {}: {} moves, {:.2} s CPU in all",
        if given {
            "of the moves given".to_string()
        } else {
            format!("round {round}")
        },
        moves.len(),
        all.1
    );
    for (k, seconds) in cpu.iter().enumerate() {
        let i = boards.len() - 1 - k;
        let board = &boards[i];
        let in_play = board.seeds_in_pits(Side::South) + board.seeds_in_pits(Side::North);
        let value = analysis.south_values[i];
        println!(
            "  after ply {i:>2}: {in_play:>2} seeds in play, value for South {:+}{}, {seconds:.2} s CPU",
            value.value,
            if value.is_exact() { "" } else { " (estimate)" }
        );
    }
}

/// A round's analysis of Kalah(6,4) against a solve of the same rules,
/// side by side (see the module docs).
fn analysis_against_solve() {
    let (seeds, memory) = (4, DEFAULT_SOLVE_MEMORY);
    let rules = Rules::new(6, seeds).unwrap().with_capture(Capture::Always);
    let round: u64 = env_number("MANCALA_BENCH_ROUND", 1);
    let pairs: usize = env_number("MANCALA_BENCH_PAIRS", 3);
    let moves = random_round(rules, round);
    let variant_scale: u32 = env_number("MANCALA_BENCH_DB_SCALE", 3);
    let variant_table: usize = env_number("MANCALA_BENCH_TABLE_MIB", 64);
    let start = Board::new(rules);
    let threads = mancala::players::solver::default_threads();
    let (mut analyses, mut eighteen, mut solves) = (Vec::new(), Vec::new(), Vec::new());
    let analyse = |analyst: Analyst| {
        timed(|| {
            let analysis = { analyst }
                .round_from(
                    start,
                    &moves,
                    &PositionBudget::time(Duration::from_secs(1)),
                    |_, _| {},
                )
                .expect("the round's moves are legal");
            assert!(analysis.exact(), "every position proven");
            black_box(analysis);
        })
    };
    for pair in 1..=pairs {
        let solve_db = analyse(Analyst::with_solver(
            Solver::new(DEFAULT_PLAYER_MEMORY)
                .with_endgame_scale(variant_scale)
                .with_table_limit(variant_table << 20),
        ));
        let analysis = analyse(Analyst::new());
        let solve = timed(|| {
            let mut solver = Solver::new(memory).with_threads(threads);
            let outcome = solver.solve_bounded(&start, &Limits::none(), true);
            black_box(outcome.expect("a board the solver takes"));
        });
        println!(
            "analysis/kalah_6_{seeds}_always pair {pair}: analysis of {} moves {:.2} s wall \
             {:.2} s CPU (variant {:.2} s wall {:.2} s CPU); solve {:.2} s wall {:.2} s CPU",
            moves.len(),
            analysis.0,
            analysis.1,
            solve_db.0,
            solve_db.1,
            solve.0,
            solve.1
        );
        analyses.push(analysis);
        eighteen.push(solve_db);
        solves.push(solve);
    }
    let wall = |runs: &[(f64, f64)]| median(&mut runs.iter().map(|r| r.0).collect::<Vec<_>>());
    let cpu = |runs: &[(f64, f64)]| median(&mut runs.iter().map(|r| r.1).collect::<Vec<_>>());
    let ratios = |runs: &[(f64, f64)]| {
        let mut ratios: Vec<f64> = runs.iter().zip(&solves).map(|(a, s)| a.1 / s.1).collect();
        let ratio = median(&mut ratios);
        (ratio, ratios[0], ratios[ratios.len() - 1])
    };
    let (ratio, lo, hi) = ratios(&analyses);
    let (eighteen_ratio, eighteen_lo, eighteen_hi) = ratios(&eighteen);
    println!(
        "analysis/kalah_6_{seeds}_always: {} pairs, {threads} solver threads; medians: analysis \
         {:.2} s wall {:.2} s CPU, the variant (database scale {variant_scale}, table \
         {variant_table} MiB first) {:.2} s wall {:.2} s CPU, solve \
         {:.2} s wall {:.2} s CPU; analysis/solve CPU {ratio:.3} ({lo:.3}-{hi:.3}), wall {:.3}; \
         variant/solve CPU {eighteen_ratio:.3} ({eighteen_lo:.3}-{eighteen_hi:.3}), wall {:.3}",
        pairs,
        wall(&analyses),
        cpu(&analyses),
        wall(&eighteen),
        cpu(&eighteen),
        wall(&solves),
        cpu(&solves),
        wall(&analyses) / wall(&solves),
        wall(&eighteen) / wall(&solves)
    );
}

/// A round played as a person plays it against `greedy`, analysed as it
/// is played (see the module docs): `seeds` per pit.
fn live_analysis(seeds: usize) {
    let rules = Rules::new(6, seeds).unwrap().with_capture(Capture::Always);
    let think = Duration::from_millis(env_number("MANCALA_BENCH_PAUSE_MS", 2000));
    let round: u64 = env_number("MANCALA_BENCH_ROUND", 1);
    // the full screen's default speed
    let per_seed = Duration::from_millis(150);
    // a person who plays well enough to keep the round even (the hard
    // engine on a few thousand positions: milliseconds), or at random
    let skilled = std::env::var("MANCALA_BENCH_PERSON").is_ok_and(|p| p == "engine");
    let mut person = Engine::new(Level::HARD.table_bits);
    let mut rng = Rng::new(round);
    let start = Board::new(rules);
    let mut live = LiveAnalysis::start(DEFAULT_THINK).expect("a thread");
    let (mut board, mut moves) = (start, Vec::new());
    live.follow(start, &moves);
    let (clock, cpu) = (Instant::now(), cpu_seconds().unwrap_or(0.0));
    while !board.is_over() {
        let pit = if board.to_move() == Side::South {
            std::thread::sleep(think);
            if skilled {
                person
                    .search(
                        &board,
                        &Limits::nodes(PERSON_NODES),
                        Level::HARD.max_depth,
                        None,
                    )
                    .map(|r| r.best)
            } else {
                random_move(&board, &mut rng)
            }
        } else {
            Greedy.choose(&board, &Limits::none())
        }
        .expect("a move while the round goes on");
        let sown = u32::from(board.seeds(pit));
        board.play_unchecked(pit);
        moves.push(pit);
        live.follow(start, &moves);
        std::thread::sleep(per_seed * sown);
    }
    let played = clock.elapsed().as_secs_f64();
    let watch = live.watch();
    let at_end = watch.standing();
    let proven_at_end = watch.proven();
    let ended = Instant::now();
    let Standing::Done(analysis) = watch.wait(Duration::from_secs(24 * 3600)) else {
        panic!("the analysis failed: {:?}", watch.standing());
    };
    let rest = ended.elapsed().as_secs_f64();
    let (valued, total) = match at_end {
        Standing::Working(valued, total) => (valued, total),
        Standing::Done(_) => (moves.len() + 1, moves.len() + 1),
        Standing::Failed(why) => panic!("{why}"),
    };
    let proven = analysis
        .south_values
        .iter()
        .filter(|v| v.is_exact())
        .count();
    println!(
        "live/kalah_6_{seeds}_always round {round}: {} moves in {played:.1} s ({} ms a person's \
         move, 150 ms a seed); at the end {valued} of {total} positions valued, \
         {proven_at_end} proven; complete {rest:.2} s later, {proven} of {total} proven; \
         {:.1} s of the process's CPU in all",
        moves.len(),
        think.as_millis(),
        cpu_seconds().unwrap_or(0.0) - cpu
    );
}

fn real_endgame_build() {
    let most: usize = env_number("MANCALA_BENCH_SEEDS", 12);
    let mut before = cpu_seconds().unwrap_or(0.0);
    let mut last = RealEndgame::default();
    for n in 0..=most {
        // every count to n built anew, as a process builds them
        last = RealEndgame::build(n);
        let now = cpu_seconds().unwrap_or(0.0);
        let positions = endgame::positions(n) * (n as u64 + 1);
        println!(
            "real/oware count {n}: {positions} positions, {} valued ({:.1}%), counts 0 to {n} built in {:.2} s of CPU",
            last.valued(n),
            100.0 * last.valued(n) as f64 / positions as f64,
            now - before
        );
        before = now;
    }
    black_box(last);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    engine_nodes_per_second(&mut c);
    solver_nodes_per_second(&mut c);
    oware_search_pv(&mut c);
    oware_probe(&mut c);
    endgame_build(&mut c);
    small_solves(&mut c);
    c.final_summary();
    let wanted = std::env::var("MANCALA_BENCH").unwrap_or_default();
    let threads = std::env::var("MANCALA_BENCH_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(mancala::players::solver::default_threads);
    for item in wanted.split(',') {
        match item.trim() {
            "6x3" => solve_once(3, [2, 2], threads, DEFAULT_SOLVE_MEMORY),
            "6x4" => solve_once(4, [8, 10], threads, DEFAULT_SOLVE_MEMORY),
            // as `mancala solve --pits 6 --seeds 5 --memory 8192`: a
            // 26-seed database and a 4 GiB table (the README's figures)
            "6x5" => solve_once(5, [10, 12], threads, KALAH_6_5_MEMORY),
            "arena" => arena_once(),
            "hint" => first_hints(),
            "analysis" => analysis_against_solve(),
            "positions" => analysis_by_position(),
            "live" => live_analysis(4),
            "live6x5" => live_analysis(5),
            "real" => real_endgame_build(),
            _ => {}
        }
    }
}
