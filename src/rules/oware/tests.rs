//! Oware's rules on positions worked out by hand (RULES.md §7).

use super::*;
use crate::rules::{MoveError, Pit, Rules, Score, Side, Step};

fn pit(letter: char) -> Pit {
    Rules::KALAH.pit_by_letter(letter).unwrap()
}

fn board(houses: [u16; 12], captured: (u16, u16), to_move: Side) -> OwareBoard {
    board_with(OwareRules::ABAPA, houses, captured, to_move)
}

fn board_with(
    rules: OwareRules,
    houses: [u16; 12],
    (south, north): (u16, u16),
    to_move: Side,
) -> OwareBoard {
    OwareBoard::from_houses(rules, &houses, Score { south, north }, to_move).unwrap()
}

fn letters(board: &OwareBoard) -> String {
    board
        .legal_moves()
        .map(|p| Rules::KALAH.letter(p).unwrap())
        .collect()
}

#[test]
fn a_move_sows_one_seed_a_house_counter_clockwise_into_the_opponents_row() {
    let mut b = OwareBoard::new();
    assert_eq!(letters(&b), "abcdef");
    let played = b.play(pit('e')).unwrap();
    assert_eq!(b.houses(), [4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4]);
    assert_eq!(played.last, pit('i'));
    assert_eq!((played.captured, played.end), (0, None));
    assert_eq!(b.to_move(), Side::North);
    assert_eq!(letters(&b), "ghijkl");
    // North's l sows into South's a: the ring closes.
    b.play(pit('l')).unwrap();
    assert_eq!(b.houses(), [5, 5, 5, 5, 0, 5, 5, 5, 5, 4, 4, 0]);
}

#[test]
fn twelve_seeds_or_more_skip_the_emptied_house_on_every_lap() {
    let mut houses = [1; 12];
    houses[0] = 12;
    let mut b = board(houses, (0, 0), Side::South);
    let played = b.play(pit('a')).unwrap();
    // b..l get one each (11 seeds), a is skipped, the 12th lands in b.
    assert_eq!(b.houses(), [0, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    assert_eq!(played.last, pit('b'));
    let mut houses = [0; 12];
    houses[0] = 23;
    houses[7] = 1;
    let mut b = board(houses, (0, 0), Side::South);
    b.play(pit('a')).unwrap();
    // 23 seeds: two full laps of the 11 other houses, then b again.
    assert_eq!(b.houses(), [0, 3, 2, 2, 2, 2, 2, 3, 2, 2, 2, 2]);
}

#[test]
fn the_last_seed_making_two_or_three_captures_backwards_along_the_opponents_row() {
    // f sows g (1 -> 2) and h (2 -> 3): h and g captured, i's 5 stay.
    let b0 = board([0, 0, 0, 0, 1, 2, 1, 2, 5, 0, 0, 0], (0, 0), Side::South);
    let mut b = b0;
    let mut trace = Vec::new();
    let played = b.play_traced(pit('f'), &mut trace).unwrap();
    assert_eq!((played.captured, played.houses), (5, 2));
    assert_eq!(b.houses(), [0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0]);
    assert_eq!(b.captured(), Score { south: 5, north: 0 });
    let takes: Vec<Step> = trace
        .iter()
        .copied()
        .filter(|s| matches!(s, Step::Take { .. }))
        .collect();
    let store = Pit::new(6);
    assert_eq!(
        takes,
        [
            Step::Take {
                pit: pit('h'),
                seeds: 3,
                store
            },
            Step::Take {
                pit: pit('g'),
                seeds: 2,
                store
            },
        ]
    );
    // A house of 4 before it stops the chain; one of 1 too.
    for g in [3, 0] {
        let mut b = board([0, 0, 0, 0, 1, 2, g, 2, 5, 0, 0, 0], (0, 0), Side::South);
        let played = b.play(pit('f')).unwrap();
        assert_eq!((played.captured, played.houses), (3, 1), "g held {g}");
    }
    // A last seed in the mover's own row captures nothing.
    let mut b = board([1, 2, 0, 0, 0, 0, 1, 2, 5, 0, 0, 0], (0, 0), Side::South);
    assert_eq!(b.play(pit('a')).unwrap().captured, 0);
}

#[test]
fn a_grand_slam_captures_nothing_in_abapa_and_the_options_change_that() {
    // North has only g 1 and h 2; South's f 2 would make them 2 and 3.
    let houses = [0, 0, 0, 0, 1, 2, 1, 2, 0, 0, 0, 0];
    let mut b = board(houses, (10, 15), Side::South);
    let played = b.play(pit('f')).unwrap();
    assert!(played.grand_slam);
    assert_eq!(played.captured, 0);
    assert_eq!(b.houses(), [0, 0, 0, 0, 1, 0, 2, 3, 0, 0, 0, 0]);
    assert_eq!(played.end, None);

    let all = OwareRules {
        grand_slam: GrandSlam::CaptureAll,
    };
    let mut b = board_with(all, houses, (10, 15), Side::South);
    let played = b.play(pit('f')).unwrap();
    assert_eq!((played.captured, played.grand_slam), (5, false));
    // North is bare and cannot move: South takes its own 1.
    assert_eq!(played.end, Some(End::NoFeed));
    assert_eq!(
        b.score(),
        Score {
            south: 16,
            north: 15
        }
    );

    let illegal = OwareRules {
        grand_slam: GrandSlam::Illegal,
    };
    let b = board_with(illegal, houses, (10, 15), Side::South);
    assert_eq!(b.check(pit('f')), Err(MoveError::GrandSlam));
    assert_eq!(letters(&b), "e");
}

#[test]
fn a_bare_opponent_must_be_fed_when_a_move_can() {
    // North has nothing: a (1 seed) does not reach North's row, f does.
    let b = board([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], (23, 23), Side::South);
    assert_eq!(letters(&b), "f");
    assert_eq!(b.check(pit('a')), Err(MoveError::MustFeed));
    assert_eq!(
        b.check(pit('a')).unwrap_err().naming("Michael"),
        "Sorry, you must give Michael seeds."
    );
    // Six seeds in a reach g.
    let b = board([6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], (21, 21), Side::South);
    assert_eq!(letters(&b), "a");
}

#[test]
fn when_no_move_feeds_the_round_ends_and_each_takes_their_side() {
    // North's l reaches a (1 -> 2): a grand slam, so nothing is captured;
    // South's 2 in a cannot reach North: the round ends, 24-24.
    let mut b = board([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], (22, 24), Side::North);
    assert!(b.legal_moves().count() == 1);
    let mut trace = Vec::new();
    let played = b.play_traced(pit('l'), &mut trace).unwrap();
    assert!(played.grand_slam);
    assert_eq!(played.end, Some(End::NoFeed));
    assert_eq!(played.swept, [2, 0]);
    assert_eq!(
        b.score(),
        Score {
            south: 24,
            north: 24
        }
    );
    assert_eq!(trace.last(), Some(&Step::GameOver));
    assert!(b.is_over() && b.legal_moves().is_empty());
    assert_eq!(b.check(pit('a')), Err(MoveError::GameOver));
    // A position set up that way is over from the start.
    let b = board([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], (22, 24), Side::South);
    assert_eq!(b.end(), Some(End::NoFeed));
    assert_eq!(
        b.score(),
        Score {
            south: 24,
            north: 24
        }
    );
}

#[test]
fn capturing_more_than_half_ends_the_round_and_sweeps_the_rest() {
    // South has 22; f's capture of h and g (5) makes 27 of 48.
    let mut b = board([0, 0, 0, 0, 1, 2, 1, 2, 5, 0, 0, 0], (22, 15), Side::South);
    let played = b.play(pit('f')).unwrap();
    assert_eq!(played.end, Some(End::Goal));
    assert_eq!(played.swept, [1, 5]);
    assert_eq!(
        b.score(),
        Score {
            south: 28,
            north: 20
        }
    );
    assert_eq!(b.outcome(), Some(crate::rules::Outcome::Win(Side::South)));
}

#[test]
fn the_tracer_sees_every_seed_and_replaying_it_gives_the_position_after() {
    let mut b = OwareBoard::new();
    let mut round_moves = 0;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    while !b.is_over() && round_moves < 400 {
        let moves: Vec<Pit> = b.legal_moves().collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let choice = moves[(seed % moves.len() as u64) as usize];
        let mut counts = b.counts().to_vec();
        let mut fast = b;
        let mut trace = Vec::new();
        b.play_traced(choice, &mut trace).unwrap();
        fast.play_unchecked(choice);
        assert_eq!(fast, b);
        for step in &trace {
            step.apply(&mut counts);
        }
        assert_eq!(counts, b.counts());
        assert_eq!(b.counts().iter().sum::<u16>(), 48);
        round_moves += 1;
    }
}

#[test]
fn bad_positions_and_moves_are_refused_with_the_reason() {
    assert!(
        OwareBoard::from_houses(OwareRules::ABAPA, &[4; 11], Score::default(), Side::South)
            .is_err()
    );
    assert!(
        OwareBoard::from_houses(OwareRules::ABAPA, &[30; 12], Score::default(), Side::South)
            .is_err()
    );
    let b = OwareBoard::new();
    assert_eq!(b.check(Pit::new(6)), Err(MoveError::Store));
    assert_eq!(b.check(Pit::new(14)), Err(MoveError::NoSuchPit));
    assert_eq!(b.check(pit('g')), Err(MoveError::NotYours));
    let mut b = b;
    b.play(pit('a')).unwrap();
    b.play(pit('g')).unwrap();
    assert_eq!(b.check(pit('a')), Err(MoveError::Empty));
}

#[test]
fn games_parse_and_display() {
    assert_eq!("oware".parse::<Game>(), Ok(Game::Oware));
    assert_eq!("Kalah".parse::<Game>(), Ok(Game::Kalah));
    assert_eq!(Game::default(), Game::Kalah);
    assert!("chess".parse::<Game>().is_err());
    assert_eq!(Game::Oware.as_str(), "oware");
}
