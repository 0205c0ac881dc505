//! Counted words: the one plural helper, kept in the core because the
//! rules' own messages count seeds and pits too. Every message in the crate
//! counts with it.

use std::fmt;

/// A number of something, for [`plural`].
pub trait Counted: Copy + fmt::Display {
    /// Whether the count is exactly one.
    fn is_one(self) -> bool;
}

macro_rules! count {
    ($($t:ty),*) => {$(
        impl Counted for $t {
            fn is_one(self) -> bool {
                self == 1
            }
        }
    )*};
}
count!(u8, u16, u32, u64, usize, i32, i64);

/// `n` and the noun, singular or plural: "1 seed", "2 seeds", "0 matches".
///
/// ```
/// use mancala_engine::rules::plural;
/// assert_eq!(plural(1, "win"), "1 win");
/// assert_eq!(plural(3_usize, "move"), "3 moves");
/// assert_eq!(plural(0_u32, "match"), "0 matches");
/// ```
#[must_use]
pub fn plural(n: impl Counted, noun: &str) -> String {
    if n.is_one() {
        format!("{n} {noun}")
    } else if noun.ends_with(['s', 'x']) || noun.ends_with("ch") || noun.ends_with("sh") {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}
