//! The analysis of a round worked out on spare time while it is played,
//! so that it is ready, or nearly, when the round ends.
//!
//! A [`LiveAnalysis`] owns one thread of low priority (its nice value
//! raised on Linux) with one [`RoundAnalyser`]: one solver, its endgame
//! database and table kept from move to move and from round to round. The
//! owner tells it the round as it stands after every change
//! ([`LiveAnalysis::follow`]: a move played, moves taken back, a new
//! round); the thread values the positions not valued yet, the latest
//! first, as [`crate::analysis::Analyst::round`] would (a move played
//! cuts the position being valued short: the new one goes first). While a computer
//! thinks (a [`Pause`] held), the thread stops at once and waits: a
//! position whose work was cut short is valued again later (nothing half
//! proven is kept), so a move is never slowed by the analysis.
//!
//! [`Watch`] is what a screen holds to show the progress and, once every
//! position is valued, the [`Analysis`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use super::{Analysis, Analyst, PositionBudget, RoundAnalyser};
use crate::players::solver::{DEFAULT_PLAYER_MEMORY, PLAYER_DB_SCALE, PLAYER_TABLE_BYTES, Solver};
use crate::rules::{GameRound, Pit};

/// The live analysis's solver: it uses the process's endgame database and
/// table of the game's rules, sized as a player's ([`Solver::sharing`]),
/// so that beside `perfect` (or a hint giver) they are built and held
/// once, and the analysis finds what the players proved (an analysis of
/// its own held a 16-seed database of 30 MB on Kalah(6,4) and a 64 MiB
/// table); one search thread, leaving the other cores to the players.
fn live_solver() -> Solver {
    Solver::new(DEFAULT_PLAYER_MEMORY)
        .sharing()
        // a player's sizes: the database and table the players of the
        // process use
        .with_endgame_scale(PLAYER_DB_SCALE)
        .with_table_limit(PLAYER_TABLE_BYTES)
        .with_threads(1)
}

/// What the thread is told and what it reports, under one lock.
#[derive(Default)]
struct State {
    /// The round to follow: its start and its moves.
    target: Option<(GameRound, Vec<Pit>)>,
    /// Bumped at every change of `target`.
    version: u64,
    /// Pauses held (a computer thinking).
    holds: usize,
    /// The owner is gone: the thread ends.
    closed: bool,
    /// The version the figures below are of.
    reported: u64,
    /// Positions valued, positions in all.
    progress: (usize, usize),
    /// Positions proven (of those valued).
    proven: usize,
    /// The whole analysis, once every position is valued.
    result: Option<Analysis>,
    /// A move the rules refused (nothing more is analysed until the next
    /// change).
    problem: Option<String>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    /// The stop flag of the position being valued: set to cut its work
    /// short (a pause, moves taken back, the end).
    interrupt: Arc<AtomicBool>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The analysis of the round being played, on its own thread. See the
/// [module docs](self).
pub struct LiveAnalysis {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    /// What was last sent (so that an unchanged round is not sent again).
    sent: Option<(GameRound, Vec<Pit>)>,
}

impl LiveAnalysis {
    /// Starts the thread, each position valued within `per_position`
    /// (positions the analysis always proves take what they need); `None`
    /// when the system refuses a thread.
    #[must_use]
    pub fn start(per_position: Duration) -> Option<LiveAnalysis> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            interrupt: Arc::new(AtomicBool::new(false)),
        });
        let budget = PositionBudget {
            per_position: Some(per_position),
            nodes: None,
            stop: Arc::clone(&shared.interrupt),
        };
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("mancala-live-analysis".into())
            .spawn(move || {
                crate::players::lower_thread_priority();
                work(&theirs, &budget);
            })
            .ok()?;
        Some(LiveAnalysis {
            shared,
            thread: Some(thread),
            sent: None,
        })
    }

    /// The round now stands at `moves` played from `start`: what changed
    /// since the last call is analysed next, the position being valued
    /// cut short and valued again later (a move taken back keeps the
    /// values of the positions before it; another start begins anew with
    /// the same solver). The round is of either family (a Kalah [`Board`],
    /// or a [`GameRound`]).
    ///
    /// [`Board`]: crate::rules::Board
    pub fn follow(&mut self, start: impl Into<GameRound>, moves: &[Pit]) {
        let start = start.into();
        if let Some((was, played)) = &self.sent
            && *was == start
            && played == moves
        {
            return;
        }
        self.sent = Some((start.clone(), moves.to_vec()));
        let mut state = self.shared.lock();
        state.target = Some((start, moves.to_vec()));
        state.version += 1;
        // What the thread is valuing may be gone; and when the round only
        // went on, the newest position goes first, as it does after the
        // round (the latest first, each reusing what the later ones
        // proved): a position of Kalah(6,5) proven from nothing took
        // minutes of the round and 89 s after its end (docs/PERFORMANCE.md).
        // The work cut short stays in the table.
        self.shared.interrupt.store(true, Ordering::Relaxed);
        drop(state);
        self.shared.wake.notify_all();
    }

    /// The handle that holds the analysis still while a computer thinks.
    #[must_use]
    pub fn pause(&self) -> Pause {
        Pause {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The handle a screen watches the analysis of the round as followed
    /// now with (its progress, then the analysis).
    #[must_use]
    pub fn watch(&self) -> Watch {
        Watch {
            shared: Arc::clone(&self.shared),
            version: self.shared.lock().version,
        }
    }
}

impl Drop for LiveAnalysis {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.interrupt.store(true, Ordering::Relaxed);
        self.shared.wake.notify_all();
        // Not joined: the thread ends at its next look at the flag (a
        // database build under way finishes first), and quitting never
        // waits for it.
        drop(self.thread.take());
    }
}

/// Holds the analysis still while it is [held](Pause::hold): a computer
/// is thinking.
#[derive(Clone)]
pub struct Pause {
    shared: Arc<Shared>,
}

impl Pause {
    /// Stops the analysis at once until the [`PauseHeld`] is dropped.
    #[must_use]
    pub fn hold(&self) -> PauseHeld {
        let mut state = self.shared.lock();
        state.holds += 1;
        self.shared.interrupt.store(true, Ordering::Relaxed);
        drop(state);
        PauseHeld {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// A pause in force; dropping it lets the analysis go on.
pub struct PauseHeld {
    shared: Arc<Shared>,
}

impl Drop for PauseHeld {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.holds = state.holds.saturating_sub(1);
        drop(state);
        self.shared.wake.notify_all();
    }
}

/// What a screen shows of the analysis of one round: see
/// [`LiveAnalysis::watch`].
#[derive(Clone)]
pub struct Watch {
    shared: Arc<Shared>,
    version: u64,
}

/// How the analysis watched stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Positions valued so far, of how many.
    Working(usize, usize),
    /// Every position is valued.
    Done(Analysis),
    /// The analysis will not come: why.
    Failed(String),
}

impl Watch {
    /// How the analysis stands now (without waiting).
    #[must_use]
    pub fn standing(&self) -> Standing {
        let state = self.shared.lock();
        if state.closed || state.version != self.version {
            return Standing::Failed("The round analysed is gone.".to_string());
        }
        if state.reported != self.version {
            let total = state
                .target
                .as_ref()
                .map_or(1, |(_, moves)| moves.len() + 1);
            return Standing::Working(0, total);
        }
        if let Some(problem) = &state.problem {
            return Standing::Failed(problem.clone());
        }
        match &state.result {
            Some(analysis) => Standing::Done(analysis.clone()),
            None => Standing::Working(state.progress.0, state.progress.1),
        }
    }

    /// Positions proven so far (0 until the thread has taken the round
    /// watched in).
    #[must_use]
    pub fn proven(&self) -> usize {
        let state = self.shared.lock();
        if state.reported == self.version && state.version == self.version && !state.closed {
            state.proven
        } else {
            0
        }
    }

    /// Waits until every position is valued or `timeout` passes (tests
    /// and benchmarks); the standing then.
    #[must_use]
    pub fn wait(&self, timeout: Duration) -> Standing {
        let until = std::time::Instant::now() + timeout;
        loop {
            let standing = self.standing();
            if !matches!(standing, Standing::Working(..)) || std::time::Instant::now() >= until {
                return standing;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The thread's work: follow the target, value one position at a time
/// while no pause is held, report after each.
fn work(shared: &Shared, budget: &PositionBudget) {
    let mut analyser: Option<RoundAnalyser> = None;
    let mut version = 0;
    let mut problem = None;
    loop {
        let mut state = shared.lock();
        let complete = |analyser: &Option<RoundAnalyser>| {
            analyser.as_ref().is_none_or(|a| {
                let (valued, total) = a.progress();
                valued == total
            })
        };
        while !state.closed
            && state.version == version
            && (state.holds > 0 || problem.is_some() || complete(&analyser))
        {
            state = shared
                .wake
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        if state.closed {
            return;
        }
        if state.version != version {
            version = state.version;
            let Some((start, moves)) = state.target.clone() else {
                continue;
            };
            drop(state);
            problem = follow(&mut analyser, start, &moves).err();
        } else {
            // a pause or a change from now on cuts this position short
            shared.interrupt.store(false, Ordering::Relaxed);
            drop(state);
            if let Some(analyser) = &mut analyser {
                analyser.work_one(budget);
            }
        }
        let Some(analyser) = &mut analyser else {
            continue;
        };
        let (valued, total) = analyser.progress();
        let proven = analyser.proven();
        // assembled outside the lock (all positions valued: no work left)
        let result = (valued == total).then(|| analyser.analysis(budget));
        let mut state = shared.lock();
        if state.version == version {
            state.reported = version;
            state.progress = (valued, total);
            state.proven = proven;
            state.result = result;
            state.problem.clone_from(&problem);
        }
    }
}

/// Brings `analyser` to the round of `moves` from `start`: the moves in
/// common kept, the rest taken back and played.
fn follow(
    analyser: &mut Option<RoundAnalyser>,
    start: GameRound,
    moves: &[Pit],
) -> Result<(), String> {
    let analyser = match analyser {
        Some(a) if *a.start() == start.position() => a,
        Some(a) => {
            a.restart(start);
            a
        }
        None => analyser.insert(RoundAnalyser::from_start(
            Analyst::with_solver(live_solver()),
            start,
        )),
    };
    let common = analyser
        .moves()
        .iter()
        .zip(moves)
        .take_while(|(a, b)| a == b)
        .count();
    analyser.truncate(common);
    for (i, &pit) in moves.iter().enumerate().skip(common) {
        analyser
            .push(pit)
            .map_err(|e| format!("move {} of the round: {e}", i + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests::analysed as from_scratch;
    use crate::rules::{Board, Capture, Rules, Side};

    /// A round of `rules` of varied moves: pits taken in turn from a
    /// fixed pattern, whichever are legal.
    fn round_of(rules: Rules) -> Vec<Pit> {
        let mut board = Board::new(rules);
        let mut moves = Vec::new();
        for choice in [2usize, 2, 0, 1].into_iter().cycle() {
            if board.is_over() {
                break;
            }
            let legal: Vec<Pit> = board.legal_moves().collect();
            let pit = legal[choice % legal.len()];
            board.play(pit).unwrap();
            moves.push(pit);
        }
        moves
    }

    #[test]
    fn a_round_followed_move_by_move_is_analysed_as_from_scratch() {
        let rules = Rules::new(4, 3).unwrap().with_capture(Capture::NonEmpty);
        let moves = round_of(rules);
        let start = Board::new(rules);
        let mut live = LiveAnalysis::start(Duration::from_secs(1)).unwrap();
        for n in 0..=moves.len() {
            live.follow(start, &moves[..n]);
        }
        let watch = live.watch();
        let Standing::Done(analysis) = watch.wait(Duration::from_secs(60)) else {
            panic!("not done");
        };
        assert!(analysis.exact());
        assert_eq!(watch.proven(), moves.len() + 1, "every position proven");
        assert_eq!(analysis, from_scratch(rules, &moves));
    }

    #[test]
    fn moves_taken_back_and_a_new_round_are_followed() {
        let rules = Rules::new(4, 3).unwrap();
        let moves = round_of(rules);
        let start = Board::new(rules);
        let mut live = LiveAnalysis::start(Duration::from_secs(1)).unwrap();
        live.follow(start, &moves);
        let first = live.watch();
        assert!(matches!(
            first.wait(Duration::from_secs(60)),
            Standing::Done(_)
        ));
        // moves taken back: the analysis of the moves left
        let back = &moves[..moves.len() / 2];
        live.follow(start, back);
        assert!(
            matches!(first.standing(), Standing::Failed(_)),
            "the round watched before is gone"
        );
        let Standing::Done(analysis) = live.watch().wait(Duration::from_secs(60)) else {
            panic!("not done");
        };
        assert_eq!(analysis, from_scratch(rules, back));
        // a round North starts, from another start
        let north = Board::starting(rules, Side::North);
        let mut board = north;
        let pit = board.legal_moves().next().unwrap();
        board.play(pit).unwrap();
        live.follow(north, &[pit]);
        let Standing::Done(analysis) = live.watch().wait(Duration::from_secs(60)) else {
            panic!("not done");
        };
        let whole = Analyst::new()
            .round(
                rules,
                Side::North,
                &[pit],
                &PositionBudget::default(),
                |_, _| {},
            )
            .unwrap();
        assert_eq!(analysis, whole);
    }

    /// A round of Kalah(4,3), its start, and a live analysis started with
    /// a pause held: nothing is valued until the hold is dropped.
    fn held_round() -> (Rules, Vec<Pit>, Board, LiveAnalysis, PauseHeld) {
        let rules = Rules::new(4, 3).unwrap();
        let moves = round_of(rules);
        let live = LiveAnalysis::start(Duration::from_secs(1)).unwrap();
        let held = live.pause().hold();
        (rules, moves, Board::new(rules), live, held)
    }

    #[test]
    fn a_pause_held_stops_the_work_until_it_is_dropped() {
        let (rules, moves, start, mut live, held) = held_round();
        live.follow(start, &moves);
        let watch = live.watch();
        // the thread takes the round in, then waits: nothing is valued
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            watch.standing(),
            Standing::Working(0, moves.len() + 1),
            "held still"
        );
        assert_eq!(watch.proven(), 0);
        drop(held);
        let Standing::Done(analysis) = watch.wait(Duration::from_secs(60)) else {
            panic!("not done");
        };
        assert_eq!(analysis, from_scratch(rules, &moves));
    }

    #[test]
    fn the_live_analysis_uses_the_players_database_and_table() {
        // Kalah(6,4): one 16-seed database and one table for `perfect` and
        // the analysis (made, not built: the memory is mapped, untouched)
        let board = Board::new(Rules::KALAH);
        let mut player = crate::players::solver::PerfectPlayer::sharing();
        player.solver_mut().reserve(&board);
        let mut live = live_solver();
        live.reserve(&board);
        assert!(live.shares_memory_with(player.solver_mut()));
        let database = player.solver_mut().memory_used() - PLAYER_TABLE_BYTES;
        assert_eq!(live.memory_used(), database + PLAYER_TABLE_BYTES);
    }

    #[test]
    fn a_move_played_cuts_the_position_being_valued_short() {
        let (rules, moves, start, mut live, held) = held_round();
        live.follow(start, &moves[..1]);
        // as the thread does when it starts on a position
        live.shared.interrupt.store(false, Ordering::Relaxed);
        live.follow(start, &moves[..2]);
        assert!(
            live.shared.interrupt.load(Ordering::Relaxed),
            "the newest position goes first"
        );
        // the same round again changes nothing
        live.shared.interrupt.store(false, Ordering::Relaxed);
        live.follow(start, &moves[..2]);
        assert!(!live.shared.interrupt.load(Ordering::Relaxed));
        drop(held);
        let Standing::Done(analysis) = live.watch().wait(Duration::from_secs(60)) else {
            panic!("not done");
        };
        assert_eq!(analysis, from_scratch(rules, &moves[..2]));
    }

    #[test]
    fn a_move_the_rules_refuse_is_said() {
        let rules = Rules::new(4, 3).unwrap();
        let a = rules.pit(Side::South, 1).unwrap();
        let mut live = LiveAnalysis::start(Duration::from_secs(1)).unwrap();
        live.follow(Board::new(rules), &[a, a]);
        let Standing::Failed(problem) = live.watch().wait(Duration::from_secs(60)) else {
            panic!("refused");
        };
        assert!(problem.contains("move 2"), "{problem}");
    }
}
