//! Drawing the whole screen from an [`App`]: header, board, status and
//! log (or the end-of-round panel), key bar, and any dialog on top.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use crate::game::outcome_message;
use crate::rules::{Score, Side};
use crate::tui::app::{App, Note, Overlay, Tone};
use crate::tui::layout::{ScreenLayout, TooSmall};
use crate::tui::theme::Theme;
use crate::tui::widgets::board::BoardView;
use crate::tui::{animation, help};

/// Draws the screen for `app`.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    match ScreenLayout::new(area, app.rules()) {
        Ok(layout) => draw_game(frame, app, &layout),
        Err(need) => draw_too_small(frame, area, need, &app.theme),
    }
    match app.overlay {
        Some(Overlay::Help) => help::draw(frame, area, app),
        Some(Overlay::ConfirmQuit) => draw_confirm_quit(frame, area, &app.theme),
        None => {}
    }
}

fn draw_too_small(frame: &mut Frame, area: Rect, need: TooSmall, theme: &Theme) {
    let lines = vec![
        Line::styled("Terminal too small", theme.title),
        Line::from(format!(
            "This board needs {}×{}; the window is {}×{}.",
            need.width, need.height, area.width, area.height
        )),
        Line::from("Enlarge it to play on (q quits)."),
    ];
    let height = (lines.len() as u16).min(area.height);
    let text_area = area.centered_vertically(Constraint::Length(height));
    frame.render_widget(
        Paragraph::new(lines).centered().wrap(Wrap { trim: true }),
        text_area,
    );
}

fn draw_confirm_quit(frame: &mut Frame, area: Rect, theme: &Theme) {
    let popup = area.centered(Constraint::Length(24), Constraint::Length(3));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(Line::styled("Quit? (y/n)", theme.title))
            .centered()
            .block(Block::bordered().border_type(BorderType::Double)),
        popup,
    );
}

fn note_line<'a>(note: &'a Note, theme: &Theme) -> Line<'a> {
    match note.tone {
        Tone::Plain => Line::styled(note.text.as_str(), theme.text),
        Tone::Good => Line::from(vec![
            Span::styled("★ ", theme.good),
            Span::styled(note.text.as_str(), theme.good),
        ]),
        Tone::Error => Line::from(vec![
            Span::styled("✗ ", theme.error),
            Span::styled(note.text.as_str(), theme.error),
        ]),
    }
}

fn draw_game(frame: &mut Frame, app: &App, layout: &ScreenLayout) {
    let theme = &app.theme;
    let game = app.game();
    let rules = app.rules();
    let names = app.names();
    let [south, north] = names;
    let tally = game.tally();

    let header = Line::from(vec![
        Span::styled(format!("Round {}", game.round()), theme.title),
        Span::styled(
            format!(
                "   Match: {south} {} – {} {north}, draws {}",
                tally.wins[0], tally.wins[1], tally.draws
            ),
            theme.text,
        ),
    ]);
    frame.render_widget(&header, layout.header);
    let pause = if app.paused { "PAUSED · " } else { "" };
    let speed = Line::styled(format!("{pause}{}", help::speed_text(app)), theme.dim);
    // Only where it does not cover the match score.
    if header.width() + speed.width() + 2 <= usize::from(layout.header.width) {
        frame.render_widget(speed.right_aligned(), layout.header);
    }
    frame.render_widget(Line::styled(rules.to_string(), theme.dim), layout.rules);

    let counts = app.shown_counts();
    // Mid-move the scores follow the seeds on screen; at the end of the
    // round they are the core's (which counts the sweep when there is one).
    let scores = if app.round_over() {
        game.board().score()
    } else {
        Score {
            south: counts[rules.store(Side::South).index()],
            north: counts[rules.store(Side::North).index()],
        }
    };
    let view = BoardView {
        rules,
        counts,
        names,
        scores,
        to_move: app.to_move(),
        selected: app.selection(),
        highlight: app.animation.as_ref().map_or([None; 3], |a| a.highlight()),
        caption: caption(app, layout.geometry.caption.width),
        theme,
    };
    frame.render_widget(&view, layout.board);

    if let Some(summary) = app.resume_summary() {
        draw_resume(frame, app, summary, layout.bottom);
    } else if app.round_over() {
        draw_round_over(frame, app, layout.bottom);
    } else {
        draw_status(frame, app, layout.bottom);
    }
    frame.render_widget(key_bar(app), layout.keys);
}

/// What the hand is doing, for the line between the rows; while a move
/// is shown, also that any key skips it (when there is room for that).
fn caption(app: &App, width: u16) -> Line<'static> {
    let theme = &app.theme;
    let rules = app.rules();
    if let Some(animation) = &app.animation {
        let mut text = animation::caption(animation, app.names(), rules);
        const SKIP: &str = " · any key: skip";
        if text.chars().count() + SKIP.chars().count() <= usize::from(width) {
            text.push_str(SKIP);
        }
        return Line::styled(text, theme.title);
    }
    if let Some((pit, _)) = app.pending_move {
        let side = app.game().board().to_move();
        return Line::styled(
            format!(
                "{} chooses {}…",
                app.game().name(side),
                rules.letter(pit).unwrap_or('?')
            ),
            theme.title,
        );
    }
    Line::default()
}

fn prompt(app: &App) -> Option<Note> {
    let rules = app.rules();
    if let Some(text) = app.thinking_text() {
        return Some(Note {
            text,
            tone: Tone::Plain,
        });
    }
    if app.paused && app.human_to_move().is_none() {
        return Some(Note {
            text: "Paused: s steps one move, p resumes.".into(),
            tone: Tone::Plain,
        });
    }
    if let Some(animation) = &app.animation {
        let name = app.game().name(animation.mover());
        let letter = animation
            .origin()
            .and_then(|p| rules.letter(p))
            .unwrap_or('?');
        return Some(Note {
            text: format!("{name} plays {letter}. Any key shows the rest of the move at once."),
            tone: Tone::Plain,
        });
    }
    let side = app.human_to_move()?;
    let name = app.game().name(side);
    let numbers = match rules.pits() {
        10.. => "1-9,0".to_string(),
        n => format!("1-{n}"),
    };
    Some(Note {
        text: format!(
            "{name}, your move: {} or {numbers}, ← → and Enter, or click a pit.",
            rules.letter_range(side),
        ),
        tone: Tone::Plain,
    })
}

/// `text` in lines of at most `width` columns, broken between words, and
/// inside a word (a path, say) only when it is longer than a line.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = vec![String::new()];
    let mut used = 0;
    for word in text.split(' ') {
        let word_width = Span::raw(word).width();
        let line = lines.last_mut().expect("one line at least");
        if used > 0 && used + 1 + word_width <= width {
            line.push(' ');
            line.push_str(word);
            used += 1 + word_width;
            continue;
        }
        if used > 0 {
            lines.push(String::new());
            used = 0;
        }
        for c in word.chars() {
            let c_width = Span::raw(c.to_string()).width();
            if used + c_width > width {
                lines.push(String::new());
                used = 0;
            }
            lines.last_mut().expect("one line at least").push(c);
            used += c_width;
        }
    }
    lines
}

/// A note wrapped to `width` columns: its mark on the first line, the rest
/// indented under its words.
fn note_lines(note: &Note, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let (mark, style) = match note.tone {
        Tone::Plain => ("", theme.text),
        Tone::Good => ("★ ", theme.good),
        Tone::Error => ("✗ ", theme.error),
    };
    let indent = Span::raw(mark).width();
    wrap_words(&note.text, usize::from(width).saturating_sub(indent))
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let lead = if i == 0 {
                mark.to_string()
            } else {
                " ".repeat(indent)
            };
            Line::from(vec![Span::styled(lead, style), Span::styled(text, style)])
        })
        .collect()
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let status = app.message.clone().or_else(|| prompt(app));
    // A long message (a path, say) wraps rather than being cut off; the
    // log below gives way, but the prompt keeps its line.
    let status_lines = status.as_ref().map_or_else(
        || vec![Line::default()],
        |note| note_lines(note, theme, area.width),
    );
    let status_height = (status_lines.len() as u16).clamp(1, area.height.saturating_sub(1).max(1));
    let status_area = Rect {
        height: status_height,
        ..area
    };
    let area = Rect {
        y: area.y + status_height,
        height: area.height - status_height,
        ..area
    };
    frame.render_widget(Paragraph::new(status_lines), status_area);
    let mut lines: Vec<Line> = Vec::new();
    // A message pushes the prompt to the second line rather than hiding it.
    if app.message.is_some()
        && let Some(p) = prompt(app)
    {
        lines.push(Line::styled(p.text, theme.dim));
    }
    // A message that is also the newest log line is not said twice.
    let log_len = match (&app.message, app.log.back()) {
        (Some(message), Some(last)) if message == last => app.log.len() - 1,
        _ => app.log.len(),
    };
    let room = usize::from(area.height).saturating_sub(lines.len());
    let skip = log_len.saturating_sub(room);
    let first_log_line = lines.len();
    for note in app.log.iter().take(log_len).skip(skip) {
        lines.push(note_line(note, theme));
    }
    // Older log lines are dimmed so the newest stands out.
    let count = lines.len();
    for (i, line) in lines.iter_mut().enumerate().skip(first_log_line) {
        if i + 1 < count {
            *line = line.clone().patch_style(theme.dim);
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_round_over(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let game = app.game();
    let names = app.names();
    let [south, north] = names;
    let tally = game.tally();
    let Some(outcome) = game.outcome() else {
        return;
    };
    let mut lines = vec![
        Line::styled(format!("── Round {} is over ──", game.round()), theme.title),
        Line::from(vec![
            Span::styled("★ ", theme.good),
            Span::styled(
                outcome_message(outcome, game.board().score(), names),
                theme.good,
            ),
        ]),
        Line::from(format!(
            "Match: {south} {} – {} {north}, draws {}",
            tally.wins[0], tally.wins[1], tally.draws
        )),
        Line::styled("Play again? (y/n)", theme.mover),
    ];
    // Below the question, where there is room: a refusal, and where the
    // round was recorded (wrapped: it is a path).
    for note in [&app.message, &app.round_note].into_iter().flatten() {
        lines.extend(note_lines(note, theme, area.width));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The question about a saved match, in place of the status line, below
/// the saved board.
fn draw_resume(frame: &mut Frame, app: &App, summary: &str, area: Rect) {
    let theme = &app.theme;
    let mut lines = vec![
        Line::styled("── An unfinished match is saved ──", theme.title),
        Line::styled(summary, theme.text),
        Line::styled(crate::game::RESUME_QUESTION, theme.mover),
        Line::styled(
            "y goes on from the board above; n starts a new match.",
            theme.dim,
        ),
    ];
    for note in app.log.iter() {
        lines.extend(note_lines(note, theme, area.width));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

fn key_bar(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let rules = app.rules();
    let mut keys: Vec<(String, &str)> = Vec::new();
    if app.resume_summary().is_some() {
        keys.extend([("y".into(), "resume"), ("n".into(), "new match")]);
    } else if app.round_over() {
        keys.extend([("y".into(), "play again"), ("n".into(), "stop")]);
    } else if app.animation.is_some() {
        keys.push(("any key".into(), "skip animation"));
    } else if let Some(side) = app.human_to_move() {
        let hint_key = if rules
            .pit_by_letter('h')
            .is_some_and(|p| rules.owner(p) == side)
        {
            "H"
        } else {
            "h"
        };
        keys.extend([
            (rules.letter_range(side), "play"),
            (hint_key.into(), "hint"),
            ("u".into(), "undo"),
            ("r".into(), "redo"),
        ]);
    } else {
        keys.push(("p".into(), if app.paused { "resume" } else { "pause" }));
        if app.paused {
            keys.push(("s".into(), "step"));
        }
    }
    if app.resume_summary().is_none() {
        // The question about a saved match takes no other keys.
        keys.push(("+/-".into(), "speed"));
    }
    keys.extend([("?".into(), "help"), ("q".into(), "quit")]);
    let mut spans = Vec::new();
    for (i, (key, what)) in keys.into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("  ", theme.text));
        }
        spans.push(Span::styled(key, theme.key));
        spans.push(Span::styled(format!(" {what}"), theme.text));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests;
