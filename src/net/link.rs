//! Sockets and threads: the host's listener and the joiner's connection.
//!
//! Blocking std TCP with a thread per reader. Every thread only sends
//! events into one channel that the front end's loop reads, so the match
//! itself is only ever touched by that loop. Every socket has timeouts: a
//! handshake gets [`super::session::HANDSHAKE_TIMEOUT`], a session ends
//! after [`SILENCE`] without a message (each end sends a ping every
//! [`PING_EVERY`]).

use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde::de::DeserializeOwned;

use super::code::JoinCode;
use super::message::{ToHost, ToJoiner};
use super::session::{Receiver, Sender, SessionError, host_handshake, join_handshake};

/// How often an idle end sends a ping.
pub const PING_EVERY: Duration = Duration::from_secs(5);

/// How long a session may stay silent before it counts as lost.
pub const SILENCE: Duration = Duration::from_secs(20);

/// The longest pause after wrong codes (it doubles from half a second).
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// What the host's network threads report.
pub enum HostEvent {
    /// A joiner with the right code: its first message and the way to
    /// answer. Its later messages come as [`HostEvent::Message`] with the
    /// same `id`.
    Joined {
        /// This connection's number.
        id: u64,
        /// The name it gave (untrusted).
        name: String,
        /// Where it connected from.
        peer: SocketAddr,
        /// The sending half of its session.
        sender: Sender,
    },
    /// A message from joiner `id`, or the end of its connection.
    Message {
        /// The connection.
        id: u64,
        /// The message, or why the connection ended.
        message: Result<ToHost, SessionError>,
    },
    /// A connection turned away during the handshake, as a sentence.
    Turned(String),
}

/// Reads messages from `receiver` on a new thread and sends each, wrapped
/// by `wrap`, into `tx`, until the connection ends (reported last) or the
/// channel closes.
pub fn spawn_reader<M, E>(
    mut receiver: Receiver,
    tx: mpsc::Sender<E>,
    wrap: impl Fn(Result<M, SessionError>) -> E + Send + 'static,
) where
    M: DeserializeOwned + Send + 'static,
    E: Send + 'static,
{
    thread::spawn(move || {
        let _ = receiver.set_timeout(Some(SILENCE));
        loop {
            let message = receiver.recv::<M>();
            let end = message.is_err();
            if tx.send(wrap(message)).is_err() || end {
                return;
            }
        }
    });
}

/// The pause after `failures` wrong codes in a row.
#[must_use]
pub fn backoff(failures: u32) -> Duration {
    if failures == 0 {
        return Duration::ZERO;
    }
    let half_seconds = 1u64 << failures.saturating_sub(1).min(16);
    Duration::from_millis(500 * half_seconds).min(MAX_BACKOFF)
}

/// Accepts joiners on `listener` on a new thread, one handshake at a
/// time, and reports them to `tx`. After each wrong code it waits
/// [`backoff`] before accepting again.
pub fn listen<E>(listener: TcpListener, code: JoinCode, tx: mpsc::Sender<E>)
where
    E: From<HostEvent> + Send + 'static,
{
    thread::spawn(move || {
        let mut failures = 0u32;
        let mut next_id = 1u64;
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let peer = stream
                .peer_addr()
                .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)));
            let event = match host_handshake(stream, &code) {
                Ok((sender, receiver, ToHost::Join { name })) => {
                    failures = 0;
                    let id = next_id;
                    next_id += 1;
                    let event = HostEvent::Joined {
                        id,
                        name,
                        peer,
                        sender,
                    };
                    if tx.send(event.into()).is_err() {
                        return;
                    }
                    let reader_tx = tx.clone();
                    spawn_reader(receiver, reader_tx, move |message| {
                        HostEvent::Message { id, message }.into()
                    });
                    continue;
                }
                Ok((mut sender, _, _)) => {
                    let _ = sender.send(&ToJoiner::Error {
                        text: "The first message must say who is joining.".into(),
                    });
                    HostEvent::Turned(format!(
                        "A program at {peer} connected without saying who it is; it was turned away."
                    ))
                }
                Err(SessionError::WrongCode) => {
                    failures += 1;
                    HostEvent::Turned(format!(
                        "Someone at {peer} tried to join with a wrong code; still waiting for the right one."
                    ))
                }
                Err(SessionError::Version(theirs)) => HostEvent::Turned(format!(
                    "A program at {peer} could not join: {}",
                    super::version_mismatch(theirs)
                )),
                Err(e) => HostEvent::Turned(format!("A connection from {peer} was closed: {e}.")),
            };
            if tx.send(event.into()).is_err() {
                return;
            }
            thread::sleep(backoff(failures));
        }
    });
}

/// Resolves `address` (`HOST:PORT`, or `HOST` for the default port).
///
/// # Errors
/// A sentence when it names no address.
pub fn resolve(address: &str) -> Result<Vec<SocketAddr>, String> {
    let with_port = if address.parse::<SocketAddr>().is_ok()
        || address
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        address.to_string()
    } else {
        format!("{address}:{}", super::DEFAULT_PORT)
    };
    let found: Vec<SocketAddr> = with_port
        .to_socket_addrs()
        .map_err(|e| format!("'{address}' is not an address to join ({e}); give it as HOST:PORT, like 192.168.1.20:7531"))?
        .collect();
    if found.is_empty() {
        return Err(format!("'{address}' names no address to join"));
    }
    Ok(found)
}

/// Connects to the host at `addresses` (each tried, with a timeout) and
/// joins with `code` as `name`: the session and the host's first answer.
///
/// # Errors
/// The last failure: no host there, a wrong code, another version.
pub fn connect(
    addresses: &[SocketAddr],
    code: &JoinCode,
    name: &str,
) -> Result<(Sender, Receiver, ToJoiner), SessionError> {
    let mut last = None;
    for address in addresses {
        match TcpStream::connect_timeout(address, Duration::from_secs(5)) {
            Ok(stream) => {
                return join_handshake(
                    stream,
                    code,
                    &ToHost::Join {
                        name: name.to_string(),
                    },
                );
            }
            Err(e) => last = Some(e),
        }
    }
    Err(SessionError::Frame(super::frame::FrameError::Io(
        last.unwrap_or_else(|| std::io::Error::other("no address")),
    )))
}

/// The addresses a friend can reach a host listening on `bound` at: the
/// machine's address on its local network (when it has one) and the
/// loopback address, or exactly the bound address when it is a specific
/// one.
#[must_use]
pub fn reachable_addresses(bound: SocketAddr) -> Vec<SocketAddr> {
    if !bound.ip().is_unspecified() {
        return vec![bound];
    }
    let mut found = Vec::new();
    // A UDP socket "connected" to a public address sends nothing, but
    // the system picks the local address it would use.
    if let Ok(probe) = std::net::UdpSocket::bind("0.0.0.0:0")
        && probe.connect("192.0.2.1:9").is_ok()
        && let Ok(local) = probe.local_addr()
        && !local.ip().is_unspecified()
        && !local.ip().is_loopback()
    {
        found.push(SocketAddr::new(local.ip(), bound.port()));
    }
    found.push(SocketAddr::from(([127, 0, 0, 1], bound.port())));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_stops_at_the_ceiling() {
        assert_eq!(backoff(0), Duration::ZERO);
        assert_eq!(backoff(1), Duration::from_millis(500));
        assert_eq!(backoff(2), Duration::from_secs(1));
        assert_eq!(backoff(4), Duration::from_secs(4));
        assert_eq!(backoff(40), MAX_BACKOFF);
    }

    #[test]
    fn addresses_get_the_default_port() {
        assert_eq!(
            resolve("127.0.0.1").unwrap(),
            vec![SocketAddr::from((
                [127, 0, 0, 1],
                super::super::DEFAULT_PORT
            ))]
        );
        assert_eq!(
            resolve("127.0.0.1:9").unwrap(),
            vec![SocketAddr::from(([127, 0, 0, 1], 9))]
        );
        assert!(resolve("").is_err());
    }
}
