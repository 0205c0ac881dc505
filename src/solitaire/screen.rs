//! The solitaire game on the [screen loop](crate::tui::screen): one
//! message type (the terminal's [`Input`]), no effects.

use std::convert::Infallible;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::rng::Rng;
use crate::rules::solitaire::SolitaireBoard;
use crate::tui::input::Input;
use crate::tui::screen::{self, NoWorld, Screen};
use crate::tui::theme::Theme;

use super::app::SolitaireGame;
use super::view;

/// The solitaire game with what drawing it needs: the theme and the
/// screen's size (for clicks).
pub struct SolitaireScreen {
    app: SolitaireGame,
    theme: Theme,
    area: Rect,
}

impl Screen for SolitaireScreen {
    type Message = Input;
    type Effect = Infallible;

    fn update(&mut self, input: Input, now: Instant) -> Vec<Infallible> {
        if let Input::Resize(columns, lines) = input {
            self.area = Rect::new(0, 0, columns, lines);
        }
        self.app.on_input(input, self.area, now);
        Vec::new()
    }

    fn view(&self, frame: &mut Frame) {
        view::draw(frame, &self.app, self.theme);
    }

    fn next_wake(&self) -> Option<Instant> {
        self.app.next_wake()
    }

    fn done(&self) -> bool {
        self.app.should_quit()
    }
}

/// Plays `board` full screen until the player quits. `seed_delay` is the
/// pause between two seeds of the animation (`None`: no animation); `rng`
/// deals new boards. The terminal is restored on every way out.
///
/// # Errors
/// When the terminal fails.
pub fn run(board: SolitaireBoard, seed_delay: Option<Duration>, rng: Rng) -> anyhow::Result<()> {
    let mut screen = SolitaireScreen {
        app: SolitaireGame::new(board, seed_delay, rng),
        theme: Theme::from_env(),
        area: Rect::default(),
    };
    screen::run(&mut screen, &mut NoWorld)?;
    Ok(())
}
