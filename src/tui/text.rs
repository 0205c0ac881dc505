//! Fitting text into the columns there are: word wrapping with a hanging
//! indent, and choosing the longest wording that fits.

use ratatui::text::Line;

/// Columns `text` takes on screen (one per character: every character the
/// game prints is one column wide).
#[must_use]
pub fn columns(text: &str) -> usize {
    Line::raw(text).width()
}

/// The first of `wordings` that fits in `width` columns, else the last.
#[must_use]
pub fn first_fitting(wordings: &[String], width: usize) -> String {
    wordings
        .iter()
        .find(|w| columns(w) <= width)
        .or(wordings.last())
        .cloned()
        .unwrap_or_default()
}

/// `text` in exactly `width` columns: padded with spaces, or cut with `…`
/// as its last column where it is longer.
#[must_use]
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut used = columns(text);
    if used <= width {
        out.push_str(text);
    } else {
        used = 0;
        if width > 0 {
            for c in text.chars() {
                let w = columns(c.encode_utf8(&mut [0; 4]));
                if used + w > width - 1 {
                    break;
                }
                used += w;
                out.push(c);
            }
            out.push('…');
            used += 1;
        }
    }
    let pad = width.saturating_sub(used);
    out.extend(std::iter::repeat_n(' ', pad));
    out
}

/// `text` cut into lines of `width` columns, each filled to its end (for
/// a path, which has no spaces to break at).
#[must_use]
pub fn cut(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(width.max(1))
        .map(|line| line.iter().collect())
        .collect()
}

/// `text` wrapped at spaces into lines of at most `width` columns; lines
/// after the first start with `indent` spaces (a hanging indent, so that a
/// bullet's continuation lines up under its words). A path breaks after a
/// `/` rather than anywhere; a word longer than a line is cut where the
/// line ends. (The `textwrap` crate does the wrapping.)
#[must_use]
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 1);
    let pad = " ".repeat(indent);
    let options = textwrap::Options::new(width)
        .subsequent_indent(&pad)
        .word_separator(textwrap::WordSeparator::Custom(spaces_and_slashes))
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(true);
    textwrap::wrap(text, options)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}

/// Splits a line into words at spaces (which stay as the words'
/// whitespace) and after each `/` inside a word (with no whitespace, so
/// a path only breaks there when it must).
fn spaces_and_slashes(line: &str) -> Box<dyn Iterator<Item = textwrap::core::Word<'_>> + '_> {
    let mut words = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            let word_end = i;
            while i < bytes.len() && bytes[i] == b' ' {
                i += 1;
            }
            words.push(word(&line[start..word_end], &line[word_end..i]));
            start = i;
        } else if bytes[i] == b'/' && i + 1 < bytes.len() && bytes[i + 1] != b' ' {
            i += 1;
            words.push(word(&line[start..i], ""));
            start = i;
        } else {
            i += 1;
        }
    }
    if start < line.len() {
        words.push(word(&line[start..], ""));
    }
    Box::new(words.into_iter())
}

fn word<'a>(text: &'a str, whitespace: &'a str) -> textwrap::core::Word<'a> {
    let mut word = textwrap::core::Word::from(text);
    word.whitespace = whitespace;
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_pads_or_cuts_to_the_columns_exactly() {
        assert_eq!(fit("Alice", 8), "Alice   ");
        assert_eq!(fit("Alexandria", 8), "Alexand…");
        // a wide character is two columns: cut before one that would not fit
        assert_eq!(fit("名前名前", 6), "名前… ");
        assert_eq!(fit("x", 0), "");
    }

    #[test]
    fn wrapping_keeps_words_whole_and_indents_continuations() {
        let lines = wrap("• Lift all seeds of one of your pits", 14, 2);
        assert_eq!(lines, ["• Lift all", "  seeds of one", "  of your pits"]);
        for line in &lines {
            assert!(columns(line) <= 14, "{line:?}");
        }
        assert_eq!(wrap("short", 20, 2), ["short"]);
        assert_eq!(wrap("", 20, 2), [""]);
        // Cut to fit every line, the indented ones too.
        assert_eq!(wrap("abcdefgh ij", 4, 1), ["abc", " def", " gh", " ij"]);
        // A path breaks after a slash when it has to.
        assert_eq!(
            wrap(
                "Saved in ~/.local/share/mancala/records/a-long-name.txt.",
                32,
                0
            ),
            [
                "Saved in ~/.local/share/mancala/",
                "records/a-long-name.txt."
            ]
        );
    }

    #[test]
    fn the_first_wording_that_fits_wins() {
        let wordings = ["a long wording".to_string(), "short".to_string()];
        assert_eq!(first_fitting(&wordings, 20), "a long wording");
        assert_eq!(first_fitting(&wordings, 5), "short");
        assert_eq!(
            first_fitting(&wordings, 2),
            "short",
            "the last as a last resort"
        );
    }
}
