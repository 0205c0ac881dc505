//! A small, seedable random number generator (SplitMix64).
//!
//! The rules core never uses randomness; players and the coin flip for who
//! starts do, and a seed makes arena runs and tests repeatable.

/// SplitMix64: tiny, fast and good enough for games.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator that always produces the same sequence for `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded from the clock and the process id.
    #[must_use]
    pub fn from_entropy() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng(nanos ^ (u64::from(std::process::id()) << 32))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}

/// Tests' memo tables keyed on whole positions: the standard library's
/// SipHash took about 40% of the solver's brute-force referee's time, and
/// a test key needs no protection against chosen collisions.
#[cfg(test)]
pub(crate) type TestMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<MixHasher>>;

/// Folds each word in with a multiply (FxHash's step), then SplitMix64's
/// finaliser spreads the bits the table indexes by.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct MixHasher(u64);

#[cfg(test)]
impl std::hash::Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.write_u64(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517C_C1B7_2722_0A95);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_below_stays_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            let x = a.below(6);
            assert_eq!(x, b.below(6));
            assert!(x < 6);
        }
        let mut seen = [false; 6];
        for _ in 0..200 {
            seen[a.below(6)] = true;
        }
        assert!(seen.iter().all(|&s| s), "every value turns up: {seen:?}");
    }
}
