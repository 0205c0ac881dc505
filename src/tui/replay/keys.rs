//! What a key means in the replay, and the help screen that lists them.
//!
//! No key of the replay chooses a pit, so its letters never clash with the
//! board's: each command answers to its letter and to its capital.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

use crate::store::Record;
use crate::tui::chrome::HelpText;
use crate::tui::clipboard;
use crate::tui::game::help::family_rules_text;
use crate::tui::prefs::Chosen;

/// What a key asks of the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayKey {
    /// One move forward (animated).
    Forward,
    /// One move back.
    Back,
    /// To the start of the round.
    Start,
    /// To the end of the round.
    End,
    /// Play the moves one after another by themselves, or stop (`p`).
    Play,
    /// Sow faster (`+`), kept for next time.
    Faster,
    /// Sow slower (`-`), kept for next time.
    Slower,
    /// Colours or black and white (`t`), kept for next time.
    Theme,
    /// The analysis of the round (`a`).
    Analyse,
    /// The position in the one-line notation, said and copied (`c`).
    Copy,
    /// The help screen (`?`).
    Help,
    /// Leave the replay.
    Quit,
}

/// The action of a key press (releases and repeats of other kinds do nothing).
#[must_use]
pub fn action(key: KeyEvent) -> Option<ReplayKey> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    Some(match key.code {
        KeyCode::Right | KeyCode::Char(' ') | KeyCode::Enter => ReplayKey::Forward,
        KeyCode::Left | KeyCode::Backspace => ReplayKey::Back,
        KeyCode::Home => ReplayKey::Start,
        KeyCode::End => ReplayKey::End,
        KeyCode::Char('q' | 'Q') | KeyCode::Esc => ReplayKey::Quit,
        KeyCode::Char('p' | 'P') => ReplayKey::Play,
        KeyCode::Char('+' | '=') => ReplayKey::Faster,
        KeyCode::Char('-' | '_') => ReplayKey::Slower,
        KeyCode::Char('t' | 'T') => ReplayKey::Theme,
        KeyCode::Char('a' | 'A') => ReplayKey::Analyse,
        KeyCode::Char(c) if c.eq_ignore_ascii_case(&clipboard::LETTER) => ReplayKey::Copy,
        KeyCode::Char('?') | KeyCode::F(1) => ReplayKey::Help,
        _ => return None,
    })
}

/// The help screen of the replay of `record`, with `chosen`'s speed and
/// theme keys: the round's rules, then every key.
#[must_use]
pub fn help_text(record: &Record, chosen: &Chosen) -> HelpText {
    let mut keys = vec![
        (
            "→ Space Enter".to_string(),
            "one move forward, sown seed by seed".to_string(),
        ),
        ("← Backspace".to_string(), "one move back".to_string()),
        (
            "Home / End".to_string(),
            "the start / the end of the round".to_string(),
        ),
        (
            "p".to_string(),
            format!(
                "play the moves by themselves, one after another, or stop; from the end, starts again (a pause of {} ms between moves)",
                super::MOVE_PAUSE.as_millis()
            ),
        ),
    ];
    keys.extend(chosen.help_keys("t"));
    keys.extend([(
        "a".to_string(),
        "the analysis of the round: every move under perfect play (q comes back)".to_string(),
    )]);
    keys.push((clipboard::LETTER.to_string(), clipboard::HELP.to_string()));
    keys.extend([
        (
            "q or Esc".to_string(),
            "leave the replay; Ctrl-C leaves at once".to_string(),
        ),
        (
            "?".to_string(),
            "this help (↑↓ scroll it, any other key closes it)".to_string(),
        ),
    ]);
    HelpText {
        title: " Mancala replay — help ".to_string(),
        heading: format!("Rules: {}", record.config.rules_text()),
        sentences: family_rules_text(record.config.game, record.rules(), record.names()),
        keys,
    }
}
