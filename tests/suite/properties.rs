//! Property tests over random positions and random rule settings.

use crate::common;

use common::Oracle;
use common::cases::{Rng, byte, for_all, int, list, one_of};
use mancala::rules::oware::{GrandSlam, OwareBoard, OwareRules};
use mancala::rules::{
    Board, Capture, MAX_PITS, Moves, Pit, Position, Rules, Score, Side, Sowing, Step, Sweep,
};

/// Random rules: any number of pits, 1 to 20 seeds, every capture,
/// sowing and sweep rule.
fn any_rules(rng: &mut Rng) -> Rules {
    Rules::new(int(rng, 1, MAX_PITS), int(rng, 1, 20))
        .unwrap()
        .with_capture(one_of(
            rng,
            &[Capture::Always, Capture::NonEmpty, Capture::Never],
        ))
        .with_sowing(one_of(rng, &[Sowing::Single, Sowing::Relay]))
        .with_sweep(one_of(rng, &[Sweep::Owner, Sweep::None]))
}

/// The `c`-th legal move, counted round the moves there are; `None`
/// when there are none.
fn chosen(mut moves: Moves, c: u8) -> Option<Pit> {
    moves.nth(usize::from(c) % moves.count().max(1))
}

/// A random Oware position: houses of up to 12 seeds, up to 30 captured
/// a side (so that some rounds are won already), any grand-slam rule.
fn any_oware_position(rng: &mut Rng) -> OwareBoard {
    let houses: Vec<u16> = (0..12).map(|_| int(rng, 0, 12) as u16).collect();
    let (south, north) = (int(rng, 0, 30) as u16, int(rng, 0, 30) as u16);
    let side = one_of(rng, &[Side::South, Side::North]);
    let grand_slam = one_of(
        rng,
        &[
            GrandSlam::NoCapture,
            GrandSlam::CaptureAll,
            GrandSlam::Illegal,
        ],
    );
    OwareBoard::from_houses(
        OwareRules { grand_slam },
        &houses,
        Score { south, north },
        side,
    )
    .unwrap()
}

/// Random rules and a random position for them (pits up to 30 seeds, so
/// that sowings lap the board).
fn any_position(rng: &mut Rng) -> Board {
    let rules = any_rules(rng);
    let side = one_of(rng, &[Side::South, Side::North]);
    let counts: Vec<u16> = (0..rules.cells()).map(|_| int(rng, 0, 30) as u16).collect();
    Board::from_counts(rules, &counts, side).unwrap()
}

/// A random position and up to `most` random choices of move.
fn position_and_choices(rng: &mut Rng, least: usize, most: usize) -> (Board, Vec<u8>) {
    (any_position(rng), list(rng, least, most, byte))
}

/// Cases for each property.
const CASES: u64 = 512;

fn total(board: &Board) -> u32 {
    board.counts().iter().map(|&c| u32::from(c)).sum()
}

/// Upper bound on the length of any game (see `every_game_ends`).
fn game_length_bound(board: &Board) -> u64 {
    let t = u64::from(total(board));
    let n = board.rules().pits() as u64;
    (t + 1) * (n * t + 1)
}

/// A board the tests once failed on (1 pit, a lap of the board): tried
/// first by the properties that play on.
fn remembered() -> (Board, Vec<u8>) {
    let rules = Rules::new(1, 1).unwrap().with_capture(Capture::Always);
    (
        Board::from_counts(rules, &[3, 0, 1, 0], Side::South).unwrap(),
        vec![0],
    )
}

#[test]
fn seeds_are_conserved_by_every_move() {
    let property = |(board, choices): (Board, Vec<u8>)| {
        let mut b = board;
        let seeds = total(&b);
        for c in choices {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pit = moves.clone().nth(c as usize % moves.count()).unwrap();
            b.play(pit).unwrap();
            assert_eq!(total(&b), seeds);
        }
    };
    property(remembered());
    for_all(CASES, |rng| position_and_choices(rng, 1, 39), property);
}

/// The one-line notation (RULES.md §8) reads back what it writes, for
/// any rules and any position, played on or not.
#[test]
fn a_position_printed_and_read_back_is_the_same() {
    let property = |(board, choices): (Board, Vec<u8>)| {
        let mut b = board;
        for c in choices {
            let Some(pit) = chosen(b.legal_moves(), c) else {
                break;
            };
            b.play(pit).unwrap();
        }
        let line = Position::from(b).to_string();
        let back: Position = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(back.kalah(), Some(&b), "{line}");
    };
    property(remembered());
    for_all(CASES, |rng| position_and_choices(rng, 0, 19), property);
}

/// The same of Oware (RULES.md §8.2): any houses, captured seeds,
/// grand-slam rule and side to move, played on or not, finished or not.
#[test]
fn an_oware_position_printed_and_read_back_is_the_same() {
    let property = |(board, choices): (OwareBoard, Vec<u8>)| {
        let mut b = board;
        for c in choices {
            let Some(pit) = chosen(b.legal_moves(), c) else {
                break;
            };
            b.play(pit).unwrap();
        }
        let line = Position::from(b).to_string();
        let back: Position = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        // The line states the position, not why a finished round ended:
        // the sweep after "no feeding move" (or a repetition) can leave a
        // majority that reads back as 25 reached. Everything else is the
        // same, and the round is over in both or in neither.
        let said = |o: &OwareBoard| {
            (
                o.counts().to_vec(),
                o.to_move(),
                o.rules(),
                o.end().is_some(),
            )
        };
        assert_eq!(back.oware().map(said), Some(said(&b)), "{line}");
        if b.end().is_none() {
            assert_eq!(back.oware(), Some(&b), "{line}");
        }
        assert_eq!(back.to_string(), line);
    };
    // Such a round, once failed on: it ends with no feeding move, and the
    // sweep gives North 38.
    let houses = [1, 1, 0, 6, 5, 4, 1, 11, 0, 0, 1, 3];
    let rules = OwareRules {
        grand_slam: GrandSlam::CaptureAll,
    };
    let board = OwareBoard::from_houses(rules, &houses, Score { south: 6, north: 5 }, Side::South);
    let choices = [
        50, 247, 2, 63, 99, 109, 120, 93, 180, 178, 226, 245, 233, 249, 70, 15, 4, 188, 225, 86,
        58, 195, 183, 125,
    ];
    property((board.unwrap(), choices.to_vec()));
    for_all(
        CASES,
        |rng| (any_oware_position(rng), list(rng, 0, 29, byte)),
        property,
    );
}

#[test]
fn a_legal_move_changes_the_board() {
    for_all(CASES, any_position, |board| {
        for pit in board.legal_moves() {
            let mut b = board;
            b.play(pit).unwrap();
            assert_ne!(b.counts(), board.counts(), "pit {pit}");
        }
    });
}

#[test]
fn an_illegal_move_changes_nothing() {
    for_all(
        CASES,
        |rng| (any_position(rng), int(rng, 0, 29) as u8),
        |(board, index)| {
            let pit = Pit::new(index);
            let mut b = board;
            if board.legal_moves().contains(pit) {
                assert!(b.play(pit).is_ok());
            } else {
                assert!(b.play(pit).is_err());
                assert_eq!(b, board);
            }
        },
    );
}

/// Why every game ends, whatever the rules: stores never lose seeds, so
/// at most `T` moves put a seed in a store. A move that does not reach
/// the mover's store keeps all its seeds on the mover's side and moves
/// each lifted seed closer to that store, so the sum over pits of seeds
/// times distance to their owner's store (at most `n * T`) drops by at
/// least one. Hence at most `(T + 1) * (n * T + 1)` moves.
#[test]
fn every_game_ends() {
    let property = |(board, seed): (Board, u64)| {
        let mut b = board;
        let bound = game_length_bound(&board);
        let mut rng = Rng::new(seed);
        let mut moves = 0u64;
        while !b.is_over() {
            let legal = b.legal_moves();
            assert!(!legal.is_empty(), "a game that is not over has a move");
            let pit = legal.clone().nth(rng.below(legal.count())).unwrap();
            b.play(pit).unwrap();
            moves += 1;
            assert!(moves <= bound);
        }
        assert!(b.outcome().is_some());
    };
    // once failed on: relay sowing, no captures, long laps
    let rules = Rules::new(6, 1)
        .unwrap()
        .with_capture(Capture::Never)
        .with_sowing(Sowing::Relay);
    let counts = [5, 10, 20, 21, 27, 21, 21, 12, 20, 27, 18, 23, 22, 8];
    property((
        Board::from_counts(rules, &counts, Side::South).unwrap(),
        6_130_799_721_854_550_398,
    ));
    for_all(CASES, |rng| (any_position(rng), rng.next_u64()), property);
}

#[test]
fn trace_and_fast_path_agree() {
    for_all(CASES, any_position, |board| {
        for pit in board.legal_moves() {
            let mut fast = board;
            let mut traced = board;
            let mut trace = Vec::new();
            let a = fast.play(pit).unwrap();
            let b = traced.play_traced(pit, &mut trace).unwrap();
            assert_eq!(a, b);
            assert_eq!(fast, traced);
            let mut unchecked = board;
            assert_eq!(unchecked.play_unchecked(pit), a);
            assert_eq!(unchecked, fast);

            // Replaying the steps on the old counts gives the new counts.
            let mut counts = board.counts().to_vec();
            for step in &trace {
                step.apply(&mut counts);
            }
            assert_eq!(&counts[..], fast.counts());
            assert_eq!(
                trace.first(),
                Some(&Step::Lift {
                    pit,
                    seeds: board.seeds(pit)
                })
            );
            assert_eq!(
                trace.iter().any(|s| matches!(s, Step::ExtraTurn)),
                a.extra_turn
            );
            assert_eq!(trace.last() == Some(&Step::GameOver), a.game_over);
        }
    });
}

/// The bound proved in the comment on `Board::sow`.
#[test]
fn relay_sowing_always_ends() {
    for_all(CASES, any_position, |board| {
        let rules = board.rules().with_sowing(Sowing::Relay);
        let b = Board::from_counts(rules, board.counts(), board.to_move()).unwrap();
        let t = u64::from(total(&b));
        let ring = 2 * rules.pits() as u64 + 1;
        for pit in b.legal_moves() {
            let mut trace = Vec::new();
            b.clone().play_traced(pit, &mut trace).unwrap();
            let drops = trace
                .iter()
                .filter(|s| matches!(s, Step::Sow { .. }))
                .count() as u64;
            assert!(
                drops <= (t + 1) * ring,
                "{drops} drops, bound {}",
                (t + 1) * ring
            );
        }
    });
}

#[test]
fn core_agrees_with_the_naive_oracle() {
    let property = |(board, choices): (Board, Vec<u8>)| {
        let mut b = board;
        let mut o = Oracle::new(board.rules(), board.counts(), board.to_move());
        assert_eq!(o.over, b.is_over());
        for c in choices {
            let legal: Vec<usize> = b.legal_moves().map(Pit::index).collect();
            assert_eq!(&legal, &o.legal());
            if legal.is_empty() {
                break;
            }
            let pit = legal[c as usize % legal.len()];
            let played = b.play(Pit::new(pit as u8)).unwrap();
            let (extra, captured) = o.play(pit);
            let cells: Vec<u32> = b.counts().iter().map(|&c| u32::from(c)).collect();
            assert_eq!(&cells, &o.cells);
            assert_eq!(played.extra_turn, extra);
            assert_eq!(played.capture.is_some(), captured);
            assert_eq!(b.is_over(), o.over);
            if !b.is_over() {
                assert_eq!(b.to_move().index(), o.mover);
            }
        }
    };
    property(remembered());
    for_all(CASES, |rng| position_and_choices(rng, 1, 29), property);
}
