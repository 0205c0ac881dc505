//! The handshake and the sealed session.
//!
//! 0. When too many wrong codes were tried lately (see
//!    [`super::gate::Tries`]), the host answers [`Refusal::TooManyTries`]
//!    instead, with the seconds to wait, and closes.
//! 1. The host greets in the clear: [`Hello::Host`] with its protocol
//!    version and its SPAKE2 message (password: the join code).
//! 2. The joiner answers [`Hello::Joiner`] with its version and SPAKE2
//!    message. Different versions: the host answers
//!    [`Refusal::Version`] and both tell their player which protocols
//!    they speak ([`super::version_mismatch`]); no try is spent.
//! 3. Both finish SPAKE2 and derive, with HKDF-SHA256 salted by a hash of
//!    everything said so far, one ChaCha20-Poly1305 key per direction.
//! 4. The joiner sends its first sealed message ([`ToHost::Join`]). If it
//!    does not open, the codes differ: the host answers
//!    [`Refusal::WrongCode`] in the clear and closes. The host opens it
//!    only while a try is left ([`super::gate::Tries::attempt`]); a
//!    wrong code spends one.
//!
//! The whole handshake has one deadline ([`HANDSHAKE_TIMEOUT`]): each read
//! and write waits only for the time left, so a peer that sends a byte
//! now and then cannot stretch it.
//!
//! Each direction numbers its messages from 0; the number is the nonce and
//! is never sent. A receiver opens message *n* only with nonce *n*, so a
//! message replayed, dropped, reordered or altered fails to open, and the
//! connection ends.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::net::{IpAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hkdf::Hkdf;
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use spake2::{Ed25519Group, Identity, Password, Spake2};

use super::code::JoinCode;
use super::frame::{FrameError, Kind, read_frame, write_frame};
use super::gate::Tries;
use super::message::{GAME, Hello, Refusal, ToHost, ToJoiner, decode, encode};
use super::{PROTOCOL_VERSION, RemoteText};

/// How long a whole handshake may take before the connection is dropped.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a session could not start or go on.
#[derive(Debug)]
pub enum SessionError {
    /// The connection failed or closed, or sent what is not a frame.
    Frame(FrameError),
    /// The two programs hold different join codes.
    WrongCode,
    /// The other program speaks this protocol version.
    Version(u32),
    /// The host tries no code now (too many wrong ones lately): try again
    /// after this long.
    TooManyTries(Duration),
    /// The other end is not a mancala program.
    NotMancala,
    /// A message failed to open: altered, replayed or out of order.
    Forged,
    /// A message opened but is not one this end understands here (the
    /// description is cleaned: it may quote what was sent).
    Malformed(RemoteText),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // The system's words about a connection, cleaned all the same:
            // nothing said about the other end reaches a terminal raw.
            SessionError::Frame(e) => f.write_str(&super::remote_text(&e.to_string())),
            SessionError::WrongCode => f.write_str("the join code does not match"),
            SessionError::Version(theirs) => f.write_str(&super::version_mismatch(*theirs)),
            SessionError::TooManyTries(wait) => write!(
                f,
                "too many wrong codes were tried lately: try again in {} s",
                super::gate::seconds(*wait)
            ),
            SessionError::NotMancala => f.write_str("the other end is not a mancala game"),
            SessionError::Forged => f.write_str(
                "a message failed its authenticity check (altered, replayed or out of order)",
            ),
            SessionError::Malformed(what) => f.write_str(what.as_str()),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<FrameError> for SessionError {
    fn from(e: FrameError) -> SessionError {
        SessionError::Frame(e)
    }
}

/// One direction's key and message counter.
struct Direction {
    cipher: ChaCha20Poly1305,
    counter: u64,
    transcript: [u8; 32],
}

impl Direction {
    fn nonce(&self) -> Nonce {
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&self.counter.to_be_bytes());
        Nonce::from(nonce)
    }

    fn seal(&mut self, plain: &[u8]) -> Vec<u8> {
        let nonce = self.nonce();
        self.counter += 1;
        self.cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plain,
                    aad: &self.transcript,
                },
            )
            // Encryption fails only for messages of gigabytes.
            .unwrap_or_default()
    }

    fn open(&mut self, sealed: &[u8]) -> Result<Vec<u8>, SessionError> {
        let nonce = self.nonce();
        let plain = self
            .cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: sealed,
                    aad: &self.transcript,
                },
            )
            .map_err(|_| SessionError::Forged)?;
        self.counter += 1;
        Ok(plain)
    }
}

/// The sending half of a session: seals and writes messages.
pub struct Sender {
    stream: BufWriter<TcpStream>,
    keys: Direction,
    open: Arc<AtomicBool>,
}

impl Sender {
    /// Seals and sends `message`.
    ///
    /// # Errors
    /// The connection's failure.
    pub fn send<T: Serialize>(&mut self, message: &T) -> Result<(), SessionError> {
        let sealed = self.keys.seal(&encode(message));
        write_frame(&mut self.stream, Kind::Sealed, &sealed)?;
        Ok(())
    }

    /// Closes both directions of the connection (the receiving half sees
    /// the end at once).
    pub fn close(&mut self) {
        self.open.store(false, Ordering::Relaxed);
        let _ = self.stream.get_ref().shutdown(std::net::Shutdown::Both);
    }

    /// Whether the connection may still be open: `false` once it was
    /// closed here, or its receiving half met the end or a failure.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::Relaxed)
    }
}

/// The receiving half of a session: reads and opens messages.
pub struct Receiver {
    stream: BufReader<TcpStream>,
    keys: Direction,
    open: Arc<AtomicBool>,
}

impl Receiver {
    /// Waits for the next message.
    ///
    /// # Errors
    /// The connection's failure or end, a frame in the clear, a message
    /// that fails to open, or one that is not a `T`.
    pub fn recv<T: DeserializeOwned>(&mut self) -> Result<T, SessionError> {
        let message = self.read();
        if message.is_err() {
            self.open.store(false, Ordering::Relaxed);
        }
        message
    }

    fn read<T: DeserializeOwned>(&mut self) -> Result<T, SessionError> {
        let (kind, body) = read_frame(&mut self.stream)?;
        if kind != Kind::Sealed {
            return Err(SessionError::Frame(FrameError::Malformed));
        }
        let plain = self.keys.open(&body)?;
        decode(&plain).map_err(SessionError::Malformed)
    }

    /// How long [`Receiver::recv`] waits before failing with a timeout.
    ///
    /// # Errors
    /// When the socket refuses the setting.
    pub fn set_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.stream.get_ref().set_read_timeout(timeout)
    }
}

const HOST_ID: &[u8] = b"mancala host";
const JOINER_ID: &[u8] = b"mancala joiner";

/// The two directions' keys from SPAKE2's key and the handshake so far.
fn directions(key: &[u8], host_pake: &[u8], joiner_pake: &[u8]) -> (Direction, Direction) {
    let mut hash = Sha256::new();
    hash.update(b"mancala network session");
    hash.update(PROTOCOL_VERSION.to_be_bytes());
    hash.update(host_pake);
    hash.update(joiner_pake);
    let transcript: [u8; 32] = hash.finalize().into();
    let hkdf = Hkdf::<Sha256>::new(Some(&transcript), key);
    let direction = |label: &[u8]| {
        let mut okm = [0u8; 32];
        // 32 bytes is far below HKDF-SHA256's limit.
        let _ = hkdf.expand(label, &mut okm);
        Direction {
            cipher: ChaCha20Poly1305::new(Key::from_slice(&okm)),
            counter: 0,
            transcript,
        }
    };
    (direction(b"host to joiner"), direction(b"joiner to host"))
}

/// A connection during the handshake: every read and write waits only
/// for the time left before `deadline`.
struct Timed<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
}

impl Timed<'_> {
    fn left(&self) -> io::Result<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the handshake took too long",
            ));
        }
        Ok(left)
    }
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        (&mut &*self.stream).read(buf)
    }
}

impl Write for Timed<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        (&mut &*self.stream).write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn send_clear(stream: &mut Timed<'_>, hello: &Hello) -> Result<(), SessionError> {
    write_frame(stream, Kind::Clear, &encode(hello))?;
    Ok(())
}

fn read_clear(stream: &mut Timed<'_>) -> Result<Hello, SessionError> {
    match read_frame(stream)? {
        (Kind::Clear, body) => decode(&body).map_err(|_| SessionError::NotMancala),
        (Kind::Sealed, _) => Err(SessionError::NotMancala),
    }
}

/// The longest wait a host's refusal is taken at: a refusal in the clear
/// is unauthenticated, so its `retry_in` is clamped to 1 s ..= this. (This
/// program's host never asks for more than a try's refill,
/// [`super::gate::RESERVE`]'s and [`super::gate::PER_ADDRESS`]'s minute.)
pub const MAX_RETRY_IN: Duration = Duration::from_secs(120);

/// The error a refusal in the clear stands for.
fn refused(reason: Refusal, theirs: u32, retry_in: u32) -> SessionError {
    match reason {
        Refusal::WrongCode => SessionError::WrongCode,
        Refusal::Version => SessionError::Version(theirs),
        Refusal::TooManyTries => SessionError::TooManyTries(
            Duration::from_secs(u64::from(retry_in.max(1))).min(MAX_RETRY_IN),
        ),
    }
}

fn split(
    stream: TcpStream,
    send: Direction,
    recv: Direction,
) -> Result<(Sender, Receiver), SessionError> {
    let io = |e| SessionError::Frame(FrameError::Io(e));
    // The session has no deadline: its reader decides how long silence
    // may last.
    stream.set_read_timeout(None).map_err(io)?;
    stream.set_write_timeout(None).map_err(io)?;
    let reader = stream.try_clone().map_err(io)?;
    let open = Arc::new(AtomicBool::new(true));
    Ok((
        Sender {
            stream: BufWriter::new(stream),
            keys: send,
            open: Arc::clone(&open),
        },
        Receiver {
            stream: BufReader::new(reader),
            keys: recv,
            open,
        },
    ))
}

/// Tells a joiner that its code is not tried now, and why.
///
/// # Errors
/// The connection's failure.
pub fn refuse_tries(stream: &TcpStream, wait: Duration) -> Result<(), SessionError> {
    let mut timed = Timed {
        stream,
        deadline: Instant::now() + Duration::from_secs(1),
    };
    send_clear(
        &mut timed,
        &Hello::Refused {
            reason: Refusal::TooManyTries,
            retry_in: u32::try_from(super::gate::seconds(wait)).unwrap_or(u32::MAX),
        },
    )
}

/// The host's side of the handshake on an accepted connection, all of it
/// before `deadline`: the session and the joiner's first message (not yet
/// checked: the caller decides whether to welcome or refuse). The code is
/// checked only while `tries` has a try for the joiner's address.
///
/// # Errors
/// [`SessionError::WrongCode`], [`SessionError::Version`] and
/// [`SessionError::TooManyTries`] after telling the joiner so; anything
/// else that went wrong.
pub fn host_handshake(
    stream: TcpStream,
    code: &JoinCode,
    tries: &Tries,
    deadline: Instant,
) -> Result<(Sender, Receiver, ToHost), SessionError> {
    let io = |e| SessionError::Frame(FrameError::Io(e));
    stream.set_nodelay(true).map_err(io)?;
    let source = stream
        .peer_addr()
        .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
    let mut timed = Timed {
        stream: &stream,
        deadline,
    };
    let (spake, host_pake) = Spake2::<Ed25519Group>::start_b(
        &Password::new(code.password()),
        &Identity::new(JOINER_ID),
        &Identity::new(HOST_ID),
    );
    send_clear(
        &mut timed,
        &Hello::Host {
            game: GAME.into(),
            version: PROTOCOL_VERSION,
            pake: host_pake.clone(),
        },
    )?;
    let Hello::Joiner {
        game,
        version,
        pake,
    } = read_clear(&mut timed)?
    else {
        return Err(SessionError::NotMancala);
    };
    if game != GAME {
        return Err(SessionError::NotMancala);
    }
    if version != PROTOCOL_VERSION {
        // Not a guess at the code: no try is spent (a stranger could
        // otherwise spend everybody's tries at no cost of its own).
        let _ = send_clear(
            &mut timed,
            &Hello::Refused {
                reason: Refusal::Version,
                retry_in: 0,
            },
        );
        return Err(SessionError::Version(version));
    }
    let key = spake
        .finish(&pake)
        .map_err(|_| SessionError::Malformed("a key exchange message was malformed".into()))?;
    let (to_joiner, mut from_joiner) = directions(&key, &host_pake, &pake);
    let (kind, sealed) = read_frame(&mut timed)?;
    if kind != Kind::Sealed {
        return Err(SessionError::Frame(FrameError::Malformed));
    }
    let mut opened = None;
    let checked = tries.attempt(source, Instant::now(), || {
        opened = from_joiner.open(&sealed).ok();
        opened.is_some()
    });
    let (reason, retry_in, error) = match (checked, opened) {
        (Ok(true), Some(plain)) => {
            let first = decode::<ToHost>(&plain).map_err(SessionError::Malformed)?;
            let (sender, receiver) = split(stream, to_joiner, from_joiner)?;
            return Ok((sender, receiver, first));
        }
        (Err(wait), _) => (
            Refusal::TooManyTries,
            u32::try_from(super::gate::seconds(wait)).unwrap_or(u32::MAX),
            SessionError::TooManyTries(wait),
        ),
        _ => (Refusal::WrongCode, 0, SessionError::WrongCode),
    };
    let _ = send_clear(&mut timed, &Hello::Refused { reason, retry_in });
    Err(error)
}

/// The joiner's side of the handshake on a connection to the host, all of
/// it before `deadline`, sending `join` as the first sealed message: the
/// session and the host's first answer.
///
/// # Errors
/// [`SessionError::WrongCode`], [`SessionError::Version`] and
/// [`SessionError::TooManyTries`] when the host refuses; anything else
/// that went wrong.
pub fn join_handshake(
    stream: TcpStream,
    code: &JoinCode,
    join: &ToHost,
    deadline: Instant,
) -> Result<(Sender, Receiver, ToJoiner), SessionError> {
    stream
        .set_nodelay(true)
        .map_err(|e| SessionError::Frame(FrameError::Io(e)))?;
    let mut timed = Timed {
        stream: &stream,
        deadline,
    };
    let (game, version, host_pake) = match read_clear(&mut timed)? {
        Hello::Host {
            game,
            version,
            pake,
        } => (game, version, pake),
        Hello::Refused { reason, retry_in } => {
            return Err(refused(reason, PROTOCOL_VERSION, retry_in));
        }
        Hello::Joiner { .. } => return Err(SessionError::NotMancala),
    };
    if game != GAME {
        return Err(SessionError::NotMancala);
    }
    let (spake, pake) = Spake2::<Ed25519Group>::start_a(
        &Password::new(code.password()),
        &Identity::new(JOINER_ID),
        &Identity::new(HOST_ID),
    );
    send_clear(
        &mut timed,
        &Hello::Joiner {
            game: GAME.into(),
            version: PROTOCOL_VERSION,
            pake: pake.clone(),
        },
    )?;
    if version != PROTOCOL_VERSION {
        return Err(SessionError::Version(version));
    }
    let key = spake
        .finish(&host_pake)
        .map_err(|_| SessionError::Malformed("a key exchange message was malformed".into()))?;
    let (mut from_host, mut to_host) = directions(&key, &host_pake, &pake);
    write_frame(&mut timed, Kind::Sealed, &to_host.seal(&encode(join)))?;
    let first = match read_frame(&mut timed)? {
        (Kind::Clear, body) => {
            return Err(match decode::<Hello>(&body) {
                Ok(Hello::Refused { reason, retry_in }) => refused(reason, version, retry_in),
                _ => SessionError::NotMancala,
            });
        }
        (Kind::Sealed, body) => {
            let plain = from_host.open(&body)?;
            decode::<ToJoiner>(&plain).map_err(SessionError::Malformed)?
        }
    };
    let (sender, receiver) = split(stream, to_host, from_host)?;
    Ok((sender, receiver, first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    type Session<T> = Result<(Sender, Receiver, T), SessionError>;

    fn soon() -> Instant {
        Instant::now() + HANDSHAKE_TIMEOUT
    }

    fn pair(host_code: JoinCode, joiner_code: JoinCode) -> (Session<ToHost>, Session<ToJoiner>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let host = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            host_handshake(stream, &host_code, &Tries::default(), soon())
        });
        let stream = TcpStream::connect(addr).unwrap();
        let joiner = std::thread::spawn(move || {
            join_handshake(
                stream,
                &joiner_code,
                &ToHost::Join {
                    name: "Michael".into(),
                    seat_key: None,
                },
                soon(),
            )
        });
        let mut host = host.join().unwrap();
        // Answer the join so that the joiner's handshake can finish.
        if let Ok((sender, _, _)) = &mut host {
            sender.send(&ToJoiner::Ping).unwrap();
        }
        (host, joiner.join().unwrap())
    }

    #[test]
    fn the_same_code_opens_a_session_both_ways() {
        let code = JoinCode::random();
        let (host, joiner) = pair(code, code);
        let (mut hs, mut hr, first) = host.unwrap();
        assert_eq!(
            first,
            ToHost::Join {
                name: "Michael".into(),
                seat_key: None,
            }
        );
        let (mut js, mut jr, answer) = joiner.unwrap();
        assert_eq!(answer, ToJoiner::Ping);
        js.send(&ToHost::Leave).unwrap();
        assert_eq!(hr.recv::<ToHost>().unwrap(), ToHost::Leave);
        hs.send(&ToJoiner::Finished).unwrap();
        assert_eq!(jr.recv::<ToJoiner>().unwrap(), ToJoiner::Finished);
    }

    #[test]
    fn a_wrong_code_is_told_to_both() {
        let code: JoinCode = "7-guitar-orbit".parse().unwrap();
        let other: JoinCode = "7-guitar-otter".parse().unwrap();
        let (host, joiner) = pair(code, other);
        assert!(matches!(host, Err(SessionError::WrongCode)));
        assert!(matches!(joiner, Err(SessionError::WrongCode)));
    }

    #[test]
    fn a_handshake_that_drips_ends_at_its_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut drip = TcpStream::connect(addr).unwrap();
        let (stream, _) = listener.accept().unwrap();
        let dripping = std::thread::spawn(move || {
            // One byte of a long frame every 50 ms: each read is quick,
            // the handshake is not.
            let _ = drip.write_all(&[0x0f]);
            for _ in 0..40 {
                std::thread::sleep(Duration::from_millis(50));
                if drip.write_all(b"C").is_err() {
                    return;
                }
            }
        });
        let start = Instant::now();
        let code = JoinCode::random();
        let ended = host_handshake(
            stream,
            &code,
            &Tries::default(),
            start + Duration::from_millis(300),
        );
        let took = start.elapsed();
        assert!(matches!(ended, Err(SessionError::Frame(_))));
        assert!(took < Duration::from_millis(900), "{took:?}");
        dripping.join().unwrap();
    }

    #[test]
    fn no_try_left_means_the_code_is_not_checked() {
        let code = JoinCode::random();
        let tries = std::sync::Arc::new(Tries::new(
            crate::net::gate::Rate {
                burst: 1,
                every: Duration::from_secs(60),
            },
            crate::net::gate::OVERALL,
            crate::net::gate::RESERVE,
        ));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let host_tries = std::sync::Arc::clone(&tries);
        let host = std::thread::spawn(move || {
            (0..2)
                .map(|_| {
                    let (stream, _) = listener.accept().unwrap();
                    host_handshake(stream, &code, &host_tries, soon()).map(|_| ())
                })
                .collect::<Vec<_>>()
        });
        let join = |code: JoinCode| {
            join_handshake(
                TcpStream::connect(addr).unwrap(),
                &code,
                &ToHost::Join {
                    name: "Michael".into(),
                    seat_key: None,
                },
                soon(),
            )
            .map(|_| ())
        };
        let wrong: JoinCode = "7-guitar-orbit".parse().unwrap();
        let wrong = if wrong == code {
            "8-guitar-orbit".parse().unwrap()
        } else {
            wrong
        };
        assert!(matches!(join(wrong), Err(SessionError::WrongCode)));
        // Even the right code is not tried now, and the joiner is told
        // when to come back.
        assert!(matches!(
            join(code),
            Err(SessionError::TooManyTries(wait)) if wait == Duration::from_secs(60)
        ));
        let ends = host.join().unwrap();
        assert!(matches!(ends[0], Err(SessionError::WrongCode)));
        assert!(matches!(ends[1], Err(SessionError::TooManyTries(_))));
    }

    #[test]
    fn a_refusals_wait_is_clamped() {
        for (asked, taken) in [(0, 1), (30, 30), (u32::MAX, MAX_RETRY_IN.as_secs())] {
            let SessionError::TooManyTries(wait) = refused(Refusal::TooManyTries, 0, asked) else {
                panic!("{asked}");
            };
            assert_eq!(wait, Duration::from_secs(taken), "{asked}");
        }
    }

    #[test]
    fn replayed_and_altered_messages_fail_to_open() {
        let (_, one) = directions(&[7; 32], b"h", b"j");
        let (_, mut other) = directions(&[7; 32], b"h", b"j");
        let (_, mut third) = directions(&[7; 32], b"h", b"j");
        let mut sealer = one;
        let first = sealer.seal(b"one");
        let second = sealer.seal(b"two");
        assert_eq!(other.open(&first).unwrap(), b"one");
        assert!(
            matches!(other.open(&first), Err(SessionError::Forged)),
            "replay"
        );
        assert_eq!(other.open(&second).unwrap(), b"two");
        let mut altered = first.clone();
        altered[0] ^= 1;
        assert!(matches!(third.open(&altered), Err(SessionError::Forged)));
        let (_, mut wrong_key) = directions(&[8; 32], b"h", b"j");
        assert!(matches!(wrong_key.open(&first), Err(SessionError::Forged)));
    }
}
