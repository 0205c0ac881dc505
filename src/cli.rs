//! The command line, in one place: every command, option and value check.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::game::FirstMover;
use crate::players::PlayerKind;
use crate::rules::{Capture, MAX_PITS, MAX_SEEDS, Pit, Rules, Side, Sowing, Sweep, Variant};

/// Mancala (Kalah) in the terminal.
///
/// `mancala Alice Michael` starts a game for two people at one keyboard.
/// Give a seat to the computer with `--north hard` (or `--south ...`).
#[derive(Debug, Parser)]
#[command(
    name = "mancala",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A headless or alternative command; without one, a match is played.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The options of a match.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Headless and alternative commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a position as JSON, after playing a list of moves.
    Position(PositionCmd),
    /// Solve a position: its value under perfect play and every best move, as JSON.
    Solve(PositionCmd),
    /// Play rounds between two computer players and report the results.
    Arena(ArenaCmd),
    /// Solitaire Mancala (Tchoukaillon): bring every seed into the store.
    Solitaire(SolitaireCmd),
    /// Replay a recorded round on screen.
    Replay(ReplayCmd),
    /// Show the match history of every pair of names.
    Stats(StatsCmd),
}

/// Options of a match between two seats.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// South's name (bottom row; moves first in round 1).
    #[arg(value_name = "SOUTH_NAME")]
    pub south_name: Option<String>,
    /// North's name (top row).
    #[arg(value_name = "NORTH_NAME")]
    pub north_name: Option<String>,
    /// Who plays South: human, random, greedy, tree:N, easy, medium, hard or perfect.
    #[arg(long, value_name = "KIND", default_value = "human")]
    pub south: PlayerKind,
    /// Who plays North: human, random, greedy, tree:N, easy, medium, hard or perfect.
    #[arg(long, value_name = "KIND", default_value = "human")]
    pub north: PlayerKind,
    /// Who starts each round: south, north, alternate or random.
    #[arg(long, value_name = "WHO", default_value = "alternate")]
    pub first: FirstMover,
    /// Milliseconds between two seeds of the sowing animation.
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = clap::value_parser!(u64).range(0..=5000))]
    pub speed: u64,
    /// Show each move at once, without animation.
    #[arg(long)]
    pub no_animation: bool,
    /// Milliseconds a computer player may think per move.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub think: u64,
    /// Play line by line instead of full screen (automatic without a terminal).
    #[arg(long)]
    pub plain: bool,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl PlayArgs {
    /// The two seats' names: given names, else the computer's level, else
    /// "South" and "North".
    #[must_use]
    pub fn names(&self) -> [String; 2] {
        let name = |given: &Option<String>, kind: PlayerKind, side: Side| match given {
            Some(n) if !n.trim().is_empty() => n.trim().to_string(),
            _ if kind.is_human() => side.to_string(),
            _ => format!("Computer ({kind})"),
        };
        [
            name(&self.south_name, self.south, Side::South),
            name(&self.north_name, self.north, Side::North),
        ]
    }
}

/// The rule options, shared by every command that plays Mancala.
#[derive(Debug, Args, Clone, Default)]
pub struct RuleArgs {
    /// A preset: kalah (default) or avalanche; the options below override it.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<Variant>,
    /// Pits per side (1 to 12).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=MAX_PITS as i64))]
    pub pits: Option<u8>,
    /// Seeds per pit at the start (1 to 20).
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u8).range(1..=MAX_SEEDS as i64))]
    pub seeds: Option<u8>,
    /// Capture rule: always, nonempty or never.
    #[arg(long, value_name = "RULE")]
    pub capture: Option<Capture>,
    /// Sowing rule: single or relay.
    #[arg(long, value_name = "RULE")]
    pub sowing: Option<Sowing>,
    /// End-of-game sweep: owner or none.
    #[arg(long, value_name = "RULE")]
    pub sweep: Option<Sweep>,
}

impl RuleArgs {
    /// The rules these options describe.
    ///
    /// # Errors
    /// A message when the combination is not playable.
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = self.variant.unwrap_or(Variant::Kalah).rules();
        if let Some(p) = self.pits {
            rules = rules.with_pits(p.into()).map_err(|e| e.to_string())?;
        }
        if let Some(s) = self.seeds {
            rules = rules.with_seeds(s.into()).map_err(|e| e.to_string())?;
        }
        if let Some(c) = self.capture {
            rules = rules.with_capture(c);
        }
        if let Some(s) = self.sowing {
            rules = rules.with_sowing(s);
        }
        if let Some(s) = self.sweep {
            rules = rules.with_sweep(s);
        }
        Ok(rules)
    }
}

/// A position given on the command line: rules, counts, side to move, moves.
#[derive(Debug, Args, Clone)]
pub struct PositionCmd {
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Counts of all 2N+2 places: South's pits, South's store, North's pits, North's store.
    #[arg(long, value_name = "C0,C1,...", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Who moves first from this position: south or north.
    #[arg(long, value_name = "SIDE", default_value = "south")]
    pub to_move: Side,
    /// Moves to play first, as pit letters in playing order: a,h,c,...
    #[arg(long, value_name = "a,h,c,...", allow_hyphen_values = true)]
    pub moves: Option<String>,
}

/// Options of `mancala arena`.
#[derive(Debug, Args)]
pub struct ArenaCmd {
    /// Player A.
    #[arg(value_name = "KIND_A")]
    pub a: PlayerKind,
    /// Player B.
    #[arg(value_name = "KIND_B")]
    pub b: PlayerKind,
    /// Rounds to play; A and B take turns to start.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rounds: u32,
    /// Seed for the random choices, so that a run can be repeated.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds per move for searching players.
    #[arg(long, value_name = "MS", conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub think: Option<u64>,
    /// Positions per move for searching players (repeatable results).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Options of `mancala solitaire`.
#[derive(Debug, Args)]
pub struct SolitaireCmd {
    /// The board: the store first, then houses 1, 2, 3, ... (doc 003's list).
    #[arg(
        long,
        value_name = "S,H1,H2,...",
        conflicts_with = "seeds",
        allow_hyphen_values = true
    )]
    pub board: Option<String>,
    /// Deal the one winnable board of this many seeds (1 to 10,000,000).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seeds: Option<String>,
    /// Print the planned moves as JSON instead of playing.
    #[arg(long)]
    pub plan: bool,
    /// Milliseconds between two seeds of the sowing animation.
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = clap::value_parser!(u64).range(0..=5000))]
    pub speed: u64,
    /// Show each move at once, without animation.
    #[arg(long)]
    pub no_animation: bool,
}

/// Options of `mancala replay`.
#[derive(Debug, Args)]
pub struct ReplayCmd {
    /// A game record written by mancala.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Milliseconds between two seeds of the sowing animation.
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = clap::value_parser!(u64).range(0..=5000))]
    pub speed: u64,
    /// Show each move at once, without animation.
    #[arg(long)]
    pub no_animation: bool,
    /// Print the replay line by line instead of full screen.
    #[arg(long)]
    pub plain: bool,
}

/// Options of `mancala stats`.
#[derive(Debug, Args)]
pub struct StatsCmd {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Reads a comma-separated list of counts (`4,4,0,...`).
///
/// # Errors
/// A message naming the first item that is not a count.
pub fn parse_counts(text: &str) -> Result<Vec<u16>, String> {
    if text.trim().is_empty() {
        return Err("the board is empty".to_string());
    }
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            item.parse::<u16>().map_err(|_| {
                format!(
                    "board item {} ('{item}') is not a count of seeds (0 to {})",
                    i + 1,
                    u16::MAX
                )
            })
        })
        .collect()
}

/// Reads a comma-separated list of pit letters (`a,h,c`), or an empty list.
///
/// # Errors
/// A message naming the first item that is not a pit letter of these rules.
pub fn parse_moves(text: &str, rules: &Rules) -> Result<Vec<Pit>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            let mut chars = item.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => rules.pit_by_letter(c),
                _ => None,
            }
            .ok_or_else(|| {
                format!(
                    "move {} ('{item}') is not a pit letter (a to {})",
                    i + 1,
                    (b'a' + 2 * rules.pits() as u8 - 1) as char
                )
            })
        })
        .collect()
}
