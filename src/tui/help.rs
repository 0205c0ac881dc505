//! The help screen (`?`): the rules in force and every key.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use crate::rules::{Capture, Rules, Side, Sowing, Sweep};
use crate::tui::app::App;
use crate::tui::theme::Theme;

/// The rules in force, in a few sentences.
#[must_use]
pub fn rules_text(rules: &Rules, names: [&str; 2]) -> Vec<String> {
    let [south, north] = names;
    let mut lines = vec![
        format!(
            "Each side has {} pits of {} seeds and a store. {south} plays {} (bottom row), {north} plays {} (top row).",
            rules.pits(),
            rules.seeds(),
            rules.letter_range(Side::South),
            rules.letter_range(Side::North),
        ),
        "Lift every seed from one of your pits and sow them one by one, counter-clockwise: along your row, into your store, then along the other row, skipping the opponent's store.".to_string(),
    ];
    if rules.sowing() == Sowing::Relay {
        lines.push(
            "Relay sowing: when the last seed lands in a pit that already held seeds, lift that pit and sow on."
                .to_string(),
        );
    }
    lines.push("Last seed in your own store: you move again.".to_string());
    lines.push(match rules.capture() {
        Capture::Always => "Last seed in an empty pit of yours: it and the seeds in the pit opposite go to your store.".to_string(),
        Capture::NonEmpty => "Last seed in an empty pit of yours, with seeds opposite: it and those seeds go to your store.".to_string(),
        Capture::Never => "There are no captures.".to_string(),
    });
    lines.push(match rules.sweep() {
        Sweep::Owner => "The round ends when one side's pits are all empty; the seeds left in a side's pits go to its own store. Most seeds wins.".to_string(),
        Sweep::None => "The round ends when one side's pits are all empty; seeds left in the pits do not count. Most seeds in store wins.".to_string(),
    });
    lines
}

/// Every key, as (keys, what they do) pairs.
#[must_use]
pub fn key_list(rules: &Rules, speed: &str) -> Vec<(String, String)> {
    let numbers = if rules.pits() >= 10 {
        "1-9, 0".to_string()
    } else {
        format!("1-{}", rules.pits())
    };
    let letters = format!(
        "{} / {}",
        rules.letter_range(Side::South),
        rules.letter_range(Side::North)
    );
    vec![
        (letters, "choose a pit by its letter (South / North)".into()),
        (numbers, "choose by number, counted from the mover's left".into()),
        ("← → Enter".into(), "move the cursor, then play (Space plays too)".into()),
        ("mouse".into(), "click a pit to play it".into()),
        ("h".into(), "hint: the engine's best move for you (H if h is your pit)".into()),
        ("u / r".into(), "undo to your previous turn / redo".into()),
        ("+ / -".into(), format!("faster / slower sowing (now {speed})")),
        ("p / s or .".into(), "pause the computer / step one computer move".into()),
        ("any key".into(), "finishes the animation at once".into()),
        ("y / n".into(), "after a round: play again / stop".into()),
        ("?".into(), "this help".into()),
        ("q or Esc".into(), "quit (asks first); Ctrl-C quits at once".into()),
        ("Shift+letter".into(), "the command, when a letter also names your pit".into()),
    ]
}

/// How the sowing speed reads on screen.
#[must_use]
pub fn speed_text(app: &App) -> String {
    match app.seed_delay() {
        Some(d) => format!("{} ms per seed", d.as_millis()),
        None => "no animation".to_string(),
    }
}

/// Draws the help screen over the whole of `area`.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme: &Theme = &app.theme;
    let rules = app.rules();
    let mut lines = vec![Line::styled(
        format!("Rules in force: {rules}"),
        theme.title,
    )];
    for sentence in rules_text(rules, app.names()) {
        lines.push(Line::from(format!("• {sentence}")));
    }
    lines.push(Line::default());
    lines.push(Line::styled("Keys", theme.title));
    for (keys, what) in key_list(rules, &speed_text(app)) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {keys:<13}"), theme.key),
            Span::styled(what, theme.text),
        ]));
    }
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(Line::styled(" Mancala — help ", theme.title))
        .title_bottom(Line::styled(" any key closes ", theme.dim).right_aligned());
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        area,
    );
}
