//! Oware's endgame database of the real round (RULES.md §7.7, §7.9): the
//! value of every position with at most `N` seeds on the board **for each
//! way the other 48 − n seeds are shared as captured**, with the round
//! stopping as soon as a player passes 24.
//!
//! The database of [`super::endgame`] holds one value a position, the
//! round played out: its winner is the real round's, its margin near 25
//! is not (RULES.md §7.9), so a search could call nothing there exact.
//! Here the seeds captured are part of the position. With `n` seeds on
//! the board and neither player past 24, the mover has captured
//! `a = 24 − n + s` for some `s` in `0..=n` (the opponent `24 − s`): `n + 1`
//! positions for each sharing of the board, indexed `rank · (n + 1) + s`.
//! A move that captures nothing leaves the opponent to move with `24 − s`
//! captured, that is `s' = n − s`; a capture of `k` that does not pass
//! 24 leaves `n − k` seeds and the opponent's `s' = n − k − s`; a move
//! that passes 24 (or ends the round otherwise) is valued on the spot.
//!
//! Repetition is valued as the played-out database values it: two bounds
//! that hold whatever the history, each a least fixed point over the
//! moves (what the mover can force by lines that surely end, and what the
//! opponent can hold them to the same way); a position has a value where
//! they meet, and is left out (the search searches on from it) where they
//! do not. The size is `n + 1` times the played-out count's: 33 M
//! positions to 12 seeds, so the database is built in memory, for the
//! counts near the end of a round.

use std::sync::{Arc, Once, OnceLock};

use crate::players::solver::prefetch::prefetch;

use super::endgame::{Bounds, UNKNOWN_HIGH, UNKNOWN_LOW, mover_first, positions, rank, unrank};
use crate::rules::oware::{HOUSES, OwareBoard, OwareRules};
use crate::rules::{Score, Side};

/// Every seed of a round of Oware.
const ALL_SEEDS: usize = 48;
/// Half of them: a player passing this has won, and the round stops.
const HALF: usize = ALL_SEEDS / 2;
/// The byte of a position the database has no value for (it depends on
/// repetition).
const NO_VALUE: i8 = i8::MIN;
/// Positions valued together in a round of the build.
const BATCH: usize = 64;
const UNKNOWN: Bounds = Bounds {
    lo: UNKNOWN_LOW,
    hi: UNKNOWN_HIGH,
};

/// The real round's values of every position with at most
/// [`RealEndgame::max_seeds`] seeds on the board (see the
/// [module docs](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RealEndgame {
    /// Count `n`'s values, a byte each at `rank · (n + 1) + s` (most
    /// have one: [`NO_VALUE`] marks the others).
    tables: Vec<Box<[i8]>>,
}

impl RealEndgame {
    /// Builds every count up to `max_seeds` (at most 24).
    #[must_use]
    pub fn build(max_seeds: usize) -> RealEndgame {
        let mut levels: Vec<Vec<Bounds>> = Vec::new();
        let mut tables = Vec::new();
        for n in 0..=max_seeds.min(HALF) {
            let mut level = build_count(n, &levels);
            // Whatever the history, the mover ends between losing and
            // winning every seed on the board: a bound found only on one
            // side may meet that one, and the counts above start from it.
            let most = n as i8;
            for b in &mut level {
                (b.lo, b.hi) = (b.lo.max(-most), b.hi.min(most));
            }
            tables.push(
                level
                    .iter()
                    .map(|b| if b.lo == b.hi { b.lo } else { NO_VALUE })
                    .collect(),
            );
            levels.push(level);
        }
        RealEndgame { tables }
    }

    /// The most seeds on the board the database covers (`None` when empty).
    #[must_use]
    pub fn max_seeds(&self) -> Option<usize> {
        self.tables.len().checked_sub(1)
    }

    /// Positions of count `n` with a value (of `(n + 1) · C(n + 11, 11)`).
    #[must_use]
    pub fn valued(&self, n: usize) -> u64 {
        self.tables
            .get(n)
            .map_or(0, |t| t.iter().filter(|&&v| v != NO_VALUE).count() as u64)
    }

    /// What the mover of `board` gets from here on, the final sweep
    /// included, minus what the opponent does, in the real round under
    /// perfect play; `None` when the database does not hold it (more seeds
    /// on the board, a value that depends on repetition, other rules, or
    /// not 48 seeds in all).
    #[must_use]
    pub fn probe(&self, board: &OwareBoard) -> Option<i16> {
        if board.is_over() || board.rules() != OwareRules::ABAPA {
            return None;
        }
        let houses = mover_first(board);
        let n: usize = houses.iter().map(|&c| usize::from(c)).sum();
        let table = self.tables.get(n)?;
        let captured = board.captured();
        let me = board.to_move();
        let (a, b) = (
            usize::from(captured.of(me)),
            usize::from(captured.of(me.opponent())),
        );
        if a + b + n != ALL_SEEDS || a > HALF || b > HALF {
            return None;
        }
        let key = rank(&houses) as usize * (n + 1) + (a + n - HALF);
        let v = table[key];
        (v != NO_VALUE).then_some(i16::from(v))
    }
}

/// Seeds on the board up to which a process builds the real round's
/// database ([`real_endgame`]): seconds on one core (docs/PERFORMANCE.md).
pub const REAL_SEEDS: usize = 12;

/// Seeds on the board from which a player's process starts building it
/// ([`real_endgame_if_built`]): early enough that it is there long before
/// a search reaches [`REAL_SEEDS`], late enough that a round far from its
/// end holds nothing of it (33 MB, about 180 MB while it builds).
pub const REAL_FROM_SEEDS: usize = 24;

static BUILT: OnceLock<Arc<RealEndgame>> = OnceLock::new();

/// The process's real round's database to [`REAL_SEEDS`]: built here,
/// at this thread's priority, unless it is built already. (Not waited for
/// on another thread's build: a player's is at the lowest priority, and
/// the analysis would wait on it; two builds at once each build it, and
/// the first kept is the one everybody takes.)
#[must_use]
pub fn real_endgame() -> Arc<RealEndgame> {
    if let Some(built) = BUILT.get() {
        return Arc::clone(built);
    }
    let built = Arc::new(RealEndgame::build(REAL_SEEDS));
    Arc::clone(BUILT.get_or_init(|| built))
}

/// The process's real round's database if something built it already.
#[must_use]
pub fn real_endgame_built() -> Option<Arc<RealEndgame>> {
    BUILT.get().cloned()
}

/// The process's real round's database once it is built, never waited
/// for: the first call for a position with at most [`REAL_FROM_SEEDS`]
/// seeds on the board starts its build on a thread of low priority (a
/// player takes it between moves).
#[must_use]
pub fn real_endgame_if_built(seeds_on_board: usize) -> Option<Arc<RealEndgame>> {
    static STARTED: Once = Once::new();
    if seeds_on_board <= REAL_FROM_SEEDS {
        STARTED.call_once(|| {
            // Without a thread, nothing is built and the players go on
            // without it.
            let _ = std::thread::Builder::new()
                .name("mancala-real-endgame".into())
                .spawn(|| {
                    crate::players::lower_thread_priority();
                    let _ = real_endgame();
                });
        });
    }
    BUILT.get().cloned()
}

/// The position of count `n`, split `s`, sharing `houses` (mover first):
/// South to move with `24 − n + s` captured.
fn board_of(houses: &[u16; 2 * HOUSES], n: usize, s: usize) -> OwareBoard {
    let captured = Score {
        south: (HALF - n + s) as u16,
        north: (HALF - s) as u16,
    };
    OwareBoard::from_houses(OwareRules::ABAPA, houses, captured, Side::South)
        .expect("a database position is a position")
}

/// One move of a sharing of the board, whatever the seeds captured: the
/// sowing and its capture do not depend on them, only whether the
/// capture passes 24 and so ends the round.
#[derive(Clone, Copy)]
struct Move {
    /// Seeds captured.
    captured: u8,
    /// The round ended whatever was captured before (nobody can be fed):
    /// the value for the mover. Else `None`.
    ended: Option<i8>,
    /// Seeds on the mover's side minus the opponent's after the move: what
    /// the sweep adds when the capture passes 24.
    sides: i8,
    /// The rank of the position after it (the opponent's row first).
    child: usize,
}

/// The moves of the sharing `houses` of `n` seeds, or `Err` with the value
/// of a round already over (the mover cannot move).
fn moves(houses: &[u16; 2 * HOUSES], n: usize, out: &mut Vec<Move>) -> Result<(), i8> {
    out.clear();
    // With the opponent at 24, the mover's captures never pass 24 (they
    // take at most `n` of `24 − n + n`): only the endings that do not
    // depend on the seeds captured show here.
    let board = board_of(houses, n, 0);
    if board.is_over() {
        return Err(to_come(&board));
    }
    for pit in board.legal_moves() {
        let mut child = board;
        let played = child.play_unchecked(pit);
        let me = played.mover;
        let ended = played.end.map(|_| {
            let i = me.index();
            (played.captured as i16 + played.swept[i] as i16 - played.swept[1 - i] as i16) as i8
        });
        let sides = child.seeds_in_houses(me) as i16 - child.seeds_in_houses(me.opponent()) as i16;
        out.push(Move {
            captured: played.captured as u8,
            ended,
            sides: sides as i8,
            child: rank(&mover_first(&child)) as usize,
        });
    }
    Ok(())
}

/// A bound from `below` (final), as the parent's: `c` minus it.
fn from_below(c: i16, bound: i8) -> i16 {
    c - i16::from(bound)
}

/// The least fixed point of count `n`'s bounds, the counts below final.
///
/// The moves are worked out once, in a first pass that also finds each
/// position's bounds from its moves that end the round or capture; what
/// links the positions of this count (the moves that capture nothing,
/// and the same links backwards) is kept as two lists of ranks, so that
/// each later round is only reads of bounds. A rank whose bounds change
/// marks its parents to be valued again: later in the same round when
/// they come after it, else in the next. Bounds only tighten, so this
/// reaches the least fixed point whatever the order.
fn build_count(n: usize, below: &[Vec<Bounds>]) -> Vec<Bounds> {
    let per = n + 1;
    let ranks = usize::try_from(positions(n)).expect("a count that fits in memory");
    let mut level = vec![UNKNOWN; ranks * per];
    // What each position has whatever its own count holds.
    let mut fixed = vec![UNKNOWN; ranks * per];
    // Each rank's moves into this count: `kids[starts[r]..starts[r + 1]]`.
    let mut starts: Vec<u32> = Vec::with_capacity(ranks + 1);
    let mut kids: Vec<u32> = Vec::with_capacity(ranks * 3);
    let mut list: Vec<Move> = Vec::with_capacity(HOUSES);
    for r in 0..ranks {
        starts.push(kids.len() as u32);
        let houses = unrank(r as u64, n);
        let keys = r * per..(r + 1) * per;
        match moves(&houses, n, &mut list) {
            Err(v) => fixed[keys].fill(Bounds { lo: v, hi: v }),
            Ok(()) => {
                for (s, f) in fixed[keys].iter_mut().enumerate() {
                    *f = fixed_bounds(&list, n, s, below);
                }
                let same = list.iter().filter(|m| m.captured == 0 && m.ended.is_none());
                kids.extend(same.map(|m| m.child as u32));
            }
        }
    }
    starts.push(kids.len() as u32);
    // The same links backwards.
    let mut from = vec![0u32; ranks + 1];
    for &k in &kids {
        from[k as usize + 1] += 1;
    }
    for r in 0..ranks {
        from[r + 1] += from[r];
    }
    let mut parents = vec![0u32; kids.len()];
    let mut fill = from.clone();
    for r in 0..ranks {
        for &k in &kids[starts[r] as usize..starts[r + 1] as usize] {
            parents[fill[k as usize] as usize] = r as u32;
            fill[k as usize] += 1;
        }
    }
    drop(fill);
    let mut round = vec![true; ranks];
    let mut next = vec![false; ranks];
    // Ranks valued together: their children's bounds prefetched first
    // (each a cache miss), then read.
    let mut batch: Vec<usize> = Vec::with_capacity(BATCH);
    loop {
        let mut any = false;
        let mut r0 = 0;
        while r0 < ranks {
            batch.clear();
            while r0 < ranks && batch.len() < BATCH {
                if std::mem::take(&mut round[r0]) {
                    batch.push(r0);
                    for &kid in &kids[starts[r0] as usize..starts[r0 + 1] as usize] {
                        prefetch(&level[kid as usize * per]);
                    }
                }
                r0 += 1;
            }
            for &r in &batch {
                let mine = &kids[starts[r] as usize..starts[r + 1] as usize];
                let mut changed = false;
                for s in 0..per {
                    let key = r * per + s;
                    let mut b = fixed[key];
                    for &kid in mine {
                        let c = level[kid as usize * per + (n - s)];
                        b.lo = b.lo.max(c.hi.saturating_neg());
                        b.hi = b.hi.max(c.lo.saturating_neg());
                    }
                    if b != level[key] {
                        level[key] = b;
                        changed = true;
                    }
                }
                if !changed {
                    continue;
                }
                for &parent in &parents[from[r] as usize..from[r + 1] as usize] {
                    let parent = parent as usize;
                    if parent >= r0 {
                        // still to come this round
                        round[parent] = true;
                    } else {
                        next[parent] = true;
                        any = true;
                    }
                }
            }
        }
        if !any {
            break;
        }
        std::mem::swap(&mut round, &mut next);
    }
    level
}

/// The bounds of split `s` from its moves that end the round or capture.
fn fixed_bounds(list: &[Move], n: usize, s: usize, below: &[Vec<Bounds>]) -> Bounds {
    let mut best = (i16::MIN, i16::MIN);
    for m in list {
        let c = usize::from(m.captured);
        let (lo, hi) = if let Some(v) = m.ended {
            (i16::from(v), i16::from(v))
        } else if c == 0 {
            continue;
        } else if s + c > n {
            // past 24: the round ends, each side sweeping its own
            let v = c as i16 + i16::from(m.sides);
            (v, v)
        } else {
            let rest = n - c;
            let b = below[rest][m.child * (rest + 1) + (rest - s)];
            (from_below(c as i16, b.hi), from_below(c as i16, b.lo))
        };
        best = (best.0.max(lo), best.1.max(hi));
    }
    let clamp = |v: i16| v.clamp(i16::from(UNKNOWN_LOW), i16::from(UNKNOWN_HIGH)) as i8;
    Bounds {
        lo: clamp(best.0),
        hi: clamp(best.1),
    }
}

/// What is still to come in a finished round for its mover: the sweep.
fn to_come(board: &OwareBoard) -> i8 {
    let (score, captured) = (board.score(), board.captured());
    let me = board.to_move();
    let of = |side| score.of(side) as i16 - captured.of(side) as i16;
    (of(me) - of(me.opponent())) as i8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::oware::tests::{Memo, forward_real};

    /// RULES.md §7.9's example: 24 to 20 captured, South to move with four
    /// seeds on the board. Played out it is worth 0 to South; in the real
    /// round 2 (`d`, North's only `g`, `e` takes 2 and passes 24). The
    /// same sharing of seeds for North is another position; other totals
    /// and rules are not held.
    #[test]
    fn the_example_near_25_is_worth_its_real_margin() {
        let db = RealEndgame::build(4);
        let houses = [0, 0, 0, 1, 2, 0, 1, 0, 0, 0, 0, 0];
        let at = |south, north, side| {
            OwareBoard::from_houses(OwareRules::ABAPA, &houses, Score { south, north }, side)
                .unwrap()
        };
        assert_eq!(db.probe(&at(24, 20, Side::South)), Some(2));
        let played_out = super::super::OwareEndgame::build(4);
        let board = OwareBoard::played_out(OwareRules::ABAPA, &houses, Side::South).unwrap();
        assert_eq!(played_out.probe(&board), super::super::Probe::Value(0));
        // North 24, South 20: South needs 5 of the 4 on the board, North
        // one capture.
        assert_ne!(db.probe(&at(20, 24, Side::South)), Some(2));
        assert_eq!(db.probe(&at(20, 20, Side::South)), None, "44 seeds in all");
        let rules = OwareRules {
            grand_slam: crate::rules::oware::GrandSlam::Illegal,
        };
        let other = OwareBoard::from_houses(
            rules,
            &houses,
            Score {
                south: 24,
                north: 20,
            },
            Side::South,
        );
        assert_eq!(db.probe(&other.unwrap()), None, "other rules");
        assert_eq!(RealEndgame::default().probe(&at(24, 20, Side::South)), None);
    }

    /// Every value the database holds is the one a plain exhaustive
    /// minimax of the real round proves where it proves one, and where
    /// that minimax proves a value (every line ends within its depth),
    /// the database holds it too.
    #[test]
    fn the_real_rounds_values_are_a_plain_minimax_s() {
        let db = RealEndgame::build(6);
        let (mut agreed, mut held) = (0, 0);
        for n in 1..=6usize {
            let memo = &mut Memo::default();
            for index in (0..positions(n)).step_by(7) {
                let houses = unrank(index, n);
                for s in 0..=n {
                    let board = board_of(&houses, n, s);
                    if board.is_over() {
                        continue;
                    }
                    let (lo, hi) = forward_real(&board, 24, memo);
                    let probe = db.probe(&board);
                    if let Some(v) = probe {
                        held += 1;
                        assert!(
                            (lo..=hi).contains(&i32::from(v)),
                            "{houses:?} s {s}: {v} held, the minimax's bounds {lo}..{hi}"
                        );
                    }
                    if lo == hi {
                        agreed += 1;
                        assert_eq!(probe, Some(lo as i16), "{houses:?} s {s}");
                    }
                }
            }
        }
        assert!(
            agreed > 100 && held >= agreed,
            "{agreed} proven, {held} held"
        );
    }
}
