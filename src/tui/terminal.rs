//! Entering and leaving full-screen mode, and making sure the terminal is
//! restored on every way out: a normal quit, an error, a panic, or SIGTERM /
//! SIGHUP (the signal only sets a flag; the event loops see it within one
//! poll tick and leave through their normal path, so [`Screen`]'s drop
//! restores the terminal).

use std::io::{self, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use ratatui::DefaultTerminal;

/// The full-screen terminal; dropping it restores the terminal.
pub struct Screen {
    terminal: DefaultTerminal,
}

impl Screen {
    /// Switches to the alternate screen in raw mode with mouse capture, and
    /// installs a panic hook that restores the terminal before the panic
    /// message is printed.
    ///
    /// # Errors
    /// When the terminal cannot be set up (it is restored again first).
    pub fn enter() -> io::Result<Screen> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        watch_signals();
        let terminal = ratatui::try_init()?;
        if let Err(e) = execute!(stdout(), EnableMouseCapture) {
            restore();
            return Err(e);
        }
        Ok(Screen { terminal })
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut DefaultTerminal {
        &mut self.terminal
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
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

/// Set by SIGTERM or SIGHUP once [`Screen::enter`] has run.
fn termination_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Asks to be told of SIGTERM and SIGHUP (once per process). Registering
/// can only fail for forbidden signals, which these are not; if it ever
/// did, the default action (the process ends) would still apply.
fn watch_signals() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
            let _ = signal_hook::flag::register(signal, Arc::clone(termination_flag()));
        }
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
