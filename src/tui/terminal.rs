//! Entering and leaving full-screen mode, and making sure the terminal is
//! restored on every way out: a normal quit, an error, a panic, or SIGTERM /
//! SIGHUP (the signal only sets a flag; the screen loop sees it within one
//! poll tick and leaves through its normal path, so [`FullScreen`]'s drop
//! restores the terminal).
//!
//! Every full-screen view enters through [`FullScreen::enter`] (the screen
//! loop, [`crate::tui::screen::run`], does it): this is the one guard.

use std::io::{self, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use ratatui::DefaultTerminal;

/// The full-screen terminal; dropping it restores the terminal.
pub struct FullScreen {
    terminal: DefaultTerminal,
}

impl FullScreen {
    /// Switches to the alternate screen in raw mode with mouse capture, and
    /// installs (once per process) a panic hook that restores the terminal
    /// before the panic message is printed.
    ///
    /// # Errors
    /// When the terminal cannot be set up (it is restored again first).
    pub fn enter() -> io::Result<FullScreen> {
        hook_panics();
        watch_signals();
        let terminal = ratatui::try_init()?;
        if let Err(e) = execute!(stdout(), EnableMouseCapture) {
            restore();
            return Err(e);
        }
        Ok(FullScreen { terminal })
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut DefaultTerminal {
        &mut self.terminal
    }
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        restore();
    }
}

/// Chains a terminal-restoring panic hook in front of the current one, once:
/// entering full screen again (solitaire's boards, a second match) must not
/// stack another hook each time.
fn hook_panics() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Leaves full-screen mode: mouse capture off (which `ratatui::restore`
/// does not do), raw mode off, back to the main screen, cursor shown.
pub fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// The longest an event loop may wait for input before looking at
/// [`terminated`] again.
pub const SIGNAL_TICK: Duration = Duration::from_millis(200);

/// Set by SIGTERM or SIGHUP once [`FullScreen::enter`] has run.
fn termination_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// How long an event loop gets to leave on its own after a termination
/// signal before the watcher ends the process itself.
const GRACE: Duration = Duration::from_millis(600);

/// Asks to be told of SIGTERM and SIGHUP (once per process), on a small
/// watcher thread. The signal sets the flag that the event loops check, so
/// they normally leave the usual way (terminal restored, match saved). But
/// when the terminal itself has gone away (SIGHUP after the window closed),
/// crossterm 0.29's input loop retries its end-of-file read forever inside
/// `event::poll` and never comes back to look at the flag; so after
/// [`GRACE`] the watcher restores what it can and ends the process. If the
/// signals cannot be watched at all, they keep their default action: the
/// process ends.
fn watch_signals() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        use signal_hook::consts::{SIGHUP, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else {
            return;
        };
        // A thread that cannot be started leaves the flag unset: the loops
        // then simply go on until the player quits.
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    termination_flag().store(true, Ordering::Relaxed);
                    std::thread::sleep(GRACE);
                    restore();
                    std::process::exit(128 + signal);
                }
            });
    });
}

/// Whether the process was asked to end by SIGTERM or SIGHUP: event loops
/// check this every [`SIGNAL_TICK`] and leave as if the player had quit.
#[must_use]
pub fn terminated() -> bool {
    termination_flag().load(Ordering::Relaxed)
}

/// The exit status after a termination signal (128 + SIGTERM, as a shell reports it).
pub const TERMINATED_EXIT_STATUS: u8 = 143;
