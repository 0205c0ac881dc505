//! The solitaire game on the [screen loop](crate::tui::screen): one
//! message type (the terminal's [`Input`]), one effect: keeping the
//! preferences (speed and theme) in the file every screen shares.

use std::time::{Duration, Instant};

use ratatui::Frame;

use crate::rng::Rng;
use crate::rules::solitaire::SolitaireBoard;
use crate::tui::input::Input;
use crate::tui::prefs::{Chosen, Kept, Prefs, PrefsWorld};
use crate::tui::screen::Screen;

use super::app::{HouseAnimation, SolitaireGame};
use super::view;

impl Screen for SolitaireGame {
    type Message = Input;
    type Effect = Prefs;

    fn update(&mut self, input: Input, now: Instant) -> Vec<Prefs> {
        self.on_input(input, now);
        self.take_prefs().into_iter().collect()
    }

    fn view(&self, frame: &mut Frame) {
        view::draw(frame, self, *self.theme());
    }

    /// The next seed of the move being sown, if any.
    fn next_wake(&self) -> Option<Instant> {
        self.animation().and_then(HouseAnimation::next_frame_at)
    }

    fn done(&self) -> bool {
        self.should_quit()
    }
}

/// Plays `board` full screen until the player quits. `given` is the pause
/// between two seeds chosen on the command line (`Some(None)`: no
/// animation; `None`: the kept speed); `rng` deals new boards. The
/// terminal is restored on every way out.
///
/// # Errors
/// When the terminal fails.
pub fn run(board: SolitaireBoard, given: Option<Option<Duration>>, rng: Rng) -> anyhow::Result<()> {
    let kept = Kept::load();
    let chosen = Chosen::for_run(given, kept.prefs);
    let mut app = SolitaireGame::new(board, chosen.seed_delay(), rng);
    app.keep_prefs(chosen);
    app.tell(kept.problem.clone());
    PrefsWorld::run(&mut app, kept)?;
    Ok(())
}
