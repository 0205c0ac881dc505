//! The one way of typing numbers of more than one digit (pits 10-12 on
//! big boards, solitaire's houses beyond 9): a digit that could start a
//! longer number waits for the next digit, Enter, or (where the screen
//! gives one) a moment's pause.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;

/// How long the game waits for a second digit before playing the first alone.
pub const DIGIT_WAIT: Duration = Duration::from_millis(1200);

/// What a key did to the number being typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entered {
    /// A whole number: no longer one starts with these digits (or Enter ended it).
    Complete(usize),
    /// These digits so far; a longer number could follow.
    Waiting(usize),
    /// More than the largest number there is.
    OutOfRange(usize),
    /// `0` typed first.
    Zero,
    /// Backspace took the last digit typed away.
    Cleared,
    /// Not a digit, Enter or Backspace for a number: the key does its own job.
    NotADigit,
}

/// Digits typed so far. See the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DigitEntry {
    typed: Option<usize>,
    /// When the digits typed are taken as they are (`None`: wait for Enter).
    due: Option<Instant>,
}

impl DigitEntry {
    /// The digits typed so far, if any.
    #[must_use]
    pub fn typed(&self) -> Option<usize> {
        self.typed
    }

    /// When the number typed is taken as it is, if it has a time limit.
    #[must_use]
    pub fn due(&self) -> Option<Instant> {
        self.typed.and(self.due)
    }

    /// Forgets the digits typed.
    pub fn clear(&mut self) {
        self.typed = None;
        self.due = None;
    }

    /// Reacts to a key when numbers run from 1 to `max`; a number that may
    /// go on waits `wait` (`None`: until Enter).
    pub fn key(
        &mut self,
        code: KeyCode,
        max: usize,
        wait: Option<Duration>,
        now: Instant,
    ) -> Entered {
        match code {
            KeyCode::Char(c @ '0'..='9') => {
                let digit = c as usize - '0' as usize;
                let number = self
                    .typed
                    .take()
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(digit);
                self.due = None;
                if number == 0 {
                    Entered::Zero
                } else if number > max {
                    Entered::OutOfRange(number)
                } else if number.saturating_mul(10) <= max {
                    self.typed = Some(number);
                    self.due = wait.map(|w| now + w);
                    Entered::Waiting(number)
                } else {
                    Entered::Complete(number)
                }
            }
            KeyCode::Enter if self.typed.is_some() => {
                let number = self.typed.take().unwrap_or_default();
                Entered::Complete(number)
            }
            KeyCode::Backspace if self.typed.is_some() => {
                self.typed = self.typed.map(|t| t / 10).filter(|&t| t > 0);
                match self.typed {
                    Some(t) => Entered::Waiting(t),
                    None => Entered::Cleared,
                }
            }
            _ => {
                self.clear();
                Entered::NotADigit
            }
        }
    }

    /// The number typed, once its wait is over at `now` (then forgotten).
    pub fn expired(&mut self, now: Instant) -> Option<usize> {
        let due = self.due()?;
        if now < due {
            return None;
        }
        let number = self.typed.take();
        self.due = None;
        number
    }

    /// Moves the time limit later by `by` (the clock stood still).
    pub fn postpone(&mut self, by: Duration) {
        if let Some(due) = &mut self.due {
            *due += by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digit_that_may_start_a_longer_number_waits() {
        let t0 = Instant::now();
        let mut entry = DigitEntry::default();
        let wait = Some(DIGIT_WAIT);
        assert_eq!(
            entry.key(KeyCode::Char('1'), 12, wait, t0),
            Entered::Waiting(1)
        );
        assert_eq!(entry.due(), Some(t0 + DIGIT_WAIT));
        assert_eq!(
            entry.key(KeyCode::Char('2'), 12, wait, t0),
            Entered::Complete(12)
        );
        assert_eq!(
            entry.key(KeyCode::Char('3'), 12, wait, t0),
            Entered::Complete(3)
        );
        entry.key(KeyCode::Char('1'), 12, wait, t0);
        assert_eq!(
            entry.key(KeyCode::Char('5'), 12, wait, t0),
            Entered::OutOfRange(15)
        );
        entry.key(KeyCode::Char('1'), 12, wait, t0);
        assert_eq!(
            entry.key(KeyCode::Enter, 12, wait, t0),
            Entered::Complete(1)
        );
        entry.key(KeyCode::Char('1'), 12, wait, t0);
        assert_eq!(entry.expired(t0 + DIGIT_WAIT / 2), None);
        assert_eq!(entry.expired(t0 + DIGIT_WAIT), Some(1));
        assert_eq!(entry.typed(), None);
        assert_eq!(entry.key(KeyCode::Char('0'), 12, wait, t0), Entered::Zero);
        assert_eq!(
            entry.key(KeyCode::Char('7'), 6, wait, t0),
            Entered::OutOfRange(7)
        );
        // Without a wait, three digits and Backspace.
        assert_eq!(
            entry.key(KeyCode::Char('1'), 500, None, t0),
            Entered::Waiting(1)
        );
        assert_eq!(entry.due(), None);
        assert_eq!(
            entry.key(KeyCode::Char('2'), 500, None, t0),
            Entered::Waiting(12)
        );
        assert_eq!(
            entry.key(KeyCode::Backspace, 500, None, t0),
            Entered::Waiting(1)
        );
        assert_eq!(
            entry.key(KeyCode::Char('x'), 500, None, t0),
            Entered::NotADigit
        );
        assert_eq!(entry.typed(), None);
    }
}
