//! Records as PGN-style text, to paste into a message: tags for the
//! players, the date, the rules and the result, then the moves numbered
//! turn by turn (a `+` after a move: it earned another turn), then the
//! result.
//!
//! ```text
//! [Event "Mancala"]
//! [Date "2026.01.01"]
//! [Round "1"]
//! [South "Alice"]
//! [North "Michael"]
//! [SouthPlayer "human"]
//! [NorthPlayer "human"]
//! [Rules "kalah 6x4 capture=always sowing=single sweep=owner"]
//! [First "south"]
//! [Starter "south"]
//! [Result "*"]
//!
//! 1. c+ f 2. h+ g 3. a *
//! ```
//!
//! `Result` is `1-0` (South won), `0-1` (North won), `1/2-1/2` or `*`
//! (unfinished); `Score` gives the final stores. A round that started
//! from another position has `Start` (the counts, as a record's `start`).
//! A round played with the pie rule (RULES.md §5.3) where the second
//! player took the first turn's position has `Swap`, the number of moves
//! after which the players swapped sides: `South` and `North` (and the
//! result) are the sides as held at the end, so at the start the `South`
//! tag's player sat North.
//! Reading ([`parse`]) turns the text into a record's fields and reads
//! them as a record is read ([`Record::parse`]), so it checks the same
//! things, and the `Result` against the moves.

use std::fmt::Write as _;

use super::record::{Record, RecordError, error};
use crate::rules::Outcome;

/// The longest PGN text read.
pub const MAX_PGN_BYTES: usize = super::record::MAX_RECORD_BYTES;

/// `value` inside a tag's quotes.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN result of a finished or unfinished round.
fn result_tag(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(crate::rules::Side::South)) => "1-0",
        Some(Outcome::Win(crate::rules::Side::North)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// `record` as PGN-style text; `date` as `YYYY.MM.DD` when known.
#[must_use]
pub fn to_pgn(record: &Record, date: Option<&str>) -> String {
    let rules = record.rules();
    let seats = record.seats();
    let mut out = String::new();
    let mut tag = |key: &str, value: &str| {
        let _ = writeln!(out, "[{key} \"{}\"]", quoted(value));
    };
    tag("Event", "Mancala");
    tag("Date", date.unwrap_or("????.??.??"));
    tag("Round", &record.round.to_string());
    tag("South", &seats[0].name);
    tag("North", &seats[1].name);
    tag("SouthPlayer", &seats[0].kind.to_string());
    tag("NorthPlayer", &seats[1].kind.to_string());
    tag(
        "Rules",
        &format!(
            "kalah {}x{} capture={} sowing={} sweep={}",
            rules.pits(),
            rules.seeds(),
            rules.capture(),
            rules.sowing(),
            rules.sweep()
        ),
    );
    tag("First", &record.config.first.to_string());
    tag("Starter", record.starter.as_str());
    if let Some(counts) = record.start_counts() {
        tag("Start", &counts);
    }
    if let Some(after) = record.swapped {
        tag("Swap", &after.to_string());
    }
    let stepper = record.stepper().ok();
    let last = stepper.as_ref().map(|s| *s.last_board());
    let result = result_tag(last.and_then(|b| b.outcome()));
    tag("Result", result);
    if let Some(board) = last.filter(|b| b.is_over()) {
        let score = board.score();
        tag("Score", &format!("{}-{}", score.south, score.north));
    }
    out.push('\n');
    let mut moves = String::new();
    if let Some(stepper) = &stepper {
        for line in stepper.turn_lines(["", ""], None) {
            // "3. : c+ f" without names: "3. c+ f"
            let line = line.replacen(". :", ".", 1);
            let _ = write!(moves, "{line} ");
        }
    }
    moves.push_str(result);
    out.push_str(&moves);
    out.push('\n');
    out
}

/// Reads PGN-style text (see the [module docs](self)) as a record.
///
/// # Errors
/// A [`RecordError`] naming the line at fault and why.
pub fn parse(text: &str) -> Result<Record, RecordError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(error(
            0,
            format!("too large for a round ({} bytes)", text.len()),
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut fields = vec!["mancala record 1".to_string()];
    let mut result = None;
    let mut swap = None;
    let mut moves = Vec::new();
    let mut ended = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| error(n, "a tag ends with ']'"))?;
            let (key, value) = inner
                .split_once(' ')
                .ok_or_else(|| error(n, "a tag reads [Key \"value\"]"))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| error(n, "a tag's value is in double quotes"))?
                .replace("\\\"", "\"")
                .replace("\\\\", "\\");
            let field = match key {
                "South" => "south",
                "North" => "north",
                "SouthPlayer" => "south-player",
                "NorthPlayer" => "north-player",
                "Round" => "round",
                "First" => "first",
                "Starter" => "starter",
                "Start" => "start",
                "Result" => {
                    result = Some((n, value));
                    continue;
                }
                "Swap" => {
                    if swap.replace(value).is_some() {
                        return Err(error(n, "'Swap' is given twice"));
                    }
                    continue;
                }
                "Rules" => {
                    let mut words = value.split_whitespace();
                    if words.next() != Some("kalah") {
                        return Err(error(n, "the rules are a Kalah board's: kalah 6x4 ..."));
                    }
                    let size = words.next().unwrap_or_default();
                    let (pits, seeds) = size
                        .split_once('x')
                        .ok_or_else(|| error(n, "the board size reads like 6x4"))?;
                    fields.push(format!("pits: {pits}"));
                    fields.push(format!("seeds: {seeds}"));
                    for word in words {
                        let (k, v) = word
                            .split_once('=')
                            .ok_or_else(|| error(n, "a rule reads like capture=always"))?;
                        if !matches!(k, "capture" | "sowing" | "sweep") {
                            return Err(error(n, "the rules are capture, sowing and sweep"));
                        }
                        fields.push(format!("{k}: {v}"));
                    }
                    continue;
                }
                _ => continue,
            };
            if value.contains(['\n', '\r']) {
                return Err(error(n, "a tag's value is one line"));
            }
            fields.push(format!("{field}: {value}"));
            continue;
        }
        for token in line.split_whitespace() {
            if ended {
                return Err(error(n, "moves after the result"));
            }
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                if let Some((_, tagged)) = &result
                    && tagged != token
                {
                    return Err(error(
                        n,
                        "the result after the moves is not the Result tag's",
                    ));
                }
                result.get_or_insert((n, token.to_string()));
                ended = true;
                continue;
            }
            if token.ends_with('.') && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit())
            {
                continue;
            }
            let letter = token.strip_suffix('+').unwrap_or(token);
            if letter.chars().count() != 1 {
                return Err(error(
                    n,
                    format!(
                        "'{}' is not a move (a pit letter)",
                        crate::game::names::shown(token)
                    ),
                ));
            }
            moves.push(letter.to_string());
        }
    }
    for key in ["capture", "sowing", "sweep"] {
        if !fields.iter().any(|f| f.starts_with(&format!("{key}:"))) {
            let default = match key {
                "capture" => "always",
                "sowing" => "single",
                _ => "owner",
            };
            fields.push(format!("{key}: {default}"));
        }
    }
    if let Some(after) = swap {
        // the tags name the sides as held at the end; a record's seats are
        // as they sat at the start
        for field in &mut fields {
            for (from, to) in [("south", "north"), ("north", "south")] {
                if let Some(rest) = field
                    .strip_prefix(from)
                    .filter(|rest| rest.starts_with(':') || rest.starts_with("-player:"))
                {
                    *field = format!("{to}{rest}");
                    break;
                }
            }
        }
        fields.push(format!("swap: {after}"));
    }
    fields.push(format!("moves: {}", moves.join(",")));
    let mut record_text = fields.join("\n");
    record_text.push('\n');
    let record = Record::parse(&record_text).map_err(|e| RecordError {
        line: 0,
        message: e.message,
    })?;
    if let Some((line, claimed)) = result {
        let stepper = record.stepper()?;
        let actual = result_tag(stepper.last_board().outcome());
        if claimed != actual {
            return Err(error(
                line,
                format!(
                    "the result '{}' does not match the moves, which give '{actual}'",
                    crate::game::names::shown(&claimed)
                ),
            ));
        }
    }
    Ok(record)
}

/// Reads a round in either form: PGN-style text (its first line that is
/// not blank starts with `[`) or a record.
///
/// # Errors
/// As [`parse`] or [`Record::parse`].
pub fn parse_any(text: &str) -> Result<Record, RecordError> {
    let first = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty());
    if first.is_some_and(|l| l.starts_with('[')) {
        parse(text)
    } else {
        Record::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat, Tally};
    use crate::players::PlayerKind;
    use crate::rng::Rng;
    use crate::rules::{Board, Pit, Rules, Side};

    /// A record of `moves` from the usual start, as text.
    fn sample_text(rules: Rules, starter: Side, moves: &[Pit], north: &str) -> String {
        Record {
            config: MatchConfig {
                game: crate::rules::Game::Kalah,
                rules,
                seats: [
                    Seat::new("Alice", PlayerKind::Human),
                    Seat::new(north, PlayerKind::Level(4)),
                ],
                first: FirstMover::Alternate,
                start: None,
            },
            round: 2,
            starter,
            earlier: Tally::default(),
            moves: moves.to_vec(),
            swapped: None,
        }
        .to_text()
    }

    #[test]
    fn rounds_written_as_pgn_read_back_to_the_same_round_and_result() {
        let mut rng = Rng::new(3);
        for round in 0..60 {
            let rules = Rules::new(1 + rng.below(8), 1 + rng.below(6)).unwrap();
            let starter = if rng.coin() { Side::South } else { Side::North };
            let mut board = Board::starting(rules, starter);
            let mut moves: Vec<Pit> = Vec::new();
            // most rounds played out, some cut short
            let cut = if round % 4 == 0 {
                rng.below(10)
            } else {
                usize::MAX
            };
            while !board.is_over() && moves.len() < cut {
                let legal: Vec<Pit> = board.legal_moves().collect();
                let pit = legal[rng.below(legal.len())];
                board.play(pit).unwrap();
                moves.push(pit);
            }
            let north = if round % 3 == 0 {
                "Mi\"chael [2] \\o/"
            } else {
                "Michael"
            };
            let text = sample_text(rules, starter, &moves, north);
            let record = Record::parse(&text).unwrap();
            let pgn = to_pgn(&record, Some("2026.11.27"));
            let back = parse_any(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
            assert_eq!(back, record, "{pgn}");
            assert_eq!(back.stepper().unwrap().last_board(), &board);
            assert_eq!(parse_any(&text).unwrap(), record);
        }
    }

    /// A round where the players swapped sides (the pie rule) keeps the
    /// swap: the `Swap` tag, the names as the sides were held at the end,
    /// and the same record read back.
    #[test]
    fn a_swapped_round_reads_back_with_its_swap() {
        let rules = Rules::new(4, 3).unwrap();
        let mut board = Board::new(rules);
        // South's first turn ends after one move (a: no extra turn)
        let mut moves = vec![rules.pit_by_letter('a').unwrap()];
        board.play(moves[0]).unwrap();
        let mut rng = Rng::new(5);
        while !board.is_over() {
            let legal: Vec<Pit> = board.legal_moves().collect();
            let pit = legal[rng.below(legal.len())];
            board.play(pit).unwrap();
            moves.push(pit);
        }
        let mut record =
            Record::parse(&sample_text(rules, Side::South, &moves, "Michael")).unwrap();
        record.swapped = Some(1);
        let record = Record::parse(&record.to_text()).unwrap();
        assert_eq!(record.swapped, Some(1));
        let pgn = to_pgn(&record, None);
        assert!(pgn.contains("[Swap \"1\"]"), "{pgn}");
        // Michael took Alice's South after her first move
        assert!(pgn.contains("[South \"Michael\"]"), "{pgn}");
        assert!(pgn.contains("[NorthPlayer \"human\"]"), "{pgn}");
        let back = parse_any(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
        assert_eq!(back, record, "{pgn}");
        assert_eq!(back.names(), ["Michael", "Alice"]);
        // a swap where none may come is refused, as in a record
        assert!(parse(&pgn.replace("[Swap \"1\"]", "[Swap \"2\"]")).is_err());
    }

    #[test]
    fn a_wrong_result_or_move_is_refused() {
        let rules = Rules::new(2, 1).unwrap();
        let text = sample_text(rules, Side::South, &[], "B");
        let pgn = to_pgn(&Record::parse(&text).unwrap(), None);
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(parse(&pgn.replace("*\n", "1-0\n")).is_err());
        assert!(parse(&pgn.replace("\n*\n", "\nz *\n")).is_err());
        assert!(parse(&pgn.replace("[Round", "[Round \"1\" junk]\n[X")).is_err());
    }
}
