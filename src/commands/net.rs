//! `mancala host` and `mancala join`: check the options, then hand over to
//! the network game (see [`crate::net`]): full screen when both standard
//! input and output are a terminal, else (or with `--plain`) line by line.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{HostCmd, JoinCmd};
use crate::net::code::JoinCode;
use crate::net::play::{HostSetup, JoinSetup};
use crate::rules::Game;

use super::UsageError;

/// A player's own name from the command line: cleaned, and not empty.
fn own_name(name: &str) -> Result<String, UsageError> {
    crate::net::clean_remote_name(name)
        .ok_or_else(|| UsageError("give your name, like: Alice".into()))
}

/// Whether to play full screen: on a terminal, unless `--plain`.
fn full_screen(plain: bool) -> bool {
    !plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Runs `mancala host`.
///
/// # Errors
/// Bad options, or a port that cannot be listened on.
pub fn host(cmd: &HostCmd) -> anyhow::Result<ExitCode> {
    if cmd.game == Game::Oware && cmd.swap {
        let refused = "--swap is Kalah's: leave it out with --game oware";
        return Err(UsageError(refused.into()).into());
    }
    if cmd.game == Game::Oware && cmd.rules.any_given() {
        let refused =
            "Oware is played on 6 houses a side with 4 seeds each: leave out the rule options";
        return Err(UsageError(refused.into()).into());
    }
    let rules = cmd.rules.rules().map_err(UsageError)?;
    let name = own_name(&cmd.name)?;
    // One `mancala host NAME` per data directory: a second one would share
    // (and overwrite) the first one's match. Held until the host ends.
    let _hold = match crate::store::keeper::hold_host(&name) {
        Ok(hold) => hold,
        Err(notice) => {
            crate::console::warn(format_args!("mancala: {notice}"));
            return Ok(ExitCode::FAILURE);
        }
    };
    let setup = HostSetup {
        name,
        game: cmd.game,
        rules,
        first: cmd.first,
        bind: SocketAddr::new(cmd.bind, cmd.port),
        seed_delay: cmd.show.speed.seed_delay(),
        pie_rule: cmd.swap,
    };
    if full_screen(cmd.show.plain) {
        crate::tui::net::host(setup, cmd.show.speed.given())
    } else {
        crate::plain::net::host(setup)
    }
}

/// Runs `mancala join`.
///
/// # Errors
/// Bad options: a code that is not a join code, an address that names
/// nothing.
pub fn join(cmd: &JoinCmd) -> anyhow::Result<ExitCode> {
    let code: JoinCode = match &cmd.code {
        Some(code) => code
            .parse()
            .map_err(|e: crate::net::code::BadCode| UsageError(format!("--code: {e}")))?,
        None => ask_code()?,
    };
    let addresses = crate::net::link::resolve(&cmd.address).map_err(UsageError)?;
    let setup = JoinSetup {
        name: own_name(&cmd.name)?,
        game: cmd.game,
        address: cmd.address.clone(),
        addresses,
        code,
        reconnect_for: Duration::from_secs(cmd.reconnect),
        seed_delay: cmd.show.speed.seed_delay(),
    };
    if full_screen(cmd.show.plain) {
        crate::tui::net::join(setup, cmd.show.speed.given())
    } else {
        crate::plain::net::join(setup)
    }
}

/// The longest line read as a join code, in bytes.
const MAX_CODE_LINE: u64 = 256;

/// Reads the join code: asked for on a terminal, else the first line of
/// standard input (the rest stays for the game).
fn ask_code() -> Result<JoinCode, UsageError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("Join code (as the host shows it, like 7-guitar-orbit): ");
        let _ = std::io::stderr().flush();
    }
    let mut line = String::new();
    let read = stdin.lock().take(MAX_CODE_LINE).read_line(&mut line);
    let no_code = || {
        UsageError(
            "no join code: give it with --code CODE, or type it when asked (the first line of standard input)".into(),
        )
    };
    match read {
        Ok(0) | Err(_) => Err(no_code()),
        Ok(_) if line.trim().is_empty() => Err(no_code()),
        Ok(_) => line
            .parse()
            .map_err(|e: crate::net::code::BadCode| UsageError(e.to_string())),
    }
}
