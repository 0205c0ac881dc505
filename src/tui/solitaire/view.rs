//! Drawing the solitaire screen: the houses in a row with the store at the
//! right end, markers for playable, selected and hinted houses, the seeds
//! in the hand, the status line and the key help.
//! Where each part goes is the [`Layout`] (in `layout`, shared with clicks).
//!
//! It uses the two-player game's [`Theme`]: the same colours, readable on
//! light and dark backgrounds, and the same monochrome look for `NO_COLOR`.
//! Nothing is told by colour alone: playable houses have a `▲` and a thick
//! border, the selected one a `▼`, the hint a `★`, the house a seed just
//! landed in a thick border filled with the highlight.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget, Wrap};

use crate::rules::plural;
use crate::tui::chrome::{HelpText, KeyBar, Weight, draw_help, draw_too_small};
use crate::tui::theme::Theme;

use super::app::{Question, SolitaireGame};
use super::layout::ARROW;
pub use super::layout::{Hit, Layout, MIN_HEIGHT, MIN_WIDTH, layout};

/// Seed marks.
const SEED: &str = "•";

/// Seed marks for `count` seeds in two rows of `width`, or none when they
/// would not fit.
fn seed_rows(count: u64, width: u16) -> [String; 2] {
    let width = u64::from(width);
    if count > 2 * width {
        return [String::new(), String::new()];
    }
    let first = count.min(width);
    [
        SEED.repeat(first as usize),
        SEED.repeat((count - first) as usize),
    ]
}

/// `count` in at most `width` columns: all digits when they fit, else
/// abbreviated (`12k`, `345M`, `18E`: thousands, millions, ... rounded down).
fn count_text(count: u64, width: u16) -> String {
    let full = count.to_string();
    if full.len() <= usize::from(width) {
        return full;
    }
    let mut value = count;
    for unit in ["k", "M", "G", "T", "P", "E"] {
        value /= 1000;
        if value < 1000 {
            return format!("{value}{unit}");
        }
    }
    full
}

fn centered(text: impl Into<String>, style: Style) -> Line<'static> {
    Line::styled(text.into(), style).alignment(Alignment::Center)
}

/// "house 1", "houses 1 and 3", "houses 1, 3 and 6", "houses 1, 3, 6, ... (9 in all)".
fn list_houses(houses: &[usize]) -> String {
    let names: Vec<String> = houses.iter().take(4).map(ToString::to_string).collect();
    match houses.len() {
        0 => "no house".into(),
        1 => format!("house {}", names[0]),
        n if n <= 4 => format!("houses {} and {}", names[..n - 1].join(", "), names[n - 1]),
        n => format!("houses {}, ... ({n} in all)", names.join(", ")),
    }
}

/// What the status line says.
#[must_use]
pub fn status_text(app: &SolitaireGame) -> String {
    if let Some(message) = app.message() {
        return message.to_string();
    }
    let board = app.board();
    let made = app.moves().len() as u64;
    match app.question() {
        Some(Question::StartOver) => {
            let stay = if made == 1 { "stays" } else { "stay" };
            return format!(
                "Start this board over? Your {} {stay} for r to replay. (y/n)",
                plural(made, "move")
            );
        }
        Some(Question::NewBoard) => {
            return "Leave this board unfinished and deal a new one? (y/n)".into();
        }
        Some(Question::Quit) => return "Quit? (y/n)".into(),
        None => {}
    }
    if let Some(animation) = app.animation() {
        return format!(
            "Sowing house {}: {} in hand.",
            animation.house(),
            plural(animation.hand(), "seed")
        );
    }
    if let Some(typed) = app.typed() {
        let first = typed * 10;
        let last = (first + 9).min(board.houses());
        return format!(
            "House {typed}... type another digit for houses {first} to {last}, or Enter to play house {typed}."
        );
    }
    if board.is_won() {
        return format!("Won in {}!", plural(made, "move"));
    }
    if board.is_stuck() {
        return format!("Stuck after {}.", plural(made, "move"));
    }
    let legal: Vec<usize> = board.legal_moves().collect();
    format!(
        "Move {}: {} can be played. {} to bring home.",
        made + 1,
        list_houses(&legal),
        plural(board.in_houses(), "seed")
    )
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &SolitaireGame, theme: Theme) {
    let area = frame.area();
    let Some(layout) = layout(area, app) else {
        let question = app.question().map(|_| status_text(app));
        draw_too_small(
            frame,
            area,
            (MIN_WIDTH, MIN_HEIGHT),
            "The game",
            question.as_deref(),
            &theme,
        );
        // As in the game, a help already open stays over it.
        if let Some(scroll) = app.help_scroll() {
            draw_help(frame, area, &help_text(app), scroll, &theme);
        }
        return;
    };
    let board = app.board();
    let counts = app.shown_counts();
    let seeds = board.total();
    let title = Line::styled(" Solitaire Mancala ", theme.title);
    let info = Line::styled(
        format!(
            " board {} · {} · {} ",
            app.deal_number(),
            plural(seeds, "seed"),
            plural(board.houses(), "house")
        ),
        theme.text,
    )
    .right_aligned();
    let outer = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border)
        .title_top(title)
        .title_top(info);
    let inner = outer.inner(layout.frame);
    frame.render_widget(outer, layout.frame);
    frame.render_widget(
        Paragraph::new(vec![
            centered("Bring every seed into the store at the right.", theme.text),
            centered(
                "House n can be played when it holds exactly n seeds.",
                theme.text,
            ),
        ])
        .wrap(Wrap { trim: true }),
        Rect::new(inner.x, inner.y, inner.width, 2.min(inner.height)),
    );

    let animation = app.animation();
    let just_landed = animation.and_then(|a| a.last_drop());
    let hand_at = animation
        .filter(|a| a.hand() > 0)
        .map(super::app::HouseAnimation::hand_at);
    let buf = frame.buffer_mut();
    for &(house, rect) in &layout.houses {
        let count = counts[house];
        let legal = animation.is_none() && board.is_legal(house);
        let landed = just_landed == Some(house);
        let (border_type, border) = match () {
            () if landed => (BorderType::Thick, theme.active),
            () if legal => (BorderType::Thick, theme.playable),
            () => (BorderType::Rounded, theme.border),
        };
        let title_style = if animation.is_none() && app.cursor() == house {
            theme.selected
        } else if legal || landed {
            border
        } else {
            theme.key
        };
        let block = Block::bordered()
            .border_type(border_type)
            .border_style(border)
            .title_top(Line::styled(format!(" {house} "), title_style).centered());
        render_box(buf, rect, block, count, landed, theme);
        let below = Rect::new(rect.x, rect.bottom(), rect.width, 1);
        let hinted = animation.is_none() && app.hint() == Some(house);
        if legal && !(hinted && layout.small) {
            Widget::render(Paragraph::new(centered("▲", theme.playable)), below, buf);
        }
        if hinted {
            // Small boxes have no line of their own for the hint.
            let (row, text) = if layout.small {
                (below, "▲★hint")
            } else {
                (
                    Rect {
                        y: rect.bottom() + 1,
                        ..below
                    },
                    "★hint",
                )
            };
            Widget::render(Paragraph::new(centered(text, theme.hint)), row, buf);
        }
        let above = Rect::new(rect.x, rect.y - 1, rect.width, 1);
        if hand_at == Some(house) {
            Widget::render(
                Paragraph::new(hand_line(animation, rect.width, theme)),
                above,
                buf,
            );
        } else if animation.is_none() && app.cursor() == house {
            Widget::render(Paragraph::new(centered("▼", theme.selected)), above, buf);
        }
    }

    // The store.
    let store_landed = just_landed == Some(0);
    let (store_border, store_title) = if store_landed {
        (theme.active, theme.active)
    } else {
        (theme.border, theme.title)
    };
    let store = Block::bordered()
        .border_type(if store_landed {
            BorderType::Thick
        } else {
            BorderType::Double
        })
        .border_style(store_border)
        .title_top(Line::styled(" store ", store_title).centered());
    render_box(buf, layout.store, store, counts[0], store_landed, theme);
    if hand_at == Some(0) {
        let above = Rect::new(layout.store.x, layout.store.y - 1, layout.store.width, 1);
        Widget::render(
            Paragraph::new(hand_line(animation, layout.store.width, theme)),
            above,
            buf,
        );
    }

    draw_scroll_marks(buf, &layout, theme);
    draw_banner(buf, app, &layout, theme);

    let status_style = match () {
        () if app.question().is_some() => theme.mover,
        () if app.animation().is_some() => theme.text,
        () if board.is_won() => theme.good,
        () if board.is_stuck() => theme.error,
        () => theme.text,
    };
    Widget::render(
        Paragraph::new(Line::styled(format!(" {}", status_text(app)), status_style)),
        layout.status,
        buf,
    );
    // One column in from the edge, as the rest of the text.
    let keys = Rect {
        x: layout.keys.x + 1,
        width: layout.keys.width.saturating_sub(1),
        ..layout.keys
    };
    Widget::render(Paragraph::new(key_bar(app, keys.width, theme)), keys, buf);
    if let Some(scroll) = app.help_scroll() {
        draw_help(frame, area, &help_text(app), scroll, &theme);
    }
}

/// A house's or the store's box: seed marks, then the count; filled with
/// the highlight when a seed has just landed in it.
fn render_box(
    buf: &mut ratatui::buffer::Buffer,
    rect: Rect,
    block: Block<'_>,
    count: u64,
    landed: bool,
    theme: Theme,
) {
    let inner = block.inner(rect);
    Widget::render(block, rect, buf);
    if landed {
        buf.set_style(inner, theme.active);
    }
    let [marks1, marks2] = seed_rows(count, rect.width - 2);
    let (seeds, count_style) = if landed {
        (theme.active, theme.active)
    } else {
        (theme.seeds, theme.count)
    };
    let count = centered(count_text(count, rect.width - 2), count_style);
    // A small box has room for the count only.
    let lines = if inner.height < 3 {
        vec![count]
    } else {
        vec![centered(marks1, seeds), centered(marks2, seeds), count]
    };
    Widget::render(Paragraph::new(lines), inner, buf);
}

/// The keys that do something now, in the two-player game's key bar
/// (which uses the same letters).
fn key_bar(app: &SolitaireGame, width: u16, theme: Theme) -> Line<'static> {
    use Weight::{Essential, Optional, Useful};
    let board = app.board();
    // The numbers there are on this board.
    let numbers = match board.houses() {
        0 | 1 => "1".to_string(),
        n => format!("1-{n}"),
    };
    let mut bar = KeyBar::default();
    let mut add = |keys: &[(&str, &str, Weight)]| {
        for &(key, what, weight) in keys {
            bar.add(key, what, weight);
        }
    };
    if app.question().is_some() {
        add(&[("y", "yes", Essential), ("any other key", "no", Essential)]);
    } else if app.animation().is_some() {
        add(&[
            ("any key", "skip animation", Essential),
            ("q", "quit", Essential),
        ]);
    } else if board.choose() == 0 {
        add(&[
            ("u", "undo", Essential),
            ("s", "start over", Essential),
            ("n", "new board", Essential),
            ("?", "help", Essential),
            ("q", "quit", Essential),
        ]);
    } else {
        add(&[
            (numbers.as_str(), "play", Essential),
            ("←/→", "select", Useful),
            ("h", "hint", Useful),
            ("u", "undo", Useful),
            ("r", "redo", Optional),
            ("s", "restart", Optional),
            ("n", "new", Useful),
        ]);
        app.prefs().add_keys(&mut bar, "t");
        bar.add("?", "help", Essential);
        bar.add("q", "quit", Essential);
    }
    bar.line(width, &theme)
}

/// The seeds in the hand, above where the next one drops.
fn hand_line(
    animation: Option<&super::app::HouseAnimation>,
    width: u16,
    theme: Theme,
) -> Line<'static> {
    let in_hand = animation.map_or(0, super::app::HouseAnimation::hand);
    let text = if in_hand <= u64::from(width) - 2 {
        SEED.repeat(in_hand as usize)
    } else {
        format!("{SEED}×{in_hand}")
    };
    centered(text, theme.active)
}

fn draw_scroll_marks(buf: &mut ratatui::buffer::Buffer, layout: &Layout, theme: Theme) {
    let mut notes = Vec::new();
    let span = |(lo, hi): (usize, usize)| {
        if lo == hi {
            format!("{lo}")
        } else {
            format!("{hi}-{lo}")
        }
    };
    if let Some(hidden) = layout.hidden_left {
        if let Some(&(_, first)) = layout.houses.first() {
            buf.set_string(first.x - ARROW, first.y + first.height - 2, "◀", theme.key);
        }
        notes.push(span(hidden));
    }
    if let Some(hidden) = layout.hidden_right {
        let store = layout.store;
        buf.set_string(store.x - ARROW, store.y + store.height - 2, "▶", theme.key);
        notes.push(span(hidden));
    }
    if !notes.is_empty() {
        let text = format!(
            "Not all houses fit: {} {} off screen; ←/→ scroll.",
            if notes.len() == 1 && !notes[0].contains('-') {
                "house"
            } else {
                "houses"
            },
            notes.join(" and ")
        );
        Widget::render(Paragraph::new(centered(text, theme.dim)), layout.note, buf);
    }
}

fn draw_banner(
    buf: &mut ratatui::buffer::Buffer,
    app: &SolitaireGame,
    layout: &Layout,
    theme: Theme,
) {
    let board = app.board();
    if app.animation().is_some() || layout.banner.height < 3 {
        return;
    }
    let made = app.moves().len() as u64;
    let (style, lines) = if board.is_won() {
        (
            theme.good,
            [
                format!(
                    "★ Won in {}! Every seed is in the store. ★",
                    plural(made, "move")
                ),
                "n new board · u undo · q quit".to_string(),
            ],
        )
    } else if board.is_stuck() {
        (
            theme.error,
            [
                format!(
                    "✗ Stuck after {}: {} left, no house holds exactly its number.",
                    plural(made, "move"),
                    plural(board.in_houses(), "seed")
                ),
                if app.start_winnable() {
                    "This board can be won: s starts over, u undoes.".to_string()
                } else {
                    "This board cannot be won from its start either: n deals a winnable one."
                        .to_string()
                },
            ],
        )
    } else {
        return;
    };
    let width = lines
        .iter()
        .map(|l| l.chars().count() as u16 + 4)
        .max()
        .unwrap_or(0)
        .min(layout.banner.width);
    let rect = Rect::new(
        layout.banner.x + (layout.banner.width - width) / 2,
        layout.banner.y,
        width,
        4.min(layout.banner.height),
    );
    let body = Paragraph::new(vec![
        centered(lines[0].clone(), style),
        centered(lines[1].clone(), theme.text),
    ])
    .wrap(Wrap { trim: true })
    .block(
        Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(style),
    );
    Widget::render(Clear, rect, buf);
    Widget::render(body, rect, buf);
}

/// The help screen: the rules, then every key (the speed and theme keys
/// as `app`'s [`Chosen::help_keys`](crate::tui::prefs::Chosen::help_keys)
/// give them).
#[must_use]
pub fn help_text(app: &SolitaireGame) -> HelpText {
    let mut keys = HelpText::pairs(&[
        (
            "1-9",
            "play that house; a number a longer one could start waits for more digits or Enter",
        ),
        ("←/→", "select a house"),
        ("Tab / ↑↓", "the next playable house"),
        ("Enter Space", "play the selected house"),
        ("mouse", "click a house to play it; the wheel or ◀ ▶ scroll"),
        ("u / r", "undo / redo"),
        ("s", "start this board over"),
        ("h", "hint"),
        ("n", "a new board"),
    ]);
    keys.extend(app.prefs().help_keys("t"));
    keys.extend(HelpText::pairs(&[
        ("?", "this help (↑↓ scroll it, any other key closes it)"),
        ("q or Esc", "quit (asks first)"),
        ("any key", "skips an animation"),
    ]));
    HelpText {
        title: " Solitaire Mancala — help ".to_string(),
        heading: "Rules: bring every seed into the store at the right end.".to_string(),
        sentences: vec![
            "Houses are numbered from the store: house 1 is next to it.".to_string(),
            "House n can be played only when it holds exactly n seeds: they are sown one per house towards the store, and the last lands in the store.".to_string(),
            "Tip: play the playable house closest to the store.".to_string(),
            "On the board: ▲ playable, ▼ selected, ★ hint.".to_string(),
        ],
        keys,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::{Color, Modifier};

    use super::*;
    use crate::rng::Rng;
    use crate::rules::solitaire::{SolitaireBoard, deal};

    fn render(app: &SolitaireGame, width: u16, height: u16, theme: Theme) -> Terminal<TestBackend> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app, theme)).unwrap();
        terminal
    }

    fn keys(app: &mut SolitaireGame, keys: &str, now: Instant) {
        for c in keys.chars() {
            app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), now);
        }
    }

    fn app(board: SolitaireBoard, delay_ms: Option<u64>) -> SolitaireGame {
        SolitaireGame::new(board, delay_ms.map(Duration::from_millis), Rng::new(9))
    }

    #[test]
    fn opening_board() {
        let a = app(deal(23), Some(100));
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    #[test]
    fn rules_example_board_with_a_hint() {
        let mut a = app(
            SolitaireBoard::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap(),
            None,
        );
        keys(&mut a, "h", Instant::now());
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    #[test]
    fn mid_animation_two_seeds_sown_six_in_hand() {
        let t0 = Instant::now();
        let mut a = app(deal(23), Some(100));
        // "8" finishes house 1's animation and plays house 8.
        keys(&mut a, "18", t0);
        a.tick(t0 + Duration::from_millis(250));
        assert_eq!(a.animation().unwrap().hand(), 6);
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    #[test]
    fn won_board() {
        let mut a = app(SolitaireBoard::from_counts(&[0, 1, 1, 3]).unwrap(), None);
        keys(&mut a, "13121", Instant::now());
        assert!(a.board().is_won());
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    #[test]
    fn stuck_board() {
        let mut a = app(
            SolitaireBoard::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap(),
            None,
        );
        keys(&mut a, "32", Instant::now());
        assert!(a.board().is_stuck());
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    #[test]
    fn start_over_question_in_the_status_and_key_bar() {
        let mut a = app(
            SolitaireBoard::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap(),
            None,
        );
        keys(&mut a, "32s", Instant::now());
        let terminal = render(&a, 80, 24, Theme::colour());
        let text = terminal.backend().to_string();
        assert!(
            text.contains("Start this board over? Your 2 moves stay for r to replay. (y/n)"),
            "{text}"
        );
        let mut one = app(SolitaireBoard::from_counts(&[0, 1, 1]).unwrap(), None);
        keys(&mut one, "1s", Instant::now());
        assert_eq!(
            status_text(&one),
            "Start this board over? Your 1 move stays for r to replay. (y/n)"
        );
        assert!(text.contains("y yes  any other key no"), "{text}");
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn help_overlay() {
        let mut a = app(deal(23), None);
        keys(&mut a, "?", Instant::now());
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    #[test]
    fn too_small_terminal_names_the_size_needed() {
        let a = app(deal(23), None);
        insta::assert_snapshot!(render(&a, 40, 12, Theme::colour()).backend());
        assert!(layout(Rect::new(0, 0, MIN_WIDTH, MIN_HEIGHT), &a).is_some());
        assert!(layout(Rect::new(0, 0, MIN_WIDTH - 1, MIN_HEIGHT), &a).is_none());
        assert!(layout(Rect::new(0, 0, MIN_WIDTH, MIN_HEIGHT - 1), &a).is_none());
    }

    /// `q` on the too-small screen asks, and the question is on screen.
    #[test]
    fn the_quit_question_shows_on_the_too_small_screen() {
        let mut a = app(deal(23), None);
        keys(&mut a, "q", Instant::now());
        let text = format!("{:?}", render(&a, 40, 12, Theme::colour()).backend());
        assert!(text.contains("Quit? (y/n)"), "{text}");
        assert!(text.contains("Terminal too small"), "{text}");
    }

    #[test]
    fn a_thousand_seeds_scroll_and_say_so() {
        let mut a = app(deal(1000), None);
        let houses = a.board().houses();
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
        // Moving the cursor far from the store scrolls the view with it,
        // and every house can be reached.
        for _ in 0..houses {
            a.on_key(
                KeyEvent::new(KeyCode::Left, KeyModifiers::NONE),
                Instant::now(),
            );
        }
        assert_eq!(a.cursor(), houses);
        let far = layout(Rect::new(0, 0, 80, 24), &a).unwrap();
        assert!(far.houses.iter().any(|&(h, _)| h == houses));
        assert_eq!(far.hidden_left, None);
        assert!(far.hidden_right.is_some());
        insta::assert_snapshot!(render(&a, 80, 24, Theme::colour()).backend());
    }

    /// Houses that do not fit in one row go on to more rows (smaller
    /// boxes if need be) before any is scrolled off: 300 seeds at 80x24
    /// show every house, each box inside the frame and apart from the
    /// others, the houses read like text towards the store, and a click on
    /// a box plays its house.
    #[test]
    fn three_hundred_seeds_fill_the_screen_in_rows_instead_of_scrolling() {
        let a = app(deal(300), None);
        let houses = a.board().houses();
        assert!(houses > 20, "{houses} houses");
        let l = layout(Rect::new(0, 0, 80, 24), &a).unwrap();
        assert_eq!(l.houses.len(), houses);
        assert_eq!((l.hidden_left, l.hidden_right), (None, None));
        let boxes: Vec<Rect> = l.houses.iter().map(|&(_, r)| r).chain([l.store]).collect();
        for (i, one) in boxes.iter().enumerate() {
            assert!(
                one.right() < 80 && one.bottom() < 22,
                "inside the frame: {one:?}"
            );
            for other in &boxes[i + 1..] {
                assert!(!one.intersects(*other), "{one:?} and {other:?} overlap");
            }
        }
        let rows: std::collections::BTreeSet<u16> = boxes.iter().map(|r| r.y).collect();
        assert!(rows.len() > 1, "more than one row: {rows:?}");
        // In reading order every house is one nearer the store than the last.
        let mut reading: Vec<(u16, u16, usize)> =
            l.houses.iter().map(|&(h, r)| (r.y, r.x, h)).collect();
        reading.sort_unstable();
        let order: Vec<usize> = reading.iter().map(|&(_, _, h)| h).collect();
        assert_eq!(order, (1..=houses).rev().collect::<Vec<_>>());
        assert_eq!(
            l.store.y,
            reading.last().unwrap().0,
            "the store ends the last row"
        );
        for &(house, rect) in &l.houses {
            assert_eq!(l.hit(rect.x + 1, rect.y + 1), Some(Hit::Play(house)));
        }
        let screen = render(&a, 80, 24, Theme::colour()).backend().to_string();
        assert!(!screen.contains("Not all houses fit"), "{screen}");
    }

    #[test]
    fn wider_screen_shows_every_house_of_a_big_random_board() {
        let a = app(deal(40), None);
        let l = layout(Rect::new(0, 0, 100, 30), &a).unwrap();
        assert_eq!(l.houses.len(), a.board().houses());
        assert_eq!((l.hidden_left, l.hidden_right), (None, None));
        let boxes: Vec<Rect> = l.houses.iter().map(|&(_, r)| r).chain([l.store]).collect();
        for pair in boxes.windows(2) {
            assert!(pair[0].right() < pair[1].x, "boxes are apart: {pair:?}");
        }
        // At 80x24 every random deal (10 to 40 seeds) fits without scrolling.
        for seeds in
            crate::tui::solitaire::RANDOM_MIN_SEEDS..=crate::tui::solitaire::RANDOM_MAX_SEEDS
        {
            let b = app(deal(seeds), None);
            let l = layout(Rect::new(0, 0, 80, 24), &b).unwrap();
            assert_eq!(l.houses.len(), b.board().houses(), "{seeds} seeds");
            let boxes: Vec<Rect> = l.houses.iter().map(|&(_, r)| r).chain([l.store]).collect();
            for pair in boxes.windows(2) {
                assert!(
                    pair[0].right() <= pair[1].x,
                    "boxes do not overlap: {pair:?}"
                );
            }
            assert!(l.store.right() < 80);
        }
        insta::assert_snapshot!(render(&a, 100, 30, Theme::colour()).backend());
    }

    /// Meaning is carried by symbols and modifiers; the monochrome theme
    /// drops every colour but keeps bold on playable houses.
    #[test]
    fn no_color_theme_uses_no_colours_and_keeps_emphasis() {
        let a = app(SolitaireBoard::from_counts(&[0, 1, 1, 3]).unwrap(), None);
        let mono = render(&a, 80, 24, Theme::monochrome());
        let colour = render(&a, 80, 24, Theme::colour());
        assert_eq!(
            mono.backend().to_string(),
            colour.backend().to_string(),
            "the same text either way"
        );
        let buffer = mono.backend().buffer();
        assert!(
            buffer
                .content()
                .iter()
                .all(|c| c.fg == Color::Reset && c.bg == Color::Reset)
        );
        let l = layout(Rect::new(0, 0, 80, 24), &a).unwrap();
        let (_, house3) = *l.houses.iter().find(|&&(h, _)| h == 3).unwrap();
        let (_, house2) = *l.houses.iter().find(|&&(h, _)| h == 2).unwrap();
        let corner = &buffer[(house3.x, house3.y)];
        assert_eq!(corner.symbol(), "┏", "playable: thick border");
        assert!(corner.modifier.contains(Modifier::BOLD));
        assert_eq!(buffer[(house2.x, house2.y)].symbol(), "╭");
        let marker = &buffer[(house3.x + house3.width / 2, house3.bottom())];
        assert_eq!(marker.symbol(), "▲");
        let colour_corner = &colour.backend().buffer()[(house3.x, house3.y)];
        assert_eq!(colour_corner.fg, Color::Green);
    }

    /// Every colour on the solitaire screen is one of the two-player
    /// theme's (foreground and background together), so both games look
    /// alike and read on light and dark terminals.
    #[test]
    fn colours_come_from_the_two_player_theme() {
        let theme = Theme::colour();
        let styles = [
            theme.text,
            theme.dim,
            theme.title,
            theme.key,
            theme.count,
            theme.seeds,
            theme.border,
            theme.selected,
            theme.active,
            theme.mover,
            theme.error,
            theme.good,
            theme.playable,
            theme.hint,
        ];
        let allowed: Vec<(Color, Color)> = styles
            .iter()
            .map(|s| (s.fg.unwrap_or(Color::Reset), s.bg.unwrap_or(Color::Reset)))
            .chain([(Color::Reset, Color::Reset)])
            .collect();
        let t0 = Instant::now();
        let mut screens = Vec::new();
        // Opening with a hint, mid-animation, won, stuck, scrolled.
        let mut a = app(
            SolitaireBoard::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap(),
            Some(100),
        );
        keys(&mut a, "h", t0);
        screens.push(render(&a, 80, 24, theme));
        keys(&mut a, "3", t0);
        a.tick(t0 + Duration::from_millis(150));
        screens.push(render(&a, 80, 24, theme));
        a.tick(t0 + Duration::from_millis(350));
        assert_eq!(a.animation().unwrap().hand_at(), 0, "a seed in the store");
        screens.push(render(&a, 80, 24, theme));
        a.tick(t0 + Duration::from_secs(1));
        keys(&mut a, "2", t0 + Duration::from_secs(1));
        a.tick(t0 + Duration::from_secs(2));
        assert!(a.board().is_stuck());
        screens.push(render(&a, 80, 24, theme));
        let mut won = app(SolitaireBoard::from_counts(&[0, 1]).unwrap(), None);
        keys(&mut won, "1", t0);
        screens.push(render(&won, 80, 24, theme));
        screens.push(render(&app(deal(1000), None), 80, 24, theme));
        for terminal in &screens {
            for cell in terminal.backend().buffer().content() {
                assert!(
                    allowed.contains(&(cell.fg, cell.bg)),
                    "{cell:?} is not a colour of the theme\n{}",
                    terminal.backend()
                );
            }
        }
    }

    #[test]
    fn long_counts_are_abbreviated_to_fit() {
        assert_eq!(count_text(12345, 8), "12345");
        assert_eq!(count_text(12345, 4), "12k");
        assert_eq!(count_text(999_999, 4), "999k");
        assert_eq!(count_text(1_000_000, 4), "1M");
        assert_eq!(count_text(u64::MAX, 10), "18E");
    }

    /// Odd boards at odd sizes draw without panicking and keep every box
    /// on the screen: no houses, a store only, huge counts, many houses.
    #[test]
    fn odd_boards_at_every_size_stay_on_screen() {
        let boards = [
            SolitaireBoard::new(),
            SolitaireBoard::from_counts(&[7]).unwrap(),
            SolitaireBoard::from_counts(&[0, u64::MAX]).unwrap(),
            SolitaireBoard::from_counts(&[u64::MAX / 2 - 2, 3, u64::MAX / 2]).unwrap(),
            deal(1000),
            deal(100_000),
        ];
        for board in boards {
            let a = app(board.clone(), None);
            for (width, height) in [
                (MIN_WIDTH, MIN_HEIGHT),
                (61, 20),
                (80, 24),
                (100, 30),
                (250, 60),
            ] {
                let terminal = render(&a, width, height, Theme::monochrome());
                let text = terminal.backend().to_string();
                assert!(text.contains("store"), "{board} at {width}x{height}");
                let l = layout(Rect::new(0, 0, width, height), &a).unwrap();
                for rect in l.houses.iter().map(|&(_, r)| r).chain([l.store]) {
                    assert!(
                        rect.right() <= width && rect.bottom() <= height,
                        "{board} {width}x{height}: {rect:?}"
                    );
                }
                if board.houses() > 0 {
                    assert!(!l.houses.is_empty(), "at least one house is shown");
                }
            }
        }
    }

    /// The help is the one every screen shares: on a small screen the
    /// arrows scroll it down to its last line and no further (one ↑ then
    /// goes back a line at once).
    #[test]
    fn the_help_scrolls_to_its_last_line_and_no_further() {
        let now = Instant::now();
        let area = Rect::new(0, 0, MIN_WIDTH, MIN_HEIGHT);
        let mut a = app(deal(23), None);
        a.on_input(
            crate::tui::input::Input::Resize(area.width, area.height),
            now,
        );
        keys(&mut a, "?", now);
        let text = |a: &SolitaireGame| {
            render(a, area.width, area.height, Theme::monochrome())
                .backend()
                .to_string()
        };
        let top = text(&a);
        assert!(top.contains("Rules: bring every seed"), "{top}");
        let down = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
        for _ in 0..200 {
            a.on_key(down, now);
        }
        let bottom = text(&a);
        let last_row = |screen: &str| {
            screen
                .lines()
                .nth(usize::from(area.height) - 2)
                .unwrap_or_default()
                .to_string()
        };
        assert!(last_row(&bottom).contains("skips an animation"), "{bottom}");
        a.on_key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE), now);
        assert!(a.help_scroll().is_some());
        let back = text(&a);
        assert!(!last_row(&back).contains("skips an animation"), "{back}");
    }

    /// With `NO_COLOR` set, neither the key bar nor the help offers `t`;
    /// without it, both do.
    #[test]
    fn with_no_color_set_no_colours_key_is_offered() {
        let now = Instant::now();
        for forbidden in [false, true] {
            let mut a = app(deal(23), None);
            let kept = crate::tui::prefs::Prefs {
                seed_delay: None,
                palette: crate::tui::theme::Palette::Mono,
            };
            a.keep_prefs(crate::tui::prefs::Chosen::new(
                None,
                Theme::monochrome(),
                kept,
                forbidden,
            ));
            let bar = render(&a, 130, 24, Theme::monochrome())
                .backend()
                .to_string();
            keys(&mut a, "?", now);
            let help = render(&a, 100, 40, Theme::monochrome())
                .backend()
                .to_string();
            assert_eq!(bar.contains("t colours"), !forbidden, "{bar}");
            assert_eq!(help.contains("colours or black"), !forbidden, "{help}");
        }
    }

    /// The speed keys read the same in every screen's help (the game's,
    /// the replay's and this one), from the one wording of a speed.
    #[test]
    fn every_help_words_the_speed_keys_alike() {
        let now = Instant::now();
        let delay = Some(Duration::from_millis(150));
        let speed_line = |help: HelpText| {
            help.keys
                .into_iter()
                .find(|(keys, _)| keys == "+ / -")
                .expect("a speed line")
        };
        let game = crate::tui::game::testing::app_for(
            crate::tui::game::testing::config(
                crate::rules::Rules::KALAH,
                crate::players::PlayerKind::Human,
                crate::players::PlayerKind::Human,
            ),
            delay,
            now,
        );
        let record = crate::store::Record::of_match(game.game());
        let replay_prefs = crate::tui::prefs::Chosen::unkept(delay, Theme::monochrome());
        let solitaire = app(deal(23), Some(150));
        let line = speed_line(help_text(&solitaire));
        assert_eq!(line, speed_line(crate::tui::game::help::text(&game)));
        assert_eq!(
            line,
            speed_line(crate::tui::replay::help_text(&record, &replay_prefs))
        );
        assert!(line.1.contains("150 ms per seed"), "{line:?}");
    }
}
