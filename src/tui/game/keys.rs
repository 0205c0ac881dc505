//! What a key means on the game screen, decided from the key and the
//! situation alone.
//!
//! Pit letters come first: a letter of one of the human mover's own pits
//! always plays that pit, even where it is also a command key (`h` is
//! North's pit on the standard board, `p`..`u` on 10- and 12-pit boards).
//! Other letters run their command if they have one, and Shift+letter always
//! does; a letter with no command names a pit, and the rules core explains
//! why it cannot be played.
//!
//! `m` (move now) is a letter, not `Enter` or Space: those play the cursor's
//! pit on a human turn, and a second press after one's own move would
//! otherwise cut the computer's thinking short.

use crossterm::event::{KeyCode, KeyEvent};

use crate::rules::{Pit, Rules, Side};

/// What the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play this pit (the rules core may still refuse it).
    Choose(Pit),
    /// A number beyond the board's pits.
    NoSuchPit,
    /// Move the cursor left (-1) or right (+1) on screen.
    Cursor(i32),
    /// Play the pit under the cursor.
    Confirm,
    /// Show the help screen.
    Help,
    /// Ask "Quit? (y/n)".
    AskQuit,
    /// Sow faster.
    Faster,
    /// Sow slower.
    Slower,
    /// Colours or black and white.
    Theme,
    /// Pause or resume the computer players.
    Pause,
    /// Let a paused computer make one move.
    Step,
    /// The thinking computer answers now with its best move so far.
    MoveNow,
    /// Ask the engine for a hint.
    Hint,
    /// Take moves back to the last human turn.
    Undo,
    /// Replay a move taken back.
    Redo,
    /// Yes (play again).
    Yes,
    /// No (stop).
    No,
    /// Nothing.
    Nothing,
}

/// What the meaning of a key depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// The rules in force (board size, letters).
    pub rules: Rules,
    /// The side to move on the board.
    pub to_move: Side,
    /// The human whose turn it is, if it is a human's turn.
    pub human_to_move: Option<Side>,
    /// Whether the end-of-round panel is up.
    pub round_over: bool,
}

/// The action a key press asks for. See the [module docs](self).
#[must_use]
pub fn action_for(key: KeyEvent, now: &Situation) -> Action {
    let rules = now.rules;
    match key.code {
        KeyCode::Esc => Action::AskQuit,
        KeyCode::Left => Action::Cursor(-1),
        KeyCode::Right => Action::Cursor(1),
        KeyCode::Enter | KeyCode::Char(' ') => Action::Confirm,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('+' | '=') => Action::Faster,
        KeyCode::Char('-' | '_') => Action::Slower,
        KeyCode::Char('.') => Action::Step,
        KeyCode::Char(digit @ '0'..='9') => {
            // 0 is the tenth pit, as on a keyboard's number row.
            let number = match digit.to_digit(10) {
                Some(0) => 10,
                Some(n) => n as usize,
                None => return Action::Nothing,
            };
            rules
                .pit(now.to_move, number)
                .map_or(Action::NoSuchPit, Action::Choose)
        }
        KeyCode::Char(c) if c.is_ascii_alphabetic() => {
            let pit = rules.pit_by_letter(c);
            let own = now
                .human_to_move
                .is_some_and(|side| pit.is_some_and(|p| rules.owner(p) == side));
            let command = match c.to_ascii_lowercase() {
                'h' => Action::Hint,
                'u' => Action::Undo,
                'r' => Action::Redo,
                'p' => Action::Pause,
                's' => Action::Step,
                'm' => Action::MoveNow,
                't' => Action::Theme,
                'q' => Action::AskQuit,
                'y' | 'n' if !now.round_over => Action::Nothing,
                'y' => Action::Yes,
                'n' => Action::No,
                _ => Action::Nothing,
            };
            match pit {
                Some(p) if own && !c.is_ascii_uppercase() => Action::Choose(p),
                _ if command != Action::Nothing => command,
                Some(p) => Action::Choose(p),
                None => Action::Nothing,
            }
        }
        _ => Action::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn press(c: char, now: &Situation) -> Action {
        action_for(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), now)
    }

    fn turn(rules: Rules, side: Side) -> Situation {
        Situation {
            rules,
            to_move: side,
            human_to_move: Some(side),
            round_over: false,
        }
    }

    fn pit(c: char) -> Action {
        Action::Choose(Rules::KALAH.pit_by_letter(c).unwrap())
    }

    #[test]
    fn the_movers_own_letters_beat_commands_and_shift_gets_the_command() {
        let south = turn(Rules::KALAH, Side::South);
        let north = turn(Rules::KALAH, Side::North);
        assert_eq!(press('h', &south), Action::Hint, "h is North's pit");
        assert_eq!(press('h', &north), pit('h'));
        assert_eq!(press('H', &north), Action::Hint);
        assert_eq!(press('C', &south), pit('c'), "caps lock still plays");
        // The other side's letters name a pit that the core will refuse.
        assert_eq!(press('g', &south), pit('g'));
        assert_eq!(press('z', &south), Action::Nothing);
    }

    #[test]
    fn numbers_count_from_the_movers_left_and_zero_is_ten() {
        let rules = Rules::KALAH;
        assert_eq!(press('1', &turn(rules, Side::South)), pit('a'));
        assert_eq!(press('1', &turn(rules, Side::North)), pit('g'));
        assert_eq!(press('7', &turn(rules, Side::South)), Action::NoSuchPit);
        let ten = Rules::KALAH.with_pits(10).unwrap();
        assert_eq!(
            press('0', &turn(ten, Side::South)),
            Action::Choose(ten.pit(Side::South, 10).unwrap())
        );
    }

    #[test]
    fn yes_and_no_only_answer_the_end_of_round_question() {
        let mut over = turn(Rules::KALAH, Side::South);
        assert_eq!(press('y', &over), Action::Nothing);
        over.human_to_move = None;
        over.round_over = true;
        assert_eq!(press('y', &over), Action::Yes);
        assert_eq!(press('n', &over), Action::No);
        assert_eq!(press('q', &over), Action::AskQuit);
    }
}
