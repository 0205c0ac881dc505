//! The commands an engine reads, as typed values: one line of text in,
//! one [`EngineCommand`] (or the reason it is not one) out. Pure; the loop in
//! [`super`] acts on them.
//!
//! The set is Aualé's (Aalina's UCI service): `uci`, `debug [on|off]`,
//! `isready`, `setoption name N [value V]`, `ucinewgame`,
//! `position startpos|fen F [moves M]`, `go` with `depth`, `movetime`,
//! `nodes`, `infinite`, `ponder`, `wtime`, `btime`, `winc`, `binc`,
//! `movestogo`, then `stop`, `ponderhit`, `wait` (until the search ends)
//! and `quit`. As the protocol asks (and Aalina does), words not
//! understood before a command, or among `go`'s limits, are skipped.

use super::notation::shown;

/// What `position` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// Aalina's position notation, or `None` for the start.
    pub fen: Option<String>,
    /// The moves played from it, as letters (whitespace between them).
    pub moves: String,
}

/// What `go` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Milliseconds to think.
    pub movetime: Option<u64>,
    /// Positions to search.
    pub nodes: Option<u64>,
    /// Think until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Milliseconds left on the clocks, South's (`wtime`) and North's (`btime`).
    pub time: [Option<u64>; 2],
    /// Milliseconds added per move, South's and North's.
    pub increment: [Option<u64>; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u64>,
    /// Words not understood, skipped as the protocol asks (`searchmoves`,
    /// `mate`, and what follows them): the search goes on without them.
    pub ignored: Vec<String>,
}

/// One command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineCommand {
    /// Say who we are and the options; `uciok`.
    Uci,
    /// Debug output on (`Some(true)`), off, or switched (`None`).
    Debug(Option<bool>),
    /// `readyok`.
    IsReady,
    /// Set an option.
    SetOption {
        /// Its name (case as given).
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// A new game begins: forget what was learnt.
    NewGame,
    /// The position to think about.
    Position(PositionSpec),
    /// Think.
    Go(Go),
    /// Stop thinking and say the best move.
    Stop,
    /// The opponent played the move pondered on: think on the clock now.
    PonderHit,
    /// Wait until the search ends.
    Wait,
    /// End.
    Quit,
}

/// The words that begin a command.
const COMMANDS: [&str; 11] = [
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "ponderhit",
    "wait",
    "quit",
    "debug",
    "setoption",
    "position",
    "go",
];

/// Reads one line. Blank lines are `Ok(None)`. Words before the first
/// command word are skipped, as the protocol asks of an engine (and
/// Aalina does): `joho debug on` is `debug on`.
///
/// # Errors
/// A message for a line without a command or with bad arguments (the
/// command's name and the offending text escaped).
pub fn parse(line: &str) -> Result<Option<EngineCommand>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&start) = words.first() else {
        return Ok(None);
    };
    let Some(at) = words.iter().position(|w| COMMANDS.contains(w)) else {
        return Err(format!("unknown command '{}'", shown(start)));
    };
    let (first, rest) = (words[at], words[at + 1..].to_vec());
    let none = |command: EngineCommand| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(format!("'{first}' takes no arguments"))
        }
    };
    match first {
        "uci" => none(EngineCommand::Uci),
        "isready" => none(EngineCommand::IsReady),
        "ucinewgame" => none(EngineCommand::NewGame),
        "stop" => none(EngineCommand::Stop),
        "ponderhit" => none(EngineCommand::PonderHit),
        "wait" => none(EngineCommand::Wait),
        "quit" => none(EngineCommand::Quit),
        "debug" => match rest.as_slice() {
            [] => Ok(Some(EngineCommand::Debug(None))),
            ["on"] => Ok(Some(EngineCommand::Debug(Some(true)))),
            ["off"] => Ok(Some(EngineCommand::Debug(Some(false)))),
            _ => Err("debug takes on or off".to_string()),
        },
        "setoption" => set_option(&rest).map(Some),
        "position" => position(&rest).map(|p| Some(EngineCommand::Position(p))),
        "go" => go(&rest).map(|g| Some(EngineCommand::Go(g))),
        other => Err(format!("unknown command '{}'", shown(other))),
    }
}

fn set_option(words: &[&str]) -> Result<EngineCommand, String> {
    let ["name", rest @ ..] = words else {
        return Err("setoption takes: name NAME [value VALUE]".to_string());
    };
    let at = rest.iter().position(|&w| w == "value");
    let (name, value) = match at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption: the option has no name".to_string());
    }
    Ok(EngineCommand::SetOption {
        name: name.join(" "),
        value,
    })
}

fn position(words: &[&str]) -> Result<PositionSpec, String> {
    let (fen, rest) = match words {
        ["startpos", rest @ ..] => (None, rest),
        ["fen", rest @ ..] => {
            let end = rest
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("position fen: the position is missing".to_string());
            }
            (Some(rest[..end].join("")), &rest[end..])
        }
        _ => return Err("position takes startpos or fen POSITION, then moves M...".to_string()),
    };
    let moves = match rest {
        [] => String::new(),
        ["moves", moves @ ..] => moves.join(" "),
        [other, ..] => {
            return Err(format!("position: expected moves, not '{}'", shown(other)));
        }
    };
    Ok(PositionSpec { fen, moves })
}

fn go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        let mut number = || -> Result<u64, String> {
            let text = words
                .next()
                .ok_or_else(|| format!("go {word}: a number is missing"))?;
            text.parse::<u64>()
                .map_err(|_| format!("go {word}: '{}' is not a whole number", shown(text)))
        };
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "depth" => {
                go.depth = Some(
                    u32::try_from(number()?)
                        .ok()
                        .filter(|&d| d >= 1)
                        .ok_or("go depth: from 1 up")?,
                );
            }
            "movetime" => go.movetime = Some(number()?),
            "nodes" => go.nodes = Some(number()?),
            "wtime" => go.time[0] = Some(number()?),
            "btime" => go.time[1] = Some(number()?),
            "winc" => go.increment[0] = Some(number()?),
            "binc" => go.increment[1] = Some(number()?),
            "movestogo" => go.moves_to_go = Some(number()?),
            other => go.ignored.push(shown(other)),
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_aualé_writes_them() {
        assert_eq!(parse("uci"), Ok(Some(EngineCommand::Uci)));
        assert_eq!(parse("  \t "), Ok(None));
        assert_eq!(
            parse("debug on"),
            Ok(Some(EngineCommand::Debug(Some(true))))
        );
        assert_eq!(
            parse("setoption name Game value kalah"),
            Ok(Some(EngineCommand::SetOption {
                name: "Game".into(),
                value: Some("kalah".into())
            }))
        );
        assert_eq!(
            parse("position startpos moves FfBe"),
            Ok(Some(EngineCommand::Position(PositionSpec {
                fen: None,
                moves: "FfBe".into()
            })))
        );
        assert_eq!(
            parse("position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-N moves a B"),
            Ok(Some(EngineCommand::Position(PositionSpec {
                fen: Some("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N".into()),
                moves: "a B".into()
            })))
        );
        let Ok(Some(EngineCommand::Go(go))) = parse("go movetime 1000 depth 5") else {
            panic!("go");
        };
        assert_eq!((go.movetime, go.depth), (Some(1000), Some(5)));
        let Ok(Some(EngineCommand::Go(go))) =
            parse("go wtime 60000 btime 50000 winc 5000 binc 5000")
        else {
            panic!("go with clocks");
        };
        assert_eq!(go.time, [Some(60000), Some(50000)]);
        assert_eq!(go.increment, [Some(5000), Some(5000)]);
        assert!(matches!(
            parse("go ponder"),
            Ok(Some(EngineCommand::Go(Go { ponder: true, .. })))
        ));
    }

    #[test]
    fn words_not_understood_are_skipped_as_the_protocol_asks() {
        // Before the command: skipped, the rest read (Aalina reads its
        // input a word at a time and skips the unknown ones).
        assert_eq!(
            parse("joho debug on"),
            Ok(Some(EngineCommand::Debug(Some(true))))
        );
        assert_eq!(parse("\u{fffd} isready"), Ok(Some(EngineCommand::IsReady)));
        // Inside `go`: skipped, and the search still starts.
        let Ok(Some(EngineCommand::Go(go))) = parse("go searchmoves A B depth 4 mate 3") else {
            panic!("go with words it does not know");
        };
        assert_eq!(go.depth, Some(4));
        assert_eq!(go.ignored, ["searchmoves", "A", "B", "mate", "3"]);
    }

    #[test]
    fn bad_commands_are_reasons_with_the_text_escaped() {
        for (line, says) in [
            ("fly", "unknown command 'fly'"),
            ("\u{1b}[2J", "unknown command '\\u{1b}[2J'"),
            ("go depth", "a number is missing"),
            ("go depth 0", "from 1 up"),
            ("go movetime -5", "'-5' is not a whole number"),
            ("go movetime 99999999999999999999999", "not a whole number"),
            ("position", "startpos or fen"),
            ("position fen", "is missing"),
            ("position startpos FfBe", "expected moves"),
            ("setoption Game", "name NAME"),
            ("setoption name value x", "no name"),
            ("isready now", "takes no arguments"),
            ("debug maybe", "on or off"),
        ] {
            let err = parse(line).unwrap_err();
            assert!(err.contains(says), "{line:?}: {err}");
        }
    }
}
