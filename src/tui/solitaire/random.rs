//! A winnable board of a random size: the one place solitaire needs
//! randomness, kept out of the rules core.

use crate::rng::Rng;
use crate::rules::solitaire::{SolitaireBoard, deal};

/// The fewest seeds [`deal_random`] deals.
pub const RANDOM_MIN_SEEDS: u64 = 10;
/// The most seeds [`deal_random`] deals.
pub const RANDOM_MAX_SEEDS: u64 = 40;

/// The winnable board of a random number of seeds, from
/// [`RANDOM_MIN_SEEDS`] to [`RANDOM_MAX_SEEDS`].
pub fn deal_random(rng: &mut Rng) -> SolitaireBoard {
    let span = (RANDOM_MAX_SEEDS - RANDOM_MIN_SEEDS + 1) as usize;
    deal(RANDOM_MIN_SEEDS + rng.below(span) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_deals_stay_in_range_and_vary() {
        let mut rng = Rng::new(11);
        let mut sizes = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let board = deal_random(&mut rng);
            let seeds = board.in_houses();
            assert!((RANDOM_MIN_SEEDS..=RANDOM_MAX_SEEDS).contains(&seeds));
            assert!(board.plan().won());
            sizes.insert(seeds);
        }
        assert!(sizes.len() > 20, "many sizes turn up: {sizes:?}");
    }
}
