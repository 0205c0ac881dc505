//! The database against an independent brute-force search, and the search
//! against the database.

use std::sync::Arc;

use super::endgame::{self, OwareEndgame, Probe};
use super::real::RealEndgame;
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
    lines(board, depth, memo, true, false)
}

/// [`forward`] with what holds of every line that does not end within
/// the depth: the mover gets between all and none of the seeds on the
/// board (however the round ends, a repetition's sweep included). The
/// database leaves such lines unbounded; the search bounds them so.
pub(crate) fn forward_bounded(board: &OwareBoard, depth: u32, memo: &mut Memo) -> (i32, i32) {
    lines(board, depth, memo, true, true)
}

/// [`forward`]'s bounds for the real round from `board` on (its captured
/// seeds kept, so that it stops when a player passes half of all seeds,
/// 25 of 48, the seeds left going to their sides): what the mover
/// captures from here on, the final sweep included, minus what the
/// opponent does. A line that does not end within the depth bounded as
/// [`forward_bounded`]'s are.
pub(crate) fn forward_real(board: &OwareBoard, depth: u32, memo: &mut Memo) -> (i32, i32) {
    lines(board, depth, memo, false, true)
}

/// [`forward`] (`played_out`) or [`forward_real`], with lines that do
/// not end within the depth unbounded or `bounded` by the seeds on the
/// board.
fn lines(
    board: &OwareBoard,
    depth: u32,
    memo: &mut Memo,
    played_out: bool,
    bounded: bool,
) -> (i32, i32) {
    if board.is_over() {
        // What is still to come: the sweep (and nothing captured before).
        let (s, c) = (board.score(), board.captured());
        let to_come = |side| i32::from(s.of(side)) - i32::from(c.of(side));
        let v = to_come(board.to_move()) - to_come(board.to_move().opponent());
        return (v, v);
    }
    if depth == 0 {
        let on_board = i32::from(board.seeds_in_houses(Side::South))
            + i32::from(board.seeds_in_houses(Side::North));
        return if bounded {
            (-on_board, on_board)
        } else {
            (i32::MIN, i32::MAX)
        };
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
            let (clo, chi) = lines(&next, depth - 1, memo, played_out, bounded);
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
/// goes below it, and calls exact only what holds however the round ends
/// (by the referee that bounds a line not ended by the seeds on the board:
/// a player who can surely take them all has nothing more to get).
#[test]
fn positions_marked_repetition_are_searched_on_and_proven_only_where_it_holds() {
    let db = Arc::new(OwareEndgame::build(6));
    let mut search = OwareSearch::new(12, Arc::clone(&db));
    let memo = &mut Memo::default();
    let mut checked = 0;
    let mut proven = 0;
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
        if result.proven {
            let value = result.value;
            assert_eq!(
                forward_bounded(&board, 40, memo),
                (value, value),
                "{houses:?}"
            );
            proven += 1;
        }
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
    // (3 of 20 proven when written: the comparison above has run)
    assert!(proven > 0, "none of {checked} proven");
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

/// A position with `n` seeds spread at random on the board, South to move,
/// the leader at 22 to 24 captured and the other the rest; `None` when
/// the round is over there.
fn near_25(rng: &mut crate::rng::Rng, n: u16) -> Option<OwareBoard> {
    let mut houses = [0u16; 12];
    for _ in 0..n {
        houses[rng.below(12)] += 1;
    }
    let leader = 22 + rng.below(3) as u16;
    let other = 48 - n - leader;
    let (south, north) = if rng.below(2) == 0 {
        (leader, other)
    } else {
        (other, leader)
    };
    let captured = crate::rules::Score { south, north };
    let board = OwareBoard::from_houses(OwareRules::ABAPA, &houses, captured, Side::South).unwrap();
    (!board.is_over()).then_some(board)
}

/// Near 25, `per_count` positions of each count of seeds in `counts`: what the search (probing a
/// database of 6 seeds, whose values there are the round played out's)
/// calls exact lies within what a plain exhaustive minimax of the real
/// round with no database ([`forward_real`]) proves; and the
/// search proves nearly all it proves (its bound searches have a budget).
/// Before, the search never called exact what it found below a position
/// the database marks as depending on repetition, nor a position whose
/// best line ends where a reply that does not end refuted another move:
/// short forced rounds were left unproven (RULES.md §7.9's example).
///
/// With `real`, the search also probes the real round's database of those
/// counts ([`RealEndgame`]): then it proves every value the minimax proves.
fn near_25_the_search_proves_what_a_plain_minimax_proves(
    counts: std::ops::RangeInclusive<u16>,
    per_count: usize,
    real: bool,
) {
    let db = Arc::new(OwareEndgame::build(6));
    let mut search = OwareSearch::new(14, Arc::clone(&db));
    if real {
        search.set_real(Arc::new(RealEndgame::build(usize::from(*counts.end()))));
    }
    let mut rng = crate::rng::Rng::new(34);
    let (mut proven, mut open, mut missed, mut through_marked) = (0, 0, 0, 0);
    for n in counts {
        // Each count's positions share one memo (the captured seeds are
        // part of the position).
        let memo = &mut Memo::default();
        let mut tried = 0;
        while tried < per_count {
            let Some(board) = near_25(&mut rng, n) else {
                continue;
            };
            tried += 1;
            let (houses, captured) = (board.houses(), board.captured());
            let (south, north) = (captured.south, captured.north);
            let (lo, hi) = forward_real(&board, 40, memo);
            let result = search.search(&board, 40, &Limits::none());
            let value = result.value - i32::from(south) + i32::from(north);
            // Within the referee's bounds, which a deeper referee only
            // narrows (the search's table keeps what it proved deeper).
            assert!(
                !result.proven || (lo..=hi).contains(&value),
                "{houses:?} {south}-{north}: {value} proven, the referee's bounds are {lo}..{hi}"
            );
            if lo == hi {
                missed += usize::from(!result.proven);
                proven += 1;
                let played_out =
                    OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
                through_marked += usize::from(db.probe(&played_out) == Probe::Repetition);
            } else {
                open += 1;
            }
        }
    }
    let missed_allowed = if real { 0 } else { proven / 10 };
    assert!(
        2 * proven > per_count && missed <= missed_allowed && open > 0 && through_marked > 0,
        "{proven} proven by the referee ({missed} not by the search, \
         {through_marked} marked played out), {open} open"
    );
}

/// [`near_25_the_search_proves_what_a_plain_minimax_proves`] on 3 to 5
/// seeds, within the suite's time.
#[test]
fn near_25_the_search_proves_what_a_plain_minimax_proves_on_few_seeds() {
    near_25_the_search_proves_what_a_plain_minimax_proves(3..=5, 12, false);
}

/// The same with the real round's database: nothing the minimax proves
/// is left unproven (without it, 17 of the on-demand test's positions
/// were: docs/PERFORMANCE.md).
#[test]
fn near_25_with_the_real_rounds_database_the_search_proves_all_a_minimax_proves() {
    near_25_the_search_proves_what_a_plain_minimax_proves(3..=5, 12, true);
}

/// [`near_25_the_search_proves_what_a_plain_minimax_proves`] on 3 to 8
/// seeds, 40 positions each, with the real round's database (on demand:
/// about 20 s of CPU with it; without it, 54 minutes and 17 values left
/// unproven: docs/PERFORMANCE.md).
#[test]
#[ignore = "long (about 20 s of CPU): run on demand with --ignored"]
fn near_25_the_search_proves_what_a_plain_minimax_proves_up_to_8_seeds() {
    near_25_the_search_proves_what_a_plain_minimax_proves(3..=8, 40, true);
}

/// Near 25 with 10 seeds on the board (too many for the plain minimax of
/// the tests above), 30 positions: on the same budget, the search proves
/// many more values with the real round's database than without it (the
/// round played out's database alone gives it winners, not margins).
#[test]
fn near_25_with_ten_seeds_the_real_rounds_database_proves_more() {
    let db = Arc::new(OwareEndgame::build(10));
    let real = Arc::new(RealEndgame::build(10));
    let mut rng = crate::rng::Rng::new(36);
    let (mut tried, mut without, mut with) = (0, 0, 0);
    while tried < 30 {
        let Some(board) = near_25(&mut rng, 10) else {
            continue;
        };
        tried += 1;
        let limits = Limits::nodes(200_000);
        let mut search = OwareSearch::new(16, Arc::clone(&db));
        let plain = search.search(&board, 64, &limits);
        let mut search = OwareSearch::new(16, Arc::clone(&db));
        search.set_real(Arc::clone(&real));
        let real_too = search.search(&board, 64, &limits);
        without += usize::from(plain.proven);
        with += usize::from(real_too.proven);
        if plain.proven && real_too.proven {
            assert_eq!(plain.value, real_too.value, "{board:?}");
        }
    }
    assert!(
        with >= 2 * without && with >= 15,
        "{with} proven with it, {without} without"
    );
}
