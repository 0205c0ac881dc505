//! `mancala arena`: rounds between two computer players, of Kalah or of
//! Oware (`--game oware`, [`play_oware`]).

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::usage;
use crate::cli::ArenaCmd;
use crate::game::{computer_move, plural, seat_player};
use crate::players::oware::{OwareEndgame, OwarePlayer, oware_player};
use crate::players::{Limits, PlayerKind};
use crate::rng::Rng;
use crate::rules::oware::{OwareBoard, OwareRound, OwareRules};
use crate::rules::{Board, Game, Rules, Side};

/// Milliseconds per move when neither `--think` nor `--nodes` is given.
pub const DEFAULT_ARENA_THINK_MS: u64 = 100;

/// Wins, draws and losses of one player, overall and in the rounds it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Rounds won.
    pub wins: u32,
    /// Rounds drawn.
    pub draws: u32,
    /// Rounds lost.
    pub losses: u32,
    /// Rounds won that this player started.
    pub wins_starting: u32,
    /// Rounds drawn that this player started.
    pub draws_starting: u32,
    /// Rounds lost that this player started.
    pub losses_starting: u32,
}

impl Results {
    fn add(&mut self, margin: i32, started: bool) {
        let (all, starting) = match margin.signum() {
            1 => (&mut self.wins, &mut self.wins_starting),
            0 => (&mut self.draws, &mut self.draws_starting),
            _ => (&mut self.losses, &mut self.losses_starting),
        };
        *all += 1;
        if started {
            *starting += 1;
        }
    }

    fn json(&self, kind: PlayerKind, times: &MoveTimes) -> serde_json::Value {
        json!({
            "kind": kind.to_string(),
            "move_ms": times.json(),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "starting": {
                "wins": self.wins_starting,
                "draws": self.draws_starting,
                "losses": self.losses_starting,
            },
        })
    }
}

/// How long a player took to choose each of its moves.
#[derive(Clone, Debug, Default)]
pub struct MoveTimes {
    millis: Vec<f64>,
}

impl MoveTimes {
    /// Adds one move's thinking time.
    pub fn add(&mut self, took: Duration) {
        self.millis.push(took.as_secs_f64() * 1000.0);
    }

    /// Moves timed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.millis.len()
    }

    /// Whether no move was timed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.millis.is_empty()
    }

    /// Mean, median, 95th percentile (nearest rank) and maximum, in
    /// milliseconds, from one sort (zeros when no move was timed).
    #[must_use]
    pub fn stats(&self) -> MoveStats {
        let mut sorted = self.millis.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        if n == 0 {
            return MoveStats::default();
        }
        // the nearest rank: the smallest time at least `p`% of the moves take
        let rank = |p: usize| sorted[(n * p).div_ceil(100).clamp(1, n) - 1];
        MoveStats {
            mean: sorted.iter().sum::<f64>() / n as f64,
            p50: rank(50),
            p95: rank(95),
            max: sorted[n - 1],
        }
    }

    fn json(&self) -> serde_json::Value {
        let s = self.stats();
        let r = |x: f64| (x * 1000.0).round() / 1000.0;
        json!({ "mean": r(s.mean), "p50": r(s.p50), "p95": r(s.p95), "max": r(s.max) })
    }

    fn summary(&self) -> String {
        let s = self.stats();
        format!(
            "mean {:.2} ms, p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            s.mean, s.p50, s.p95, s.max
        )
    }
}

/// A player's move times summed up ([`MoveTimes::stats`]), in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveStats {
    /// The mean.
    pub mean: f64,
    /// The median (nearest rank).
    pub p50: f64,
    /// The 95th percentile (nearest rank).
    pub p95: f64,
    /// The longest.
    pub max: f64,
}

/// The results of an arena run.
#[derive(Clone, Debug)]
pub struct ArenaResult {
    /// Player A's kind.
    pub kind_a: PlayerKind,
    /// Player B's kind.
    pub kind_b: PlayerKind,
    /// A's record.
    pub a: Results,
    /// B's record.
    pub b: Results,
    /// Rounds played.
    pub rounds: u32,
    /// Sum of A's final margins.
    pub total_margin: i64,
    /// A's and B's thinking time per move.
    pub move_times: [MoveTimes; 2],
}

/// Two results are equal when their rounds went the same way (thinking
/// times differ from run to run).
impl PartialEq for ArenaResult {
    fn eq(&self, other: &Self) -> bool {
        let rounds = |r: &ArenaResult| (r.kind_a, r.kind_b, r.a, r.b, r.rounds, r.total_margin);
        rounds(self) == rounds(other)
    }
}

impl ArenaResult {
    /// `kinds[0]` (A) against `kinds[1]` (B), no round played yet.
    #[must_use]
    pub fn new(kinds: [PlayerKind; 2]) -> ArenaResult {
        ArenaResult {
            kind_a: kinds[0],
            kind_b: kinds[1],
            a: Results::default(),
            b: Results::default(),
            rounds: 0,
            total_margin: 0,
            move_times: [MoveTimes::default(), MoveTimes::default()],
        }
    }

    /// Counts a round that `starter` began and A (South) ended `margin`
    /// seeds ahead.
    pub fn add_round(&mut self, margin: i32, starter: Side) {
        self.a.add(margin, starter == Side::South);
        self.b.add(-margin, starter == Side::North);
        self.total_margin += i64::from(margin);
        self.rounds += 1;
    }

    /// A's mean final margin per round.
    #[must_use]
    pub fn mean_margin(&self) -> f64 {
        if self.rounds == 0 {
            0.0
        } else {
            self.total_margin as f64 / f64::from(self.rounds)
        }
    }

    /// The `--json` report.
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        json!({
            "a": self.a.json(self.kind_a, &self.move_times[0]),
            "b": self.b.json(self.kind_b, &self.move_times[1]),
            "draws": self.a.draws,
            "rounds": self.rounds,
            "mean_margin": (self.mean_margin() * 1000.0).round() / 1000.0,
        })
    }

    /// The human-readable summary, every line from A's point of view.
    #[must_use]
    pub fn summary(&self) -> String {
        let results = |wins: u32, draws: u32, losses: u32| {
            format!(
                "{}, {}, {}",
                plural(wins, "win"),
                plural(draws, "draw"),
                plural(losses, "loss")
            )
        };
        let a = &self.a;
        // B's rounds as starter, counted for A: B's losses are A's wins.
        let b = &self.b;
        format!(
            "{}: {} (A) against {} (B)\n\
             A: {}; mean margin {:+.2} seeds\n\
             A when A started: {}\n\
             A when B started: {}\n\
             A per move: {}\n\
             B per move: {}",
            plural(self.rounds, "round"),
            self.kind_a,
            self.kind_b,
            results(a.wins, a.draws, a.losses),
            self.mean_margin(),
            results(a.wins_starting, a.draws_starting, a.losses_starting),
            results(b.losses_starting, b.draws_starting, b.wins_starting),
            self.move_times[0].summary(),
            self.move_times[1].summary(),
        )
    }
}

/// How much each move may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBudget {
    /// Milliseconds per move.
    Think(u64),
    /// Positions per move: each move gets from `N` to `N + N/4`, drawn from
    /// the arena's seeded generator, so that deterministic players do not
    /// replay the same two games in every round while a run stays repeatable.
    Nodes(u64),
}

impl MoveBudget {
    pub(super) fn limits(self, rng: &mut Rng) -> Limits {
        match self {
            MoveBudget::Think(ms) => Limits::time(Duration::from_millis(ms)),
            MoveBudget::Nodes(n) => {
                let spread = usize::try_from(n / 4)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1);
                Limits::nodes(n + rng.below(spread) as u64)
            }
        }
    }
}

/// Plays `rounds` rounds of `kind_a` against `kind_b`: A is South, and
/// South starts the even rounds (0, 2, ...), North the odd ones. Players are
/// built once and keep what they learnt between rounds. `progress` is
/// called after each round with the rounds done.
///
/// # Errors
/// A message when a kind is not a computer player.
pub fn play_arena(
    rules: Rules,
    kinds: [PlayerKind; 2],
    rounds: u32,
    seed: u64,
    budget: MoveBudget,
    mut progress: impl FnMut(u32),
) -> Result<ArenaResult, String> {
    let mut seeds = Rng::new(seed);
    let mut players = seated(kinds, |i| Ok(seat_player(kinds, seed, Side::BOTH[i])))?;
    let mut result = ArenaResult::new(kinds);
    for round in 0..rounds {
        let starter = starter(round);
        let mut board = Board::starting(rules, starter);
        while !board.is_over() {
            let mover = board.to_move();
            let player = &mut players[mover.index()];
            let limits = budget.limits(&mut seeds);
            let started = Instant::now();
            let chosen = player.choose(&board, &limits);
            // A is South: its times go first
            result.move_times[mover.index()].add(started.elapsed());
            // The game's policy: a player that gives up or errs forfeits
            // nothing, its first legal pit is played.
            let Some(choice) = computer_move(&board, chosen) else {
                break;
            };
            board.play_unchecked(choice.pit);
        }
        result.add_round(board.score().margin(Side::South), starter);
        progress(round + 1);
    }
    Ok(result)
}

/// Who starts round `round` (from 0): South the even ones, North the odd.
#[must_use]
pub fn starter(round: u32) -> Side {
    if round.is_multiple_of(2) {
        Side::South
    } else {
        Side::North
    }
}

/// The Oware endgame database the arena's players probe: built once,
/// before the first round, when a `perfect` player sits.
fn endgame_for(kinds: [PlayerKind; 2]) -> std::sync::Arc<crate::players::oware::OwareEndgame> {
    let db = if kinds.contains(&PlayerKind::Perfect) {
        crate::players::oware::OwareEndgame::build(ARENA_ENDGAME_SEEDS)
    } else {
        crate::players::oware::OwareEndgame::default()
    };
    std::sync::Arc::new(db)
}

/// Runs `mancala arena`: prints the summary (or JSON) on stdout, and a
/// progress bar on stderr when it is a terminal.
///
/// # Errors
/// A usage error for a bad kind or bad rules.
pub fn run(cmd: &ArenaCmd) -> anyhow::Result<()> {
    let rules = cmd.rules.rules().map_err(super::UsageError)?;
    if cmd.game == Game::Oware {
        super::position::no_kalah_options(&cmd.rules)?;
    }
    for kind in [cmd.a, cmd.b] {
        if kind.is_human() {
            return usage(format!(
                "'{kind}' is not a computer player (the arena has no keyboard)"
            ));
        }
        if kind == PlayerKind::AutoLevel {
            return usage(
                "level:auto picks the level nearest a person's rating: the arena has no person (give level:N)",
            );
        }
    }
    let budget = match (cmd.nodes, cmd.think) {
        (Some(n), _) => MoveBudget::Nodes(n),
        (None, Some(ms)) => MoveBudget::Think(ms),
        (None, None) => MoveBudget::Think(DEFAULT_ARENA_THINK_MS),
    };
    let show = std::io::stderr().is_terminal();
    let total = cmd.rounds;
    let progress = |done: u32| {
        if show {
            let width = 30;
            let filled = (done as usize * width) / total.max(1) as usize;
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "\r[{}{}] {done}/{total}",
                "#".repeat(filled),
                " ".repeat(width - filled)
            );
            if done == total {
                let _ = writeln!(err);
            }
            let _ = err.flush();
        }
    };
    let kinds = [cmd.a, cmd.b];
    let result = match cmd.game {
        Game::Kalah => play_arena(rules, kinds, total, cmd.seed, budget, progress),
        Game::Oware => play_oware(
            kinds,
            total,
            cmd.seed,
            budget,
            &endgame_for(kinds),
            progress,
        ),
    }
    .map_err(super::UsageError)?;
    if cmd.json {
        super::output::emit_line(result.json())?;
    } else {
        super::output::emit_line(result.summary())?;
    }
    Ok(())
}

/// Seeds on the board up to which `perfect` knows every exact value in
/// the arena (built once, before the first round).
pub const ARENA_ENDGAME_SEEDS: usize = 8;

/// The arena's two players, South's then North's, as `make` builds the
/// one of seat `i` (`None`: a kind that needs a keyboard), whatever the
/// game.
fn seated<P>(
    kinds: [PlayerKind; 2],
    mut make: impl FnMut(usize) -> Result<Option<P>, String>,
) -> Result<Vec<P>, String> {
    (0..2)
        .map(|i| {
            make(i)?.ok_or_else(|| {
                let kind = kinds[i];
                format!("'{kind}' is not a computer player (the arena has no keyboard)")
            })
        })
        .collect()
}

/// `mancala arena --game oware`: plays `rounds` rounds of Oware of `kinds[0]` (A, South) against
/// `kinds[1]` (B): South starts the even rounds, North the odd ones. A
/// round ends by the rules (25 seeds, no feeding move, a repetition).
///
/// # Errors
/// A message when a kind is not an Oware computer player.
pub fn play_oware(
    kinds: [PlayerKind; 2],
    rounds: u32,
    seed: u64,
    budget: MoveBudget,
    endgame: &Arc<OwareEndgame>,
    mut progress: impl FnMut(u32),
) -> Result<ArenaResult, String> {
    let mut seeds = Rng::new(seed);
    let mut players: Vec<OwarePlayer> = seated(kinds, |i| {
        oware_player(kinds[i], seed.wrapping_add(i as u64), endgame)
    })?;
    let mut result = ArenaResult::new(kinds);
    for round in 0..rounds {
        let starter = starter(round);
        let mut play = OwareRound::new(OwareBoard::starting(OwareRules::ABAPA, starter));
        while !play.board().is_over() {
            let board = *play.board();
            let mover = board.to_move();
            let limits = budget.limits(&mut seeds);
            let started = Instant::now();
            let chosen = players[mover.index()].choose(&board, &limits);
            result.move_times[mover.index()].add(started.elapsed());
            // As in Kalah's arena: a player that gives up has its first
            // legal house played.
            let Some(pit) = chosen
                .filter(|&p| board.legal_moves().contains(p))
                .or_else(|| board.legal_moves().next())
            else {
                break;
            };
            play.play(pit).map_err(|e| e.to_string())?;
        }
        let score = play.board().score();
        result.add_round(i32::from(score.south) - i32::from(score.north), starter);
        progress(round + 1);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_budgets_make_arena_runs_repeatable_and_rounds_alternate() {
        let rules = Rules::new(4, 3).unwrap();
        let kinds = [PlayerKind::Easy, PlayerKind::Hard];
        let run = || play_arena(rules, kinds, 6, 9, MoveBudget::Nodes(2000), |_| {}).unwrap();
        let first = run();
        assert_eq!(first, run());
        assert_eq!(first.rounds, 6);
        let a = first.a;
        assert_eq!(a.wins + a.draws + a.losses, 6);
        assert_eq!(a.wins_starting + a.draws_starting + a.losses_starting, 3);
        assert_eq!(first.a.wins, first.b.losses);
        let [ta, tb] = &first.move_times;
        assert!(
            ta.len() >= 6 * 3 && tb.len() >= 6 * 3,
            "every move is timed"
        );
        let MoveStats { mean, p95, max, .. } = ta.stats();
        assert!(
            0.0 < mean && mean <= max && p95 <= max,
            "{mean} {p95} {max}"
        );
    }

    #[test]
    fn move_times_give_the_nearest_rank_percentile() {
        let mut t = MoveTimes::default();
        assert_eq!(t.stats(), MoveStats::default());
        // added out of order: the stats sort them
        for ms in (1..=20).rev() {
            t.add(Duration::from_millis(ms));
        }
        let MoveStats {
            mean,
            p50,
            p95,
            max,
        } = t.stats();
        assert!((mean - 10.5).abs() < 1e-9);
        assert!((p95 - 19.0).abs() < 1e-9);
        assert!((max - 20.0).abs() < 1e-9);
        assert!((p50 - 10.0).abs() < 1e-9);
        let json = t.json();
        assert_eq!(json["p95"], 19.0);
        assert_eq!(json["p50"], 10.0);
        assert!(
            t.summary().contains("p50 10.00 ms, p95 19.00 ms"),
            "{}",
            t.summary()
        );
    }

    #[test]
    fn the_summary_speaks_for_a_and_counts_in_words() {
        // Round 1: A started and won. Round 2: B started and won.
        let each = Results {
            wins: 1,
            losses: 1,
            wins_starting: 1,
            ..Results::default()
        };
        let result = ArenaResult {
            kind_a: PlayerKind::Random,
            kind_b: PlayerKind::Greedy,
            a: each,
            b: each,
            rounds: 2,
            total_margin: 0,
            move_times: [MoveTimes::default(), MoveTimes::default()],
        };
        let summary = result.summary();
        assert!(summary.contains("A: 1 win, 0 draws, 1 loss;"), "{summary}");
        // B won the round it started: that is a loss for A.
        assert!(
            summary.contains("\nA when B started: 0 wins, 0 draws, 1 loss\n"),
            "{summary}"
        );
        assert!(!summary.contains("1 wins"), "{summary}");
    }

    #[test]
    fn a_human_cannot_sit_in_the_arena() {
        let err = play_arena(
            Rules::KALAH,
            [PlayerKind::Human, PlayerKind::Random],
            1,
            1,
            MoveBudget::Nodes(10),
            |_| {},
        )
        .unwrap_err();
        assert!(err.contains("human"), "{err}");
    }

    #[test]
    fn oware_rounds_are_whole_and_repeatable_and_the_search_beats_random() {
        let db = Arc::new(OwareEndgame::build(4));
        let run = |kinds| play_oware(kinds, 4, 3, MoveBudget::Nodes(3_000), &db, |_| {}).unwrap();
        let first = run([PlayerKind::Medium, PlayerKind::Random]);
        assert_eq!(first, run([PlayerKind::Medium, PlayerKind::Random]));
        assert_eq!(first.rounds, 4);
        assert_eq!(first.a.wins + first.a.draws + first.a.losses, 4);
        assert_eq!(first.a.wins, 4, "{}", first.summary());
        let greedy = run([PlayerKind::Greedy, PlayerKind::Random]);
        assert!(greedy.a.wins >= 3, "{}", greedy.summary());
        let err = play_oware(
            [PlayerKind::Level(3), PlayerKind::Random],
            1,
            1,
            MoveBudget::Nodes(10),
            &db,
            |_| {},
        )
        .unwrap_err();
        assert!(err.contains("Kalah's"), "{err}");
    }
}
