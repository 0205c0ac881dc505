//! A position in either game family, a round of it, and what a move did
//! in it: the one type the match, the session and the front ends hold, so
//! that they play Kalah and Oware alike (RULES.md §3, §7).
//!
//! Both families share the layout of RULES.md §2.1 with six pits (South's
//! houses `a`–`f` at 0–5, South's store or captured seeds at 6, North's
//! houses `g`–`l` at 7–12, North's at 13) and the same [`Step`]s, so the
//! counts draw on one board and a move animates the same way. Kalah's hot
//! paths (the players' search and solver) keep [`Board`]; this type is for
//! the match, one move at a time.

use super::oware::{End, OwareBoard, OwarePlayed, OwareRound, OwareRules};
use super::{
    Board, Game, MoveError, Moves, NoTrace, Outcome, Pit, Played, Rules, Score, Side, Step, Tracer,
};

/// A position of either family. `Copy`: the history that Oware's
/// repetition rule needs is the match's ([`GameRound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameBoard {
    /// Kalah and its variants.
    Kalah(Board),
    /// Oware (Abapa).
    Oware(OwareBoard),
}

impl GameBoard {
    /// The family.
    #[must_use]
    pub const fn game(&self) -> Game {
        match self {
            GameBoard::Kalah(_) => Game::Kalah,
            GameBoard::Oware(_) => Game::Oware,
        }
    }

    /// The Kalah board, when this is Kalah.
    #[must_use]
    pub const fn kalah(&self) -> Option<&Board> {
        match self {
            GameBoard::Kalah(board) => Some(board),
            GameBoard::Oware(_) => None,
        }
    }

    /// The Oware board, when this is Oware.
    #[must_use]
    pub const fn oware(&self) -> Option<&OwareBoard> {
        match self {
            GameBoard::Oware(board) => Some(board),
            GameBoard::Kalah(_) => None,
        }
    }

    /// The rules that lay out the board (pits, letters, stores): Kalah's
    /// own, or Kalah's 6×4 layout for Oware, which shares it.
    #[must_use]
    pub fn layout(&self) -> Rules {
        match self {
            GameBoard::Kalah(board) => *board.rules(),
            GameBoard::Oware(_) => Rules::KALAH,
        }
    }

    /// Whose turn it is (while the round is on).
    #[must_use]
    pub fn to_move(&self) -> Side {
        match self {
            GameBoard::Kalah(board) => board.to_move(),
            GameBoard::Oware(board) => board.to_move(),
        }
    }

    /// Every count in the layout (Oware: the captured seeds where the
    /// stores are).
    #[must_use]
    pub fn counts(&self) -> &[u16] {
        match self {
            GameBoard::Kalah(board) => board.counts(),
            GameBoard::Oware(board) => board.counts(),
        }
    }

    /// The counts on a Kalah board of the same layout, with the same side
    /// to move: what the drawing and the network's Kalah-only code read.
    /// For Oware its rules are not Oware's: ask this position about moves.
    #[must_use]
    pub fn drawn(&self) -> Board {
        match self {
            GameBoard::Kalah(board) => *board,
            GameBoard::Oware(board) => {
                Board::from_counts(Rules::KALAH, board.counts(), board.to_move())
                    .unwrap_or_else(|_| Board::starting(Rules::KALAH, board.to_move()))
            }
        }
    }

    /// The moves the side to move may make.
    #[must_use]
    pub fn legal_moves(&self) -> Moves {
        match self {
            GameBoard::Kalah(board) => board.legal_moves(),
            GameBoard::Oware(board) => board.legal_moves(),
        }
    }

    /// Whether the side to move may play `pit`.
    ///
    /// # Errors
    /// The rules' reason it may not.
    pub fn check(&self, pit: Pit) -> Result<(), MoveError> {
        match self {
            GameBoard::Kalah(board) => board.check(pit),
            GameBoard::Oware(board) => board.check(pit),
        }
    }

    /// Whether the round is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        match self {
            GameBoard::Kalah(board) => board.is_over(),
            GameBoard::Oware(board) => board.is_over(),
        }
    }

    /// Each side's store (Kalah) or captured seeds (Oware); once the round
    /// is over, with the final sweep.
    #[must_use]
    pub fn score(&self) -> Score {
        match self {
            GameBoard::Kalah(board) => board.score(),
            GameBoard::Oware(board) => board.score(),
        }
    }

    /// How the round ended, or `None` while it is on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            GameBoard::Kalah(board) => board.outcome(),
            GameBoard::Oware(board) => board.outcome(),
        }
    }

    /// Why an Oware round ended (`None` for Kalah, or while it is on).
    #[must_use]
    pub fn oware_end(&self) -> Option<End> {
        self.oware().and_then(OwareBoard::end)
    }
}

/// What a move did, in its family's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamePlayed {
    /// A Kalah move.
    Kalah(Played),
    /// An Oware move.
    Oware(OwarePlayed),
}

impl GamePlayed {
    /// Who moved.
    #[must_use]
    pub const fn mover(&self) -> Side {
        match self {
            GamePlayed::Kalah(p) => p.mover,
            GamePlayed::Oware(p) => p.mover,
        }
    }

    /// The pit the move started from.
    #[must_use]
    pub const fn pit(&self) -> Pit {
        match self {
            GamePlayed::Kalah(p) => p.pit,
            GamePlayed::Oware(p) => p.pit,
        }
    }

    /// Whether the mover moves again (Kalah only).
    #[must_use]
    pub const fn extra_turn(&self) -> bool {
        matches!(self, GamePlayed::Kalah(p) if p.extra_turn)
    }

    /// Whether the move ended the round.
    #[must_use]
    pub const fn game_over(&self) -> bool {
        match self {
            GamePlayed::Kalah(p) => p.game_over,
            GamePlayed::Oware(p) => p.end.is_some(),
        }
    }

    /// The move as Kalah's [`Played`] for the Kalah-only callers (the
    /// network): an Oware move has no Kalah capture and no extra turn.
    #[must_use]
    pub const fn as_kalah(&self) -> Played {
        match self {
            GamePlayed::Kalah(p) => *p,
            GamePlayed::Oware(p) => Played {
                mover: p.mover,
                pit: p.pit,
                last: p.last,
                capture: None,
                relays: 0,
                extra_turn: false,
                extra_turn_voided: false,
                game_over: p.end.is_some(),
                swept: p.swept,
            },
        }
    }
}

/// A round being played: its position with, for Oware, the positions
/// since the last capture that tell a repetition (RULES.md §7.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameRound {
    /// Kalah: the board is all there is.
    Kalah(Board),
    /// Oware: the round with its history.
    Oware(OwareRound),
}

impl GameRound {
    /// A round of `game` from its start, or from `start`'s counts in the
    /// shared layout (Oware: houses and captured seeds, as
    /// [`GameBoard::drawn`] holds them). `rules` are Kalah's; Oware is
    /// played by Abapa on its own 6×4 board.
    #[must_use]
    pub fn starting(game: Game, rules: Rules, start: Option<&Board>, starter: Side) -> GameRound {
        match game {
            Game::Kalah => GameRound::Kalah(match start {
                Some(start) => Board::from_counts(rules, start.counts(), starter)
                    .unwrap_or_else(|_| Board::starting(rules, starter)),
                None => Board::starting(rules, starter),
            }),
            Game::Oware => GameRound::Oware(OwareRound::new(match start {
                Some(start) => OwareBoard::from_counts(OwareRules::ABAPA, start.counts(), starter)
                    .unwrap_or_else(|_| OwareBoard::starting(OwareRules::ABAPA, starter)),
                None => OwareBoard::starting(OwareRules::ABAPA, starter),
            })),
        }
    }

    /// The position now.
    #[must_use]
    pub fn position(&self) -> GameBoard {
        match self {
            GameRound::Kalah(board) => GameBoard::Kalah(*board),
            GameRound::Oware(round) => GameBoard::Oware(*round.board()),
        }
    }

    /// Plays `pit` for the side to move, handing each step to `trace`.
    ///
    /// # Errors
    /// The rules' [`MoveError`]; nothing changes then.
    pub fn play(&mut self, pit: Pit, trace: &mut impl Tracer) -> Result<GamePlayed, MoveError> {
        match self {
            GameRound::Kalah(board) => board.play_traced(pit, trace).map(GamePlayed::Kalah),
            GameRound::Oware(round) => round.play_traced(pit, trace).map(GamePlayed::Oware),
        }
    }

    /// Plays `pit`, known to be legal here (the moves of a round replayed).
    pub fn replay(&mut self, pit: Pit) {
        let _ = self.play(pit, &mut NoTrace);
    }
}

impl From<Board> for GameRound {
    /// A Kalah round from `board`.
    fn from(board: Board) -> GameRound {
        GameRound::Kalah(board)
    }
}

impl From<OwareRound> for GameRound {
    fn from(round: OwareRound) -> GameRound {
        GameRound::Oware(round)
    }
}

/// The steps a move's captures took: `(house, seeds)` of each Oware
/// [`Step::Take`], in the order taken.
#[must_use]
pub fn taken_houses(steps: &[Step]) -> Vec<(Pit, u16)> {
    steps
        .iter()
        .filter_map(|step| match *step {
            Step::Take { pit, seeds, .. } => Some((pit, seeds)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pit(letter: char) -> Pit {
        Rules::KALAH.pit_by_letter(letter).unwrap()
    }

    #[test]
    fn an_oware_round_plays_by_oware_rules_on_the_kalah_layout() {
        let mut round = GameRound::starting(Game::Oware, Rules::KALAH, None, Side::South);
        let mut steps = Vec::new();
        let played = round.play(pit('f'), &mut steps).unwrap();
        // Oware sows past the store's place: f's four seeds go to g..j.
        assert_eq!(round.position().counts()[6], 0);
        assert_eq!(round.position().counts()[7..11], [5, 5, 5, 5]);
        assert!(!played.extra_turn());
        assert_eq!(round.position().to_move(), Side::North);
        assert_eq!(round.position().drawn().counts(), round.position().counts());
        let kalah = GameRound::starting(Game::Kalah, Rules::KALAH, None, Side::South);
        // from a position: its houses and captured seeds, as drawn
        let drawn = round.position().drawn();
        let again = GameRound::starting(Game::Oware, Rules::KALAH, Some(&drawn), Side::North);
        assert_eq!(again.position().counts(), round.position().counts());
        assert_eq!(again.position().oware().unwrap().captured().south, 0);
        assert_eq!(again.position().to_move(), Side::North);
        assert_eq!(kalah.position().game(), Game::Kalah);
        assert_eq!(round.position().game(), Game::Oware);
    }

    #[test]
    fn a_refused_oware_move_says_why() {
        // North is bare: South must feed; a does not reach North's row.
        let mut houses = [0; 12];
        houses[0] = 1;
        houses[5] = 3;
        let board = OwareBoard::from_houses(
            OwareRules::ABAPA,
            &houses,
            Score {
                south: 20,
                north: 20,
            },
            Side::South,
        )
        .unwrap();
        let position = GameBoard::Oware(board);
        assert_eq!(position.check(pit('a')), Err(MoveError::MustFeed));
        assert_eq!(position.check(pit('f')), Ok(()));
    }
}
