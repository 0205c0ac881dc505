//! The one input path of every full-screen view: terminal events become
//! [`Input`]s here, and only here.
//!
//! - Only key *presses* count: some terminals send every key as a press and
//!   a release, and a held key repeats.
//! - Ctrl-C is [`Input::Interrupt`] (every screen quits at once on it).
//! - Any other key held with Ctrl or Alt is an [`Input::Chord`], never an
//!   [`Input::Key`]: Ctrl-D must not play pit d, nor Ctrl-U undo. Screens
//!   only explain chords.
//! - A left click and the wheel are kept; other mouse events are dropped.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Position;

/// Something from the terminal or the clock that a screen reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key pressed alone or with Shift.
    Key(KeyEvent),
    /// Ctrl-C: quit now.
    Interrupt,
    /// A key pressed with Ctrl or Alt (not Ctrl-C): it does nothing.
    Chord(KeyEvent),
    /// A left click at a screen cell.
    Click(Position),
    /// The mouse wheel: `-1` up (or left), `1` down (or right).
    Scroll(i8),
    /// The terminal changed size (columns, lines).
    Resize(u16, u16),
    /// Time passed: the screen catches up with the clock.
    Tick,
}

impl Input {
    /// The input a terminal event means, if any (see the [module docs](self)).
    #[must_use]
    pub fn from_event(event: &Event) -> Option<Input> {
        match *event {
            Event::Key(key) if key.kind == KeyEventKind::Press => Some(Input::from_key(key)),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) => {
                    Some(Input::Click(Position::new(mouse.column, mouse.row)))
                }
                MouseEventKind::ScrollUp | MouseEventKind::ScrollLeft => Some(Input::Scroll(-1)),
                MouseEventKind::ScrollDown | MouseEventKind::ScrollRight => Some(Input::Scroll(1)),
                _ => None,
            },
            Event::Resize(columns, lines) => Some(Input::Resize(columns, lines)),
            _ => None,
        }
    }

    /// A key press, sorted into plain keys, Ctrl-C and chords.
    #[must_use]
    pub fn from_key(key: KeyEvent) -> Input {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        if ctrl && matches!(key.code, KeyCode::Char('c' | 'C')) {
            Input::Interrupt
        } else if ctrl || alt || key.modifiers.contains(KeyModifiers::SUPER) {
            Input::Chord(key)
        } else {
            Input::Key(key)
        }
    }
}

/// How a chord reads in a message: "Ctrl-D", "Alt-x".
#[must_use]
pub fn chord_name(key: KeyEvent) -> String {
    let mut name = String::new();
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        name.push_str("Ctrl-");
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        name.push_str("Alt-");
    }
    if key.modifiers.contains(KeyModifiers::SUPER) {
        name.push_str("Super-");
    }
    match key.code {
        KeyCode::Char(c) if key.modifiers.contains(KeyModifiers::CONTROL) => {
            name.push(c.to_ascii_uppercase());
        }
        KeyCode::Char(c) => name.push(c),
        other => name.push_str(&other.to_string()),
    }
    name
}

/// The message a screen shows for a chord: it did nothing.
#[must_use]
pub fn chord_message(key: KeyEvent) -> String {
    format!(
        "{} does nothing here (Ctrl-C quits at once).",
        chord_name(key)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEventState, MouseEvent};

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn ctrl_and_alt_letters_are_chords_and_ctrl_c_interrupts() {
        let d = key(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(Input::from_key(d), Input::Chord(d));
        assert_eq!(chord_name(d), "Ctrl-D");
        let alt = key(KeyCode::Char('u'), KeyModifiers::ALT);
        assert_eq!(Input::from_key(alt), Input::Chord(alt));
        assert_eq!(chord_name(alt), "Alt-u");
        assert_eq!(
            Input::from_key(key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Input::Interrupt
        );
        let shifted = key(KeyCode::Char('H'), KeyModifiers::SHIFT);
        assert_eq!(Input::from_key(shifted), Input::Key(shifted));
    }

    #[test]
    fn only_presses_left_clicks_and_the_wheel_come_through() {
        let release = KeyEvent::new_with_kind_and_state(
            KeyCode::Char('a'),
            KeyModifiers::NONE,
            KeyEventKind::Release,
            KeyEventState::NONE,
        );
        assert_eq!(Input::from_event(&Event::Key(release)), None);
        let mouse = |kind| {
            Event::Mouse(MouseEvent {
                kind,
                column: 3,
                row: 4,
                modifiers: KeyModifiers::NONE,
            })
        };
        assert_eq!(
            Input::from_event(&mouse(MouseEventKind::Down(MouseButton::Left))),
            Some(Input::Click(Position::new(3, 4)))
        );
        assert_eq!(
            Input::from_event(&mouse(MouseEventKind::Up(MouseButton::Left))),
            None
        );
        assert_eq!(
            Input::from_event(&mouse(MouseEventKind::ScrollDown)),
            Some(Input::Scroll(1))
        );
    }
}
