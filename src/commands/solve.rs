//! `mancala solve`: a position's value under perfect play, as JSON.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use super::UsageError;
use crate::cli::SolveCmd;
use crate::players::Limits;
use crate::players::oware::real::{REAL_SEEDS, RealEndgame};
use crate::players::oware::{OwareEndgame, OwareSearch};
use crate::players::solver::{DEFAULT_SOLVE_MEMORY, SolveOutcome, Solver, default_threads};
use crate::rules::Board;
use crate::rules::oware::OwareBoard;

/// The most seeds `solve` builds the real round's database to.
const SOLVE_REAL_SEEDS: usize = 10;

/// How to solve: memory, threads and limits.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Bytes for the table and database.
    pub memory: usize,
    /// Search threads.
    pub threads: usize,
    /// Stop after this long.
    pub think: Option<Duration>,
    /// Stop after this many positions.
    pub nodes: Option<u64>,
    /// Show a progress line on standard error (when it is a terminal).
    pub progress: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            memory: DEFAULT_SOLVE_MEMORY,
            threads: default_threads(),
            think: None,
            nodes: None,
            progress: false,
        }
    }
}

/// The options a `solve` command line asks for.
#[must_use]
pub fn options(cmd: &SolveCmd) -> SolveOptions {
    SolveOptions {
        memory: usize::try_from(cmd.memory.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        threads: cmd
            .threads
            .map_or_else(default_threads, |t| usize::try_from(t).unwrap_or(1)),
        think: cmd.think.map(Duration::from_millis),
        nodes: cmd.nodes,
        progress: std::io::stderr().is_terminal(),
    }
}

/// The JSON report of solving `board`:
/// `{"value":V,"best":["c"],"nodes":N,"seconds":S,"memory_mb":M,"threads":T,
/// "endgame_seeds":K,"endgame_seconds":B}` (`seconds` includes the `B`
/// seconds spent building the endgame database of positions with at most
/// `K` seeds),
/// or, when `--think`/`--nodes` stopped it first,
/// `{"value":null,"bounds":[LO,HI],"best":[],...}` with the proven bounds.
///
/// `value` is the final score of the side to move minus its opponent's with
/// perfect play by both; `best` lists every move reaching it, by letter in
/// pit order (empty for a finished game, whose value is its final score).
///
/// # Errors
/// A [`UsageError`] when the board is too big for the solver or the memory.
pub fn solve_json(board: &Board, options: &SolveOptions) -> anyhow::Result<serde_json::Value> {
    Solver::check(board, options.memory).map_err(|e| UsageError(e.to_string()))?;
    let start = Instant::now();
    let mut solver = Solver::new(options.memory).with_threads(options.threads);
    let limits = Limits {
        deadline: options.think.map(|t| start + t),
        nodes: options.nodes,
        stop: Arc::new(AtomicBool::new(false)),
    };
    let finished = Arc::new(AtomicBool::new(false));
    let reporter = options.progress.then(|| {
        let progress = solver.progress();
        let finished = Arc::clone(&finished);
        std::thread::spawn(move || {
            let mut shown = false;
            // positions per second count from the end of the database build
            let mut searching_since = None;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let elapsed = start.elapsed().as_secs_f64();
                if elapsed < 0.5 || finished.load(Ordering::Relaxed) {
                    continue;
                }
                if let Some((ready, seeds)) = progress.building() {
                    super::progress(format_args!(
                        "building the endgame database: {elapsed:.1} s, {ready} of {seeds} seeds"
                    ));
                    shown = true;
                    continue;
                }
                let since = *searching_since.get_or_insert_with(Instant::now);
                let rate = progress.nodes() as f64 / since.elapsed().as_secs_f64().max(0.1) / 1e6;
                let bound = progress
                    .bounds()
                    .map_or_else(String::new, |(lo, hi)| format!(", value in [{lo}, {hi}]"));
                super::progress(format_args!(
                    "solving: {elapsed:.1} s, {rate:.1} M positions/s{bound}"
                ));
                shown = true;
            }
            if shown {
                super::progress(format_args!(""));
            }
        })
    });
    let outcome = solver.solve_bounded(board, &limits, true);
    finished.store(true, Ordering::Relaxed);
    if let Some(handle) = reporter {
        let _ = handle.join();
    }
    let seconds = (start.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    let memory_mb = (solver.memory_used() as f64 / f64::from(1 << 20)).round();
    let (endgame_seeds, endgame_time) = solver.endgame();
    let endgame_seconds = (endgame_time.as_secs_f64() * 1000.0).round() / 1000.0;
    let rules = board.rules();
    // unproven: no value and no best move, the bounds proven instead
    let mut report = match outcome.expect("checked above") {
        SolveOutcome::Solved(solution) => {
            let best: Vec<String> = solution
                .best
                .iter()
                .filter_map(|&p| rules.letter(p).map(String::from))
                .collect();
            json!({ "value": solution.value, "best": best, "nodes": solution.nodes })
        }
        SolveOutcome::Bounds {
            lower,
            upper,
            nodes,
        } => json!({ "value": null, "bounds": [lower, upper], "best": [], "nodes": nodes }),
    };
    for (key, value) in [
        ("seconds", json!(seconds)),
        ("memory_mb", json!(memory_mb)),
        ("threads", json!(options.threads)),
        ("endgame_seeds", json!(endgame_seeds)),
        ("endgame_seconds", json!(endgame_seconds)),
    ] {
        report[key] = value;
    }
    Ok(report)
}

/// The JSON report of `mancala solve --game oware`:
/// `{"game":"oware","value":V,"best":["f"],"exact":true,"depth":D,"nodes":N,"seconds":S,"endgame_seeds":K}`.
///
/// `V` is what the mover captures from here on, the final sweep included,
/// minus what the opponent does: exact when `exact` (every line the
/// search rests on ends, or reaches a value of the real round's database
/// (RULES.md §7.9: built to 10 seeds for a position of at most 12 seeds
/// and 48 in all), or of the played-out endgame database of positions
/// with at most `K` seeds on the board where its margin is the real one:
/// 6, or as many as the database kept in the data directory holds (every
/// count kept, up to `--oware-db` when given)), else the search's
/// estimate after
/// `--think` milliseconds (2000 by default), with `bounds` that always
/// hold (the seeds on the board).
///
/// # Errors
/// A [`UsageError`] when the round is over.
pub fn oware_solve_json(board: &OwareBoard, cmd: &SolveCmd) -> anyhow::Result<serde_json::Value> {
    const ENDGAME_SEEDS: usize = 6;
    if board.is_over() {
        return Err(UsageError("the round is over: there is nothing to solve".to_string()).into());
    }
    let start = Instant::now();
    // The database kept in the data directory when it holds more, read
    // up to the seeds on the board (no position after this one has more).
    let seeds = usize::from(board.seeds_on_board());
    let (kept, refused) =
        crate::store::oware_endgame::kept(seeds.min(crate::store::oware_endgame::read_to()));
    if let Some(refused) = refused {
        crate::console::warn(format_args!("mancala: {refused}"));
    }
    let endgame = Arc::new(if kept.max_seeds() > Some(ENDGAME_SEEDS) {
        kept
    } else {
        OwareEndgame::build(ENDGAME_SEEDS)
    });
    let endgame_seeds = endgame.max_seeds().unwrap_or(0);
    let mut search = OwareSearch::new(22, endgame);
    // The real round's values for a position with few seeds, built to
    // what it has (to 10 seeds, 1.4 s of CPU; to 12, 9 s: not for a
    // position of 12, whose lines soon reach 10): a position with more
    // seeds, within the think time, seldom reaches them. Only a position
    // of all 48 seeds is in it (another total never reaches it).
    let captured = board.captured();
    let total = seeds + usize::from(captured.south) + usize::from(captured.north);
    if seeds <= REAL_SEEDS && total == 48 {
        search.set_real(Arc::new(RealEndgame::build(seeds.min(SOLVE_REAL_SEEDS))));
    }
    let limits = Limits {
        // The think time is the search's: reading the database is not in it.
        deadline: Some(Instant::now() + Duration::from_millis(cmd.think.unwrap_or(2000))),
        nodes: cmd.nodes,
        ..Limits::default()
    };
    let result = search.search(board, 64, &limits);
    let me = board.to_move();
    let captured = board.captured();
    let so_far = i32::from(captured.of(me)) - i32::from(captured.of(me.opponent()));
    let on_board = i32::from(board.seeds_in_houses(me) + board.seeds_in_houses(me.opponent()));
    let letters = crate::rules::Rules::KALAH;
    let best: Vec<String> = result
        .best
        .and_then(|pit| letters.letter(pit))
        .map(|c| c.to_string())
        .into_iter()
        .collect();
    let mut value = json!({
        "game": "oware",
        "value": result.value - so_far,
        "best": best,
        "exact": result.proven,
        "depth": result.depth,
        "nodes": result.nodes,
        "seconds": (start.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
        "endgame_seeds": endgame_seeds,
    });
    if !result.proven {
        value["bounds"] = json!([-on_board, on_board]);
    }
    Ok(value)
}
