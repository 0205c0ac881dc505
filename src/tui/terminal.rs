//! Entering and leaving full-screen mode, and making sure the terminal is
//! restored on every way out: a normal quit, an error, a panic, or any
//! signal that ends a process by default ([`WATCHED_SIGNALS`]: INT, TERM,
//! HUP, QUIT).
//!
//! Every full-screen view runs on the one screen loop,
//! [`crate::tui::screen::run`], which does what is needed here: it holds a
//! [`FullScreen`] from [`FullScreen::enter`] while it runs, waits for input
//! at most [`SIGNAL_TICK`] at a time, and leaves when [`terminated`] says
//! so. The signal only records itself; the loop leaves through its normal
//! path, [`FullScreen`]'s drop restores the terminal, and `main` exits with
//! [`signal_exit_status`] (128 + the signal's number).
//!
//! Stopping (Ctrl-Z, or SIGTSTP from elsewhere) is not an end: the
//! terminal is restored (mouse capture off, raw mode off, main screen)
//! before the process stops, and when it is continued (SIGCONT: `fg`,
//! `kill -CONT`) raw mode, the alternate screen and mouse capture come
//! back and the screen loop redraws everything ([`resumed`]).

use std::io::{self, stdout};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::EnterAlternateScreen;
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
        watch_stops();
        let terminal = ratatui::try_init()?;
        if let Err(e) = execute!(stdout(), EnableMouseCapture) {
            restore();
            return Err(e);
        }
        ACTIVE.store(true, Ordering::SeqCst);
        Ok(FullScreen { terminal })
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut DefaultTerminal {
        &mut self.terminal
    }
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        ACTIVE.store(false, Ordering::SeqCst);
        restore();
    }
}

/// Whether full-screen mode is on now (a [`FullScreen`] is held).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Whether the process was continued after a stop since the screen loop
/// last drew.
static RESUMED: AtomicBool = AtomicBool::new(false);

/// Asks to be told of SIGTSTP and SIGCONT (once per process), on a small
/// thread: see the [module docs](self). If they cannot be watched, they
/// keep their default actions.
fn watch_stops() {
    use signal_hook::consts::{SIGCONT, SIGTSTP};
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTSTP, SIGCONT]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("stops".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGTSTP {
                        if ACTIVE.load(Ordering::SeqCst) {
                            restore();
                        }
                        // Stops the process here (SIGTSTP's default action);
                        // it comes back with SIGCONT, taken next.
                        let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
                    } else if ACTIVE.load(Ordering::SeqCst) {
                        let _ = crossterm::terminal::enable_raw_mode();
                        let _ = execute!(stdout(), EnterAlternateScreen, EnableMouseCapture);
                        RESUMED.store(true, Ordering::SeqCst);
                    }
                }
            });
    });
}

/// Stops the process as Ctrl-Z does outside raw mode (the key arrives as
/// a key in raw mode): the terminal is restored first, and set up again
/// when the process is continued.
pub fn suspend() {
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP);
}

/// Whether the process was continued after a stop since the last call:
/// the terminal was set up again, and everything must be drawn anew.
#[must_use]
pub fn resumed() -> bool {
    RESUMED.swap(false, Ordering::SeqCst)
}

/// Chains a terminal-restoring panic hook in front of the current one, once:
/// entering full screen again (a second match, say) must not stack another
/// hook each time.
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

/// The signals that end a process by default and that a full-screen
/// screen turns into a clean exit: interrupt, terminate, hang up, quit.
pub const WATCHED_SIGNALS: [i32; 4] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
];

/// The number of the first watched signal received, 0 for none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// How long an event loop gets to leave on its own after a termination
/// signal before the watcher ends the process itself.
const GRACE: Duration = Duration::from_millis(600);

/// Asks to be told of [`WATCHED_SIGNALS`] (once per process), on a small
/// watcher thread. The signal is recorded for [`terminated`], which the
/// event loops check, so they normally leave the usual way (terminal
/// restored, match saved). But when the terminal itself has gone away
/// (SIGHUP after the window closed), crossterm 0.29's input loop retries
/// its end-of-file read forever inside `event::poll` and never comes back
/// to look; so after [`GRACE`] the watcher restores what it can and ends
/// the process with [`signal_exit_status`]. If the signals cannot be
/// watched at all, they keep their default action: the process ends.
fn watch_signals() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new(WATCHED_SIGNALS) else {
            return;
        };
        // A thread that cannot be started leaves the signal unrecorded: the
        // loops then simply go on until the player quits.
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    RECEIVED.store(signal, Ordering::SeqCst);
                    std::thread::sleep(GRACE);
                    restore();
                    std::process::exit(128 + signal);
                }
            });
    });
}

/// Whether the process was asked to end by one of [`WATCHED_SIGNALS`]:
/// event loops check this every [`SIGNAL_TICK`] and leave as if the player
/// had quit.
#[must_use]
pub fn terminated() -> bool {
    RECEIVED.load(Ordering::SeqCst) != 0
}

/// The exit status a shell reports for the signal that ended a screen,
/// 128 + its number (130 for INT, 129 for HUP, 131 for QUIT, 143 for TERM);
/// `None` when no signal came. The program's `main` returns it whatever
/// the screen returned, so a screen only has to leave its loop.
#[must_use]
pub fn signal_exit_status() -> Option<u8> {
    let signal = RECEIVED.load(Ordering::SeqCst);
    (signal != 0).then(|| u8::try_from(128 + signal).unwrap_or(u8::MAX))
}
