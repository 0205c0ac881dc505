//! The ladder's measured ratings, and the Bradley–Terry fit that measures
//! them.
//!
//! The table ([`table`]) is the checked-in output of one command, `cargo run
//! --profile fast -p mancala-benches --example ladder` (see docs/PERFORMANCE.md): a
//! round-robin arena of every level against every other on Kalah(6,4) with
//! both capture rules, fitted by [`fit`]. Nothing here is set by hand.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::level::MAX_LEVEL;

/// The measured table, as the ladder example writes it.
const TABLE_JSON: &str = include_str!("ladder.json");

/// One level's measured rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// The level, 1 to [`MAX_LEVEL`].
    pub level: u8,
    /// Its rating on the Elo scale (level 1 is the anchor).
    pub rating: f64,
    /// Half the width of the rating's 95% interval (relative to the anchor).
    pub interval: f64,
    /// Elo above the level below (0 for level 1).
    pub gap: f64,
    /// Half the width of the gap's 95% interval.
    pub gap_interval: f64,
    /// The score against the level below in their rounds, 0 to 1 (wins
    /// plus half the draws; 0 for level 1).
    pub score_vs_below: f64,
    /// Rounds this level played in the arena.
    pub rounds: u32,
}

/// The measured ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    /// The command that measured it.
    pub command: String,
    /// Rounds per pair of levels and per capture rule.
    pub rounds_per_pair: u32,
    /// The boards the arena used.
    pub boards: Vec<String>,
    /// The rating given to level 1 (the fit fixes only differences).
    pub anchor: f64,
    /// Every level, weakest first.
    pub levels: Vec<Rung>,
}

/// The checked-in table.
///
/// # Panics
/// Never on the shipped file: a test reads it.
#[must_use]
pub fn table() -> &'static Ladder {
    static TABLE: OnceLock<Ladder> = OnceLock::new();
    TABLE.get_or_init(|| serde_json::from_str(TABLE_JSON).expect("the shipped ladder table"))
}

/// The measured rating of `level`, rounded, if the table has it.
#[must_use]
pub fn rating(level: u8) -> Option<i32> {
    table()
        .levels
        .iter()
        .find(|r| r.level == level)
        .map(|r| r.rating.round() as i32)
}

/// The level whose measured rating is nearest `rating` (the lower one on
/// a tie).
#[must_use]
pub fn nearest_level(rating: f64) -> u8 {
    table()
        .levels
        .iter()
        .min_by(|a, b| {
            (a.rating - rating)
                .abs()
                .total_cmp(&(b.rating - rating).abs())
        })
        .map_or(MAX_LEVEL / 2, |r| r.level)
}

/// Results of one pair of players in an arena.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// The first player's index.
    pub a: usize,
    /// The second player's index.
    pub b: usize,
    /// Rounds played.
    pub rounds: f64,
    /// The first player's score: wins plus half the draws.
    pub score_a: f64,
}

/// A Bradley–Terry fit on the Elo scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Each player's rating, player 0 at 0.
    pub ratings: Vec<f64>,
    /// Covariance of the ratings (player 0's row and column are 0).
    pub covariance: Vec<Vec<f64>>,
}

impl Fit {
    /// Half the width of the 95% interval of player `i`'s rating.
    #[must_use]
    pub fn interval(&self, i: usize) -> f64 {
        1.96 * self.covariance[i][i].max(0.0).sqrt()
    }

    /// Half the width of the 95% interval of `ratings[i] - ratings[j]`.
    #[must_use]
    pub fn gap_interval(&self, i: usize, j: usize) -> f64 {
        let c = &self.covariance;
        1.96 * (c[i][i] + c[j][j] - 2.0 * c[i][j]).max(0.0).sqrt()
    }
}

/// Elo points per natural-log unit of odds.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// The expected score of a player `diff` Elo above its opponent.
#[must_use]
pub fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// Fits Bradley–Terry ratings (Elo scale, player 0 fixed at 0) to the
/// pairings by maximum likelihood, draws counting half. `prior` virtual
/// drawn rounds between each pair of neighbours (`i`, `i + 1`) keep the
/// fit finite when a player never lost (perfect play does not); the
/// intervals come from the likelihood's curvature.
#[must_use]
pub fn fit(players: usize, pairings: &[Pairing], prior: f64) -> Fit {
    let mut all: Vec<Pairing> = pairings.to_vec();
    all.extend((1..players).map(|i| Pairing {
        a: i - 1,
        b: i,
        rounds: prior,
        score_a: prior / 2.0,
    }));
    let free = players.saturating_sub(1);
    let mut ratings = vec![0.0; players];
    let mut information = vec![vec![0.0; free]; free];
    for _ in 0..100 {
        let mut gradient = vec![0.0; free];
        information = vec![vec![0.0; free]; free];
        for p in &all {
            let e = expected(ratings[p.a] - ratings[p.b]);
            let g = (p.score_a - p.rounds * e) / SCALE;
            let h = p.rounds * e * (1.0 - e) / (SCALE * SCALE);
            for (i, sign) in [(p.a, 1.0), (p.b, -1.0)] {
                if i > 0 {
                    gradient[i - 1] += sign * g;
                    information[i - 1][i - 1] += h;
                }
            }
            if p.a > 0 && p.b > 0 {
                information[p.a - 1][p.b - 1] -= h;
                information[p.b - 1][p.a - 1] -= h;
            }
        }
        let step = solve(&information, &gradient);
        let mut largest: f64 = 0.0;
        for (i, s) in step.iter().enumerate() {
            // damped: a far start converges without overshooting
            let s = s.clamp(-400.0, 400.0);
            ratings[i + 1] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-6 {
            break;
        }
    }
    let inverse = invert(&information);
    let mut covariance = vec![vec![0.0; players]; players];
    for i in 0..free {
        for j in 0..free {
            covariance[i + 1][j + 1] = inverse[i][j];
        }
    }
    Fit {
        ratings,
        covariance,
    }
}

/// Solves `m x = b` by Gaussian elimination with partial pivoting (a
/// singular system gives zeros where it has no information).
fn solve(m: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-300 {
            continue;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-300 {
                0.0
            } else {
                a[i][n] / a[i][i]
            }
        })
        .collect()
}

/// The inverse of `m`, column by column.
fn invert(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = m.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let unit: Vec<f64> = (0..n).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
            solve(m, &unit)
        })
        .collect();
    (0..n)
        .map(|i| (0..n).map(|j| columns[j][i]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fit recovers known ratings from the expected scores they give,
    /// and its intervals shrink as the rounds grow.
    #[test]
    fn the_fit_recovers_the_ratings_that_made_the_scores() {
        let truth = [0.0, 150.0, 260.0, 500.0];
        let pairings = |rounds: f64| -> Vec<Pairing> {
            let mut out = Vec::new();
            for a in 0..truth.len() {
                for b in a + 1..truth.len() {
                    out.push(Pairing {
                        a,
                        b,
                        rounds,
                        score_a: rounds * expected(truth[a] - truth[b]),
                    });
                }
            }
            out
        };
        let small = fit(truth.len(), &pairings(100.0), 0.0);
        for (got, want) in small.ratings.iter().zip(truth) {
            assert!((got - want).abs() < 1e-3, "{got} {want}");
        }
        let big = fit(truth.len(), &pairings(400.0), 0.0);
        assert!(big.interval(3) < small.interval(3) * 0.6);
        assert!(small.interval(1) > 10.0 && small.gap_interval(2, 1) > 10.0);
        assert_eq!(small.interval(0), 0.0);
    }

    /// A player that never lost still gets a finite rating with the prior.
    #[test]
    fn an_unbeaten_player_stays_finite_with_the_prior() {
        let pairings = [Pairing {
            a: 0,
            b: 1,
            rounds: 20.0,
            score_a: 0.0,
        }];
        let f = fit(2, &pairings, 1.0);
        assert!(
            f.ratings[1] > 300.0 && f.ratings[1] < 2000.0,
            "{:?}",
            f.ratings
        );
    }

    /// The shipped table has every level, in order, each above the one
    /// below; the top is perfect play's level.
    #[test]
    fn the_shipped_table_is_complete_and_ordered() {
        let t = table();
        let levels: Vec<u8> = t.levels.iter().map(|r| r.level).collect();
        assert_eq!(levels, (1..=MAX_LEVEL).collect::<Vec<_>>());
        assert!(t.levels.windows(2).all(|w| w[0].rating < w[1].rating));
        assert!(t.rounds_per_pair > 0 && t.command.contains("--example ladder"));
        assert_eq!(nearest_level(t.levels[3].rating + 1.0), 4);
        assert_eq!(nearest_level(-1e9), 1);
        assert_eq!(nearest_level(1e9), MAX_LEVEL);
    }
}
