//! Every sentence the game says about a match, in one place, and what each
//! one reports ([`EventKind`]), so that the front ends colour a message by
//! what happened, never by its words: a player named "captured" changes
//! nothing. The rules' own words (captures, extra turns, refused moves) are
//! those of RULES.md §3.
//!
//! Counts go through [`plural`]: "1 seed", "2 seeds", never a hand-made
//! plural.

use std::fmt;
use std::time::Duration;

use super::Tally;
use crate::players::Hint;
use crate::rules::oware::End;
pub use crate::rules::plural;
use crate::rules::{Game, GamePlayed, Outcome, Played, Rules, Score, Side, Step, taken_houses};

/// What a message reports. Front ends choose colours and symbols from
/// this (see [`EventKind::tone`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A pit was played.
    Move,
    /// Relay sowing lifted pits (RULES.md §4.3).
    Relay,
    /// A capture (RULES.md §3.4).
    Capture,
    /// An extra turn (RULES.md §3.3).
    ExtraTurn,
    /// The round ended (RULES.md §3.5).
    RoundOver,
    /// A side won the round.
    Win,
    /// The round was drawn.
    Draw,
    /// A choice was refused (a full pit, a key with no meaning here).
    Refused,
    /// Something went wrong outside the game (saving, reading a file).
    Problem,
    /// Anything else worth telling: a new round, a move taken back.
    News,
}

/// How a message should read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tone {
    /// News.
    Plain,
    /// Something good happened (extra turn, capture, end of round).
    Good,
    /// A choice was refused, or something went wrong.
    Error,
}

impl EventKind {
    /// The tone of a message of this kind.
    ///
    /// ```
    /// use mancala_engine::game::{EventKind, Tone};
    /// assert_eq!(EventKind::Capture.tone(), Tone::Good);
    /// assert_eq!(EventKind::Move.tone(), Tone::Plain);
    /// ```
    #[must_use]
    pub const fn tone(self) -> Tone {
        match self {
            EventKind::Capture | EventKind::ExtraTurn | EventKind::Win | EventKind::Draw => {
                Tone::Good
            }
            EventKind::Refused | EventKind::Problem => Tone::Error,
            EventKind::Move | EventKind::Relay | EventKind::RoundOver | EventKind::News => {
                Tone::Plain
            }
        }
    }
}

/// A sentence for the players and what it reports.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Notice {
    /// What happened.
    pub kind: EventKind,
    /// The words.
    pub text: String,
}

impl Notice {
    /// A message of `kind` saying `text`.
    #[must_use]
    pub fn new(kind: EventKind, text: impl Into<String>) -> Notice {
        Notice {
            kind,
            text: text.into(),
        }
    }

    /// How it reads ([`EventKind::tone`]).
    #[must_use]
    pub const fn tone(&self) -> Tone {
        self.kind.tone()
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<Notice> for String {
    fn from(message: Notice) -> String {
        message.text
    }
}

impl PartialEq<&str> for Notice {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

/// The messages that announce what a move did: relays (RULES.md §4.3), the
/// capture (§3.4), the extra turn (§3.3) and the end of the round (§3.5).
///
/// ```
/// use mancala_engine::game::{EventKind, describe};
/// use mancala_engine::rules::{Board, Rules};
/// let mut board = Board::new(Rules::KALAH);
/// let played = board.play(Rules::KALAH.pit_by_letter('c').unwrap()).unwrap();
/// let said = describe(&Rules::KALAH, &played, ["Alice", "Michael"]);
/// assert_eq!(said, ["Alice gets an extra turn!"]);
/// assert_eq!(said[0].kind, EventKind::ExtraTurn);
/// ```
#[must_use]
pub fn describe(rules: &Rules, played: &Played, names: [&str; 2]) -> Vec<Notice> {
    let name = names[played.mover.index()];
    let mut said = Vec::new();
    if played.relays > 0 {
        said.push(Notice::new(
            EventKind::Relay,
            format!("{name} relayed {}.", plural(played.relays, "time")),
        ));
    }
    if let Some(c) = played.capture {
        let letter = |p| rules.letter(p).unwrap_or('?');
        // What the capture was worth, then where it came from: the last
        // seed from the mover's own pit, the rest from the pit across
        // (none there under "capture always", RULES.md §3.4).
        let across = c.seeds - 1;
        let from = if across > 0 {
            format!(
                "{across} from {}, 1 from {}",
                letter(c.opposite),
                letter(c.pit)
            )
        } else {
            format!("1 from {}", letter(c.pit))
        };
        said.push(Notice::new(
            EventKind::Capture,
            format!("{name} captures {}: {from}.", plural(c.seeds, "seed")),
        ));
    }
    if played.extra_turn {
        said.push(Notice::new(
            EventKind::ExtraTurn,
            format!("{name} gets an extra turn!"),
        ));
    }
    if played.game_over {
        said.push(round_over(None, played.swept, names));
    }
    said
}

/// The end of the round as the rules core reports it: why (Oware) and
/// the final sweep (RULES.md §3.5, §7.5, §7.6).
fn round_over(why: Option<String>, swept: [u16; 2], names: [&str; 2]) -> Notice {
    let mut parts: Vec<String> = why.into_iter().collect();
    parts.extend(
        Side::BOTH
            .into_iter()
            .filter(|side| swept[side.index()] > 0)
            .map(|side| {
                let seeds = swept[side.index()];
                let owner = names[side.index()];
                let go = if seeds == 1 { "goes" } else { "go" };
                format!(
                    "{} left on {owner}'s side {go} to {owner}",
                    plural(seeds, "seed")
                )
            }),
    );
    let text = if parts.is_empty() {
        "The round is over.".to_string()
    } else {
        format!("The round is over: {}.", parts.join("; "))
    };
    Notice::new(EventKind::RoundOver, text)
}

/// The messages that announce what a move of either family did: Kalah's
/// as [`describe`]; Oware's captures house by house from its `steps`
/// (RULES.md §7.3), a grand slam (§7.4), and why the round ended (§7.5,
/// §7.6) with the final sweep.
///
/// ```
/// use mancala_engine::game::describe_move;
/// use mancala_engine::rules::GamePlayed;
/// use mancala_engine::rules::oware::OwareBoard;
/// use mancala_engine::rules::{Rules, Score, Side};
/// // South's f (2 seeds) brings h to 3 and g to 2: both are captured.
/// let houses = [0, 0, 0, 0, 0, 2, 1, 2, 0, 1, 0, 0];
/// let captured = Score { south: 20, north: 22 };
/// let mut board = OwareBoard::from_houses(Default::default(), &houses, captured, Side::South).unwrap();
/// let mut steps = Vec::new();
/// let played = board.play_traced(Rules::KALAH.pit_by_letter('f').unwrap(), &mut steps).unwrap();
/// let said = describe_move(&Rules::KALAH, &GamePlayed::Oware(played), &steps, ["Alice", "Michael"]);
/// assert_eq!(said[0].text, "Alice captured 5 seeds: 3 from h, 2 from g.");
/// ```
#[must_use]
pub fn describe_move(
    rules: &Rules,
    played: &GamePlayed,
    steps: &[Step],
    names: [&str; 2],
) -> Vec<Notice> {
    let played = match played {
        GamePlayed::Kalah(played) => return describe(rules, played, names),
        GamePlayed::Oware(played) => played,
    };
    let name = names[played.mover.index()];
    let other = names[played.mover.opponent().index()];
    let letter = |p| rules.letter(p).unwrap_or('?');
    let mut said = Vec::new();
    let taken = taken_houses(steps);
    match taken.as_slice() {
        [] => {}
        [(pit, seeds)] => said.push(Notice::new(
            EventKind::Capture,
            format!(
                "{name} captured {} from {}.",
                plural(*seeds, "seed"),
                letter(*pit)
            ),
        )),
        houses => {
            let each: Vec<String> = houses
                .iter()
                .map(|&(pit, seeds)| format!("{seeds} from {}", letter(pit)))
                .collect();
            said.push(Notice::new(
                EventKind::Capture,
                format!(
                    "{name} captured {}: {}.",
                    plural(played.captured, "seed"),
                    each.join(", ")
                ),
            ));
        }
    }
    if played.grand_slam {
        said.push(Notice::new(
            EventKind::Capture,
            format!("A grand slam: taking all of {other}'s seeds captures nothing."),
        ));
    }
    if let Some(end) = played.end {
        // The opponent is to move and cannot: with no seeds of their own,
        // or with none that reach the mover's empty row.
        let stuck = played.mover.opponent().index();
        let why = match end {
            End::Goal => "the seeds captured decide it".to_string(),
            End::NoFeed if played.swept[stuck] == 0 => format!("{other} has no seeds to play"),
            End::NoFeed => format!("{other} cannot give {name} seeds"),
            End::Repetition => "the position repeated".to_string(),
        };
        said.push(round_over(Some(why), played.swept, names));
    }
    said
}

/// "Alice wins! 26–22" or "It's a draw, 24–24".
#[must_use]
pub fn outcome_message(outcome: Outcome, score: Score, names: [&str; 2]) -> String {
    outcome_event(outcome, score, names).text
}

/// [`outcome_message`] with its kind ([`EventKind::Win`] or [`EventKind::Draw`]).
#[must_use]
pub fn outcome_event(outcome: Outcome, score: Score, names: [&str; 2]) -> Notice {
    match outcome {
        Outcome::Win(side) => Notice::new(
            EventKind::Win,
            format!(
                "{} wins! {}–{}",
                names[side.index()],
                score.of(side),
                score.of(side.opponent())
            ),
        ),
        Outcome::Draw => Notice::new(
            EventKind::Draw,
            format!(
                "It's a draw, {}–{}",
                score.of(Side::South),
                score.of(Side::North)
            ),
        ),
    }
}

/// "Alice played c." (after the move) .
#[must_use]
pub fn played(name: &str, letter: char) -> Notice {
    Notice::new(EventKind::Move, format!("{name} played {letter}."))
}

/// "Michael played j (not proven: best found in 0.3 s)." (a computer's
/// move that it answered before its search proved it best).
///
/// ```
/// use std::time::Duration;
/// use mancala_engine::game::messages::played_unproven;
/// let said = played_unproven("Michael", 'j', Duration::from_millis(300));
/// assert_eq!(said, "Michael played j (not proven: best found in 0.3 s).");
/// ```
#[must_use]
pub fn played_unproven(name: &str, letter: char, thought: Duration) -> Notice {
    Notice::new(
        EventKind::Move,
        format!(
            "{name} played {letter} (not proven: best found in {:.1} s).",
            thought.as_secs_f64()
        ),
    )
}

/// "Michael plays h." (a computer's move, told as it is made).
#[must_use]
pub fn plays(name: &str, letter: char) -> Notice {
    Notice::new(EventKind::Move, format!("{name} plays {letter}."))
}

/// The match score, the one wording used everywhere:
/// "Alice 2 – 1 Michael, 1 draw".
///
/// ```
/// use mancala_engine::game::{Tally, match_score};
/// let tally = Tally { wins: [2, 1], draws: 1 };
/// assert_eq!(match_score(&tally, ["Alice", "Michael"]), "Alice 2 – 1 Michael, 1 draw");
/// ```
#[must_use]
pub fn match_score(tally: &Tally, names: [&str; 2]) -> String {
    format!(
        "{} {} – {} {}, {}",
        names[0],
        tally.wins[0],
        tally.wins[1],
        names[1],
        plural(tally.draws, "draw")
    )
}

/// The match score without names, for narrow screens: "2 – 1, 1 draw".
#[must_use]
pub fn match_score_short(tally: &Tally) -> String {
    format!(
        "{} – {}, {}",
        tally.wins[0],
        tally.wins[1],
        plural(tally.draws, "draw")
    )
}

/// "Match score: Alice 2 – 1 Michael, 1 draw (4 rounds)."
#[must_use]
pub fn match_score_line(tally: &Tally, names: [&str; 2]) -> String {
    format!(
        "Match score: {} ({}).",
        match_score(tally, names),
        plural(tally.rounds(), "round")
    )
}

/// How a round begins: "Round 2: Michael moves first." With `--first
/// random` the coin is mentioned: "Round 2: a coin toss, Michael moves first."
#[must_use]
pub fn round_starts(round: u32, starter: &str, coin_tossed: bool) -> Notice {
    let coin = if coin_tossed { " a coin toss," } else { "" };
    Notice::new(
        EventKind::News,
        format!("Round {round}:{coin} {starter} moves first."),
    )
}

/// A saved round taken up again: "Round 2 goes on after 3 moves (Alice
/// moved first)", or, before any move, "Round 2: Alice moves first".
#[must_use]
pub fn round_goes_on(round: u32, moves: usize, starter: &str) -> Notice {
    Notice::new(
        EventKind::News,
        if moves == 0 {
            format!("Round {round}: {starter} moves first.")
        } else {
            format!(
                "Round {round} goes on after {} ({starter} moved first).",
                plural(moves, "move")
            )
        },
    )
}

/// After both players of a network match agreed: `moves` moves were
/// taken back, and `mover` plays again (the asker's turn).
///
/// ```
/// use mancala_engine::game::messages::taken_back;
/// assert_eq!(taken_back(2, "Michael"), "Took back 2 moves: Michael plays again.");
/// ```
#[must_use]
pub fn taken_back(moves: usize, mover: &str) -> String {
    format!("Took back {}: {mover} plays again.", plural(moves, "move"))
}

/// The pie rule's swap (RULES.md §5.3): `taker` took the position the
/// first turn made, and `mover` now moves for `side`.
///
/// ```
/// use mancala_engine::game::messages::swapped;
/// use mancala_engine::rules::Side;
/// assert_eq!(
///     swapped("Michael", "Alice", Side::North).text,
///     "Michael swaps sides: Michael now plays South, and Alice moves for North."
/// );
/// ```
#[must_use]
pub fn swapped(taker: &str, mover: &str, side: Side) -> Notice {
    Notice::new(
        EventKind::News,
        format!(
            "{taker} swaps sides: {taker} now plays {}, and {mover} moves for {side}.",
            side.opponent()
        ),
    )
}

/// What a match from a fair start (`--fair`, RULES.md §5.4) says as it
/// starts: the position and the solver's proof.
#[must_use]
pub fn fair_start(board: &crate::rules::Board) -> Notice {
    let counts: Vec<String> = board.counts().iter().map(u16::to_string).collect();
    Notice::new(
        EventKind::News,
        format!(
            "A fair start: {} (one or two seeds moved from the usual start); the solver proves it a draw under perfect play (value 0).",
            counts.join(",")
        ),
    )
}

/// What a match played with the pie rule (`--swap`, RULES.md §5.3) says
/// as it starts.
#[must_use]
pub fn pie_rule_greeting() -> Notice {
    Notice::new(
        EventKind::News,
        "The pie rule: when the first turn ends, the other player may answer 'swap' to take its position.",
    )
}

/// The pie rule's question to `name`, who may take `other`'s position by
/// typing `swap` as the front end spells it (plain mode's word `'swap'`,
/// the full screen's key).
#[must_use]
pub fn swap_question(name: &str, other: &str, swap: &str) -> String {
    format!("{name}, swap sides? {swap} takes {other}'s position; a pit plays on from yours")
}

/// A computer seat gave no legal move; its first legal pit is played instead
/// (see [`computer_move`](super::computer_move)).
#[must_use]
pub fn gave_no_move(name: &str, letter: char) -> Notice {
    Notice::new(
        EventKind::Problem,
        format!("{name} gave no legal move; playing its first legal pit, {letter}."),
    )
}

/// A computer's move that is not proven best, with the time it took:
/// "Michael's move is not proven: best found in 1.0 s."
///
/// ```
/// use std::time::Duration;
/// use mancala_engine::game::unproven;
/// let said = unproven("Michael", Duration::from_millis(1004));
/// assert_eq!(said, "Michael's move is not proven: best found in 1.0 s.");
/// ```
#[must_use]
pub fn unproven(name: &str, thought: Duration) -> Notice {
    Notice::new(
        EventKind::News,
        format!(
            "{name}'s move is not proven: best found in {:.1} s.",
            thought.as_secs_f64()
        ),
    )
}

/// Said once as a match starts with `perfect` on a board where it is not
/// expected to prove its moves in time (see
/// [`crate::players::solver::proves_in_time`]).
#[must_use]
pub fn may_not_prove(name: &str, think: Duration) -> Notice {
    // A computer seat's own name says its kind already: "Computer (perfect)".
    let who = if name.contains("(perfect)") {
        name.to_string()
    } else {
        format!("{name} (perfect)")
    };
    Notice::new(
        EventKind::News,
        format!(
            "{who} may not prove every move on a board this big within {:.1} s: \
             then the best move found is played, marked not proven.",
            think.as_secs_f64()
        ),
    )
}

/// What a hint in a round of `game` says: the pit, and how the round ends
/// if both sides play on as the engine sees it ("you win by 9"), and
/// whether that is certain. Oware's proven values come from its endgame
/// database (and the ends of rounds the search reached), its others are
/// the search's estimates beyond it: the hint says which.
#[must_use]
pub fn hint_text(rules: &Rules, game: Game, hint: &Hint) -> String {
    let letter = rules.letter(hint.pit).unwrap_or('?');
    let result = match hint.value {
        v if v > 0 => format!("win by {v}"),
        v if v < 0 => format!("lose by {}", -v),
        _ => "draw".to_string(),
    };
    match (game, hint.exact) {
        (Game::Kalah, true) => format!("Hint: play {letter}: with perfect play you {result}."),
        (Game::Kalah, false) => format!("Hint: play {letter}: the engine expects you to {result}."),
        (Game::Oware, true) => format!(
            "Hint: play {letter}: with perfect play you {result} (proven by the endgame database)."
        ),
        (Game::Oware, false) => format!(
            "Hint: play {letter}: the engine expects you to {result} (an estimate: beyond the endgame database)."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_round_sweep_is_said() {
        let rules = Rules::KALAH;
        let names = ["Alice", "Michael"];
        let f = rules.pit_by_letter('f').unwrap();
        let play = |rules: Rules, counts: &[u16]| {
            let mut board = crate::rules::Board::from_counts(rules, counts, Side::South).unwrap();
            let played = board.play(f).unwrap();
            describe(&rules, &played, names)
        };
        let said = play(rules, &[0, 0, 0, 0, 0, 1, 20, 1, 1, 0, 1, 1, 0, 20]);
        assert_eq!(
            said.last().unwrap().text,
            "The round is over: 4 seeds left on Michael's side go to Michael."
        );
        let said = play(rules, &[0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 1, 0, 20]);
        assert_eq!(
            said.last().unwrap().text,
            "The round is over: 1 seed left on Michael's side goes to Michael."
        );
        let none = rules.with_sweep(crate::rules::Sweep::None);
        let said = play(none, &[0, 0, 0, 0, 0, 1, 20, 1, 1, 0, 1, 1, 0, 20]);
        assert_eq!(said.last().unwrap().text, "The round is over.");
    }

    #[test]
    fn a_capture_says_its_pits_and_what_it_was_worth() {
        let rules = Rules::KALAH;
        let counts = [1, 0, 0, 0, 1, 0, 0, 5, 1, 1, 1, 1, 1, 0];
        let mut board = crate::rules::Board::from_counts(rules, &counts, Side::South).unwrap();
        let played = board.play(rules.pit_by_letter('e').unwrap()).unwrap();
        let said = describe(&rules, &played, ["Alice", "Michael"]);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].kind, EventKind::Capture);
        assert_eq!(said[0].text, "Alice captures 6 seeds: 5 from g, 1 from f.");
    }

    #[test]
    fn a_capture_of_the_last_seed_alone_names_one_pit() {
        // capture always (RULES.md §3.4): a lands in the empty b, k across is empty
        let rules = Rules::KALAH.with_capture(crate::rules::Capture::Always);
        let counts = [1, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0];
        let mut board = crate::rules::Board::from_counts(rules, &counts, Side::South).unwrap();
        let played = board.play(rules.pit_by_letter('a').unwrap()).unwrap();
        let said = describe(&rules, &played, ["Alice", "Michael"]);
        assert_eq!(said[0].kind, EventKind::Capture, "{said:?}");
        assert_eq!(said[0].text, "Alice captures 1 seed: 1 from b.");
    }

    #[test]
    fn plurals_follow_the_count() {
        assert_eq!(plural(0_u16, "seed"), "0 seeds");
        assert_eq!(plural(1_u16, "seed"), "1 seed");
        assert_eq!(plural(2_u64, "loss"), "2 losses");
        assert_eq!(plural(1_u64, "loss"), "1 loss");
        assert_eq!(plural(5_i32, "draw"), "5 draws");
    }

    #[test]
    fn a_player_named_captured_does_not_change_the_kind_of_news() {
        let rules = Rules::KALAH;
        let mut board = crate::rules::Board::new(rules);
        let played = board.play(rules.pit_by_letter('a').unwrap()).unwrap();
        // An ordinary move says nothing, whatever the names.
        assert!(describe(&rules, &played, ["captured", "extra turn"]).is_empty());
        let mut board = crate::rules::Board::new(rules);
        let played = board.play(rules.pit_by_letter('c').unwrap()).unwrap();
        let said = describe(&rules, &played, ["captured", "x"]);
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].kind, EventKind::ExtraTurn);
        let news = round_starts(1, "captured", false);
        assert_eq!(news.tone(), Tone::Plain, "{news}");
    }

    #[test]
    fn the_match_score_reads_the_same_everywhere() {
        let tally = Tally {
            wins: [1, 0],
            draws: 0,
        };
        assert_eq!(match_score(&tally, ["A", "B"]), "A 1 – 0 B, 0 draws");
        assert_eq!(match_score_short(&tally), "1 – 0, 0 draws");
        assert_eq!(
            match_score_line(&tally, ["A", "B"]),
            "Match score: A 1 – 0 B, 0 draws (1 round)."
        );
    }

    #[test]
    fn resuming_before_any_move_does_not_count_zero_moves() {
        assert_eq!(
            round_goes_on(2, 0, "Alice").text,
            "Round 2: Alice moves first."
        );
        assert_eq!(
            round_goes_on(2, 1, "Alice").text,
            "Round 2 goes on after 1 move (Alice moved first)."
        );
        assert_eq!(
            round_starts(3, "Bo", true).text,
            "Round 3: a coin toss, Bo moves first."
        );
    }
}
