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

/// `text` wrapped at spaces into lines of at most `width` columns; lines
/// after the first start with `indent` spaces (a hanging indent, so that a
/// bullet's continuation lines up under its words). A word longer than a
/// line is cut where the line ends.
#[must_use]
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut word = word.to_string();
        loop {
            let start = if lines.is_empty() { 0 } else { indent };
            let len = columns(&word);
            let space = usize::from(used > start);
            if used + space + len <= width {
                if space == 1 {
                    line.push(' ');
                }
                line.push_str(&word);
                used += space + len;
                break;
            }
            if used > start {
                lines.push(std::mem::take(&mut line));
                line = " ".repeat(indent);
                used = indent;
                continue;
            }
            // A word too long for an empty line: cut it.
            let room = width - used;
            let head: String = word.chars().take(room).collect();
            let tail: String = word.chars().skip(room).collect();
            line.push_str(&head);
            lines.push(std::mem::take(&mut line));
            line = " ".repeat(indent);
            used = indent;
            word = tail;
            if word.is_empty() {
                break;
            }
        }
    }
    let start = if lines.is_empty() { 0 } else { indent };
    if used > start || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole_and_indents_continuations() {
        let lines = wrap("• Lift all seeds of one of your pits", 14, 2);
        assert_eq!(lines, ["• Lift all", "  seeds of one", "  of your pits"]);
        for line in &lines {
            assert!(columns(line) <= 14, "{line:?}");
        }
        assert_eq!(wrap("short", 20, 2), ["short"]);
        assert_eq!(wrap("", 20, 2), [""]);
        assert_eq!(wrap("abcdefgh ij", 4, 1), ["abcd", " efg", " h", " ij"]);
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
