//! Playing a match: full screen on a terminal, line by line otherwise.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::PlayArgs;
use crate::game::names::{checked_name, same_name};
use crate::game::{FirstMover, MOVE_PAUSE, MatchConfig, PlayOptions, Seat, kind_refused};
use crate::players::PlayerKind;
use crate::rules::oware::End;
use crate::rules::{Game, GameBoard, Side};
use crate::store::SaveStore;
use crate::store::rating::Rating;

use super::UsageError;

/// The match and presentation settings a [`PlayArgs`] describes.
///
/// # Errors
/// A [`UsageError`] when the rules are not playable.
pub fn settings(args: &PlayArgs) -> anyhow::Result<(MatchConfig, PlayOptions)> {
    let from = super::position::start(args.game, args.from.as_deref())?;
    let game = from.game();
    if game == Game::Oware {
        oware_settings_refused(args).map_err(UsageError)?;
    }
    let (rules, first, start) = match from.board() {
        None if args.fair => {
            let rules = args.rules.rules().map_err(UsageError)?;
            let board = crate::players::fair::deal(rules, fair_seed(), FAIR_BUDGET)
                .map_err(|e| UsageError(format!("--fair: {e}")))?;
            (rules, args.first, Some(board))
        }
        None => (args.rules.rules().map_err(UsageError)?, args.first, None),
        Some(board) => {
            finished_refused(&board)?;
            if args.rules.any_given() {
                return Err(UsageError(
                    "--from states its own rules: leave out the rule options".to_string(),
                )
                .into());
            }
            // An Oware position is kept as drawn: its houses and captured
            // seeds in the shared layout (GameRound::starting reads them).
            let board = board.drawn();
            let first = match board.to_move() {
                Side::South => FirstMover::South,
                Side::North => FirstMover::North,
            };
            (*board.rules(), first, Some(board))
        }
    };
    let kinds = resolve_auto_levels(args, game);
    let [south, north] = seat_names(args, kinds)?;
    let config = MatchConfig {
        game,
        rules,
        seats: [Seat::new(south, kinds[0]), Seat::new(north, kinds[1])],
        first,
        start,
    };
    let options = PlayOptions {
        seed_delay: args.speed.seed_delay(),
        think: Duration::from_millis(args.think),
        move_pause: MOVE_PAUSE,
        speed_given: args.speed.given().is_some(),
        pie_rule: args.swap,
        fair: args.fair,
    };
    debug_assert_eq!(config.seats.len(), Side::BOTH.len());
    Ok((config, options))
}

/// Refuses a `--from` position whose round is over (RULES.md §8.1, §8.2):
/// there is no move to play, and every "Play again?" would only record
/// another round nobody played. `position --from` and `solve --from` still
/// read it (they only print it).
///
/// # Errors
/// A [`UsageError`] saying why the round is over.
fn finished_refused(board: &GameBoard) -> anyhow::Result<()> {
    if !board.is_over() {
        return Ok(());
    }
    let why = match board {
        GameBoard::Kalah(_) => "one side's pits are all empty",
        GameBoard::Oware(board) => match board.end() {
            Some(End::Goal) => {
                "a player has captured more than half of the seeds, or each has half"
            }
            Some(End::NoFeed) => "the player to move has no legal move",
            Some(End::Repetition) | None => "it is over",
        },
    };
    Err(UsageError(format!(
        "--from: that round is finished ({why}): give a position with a move left to play"
    ))
    .into())
}

/// How long `--fair` may look for a fair start before it gives up.
const FAIR_BUDGET: Duration = Duration::from_secs(10);

/// Which fair start `--fair` deals: the same one every time a script
/// plays (input not a terminal, as plain mode's random parts), else one
/// from the clock.
fn fair_seed() -> u64 {
    if std::io::stdin().is_terminal() {
        crate::rng::Rng::from_entropy().next_u64()
    } else {
        crate::plain::SCRIPT_SEED
    }
}

/// Why `args` cannot set up an Oware match: Oware has its own board and
/// rules (no Kalah rule options), and its computer players are random up
/// to perfect, without Kalah's rated levels.
fn oware_settings_refused(args: &PlayArgs) -> Result<(), String> {
    if args.rules.any_given() {
        return Err(
            "Oware is played on 6 houses a side with 4 seeds each: leave out the rule options"
                .to_string(),
        );
    }
    if args.fair || args.swap {
        return Err("--fair and --swap are Kalah's: leave them out with --game oware".to_string());
    }
    for kind in args.kinds() {
        // One name alone plays the computer: Oware's is `medium`.
        if kind == PlayerKind::AutoLevel {
            continue;
        }
        if let Some(refused) = kind_refused(Game::Oware, kind) {
            return Err(refused);
        }
    }
    Ok(())
}

/// The seats' kinds with `level:auto` resolved: the level nearest the
/// rating of the person in the other seat (from the statistics in the data
/// directory, see [`crate::store::rating`]), or a new player's level when
/// the person has no rating yet or is not named.
fn resolve_auto_levels(args: &PlayArgs, game: Game) -> [PlayerKind; 2] {
    let kinds = args.kinds();
    if !kinds.contains(&PlayerKind::AutoLevel) {
        return kinds;
    }
    if game == Game::Oware {
        // The ratings and levels are Kalah's.
        return kinds.map(|kind| match kind {
            PlayerKind::AutoLevel => PlayerKind::Medium,
            kind => kind,
        });
    }
    let names = args.names_for(kinds);
    let rounds = crate::store::data_dir()
        .map(|root| SaveStore::stats_path_in(&root))
        .and_then(|path| crate::store::stats::read(&path).ok())
        .map(|stats| stats.ratings)
        .unwrap_or_default();
    let mut resolved = kinds;
    for side in Side::BOTH {
        if kinds[side.index()] != PlayerKind::AutoLevel {
            continue;
        }
        let person = &names[side.opponent().index()];
        let rating = rounds
            .iter()
            .find(|(name, _)| crate::game::names::same_name(name, person))
            .map_or_else(Rating::new, |(_, r)| *r);
        resolved[side.index()] = PlayerKind::Level(rating.level());
    }
    resolved
}

/// The two seats' names, cleaned where they enter the game (see
/// [`crate::game::names`]), for both front ends.
///
/// # Errors
/// A [`UsageError`] for a name with nothing left once cleaned, or for two
/// names that are the same.
fn seat_names(args: &PlayArgs, kinds: [PlayerKind; 2]) -> anyhow::Result<[String; 2]> {
    let [south, north] = args.names_for(kinds);
    let south = checked_name(&south).map_err(|e| UsageError(e.to_string()))?;
    let north = checked_name(&north).map_err(|e| UsageError(e.to_string()))?;
    if !same_name(&south, &north) {
        return Ok([south, north]);
    }
    let given = [&args.south_name, &args.north_name]
        .map(|name| name.as_deref().is_some_and(|n| !n.trim().is_empty()));
    if given == [true, true] {
        return Err(UsageError(format!(
            "both players are called '{south}': give two different names"
        ))
        .into());
    }
    // Names the game chose (two computers of one kind): add the side.
    Ok([format!("{south}, South"), format!("{north}, North")])
}

/// Plays a match: the full-screen game when both standard input and output
/// are a terminal, else (or with `--plain`) the line-by-line game.
///
/// # Errors
/// Bad settings, or a terminal that fails.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let (config, options) = settings(args)?;
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if args.plain || !terminal {
        crate::plain::run(config, &options)
    } else {
        crate::tui::run(config, &options)
    }
}
