//! What a key means on the game screen, decided from the key and the
//! situation alone.
//!
//! One rule on every turn: a lower-case letter that names a pit on this
//! board always means that pit (the rules core explains why it cannot be
//! played when it is not the mover's), even where it is also a command key
//! (`h` is North's pit on the standard board, `h`, `p`..`u` on 10- and
//! 12-pit boards). That command is then its capital letter ([`command_key`]),
//! and any command also answers to its capital. A capital letter with no
//! command still names its pit (Caps Lock).
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
    /// Look at the analysis of the round just played (at its end).
    Analyse,
    /// Nothing.
    Nothing,
}

/// The key that runs the command of `letter` on this board: the session's
/// one rule, shared with plain mode.
pub use crate::session::commands::command_key;

/// What the meaning of a key depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// The rules in force (board size, letters).
    pub rules: Rules,
    /// The side to move on the board.
    pub to_move: Side,
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
                'a' if now.round_over => Action::Analyse,
                _ => Action::Nothing,
            };
            match pit {
                // The same on every turn: a pit letter is the pit.
                Some(p) if !c.is_ascii_uppercase() => Action::Choose(p),
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
            round_over: false,
        }
    }

    fn pit(c: char) -> Action {
        Action::Choose(Rules::KALAH.pit_by_letter(c).unwrap())
    }

    #[test]
    fn a_pit_letter_is_the_pit_on_every_turn_and_its_capital_the_command() {
        let south = turn(Rules::KALAH, Side::South);
        let north = turn(Rules::KALAH, Side::North);
        for now in [&south, &north] {
            assert_eq!(press('h', now), pit('h'), "h is a pit on this board");
            assert_eq!(press('H', now), Action::Hint);
            assert_eq!(press('u', now), Action::Undo, "u is no pit here");
            assert_eq!(press('U', now), Action::Undo);
        }
        assert_eq!(press('C', &south), pit('c'), "caps lock still plays");
        // The other side's letters name a pit that the core will refuse.
        assert_eq!(press('g', &south), pit('g'));
        assert_eq!(press('z', &south), Action::Nothing);
    }

    #[test]
    fn every_command_is_reachable_by_its_shown_key_on_every_board() {
        let commands = [
            ('h', Action::Hint),
            ('u', Action::Undo),
            ('r', Action::Redo),
            ('p', Action::Pause),
            ('s', Action::Step),
            ('t', Action::Theme),
            ('q', Action::AskQuit),
        ];
        for pits in [6, 10, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            for side in [Side::South, Side::North] {
                let now = turn(rules, side);
                for (letter, action) in commands {
                    let key = command_key(&rules, letter);
                    assert_eq!(press(key, &now), action, "{pits} pits: {key}");
                    assert_eq!(
                        key.is_ascii_uppercase(),
                        rules.pit_by_letter(letter).is_some()
                    );
                }
                let esc = action_for(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE), &now);
                assert_eq!(esc, Action::AskQuit);
            }
        }
        let twelve = Rules::KALAH.with_pits(12).unwrap();
        assert_eq!(command_key(&twelve, 'q'), 'Q');
        assert_eq!(command_key(&Rules::KALAH, 'q'), 'q');
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
        over.round_over = true;
        assert_eq!(press('y', &over), Action::Yes);
        assert_eq!(press('n', &over), Action::No);
        assert_eq!(press('q', &over), Action::AskQuit);
    }

    #[test]
    fn capital_a_asks_for_the_analysis_only_at_the_end_of_a_round() {
        for pits in [1, 6, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let a = Action::Choose(rules.pit_by_letter('a').unwrap());
            let mut now = turn(rules, Side::South);
            assert_eq!(command_key(&rules, 'a'), 'A', "a is a pit on every board");
            assert_eq!(press('A', &now), a, "mid-round A is caps lock's a");
            now.round_over = true;
            assert_eq!(press('A', &now), Action::Analyse);
            assert_eq!(press('a', &now), a, "a is still the pit");
        }
    }
}
