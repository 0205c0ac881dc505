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
use crate::tui::terminal::{SIGNAL_TICK, terminated};

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
        if app.wants_quit() || terminated() {
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
        // A termination signal only sets a flag: look at it again soon.
        timeout = timeout.min(SIGNAL_TICK);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SaveStore;
    use crate::tui::testing::{ch, humans, key};
    use crossterm::event::KeyCode;
    use std::fs;
    use std::time::Instant;

    #[test]
    fn the_keeper_saves_each_move_records_each_round_once_and_clears_at_the_end() {
        let dir = std::env::temp_dir().join(format!("mancala-keep-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let store = SaveStore::at(&dir).unwrap();
        let mut keeper = Keeper::new(Some(store.clone()));
        let t0 = Instant::now();
        let mut app = humans(t0);
        let config = app.game().config().clone();
        let records = || fs::read_dir(dir.join("records")).unwrap().count();

        app.handle_event(&ch('d'), t0);
        keep(&mut app, &mut keeper);
        assert_eq!(
            store.load(&config).unwrap().unwrap().moves(),
            app.game().moves()
        );
        while !app.round_over() {
            app.handle_event(&key(KeyCode::Enter), t0);
            keep(&mut app, &mut keeper);
        }
        assert_eq!(records(), 1);
        let stats = fs::read_to_string(store.stats_path()).unwrap();
        assert_eq!(stats.lines().count(), 1);
        let saved = store.load(&config).unwrap().unwrap();
        assert_eq!(
            (saved.round(), saved.moves().len()),
            (2, 0),
            "the next round"
        );
        assert_eq!(saved.tally(), app.game().tally());
        let note = app.round_note.clone().unwrap().text;
        assert!(note.starts_with("Round recorded in "), "{note}");
        assert!(note.contains(&dir.display().to_string()), "{note}");
        // Undo refused, keys repeated: still one record.
        app.handle_event(&ch('u'), t0);
        keep(&mut app, &mut keeper);
        assert_eq!(records(), 1);
        app.handle_event(&ch('n'), t0);
        keep(&mut app, &mut keeper);
        assert!(store.load(&config).unwrap().is_none(), "the match is over");
        assert_eq!(records(), 1);
        fs::remove_dir_all(dir).unwrap();
    }
}
