//! The full-screen game's event loop: draw, wait for a key, a click or the
//! next animation frame, repeat.

use std::time::{Duration, Instant};

use crossterm::event::{self, Event};

use crate::rng::Rng;
use crate::rules::solitaire::SolitaireBoard;
use crate::tui::terminal::{SIGNAL_TICK, Screen, terminated};
use crate::tui::theme::Theme;

use super::app::App;
use super::view;

/// How long to wait for input when nothing is animating; only bounds how
/// often the loop wakes, since the screen changes only on events then.
const IDLE_POLL: Duration = Duration::from_millis(500);

/// Plays `board` full screen until the player quits. `seed_delay` is the
/// pause between two seeds of the animation (`None`: no animation); `rng`
/// deals new boards. The terminal is restored on every way out.
///
/// # Errors
/// When the terminal fails.
pub fn run(board: SolitaireBoard, seed_delay: Option<Duration>, rng: Rng) -> anyhow::Result<()> {
    let theme = Theme::from_env();
    let mut app = App::new(board, seed_delay, rng);
    let mut screen = Screen::enter()?;
    let terminal = screen.terminal();
    // A termination signal ends the loop like a quit, so that dropping
    // `screen` restores the terminal.
    while !app.should_quit() && !terminated() {
        terminal.draw(|frame| view::draw(frame, &app, theme))?;
        let now = Instant::now();
        let timeout = app
            .next_wake()
            .map_or(IDLE_POLL, |at| at.saturating_duration_since(now))
            .min(SIGNAL_TICK);
        if event::poll(timeout)? {
            match event::read()? {
                Event::Key(key) => app.on_key(key, Instant::now()),
                Event::Mouse(mouse) => {
                    let size = terminal.size()?;
                    let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                    app.on_mouse(mouse, area, Instant::now());
                }
                _ => {}
            }
        }
        app.tick(Instant::now());
    }
    Ok(())
}
