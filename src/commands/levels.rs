//! `mancala levels`: the computer's levels and their measured ratings.

use serde_json::json;

use crate::cli::LevelsCmd;
use crate::players::ladder::{self, Ladder};
use crate::players::level::{self, MAX_LEVEL};

/// How a level plays, in a few words.
fn describe(level: u8) -> String {
    match level::style(level) {
        Some(style) => format!(
            "looks {} {} ahead; slips of 1 seed {:.0}% as likely as the best move, never loses more than {}",
            style.depth,
            if style.depth == 1 { "move" } else { "moves" },
            100.0 * (-1.0 / style.temperature).exp(),
            style.cap
        ),
        None if level == MAX_LEVEL => "perfect play (the exact solver)".to_string(),
        None => String::new(),
    }
}

/// The table as text.
#[must_use]
pub fn text(ladder: &Ladder) -> String {
    let mut out = String::from("level  rating         gap to the level below\n");
    for rung in &ladder.levels {
        let gap = if rung.level == 1 {
            String::new()
        } else {
            format!("{:+.0} ± {:.0}", rung.gap, rung.gap_interval)
        };
        out += &format!(
            "{:>5}  {:>5.0} ± {:<4.0}  {:<12}  {}\n",
            rung.level,
            rung.rating,
            rung.interval,
            gap,
            describe(rung.level)
        );
    }
    out += &format!(
        "\nRatings (Elo, 95% intervals, level 1 at {:.0}) measured in {} rounds per pair of levels on {}: {}",
        ladder.anchor,
        ladder.rounds_per_pair,
        ladder.boards.join(" and "),
        ladder.command
    );
    out
}

/// The table as JSON: a list of objects, weakest level first.
#[must_use]
pub fn json(ladder: &Ladder) -> serde_json::Value {
    ladder
        .levels
        .iter()
        .map(|r| {
            json!({
                "level": r.level,
                "rating": r.rating.round() as i64,
                "interval": r.interval.round() as i64,
                "gap": r.gap.round() as i64,
                "gap_interval": r.gap_interval.round() as i64,
                "kind": format!("level:{}", r.level),
                "plays": describe(r.level),
            })
        })
        .collect()
}

/// Runs `mancala levels`.
///
/// # Errors
/// Only a failed write.
pub fn run(cmd: &LevelsCmd) -> anyhow::Result<()> {
    let ladder = ladder::table();
    if cmd.json {
        super::output::emit_line(json(ladder))?;
    } else {
        super::output::emit_line(text(ladder))?;
    }
    Ok(())
}
