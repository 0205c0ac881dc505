//! What every full-screen view has around its own picture: one key bar
//! (the keys that work now, the least important dropped first when it does
//! not fit), one help screen ([`HelpText`], listing every key) and one
//! too-small screen.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

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

/// What a help screen says: a heading, a few sentences (each under a
/// bullet) and every key with what it does. Drawn by [`draw_help`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HelpText {
    /// The title in the frame (" Mancala — help ").
    pub title: String,
    /// The first line, in the title's style ("Rules: …").
    pub heading: String,
    /// Sentences, each wrapped under its bullet.
    pub sentences: Vec<String>,
    /// (keys, what they do) pairs, in two columns where they fit.
    pub keys: Vec<(String, String)>,
}

impl HelpText {
    /// `(keys, what they do)` pairs written as text, as [`HelpText::keys`]
    /// holds them.
    #[must_use]
    pub fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|&(keys, what)| (keys.to_string(), what.to_string()))
            .collect()
    }

    /// The help as lines of at most `width` columns. Wrapped here rather
    /// than by the paragraph so that continuation lines hang under the
    /// words, not under the bullet or the keys.
    #[must_use]
    pub fn lines(&self, width: usize, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines: Vec<Line> = text::wrap(&self.heading, width, 7)
            .into_iter()
            .map(|line| Line::styled(line, theme.title))
            .collect();
        for sentence in &self.sentences {
            for line in text::wrap(&format!("• {sentence}"), width, 2) {
                lines.push(Line::styled(line, theme.text));
            }
        }
        lines.push(Line::default());
        lines.push(Line::styled("Keys", theme.title));
        for (keys, what) in &self.keys {
            let keys = format!("  {keys:<14}");
            let key_column = text::columns(&keys);
            if key_column + 12 > width {
                // Too narrow for two columns: the words go under the keys.
                lines.push(Line::styled(keys, theme.key));
                for part in text::wrap(what, width.saturating_sub(4), 0) {
                    lines.push(Line::styled(format!("    {part}"), theme.text));
                }
                continue;
            }
            let indent = " ".repeat(key_column);
            for (i, part) in text::wrap(what, width - key_column, 0)
                .into_iter()
                .enumerate()
            {
                let lead = if i == 0 { keys.clone() } else { indent.clone() };
                lines.push(Line::from(vec![
                    Span::styled(lead, theme.key),
                    Span::styled(part, theme.text),
                ]));
            }
        }
        lines
    }
}

/// An open help screen, the same on every screen: how far it is
/// scrolled. The arrows scroll it, at most until its last line shows (a
/// limit taken from the help's own length on the screen's size); any
/// other key closes it. Drawn by [`draw_help`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HelpScroll {
    offset: u16,
}

impl HelpScroll {
    /// Lines scrolled down.
    #[must_use]
    pub fn offset(self) -> u16 {
        self.offset
    }

    /// `code` pressed while `help` is open on a screen of `area`: `true`
    /// when it scrolled (or would, at either end), `false` when it closes
    /// the help.
    pub fn key(&mut self, code: KeyCode, help: &HelpText, area: Rect) -> bool {
        let down = match code {
            KeyCode::Up | KeyCode::PageUp => false,
            KeyCode::Down | KeyCode::PageDown => true,
            _ => return false,
        };
        self.step(down, help, area);
        true
    }

    /// The mouse wheel turned while `help` is open (`step` below 0: up):
    /// it scrolls the help as the arrows do, never what is behind it.
    pub fn wheel(&mut self, step: i8, help: &HelpText, area: Rect) {
        self.step(step > 0, help, area);
    }

    /// One line down (or up), within the help's length on `area`.
    fn step(&mut self, down: bool, help: &HelpText, area: Rect) {
        // Clamped first: the offset kept may be past the end now that the
        // window grew or the help got shorter, and Up must move the view
        // at once, not first work off what no longer shows.
        let limit = help_overflow(help, area);
        let offset = self.offset.min(limit);
        self.offset = if down {
            offset.saturating_add(1).min(limit)
        } else {
            offset.saturating_sub(1)
        };
    }
}

/// The width of the help's text inside its frame over `area`.
fn help_width(area: Rect) -> usize {
    usize::from(area.width.saturating_sub(2))
}

/// How many lines of `help` drawn over `area` do not fit in its frame:
/// how far it scrolls.
#[must_use]
pub fn help_overflow(help: &HelpText, area: Rect) -> u16 {
    let width = help_width(area);
    if width == 0 {
        return 0;
    }
    // Only the count matters here, not the styles.
    overflow(help.lines(width, &Theme::monochrome()).len(), area)
}

/// How many of `lines` lines do not fit in a frame over `area`.
fn overflow(lines: usize, area: Rect) -> u16 {
    u16::try_from(lines)
        .unwrap_or(u16::MAX)
        .saturating_sub(area.height.saturating_sub(2))
}

/// Draws `help` over the whole of `area`, scrolled as `scroll` says (at
/// most until its last line shows), framed with how to scroll and close
/// it.
pub fn draw_help(
    frame: &mut Frame,
    area: Rect,
    help: &HelpText,
    scroll: HelpScroll,
    theme: &Theme,
) {
    let lines = help.lines(help_width(area), theme);
    // From the lines drawn, not wrapped again (as help_overflow would).
    let limit = overflow(lines.len(), area);
    // the arrows only offered where there is something to scroll
    let keys = if limit > 0 {
        " ↑↓ scroll · any other key closes "
    } else {
        " any key closes "
    };
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(Line::styled(help.title.clone(), theme.title))
        .title_bottom(Line::styled(keys, theme.dim).right_aligned());
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((scroll.offset.min(limit), 0))
            .block(block),
        area,
    );
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

    /// A help of `keys` one-line keys.
    fn help_of(keys: usize) -> HelpText {
        HelpText {
            title: " help ".into(),
            heading: "Rules".into(),
            sentences: Vec::new(),
            keys: (0..keys)
                .map(|i| (format!("k{i}"), "does".into()))
                .collect(),
        }
    }

    /// A help of 40 one-line keys, scrolled to its end on a small window:
    /// once the window grows, one Up moves the view by one line.
    #[test]
    fn after_the_window_grows_one_up_moves_the_help_one_line() {
        let help = help_of(40);
        let small = Rect::new(0, 0, 60, 12);
        let big = Rect::new(0, 0, 60, 30);
        let mut scroll = HelpScroll::default();
        for _ in 0..100 {
            assert!(scroll.key(KeyCode::Down, &help, small));
        }
        assert_eq!(scroll.offset(), help_overflow(&help, small), "at the end");
        let big_end = help_overflow(&help, big);
        assert!(0 < big_end && big_end < scroll.offset(), "{big_end}");
        assert!(scroll.key(KeyCode::Up, &help, big));
        assert_eq!(scroll.offset(), big_end - 1, "one line up from the end");
        assert!(scroll.key(KeyCode::Down, &help, big));
        assert_eq!(scroll.offset(), big_end);
        assert!(!scroll.key(KeyCode::Char('x'), &help, big), "closes");
    }

    /// The frame offers the arrows only when the help does not fit.
    #[test]
    fn the_arrows_are_offered_only_when_the_help_scrolls() {
        let help = help_of(20);
        let footer = |height| {
            let mut terminal =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(60, height)).unwrap();
            terminal
                .draw(|frame| {
                    let area = frame.area();
                    draw_help(
                        frame,
                        area,
                        &help,
                        HelpScroll::default(),
                        &Theme::monochrome(),
                    );
                })
                .unwrap();
            let buffer = terminal.backend().buffer();
            (0..60)
                .map(|x| buffer[(x, height - 1)].symbol().to_string())
                .collect::<String>()
        };
        let short = footer(10);
        assert!(
            short.contains("↑↓ scroll · any other key closes"),
            "{short}"
        );
        let tall = footer(40);
        assert!(tall.contains(" any key closes "), "{tall}");
        assert!(!tall.contains('↑'), "{tall}");
    }

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
        let mut bar = KeyBar::default();
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
