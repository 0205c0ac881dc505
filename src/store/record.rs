//! Game records: one round as a small text file that people can read and
//! programs can replay.
//!
//! # The format (version 1)
//!
//! A record is UTF-8 text, one `key: value` field per line. The first line
//! that is not blank is the header `mancala record 1`. Blank lines and lines
//! starting with `#` are comments and are ignored when reading.
//!
//! ```text
//! mancala record 1
//! pits: 6
//! seeds: 4
//! capture: always
//! sowing: single
//! sweep: owner
//! first: south
//! south: Alice
//! south-player: human
//! north: Michael
//! north-player: human
//! round: 1
//! starter: south
//! earlier-rounds: south 0, north 0, draws 0
//! moves: c,f,h,g,a
//! result: unfinished
//! # Turn by turn ("+" after a move: it earned another turn):
//! #   1. Alice: c+ f
//! #   2. Michael: h+ g
//! #   3. Alice: a
//! # The same position: mancala position --pits 6 --seeds 4 --capture always --sowing single --sweep owner --to-move south --moves c,f,h,g,a
//! ```
//!
//! | field | value | required |
//! | --- | --- | --- |
//! | `pits`, `seeds` | board size and starting seeds per pit | yes |
//! | `capture`, `sowing`, `sweep` | rule options, as on the command line | yes |
//! | `first` | the match's starter setting: south, north, alternate, random | no (alternate) |
//! | `south`, `north` | the players' names | yes |
//! | `south-player`, `north-player` | who played: human, random, greedy, tree:N, easy, medium, hard, perfect, level:N, or network (the friend on another machine, in the host's record of a network match) | no (human) |
//! | `round` | the round's number in its match, from 1 | no (1) |
//! | `starter` | the side that moved first in this round | yes |
//! | `start` | the position the round started from, when not the usual one: every count in `--board`'s order (South's pits, South's store, North's pits, North's store; Oware: captured seeds where the stores are) | no (the usual start) |
//! | `earlier-rounds` | the match tally before this round | no (all 0) |
//! | `moves` | every move in playing order as pit letters, comma separated | yes (may be empty) |
//! | `result` | `unfinished`, or `south 30, north 18 (Alice wins)` | no; checked if given |
//!
//! Pit letters are the game's own: South's pits `a`, `b`, ... from South's
//! left, then North's pits from North's left (`g`..`l` on six pits). The
//! `moves` line is exactly what `mancala position --moves` takes, so with
//! the rule options and `--to-move STARTER` it rebuilds any position of the
//! round; the last comment line of a written record spells that command
//! out. The turn-by-turn comment groups a player's extra-turn chain on one
//! line.
//!
//! Reading checks everything: the header, each field, the names, every
//! move against the rules (a move the rules refuse is reported with its
//! number and the rules' reason), and the `result` line against the moves.
//! The same format, with `earlier-rounds` and `first`, is how an unfinished
//! match is saved (see [`super::save`]).

use std::fmt::{self, Write as _};

use crate::escape::escaped;
pub use crate::game::names::clean_name;
use crate::game::names::shown;
use crate::game::{FirstMover, Match, MatchConfig, Seat, Tally};
use crate::players::PlayerKind;
use crate::rules::oware::{OwareBoard, OwareRules};
use crate::rules::{
    Board, Capture, Game, GameBoard, GamePlayed, GameRound, NoTrace, Outcome, Pit, Rules, Side,
    Sowing, Step, Sweep,
};

/// The first line of every record.
pub const HEADER: &str = "mancala record 1";

/// The largest record file read (a round has a few hundred moves at most).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// One round: the rules, the seats, the round's place in its match and
/// every move. See the [module docs](self) for the text form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The match's fixed settings: rules, seats, starter setting.
    pub config: MatchConfig,
    /// The round's number in its match, from 1.
    pub round: u32,
    /// The side that moved first in this round.
    pub starter: Side,
    /// The match tally before this round.
    pub earlier: Tally,
    /// Every move of the round, in playing order.
    pub moves: Vec<Pit>,
    /// The pie rule (RULES.md §5.3): the seats swapped sides after this
    /// many moves (the `swap` field).
    pub swapped: Option<usize>,
}

/// Why a record could not be read: the line (from 1; 0 for the file as a
/// whole) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line at fault, from 1; 0 when no single line is.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for RecordError {}

/// The longest message a [`RecordError`] carries, in characters.
const MAX_MESSAGE_CHARS: usize = 300;

/// A [`RecordError`]. Its message quotes the record's text, which is
/// untrusted: every echo goes through [`shown`] (escaped, cut short), and
/// the message as a whole is escaped and bounded once more here, for
/// wordings that come from elsewhere (the rules' parsers). PGN-style
/// text's errors are made here too.
pub(super) fn error(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        message: escaped(&message.into(), MAX_MESSAGE_CHARS),
    }
}

impl Record {
    /// The round being played in `m`, as a record.
    #[must_use]
    pub fn of_match(m: &Match) -> Record {
        let mut earlier = m.seat_tally();
        // A finished round already counts in the match's tally.
        match m.outcome() {
            Some(Outcome::Win(side)) => {
                let seat = m.holder(side).index();
                earlier.wins[seat] = earlier.wins[seat].saturating_sub(1);
            }
            Some(Outcome::Draw) => earlier.draws = earlier.draws.saturating_sub(1),
            None => {}
        }
        Record {
            config: m.config().clone(),
            round: m.round(),
            starter: m.starter(),
            earlier,
            moves: m.moves().to_vec(),
            swapped: m.swapped(),
        }
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    /// The names, South's first, as the sides were held at the end of the
    /// round (after the pie rule's swap, if the players swapped).
    #[must_use]
    pub fn names(&self) -> [&str; 2] {
        self.seats().map(|seat| seat.name.as_str())
    }

    /// South's and North's seats at the end of the round (after the pie
    /// rule's swap, if the players swapped).
    #[must_use]
    pub fn seats(&self) -> [&Seat; 2] {
        let [south, north] = &self.config.seats;
        match self.swapped {
            None => [south, north],
            Some(_) => [north, south],
        }
    }

    /// Rebuilds the match at the end of this record (its round, tally and
    /// moves), for resuming; `seed` drives later coin flips.
    ///
    /// # Errors
    /// The first move the rules refuse.
    pub fn to_match(&self, seed: u64) -> Result<Match, RecordError> {
        let before = self
            .swapped
            .unwrap_or(self.moves.len())
            .min(self.moves.len());
        let mut m = Match::restore(
            self.config.clone(),
            self.round,
            self.starter,
            &self.moves[..before],
            self.earlier,
            seed,
        )
        .map_err(|(i, e)| self.move_error(i, &e.to_string()))?;
        if self.swapped.is_some() {
            m.swap_seats();
        }
        for (i, &pit) in self.moves.iter().enumerate().skip(before) {
            m.play(pit, &mut NoTrace)
                .map_err(|e| self.move_error(i, &e.to_string()))?;
        }
        Ok(m)
    }

    fn move_error(&self, index: usize, reason: &str) -> RecordError {
        let letter = self
            .moves
            .get(index)
            .and_then(|&p| self.rules().letter(p))
            .unwrap_or('?');
        error(0, format!("move {} ('{letter}'): {reason}", index + 1))
    }

    /// The positions of the round, from the start to after the last move,
    /// with what each move did.
    ///
    /// # Errors
    /// The first move the rules refuse.
    pub fn stepper(&self) -> Result<Stepper, RecordError> {
        let mut round = self.config.start_round(self.starter);
        let mut rounds = Vec::with_capacity(self.moves.len() + 1);
        let mut boards = Vec::with_capacity(self.moves.len() + 1);
        let mut played = Vec::with_capacity(self.moves.len());
        boards.push(round.position().drawn());
        rounds.push(round.clone());
        for (i, &pit) in self.moves.iter().enumerate() {
            let p = round
                .play(pit, &mut NoTrace)
                .map_err(|e| self.move_error(i, &e.to_string()))?;
            boards.push(round.position().drawn());
            rounds.push(round.clone());
            played.push(p);
        }
        Ok(Stepper {
            rounds,
            boards,
            played,
            at: 0,
        })
    }

    /// The `result` line's value for the position after all the moves.
    fn result_text(&self, board: &GameBoard) -> String {
        let names = self.names();
        match board.outcome() {
            None => "unfinished".to_string(),
            Some(outcome) => {
                let score = board.score();
                let verdict = match outcome {
                    Outcome::Win(side) => format!("{} wins", names[side.index()]),
                    Outcome::Draw => "a draw".to_string(),
                };
                format!(
                    "south {}, north {} ({verdict})",
                    score.of(Side::South),
                    score.of(Side::North)
                )
            }
        }
    }

    /// The counts of the position the round started from, comma
    /// separated in `--board`'s order, when it is not the usual start.
    #[must_use]
    pub fn start_counts(&self) -> Option<String> {
        self.config.start?;
        let start = self.start_board();
        let counts: Vec<String> = start.counts().iter().map(u16::to_string).collect();
        Some(counts.join(","))
    }

    /// The round from its first position, in its family's rules (what
    /// the analysis replays).
    #[must_use]
    pub fn start_round(&self) -> GameRound {
        self.config.start_round(self.starter)
    }

    /// The position the round started from, as drawn.
    #[must_use]
    pub fn start_board(&self) -> Board {
        self.config.start_board(self.starter)
    }

    /// The moves as pit letters, comma separated (for `--moves`).
    #[must_use]
    pub fn moves_text(&self) -> String {
        let rules = self.rules();
        let mut text = String::with_capacity(2 * self.moves.len());
        for (i, &pit) in self.moves.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push(rules.letter(pit).unwrap_or('?'));
        }
        text
    }

    /// The record as text (see the [module docs](self)).
    #[must_use]
    pub fn to_text(&self) -> String {
        let rules = self.rules();
        let seats = &self.config.seats;
        let mut out = String::new();
        let _ = writeln!(out, "{HEADER}");
        let kalah = self.config.game == Game::Kalah;
        if kalah {
            let _ = writeln!(out, "pits: {}", rules.pits());
            let _ = writeln!(out, "seeds: {}", rules.seeds());
            let _ = writeln!(out, "capture: {}", rules.capture());
            let _ = writeln!(out, "sowing: {}", rules.sowing());
            let _ = writeln!(out, "sweep: {}", rules.sweep());
        } else {
            let _ = writeln!(out, "game: {}", self.config.game.as_str());
        }
        let _ = writeln!(out, "first: {}", self.config.first);
        for side in Side::BOTH {
            let seat = &seats[side.index()];
            let _ = writeln!(out, "{}: {}", side.as_str(), clean_name(&seat.name));
            let _ = writeln!(out, "{}-player: {}", side.as_str(), seat.kind);
        }
        let _ = writeln!(out, "round: {}", self.round);
        let _ = writeln!(out, "starter: {}", self.starter.as_str());
        let start = self.start_counts();
        if let Some(counts) = &start {
            let _ = writeln!(out, "start: {counts}");
        }
        let _ = writeln!(
            out,
            "earlier-rounds: south {}, north {}, draws {}",
            self.earlier.wins[0], self.earlier.wins[1], self.earlier.draws
        );
        let _ = writeln!(out, "moves: {}", self.moves_text());
        if let Some(after) = self.swapped {
            let _ = writeln!(out, "swap: {after}");
        }
        // A record of moves the rules refuse cannot be made by the game;
        // write what can be written rather than fail.
        if let Ok(stepper) = self.stepper() {
            let _ = writeln!(
                out,
                "result: {}",
                self.result_text(&stepper.last_position())
            );
            // Oware has no extra turns: no "+" to explain. Comments are
            // skipped on reading, so records with either line stay readable.
            out.push_str(if kalah {
                "# Turn by turn (\"+\" after a move: it earned another turn):\n"
            } else {
                "# Turn by turn:\n"
            });
            // the seats' own sides: the turns before a swap are theirs
            let [s, n] = self
                .config
                .seats
                .each_ref()
                .map(|seat| clean_name(&seat.name));
            for line in stepper.turn_lines([&s, &n], self.swapped) {
                let _ = writeln!(out, "#   {line}");
            }
        }
        let options = if kalah {
            format!(
                "--pits {} --seeds {} --capture {} --sowing {} --sweep {}{}",
                rules.pits(),
                rules.seeds(),
                rules.capture(),
                rules.sowing(),
                rules.sweep(),
                start.map(|c| format!(" --board {c}")).unwrap_or_default(),
            )
        } else {
            // Oware's --board is the twelve houses; the captured seeds are --score's
            let start = self
                .config
                .start
                .and(self.start_round().position().oware().copied());
            let start = start.map(|board| {
                let houses: Vec<String> = board.houses().iter().map(u16::to_string).collect();
                let captured = board.captured();
                format!(
                    " --board {} --score {},{}",
                    houses.join(","),
                    captured.south,
                    captured.north
                )
            });
            format!(
                "--game {}{}",
                self.config.game.as_str(),
                start.unwrap_or_default()
            )
        };
        let _ = writeln!(
            out,
            "# The same position: mancala position {options} --to-move {} --moves {}",
            self.starter.as_str(),
            self.moves_text()
        );
        out
    }

    /// Reads a record, checking every field, every move and the result.
    ///
    /// # Errors
    /// A [`RecordError`] naming the line at fault and why.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(error(
                0,
                format!("too large for a record ({} bytes)", text.len()),
            ));
        }
        let mut fields = Fields::default();
        let mut header_seen = false;
        // A byte-order mark left by an editor is not part of the header.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if !header_seen {
                if line == HEADER {
                    header_seen = true;
                    continue;
                }
                if let Some(version) = line.strip_prefix("mancala record ") {
                    return Err(error(
                        n,
                        format!(
                            "record format version '{}' is not supported (this mancala reads version 1)",
                            shown(version)
                        ),
                    ));
                }
                return Err(error(
                    n,
                    format!("not a mancala record (expected '{HEADER}' first)"),
                ));
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(error(
                    n,
                    format!("expected 'field: value', found '{}'", shown(line)),
                ));
            };
            fields.set(n, key.trim(), value.trim())?;
        }
        if !header_seen {
            return Err(error(
                0,
                format!("not a mancala record (no '{HEADER}' line)"),
            ));
        }
        fields.finish()
    }
}

/// Whether the pie rule's swap may come after `after` moves of `record`:
/// its starter's first turn ends there (RULES.md §5.3).
fn swap_point(record: &Record, after: usize) -> bool {
    let Some(earlier) = after.checked_sub(1) else {
        return false;
    };
    if after > record.moves.len() {
        return false;
    }
    let mut board = record.start_board();
    for (i, &pit) in record.moves[..after].iter().enumerate() {
        if board.to_move() != record.starter || board.play(pit).is_err() {
            return false;
        }
        if i < earlier && board.to_move() != record.starter {
            return false;
        }
    }
    board.to_move() != record.starter && !board.is_over()
}

/// Fields as read, before they are checked together.
#[derive(Default)]
struct Fields {
    game: Option<(usize, Game)>,
    pits: Option<(usize, usize)>,
    seeds: Option<(usize, usize)>,
    capture: Option<Capture>,
    sowing: Option<Sowing>,
    sweep: Option<Sweep>,
    first: Option<FirstMover>,
    names: [Option<String>; 2],
    kinds: [Option<PlayerKind>; 2],
    round: Option<u32>,
    starter: Option<Side>,
    start: Option<(usize, String)>,
    earlier: Option<Tally>,
    moves: Option<(usize, String)>,
    swap: Option<(usize, usize)>,
    result: Option<(usize, String)>,
}

fn once<T>(slot: &mut Option<T>, line: usize, key: &str, value: T) -> Result<(), RecordError> {
    if slot.is_some() {
        return Err(error(line, format!("'{key}' is given twice")));
    }
    *slot = Some(value);
    Ok(())
}

fn number<T: std::str::FromStr>(line: usize, key: &str, value: &str) -> Result<T, RecordError> {
    value.parse().map_err(|_| {
        error(
            line,
            format!("'{key}' must be a whole number, not '{}'", shown(value)),
        )
    })
}

/// A keyword value; the parser's own wording when the value is short and
/// clean enough to be quoted whole, else one that quotes it [`shown`].
fn keyword<T: std::str::FromStr<Err = String>>(
    line: usize,
    key: &str,
    value: &str,
) -> Result<T, RecordError> {
    value.parse().map_err(|e: String| {
        if shown(value) == value {
            error(line, e)
        } else {
            error(
                line,
                format!("'{}' is not a valid '{key}' value", shown(value)),
            )
        }
    })
}

fn parse_tally(line: usize, value: &str) -> Result<Tally, RecordError> {
    let bad = || {
        error(
            line,
            format!(
                "'earlier-rounds' must read 'south N, north N, draws N', not '{}'",
                shown(value)
            ),
        )
    };
    let mut counts = [0u32; 3];
    let mut parts = value.split(',');
    for (slot, label) in counts.iter_mut().zip(["south", "north", "draws"]) {
        let part = parts.next().ok_or_else(bad)?.trim();
        let n = part.strip_prefix(label).ok_or_else(bad)?.trim();
        *slot = n.parse().map_err(|_| bad())?;
    }
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(Tally {
        wins: [counts[0], counts[1]],
        draws: counts[2],
    })
}

impl Fields {
    fn set(&mut self, n: usize, key: &str, value: &str) -> Result<(), RecordError> {
        match key {
            "game" => {
                let game = value.parse::<Game>().map_err(|e| error(n, e.to_string()))?;
                once(&mut self.game, n, key, (n, game))
            }
            "pits" => once(&mut self.pits, n, key, (n, number(n, key, value)?)),
            "seeds" => once(&mut self.seeds, n, key, (n, number(n, key, value)?)),
            "capture" => once(&mut self.capture, n, key, keyword(n, key, value)?),
            "sowing" => once(&mut self.sowing, n, key, keyword(n, key, value)?),
            "sweep" => once(&mut self.sweep, n, key, keyword(n, key, value)?),
            "first" => once(&mut self.first, n, key, keyword(n, key, value)?),
            "south" | "north" => {
                let name = clean_name(value);
                if name.is_empty() {
                    return Err(error(n, format!("'{key}' needs a name")));
                }
                let i = usize::from(key == "north");
                once(&mut self.names[i], n, key, name)
            }
            "south-player" | "north-player" => {
                let i = usize::from(key == "north-player");
                once(&mut self.kinds[i], n, key, keyword(n, key, value)?)
            }
            "round" => {
                let round: u32 = number(n, key, value)?;
                if round == 0 {
                    return Err(error(n, "'round' counts from 1"));
                }
                once(&mut self.round, n, key, round)
            }
            "starter" => {
                let side = value.parse::<Side>().map_err(|e| {
                    if shown(value) == value {
                        error(n, e.to_string())
                    } else {
                        error(n, format!("'{}' is not a side", shown(value)))
                    }
                })?;
                once(&mut self.starter, n, key, side)
            }
            "start" => once(&mut self.start, n, key, (n, value.to_string())),
            "earlier-rounds" => once(&mut self.earlier, n, key, parse_tally(n, value)?),
            "moves" => once(&mut self.moves, n, key, (n, value.to_string())),
            "swap" => once(&mut self.swap, n, key, (n, number(n, key, value)?)),
            "result" => once(&mut self.result, n, key, (n, value.to_string())),
            _ => Err(error(n, format!("unknown field '{}'", shown(key)))),
        }
    }

    /// The rules of a record of a game other than Kalah: its own, so no
    /// Kalah rule option may be given.
    fn other_game(&self, line: usize, game: Game) -> Result<Rules, RecordError> {
        let given = [
            ("pits", self.pits.is_some()),
            ("seeds", self.seeds.is_some()),
            ("capture", self.capture.is_some()),
            ("sowing", self.sowing.is_some()),
            ("sweep", self.sweep.is_some()),
        ];
        match given.into_iter().find(|(_, given)| *given) {
            Some((key, _)) => Err(error(
                line,
                format!("a record of {game} has no '{key}' field: {game}'s rules are its own"),
            )),
            None => Ok(Rules::KALAH),
        }
    }

    fn finish(self) -> Result<Record, RecordError> {
        let missing = |key: &str| error(0, format!("the '{key}' field is missing"));
        // Records written before Oware have no 'game' field: Kalah.
        let game = match self.game {
            Some((line, game)) if game != Game::Kalah => {
                let rules = self.other_game(line, game)?;
                return self.finish_with(game, rules);
            }
            _ => Game::Kalah,
        };
        let (pits_line, pits) = self.pits.ok_or_else(|| missing("pits"))?;
        let (seeds_line, seeds) = self.seeds.ok_or_else(|| missing("seeds"))?;
        let rules = Rules::KALAH
            .with_pits(pits)
            .map_err(|e| error(pits_line, e.to_string()))?
            .with_seeds(seeds)
            .map_err(|e| error(seeds_line, e.to_string()))?
            .with_capture(self.capture.ok_or_else(|| missing("capture"))?)
            .with_sowing(self.sowing.ok_or_else(|| missing("sowing"))?)
            .with_sweep(self.sweep.ok_or_else(|| missing("sweep"))?);
        self.finish_with(game, rules)
    }

    fn finish_with(self, game: Game, rules: Rules) -> Result<Record, RecordError> {
        let missing = |key: &str| error(0, format!("the '{key}' field is missing"));
        let [south, north] = self.names;
        let seats = [
            Seat::new(
                south.ok_or_else(|| missing("south"))?,
                self.kinds[0].unwrap_or(PlayerKind::Human),
            ),
            Seat::new(
                north.ok_or_else(|| missing("north"))?,
                self.kinds[1].unwrap_or(PlayerKind::Human),
            ),
        ];
        let (moves_line, moves_text) = self.moves.ok_or_else(|| missing("moves"))?;
        let moves = rules
            .parse_moves(&moves_text)
            .map_err(|e| error(moves_line, e))?;
        let starter = self.starter.ok_or_else(|| missing("starter"))?;
        let start = match self.start {
            Some((line, text)) => {
                let counts = text
                    .split(',')
                    .map(|c| c.trim().parse::<u16>())
                    .collect::<Result<Vec<u16>, _>>()
                    .map_err(|_| {
                        error(
                            line,
                            format!(
                                "'start' must list counts of seeds like 4,4,0,..., not '{}'",
                                shown(&text)
                            ),
                        )
                    })?;
                let board = Board::from_counts(rules, &counts, starter)
                    .map_err(|e| error(line, format!("'start': {e}")))?;
                if game == Game::Oware {
                    // houses and captured seeds (RULES.md §7.1)
                    OwareBoard::from_counts(OwareRules::ABAPA, &counts, starter)
                        .map_err(|e| error(line, format!("'start': {e}")))?;
                }
                // the usual start written out is the usual start
                (board != Board::starting(rules, starter)).then_some(board)
            }
            None => None,
        };
        let record = Record {
            config: MatchConfig {
                game,
                rules,
                seats,
                first: self.first.unwrap_or_default(),
                start,
            },
            round: self.round.unwrap_or(1),
            starter,
            earlier: self.earlier.unwrap_or_default(),
            moves,
            swapped: self.swap.map(|(_, after)| after),
        };
        if let Some((line, after)) = self.swap
            && !swap_point(&record, after)
        {
            return Err(error(
                line,
                format!(
                    "'swap': the players may swap sides only when the starter's first turn ends, not after move {after}"
                ),
            ));
        }
        let stepper = record.stepper().map_err(|e| RecordError {
            line: moves_line,
            message: e.message,
        })?;
        if let Some((line, claimed)) = self.result {
            let actual = record.result_text(&stepper.last_position());
            if claimed != actual {
                return Err(error(
                    line,
                    format!(
                        "the result '{}' does not match the moves, which give '{}'",
                        shown(&claimed),
                        shown(&actual)
                    ),
                ));
            }
        }
        Ok(record)
    }
}

/// Walks the positions of a recorded round forward and back: the logic of
/// a replay, whatever shows it.
#[derive(Clone, Debug)]
pub struct Stepper {
    /// The round after each move (Oware's with the history repetition
    /// needs), from the start.
    rounds: Vec<GameRound>,
    /// The same positions as drawn ([`GameBoard::drawn`]).
    boards: Vec<Board>,
    played: Vec<GamePlayed>,
    at: usize,
}

impl Stepper {
    /// Moves in the round.
    #[must_use]
    pub fn len(&self) -> usize {
        self.played.len()
    }

    /// Whether the round has no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// Moves played to reach the current position (0 at the start).
    #[must_use]
    pub fn index(&self) -> usize {
        self.at
    }

    /// The current position, as drawn ([`GameBoard::drawn`]).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.boards[self.at]
    }

    /// The current position, in its family's rules.
    #[must_use]
    pub fn position(&self) -> GameBoard {
        self.rounds[self.at].position()
    }

    /// The position after every move, in its family's rules.
    #[must_use]
    pub fn last_position(&self) -> GameBoard {
        self.rounds.last().unwrap_or(&self.rounds[0]).position()
    }

    /// The position after every move.
    #[must_use]
    pub fn last_board(&self) -> &Board {
        self.boards.last().unwrap_or(&self.boards[0])
    }

    /// Every position, from the start to the end.
    #[must_use]
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// What the move that led to the current position did (`None` at the
    /// start).
    #[must_use]
    pub fn last_played(&self) -> Option<&GamePlayed> {
        self.at.checked_sub(1).map(|i| &self.played[i])
    }

    /// The steps of the move that leads from the current position to the
    /// next one, for animating it (empty at the end).
    #[must_use]
    pub fn next_steps(&self) -> Vec<Step> {
        self.steps_of(self.at)
    }

    /// The steps of the move that led to the current position (empty at
    /// the start).
    #[must_use]
    pub fn last_steps(&self) -> Vec<Step> {
        self.at
            .checked_sub(1)
            .map_or_else(Vec::new, |i| self.steps_of(i))
    }

    fn steps_of(&self, index: usize) -> Vec<Step> {
        let mut steps = Vec::new();
        if let Some(played) = self.played.get(index) {
            let mut round = self.rounds[index].clone();
            let _ = round.play(played.pit(), &mut steps);
        }
        steps
    }

    /// One move forward; `false` at the end.
    pub fn forward(&mut self) -> bool {
        if self.at < self.played.len() {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// One move back; `false` at the start.
    pub fn back(&mut self) -> bool {
        if self.at > 0 {
            self.at -= 1;
            true
        } else {
            false
        }
    }

    /// Goes to the position after `index` moves (clamped to the end).
    pub fn seek(&mut self, index: usize) {
        self.at = index.min(self.played.len());
    }

    /// The round turn by turn, one line per turn: `3. Alice: c+ f` (a `+`
    /// marks a move that earned another turn). `names` are South's and
    /// North's before the pie rule's swap; from move `swapped` on (when
    /// the players swapped sides) each side is the other's.
    #[must_use]
    pub fn turn_lines(&self, names: [&str; 2], swapped: Option<usize>) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        let mut turn = 0;
        let mut continuing = false;
        for (i, played) in self.played.iter().enumerate() {
            let rules = self.boards[i].rules();
            if !continuing {
                if !current.is_empty() {
                    lines.push(std::mem::take(&mut current));
                }
                turn += 1;
                let mover = match swapped {
                    Some(after) if i >= after => played.mover().opponent(),
                    _ => played.mover(),
                };
                let _ = write!(current, "{turn}. {}:", names[mover.index()]);
            }
            let _ = write!(current, " {}", rules.letter(played.pit()).unwrap_or('?'));
            if played.extra_turn() {
                current.push('+');
            }
            continuing = played.extra_turn();
        }
        if !current.is_empty() {
            lines.push(current);
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> MatchConfig {
        MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Greedy),
            ],
            first: FirstMover::Alternate,
            start: None,
        }
    }

    fn letters(text: &str) -> Vec<Pit> {
        Rules::KALAH.parse_moves(text).unwrap()
    }

    fn sample() -> Record {
        Record {
            config: config(),
            round: 2,
            starter: Side::South,
            earlier: Tally {
                wins: [1, 0],
                draws: 0,
            },
            moves: letters("c,f,h"),
            swapped: None,
        }
    }

    /// The example in the module docs and the README, word for word.
    const DOC_EXAMPLE: &str = "mancala record 1\npits: 6\nseeds: 4\ncapture: always\nsowing: single\nsweep: owner\nfirst: south\nsouth: Alice\nsouth-player: human\nnorth: Michael\nnorth-player: human\nround: 1\nstarter: south\nearlier-rounds: south 0, north 0, draws 0\nmoves: c,f,h,g,a\nresult: unfinished\n# Turn by turn (\"+\" after a move: it earned another turn):\n#   1. Alice: c+ f\n#   2. Michael: h+ g\n#   3. Alice: a\n# The same position: mancala position --pits 6 --seeds 4 --capture always --sowing single --sweep owner --to-move south --moves c,f,h,g,a\n";

    #[test]
    fn the_documented_example_is_what_the_game_writes() {
        let mut cfg = config();
        cfg.first = FirstMover::South;
        cfg.seats[1].kind = PlayerKind::Human;
        let mut m = Match::new(cfg, 0);
        for pit in letters("c,f,h,g,a") {
            m.play(pit, &mut NoTrace).unwrap();
        }
        let record = Record::of_match(&m);
        assert_eq!(record.to_text(), DOC_EXAMPLE);
        assert_eq!(Record::parse(DOC_EXAMPLE), Ok(record));
        let docs = include_str!("record.rs");
        let documented: String = DOC_EXAMPLE.lines().map(|l| format!("//! {l}\n")).collect();
        assert!(docs.contains(&documented), "module docs out of date");
    }

    /// After the pie rule's swap the turn-by-turn lines name who played
    /// each move: the first turn is the starter's, the swapper's moves come
    /// from the starter's old side. (They named the swapper for the first
    /// turn.)
    #[test]
    fn the_turns_name_each_mover_across_the_pie_rules_swap() {
        let mut cfg = config();
        cfg.first = FirstMover::South;
        cfg.seats[1].kind = PlayerKind::Human;
        let mut m = Match::new(cfg, 0);
        m.play(letters("a")[0], &mut NoTrace).unwrap();
        m.swap_seats();
        for pit in letters("h,b") {
            m.play(pit, &mut NoTrace).unwrap();
        }
        let text = Record::of_match(&m).to_text();
        assert!(
            text.contains("#   1. Alice: a\n#   2. Alice: h\n#   3. Michael: b+\n"),
            "{text}"
        );
    }

    #[test]
    fn a_record_without_a_game_field_is_kalah_and_oware_records_name_theirs() {
        // Written before there was Oware: no 'game' line.
        let old = Record::parse(DOC_EXAMPLE).unwrap();
        assert_eq!(old.config.game, Game::Kalah);
        let mut cfg = config();
        cfg.game = Game::Oware;
        let mut m = Match::new(cfg, 0);
        // f sows g h i j; then North's j (5) reaches a.
        for pit in letters("f,j") {
            m.play(pit, &mut NoTrace).unwrap();
        }
        let text = Record::of_match(&m).to_text();
        assert!(text.contains("\ngame: oware\n"), "{text}");
        // No extra turns in Oware: Kalah's "+" is not explained.
        assert!(text.contains("\n# Turn by turn:\n"), "{text}");
        assert!(!text.contains("another turn"), "{text}");
        // A record written with Kalah's comment is read alike.
        let with_kalahs = text.replace(
            "# Turn by turn:",
            "# Turn by turn (\"+\" after a move: it earned another turn):",
        );
        assert_ne!(with_kalahs, text);
        let old_oware = Record::parse(&with_kalahs).unwrap();
        assert_eq!(old_oware.to_text(), text);
        assert!(text.contains("mancala position --game oware --to-move south --moves f,j"));
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.config.game, Game::Oware);
        assert_eq!(back.to_match(0).unwrap().position(), m.position());
        let stepper = back.stepper().unwrap();
        assert_eq!(stepper.last_position(), m.position());
        // Kalah's options have no place in an Oware record.
        let with_pits = text.replace("game: oware\n", "game: oware\npits: 6\n");
        let err = Record::parse(&with_pits).unwrap_err();
        assert!(err.message.contains("has no 'pits' field"), "{err}");
        // A game this version does not know is refused by its line.
        let err = Record::parse(&text.replace("game: oware", "game: chess")).unwrap_err();
        assert_eq!(err.line, 2, "{err}");
    }

    #[test]
    fn written_records_read_back_the_same() {
        let record = sample();
        let text = record.to_text();
        assert!(text.starts_with("mancala record 1\n"), "{text}");
        assert!(text.contains("\nmoves: c,f,h\n"), "{text}");
        assert!(
            text.contains("#   1. Alice: c+ f\n#   2. Michael: h+\n"),
            "{text}"
        );
        assert_eq!(Record::parse(&text), Ok(record));
    }

    #[test]
    fn a_finished_round_carries_a_checked_result() {
        let mut m = Match::new(config(), 1);
        while let Some(pit) = m.board().legal_moves().next() {
            m.play(pit, &mut NoTrace).unwrap();
        }
        let record = Record::of_match(&m);
        assert_eq!(
            record.earlier,
            Tally::default(),
            "the round itself is not earlier"
        );
        let text = record.to_text();
        let score = m.board().score();
        let expected = format!("result: south {}, north {} (", score.south, score.north);
        assert!(text.contains(&expected), "{text}");
        assert_eq!(Record::parse(&text).unwrap().moves, m.moves());
        let tampered = text.replace(&expected, "result: south 99, north 0 (");
        let err = Record::parse(&tampered).unwrap_err();
        assert!(err.message.contains("does not match the moves"), "{err}");
    }

    #[test]
    fn the_stepper_walks_forward_and_back_through_the_same_positions() {
        let record = sample();
        let mut stepper = record.stepper().unwrap();
        let mut board = Board::starting(Rules::KALAH, Side::South);
        assert_eq!(*stepper.board(), board);
        assert!(!stepper.back());
        for &pit in &record.moves {
            board.play(pit).unwrap();
            assert!(stepper.forward());
            assert_eq!(*stepper.board(), board);
            assert_eq!(stepper.last_played().unwrap().pit(), pit);
        }
        assert!(!stepper.forward());
        assert!(stepper.back());
        assert_eq!(stepper.index(), 2);
        stepper.seek(0);
        assert_eq!(
            stepper.next_steps().first(),
            Some(&Step::Lift {
                pit: record.moves[0],
                seeds: 4
            })
        );
    }

    fn parse_err(text: &str) -> RecordError {
        Record::parse(text).unwrap_err()
    }

    #[test]
    fn malformed_records_name_the_line_and_the_fault() {
        let good = sample().to_text();
        let cases: &[(&str, &str, usize, &str)] = &[
            ("mancala record 1", "hello", 1, "not a mancala record"),
            (
                "mancala record 1",
                "mancala record 7",
                1,
                "version '7' is not supported",
            ),
            ("pits: 6", "pits: six", 2, "'pits' must be a whole number"),
            ("pits: 6", "pits: 13", 2, "13 pits per side is not playable"),
            (
                "capture: always",
                "capture: sometimes",
                4,
                "not a capture rule",
            ),
            ("south: Alice", "south:   ", 8, "needs a name"),
            (
                "north-player: greedy",
                "north-player: genius",
                11,
                "not a player",
            ),
            ("round: 2", "round: 0", 12, "counts from 1"),
            ("starter: south", "starter: east", 13, "not a side"),
            (
                "earlier-rounds: south 1, north 0, draws 0",
                "earlier-rounds: 1 0 0",
                14,
                "must read",
            ),
            (
                "moves: c,f,h",
                "moves: c,z,h",
                15,
                "move 2 ('z') is not a pit letter",
            ),
            (
                "moves: c,f,h",
                "moves: c,h",
                15,
                "move 2 ('h'): Sorry, you don't control that pit.",
            ),
            (
                "moves: c,f,h",
                "moves: c,c",
                15,
                "move 2 ('c'): Sorry, that pit is empty.",
            ),
            ("sweep: owner", "sweep owner", 6, "expected 'field: value'"),
            (
                "sweep: owner",
                "sweep: owner\ncolour: blue",
                7,
                "unknown field 'colour'",
            ),
            (
                "sweep: owner",
                "sweep: owner\nsweep: none",
                7,
                "given twice",
            ),
        ];
        for &(from, to, line, message) in cases {
            assert!(good.contains(from), "{from}");
            let err = parse_err(&good.replacen(from, to, 1));
            assert_eq!(err.line, line, "{to}: {err}");
            assert!(err.message.contains(message), "{to}: {err}");
        }
        let err = parse_err(&good.replace("starter: south\n", ""));
        assert_eq!(err.to_string(), "the 'starter' field is missing");
        assert!(parse_err("").message.contains("not a mancala record"));
        assert!(
            parse_err(&"#".repeat(MAX_RECORD_BYTES + 1))
                .message
                .contains("too large")
        );
    }

    #[test]
    fn optional_fields_take_their_defaults() {
        let text = "mancala record 1\npits: 4\nseeds: 3\ncapture: never\nsowing: relay\nsweep: none\nsouth: A\nnorth: B\nstarter: north\nmoves:\n";
        let record = Record::parse(text).unwrap();
        assert_eq!(record.round, 1);
        assert_eq!(record.config.first, FirstMover::Alternate);
        assert_eq!(record.config.seats[1].kind, PlayerKind::Human);
        assert!(record.moves.is_empty());
        assert_eq!(record.rules().pits(), 4);
    }

    #[test]
    fn random_rounds_under_random_rules_survive_the_round_trip() {
        use crate::rng::Rng;
        let mut rng = Rng::new(6);
        let names = ["Ann", "Bob: the 2nd", "  Zoë  ", "#1", "a\tb", "名前"];
        for _ in 0..300 {
            let rules = Rules::new(1 + rng.below(12), 1 + rng.below(20))
                .unwrap()
                .with_capture(Capture::ALL[rng.below(Capture::ALL.len())])
                .with_sowing(Sowing::ALL[rng.below(Sowing::ALL.len())])
                .with_sweep(Sweep::ALL[rng.below(Sweep::ALL.len())]);
            let starter = if rng.coin() { Side::South } else { Side::North };
            let mut board = Board::starting(rules, starter);
            let mut moves = Vec::new();
            let length = rng.below(80);
            while moves.len() < length {
                let legal: Vec<Pit> = board.legal_moves().collect();
                if legal.is_empty() {
                    break;
                }
                let pit = legal[rng.below(legal.len())];
                board.play(pit).unwrap();
                moves.push(pit);
            }
            let kinds = [PlayerKind::Human, PlayerKind::Tree(3), PlayerKind::Perfect];
            let record = Record {
                config: MatchConfig {
                    game: crate::rules::Game::Kalah,
                    rules,
                    seats: [
                        Seat::new(
                            clean_name(names[rng.below(names.len())]),
                            kinds[rng.below(kinds.len())],
                        ),
                        Seat::new(
                            clean_name(names[rng.below(names.len())]),
                            kinds[rng.below(kinds.len())],
                        ),
                    ],
                    first: [FirstMover::Random, FirstMover::North][rng.below(2)],
                    start: None,
                },
                round: 1 + rng.below(9) as u32,
                starter,
                earlier: Tally {
                    wins: [rng.below(5) as u32, rng.below(5) as u32],
                    draws: rng.below(5) as u32,
                },
                moves,
                swapped: None,
            };
            let text = record.to_text();
            assert_eq!(Record::parse(&text).as_ref(), Ok(&record), "{text}");
            assert_eq!(record.stepper().unwrap().last_board(), &board);
            let with_bom = format!("\u{feff}{}", text.replace('\n', "\r\n"));
            assert_eq!(Record::parse(&with_bom), Ok(record));
        }
    }

    #[test]
    fn a_round_from_another_start_keeps_it_and_replays_from_it() {
        let mut record = sample();
        let start = Board::from_counts(
            Rules::KALAH,
            &[5, 3, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0],
            Side::South,
        )
        .unwrap();
        record.config.start = Some(start);
        record.moves = letters("a,h");
        let text = record.to_text();
        assert!(
            text.contains("\nstart: 5,3,4,4,4,4,0,4,4,4,4,4,4,0\n"),
            "{text}"
        );
        assert!(text.contains("--board 5,3,4,4"), "{text}");
        let back = Record::parse(&text).unwrap();
        assert_eq!(back, record);
        let stepper = back.stepper().unwrap();
        assert_eq!(stepper.boards()[0], start);
        let mut board = start;
        board.play(letters("a")[0]).unwrap();
        assert_eq!(stepper.boards()[1], board);
        // a record written before starts were kept reads as the usual start
        let old = text.replace("start: 5,3,4,4,4,4,0,4,4,4,4,4,4,0\n", "");
        let old = Record::parse(&old.replace("moves: a,h", "moves: c,f,h")).unwrap();
        assert_eq!(old.config.start, None);
        assert_eq!(old.start_board(), Board::new(Rules::KALAH));
        // a bad start names its line
        let err = Record::parse(&text.replace("start: 5,3", "start: x,3")).unwrap_err();
        assert!(err.message.contains("'start'"), "{err}");
    }

    #[test]
    fn names_are_kept_to_one_line() {
        assert_eq!(clean_name(" Bob\n\tthe builder\r"), "Bob the builder");
        let mut record = sample();
        record.config.seats[0].name = "Ann\nmoves: a".into();
        let back = Record::parse(&record.to_text()).unwrap();
        assert_eq!(back.config.seats[0].name, "Ann moves: a");
        assert_eq!(back.moves, record.moves);
    }
}
