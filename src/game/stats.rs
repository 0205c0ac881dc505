//! The match history of every pair of names: rounds, wins, draws and best
//! margins.
//!
//! Every finished round (from either front end, through
//! [`SaveStore::archive_round`](super::SaveStore::archive_round) or
//! [`append_round`]) appends one JSON object on its own line to
//! `stats.jsonl` in the data directory:
//!
//! ```text
//! {"time":1763780940,"south":"Alice","north":"Michael","score":[30,18],"rules":"6 pits × 4 seeds, capture always, single sowing, sweep to owner"}
//! ```
//!
//! `score` is South's seeds then North's. Appending one line at a time
//! means a crash can at worst cut the last line short; [`read`] skips lines
//! it cannot understand (and counts them) instead of giving up, so a
//! damaged file never costs the rest of the history.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Match;
use super::files::{self, Follow, ReadError};
use super::names::clean_name;
use crate::rules::Side;

/// One finished round, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// When it ended, in Unix seconds.
    pub time: u64,
    /// South's name.
    pub south: String,
    /// North's name.
    pub north: String,
    /// Seeds at the end: South's, North's.
    pub score: [u16; 2],
    /// The rules, as [`Rules`](crate::rules::Rules)'s one-line summary.
    pub rules: String,
    /// The round's id, the same as in its record
    /// ([`SaveStore::archive_round_as`](super::SaveStore::archive_round_as)):
    /// a round counted before a restart is not counted again. Absent in
    /// lines of earlier versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// Appends the finished round of `m` to the statistics file at `path`,
/// with its id when it has one.
///
/// # Errors
/// Any I/O failure. A round that is not finished is not counted (`Ok`).
pub fn append_round(path: &Path, m: &Match, time: u64, id: Option<&str>) -> io::Result<()> {
    if m.outcome().is_none() {
        return Ok(());
    }
    let score = m.board().score();
    let entry = RoundResult {
        time,
        south: clean_name(m.name(Side::South)),
        north: clean_name(m.name(Side::North)),
        score: [score.south, score.north],
        rules: m.rules().to_string(),
        id: id.map(str::to_string),
    };
    let mut line = serde_json::to_string(&entry).map_err(io::Error::other)?;
    line.push('\n');
    files::append_line(path, &line).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot add to the statistics {}: {e}", path.display()),
        )
    })
}

/// Whether the statistics file at `path` counts the round `id` already.
///
/// # Errors
/// When the file exists but cannot be read (then nobody knows).
pub fn counts(path: &Path, id: &str) -> Result<bool, ReadError> {
    let bytes = match files::read_bytes(path, MAX_STATS_BYTES, Follow::Never) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return Ok(false),
        Err(e) => return Err(e),
    };
    let text = String::from_utf8_lossy(&bytes);
    Ok(text.lines().any(|line| {
        line.contains(id)
            && serde_json::from_str::<RoundResult>(line).is_ok_and(|r| r.id.as_deref() == Some(id))
    }))
}

/// The history of one pair of names (in alphabetical order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairStats {
    /// The two names, alphabetical.
    pub players: [String; 2],
    /// Rounds finished between them.
    pub rounds: u32,
    /// Rounds won by each of `players`.
    pub wins: [u32; 2],
    /// Rounds drawn.
    pub draws: u32,
    /// The biggest winning margin of each of `players`, if they won at all.
    pub best_margin: [Option<u16>; 2],
}

/// Everything the statistics file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// One entry per pair of names, sorted by names.
    pub pairs: Vec<PairStats>,
    /// Lines that could not be read (damaged) and were left out.
    pub skipped_lines: usize,
}

/// The largest statistics file read: some 100,000 rounds.
pub const MAX_STATS_BYTES: u64 = 16 << 20;

/// Reads the statistics file (through [`files::read_bytes`]: a regular
/// file, not a link, at most [`MAX_STATS_BYTES`]); a missing file is an
/// empty history.
///
/// # Errors
/// When the file exists but cannot be read.
pub fn read(path: &Path) -> Result<Stats, ReadError> {
    match files::read_bytes(path, MAX_STATS_BYTES, Follow::Never) {
        Ok(bytes) => Ok(summarize(&String::from_utf8_lossy(&bytes))),
        Err(ReadError::NotFound) => Ok(Stats::default()),
        Err(e) => Err(e),
    }
}

/// Adds up the lines of a statistics file.
#[must_use]
pub fn summarize(text: &str) -> Stats {
    let mut pairs: BTreeMap<(String, String), PairStats> = BTreeMap::new();
    let mut skipped_lines = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(mut round) = serde_json::from_str::<RoundResult>(line) else {
            skipped_lines += 1;
            continue;
        };
        // Names from the file are shown: cleaned as where names enter.
        round.south = clean_name(&round.south);
        round.north = clean_name(&round.north);
        if round.south.is_empty() || round.north.is_empty() {
            skipped_lines += 1;
            continue;
        }
        let swap = round.north < round.south;
        let (names, score) = if swap {
            ([round.north, round.south], [round.score[1], round.score[0]])
        } else {
            ([round.south, round.north], round.score)
        };
        let entry = pairs
            .entry((names[0].clone(), names[1].clone()))
            .or_insert_with(|| PairStats {
                players: names,
                ..PairStats::default()
            });
        entry.rounds += 1;
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        match winner {
            None => entry.draws += 1,
            Some(w) => {
                entry.wins[w] += 1;
                let margin = score[w] - score[1 - w];
                let best = &mut entry.best_margin[w];
                *best = Some(best.map_or(margin, |b| b.max(margin)));
            }
        }
    }
    Stats {
        pairs: pairs.into_values().collect(),
        skipped_lines,
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Stats {
    /// The history as text, one line per pair.
    #[must_use]
    pub fn to_text(&self) -> String {
        if self.pairs.is_empty() {
            return "No finished rounds yet.\n".to_string();
        }
        let mut out = String::new();
        for p in &self.pairs {
            let [a, b] = &p.players;
            let best: Vec<String> = (0..2)
                .filter_map(|i| p.best_margin[i].map(|m| format!("{} by {m}", p.players[i])))
                .collect();
            out.push_str(&format!(
                "{a} vs {b}: {}; {a} {}, {b} {}, {}; best margin: {}.\n",
                plural(p.rounds, "round"),
                plural(p.wins[0], "win"),
                plural(p.wins[1], "win"),
                plural(p.draws, "draw"),
                if best.is_empty() {
                    "none".to_string()
                } else {
                    best.join(", ")
                }
            ));
        }
        out
    }

    /// The history as JSON:
    /// `{"pairs":[{"players":["Alice","Michael"],"rounds":3,"wins":[2,1],"draws":0,"best_margin":[12,4]}],"skipped_lines":0}`
    /// (`best_margin` is `null` for a player who has not won).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let pairs: Vec<_> = self
            .pairs
            .iter()
            .map(|p| {
                json!({
                    "players": p.players,
                    "rounds": p.rounds,
                    "wins": p.wins,
                    "draws": p.draws,
                    "best_margin": p.best_margin,
                })
            })
            .collect();
        json!({ "pairs": pairs, "skipped_lines": self.skipped_lines })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(south: &str, north: &str, s: u16, n: u16) -> String {
        serde_json::to_string(&RoundResult {
            time: 1,
            south: south.into(),
            north: north.into(),
            score: [s, n],
            rules: "r".into(),
            id: None,
        })
        .unwrap()
    }

    #[test]
    fn pairs_are_counted_whoever_sat_south() {
        let text = [
            line("Alice", "Michael", 30, 18),
            line("Michael", "Alice", 20, 28),
            line("Michael", "Alice", 26, 22),
            line("Alice", "Michael", 24, 24),
            "{\"time\": 1, \"south\": \"trunc".to_string(),
            "\u{0}\u{1}garbage".to_string(),
            line("Bob", "Carol", 10, 38),
        ]
        .join("\n");
        let stats = summarize(&text);
        assert_eq!(stats.skipped_lines, 2);
        assert_eq!(
            stats.pairs[0],
            PairStats {
                players: ["Alice".into(), "Michael".into()],
                rounds: 4,
                wins: [2, 1],
                draws: 1,
                best_margin: [Some(12), Some(4)],
            }
        );
        assert_eq!(stats.pairs[1].best_margin, [None, Some(28)]);
        let text = stats.to_text();
        assert!(
            text.starts_with("Alice vs Michael: 4 rounds; Alice 2 wins, Michael 1 win, 1 draw; best margin: Alice by 12, Michael by 4.\n"),
            "{text}"
        );
        assert_eq!(
            stats.to_json()["pairs"][1]["best_margin"],
            json!([null, 28])
        );
    }
}
