//! The exact solver behind `perfect`, `mancala solve` and exact hints.
//!
//! # Value
//! The value of a position is the final score of the side to move minus its
//! opponent's when both play perfectly, with the rules in force (capture
//! rule, sowing, and sweep: with `sweep none` the seeds left in the pits
//! count for nobody). Internally the solver works on the *future margin*
//! (value minus today's store margin), which depends on the pits only; it
//! always lies within ± the seeds still in the pits, a bound used at every
//! node.
//!
//! # Method
//! - MTD(f): a sequence of null-window alpha-beta searches that close in on
//!   the value, each proving a bound.
//! - A transposition table of lower and upper bounds ([`SolveTable`]),
//!   keyed by the pits seen from the mover, kept across moves and rounds
//!   while the rules stay the same (an arena pays for the opening once).
//! - Enhanced transposition cutoffs: before searching, each move's result
//!   is looked up in the table and may cut off at once.
//! - An endgame database ([`Endgame`]): the exact future margin of every
//!   position with at most `K` seeds left in the pits, one byte each in a
//!   dense array indexed by rank, computed lazily by memoised recursion the
//!   first time the search reaches a position and kept for later moves (a
//!   move never adds seeds to the pits, and a move that keeps them all in
//!   the pits moves seeds towards the mover's store, so the recursion always
//!   ends).
//! - Move ordering: the table's move, then extra turns, then bigger gains.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::search::{Budget, Children, Next, move_number, seeds_in_play};
use super::tt::{SolveTable, position_key};
use super::{Limits, TurnFn};
use crate::rules::{Board, MAX_CELLS, Pit, Rules, Side};

/// Binomial coefficients `C(n, k)` for `n < 64`, `k <= 24`.
fn binomials() -> Vec<[u64; 25]> {
    let mut c = vec![[0u64; 25]; 64];
    for n in 0..64 {
        c[n][0] = 1;
        for k in 1..25.min(n + 1) {
            c[n][k] = c[n - 1][k - 1].saturating_add(if k < n { c[n - 1][k] } else { 0 });
        }
    }
    c
}

/// The exact future margin of every position with at most `max_seeds`
/// seeds in the pits, one byte each, indexed by the combinatorial rank of
/// the pit counts seen from the mover.
#[derive(Debug)]
pub struct Endgame {
    rules: Rules,
    max_seeds: u32,
    values: Vec<i8>,
    binomial: Vec<[u64; 25]>,
}

/// Marks a database entry not computed yet.
const UNKNOWN: i8 = i8::MIN;

impl Endgame {
    /// Positions a database of `pits` pits per side up to `seeds` seeds holds.
    #[must_use]
    pub fn size(pits: usize, seeds: u32) -> u64 {
        let b = binomials();
        let n = seeds as usize + 2 * pits;
        if n >= 64 {
            return u64::MAX;
        }
        b[n][2 * pits]
    }

    /// The largest seed count whose database holds at most `max_entries`
    /// positions (capped below the seeds of the game and at 100).
    #[must_use]
    pub fn seeds_for(rules: &Rules, max_entries: u64) -> u32 {
        let cap = (rules.total_seeds() as u32).min(100);
        let mut k = 0;
        while k < cap && Endgame::size(rules.pits(), k + 1) <= max_entries {
            k += 1;
        }
        k
    }

    /// An empty database of `rules` up to `max_seeds` seeds in the pits:
    /// entries are computed when first asked for (only positions the search
    /// reaches cost anything) and kept.
    #[must_use]
    pub fn new(rules: Rules, max_seeds: u32) -> Endgame {
        let pits = 2 * rules.pits();
        let binomial = binomials();
        let len = binomial[max_seeds as usize + pits][pits] as usize;
        Endgame {
            rules,
            max_seeds,
            values: vec![UNKNOWN; len],
            binomial,
        }
    }

    /// Computes every entry (for tests).
    #[cfg(test)]
    fn fill_all(&mut self) {
        let pits = 2 * self.rules.pits();
        let mut counts = [0u16; MAX_CELLS];
        let mut budget = Budget::new(&Limits::none(), None);
        for total in 0..=self.max_seeds {
            self.fill(&mut counts[..pits], 0, total, &mut budget);
        }
    }

    /// Computes every composition of `left` seeds over `counts[at..]`.
    #[cfg(test)]
    fn fill(&mut self, counts: &mut [u16], at: usize, left: u32, budget: &mut Budget) {
        if at + 1 == counts.len() {
            counts[at] = left as u16;
            let board = self.board_of(counts);
            self.solve(&board, budget);
            return;
        }
        for here in 0..=left {
            counts[at] = here as u16;
            self.fill(counts, at + 1, left - here, budget);
        }
    }

    /// South to move with `pits` (South's pits then North's), stores empty.
    fn board_of(&self, pits: &[u16]) -> Board {
        let n = self.rules.pits();
        let mut cells = [0u16; MAX_CELLS];
        cells[..n].copy_from_slice(&pits[..n]);
        cells[n + 1..2 * n + 1].copy_from_slice(&pits[n..]);
        Board::from_counts(self.rules, &cells[..2 * n + 2], Side::South)
            .expect("a database position is a valid board")
    }

    /// Seeds the database covers.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// The rank of a position (game not over or over) seen from the mover.
    #[inline]
    fn rank(&self, board: &Board) -> usize {
        let n = self.rules.pits();
        let c = board.counts();
        let (mine, theirs) = match board.to_move() {
            Side::South => (&c[..n], &c[n + 1..2 * n + 1]),
            Side::North => (&c[n + 1..2 * n + 1], &c[..n]),
        };
        // stars and bars: the i-th bar sits after the first i+1 pits' seeds
        let mut prefix = 0usize;
        let mut rank = 0u64;
        for (i, &x) in mine.iter().chain(theirs).enumerate() {
            prefix += usize::from(x);
            rank += self.binomial[prefix + i][i + 1];
        }
        rank as usize
    }

    /// The future margin of `board` (in play, at most `max_seeds` in the
    /// pits) for the side to move, computed now if not known yet (each
    /// position computed counts against `budget`; when the budget runs out
    /// the answer is meaningless and nothing unproven is kept).
    #[inline]
    pub(crate) fn value(&mut self, board: &Board, budget: &mut Budget) -> i32 {
        self.solve_relative(board, budget)
    }

    fn solve(&mut self, board: &Board, budget: &mut Budget) -> i32 {
        let index = self.rank(board);
        let known = self.values[index];
        if known != UNKNOWN {
            return i32::from(known);
        }
        if budget.tick() {
            return 0;
        }
        let value = if board.is_over() {
            // stores are empty in the table's boards: the sweep is the margin
            board.score().margin(board.to_move())
        } else {
            let mut best = i32::MIN;
            for child in Children::new(board).as_slice() {
                let rest = if child.next == Next::Over {
                    0
                } else {
                    self.solve_relative(&child.board, budget)
                };
                if budget.aborted {
                    return 0;
                }
                best = best.max(child.value(rest));
            }
            best
        };
        self.values[index] = value as i8;
        value
    }

    /// The future margin of a position reached in the search (its stores
    /// need not be empty).
    fn solve_relative(&mut self, board: &Board, budget: &mut Budget) -> i32 {
        let index = self.rank(board);
        let known = self.values[index];
        if known != UNKNOWN {
            return i32::from(known);
        }
        // the same pits with empty stores, seen from the mover as South
        let n = self.rules.pits();
        let c = board.counts();
        let mut pits = [0u16; MAX_CELLS];
        match board.to_move() {
            Side::South => {
                pits[..n].copy_from_slice(&c[..n]);
                pits[n..2 * n].copy_from_slice(&c[n + 1..2 * n + 1]);
            }
            Side::North => {
                pits[..n].copy_from_slice(&c[n + 1..2 * n + 1]);
                pits[n..2 * n].copy_from_slice(&c[..n]);
            }
        }
        let plain = self.board_of(&pits[..2 * n]);
        self.solve(&plain, budget)
    }
}

/// The answer of the solver for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final score of the side to move minus its opponent's with perfect play.
    pub value: i32,
    /// Every move that achieves it, in pit order (empty when the game is over).
    pub best: Vec<Pit>,
    /// Positions searched.
    pub nodes: u64,
}

/// Default table size of a solver: 128 MiB.
pub const DEFAULT_TABLE_BYTES: usize = 128 << 20;
/// Default endgame database size, in positions (one byte each, computed
/// lazily).
pub const DEFAULT_ENDGAME_ENTRIES: u64 = 40_000_000;

/// The exact solver: keeps its table and database between calls while the
/// rules stay the same.
#[derive(Debug)]
pub struct Solver {
    table: SolveTable,
    endgame: Option<Endgame>,
    endgame_entries: u64,
    rules: Option<Rules>,
    /// Positions searched by the last call.
    pub nodes: u64,
}

/// Enhanced transposition cutoffs are tried only where this many seeds or
/// more are in play (near the leaves they cost more than they save).
const ETC_MIN_SEEDS: i32 = 24;

impl Solver {
    /// A solver with a table of about `table_bytes` and an endgame database
    /// of at most `endgame_entries` positions (built when first needed).
    #[must_use]
    pub fn new(table_bytes: usize, endgame_entries: u64) -> Solver {
        Solver {
            table: SolveTable::with_bytes(table_bytes),
            endgame: None,
            endgame_entries,
            rules: None,
            nodes: 0,
        }
    }

    fn prepare(&mut self, rules: Rules) {
        if self.rules != Some(rules) {
            self.table.clear();
            let k = Endgame::seeds_for(&rules, self.endgame_entries);
            self.endgame = Some(Endgame::new(rules, k));
            self.rules = Some(rules);
        }
    }

    /// The value of `board` (see the module docs), or `None` when `limits`
    /// stopped the search first. A finished game is valued by its score.
    pub fn value(&mut self, board: &Board, limits: &Limits) -> Option<i32> {
        let mut budget = Budget::new(limits, None);
        let v = self.future(board, &mut budget);
        self.nodes = budget.nodes;
        v.map(|f| f + board.score().margin(board.to_move()))
    }

    /// The value and every best move, or `None` when stopped first.
    pub fn solve(&mut self, board: &Board, limits: &Limits) -> Option<Solution> {
        let mut budget = Budget::new(limits, None);
        let result = self.solve_with(board, &mut budget, true);
        self.nodes = budget.nodes;
        result
    }

    /// One best move and the value, or `None` when stopped first.
    pub fn best_move(&mut self, board: &Board, limits: &Limits) -> Option<(Pit, i32)> {
        let mut budget = Budget::new(limits, None);
        let result = self.solve_with(board, &mut budget, false);
        self.nodes = budget.nodes;
        result.and_then(|s| s.best.first().map(|&p| (p, s.value)))
    }

    /// The move the table currently prefers for `board`, if any.
    #[must_use]
    pub fn table_move(&self, board: &Board) -> Option<Pit> {
        let e = self.table.probe(position_key(board))?;
        let pit = self.rules?.pit(board.to_move(), usize::from(e.best) + 1)?;
        board.legal_moves().contains(pit).then_some(pit)
    }

    fn solve_with(&mut self, board: &Board, budget: &mut Budget, all: bool) -> Option<Solution> {
        let base = board.score().margin(board.to_move());
        if board.is_over() {
            return Some(Solution {
                value: base,
                best: Vec::new(),
                nodes: 0,
            });
        }
        let future = self.future(board, budget)?;
        let mut children = Children::new(board);
        let first = self
            .table
            .probe(position_key(board))
            .map_or(u8::MAX, |e| e.best);
        children.order(board.rules(), first);
        let mut best = Vec::new();
        for child in children.as_slice() {
            // does this move reach `future`? (it cannot do better)
            let reaches = match child.next {
                Next::Over => child.gain >= future,
                Next::Again => {
                    let need = future - child.gain;
                    self.search(&child.board, need - 1, need, budget) >= need
                }
                Next::Opponent => {
                    let allow = child.gain - future;
                    self.search(&child.board, allow, allow + 1, budget) <= allow
                }
            };
            if budget.aborted {
                return None;
            }
            if reaches {
                best.push(child.pit);
                if !all {
                    break;
                }
            }
        }
        if all {
            // listed in pit order; a player plays the first in search order
            best.sort();
        }
        debug_assert!(!best.is_empty(), "some move reaches the value");
        Some(Solution {
            value: base + future,
            best,
            nodes: budget.nodes,
        })
    }

    /// The future margin of `board` by MTD(f), or `None` when stopped.
    fn future(&mut self, board: &Board, budget: &mut Budget) -> Option<i32> {
        if board.is_over() {
            return Some(0);
        }
        self.prepare(*board.rules());
        let in_play = seeds_in_play(board);
        let (mut lower, mut upper) = (-in_play, in_play);
        let mut guess = self
            .table
            .probe(position_key(board))
            .map_or(0, |e| i32::from(e.lower).clamp(-in_play, in_play));
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            guess = self.search(board, beta - 1, beta, budget);
            if budget.aborted {
                return None;
            }
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        Some(lower)
    }

    /// Fail-soft alpha-beta on the future margin of `board` (in play).
    fn search(&mut self, board: &Board, mut alpha: i32, mut beta: i32, budget: &mut Budget) -> i32 {
        if budget.tick() {
            return 0;
        }
        let in_play = seeds_in_play(board);
        let endgame = self.endgame.as_mut().expect("prepared");
        if in_play as u32 <= endgame.max_seeds() {
            return endgame.value(board, budget);
        }
        if in_play <= alpha {
            return in_play;
        }
        if -in_play >= beta {
            return -in_play;
        }
        let key = position_key(board);
        let mut lower = -in_play;
        let mut upper = in_play;
        let mut first = u8::MAX;
        if let Some(e) = self.table.probe(key) {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
            first = e.best;
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let nodes_before = budget.nodes;
        let rules = *board.rules();
        let mut children = Children::new(board);
        if in_play >= ETC_MIN_SEEDS {
            // enhanced transposition cutoffs: a move whose known bound
            // already reaches beta ends the search here
            for child in children.as_slice() {
                let lower_bound = match child.next {
                    Next::Over => child.gain,
                    Next::Again | Next::Opponent => {
                        let Some(e) = self.table.probe(position_key(&child.board)) else {
                            continue;
                        };
                        match child.next {
                            Next::Again => child.gain + i32::from(e.lower),
                            _ => child.gain - i32::from(e.upper),
                        }
                    }
                };
                if lower_bound >= beta {
                    let number = move_number(&rules, child.pit);
                    self.table
                        .store(key, clamp16(lower_bound), clamp16(upper), number, 0);
                    return lower_bound;
                }
            }
        }
        children.order(&rules, first);
        let alpha_in = alpha;
        let mut best = -in_play - 1;
        let mut best_move = u8::MAX;
        for child in children.as_slice() {
            let value = match child.next {
                Next::Over => child.gain,
                Next::Again => {
                    child.gain
                        + self.search(&child.board, alpha - child.gain, beta - child.gain, budget)
                }
                Next::Opponent => {
                    child.gain
                        - self.search(&child.board, child.gain - beta, child.gain - alpha, budget)
                }
            };
            if budget.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = move_number(&rules, child.pit);
                if best >= beta {
                    break;
                }
                alpha = alpha.max(best);
            }
        }
        let work = (64 - (budget.nodes - nodes_before).leading_zeros()) as u8;
        let (lo, hi) = if best >= beta {
            (best, upper)
        } else if best <= alpha_in {
            (lower, best)
        } else {
            (best, best)
        };
        let stored_move = if best > alpha_in { best_move } else { u8::MAX };
        self.table
            .store(key, clamp16(lo), clamp16(hi), stored_move, work);
        best
    }
}

#[inline]
fn clamp16(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// `perfect`: plays a proven best move.
///
/// It ignores the think time and node budget (perfect play may take long
/// in the opening of big boards) but stops at once when the stop flag is
/// set, answering with the table's move or the first legal one.
#[derive(Debug)]
pub struct PerfectPlayer {
    solver: Solver,
}

impl PerfectPlayer {
    /// A perfect player with the default table and database sizes.
    #[must_use]
    pub fn new() -> PerfectPlayer {
        PerfectPlayer {
            solver: Solver::new(DEFAULT_TABLE_BYTES, DEFAULT_ENDGAME_ENTRIES),
        }
    }
}

impl Default for PerfectPlayer {
    fn default() -> Self {
        PerfectPlayer::new()
    }
}

impl TurnFn for PerfectPlayer {
    fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Pit> {
        let only_stop = Limits {
            deadline: None,
            nodes: None,
            stop: Arc::clone(&limits.stop),
        };
        if let Some((pit, _)) = self.solver.best_move(board, &only_stop) {
            return Some(pit);
        }
        self.solver
            .table_move(board)
            .or_else(|| board.legal_moves().next())
    }
}

/// Solves `board` with a fresh solver of the default sizes and no limit but
/// `stop`; also gives the seconds taken. For `mancala solve`.
#[must_use]
pub fn solve_once(board: &Board, stop: Arc<AtomicBool>) -> Option<(Solution, f64)> {
    let start = Instant::now();
    let mut solver = Solver::new(DEFAULT_TABLE_BYTES, DEFAULT_ENDGAME_ENTRIES);
    let limits = Limits {
        deadline: None,
        nodes: None,
        stop,
    };
    let solution = solver.solve(board, &limits)?;
    Some((solution, start.elapsed().as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::{Capture, Sowing, Sweep};

    /// Plain minimax to the end (memoised on the whole board): the value
    /// and every best move.
    fn brute(board: &Board) -> (i32, Vec<Pit>) {
        brute_memo(board, &mut std::collections::HashMap::new())
    }

    fn brute_memo(
        board: &Board,
        memo: &mut std::collections::HashMap<Board, i32>,
    ) -> (i32, Vec<Pit>) {
        let me = board.to_move();
        let base = board.score().margin(me);
        let mut best = i32::MIN;
        let mut moves = Vec::new();
        for child in Children::new(board).as_slice() {
            let rest = match child.next {
                Next::Over => 0,
                _ => {
                    let v = match memo.get(&child.board) {
                        Some(&v) => v,
                        None => {
                            let v = brute_memo(&child.board, memo).0;
                            memo.insert(child.board, v);
                            v
                        }
                    };
                    v - child.board.score().margin(child.board.to_move())
                }
            };
            let v = base + child.value(rest);
            if v > best {
                best = v;
                moves.clear();
            }
            if v == best {
                moves.push(child.pit);
            }
        }
        (best, moves)
    }

    fn first_player_value(rules: Rules) -> i32 {
        let mut solver = Solver::new(64 << 20, DEFAULT_ENDGAME_ENTRIES);
        solver.value(&Board::new(rules), &Limits::none()).unwrap()
    }

    #[test]
    fn solver_reproduces_kalah_6_3_capture_nonempty() {
        let rules = Rules::new(6, 3).unwrap().with_capture(Capture::NonEmpty);
        assert_eq!(first_player_value(rules), 2);
    }

    #[test]
    fn solver_reproduces_kalah_6_3_capture_always() {
        assert_eq!(first_player_value(Rules::new(6, 3).unwrap()), 2);
    }

    /// Issue 4's proven values (first player's final margin with perfect
    /// play): (pits, seeds, capture nonempty, capture always). Kalah(6,3)
    /// has tests of its own above; Kalah(6,4) is benchmark-only.
    const KNOWN_VALUES: [(usize, usize, i32, i32); 9] = [
        (3, 1, 0, 0),
        (3, 2, 4, 4),
        (3, 3, 2, 2),
        (4, 1, 2, 2),
        (4, 2, 6, 6),
        (4, 3, 6, 8),
        (4, 4, 2, 2),
        (6, 1, 2, 2),
        (6, 2, 6, 10),
    ];

    #[test]
    fn solver_reproduces_the_known_values_under_both_capture_rules() {
        for (pits, seeds, nonempty, always) in KNOWN_VALUES {
            for (capture, value) in [(Capture::NonEmpty, nonempty), (Capture::Always, always)] {
                let rules = Rules::new(pits, seeds).unwrap().with_capture(capture);
                assert_eq!(
                    first_player_value(rules),
                    value,
                    "Kalah({pits},{seeds}) capture {capture}"
                );
            }
        }
    }

    #[test]
    fn solver_agrees_with_brute_force_on_random_positions_of_every_variant() {
        let mut rng = Rng::new(2024);
        let variants = [
            Rules::new(3, 2).unwrap(),
            Rules::new(3, 2).unwrap().with_capture(Capture::NonEmpty),
            Rules::new(3, 3).unwrap().with_capture(Capture::Never),
            Rules::new(3, 2).unwrap().with_sowing(Sowing::Relay),
            Rules::new(3, 2).unwrap().with_sweep(Sweep::None),
            Rules::new(4, 2)
                .unwrap()
                .with_sowing(Sowing::Relay)
                .with_capture(Capture::Never)
                .with_sweep(Sweep::None),
        ];
        for rules in variants {
            // a small database, so that the search above it is tested too
            let mut solver = Solver::new(1 << 16, 50);
            for _ in 0..25 {
                let mut board =
                    Board::starting(rules, if rng.coin() { Side::South } else { Side::North });
                for _ in 0..rng.below(8) {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    board.play_unchecked(moves.into_iter().nth(rng.below(moves.count())).unwrap());
                }
                let solution = solver.solve(&board, &Limits::none()).unwrap();
                if board.is_over() {
                    assert_eq!(solution.value, board.score().margin(board.to_move()));
                    assert!(solution.best.is_empty());
                    continue;
                }
                let (value, best) = brute(&board);
                assert_eq!(
                    (solution.value, &solution.best),
                    (value, &best),
                    "{board:?}"
                );
                let (pit, v) = solver.best_move(&board, &Limits::none()).unwrap();
                assert_eq!(v, value);
                assert!(best.contains(&pit));
            }
        }
    }

    #[test]
    fn endgame_database_matches_brute_force() {
        let rules = Rules::new(3, 2).unwrap().with_capture(Capture::NonEmpty);
        let mut db = Endgame::new(rules, 6);
        db.fill_all();
        assert_eq!(db.values.len() as u64, Endgame::size(3, 6));
        assert!(
            db.values.iter().all(|&v| v != UNKNOWN),
            "every position filled"
        );
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let mut cells = [0u16; 8];
            for _ in 0..rng.below(7) {
                let pit = [0, 1, 2, 4, 5, 6][rng.below(6)];
                cells[pit] += 1;
            }
            cells[3] = rng.below(5) as u16;
            cells[7] = rng.below(5) as u16;
            let side = if rng.coin() { Side::South } else { Side::North };
            let board = Board::from_counts(rules, &cells, side).unwrap();
            if board.is_over() {
                continue;
            }
            let (value, _) = brute(&board);
            let mut budget = Budget::new(&Limits::none(), None);
            let future = db.value(&board, &mut budget);
            assert_eq!(future + board.score().margin(side), value, "{board:?}");
        }
    }

    #[test]
    fn a_stopped_solver_gives_up_and_the_player_still_moves() {
        let board = Board::new(Rules::new(6, 3).unwrap());
        let mut solver = Solver::new(1 << 16, 1000);
        assert_eq!(solver.value(&board, &Limits::nodes(100)), None);
        let limits = Limits::none();
        limits
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut player = PerfectPlayer {
            solver: Solver::new(1 << 16, 1000),
        };
        let pit = player.choose(&board, &limits).unwrap();
        assert!(board.legal_moves().contains(pit));
    }
}
