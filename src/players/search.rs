//! The search engine behind `easy`, `medium` and `hard`: iterative-deepening
//! alpha-beta negamax with a transposition table and move ordering.
//!
//! # Values
//! A search value is the *future margin*: how many seeds the side to move
//! will gain on its opponent from now on (final margin minus today's store
//! margin). It depends on the pits only, so the transposition table is keyed
//! by the pits ([`position_key`]). At the search horizon the future margin is
//! estimated as 0, which makes the evaluation the store difference, the
//! measure the classic game-tree player uses (RULES.md §1.1).
//!
//! # Depth
//! Depth counts plies, one per move: a move that earns an extra turn is a
//! ply like any other, and the same side moves again at the next ply without
//! flipping the sign of the value.
//!
//! # Limits
//! A search stops when the [`Limits`] say so (stop flag, deadline, node
//! budget counted in positions played) and then answers with the best move
//! of the deepest finished iteration, or of the unfinished one when it has
//! already proven a better move. It always answers with a legal move.

use super::tt::{Bound, DEPTH_EXACT, SearchEntry, SearchTable, position_key};
use super::{Limits, TurnFn};
use crate::rng::Rng;
use crate::rules::{Board, MAX_PITS, Pit, Rules};

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterMove {
    /// The move ended the game.
    Over,
    /// The mover moves again (no sign flip).
    Again,
    /// The opponent moves.
    Opponent,
}

/// One move from a position, played.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// The position after the move.
    pub board: Board,
    /// The pit played.
    pub pit: Pit,
    /// Store margin the mover gained by the move (captures and, when the
    /// move ends the game, the sweep included).
    pub gain: i32,
    /// Who moves next.
    pub next: AfterMove,
    /// Sort key, highest first.
    pub order: i32,
}

impl Child {
    /// The mover's value of this move given the future margin `value` of
    /// the position it leads to (ignored when the game is over).
    #[cfg(test)]
    pub fn value(&self, value: i32) -> i32 {
        match self.next {
            AfterMove::Over => self.gain,
            AfterMove::Again => self.gain + value,
            AfterMove::Opponent => self.gain - value,
        }
    }
}

/// Every move of a position, played once, in a fixed-size array (no
/// allocation), ready to be ordered.
pub(crate) struct Children {
    items: [Child; MAX_PITS],
    len: usize,
}

impl Children {
    /// Plays every legal move of `board` (in pit order from the mover's left).
    #[inline]
    pub fn new(board: &Board) -> Children {
        let me = board.to_move();
        let base = board.score().margin(me);
        let blank = Child {
            board: *board,
            pit: Pit::new(0),
            gain: 0,
            next: AfterMove::Over,
            order: 0,
        };
        let mut items = [blank; MAX_PITS];
        let mut len = 0;
        for pit in board.legal_moves() {
            let mut after = *board;
            let played = after.play_unchecked(pit);
            let next = if played.game_over {
                AfterMove::Over
            } else if played.extra_turn {
                AfterMove::Again
            } else {
                AfterMove::Opponent
            };
            items[len] = Child {
                board: after,
                pit,
                gain: after.score().margin(me) - base,
                next,
                order: 0,
            };
            len += 1;
        }
        Children { items, len }
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Child] {
        &self.items[..self.len]
    }

    /// The moves, to set their order keys.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Child] {
        &mut self.items[..self.len]
    }

    /// Orders by the default heuristics, `first` (a mover's pit number from
    /// the table) before all: extra turns, then bigger gains (captures).
    #[inline]
    pub fn order(&mut self, rules: &Rules, first: u8) {
        for c in self.as_mut_slice() {
            let number = move_number(rules, c.pit);
            c.order = if number == first {
                1_000_000
            } else {
                let again = if c.next == AfterMove::Again {
                    10_000
                } else {
                    0
                };
                again + 2 * c.gain + i32::from(number)
            };
        }
        self.sort();
    }

    /// Stable insertion sort by `order`, highest first (ties keep pit order).
    #[inline]
    pub fn sort(&mut self) {
        let items = self.as_mut_slice();
        for i in 1..items.len() {
            let mut j = i;
            while j > 0 && items[j - 1].order < items[j].order {
                items.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

/// The mover's pit number 0..pits of `pit`, from the mover's left (the
/// table's side-independent name for a move).
#[inline]
pub(crate) fn move_number(rules: &Rules, pit: Pit) -> u8 {
    rules.number(pit).map_or(u8::MAX, |n| (n - 1) as u8)
}

/// Seeds still in the pits (the future margin lies within ± this).
#[inline]
pub(crate) fn seeds_in_play(board: &Board) -> i32 {
    let n = board.rules().pits();
    let c = board.counts();
    let south: u32 = c[..n].iter().map(|&x| u32::from(x)).sum();
    let north: u32 = c[n + 1..2 * n + 1].iter().map(|&x| u32::from(x)).sum();
    (south + north) as i32
}

/// Counts positions and decides when to stop.
#[derive(Debug)]
pub(crate) struct Budget {
    /// Positions played so far.
    pub nodes: u64,
    limit: u64,
    limits: Limits,
    /// Set once a limit was hit; results after that are discarded.
    pub aborted: bool,
}

impl Budget {
    /// A budget following `limits`, with `fallback_nodes` when they set no
    /// deadline and no node budget (`None`: unlimited but for the stop flag).
    pub fn new(limits: &Limits, fallback_nodes: Option<u64>) -> Budget {
        let limit = match (limits.nodes, limits.deadline) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => fallback_nodes.unwrap_or(u64::MAX),
        };
        Budget {
            nodes: 0,
            limit,
            limits: limits.clone(),
            aborted: false,
        }
    }

    /// Counts one position; true when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit || (self.nodes & 1023 == 0 && self.limits.should_stop()) {
            self.aborted = true;
        }
        self.aborted
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move chosen.
    pub best: Pit,
    /// Its estimated final margin for the side to move.
    pub value: i32,
    /// Plies of the deepest finished iteration (0: none finished).
    pub depth: u32,
    /// Whether the value is the game's true value (the search saw the end
    /// of every line).
    pub exact: bool,
    /// Positions played.
    pub nodes: u64,
}

/// Every legal move's value from one search (see [`Engine::move_values`]),
/// in pit order, in a fixed array (no allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValues {
    items: [(Pit, i32); MAX_PITS],
    len: usize,
    /// Plies of the deepest finished iteration (0: one-ply store gains).
    pub depth: u32,
    /// Whether the values are the game's true values (no line met the
    /// horizon).
    pub exact: bool,
}

impl MoveValues {
    /// Each move and its estimated final margin for the mover.
    #[must_use]
    pub fn as_slice(&self) -> &[(Pit, i32)] {
        &self.items[..self.len]
    }

    /// The best value (`i32::MIN` when there is no move).
    #[must_use]
    pub fn best(&self) -> i32 {
        self.as_slice()
            .iter()
            .map(|&(_, v)| v)
            .max()
            .unwrap_or(i32::MIN)
    }
}

/// Iterative-deepening alpha-beta with a transposition table.
#[derive(Debug)]
pub struct Engine {
    table: SearchTable,
    rules: Option<Rules>,
    /// Leaves cut by the horizon so far: when an iteration adds none, its
    /// value is exact.
    horizon: u64,
}

/// Above any reachable value.
const INF: i32 = 1 << 20;

impl Engine {
    /// An engine with a table of `2^bits` buckets (32 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> Engine {
        Engine {
            table: SearchTable::new(bits),
            rules: None,
            horizon: 0,
        }
    }

    /// Searches `board` (game not over) by iterative deepening up to
    /// `max_depth` plies within `limits`; `fallback_nodes` caps the search
    /// when the limits set no budget. `None` only when there is no legal move.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        max_depth: u32,
        fallback_nodes: Option<u64>,
    ) -> Option<SearchResult> {
        let first = board.legal_moves().next()?;
        if self.rules != Some(*board.rules()) {
            self.table.clear();
            self.rules = Some(*board.rules());
        }
        let rules = *board.rules();
        let base = board.score().margin(board.to_move());
        let mut budget = Budget::new(limits, fallback_nodes);
        let mut result = SearchResult {
            best: first,
            value: base,
            depth: 0,
            exact: false,
            nodes: 0,
        };
        let mut previous_best = u8::MAX;
        for depth in 1..=max_depth.clamp(1, u32::from(DEPTH_EXACT) - 1) {
            let horizon_before = self.horizon;
            let mut children = Children::new(board);
            children.order(&rules, previous_best);
            let mut alpha = -INF;
            let mut best: Option<(Pit, i32)> = None;
            for child in children.as_slice() {
                let value = self.child_value(child, depth - 1, alpha, INF, &mut budget);
                if budget.aborted {
                    break;
                }
                if value > alpha {
                    alpha = value;
                    best = Some((child.pit, value));
                }
            }
            if let Some((pit, value)) = best {
                // an unfinished iteration only counts when it beat the
                // previous best move, which it searched first
                if !budget.aborted || previous_best != move_number(&rules, pit) {
                    result.best = pit;
                    result.value = base + value;
                }
            }
            if budget.aborted {
                break;
            }
            result.depth = depth;
            previous_best = move_number(&rules, result.best);
            if self.horizon == horizon_before {
                result.exact = true;
                break;
            }
        }
        result.nodes = budget.nodes;
        Some(result)
    }

    /// Every move's estimated final margin for the mover, by iterative
    /// deepening up to `max_depth` plies within `limits` (`fallback_nodes`
    /// when they set no budget): the values of the deepest iteration
    /// finished, never of an unfinished one. Values within `within` seeds
    /// of the best are exact at that depth; a move worse than that is only
    /// known to be worse (its value is an upper bound below the line). With
    /// no iteration finished, the values are the one-ply store gains.
    /// `None` only when there is no legal move.
    pub fn move_values(
        &mut self,
        board: &Board,
        limits: &Limits,
        max_depth: u32,
        fallback_nodes: Option<u64>,
        within: i32,
    ) -> Option<MoveValues> {
        board.legal_moves().next()?;
        if self.rules != Some(*board.rules()) {
            self.table.clear();
            self.rules = Some(*board.rules());
        }
        let base = board.score().margin(board.to_move());
        let mut budget = Budget::new(limits, fallback_nodes);
        let mut children = Children::new(board);
        let mut values = MoveValues {
            items: [(Pit::new(0), 0); MAX_PITS],
            len: children.as_slice().len(),
            depth: 0,
            exact: false,
        };
        for (slot, child) in values.items.iter_mut().zip(children.as_slice()) {
            *slot = (child.pit, base + child.gain);
        }
        let mut scratch = values.items;
        for depth in 1..=max_depth.clamp(1, u32::from(DEPTH_EXACT) - 1) {
            let horizon_before = self.horizon;
            // the best of the last iteration first: its value sets the line
            for child in children.as_mut_slice() {
                child.order = values
                    .as_slice()
                    .iter()
                    .find(|(p, _)| *p == child.pit)
                    .map_or(0, |&(_, v)| v);
            }
            children.sort();
            let mut best = -INF;
            for (slot, child) in scratch.iter_mut().zip(children.as_slice()) {
                let floor = best.saturating_sub(within.max(0)).saturating_sub(1);
                let value = self.child_value(child, depth - 1, floor.max(-INF), INF, &mut budget);
                if budget.aborted {
                    break;
                }
                best = best.max(value);
                *slot = (child.pit, base + value);
            }
            if budget.aborted {
                break;
            }
            // back in pit order, as the moves were listed
            let done = &mut scratch[..values.len];
            done.sort_unstable_by_key(|&(p, _)| p.index());
            values.items[..values.len].copy_from_slice(done);
            values.depth = depth;
            if self.horizon == horizon_before {
                values.exact = true;
                break;
            }
        }
        Some(values)
    }

    /// The mover's value of `child` searched `depth` more plies.
    #[inline]
    fn child_value(
        &mut self,
        child: &Child,
        depth: u32,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        match child.next {
            AfterMove::Over => child.gain,
            AfterMove::Again => {
                child.gain
                    + self.negamax(
                        &child.board,
                        depth,
                        alpha - child.gain,
                        beta - child.gain,
                        budget,
                    )
            }
            AfterMove::Opponent => {
                child.gain
                    - self.negamax(
                        &child.board,
                        depth,
                        child.gain - beta,
                        child.gain - alpha,
                        budget,
                    )
            }
        }
    }

    /// Fail-soft negamax on the future margin of `board` (game not over).
    fn negamax(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        if budget.tick() {
            return 0;
        }
        if depth == 0 {
            self.horizon += 1;
            return 0;
        }
        let in_play = seeds_in_play(board);
        if in_play <= alpha {
            return in_play;
        }
        if -in_play >= beta {
            return -in_play;
        }
        let key = position_key(board);
        let mut first = u8::MAX;
        if let Some(e) = self.table.probe(key) {
            first = e.best;
            if u32::from(e.depth) >= depth {
                if e.depth != DEPTH_EXACT {
                    // a value that saw a horizon: this subtree is not exact
                    self.horizon += 1;
                }
                let v = i32::from(e.value);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    Bound::Lower => alpha = alpha.max(v),
                    Bound::Upper => beta = beta.min(v),
                    Bound::None => {}
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let alpha_in = alpha;
        let horizon_before = self.horizon;
        let rules = *board.rules();
        let mut children = Children::new(board);
        children.order(&rules, first);
        let mut best = -INF;
        let mut best_move = u8::MAX;
        for child in children.as_slice() {
            let value = self.child_value(child, depth - 1, alpha, beta, budget);
            if budget.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = move_number(&rules, child.pit);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let stored_depth = if self.horizon == horizon_before {
            DEPTH_EXACT
        } else {
            depth.min(u32::from(DEPTH_EXACT) - 1) as u8
        };
        self.table.store(SearchEntry {
            key,
            value: best.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: stored_depth,
            bound,
            best: best_move,
        });
        best
    }
}

/// How a level of the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The deepest iteration, in plies.
    pub max_depth: u32,
    /// Plays any move whose value is within this many seeds of the best
    /// (chosen at random, from the deepest iteration up to `max_depth`
    /// plies finished within the limits, see [`Engine::move_values`]); 0
    /// plays the best move of the iterative deepening within the limits.
    pub slack: i32,
    /// Positions per move when the limits set no budget (a turn function
    /// given no limits still answers).
    pub fallback_nodes: u64,
    /// Table size: `2^table_bits` buckets of 32 bytes.
    pub table_bits: u32,
}

impl Level {
    /// `easy`: four plies, and any move within 3 seeds of the best (about
    /// as strong as `greedy`).
    pub const EASY: Level = Level {
        max_depth: 4,
        slack: 3,
        fallback_nodes: 100_000,
        table_bits: 12,
    };
    /// `medium`: eight plies, and any move within 1 seed of the best.
    pub const MEDIUM: Level = Level {
        max_depth: 8,
        slack: 1,
        fallback_nodes: 1_000_000,
        table_bits: 16,
    };
    /// `hard`: as deep as the think time allows.
    pub const HARD: Level = Level {
        max_depth: 200,
        slack: 0,
        fallback_nodes: 2_000_000,
        table_bits: 20,
    };
}

/// A computer player driven by the [`Engine`] at some [`Level`].
#[derive(Debug)]
pub struct SearchPlayer {
    engine: Engine,
    level: Level,
    rng: Rng,
}

impl SearchPlayer {
    /// A player at `level`; `seed` fixes its random choices.
    #[must_use]
    pub fn new(level: Level, seed: u64) -> SearchPlayer {
        SearchPlayer {
            engine: Engine::new(level.table_bits),
            level,
            rng: Rng::new(seed),
        }
    }

    /// Searches `board` as this level would (see [`Engine::search`]).
    pub fn analyse(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        self.engine.search(
            board,
            limits,
            self.level.max_depth,
            Some(self.level.fallback_nodes),
        )
    }
}

impl TurnFn for SearchPlayer {
    fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Pit> {
        if self.level.slack > 0 {
            let values = self.engine.move_values(
                board,
                limits,
                self.level.max_depth,
                Some(self.level.fallback_nodes),
                self.level.slack,
            )?;
            let best = values.best();
            let near = |&&(_, v): &&(Pit, i32)| v >= best - self.level.slack;
            let count = values.as_slice().iter().filter(near).count();
            let pick = self.rng.below(count);
            return values
                .as_slice()
                .iter()
                .filter(near)
                .nth(pick)
                .map(|&(p, _)| p);
        }
        self.analyse(board, limits).map(|r| r.best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::TestMap;
    use crate::rules::{Capture, Side};

    /// Plain minimax on the future margin to the end of the round (no
    /// pruning, no bound): the reference for the engine. Each position is
    /// worked out once; a Kalah round never repeats a position (a move
    /// either sows into a store or moves seeds towards the mover's), so
    /// the positions form a tree of finite depth.
    fn minimax(board: &Board) -> i32 {
        minimax_seen(board, &mut TestMap::default())
    }

    fn minimax_seen(board: &Board, seen: &mut TestMap<Board, i32>) -> i32 {
        if let Some(&v) = seen.get(board) {
            return v;
        }
        let v = Children::new(board)
            .as_slice()
            .iter()
            .map(|c| {
                c.value(if c.next == AfterMove::Over {
                    0
                } else {
                    minimax_seen(&c.board, seen)
                })
            })
            .max()
            .expect("a position in play has a move");
        seen.insert(*board, v);
        v
    }

    fn random_position(rng: &mut Rng, rules: Rules) -> Board {
        let plies = rng.below(12);
        crate::players::random_position(rng, Board::new(rules), plies)
    }

    #[test]
    fn deep_search_with_table_finds_the_minimax_value_to_the_end() {
        let mut rng = Rng::new(42);
        for rules in [
            Rules::new(3, 3).unwrap().with_capture(Capture::NonEmpty),
            Rules::new(4, 2).unwrap(),
        ] {
            for _ in 0..30 {
                let board = random_position(&mut rng, rules);
                if board.is_over() {
                    continue;
                }
                let mut engine = Engine::new(10);
                let result = engine.search(&board, &Limits::none(), 100, None).unwrap();
                assert!(result.exact, "{board:?}");
                let base = board.score().margin(board.to_move());
                assert_eq!(result.value - base, minimax(&board), "{board:?}");
                // the move chosen achieves that value
                let mut after = board;
                let played = after.play_unchecked(result.best);
                let child = Children::new(&board)
                    .as_slice()
                    .iter()
                    .find(|c| c.pit == result.best)
                    .copied()
                    .unwrap();
                let rest = if played.game_over { 0 } else { minimax(&after) };
                assert_eq!(child.value(rest), result.value - base);
            }
        }
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        let board = Board::new(Rules::KALAH);
        let limits = Limits::nodes(1);
        let result = Engine::new(8).search(&board, &limits, 20, None).unwrap();
        assert!(board.legal_moves().contains(result.best));
        assert_eq!(result.depth, 0);
        let stop = Limits::none();
        stop.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut player = SearchPlayer::new(Level::HARD, 1);
        let pit = player.choose(&board, &stop).unwrap();
        assert!(board.legal_moves().contains(pit));
    }

    #[test]
    fn node_budget_makes_the_search_repeatable() {
        let board = Board::new(Rules::KALAH);
        let a = Engine::new(16).search(&board, &Limits::nodes(50_000), 99, None);
        let b = Engine::new(16).search(&board, &Limits::nodes(50_000), 99, None);
        assert_eq!(a, b);
        assert!(a.unwrap().depth >= 4);
    }

    #[test]
    fn the_engine_finds_an_endgame_win_exactly() {
        // South: f=1 lands in the store (extra turn), then a=1 sows into b
        // (empty) capturing North's k (opposite b): a proven plan.
        let counts = [1, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 9, 3, 14];
        let board = Board::from_counts(Rules::KALAH, &counts, Side::South).unwrap();
        let result = Engine::new(10)
            .search(&board, &Limits::none(), 40, None)
            .unwrap();
        assert!(result.exact);
        let base = board.score().margin(Side::South);
        assert_eq!(result.value - base, minimax(&board));
    }
}
