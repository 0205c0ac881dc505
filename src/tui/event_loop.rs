//! The one loop of the full-screen game: draw, wait for input or the next
//! frame, react. Animation needs no thread: the wait times out when the next
//! frame is due. The only other threads are the computer's searches, whose
//! answers are picked up here between frames. What happens to the match is
//! kept on disk here too, between frames (see [`keep`]).

use std::io;
use std::time::{Duration, Instant};

use crossterm::event;
use ratatui::DefaultTerminal;

use crate::game::Keeper;
use crate::tui::app::{App, MatchEvent};
use crate::tui::computer::Worker;
use crate::tui::draw::draw;

/// How long to wait for input when nothing else is due.
const IDLE: Duration = Duration::from_secs(60);
/// How often to look for the computer's answer while it thinks.
const WHILE_THINKING: Duration = Duration::from_millis(20);

/// Runs the game until the players quit.
///
/// # Errors
/// When the terminal fails.
pub fn run(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    worker: &mut Worker,
    keeper: &mut Keeper,
) -> io::Result<()> {
    loop {
        let now = Instant::now();
        for answer in worker.poll() {
            app.on_answer(answer, now);
        }
        app.tick(now);
        for request in app.take_requests() {
            worker.submit(request);
        }
        keep(app, keeper);
        if app.wants_quit() {
            // Stop any search but do not wait for it: the process ends soon.
            worker.stop_all();
            return Ok(());
        }
        let size = terminal.size()?;
        app.resize(size.width, size.height);
        terminal.draw(|frame| draw(frame, app))?;

        let mut timeout = app
            .next_wake()
            .map_or(IDLE, |at| at.saturating_duration_since(Instant::now()));
        if worker.busy() {
            timeout = timeout.min(WHILE_THINKING);
        }
        if event::poll(timeout)? {
            // Take every event already waiting before drawing again.
            loop {
                let event = event::read()?;
                app.handle_event(&event, Instant::now());
                if !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
}

/// Saves, records or clears the match as its events ask (the policy is
/// [`Keeper`]'s, shared with plain mode), and shows any problem on screen.
pub fn keep(app: &mut App, keeper: &mut Keeper) {
    for event in app.take_match_events() {
        match event {
            MatchEvent::Changed => {
                if let Some(warning) = keeper.save(app.game()) {
                    app.warn(warning);
                }
            }
            MatchEvent::RoundFinished => {
                let kept = keeper.close_round(app.game());
                if let Some(path) = kept.record {
                    app.round_recorded(format!("Round recorded in {}.", path.display()));
                }
                for warning in kept.warnings {
                    app.warn(warning);
                }
            }
            MatchEvent::Ended => {
                if let Some(warning) = keeper.finish(app.game().config()) {
                    app.warn(warning);
                }
            }
        }
    }
}
