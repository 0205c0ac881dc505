//! `perfect`: the player that plays a proven best move, thinking on the
//! opponent's time when the opponent is a person.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{DEFAULT_PLAYER_MEMORY, Solver, book, default_threads};
use crate::players::search::{Engine, Level};
use crate::players::{Limits, MoveProof, TurnFn};
use crate::rules::{Board, Pit, Rules, Side};

/// How many of the opponent's moves in a row (extra turns) pondering
/// follows to find the positions where `perfect` moves next.
const PONDER_REPLY_DEPTH: u32 = 3;

/// How many of its own book moves pondering looks past to reach the first
/// positions the book does not answer (the 6x4 book is 12 plies deep, 6
/// moves of `perfect`'s without extra turns: the first positions past it
/// are reached from its third move on).
const PONDER_BOOK_DEPTH: u32 = 3;

/// Positions the engine still searches when the stop flag cut the solver
/// short ("move now"): a few milliseconds (measured: see the notes), for
/// a searched move rather than the first legal one.
const STOPPED_SEARCH_NODES: u64 = 20_000;

/// How often a turn looks whether the solver got ready on its thread.
const READY_POLL: Duration = Duration::from_millis(1);

/// The most seeds a board may hold for `perfect` to be expected to prove
/// its moves from the first one within the default think time (1 s, half
/// of it for the solver). Measured on this 2-core machine with `mancala
/// solve --memory 512 --think 500` from the opening: every board of at
/// most 32 seeds was solved (Kalah(4,4) in 0.07 s, Kalah(8,2) in 0.43 s,
/// Kalah(12,1) in 0.38 s), and Kalah(4,5), Kalah(5,4) (40 seeds) and
/// every bigger board measured from 6 pits up were not.
pub const PROVEN_IN_TIME_SEEDS: u32 = 32;

/// Whether `perfect` is expected to prove its moves on `rules` within the
/// default think time: boards of at most [`PROVEN_IN_TIME_SEEDS`] seeds,
/// and the boards whose openings the book answers (Kalah(6,3), Kalah(6,4):
/// past the book their positions were proven in 614 ms at most, see the
/// README).
#[must_use]
pub fn proves_in_time(rules: &Rules) -> bool {
    rules.total_seeds() <= PROVEN_IN_TIME_SEEDS as usize
        || book::shipped().get(&Board::new(*rules)).is_some()
}

/// `perfect`: plays a proven best move when it finds one in time.
///
/// It looks up the opening book first, then gives the solver the first
/// half of the think time and node budget; when that proves nothing (the
/// opening of big boards), it plays the `hard` engine's move searched with
/// the rest, and [`TurnFn::last_proof`] says the move is not proven. With
/// no limits (only the stop flag) the solver runs until it proves. The
/// stop flag ends the thinking at once with the best move found so far.
/// It keeps its solver (table and database) across moves and rounds.
/// Boards too big for the solver are played by the engine alone.
///
/// With [`TurnFn::think_on_opponents_time`] it ponders: after each move it
/// goes on solving, on a thread of its own, the position it left and every
/// position it can face next, so that its next answer is mostly found in
/// the table. Its next turn stops the pondering at once and keeps what it
/// proved. Without it, it only gets its solver ready ahead, once (the
/// database built, the table's memory brought in), on one search thread
/// and only where the machine has a core to spare for it.
#[derive(Debug)]
pub struct PerfectPlayer {
    /// `None` only while a pondering thread holds it.
    solver: Option<Solver>,
    /// The memory of a solver made again (a pondering thread that died),
    /// and whether it shares the process's database.
    memory: usize,
    sharing: bool,
    pondering: bool,
    ponder: Option<Ponder>,
    engine: Option<Engine>,
    /// Whether the last move chosen was proven.
    last_proof: Option<MoveProof>,
}

/// A thread thinking ahead (pondering, or getting the solver ready): it
/// hands the solver back when it ends.
#[derive(Debug)]
struct Ponder {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Solver>,
}

impl PerfectPlayer {
    /// A perfect player with the default memory.
    #[must_use]
    pub fn new() -> PerfectPlayer {
        PerfectPlayer::with_solver(Solver::new(DEFAULT_PLAYER_MEMORY).growing())
    }

    /// The same sharing the process's endgame database with the other
    /// players of these rules ([`Solver::sharing`]): the player a match
    /// seats.
    #[must_use]
    pub fn sharing() -> PerfectPlayer {
        PerfectPlayer::with_solver(Solver::new(DEFAULT_PLAYER_MEMORY).growing().sharing())
    }

    /// A perfect player around `solver`.
    #[must_use]
    pub fn with_solver(solver: Solver) -> PerfectPlayer {
        // the book is read now rather than at the first move, which would
        // otherwise wait for it, or for the thread reading it first (the
        // live analysis's, of the lowest priority)
        let _ = book::shipped();
        PerfectPlayer {
            memory: solver.memory,
            sharing: solver.sharing,
            solver: Some(solver),
            pondering: false,
            ponder: None,
            engine: None,
            last_proof: None,
        }
    }

    /// The solver, for hints that reuse its table (pondering stops).
    pub fn solver_mut(&mut self) -> &mut Solver {
        self.stop_pondering();
        let (memory, sharing) = (self.memory, self.sharing);
        self.solver.get_or_insert_with(|| {
            let solver = Solver::new(memory).growing();
            if sharing { solver.sharing() } else { solver }
        })
    }

    /// Waits until pondering has nothing left to solve (tests: the
    /// effect of pondering without depending on the clock).
    #[cfg(test)]
    fn finish_pondering(&mut self) {
        if let Some(ponder) = self.ponder.take() {
            self.solver = ponder.thread.join().ok();
        }
    }

    /// Stops the thread thinking ahead, if any, and takes the solver back.
    fn stop_pondering(&mut self) {
        if let Some(ponder) = self.ponder.take() {
            ponder.stop.store(true, Ordering::Relaxed);
            // a thread that panicked lost the solver: a new one is made
            self.solver = ponder.thread.join().ok();
        }
    }

    /// Starts thinking ahead, on a thread of its own, after `pit` is
    /// played in `board`: pondering when the opponent is a person; against
    /// a computer only getting the solver ready (its database and table,
    /// once), on one search thread and only where the machine has a core
    /// to spare, so that it does not take the opponent's.
    fn think_ahead(&mut self, board: &Board, pit: Pit) {
        let mut next = *board;
        next.play_unchecked(pit);
        if next.is_over() {
            return;
        }
        if self.pondering {
            let me = board.to_move();
            self.spawn(move |solver, limits| ponder(solver, &next, me, limits));
        } else if default_threads() >= 2 && self.solver.as_ref().is_some_and(|s| !s.is_warm(&next))
        {
            self.spawn(move |solver, limits| {
                let threads = solver.threads;
                solver.threads = 1;
                let _ = solver.warm_up(&next, limits);
                solver.threads = threads;
            });
        }
    }

    /// Runs `job` on the solver on a thread of its own, until stopped.
    fn spawn(&mut self, job: impl FnOnce(&mut Solver, &Limits) + Send + 'static) {
        let Some(mut solver) = self.solver.take() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            deadline: None,
            nodes: None,
            stop: Arc::clone(&stop),
        };
        let spawned = std::thread::Builder::new()
            .name("perfect-ponder".into())
            .spawn(move || {
                job(&mut solver, &limits);
                solver
            });
        // when no thread can be made the solver went with the closure; the
        // next turn makes a new one
        self.ponder = spawned.ok().map(|thread| Ponder { stop, thread });
    }

    /// A move for `board` within `limits`, and whether it is proven: the
    /// book's, else the solver's with the first half of the limits, else
    /// the `hard` engine's with the rest.
    fn find(&mut self, board: &Board, limits: &Limits) -> Option<(Pit, bool)> {
        if Solver::check(board, self.memory).is_err() {
            return self.search(board, limits);
        }
        let share = limits.first_half();
        if let Some(pit) = book::lookup(board) {
            // the solver's time grows the database instead (see `grow`)
            self.grow(board, &share);
            return Some((pit, true));
        }
        if self.get_ready(board, &share)
            && let Some((pit, _)) = self.solver_mut().best_move(board, &share)
        {
            // what is left of the solver's time grows the database, after
            // the search, so that the search never waits for it
            self.grow(board, &share);
            return Some((pit, true));
        }
        self.search(board, limits)
    }

    /// Grows the solver's database on what is left of a move's time
    /// ([`Solver::grow`]), unless it ponders: then the thread that starts
    /// once the move is played builds it on the person's time, and the
    /// person is not kept waiting for it (under load, the 18-seed
    /// database Kalah(6,4)'s player then had was still being built at the
    /// end of a game, and every move took the 50 ms of its slice more).
    fn grow(&mut self, board: &Board, share: &Limits) {
        if !self.pondering {
            self.solver_mut().grow(board, share);
        }
    }

    /// Whether the solver is ready for `board` (see
    /// [`Solver::is_ready_to_search`]: its database built, for a growing
    /// solver its first levels, and its table brought in) before
    /// `share`'s deadline, so that its search stops on time: a fresh table
    /// meets a new page at nearly every position, and a solve on it
    /// overran a 100 ms deadline by up to 2.7 s on Kalah(6,6) (a ready one
    /// by 10 ms). Getting ready runs on the thread that thinks ahead and
    /// goes on there when `share` ends first (the next turn takes the
    /// solver back). Without a deadline (a node budget, or none) there is
    /// no clock to keep: always ready.
    fn get_ready(&mut self, board: &Board, share: &Limits) -> bool {
        if share.deadline.is_none() || self.solver_mut().is_ready_to_search(board) {
            return true;
        }
        let next = *board;
        self.spawn(move |solver, limits| {
            let _ = solver.warm_up(&next, limits);
        });
        loop {
            match &self.ponder {
                None => return false,
                Some(ponder) if ponder.thread.is_finished() => {
                    self.stop_pondering();
                    return self
                        .solver
                        .as_ref()
                        .is_some_and(|s| s.is_ready_to_search(board));
                }
                Some(_) if share.should_stop() => return false,
                Some(_) => std::thread::sleep(READY_POLL),
            }
        }
    }

    /// The `hard` engine's move within `limits` (proven when its search saw
    /// the end of every line). Stopped by the flag ("move now", undo), it
    /// still looks [`STOPPED_SEARCH_NODES`] positions deep, so that the
    /// answer is a searched move, not the first legal one.
    fn search(&mut self, board: &Board, limits: &Limits) -> Option<(Pit, bool)> {
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(Level::HARD.table_bits));
        let short = Limits::nodes(STOPPED_SEARCH_NODES);
        let limits = if limits.stopped() { &short } else { limits };
        engine
            .search(
                board,
                limits,
                Level::HARD.max_depth,
                Some(Level::HARD.fallback_nodes),
            )
            .map(|r| (r.best, r.exact))
    }
}

/// Solves what `me` may face after its move left `next`: the positions
/// where `me` moves next (as `choose` will ask for them), after building
/// the endgame database, bringing in the table's memory and proving the
/// value of `next` (a bound after every reply). Positions the book answers
/// need nothing: pondering follows their book move instead, level by level
/// up to [`PONDER_BOOK_DEPTH`] book moves ahead, so that while the book
/// still plays, the first positions it does not answer are solved before
/// the game reaches them. While the database is not complete, the
/// positions of its very next turn come first, solved with the levels
/// built so far (see [`Solver::get_ready_to_search`]).
fn ponder(solver: &mut Solver, next: &Board, me: Side, limits: &Limits) {
    // what a search needs first, even while the book answers everything in
    // reach: the database's first levels and the table's memory (the first
    // search on a fresh table is slow to stop, see `Zeroed::fault_in`)
    if !solver.get_ready_to_search(next, limits) {
        return;
    }
    // under load the whole database (3.7 s measured on 6x4, where the
    // player's database holds 16 seeds) was not built when the game left
    // the book, and the first move past it waited for its search: the
    // positions of the next turn are solved first with the levels built
    if !solver.is_warm(next) {
        solve_ahead(solver, next, me, limits, 0);
    }
    if limits.should_stop() || solver.warm_up(next, limits) != Some(true) {
        return;
    }
    solve_ahead(solver, next, me, limits, PONDER_BOOK_DEPTH);
}

/// Solves the positions where `me` moves next after its move left `next`
/// that the book does not answer, and, through the book's moves, those up
/// to `book_depth` book moves ahead (see [`ponder`]), until `limits` stop.
fn solve_ahead(solver: &mut Solver, next: &Board, me: Side, limits: &Limits, book_depth: u32) {
    let mut level = vec![*next];
    for _ in 0..=book_depth {
        let mut deeper = Vec::new();
        for after in &level {
            let mut open = Vec::new();
            for mut board in next_turns(after, me) {
                match book::lookup(&board) {
                    Some(pit) => {
                        board.play_unchecked(pit);
                        if !board.is_over() {
                            deeper.push(board);
                        }
                    }
                    None => open.push(board),
                }
            }
            if !open.is_empty() {
                if after.to_move() != me && solver.value(after, limits).is_none() {
                    return;
                }
                for board in open {
                    if limits.should_stop() {
                        return;
                    }
                    let _ = solver.best_move(&board, limits);
                }
            }
        }
        if deeper.is_empty() || limits.should_stop() {
            return;
        }
        level = deeper;
    }
}

/// The positions where `me` moves next after its move left `next`: `next`
/// itself when `me` moves again, else every reply's (see [`replies`]).
fn next_turns(next: &Board, me: Side) -> Vec<Board> {
    let mut ahead = Vec::new();
    if next.to_move() == me {
        ahead.push(*next);
    } else {
        replies(next, me, PONDER_REPLY_DEPTH, &mut ahead);
    }
    ahead
}

/// Every position after the opponent's moves (following its extra turns
/// `depth` deep) where `me` is to move and the game goes on.
fn replies(board: &Board, me: Side, depth: u32, out: &mut Vec<Board>) {
    if depth == 0 {
        return;
    }
    for pit in board.legal_moves() {
        let mut after = *board;
        after.play_unchecked(pit);
        if after.is_over() {
            continue;
        }
        if after.to_move() == me {
            out.push(after);
        } else {
            replies(&after, me, depth - 1, out);
        }
    }
}

impl Default for PerfectPlayer {
    fn default() -> Self {
        PerfectPlayer::new()
    }
}

impl Drop for PerfectPlayer {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

impl TurnFn for PerfectPlayer {
    fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Pit> {
        let started = Instant::now();
        self.stop_pondering();
        let (pit, proven) = self.find(board, limits)?;
        self.last_proof = Some(if proven {
            MoveProof::Proven
        } else {
            MoveProof::Unproven {
                thought: started.elapsed(),
            }
        });
        if !limits.stopped() {
            self.think_ahead(board, pit);
        }
        Some(pit)
    }

    fn think_on_opponents_time(&mut self, allowed: bool) {
        self.pondering = allowed;
        if !allowed {
            self.stop_pondering();
        }
    }

    fn stop_thinking_ahead(&mut self) {
        // only the flag: the caller (the screen's thread) does not wait for
        // the thread to end; the next turn takes the solver back
        if let Some(ponder) = &self.ponder {
            ponder.stop.store(true, Ordering::Relaxed);
        }
    }

    fn last_proof(&self) -> Option<MoveProof> {
        self.last_proof
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(ponders: bool) -> PerfectPlayer {
        let mut p = PerfectPlayer::with_solver(Solver::new(16 << 20).with_threads(1));
        p.think_on_opponents_time(ponders);
        p
    }

    /// The positions where `me` moves next after `pit` in `board`.
    fn turns_after(board: &Board, pit: Pit) -> Vec<Board> {
        let mut after = *board;
        after.play_unchecked(pit);
        next_turns(&after, board.to_move())
    }

    /// Positions searched for `perfect`'s next turn after every reply.
    fn next_turn_nodes(p: &mut PerfectPlayer, ahead: &[Board]) -> u64 {
        ahead
            .iter()
            .map(|b| {
                let solver = p.solver_mut();
                solver.best_move(b, &Limits::none()).expect("solved");
                solver.nodes
            })
            .sum()
    }

    #[test]
    fn pondering_solves_every_next_turn_on_the_opponents_time() {
        // small boards, solved in moments; positions a few moves in, where
        // `perfect`'s move hands the turn to the opponent (after an even
        // number of these plies it never does, so those are not tried)
        let mut tried = 0;
        for rules in [Rules::new(5, 4).unwrap(), Rules::new(6, 3).unwrap()] {
            for plies in (3..8).step_by(2) {
                let mut board = Board::new(rules);
                for _ in 0..plies {
                    board.play_unchecked(board.legal_moves().last().unwrap());
                }
                let (mut idle, mut ponderer) = (player(false), player(true));
                let pit = idle.choose(&board, &Limits::none()).unwrap();
                assert_eq!(ponderer.choose(&board, &Limits::none()), Some(pit));
                ponderer.finish_pondering();
                let ahead = turns_after(&board, pit);
                if ahead.len() < 2 {
                    continue;
                }
                tried += 1;
                let waiting = next_turn_nodes(&mut idle, &ahead);
                let pondered = next_turn_nodes(&mut ponderer, &ahead);
                assert!(
                    pondered * 10 < waiting,
                    "{rules:?} after {plies}: {pondered} positions after pondering, {waiting} without"
                );
                // and the moves are the same proven ones
                for b in &ahead {
                    assert_eq!(
                        ponderer.choose(b, &Limits::none()),
                        idle.choose(b, &Limits::none())
                    );
                }
            }
        }
        assert!(tried >= 4, "{tried} positions");
    }

    #[test]
    fn a_pondering_player_leaves_the_database_to_its_thread_not_to_its_move() {
        // a book move of Kalah(6,3): without pondering the move's time
        // grows the database; pondering, the move builds nothing (the
        // thread thinking ahead builds it after the move)
        let board = Board::new(Rules::new(6, 3).unwrap());
        assert!(book::lookup(&board).is_some());
        let built = |ponders: bool| {
            let solver = Solver::new(16 << 20)
                .with_threads(1)
                .growing()
                .with_endgame_slice(Duration::from_secs(60));
            let mut p = PerfectPlayer::with_solver(solver);
            p.think_on_opponents_time(ponders);
            p.find(&board, &Limits::none()).expect("a book move");
            p.solver.as_ref().map_or(0, |s| s.endgame().0)
        };
        assert_eq!(built(true), 0);
        assert!(built(false) > 0);
    }

    #[test]
    fn pondering_solves_its_next_turn_before_it_builds_the_rest_of_the_database() {
        // a 24-seed database: its first levels build at once, the rest in
        // about a second; the positions of the next turn are in the table
        // while the rest is still being built (they waited for all of it,
        // and under load on 6x4 the game left the book first). Rules no
        // other test shares a database of; an observer shares the thread's
        // table and database
        use crate::rules::{Capture, Sweep};
        let rules = Rules::new(4, 4)
            .unwrap()
            .with_capture(Capture::NonEmpty)
            .with_sweep(Sweep::None);
        let solver = || {
            Solver::new(64 << 20)
                .with_threads(1)
                .growing()
                .with_endgame_seeds(24)
                .sharing()
        };
        let board = Board::new(rules);
        let pit = board
            .legal_moves()
            .find(|&pit| {
                let mut next = board;
                next.play_unchecked(pit);
                next.to_move() == Side::North
            })
            .expect("a move that passes the turn");
        let mut next = board;
        next.play_unchecked(pit);
        let ahead = next_turns(&next, Side::South);
        assert!(ahead.len() >= 2);
        let mut observer = solver();
        // sized for the whole game, as the thread's
        observer.reserve(&board);
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            deadline: None,
            nodes: None,
            stop: Arc::clone(&stop),
        };
        let thread = std::thread::spawn(move || ponder(&mut solver(), &next, Side::South, &limits));
        let until = Instant::now() + Duration::from_secs(60);
        while !ahead.iter().all(|b| observer.table_move(b).is_some()) {
            assert!(
                !thread.is_finished() && Instant::now() < until,
                "never solved"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let built = observer.endgame().0;
        stop.store(true, Ordering::Relaxed);
        thread.join().expect("pondered");
        assert!(built < 24, "the whole database was built first");
    }

    #[test]
    fn pondering_ends_by_itself_once_the_positions_ahead_are_proven() {
        // no stop flag, no turn: the thread ends when it has proven every
        // position where `perfect` may move next, and leaves no core busy
        // (a position a few moves in where its move hands the turn over)
        let rules = Rules::new(5, 3).unwrap();
        let (board, pit, mut p) = (3..12)
            .step_by(2)
            .find_map(|plies| {
                let mut board = Board::new(rules);
                for _ in 0..plies {
                    board.play_unchecked(board.legal_moves().last().unwrap());
                }
                let mut p = player(true);
                let pit = p.choose(&board, &Limits::none()).unwrap();
                (turns_after(&board, pit).len() >= 2).then_some((board, pit, p))
            })
            .expect("a position with replies");
        let ponder = p.ponder.as_ref().expect("pondering");
        let until = Instant::now() + Duration::from_secs(20);
        while !ponder.thread.is_finished() {
            assert!(Instant::now() < until, "still pondering after 20 s");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!ponder.stop.load(Ordering::Relaxed), "it ended by itself");
        p.finish_pondering();
        for next in &turns_after(&board, pit) {
            let solver = p.solver_mut();
            solver.best_move(next, &Limits::none()).expect("solved");
            assert!(solver.nodes < 100, "{} positions: not proven", solver.nodes);
        }
    }

    /// The first positions along the book's lines (from `board`, `me` to
    /// move) where `me` moves and the book has no answer.
    fn book_frontier(board: &Board, me: Side, out: &mut Vec<Board>) {
        if board.is_over() {
            return;
        }
        if board.to_move() == me {
            match book::lookup(board) {
                Some(pit) => {
                    let mut after = *board;
                    after.play_unchecked(pit);
                    book_frontier(&after, me, out);
                }
                None => out.push(*board),
            }
        } else {
            for pit in board.legal_moves() {
                let mut after = *board;
                after.play_unchecked(pit);
                book_frontier(&after, me, out);
            }
        }
    }

    #[test]
    fn while_the_book_plays_pondering_solves_the_first_positions_past_it() {
        // Kalah(6,3): the book answers `perfect`'s first two moves as
        // South; pondering after the first reaches the positions past it
        let board = Board::new(Rules::new(6, 3).unwrap());
        let (mut idle, mut ponderer) = (player(false), player(true));
        let pit = ponderer.choose(&board, &Limits::none()).unwrap();
        assert_eq!(book::lookup(&board), Some(pit));
        ponderer.finish_pondering();
        let mut after = board;
        after.play_unchecked(pit);
        let mut frontier = Vec::new();
        book_frontier(&after, Side::South, &mut frontier);
        assert!(frontier.len() >= 20, "{} positions", frontier.len());
        let waiting = next_turn_nodes(&mut idle, &frontier);
        let pondered = next_turn_nodes(&mut ponderer, &frontier);
        assert!(
            pondered * 10 < waiting,
            "{pondered} positions after pondering, {waiting} without"
        );
    }

    #[test]
    fn pondering_builds_the_endgame_database_while_the_book_still_plays() {
        // Kalah(6,4) as South: every position pondering reaches from the
        // opening is in the book; the database is built all the same, so
        // that the first position past the book does not wait for it
        let board = Board::new(Rules::KALAH);
        let mut p = player(true);
        let pit = p.choose(&board, &Limits::none()).unwrap();
        assert_eq!(book::lookup(&board), Some(pit));
        p.finish_pondering();
        let solver = p.solver.as_mut().expect("handed back");
        let db = solver
            .endgame
            .as_mut()
            .expect("pondering made the database")
            .database();
        assert!(db.max_seeds() >= 10, "{} seeds", db.max_seeds());
        assert_eq!(db.ready(), db.max_seeds(), "every level is built");
    }

    #[test]
    fn against_a_computer_it_only_gets_its_solver_ready_on_one_thread() {
        // Kalah(6,4) after a book move, not pondering: where there is a
        // core to spare the database is built and the table brought in,
        // once; nothing is searched and the solver keeps its threads
        let board = Board::new(Rules::KALAH);
        let mut p = PerfectPlayer::with_solver(Solver::new(16 << 20).with_threads(2));
        p.think_on_opponents_time(false);
        let pit = p.choose(&board, &Limits::none()).unwrap();
        assert_eq!(book::lookup(&board), Some(pit));
        let spare = default_threads() >= 2;
        assert_eq!(p.ponder.is_some(), spare);
        p.finish_pondering();
        let mut after = board;
        after.play_unchecked(pit);
        let solver = p.solver.as_ref().expect("handed back");
        assert_eq!(solver.is_warm(&after), spare);
        assert_eq!(solver.nodes, 0, "nothing searched");
        assert_eq!(solver.threads, 2);
        // ready: its next move starts nothing
        let mut next = after;
        if next.to_move() != Side::South {
            next.play_unchecked(next.legal_moves().next().unwrap());
        }
        p.choose(&next, &Limits::none()).unwrap();
        assert!(p.ponder.is_none());
    }

    #[test]
    fn with_its_first_levels_a_player_searches_at_once_without_waiting_for_the_rest() {
        // Kalah(6,4), past the book: the default player's 16-seed database
        // takes seconds to build. Once its first levels are built and its
        // small table is in, a timed turn searches at once: nothing is
        // built or brought in on another thread first
        let counts = [3, 0, 2, 1, 4, 1, 15, 2, 1, 0, 3, 2, 1, 13];
        let board = Board::from_counts(Rules::KALAH, &counts, Side::South).unwrap();
        let mut p = PerfectPlayer::new();
        p.think_on_opponents_time(false);
        let mut slices = 0;
        while !p.solver_mut().is_ready_to_search(&board) {
            p.solver_mut().grow(&board, &Limits::none());
            slices += 1;
            assert!(slices < 10_000, "ready in time");
        }
        let complete = |p: &PerfectPlayer| {
            let solver = p.solver.as_ref().expect("held");
            solver.endgame.as_ref().is_some_and(|e| e.is_complete())
        };
        assert!(!complete(&p));
        assert!(p.get_ready(&board, &Limits::time(Duration::from_secs(60))));
        assert!(p.ponder.is_none(), "nothing started on another thread");
        assert!(!complete(&p), "the turn did not wait for the database");
    }

    #[test]
    fn a_turn_or_dropping_the_player_stops_pondering_at_once() {
        // the Kalah(6,4) opening is in the book; the position after it
        // takes many seconds to solve, so pondering is still under way
        let board = Board::new(Rules::KALAH);
        let mut p = player(true);
        let pit = p.choose(&board, &Limits::none()).unwrap();
        assert!(p.ponder.is_some());
        let mut after = board;
        after.play_unchecked(pit);
        let stopped = Limits::none();
        stopped.stop.store(true, Ordering::Relaxed);
        // a stopped turn answers a legal move and does not ponder again
        let answer = p.choose(&after, &stopped).unwrap();
        assert!(after.legal_moves().contains(answer));
        assert!(p.ponder.is_none() && p.solver.is_some());
        p.choose(&board, &Limits::none()).unwrap();
        assert!(p.ponder.is_some());
        drop(p);
    }

    /// A game from `rules`' start, `perfect` (South) against random
    /// replies, giving each of `perfect`'s positions and answers to `check`.
    fn play_against_random(
        p: &mut PerfectPlayer,
        rules: Rules,
        moves: usize,
        limits: impl Fn() -> Limits,
        mut check: impl FnMut(&Board, Pit, Option<MoveProof>),
    ) {
        let mut random = crate::players::RandomPlayer::new(3);
        let mut board = Board::new(rules);
        let mut asked = 0;
        while !board.is_over() && asked < moves {
            let pit = if board.to_move() == Side::South {
                asked += 1;
                let pit = p.choose(&board, &limits()).expect("a move");
                check(&board, pit, p.last_proof());
                pit
            } else {
                random.choose(&board, &Limits::none()).expect("a move")
            };
            board.play_unchecked(pit);
        }
    }

    #[test]
    fn capped_on_a_board_it_cannot_prove_it_keeps_to_the_think_time() {
        // Kalah(6,6): before, the first move was still unproven after a
        // minute; now each move comes within the 200 ms think, unproven
        let mut p = PerfectPlayer::new();
        let think = Duration::from_millis(200);
        let mut slowest = Duration::ZERO;
        play_against_random(
            &mut p,
            Rules::new(6, 6).unwrap(),
            4,
            || Limits::time(think),
            |board, pit, proof| {
                assert!(board.legal_moves().contains(pit));
                let Some(MoveProof::Unproven { thought }) = proof else {
                    panic!("{proof:?}");
                };
                slowest = slowest.max(thought);
            },
        );
        // the bound leaves room for a loaded machine (2 cores at load 17
        // took 800 ms once); the fault it guards took over a minute
        assert!(slowest < think * 10, "{slowest:?}");
    }

    #[test]
    fn with_time_it_plays_exactly_the_proven_best_moves() {
        let mut reference = Solver::new(64 << 20);
        for (rules, moves) in [
            (Rules::new(4, 3).unwrap(), 12),
            (Rules::new(6, 3).unwrap(), 5),
        ] {
            let mut p = PerfectPlayer::with_solver(Solver::new(64 << 20));
            play_against_random(
                &mut p,
                rules,
                moves,
                || Limits::time(Duration::from_secs(30)),
                |board, pit, proof| {
                    assert_eq!(proof, Some(MoveProof::Proven));
                    let best = reference
                        .solve(board, &Limits::none())
                        .expect("solved")
                        .best;
                    assert!(best.contains(&pit), "{rules:?}: {pit:?} not in {best:?}");
                },
            );
        }
    }

    #[test]
    fn stopped_by_the_flag_it_answers_at_once_with_a_searched_move() {
        // no deadline: only the flag ends the thinking ("move now")
        let board = Board::new(Rules::new(6, 6).unwrap());
        let mut p = PerfectPlayer::new();
        let limits = Limits::none();
        let stop = Arc::clone(&limits.stop);
        let pressed = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let pit = p.choose(&board, &limits).expect("a move");
        let answered = Instant::now();
        let pressed = pressed.join().unwrap();
        assert!(board.legal_moves().contains(pit));
        assert!(matches!(p.last_proof(), Some(MoveProof::Unproven { .. })));
        let late = answered.saturating_duration_since(pressed);
        // room for a loaded machine; the fault it guards never answered
        assert!(
            late < Duration::from_secs(3),
            "answered {late:?} after the flag"
        );
    }

    #[test]
    fn stopping_the_thinking_ahead_ends_the_pondering_thread() {
        // Kalah(6,6), the solver ready: pondering after a capped move goes
        // on solving a position it cannot prove for a long time
        let board = Board::new(Rules::new(6, 6).unwrap());
        let mut p = player(true);
        p.solver_mut().warm_up(&board, &Limits::none());
        p.choose(&board, &Limits::time(Duration::from_millis(100)))
            .unwrap();
        let finished =
            |p: &PerfectPlayer| p.ponder.as_ref().is_some_and(|t| t.thread.is_finished());
        std::thread::sleep(Duration::from_millis(200));
        assert!(!finished(&p), "still pondering");
        p.stop_thinking_ahead();
        let until = Instant::now() + Duration::from_secs(2);
        while !finished(&p) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(finished(&p), "the pondering thread ended");
    }

    #[test]
    fn small_boards_and_book_boards_are_expected_to_be_proven_in_time() {
        for (pits, seeds, proven) in [
            (4, 4, true),
            (8, 2, true),
            (6, 3, true),
            (6, 4, true),
            (4, 5, false),
            (5, 4, false),
            (6, 5, false),
            (6, 6, false),
        ] {
            let rules = Rules::new(pits, seeds).unwrap();
            assert_eq!(proves_in_time(&rules), proven, "{rules:?}");
        }
    }
}
