//! The analysis of a recorded round: for every move, what it was worth
//! under perfect play and what it cost.
//!
//! # Values
//! The *value* of a position for a side is that side's final score minus
//! its opponent's when both play perfectly from there (the solver's value,
//! [`crate::players::solver`]). For each move:
//! - `before` is the value of the position the move was played in, for the
//!   side that played it (the mover);
//! - `after` is the value of the position the move led to, for the same
//!   mover: after a move that earned an extra turn the mover is to move
//!   again and its value is taken as it is; otherwise the opponent is to
//!   move and its value is negated; a move that ended the round is worth
//!   the final margin;
//! - `loss` is `before - after`: the seeds of final margin the move gave
//!   away, 0 for a perfect move (never negative when both are proven).
//!
//! # Proven or estimated
//! Each Kalah position is valued by the exact solver within a budget per
//! position; the opening book answers the standard boards' first plies at
//! once, and the position the book's move leads to off it is worth what
//! the book's position was (its move played named as a best move where it
//! keeps that value, [`MoveAnalysis::all_best`] false). Where neither
//! proves the value in time (big boards such as Kalah(6,6)), the value is the `hard` engine's estimate, kept within the
//! bounds the solver did prove, and marked as not exact ([`Valuation`]).
//! The best pits are then the book's or the engine's choice, and
//! [`MoveAnalysis::all_best`] is false.
//!
//! # Both families
//! A round is a [`GameRound`] of either family, and the analysis is the
//! same for both ([`Analyst::round_from`], [`RoundAnalyser`]): only the
//! valuing of one position is the family's. Oware has no extra turns, and
//! its positions are valued by its search ([`OwareSearch`]) probing the
//! endgame databases (the round played out's, [`analysis_endgame`], and
//! the real round's near its end, [`real::real_endgame`]): exact
//! where the value rests only on finished rounds and exact database
//! values, else the search's estimate within the budget, marked as not
//! exact, between the bounds every value has (the margin now, give or
//! take every seed still on the board). The search names one best house,
//! so [`MoveAnalysis::all_best`] is false for Oware.
//!
//! A move that was the only legal one is worth the value after it, when
//! that is proven: the round had no choice there. So a round that went
//! round to a repetition, whose end its history decides (RULES.md §7.6),
//! is valued as it went, where a search of each position alone could only
//! estimate it.
//!
//! Nothing here reads or writes anything: it is given the round's start
//! and its moves, and returns figures.

pub mod live;
pub mod puzzles;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::players::oware::{DEEPEST, OwareSearch, analysis_endgame, real};
use crate::players::solver::{DEFAULT_PLAYER_MEMORY, SolveOutcome, book};
use crate::players::{Engine, Level, Limits, Solver};
use crate::rules::oware::OwareBoard;
use crate::rules::{
    Board, Game, GameBoard, GameRound, MoveError, NoTrace, Pit, Rules, Side, Sowing,
};

/// Time per position of an analysis a player asks for while playing or
/// replaying (the end of a round, the replay), and of the analysis worked
/// out as a round is played.
pub const DEFAULT_THINK: Duration = Duration::from_secs(1);

/// A value and how sure it is: proven to lie in `lower..=upper`, with
/// `value` the best estimate in that range (exact when the range is one
/// value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valuation {
    /// The value, or the estimate of it.
    pub value: i32,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

impl Valuation {
    /// A proven value.
    #[must_use]
    pub const fn exact(value: i32) -> Valuation {
        Valuation {
            value,
            lower: value,
            upper: value,
        }
    }

    /// Whether the value is proven.
    #[must_use]
    pub const fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The same value for the other side.
    #[must_use]
    pub const fn negated(self) -> Valuation {
        Valuation {
            value: -self.value,
            lower: -self.upper,
            upper: -self.lower,
        }
    }

    /// The same for `side`, when `self` is for `of`.
    #[must_use]
    pub fn for_side(self, of: Side, side: Side) -> Valuation {
        if of == side { self } else { self.negated() }
    }
}

/// A position's value for its side to move and its best pits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionValue {
    /// The value for the side to move.
    pub value: Valuation,
    /// Best pits found, in pit order (empty when the round is over).
    pub best: Vec<Pit>,
    /// Whether `best` lists every best pit (false when it is only the
    /// book's or the engine's choice).
    pub all_best: bool,
}

/// One move of the round, analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// The move's number in the round, from 1.
    pub ply: usize,
    /// Who played it.
    pub side: Side,
    /// The pit played.
    pub pit: Pit,
    /// The best pits in the position it was played in.
    pub best: Vec<Pit>,
    /// Whether `best` lists every best pit.
    pub all_best: bool,
    /// The value before the move, for the mover.
    pub before: Valuation,
    /// The value after the move, for the same mover.
    pub after: Valuation,
    /// The move earned another turn.
    pub extra_turn: bool,
}

impl MoveAnalysis {
    /// Seeds of final margin the move gave away (`before - after`, at
    /// least 0; an estimate unless [`MoveAnalysis::exact`]).
    #[must_use]
    pub fn loss(&self) -> i32 {
        (self.before.value - self.after.value).max(0)
    }

    /// Whether both values are proven.
    #[must_use]
    pub fn exact(&self) -> bool {
        self.before.is_exact() && self.after.is_exact()
    }
}

/// A whole round analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The game family of the round.
    pub game: Game,
    /// The rules of the round, Kalah's; for Oware the layout its houses'
    /// letters follow ([`GameBoard::layout`]).
    pub rules: Rules,
    /// Every move in playing order.
    pub moves: Vec<MoveAnalysis>,
    /// The value of every position, from the start to after the last move,
    /// for South (so that one line shows the round).
    pub south_values: Vec<Valuation>,
}

/// How the moves that lost most are chosen: at most this many, each of
/// them losing something.
pub const TURNING_POINTS: usize = 3;

impl Analysis {
    /// Whether every value is proven.
    #[must_use]
    pub fn exact(&self) -> bool {
        self.south_values.iter().all(Valuation::is_exact)
    }

    /// The round's turning points: the indices (into `moves`) of the
    /// moves that lost most, at most [`TURNING_POINTS`], biggest loss
    /// first (earlier first on ties); moves that lost nothing are not
    /// turning points.
    #[must_use]
    pub fn turning_points(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.moves.len())
            .filter(|&i| self.moves[i].loss() > 0)
            .collect();
        order.sort_by_key(|&i| (-self.moves[i].loss(), i));
        order.truncate(TURNING_POINTS);
        order
    }

    /// Each side's mean loss per move (South's first; `None` for a side
    /// that made no move).
    #[must_use]
    pub fn mean_loss(&self) -> [Option<f64>; 2] {
        [Side::South, Side::North].map(|side| {
            let losses: Vec<i32> = self
                .moves
                .iter()
                .filter(|m| m.side == side)
                .map(MoveAnalysis::loss)
                .collect();
            (!losses.is_empty())
                .then(|| f64::from(losses.iter().sum::<i32>()) / losses.len() as f64)
        })
    }

    /// The analysis as JSON: `{"game":"kalah","moves":[{"ply":1,
    /// "side":"south","pit":"c","best":["c"],"value_before":8,
    /// "value_after":8,"loss":0,"exact":true,"all_best":true}, ...]}` in
    /// playing order. A move whose values are not both proven has
    /// `"exact":false`, the estimates as its values and the proven ranges
    /// as `"bounds_before":[LO,HI]` and `"bounds_after":[LO,HI]`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let letter = |pit: Pit| self.rules.letter(pit).unwrap_or('?').to_string();
        let moves: Vec<serde_json::Value> = self
            .moves
            .iter()
            .map(|m| {
                let mut entry = json!({
                    "ply": m.ply,
                    "side": m.side.to_string().to_ascii_lowercase(),
                    "pit": letter(m.pit),
                    "best": m.best.iter().map(|&p| letter(p)).collect::<Vec<_>>(),
                    "value_before": m.before.value,
                    "value_after": m.after.value,
                    "loss": m.loss(),
                    "exact": m.exact(),
                    "all_best": m.all_best,
                });
                if !m.exact() {
                    entry["bounds_before"] = json!([m.before.lower, m.before.upper]);
                    entry["bounds_after"] = json!([m.after.lower, m.after.upper]);
                }
                entry
            })
            .collect();
        json!({ "game": self.game.as_str(), "moves": moves })
    }
}

/// How long each position may be thought about, and a flag to stop.
#[derive(Clone, Debug, Default)]
pub struct PositionBudget {
    /// Time per position (`None`: no time limit).
    pub per_position: Option<Duration>,
    /// Positions searched per position (`None`: no limit), for repeatable
    /// results.
    pub nodes: Option<u64>,
    /// Set from outside to stop at once (what is left is estimated).
    pub stop: Arc<AtomicBool>,
}

impl PositionBudget {
    /// A budget of `per_position` for each position.
    #[must_use]
    pub fn time(per_position: Duration) -> PositionBudget {
        PositionBudget {
            per_position: Some(per_position),
            ..PositionBudget::default()
        }
    }

    /// The limits of the share `part / whole` of one position's budget,
    /// starting now.
    fn limits(&self, part: u32, whole: u32) -> Limits {
        Limits {
            deadline: self.per_position.map(|t| Instant::now() + t * part / whole),
            nodes: self
                .nodes
                .map(|n| (n * u64::from(part) / u64::from(whole)).max(1)),
            stop: Arc::clone(&self.stop),
        }
    }
}

/// Positions of single sowing on at most 6 pits with at most this many
/// seeds in play are always proven, however long it takes (Kalah(6,4)'s
/// opening is seconds; a whole round, last position first, less than one
/// solve of its start: see docs/PERFORMANCE.md), so that their values and
/// turning points are the same on every run, whatever the machine's load.
pub const ALWAYS_EXACT_SEEDS: i32 = 48;

/// Whether `board` (with `in_play` seeds in its pits) is always proven
/// (see [`ALWAYS_EXACT_SEEDS`]).
fn always_exact(board: &Board, in_play: i32) -> bool {
    let rules = board.rules();
    in_play <= ALWAYS_EXACT_SEEDS && rules.pits() <= 6 && rules.sowing() == Sowing::Single
}

/// An analysis's endgame database holds at most `2^(seeds / 2 + this)`
/// positions for a round of `seeds` seeds: two steps below a solve's,
/// since most positions of a round, valued from the last, have few seeds
/// in play (16 seeds on Kalah(6,4) where a solve builds 18).
const ANALYSIS_DB_SCALE: u32 = 1;

/// An analysis's table first holds at most this many bytes: positions
/// valued from the last to the first each reuse the later ones' entries,
/// and the 512 MiB table of a solve of Kalah(6,4) cost its pages' clearing
/// (a round's analysis: 15.8 s of CPU, 2.1 s of it the system's, with 16
/// seeds and a 64 MiB table 8.4 s and 0.3 s; see docs/PERFORMANCE.md).
/// A position whose search visits more positions than the table has
/// entries ([`Solver::table_entries`]) overflows it (an opening far from the book:
/// 222 M positions in this table, 87 M with a solve's table and
/// database), and for the positions before it the table may grow to the
/// solver's memory.
const ANALYSIS_TABLE_BYTES: usize = 64 << 20;

/// Positions searched for each position of a sketch
/// ([`RoundAnalyser::sketch`]).
pub const SKETCH_NODES: u64 = 4_000;

/// Memory of the solver of a sketch made on its own ([`sketch`]): what
/// [`SKETCH_NODES`] can use, so that it never waits for a big table.
const SKETCH_MEMORY: usize = 4 << 20;

/// A sketch of the round from `start` with `moves` on its own
/// ([`RoundAnalyser::sketch`] with a small solver of its own): every
/// position estimated within `nodes`, for a screen to show at once while
/// the analysis is worked out elsewhere.
///
/// # Errors
/// The index of the first move the rules refuse, and why.
pub fn sketch(
    start: impl Into<GameRound>,
    moves: &[Pit],
    nodes: u64,
) -> Result<Analysis, (usize, MoveError)> {
    let solver = Solver::new(SKETCH_MEMORY).with_threads(1);
    let mut analyser = RoundAnalyser::from_start(Analyst::with_solver(solver), start);
    for (i, &pit) in moves.iter().enumerate() {
        analyser.push(pit).map_err(|e| (i, e))?;
    }
    Ok(analyser.sketch(nodes))
}

/// Seeds on the board from which the analysis builds the real round's
/// database (a few captures above what it holds, so that the searches of
/// the positions before it reach it; a round whose positions all have more
/// never pays for it).
const ANALYSIS_REAL_FROM: usize = real::REAL_SEEDS + 4;

/// Table size of the analysis's Oware search: 2^20 entries of 16 bytes.
const OWARE_TABLE_BITS: u32 = 20;

/// An analysis's solver: a player's memory, the analysis's database and
/// table sizes.
fn analysis_solver() -> Solver {
    Solver::new(DEFAULT_PLAYER_MEMORY)
        .with_endgame_scale(ANALYSIS_DB_SCALE)
        .with_table_limit(ANALYSIS_TABLE_BYTES)
}

/// Analyses positions of either family, keeping its solver's table and
/// the engines' from one position to the next (positions of one round
/// share most of their trees).
#[derive(Debug)]
pub struct Analyst {
    solver: Solver,
    engine: Engine,
    /// Oware's search, made for the first Oware position.
    oware: Option<OwareSearch>,
}

impl Default for Analyst {
    fn default() -> Self {
        Analyst::new()
    }
}

impl Analyst {
    /// An analyst with a player's solver memory; tables are allocated on
    /// first use.
    #[must_use]
    pub fn new() -> Analyst {
        Analyst::with_solver(analysis_solver())
    }

    /// An analyst with this solver (for its memory and threads).
    #[must_use]
    pub fn with_solver(solver: Solver) -> Analyst {
        Analyst {
            solver,
            engine: Engine::new(Level::HARD.table_bits),
            oware: None,
        }
    }

    /// The value of `position` for its side to move and its best pits,
    /// within `budget`. Kalah: the book's answer, else the solver's (three
    /// quarters of the budget), else the engine's estimate (the rest)
    /// within the bounds the solver proved. Oware: the search's, exact or
    /// estimated (see the [module docs](self)).
    pub fn position(&mut self, position: &GameBoard, budget: &PositionBudget) -> PositionValue {
        self.position_at_least(position, budget, None)
    }

    /// The same knowing (when `at_least` is given) that the value is at
    /// least that: proven by the caller, as the value after one move.
    fn position_at_least(
        &mut self,
        position: &GameBoard,
        budget: &PositionBudget,
        at_least: Option<i32>,
    ) -> PositionValue {
        match position {
            GameBoard::Kalah(board) => self.kalah_position(board, budget, at_least),
            GameBoard::Oware(board) => self.oware_position(board, budget),
        }
    }

    /// An Oware position's value: its search's within the whole budget,
    /// probing the shared endgame database.
    fn oware_position(&mut self, board: &OwareBoard, budget: &PositionBudget) -> PositionValue {
        let score = board.score();
        let me = board.to_move();
        let margin = i32::from(score.of(me)) - i32::from(score.of(me.opponent()));
        if board.is_over() {
            return PositionValue {
                value: Valuation::exact(margin),
                best: Vec::new(),
                all_best: true,
            };
        }
        let search = self
            .oware
            .get_or_insert_with(|| OwareSearch::new(OWARE_TABLE_BITS, analysis_endgame()));
        // The real round's values near its end: built here (seconds) for
        // a position near it, which a round's analysis values first (the
        // last first); not for a quick estimate (a sketch), nor for a
        // position far from the end, whose search seldom reaches it.
        let in_play = board.seeds_on_board();
        let real = if budget.nodes.is_none() && usize::from(in_play) <= ANALYSIS_REAL_FROM {
            Some(real::real_endgame())
        } else {
            real::real_endgame_built()
        };
        if let Some(real) = real {
            search.set_real(real);
        }
        let result = search.search(board, DEEPEST, &budget.limits(1, 1));
        let best: Vec<Pit> = result.best.into_iter().collect();
        if result.proven {
            return PositionValue {
                value: Valuation::exact(result.value),
                best,
                all_best: false,
            };
        }
        // Every seed on the board may yet go either way.
        let in_play = i32::from(in_play);
        let (lower, upper) = (margin - in_play, margin + in_play);
        PositionValue {
            value: Valuation {
                value: result.value.clamp(lower, upper),
                lower,
                upper,
            },
            best,
            all_best: false,
        }
    }

    /// A Kalah position's value (see [`Analyst::position`]).
    fn kalah_position(
        &mut self,
        board: &Board,
        budget: &PositionBudget,
        at_least: Option<i32>,
    ) -> PositionValue {
        let margin = board.score().margin(board.to_move());
        if board.is_over() {
            return PositionValue {
                value: Valuation::exact(margin),
                best: Vec::new(),
                all_best: true,
            };
        }
        if let Some((pit, value)) = book::known(board) {
            let (best, all_best) = book::every_best(board)
                .filter(|(v, _)| *v == value)
                .map_or((vec![pit], false), |(_, b)| (b, true));
            return PositionValue {
                value: Valuation::exact(value),
                best,
                all_best,
            };
        }
        let in_play = i32::from(board.seeds_in_pits(Side::South))
            + i32::from(board.seeds_in_pits(Side::North));
        let limits = if budget.nodes.is_none() && always_exact(board, in_play) {
            // proven whatever the load: only the stop flag ends it (and
            // then what it proved is an estimate, see `RoundAnalyser`)
            Limits {
                deadline: None,
                nodes: None,
                stop: Arc::clone(&budget.stop),
            }
        } else {
            budget.limits(3, 4)
        };
        let outcome = match at_least {
            Some(v) => self.solver.solve_at_least(board, &limits, true, v),
            None => self.solver.solve_bounded(board, &limits, true),
        };
        let entries = self.solver.table_entries() as u64;
        if self.solver.nodes > entries {
            // the table overflowed: the positions before want a solve's
            self.solver.raise_table_limit(usize::MAX);
        }
        let (lower, upper) = match outcome {
            Some(SolveOutcome::Solved(solution)) => {
                return PositionValue {
                    value: Valuation::exact(solution.value),
                    best: solution.best,
                    all_best: true,
                };
            }
            Some(SolveOutcome::Bounds { lower, upper, .. }) => (lower, upper),
            None => (margin - in_play, margin + in_play),
        };
        let estimate = self.engine.search(
            board,
            &budget.limits(1, 4),
            Level::HARD.max_depth,
            Some(Level::HARD.fallback_nodes),
        );
        let (value, best) = match estimate {
            Some(result) => (result.value.clamp(lower, upper), vec![result.best]),
            None => (lower, Vec::new()),
        };
        PositionValue {
            value: Valuation {
                value,
                lower,
                upper,
            },
            best,
            all_best: false,
        }
    }

    /// Analyses the Kalah round of `rules` started by `starter` with
    /// `moves`, within `budget` per position; `progress` is told after
    /// each position how many of how many are done. The positions are
    /// valued from the last to the first, with one solver: each reuses
    /// what the later ones proved (see [`RoundAnalyser`]).
    ///
    /// # Errors
    /// The index of the first move the rules refuse, and why.
    pub fn round(
        &mut self,
        rules: Rules,
        starter: Side,
        moves: &[Pit],
        budget: &PositionBudget,
        progress: impl FnMut(usize, usize),
    ) -> Result<Analysis, (usize, MoveError)> {
        self.round_from(Board::starting(rules, starter), moves, budget, progress)
    }

    /// [`Analyst::round`] of a round of either family that started from
    /// `start` (a Kalah [`Board`], or a record's
    /// `Record::start_round`, in the program's store).
    ///
    /// # Errors
    /// The index of the first move the rules refuse, and why.
    pub fn round_from(
        &mut self,
        start: impl Into<GameRound>,
        moves: &[Pit],
        budget: &PositionBudget,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Analysis, (usize, MoveError)> {
        let mut round = Round::new(self, start.into());
        for (i, &pit) in moves.iter().enumerate() {
            round.push(pit).map_err(|e| (i, e))?;
        }
        let total = round.boards.len();
        while !round.work_one(self, budget) && !budget.stop.load(Ordering::Relaxed) {
            progress(round.valued(), total);
        }
        progress(total, total);
        Ok(round.analysis(self, budget))
    }
}

/// The analysis of a round as it is played: fed the moves as they are
/// played ([`RoundAnalyser::push`]), it values the positions on the time
/// it is given ([`RoundAnalyser::work_one`], the latest unvalued first, so
/// that each reuses what the later ones proved), and has the whole
/// analysis ready once the round ends ([`RoundAnalyser::analysis`]).
#[derive(Debug)]
pub struct RoundAnalyser {
    analyst: Analyst,
    round: Round,
}

impl RoundAnalyser {
    /// The analysis of a round of either family that started from `start`
    /// (a Kalah [`Board`], or a [`GameRound`] of either family), with
    /// `analyst`'s solver sized for it.
    #[must_use]
    pub fn from_start(mut analyst: Analyst, start: impl Into<GameRound>) -> RoundAnalyser {
        let round = Round::new(&mut analyst, start.into());
        RoundAnalyser { analyst, round }
    }

    /// The move `pit` played next.
    ///
    /// # Errors
    /// The rules' refusal of the move (nothing changes).
    pub fn push(&mut self, pit: Pit) -> Result<(), MoveError> {
        self.round.push(pit)
    }

    /// The position the round started from.
    #[must_use]
    pub fn start(&self) -> &GameBoard {
        &self.round.boards[0]
    }

    /// The moves pushed so far.
    #[must_use]
    pub fn moves(&self) -> &[Pit] {
        &self.round.moves
    }

    /// Keeps only the first `moves` moves (a move taken back): the values
    /// of the positions kept stay, as a position's value does not depend
    /// on what was played after it.
    pub fn truncate(&mut self, moves: usize) {
        let round = &mut self.round;
        if moves >= round.moves.len() {
            return;
        }
        // the round itself goes back too: its next move follows the kept
        // ones, not the ones taken back
        round.play = round.start.clone();
        for &pit in &round.moves[..moves] {
            round
                .play
                .play(pit, &mut NoTrace)
                .expect("a move played from the same start before");
        }
        round.moves.truncate(moves);
        round.boards.truncate(moves + 1);
        round.values.truncate(moves + 1);
    }

    /// Follows a new round from `start` instead, with the same analyst
    /// (its solver's database and table kept for the next round).
    pub fn restart(&mut self, start: impl Into<GameRound>) {
        self.round = Round::new(&mut self.analyst, start.into());
    }

    /// Positions valued so far, and positions in all.
    #[must_use]
    pub fn progress(&self) -> (usize, usize) {
        (self.round.valued(), self.round.boards.len())
    }

    /// Positions whose value is proven so far.
    #[must_use]
    pub fn proven(&self) -> usize {
        (self.round.values.iter().flatten())
            .filter(|v| v.value.is_exact())
            .count()
    }

    /// Values the latest position not valued yet within `budget`; true
    /// when every position is valued. A position whose work `budget`'s
    /// stop flag ended is left for a later call (nothing half-proven is
    /// kept as its value).
    pub fn work_one(&mut self, budget: &PositionBudget) -> bool {
        self.round.work_one(&mut self.analyst, budget)
    }

    /// The analysis of the moves pushed so far as it stands, at once: the
    /// positions valued so far with their values, the others with an
    /// estimate within `nodes` positions each ([`SKETCH_NODES`]: a few
    /// milliseconds for a whole round), marked as estimates unless proven
    /// on the way. Nothing of it is kept: [`RoundAnalyser::work_one`]
    /// still values every position in full. So a long analysis (big
    /// boards, a slow machine) shows its figures at once and firms them
    /// up as it goes.
    #[must_use]
    pub fn sketch(&mut self, nodes: u64) -> Analysis {
        self.round.sketch(&mut self.analyst, nodes)
    }

    /// The analysis of the moves pushed so far: the positions not valued
    /// yet are valued first, within `budget` each (at once, as estimates,
    /// when its stop flag is set).
    #[must_use]
    pub fn analysis(&mut self, budget: &PositionBudget) -> Analysis {
        self.round.analysis(&mut self.analyst, budget)
    }
}

/// The positions of a round and their values so far.
#[derive(Debug)]
struct Round {
    /// The round before its first move, to play the kept moves again from
    /// when moves are taken back.
    start: GameRound,
    /// The round as played so far (Oware's history tells a repetition).
    play: GameRound,
    moves: Vec<Pit>,
    /// Every position: the start, then after each move.
    boards: Vec<GameBoard>,
    /// The value of each position, once worked out.
    values: Vec<Option<PositionValue>>,
}

impl Round {
    fn new(analyst: &mut Analyst, start: GameRound) -> Round {
        let position = start.position();
        if let GameBoard::Kalah(board) = &position {
            analyst.solver.reserve(board);
        }
        Round {
            play: start.clone(),
            start,
            moves: Vec::new(),
            boards: vec![position],
            values: vec![None],
        }
    }

    fn push(&mut self, pit: Pit) -> Result<(), MoveError> {
        self.play.play(pit, &mut NoTrace)?;
        self.moves.push(pit);
        self.boards.push(self.play.position());
        self.values.push(None);
        Ok(())
    }

    fn valued(&self) -> usize {
        self.values.iter().filter(|v| v.is_some()).count()
    }

    fn work_one(&mut self, analyst: &mut Analyst, budget: &PositionBudget) -> bool {
        let Some(i) = self.values.iter().rposition(Option::is_none) else {
            return true;
        };
        // the value after the move played is proven already (the later
        // position went first): the mover's value is at least that
        let at_least = self.values.get(i + 1).and_then(|after| {
            let after = after.as_ref()?.value;
            let (from, to) = (&self.boards[i], &self.boards[i + 1]);
            let after = after.for_side(to.to_move(), from.to_move());
            after.is_exact().then_some(after.value)
        });
        let value = match self
            .valued_by_the_book(i, at_least)
            .or_else(|| self.forced(i, at_least))
        {
            Some(value) => value,
            None => {
                let value = analyst.position_at_least(&self.boards[i], budget, at_least);
                if budget.stop.load(Ordering::Relaxed) {
                    return false;
                }
                value
            }
        };
        self.values[i] = Some(value);
        self.values.iter().all(Option::is_some)
    }

    /// The value of position `i` when the move played there was the only
    /// legal one and the value after it (`after`, for its mover) is
    /// proven: the round had no choice, so it is worth that. A round that
    /// went round to a repetition ends with a value its history decides
    /// (RULES.md §7.6): the forced moves before it are worth what it gave,
    /// where a search of the position alone could only estimate them.
    fn forced(&self, i: usize, after: Option<i32>) -> Option<PositionValue> {
        let after = after?;
        (self.boards[i].legal_moves().count() == 1).then(|| PositionValue {
            value: Valuation::exact(after),
            best: vec![self.moves[i]],
            all_best: true,
        })
    }

    /// The value of position `i` without a search, when the book proves
    /// it: a Kalah position off the book whose parent the book values and
    /// whose move played there is the book's move (so position `i`
    /// is worth what its parent is, for the same side), where the move
    /// played at `i` reaches that value (`after`, the value after it for
    /// its mover, proven), so it is a best move (not every one listed).
    /// The first position off the book is the costliest of a round (a
    /// person's round against `perfect`: 12.2 s of its 17.8 s of CPU,
    /// docs/PERFORMANCE.md); after the book's move its value needs no
    /// proof. (Only the book's one move: a parent whose every move led
    /// into the book would have this position in the book too.)
    fn valued_by_the_book(&self, i: usize, after: Option<i32>) -> Option<PositionValue> {
        let after = after?;
        let (GameBoard::Kalah(parent), GameBoard::Kalah(board)) =
            (self.boards.get(i.checked_sub(1)?)?, &self.boards[i])
        else {
            return None;
        };
        if board.is_over() || book::known(board).is_some() {
            return None;
        }
        let (pit, value) = book::known(parent)?;
        if pit != self.moves[i - 1] {
            return None;
        }
        let value = Valuation::exact(value).for_side(parent.to_move(), board.to_move());
        (after == value.value).then(|| PositionValue {
            value,
            best: vec![self.moves[i]],
            all_best: false,
        })
    }

    /// The analysis now, at once: the positions valued so far as they are,
    /// the others estimated within `nodes` each and not kept (see
    /// [`RoundAnalyser::sketch`]).
    fn sketch(&mut self, analyst: &mut Analyst, nodes: u64) -> Analysis {
        let budget = PositionBudget {
            nodes: Some(nodes),
            ..PositionBudget::default()
        };
        let values: Vec<PositionValue> = (self.boards.iter().zip(&self.values))
            .map(|(board, value)| {
                value
                    .clone()
                    .unwrap_or_else(|| analyst.position(board, &budget))
            })
            .collect();
        self.assemble(&values)
    }

    fn analysis(&mut self, analyst: &mut Analyst, budget: &PositionBudget) -> Analysis {
        let stopped = budget.stop.load(Ordering::Relaxed);
        let budget = PositionBudget {
            stop: Arc::new(AtomicBool::new(false)),
            // stopped from outside: what is left is estimated at once
            nodes: if stopped { Some(1) } else { budget.nodes },
            per_position: if stopped {
                Some(Duration::ZERO)
            } else {
                budget.per_position
            },
        };
        while !self.work_one(analyst, &budget) {}
        let values: Vec<PositionValue> = self.values.iter().flatten().cloned().collect();
        self.assemble(&values)
    }

    /// The analysis of the round with `values`, one for each position.
    fn assemble(&self, values: &[PositionValue]) -> Analysis {
        let boards = &self.boards;
        let south_values = boards
            .iter()
            .zip(values)
            .map(|(b, v)| v.value.for_side(b.to_move(), Side::South))
            .collect();
        let mut analysed = Vec::with_capacity(self.moves.len());
        for (i, &pit) in self.moves.iter().enumerate() {
            let (from, to) = (&boards[i], &boards[i + 1]);
            let side = from.to_move();
            let before = values[i].value;
            let after = values[i + 1].value.for_side(to.to_move(), side);
            let mut best = values[i].best.clone();
            // a proven move that keeps the proven value is a best move too
            if before.is_exact()
                && after.is_exact()
                && after.value == before.value
                && !best.contains(&pit)
            {
                best.push(pit);
                best.sort();
            }
            analysed.push(MoveAnalysis {
                ply: i + 1,
                side,
                pit,
                best,
                all_best: values[i].all_best,
                before,
                after,
                extra_turn: !to.is_over() && to.to_move() == side,
            });
        }
        let start = &self.boards[0];
        Analysis {
            game: start.game(),
            rules: start.layout(),
            moves: analysed,
            south_values,
        }
    }
}

/// What a value of `game` is a difference of, as the screens say it:
/// Kalah's stores, Oware's scores (captured seeds, the seeds left on each
/// side at the end included).
#[must_use]
pub const fn difference_word(game: Game) -> &'static str {
    match game {
        Game::Kalah => "store",
        Game::Oware => "score",
    }
}

/// A value as shown: signed, with `≈` when it is an estimate.
#[must_use]
pub fn value_text(v: Valuation) -> String {
    let mark = if v.is_exact() { "" } else { "≈" };
    format!("{mark}{:+}", v.value)
}

/// A move's loss as shown, with `≈` when it is an estimate.
#[must_use]
pub fn loss_text(m: &MoveAnalysis) -> String {
    let mark = if m.exact() { "" } else { "≈" };
    format!("{mark}{}", m.loss())
}

/// The pit played as its letter, with `+` when it earned an extra turn.
#[must_use]
pub fn pit_text(rules: &Rules, m: &MoveAnalysis) -> String {
    let extra = if m.extra_turn { "+" } else { "" };
    format!("{}{extra}", rules.letter(m.pit).unwrap_or('?'))
}

/// The best pits as letters (`c d`), with `…` when there may be more.
#[must_use]
pub fn best_text(rules: &Rules, m: &MoveAnalysis) -> String {
    let mut text = letters(rules, &m.best);
    if !m.all_best {
        text.push('…');
    }
    text
}

fn letters(rules: &Rules, pits: &[Pit]) -> String {
    pits.iter()
        .map(|&p| rules.letter(p).unwrap_or('?').to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::TestMap;
    use crate::rules::Capture;
    use crate::rules::oware::{OwareRound, OwareRules};

    /// The analysis of the round of `rules` South starts with `moves`, every
    /// position proven (the live analysis's tests' reference too).
    pub(super) fn analysed(rules: Rules, moves: &[Pit]) -> Analysis {
        Analyst::new()
            .round(
                rules,
                Side::South,
                moves,
                &PositionBudget::default(),
                |_, _| {},
            )
            .unwrap()
    }

    /// The value of `board` for its side to move by plain minimax over the
    /// whole game tree (no pruning; positions already valued are looked up,
    /// so that Kalah(4,3) takes a moment): the test's own referee.
    fn minimax(board: &Board, seen: &mut TestMap<u64, i32>) -> i32 {
        if board.is_over() {
            return board.score().margin(board.to_move());
        }
        // 10 places of at most 24 seeds: 5 bits each, and the side to move
        let key = board
            .counts()
            .iter()
            .fold(u64::from(board.to_move() == Side::North), |k, &c| {
                k << 5 | u64::from(c)
            });
        if let Some(&v) = seen.get(&key) {
            return v;
        }
        let value = board
            .legal_moves()
            .map(|pit| {
                let mut next = *board;
                next.play_unchecked(pit);
                let v = minimax(&next, seen);
                if next.to_move() == board.to_move() {
                    v
                } else {
                    -v
                }
            })
            .max()
            .expect("a legal move");
        seen.insert(key, value);
        value
    }

    /// A round of Kalah(4,3) of varied moves: the pits taken in turn from
    /// a fixed sequence, whichever are legal.
    fn round_of(rules: Rules, choices: &[usize]) -> Vec<Pit> {
        let mut board = Board::new(rules);
        let mut moves = Vec::new();
        let mut i = 0;
        while !board.is_over() {
            let legal: Vec<Pit> = board.legal_moves().collect();
            let pit = legal[choices[i % choices.len()] % legal.len()];
            board.play(pit).unwrap();
            moves.push(pit);
            i += 1;
        }
        moves
    }

    /// The referee's bounds of what is still to come from `board` for its
    /// mover: a forward search of every line, memoised, with no shared
    /// code with the analysis's search
    /// ([`crate::players::oware::tests::forward_bounded`]: a line not
    /// ended within the depth is bounded by the seeds on the board, as the
    /// search bounds it); equal bounds are the exact value whatever the
    /// history. Twenty plies
    /// prove every position of these rounds that the analysis proves.
    fn oware_future(board: &OwareBoard, memo: &mut OwareMemo) -> (i32, i32) {
        let played_out =
            OwareBoard::played_out(OwareRules::ABAPA, &board.houses(), board.to_move()).unwrap();
        crate::players::oware::tests::forward_bounded(&played_out, 20, memo)
    }

    use crate::players::oware::tests::Memo as OwareMemo;

    /// `m` is an estimate: not exact, one best move named (not all of
    /// them), and both values inside bounds that are apart.
    fn assert_an_estimate(m: &MoveAnalysis) {
        assert!(!m.exact(), "{m:?}");
        assert!(!m.all_best);
        assert_eq!(m.best.len(), 1);
        for v in [m.before, m.after] {
            assert!(v.lower <= v.value && v.value <= v.upper, "{v:?}");
            assert!(v.lower < v.upper);
        }
    }

    /// The margin of `board`'s mover in captured seeds now.
    fn oware_margin(board: &OwareBoard) -> i32 {
        let score = board.score();
        i32::from(score.of(board.to_move())) - i32::from(score.of(board.to_move().opponent()))
    }

    /// One seed each, chasing round the board until the start repeats
    /// (RULES.md §7.6): every move is forced, the round ends 25–23 to
    /// South, and every move is exact and loses nothing (the analysis
    /// said North's last move lost ≈2, the best move named being the one
    /// played).
    #[test]
    fn forced_moves_are_worth_what_the_round_gave() {
        let start: crate::rules::Position = "oware S:1,0,0,0,0,1:23 N:0,0,0,0,0,0:23 south"
            .parse()
            .unwrap();
        let start = *start.oware().unwrap();
        let moves: Vec<Pit> = "f g a h b i c j d k e l"
            .split(' ')
            .map(|c| {
                Rules::KALAH
                    .pit_by_letter(c.chars().next().unwrap())
                    .unwrap()
            })
            .collect();
        let budget = PositionBudget {
            nodes: Some(10_000),
            ..PositionBudget::default()
        };
        let analysis = Analyst::new()
            .round_from(OwareRound::new(start), &moves, &budget, |_, _| {})
            .unwrap();
        assert_eq!(analysis.moves.len(), 12);
        for m in &analysis.moves {
            assert!(m.exact() && m.loss() == 0, "{m:?}");
            assert_eq!(m.best, [m.pit], "{m:?}");
        }
        assert!(
            analysis
                .south_values
                .iter()
                .all(|v| *v == Valuation::exact(2))
        );
    }

    #[test]
    fn an_oware_rounds_figures_match_brute_force_search_where_they_are_exact() {
        // Small positions played out (RULES.md §7.9: the round ends only
        // when nobody can be fed or a position repeats), South to move,
        // each played to its end by a fixed walk over the legal houses.
        let starts: [[u16; 12]; 3] = [
            [1, 0, 2, 0, 1, 0, 0, 1, 0, 2, 0, 1],
            [0, 3, 0, 0, 1, 0, 2, 0, 0, 0, 1, 1],
            [2, 0, 0, 1, 0, 1, 0, 0, 3, 0, 0, 1],
        ];
        let memo = &mut OwareMemo::default();
        let (mut exact_moves, mut all_moves) = (0, 0);
        for (k, houses) in starts.iter().enumerate() {
            let board = OwareBoard::played_out(OwareRules::ABAPA, houses, Side::South).unwrap();
            let mut round = OwareRound::new(board);
            let mut moves = Vec::new();
            let choices = [k, 2, 0, 1, 3];
            while !round.board().is_over() {
                let legal: Vec<Pit> = round.board().legal_moves().collect();
                let pit = legal[choices[moves.len() % choices.len()] % legal.len()];
                round.play(pit).unwrap();
                moves.push(pit);
            }
            // a repeatable budget for the positions whose value depends
            // on repetition (the others are proven at once)
            let budget = PositionBudget {
                nodes: Some(100_000),
                ..PositionBudget::default()
            };
            let analysis = Analyst::new()
                .round_from(OwareRound::new(board), &moves, &budget, |_, _| {})
                .unwrap();
            assert_eq!(analysis.game, Game::Oware);
            assert_eq!(analysis.moves.len(), moves.len());
            let mut replay = OwareRound::new(board);
            for (m, &pit) in analysis.moves.iter().zip(&moves) {
                let here = *replay.board();
                assert_eq!((m.side, m.pit, m.extra_turn), (here.to_move(), pit, false));
                let (lo, hi) = oware_future(&here, memo);
                if m.before.is_exact() {
                    assert_eq!(
                        lo, hi,
                        "ply {} of start {k}: proven, but not by the referee",
                        m.ply
                    );
                    assert_eq!(
                        m.before.value,
                        oware_margin(&here) + lo,
                        "ply {} of start {k}",
                        m.ply
                    );
                    // the best house is worth it
                    let best = m.best[0];
                    let mut next = here;
                    let played = next.play_unchecked(best);
                    let worth = if next.is_over() {
                        -oware_margin(&next)
                    } else {
                        let (clo, chi) = oware_future(&next, memo);
                        assert_eq!(clo, chi);
                        -(oware_margin(&next) + clo)
                    };
                    assert_eq!(worth, m.before.value, "{played:?}");
                } else {
                    assert!(m.before.lower < m.before.upper);
                }
                replay.play(pit).unwrap();
                let after = *replay.board();
                if m.after.is_exact() {
                    let v = if after.is_over() {
                        oware_margin(&after)
                    } else {
                        let (clo, chi) = oware_future(&after, memo);
                        assert_eq!(clo, chi, "ply {} of start {k}", m.ply);
                        oware_margin(&after) + clo
                    };
                    assert_eq!(m.after.value, -v, "ply {} of start {k}", m.ply);
                }
                all_moves += 1;
                if m.exact() {
                    exact_moves += 1;
                    assert_eq!(m.loss(), m.before.value - m.after.value);
                }
            }
            assert!(replay.board().is_over());
            let end = *analysis.south_values.last().unwrap();
            let score = replay.board().score();
            assert_eq!(
                end,
                Valuation::exact(i32::from(score.south) - i32::from(score.north))
            );
        }
        // values that depend on repetition are estimates; the others are
        // proven: enough to make the comparison mean something
        assert!(
            exact_moves >= 5,
            "{exact_moves} of {all_moves} moves proven"
        );
    }

    #[test]
    fn an_oware_round_beyond_the_database_is_marked_as_estimates() {
        // the start: 48 seeds, far past the database; a few thousand
        // positions a move prove nothing
        let moves: Vec<Pit> = ['c', 'h', 'f']
            .into_iter()
            .map(|l| Rules::KALAH.pit_by_letter(l).unwrap())
            .collect();
        let budget = PositionBudget {
            nodes: Some(5_000),
            ..PositionBudget::default()
        };
        let analysis = Analyst::new()
            .round_from(
                OwareRound::new(OwareBoard::new()),
                &moves,
                &budget,
                |_, _| {},
            )
            .unwrap();
        for m in &analysis.moves {
            assert_an_estimate(m);
        }
        let json = analysis.to_json();
        assert_eq!(json["game"], "oware");
        assert_eq!(json["moves"][0]["exact"], false);
        assert_eq!(json["moves"][0]["bounds_before"], json!([-48, 48]));
    }

    #[test]
    fn a_rounds_analysis_takes_a_smaller_database_and_table_than_a_solve() {
        // Kalah(6,4): 16 seeds (C(28, 12) positions of a byte) and 64 MiB,
        // where a solve of the start takes 18 seeds and 512 MiB
        let mut analyst = Analyst::new();
        let _round = Round::new(&mut analyst, Board::new(Rules::KALAH).into());
        assert_eq!(
            analyst.solver.memory_used(),
            30_421_755 + ANALYSIS_TABLE_BYTES
        );
    }

    #[test]
    fn positions_the_book_answers_list_the_solvers_best_moves() {
        // the start of Kalah(6,3) and two positions after one move: the
        // book holds them and every position after them, so their best
        // moves are listed in full from the book, and they are the
        // solver's
        let rules = Rules::new(6, 3).unwrap().with_capture(Capture::Always);
        let start = Board::new(rules);
        let mut boards = vec![start];
        for letter in ['a', 'c'] {
            let mut next = start;
            next.play(rules.pit_by_letter(letter).unwrap()).unwrap();
            boards.push(next);
        }
        let mut analyst = Analyst::new();
        let mut solver = Solver::new(64 << 20).with_threads(1);
        for board in &boards {
            assert!(book::known(board).is_some(), "{board:?}");
            let listed = analyst.position(&GameBoard::Kalah(*board), &PositionBudget::default());
            let solved = solver.solve(board, &Limits::none()).unwrap();
            assert!(listed.all_best, "{board:?}");
            assert_eq!(listed.value, Valuation::exact(solved.value), "{board:?}");
            assert_eq!(listed.best, solved.best, "{board:?}");
        }
    }

    #[test]
    fn the_first_position_off_the_book_after_its_best_move_is_valued_from_the_book() {
        // Kalah(6,3): the first position off the book that a best move of
        // the book reaches (breadth-first along the book's best moves),
        // and a best move played there
        let rules = Rules::new(6, 3).unwrap().with_capture(Capture::Always);
        let mut queue = std::collections::VecDeque::from([(Board::new(rules), Vec::new())]);
        let (mut moves, off) = loop {
            let (board, moves): (Board, Vec<Pit>) = queue.pop_front().expect("one is found");
            let (pit, _) = book::known(&board).expect("a position of the book");
            let best = book::every_best(&board).map_or(vec![pit], |(_, best)| best);
            let found = best.into_iter().find_map(|pit| {
                let mut next = board;
                next.play_unchecked(pit);
                let mut line = moves.clone();
                line.push(pit);
                if next.is_over() {
                    return None;
                }
                if book::known(&next).is_none() {
                    return Some((line, next));
                }
                queue.push_back((next, line));
                None
            });
            if let Some(found) = found {
                break found;
            }
        };
        let mut solver = Solver::new(64 << 20).with_threads(1);
        let solved = solver.solve(&off, &Limits::none()).unwrap();
        let i = moves.len();
        moves.push(solved.best[0]);
        let analysis = analysed(rules, &moves);
        let m = &analysis.moves[i];
        // valued from the book, without a search: the move played the one
        // best move named
        assert_eq!(m.before, Valuation::exact(solved.value), "{off:?}");
        assert_eq!((m.best.clone(), m.all_best), (vec![solved.best[0]], false));
        // and every value is the solver's
        let mut board = Board::new(rules);
        for (k, &pit) in moves.iter().enumerate() {
            let value = solver.solve(&board, &Limits::none()).unwrap().value;
            assert_eq!(
                analysis.moves[k].before,
                Valuation::exact(value),
                "move {k}"
            );
            board.play(pit).unwrap();
        }
    }

    #[test]
    fn a_search_that_overflows_the_table_lets_it_grow_and_the_figures_stay() {
        let rules = Rules::new(4, 4).unwrap();
        let moves = round_of(rules, &[2, 2, 0, 1]);
        let first = 64 << 10;
        let small = || {
            Solver::new(32 << 20)
                .with_table_limit(first)
                .with_threads(1)
        };
        let budget = PositionBudget::default();
        let mut grown = Analyst::with_solver(small());
        let analysis = grown
            .round(rules, Side::South, &moves, &budget, |_, _| {})
            .unwrap();
        assert!(analysis.exact());
        assert!(grown.solver.table_bytes() > first, "the table grew");
        // the same figures as with a table that never overflows
        let mut roomy = Analyst::with_solver(Solver::new(32 << 20).with_threads(1));
        let same = roomy
            .round(rules, Side::South, &moves, &budget, |_, _| {})
            .unwrap();
        assert_eq!(analysis, same);
    }

    #[test]
    fn every_figure_matches_brute_force_minimax_on_kalah_3_3() {
        // 3 pits, not 4: the referee walks the whole tree (Kalah(4,3)'s
        // cost seconds and 250 MB), and the analysis's paths are the same.
        let mut lost = 0;
        for capture in [Capture::Always, Capture::NonEmpty] {
            let rules = Rules::new(3, 3).unwrap().with_capture(capture);
            let seen = &mut TestMap::default();
            for choices in [&[0usize, 3, 1][..], &[2, 2, 0, 1], &[5, 1]] {
                let moves = round_of(rules, choices);
                let analysis = analysed(rules, &moves);
                assert!(analysis.exact());
                assert_eq!(analysis.moves.len(), moves.len());
                let mut board = Board::new(rules);
                for (m, &pit) in analysis.moves.iter().zip(&moves) {
                    let mover = board.to_move();
                    assert_eq!((m.side, m.pit), (mover, pit));
                    assert_eq!(
                        m.before,
                        Valuation::exact(minimax(&board, seen)),
                        "ply {}",
                        m.ply
                    );
                    let mut best: Vec<Pit> = board
                        .legal_moves()
                        .filter(|&p| {
                            let mut next = board;
                            next.play_unchecked(p);
                            let v = minimax(&next, seen);
                            let v = if next.to_move() == mover { v } else { -v };
                            v == m.before.value
                        })
                        .collect();
                    best.sort();
                    assert_eq!(m.best, best, "ply {}", m.ply);
                    assert!(m.all_best);
                    let played = board.play(pit).unwrap();
                    let after = minimax(&board, seen);
                    let after = if board.to_move() == mover {
                        after
                    } else {
                        -after
                    };
                    assert_eq!(m.after, Valuation::exact(after), "ply {}", m.ply);
                    assert_eq!(m.loss(), m.before.value - after);
                    assert!(m.loss() >= 0);
                    lost += usize::from(m.loss() > 0);
                    assert_eq!(m.extra_turn, played.extra_turn);
                }
                assert!(board.is_over());
                let end = *analysis.south_values.last().unwrap();
                assert_eq!(end, Valuation::exact(board.score().margin(Side::South)));
            }
        }
        assert!(lost >= 2, "the rounds hold mistakes to value: {lost}");
    }

    #[test]
    fn turning_points_are_the_biggest_losses_and_mean_loss_is_per_side() {
        let rules = Rules::new(4, 3).unwrap();
        let moves = round_of(rules, &[0, 3, 1]);
        let analysis = Analyst::new()
            .round(
                rules,
                Side::North,
                &moves_for_north(rules, &moves),
                &PositionBudget::default(),
                |_, _| {},
            )
            .unwrap();
        let turning = analysis.turning_points();
        assert!(turning.len() <= TURNING_POINTS);
        let losses: Vec<i32> = analysis.moves.iter().map(MoveAnalysis::loss).collect();
        for pair in turning.windows(2) {
            assert!(losses[pair[0]] >= losses[pair[1]]);
        }
        for (i, &loss) in losses.iter().enumerate() {
            if !turning.contains(&i) && turning.len() == TURNING_POINTS {
                assert!(loss <= losses[turning[TURNING_POINTS - 1]]);
            }
        }
        assert!(turning.iter().all(|&i| losses[i] > 0));
        for (k, side) in [Side::South, Side::North].into_iter().enumerate() {
            let mine: Vec<i32> = analysis
                .moves
                .iter()
                .filter(|m| m.side == side)
                .map(MoveAnalysis::loss)
                .collect();
            let mean = f64::from(mine.iter().sum::<i32>()) / mine.len() as f64;
            assert_eq!(analysis.mean_loss()[k], Some(mean));
        }
    }

    /// `moves` replayed as far as they stay legal with North starting.
    fn moves_for_north(rules: Rules, moves: &[Pit]) -> Vec<Pit> {
        let mut board = Board::starting(rules, Side::North);
        let mut out = Vec::new();
        for &pit in moves {
            let pit = rules
                .pit(board.to_move(), rules.number(pit).unwrap_or(1))
                .unwrap();
            if board.play(pit).is_err() {
                break;
            }
            out.push(pit);
            if board.is_over() {
                break;
            }
        }
        out
    }

    /// A short round of Kalah(4,3), capture nonempty, its budget and its
    /// analysis worked out after it.
    fn a_small_round_analysed() -> (Rules, Vec<Pit>, PositionBudget, Analysis) {
        let rules = Rules::new(4, 3).unwrap().with_capture(Capture::NonEmpty);
        let moves = round_of(rules, &[2, 2, 0, 1]);
        let budget = PositionBudget::default();
        let whole = Analyst::new()
            .round(rules, Side::South, &moves, &budget, |_, _| {})
            .unwrap();
        (rules, moves, budget, whole)
    }

    #[test]
    fn a_round_analysed_as_it_is_played_matches_the_analysis_after_it() {
        let (rules, moves, budget, whole) = a_small_round_analysed();
        let mut live =
            RoundAnalyser::from_start(Analyst::new(), Board::starting(rules, Side::South));
        for (i, &pit) in moves.iter().enumerate() {
            live.push(pit).unwrap();
            // spare time after every other move: one position valued
            if i % 2 == 0 {
                live.work_one(&budget);
            }
        }
        let (valued, total) = live.progress();
        assert!(0 < valued && valued < total, "{valued} of {total}");
        assert_eq!(live.analysis(&budget), whole);
        // a stopped budget leaves the position for later, unvalued
        let mut stopped =
            RoundAnalyser::from_start(Analyst::new(), Board::starting(rules, Side::South));
        stopped.push(moves[0]).unwrap();
        let halt = PositionBudget::default();
        halt.stop.store(true, Ordering::Relaxed);
        assert!(!stopped.work_one(&halt));
        assert_eq!(stopped.progress(), (0, 2));
    }

    #[test]
    fn a_sketch_shows_every_move_at_once_and_leaves_the_analysis_as_it_was() {
        let (rules, moves, budget, whole) = a_small_round_analysed();
        let mut live =
            RoundAnalyser::from_start(Analyst::new(), Board::starting(rules, Side::South));
        for &pit in &moves {
            live.push(pit).unwrap();
        }
        // the last two positions valued, the rest sketched
        live.work_one(&budget);
        live.work_one(&budget);
        let drawn = live.sketch(SKETCH_NODES);
        assert_eq!(drawn.moves.len(), moves.len());
        let n = whole.south_values.len();
        assert_eq!(drawn.south_values[n - 2..], whole.south_values[n - 2..]);
        // nothing of it kept: the positions left are still valued in full
        assert_eq!(live.progress(), (2, n));
        assert_eq!(live.analysis(&budget), whole);
        // on its own, for a big board: estimates within their bounds
        let big = Rules::new(6, 6).unwrap();
        let opening = round_of(big, &[2, 3, 0]);
        let sketched = sketch(
            Board::starting(big, Side::South),
            &opening[..4],
            SKETCH_NODES,
        )
        .unwrap();
        assert_eq!(sketched.moves.len(), 4);
        assert_an_estimate(&sketched.moves[1]);
    }

    #[test]
    fn a_move_the_rules_refuse_is_named_by_its_index() {
        let rules = Rules::new(4, 3).unwrap();
        let south_a = rules.pit(Side::South, 1).unwrap();
        let err = Analyst::new()
            .round(
                rules,
                Side::South,
                &[south_a, south_a],
                &PositionBudget::default(),
                |_, _| {},
            )
            .unwrap_err();
        assert_eq!(err.0, 1);
    }

    #[test]
    fn a_board_too_big_to_prove_gets_marked_estimates_within_bounds() {
        let rules = Rules::new(6, 6).unwrap();
        let first = rules.pit(Side::South, 3).unwrap();
        let budget = PositionBudget {
            nodes: Some(20_000),
            ..PositionBudget::default()
        };
        let analysis = Analyst::new()
            .round(rules, Side::South, &[first], &budget, |_, _| {})
            .unwrap();
        let m = &analysis.moves[0];
        assert_an_estimate(m);
        let json = analysis.to_json();
        assert_eq!(json["moves"][0]["exact"], false);
        assert_eq!(json["moves"][0]["bounds_before"][0], m.before.lower);
    }

    #[test]
    fn the_opening_book_values_kalahs_first_moves_at_once() {
        let rules = Rules::KALAH;
        let c = rules.pit(Side::South, 3).unwrap();
        // no search allowed: only the book can answer
        let budget = PositionBudget {
            nodes: Some(1),
            ..PositionBudget::default()
        };
        let analysis = Analyst::new()
            .round(rules, Side::South, &[c], &budget, |_, _| {})
            .unwrap();
        let m = &analysis.moves[0];
        assert!(m.exact(), "{m:?}");
        assert_eq!(m.before, m.after);
        assert_eq!(m.loss(), 0);
        assert!(m.best.contains(&c));
        assert!(m.extra_turn);
    }
}
