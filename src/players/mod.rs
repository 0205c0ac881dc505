//! Turn functions: who chooses the next pit.
//!
//! The classic idea (RULES.md §1.1): a turn function is given the
//! position and returns a pit of the side to move. Every computer player,
//! from random to the perfect solver, implements [`TurnFn`]. A human's
//! moves come from the front end's input instead (a key or a typed line),
//! and both go through the same [`crate::game`] policies.

pub mod fair;
mod greedy;
pub mod ladder;
pub mod level;
pub mod oware;
mod random;
pub mod search;
pub mod solver;
mod tree;
pub mod tt;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::rules::oware::OwareBoard;
use crate::rules::{Board, GameBoard, Pit};

/// Gives the calling thread the lowest priority (nice 19 on Linux; a
/// no-op elsewhere), so that the players' searches and the screen come
/// first whenever the cores are busy: for work done on spare time (an
/// endgame database grown, a round analysed as it is played).
pub fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    // SAFETY: setpriority only reads its arguments; on Linux, `who` 0 with
    // PRIO_PROCESS is the calling thread alone, so the others keep theirs.
    // A refusal leaves the priority as it was, which only costs speed.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

pub use greedy::Greedy;
pub use level::{LevelPlayer, MAX_LEVEL};
pub use random::{RandomPlayer, random_move, random_position};
pub use search::{Engine, Level, SearchPlayer, SearchResult};
pub use solver::{PerfectPlayer, Solution, Solver};
pub use tree::TreePlayer;

/// How long and how far a turn function may think, and a flag to stop it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop by this time (a budget in wall-clock time).
    pub deadline: Option<Instant>,
    /// Stop after searching this many positions (a repeatable budget).
    pub nodes: Option<u64>,
    /// Set from outside (quitting, a new round) to stop at once.
    pub stop: Arc<AtomicBool>,
}

impl Limits {
    /// No time or node limit; stoppable through the flag only.
    #[must_use]
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Think for at most `budget` from now.
    #[must_use]
    pub fn time(budget: Duration) -> Limits {
        Limits {
            deadline: Some(Instant::now() + budget),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` positions.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Whether the stop flag is set or the deadline has passed.
    #[must_use]
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the stop flag is set (quitting, undo, or "move now").
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The first half of these limits: half the time left and half the
    /// positions, the same stop flag (no limit stays no limit).
    #[must_use]
    pub fn first_half(&self) -> Limits {
        let now = Instant::now();
        Limits {
            deadline: self
                .deadline
                .map(|d| now + d.saturating_duration_since(now) / 2),
            nodes: self.nodes.map(|n| n / 2),
            stop: Arc::clone(&self.stop),
        }
    }
}

/// Whether a computer's last move is proven best, for the front ends to
/// say so when it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveProof {
    /// A proven best move (the opening book or the exact solver).
    Proven,
    /// The best move a search found in `thought`, not proven.
    Unproven {
        /// How long the player thought.
        thought: Duration,
    },
}

/// A player: given a position, choose a pit for the side to move.
///
/// `board.to_move()` is the side to choose for, and the game is not over.
/// The answer must be one of `board.legal_moves()`; `None` means the turn
/// function gave up (the input closed, or `limits.stop` was set) and the
/// game should end without a move.
pub trait TurnFn: Send {
    /// Chooses a pit.
    fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Pit>;

    /// Whether the player may go on thinking after its move, on the
    /// opponent's time, until its next turn. Matches set it when the
    /// opponent is a person; between computers it stays off, so that
    /// neither takes the other's processor time. Players that cannot use
    /// it ignore it.
    fn think_on_opponents_time(&mut self, allowed: bool) {
        let _ = allowed;
    }

    /// Stops any thinking ahead at once: the position it was about is
    /// gone (a move taken back or replayed, a new round). Thinking ahead
    /// starts again after the player's next move.
    fn stop_thinking_ahead(&mut self) {}

    /// Whether the move the last [`TurnFn::choose`] returned is proven
    /// best; `None` from players that never prove their moves.
    fn last_proof(&self) -> Option<MoveProof> {
        None
    }
}

/// The kinds of player a seat can have: the ones given on the command line
/// ([`PlayerKind::is_choosable`]), and a friend on another machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// A person at the keyboard.
    Human,
    /// A friend on another machine, in a network match: a person, whose
    /// moves come over the connection (never chosen on the command line:
    /// `mancala host` and `mancala join` give a network match its seats).
    Network,
    /// Uniformly random legal moves (the classic game tree's level 0).
    Random,
    /// The best store difference after its own move, extra turns included.
    Greedy,
    /// The classic game tree (RULES.md §1.1) to this depth.
    Tree(u8),
    /// A weak search.
    Easy,
    /// A middling search.
    Medium,
    /// Iterative-deepening alpha-beta within the think time.
    Hard,
    /// Exact play.
    Perfect,
    /// A level of the rated ladder, 1 to [`MAX_LEVEL`] (the top is
    /// `perfect`): see [`level`].
    Level(u8),
    /// The level nearest the person's rating (`level:auto`): resolved to a
    /// [`PlayerKind::Level`] before a match starts, and played as the
    /// middle of the ladder where no person's rating is known.
    AutoLevel,
}

impl PlayerKind {
    /// Whether the seat is played by a person at this keyboard.
    #[must_use]
    pub const fn is_human(self) -> bool {
        matches!(self, PlayerKind::Human)
    }

    /// Whether the seat is played by a person, here or on another machine.
    #[must_use]
    pub const fn is_person(self) -> bool {
        matches!(self, PlayerKind::Human | PlayerKind::Network)
    }

    /// Whether the kind can be given to a seat on the command line (every
    /// kind but [`PlayerKind::Network`]).
    #[must_use]
    pub const fn is_choosable(self) -> bool {
        !matches!(self, PlayerKind::Network)
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerKind::Human => f.write_str("human"),
            PlayerKind::Network => f.write_str("network"),
            PlayerKind::Random => f.write_str("random"),
            PlayerKind::Greedy => f.write_str("greedy"),
            PlayerKind::Tree(depth) => write!(f, "tree:{depth}"),
            PlayerKind::Easy => f.write_str("easy"),
            PlayerKind::Medium => f.write_str("medium"),
            PlayerKind::Hard => f.write_str("hard"),
            PlayerKind::Perfect => f.write_str("perfect"),
            PlayerKind::Level(n) => write!(f, "level:{n}"),
            PlayerKind::AutoLevel => f.write_str("level:auto"),
        }
    }
}

/// The largest depth `tree:N` accepts (a plain game tree grows
/// about six-fold per ply).
pub const MAX_TREE_DEPTH: u8 = 12;

impl FromStr for PlayerKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Ok(match lower.as_str() {
            "human" => PlayerKind::Human,
            "network" => PlayerKind::Network,
            "random" => PlayerKind::Random,
            "greedy" => PlayerKind::Greedy,
            "easy" => PlayerKind::Easy,
            "medium" => PlayerKind::Medium,
            "hard" => PlayerKind::Hard,
            "perfect" => PlayerKind::Perfect,
            "level:auto" => PlayerKind::AutoLevel,
            _ if lower.starts_with("level:") => match lower["level:".len()..].parse::<u8>() {
                Ok(n) if (1..=MAX_LEVEL).contains(&n) => PlayerKind::Level(n),
                _ => {
                    return Err(format!(
                        "'{s}': the level must be a whole number from 1 to {MAX_LEVEL}, or auto"
                    ));
                }
            },
            _ => {
                let depth = lower.strip_prefix("tree:").ok_or_else(|| {
                    format!(
                        "'{s}' is not a player (expected human, random, greedy, tree:N, easy, medium, hard, perfect or level:N)"
                    )
                })?;
                match depth.parse::<u8>() {
                    Ok(d) if (1..=MAX_TREE_DEPTH).contains(&d) => PlayerKind::Tree(d),
                    _ => {
                        return Err(format!(
                            "'{s}': the tree depth must be a whole number from 1 to {MAX_TREE_DEPTH}"
                        ));
                    }
                }
            }
        })
    }
}

/// Builds the computer player for `kind` (`None` for [`PlayerKind::Human`]
/// and [`PlayerKind::Network`], whose moves come from the front end). `seed` makes random choices
/// repeatable. The think time or node budget comes with each call to
/// [`TurnFn::choose`] in its [`Limits`]; `perfect` keeps to them too: it
/// plays a proven best move when it finds one within them, else the best
/// move its search found ([`TurnFn::last_proof`] tells which).
#[must_use]
pub fn computer(kind: PlayerKind, seed: u64) -> Option<Box<dyn TurnFn>> {
    match kind {
        PlayerKind::Human | PlayerKind::Network => None,
        PlayerKind::Random => Some(Box::new(RandomPlayer::new(seed))),
        PlayerKind::Greedy => Some(Box::new(Greedy)),
        PlayerKind::Tree(depth) => Some(Box::new(TreePlayer::new(depth))),
        PlayerKind::Easy => Some(Box::new(SearchPlayer::new(Level::EASY, seed))),
        PlayerKind::Medium => Some(Box::new(SearchPlayer::new(Level::MEDIUM, seed))),
        PlayerKind::Hard => Some(Box::new(SearchPlayer::new(Level::HARD, seed))),
        PlayerKind::Perfect => Some(Box::new(PerfectPlayer::sharing())),
        PlayerKind::Level(n) => Some(Box::new(LevelPlayer::new(n, seed))),
        PlayerKind::AutoLevel => Some(Box::new(LevelPlayer::new(MAX_LEVEL / 2, seed))),
    }
}

/// The engine's advice for the side to move: the best pit and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The pit to play.
    pub pit: Pit,
    /// The expected final margin for the side to move (seeds ahead at the end).
    pub value: i32,
    /// Whether `value` is proven (exact play) rather than estimated.
    pub exact: bool,
}

/// Gives hints, keeping its solver and engine (their tables) from one
/// hint to the next: a match holds one, so a hint costs no new table.
/// Kalah's hints come from the solver and the `hard` engine, Oware's from
/// its search probing the process's endgame database as far as it is
/// built ([`oware::shelf()`]: never waited for).
#[derive(Debug)]
pub struct Advisor {
    solver: Solver,
    engine: Engine,
    /// Oware's search, made on the first Oware hint.
    oware: Option<oware::OwareSearch>,
}

/// Table size of the Oware advisor's search: 2^20 entries of 16 bytes.
const OWARE_ADVICE_TABLE_BITS: u32 = 20;

impl Default for Advisor {
    fn default() -> Self {
        Advisor::new()
    }
}

impl Advisor {
    /// An advisor; its tables are allocated on the first hint. Its solver
    /// grows its endgame database ([`Solver::growing`]), so that a first
    /// hint waits neither for the whole database nor for a big table's
    /// memory. It shares the process's endgame database with the players
    /// of the same rules ([`Solver::sharing`]).
    #[must_use]
    pub fn new() -> Advisor {
        Advisor::with_solver(
            Solver::new(solver::DEFAULT_PLAYER_MEMORY)
                .growing()
                .sharing(),
        )
    }

    /// An advisor around `solver`.
    fn with_solver(solver: Solver) -> Advisor {
        Advisor {
            solver,
            engine: Engine::new(Level::HARD.table_bits),
            oware: None,
        }
    }

    /// Advice for the side to move in `position`, of either family, within
    /// `limits`; `None` when the round is over. Kalah's is
    /// [`Advisor::hint`]'s; Oware's is its search's best move, `exact`
    /// when the value rests only on finished rounds and the endgame
    /// database, else the search's estimate at the depth it reached.
    pub fn advise(&mut self, position: &GameBoard, limits: &Limits) -> Option<Hint> {
        match position {
            GameBoard::Kalah(board) => self.hint(board, limits),
            GameBoard::Oware(board) => self.oware_hint(board, limits),
        }
    }

    fn oware_hint(&mut self, board: &OwareBoard, limits: &Limits) -> Option<Hint> {
        board.legal_moves().next()?;
        let endgame = oware::shelf().current();
        let search = self.oware.get_or_insert_with(|| {
            oware::OwareSearch::new(OWARE_ADVICE_TABLE_BITS, Arc::clone(&endgame))
        });
        // as much of the databases as is built by now
        search.set_endgame(endgame);
        search.take_real_when_built(board);
        let result = search.search(board, oware::DEEPEST, limits);
        Some(Hint {
            pit: result.best?,
            value: result.value,
            exact: result.proven,
        })
    }

    /// Advice for the side to move in `board`, within `limits`; `None` when
    /// the game is over.
    ///
    /// The opening book answers first; then the exact solver tries with
    /// half of the budget (all of it when the limits set none), and what
    /// is left of that half grows its database; when it does not finish,
    /// the `hard` engine's estimate is given instead with the rest
    /// (`exact` tells which).
    pub fn hint(&mut self, board: &Board, limits: &Limits) -> Option<Hint> {
        board.legal_moves().next()?;
        if let Some((pit, value)) = solver::book::known(board) {
            return Some(Hint {
                pit,
                value,
                exact: true,
            });
        }
        let share = limits.first_half();
        if let Some((pit, value)) = self.solver.best_move(board, &share) {
            self.solver.grow(board, &share);
            return Some(Hint {
                pit,
                value,
                exact: true,
            });
        }
        let result = self.engine.search(
            board,
            limits,
            Level::HARD.max_depth,
            Some(Level::HARD.fallback_nodes),
        )?;
        Some(Hint {
            pit: result.best,
            value: result.value,
            exact: result.exact,
        })
    }
}

/// Advice for the side to move in `board`, within `limits`, from a fresh
/// [`Advisor`] (a match keeps one instead); `None` when the game is over.
#[must_use]
pub fn hint(board: &Board, limits: &Limits) -> Option<Hint> {
    Advisor::new().hint(board, limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Rules, Side};

    #[test]
    fn hint_is_exact_when_the_solver_finishes_and_legal_when_it_does_not() {
        let small = Board::new(Rules::new(4, 2).unwrap().with_capture(Capture::NonEmpty));
        let h = hint(&small, &Limits::none()).unwrap();
        assert!(h.exact);
        assert_eq!(h.value, 6, "Kalah(4,2) is worth 6 to the first player");
        // the opening is in the book (exact at once); a few moves later,
        // out of the book, 2,000 positions do not solve it
        let opening = Board::new(Rules::KALAH);
        assert!(hint(&opening, &Limits::nodes(2_000)).unwrap().exact);
        let mut full = opening;
        while solver::book::shipped().get(&full).is_some() {
            full.play_unchecked(full.legal_moves().next().unwrap());
        }
        assert!(!full.is_over());
        let h = hint(&full, &Limits::nodes(2_000)).unwrap();
        assert!(!h.exact);
        assert!(full.legal_moves().contains(h.pit));
        let mut over = full;
        while let Some(p) = over.legal_moves().next() {
            over.play_unchecked(p);
        }
        assert_eq!(hint(&over, &Limits::none()), None);
    }

    /// A database value is the real round's only where no player can
    /// pass 24 with a seed left on the board (RULES.md §7.9): a hint there
    /// is proven from it at once; where 25 can be crossed the same
    /// database holds every reply, but the hint is the search's estimate.
    #[test]
    fn an_oware_hint_is_proven_where_the_database_is_exact_and_estimated_where_25_can_be_crossed() {
        use crate::rules::Score;
        use crate::rules::oware::{OwareBoard, OwareRules};
        let mut advisor = Advisor::new();
        // the start: 48 seeds, far past the database
        let start = GameBoard::Oware(OwareBoard::new());
        let hint = advisor.advise(&start, &Limits::nodes(20_000)).unwrap();
        assert!(!hint.exact);
        assert!(start.check(hint.pit).is_ok());
        // the analysis's database, which puts itself on the shelf hints probe
        let endgame = oware::analysis_endgame();
        let replies = |board: &OwareBoard| {
            let board = *board;
            board.legal_moves().map(move |pit| {
                let mut next = board;
                next.play_unchecked(pit);
                next
            })
        };
        // the first position of `seeds` on the board, `captured` so far,
        // that `keep` keeps, valued itself and every reply
        // finished or valued (none depends on repetition, which would
        // keep a hint from being proven whatever the database's margins)
        let first = |seeds: usize, captured: Score, keep: &dyn Fn(&OwareBoard) -> bool| {
            (0..oware::endgame::positions(seeds))
                .map(|index| {
                    let houses = oware::endgame::unrank(index, seeds);
                    OwareBoard::from_houses(OwareRules::ABAPA, &houses, captured, Side::South)
                        .unwrap()
                })
                .find(|board| {
                    !board.is_over()
                        && keep(board)
                        && matches!(endgame.probe(board), oware::Probe::Value(_))
                        && replies(board).all(|next| {
                            next.is_over() || matches!(endgame.probe(&next), oware::Probe::Value(_))
                        })
                })
                .expect("a position of values")
        };
        // A budget far too small to play the rounds out (the search stops
        // at the first check, 4,096 positions): what is proven is proven
        // by the database.
        let limits = Limits::nodes(1);

        // 23 to 23 with two seeds on the board (with 48 seeds, the most
        // that leaves the database exact; two seeds give no choice of
        // move): the reply's database value is the real round's, so the
        // hint is proven, and its value is the move's (the capture now and
        // the reply's value).
        let exact = first(
            2,
            Score {
                south: 23,
                north: 23,
            },
            &|_| true,
        );
        assert!(replies(&exact).all(|next| next.is_over() || next.ends_as_played_out()));
        let hint = advisor.advise(&GameBoard::Oware(exact), &limits).unwrap();
        assert!(hint.exact, "{exact:?}: {hint:?}");
        let best = replies(&exact)
            .map(|next| {
                let score = next.score();
                let mine = i32::from(score.south) - i32::from(score.north);
                match (next.is_over(), endgame.probe(&next)) {
                    (true, _) => mine,
                    (false, oware::Probe::Value(v)) => mine - i32::from(v),
                    (false, probe) => panic!("{probe:?}"),
                }
            })
            .max()
            .unwrap();
        assert_eq!(hint.value, best, "{exact:?}");
        assert!(exact.legal_moves().contains(hint.pit));

        // 20 to 20 with eight seeds on the board: every reply is in the
        // database too, but a player can pass 24 before the last seed is
        // taken, so the database's margins are the round played out's,
        // not taken as exact: the search proves the value itself.
        let crossing = first(
            8,
            Score {
                south: 20,
                north: 20,
            },
            // a choice of moves, none of which captures, four seeds a side
            // in two houses or more: no round ends within the budget (with
            // the opponent's seeds in one house, or a capture to 25, the
            // search plays every line out, and proves it)
            &|board| {
                let houses = board.houses();
                board.legal_moves().count() > 1
                    && houses.chunks(6).all(|row| {
                        row.iter().sum::<u16>() == 4 && row.iter().filter(|&&c| c > 0).count() > 1
                    })
                    && replies(board).all(|next| next.captured() == board.captured())
            },
        );
        assert!(!crossing.ends_as_played_out());
        let hint = advisor
            .advise(&GameBoard::Oware(crossing), &limits)
            .unwrap();
        // Exact only if it is the real round's value (20 to 20: the
        // margin from here on), by the referee's search of every real line
        // (the search bounds what it cannot play out, and may prove this).
        // (a node budget: the same answer on every run; proven when written)
        assert!(hint.exact, "{crossing:?}: {hint:?}");
        let memo = &mut oware::tests::Memo::default();
        let (lo, hi) = oware::tests::forward_real(&crossing, 30, memo);
        assert!(
            (lo..=hi).contains(&hint.value),
            "{crossing:?}: {hint:?}, {lo}..{hi}"
        );
        assert!(crossing.legal_moves().contains(hint.pit));
    }

    #[test]
    fn an_advisor_keeps_its_tables_from_one_hint_to_the_next() {
        let board = Board::new(Rules::new(5, 3).unwrap().with_capture(Capture::NonEmpty));
        let mut advisor = Advisor::new();
        let first = advisor.hint(&board, &Limits::none()).unwrap();
        let (cold, memory) = (advisor.solver.nodes, advisor.solver.memory_used());
        let again = advisor.hint(&board, &Limits::none()).unwrap();
        assert_eq!(first, again);
        assert!(first.exact);
        // the second hint finds the value in the kept table
        assert!(
            advisor.solver.nodes * 20 < cold,
            "{} then {}",
            cold,
            advisor.solver.nodes
        );
        assert_eq!(advisor.solver.memory_used(), memory, "no new table");
    }

    #[test]
    fn a_fresh_advisor_hints_with_the_first_levels_of_its_database() {
        // Kalah(6,4) past the book: a fresh advisor's first exact hint does
        // not wait for the whole 16-seed database (seconds to build)
        let counts = [3, 0, 2, 1, 4, 1, 15, 2, 1, 0, 3, 2, 1, 13];
        let board = Board::from_counts(Rules::KALAH, &counts, Side::South).unwrap();
        // its own database: the process's kept one may be built by others
        let mut advisor =
            Advisor::with_solver(Solver::new(solver::DEFAULT_PLAYER_MEMORY).growing());
        let h = advisor.hint(&board, &Limits::none()).unwrap();
        assert!(h.exact);
        let solved = Solver::new(64 << 20)
            .solve(&board, &Limits::none())
            .unwrap();
        assert_eq!(h.value, solved.value);
        assert!(solved.best.contains(&h.pit));
        let (seeds, _) = advisor.solver.endgame();
        assert!(seeds < 18, "{seeds} seeds built");
    }

    #[test]
    fn every_computer_kind_plays_a_legal_move() {
        let board = Board::new(Rules::new(4, 3).unwrap());
        for kind in [
            "random",
            "greedy",
            "tree:3",
            "easy",
            "medium",
            "hard",
            "perfect",
            "level:1",
            "level:10",
            "level:auto",
        ] {
            let kind: PlayerKind = kind.parse().unwrap();
            let mut player = computer(kind, 1).unwrap();
            let pit = player.choose(&board, &Limits::nodes(5_000)).unwrap();
            assert!(board.legal_moves().contains(pit), "{kind}");
        }
        assert!(computer(PlayerKind::Human, 1).is_none());
    }

    /// A friend over the network is a person with no computer behind the
    /// seat, written and read back as `network` (records and saves), and
    /// never a kind to choose on the command line.
    #[test]
    fn the_network_seat_is_a_person_no_computer_plays() {
        let kind: PlayerKind = "network".parse().unwrap();
        assert_eq!(kind, PlayerKind::Network);
        assert_eq!(kind.to_string(), "network");
        assert!(kind.is_person() && !kind.is_human() && !kind.is_choosable());
        assert!(computer(kind, 1).is_none());
        assert!(PlayerKind::Human.is_person() && PlayerKind::Human.is_choosable());
        assert!(!PlayerKind::Perfect.is_person());
    }
}
