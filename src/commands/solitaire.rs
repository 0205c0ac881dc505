//! `mancala solitaire`: Solitaire Mancala, planned as JSON or played on
//! the screen.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::json;

use crate::cli::SolitaireCmd;
use crate::rng::Rng;
use crate::rules::solitaire::{Board, deal};
use crate::solitaire;

use super::UsageError;

/// The most seeds `--seeds` deals: 5,604 houses, planned in about 0.2 s.
pub const MAX_DEAL_SEEDS: u64 = 10_000_000;

/// The board a [`SolitaireCmd`] asks for: `--board`, `--seeds`, or a
/// random winnable board of 10 to 40 seeds.
///
/// # Errors
/// A [`UsageError`] naming the bad item or count.
pub fn solitaire_board(cmd: &SolitaireCmd, rng: &mut Rng) -> anyhow::Result<Board> {
    match (&cmd.board, &cmd.seeds) {
        (Some(text), _) => {
            let counts = parse_solitaire_counts(text).map_err(UsageError)?;
            Ok(Board::from_counts(&counts).map_err(|e| UsageError(e.to_string()))?)
        }
        (None, Some(text)) => Ok(deal(parse_seed_count(text).map_err(UsageError)?)),
        (None, None) => Ok(solitaire::deal_random(rng)),
    }
}

/// Reads `--board`: counts separated by commas, the store first.
///
/// # Errors
/// A message naming the first item that is not a count.
pub fn parse_solitaire_counts(text: &str) -> Result<Vec<u64>, String> {
    if text.trim().is_empty() {
        return Err(
            "--board is empty: give the store's count, then houses 1, 2, 3, ... (like 0,1,1,3)"
                .into(),
        );
    }
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            let what = if i == 0 {
                "the store".to_string()
            } else {
                format!("house {i}")
            };
            parse_count(item)
                .map_err(|why| format!("--board item {} ('{item}', {what}) {why}", i + 1))
        })
        .collect()
}

/// Reads `--seeds`: a whole number from 1 to [`MAX_DEAL_SEEDS`].
///
/// # Errors
/// A message saying what is wrong with it.
pub fn parse_seed_count(text: &str) -> Result<u64, String> {
    let text = text.trim();
    match parse_count(text) {
        Ok(0) => Err("--seeds 0: deal at least 1 seed".into()),
        Ok(n) if n > MAX_DEAL_SEEDS => Err(format!(
            "--seeds {n}: at most {MAX_DEAL_SEEDS} seeds can be dealt"
        )),
        Ok(n) => Ok(n),
        Err(why) if why.starts_with("is negative") => {
            Err(format!("--seeds {text} is negative: deal at least 1 seed"))
        }
        Err(why) => Err(format!("--seeds '{text}' {why}")),
    }
}

fn parse_count(item: &str) -> Result<u64, String> {
    if item.is_empty() {
        return Err("is missing: expected a count of seeds".into());
    }
    if item.starts_with('-') && item[1..].chars().all(|c| c.is_ascii_digit()) && item.len() > 1 {
        return Err("is negative: a count of seeds is 0 or more".into());
    }
    if item.chars().all(|c| c.is_ascii_digit()) {
        return item
            .parse::<u64>()
            .map_err(|_| format!("is too large: at most {}", u64::MAX));
    }
    Err("is not a number: expected a count of seeds like 3".into())
}

/// The JSON object `mancala solitaire --plan` prints:
/// `{"board":[...],"moves":[...],"won":true,"final":[...]}`, boards listed
/// store first as in `--board`.
#[must_use]
pub fn plan_json(board: &Board) -> serde_json::Value {
    let plan = board.plan();
    json!({
        "board": board.counts(),
        "moves": plan.moves,
        "won": plan.won(),
        "final": plan.end.counts(),
    })
}

/// Runs `mancala solitaire`.
///
/// # Errors
/// A [`UsageError`] for bad options; a failure without a terminal (unless
/// `--plan`) or when the terminal fails.
pub fn run(cmd: &SolitaireCmd) -> anyhow::Result<ExitCode> {
    let mut rng = Rng::from_entropy();
    let board = solitaire_board(cmd, &mut rng)?;
    if cmd.plan {
        println!("{}", plan_json(&board));
        return Ok(ExitCode::SUCCESS);
    }
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        anyhow::bail!(
            "the solitaire game needs a terminal for standard input and output; \
             use --plan to print the planned moves as JSON"
        );
    }
    let seed_delay = (!cmd.no_animation).then(|| Duration::from_millis(cmd.speed));
    solitaire::run(board, seed_delay, rng)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_and_bad_items_are_named() {
        assert_eq!(parse_solitaire_counts(" 0, 1,1 ,3"), Ok(vec![0, 1, 1, 3]));
        assert_eq!(
            parse_solitaire_counts("0,-1,2").unwrap_err(),
            "--board item 2 ('-1', house 1) is negative: a count of seeds is 0 or more"
        );
        assert_eq!(
            parse_solitaire_counts("x,1").unwrap_err(),
            "--board item 1 ('x', the store) is not a number: expected a count of seeds like 3"
        );
        assert!(
            parse_solitaire_counts("0,,1")
                .unwrap_err()
                .contains("item 2 ('', house 1) is missing")
        );
        assert!(
            parse_solitaire_counts("  ")
                .unwrap_err()
                .starts_with("--board is empty")
        );
        assert!(
            parse_solitaire_counts("0,99999999999999999999")
                .unwrap_err()
                .contains("too large")
        );
    }

    #[test]
    fn seed_counts_parse_within_range() {
        assert_eq!(parse_seed_count("12"), Ok(12));
        assert_eq!(parse_seed_count("10000000"), Ok(MAX_DEAL_SEEDS));
        assert!(parse_seed_count("0").unwrap_err().contains("at least 1"));
        assert!(
            parse_seed_count("10000001")
                .unwrap_err()
                .contains("at most")
        );
        assert!(parse_seed_count("-3").unwrap_err().contains("negative"));
        assert!(
            parse_seed_count("abc")
                .unwrap_err()
                .contains("not a number")
        );
        assert!(
            parse_seed_count("1.5")
                .unwrap_err()
                .contains("not a number")
        );
    }

    #[test]
    fn plan_json_lists_board_moves_outcome_and_final_board() {
        let board = Board::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap();
        assert_eq!(
            plan_json(&board).to_string(),
            r#"{"board":[0,1,1,3,0,0,0],"moves":[1,3,1,2,1],"won":true,"final":[5,0,0,0,0,0,0]}"#
        );
    }
}
