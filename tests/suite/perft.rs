//! Perft: how many move sequences of exactly `d` plies the start position
//! has (an extra-turn continuation is a ply of its own; games that end
//! sooner are not counted), pinned for Kalah(6,4). The small depths are
//! also recomputed by the independent oracle in `common`.

use crate::common;

use common::Oracle;
use mancala::rules::{Board, Rules, Side};

/// perft(1..=8) of Kalah(6,4), capture always (the default rules).
const KALAH_PERFT: [u64; 8] = [6, 35, 185, 942, 4685, 23169, 113_959, 559_885];

#[test]
fn perft_of_kalah_start_position_is_pinned() {
    let board = Board::new(Rules::KALAH);
    for (depth, &expected) in (1..).zip(KALAH_PERFT.iter()) {
        assert_eq!(board.perft(depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_agrees_with_the_naive_oracle() {
    for rules in [Rules::KALAH, Rules::AVALANCHE, Rules::new(4, 3).unwrap()] {
        let board = Board::new(rules);
        let oracle = Oracle::new(&rules, board.counts(), Side::South);
        for depth in 1..=6 {
            assert_eq!(
                board.perft(depth),
                oracle.perft(depth),
                "{rules} depth {depth}"
            );
        }
    }
    let oracle = Oracle::new(
        &Rules::KALAH,
        Board::new(Rules::KALAH).counts(),
        Side::South,
    );
    for (depth, &expected) in (1..).zip(KALAH_PERFT.iter()) {
        assert_eq!(oracle.perft(depth), expected, "oracle, depth {depth}");
    }
}

/// perft(1..=8) of Oware (Abapa) from the start, counted independently by
/// OpenSpiel's `oware` (`python3 benches/scripts/oware_openspiel.py --perft 8`).
const OWARE_PERFT: [u64; 8] = [6, 36, 190, 1014, 5219, 27332, 139_157, 711_414];

#[test]
fn perft_of_the_oware_start_agrees_with_openspiel() {
    let board = mancala::rules::oware::OwareBoard::new();
    for (depth, &expected) in (1..).zip(OWARE_PERFT.iter()) {
        assert_eq!(board.perft(depth), expected, "depth {depth}");
    }
}
