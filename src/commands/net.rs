//! `mancala host` and `mancala join`: check the options, then hand over to
//! the network game (see [`crate::net`]) in plain mode.
//!
//! The full-screen network game is not built yet: both commands play line
//! by line, on a terminal too.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{HostCmd, JoinCmd};
use crate::net::code::JoinCode;
use crate::net::play::{HostSetup, JoinSetup};

use super::UsageError;

/// A player's own name from the command line: cleaned, and not empty.
fn own_name(name: &str) -> Result<String, UsageError> {
    crate::net::clean_remote_name(name)
        .ok_or_else(|| UsageError("give your name, like: Alice".into()))
}

/// Runs `mancala host`.
///
/// # Errors
/// Bad options, or a port that cannot be listened on.
pub fn host(cmd: &HostCmd) -> anyhow::Result<ExitCode> {
    let rules = cmd.rules.rules().map_err(UsageError)?;
    let setup = HostSetup {
        name: own_name(&cmd.name)?,
        rules,
        first: cmd.first,
        bind: SocketAddr::new(cmd.bind, cmd.port),
        animate: !cmd.no_animation,
    };
    crate::plain::net::host(setup)
}

/// Runs `mancala join`.
///
/// # Errors
/// Bad options: a code that is not a join code, an address that names
/// nothing.
pub fn join(cmd: &JoinCmd) -> anyhow::Result<ExitCode> {
    let code: JoinCode = cmd
        .code
        .parse()
        .map_err(|e: crate::net::code::BadCode| UsageError(format!("--code: {e}")))?;
    let addresses = crate::net::link::resolve(&cmd.address).map_err(UsageError)?;
    let setup = JoinSetup {
        name: own_name(&cmd.name)?,
        address: cmd.address.clone(),
        addresses,
        code,
        reconnect_for: Duration::from_secs(cmd.reconnect),
        animate: !cmd.no_animation,
    };
    crate::plain::net::join(setup)
}
