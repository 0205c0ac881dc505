//! The game screen's words: the status line (the latest message), the log
//! of what happened, and the lines held back until a move's animation is
//! over (so the log never tells what the board does not show yet).

use std::collections::VecDeque;

/// Lines of history kept (the screen shows the last few that fit).
pub const LOG_LENGTH: usize = 40;

pub use crate::game::Tone;

/// One line of the log or status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The words.
    pub text: String,
    /// How it reads.
    pub tone: Tone,
}

impl Note {
    /// A note of `tone`.
    pub fn new(text: impl Into<String>, tone: Tone) -> Note {
        Note {
            text: text.into(),
            tone,
        }
    }

    /// A plain note.
    pub fn plain(text: impl Into<String>) -> Note {
        Note::new(text, Tone::Plain)
    }
}

impl From<crate::game::Notice> for Note {
    /// A message from the match, in the tone its kind of event gives.
    fn from(notice: crate::game::Notice) -> Note {
        let tone = notice.tone();
        Note::new(notice.text, tone)
    }
}

/// The status line, the log and the held-back lines. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Notes {
    log: VecDeque<Note>,
    message: Option<Note>,
    held: Vec<Note>,
    round_note: Option<Note>,
}

impl Notes {
    /// The log, oldest first.
    pub fn log(&self) -> &VecDeque<Note> {
        &self.log
    }

    /// The status line's message, if any.
    pub fn message(&self) -> Option<&Note> {
        self.message.as_ref()
    }

    /// Where the finished round was recorded, once it was.
    pub fn round_note(&self) -> Option<&Note> {
        self.round_note.as_ref()
    }

    /// Says `note` in the status line (until the next move or message).
    pub fn say(&mut self, note: Note) {
        self.message = Some(note);
    }

    /// Clears the status line.
    pub fn hush(&mut self) {
        self.message = None;
    }

    /// Adds lines to the log, dropping the oldest beyond [`LOG_LENGTH`].
    pub fn log_lines(&mut self, notes: impl IntoIterator<Item = Note>) {
        for note in notes {
            if self.log.len() == LOG_LENGTH {
                self.log.pop_front();
            }
            self.log.push_back(note);
        }
    }

    /// Holds lines back until [`release`](Self::release).
    pub fn hold(&mut self, notes: Vec<Note>) {
        self.held = notes;
    }

    /// Adds a line to the move on show: held with its lines while it is
    /// sown, else logged at once.
    pub fn add_to_move(&mut self, note: Note) {
        if self.held.is_empty() {
            self.log_lines([note]);
        } else {
            self.held.push(note);
        }
    }

    /// Logs the lines held back.
    pub fn release(&mut self) {
        let held = std::mem::take(&mut self.held);
        self.log_lines(held);
    }

    /// Says where the round was recorded (kept until the next round).
    pub fn set_round_note(&mut self, note: Option<Note>) {
        self.round_note = note.clone();
        self.log_lines(note);
    }

    /// Forgets the log (a saved match replaces the board shown).
    pub fn clear_log(&mut self) {
        self.log.clear();
    }

    /// Forgets the log's lines that say one of `stale`.
    pub fn forget(&mut self, stale: &[String]) {
        self.log.retain(|n| !stale.contains(&n.text));
    }
}
