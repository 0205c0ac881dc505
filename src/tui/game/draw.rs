//! Drawing the whole screen from an [`App`]: header, board, status and
//! log (or the end-of-round panel), key bar, and any dialog on top.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use crate::game::outcome_message;
use crate::game::{match_score, match_score_short};
use crate::rules::{Score, Side};
use crate::session::SessionCommand;
use crate::store::{BUSY_NOTICE, BUSY_QUESTION};
use crate::tui::chrome::{KeyBar, draw_too_small};
use crate::tui::game::app::{App, Note, Overlay, PLAY_AGAIN, Tone, paused_text};
use crate::tui::game::{help, keys};
use crate::tui::layout::ScreenLayout;
use crate::tui::theme::Theme;
use crate::tui::widgets::board::BoardView;
use crate::tui::{animation, text};

/// Draws the screen for `app`.
pub fn draw(frame: &mut Frame, app: &App) {
    if let Some(analysis) = app.analysis_on_screen() {
        analysis.draw(frame, analysis.theme());
        return;
    }
    let area = frame.area();
    match ScreenLayout::new(area, app.rules()) {
        Ok(layout) => draw_game(frame, app, &layout),
        Err(need) => draw_too_small(
            frame,
            area,
            (need.width, need.height),
            "This board",
            app.question(),
            app.theme(),
        ),
    }
    match app.dialog() {
        Some(Overlay::Help) => help::draw(frame, area, app),
        Some(Overlay::ConfirmQuit) => draw_confirm_quit(frame, area, app),
        None => {}
    }
}

/// "Quit? (y/n)", with what becomes of the match: a round under way stays
/// saved for resuming, a finished one ends the match.
fn draw_confirm_quit(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.theme();
    let game = app.game();
    let fate = if app.resume_summary().is_some() {
        "The saved match stays saved."
    } else if game.outcome().is_some() {
        "The match ends here."
    } else if game.moves().is_empty() && game.round() == 1 {
        "Nothing has been played yet."
    } else {
        (app.network_quit_fate())
            .unwrap_or("The match stays saved: start with the same names to resume.")
    };
    let width = area.width.min(44);
    let lines: Vec<Line> = std::iter::once(Line::styled("Quit? (y/n)", theme.title))
        .chain(
            text::wrap(fate, usize::from(width.saturating_sub(4)), 0)
                .into_iter()
                .map(|l| Line::styled(l, theme.text)),
        )
        .collect();
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .centered()
            .block(Block::bordered().border_type(BorderType::Double)),
        popup,
    );
}

fn draw_game(frame: &mut Frame, app: &App, layout: &ScreenLayout) {
    let theme = app.theme();
    let game = app.game();
    let rules = app.rules();
    let names = app.names();

    let tally = game.tally();

    let round = format!("Round {}", game.round());
    let (won, lost, draws) = (tally.wins[0], tally.wins[1], tally.draws);
    let scores = [
        format!("   Match: {}", match_score(tally, names)),
        format!("   {}", match_score(tally, names)),
        format!(" · match {}", match_score_short(tally)),
        format!(" · {won}–{lost}, {draws}d"),
    ];
    let (score, speed) = header_parts(
        usize::from(layout.header.width).saturating_sub(text::columns(&round)),
        &scores,
        &help::speed_texts(app.seed_delay(), app.paused()),
        app.paused(),
    );
    let header = Line::from(vec![
        Span::styled(round, theme.title),
        Span::styled(score, theme.text),
    ]);
    frame.render_widget(&header, layout.header);
    if let Some(speed) = speed {
        frame.render_widget(
            Line::styled(speed, theme.dim).right_aligned(),
            layout.header,
        );
    }
    frame.render_widget(
        Line::styled(
            rules_line(&game.config().rules_text(), layout.rules.width),
            theme.dim,
        ),
        layout.rules,
    );

    let counts = app.shown_counts();
    // Mid-move the scores follow the seeds on screen; at the end of the
    // round they are the core's (which counts the sweep when there is one).
    let scores = if app.round_over() {
        game.position().score()
    } else {
        Score {
            south: counts[rules.store(Side::South).index()],
            north: counts[rules.store(Side::North).index()],
        }
    };
    let view = BoardView::new(rules, counts, app.board_names(), scores, theme)
        .piles(game.config().pile_word())
        .to_move(app.to_move())
        .sowing(app.animation())
        .selected(app.selection())
        .caption(caption(app, layout.geometry.caption().width))
        .laid_out(&layout.geometry);
    frame.render_widget(&view, layout.board);

    if app.busy_question() {
        draw_busy(frame, app, layout.bottom);
    } else if let Some(summary) = app.resume_summary() {
        draw_resume(frame, app, &summary, layout.bottom);
    } else if app.round_over() {
        draw_round_over(frame, app, layout.bottom);
    } else {
        draw_status(frame, app, layout.bottom);
    }
    frame.render_widget(key_bar(app, layout.keys.width), layout.keys);
}

/// The match score and the speed for a header of `width` columns after the
/// round. The speed alone gives way to the score's longest wording; with
/// the pause in front it stays: the longest wordings that fit together,
/// the speed shortened before the score, left out only when not even the
/// shortest wordings fit side by side.
fn header_parts(
    width: usize,
    scores: &[String],
    speeds: &[String],
    paused: bool,
) -> (String, Option<String>) {
    let longest = text::first_fitting(scores, width);
    let scores = if paused {
        scores
    } else {
        std::slice::from_ref(&longest)
    };
    for score in scores {
        for speed in speeds {
            if text::columns(score) + 2 + text::columns(speed) <= width {
                return (score.clone(), Some(speed.clone()));
            }
        }
    }
    (text::first_fitting(scores, width), None)
}

/// The rules in force in `width` columns: whole when they fit, else the
/// leading options that fit and a pointer to the help screen.
fn rules_line(rules: &str, width: u16) -> String {
    let width = usize::from(width);
    if text::columns(rules) <= width {
        return rules.to_string();
    }
    let parts: Vec<&str> = rules.split(", ").collect();
    (1..parts.len())
        .rev()
        .map(|n| format!("{}, … (? help)", parts[..n].join(", ")))
        .find(|line| text::columns(line) <= width)
        .unwrap_or_default()
}

/// What the hand is doing, for the line between the rows; while a move
/// is shown, also that any key skips it (when there is room for that).
fn caption(app: &App, width: u16) -> Line<'static> {
    let theme = app.theme();
    let rules = app.rules();
    if let Some(animation) = app.animation() {
        let mut text = animation::caption(animation, app.board_names(), rules);
        const SKIP: &str = " · any key: skip";
        if text.chars().count() + SKIP.chars().count() <= usize::from(width) {
            text.push_str(SKIP);
        }
        return Line::styled(text, theme.title);
    }
    if let Some(pit) = app.chosen() {
        let side = app.game().position().to_move();
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

/// The line that says what to do now, worded to fit `width` columns.
fn prompt(app: &App, width: usize) -> Option<Note> {
    let rules = app.rules();
    if let Some(text) = app.remote_prompt().or_else(|| app.thinking_text()) {
        return Some(Note::plain(text));
    }
    if app.paused() && app.human_to_move().is_none() {
        return Some(Note::plain(paused_text(rules)));
    }
    if let Some(animation) = app.animation() {
        let name = app.board_names()[animation.mover(rules).index()];
        let letter = animation
            .origin()
            .and_then(|p| rules.letter(p))
            .unwrap_or('?');
        return Some(Note::plain(text::first_fitting(
            &[
                format!("{name} plays {letter}. Any key shows the rest of the move at once."),
                format!("{name} plays {letter}. Any key: skip."),
            ],
            width,
        )));
    }
    let side = app.human_to_move()?;
    let name = app.game().name(side);
    let keys = format!("{} or {}", rules.letter_range(side), rules.number_range());
    Some(Note::plain(text::first_fitting(
        &[
            format!(
                "{name}, your move: {keys}, ← → and Enter, or click a {}.",
                app.game().game().pit_word()
            ),
            format!("{name}, your move: {keys}, ← → Enter, or click."),
            format!("{name}, your move: {keys}."),
            format!("Your move: {keys}."),
        ],
        width,
    )))
}

/// A note wrapped to `width` columns: its mark (★ good, ✗ refused) on the
/// first line, the rest indented under its words; a word longer than a line
/// (a path, say) is broken where the line ends.
fn note_lines(note: &Note, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let (mark, style) = marked(note.tone, theme);
    text::wrap(
        &format!("{mark}{}", note.text),
        usize::from(width),
        text::columns(mark),
    )
    .into_iter()
    .map(|line| Line::styled(line, style))
    .collect()
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let width = usize::from(area.width);
    let room = usize::from(area.height);
    // A message that says what the prompt says is not said twice.
    let prompt = prompt(app, width).filter(|p| app.notes().message() != Some(p));
    let mut lines: Vec<Line> = Vec::new();
    match (app.notes().message(), &prompt) {
        (Some(message), _) => {
            lines.extend(note_lines(message, theme, area.width));
            // A message pushes the prompt down rather than hiding it.
            if let Some(p) = &prompt {
                lines.extend(
                    note_lines(p, theme, area.width)
                        .into_iter()
                        .map(|l| l.patch_style(theme.dim)),
                );
            }
        }
        (None, Some(p)) => lines.extend(note_lines(p, theme, area.width)),
        (None, None) => lines.push(Line::default()),
    }
    lines.truncate(room);
    // A message that is also the newest log line is not said twice.
    let history = app.notes().log();
    let log_len = match (app.notes().message(), history.back()) {
        (Some(message), Some(last)) if message == last => history.len() - 1,
        _ => history.len(),
    };
    let newest = history.iter().take(log_len).rev();
    let log = newest_first(newest, app, area.width, room.saturating_sub(lines.len()));
    lines.extend(log);
    frame.render_widget(Paragraph::new(lines), area);
}

/// The notes `newest` (newest first) that fit in `room` lines `width`
/// columns wide, in reading order (oldest first); all but the newest
/// dimmed, so that it stands out.
fn newest_first<'a>(
    newest: impl Iterator<Item = &'a Note>,
    app: &App,
    width: u16,
    room: usize,
) -> Vec<Line<'static>> {
    let theme = app.theme();
    let mut kept: Vec<Line> = Vec::new();
    for (age, note) in newest.enumerate() {
        let mut note_lines = note_lines(note, theme, width);
        if kept.len() + note_lines.len() > room {
            break;
        }
        if age > 0 {
            note_lines = note_lines
                .into_iter()
                .map(|l| l.patch_style(theme.dim))
                .collect();
        }
        kept.extend(note_lines.into_iter().rev());
    }
    kept.reverse();
    kept
}

fn draw_round_over(frame: &mut Frame, app: &App, area: Rect) {
    let theme = app.theme();
    let game = app.game();
    let names = app.names();

    let tally = game.tally();
    let Some(outcome) = game.outcome() else {
        return;
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled("★ ", theme.good),
            Span::styled(
                outcome_message(outcome, game.board().score(), names),
                theme.good,
            ),
        ]),
        Line::from(text::first_fitting(
            &[
                format!("Match: {}", match_score(tally, names)),
                format!("Match {}", match_score_short(tally)),
            ],
            usize::from(area.width),
        )),
    ];
    lines.extend(
        app.rating_changes()
            .iter()
            .map(|change| Line::from(Span::styled(change.to_string(), theme.good))),
    );
    lines.push(Line::from(vec![
        Span::styled(PLAY_AGAIN, theme.mover),
        Span::styled(
            keys::offers(app)
                .iter()
                .find(|o| o.does == keys::Does::Session(SessionCommand::Analyse))
                .map(|o| format!("   {} looks at this round's analysis", o.shown))
                .unwrap_or_default(),
            theme.dim,
        ),
    ]));
    // Below the question: the newest news that fits (the round's last
    // moves, the other player's answer in a network match), oldest first
    // and dimmed but the newest; then a refusal, and where the round was
    // recorded (wrapped: it is a path). What the panel says already is not
    // said twice, and a line is left for the heading.
    // Where the round was recorded comes first when room is short: the
    // status message repeats what the key bar offers.
    let room = usize::from(area.height).saturating_sub(1);
    let mut notes: Vec<&Note> = Vec::new();
    let mut below: Vec<Line> = Vec::new();
    for note in [app.round_note(), app.notes().message()]
        .into_iter()
        .flatten()
    {
        let mut said = note_lines(note, theme, area.width);
        // The heading gives way to them.
        let mut free = (room + 1).saturating_sub(lines.len() + below.len());
        if notes.is_empty() && said.len() > free.max(1) {
            // A path that does not fit loses its directory, not its name;
            // the match score (the header has it too) gives way to the name.
            if let Some(short) = directory_shortened(note, theme, area.width) {
                said = short;
                if said.len() > free {
                    lines.remove(1);
                    free += 1;
                }
            }
        }
        if notes.is_empty() && said.len() > free.max(1) {
            // A path that does not fit keeps its end: the record's name.
            said.drain(..said.len() - free.max(1));
            said[0].spans.insert(0, Span::styled("… ", theme.dim));
        }
        if notes.is_empty() || said.len() <= free {
            // The message stays above the record's name.
            if notes.is_empty() {
                below.extend(said);
            } else {
                below.splice(0..0, said);
            }
            notes.push(note);
        }
    }
    let result = outcome_message(outcome, game.board().score(), names);
    let fresh = app
        .notes()
        .log()
        .iter()
        .rev()
        .filter(|n| n.text != result && !notes.iter().any(|s| s.text == n.text));
    let free = room.saturating_sub(lines.len() + below.len());
    lines.extend(newest_first(fresh, app, area.width, free));
    lines.extend(below);
    if lines.len() < usize::from(area.height) {
        lines.insert(
            0,
            Line::styled(format!("── Round {} is over ──", game.round()), theme.title),
        );
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The mark and style of a note of `tone`: ★ good, ✗ refused.
fn marked(tone: Tone, theme: &Theme) -> (&'static str, Style) {
    match tone {
        Tone::Plain => ("", theme.text),
        Tone::Good => ("★ ", theme.good),
        Tone::Error => ("✗ ", theme.error),
    }
}

/// `note` naming a file with its directory shortened to `…/` and its
/// words filled to the line's end, so that the file's name is whole in
/// the fewest lines; `None` when it names no file.
fn directory_shortened(note: &Note, theme: &Theme, width: u16) -> Option<Vec<Line<'static>>> {
    let text = &note.text;
    let slash = text.rfind('/')?;
    let start = text[..slash].rfind(' ').map_or(0, |space| space + 1);
    let (mark, style) = marked(note.tone, theme);
    let short = format!("{mark}{}…{}", &text[..start], &text[slash..]);
    Some(
        text::cut(&short, usize::from(width))
            .into_iter()
            .map(|line| Line::styled(line, style))
            .collect(),
    )
}

/// The question about a saved match, in place of the status line, below
/// the saved board.
/// The question asked when another running game holds the match.
fn draw_busy(frame: &mut Frame, app: &App, area: Rect) {
    draw_question(
        frame,
        app,
        area,
        [
            "── Another window is playing this match ──",
            BUSY_NOTICE,
            BUSY_QUESTION,
            "p plays it here without saving (rounds are still recorded); q leaves it to the other window.",
        ],
    );
}

fn draw_resume(frame: &mut Frame, app: &App, summary: &str, area: Rect) {
    draw_question(
        frame,
        app,
        area,
        [
            "── An unfinished match is saved ──",
            summary,
            crate::store::RESUME_QUESTION,
            "y goes on from the board above; n starts a new match.",
        ],
    );
}

/// A question before the game: its heading, what it is about, the
/// question, what the answers do; then what the last key did and the log.
fn draw_question(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    [heading, about, question, answers]: [&str; 4],
) {
    let theme = app.theme();
    let mut lines = vec![
        Line::styled(heading.to_string(), theme.title),
        Line::styled(about.to_string(), theme.text),
        Line::styled(question.to_string(), theme.mover),
        Line::styled(answers.to_string(), theme.dim),
    ];
    // What the last key did (a key that is no answer says so).
    for note in app.notes().message().into_iter().chain(app.notes().log()) {
        lines.extend(note_lines(note, theme, area.width));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

/// The keys that work now, as many as fit in `width` columns: the
/// screen's one table ([`keys::offers`]), which the help reads too.
fn key_bar(app: &App, width: u16) -> Line<'static> {
    let mut bar = KeyBar::default();
    for offer in keys::offers(app) {
        if let Some(weight) = offer.bar {
            bar.add(offer.bar_key(), offer.label.clone(), weight);
        }
    }
    bar.line(width, app.theme())
}

#[cfg(test)]
mod big_screen_tests;
#[cfg(test)]
mod tests;
