//! What the players are told about a move, in the classic words (RULES.md §3).

use crate::rules::{Outcome, Played, Rules, Score, Side};

/// The lines that announce what a move did: the capture (RULES.md §3.4) and
/// extra-turn (§3.3) messages, and the end of the round.
///
/// ```
/// use mancala::game::describe;
/// use mancala::rules::{Board, Rules};
/// let mut board = Board::new(Rules::KALAH);
/// let played = board.play(Rules::KALAH.pit_by_letter('c').unwrap()).unwrap();
/// assert_eq!(describe(&Rules::KALAH, &played, ["Alice", "Michael"]), ["Alice gets an extra turn!"]);
/// ```
#[must_use]
pub fn describe(rules: &Rules, played: &Played, names: [&str; 2]) -> Vec<String> {
    let name = names[played.mover.index()];
    let mut lines = Vec::new();
    if played.relays > 0 {
        let s = if played.relays == 1 { "" } else { "s" };
        lines.push(format!("{name} relayed {} time{s}.", played.relays));
    }
    if let Some(c) = played.capture {
        let letter = |p| rules.letter(p).unwrap_or('?');
        // The classic wording: the opponent's pit first, then the player's own.
        lines.push(format!(
            "{name} captured the contents of pits {} and {}",
            letter(c.opposite),
            letter(c.pit)
        ));
    }
    if played.extra_turn {
        lines.push(format!("{name} gets an extra turn!"));
    }
    if played.game_over {
        lines.push("The round is over.".to_string());
    }
    lines
}

/// "Alice wins!" or "It's a draw", with the final score.
#[must_use]
pub fn outcome_message(outcome: Outcome, score: Score, names: [&str; 2]) -> String {
    match outcome {
        Outcome::Win(side) => format!(
            "{} wins! {}–{}",
            names[side.index()],
            score.of(side),
            score.of(side.opponent())
        ),
        Outcome::Draw => format!(
            "It's a draw, {}–{}",
            score.of(Side::South),
            score.of(Side::North)
        ),
    }
}
