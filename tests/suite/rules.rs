//! One test per rule of the core, each named after the rule it pins.

use mancala::rules::{
    Board, Capture, MoveError, Outcome, Pit, Rules, Side, Sowing, Step, Sweep, Variant,
};

const KALAH: Rules = Rules::KALAH;

fn pit(letter: char) -> Pit {
    KALAH.pit_by_letter(letter).unwrap()
}

fn board(counts: [u16; 14], to_move: Side) -> Board {
    Board::from_counts(KALAH, &counts, to_move).unwrap()
}

fn with(rules: Rules, counts: [u16; 14], to_move: Side) -> Board {
    Board::from_counts(rules, &counts, to_move).unwrap()
}

#[test]
fn start_position_has_four_seeds_in_each_pit_and_empty_stores() {
    let b = Board::new(KALAH);
    assert_eq!(b.counts(), &[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]);
    assert_eq!(b.to_move(), Side::South);
    assert!(!b.is_over());
    assert_eq!(b.outcome(), None);
}

#[test]
fn sowing_goes_counter_clockwise_one_seed_per_pit() {
    let mut b = Board::new(KALAH);
    let played = b.play(pit('b')).unwrap();
    assert_eq!(b.counts(), &[4, 0, 5, 5, 5, 5, 0, 4, 4, 4, 4, 4, 4, 0]);
    assert_eq!(played.last, pit('f'));
    assert!(!played.extra_turn);
    assert_eq!(b.to_move(), Side::North);
}

#[test]
fn north_sows_from_its_left_into_its_own_store_and_on_to_south() {
    let mut b = Board::starting(KALAH, Side::North);
    b.play(pit('k')).unwrap(); // k, l, North's store, a, b
    assert_eq!(b.counts(), &[5, 5, 4, 4, 4, 4, 0, 4, 4, 4, 4, 0, 5, 1]);
    assert_eq!(b.to_move(), Side::South);
}

#[test]
fn last_seed_in_own_store_gives_an_extra_turn() {
    let mut b = Board::new(KALAH);
    let played = b.play(pit('c')).unwrap();
    assert!(played.extra_turn);
    assert!(!played.extra_turn_voided);
    assert_eq!(played.last, KALAH.store(Side::South));
    assert_eq!(b.to_move(), Side::South);
}

#[test]
fn sowing_skips_the_opponents_store_for_south() {
    // f holds 10: South's store, g..l, (North's store skipped), a, b, c.
    let mut b = board([1, 1, 1, 1, 1, 10, 0, 1, 1, 1, 1, 1, 1, 0], Side::South);
    b.play(pit('f')).unwrap();
    assert_eq!(b.counts(), &[2, 2, 2, 1, 1, 0, 1, 2, 2, 2, 2, 2, 2, 0]);
}

#[test]
fn sowing_skips_the_opponents_store_for_north() {
    // l holds 10: North's store, a..f, (South's store skipped), g, h, i.
    let mut b = board([1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 10, 0], Side::North);
    b.play(pit('l')).unwrap();
    assert_eq!(b.counts(), &[2, 2, 2, 2, 2, 2, 0, 2, 2, 2, 1, 1, 0, 1]);
}

#[test]
fn thirteen_seeds_lap_the_board_and_capture_in_the_emptied_start_pit() {
    // 13 seeds from a: b..f, store, g..l, (skip), a again — a was emptied,
    // so the last seed captures itself and l across.
    let start = [13, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 0];
    let mut b = board(start, Side::South);
    let played = b.play(pit('a')).unwrap();
    assert_eq!(played.last, pit('a'));
    let c = played.capture.expect("capture in the emptied start pit");
    assert_eq!((c.pit, c.opposite, c.seeds), (pit('a'), pit('l'), 4));
    assert_eq!(b.counts(), &[0, 1, 1, 1, 1, 1, 5, 2, 2, 2, 2, 2, 0, 0]);

    let mut never = with(KALAH.with_capture(Capture::Never), start, Side::South);
    never.play(pit('a')).unwrap();
    assert_eq!(never.counts(), &[1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 0]);
}

#[test]
fn capture_takes_the_last_seed_and_the_opposite_pit_to_the_store() {
    // a (1 seed) lands in empty b; k across holds 5.
    let mut b = board([1, 0, 2, 0, 0, 0, 3, 1, 1, 1, 1, 5, 1, 0], Side::South);
    let played = b.play(pit('a')).unwrap();
    let c = played.capture.unwrap();
    assert_eq!((c.pit, c.opposite, c.seeds), (pit('b'), pit('k'), 6));
    assert_eq!(b.counts(), &[0, 0, 2, 0, 0, 0, 9, 1, 1, 1, 1, 0, 1, 0]);
    assert_eq!(b.to_move(), Side::North);
}

#[test]
fn capture_works_for_north_too() {
    // North's h (1 seed) lands in empty i; d across (12 - 9) holds 3.
    let mut b = board([1, 1, 1, 3, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0], Side::North);
    let c = b.play(pit('h')).unwrap().capture.unwrap();
    assert_eq!((c.pit, c.opposite, c.seeds), (pit('i'), pit('d'), 4));
    assert_eq!(b.seeds(KALAH.store(Side::North)), 4);
}

const OPPOSITE_EMPTY: [u16; 14] = [1, 0, 2, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0];

#[test]
fn capture_always_takes_the_last_seed_even_when_the_opposite_pit_is_empty() {
    let mut b = with(
        KALAH.with_capture(Capture::Always),
        OPPOSITE_EMPTY,
        Side::South,
    );
    let c = b.play(pit('a')).unwrap().capture.unwrap();
    assert_eq!(c.seeds, 1);
    assert_eq!(b.counts(), &[0, 0, 2, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0]);
}

#[test]
fn capture_nonempty_does_nothing_when_the_opposite_pit_is_empty() {
    let mut b = with(
        KALAH.with_capture(Capture::NonEmpty),
        OPPOSITE_EMPTY,
        Side::South,
    );
    assert_eq!(b.play(pit('a')).unwrap().capture, None);
    assert_eq!(b.counts(), &[0, 1, 2, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0]);
}

#[test]
fn capture_nonempty_still_captures_when_the_opposite_pit_holds_seeds() {
    let mut counts = OPPOSITE_EMPTY;
    counts[11] = 2;
    let mut b = with(KALAH.with_capture(Capture::NonEmpty), counts, Side::South);
    assert_eq!(b.play(pit('a')).unwrap().capture.unwrap().seeds, 3);
}

#[test]
fn capture_never_leaves_the_seeds_where_they_are() {
    let mut counts = OPPOSITE_EMPTY;
    counts[11] = 2;
    let mut b = with(KALAH.with_capture(Capture::Never), counts, Side::South);
    assert_eq!(b.play(pit('a')).unwrap().capture, None);
    assert_eq!(b.counts(), &[0, 1, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 1, 0]);
}

#[test]
fn no_capture_when_the_last_seed_lands_in_an_empty_pit_of_the_opponent() {
    // f (2 seeds): South's store, then empty g.
    let mut b = board([1, 0, 0, 0, 0, 2, 0, 0, 1, 1, 1, 1, 1, 0], Side::South);
    let played = b.play(pit('f')).unwrap();
    assert_eq!(played.capture, None);
    assert_eq!(b.counts(), &[1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0]);
}

#[test]
fn no_capture_when_the_last_seed_lands_in_an_occupied_own_pit() {
    let mut b = board([1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 5, 1, 0], Side::South);
    assert_eq!(b.play(pit('a')).unwrap().capture, None);
    assert_eq!(b.seeds(pit('b')), 2);
}

#[test]
fn game_ends_when_the_movers_side_is_empty_and_the_rest_is_swept_to_its_owner() {
    // South's last seed goes a -> b, capturing k: South's pits are empty.
    let mut b = board([1, 0, 0, 0, 0, 0, 10, 1, 1, 1, 1, 5, 1, 10], Side::South);
    let played = b.play(pit('a')).unwrap();
    assert!(played.game_over && b.is_over());
    assert_eq!(played.swept, [0, 5], "g, h, i, j and l swept to North");
    assert_eq!(b.counts(), &[0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 15]);
    assert_eq!(b.score().south, 16);
    assert_eq!(b.score().north, 15);
    assert_eq!(b.outcome(), Some(Outcome::Win(Side::South)));
    assert_eq!(b.legal_moves().count(), 0);
    assert_eq!(b.play(pit('g')), Err(MoveError::GameOver));
}

#[test]
fn a_capture_that_empties_the_opponents_side_ends_the_game() {
    // North's only seeds are in k; South captures them: North is empty.
    let mut b = board([1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 3, 0, 0], Side::South);
    let played = b.play(pit('a')).unwrap();
    assert!(played.game_over);
    assert_eq!(b.counts(), &[0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(b.outcome(), Some(Outcome::Win(Side::South)));
}

#[test]
fn extra_turn_is_void_when_the_move_ends_the_game() {
    let mut b = board([0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 1, 1, 1, 20], Side::South);
    let played = b.play(pit('f')).unwrap();
    assert!(played.game_over);
    assert!(!played.extra_turn);
    assert!(played.extra_turn_voided);
    assert_eq!(b.score().south, 21);
    assert_eq!(b.score().north, 26);
    assert_eq!(b.outcome(), Some(Outcome::Win(Side::North)));
}

#[test]
fn equal_scores_are_a_draw() {
    let mut b = board([0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0, 1, 20], Side::South);
    b.play(pit('f')).unwrap(); // 21 for South; North's l swept: 21
    assert_eq!(b.outcome(), Some(Outcome::Draw));
}

#[test]
fn sweep_none_leaves_the_remaining_seeds_uncounted() {
    let rules = KALAH.with_sweep(Sweep::None);
    let mut b = with(
        rules,
        [0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 1, 1, 1, 20],
        Side::South,
    );
    let played = b.play(pit('f')).unwrap();
    assert!(b.is_over());
    assert_eq!(played.swept, [0, 0], "nothing swept");
    assert_eq!(b.counts(), &[0, 0, 0, 0, 0, 0, 21, 1, 1, 1, 1, 1, 1, 20]);
    assert_eq!((b.score().south, b.score().north), (21, 20));
    assert_eq!(b.outcome(), Some(Outcome::Win(Side::South)));
}

#[test]
fn a_position_with_an_empty_side_is_already_over() {
    let b = board([0, 0, 0, 0, 0, 0, 20, 1, 1, 1, 1, 1, 1, 20], Side::South);
    assert!(b.is_over());
    assert_eq!((b.score().south, b.score().north), (20, 26));
    assert_eq!(b.legal_moves().count(), 0);
}

#[test]
fn invalid_moves_give_the_rules_3_7_messages_and_leave_the_board_untouched() {
    let mut b = Board::new(KALAH);
    let before = b;
    let cases = [
        (
            KALAH.store(Side::South),
            MoveError::Store,
            "Sorry, you can't select the store.",
        ),
        (
            KALAH.store(Side::North),
            MoveError::Store,
            "Sorry, you can't select the store.",
        ),
        (
            pit('h'),
            MoveError::NotYours,
            "Sorry, you don't control that pit.",
        ),
        (
            Pit::new(14),
            MoveError::NoSuchPit,
            "Sorry, there is no such pit.",
        ),
    ];
    for (p, error, message) in cases {
        assert_eq!(b.play(p), Err(error));
        assert_eq!(error.to_string(), message);
        assert_eq!(b, before);
    }
    b.play(pit('c')).unwrap();
    let after_c = b;
    assert_eq!(b.play(pit('c')), Err(MoveError::Empty));
    assert_eq!(MoveError::Empty.to_string(), "Sorry, that pit is empty.");
    assert_eq!(b, after_c);
    let mut trace = Vec::new();
    assert_eq!(b.play_traced(pit('c'), &mut trace), Err(MoveError::Empty));
    assert!(trace.is_empty());
}

#[test]
fn relay_sowing_lifts_an_occupied_pit_and_carries_on() {
    // a (2): b, c — c held 3, so its 4 are lifted: d, e, f, store: extra turn.
    let rules = Rules::AVALANCHE;
    let mut b = with(
        rules,
        [2, 0, 3, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0],
        Side::South,
    );
    let mut trace = Vec::new();
    let played = b.play_traced(pit('a'), &mut trace).unwrap();
    assert_eq!(played.relays, 1);
    assert!(played.extra_turn);
    assert_eq!(b.counts(), &[0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    assert!(trace.contains(&Step::Relay {
        pit: pit('c'),
        seeds: 4
    }));
}

#[test]
fn relay_sowing_relays_on_the_opponents_side_too() {
    // f (3): store, g, h — h held 2, lifted 3: i, j, k — k empty: turn over.
    let rules = Rules::AVALANCHE;
    let mut b = with(
        rules,
        [1, 0, 0, 0, 0, 3, 0, 0, 2, 0, 0, 0, 1, 0],
        Side::South,
    );
    let played = b.play(pit('f')).unwrap();
    assert_eq!(played.relays, 1);
    assert!(!played.extra_turn);
    assert_eq!(b.counts(), &[1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0]);
    assert_eq!(b.to_move(), Side::North);
}

#[test]
fn relay_sowing_ends_in_an_empty_pit_and_may_capture_there() {
    let rules = Rules::AVALANCHE.with_capture(Capture::Always);
    // a (2): b, c — c held 1, so its 2 are lifted: d, e — e was empty, so
    // the move ends there and captures e with h across (12 - 4 = 8).
    let start = [2, 0, 1, 0, 0, 0, 0, 1, 3, 1, 1, 1, 1, 0];
    let mut b = with(rules, start, Side::South);
    let played = b.play(pit('a')).unwrap();
    assert_eq!(played.relays, 1);
    let c = played.capture.expect("capture after a relay");
    assert_eq!((c.pit, c.opposite, c.seeds), (pit('e'), pit('h'), 4));
    assert_eq!(b.counts(), &[0, 1, 0, 1, 0, 0, 4, 1, 0, 1, 1, 1, 1, 0]);
    assert_eq!(b.to_move(), Side::North);

    // The avalanche preset itself never captures: the seed stays in e.
    let mut plain = with(Rules::AVALANCHE, start, Side::South);
    assert_eq!(plain.play(pit('a')).unwrap().capture, None);
    assert_eq!(plain.counts(), &[0, 1, 0, 1, 1, 0, 0, 1, 3, 1, 1, 1, 1, 0]);
}

#[test]
fn avalanche_preset_is_relay_without_capture_or_sweep() {
    let r = Variant::Avalanche.rules();
    assert_eq!((r.pits(), r.seeds()), (6, 4));
    assert_eq!(
        (r.capture(), r.sowing(), r.sweep()),
        (Capture::Never, Sowing::Relay, Sweep::None)
    );
    let k = Variant::Kalah.rules();
    assert_eq!(
        (k.capture(), k.sowing(), k.sweep()),
        (Capture::Always, Sowing::Single, Sweep::Owner)
    );
}

#[test]
fn rules_outside_the_playable_range_are_refused() {
    assert!(Rules::new(0, 4).is_err());
    assert!(Rules::new(13, 4).is_err());
    assert!(Rules::new(6, 0).is_err());
    assert!(Rules::new(6, 21).is_err());
    assert!(Rules::new(12, 20).is_ok());
    assert!(Rules::new(1, 1).is_ok());
}

#[test]
fn custom_positions_must_fit_the_board() {
    assert!(Board::from_counts(KALAH, &[4; 13], Side::South).is_err());
    assert!(
        Board::from_counts(
            KALAH,
            &[u16::MAX, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            Side::South
        )
        .is_err()
    );
}

#[test]
fn pit_letters_follow_rules_2_2_and_numbers_count_from_the_owners_left() {
    let letters: String = (0..14).filter_map(|i| KALAH.letter(Pit::new(i))).collect();
    assert_eq!(letters, "abcdefghijkl");
    assert_eq!(KALAH.letter(KALAH.store(Side::South)), None);
    assert_eq!(KALAH.pit(Side::South, 1), Some(pit('a')));
    assert_eq!(KALAH.pit(Side::North, 1), Some(pit('g')));
    assert_eq!(KALAH.pit(Side::North, 6), Some(pit('l')));
    assert_eq!(KALAH.pit(Side::North, 7), None);
    assert_eq!(KALAH.number(pit('j')), Some(4));
    assert_eq!(KALAH.letter_range(Side::North), "g-l");
    let four = Rules::new(4, 3).unwrap();
    let letters: String = (0..10).filter_map(|i| four.letter(Pit::new(i))).collect();
    assert_eq!(letters, "abcdefgh");
    assert_eq!(four.parse_pit("E", Side::South), Some(Pit::new(5)));
    assert_eq!(four.parse_pit("i", Side::South), None);
    assert_eq!(four.opposite(Pit::new(0)), Pit::new(8));
}

#[test]
fn classroom_test_board_move_gets_stones_from_the_opposite_row() {
    // a classroom test board (RULES.md §1.1), South to move, hole 2 holds 0 — playing hole 1
    // (3 seeds: b, c, d) ends in d, which is occupied: no capture.
    let b0 = board([3, 0, 6, 1, 2, 3, 3, 1, 2, 3, 6, 0, 2, 1], Side::South);
    let mut b = b0;
    let played = b.play(pit('a')).unwrap();
    assert_eq!(played.capture, None);
    // Hole e (2 seeds: f, store) gives an extra turn.
    let mut b = b0;
    assert!(b.play(pit('e')).unwrap().extra_turn);
}
