//! Benchmarks of the rules core: one move (fast, checked and traced paths),
//! random playouts to the end, and perft from the start position.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala::players::{random_move, random_position};
use mancala::rng::Rng;
use mancala::rules::{Board, Pit, Rules, Step};

/// 64 (position, legal move) pairs from seeded random Kalah games, so the
/// figures are for typical mid-game moves rather than one lucky case.
fn sample_moves(rules: Rules) -> Vec<(Board, Pit)> {
    let mut rng = Rng::new(2026);
    let mut samples = Vec::new();
    while samples.len() < 64 {
        let plies = rng.below(30);
        let board = random_position(&mut rng, Board::new(rules), plies);
        if let Some(pit) = random_move(&board, &mut rng) {
            samples.push((board, pit));
        }
    }
    samples
}

fn one_move(c: &mut Criterion) {
    let samples = sample_moves(Rules::KALAH);
    let (board, pit) = samples[0];
    let mut group = c.benchmark_group("kalah_move");
    group.bench_function("play_unchecked", |b| {
        b.iter(|| {
            let mut x = black_box(board);
            x.play_unchecked(black_box(pit))
        });
    });
    group.bench_function("play_checked", |b| {
        b.iter(|| {
            let mut x = black_box(board);
            x.play(black_box(pit))
        });
    });
    let mut trace: Vec<Step> = Vec::with_capacity(64);
    group.bench_function("play_traced", |b| {
        b.iter(|| {
            trace.clear();
            let mut x = black_box(board);
            x.play_traced(black_box(pit), &mut trace)
        });
    });
    group.throughput(Throughput::Elements(samples.len() as u64));
    group.bench_function("play_unchecked_x64_mixed", |b| {
        b.iter(|| {
            for &(board, pit) in black_box(&samples) {
                let mut x = board;
                black_box(x.play_unchecked(pit));
            }
        });
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    for (name, rules) in [("kalah", Rules::KALAH), ("avalanche", Rules::AVALANCHE)] {
        let mut rng = Rng::new(7);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut board = Board::new(rules);
                let mut plies = 0u32;
                while let Some(pit) = random_move(&board, &mut rng) {
                    board.play_unchecked(pit);
                    plies += 1;
                }
                black_box((board.score(), plies))
            });
        });
    }
    group.finish();
}

fn perft(c: &mut Criterion) {
    let board = Board::new(Rules::KALAH);
    // Print the perft table once (the counts are pinned in tests/perft.rs).
    for depth in 1..=8 {
        let start = Instant::now();
        let n = board.perft(depth);
        let seconds = start.elapsed().as_secs_f64();
        eprintln!(
            "perft({depth}) = {n:>8} leaves  {:>8.1} M leaves/s",
            n as f64 / seconds / 1e6
        );
    }
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(board.perft(6)));
    group.bench_function("kalah_depth_6", |b| b.iter(|| black_box(board).perft(6)));
    group.finish();
}

criterion_group!(benches, one_move, playouts, perft);
criterion_main!(benches);
