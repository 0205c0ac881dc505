//! `mancala replay` full screen: the recorded round one position at a
//! time, stepped with the arrow keys.
//!
//! The board is drawn as the plain front end's box-drawn text
//! ([`crate::plain::board`]); the logic is the shared
//! [`Stepper`](crate::game::Stepper), so another board drawing can take its
//! place without touching the stepping.

use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Text};
use ratatui::widgets::Paragraph;

use crate::game::{Record, Stepper, describe, outcome_message};
use crate::plain::board::render_counts;
use crate::tui::terminal::Screen;

/// What a key asks of the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Forward,
    Back,
    Start,
    End,
    Quit,
}

fn action(key: KeyEvent) -> Option<Action> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    Some(match key.code {
        KeyCode::Right | KeyCode::Char(' ') | KeyCode::Enter => Action::Forward,
        KeyCode::Left | KeyCode::Backspace => Action::Back,
        KeyCode::Home => Action::Start,
        KeyCode::End => Action::End,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        KeyCode::Char('c')
            if key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL) =>
        {
            Action::Quit
        }
        _ => return None,
    })
}

/// Replays `record` full screen until the viewer quits. With `seed_delay`,
/// a step forward sows seed by seed (any key finishes it at once).
///
/// # Errors
/// When the terminal fails.
pub fn run(record: &Record, seed_delay: Option<Duration>) -> anyhow::Result<()> {
    let mut stepper = record.stepper()?;
    let mut screen = Screen::enter()?;
    let mut counts = stepper.board().counts().to_vec();
    loop {
        screen
            .terminal()
            .draw(|frame| draw(frame, record, &stepper, &counts))?;
        let Event::Key(key) = event::read()? else {
            continue;
        };
        match action(key) {
            Some(Action::Quit) => return Ok(()),
            Some(Action::Forward) => {
                let steps = stepper.next_steps();
                if !stepper.forward() {
                    continue;
                }
                if let Some(delay) = seed_delay.filter(|d| !d.is_zero()) {
                    'animation: for step in steps.iter().filter(|s| s.moves_seeds()) {
                        step.apply(&mut counts);
                        screen
                            .terminal()
                            .draw(|frame| draw(frame, record, &stepper, &counts))?;
                        if event::poll(delay)? {
                            // A key press cuts the animation short; it is
                            // read (and acted on) by the main loop.
                            break 'animation;
                        }
                    }
                }
            }
            Some(Action::Back) => {
                stepper.back();
            }
            Some(Action::Start) => stepper.seek(0),
            Some(Action::End) => stepper.seek(stepper.len()),
            None => {}
        }
        counts = stepper.board().counts().to_vec();
    }
}

fn draw(frame: &mut Frame, record: &Record, stepper: &Stepper, counts: &[u16]) {
    let names = record.names();
    let rules = record.rules();
    let [head, board, events, keys] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(10),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let title = Text::from(vec![
        Line::styled(
            format!(
                "Replay of round {}: {} against {}",
                record.round, names[0], names[1]
            ),
            bold,
        ),
        Line::from(format!("Rules: {rules}")),
    ]);
    frame.render_widget(Paragraph::new(title), head);
    frame.render_widget(Paragraph::new(render_counts(rules, counts, names)), board);
    let mut lines = Vec::new();
    match stepper.last_played() {
        None => lines.push(Line::from(format!(
            "Start of the round: {} moves first.",
            names[record.starter.index()]
        ))),
        Some(played) => {
            lines.push(Line::styled(
                format!(
                    "Move {} of {}: {} plays {}.",
                    stepper.index(),
                    stepper.len(),
                    names[played.mover.index()],
                    rules.letter(played.pit).unwrap_or('?')
                ),
                bold,
            ));
            for message in describe(rules, played, names) {
                lines.push(Line::from(message));
            }
        }
    }
    if stepper.index() == stepper.len() {
        let last = stepper.board();
        lines.push(Line::from(match last.outcome() {
            Some(outcome) => outcome_message(outcome, last.score(), names),
            None => "The record ends here; the round was not finished.".to_string(),
        }));
    }
    frame.render_widget(Paragraph::new(lines), events);
    frame.render_widget(
        Paragraph::new("← back  → forward  Home start  End end  q quit"),
        keys,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn key(code: KeyCode, kind: KeyEventKind) -> KeyEvent {
        let mut k = KeyEvent::new(code, KeyModifiers::NONE);
        k.kind = kind;
        k
    }

    #[test]
    fn arrows_step_and_only_presses_count() {
        assert_eq!(
            action(key(KeyCode::Right, KeyEventKind::Press)),
            Some(Action::Forward)
        );
        assert_eq!(
            action(key(KeyCode::Left, KeyEventKind::Press)),
            Some(Action::Back)
        );
        assert_eq!(action(key(KeyCode::Right, KeyEventKind::Release)), None);
        assert_eq!(
            action(key(KeyCode::Char('q'), KeyEventKind::Press)),
            Some(Action::Quit)
        );
    }

    #[test]
    fn the_screen_shows_the_board_and_the_move() {
        use ratatui::Terminal;
        use ratatui::backend::TestBackend;
        let text = "mancala record 1\npits: 6\nseeds: 4\ncapture: always\nsowing: single\nsweep: owner\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: c\n";
        let record = Record::parse(text).unwrap();
        let mut stepper = record.stepper().unwrap();
        stepper.forward();
        let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
        let counts = stepper.board().counts().to_vec();
        terminal
            .draw(|f| draw(f, &record, &stepper, &counts))
            .unwrap();
        let buffer = terminal.backend().buffer();
        let screen: String = (0..buffer.area.height)
            .map(|y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    + "\n"
            })
            .collect();
        assert!(screen.contains("Move 1 of 1: Alice plays c."), "{screen}");
        assert!(screen.contains("Alice gets an extra turn!"), "{screen}");
        assert!(screen.contains("║   0   ╠═══╬"), "{screen}");
        assert!(screen.contains("║ 4 ║ 4 ║ 0 ║ 5 ║ 5 ║ 5 ║"), "{screen}");
    }
}
