//! Players' names, and any text from a file, made safe to show.
//!
//! A name reaches a terminal, a file name, a record line and the
//! statistics, so it is cleaned once, where it enters the game (the command
//! line for both front ends, a record or save being read, a statistics
//! line): [`clean_name`] turns control and formatting characters (escape
//! codes, tabs, line breaks, bidirectional overrides) into spaces, squeezes
//! runs of spaces, trims, and keeps at most [`MAX_NAME_GRAPHEMES`]
//! characters as a reader counts them (graphemes: `é` or a family emoji is
//! one). [`checked_name`] also refuses a name with nothing left.
//!
//! [`shown`] is for echoing untrusted text in a message: control
//! characters escaped, and cut short.

use std::fmt;

use unicode_segmentation::UnicodeSegmentation as _;

/// The most characters (graphemes) a name keeps.
pub const MAX_NAME_GRAPHEMES: usize = 40;

/// Whether `c` must never reach a terminal or a one-line field: control
/// characters, and the invisible formatting characters that reorder or
/// hide text (bidirectional controls, zero-width spaces, byte-order mark,
/// line and paragraph separators). The zero-width joiner stays: emoji need it.
#[must_use]
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'
                | '\u{200C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// A name made safe (see the [module docs](self)); empty when nothing is
/// left of it.
///
/// ```
/// use mancala::game::names::clean_name;
/// assert_eq!(clean_name(" Bob\n\tthe\u{1b}]2;x\u{7} builder "), "Bob the ]2;x builder");
/// assert_eq!(clean_name(&"👍".repeat(100)).chars().count(), 40);
/// assert_eq!(clean_name("\u{1b}\u{7}"), "");
/// ```
#[must_use]
pub fn clean_name(raw: &str) -> String {
    let spaced: String = raw
        .chars()
        .map(|c| if is_unsafe_char(c) { ' ' } else { c })
        .collect();
    let squeezed = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    squeezed
        .graphemes(true)
        .take(MAX_NAME_GRAPHEMES)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A name that is nothing once cleaned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyName {
    /// The name as given, [`shown`] safely.
    pub given: String,
}

impl fmt::Display for EmptyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
/// use mancala::game::names::shown;
/// assert_eq!(shown("a\u{1b}[31mb"), "a\\u{1b}[31mb");
/// assert!(shown(&"x".repeat(1_000_000)).chars().count() < 100);
/// ```
#[must_use]
pub fn shown(text: &str) -> String {
    escaped(text, SHOWN_CHARS)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_codes_and_keep_forty_graphemes() {
        assert_eq!(clean_name("  Alice  "), "Alice");
        assert_eq!(clean_name("a\tb"), "a b");
        assert_eq!(clean_name("\u{202E}evil"), "evil");
        let family = "👨‍👩‍👧";
        let long = family.repeat(50);
        let cut = clean_name(&long);
        assert_eq!(cut.graphemes(true).count(), MAX_NAME_GRAPHEMES);
        assert!(cut.starts_with(family));
        assert_eq!(clean_name(&cut), cut, "cleaning twice changes nothing");
        assert!(checked_name("\u{1b}\u{7}\t").is_err());
        assert_eq!(checked_name(" Zoë ").unwrap(), "Zoë");
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
