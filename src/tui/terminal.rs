//! Entering and leaving full-screen mode, and making sure the terminal is
//! restored on every way out: a normal quit, an error, or a panic.

use std::io::{self, stdout};

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
