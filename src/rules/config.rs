//! The rules of a game, as data: every variant is a value of [`Rules`].

use std::fmt;
use std::str::FromStr;

use super::oware::GrandSlam;
use super::pit::Pit;
use super::side::Side;

/// The largest number of pits per side.
pub const MAX_PITS: usize = 12;
/// The largest number of seeds per pit at the start of a game.
pub const MAX_SEEDS: usize = 20;
/// The largest number of places on a board: pits of both sides plus two stores.
pub const MAX_CELLS: usize = 2 * MAX_PITS + 2;

/// When the last seed lands in one of the mover's own empty pits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// That seed and the opposite pit's seeds go to the mover's store, even
    /// when the opposite pit is empty (RULES.md §3.4).
    Always,
    /// The same, but only when the opposite pit holds seeds (most rule books).
    NonEmpty,
    /// Nothing is ever captured.
    Never,
}

/// How a move sows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sowing {
    /// Kalah: lift one pit, sow it, done.
    Single,
    /// Relay ("Avalanche", RULES.md §4.3): when the last seed lands in an occupied
    /// pit on either side, that pit is lifted and sowing goes on.
    Relay,
}

/// What happens to the seeds left in the pits when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sweep {
    /// Each side's remaining seeds go to its own store.
    Owner,
    /// Remaining seeds are not counted (RULES.md §4.4).
    None,
}

/// A named set of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 6 pits, 4 seeds, capture always, single sowing, owner sweep.
    Kalah,
    /// 6 pits, 4 seeds, no capture, relay sowing, no sweep (RULES.md §4.5).
    Avalanche,
}

impl Variant {
    /// The rules this preset stands for.
    #[must_use]
    pub const fn rules(self) -> Rules {
        match self {
            Variant::Kalah => Rules::KALAH,
            Variant::Avalanche => Rules::AVALANCHE,
        }
    }
}

/// A rules setting that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Pits per side outside 1..=12.
    Pits(usize),
    /// Seeds per pit outside 1..=20.
    Seeds(usize),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Pits(n) => write!(f, "{n} pits per side is not playable (1 to {MAX_PITS})"),
            RulesError::Seeds(n) => {
                write!(f, "{n} seeds per pit is not playable (1 to {MAX_SEEDS})")
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// The rules in force: board size, starting seeds and the rule options.
///
/// Rules are plain data, so every variant is a value rather than a fork of
/// the code. The board layout they describe is RULES.md §2.1's: South's pits from
/// South's left, South's store, North's pits from North's left, North's
/// store; sowing runs along that order (counter-clockwise).
///
/// ```
/// use mancala_engine::rules::{Capture, Rules, Side};
/// let rules = Rules::new(4, 3).unwrap().with_capture(Capture::NonEmpty);
/// assert_eq!(rules.cells(), 10);
/// assert_eq!(rules.store(Side::South).index(), 4);
/// assert_eq!(rules.letter(rules.pit(Side::North, 1).unwrap()), Some('e'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pits: u8,
    seeds: u8,
    capture: Capture,
    sowing: Sowing,
    sweep: Sweep,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::KALAH
    }
}

impl Rules {
    /// Kalah (RULES.md §3): 6 pits, 4 seeds, capture always, single sowing,
    /// remaining seeds to their owner.
    pub const KALAH: Rules = Rules {
        pits: 6,
        seeds: 4,
        capture: Capture::Always,
        sowing: Sowing::Single,
        sweep: Sweep::Owner,
    };

    /// Avalanche (RULES.md §4.5): 6 pits, 4 seeds, relay sowing, no capture,
    /// remaining seeds not counted.
    pub const AVALANCHE: Rules = Rules {
        pits: 6,
        seeds: 4,
        capture: Capture::Never,
        sowing: Sowing::Relay,
        sweep: Sweep::None,
    };

    /// Kalah rules on a board of `pits` pits per side holding `seeds` each.
    ///
    /// # Errors
    /// [`RulesError`] when `pits` is outside 1..=12 or `seeds` outside 1..=20.
    pub fn new(pits: usize, seeds: usize) -> Result<Rules, RulesError> {
        Rules::KALAH.with_pits(pits)?.with_seeds(seeds)
    }

    /// The same rules with `pits` pits per side.
    ///
    /// # Errors
    /// [`RulesError::Pits`] outside 1..=12.
    pub fn with_pits(self, pits: usize) -> Result<Rules, RulesError> {
        if !(1..=MAX_PITS).contains(&pits) {
            return Err(RulesError::Pits(pits));
        }
        Ok(Rules {
            pits: pits as u8,
            ..self
        })
    }

    /// The same rules with `seeds` seeds per pit at the start.
    ///
    /// # Errors
    /// [`RulesError::Seeds`] outside 1..=20.
    pub fn with_seeds(self, seeds: usize) -> Result<Rules, RulesError> {
        if !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(RulesError::Seeds(seeds));
        }
        Ok(Rules {
            seeds: seeds as u8,
            ..self
        })
    }

    /// The same rules with another capture rule.
    #[must_use]
    pub const fn with_capture(self, capture: Capture) -> Rules {
        Rules { capture, ..self }
    }

    /// The same rules with another sowing rule.
    #[must_use]
    pub const fn with_sowing(self, sowing: Sowing) -> Rules {
        Rules { sowing, ..self }
    }

    /// The same rules with another end-of-game sweep.
    #[must_use]
    pub const fn with_sweep(self, sweep: Sweep) -> Rules {
        Rules { sweep, ..self }
    }

    /// Pits per side.
    #[inline]
    #[must_use]
    pub const fn pits(&self) -> usize {
        self.pits as usize
    }

    /// Seeds per pit at the start of a game.
    #[inline]
    #[must_use]
    pub const fn seeds(&self) -> usize {
        self.seeds as usize
    }

    /// The capture rule.
    #[inline]
    #[must_use]
    pub const fn capture(&self) -> Capture {
        self.capture
    }

    /// The sowing rule.
    #[inline]
    #[must_use]
    pub const fn sowing(&self) -> Sowing {
        self.sowing
    }

    /// The end-of-game sweep.
    #[inline]
    #[must_use]
    pub const fn sweep(&self) -> Sweep {
        self.sweep
    }

    /// Places on the board: `2 * pits + 2`.
    #[inline]
    #[must_use]
    pub const fn cells(&self) -> usize {
        2 * self.pits as usize + 2
    }

    /// The seeds on the board in all: `2 * pits * seeds` at the start.
    #[must_use]
    pub const fn total_seeds(&self) -> usize {
        2 * self.pits as usize * self.seeds as usize
    }

    /// `side`'s store.
    #[inline]
    #[must_use]
    pub const fn store(&self, side: Side) -> Pit {
        Pit::new(match side {
            Side::South => self.pits,
            Side::North => 2 * self.pits + 1,
        })
    }

    /// `side`'s pit number `number`, counted 1..=pits from its owner's left
    /// (in sowing order); `None` outside that range.
    #[must_use]
    pub const fn pit(&self, side: Side, number: usize) -> Option<Pit> {
        if number == 0 || number > self.pits as usize {
            return None;
        }
        let first = match side {
            Side::South => 0,
            Side::North => self.pits as usize + 1,
        };
        Some(Pit::new((first + number - 1) as u8))
    }

    /// All of `side`'s pits (not the store), from its owner's left.
    pub fn pits_of(&self, side: Side) -> impl DoubleEndedIterator<Item = Pit> + ExactSizeIterator {
        let first = match side {
            Side::South => 0,
            Side::North => self.pits + 1,
        };
        (first..first + self.pits).map(Pit::new)
    }

    /// Whether `pit` is a store.
    #[inline]
    #[must_use]
    pub const fn is_store(&self, pit: Pit) -> bool {
        pit.index() == self.pits as usize || pit.index() == 2 * self.pits as usize + 1
    }

    /// Whether `pit` is a place on this board at all.
    #[inline]
    #[must_use]
    pub const fn contains(&self, pit: Pit) -> bool {
        pit.index() < self.cells()
    }

    /// The side a pit or store belongs to.
    #[inline]
    #[must_use]
    pub const fn owner(&self, pit: Pit) -> Side {
        if pit.index() <= self.pits as usize {
            Side::South
        } else {
            Side::North
        }
    }

    /// The pit across the board from `pit` (not defined for stores).
    ///
    /// ```
    /// use mancala_engine::rules::{Pit, Rules};
    /// // RULES.md §2.2: the opposite pit is 12 minus the index
    /// assert_eq!(Rules::KALAH.opposite(Pit::new(4)), Pit::new(8));
    /// ```
    #[inline]
    #[must_use]
    pub const fn opposite(&self, pit: Pit) -> Pit {
        Pit::new((2 * self.pits as usize - pit.index()) as u8)
    }

    /// The pit's number 1..=pits counted from its owner's left (`None` for a store).
    #[must_use]
    pub const fn number(&self, pit: Pit) -> Option<usize> {
        if self.is_store(pit) || !self.contains(pit) {
            return None;
        }
        let i = pit.index();
        Some(if i < self.pits as usize {
            i + 1
        } else {
            i - self.pits as usize
        })
    }

    /// The pit's key letter: South's pits take the first `pits` letters,
    /// North's the next `pits` (a..f and g..l on the 6-pit board, as in doc
    /// 000). Stores have no letter.
    #[must_use]
    pub const fn letter(&self, pit: Pit) -> Option<char> {
        if self.is_store(pit) || !self.contains(pit) {
            return None;
        }
        let i = pit.index();
        let n = if i < self.pits as usize { i } else { i - 1 };
        Some((b'a' + n as u8) as char)
    }

    /// The pit that a key letter names (either case).
    #[must_use]
    pub fn pit_by_letter(&self, letter: char) -> Option<Pit> {
        let c = letter.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        let n = (c as u8 - b'a') as usize;
        if n < self.pits as usize {
            Some(Pit::new(n as u8))
        } else if n < 2 * self.pits as usize {
            Some(Pit::new(n as u8 + 1))
        } else {
            None
        }
    }

    /// Reads a pit the way players name it: a key letter (`c`, `H`), or a
    /// number `1..=pits` counted from `mover`'s left.
    ///
    /// ```
    /// use mancala_engine::rules::{Rules, Side};
    /// let r = Rules::KALAH;
    /// assert_eq!(r.parse_pit("h", Side::South), r.pit_by_letter('h'));
    /// assert_eq!(r.parse_pit("2", Side::North), r.pit_by_letter('h'));
    /// assert_eq!(r.parse_pit("7", Side::South), None);
    /// ```
    #[must_use]
    pub fn parse_pit(&self, text: &str, mover: Side) -> Option<Pit> {
        let text = text.trim();
        if let Ok(number) = text.parse::<usize>() {
            return self.pit(mover, number);
        }
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => self.pit_by_letter(c),
            _ => None,
        }
    }

    /// Reads a comma-separated list of pit letters in playing order
    /// (`a,h,c`), or an empty list: the moves of a record or of `mancala
    /// position --moves`.
    ///
    /// # Errors
    /// A message naming the first item that is not a pit letter of these rules.
    ///
    /// ```
    /// use mancala_engine::rules::Rules;
    /// let r = Rules::KALAH;
    /// assert_eq!(r.parse_moves("c, h").unwrap(), [r.pit_by_letter('c').unwrap(), r.pit_by_letter('h').unwrap()]);
    /// assert_eq!(r.parse_moves("c,zz").unwrap_err(), "move 2 ('zz') is not a pit letter (a to l)");
    /// ```
    pub fn parse_moves(&self, text: &str) -> Result<Vec<Pit>, String> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        text.split(',')
            .enumerate()
            .map(|(i, item)| {
                let item = item.trim();
                let mut chars = item.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => self.pit_by_letter(c),
                    _ => None,
                }
                .ok_or_else(|| {
                    format!(
                        "move {} ('{item}') is not a pit letter (a to {})",
                        i + 1,
                        (b'a' + 2 * self.pits - 1) as char
                    )
                })
            })
            .collect()
    }

    /// The letters of `side`'s pits as a range for prompts, e.g. `a-f`.
    #[must_use]
    pub fn letter_range(&self, side: Side) -> String {
        let mut pits = self.pits_of(side);
        let first = pits.next().and_then(|p| self.letter(p)).unwrap_or('?');
        let last = pits
            .next_back()
            .and_then(|p| self.letter(p))
            .unwrap_or(first);
        if first == last {
            first.to_string()
        } else {
            format!("{first}-{last}")
        }
    }

    /// The numbers a player may name a pit by (counted from the owner's
    /// left, the same for both sides) as a range for prompts: `1-6`, or just
    /// `1` on a one-pit board.
    ///
    /// ```
    /// use mancala_engine::rules::Rules;
    /// assert_eq!(Rules::KALAH.number_range(), "1-6");
    /// assert_eq!(Rules::KALAH.with_pits(1).unwrap().number_range(), "1");
    /// ```
    #[must_use]
    pub fn number_range(&self) -> String {
        match self.pits {
            1 => "1".to_string(),
            n => format!("1-{n}"),
        }
    }
}

impl fmt::Display for Rules {
    /// A one-line summary, e.g. `6 pits × 4 seeds, capture always, single
    /// sowing, sweep to owner` (`1 pit × 1 seed, ...` on the smallest board).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} × {}, capture {}, {} sowing, {}",
            super::plural(self.pits, "pit"),
            super::plural(self.seeds, "seed"),
            self.capture,
            self.sowing,
            match self.sweep {
                Sweep::Owner => "sweep to owner",
                Sweep::None => "no sweep",
            }
        )
    }
}

macro_rules! keyword_enum {
    ($ty:ident, $what:literal, $($variant:ident => $name:literal),+) => {
        impl $ty {
            /// Every value, in the order the help text lists them.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The keyword used on the command line and in records.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s.to_ascii_lowercase().as_str() {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(format!(
                        "'{s}' is not a {} (expected one of: {})",
                        $what,
                        [$($name),+].join(", ")
                    )),
                }
            }
        }
    };
}

keyword_enum!(Capture, "capture rule", Always => "always", NonEmpty => "nonempty", Never => "never");
keyword_enum!(Sowing, "sowing rule", Single => "single", Relay => "relay");
keyword_enum!(Sweep, "sweep rule", Owner => "owner", None => "none");
keyword_enum!(Variant, "variant", Kalah => "kalah", Avalanche => "avalanche");
keyword_enum!(GrandSlam, "grand-slam rule", NoCapture => "nocapture", CaptureAll => "capture", Illegal => "illegal");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_says_pit_and_seed_for_one_and_plurals_otherwise() {
        assert_eq!(
            Rules::KALAH.to_string(),
            "6 pits × 4 seeds, capture always, single sowing, sweep to owner"
        );
        let one = Rules::KALAH.with_pits(1).unwrap().with_seeds(1).unwrap();
        assert!(one.to_string().starts_with("1 pit × 1 seed, "), "{one}");
        let mixed = Rules::KALAH.with_pits(1).unwrap().with_seeds(2).unwrap();
        assert!(
            mixed.to_string().starts_with("1 pit × 2 seeds, "),
            "{mixed}"
        );
        let mixed = Rules::KALAH.with_pits(2).unwrap().with_seeds(1).unwrap();
        assert!(
            mixed.to_string().starts_with("2 pits × 1 seed, "),
            "{mixed}"
        );
    }

    #[test]
    fn number_range_is_a_single_number_on_a_one_pit_board() {
        for pits in 1..=MAX_PITS {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let expected = if pits == 1 {
                "1".to_string()
            } else {
                format!("1-{pits}")
            };
            assert_eq!(rules.number_range(), expected);
            // Every number in the range names a pit of either side.
            for side in [Side::South, Side::North] {
                assert!(rules.pit(side, pits).is_some());
                assert!(rules.pit(side, pits + 1).is_none());
            }
        }
    }
}
