//! Measures how long `perfect` keeps a person waiting on Kalah(6,4).
//!
//! `cargo run --release -p mancala-benches --example ponder_latency -- GAMES PACE_MS [south|north|both] [person|computer|game] [TABLE_MIB]`
//!
//! Plays GAMES games for each capture rule and each seat: a fresh `perfect`
//! (thinking on the opponent's time, as against a person) against random
//! moves made PACE_MS milliseconds after `perfect` answered, as a person
//! would take to move (only the seat named, if one is). With `computer`,
//! `perfect` does not ponder, as against a computer in a live game (the
//! pace then stands for the moves' animations). With `game`, it is as a
//! person's game meets it: the player a match seats (sharing the process's
//! database and table), the game's think time (1 s a move) and the round
//! analysed as it is played, held still while `perfect` thinks. With
//! TABLE_MIB, its table holds at most that many MiB (else a player's own
//! limit; not with `game`). Prints the time of every `perfect` move as
//! mean, median, 95th percentile and maximum, per rule and seat and over
//! all, and the process's peak resident memory (where the system tells
//! it). A throwaway measuring tool: the figures go in notes and the
//! README, not in tests.

use std::time::{Duration, Instant};

use mancala::analysis::live::LiveAnalysis;
use mancala::commands::arena::{MoveStats, MoveTimes};
use mancala::players::solver::book;
use mancala::players::solver::{DEFAULT_PLAYER_MEMORY, PLAYER_TABLE_BYTES};
use mancala::players::{Limits, PerfectPlayer, Solver, TurnFn, random_move};
use mancala::rng::Rng;
use mancala::rules::{Board, Capture, Pit, Rules, Side};

/// A game's think time per move (`--think`'s default).
const GAME_THINK: Duration = Duration::from_millis(1000);

/// The move count, mean, median, 95th percentile and maximum of `times`.
fn summary(times: &MoveTimes) -> String {
    let MoveStats {
        mean,
        p50,
        p95,
        max,
    } = times.stats();
    format!(
        "{} moves, mean {mean:.1} ms, p50 {p50:.1} ms, p95 {p95:.1} ms, max {max:.1} ms",
        times.len()
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let pace = Duration::from_millis(args.next().and_then(|a| a.parse().ok()).unwrap_or(2000));
    let only = args.next().filter(|seat| seat != "both");
    let mode = args.next();
    let against_a_person = mode.as_deref() != Some("computer");
    let as_a_game = mode.as_deref() == Some("game");
    let table = args
        .next()
        .and_then(|a| a.parse::<usize>().ok())
        .map_or(PLAYER_TABLE_BYTES, |mib| mib << 20);
    let mut all = MoveTimes::default();
    for capture in [Capture::NonEmpty, Capture::Always] {
        let rules = Rules::new(6, 4).expect("Kalah(6,4)").with_capture(capture);
        for seat in Side::BOTH {
            if only
                .as_deref()
                .is_some_and(|o| !format!("{seat:?}").eq_ignore_ascii_case(o))
            {
                continue;
            }
            let mut times = MoveTimes::default();
            for game in 0..games {
                let mut rng = Rng::new(game * 2 + u64::from(seat == Side::North));
                let mut perfect = if as_a_game {
                    PerfectPlayer::sharing()
                } else {
                    PerfectPlayer::with_solver(
                        Solver::new(DEFAULT_PLAYER_MEMORY)
                            .growing()
                            .with_table_limit(table),
                    )
                };
                perfect.think_on_opponents_time(against_a_person);
                let mut live = if as_a_game {
                    LiveAnalysis::start(GAME_THINK)
                } else {
                    None
                };
                let start = Board::new(rules);
                let mut board = start;
                let mut played: Vec<Pit> = Vec::new();
                let mut ply = 0;
                while !board.is_over() {
                    if let Some(live) = &mut live {
                        live.follow(start, &played);
                    }
                    let pit = if board.to_move() == seat {
                        let held = live.as_ref().map(|live| live.pause().hold());
                        let limits = if as_a_game {
                            Limits::time(GAME_THINK)
                        } else {
                            Limits::none()
                        };
                        let t0 = Instant::now();
                        let pit = perfect.choose(&board, &limits).expect("a move");
                        let took = t0.elapsed();
                        drop(held);
                        let ms = took.as_secs_f64() * 1000.0;
                        if ms > 100.0 {
                            let book = if book::lookup(&board).is_some() {
                                " (a book move)"
                            } else {
                                ""
                            };
                            eprintln!(
                                "{capture:?} {seat:?} game {game} ply {ply}: {ms:.0} ms{book}"
                            );
                        }
                        times.add(took);
                        all.add(took);
                        pit
                    } else {
                        std::thread::sleep(pace);
                        random_move(&board, &mut rng).expect("a move")
                    };
                    board.play(pit).expect("a legal move");
                    played.push(pit);
                    ply += 1;
                }
            }
            println!("{capture:?} {seat:?}: {}", summary(&times));
        }
    }
    println!("all: {}", summary(&all));
    if let Some(peak) = peak_resident() {
        println!("peak resident: {peak}");
    }
}

/// The process's peak resident memory as the system reports it (Linux).
fn peak_resident() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line["VmHWM:".len()..].trim().to_string())
}
