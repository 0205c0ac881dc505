//! Benchmarks of Solitaire Mancala: dealing and planning the one winnable
//! board of 100,000 seeds (560 houses, 100,000 moves).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mancala::rules::solitaire::deal;

fn bench(c: &mut Criterion) {
    c.bench_function("solitaire deal 100000", |b| {
        b.iter(|| deal(black_box(100_000)))
    });
    let board = deal(100_000);
    c.bench_function("solitaire plan 100000", |b| {
        b.iter(|| black_box(&board).plan())
    });
    c.bench_function("solitaire deal+plan 100000", |b| {
        b.iter(|| {
            let plan = deal(black_box(100_000)).plan();
            assert!(plan.won());
            plan
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
