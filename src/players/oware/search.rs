//! Oware's search: iterative deepening negamax with alpha-beta and a
//! transposition table, probing the endgame database (RULES.md §7.9).
//!
//! Values are seed margins for the side to move: its captured seeds minus
//! the opponent's, the final sweep included at the end of the round.
//! Leaves are exact (a finished round, a value of the real round's
//! database near its end, [`RealEndgame`], or a played-out database value
//! where the round cannot stop at 25 with seeds left on the board) or
//! estimates
//! (the evaluation at the horizon, or there a database value whose
//! margin may not be the real one: such a position is searched on); a
//! database position whose value depends on repetition is searched on
//! too. A search result is exact when every leaf it rests on is: a probe
//! that is not exact is never one.
//! The table is allocated once: the search itself allocates nothing.

use std::sync::Arc;

use super::super::Limits;
use super::endgame::{OwareEndgame, Probe};
use super::real::RealEndgame;
use crate::rng::Rng;
use crate::rules::oware::OwareBoard;
use crate::rules::{Pit, Side};

/// Above every margin (48 seeds).
const INF: i32 = 10_000;
/// The evaluation's units per seed of margin.
const SEED: i32 = 16;
/// The largest iteration whose tree is searched again for bounds that
/// hold when it is not proven, and the most positions the two bound
/// searches may take together.
const PROVE_NODES: u64 = 1 << 16;
/// The longest principal variation reported.
pub const PV_MOVES: usize = 32;

#[derive(Clone, Copy, Default)]
struct OwareEntry {
    key: u64,
    value: i16,
    depth: u8,
    /// The bound `value` is: 1 exact, 2 lower, 3 upper.
    flags: u8,
    best: u8,
    /// The position's proven bounds in seeds ([`Proof::to_seeds`]).
    proof: [i8; 2],
}

const EXACT_BOUND: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// What is proven of a position's value, in 1/16 seed: bounds that hold
/// by lines that all end (a finished round, an exact database value),
/// whatever the search's window and horizon were; `-INF` and `INF` where
/// nothing is. The value is exact where they meet. Kept apart from the
/// search's value, which may be an estimate: a position whose best line
/// is not proven may still have a proven bound that settles its parent
/// (a reply that surely ends and is good enough for the opponent).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Proof {
    lo: i32,
    hi: i32,
}

impl Proof {
    const NOTHING: Proof = Proof { lo: -INF, hi: INF };

    const fn exact(value: i32) -> Proof {
        Proof {
            lo: value,
            hi: value,
        }
    }

    const fn is_exact(self) -> bool {
        self.lo == self.hi
    }

    /// What holds of every position: the mover ends between losing and
    /// winning every seed still on the board.
    fn trivial(board: &OwareBoard) -> Proof {
        let on_board = i32::from(board.seeds_in_houses(board.to_move()))
            + i32::from(board.seeds_in_houses(board.to_move().opponent()));
        let m = margin(board);
        Proof {
            lo: SEED * (m - on_board),
            hi: SEED * (m + on_board),
        }
    }

    /// Both facts at once.
    fn and(self, other: Proof) -> Proof {
        Proof {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        }
    }

    /// In whole seeds for the table (proven values are whole seeds;
    /// `i8::MIN` and `i8::MAX` for nothing proven).
    fn to_seeds(self) -> [i8; 2] {
        let lo = if self.lo <= -INF {
            i8::MIN
        } else {
            (self.lo / SEED) as i8
        };
        let hi = if self.hi >= INF {
            i8::MAX
        } else {
            (self.hi / SEED) as i8
        };
        [lo, hi]
    }

    fn from_seeds([lo, hi]: [i8; 2]) -> Proof {
        Proof {
            lo: if lo == i8::MIN {
                -INF
            } else {
                SEED * i32::from(lo)
            },
            hi: if hi == i8::MAX {
                INF
            } else {
                SEED * i32::from(hi)
            },
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwareSearchResult {
    /// The best move found (`None` when the round is over).
    pub best: Option<Pit>,
    /// The value in seeds for the side to move (the margin of the whole
    /// round, captured seeds so far included): exact when `proven`, else
    /// the search's estimate.
    pub value: i32,
    /// The value in seeds is exact (rests only on finished rounds and
    /// database values).
    pub proven: bool,
    /// The deepest iteration finished.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
}

/// What hears of every finished iteration: its result and principal
/// variation.
type IterationReport<'a> = dyn FnMut(&OwareSearchResult, &[Pit]) + 'a;

/// The searcher: its transposition table and the database it probes.
pub struct OwareSearch {
    table: Vec<OwareEntry>,
    mask: usize,
    endgame: Arc<OwareEndgame>,
    /// The real round's values near its end (exact leaves).
    real: Arc<RealEndgame>,
    nodes: u64,
    stopped: bool,
    /// A bound search past its budget ([`PROVE_NODES`]), or `stopped`:
    /// what is found is not kept.
    halted: bool,
    /// `None` for the search's estimate; in a bound search, the side
    /// whose every leaf not proven is valued at its worst (the least it
    /// surely gets), the other's at its best: the result is then a bound
    /// that holds, not an estimate ([`OwareSearch::prove`]).
    worst_for: Option<Side>,
    /// Where a bound search gives up (a count of positions).
    prove_until: u64,
    /// The best move at the root of the last search.
    root_best: Pit,
    /// The root's move that surely gets its proven lower bound, and that
    /// bound (the last search's).
    root_proven: (Pit, i32),
}

impl std::fmt::Debug for OwareSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwareSearch")
            .field("entries", &self.table.len())
            .field("endgame_seeds", &self.endgame.max_seeds())
            .finish_non_exhaustive()
    }
}

/// A position's table key (FNV-1a of its counts and the side to move).
fn key(board: &OwareBoard) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &c in board.counts() {
        h = (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3);
    }
    (h ^ board.to_move() as u64).wrapping_mul(0x0100_0000_01b3)
}

/// The margin of the side to move in seeds.
fn margin(board: &OwareBoard) -> i32 {
    let score = board.score();
    let me = board.to_move();
    i32::from(score.of(me)) - i32::from(score.of(me.opponent()))
}

/// The evaluation in units of 1/16 seed: the captured margin, plus a
/// little for seeds kept on one's own side (they are one's own at the
/// end and feed one's moves) and for mobility.
fn evaluate(board: &OwareBoard) -> i32 {
    let me = board.to_move();
    let mine = i32::from(board.seeds_in_houses(me));
    let theirs = i32::from(board.seeds_in_houses(me.opponent()));
    SEED * margin(board) + 4 * (mine - theirs) + 2 * board.legal_moves().count() as i32
}

impl OwareSearch {
    /// A searcher with a table of `2^bits` entries and `endgame` to probe.
    #[must_use]
    pub fn new(bits: u32, endgame: Arc<OwareEndgame>) -> OwareSearch {
        OwareSearch {
            table: vec![OwareEntry::default(); 1 << bits],
            mask: (1 << bits) - 1,
            endgame,
            real: Arc::new(RealEndgame::default()),
            nodes: 0,
            stopped: false,
            halted: false,
            prove_until: 0,
            worst_for: None,
            root_best: Pit::new(0),
            root_proven: (Pit::new(0), -INF),
        }
    }

    /// Searches `board` by iterative deepening until `max_depth`, the
    /// limits, or a proven value. No principal variation is built (see
    /// [`OwareSearch::principal_variation`] to read it afterwards).
    #[must_use]
    pub fn search(
        &mut self,
        board: &OwareBoard,
        max_depth: u32,
        limits: &Limits,
    ) -> OwareSearchResult {
        self.deepen(board, max_depth, limits, None)
    }

    /// [`OwareSearch::search`], handing the result of every finished
    /// iteration and its principal variation (at most [`PV_MOVES`]
    /// moves) to `report`: an engine's `info` lines.
    pub fn search_reporting(
        &mut self,
        board: &OwareBoard,
        max_depth: u32,
        limits: &Limits,
        report: &mut IterationReport<'_>,
    ) -> OwareSearchResult {
        self.deepen(board, max_depth, limits, Some(report))
    }

    /// The iterative deepening; the principal variation of each iteration
    /// is read from the table only for a `report`.
    fn deepen(
        &mut self,
        board: &OwareBoard,
        max_depth: u32,
        limits: &Limits,
        mut report: Option<&mut IterationReport<'_>>,
    ) -> OwareSearchResult {
        self.nodes = 0;
        self.stopped = false;
        self.halted = false;
        let mut result = OwareSearchResult {
            best: board.legal_moves().next(),
            value: margin(board),
            proven: board.is_over(),
            depth: 0,
            nodes: 0,
        };
        if board.is_over() {
            return result;
        }
        // Bound searches stop for good once one runs out of positions:
        // deeper trees only grow.
        let mut may_prove = true;
        for depth in 1..=max_depth {
            let before = self.nodes;
            let mut proof = Proof::NOTHING;
            let mut value = self.negamax(board, depth, -INF, INF, 0, &mut proof, limits);
            let mut best = self.root_best;
            let searched_proven = self.root_proven;
            // A small tree not proven (its best lines end, but a reply
            // that does not end refuted a move): what holds is bounded
            // by searching it again with every such leaf at its worst
            // for one side, then for the other.
            if may_prove && !self.stopped && !proof.is_exact() && self.nodes - before <= PROVE_NODES
            {
                let (proved, pit, finished) = self.prove(board, depth, limits);
                may_prove = finished;
                proof = proof.and(proved);
                if proof.is_exact() {
                    value = proof.lo;
                    // the move that surely gets the proven value
                    if proved.lo == proof.lo {
                        best = pit;
                    } else if searched_proven.1 == proof.lo {
                        best = searched_proven.0;
                    }
                }
            }
            if self.stopped {
                break;
            }
            let proven = proof.is_exact();
            result.best = Some(best);
            result.depth = depth;
            result.proven = proven;
            result.value = (value + SEED / 2).div_euclid(SEED);
            result.nodes = self.nodes;
            if let Some(report) = report.as_mut() {
                let mut line = [Pit::new(0); PV_MOVES];
                let len = self.principal_variation(board, &mut line);
                report(&result, &line[..len]);
            }
            if proven {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Bounds of `board`'s value that hold, by two bound searches to
    /// `depth` (the mover's leaves at their worst, then at their best),
    /// the root's best move of the first (which surely gets its lower
    /// bound), and whether they finished within their positions.
    fn prove(&mut self, board: &OwareBoard, depth: u32, limits: &Limits) -> (Proof, Pit, bool) {
        let me = board.to_move();
        let mut ignored = Proof::NOTHING;
        self.prove_until = self.nodes + PROVE_NODES;
        self.worst_for = Some(me);
        let lo = self.negamax(board, depth, -INF, INF, 0, &mut ignored, limits);
        let pit = self.root_best;
        self.worst_for = Some(me.opponent());
        let hi = self.negamax(board, depth, -INF, INF, 0, &mut ignored, limits);
        self.worst_for = None;
        if self.halted {
            self.halted = self.stopped;
            return (Proof::NOTHING, pit, false);
        }
        (Proof { lo, hi }, pit, true)
    }

    /// Probes `endgame` from now on (a database grown, or none): what the
    /// table holds stays true of a database grown, since every database
    /// value is exact; it is forgotten for a smaller one (an engine told
    /// not to use its database answers without it).
    pub fn set_endgame(&mut self, endgame: Arc<OwareEndgame>) {
        if endgame.max_seeds() < self.endgame.max_seeds() {
            self.clear();
        }
        self.endgame = endgame;
    }

    /// Probes `real` too: the real round's values near its end
    /// ([`RealEndgame`]). What the table holds stays true (every value
    /// it gives is exact).
    pub fn set_real(&mut self, real: Arc<RealEndgame>) {
        self.real = real;
    }

    /// Takes the process's real round's database once it is built, never
    /// waiting for it (its build starts as `board` nears the end:
    /// [`super::real::real_endgame_if_built`]).
    pub fn take_real_when_built(&mut self, board: &OwareBoard) {
        if self.real.max_seeds().is_none()
            && let Some(real) =
                super::real::real_endgame_if_built(usize::from(board.seeds_on_board()))
        {
            self.real = real;
        }
    }

    /// Forgets every position searched (a new game).
    pub fn clear(&mut self) {
        self.table.fill(OwareEntry::default());
    }

    /// The line the table holds from `board` into `line`: its best move,
    /// the best reply, and so on, stopping where the table has nothing,
    /// the move is not legal, or a position comes back. The moves written.
    pub fn principal_variation(&self, board: &OwareBoard, line: &mut [Pit]) -> usize {
        let mut seen = [0u64; PV_MOVES];
        let mut at = *board;
        let mut len = 0;
        while len < line.len().min(PV_MOVES) && !at.is_over() {
            let k = key(&at);
            let e = self.table[k as usize & self.mask];
            let pit = Pit::new(e.best);
            if e.key != k || seen[..len].contains(&k) || !at.legal_moves().contains(pit) {
                break;
            }
            seen[len] = k;
            at.play_unchecked(pit);
            line[len] = pit;
            len += 1;
        }
        len
    }

    /// The value of `board` for its mover in 1/16 seed (fail-soft, an
    /// estimate where a line meets the horizon); `proof` gets what is
    /// proven of it.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        board: &OwareBoard,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        proof: &mut Proof,
        limits: &Limits,
    ) -> i32 {
        *proof = Proof::NOTHING;
        // In a bound search, the bound that holds at a leaf not proven:
        // the least for the side valued at its worst, else the most.
        let at_worst = |p: Proof| {
            if self.worst_for == Some(board.to_move()) {
                p.lo
            } else {
                p.hi
            }
        };
        self.nodes += 1;
        if self.nodes & 4095 == 0
            && (limits.should_stop() || limits.nodes.is_some_and(|n| self.nodes >= n))
        {
            self.stopped = true;
        }
        if self.stopped || (self.worst_for.is_some() && self.nodes >= self.prove_until) {
            self.halted = true;
        }
        if self.halted {
            return 0;
        }
        if board.is_over() {
            *proof = Proof::exact(SEED * margin(board));
            return SEED * margin(board);
        }
        // The root is searched, so that it has a best move.
        if ply > 0
            && let Some(v) = self.real.probe(board)
        {
            let value = SEED * (margin(board) + i32::from(v));
            *proof = Proof::exact(value);
            return value;
        }
        match self.endgame.probe(board) {
            Probe::Value(v) if ply > 0 => {
                let captured = board.captured();
                let me = board.to_move();
                let m = i32::from(captured.of(me)) - i32::from(captured.of(me.opponent()));
                let value = SEED * (m + i32::from(v));
                if board.ends_as_played_out() {
                    *proof = Proof::exact(value);
                    return value;
                }
                // Near 25 the database's margin is the round played out's
                // (its winner is right, its margin perhaps not: RULES.md
                // §7.9): searched on, and the estimate at the horizon.
                if depth == 0 {
                    *proof = Proof::trivial(board);
                    return if self.worst_for.is_some() {
                        at_worst(*proof)
                    } else {
                        value
                    };
                }
            }
            // Searched on, as outside the database: the probe is no leaf.
            // What is found below is proven only where every line it rests
            // on ends (a capture, the end of the round), the database's
            // own test; played out that never happens where the database
            // found no value, but near 25 a line ends sooner (RULES.md
            // §7.9), so the value below can be exact.
            _ => {}
        }
        let k = key(board);
        let slot = k as usize & self.mask;
        // The estimate's leaves read no table (a cache miss a leaf): what
        // they prove is only what holds of every position.
        let entry = if depth > 0 || self.worst_for.is_some() {
            self.table[slot]
        } else {
            OwareEntry::default()
        };
        let known = if entry.key == k && entry.key != 0 {
            Proof::from_seeds(entry.proof).and(Proof::trivial(board))
        } else {
            Proof::trivial(board)
        };
        // What is proven holds at every depth and in either search.
        if ply > 0 && (known.is_exact() || known.lo >= beta || known.hi <= alpha) {
            *proof = known;
            return if known.lo >= beta { known.lo } else { known.hi };
        }
        if depth == 0 {
            *proof = known;
            return if self.worst_for.is_some() {
                at_worst(known)
            } else {
                evaluate(board)
            };
        }
        let mut first = None;
        if entry.key == k {
            first = Some(Pit::new(entry.best));
            // The table's values are estimates: not for a bound search.
            if ply > 0 && self.worst_for.is_none() && u32::from(entry.depth) >= depth {
                let v = i32::from(entry.value);
                let usable = match entry.flags & 3 {
                    EXACT_BOUND => true,
                    LOWER => v >= beta,
                    UPPER => v <= alpha,
                    _ => false,
                };
                if usable {
                    *proof = known;
                    return v;
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = first.unwrap_or(Pit::new(0));
        // Proven: the best any move searched surely gets, and the best
        // any move may get (unbounded once a move is left unsearched);
        // the move that surely gets the first.
        let mut proven = Proof { lo: -INF, hi: -INF };
        let mut proven_move = best_move;
        let mut searched = 0;
        let moves = board.legal_moves();
        let ordered = first
            .filter(|&p| moves.contains(p))
            .into_iter()
            .chain(moves.filter(|&p| Some(p) != first));
        for pit in ordered {
            let mut child = *board;
            child.play_unchecked(pit);
            let mut child_proof = Proof::NOTHING;
            let v = -self.negamax(
                &child,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                &mut child_proof,
                limits,
            );
            searched += 1;
            if -child_proof.hi > proven.lo {
                proven_move = pit;
            }
            proven.lo = proven.lo.max(-child_proof.hi);
            proven.hi = proven.hi.max(-child_proof.lo);
            if v > best {
                best = v;
                best_move = pit;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if searched < moves.count() {
            proven.hi = INF;
        }
        let children_lo = proven.lo;
        proven = proven.and(known);
        // A bound search's result is a bound that holds (for the side at
        // its worst when above alpha, for the other when below beta).
        match self.worst_for {
            Some(side) if side == board.to_move() && best > alpha0 => {
                proven.lo = proven.lo.max(best);
            }
            Some(side) if side != board.to_move() && best < beta => {
                proven.hi = proven.hi.min(best);
            }
            _ => {}
        }
        if self.halted {
            proven = Proof::NOTHING;
        } else if proven.is_exact() {
            best = proven.lo;
            // an exact value is reported with a move that surely gets it
            if children_lo == proven.lo && self.worst_for.is_none() {
                best_move = proven_move;
            }
        }
        if ply == 0 {
            self.root_best = best_move;
            self.root_proven = (proven_move, children_lo);
        }
        *proof = proven;
        if self.worst_for.is_some() {
            // Only what it proved is kept of a bound search (its values
            // are no estimates).
            if !self.halted {
                let e = &mut self.table[slot];
                if e.key != k {
                    *e = OwareEntry {
                        key: k,
                        best: best_move.index() as u8,
                        ..OwareEntry::default()
                    };
                }
                e.proof = proven.to_seeds();
            }
        } else if !self.halted {
            let bound = if best <= alpha0 {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT_BOUND
            };
            self.table[slot] = OwareEntry {
                key: k,
                value: best as i16,
                depth: depth.min(255) as u8,
                flags: bound,
                best: best_move.index() as u8,
                proof: proven.to_seeds(),
            };
        }
        best
    }
}

/// How an [`OwarePlayer`] chooses, with what each way needs (so that a
/// searching player always has its search, and no other has one).
enum OwareStyle {
    /// Any legal house, drawn from this generator.
    Random(Rng),
    /// The most seeds captured by this move (the first such house).
    Greedy,
    /// The search, at most `depth` plies deep, within the limits of each
    /// turn.
    Search {
        /// The deepest iteration.
        depth: u32,
        /// The searcher and its table.
        search: Box<OwareSearch>,
    },
}

/// An Oware turn function: random, greedy, or the search within its
/// limits.
pub struct OwarePlayer {
    style: OwareStyle,
    /// Probes the process's shared database once it holds more than the
    /// one given (see [`OwarePlayer::following_shelf`]).
    follows_shelf: bool,
}

/// Table size of a searching player: 2^20 entries of 16 bytes.
const PLAYER_TABLE_BITS: u32 = 20;

impl OwarePlayer {
    /// Uniformly random legal moves, fixed by `seed`.
    #[must_use]
    pub fn random(seed: u64) -> OwarePlayer {
        OwarePlayer {
            style: OwareStyle::Random(Rng::new(seed)),
            follows_shelf: false,
        }
    }

    /// The move that captures the most seeds now (the first such house).
    #[must_use]
    pub fn greedy() -> OwarePlayer {
        OwarePlayer {
            style: OwareStyle::Greedy,
            follows_shelf: false,
        }
    }

    /// The search to at most `depth` plies (and the limits of each turn),
    /// probing `endgame`.
    #[must_use]
    pub fn searching(depth: u32, endgame: Arc<OwareEndgame>) -> OwarePlayer {
        OwarePlayer {
            style: OwareStyle::Search {
                depth,
                search: Box::new(OwareSearch::new(PLAYER_TABLE_BITS, endgame)),
            },
            follows_shelf: false,
        }
    }

    /// This player, probing the process's shared database
    /// ([`super::shelf()`]) from the first move at which it holds more
    /// seed counts than the database it probes: it grows on a thread of
    /// its own, and is taken between moves, never waited for.
    #[must_use]
    pub fn following_shelf(mut self) -> OwarePlayer {
        self.follows_shelf = true;
        self
    }

    /// Chooses a house of the side to move; `None` once the round is over.
    pub fn choose(&mut self, board: &OwareBoard, limits: &Limits) -> Option<Pit> {
        let mut moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if self.follows_shelf
            && let OwareStyle::Search { search, .. } = &mut self.style
        {
            if let Some(db) = super::shelf().newer(&search.endgame) {
                search.set_endgame(db);
            }
            search.take_real_when_built(board);
        }
        match &mut self.style {
            OwareStyle::Search { depth, search } => search.search(board, *depth, limits).best,
            OwareStyle::Greedy => {
                let mut best = None;
                for pit in moves {
                    let mut next = *board;
                    let captured = next.play_unchecked(pit).captured;
                    if best.is_none_or(|(_, most)| captured > most) {
                        best = Some((pit, captured));
                    }
                }
                best.map(|(pit, _)| pit)
            }
            OwareStyle::Random(rng) => {
                let i = rng.below(moves.count());
                moves.nth(i)
            }
        }
    }
}
