//! A person's rating against the computer's levels (Glicko-2).
//!
//! Nothing is kept besides the statistics: each finished round's line in
//! `stats.jsonl` says which seats a computer played and at which level
//! ([`super::stats::RoundResult::kinds`]), and a person's rating is the
//! Glicko-2 rating those rounds give, one round at a time in the order
//! played, against the levels' measured ratings
//! ([`crate::players::ladder`]; a level's interval is its deviation). Only
//! rounds under the rules the ladder was measured on count (Kalah(6,4),
//! capture always or nonempty). A new player starts at
//! [`Rating::NEW_RATING`] with a wide deviation, so the first rounds move
//! the rating most.

use std::collections::BTreeMap;

use serde_json::json;

use super::stats::RoundResult;
use crate::game::names::clean_name;
use crate::players::{PlayerKind, ladder};
use crate::rules::{Capture, Rules, plural};

/// Glicko-2's scale: Elo points per internal unit.
const SCALE: f64 = 173.7178;
/// Glicko-2's system constant (how fast the volatility may change).
const TAU: f64 = 0.5;

/// A person's rating on the Elo scale of the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (about half its 95% interval).
    pub deviation: f64,
    /// Glicko-2's volatility.
    pub volatility: f64,
    /// Rounds against a rated level counted.
    pub rounds: u32,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::new()
    }
}

impl Rating {
    /// Where a new player starts: between the ladder's lower levels.
    pub const NEW_RATING: f64 = 1200.0;

    /// A new player's rating.
    #[must_use]
    pub const fn new() -> Rating {
        Rating {
            rating: Rating::NEW_RATING,
            deviation: 350.0,
            volatility: 0.06,
            rounds: 0,
        }
    }

    /// The rating after one round against an opponent rated `opponent`
    /// with deviation `opponent_deviation`, scoring `score` (1 a win, ½ a
    /// draw, 0 a loss): Glicko-2 with the round as its rating period.
    #[must_use]
    pub fn after(self, opponent: f64, opponent_deviation: f64, score: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let mu_j = (opponent - 1500.0) / SCALE;
        let phi_j = opponent_deviation / SCALE;
        let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        let v = 1.0 / (g * g * e * (1.0 - e));
        let delta = v * g * (score - e);
        // the new volatility (Glickman's iteration, "Illinois" variant)
        let a = (self.volatility * self.volatility).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 100.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        for _ in 0..100 {
            if (big_b - big_a).abs() <= 1e-6 {
                break;
            }
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let volatility = (big_a / 2.0).exp();
        let phi_star = (phi * phi + volatility * volatility).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * g * (score - e);
        Rating {
            rating: 1500.0 + SCALE * mu_new,
            deviation: (SCALE * phi_new).min(350.0),
            volatility,
            rounds: self.rounds + 1,
        }
    }

    /// The level of the ladder nearest this rating.
    #[must_use]
    pub fn level(&self) -> u8 {
        ladder::nearest_level(self.rating)
    }
}

/// Whether a round under `rules` (their one-line summary) counts for the
/// ratings: the ladder's boards.
fn rated_rules(rules: &str) -> bool {
    [Capture::Always, Capture::NonEmpty]
        .into_iter()
        .any(|c| Rules::KALAH.with_capture(c).to_string() == rules.trim())
}

/// Every person's rating from the statistics' rounds (in the order
/// given), by name as last written, case aside; only people who played a
/// rated level under the ladder's rules.
#[must_use]
pub fn ratings<'a>(rounds: impl IntoIterator<Item = &'a RoundResult>) -> Vec<(String, Rating)> {
    let mut by_key: BTreeMap<String, (String, Rating)> = BTreeMap::new();
    for round in rounds {
        let Some(kinds) = &round.kinds else {
            continue;
        };
        if !rated_rules(&round.rules) {
            continue;
        }
        let kinds = kinds.each_ref().map(|k| k.parse::<PlayerKind>().ok());
        let names = [&round.south, &round.north].map(|n| clean_name(n));
        let margin = i32::from(round.score[0]) - i32::from(round.score[1]);
        for (me, them, sign) in [(0, 1, 1), (1, 0, -1)] {
            let (Some(mine), Some(PlayerKind::Level(level))) = (kinds[me], kinds[them]) else {
                continue;
            };
            if !mine.is_person() || names[me].is_empty() {
                continue;
            }
            let Some(rung) = ladder::table().levels.iter().find(|r| r.level == level) else {
                continue;
            };
            let score = match (sign * margin).signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            let entry = by_key
                .entry(names[me].to_lowercase())
                .or_insert_with(|| (names[me].clone(), Rating::new()));
            entry.0.clone_from(&names[me]);
            entry.1 = entry.1.after(rung.rating, rung.interval / 1.96, score);
        }
    }
    by_key.into_values().collect()
}

/// What one round did to a person's rating: "Alice 1210 → 1236".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChange {
    /// The person.
    pub name: String,
    /// The rating before the round (a new player's when it was the first).
    pub before: i32,
    /// The rating after it.
    pub after: i32,
}

impl std::fmt::Display for RatingChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let diff = self.after - self.before;
        write!(
            f,
            "Rating: {} {} → {} ({}{diff})",
            self.name,
            self.before,
            self.after,
            if diff >= 0 { "+" } else { "" }
        )
    }
}

/// What round `id` of `rounds` did to `name`'s rating, when it counted
/// for it (a person against a rated level under the ladder's rules).
#[must_use]
pub fn change_of(rounds: &[RoundResult], id: &str, name: &str) -> Option<RatingChange> {
    let this = rounds.iter().position(|r| r.id.as_deref() == Some(id))?;
    let after = rating_of(&rounds[..=this], name)?;
    let before = rating_of(&rounds[..this], name).unwrap_or_default();
    (after.rounds > before.rounds).then(|| RatingChange {
        name: clean_name(name),
        before: before.rating.round() as i32,
        after: after.rating.round() as i32,
    })
}

/// The rating of `name` (case aside), if they played a rated level.
#[must_use]
pub fn rating_of<'a>(
    rounds: impl IntoIterator<Item = &'a RoundResult>,
    name: &str,
) -> Option<Rating> {
    let key = clean_name(name).to_lowercase();
    ratings(rounds)
        .into_iter()
        .find(|(n, _)| n.to_lowercase() == key)
        .map(|(_, r)| r)
}

/// The ratings as text, one line each ("" when there are none).
#[must_use]
pub fn to_text(ratings: &[(String, Rating)]) -> String {
    if ratings.is_empty() {
        return String::new();
    }
    let mut out = String::from("Ratings against the computer's levels (mancala levels):\n");
    for (name, r) in ratings {
        out.push_str(&format!(
            "  {name}: {:.0} ± {:.0} after {} (nearest level: {})\n",
            r.rating,
            1.96 * r.deviation,
            plural(r.rounds, "round"),
            r.level()
        ));
    }
    out
}

/// The ratings as JSON: `[{"name":"Alice","rating":1236,"interval":180,"rounds":3,"level":4}]`.
#[must_use]
pub fn to_json(ratings: &[(String, Rating)]) -> serde_json::Value {
    ratings
        .iter()
        .map(|(name, r)| {
            json!({
                "name": name,
                "rating": r.rating.round() as i64,
                "interval": (1.96 * r.deviation).round() as i64,
                "rounds": r.rounds,
                "level": r.level(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example (1500 ± 200 against 1400 ± 30 won,
    /// 1550 ± 100 lost, 1700 ± 300 lost) gives 1464.06 ± 151.52; played
    /// one round at a time, as here, the rating moves the same way and
    /// ends near it.
    #[test]
    fn glicko_two_moves_the_rating_as_the_results_say() {
        let start = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
            rounds: 0,
        };
        let won = start.after(1400.0, 30.0, 1.0);
        assert!(won.rating > 1500.0 && won.deviation < 200.0);
        let end = won.after(1550.0, 100.0, 0.0).after(1700.0, 300.0, 0.0);
        assert!((end.rating - 1464.0).abs() < 25.0, "{end:?}");
        assert!(end.deviation < 200.0 && end.rounds == 3);
        // beating a much stronger level gains more than beating a weaker one
        let a = Rating::new().after(1800.0, 50.0, 1.0);
        let b = Rating::new().after(900.0, 50.0, 1.0);
        assert!(a.rating > b.rating);
    }

    fn round(south: &str, north: &str, kinds: [&str; 2], score: [u16; 2]) -> RoundResult {
        RoundResult {
            time: 1,
            south: south.into(),
            north: north.into(),
            score,
            rules: Rules::KALAH.to_string(),
            id: None,
            kinds: Some(kinds.map(str::to_string)),
        }
    }

    /// Only rounds of a person against a level count, for the person.
    #[test]
    fn rounds_against_levels_rate_the_person() {
        let rounds = [
            round("Alice", "Computer", ["human", "level:3"], [30, 18]),
            round("Computer", "alice", ["level:4", "human"], [20, 28]),
            round("Alice", "Bob", ["human", "human"], [40, 8]),
            round("Alice", "Computer", ["human", "hard"], [40, 8]),
        ];
        let all = ratings(&rounds);
        assert_eq!(all.len(), 1, "{all:?}");
        let (name, r) = &all[0];
        assert_eq!(name, "alice");
        assert_eq!(r.rounds, 2);
        assert!(r.rating > Rating::NEW_RATING);
        assert_eq!(rating_of(&rounds, "ALICE"), Some(*r));
        assert_eq!(rating_of(&rounds, "Bob"), None);
        let mut other = round("Alice", "Computer", ["human", "level:3"], [30, 18]);
        other.rules = Rules::new(4, 3).unwrap().to_string();
        assert!(ratings(&[other]).is_empty(), "other rules do not count");
        assert!(to_text(&all).contains("alice: "));
        assert_eq!(to_json(&all)[0]["rounds"], 2);
    }
}
