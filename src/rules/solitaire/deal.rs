//! Dealing: the one winnable board for any number of seeds.

use super::board::SolitaireBoard;

/// The one winnable board with `seeds` seeds in its houses and an empty
/// store, with no empty houses past the last full one.
///
/// House `i` gets `(seeds - seeds in houses 1..i) mod (i + 1)`, which
/// leaves a multiple of `i + 1` seeds for the houses past `i`. Dealing stops
/// when no seed is left, which happens once `i + 1` exceeds what is left;
/// the board has about `sqrt(pi * seeds)` houses (560 for 100,000 seeds) and
/// dealing costs one step per house. The tests check the formula against
/// playing backwards from the won board and against an exhaustive search.
///
/// ```
/// use mancala_engine::rules::solitaire::deal;
/// assert_eq!(deal(5).counts(), [0, 1, 1, 3]);
/// assert!(deal(5).plan().won());
/// ```
#[must_use]
pub fn deal(seeds: u64) -> SolitaireBoard {
    let mut counts = vec![0];
    let mut rest = seeds;
    let mut house: u64 = 1;
    while rest > 0 {
        let count = rest % (house + 1);
        counts.push(count);
        rest -= count;
        house += 1;
    }
    SolitaireBoard::from_counts(&counts).expect("the counts add up to `seeds`, a u64")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether some order of legal moves (not only the closest-to-store rule) wins.
    fn winnable_by_any_order(board: &SolitaireBoard) -> bool {
        board.is_won()
            || board.legal_moves().any(|house| {
                let mut next = board.clone();
                next.apply(house).unwrap();
                winnable_by_any_order(&next)
            })
    }

    /// Builds the winnable board of `seeds` seeds by playing backwards from
    /// the won board: each seed added to the store is taken back out by
    /// un-playing the empty house closest to the store, the only house whose
    /// move could have put it there with every closer house still holding a
    /// seed.
    fn deal_by_unplaying(seeds: u64) -> SolitaireBoard {
        let mut counts = vec![0u64];
        for _ in 0..seeds {
            counts[0] += 1;
            let empty = (1..counts.len())
                .find(|&h| counts[h] == 0)
                .unwrap_or_else(|| {
                    counts.push(0);
                    counts.len() - 1
                });
            let mut board = SolitaireBoard::from_counts(&counts).unwrap();
            board.unapply(empty).unwrap();
            counts = board.counts().to_vec();
        }
        assert_eq!(counts[0], 0, "every seed came back out of the store");
        SolitaireBoard::from_counts(&counts).unwrap()
    }

    #[test]
    fn dealt_boards_from_1_to_200_seeds_are_won_by_the_plan() {
        for seeds in 1..=200 {
            let board = deal(seeds);
            assert_eq!(board.in_houses(), seeds);
            assert_eq!(board.store(), 0);
            assert_ne!(board.seeds(board.houses()), 0, "no trailing empty houses");
            let plan = board.plan();
            assert!(plan.won(), "{seeds} seeds: {board} not won: {:?}", plan.end);
            assert_eq!(
                plan.moves.len() as u64,
                seeds,
                "one seed into the store per move"
            );
            assert_eq!(plan.end.store(), seeds);
            // Replaying the plan move by move agrees with it.
            let mut replay = board.clone();
            for &house in &plan.moves {
                replay.apply(house).unwrap();
            }
            assert_eq!(replay, plan.end);
        }
    }

    #[test]
    fn the_formula_agrees_with_playing_backwards() {
        for seeds in 0..=1500 {
            assert_eq!(deal(seeds), deal_by_unplaying(seeds), "{seeds} seeds");
        }
    }

    #[test]
    fn small_deals_match_hand_worked_boards() {
        assert_eq!(deal(0).counts(), [0]);
        assert_eq!(deal(1).counts(), [0, 1]);
        assert_eq!(deal(2).counts(), [0, 0, 2]);
        assert_eq!(deal(3).counts(), [0, 1, 2]);
        assert_eq!(deal(4).counts(), [0, 0, 1, 3]);
        assert_eq!(deal(5).counts(), [0, 1, 1, 3]);
    }

    /// For every `n` up to 11, searches every board with `n` seeds and finds
    /// exactly one that any order of moves can win: the dealt one.
    ///
    /// Which boards: the store is empty, because seeds in the store never
    /// move, so store seeds change nothing about winning (a board with `s`
    /// in the store is winnable exactly when its houses alone are). The
    /// houses are every way to put `n` seeds into houses 1 to `n`, with any
    /// count in any house (`C(2n-1, n)` boards, 352,716 for `n` = 11). Houses
    /// past `n` need not be tried: seeds only move towards the store, so the
    /// farthest non-empty house `k` never gains a seed and can be cleared
    /// only if it holds exactly `k` seeds from the start, so `k <= n`; and
    /// empty houses past the last full one change nothing. No bound on a
    /// house's count is assumed (a house holding more than its number can
    /// never be cleared, but the search finds that out for itself).
    ///
    /// Winning is decided by trying every order of legal moves, so the test
    /// also checks the claim of RULES.md §6.3 that the closest-to-store rule wins every
    /// winnable board.
    #[test]
    fn exhaustive_search_finds_exactly_one_winnable_board_for_up_to_11_seeds() {
        fn each_board(
            counts: &mut Vec<u64>,
            house: usize,
            left: u64,
            visit: &mut dyn FnMut(&[u64]),
        ) {
            if house == counts.len() - 1 {
                counts[house] = left;
                visit(counts);
                return;
            }
            for count in 0..=left {
                counts[house] = count;
                each_board(counts, house + 1, left - count, visit);
            }
        }
        for seeds in 1..=11u64 {
            let mut winnable = Vec::new();
            let mut boards = 0u64;
            let mut counts = vec![0u64; seeds as usize + 1];
            each_board(&mut counts, 1, seeds, &mut |counts| {
                boards += 1;
                let board = SolitaireBoard::from_counts(counts).unwrap();
                let any_order = winnable_by_any_order(&board);
                assert_eq!(
                    board.plan().won(),
                    any_order,
                    "the rule and the search disagree on {board}"
                );
                if any_order {
                    winnable.push(counts.to_vec());
                }
            });
            let expected_boards =
                (seeds + 1..2 * seeds).product::<u64>() / (1..seeds).product::<u64>();
            assert_eq!(boards, expected_boards, "C(2n-1, n) boards for n = {seeds}");
            let mut dealt = deal(seeds).counts().to_vec();
            dealt.resize(seeds as usize + 1, 0);
            assert_eq!(winnable, [dealt], "{seeds} seeds");
        }
    }

    #[test]
    fn a_hundred_thousand_seeds_deal_and_plan_to_a_win() {
        let board = deal(100_000);
        let plan = board.plan();
        assert!(plan.won());
        assert_eq!(plan.moves.len(), 100_000);
        assert!(
            board.houses() < 1000,
            "about sqrt(pi n) houses: {}",
            board.houses()
        );
    }
}
