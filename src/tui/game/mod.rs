//! The two-player game screen: the model, its keys, its drawing and the
//! world that carries its effects out.
//!
//! - [`app`]: the model, a [`Mode`](app::Mode) enum and small parts
//!   ([`notes`]: the status line and the log);
//! - [`keys`]: the one table of what can be done now and its keys;
//! - [`world`]: the screen's messages and effects, and what carries them
//!   out: saving, recording, preferences, the computer's searches
//!   ([`computer`]);
//! - [`draw`] and [`help`]: what it looks like (the board itself is the
//!   shared [`crate::tui::widgets::board`], placed by
//!   [`crate::tui::layout`]).
//!
//! How a key press becomes a move: the [screen loop](crate::tui::screen)
//! turns the terminal event into an [`Input`](crate::tui::input::Input),
//! the game's [`App`] looks it up in the table of what can be done now
//! ([`keys::offers`]: the session's open commands and the screen's own keys,
//! the same table the key bar and the help read) and hands
//! it to the match's [`Session`] as a command; the session checks it with
//! the rules, plays it, keeps the match with its [`Keeper`] (the policy
//! shared with plain mode: saved after every move, each finished round
//! recorded once, offered for resuming when the same players start again)
//! and reports the move with its sowing trace, which becomes an
//! [`Animation`](crate::tui::animation::Animation). A computer's move is
//! thought out by the [`world::GameWorld`]'s worker and handed to the
//! session the same way.

pub mod app;
pub mod computer;
pub mod draw;
pub mod help;
pub mod keys;
pub mod notes;
pub mod world;

use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::console;
use crate::game::{Match, MatchConfig, PlayOptions};
use crate::session::Session;
use crate::store::Keeper;
use crate::tui::{prefs, screen, terminal};

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
    let (keeper, warning) = Keeper::open();
    // The kept speed unless one was given for this run; the kept theme
    // unless NO_COLOR turns colours off.
    let kept = prefs::Kept::load();
    let chosen = prefs::Chosen::for_run(
        options.speed_given.then_some(options.seed_delay),
        kept.prefs,
    );
    let options = PlayOptions {
        seed_delay: chosen.seed_delay(),
        ..*options
    };
    // The session offers a saved match, or asks about one open in another
    // window, before anything moves.
    let mut session = Session::thinking_outside(Match::new(config, seed), options.think, keeper);
    session.set_pie_rule(options.pie_rule);
    session.set_fair_start(options.fair);
    // `A` at "Play again?" shows the round's analysis, worked out on
    // spare time while it was played; never while a computer thinks.
    session.analyse_as_played(crate::tui::analysis::DEFAULT_THINK);
    worker.pause_analysis(session.analysis_pause());
    let mut app = App::start(session, options, *chosen.theme(), (80, 24), Instant::now());
    app.keep_prefs(chosen);
    for problem in warning.into_iter().chain(kept.problem) {
        app.warn(problem);
    }
    let mut world = world::GameWorld {
        worker,
        prefs: kept.path,
    };
    screen::run(&mut app, &mut world)?;
    if let Some(status) = terminal::signal_exit_status() {
        // The terminal may be gone (SIGHUP): print nothing more.
        return Ok(ExitCode::from(status));
    }
    console::say(app.final_score());
    if app.left_saved() {
        console::say("The match is saved: start mancala with the same names to resume it.");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
pub(crate) mod testing;
