//! The join code: a number and two words, like `7-guitar-orbit`, new for
//! each match. It is the password of the key exchange (see
//! [`super::session`]), so it is never sent, not even hashed: a listener
//! learns nothing from watching a join, and a wrong guess costs the guesser
//! one try at the host, which checks at most a few wrong codes a minute
//! (see [`super::gate::Tries`]).
//!
//! 99 × 256 × 256 codes (about 22.6 bits) are plenty against online
//! guessing at two tries a minute: trying half of them takes over three
//! years.

use std::fmt;

use chacha20poly1305::aead::OsRng;
use chacha20poly1305::aead::rand_core::RngCore;

/// The words of a code: 256 short, distinct, easily spelled nouns.
const WORDS: [&str; 256] = [
    "acorn", "actor", "adobe", "agent", "album", "alert", "alley", "amber", "anchor", "angle",
    "apple", "apron", "arena", "armor", "arrow", "atlas", "attic", "autumn", "avenue", "badge",
    "bagel", "baker", "bamboo", "banjo", "barrel", "basil", "basket", "beach", "beacon", "bear",
    "beetle", "bell", "berry", "bison", "blade", "blanket", "blossom", "boat", "bonnet", "border",
    "bottle", "bracket", "branch", "brick", "bridge", "bronze", "brook", "broom", "bubble",
    "bucket", "buffalo", "bugle", "butter", "button", "cabin", "cactus", "camel", "camera",
    "canal", "candle", "canoe", "canvas", "canyon", "carbon", "carpet", "carrot", "castle",
    "cedar", "cellar", "cello", "chalk", "cherry", "chess", "chimney", "cider", "circle", "citrus",
    "clover", "cobalt", "coconut", "comet", "copper", "coral", "cotton", "cradle", "crane",
    "crayon", "cricket", "crystal", "cupboard", "curtain", "cushion", "daisy", "delta", "desert",
    "diamond", "dinner", "dolphin", "donkey", "dragon", "drum", "eagle", "easel", "echo",
    "eclipse", "elbow", "ember", "engine", "falcon", "feather", "fern", "fiddle", "fig", "flame",
    "flute", "forest", "fossil", "fountain", "fox", "galaxy", "garden", "garlic", "ginger",
    "glacier", "globe", "goose", "granite", "grape", "guitar", "hammer", "harbor", "harp", "hazel",
    "helmet", "heron", "hollow", "honey", "horizon", "iceberg", "igloo", "island", "ivory",
    "jacket", "jasmine", "jelly", "jigsaw", "jungle", "kayak", "kettle", "kite", "ladder",
    "lagoon", "lantern", "lemon", "lily", "lizard", "lobster", "locket", "lotus", "magnet",
    "mango", "maple", "marble", "meadow", "melon", "meteor", "mirror", "mitten", "monkey", "moose",
    "mosaic", "mountain", "muffin", "napkin", "nectar", "nickel", "noodle", "nutmeg", "oasis",
    "ocean", "olive", "onion", "orbit", "orchid", "otter", "owl", "paddle", "palace", "panda",
    "paper", "parrot", "peach", "pebble", "pepper", "piano", "pickle", "pillow", "pilot", "planet",
    "plum", "pocket", "pony", "poppy", "potato", "puzzle", "quartz", "quill", "rabbit", "radish",
    "rainbow", "raven", "ribbon", "river", "robin", "rocket", "saddle", "salmon", "sapphire",
    "satin", "scarf", "shadow", "shell", "silver", "sketch", "sparrow", "spider", "spoon",
    "squirrel", "stable", "summit", "sunset", "swan", "tango", "teapot", "thistle", "thunder",
    "tiger", "timber", "tomato", "topaz", "tulip", "tunnel", "turtle", "umbrella", "valley",
    "velvet", "violet", "volcano", "wagon", "walnut", "whale", "willow", "window", "winter",
    "wizard", "yarn",
];

/// A join code. Its `Display` is the text players type: `7-guitar-orbit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinCode {
    number: u8,
    words: [u8; 2],
}

/// Why a text is not a join code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCode(String);

impl fmt::Display for BadCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a join code: a code is a number and two words, like 7-guitar-orbit, as the host shows it",
            self.0
        )
    }
}

impl std::error::Error for BadCode {}

impl JoinCode {
    /// A new random code, from the operating system's random numbers.
    #[must_use]
    pub fn random() -> JoinCode {
        let mut bytes = [0u8; 3];
        OsRng.fill_bytes(&mut bytes);
        JoinCode {
            // 1..=99; the bias of 256 mod 99 does not matter here.
            number: bytes[0] % 99 + 1,
            words: [bytes[1], bytes[2]],
        }
    }

    /// The code as the key exchange's password: its canonical text.
    #[must_use]
    pub fn password(&self) -> Vec<u8> {
        self.to_string().into_bytes()
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}",
            self.number,
            WORDS[usize::from(self.words[0])],
            WORDS[usize::from(self.words[1])]
        )
    }
}

impl std::str::FromStr for JoinCode {
    type Err = BadCode;

    /// Reads a code as a person might type it: any case, spaces or dashes
    /// between the parts.
    ///
    /// ```
    /// use mancala::net::code::JoinCode;
    /// let code: JoinCode = " 7 Guitar-orbit ".parse().unwrap();
    /// assert_eq!(code.to_string(), "7-guitar-orbit");
    /// assert!("7-guitar".parse::<JoinCode>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<JoinCode, BadCode> {
        let shown: String = text.trim().chars().take(64).collect();
        let bad = || BadCode(crate::game::names::shown(&shown));
        let lower = shown.to_ascii_lowercase();
        let parts: Vec<&str> = lower
            .split(|c: char| c == '-' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let [number, first, second] = parts[..] else {
            return Err(bad());
        };
        let number: u8 = number.parse().map_err(|_| bad())?;
        if !(1..=99).contains(&number) {
            return Err(bad());
        }
        let word = |w: &str| {
            WORDS
                .iter()
                .position(|x| *x == w)
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(bad)
        };
        Ok(JoinCode {
            number,
            words: [word(first)?, word(second)?],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_are_distinct_sorted_and_plain() {
        assert!(WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(
            WORDS
                .iter()
                .all(|w| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()))
        );
    }

    #[test]
    fn every_code_reads_back_as_itself() {
        for _ in 0..200 {
            let code = JoinCode::random();
            assert_eq!(code.to_string().parse::<JoinCode>(), Ok(code));
            assert!((1..=99).contains(&code.number));
        }
    }

    #[test]
    fn bad_codes_are_refused_with_an_example() {
        for bad in [
            "",
            "7",
            "0-guitar-orbit",
            "100-guitar-orbit",
            "7-guitar-zzz",
            "7-guitar-orbit-x",
            "x-guitar-orbit",
        ] {
            let error = bad.parse::<JoinCode>().unwrap_err().to_string();
            assert!(error.contains("like 7-guitar-orbit"), "{bad}: {error}");
        }
        assert!("7-guitar-orbit".parse::<JoinCode>().is_ok());
    }
}
