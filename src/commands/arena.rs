//! `mancala arena`: rounds between two computer players.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use serde_json::json;

use super::usage;
use crate::cli::ArenaCmd;
use crate::game::{computer_move, plural, seat_player};
use crate::players::{Limits, PlayerKind, TurnFn};
use crate::rng::Rng;
use crate::rules::{Board, Rules, Side};

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

    fn json(&self, kind: PlayerKind) -> serde_json::Value {
        json!({
            "kind": kind.to_string(),
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

/// The results of an arena run.
#[derive(Clone, Debug, PartialEq)]
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
}

impl ArenaResult {
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
            "a": self.a.json(self.kind_a),
            "b": self.b.json(self.kind_b),
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
             A when B started: {}",
            plural(self.rounds, "round"),
            self.kind_a,
            self.kind_b,
            results(a.wins, a.draws, a.losses),
            self.mean_margin(),
            results(a.wins_starting, a.draws_starting, a.losses_starting),
            results(b.losses_starting, b.draws_starting, b.wins_starting),
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
    fn limits(self, rng: &mut Rng) -> Limits {
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
    let mut players: Vec<Box<dyn TurnFn>> = Vec::with_capacity(2);
    for (kind, side) in kinds.into_iter().zip(Side::BOTH) {
        let player = seat_player(kind, seed, side).ok_or_else(|| {
            format!("'{kind}' is not a computer player (the arena has no keyboard)")
        })?;
        players.push(player);
    }
    let mut result = ArenaResult {
        kind_a: kinds[0],
        kind_b: kinds[1],
        a: Results::default(),
        b: Results::default(),
        rounds: 0,
        total_margin: 0,
    };
    for round in 0..rounds {
        let starter = if round % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let mut board = Board::starting(rules, starter);
        while !board.is_over() {
            let mover = board.to_move();
            let player = &mut players[mover.index()];
            let chosen = player.choose(&board, &budget.limits(&mut seeds));
            // The game's policy: a player that gives up or errs forfeits
            // nothing, its first legal pit is played.
            let Some(choice) = computer_move(&board, chosen) else {
                break;
            };
            board.play_unchecked(choice.pit);
        }
        let margin = board.score().margin(Side::South);
        result.a.add(margin, starter == Side::South);
        result.b.add(-margin, starter == Side::North);
        result.total_margin += i64::from(margin);
        result.rounds += 1;
        progress(round + 1);
    }
    Ok(result)
}

/// Runs `mancala arena`: prints the summary (or JSON) on stdout, and a
/// progress bar on stderr when it is a terminal.
///
/// # Errors
/// A usage error for a bad kind or bad rules.
pub fn run(cmd: &ArenaCmd) -> anyhow::Result<()> {
    let rules = cmd.rules.rules().map_err(super::UsageError)?;
    for kind in [cmd.a, cmd.b] {
        if kind.is_human() {
            return usage(format!(
                "'{kind}' is not a computer player (the arena has no keyboard)"
            ));
        }
    }
    let budget = match (cmd.nodes, cmd.think) {
        (Some(n), _) => MoveBudget::Nodes(n),
        (None, Some(ms)) => MoveBudget::Think(ms),
        (None, None) => MoveBudget::Think(DEFAULT_ARENA_THINK_MS),
    };
    let show = std::io::stderr().is_terminal();
    let total = cmd.rounds;
    let result = play_arena(rules, [cmd.a, cmd.b], total, cmd.seed, budget, |done| {
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
    })
    .map_err(super::UsageError)?;
    if cmd.json {
        super::output::emit_line(result.json())?;
    } else {
        super::output::emit_line(result.summary())?;
    }
    Ok(())
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
        };
        let summary = result.summary();
        assert!(summary.contains("A: 1 win, 0 draws, 1 loss;"), "{summary}");
        // B won the round it started: that is a loss for A.
        assert!(
            summary.ends_with("A when B started: 0 wins, 0 draws, 1 loss"),
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
}
