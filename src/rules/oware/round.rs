//! A round of Oware with the history that repetition needs (RULES.md §7.6).

use super::super::error::MoveError;
use super::super::pit::Pit;
use super::super::trace::{NoTrace, Tracer};
use super::board::{End, OwareBoard, OwarePlayed};

/// A position and every position since the last capture: what it takes to
/// tell that a position repeated. Captured seeds never come back, so a
/// capture forgets the positions before it.
///
/// ```
/// use mancala_engine::rules::{Rules, Score, Side};
/// use mancala_engine::rules::oware::{End, OwareBoard, OwareRound, OwareRules};
/// // One seed each, going round and round: the twelfth move repeats the start.
/// let mut houses = [0; 12];
/// houses[0] = 1;
/// houses[6] = 1;
/// let captured = Score { south: 23, north: 23 };
/// let start = OwareBoard::from_houses(OwareRules::ABAPA, &houses, captured, Side::South).unwrap();
/// let mut round = OwareRound::new(start);
/// for letters in ["a", "g", "b", "h", "c", "i", "d", "j", "e", "k", "f"] {
///     let pit = Rules::KALAH.pit_by_letter(letters.chars().next().unwrap()).unwrap();
///     assert_eq!(round.play(pit).unwrap().end, None);
/// }
/// let last = round.play(Rules::KALAH.pit_by_letter('l').unwrap()).unwrap();
/// assert_eq!(last.end, Some(End::Repetition));
/// assert_eq!(round.board().score(), Score { south: 24, north: 24 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwareRound {
    board: OwareBoard,
    since_capture: Vec<OwareBoard>,
}

impl OwareRound {
    /// A round from `board`, which counts as seen.
    #[must_use]
    pub fn new(board: OwareBoard) -> OwareRound {
        OwareRound {
            board,
            since_capture: vec![board],
        }
    }

    /// The position now.
    #[must_use]
    pub const fn board(&self) -> &OwareBoard {
        &self.board
    }

    /// The positions since the last capture, the current one last.
    #[must_use]
    pub fn since_capture(&self) -> &[OwareBoard] {
        &self.since_capture
    }

    /// Plays `pit`, ending the round if the position it reaches was seen
    /// since the last capture.
    ///
    /// # Errors
    /// The rules' [`MoveError`]; nothing changes then.
    pub fn play(&mut self, pit: Pit) -> Result<OwarePlayed, MoveError> {
        self.play_traced(pit, &mut NoTrace)
    }

    /// [`OwareRound::play`], handing every step to `trace`.
    ///
    /// # Errors
    /// As [`OwareRound::play`].
    pub fn play_traced(
        &mut self,
        pit: Pit,
        trace: &mut impl Tracer,
    ) -> Result<OwarePlayed, MoveError> {
        let mut played = self.board.play_traced(pit, trace)?;
        if played.captured > 0 {
            self.since_capture.clear();
        }
        if played.end.is_none() && self.since_capture.contains(&self.board) {
            played.swept = self.board.end_by_repetition(trace);
            played.end = Some(End::Repetition);
        }
        self.since_capture.push(self.board);
        Ok(played)
    }
}
