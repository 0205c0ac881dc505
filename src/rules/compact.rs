//! The solver's form of a position: the pits seen from the side to move,
//! without stores, in bytes.
//!
//! An exact solver values a position by what the side to move will still
//! gain from now on (its *future margin*), which depends on the pits only.
//! [`Compact`] holds just that: the mover's pits, then the opponent's, one
//! byte each, and plays a move in a few byte operations. It follows the
//! same rules as [`Board`] (RULES.md, "Sowing", "Capture", "End of the
//! game"); the tests play both side by side on random positions of every
//! variant.

use super::board::Board;
use super::config::{Capture, MAX_PITS, Rules, Sowing, Sweep};
use super::side::Side;

/// Bytes of a [`Compact`]: both sides' pits and the mover's store slot.
const BYTES: usize = 32;

/// What a move of a [`Compact`] position leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// The game is over (the sweep, if any, is in the gain).
    Over,
    /// The mover moves again: the new position is seen from the same side.
    Again,
    /// The opponent moves: the new position is seen from the opponent.
    Opponent,
}

/// A position seen from the side to move, stores left out: byte `i < n` is
/// the mover's pit `i + 1` (from its left), byte `n` is always 0 (the
/// mover's store, used while sowing), bytes `n + 1 ..= 2n` are the
/// opponent's pits in sowing order. Only boards with at most 255 seeds in
/// their pits have one ([`Compact::from_board`]).
///
/// ```
/// use mancala_engine::rules::{Board, Compact, CompactRules, Next, Rules};
/// let rules = CompactRules::new(Rules::KALAH);
/// let start = Compact::from_board(&Board::new(Rules::KALAH)).unwrap();
/// // c (pit 2 from the left) ends in the store: one seed gained, play again
/// let (after, gain, next) = start.play(&rules, 2);
/// assert_eq!((gain, next), (1, Next::Again));
/// assert_eq!(after.in_play(), 47);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Compact {
    cells: [u8; BYTES],
    in_play: u8,
}

/// The rules a [`Compact`] position needs, prepared once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompactRules {
    rules: Rules,
    pits: usize,
    /// Single sowing on a ring of at most 16 cells: moves are played on
    /// the position as one 128-bit word ([`Compact::play_packed`]).
    packed: bool,
}

impl CompactRules {
    /// `rules` prepared for compact play.
    #[must_use]
    pub const fn new(rules: Rules) -> CompactRules {
        let pits = rules.pits();
        CompactRules {
            rules,
            pits,
            packed: matches!(rules.sowing(), Sowing::Single) && 2 * pits < 16,
        }
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Pits per side.
    #[inline]
    #[must_use]
    pub const fn pits(&self) -> usize {
        self.pits
    }
}

impl Compact {
    /// The pits of `board` seen from its side to move, or `None` when they
    /// hold more than 255 seeds.
    #[must_use]
    pub fn from_board(board: &Board) -> Option<Compact> {
        let n = board.rules().pits();
        let c = board.counts();
        let (mine, theirs) = match board.to_move() {
            Side::South => (&c[..n], &c[n + 1..2 * n + 1]),
            Side::North => (&c[n + 1..2 * n + 1], &c[..n]),
        };
        let total: u32 = mine.iter().chain(theirs).map(|&x| u32::from(x)).sum();
        let in_play = u8::try_from(total).ok()?;
        let mut cells = [0u8; BYTES];
        for (cell, &x) in cells.iter_mut().zip(mine) {
            *cell = x as u8;
        }
        for (cell, &x) in cells[n + 1..].iter_mut().zip(theirs) {
            *cell = x as u8;
        }
        Some(Compact { cells, in_play })
    }

    /// A position from the mover's pits and the opponent's (each `pits`
    /// long, at most 255 seeds in all), or `None` when they do not fit.
    #[must_use]
    pub fn from_pits(mine: &[u8], theirs: &[u8]) -> Option<Compact> {
        let n = mine.len();
        if n != theirs.len() || n == 0 || n > MAX_PITS {
            return None;
        }
        let total: u32 = mine.iter().chain(theirs).map(|&x| u32::from(x)).sum();
        let in_play = u8::try_from(total).ok()?;
        let mut cells = [0u8; BYTES];
        cells[..n].copy_from_slice(mine);
        cells[n + 1..=2 * n].copy_from_slice(theirs);
        Some(Compact { cells, in_play })
    }

    /// Seeds still in the pits (the future margin lies within ± this).
    #[inline]
    #[must_use]
    pub const fn in_play(&self) -> u8 {
        self.in_play
    }

    /// The mover's pit `i` (0-based from its left).
    #[inline]
    #[must_use]
    pub const fn mine(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The opponent's pit `i` (0-based from its left), with `pits` per side.
    #[inline]
    #[must_use]
    pub const fn theirs(&self, pits: usize, i: usize) -> u8 {
        self.cells[pits + 1 + i]
    }

    /// The raw bytes (see the type's docs), for hashing and ranking.
    #[inline]
    #[must_use]
    pub const fn bytes(&self) -> &[u8; BYTES] {
        &self.cells
    }

    /// The bytes as four little-endian words, for hashing.
    #[inline]
    #[must_use]
    pub fn words(&self) -> [u64; 4] {
        let w = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&self.cells[8 * i..8 * i + 8]);
            u64::from_le_bytes(b)
        };
        [w(0), w(1), w(2), w(3)]
    }

    /// Bit `i` set when the mover may play its pit `i`.
    #[inline]
    #[must_use]
    pub fn moves(&self, rules: &CompactRules) -> u32 {
        let mut bits = 0u32;
        for (i, &c) in self.cells[..rules.pits].iter().enumerate() {
            bits |= u32::from(c != 0) << i;
        }
        bits
    }

    /// Plays the mover's pit `i` (it must hold seeds): the position after
    /// it, the store margin the mover gained (captures and, when the game
    /// ends, the sweep included), and who moves next.
    #[inline(always)]
    #[must_use]
    pub fn play(&self, rules: &CompactRules, i: usize) -> (Compact, i32, Next) {
        if rules.packed {
            return self.play_packed(rules, i);
        }
        let n = rules.pits;
        let ring = 2 * n + 1;
        let mut c = self.cells;
        debug_assert!(i < n && c[i] > 0, "pit {i} of {self:?}");
        let mut hand = usize::from(c[i]);
        c[i] = 0;
        let mut at = i;
        let mut relays = false;
        loop {
            if hand >= ring {
                let laps = (hand / ring) as u8;
                for cell in &mut c[..ring] {
                    *cell += laps;
                }
                hand %= ring;
            }
            let end = at + hand;
            if end < ring {
                for cell in &mut c[at + 1..=end] {
                    *cell += 1;
                }
                at = end;
            } else {
                for cell in &mut c[at + 1..ring] {
                    *cell += 1;
                }
                for cell in &mut c[..=end - ring] {
                    *cell += 1;
                }
                at = end - ring;
            }
            if rules.rules.sowing() == Sowing::Relay && at != n && c[at] > 1 {
                hand = usize::from(c[at]);
                c[at] = 0;
                relays = true;
                continue;
            }
            break;
        }
        let mut captured = false;
        if at < n && c[at] == 1 {
            let opposite = 2 * n - at;
            let take = match rules.rules.capture() {
                Capture::Always => true,
                Capture::NonEmpty => c[opposite] > 0,
                Capture::Never => false,
            };
            if take {
                c[n] += 1 + c[opposite];
                c[at] = 0;
                c[opposite] = 0;
                captured = true;
            }
        }
        let mut gain = i32::from(c[n]);
        let mut in_play = self.in_play - c[n];
        c[n] = 0;
        let mine: u32 = c[..n].iter().map(|&x| u32::from(x)).sum();
        let over = mine == 0 || ((captured || relays) && c[n + 1..ring].iter().all(|&x| x == 0));
        if over {
            if rules.rules.sweep() == Sweep::Owner {
                let theirs = u32::from(in_play) - mine;
                gain += mine as i32 - theirs as i32;
            }
            in_play = 0;
            return (
                Compact {
                    cells: [0; BYTES],
                    in_play,
                },
                gain,
                Next::Over,
            );
        }
        if at == n {
            return (Compact { cells: c, in_play }, gain, Next::Again);
        }
        let mut flipped = [0u8; BYTES];
        flipped[..n].copy_from_slice(&c[n + 1..ring]);
        flipped[n + 1..ring].copy_from_slice(&c[..n]);
        (
            Compact {
                cells: flipped,
                in_play,
            },
            gain,
            Next::Opponent,
        )
    }
}

/// `ONES[k]`: `k` bytes of 0x01 from the lowest (k <= 16).
const ONES: [u128; 17] = {
    let mut t = [0u128; 17];
    let mut k = 1;
    while k <= 16 {
        t[k] = t[k - 1] | 1u128 << (8 * (k - 1));
        k += 1;
    }
    t
};

#[inline]
const fn ones(k: usize) -> u128 {
    ONES[k]
}

/// The low `k` bytes set (k <= 16).
#[inline]
const fn low_bytes(k: usize) -> u128 {
    ones(k) * 0xFF
}

/// The sum of the bytes of `x` (at most 255 in all).
#[inline]
const fn byte_sum(x: u128) -> u32 {
    (x.wrapping_mul(ones(16)) >> 120) as u32
}

impl Compact {
    /// [`Compact::play`] for single sowing on a ring of at most 16 cells:
    /// the ring is one 128-bit word, sowing adds runs of 0x01 bytes (no
    /// byte can overflow: the pits hold at most 255 seeds in all), and the
    /// sums and the flip are masks and shifts.
    #[inline(always)]
    fn play_packed(&self, rules: &CompactRules, i: usize) -> (Compact, i32, Next) {
        let n = rules.pits;
        let ring = 2 * n + 1;
        let mut head = [0u8; 16];
        head.copy_from_slice(&self.cells[..16]);
        let mut x = u128::from_le_bytes(head);
        let byte = |x: u128, at: usize| (x >> (8 * at)) as u8;
        let mut hand = usize::from(byte(x, i));
        debug_assert!(i < n && hand > 0, "pit {i} of {self:?}");
        x &= !(0xFFu128 << (8 * i));
        if hand >= ring {
            x += (hand / ring) as u128 * ones(ring);
            hand %= ring;
        }
        let end = i + hand;
        let at = if end < ring {
            x += ones(hand) << (8 * (i + 1));
            end
        } else {
            x += ones(ring - i - 1) << (8 * (i + 1));
            x += ones(end - ring + 1);
            end - ring
        };
        let mut captured = false;
        if at < n && byte(x, at) == 1 {
            let opposite = 2 * n - at;
            let across = byte(x, opposite);
            let take = match rules.rules.capture() {
                Capture::Always => true,
                Capture::NonEmpty => across > 0,
                Capture::Never => false,
            };
            if take {
                x += (1 + u128::from(across)) << (8 * n);
                x &= !((0xFFu128 << (8 * at)) | (0xFFu128 << (8 * opposite)));
                captured = true;
            }
        }
        let stored = byte(x, n);
        let mut gain = i32::from(stored);
        let in_play = self.in_play - stored;
        let mine_bits = x & low_bytes(n);
        let theirs_bits = (x >> (8 * (n + 1))) & low_bytes(n);
        let mine = byte_sum(mine_bits);
        if mine == 0 || (captured && theirs_bits == 0) {
            if rules.rules.sweep() == Sweep::Owner {
                let theirs = u32::from(in_play) - mine;
                gain += mine as i32 - theirs as i32;
            }
            return (
                Compact {
                    cells: [0; BYTES],
                    in_play: 0,
                },
                gain,
                Next::Over,
            );
        }
        let (word, next) = if at == n {
            (mine_bits | theirs_bits << (8 * (n + 1)), Next::Again)
        } else {
            (theirs_bits | mine_bits << (8 * (n + 1)), Next::Opponent)
        };
        let mut cells = [0u8; BYTES];
        cells[..16].copy_from_slice(&word.to_le_bytes());
        (Compact { cells, in_play }, gain, next)
    }
}

impl std::fmt::Debug for Compact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compact({:?}, in play {})", &self.cells, self.in_play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pit;

    /// A tiny deterministic generator (the rules core has no randomness of
    /// its own).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn compact_play_matches_the_board_on_random_games_of_every_variant() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let variants = [
            Rules::KALAH,
            Rules::KALAH.with_capture(Capture::NonEmpty),
            Rules::KALAH.with_capture(Capture::Never),
            Rules::KALAH.with_sweep(Sweep::None),
            Rules::AVALANCHE,
            Rules::new(3, 9).unwrap(),
            Rules::new(7, 6).unwrap(),
            Rules::new(8, 3).unwrap().with_capture(Capture::NonEmpty),
            Rules::new(12, 5).unwrap().with_sowing(Sowing::Relay),
            Rules::new(1, 3).unwrap(),
        ];
        for rules in variants {
            let compact_rules = CompactRules::new(rules);
            for _ in 0..200 {
                let first = if next(&mut state).is_multiple_of(2) {
                    Side::South
                } else {
                    Side::North
                };
                let mut board = Board::starting(rules, first);
                while !board.is_over() {
                    let before = Compact::from_board(&board).unwrap();
                    let moves: Vec<Pit> = board.legal_moves().collect();
                    let pit = moves[next(&mut state) as usize % moves.len()];
                    let me = board.to_move();
                    let number = rules.number(pit).unwrap() - 1;
                    assert_eq!(before.moves(&compact_rules) >> number & 1, 1);
                    let margin = board.score().margin(me);
                    let played = board.play(pit).unwrap();
                    let (after, gain, next_turn) = before.play(&compact_rules, number);
                    assert_eq!(gain, board.score().margin(me) - margin, "{rules} {board:?}");
                    let expected = if played.game_over {
                        Next::Over
                    } else if played.extra_turn {
                        Next::Again
                    } else {
                        Next::Opponent
                    };
                    assert_eq!(next_turn, expected);
                    if !board.is_over() {
                        assert_eq!(Some(after), Compact::from_board(&board), "{board:?}");
                    } else {
                        assert_eq!(after.in_play(), 0);
                    }
                }
            }
        }
    }

    #[test]
    fn boards_with_too_many_seeds_have_no_compact_form() {
        assert!(Compact::from_board(&Board::new(Rules::new(12, 11).unwrap())).is_none());
        assert!(Compact::from_board(&Board::new(Rules::new(12, 10).unwrap())).is_some());
        assert!(Compact::from_pits(&[1, 2], &[3]).is_none());
        let p = Compact::from_pits(&[1, 2], &[3, 4]).unwrap();
        assert_eq!((p.mine(1), p.theirs(2, 0), p.in_play()), (2, 3, 10));
    }
}
