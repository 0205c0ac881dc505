//! What every full-screen view has around its own picture: one key bar
//! (the keys that work now, the least important dropped first when it does
//! not fit) and one too-small screen.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::text;
use crate::tui::theme::Theme;

/// How much a key in the key bar matters: the least important go first
/// when the bar does not fit (the help screens list them all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// Handy, not needed.
    Optional,
    /// Often wanted.
    Useful,
    /// Always shown.
    Essential,
}

/// The keys that work now. See the [module docs](self).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyBar {
    keys: Vec<(String, String, Weight)>,
}

impl KeyBar {
    /// An empty key bar.
    #[must_use]
    pub fn new() -> KeyBar {
        KeyBar::default()
    }

    /// Adds `key` doing `what`.
    pub fn add(&mut self, key: impl Into<String>, what: impl Into<String>, weight: Weight) {
        self.keys.push((key.into(), what.into(), weight));
    }

    /// The keys as a line of at most `width` columns where that can be:
    /// optional keys are dropped first, then useful ones, each kind from
    /// the end, one at a time.
    #[must_use]
    pub fn line(&self, width: u16, theme: &Theme) -> Line<'static> {
        let mut keys = self.keys.clone();
        let bar_width = |keys: &[(String, String, Weight)]| -> usize {
            keys.iter()
                .map(|(key, what, _)| text::columns(key) + 1 + text::columns(what))
                .sum::<usize>()
                + 2 * keys.len().saturating_sub(1)
        };
        // One key at a time, the last of the least important first.
        for drop in [Weight::Optional, Weight::Useful] {
            while bar_width(&keys) > usize::from(width)
                && let Some(last) = keys.iter().rposition(|(_, _, weight)| *weight == drop)
            {
                keys.remove(last);
            }
        }
        let mut spans = Vec::new();
        for (i, (key, what, _)) in keys.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled("  ", theme.text));
            }
            spans.push(Span::styled(key, theme.key));
            spans.push(Span::styled(format!(" {what}"), theme.text));
        }
        Line::from(spans)
    }
}

/// The screen shown instead of a view that does not fit: what is needed,
/// what there is, and how to leave. `what` names the view ("This board",
/// "The replay"); `question` is the question waiting for an answer, if
/// any, so that a player who pressed `q` sees what the keys answer.
pub fn draw_too_small(
    frame: &mut Frame,
    area: Rect,
    need: (u16, u16),
    what: &str,
    question: Option<&str>,
    theme: &Theme,
) {
    let sentences = [
        format!(
            "{what} needs {}×{}; the window is {}×{}: {}.",
            need.0,
            need.1,
            area.width,
            area.height,
            shortfall(need, (area.width, area.height))
        ),
        "Enlarge it to go on (q quits).".to_string(),
    ];
    // Wrapped here so that the height is known and nothing is cut.
    let mut lines = vec![Line::styled("Terminal too small", theme.title)];
    // The question goes first: on a very small window it is what matters.
    for line in question.map_or(Vec::new(), |q| text::wrap(q, usize::from(area.width), 0)) {
        lines.push(Line::styled(line, theme.mover));
    }
    for sentence in &sentences {
        for line in text::wrap(sentence, usize::from(area.width), 0) {
            lines.push(Line::styled(line, theme.text));
        }
    }
    let height = (lines.len() as u16).min(area.height);
    let text_area = area.centered_vertically(Constraint::Length(height));
    frame.render_widget(Paragraph::new(lines).centered(), text_area);
}

/// Which side of the window is short, and by how much: "20 columns
/// short", "4 rows short", "20 columns and 4 rows short".
#[must_use]
pub fn shortfall(need: (u16, u16), have: (u16, u16)) -> String {
    let count = |n: u16, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let columns = need.0.saturating_sub(have.0);
    let rows = need.1.saturating_sub(have.1);
    match (columns, rows) {
        (0, 0) => "nothing short".to_string(),
        (c, 0) => format!("{} short", count(c, "column", "columns")),
        (0, r) => format!("{} short", count(r, "row", "rows")),
        (c, r) => format!(
            "{} and {} short",
            count(c, "column", "columns"),
            count(r, "row", "rows")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_side_is_named_with_the_count() {
        assert_eq!(shortfall((80, 24), (60, 24)), "20 columns short");
        assert_eq!(shortfall((80, 24), (80, 20)), "4 rows short");
        assert_eq!(shortfall((80, 24), (79, 23)), "1 column and 1 row short");
        assert_eq!(
            shortfall((80, 24), (100, 20)),
            "4 rows short",
            "wider is fine"
        );
    }

    #[test]
    fn the_least_important_keys_go_first() {
        let mut bar = KeyBar::new();
        bar.add("a-f", "play", Weight::Essential);
        bar.add("h", "hint", Weight::Useful);
        bar.add("r", "redo", Weight::Optional);
        bar.add("q", "quit", Weight::Essential);
        let theme = Theme::monochrome();
        let text = |width| bar.line(width, &theme).to_string();
        assert_eq!(text(80), "a-f play  h hint  r redo  q quit");
        assert_eq!(text(24), "a-f play  h hint  q quit");
        assert_eq!(text(10), "a-f play  q quit", "essentials stay");
        bar.add("t", "colours", Weight::Optional);
        assert_eq!(
            bar.line(34, &theme).to_string(),
            "a-f play  h hint  r redo  q quit",
            "optional keys go one at a time, the last first"
        );
    }
}
