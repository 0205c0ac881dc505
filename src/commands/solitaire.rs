//! `mancala solitaire`: Solitaire Mancala, planned as JSON or played on
//! the screen.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::{SolitaireCmd, parse_count, parse_counts};
use crate::rng::Rng;
use crate::rules::solitaire::{SolitaireBoard, deal};
use crate::tui::solitaire;

use super::UsageError;

/// The most seeds `--seeds` deals: 5,604 houses, planned in about 0.2 s.
pub const MAX_DEAL_SEEDS: u64 = 10_000_000;

/// The board a [`SolitaireCmd`] asks for: `--board`, `--seeds`, or a
/// random winnable board of 10 to 40 seeds.
///
/// # Errors
/// A [`UsageError`] naming the bad item or count.
pub fn solitaire_board(cmd: &SolitaireCmd, rng: &mut Rng) -> anyhow::Result<SolitaireBoard> {
    match (&cmd.board, &cmd.seeds) {
        (Some(text), _) => {
            let counts =
                parse_counts::<u64>(text, "--board").map_err(|e| UsageError(e.to_string()))?;
            let board =
                SolitaireBoard::from_counts(&counts).map_err(|e| UsageError(e.to_string()))?;
            // The plan's size grows with the seeds: the same bound as a deal.
            let total: u64 = counts.iter().sum();
            if total > MAX_DEAL_SEEDS {
                return super::usage(format!(
                    "--board holds too many seeds ({total}): at most {MAX_DEAL_SEEDS} seeds in all"
                ));
            }
            Ok(board)
        }
        (None, Some(text)) => Ok(deal(parse_seed_count(text).map_err(UsageError)?)),
        (None, None) => Ok(solitaire::deal_random(rng)),
    }
}

/// Reads `--seeds`: a whole number from 1 to [`MAX_DEAL_SEEDS`].
///
/// # Errors
/// A message saying what is wrong with it, worded as for every count.
pub fn parse_seed_count(text: &str) -> Result<u64, String> {
    match parse_count::<u64>(text, "--seeds") {
        Ok(0) => Err("--seeds 0: deal at least 1 seed".into()),
        Ok(n) if n > MAX_DEAL_SEEDS => Err(format!(
            "--seeds {n}: at most {MAX_DEAL_SEEDS} seeds can be dealt"
        )),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// Writes the JSON object `mancala solitaire --plan` prints,
/// `{"board":[...],"moves":[...],"won":true,"final":[...]}` (boards listed
/// store first as in `--board`), and a line break to
/// `out`, each move as it is found: the memory it takes is the board's,
/// however many moves there are (ten million for the largest deal).
///
/// # Errors
/// Any failure to write.
pub fn write_plan(board: &SolitaireBoard, out: &mut impl Write) -> io::Result<()> {
    out.write_all(b"{\"board\":")?;
    serde_json::to_writer(&mut *out, board.counts())?;
    out.write_all(b",\"moves\":[")?;
    let mut planned = board.plan_moves();
    if let Some(first) = planned.next() {
        write!(out, "{first}")?;
        for house in planned.by_ref() {
            write!(out, ",{house}")?;
        }
    }
    let end = planned.end();
    write!(out, "],\"won\":{},\"final\":", end.is_won())?;
    serde_json::to_writer(&mut *out, end.counts())?;
    out.write_all(b"}\n")
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
        let mut out = io::BufWriter::new(io::stdout().lock());
        write_plan(&board, &mut out)
            .and_then(|()| out.flush())
            .map_err(super::output::OutputError)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        anyhow::bail!(
            "the solitaire game needs a terminal for standard input and output; \
             use --plan to print the planned moves as JSON"
        );
    }
    solitaire::run(board, cmd.speed.given(), rng)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let board = SolitaireBoard::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap();
        let mut text = Vec::new();
        write_plan(&board, &mut text).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "{\"board\":[0,1,1,3,0,0,0],\"moves\":[1,3,1,2,1],\"won\":true,\"final\":[5,0,0,0,0,0,0]}\n"
        );
    }
}
