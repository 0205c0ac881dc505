//! Aalina's notation, as Aualé speaks it to its engines: a house is one
//! letter, South's `A`–`F` and North's `a`–`f`, each counted from its
//! owner's left in sowing order (so South's `F` is followed by North's `a`,
//! which is `g` on this program's board); a move list is those letters
//! one after another (`FfBe`, spaces allowed); a position is every count
//! joined by `-`, South's houses, North's houses, South's captured seeds
//! (Kalah: store), North's, then `S` or `N` for the side to move
//! (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`, the start). Kalah boards of any pit
//! count are written the same way.
//!
//! [`EnginePosition`] is the position an engine is asked about: the game
//! (Oware with the positions that repetition needs, or Kalah) and the
//! moves played from the position given.

use crate::rules::oware::{HOUSES, OwareBoard, OwareRound, OwareRules};
use crate::rules::{Board, Game, GameRound, MAX_PITS, NoTrace, Pit, Rules, Score, Side};

/// The most seeds a position may hold (Oware's own bound: a count in a byte).
const MAX_POSITION_SEEDS: usize = 255;

/// A position to think about: the round (Oware's with every position
/// since the last capture, for repetition; or Kalah's board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePosition(pub GameRound);

impl EnginePosition {
    /// The starting position of `game`, South to move.
    #[must_use]
    pub fn start(game: Game) -> EnginePosition {
        EnginePosition(GameRound::starting(game, Rules::KALAH, None, Side::South))
    }

    /// The game of the position.
    #[must_use]
    pub fn game(&self) -> Game {
        self.0.position().game()
    }

    /// Houses per side.
    #[must_use]
    pub fn pits(&self) -> usize {
        self.0.position().layout().pits()
    }

    /// Whose turn it is.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.0.position().to_move()
    }

    /// Whether the round is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.0.position().is_over()
    }

    /// Reads a position in Aalina's notation for `game`.
    ///
    /// # Errors
    /// A message saying what is wrong with it.
    pub fn from_fen(game: Game, text: &str) -> Result<EnginePosition, String> {
        let fields: Vec<&str> = text.trim().split('-').collect();
        let Some((turn, counts)) = fields.split_last() else {
            return Err("an empty position".to_string());
        };
        let to_move = match *turn {
            "S" => Side::South,
            "N" => Side::North,
            other => {
                return Err(format!(
                    "the position must end with S or N (the side to move), not '{}'",
                    shown(other)
                ));
            }
        };
        let counts = counts
            .iter()
            .map(|c| {
                c.parse::<u16>()
                    .ok()
                    .filter(|&n| usize::from(n) <= MAX_POSITION_SEEDS)
                    .ok_or_else(|| format!("'{}' is not a count of seeds", shown(c)))
            })
            .collect::<Result<Vec<u16>, String>>()?;
        let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
        if total > MAX_POSITION_SEEDS {
            return Err(format!("{total} seeds is more than {MAX_POSITION_SEEDS}"));
        }
        match game {
            Game::Oware => {
                if counts.len() != 2 * HOUSES + 2 {
                    return Err(format!(
                        "an Oware position has 14 counts (12 houses, then the captured seeds of South and North), not {}",
                        counts.len()
                    ));
                }
                let captured = Score {
                    south: counts[12],
                    north: counts[13],
                };
                let board =
                    OwareBoard::from_houses(OwareRules::ABAPA, &counts[..12], captured, to_move)
                        .map_err(|e| e.to_string())?;
                Ok(EnginePosition(GameRound::Oware(OwareRound::new(board))))
            }
            Game::Kalah => {
                let n = counts.len();
                if n < 4 || n % 2 != 0 || (n - 2) / 2 > MAX_PITS {
                    return Err(format!(
                        "a Kalah position has 2N+2 counts (N houses each, then the stores of South and North; N at most {MAX_PITS}), not {n}"
                    ));
                }
                let pits = (n - 2) / 2;
                let rules = Rules::KALAH.with_pits(pits).map_err(|e| e.to_string())?;
                // This program's layout: South's pits, South's store,
                // North's pits, North's store.
                let mut layout = Vec::with_capacity(n);
                layout.extend_from_slice(&counts[..pits]);
                layout.push(counts[2 * pits]);
                layout.extend_from_slice(&counts[pits..2 * pits]);
                layout.push(counts[2 * pits + 1]);
                let board =
                    Board::from_counts(rules, &layout, to_move).map_err(|e| e.to_string())?;
                Ok(EnginePosition(GameRound::Kalah(board)))
            }
        }
    }

    /// The position in Aalina's notation.
    #[must_use]
    pub fn fen(&self) -> String {
        let (houses, stores, to_move): (Vec<u16>, [u16; 2], Side) = match &self.0 {
            GameRound::Oware(round) => {
                let board = round.board();
                let c = board.captured();
                (board.houses().to_vec(), [c.south, c.north], board.to_move())
            }
            GameRound::Kalah(board) => {
                let rules = board.rules();
                let houses = Side::BOTH
                    .iter()
                    .flat_map(|&side| rules.pits_of(side).map(|p| board.seeds(p)))
                    .collect();
                let stores = Side::BOTH.map(|side| board.seeds(rules.store(side)));
                (houses, stores, board.to_move())
            }
        };
        let mut text = String::new();
        for count in houses.iter().chain(&stores) {
            text.push_str(&count.to_string());
            text.push('-');
        }
        text.push(if to_move == Side::South { 'S' } else { 'N' });
        text
    }

    /// The pit Aalina's letter names on this board (`None` for any other
    /// character).
    #[must_use]
    pub fn pit(&self, letter: char) -> Option<Pit> {
        let (side, number) = if letter.is_ascii_uppercase() {
            (Side::South, usize::from(letter as u8 - b'A'))
        } else if letter.is_ascii_lowercase() {
            (Side::North, usize::from(letter as u8 - b'a'))
        } else {
            return None;
        };
        self.0.position().layout().pit(side, number + 1)
    }

    /// Aalina's letter of a house of this board.
    #[must_use]
    pub fn letter(&self, pit: Pit) -> char {
        let pits = self.pits();
        let i = pit.index();
        if i < pits {
            char::from(b'A' + i as u8)
        } else {
            char::from(b'a' + (i - pits - 1) as u8)
        }
    }

    /// The letters of `line`, one after another (`FfBe`).
    #[must_use]
    pub fn letters(&self, line: &[Pit]) -> String {
        line.iter().map(|&pit| self.letter(pit)).collect()
    }

    /// The legal moves.
    #[must_use]
    pub fn legal_pits(&self) -> Vec<Pit> {
        self.0.position().legal_moves().collect()
    }

    /// Plays the moves `letters` names (whitespace between them ignored).
    ///
    /// # Errors
    /// A message naming the first move that is not a house letter or that
    /// the rules refuse (and why); the position is then unchanged.
    pub fn play_letters(&mut self, letters: &str) -> Result<(), String> {
        let mut next = self.clone();
        for (i, letter) in letters.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let Some(pit) = next.pit(letter) else {
                return Err(format!(
                    "move {} ('{}') is not a house (A to {} for South, a to {} for North)",
                    i + 1,
                    shown(&letter.to_string()),
                    char::from(b'A' + next.pits() as u8 - 1),
                    char::from(b'a' + next.pits() as u8 - 1),
                ));
            };
            let mover = next.to_move();
            next.0
                .play(pit, &mut NoTrace)
                .map_err(|e| format!("move {} ('{letter}', {mover} to move): {e}", i + 1))?;
        }
        *self = next;
        Ok(())
    }
}

/// Untrusted text as it may be printed: escaped and cut short.
#[must_use]
pub fn shown(text: &str) -> String {
    crate::escape::escaped(text, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_name_the_houses_as_aalina_does() {
        let start = EnginePosition::start(Game::Oware);
        // South's F is this board's f; North's a is g (after f in sowing order).
        assert_eq!(start.pit('F'), Rules::KALAH.pit_by_letter('f'));
        assert_eq!(start.pit('a'), Rules::KALAH.pit_by_letter('g'));
        assert_eq!(start.pit('f'), Rules::KALAH.pit_by_letter('l'));
        assert_eq!(start.pit('G'), None);
        assert_eq!(start.pit('g'), None);
        for pit in start.legal_pits() {
            assert_eq!(start.pit(start.letter(pit)), Some(pit));
        }
        assert_eq!(start.fen(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    }

    #[test]
    fn a_line_of_letters_plays_and_positions_read_back() {
        let mut position = EnginePosition::start(Game::Oware);
        position.play_letters("Ff Be").unwrap();
        let mut board = OwareBoard::new();
        for letter in ['f', 'l', 'b', 'k'] {
            board
                .play(Rules::KALAH.pit_by_letter(letter).unwrap())
                .unwrap();
        }
        let GameRound::Oware(round) = &position.0 else {
            panic!("an Oware position");
        };
        assert_eq!(round.board(), &board);
        let again = EnginePosition::from_fen(Game::Oware, &position.fen()).unwrap();
        assert_eq!(again.fen(), position.fen());
        // A letter of the side not to move is refused, and nothing is played.
        let before = position.clone();
        let err = position.play_letters("AB").unwrap_err();
        assert!(err.contains("move 2 ('B', North to move)"), "{err}");
        assert_eq!(position, before);
        let err = position.play_letters("X").unwrap_err();
        assert!(err.contains("is not a house"), "{err}");
    }

    #[test]
    fn kalah_positions_of_any_pit_count_read_back() {
        let start = EnginePosition::start(Game::Kalah);
        assert_eq!(start.fen(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
        let small = EnginePosition::from_fen(Game::Kalah, "1-2-3-4-5-6-7-8-N").unwrap();
        assert_eq!(small.pits(), 3);
        assert_eq!(small.fen(), "1-2-3-4-5-6-7-8-N");
        let GameRound::Kalah(board) = &small.0 else {
            panic!("a Kalah position");
        };
        assert_eq!(board.counts(), [1, 2, 3, 7, 4, 5, 6, 8]);
        assert_eq!(board.to_move(), Side::North);
    }

    #[test]
    fn bad_positions_say_what_is_wrong() {
        for (game, text, says) in [
            (Game::Oware, "4-4-4-S", "14 counts"),
            (Game::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "S or N"),
            (
                Game::Oware,
                "4-4-4-4-4-4-4-4-4-4-4-x-0-0-S",
                "'x' is not a count",
            ),
            (
                Game::Oware,
                "200-200-0-0-0-0-0-0-0-0-0-0-0-0-S",
                "more than 255",
            ),
            (
                Game::Oware,
                "-1-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                "is not a count",
            ),
            (Game::Kalah, "1-2-3-S", "2N+2 counts"),
            (Game::Kalah, "", "S or N"),
        ] {
            let err = EnginePosition::from_fen(game, text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}
