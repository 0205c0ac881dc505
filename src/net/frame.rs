//! Frames: a two-byte big-endian length, then that many bytes. The first
//! byte of a frame says what it holds ([`Kind`]).
//!
//! A frame is at most [`MAX_FRAME`] bytes: the longest message of a match
//! (a whole round's moves) is far smaller. A longer length is refused
//! before any of its bytes are read, so a peer cannot make the program
//! hold more than one small buffer.

use std::io::{self, Read, Write};

/// The largest frame accepted, in bytes (after the length).
pub const MAX_FRAME: usize = 4096;

/// What a frame holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A handshake message in the clear (JSON).
    Clear,
    /// A message sealed with the session's key.
    Sealed,
}

impl Kind {
    const fn byte(self) -> u8 {
        match self {
            Kind::Clear => b'C',
            Kind::Sealed => b'S',
        }
    }
}

/// Why a frame could not be read or written.
#[derive(Debug)]
pub enum FrameError {
    /// The connection closed before a frame started.
    Closed,
    /// The connection failed, timed out or closed inside a frame.
    Io(io::Error),
    /// The length announced is over [`MAX_FRAME`].
    TooLarge(usize),
    /// An empty frame, or one of an unknown kind.
    Malformed,
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Closed => f.write_str("the connection was closed"),
            FrameError::Io(e) if is_timeout(e) => f.write_str("the connection went silent"),
            FrameError::Io(e) => write!(f, "the connection failed ({e})"),
            FrameError::TooLarge(n) => write!(
                f,
                "a message of {n} bytes was refused (the limit is {MAX_FRAME})"
            ),
            FrameError::Malformed => f.write_str("a message was not a mancala frame"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Whether an I/O error is a read or write timeout.
#[must_use]
pub fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Writes one frame of `kind` holding `body`.
///
/// # Errors
/// [`FrameError::TooLarge`] for a body over the limit (nothing is
/// written), else the connection's failure.
pub fn write_frame(out: &mut impl Write, kind: Kind, body: &[u8]) -> Result<(), FrameError> {
    let len = body.len() + 1;
    if len > MAX_FRAME {
        return Err(FrameError::TooLarge(len));
    }
    let mut buf = Vec::with_capacity(len + 2);
    buf.extend_from_slice(&u16::try_from(len).unwrap_or(u16::MAX).to_be_bytes());
    buf.push(kind.byte());
    buf.extend_from_slice(body);
    out.write_all(&buf).map_err(FrameError::Io)?;
    out.flush().map_err(FrameError::Io)
}

/// Reads one frame: its kind and body.
///
/// # Errors
/// [`FrameError::Closed`] at a clean end, [`FrameError::TooLarge`] and
/// [`FrameError::Malformed`] for what is not a frame, else the
/// connection's failure.
pub fn read_frame(input: &mut impl Read) -> Result<(Kind, Vec<u8>), FrameError> {
    let mut len = [0u8; 2];
    match input.read(&mut len[..1]) {
        Ok(0) => return Err(FrameError::Closed),
        Ok(_) => {}
        Err(e) => return Err(FrameError::Io(e)),
    }
    input.read_exact(&mut len[1..]).map_err(FrameError::Io)?;
    let len = usize::from(u16::from_be_bytes(len));
    if len > MAX_FRAME {
        return Err(FrameError::TooLarge(len));
    }
    if len == 0 {
        return Err(FrameError::Malformed);
    }
    let mut body = vec![0u8; len];
    input.read_exact(&mut body).map_err(FrameError::Io)?;
    let kind = match body[0] {
        b'C' => Kind::Clear,
        b'S' => Kind::Sealed,
        _ => return Err(FrameError::Malformed),
    };
    body.remove(0);
    Ok((kind, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_go_through_and_limits_hold() {
        let mut wire = Vec::new();
        write_frame(&mut wire, Kind::Clear, b"hello").unwrap();
        write_frame(&mut wire, Kind::Sealed, &[]).unwrap();
        let mut input = &wire[..];
        assert_eq!(
            read_frame(&mut input).unwrap(),
            (Kind::Clear, b"hello".to_vec())
        );
        assert_eq!(read_frame(&mut input).unwrap(), (Kind::Sealed, Vec::new()));
        assert!(matches!(read_frame(&mut input), Err(FrameError::Closed)));

        let big = vec![0u8; MAX_FRAME];
        assert!(matches!(
            write_frame(&mut Vec::new(), Kind::Clear, &big),
            Err(FrameError::TooLarge(_))
        ));
        let mut input: &[u8] = &[0xff, 0xff, b'C'];
        assert!(matches!(
            read_frame(&mut input),
            Err(FrameError::TooLarge(65535))
        ));
        let mut input: &[u8] = &[0, 0];
        assert!(matches!(read_frame(&mut input), Err(FrameError::Malformed)));
        let mut input: &[u8] = &[0, 2, b'X', 1];
        assert!(matches!(read_frame(&mut input), Err(FrameError::Malformed)));
        let mut input: &[u8] = &[0, 9, b'C'];
        assert!(matches!(read_frame(&mut input), Err(FrameError::Io(_))));
    }
}
