//! The full-screen front end (ratatui + crossterm).
//!
//! - [`app`]: the screen state (pure; time and the computer's answers come in as arguments);
//! - [`keys`]: what each key means, pit letters first;
//! - [`event_loop`]: the one loop that draws, waits and reacts;
//! - [`animation`]: a move replayed seed by seed from the rules core's trace;
//! - [`computer`]: the computer players' searches on worker threads;
//! - [`draw`], [`layout`], [`widgets`], [`help`], [`theme`], [`text`]: what the screen looks like;
//! - [`terminal`]: entering and always leaving full-screen mode.
//!
//! The match is kept as in plain mode ([`crate::game::keeper`]): saved after
//! every move, offered for resuming when the same players start again, each
//! finished round recorded once. The [`App`] only says what happened
//! ([`app::MatchEvent`]); the event loop does the writing.

pub mod animation;
pub mod app;
pub mod computer;
pub mod draw;
pub mod event_loop;
pub mod help;
pub mod keys;
pub mod layout;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod widgets;

use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::game::{Keeper, Match, MatchConfig, PlayOptions};

pub use app::App;

/// Plays a match full screen until the players quit, then prints the
/// final match score on the normal screen.
///
/// # Errors
/// When the terminal fails.
pub fn run(config: MatchConfig, options: &PlayOptions) -> anyhow::Result<ExitCode> {
    // Random first movers and random players differ from game to game.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut worker = computer::Worker::new(&config, options.think, seed);
    let (mut keeper, warning) = Keeper::open();
    let found = keeper.look(&config);
    let game = Match::new(config.clone(), seed);
    let mut screen = terminal::Screen::enter()?;
    let size = screen.terminal().size()?;
    let mut app = App::new(
        game,
        *options,
        theme::Theme::from_env(),
        (size.width, size.height),
        Instant::now(),
    );
    if let Some(saved) = found.saved {
        app.offer_resume(saved);
    }
    for note in found.notes {
        app.tell(format!("Note: {note}"));
    }
    for problem in warning.into_iter().chain(found.problem) {
        app.warn(problem);
    }
    let result = event_loop::run(screen.terminal(), &mut app, &mut worker, &mut keeper);
    drop(screen);
    result?;
    if terminal::terminated() {
        // The terminal may be gone (SIGHUP): print nothing more.
        return Ok(ExitCode::from(terminal::TERMINATED_EXIT_STATUS));
    }
    println!("{}", app.final_score());
    if keeper.has_save(&config) && app.game().outcome().is_none() && app.resume_summary().is_none()
    {
        println!("The match is saved: start mancala with the same names to resume it.");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
pub(crate) mod testing;
