//! Sockets and threads: the host's listener and the joiner's connection.
//!
//! Blocking std TCP with a thread per handshake and per reader. Every
//! thread only sends events into one channel that the front end's loop
//! reads, so the match itself is only ever touched by that loop. Every
//! socket has timeouts: a whole handshake gets
//! [`super::session::HANDSHAKE_TIMEOUT`], a session ends after [`SILENCE`]
//! without a message (each end sends a ping every [`PING_EVERY`]). The
//! host's door (how many handshakes at once, how many wrong codes) is
//! [`super::gate`].

use std::io::ErrorKind;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;

use super::code::JoinCode;
use super::frame::FrameError;
use super::gate::{Handshakes, Reporter, Tries, Trouble, Turned};
use super::message::{ToHost, ToJoiner};
use super::session::{
    HANDSHAKE_TIMEOUT, Receiver, Sender, SessionError, host_handshake, join_handshake, refuse_tries,
};

/// How often an idle end sends a ping.
pub const PING_EVERY: Duration = Duration::from_secs(5);

/// How long a session may stay silent before it counts as lost.
pub const SILENCE: Duration = Duration::from_secs(20);

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
        /// The seat key it showed (untrusted), if any: see
        /// [`super::seat`].
        seat_key: Option<String>,
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
    /// Connections turned away during the handshake, as a sentence (at
    /// most one per kind a minute: see [`super::gate::Reporter`]).
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

/// Accepts joiners on `listener` on a new thread and reports them to
/// `tx`. Each handshake runs on its own thread, at most
/// [`super::gate::MAX_HANDSHAKES`] at once, each with a deadline; codes
/// are tried only while [`Tries`] allows (a connection with none left is
/// told so at once, before any key exchange). See [`super::gate`].
pub fn listen<E>(listener: TcpListener, code: JoinCode, tx: mpsc::Sender<E>)
where
    E: From<HostEvent> + Send + 'static,
{
    let lines = tx.clone();
    let reporter = Reporter::start(move |line| lines.send(HostEvent::Turned(line).into()).is_ok());
    thread::spawn(move || {
        let tries = Arc::new(Tries::default());
        let handshakes = Arc::new(Handshakes::default());
        let mut next_id = 1u64;
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let Ok(peer) = stream.peer_addr() else {
                continue;
            };
            let wait = tries.wait(peer.ip(), Instant::now());
            if !wait.is_zero() {
                let _ = refuse_tries(&stream, wait);
                let _ = stream.shutdown(std::net::Shutdown::Write);
                reporter.report(peer, Turned::TooManyTries(wait));
                continue;
            }
            let id = next_id;
            next_id += 1;
            if let Some(closed) = handshakes.admit(id, peer, &stream) {
                reporter.report(closed, Turned::MadeRoom);
            }
            let (tries, handshakes, reporter, tx) = (
                Arc::clone(&tries),
                Arc::clone(&handshakes),
                reporter.clone(),
                tx.clone(),
            );
            thread::spawn(move || {
                let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
                let ended = host_handshake(stream, &code, &tries, deadline);
                if !handshakes.done(id) {
                    // Closed to make room: reported already.
                    return;
                }
                handshake_ended(ended, id, peer, &reporter, &tx);
            });
        }
    });
}

/// Reports how the handshake of connection `id` from `peer` ended.
fn handshake_ended<E>(
    ended: Result<(Sender, Receiver, ToHost), SessionError>,
    id: u64,
    peer: SocketAddr,
    reporter: &Reporter,
    tx: &mpsc::Sender<E>,
) where
    E: From<HostEvent> + Send + 'static,
{
    let turned = match ended {
        Ok((sender, receiver, ToHost::Join { name, seat_key })) => {
            let event = HostEvent::Joined {
                id,
                name,
                seat_key,
                peer,
                sender,
            };
            if tx.send(event.into()).is_ok() {
                spawn_reader(receiver, tx.clone(), move |message| {
                    HostEvent::Message { id, message }.into()
                });
            }
            return;
        }
        Ok((mut sender, _, _)) => {
            let _ = sender.send(&ToJoiner::Error {
                text: "The first message must say who is joining.".into(),
            });
            Turned::Closed(Trouble::Malformed, "it did not say who is joining".into())
        }
        Err(SessionError::WrongCode) => Turned::WrongCode,
        Err(SessionError::Version(theirs)) => Turned::Version(theirs),
        Err(SessionError::TooManyTries(wait)) => Turned::TooManyTries(wait),
        Err(e) => {
            let trouble = match &e {
                SessionError::NotMancala => Trouble::NotMancala,
                SessionError::Frame(FrameError::Io(io)) if super::frame::is_timeout(io) => {
                    Trouble::Silent
                }
                SessionError::Frame(FrameError::Io(_) | FrameError::Closed) => Trouble::Broken,
                _ => Trouble::Malformed,
            };
            Turned::Closed(trouble, e.to_string())
        }
    };
    reporter.report(peer, turned);
}

/// Resolves `address` (`HOST:PORT`, or `HOST` for the default port).
///
/// # Errors
/// A sentence when it names no address: a port out of range, a name
/// that is not known, in words.
pub fn resolve(address: &str) -> Result<Vec<SocketAddr>, String> {
    let example = "give it as HOST:PORT, like 192.168.1.20:7531";
    let with_port = if address.parse::<SocketAddr>().is_ok() {
        address.to_string()
    } else if let Some((host, port)) = address.rsplit_once(':')
        && !host.is_empty()
        && !host.contains(':')
        && !port.is_empty()
        && port.bytes().all(|b| b.is_ascii_digit())
    {
        match port.parse::<u16>() {
            Ok(p) if p > 0 => address.to_string(),
            _ => {
                return Err(format!(
                    "'{address}' has no port {port}: a port is a number from 1 to 65535 ({example})"
                ));
            }
        }
    } else {
        format!("{address}:{}", super::DEFAULT_PORT)
    };
    let found: Vec<SocketAddr> = with_port
        .to_socket_addrs()
        .map_err(|_| {
            format!("'{address}' is not an address this machine can find: check its spelling ({example})")
        })?
        .collect();
    if found.is_empty() {
        return Err(format!("'{address}' names no address to join ({example})"));
    }
    Ok(found)
}

/// The sentence for a host that cannot listen on `bind`: the cause in
/// words, and the advice that fits it.
#[must_use]
pub fn bind_failure(bind: SocketAddr, e: &std::io::Error) -> String {
    let (ip, port) = (bind.ip(), bind.port());
    match e.kind() {
        ErrorKind::AddrInUse => format!(
            "could not listen on port {port}: it is in use (is another mancala host running?). Choose another --port"
        ),
        ErrorKind::AddrNotAvailable => format!(
            "could not listen on {ip}: it is not an address of this machine. Give one of its own addresses to --bind, or leave --bind out to listen on all of them"
        ),
        ErrorKind::PermissionDenied => format!(
            "could not listen on port {port}: this user may not use it (ports below 1024 are the system's). Choose a --port from 1024 to 65535"
        ),
        _ => format!(
            "could not listen on {bind}: {}",
            crate::store::files::words(e)
        ),
    }
}

/// Connects to the host at `addresses` (each tried, with a timeout) and
/// joins with `code` as `name`, showing `seat_key` when this program was
/// welcomed before: the session and the host's first answer.
///
/// # Errors
/// The last failure: no host there, a wrong code, another version, too
/// many wrong codes lately. [`join_failure`] says it in words.
pub fn connect(
    addresses: &[SocketAddr],
    code: &JoinCode,
    name: &str,
    seat_key: Option<&str>,
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
                        seat_key: seat_key.map(str::to_string),
                    },
                    Instant::now() + HANDSHAKE_TIMEOUT,
                );
            }
            Err(e) => last = Some(e),
        }
    }
    Err(SessionError::Frame(FrameError::Io(
        last.unwrap_or_else(|| std::io::Error::other("no address")),
    )))
}

/// The sentence for a joiner that could not join the host at `address`
/// with `code`: what happened, in words, and what to do.
#[must_use]
pub fn join_failure(address: &str, code: &JoinCode, e: &SessionError) -> String {
    let closed = format!(
        "The host at {address} closed the connection before the join was complete: it may be busy turning away other connections. Try again in a moment."
    );
    match e {
        SessionError::WrongCode => format!(
            "The host did not accept the code {code}: check it with the host (each new match has a new code)."
        ),
        SessionError::Version(_) => e.to_string(),
        SessionError::TooManyTries(wait) => format!(
            "The host at {address} is not trying any code from here now: too many wrong codes were tried lately. Try again in {} s.",
            super::gate::seconds(*wait)
        ),
        SessionError::NotMancala => {
            format!("The program at {address} is not a mancala host: check the address and port.")
        }
        SessionError::Frame(FrameError::Closed) => closed,
        SessionError::Frame(FrameError::Io(io)) => match io.kind() {
            ErrorKind::ConnectionRefused => format!(
                "Nothing is listening at {address}: is `mancala host` running there, and are the address and port right?"
            ),
            ErrorKind::WouldBlock | ErrorKind::TimedOut => format!(
                "The host at {address} did not answer in time: check the address, and that no firewall holds the connection back, then try again."
            ),
            ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::UnexpectedEof
            | ErrorKind::BrokenPipe => closed,
            ErrorKind::HostUnreachable
            | ErrorKind::NetworkUnreachable
            | ErrorKind::AddrNotAvailable => format!(
                "{address} cannot be reached from this machine: check the address and the network."
            ),
            kind => format!(
                "Could not reach a mancala host at {address} ({kind}): is the host running, and is the address right?"
            ),
        },
        other => format!("Could not join the match at {address}: {other}."),
    }
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
    fn joiners_read_what_went_wrong_in_words() {
        let code: JoinCode = "7-guitar-orbit".parse().unwrap();
        let io = |kind| SessionError::Frame(FrameError::Io(std::io::Error::from(kind)));
        for (e, words) in [
            (io(ErrorKind::WouldBlock), "did not answer in time"),
            (io(ErrorKind::TimedOut), "did not answer in time"),
            (io(ErrorKind::ConnectionRefused), "Nothing is listening at"),
            (
                io(ErrorKind::ConnectionReset),
                "closed the connection before",
            ),
            (
                SessionError::Frame(FrameError::Closed),
                "closed the connection before",
            ),
            (
                SessionError::TooManyTries(Duration::from_millis(29_001)),
                "Try again in 30 s.",
            ),
            (
                SessionError::WrongCode,
                "did not accept the code 7-guitar-orbit",
            ),
        ] {
            let text = join_failure("192.0.2.1:7531", &code, &e);
            assert!(text.contains(words), "{e:?}: {text}");
            assert!(!text.contains("os error"), "{text}");
        }
    }

    #[test]
    fn a_host_that_cannot_listen_is_told_the_cause_in_words() {
        let bind: SocketAddr = "10.255.255.1:7531".parse().unwrap();
        let cases = [
            (
                ErrorKind::AddrNotAvailable,
                "not an address of this machine",
                "--port",
            ),
            (ErrorKind::AddrInUse, "Choose another --port", "--bind"),
            (
                ErrorKind::PermissionDenied,
                "Choose a --port from 1024",
                "--bind",
            ),
        ];
        for (kind, says, not) in cases {
            let text = bind_failure(bind, &std::io::Error::from(kind));
            assert!(text.contains(says), "{kind:?}: {text}");
            assert!(!text.contains(not), "{kind:?}: {text}");
            assert!(!text.contains("os error"), "{kind:?}: {text}");
        }
        // The real refusal of an address this machine does not have
        // (binding sends nothing).
        if let Err(e) = TcpListener::bind("192.0.2.1:0") {
            let text = bind_failure("192.0.2.1:7531".parse().unwrap(), &e);
            assert!(text.contains("not an address of this machine"), "{text}");
        }
    }

    #[test]
    fn a_port_out_of_range_is_said_so() {
        let text = resolve("127.0.0.1:99999").unwrap_err();
        assert!(text.contains("no port 99999"), "{text}");
        assert!(text.contains("from 1 to 65535"), "{text}");
        let text = resolve("no-such-host.invalid").unwrap_err();
        assert!(
            !text.contains("os error") && !text.contains("failed to lookup"),
            "{text}"
        );
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
