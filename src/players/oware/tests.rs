//! The database against an independent brute-force search, and the search
//! against the database.

use std::sync::Arc;

use super::endgame::{self, OwareEndgame, Probe};
use super::search::OwareSearch;
use crate::players::Limits;
use crate::rules::Side;
use crate::rules::oware::{OwareBoard, OwareRules};

/// Bounds of the played-out value of `board` for its mover by a forward
/// search of every line of at most `depth` plies, memoised: the lower
/// bound is what the mover forces by lines that end within the depth (a
/// line that does not is the worst for the mover), the upper bound the
/// same for the opponent. The database's retrograde sweeps must find the
/// same where the depth exceeds their number.
pub(crate) fn forward(board: &OwareBoard, depth: u32, memo: &mut Memo) -> (i32, i32) {
    lines(board, depth, memo, true)
}

/// [`forward`]'s bounds for the real round from `board` on (its captured
/// seeds kept, so that it stops when a player passes half of all seeds,
/// 25 of 48, the seeds left going to their sides): what the mover
/// captures from here on, the final sweep included, minus what the
/// opponent does.
pub(crate) fn forward_real(board: &OwareBoard, depth: u32, memo: &mut Memo) -> (i32, i32) {
    lines(board, depth, memo, false)
}

/// [`forward`] (`played_out`) or [`forward_real`].
fn lines(board: &OwareBoard, depth: u32, memo: &mut Memo, played_out: bool) -> (i32, i32) {
    if board.is_over() {
        // What is still to come: the sweep (and nothing captured before).
        let (s, c) = (board.score(), board.captured());
        let to_come = |side| i32::from(s.of(side)) - i32::from(c.of(side));
        let v = to_come(board.to_move()) - to_come(board.to_move().opponent());
        return (v, v);
    }
    if depth == 0 {
        return (i32::MIN, i32::MAX);
    }
    // An exact value at one depth is the value at every greater depth (a
    // deeper search only narrows the bounds), so it is kept for all of them.
    if let Some(&known) = memo
        .get(&(*board, EXACT))
        .or_else(|| memo.get(&(*board, depth)))
    {
        return known;
    }
    let mut best = (i32::MIN, i32::MIN);
    for pit in board.legal_moves() {
        let mut child = *board;
        let played = child.play_unchecked(pit);
        let c = i32::from(played.captured);
        let (lo, hi) = if played.end.is_some() {
            let me = played.mover.index();
            let v = c + i32::from(played.swept[me]) - i32::from(played.swept[1 - me]);
            (v, v)
        } else {
            // Played out, the child's captured seeds start again from
            // nothing.
            let next = if played_out {
                OwareBoard::played_out(OwareRules::ABAPA, &child.houses(), child.to_move()).unwrap()
            } else {
                child
            };
            let (clo, chi) = lines(&next, depth - 1, memo, played_out);
            let lo = if chi == i32::MAX { i32::MIN } else { c - chi };
            let hi = if clo == i32::MIN { i32::MAX } else { c - clo };
            (lo, hi)
        };
        best = (best.0.max(lo), best.1.max(hi));
    }
    let kept = if best.0 == best.1 { EXACT } else { depth };
    memo.insert((*board, kept), best);
    best
}

/// `forward`'s memo: bounds by position and depth.
pub(crate) type Memo = crate::rng::TestMap<(OwareBoard, u32), (i32, i32)>;

/// The memo's depth for values that no depth changes.
const EXACT: u32 = u32::MAX;

#[test]
fn ranks_and_unranks_agree_over_every_position_of_a_count() {
    for n in 0..=5 {
        let count = endgame::positions(n);
        for index in 0..count {
            let houses = endgame::unrank(index, n);
            assert_eq!(houses.iter().sum::<u16>() as usize, n);
            assert_eq!(endgame::rank(&houses), index);
        }
    }
    assert_eq!(endgame::positions(48), 279_871_768_995);
}

#[test]
fn database_values_agree_with_a_forward_search_on_small_counts() {
    let db = OwareEndgame::build(4);
    let (mut exact, mut repetition) = (0, 0);
    let mut memo = Memo::default();
    for n in 0..=4 {
        for index in 0..endgame::positions(n) {
            let houses = endgame::unrank(index, n);
            let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
            let (lo, hi) = forward(&board, 60, &mut memo);
            match db.probe(&board) {
                Probe::Value(v) => {
                    exact += 1;
                    assert_eq!((lo, hi), (i32::from(v), i32::from(v)), "{houses:?}");
                }
                Probe::Repetition => {
                    repetition += 1;
                    assert!(lo < hi, "{houses:?}: {lo} {hi}");
                }
                Probe::Outside => panic!("{n} seeds are in the database"),
            }
        }
    }
    assert!(
        exact > 300 && repetition > 0,
        "{exact} exact, {repetition} repetition"
    );
}

#[test]
fn the_database_file_round_trips_and_damage_is_refused() {
    let db = OwareEndgame::build(4);
    let bytes = db.to_bytes();
    assert_eq!(OwareEndgame::from_bytes(&bytes), Ok(db));
    let mut damaged = bytes.clone();
    damaged[20] ^= 1;
    assert!(OwareEndgame::from_bytes(&damaged).is_err());
    assert!(OwareEndgame::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(OwareEndgame::from_bytes(b"OWAREDB1").is_err());
}

#[test]
fn the_search_proves_values_from_the_database_and_finds_captures() {
    let db = Arc::new(OwareEndgame::build(6));
    let mut search = OwareSearch::new(12, Arc::clone(&db));
    // Six seeds: every child is in the database, so one ply proves the
    // root's value when every child's is exact, and it must be the
    // database's own.
    let mut checked = 0;
    for index in (0..endgame::positions(6)).step_by(97) {
        let houses = endgame::unrank(index, 6);
        let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
        let Probe::Value(v) = db.probe(&board) else {
            continue;
        };
        if board.is_over() {
            continue;
        }
        // A child whose value depends on repetition leaves it unproven.
        let result = search.search(&board, 4, &Limits::none());
        if result.proven {
            assert_eq!(result.value, i32::from(v), "{houses:?}");
            checked += 1;
        }
    }
    assert!(checked > 5, "{checked}");
    // RULES.md §7.3: f captures 5, more than anything else.
    let board = OwareBoard::from_houses(
        OwareRules::ABAPA,
        &[0, 0, 0, 0, 1, 2, 1, 2, 5, 0, 0, 0],
        crate::rules::Score {
            south: 15,
            north: 22,
        },
        Side::South,
    )
    .unwrap();
    let result = search.search(&board, 3, &Limits::none());
    assert_eq!(result.best, crate::rules::Rules::KALAH.pit_by_letter('f'));
}

/// A position whose value depends on repetition is searched on, not
/// valued by the evaluation where the database meets it: the search
/// goes below it, and calls nothing it finds there exact.
#[test]
fn positions_marked_repetition_are_searched_on_and_never_proven() {
    let db = Arc::new(OwareEndgame::build(6));
    let mut search = OwareSearch::new(12, Arc::clone(&db));
    let mut checked = 0;
    for index in (0..endgame::positions(6)).step_by(7) {
        let houses = endgame::unrank(index, 6);
        let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
        let children: Vec<OwareBoard> = board
            .legal_moves()
            .map(|pit| {
                let mut child = board;
                child.play_unchecked(pit);
                child
            })
            .collect();
        let marked = |b: &OwareBoard| !b.is_over() && db.probe(b) == Probe::Repetition;
        if children.len() < 2 || !children.iter().all(marked) {
            continue;
        }
        let result = search.search(&board, 4, &Limits::none());
        assert!(!result.proven, "{houses:?}");
        // Four iterations that stopped at the children would count the
        // root and its children four times.
        assert!(
            result.nodes > 4 * (1 + children.len() as u64),
            "{houses:?}: only {} positions searched",
            result.nodes
        );
        checked += 1;
        if checked == 20 {
            break;
        }
    }
    assert!(checked >= 5, "{checked}");
}

/// The worklist build gives every byte the sweeps gave: the file of
/// counts 0..=8 written by the value-iteration sweeps it replaced (every
/// position revalued from its re-derived moves until nothing changed,
/// commit e11c0f4's `oware_endgame 8 FILE`) ended in this checksum, and
/// its 125,987 bytes are the same length.
#[test]
fn the_worklist_build_gives_the_bytes_the_sweeps_gave() {
    let bytes = OwareEndgame::build(8).to_bytes();
    assert_eq!(bytes.len(), 125_987);
    let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
    assert_eq!(sum, 0x8d47_ba0a_6397_1115);
}

/// RULES.md §7.9's example: two seeds chasing each other, no line ends
/// without a repetition, so the position is marked, not valued.
#[test]
fn the_chase_of_two_seeds_is_marked_as_depending_on_repetition() {
    let db = OwareEndgame::build(3);
    let houses = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0];
    let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
    assert_eq!(db.probe(&board), Probe::Repetition);
    // A capture in reach is valued: South's `f` makes North's `g` two
    // seeds and takes them; North cannot feed South, so takes `h`'s seed
    // (RULES.md §7.5): 2 against 1.
    let houses = [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0];
    let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
    assert_eq!(db.probe(&board), Probe::Value(1));
}

/// Near 25 (48 seeds, a few on the board) the database's margin is the
/// round played out's, not the real round's, which stops when a player
/// passes 24 (RULES.md §7.9): a value the search calls exact is the real
/// one, by the referee's search of every real line, and where the
/// database's margin is not, the search does not take it.
#[test]
fn near_25_a_value_called_exact_is_the_real_rounds() {
    let db = Arc::new(OwareEndgame::build(5));
    let mut search = OwareSearch::new(14, Arc::clone(&db));
    let memo = &mut Memo::default();
    let (mut exact, mut differs) = (0, 0);
    for (n, south, north) in [
        (4, 24, 20),
        (4, 20, 24),
        (4, 23, 21),
        (5, 22, 21),
        (5, 21, 22),
    ] {
        for index in (0..endgame::positions(n)).step_by(3) {
            let houses = endgame::unrank(index, n);
            let captured = crate::rules::Score { south, north };
            let board =
                OwareBoard::from_houses(OwareRules::ABAPA, &houses, captured, Side::South).unwrap();
            if board.is_over() {
                continue;
            }
            let (lo, hi) = forward_real(&board, 40, memo);
            let played_out =
                OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
            if let Probe::Value(v) = db.probe(&played_out)
                && lo == hi
                && lo != i32::from(v)
            {
                differs += 1;
            }
            let result = search.search(&board, 12, &Limits::none());
            if result.proven {
                exact += 1;
                assert_eq!(
                    (result.value - i32::from(south) + i32::from(north), lo),
                    (lo, hi),
                    "{houses:?} {south}-{north}: the referee's bounds are {lo}..{hi}"
                );
            }
        }
    }
    // Real rounds whose margin the database has wrong, and values proven.
    assert!(
        differs > 20 && exact > 20,
        "{differs} differ, {exact} proven"
    );
}
