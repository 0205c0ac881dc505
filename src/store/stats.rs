//! The match history of every pair of players under each set of rules:
//! rounds, wins, draws and best margins. Rounds under other rules are
//! counted apart (and say which rules); a player's name is matched
//! whatever its case, as for saves.
//!
//! Every finished round (from either front end, through
//! [`SaveStore::archive_round_as`](super::SaveStore::archive_round_as) or
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

use super::files::{self, Follow, ReadError};
use crate::analysis::Analysis;
use crate::escape::escaped;
use crate::game::Match;
use crate::game::names::{clean_name, same_name};
use crate::rules::{Side, plural};

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
    /// Who played South and North (`human`, `level:4`, ...), written when a
    /// computer played: the person's rating counts the rounds against a
    /// level ([`super::rating`]). Absent in lines of earlier versions and
    /// between two people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kinds: Option<[String; 2]>,
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
        rules: m.config().rules_text(),
        id: id.map(str::to_string),
        // By side, as the names: after the pie rule's swap the seats
        // changed sides.
        kinds: (!m.config().kinds().iter().all(|k| k.is_person()))
            .then(|| Side::BOTH.map(|side| m.seat(side).kind.to_string())),
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

/// The rounds of the statistics file at `path` that a computer played (the
/// ones the ratings count), in the file's order; damaged lines are left
/// out, a missing file has none.
///
/// # Errors
/// When the file exists but cannot be read.
pub fn rated_rounds(path: &Path) -> Result<Vec<RoundResult>, ReadError> {
    let bytes = match files::read_bytes(path, MAX_STATS_BYTES, Follow::Never) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    Ok(String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|line| serde_json::from_str::<RoundResult>(line).ok())
        .filter(|round| round.kinds.is_some())
        .collect())
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

/// The history of one pair of players under one set of rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairStats {
    /// The two players, alphabetical (case aside), each as last written.
    pub players: [String; 2],
    /// The rules they played by, as [`Rules`](crate::rules::Rules)'s
    /// one-line summary ([`escaped`], as it comes from the file).
    pub rules: String,
    /// Rounds finished between them.
    pub rounds: u32,
    /// Rounds won by each of `players`.
    pub wins: [u32; 2],
    /// Rounds drawn.
    pub draws: u32,
    /// The biggest winning margin of each of `players`, if they won at all.
    pub best_margin: [Option<u16>; 2],
    /// How well each of `players` played, from the analysis of their
    /// recorded rounds (`None`: not asked for).
    pub loss: Option<LossTally>,
}

/// What the analysis of one round says of each side's moves, South's
/// first: the seeds of final margin they gave away ([`MoveAnalysis::loss`]).
///
/// [`MoveAnalysis::loss`]: crate::analysis::MoveAnalysis::loss
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundLoss {
    /// Seeds lost in all by each side's moves.
    pub lost: [u32; 2],
    /// Moves each side made.
    pub moves: [u32; 2],
    /// Of those, the moves whose loss is an estimate, not proven.
    pub estimated: [u32; 2],
}

impl RoundLoss {
    /// Each side's losses in `analysis`.
    #[must_use]
    pub fn of(analysis: &Analysis) -> RoundLoss {
        let mut loss = RoundLoss::default();
        for m in &analysis.moves {
            let i = m.side.index();
            loss.lost[i] = loss.lost[i].saturating_add(m.loss().unsigned_abs());
            loss.moves[i] = loss.moves[i].saturating_add(1);
            if !m.exact() {
                loss.estimated[i] = loss.estimated[i].saturating_add(1);
            }
        }
        loss
    }

    /// The same with North's figures first.
    #[must_use]
    const fn swapped(self) -> RoundLoss {
        let [a, b] = self.lost;
        let [c, d] = self.moves;
        let [e, f] = self.estimated;
        RoundLoss {
            lost: [b, a],
            moves: [d, c],
            estimated: [f, e],
        }
    }
}

/// Each player's losses over the analysed rounds of a pair, in the order
/// of [`PairStats::players`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LossTally {
    /// Rounds analysed.
    pub analysed_rounds: u32,
    /// Rounds left out: no record of them was found, or it could not be
    /// read.
    pub left_out: u32,
    /// Seeds lost in all by each player's moves.
    pub lost: [u64; 2],
    /// Moves each player made in the analysed rounds.
    pub moves: [u64; 2],
    /// Of those, the moves whose loss is an estimate, not proven.
    pub estimated: [u64; 2],
}

impl LossTally {
    /// Each player's mean loss per move (`None` for a player with no
    /// analysed move).
    #[must_use]
    pub fn mean(&self) -> [Option<f64>; 2] {
        [0, 1].map(|i| (self.moves[i] > 0).then(|| self.lost[i] as f64 / self.moves[i] as f64))
    }

    fn add(&mut self, round: Option<RoundLoss>) {
        let Some(round) = round else {
            self.left_out += 1;
            return;
        };
        self.analysed_rounds += 1;
        for i in 0..2 {
            self.lost[i] += u64::from(round.lost[i]);
            self.moves[i] += u64::from(round.moves[i]);
            self.estimated[i] += u64::from(round.estimated[i]);
        }
    }

    /// The tally as words, for a pair of `players`.
    fn text(&self, players: &[String; 2]) -> String {
        let rounds = self.analysed_rounds + self.left_out;
        if self.analysed_rounds == 0 {
            return format!(
                "mean loss per move: not known (no record of {} found)",
                if rounds == 1 {
                    "the round"
                } else {
                    "any round"
                }
            );
        }
        let means = self.mean();
        let each: Vec<String> = (0..2)
            .map(|i| match means[i] {
                Some(mean) => format!("{} {mean:.2}", players[i]),
                None => format!("{} no move", players[i]),
            })
            .collect();
        let analysed = if self.left_out == 0 {
            format!("{} analysed", plural(self.analysed_rounds, "round"))
        } else {
            format!(
                "{} of {rounds} rounds analysed, {} without a record left out",
                self.analysed_rounds, self.left_out
            )
        };
        let moves = self.moves[0] + self.moves[1];
        let estimated = self.estimated[0] + self.estimated[1];
        let proof = if estimated == 0 {
            format!("all {moves} moves proven")
        } else {
            format!("{estimated} of {moves} moves estimated, not proven")
        };
        format!(
            "mean loss per move: {} ({analysed}; {proof})",
            each.join(", ")
        )
    }
}

impl PairStats {
    /// Counts one round, its score (and its analysis, if it was asked
    /// for) given in the order of `players`.
    ///
    /// Everything a pair's history adds up from a round is added here, so
    /// that a new figure (such as a mean loss per move) is one more field
    /// here and one more part in [`PairStats::parts`] and
    /// [`PairStats::to_json`].
    fn add(&mut self, score: [u16; 2], review: Review) {
        self.rounds += 1;
        if let Review::Done(round) = review {
            self.loss.get_or_insert_with(LossTally::default).add(round);
        }
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        match winner {
            None => self.draws += 1,
            Some(w) => {
                self.wins[w] += 1;
                let margin = score[w] - score[1 - w];
                let best = &mut self.best_margin[w];
                *best = Some(best.map_or(margin, |b| b.max(margin)));
            }
        }
    }

    /// The pair's figures as the parts of its line of text, in order:
    /// rounds, wins and draws, best margins, and with the analysis each
    /// player's mean loss per move.
    #[must_use]
    pub fn parts(&self) -> Vec<String> {
        let [a, b] = &self.players;
        let best: Vec<String> = (0..2)
            .filter_map(|i| self.best_margin[i].map(|m| format!("{} by {m}", self.players[i])))
            .collect();
        let mut parts = vec![
            plural(self.rounds, "round"),
            format!(
                "{a} {}, {b} {}, {}",
                plural(self.wins[0], "win"),
                plural(self.wins[1], "win"),
                plural(self.draws, "draw")
            ),
            format!(
                "best margin: {}",
                if best.is_empty() {
                    "none".to_string()
                } else {
                    best.join(", ")
                }
            ),
        ];
        if let Some(loss) = &self.loss {
            parts.push(loss.text(&self.players));
        }
        parts
    }

    /// The pair as JSON: see [`Stats::to_json`].
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let mut pair = json!({
            "players": self.players,
            "rules": self.rules,
            "rounds": self.rounds,
            "wins": self.wins,
            "draws": self.draws,
            "best_margin": self.best_margin,
        });
        if let Some(loss) = &self.loss {
            pair["mean_loss"] = json!(loss.mean());
            pair["seeds_lost"] = json!(loss.lost);
            pair["analysed_moves"] = json!(loss.moves);
            pair["estimated_moves"] = json!(loss.estimated);
            pair["analysed_rounds"] = json!(loss.analysed_rounds);
            pair["rounds_left_out"] = json!(loss.left_out);
        }
        pair
    }
}

/// The analysis of one round for [`PairStats::add`], when asked for.
#[derive(Clone, Copy, Debug)]
enum Review {
    /// No analysis was asked for.
    NotAsked,
    /// Its analysis, in the pair's order (`None`: left out).
    Done(Option<RoundLoss>),
}

/// What the analysis of a round says of each side (South's first), or
/// `None` when the round cannot be analysed (no record of it).
pub type Reviewer<'a> = &'a mut dyn FnMut(&RoundResult) -> Option<RoundLoss>;

/// Everything the statistics file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// One entry per pair of players and rules: the rules played most
    /// first, then the players alphabetically (case aside).
    pub pairs: Vec<PairStats>,
    /// Lines that could not be read (damaged) and were left out.
    pub skipped_lines: usize,
    /// Each person's rating against the computer's levels.
    pub ratings: Vec<(String, super::rating::Rating)>,
}

/// The largest statistics file read: some 100,000 rounds.
pub const MAX_STATS_BYTES: u64 = 16 << 20;

/// The most characters of a rules summary shown: a summary is some 65.
const MAX_RULES_CHARS: usize = 120;

/// Reads the statistics file (through [`files::read_bytes`]: a regular
/// file, not a link, at most [`MAX_STATS_BYTES`]); a missing file is an
/// empty history.
///
/// # Errors
/// When the file exists but cannot be read.
pub fn read(path: &Path) -> Result<Stats, ReadError> {
    read_reviewed(path, None)
}

/// [`read`], each round also analysed by `review` (see
/// [`summarize_reviewed`]).
///
/// # Errors
/// When the file exists but cannot be read.
pub fn read_reviewed(path: &Path, review: Option<Reviewer>) -> Result<Stats, ReadError> {
    match files::read_bytes(path, MAX_STATS_BYTES, Follow::Never) {
        Ok(bytes) => Ok(summarize_reviewed(&String::from_utf8_lossy(&bytes), review)),
        Err(ReadError::NotFound) => Ok(Stats::default()),
        Err(e) => Err(e),
    }
}

/// Adds up the lines of a statistics file: one history per pair of
/// players and rules. A player is the same whatever the case of the name
/// ("alice" and "Alice", as for saves: [`same_name`]), shown as the name
/// was last written.
#[must_use]
pub fn summarize(text: &str) -> Stats {
    summarize_reviewed(text, None)
}

/// [`summarize`], with each round counted also analysed by `review`:
/// each pair then has its [`LossTally`].
#[must_use]
pub fn summarize_reviewed(text: &str, mut review: Option<Reviewer>) -> Stats {
    // (first player's key, second player's key, rules) -> history.
    let mut pairs: BTreeMap<(String, String, String), PairStats> = BTreeMap::new();
    // A player's key -> the name as last written (lines are in time order).
    let mut spelling: BTreeMap<String, String> = BTreeMap::new();
    let mut skipped_lines = 0;
    // the rounds a computer played, for the ratings
    let mut rated: Vec<RoundResult> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(round) = serde_json::from_str::<RoundResult>(line) else {
            skipped_lines += 1;
            continue;
        };
        if round.kinds.is_some() {
            rated.push(round.clone());
        }
        // Names from the file are shown: cleaned as where names enter.
        let south = clean_name(&round.south);
        let north = clean_name(&round.north);
        if south.is_empty() || north.is_empty() || same_name(&south, &north) {
            skipped_lines += 1;
            continue;
        }
        let rules = escaped(round.rules.trim(), MAX_RULES_CHARS);
        // players are told apart by their name, case aside
        let [south_key, north_key] = [&south, &north].map(|n| n.to_lowercase());
        spelling.insert(south_key.clone(), south);
        spelling.insert(north_key.clone(), north);
        let swap = north_key < south_key;
        let (keys, score) = if swap {
            ([north_key, south_key], [round.score[1], round.score[0]])
        } else {
            ([south_key, north_key], round.score)
        };
        let review = match review.as_mut() {
            None => Review::NotAsked,
            Some(review) => {
                Review::Done(review(&round).map(|loss| if swap { loss.swapped() } else { loss }))
            }
        };
        let [first, second] = keys;
        pairs
            .entry((first, second, rules.clone()))
            .or_insert_with(|| PairStats {
                rules,
                ..PairStats::default()
            })
            .add(score, review);
    }
    let mut pairs: Vec<PairStats> = pairs
        .into_iter()
        .map(|((first, second, _), mut pair)| {
            pair.players = [&first, &second].map(|key| spelling[key].clone());
            pair
        })
        .collect();
    // The rules played most first (then by their text, so that each set
    // of rules stays together); within them, the map's order: by names.
    let mut rounds_by_rules: BTreeMap<String, u32> = BTreeMap::new();
    for pair in &pairs {
        *rounds_by_rules.entry(pair.rules.clone()).or_default() += pair.rounds;
    }
    let rank = |pair: &PairStats| {
        (
            std::cmp::Reverse(rounds_by_rules[&pair.rules]),
            pair.rules.clone(),
        )
    };
    pairs.sort_by_cached_key(rank);
    Stats {
        pairs,
        skipped_lines,
        ratings: super::rating::ratings(&rated),
    }
}

impl Stats {
    /// The history as text: under each set of rules, one line per pair
    /// of players.
    ///
    /// ```text
    /// Rules: 6 pits × 4 seeds, capture always, single sowing, sweep to owner
    ///   Alice vs Michael: 4 rounds; Alice 2 wins, Michael 1 win, 1 draw; best margin: Alice by 12, Michael by 4.
    /// ```
    #[must_use]
    pub fn to_text(&self) -> String {
        if self.pairs.is_empty() {
            return "No finished rounds yet.\n".to_string();
        }
        let ratings = super::rating::to_text(&self.ratings);
        let mut out = String::new();
        let mut rules: Option<&str> = None;
        for pair in &self.pairs {
            if rules != Some(pair.rules.as_str()) {
                let heading = if pair.rules.is_empty() {
                    "(not recorded)"
                } else {
                    pair.rules.as_str()
                };
                out.push_str(&format!("Rules: {heading}\n"));
                rules = Some(&pair.rules);
            }
            let [a, b] = &pair.players;
            out.push_str(&format!("  {a} vs {b}: {}.\n", pair.parts().join("; ")));
        }
        out.push_str(&ratings);
        out
    }

    /// The history as JSON:
    /// `{"pairs":[{"players":["Alice","Michael"],"rules":"6 pits × 4 seeds, ...","rounds":3,"wins":[2,1],"draws":0,"best_margin":[12,4]}],"skipped_lines":0}`
    /// (`best_margin` is `null` for a player who has not won), pairs in the
    /// order of [`Stats::pairs`].
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let pairs: Vec<_> = self.pairs.iter().map(PairStats::to_json).collect();
        json!({
            "pairs": pairs,
            "skipped_lines": self.skipped_lines,
            "ratings": super::rating::to_json(&self.ratings),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KALAH: &str = "6 pits × 4 seeds, capture always, single sowing, sweep to owner";
    const SMALL: &str = "4 pits × 3 seeds, capture nonempty, single sowing, sweep to owner";

    fn line_under(rules: &str, south: &str, north: &str, s: u16, n: u16) -> String {
        serde_json::to_string(&RoundResult {
            time: 1,
            south: south.into(),
            north: north.into(),
            score: [s, n],
            rules: rules.into(),
            id: None,
            kinds: None,
        })
        .unwrap()
    }

    fn line(south: &str, north: &str, s: u16, n: u16) -> String {
        line_under(KALAH, south, north, s, n)
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
                rules: KALAH.into(),
                rounds: 4,
                wins: [2, 1],
                draws: 1,
                best_margin: [Some(12), Some(4)],
                loss: None,
            }
        );
        assert_eq!(stats.pairs[1].best_margin, [None, Some(28)]);
        let text = stats.to_text();
        assert!(
            text.starts_with(&format!("Rules: {KALAH}\n  Alice vs Michael: 4 rounds; Alice 2 wins, Michael 1 win, 1 draw; best margin: Alice by 12, Michael by 4.\n  Bob vs Carol: ")),
            "{text}"
        );
        assert_eq!(
            stats.to_json()["pairs"][1]["best_margin"],
            json!([null, 28])
        );
    }

    #[test]
    fn rules_are_kept_apart_and_names_match_whatever_their_case() {
        let text = [
            line("alice", "Michael", 30, 18),
            line_under(SMALL, "Alice", "MICHAEL", 10, 14),
            line("MICHAEL", "Alice", 20, 28),
            line_under(SMALL, "bob", "Alice", 12, 12),
            line("Alice", "alice", 24, 24),
        ]
        .join("\n");
        let stats = summarize(&text);
        assert_eq!(stats.skipped_lines, 1, "a player against themselves");
        let summary: Vec<_> = stats
            .pairs
            .iter()
            .map(|p| {
                (
                    p.players.clone(),
                    p.rules.as_str(),
                    p.rounds,
                    p.wins,
                    p.draws,
                )
            })
            .collect();
        // Each name as last written; the rules played most first.
        let names = |a: &str, b: &str| [a.to_string(), b.to_string()];
        assert_eq!(
            summary,
            [
                (names("Alice", "bob"), SMALL, 1, [0, 0], 1),
                (names("Alice", "MICHAEL"), SMALL, 1, [0, 1], 0),
                (names("Alice", "MICHAEL"), KALAH, 2, [2, 0], 0),
            ]
        );
        let text = stats.to_text();
        assert_eq!(
            text,
            format!(
                "Rules: {SMALL}\n  Alice vs bob: 1 round; Alice 0 wins, bob 0 wins, 1 draw; best margin: none.\n  Alice vs MICHAEL: 1 round; Alice 0 wins, MICHAEL 1 win, 0 draws; best margin: MICHAEL by 4.\nRules: {KALAH}\n  Alice vs MICHAEL: 2 rounds; Alice 2 wins, MICHAEL 0 wins, 0 draws; best margin: Alice by 12.\n"
            )
        );
        assert_eq!(stats.to_json()["pairs"][2]["rules"], KALAH);
    }

    #[test]
    fn rules_from_the_file_are_escaped_and_cut() {
        let text = line_under(
            &format!("\u{1b}]2;x\u{7}{}", "y".repeat(500)),
            "A",
            "B",
            1,
            0,
        );
        let stats = summarize(&text);
        let rules = &stats.pairs[0].rules;
        assert!(!rules.chars().any(crate::escape::is_unsafe_char), "{rules}");
        assert!(rules.ends_with('…'), "{rules}");
        assert!(rules.chars().count() < 2 * MAX_RULES_CHARS, "{rules}");
        assert!(
            stats.to_text().starts_with("Rules: \\u{1b}]2;x"),
            "{}",
            stats.to_text()
        );
    }

    #[test]
    fn with_the_analysis_each_player_has_a_mean_loss_whoever_sat_south() {
        let with_id = |south: &str, north: &str, id: &str| {
            let mut round: RoundResult = serde_json::from_str(&line(south, north, 20, 28)).unwrap();
            round.id = Some(id.to_string());
            serde_json::to_string(&round).unwrap()
        };
        let text = [
            with_id("Michael", "Alice", "r1"),
            with_id("Alice", "Michael", "r2"),
            with_id("Alice", "Michael", "none"),
            line("Alice", "Michael", 24, 24),
        ]
        .join("\n");
        // South's figures first, as the analysis of a record gives them.
        let mut review = |round: &RoundResult| match round.id.as_deref() {
            Some("r1") => Some(RoundLoss {
                lost: [10, 2],
                moves: [5, 4],
                estimated: [1, 0],
            }),
            Some("r2") => Some(RoundLoss {
                lost: [1, 3],
                moves: [5, 6],
                estimated: [0, 0],
            }),
            _ => None,
        };
        let stats = summarize_reviewed(&text, Some(&mut review));
        let pair = &stats.pairs[0];
        assert_eq!(pair.players, ["Alice".to_string(), "Michael".to_string()]);
        assert_eq!(
            pair.loss,
            Some(LossTally {
                analysed_rounds: 2,
                left_out: 2,
                // Alice: 2 (as North in r1) + 1, over 4 + 5 moves
                lost: [3, 13],
                moves: [9, 11],
                estimated: [0, 1],
            })
        );
        let text = stats.to_text();
        assert!(
            text.contains("; mean loss per move: Alice 0.33, Michael 1.18 (2 of 4 rounds analysed, 2 without a record left out; 1 of 20 moves estimated, not proven).\n"),
            "{text}"
        );
        let json = stats.to_json();
        let pair = &json["pairs"][0];
        assert_eq!(pair["mean_loss"][0], json!(3.0 / 9.0));
        assert_eq!(pair["estimated_moves"], json!([0, 1]));
        assert_eq!(pair["rounds_left_out"], 2);
        assert_eq!(pair["analysed_rounds"], 2);
        // Without the analysis, none of it.
        let plain = summarize(&[line("Alice", "Michael", 1, 0)].join("\n"));
        assert_eq!(plain.pairs[0].loss, None);
        assert!(!plain.to_text().contains("mean loss"));
        assert!(plain.to_json()["pairs"][0].get("mean_loss").is_none());
        // No record at all: said so.
        let mut nothing = |_: &RoundResult| None;
        let none = summarize_reviewed(&line("Alice", "Michael", 1, 0), Some(&mut nothing));
        assert!(
            none.to_text()
                .contains("mean loss per move: not known (no record of the round found)"),
            "{}",
            none.to_text()
        );
    }

    /// A finished round against a level is written with who played, and
    /// the person's rating comes from it; old lines (no `kinds`) still
    /// read and rate nobody.
    #[test]
    fn a_round_against_a_level_rates_the_person() {
        use crate::game::{FirstMover, MatchConfig, Seat};
        use crate::players::PlayerKind;
        use crate::rules::{NoTrace, Rules};
        let mut m = Match::new(
            MatchConfig {
                game: crate::rules::Game::Kalah,
                rules: Rules::KALAH,
                seats: [
                    Seat::new("Alice", PlayerKind::Human),
                    Seat::new("Computer (level 3)", PlayerKind::Level(3)),
                ],
                first: FirstMover::South,
                start: None,
            },
            1,
        );
        while m.outcome().is_none() {
            let pit = m.board().legal_moves().next().unwrap();
            m.play(pit, &mut NoTrace).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.jsonl");
        append_round(&path, &m, 5, None).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""kinds":["human","level:3"]"#), "{text}");
        let stats = read(&path).unwrap();
        assert_eq!(stats.ratings.len(), 1);
        assert_eq!(stats.ratings[0].0, "Alice");
        assert_eq!(stats.ratings[0].1.rounds, 1);
        assert!(stats.to_text().contains("Alice: "), "{}", stats.to_text());
        assert_eq!(stats.to_json()["ratings"][0]["name"], "Alice");
        let old = summarize(&line("Alice", "Michael", 30, 18));
        assert!(old.ratings.is_empty() && old.skipped_lines == 0);
    }
}
