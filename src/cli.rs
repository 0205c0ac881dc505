//! The command line, in one place: every command, option and value check.

use std::marker::PhantomData;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Parser, Subcommand};

use crate::game::{DEFAULT_SPEED_MS, FirstMover};
use crate::players::PlayerKind;
use crate::rules::{Capture, Game, MAX_PITS, MAX_SEEDS, Rules, Side, Sowing, Sweep, Variant};

/// Mancala in the terminal: Kalah, and Oware (Abapa) with `--game oware`.
///
/// `mancala Alice Michael` starts a game for two people at one keyboard.
/// Give a seat to the computer with `--north hard` (or `--south ...`).
#[derive(Debug, Parser)]
#[command(
    name = "mancala",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = ENVIRONMENT
)]
pub struct Cli {
    /// A headless or alternative command; without one, a match is played.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The options of a match.
    #[command(flatten)]
    pub play: PlayArgs,
}

impl Cli {
    /// The `--oware-db` given to the command run, if any.
    #[must_use]
    pub fn oware_db(&self) -> Option<u8> {
        match &self.command {
            None => self.play.oware_db.oware_db,
            Some(Command::Solve(cmd)) => cmd.oware_db.oware_db,
            Some(Command::Engine(cmd)) => cmd.oware_db.oware_db,
            Some(_) => None,
        }
    }
}

/// The environment variables `mancala --help` names.
const ENVIRONMENT: &str = "Environment:
  MANCALA_DATA_DIR    where saves, records and statistics are kept
                      (default: $XDG_DATA_HOME/mancala, else ~/.local/share/mancala)
  MANCALA_CONFIG_DIR  where preferences are kept
                      (default: the system's configuration folder, ~/.config/mancala on Linux)
  NO_COLOR            when set, no colours are used";

/// Headless and alternative commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a position as JSON (or one line), after playing a list of moves.
    Position(ShowPositionCmd),
    /// Solve a position: its value under perfect play and every best move, as JSON.
    Solve(SolveCmd),
    /// Play rounds between two computer players and report the results.
    Arena(ArenaCmd),
    /// The computer's levels and their measured ratings (level:1 to level:10).
    Levels(LevelsCmd),
    /// Solitaire Mancala (Tchoukaillon): bring every seed into the store.
    Solitaire(SolitaireCmd),
    /// Replay a recorded round on screen.
    Replay(ReplayCmd),
    /// Analyse a recorded round: every move's value under perfect play and what it lost.
    Analyze(AnalyzeCmd),
    /// Puzzles: find the best move where your own rounds went wrong, and in built-in positions.
    Puzzle(PuzzleCmd),
    /// Show the match history of every pair of players, under each set of rules.
    Stats(StatsCmd),
    /// Host a match for a friend on another machine (shows how to join).
    Host(HostCmd),
    /// Join a friend's match: mancala join ADDRESS --code CODE NAME.
    Join(JoinCmd),
    /// Play as an engine over the UCI-style protocol Aualé speaks (Oware; Kalah by setoption).
    Engine(EngineCmd),
    /// Print a shell completion script: `mancala completions bash > ...`.
    Completions(CompletionsCmd),
}

/// Options of `mancala engine`: none (the protocol's `setoption` sets
/// them; the Oware endgame database is the one kept in the data
/// directory).
#[derive(Debug, Args)]
pub struct EngineCmd {
    /// How far Oware's endgame database is grown.
    #[command(flatten)]
    pub oware_db: OwareDbArg,
}

/// `--oware-db N`, on the commands that play or solve Oware.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct OwareDbArg {
    /// Oware's endgame database to N seeds on the board (default 18, at most 24), kept in the data directory: a game and the engine grow it that far, `solve` reads that far of what is kept (without it, every count kept: counts grown further once stay in use). It grows once, a seed count at a time, on one core at low priority: no game waits for it, and a game reads only its values (a few MB). Past 18 each count costs more than the one before: 19 about 1 minute of CPU and 110 MB of disk, 20 about 2 minutes, 170 MB and 0.7 GB of memory while it builds; to 24, 23 minutes of CPU from 18 and 1.5 GB of disk more, 3.5 GB of memory while count 24 builds (measured: 48 minutes of wall time from nothing, beside other work on a 2-core machine; docs/PERFORMANCE.md).
    #[arg(long = "oware-db", value_name = "N", value_parser = clap::value_parser!(u8).range(0..=24))]
    pub oware_db: Option<u8>,
}

/// Options of `mancala completions`.
#[derive(Debug, Args)]
pub struct CompletionsCmd {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: CompletionShell,
}

/// The shells `mancala completions` writes scripts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CompletionShell {
    /// Bash: save as `~/.local/share/bash-completion/completions/mancala`.
    Bash,
    /// Zsh: save as `_mancala` in a folder of `$fpath`.
    Zsh,
    /// Fish: save as `~/.config/fish/completions/mancala.fish`.
    Fish,
}

/// Options of a match between two seats.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// South's name (bottom row; moves first in round 1 unless --first says otherwise).
    #[arg(value_name = "SOUTH_NAME")]
    pub south_name: Option<String>,
    /// North's name (top row).
    #[arg(value_name = "NORTH_NAME")]
    pub north_name: Option<String>,
    /// Who plays South: human, random, greedy, tree:N, easy, medium, hard, perfect, level:N (1 to 10, 10 is perfect; ratings: mancala levels) or level:auto (nearest your rating). Perfect (level:10) holds about 110 MB on 6x4, with the round's analysis (one endgame database and table for the players, the hints and the analysis), and, against a person, thinks on both cores while they do, until the positions ahead are proven (on 6x4 about 15 to 20 s after most of its moves, and a minute or more after its first reply past the opening book, on a busy 2-core machine); the other levels a few MB and no time between moves.
    #[arg(long, value_name = "KIND", default_value = "human", hide_possible_values = true, value_parser = Choices::players())]
    pub south: PlayerKind,
    /// Who plays North: human, random, greedy, tree:N, easy, medium, hard, perfect, level:N (1 to 10, 10 is perfect; ratings: mancala levels) or level:auto (nearest your rating). Perfect (level:10) holds about 110 MB on 6x4, with the round's analysis (one endgame database and table for the players, the hints and the analysis), and, against a person, thinks on both cores while they do, until the positions ahead are proven (on 6x4 about 15 to 20 s after most of its moves, and a minute or more after its first reply past the opening book, on a busy 2-core machine); the other levels a few MB and no time between moves.
    #[arg(long, value_name = "KIND", default_value = "human", hide_possible_values = true, value_parser = Choices::players())]
    pub north: PlayerKind,
    /// Who starts each round: south, north, alternate or random.
    #[arg(long, value_name = "WHO", default_value = "alternate", hide_possible_values = true, value_parser = Choices::<FirstMover>::new(FIRST_MOVERS))]
    pub first: FirstMover,
    /// The sowing animation's speed.
    #[command(flatten)]
    pub speed: SpeedArgs,
    /// Milliseconds a computer player may think per move.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub think: u64,
    /// Play line by line instead of full screen (automatic without a terminal).
    #[arg(long)]
    pub plain: bool,
    /// The game: kalah (default) or oware (Abapa, RULES.md §7).
    #[arg(long, value_name = "GAME", default_value = "kalah", hide_possible_values = true, value_parser = Choices::<Game>::new(&["kalah", "oware"]))]
    pub game: Game,
    /// How far Oware's endgame database is grown.
    #[command(flatten)]
    pub oware_db: OwareDbArg,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Play on from this position, in the one-line notation (RULES.md §8),
    /// as `mancala position --format line` prints it: its game and rules
    /// are the position's own, and its side to move starts every round.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub from: Option<String>,
    /// The pie rule: when the first player's first turn ends, the other
    /// player may swap sides and take that position (answer `swap`, or `w`
    /// on the full screen), or play on from their own.
    #[arg(long)]
    pub swap: bool,
    /// Start every round from a fair position: one or two seeds moved from
    /// the usual start, proven a draw under perfect play (boards the solver
    /// proves within seconds; as `mancala position --fair` deals them).
    #[arg(long, conflicts_with = "from")]
    pub fair: bool,
}

impl PlayArgs {
    /// The names given on the command line, trimmed. A blank one stays
    /// given (and is refused where names are checked): taken as none, it
    /// silently made a computer opponent or a person called South.
    fn given_names(&self) -> [Option<String>; 2] {
        let given = |name: &Option<String>| name.as_deref().map(str::trim).map(str::to_string);
        [given(&self.south_name), given(&self.north_name)]
    }

    /// South's and North's kinds of player. One name and no computer
    /// (`mancala Alice`) is a person against the computer at the level
    /// nearest the person's rating (`level:auto`): nobody else was named
    /// to play.
    #[must_use]
    pub fn kinds(&self) -> [PlayerKind; 2] {
        let names = self.given_names();
        if matches!(names, [Some(_), None]) && self.south.is_human() && self.north.is_human() {
            return [self.south, PlayerKind::AutoLevel];
        }
        [self.south, self.north]
    }

    /// The two seats' names, with the seats played by `kinds` (`level:auto`
    /// resolved to its level): given names, else the computer's level
    /// with its measured rating ("Computer (level 4, ~1350)"), else
    /// "South" and "North". One name given for a person against a
    /// computer is the person's, whichever seat the computer has:
    /// `--south hard Michael` is "Computer (hard)" against Michael.
    #[must_use]
    pub fn names_for(&self, kinds: [PlayerKind; 2]) -> [String; 2] {
        let mut names = self.given_names();
        if names[1].is_none() && !kinds[0].is_human() && kinds[1].is_human() {
            names.swap(0, 1);
        }
        let name = |given: Option<String>, kind: PlayerKind, side: Side| match given {
            Some(n) => n,
            None if kind.is_human() => side.to_string(),
            None => match kind {
                PlayerKind::Level(n) => match crate::players::ladder::rating(n) {
                    Some(rating) => format!("Computer (level {n}, ~{rating})"),
                    None => format!("Computer (level {n})"),
                },
                _ => format!("Computer ({kind})"),
            },
        };
        let [south, north] = names;
        [
            name(south, kinds[0], Side::South),
            name(north, kinds[1], Side::North),
        ]
    }
}

/// The rule options, shared by every command that plays Mancala.
#[derive(Debug, Args, Clone, Default)]
pub struct RuleArgs {
    /// A preset: kalah (default) or avalanche; the options below override it.
    #[arg(long, value_name = "NAME", hide_possible_values = true, value_parser = Choices::<Variant>::new(&["kalah", "avalanche"]))]
    pub variant: Option<Variant>,
    /// Pits per side (1 to 12).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u8).range(1..=MAX_PITS as i64))]
    pub pits: Option<u8>,
    /// Seeds per pit at the start (1 to 20).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = clap::value_parser!(u8).range(1..=MAX_SEEDS as i64))]
    pub seeds: Option<u8>,
    /// Capture rule: always, nonempty or never.
    #[arg(long, value_name = "RULE", hide_possible_values = true, value_parser = Choices::<Capture>::new(&["always", "nonempty", "never"]))]
    pub capture: Option<Capture>,
    /// Sowing rule: single or relay.
    #[arg(long, value_name = "RULE", hide_possible_values = true, value_parser = Choices::<Sowing>::new(&["single", "relay"]))]
    pub sowing: Option<Sowing>,
    /// End-of-game sweep: owner or none.
    #[arg(long, value_name = "RULE", hide_possible_values = true, value_parser = Choices::<Sweep>::new(&["owner", "none"]))]
    pub sweep: Option<Sweep>,
}

impl RuleArgs {
    /// Whether any rule option was given.
    #[must_use]
    pub fn any_given(&self) -> bool {
        self.variant.is_some()
            || self.pits.is_some()
            || self.seeds.is_some()
            || self.capture.is_some()
            || self.sowing.is_some()
            || self.sweep.is_some()
    }

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
    /// The game: kalah (default) or oware (Abapa).
    #[arg(long, value_name = "GAME", default_value = "kalah", hide_possible_values = true, value_parser = Choices::<Game>::new(&["kalah", "oware"]))]
    pub game: Game,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Counts of all 2N+2 places: South's pits, South's store, North's pits,
    /// North's store (Oware: the twelve houses a-l).
    #[arg(long, value_name = "C0,C1,...", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Who moves first from this position: south or north.
    #[arg(long, value_name = "SIDE", default_value = "south", hide_possible_values = true, value_parser = Choices::<Side>::new(&["south", "north"]))]
    pub to_move: Side,
    /// Start from a fair position instead: one or two seeds moved from the
    /// usual start, proven a draw under perfect play (dealt by --seed).
    #[arg(long, conflicts_with = "board")]
    pub fair: bool,
    /// With --fair: which fair position to deal (the same seed, the same position).
    #[arg(
        long,
        value_name = "K",
        requires = "fair",
        allow_negative_numbers = true,
        default_value_t = 1
    )]
    pub seed: u64,
    /// Moves to play first, as pit letters in playing order: a,h,c,...
    #[arg(long, value_name = "a,h,c,...", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Oware: the seeds each side has captured, South's then North's.
    #[arg(long, value_name = "S,N", allow_hyphen_values = true)]
    pub score: Option<String>,
    /// Diagnostic (Oware): one line for the start and after every move,
    /// with the legal moves, for checking the rules against another program.
    #[arg(long, hide = true)]
    pub each: bool,
    /// Start from this position, in the one-line notation (RULES.md §8):
    /// "kalah 6x4 S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south" or "oware
    /// S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south". Its game and rules are the
    /// position's own.
    #[arg(
        long,
        value_name = "POSITION",
        allow_hyphen_values = true,
        conflicts_with = "board"
    )]
    pub from: Option<String>,
}

/// Options of `mancala position`.
#[derive(Debug, Args)]
pub struct ShowPositionCmd {
    /// The position.
    #[command(flatten)]
    pub position: PositionCmd,
    /// How to print it: json (default) or line (the one-line notation, RULES.md §8).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = PositionFormat::Json, hide_possible_values = true)]
    pub format: PositionFormat,
}

/// How `mancala position` prints a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PositionFormat {
    /// One JSON object.
    Json,
    /// The one-line notation (RULES.md §8), of Kalah or Oware.
    Line,
}

/// Options of `mancala solve`.
#[derive(Debug, Args)]
pub struct SolveCmd {
    /// The position.
    #[command(flatten)]
    pub position: PositionCmd,
    /// Megabytes the solver may use for its table and endgame database.
    #[arg(long, value_name = "MB", allow_negative_numbers = true, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub memory: u64,
    /// Search threads (default: every core, at most 4; 1 gives repeatable node counts).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: Option<u64>,
    /// Stop after this many milliseconds and report the bounds proven so far.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub think: Option<u64>,
    /// Stop after this many positions and report the bounds proven so far.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// How far Oware's endgame database is read (solve grows nothing).
    #[command(flatten)]
    pub oware_db: OwareDbArg,
}

/// Options of `mancala arena`.
#[derive(Debug, Args)]
pub struct ArenaCmd {
    /// Player A.
    #[arg(value_name = "KIND_A", hide_possible_values = true, value_parser = Choices::players())]
    pub a: PlayerKind,
    /// Player B.
    #[arg(value_name = "KIND_B", hide_possible_values = true, value_parser = Choices::players())]
    pub b: PlayerKind,
    /// Rounds to play; A and B take turns to start.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rounds: u32,
    /// Seed for the random choices, so that a run can be repeated.
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 1
    )]
    pub seed: u64,
    /// Milliseconds per move for searching players.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub think: Option<u64>,
    /// Positions per move for searching players (repeatable results).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// The game: kalah (default) or oware (Abapa).
    #[arg(long, value_name = "GAME", default_value = "kalah", hide_possible_values = true, value_parser = Choices::<Game>::new(&["kalah", "oware"]))]
    pub game: Game,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Options of `mancala levels`.
#[derive(Debug, Args)]
pub struct LevelsCmd {
    /// Print JSON: a list of objects with level, rating and its interval.
    #[arg(long)]
    pub json: bool,
}

/// Options of `mancala solitaire`.
#[derive(Debug, Args)]
pub struct SolitaireCmd {
    /// The board: the store first, then houses 1, 2, 3, ... (RULES.md §6.1).
    #[arg(
        long,
        value_name = "S,H1,H2,...",
        conflicts_with = "seeds",
        allow_hyphen_values = true
    )]
    pub board: Option<String>,
    /// Deal the one winnable board of this many seeds (1 to 10,000,000).
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        allow_hyphen_values = true
    )]
    pub seeds: Option<String>,
    /// Print the planned moves as JSON instead of playing.
    #[arg(long)]
    pub plan: bool,
    /// The sowing animation's speed.
    #[command(flatten)]
    pub speed: SpeedArgs,
}

/// Options of `mancala replay`.
#[derive(Debug, Args)]
pub struct ReplayCmd {
    /// A game record written by mancala, or PGN-style text; - reads it from standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the round as text instead of replaying it: pgn (PGN-style, to paste into a message) or record.
    #[arg(long, value_name = "FORMAT", hide_possible_values = true, value_parser = ["pgn", "record"])]
    pub format: Option<String>,
    /// How the moves are shown.
    #[command(flatten)]
    pub show: ShowArgs,
}

/// Options of `mancala analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeCmd {
    /// A game record written by mancala.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print JSON: {"game":"kalah","moves":[{"ply":1,"side":"south","pit":"c","best":["c"],...}]}.
    #[arg(long, conflicts_with = "plain")]
    pub json: bool,
    /// Print the analysis as text instead of full screen (automatic without a terminal).
    #[arg(long)]
    pub plain: bool,
    /// Milliseconds the solver may think per position on boards too big to prove every position (more than 48 seeds or 6 pits, or relay sowing), and Oware's search per position (exact only where the endgame database proves it); past it, values are estimates.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub think: u64,
}

/// Options of `mancala puzzle`.
#[derive(Debug, Args)]
pub struct PuzzleCmd {
    /// Print the puzzles as JSON lines instead of playing them: board, to_move, best, losses, ...
    #[arg(long, conflicts_with = "plain")]
    pub json: bool,
    /// Play line by line instead of full screen (automatic without a terminal).
    #[arg(long)]
    pub plain: bool,
    /// With --json: how many puzzles to list.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub count: u32,
    /// Deal the built-in puzzles from this seed (the same seed, the same puzzles) [default: the next one not seen, or 1 with --json].
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Only puzzles from your own recorded rounds.
    #[arg(long)]
    pub mine: bool,
    /// The sowing animation's speed.
    #[command(flatten)]
    pub speed: SpeedArgs,
    /// The rules of the built-in puzzles (given, they also choose which of your own are set).
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// How moves are shown, for the commands that show someone else's moves
/// (a replay, a friend's match): the speed, and full screen or line by line.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct ShowArgs {
    /// The sowing animation's speed.
    #[command(flatten)]
    pub speed: SpeedArgs,
    /// Line by line instead of full screen (automatic without a terminal).
    #[arg(long)]
    pub plain: bool,
}

/// The sowing animation's speed, for every command that sows on screen.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct SpeedArgs {
    /// Milliseconds between two seeds of the sowing animation, 0 to 5000,
    /// or off [default: 150, or the speed last chosen with + and -].
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = parse_speed_value)]
    pub speed: Option<SeedDelay>,
    /// Show each move at once, without animation.
    #[arg(long)]
    pub no_animation: bool,
}

impl SpeedArgs {
    /// The pause between two seeds chosen on the command line for this
    /// run: `Some(None)` with `--no-animation` (or `--speed 0`), `None`
    /// when neither option is given (the kept or default speed applies).
    #[must_use]
    pub fn given(&self) -> Option<Option<Duration>> {
        if self.no_animation {
            return Some(None);
        }
        self.speed.map(|speed| speed.0)
    }

    /// The pause between two seeds: the one given, else the default
    /// speed (for the line-by-line front ends, which keep no preferences).
    #[must_use]
    pub fn seed_delay(&self) -> Option<Duration> {
        self.given()
            .unwrap_or(Some(Duration::from_millis(DEFAULT_SPEED_MS)))
    }
}

/// A speed given with `--speed`: the pause between two seeds, `None` for
/// no animation (`0` or `off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedDelay(pub Option<Duration>);

/// `--speed` read as the preferences file reads it (see
/// [`crate::game::parse_speed`]), so that both take the same values.
fn parse_speed_value(text: &str) -> Result<SeedDelay, String> {
    crate::game::parse_speed(text).map(SeedDelay)
}

/// Options of `mancala stats`.
#[derive(Debug, Args)]
pub struct StatsCmd {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also each player's mean loss per move, from the analysis of their
    /// recorded rounds (each record analysed once, then kept).
    #[arg(long)]
    pub analysis: bool,
    /// With --analysis: milliseconds the solver may think per position;
    /// past it, losses are estimates.
    #[arg(long, value_name = "MS", requires = "analysis", allow_negative_numbers = true, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub think: u64,
}

/// Options of `mancala host`.
#[derive(Debug, Args)]
pub struct HostCmd {
    /// Your name (you play South, the bottom row).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The port to listen on.
    #[arg(long, value_name = "P", default_value_t = crate::net::DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on (all of this machine's by default).
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
    pub bind: std::net::IpAddr,
    /// Who starts each round: south, north, alternate or random.
    #[arg(long, value_name = "WHO", default_value = "alternate", hide_possible_values = true, value_parser = Choices::<FirstMover>::new(FIRST_MOVERS))]
    pub first: FirstMover,
    /// How the moves are shown.
    #[command(flatten)]
    pub show: ShowArgs,
    /// The game: kalah (default) or oware (Abapa, RULES.md §7).
    #[arg(long, value_name = "GAME", default_value = "kalah", hide_possible_values = true, value_parser = Choices::<Game>::new(&["kalah", "oware"]))]
    pub game: Game,
    /// The rules (the joiner plays by them).
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The pie rule (RULES.md §5.3): after the first turn the other player
    /// may answer 'swap' to take its position (the joiner too).
    #[arg(long)]
    pub swap: bool,
}

/// Options of `mancala join`.
#[derive(Debug, Args)]
pub struct JoinCmd {
    /// The host's address, as the host's screen shows it: HOST:PORT.
    #[arg(value_name = "ADDRESS")]
    pub address: String,
    /// The join code the host's screen shows, like 7-guitar-orbit. Left
    /// out, it is asked for (read from the terminal, or from the first line
    /// of standard input), so that it is not in the list of running
    /// commands.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Your name (you play North, the top row).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Seconds to keep trying to reconnect after the connection is lost.
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = 60, value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub reconnect: u64,
    /// The game you mean to join: kalah or oware; a host of the other game
    /// is not joined. Left out, the host's game is played.
    #[arg(long, value_name = "GAME", hide_possible_values = true, value_parser = Choices::<Game>::new(&["kalah", "oware"]))]
    pub game: Option<Game>,
    /// How the moves are shown.
    #[command(flatten)]
    pub show: ShowArgs,
}

/// The player kinds offered for completion (`tree:N` takes any depth, so
/// it is not offered; it is still accepted).
const PLAYER_KINDS: &[&str] = &[
    "human",
    "random",
    "greedy",
    "easy",
    "medium",
    "hard",
    "perfect",
    "level:1",
    "level:2",
    "level:3",
    "level:4",
    "level:5",
    "level:6",
    "level:7",
    "level:8",
    "level:9",
    "level:10",
    "level:auto",
];
/// Who starts each round.
const FIRST_MOVERS: &[&str] = &["south", "north", "alternate", "random"];

/// A value read with its type's `FromStr` (whose message says what is
/// accepted), and whose usual values are known to clap: `--help` lists
/// them and the shell completion scripts complete them.
#[derive(Clone, Copy, Debug)]
pub struct Choices<T> {
    names: &'static [&'static str],
    /// Refuses some values that parse (why, in words).
    accept: fn(&T) -> Result<(), String>,
    value: PhantomData<fn() -> T>,
}

impl<T> Choices<T> {
    /// A parser offering `names`.
    #[must_use]
    pub const fn new(names: &'static [&'static str]) -> Choices<T> {
        Choices {
            names,
            accept: |_| Ok(()),
            value: PhantomData,
        }
    }
}

impl Choices<PlayerKind> {
    /// The kinds of player a seat can be given: a friend on another
    /// machine ([`PlayerKind::Network`]) takes a seat through `mancala
    /// host` and `mancala join`, never through a seat option.
    #[must_use]
    pub const fn players() -> Choices<PlayerKind> {
        Choices {
            names: PLAYER_KINDS,
            accept: |kind| {
                if kind.is_choosable() {
                    Ok(())
                } else {
                    Err(format!(
                        "'{kind}' is not a player to choose: a friend on another machine plays through `mancala host NAME` and `mancala join`"
                    ))
                }
            },
            value: PhantomData,
        }
    }
}

impl<T> TypedValueParser for Choices<T>
where
    T: FromStr + Clone + Send + Sync + 'static,
    T::Err: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        // clap's own reading of a `FromStr` value: the same one-line error.
        let accept = self.accept;
        let parse = move |text: &str| -> Result<T, String> {
            let value = text.parse::<T>().map_err(|e| e.into().to_string())?;
            accept(&value)?;
            Ok(value)
        };
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            self.names.iter().map(|&name| PossibleValue::new(name)),
        ))
    }
}

/// A whole-number type that counts of seeds are read into by
/// [`parse_counts`] and [`parse_count`].
pub trait Count: Copy {
    /// The largest count the type holds.
    const MAX: u64;
    /// `n` as this type, when it fits.
    fn from_u64(n: u64) -> Option<Self>;
}

macro_rules! count_type {
    ($($ty:ty),+) => {$(
        impl Count for $ty {
            const MAX: u64 = <$ty>::MAX as u64;
            fn from_u64(n: u64) -> Option<Self> {
                <$ty>::try_from(n).ok()
            }
        }
    )+};
}
count_type!(u8, u16, u32, u64);

/// What is wrong with a count given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountFault {
    /// Nothing was given (a blank list, or nothing between two commas).
    Empty,
    /// A minus sign before the digits.
    Negative,
    /// Not written as a whole number in digits.
    NotANumber,
    /// More than the count may be.
    TooLarge {
        /// The largest count allowed.
        max: u64,
    },
}

/// A count, or a list of counts, that cannot be read: which option, which
/// item of the list, the text given, and what is wrong with it. Its
/// `Display` is the one-line message for the player, the same wording for
/// every command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountError {
    /// The option, like `--board`.
    pub option: String,
    /// The place of the bad item in a list, counted from 1; `None` for a
    /// single count or a list that is empty as a whole.
    pub item: Option<usize>,
    /// The text of the bad item, trimmed.
    pub text: String,
    /// What is wrong with it.
    pub fault: CountFault,
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let option = &self.option;
        let text = &self.text;
        let what = match (self.item, self.fault) {
            (None, CountFault::Empty) => {
                return write!(f, "{option} is empty: give a count of seeds, like 4");
            }
            (Some(item), CountFault::Empty) => {
                return write!(
                    f,
                    "{option} item {item} is missing: give a count of seeds, like 4"
                );
            }
            (Some(item), _) => format!("{option} item {item} ('{text}')"),
            (None, _) => format!("{option} '{text}'"),
        };
        match self.fault {
            CountFault::Empty => Ok(()),
            CountFault::Negative => write!(f, "{what} is negative: a count of seeds is 0 or more"),
            CountFault::NotANumber => write!(
                f,
                "{what} is not a number: a count of seeds is a whole number, like 4"
            ),
            CountFault::TooLarge { max } => {
                write!(
                    f,
                    "{what} is too large: a count of seeds here is at most {max}"
                )
            }
        }
    }
}

impl std::error::Error for CountError {}

/// Reads one count of seeds given to `option` (named in the error).
///
/// ```
/// use mancala::cli::{parse_count, CountFault};
/// assert_eq!(parse_count::<u16>(" 12 ", "--seeds"), Ok(12));
/// let error = parse_count::<u8>("300", "--seeds").unwrap_err();
/// assert_eq!(error.fault, CountFault::TooLarge { max: 255 });
/// ```
///
/// # Errors
/// A [`CountError`] saying what is wrong: empty, negative, not a whole
/// number in digits, or more than `T` holds.
pub fn parse_count<T: Count>(text: &str, option: &str) -> Result<T, CountError> {
    read_count(text.trim()).map_err(|fault| CountError {
        option: option.to_string(),
        item: None,
        text: text.trim().to_string(),
        fault,
    })
}

/// Reads a comma-separated list of counts given to `option` (`4,4,0,...`).
///
/// ```
/// use mancala::cli::parse_counts;
/// assert_eq!(parse_counts::<u64>("0, 1,1 ,3", "--board"), Ok(vec![0, 1, 1, 3]));
/// assert_eq!(
///     parse_counts::<u16>("4,-4", "--board").unwrap_err().to_string(),
///     "--board item 2 ('-4') is negative: a count of seeds is 0 or more"
/// );
/// ```
///
/// # Errors
/// A [`CountError`] for an empty list, or naming the first bad item.
pub fn parse_counts<T: Count>(text: &str, option: &str) -> Result<Vec<T>, CountError> {
    if text.trim().is_empty() {
        return Err(CountError {
            option: option.to_string(),
            item: None,
            text: String::new(),
            fault: CountFault::Empty,
        });
    }
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            read_count(item).map_err(|fault| CountError {
                option: option.to_string(),
                item: Some(i + 1),
                text: item.to_string(),
                fault,
            })
        })
        .collect()
}

/// One trimmed count: digits only (no sign, no exponent), at most `T::MAX`.
fn read_count<T: Count>(text: &str) -> Result<T, CountFault> {
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if text.is_empty() {
        return Err(CountFault::Empty);
    }
    if text.strip_prefix('-').is_some_and(all_digits) {
        return Err(CountFault::Negative);
    }
    if !all_digits(text) {
        return Err(CountFault::NotANumber);
    }
    let too_large = CountFault::TooLarge { max: T::MAX };
    let value = text.parse::<u64>().map_err(|_| too_large)?;
    T::from_u64(value).ok_or(too_large)
}

/// The message for a command line that names one player with a word
/// that looks like a mistyped command (`mancala solitare`), instead of
/// starting a game for a player of that name; `None` when the names are
/// clearly names: two of them, a word that is not like any command, or
/// names after `--` (`args` is the whole command line, program first).
#[must_use]
pub fn mistyped_command(cli: &Cli, args: &[std::ffi::OsString]) -> Option<String> {
    use clap::CommandFactory as _;
    if cli.command.is_some() || cli.play.north_name.is_some() {
        return None;
    }
    let word = cli.play.south_name.as_deref()?;
    if args.iter().skip(1).any(|arg| arg == "--") {
        return None;
    }
    if matches!(word, "version" | "help") {
        return Some(format!(
            "unknown command '{word}'; did you mean mancala --{word}? (to play as a player called '{word}', write: mancala -- {word})"
        ));
    }
    let command = Cli::command();
    let meant = command
        .get_subcommands()
        .map(clap::Command::get_name)
        .find(|name| looks_like(word, name))?;
    let word = crate::game::names::shown(word);
    Some(format!(
        "unknown command '{word}'; did you mean {meant}? (to play as a player called '{word}', write: mancala -- {word})"
    ))
}

/// Whether `word` looks like `command` mistyped: a word in lower-case
/// letters (a capital makes it a name) that is one letter added, left out
/// or swapped with the next away from it, or for a command of six letters
/// or more, at most two such changes or changed letters away (so
/// `solitare`, `stast` and `replya` look like commands, and `john` does
/// not look like `join`, nor `hose` like `host`, nor `Stast` like `stats`).
fn looks_like(word: &str, command: &str) -> bool {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase()) || word == command {
        return false;
    }
    let (word, command) = (word.as_bytes(), command.as_bytes());
    if command.len() >= 6 {
        return edits(word, command, true) <= 2;
    }
    edits(word, command, false) <= 1
}

/// The fewest single-letter insertions, deletions and swaps of two
/// neighbours (and with `substitutions`, changed letters) that turn `a`
/// into `b`: the optimal string alignment distance.
fn edits(a: &[u8], b: &[u8], substitutions: bool) -> usize {
    // Too different in length to be a typo: no need to count.
    if a.len().abs_diff(b.len()) > 2 {
        return usize::MAX;
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * width + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let changed = if a[i - 1] == b[j - 1] {
                    d[(i - 1) * width + j - 1]
                } else if substitutions {
                    d[(i - 1) * width + j - 1] + 1
                } else {
                    usize::MAX
                };
                let mut best = changed
                    .min(d[(i - 1) * width + j] + 1)
                    .min(d[i * width + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * width + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * width + b.len()]
}

/// The subcommand named on the command line `args` (program first), if
/// any: the first argument that is one.
fn subcommand_of(args: &[std::ffi::OsString]) -> Option<String> {
    use clap::CommandFactory as _;
    let command = Cli::command();
    args.iter().skip(1).find_map(|arg| {
        let arg = arg.to_str()?;
        command
            .get_subcommands()
            .find(|c| c.get_name() == arg)
            .map(|c| c.get_name().to_string())
    })
}

/// Clap's error, or a mistyped command's `message`, in the one style of
/// every error of `mancala`: `mancala: WHAT (see mancala SUBCOMMAND
/// --help)`, naming the help of the subcommand on the command line
/// `args` (program first).
#[must_use]
pub fn usage_line(message: &str, args: &[std::ffi::OsString]) -> String {
    let message = message.strip_prefix("error: ").unwrap_or(message);
    let help = match subcommand_of(args) {
        Some(sub) => format!("mancala {sub} --help"),
        None => "mancala --help".to_string(),
    };
    format!("mancala: {message} (see {help})")
}

/// What a number's parser said (Rust's words), as a player reads it.
fn number_words(line: &str, value: Option<&str>) -> String {
    let negative = value.is_some_and(|v| v.trim_start().starts_with('-'));
    let replaced = [
        (
            "invalid digit found in string",
            if negative {
                "a number of 0 or more is wanted, not a negative one"
            } else {
                "it is not a whole number"
            },
        ),
        ("cannot parse integer from empty string", "it is empty"),
        ("number too large to fit in target type", "it is too large"),
        ("number too small to fit in target type", "it is too small"),
    ];
    let mut line = line.to_string();
    for (rust, words) in replaced {
        line = line.replace(rust, words);
    }
    line
}

/// Clap's error as the one line `mancala` prints (without the pointer to
/// `--help`), naming what is missing or wrong: the missing arguments that
/// clap lists on the lines below its first, and for a third name on the
/// match's command line, that a match takes two names.
#[must_use]
pub fn error_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut lines = rendered.lines().filter(|l| !l.trim().is_empty());
    let value = match error.get(clap::error::ContextKind::InvalidValue) {
        Some(clap::error::ContextValue::String(v)) => Some(v.as_str()),
        _ => None,
    };
    let first = number_words(
        lines.next().unwrap_or("error: bad arguments").trim_end(),
        value,
    );
    let first = first.as_str();
    if error.kind() == clap::error::ErrorKind::ArgumentConflict
        && let Some(rest) = first.strip_prefix("error: the subcommand '")
        && let Some((word, _)) = rest.split_once('\'')
    {
        return format!(
            "error: unexpected argument '{word}': a match takes two names (SOUTH_NAME NORTH_NAME), and '{word}' is not a command"
        );
    }
    if error.kind() == clap::error::ErrorKind::InvalidValue
        && let Some(clap::error::ContextValue::Strings(values)) =
            error.get(clap::error::ContextKind::ValidValue)
    {
        // clap lists the accepted values on a line of their own.
        return format!("{first} (expected one of: {})", values.join(", "));
    }
    if !first.ends_with(':') {
        return first.to_string();
    }
    // clap lists what is missing on the indented lines that follow.
    let listed: Vec<&str> = lines
        .take_while(|l| l.starts_with(' '))
        .map(str::trim)
        .filter(|l| !l.starts_with("Usage") && !l.starts_with("tip:"))
        .collect();
    format!("{first} {}", listed.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistyped_commands_are_told_from_names() {
        for (word, command) in [
            ("solitare", "solitaire"),
            ("soltiaire", "solitaire"),
            ("stast", "stats"),
            ("stat", "stats"),
            ("replya", "replay"),
            ("postion", "position"),
            ("arenaa", "arena"),
            ("hots", "host"),
            ("jon", "join"),
            ("sovle", "solve"),
        ] {
            assert!(looks_like(word, command), "{word} looks like {command}");
        }
        for (word, command) in [
            ("john", "join"),
            ("hose", "host"),
            ("Solitare", "solitaire"),
            ("alice", "arena"),
            ("stats", "stats"),
            ("s", "stats"),
            ("", "host"),
        ] {
            assert!(
                !looks_like(word, command),
                "{word} is a name, not {command}"
            );
        }
        assert_eq!(edits(b"ca", b"abc", true), 3);
        assert_eq!(edits(b"abcd", b"acbd", false), 1);
        assert_eq!(edits(b"abcd", b"axcd", true), 1);
        assert!(edits(b"abcd", b"axcd", false) >= 2);
    }

    #[test]
    fn every_fault_of_a_count_list_is_named_with_its_item() {
        let fault = |text: &str| parse_counts::<u16>(text, "--board").unwrap_err();
        assert_eq!(
            parse_counts::<u16>("4, 0 ,65535", "--board"),
            Ok(vec![4, 0, 65535])
        );
        assert_eq!(fault("  ").fault, CountFault::Empty);
        assert_eq!(fault("  ").item, None);
        assert_eq!(fault("4,,4").fault, CountFault::Empty);
        assert_eq!(fault("4,,4").item, Some(2));
        assert_eq!(
            fault("4,4,").item,
            Some(3),
            "a trailing comma leaves an item out"
        );
        assert_eq!(fault("4,-1").fault, CountFault::Negative);
        for not_a_number in ["x", "1.5", "1e3", "+3", "-", "--1", "3 4", "٣"] {
            let error = fault(&format!("4,{not_a_number}"));
            assert_eq!(error.fault, CountFault::NotANumber, "{not_a_number}");
            assert_eq!(error.text, not_a_number.trim());
        }
        for too_large in ["65536", "99999999999999999999999"] {
            assert_eq!(
                fault(too_large).fault,
                CountFault::TooLarge { max: 65535 },
                "{too_large}"
            );
        }
        assert_eq!(
            parse_counts::<u64>("18446744073709551615", "--board"),
            Ok(vec![u64::MAX])
        );
    }

    #[test]
    fn one_wording_for_each_fault() {
        let list = |text: &str| {
            parse_counts::<u16>(text, "--board")
                .unwrap_err()
                .to_string()
        };
        let single = |text: &str| parse_count::<u64>(text, "--seeds").unwrap_err().to_string();
        assert_eq!(list(""), "--board is empty: give a count of seeds, like 4");
        assert_eq!(
            single(" "),
            "--seeds is empty: give a count of seeds, like 4"
        );
        assert_eq!(
            list("4,,4"),
            "--board item 2 is missing: give a count of seeds, like 4"
        );
        assert_eq!(
            list("4,-1"),
            "--board item 2 ('-1') is negative: a count of seeds is 0 or more"
        );
        assert_eq!(
            single("-3"),
            "--seeds '-3' is negative: a count of seeds is 0 or more"
        );
        assert_eq!(
            list("x"),
            "--board item 1 ('x') is not a number: a count of seeds is a whole number, like 4"
        );
        assert_eq!(
            single("1.5"),
            "--seeds '1.5' is not a number: a count of seeds is a whole number, like 4"
        );
        assert_eq!(
            list("4,70000"),
            "--board item 2 ('70000') is too large: a count of seeds here is at most 65535"
        );
        assert_eq!(
            single("18446744073709551616"),
            "--seeds '18446744073709551616' is too large: a count of seeds here is at most 18446744073709551615"
        );
    }
}
