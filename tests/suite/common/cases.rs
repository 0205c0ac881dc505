//! Property tests without a framework: a property runs on cases drawn
//! from seeded generators ([`Rng`]), the same cases on every run, so that
//! a failure names the seed that replays it. `MANCALA_TEST_SEED=K` shifts
//! the seeds to try other cases.

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

pub use mancala::rng::Rng;

/// Runs `property` on `cases` inputs, each drawn by `draw` from a
/// generator of its own seed; on a failure, says the seed and the input.
pub fn for_all<T: Debug>(cases: u64, draw: impl Fn(&mut Rng) -> T, property: impl Fn(T)) {
    let base: u64 = std::env::var("MANCALA_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    for case in 0..cases {
        let seed = base.wrapping_add(case);
        let input = draw(&mut Rng::new(seed));
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| property(input))) {
            eprintln!(
                "the property failed on the case of seed {seed} (MANCALA_TEST_SEED={seed} runs it first): {:?}",
                draw(&mut Rng::new(seed))
            );
            resume_unwind(panic);
        }
    }
}

/// A number in `lo..=hi`.
pub fn int(rng: &mut Rng, lo: usize, hi: usize) -> usize {
    lo + rng.below(hi - lo + 1)
}

/// One of `choices`.
pub fn one_of<T: Copy>(rng: &mut Rng, choices: &[T]) -> T {
    choices[rng.below(choices.len())]
}

/// `lo..=hi` values drawn by `draw`.
pub fn list<T>(rng: &mut Rng, lo: usize, hi: usize, mut draw: impl FnMut(&mut Rng) -> T) -> Vec<T> {
    let n = int(rng, lo, hi);
    (0..n).map(|_| draw(rng)).collect()
}

/// Any 8 bits.
pub fn byte(rng: &mut Rng) -> u8 {
    rng.next_u64() as u8
}

/// Any character: mostly printable ASCII, else anything Unicode has
/// (controls, marks, the private use areas, emoji, ...).
pub fn any_char(rng: &mut Rng) -> char {
    if rng.coin() {
        return char::from(0x20 + rng.below(0x5f) as u8);
    }
    loop {
        let c = match rng.below(4) {
            0 => rng.below(0x100) as u32,
            1 => rng.below(0x3000) as u32,
            _ => rng.below(0x11_0000) as u32,
        };
        if let Some(c) = char::from_u32(c) {
            return c;
        }
    }
}

/// A string of `lo..=hi` characters of [`any_char`].
pub fn any_string(rng: &mut Rng, lo: usize, hi: usize) -> String {
    list(rng, lo, hi, any_char).into_iter().collect()
}
