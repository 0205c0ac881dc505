//! Players' names, and any text from a file, made safe to show.
//!
//! A name reaches a terminal, a file name, a record line and the
//! statistics, so it is cleaned once, where it enters the game (the command
//! line for both front ends, a joiner's name over the network, a record or
//! save being read, a statistics line): [`clean_name`] takes out every
//! character that is not seen, or makes it a space where it stands between
//! words (by Unicode category: controls
//! `Cc`, formatting characters `Cf` such as the soft hyphen, zero-width
//! and bidirectional controls and tag characters, line and paragraph
//! separators `Zl`/`Zp`, and the default-ignorable and blank-looking
//! fillers such as U+3164 HANGUL FILLER and U+2800 BRAILLE PATTERN BLANK:
//! [`crate::escape::is_invisible`]), keeping the zero-width joiner and the emoji
//! variation selectors only inside an emoji sequence; squeezes runs of
//! spaces, trims, and keeps at most [`MAX_NAME_GRAPHEMES`] characters as a
//! reader counts them (graphemes: `é` or a family emoji is one), at most
//! [`MAX_GRAPHEME_CHARS`] code points in each (a letter under a pile of
//! combining marks keeps a few) and at most [`MAX_NAME_BYTES`] bytes in
//! all, so that every file that holds names stays far below the game's
//! read limits. [`checked_name`] also refuses a name with nothing left.
//!
//! [`shown`] is for echoing untrusted text in a message: invisible
//! characters escaped, and cut short.

use std::fmt;

use unicode_segmentation::UnicodeSegmentation as _;

/// The most characters (graphemes) a name keeps.
pub const MAX_NAME_GRAPHEMES: usize = 40;

/// The most bytes a name keeps (forty characters of four bytes, as emoji
/// or CJK take): a save or record holds the names once per move at most,
/// far below its 1 MiB read limit.
pub const MAX_NAME_BYTES: usize = 160;

/// The most code points one grapheme of a name keeps: enough for a family
/// emoji with skin tones (11), and a few combining marks on a letter.
pub const MAX_GRAPHEME_CHARS: usize = 12;

use crate::escape::{escaped, is_unsafe_char};

/// Whether `c` is a pictograph that a zero-width joiner or an emoji
/// variation selector may follow (the `Extended_Pictographic` blocks,
/// roughly: enough for names, never a letter).
fn is_pictograph(c: char) -> bool {
    matches!(c as u32,
        0x00A9 | 0x00AE | 0x203C | 0x2049 | 0x2122 | 0x2139
        | 0x2194..=0x21AA | 0x231A..=0x23FF | 0x24C2 | 0x25AA..=0x27BF
        | 0x2934..=0x2935 | 0x2B05..=0x2B55 | 0x3030 | 0x303D | 0x3297 | 0x3299
        | 0x1F000..=0x1FAFF)
}

/// Whether the unseen `c` stands between words: a control character, a
/// line or paragraph separator, or a filler that draws as a blank.
fn looks_blank(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FFA0}'
        )
}

/// `raw` without its invisible characters (those that stand between words
/// become a space: [`looks_blank`]), except a zero-width joiner between
/// two pictographs and an emoji variation selector after one (the family
/// emoji and the red heart need them).
fn visible(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::with_capacity(raw.len());
    // The last character kept that is not a variation selector.
    let mut last: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        let after_pictograph = last.is_some_and(is_pictograph);
        let keep = if c == '\u{200D}' {
            after_pictograph && chars.get(i + 1).is_some_and(|&n| is_pictograph(n))
        } else if c == '\u{FE0F}' || c == '\u{FE0E}' {
            after_pictograph && !out.ends_with(['\u{FE0F}', '\u{FE0E}'])
        } else {
            !is_unsafe_char(c)
        };
        if keep {
            out.push(c);
            if c != '\u{FE0F}' && c != '\u{FE0E}' {
                last = Some(c);
            }
        } else if looks_blank(c) {
            out.push(' ');
            last = None;
        }
    }
    out
}

/// One pass of [`clean_name`].
fn clean_once(raw: &str) -> String {
    let spaced = visible(raw);
    let squeezed = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    for grapheme in squeezed.graphemes(true).take(MAX_NAME_GRAPHEMES) {
        let mut kept: String = grapheme.chars().take(MAX_GRAPHEME_CHARS).collect();
        if kept.len() < grapheme.len() {
            // A joiner or selector left at the cut joins nothing now.
            let trimmed = kept.trim_end_matches(['\u{200D}', '\u{FE0F}', '\u{FE0E}']);
            kept.truncate(trimmed.len());
        }
        if out.len() + kept.len() > MAX_NAME_BYTES {
            break;
        }
        out.push_str(&kept);
    }
    out.trim_end().to_string()
}

/// A name made safe (see the [module docs](self)); empty when nothing is
/// left of it.
///
/// ```
/// use mancala_engine::game::names::clean_name;
/// assert_eq!(clean_name(" Bob\n\tthe\u{1b}]2;x\u{7} builder "), "Bob the ]2;x builder");
/// assert_eq!(clean_name(&"👍".repeat(100)).chars().count(), 40);
/// assert_eq!(clean_name("\u{1b}\u{7}"), "");
/// assert_eq!(clean_name("Ali\u{AD}ce\u{200D}"), "Alice");
/// assert_eq!(clean_name("\u{3164}\u{2800}\u{E0041}"), "");
/// ```
#[must_use]
pub fn clean_name(raw: &str) -> String {
    let mut name = clean_once(raw);
    // One pass is enough for any name met so far; a second makes sure
    // that cleaning a clean name never changes it, whatever a cut did.
    for _ in 0..3 {
        let again = clean_once(&name);
        if again == name {
            break;
        }
        name = again;
    }
    name
}

/// A name that is nothing once cleaned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyName {
    /// The name as given, [`shown`] safely.
    pub given: String,
}

impl fmt::Display for EmptyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.given.trim().is_empty() {
            return f
                .write_str("a name is empty or only spaces: give each player a name, like Alice");
        }
        write!(
            f,
            "the name '{}' has no letters once control characters are taken out: give a name that can be shown",
            self.given
        )
    }
}

impl std::error::Error for EmptyName {}

/// [`clean_name`], refusing a name with nothing left.
///
/// # Errors
/// [`EmptyName`] when only control or blank characters were given.
pub fn checked_name(raw: &str) -> Result<String, EmptyName> {
    let name = clean_name(raw);
    if name.is_empty() {
        Err(EmptyName { given: shown(raw) })
    } else {
        Ok(name)
    }
}

/// Whether two cleaned names would be taken for the same player (case
/// aside): a match needs two that are not.
#[must_use]
pub fn same_name(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

/// How many characters of untrusted text [`shown`] keeps.
pub const SHOWN_CHARS: usize = 60;

/// Untrusted text for a message: every unsafe character escaped as
/// `\u{1b}`, and at most [`SHOWN_CHARS`] characters, the cut marked `…`.
///
/// ```
/// use mancala_engine::game::names::shown;
/// assert_eq!(shown("a\u{1b}[31mb"), "a\\u{1b}[31mb");
/// assert!(shown(&"x".repeat(1_000_000)).chars().count() < 100);
/// ```
#[must_use]
pub fn shown(text: &str) -> String {
    escaped(text, SHOWN_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn names_lose_codes_and_keep_forty_graphemes() {
        assert_eq!(clean_name("  Alice  "), "Alice");
        assert_eq!(clean_name("a\tb"), "a b");
        assert_eq!(clean_name("\u{202E}evil"), "evil");
        let cut = clean_name(&"é".repeat(50));
        assert_eq!(cut.graphemes(true).count(), MAX_NAME_GRAPHEMES);
        // Families of 18 bytes each: as many as the bytes allow, whole.
        let family = "👨‍👩‍👧";
        let cut = clean_name(&family.repeat(50));
        assert_eq!(cut, family.repeat(MAX_NAME_BYTES / family.len()));
        assert_eq!(clean_name(&cut), cut, "cleaning twice changes nothing");
        assert!(checked_name("\u{1b}\u{7}\t").is_err());
        assert_eq!(checked_name(" Zoë ").unwrap(), "Zoë");
    }

    /// Issue 33, holes 3 and 4: the invisible characters of the report are
    /// taken out, a name of nothing else is empty, and piles of combining
    /// marks are bounded in bytes.
    #[test]
    fn invisible_characters_go_and_bytes_are_bounded() {
        for c in [
            '\u{AD}',
            '\u{200D}',
            '\u{180E}',
            '\u{3164}',
            '\u{2800}',
            '\u{E0001}',
            '\u{E0041}',
            '\u{115F}',
            '\u{1160}',
            '\u{FFA0}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{200B}',
            '\u{2028}',
            '\u{13438}',
            '\u{1D173}',
        ] {
            assert_eq!(
                clean_name(&format!("Alice{c}")),
                "Alice",
                "{:04X}",
                c as u32
            );
            assert_eq!(clean_name(&c.to_string()), "", "{:04X}", c as u32);
            assert!(is_unsafe_char(c), "{:04X}", c as u32);
        }
        assert!(checked_name("\u{3164}\u{2800}\u{AD}").is_err());
        // Emoji keep what they need.
        for emoji in ["👨‍👩‍👧", "❤️", "👍🏽", "🏳️‍🌈", "👩🏽‍❤️‍💋‍👨🏻"]
        {
            assert_eq!(clean_name(emoji), emoji);
        }
        // Letters keep theirs; a pile of marks is cut.
        assert_eq!(clean_name("Zoë Nguyễn"), "Zoë Nguyễn");
        let zalgo = format!("a{}", "\u{301}".repeat(1500)).repeat(40);
        let cut = clean_name(&zalgo);
        assert!(cut.len() <= MAX_NAME_BYTES, "{}", cut.len());
        assert!(cut.starts_with(&format!("a{}", "\u{301}".repeat(MAX_GRAPHEME_CHARS - 1))));
        assert_eq!(clean_name(&cut), cut);
        assert_eq!(clean_name(&"語".repeat(100)).chars().count(), 40);
    }

    /// One piece of what people type or paste: any visible character, a
    /// format or control character, a run of combining marks, or one of
    /// the blanks and joiners that look like nothing.
    fn piece(rng: &mut Rng, out: &mut String) {
        let pick = |rng: &mut Rng, ranges: &[(u32, u32)]| {
            let (lo, hi) = ranges[rng.below(ranges.len())];
            char::from_u32(lo + rng.below((hi - lo + 1) as usize) as u32).unwrap_or('?')
        };
        match rng.below(5) {
            0 => loop {
                let c = char::from_u32(rng.below(0x3_0000) as u32).unwrap_or('x');
                if !c.is_control() {
                    out.push(c);
                    break;
                }
            },
            1 => out.push(pick(
                rng,
                &[
                    (0xAD, 0xAD),
                    (0x600, 0x605),
                    (0x61C, 0x61C),
                    (0x180E, 0x180E),
                    (0x200B, 0x200F),
                    (0x202A, 0x202E),
                    (0x2060, 0x2064),
                    (0x2066, 0x206F),
                    (0xFEFF, 0xFEFF),
                    (0xFFF9, 0xFFFB),
                    (0x1D173, 0x1D17A),
                    (0xE0001, 0xE0001),
                    (0xE0020, 0xE007F),
                ],
            )),
            2 => out.push(pick(rng, &[(0, 0x1F), (0x7F, 0x9F)])),
            3 => {
                for _ in 0..=rng.below(40) {
                    out.push(pick(
                        rng,
                        &[
                            (0x300, 0x36F),
                            (0x483, 0x487),
                            (0x591, 0x5BD),
                            (0x64B, 0x65F),
                            (0x1AB0, 0x1ABD),
                            (0x1DC0, 0x1DFF),
                            (0x20D0, 0x20DC),
                            (0xFE20, 0xFE2F),
                        ],
                    ));
                }
            }
            _ => out.push(
                [
                    '\u{3164}',
                    '\u{2800}',
                    '\u{FE0F}',
                    '\u{200D}',
                    '\u{1F468}',
                    '\u{E0041}',
                    ' ',
                ][rng.below(7)],
            ),
        }
    }

    /// Any input: bounded bytes and graphemes, nothing unseen out but
    /// the joiner and selectors of an emoji, no blank at either end,
    /// cleaning twice changes nothing, and a name is refused exactly
    /// when nothing is left. 256 inputs of up to 300 pieces, the same on
    /// every run.
    #[test]
    fn the_cleaner_bounds_shows_and_settles() {
        for case in 0..256 {
            let mut rng = Rng::new(case);
            let mut raw = String::new();
            for _ in 0..rng.below(301) {
                piece(&mut rng, &mut raw);
            }
            let name = clean_name(&raw);
            assert!(name.len() <= MAX_NAME_BYTES, "{raw:?}");
            assert!(
                name.graphemes(true).count() <= MAX_NAME_GRAPHEMES,
                "{raw:?}"
            );
            for c in name.chars() {
                assert!(
                    !is_unsafe_char(c) || matches!(c, '\u{200D}' | '\u{FE0F}' | '\u{FE0E}'),
                    "{:04X} in {name:?}",
                    c as u32
                );
            }
            assert_eq!(name.trim(), name.as_str(), "{raw:?}");
            assert_eq!(clean_name(&name), name, "{raw:?}");
            assert_eq!(checked_name(&raw).is_err(), name.is_empty(), "{raw:?}");
        }
    }

    #[test]
    fn same_names_differ_only_in_case() {
        assert!(same_name("Alice", "alice"));
        assert!(!same_name("Alice", "Alicia"));
    }

    #[test]
    fn shown_text_has_no_control_characters() {
        let text = shown("\u{1b}]2;title\u{7}");
        assert!(!text.chars().any(is_unsafe_char), "{text}");
        assert!(text.contains("\\u{1b}"));
    }
}
