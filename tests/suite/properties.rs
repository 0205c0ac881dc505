//! Property tests over random positions and random rule settings.

use crate::common;

use common::Oracle;
use mancala::rules::oware::{GrandSlam, OwareBoard, OwareRules};
use mancala::rules::{
    Board, Capture, MAX_PITS, Moves, Pit, Position, Rules, Score, Side, Sowing, Step, Sweep,
};
use proptest::prelude::*;

fn any_rules() -> impl Strategy<Value = Rules> {
    (
        1..=MAX_PITS,
        1usize..=20,
        prop_oneof![
            Just(Capture::Always),
            Just(Capture::NonEmpty),
            Just(Capture::Never)
        ],
        prop_oneof![Just(Sowing::Single), Just(Sowing::Relay)],
        prop_oneof![Just(Sweep::Owner), Just(Sweep::None)],
    )
        .prop_map(|(pits, seeds, capture, sowing, sweep)| {
            Rules::new(pits, seeds)
                .unwrap()
                .with_capture(capture)
                .with_sowing(sowing)
                .with_sweep(sweep)
        })
}

/// The `c`-th legal move, counted round the moves there are; `None`
/// when there are none.
fn chosen(mut moves: Moves, c: u8) -> Option<Pit> {
    moves.nth(usize::from(c) % moves.count().max(1))
}

/// A random Oware position: houses of up to 12 seeds, up to 30 captured
/// a side (so that some rounds are won already), any grand-slam rule.
fn any_oware_position() -> impl Strategy<Value = OwareBoard> {
    (
        proptest::collection::vec(0u16..=12, 12),
        0u16..=30,
        0u16..=30,
        any::<bool>(),
        prop_oneof![
            Just(GrandSlam::NoCapture),
            Just(GrandSlam::CaptureAll),
            Just(GrandSlam::Illegal)
        ],
    )
        .prop_map(|(houses, south, north, north_moves, grand_slam)| {
            let side = if north_moves {
                Side::North
            } else {
                Side::South
            };
            let rules = OwareRules { grand_slam };
            OwareBoard::from_houses(rules, &houses, Score { south, north }, side).unwrap()
        })
}

/// Random rules and a random position for them (pits up to 30 seeds, so
/// that sowings lap the board).
fn any_position() -> impl Strategy<Value = Board> {
    (any_rules(), any::<bool>()).prop_flat_map(|(rules, north)| {
        proptest::collection::vec(0u16..=30, rules.cells()).prop_map(move |counts| {
            let side = if north { Side::North } else { Side::South };
            Board::from_counts(rules, &counts, side).unwrap()
        })
    })
}

fn total(board: &Board) -> u32 {
    board.counts().iter().map(|&c| u32::from(c)).sum()
}

/// Upper bound on the length of any game (see `every_game_ends`).
fn game_length_bound(board: &Board) -> u64 {
    let t = u64::from(total(board));
    let n = board.rules().pits() as u64;
    (t + 1) * (n * t + 1)
}

proptest! {
    // XorShift: the default ChaCha, unoptimised in the tests' profile,
    // took most of these tests' time.
    #![proptest_config(ProptestConfig {
        cases: 512,
        rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
        ..ProptestConfig::default()
    })]

    #[test]
    fn seeds_are_conserved_by_every_move(board in any_position(), choices in proptest::collection::vec(any::<u8>(), 1..40)) {
        let mut b = board;
        let seeds = total(&b);
        for c in choices {
            let moves = b.legal_moves();
            if moves.is_empty() { break; }
            let pit = moves.clone().nth(c as usize % moves.count()).unwrap();
            b.play(pit).unwrap();
            prop_assert_eq!(total(&b), seeds);
        }
    }

    /// The one-line notation (RULES.md §8) reads back what it writes, for
    /// any rules and any position, played on or not.
    #[test]
    fn a_position_printed_and_read_back_is_the_same(board in any_position(), choices in proptest::collection::vec(any::<u8>(), 0..20)) {
        let mut b = board;
        for c in choices {
            let Some(pit) = chosen(b.legal_moves(), c) else { break };
            b.play(pit).unwrap();
        }
        let line = Position::from(b).to_string();
        let back: Position = line.parse().map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        prop_assert_eq!(back.kalah(), Some(&b), "{}", line);
    }

    /// The same of Oware (RULES.md §8.2): any houses, captured seeds,
    /// grand-slam rule and side to move, played on or not, finished or not.
    #[test]
    fn an_oware_position_printed_and_read_back_is_the_same(board in any_oware_position(), choices in proptest::collection::vec(any::<u8>(), 0..30)) {
        let mut b = board;
        for c in choices {
            let Some(pit) = chosen(b.legal_moves(), c) else { break };
            b.play(pit).unwrap();
        }
        let line = Position::from(b).to_string();
        let back: Position = line.parse().map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        // The line states the position, not why a finished round ended:
        // the sweep after "no feeding move" (or a repetition) can leave a
        // majority that reads back as 25 reached. Everything else is the
        // same, and the round is over in both or in neither.
        let said = |o: &OwareBoard| (o.counts().to_vec(), o.to_move(), o.rules(), o.end().is_some());
        prop_assert_eq!(back.oware().map(said), Some(said(&b)), "{}", line);
        if b.end().is_none() {
            prop_assert_eq!(back.oware(), Some(&b), "{}", line);
        }
        prop_assert_eq!(back.to_string(), line);
    }

    #[test]
    fn a_legal_move_changes_the_board(board in any_position()) {
        for pit in board.legal_moves() {
            let mut b = board;
            b.play(pit).unwrap();
            prop_assert_ne!(b.counts(), board.counts(), "pit {}", pit);
        }
    }

    #[test]
    fn an_illegal_move_changes_nothing(board in any_position(), index in 0u8..30) {
        let pit = Pit::new(index);
        let mut b = board;
        if board.legal_moves().contains(pit) {
            prop_assert!(b.play(pit).is_ok());
        } else {
            prop_assert!(b.play(pit).is_err());
            prop_assert_eq!(b, board);
        }
    }

    /// Why every game ends, whatever the rules: stores never lose seeds, so
    /// at most `T` moves put a seed in a store. A move that does not reach
    /// the mover's store keeps all its seeds on the mover's side and moves
    /// each lifted seed closer to that store, so the sum over pits of seeds
    /// times distance to their owner's store (at most `n * T`) drops by at
    /// least one. Hence at most `(T + 1) * (n * T + 1)` moves.
    #[test]
    fn every_game_ends(board in any_position(), seed in any::<u64>()) {
        let mut b = board;
        let bound = game_length_bound(&board);
        let mut rng = mancala::rng::Rng::new(seed);
        let mut moves = 0u64;
        while !b.is_over() {
            let legal = b.legal_moves();
            prop_assert!(!legal.is_empty(), "a game that is not over has a move");
            let pit = legal.clone().nth(rng.below(legal.count())).unwrap();
            b.play(pit).unwrap();
            moves += 1;
            prop_assert!(moves <= bound);
        }
        prop_assert!(b.outcome().is_some());
    }

    #[test]
    fn trace_and_fast_path_agree(board in any_position()) {
        for pit in board.legal_moves() {
            let mut fast = board;
            let mut traced = board;
            let mut trace = Vec::new();
            let a = fast.play(pit).unwrap();
            let b = traced.play_traced(pit, &mut trace).unwrap();
            prop_assert_eq!(a, b);
            prop_assert_eq!(fast, traced);
            let mut unchecked = board;
            prop_assert_eq!(unchecked.play_unchecked(pit), a);
            prop_assert_eq!(unchecked, fast);

            // Replaying the steps on the old counts gives the new counts.
            let mut counts = board.counts().to_vec();
            for step in &trace {
                step.apply(&mut counts);
            }
            prop_assert_eq!(&counts[..], fast.counts());
            prop_assert_eq!(trace.first(), Some(&Step::Lift { pit, seeds: board.seeds(pit) }));
            prop_assert_eq!(trace.iter().any(|s| matches!(s, Step::ExtraTurn)), a.extra_turn);
            prop_assert_eq!(trace.last() == Some(&Step::GameOver), a.game_over);
        }
    }

    /// The bound proved in the comment on `Board::sow`.
    #[test]
    fn relay_sowing_always_ends(board in any_position()) {
        let rules = board.rules().with_sowing(Sowing::Relay);
        let b = Board::from_counts(rules, board.counts(), board.to_move()).unwrap();
        let t = u64::from(total(&b));
        let ring = 2 * rules.pits() as u64 + 1;
        for pit in b.legal_moves() {
            let mut trace = Vec::new();
            b.clone().play_traced(pit, &mut trace).unwrap();
            let drops = trace.iter().filter(|s| matches!(s, Step::Sow { .. })).count() as u64;
            prop_assert!(drops <= (t + 1) * ring, "{} drops, bound {}", drops, (t + 1) * ring);
        }
    }

    #[test]
    fn core_agrees_with_the_naive_oracle(board in any_position(), choices in proptest::collection::vec(any::<u8>(), 1..30)) {
        let mut b = board;
        let mut o = Oracle::new(board.rules(), board.counts(), board.to_move());
        prop_assert_eq!(o.over, b.is_over());
        for c in choices {
            let legal: Vec<usize> = b.legal_moves().map(Pit::index).collect();
            prop_assert_eq!(&legal, &o.legal());
            if legal.is_empty() { break; }
            let pit = legal[c as usize % legal.len()];
            let played = b.play(Pit::new(pit as u8)).unwrap();
            let (extra, captured) = o.play(pit);
            let cells: Vec<u32> = b.counts().iter().map(|&c| u32::from(c)).collect();
            prop_assert_eq!(&cells, &o.cells);
            prop_assert_eq!(played.extra_turn, extra);
            prop_assert_eq!(played.capture.is_some(), captured);
            prop_assert_eq!(b.is_over(), o.over);
            if !b.is_over() {
                prop_assert_eq!(b.to_move().index(), o.mover);
            }
        }
    }
}
