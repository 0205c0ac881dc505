//! Oware's search: iterative deepening negamax with alpha-beta and a
//! transposition table, probing the endgame database (RULES.md §7.9).
//!
//! Values are seed margins for the side to move: its captured seeds minus
//! the opponent's, the final sweep included at the end of the round.
//! Leaves are exact (a finished round, or a database value where the
//! round cannot stop at 25 with seeds left on the board) or estimates
//! (the evaluation at the horizon, or there a database value whose
//! margin may not be the real one: such a position is searched on); a
//! database position whose value depends on repetition is searched on,
//! and nothing found below it is exact. A search result is exact when every leaf it rests on is.
//! The table is allocated once: the search itself allocates nothing.

use std::sync::Arc;

use super::super::Limits;
use super::endgame::{OwareEndgame, Probe};
use crate::rng::Rng;
use crate::rules::Pit;
use crate::rules::oware::OwareBoard;

/// Above every margin (48 seeds).
const INF: i32 = 10_000;
/// The evaluation's units per seed of margin.
const SEED: i32 = 16;
/// The longest principal variation reported.
pub const PV_MOVES: usize = 32;

#[derive(Clone, Copy, Default)]
struct OwareEntry {
    key: u64,
    value: i16,
    depth: u8,
    /// Bit 0-1: bound (1 exact, 2 lower, 3 upper); bit 2: proven.
    flags: u8,
    best: u8,
}

const EXACT_BOUND: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const PROVEN: u8 = 4;

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
    nodes: u64,
    stopped: bool,
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
            nodes: 0,
            stopped: false,
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
        for depth in 1..=max_depth {
            let mut proven = true;
            let value = self.negamax(board, depth, -INF, INF, 0, &mut proven, limits);
            if self.stopped {
                break;
            }
            let e = self.table[key(board) as usize & self.mask];
            result.best = Some(Pit::new(e.best));
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

    /// Probes `endgame` from now on (a database grown, or none): what the
    /// table holds stays true, since every database value is exact.
    pub fn set_endgame(&mut self, endgame: Arc<OwareEndgame>) {
        self.endgame = endgame;
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

    /// The value of `board` for its mover in 1/16 seed; `proven` is
    /// cleared when it rests on an estimate.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        board: &OwareBoard,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        proven: &mut bool,
        limits: &Limits,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 4095 == 0
            && (limits.should_stop() || limits.nodes.is_some_and(|n| self.nodes >= n))
        {
            self.stopped = true;
        }
        if self.stopped {
            *proven = false;
            return 0;
        }
        if board.is_over() {
            return SEED * margin(board);
        }
        // The root is searched, so that it has a best move.
        match self.endgame.probe(board) {
            Probe::Value(v) if ply > 0 => {
                let captured = board.captured();
                let me = board.to_move();
                let m = i32::from(captured.of(me)) - i32::from(captured.of(me.opponent()));
                let value = SEED * (m + i32::from(v));
                if board.ends_as_played_out() {
                    return value;
                }
                // Near 25 the database's margin is the round played out's
                // (its winner is right, its margin perhaps not: RULES.md
                // §7.9): searched on, and the estimate at the horizon.
                if depth == 0 {
                    *proven = false;
                    return value;
                }
            }
            // Searched on, as outside the database: a value found below
            // is the search's, never proven (a line of it may repeat a
            // position, which ends a real round).
            Probe::Repetition => *proven = false,
            _ => {}
        }
        if depth == 0 {
            *proven = false;
            return evaluate(board);
        }
        let k = key(board);
        let slot = k as usize & self.mask;
        let entry = self.table[slot];
        let mut first = None;
        if entry.key == k {
            first = Some(Pit::new(entry.best));
            if ply > 0 && u32::from(entry.depth) >= depth {
                let v = i32::from(entry.value);
                let usable = match entry.flags & 3 {
                    EXACT_BOUND => true,
                    LOWER => v >= beta,
                    UPPER => v <= alpha,
                    _ => false,
                };
                if usable {
                    if entry.flags & PROVEN == 0 {
                        *proven = false;
                    }
                    return v;
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = first.unwrap_or(Pit::new(0));
        let mut all_proven = true;
        let moves = board.legal_moves();
        let ordered = first
            .filter(|&p| moves.contains(p))
            .into_iter()
            .chain(moves.filter(|&p| Some(p) != first));
        for pit in ordered {
            let mut child = *board;
            child.play_unchecked(pit);
            let mut child_proven = true;
            let v = -self.negamax(
                &child,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                &mut child_proven,
                limits,
            );
            all_proven &= child_proven;
            if v > best {
                best = v;
                best_move = pit;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if !all_proven {
            *proven = false;
        }
        if !self.stopped {
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
                flags: bound | if all_proven { PROVEN } else { 0 },
                best: best_move.index() as u8,
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
            && let Some(db) = super::shelf().newer(&search.endgame)
        {
            search.set_endgame(db);
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
