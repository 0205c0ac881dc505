//! Text from outside made safe to print: every character a terminal would
//! act on or not show (controls, and the invisible and bidirectional
//! characters of [`is_invisible`]) written as `\u{..}`. One function for the
//! whole program: the warnings on standard error (`console::warn`), the
//! messages that quote a file, a name or network bytes.

/// The characters that are not seen, as inclusive ranges in order:
/// general categories `Cf`, `Zl` and `Zp` (Unicode 14, generated from its
/// `UnicodeData.txt`; with the Egyptian format controls of Unicode 15),
/// the `Default_Ignorable_Code_Point`s, and the fillers that draw as a
/// blank (`Cc` is [`char::is_control`]).
const INVISIBLE: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),   // soft hyphen
    (0x034F, 0x034F),   // combining grapheme joiner
    (0x0600, 0x0605),   // Arabic number signs
    (0x061C, 0x061C),   // Arabic letter mark
    (0x06DD, 0x06DD),   // Arabic end of ayah
    (0x070F, 0x070F),   // Syriac abbreviation mark
    (0x0890, 0x0891),   // Arabic pound and piastre marks above
    (0x08E2, 0x08E2),   // Arabic disputed end of ayah
    (0x115F, 0x1160),   // Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),   // Khmer inherent vowels
    (0x180B, 0x180F),   // Mongolian variation selectors and vowel separator
    (0x200B, 0x200F),   // zero-width space, joiners, direction marks
    (0x2028, 0x202E),   // line and paragraph separators, embeddings
    (0x2060, 0x206F),   // word joiner, invisible operators, isolates
    (0x2800, 0x2800),   // braille pattern blank
    (0x3164, 0x3164),   // Hangul filler
    (0xFE00, 0xFE0F),   // variation selectors
    (0xFEFF, 0xFEFF),   // byte-order mark
    (0xFFA0, 0xFFA0),   // halfwidth Hangul filler
    (0xFFF0, 0xFFFB),   // unassigned specials, interlinear annotation
    (0x110BD, 0x110BD), // Kaithi number sign
    (0x110CD, 0x110CD), // Kaithi number sign above
    (0x13430, 0x1343F), // Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3), // shorthand format controls
    (0x1D173, 0x1D17A), // musical symbol format controls
    (0xE0000, 0xE0FFF), // tags and variation selectors supplement
];

/// Whether `c` is not seen: see `INVISIBLE` (control characters too).
#[must_use]
pub fn is_invisible(c: char) -> bool {
    let c = c as u32;
    INVISIBLE
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `c` must never reach a terminal or a one-line field raw:
/// control characters and every invisible character ([`is_invisible`]).
#[must_use]
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

/// `text` with every unsafe character escaped as `\u{1b}`, cut after
/// `max_chars` characters (the cut marked `…`).
#[must_use]
pub fn escaped(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if is_unsafe_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}
