//! Playing a friend on another machine: `mancala host` and `mancala join`.
//!
//! # Where this sits
//!
//! `rules` → `players` → `game` → **`net`** → front ends (`plain`, `tui`)
//! → `commands`. This module knows the match ([`crate::game::Match`]) and
//! its keeper, and nothing about screens: it turns bytes on a socket into
//! typed messages and back, and the host's [`hosted`] match (a
//! [`crate::session::Session`]) is the referee of every message. The front
//! ends show what happened.
//!
//! # The layers, bottom up
//!
//! - [`code`]: the short join code, `7-guitar-orbit`, new for each match.
//! - [`frame`]: length-prefixed frames with a small size limit
//!   ([`frame::MAX_FRAME`]); a longer length ends the connection before a
//!   byte of it is read.
//! - [`message`]: what the two programs say, as JSON in frames; every
//!   decoded value is checked (names, letters, counts) before it is used.
//! - [`session`]: the versioned handshake, SPAKE2 over the join code
//!   (the `spake2` crate), then ChaCha20-Poly1305 (the `chacha20poly1305`
//!   crate) with one key per direction derived by HKDF-SHA256 from the
//!   PAKE's key and a hash of the handshake. Each direction counts its
//!   messages; the count is the nonce, so a replayed, reordered or altered
//!   message fails to open and ends the connection.
//! - [`hosted`]: the host's match: its session checks every proposed move
//!   (whose turn, the rules), saves it through the
//!   [`crate::store::Keeper`] *before* confirming it, and tells the
//!   joiner what it kept as typed events ([`message::ToJoiner`]).
//! - [`gate`]: the host's door: handshakes at once (bounded, each with a
//!   deadline), tries at the code (token buckets per address and in all),
//!   and one line per kind of turned-away connection a minute.
//! - [`seat`]: the seat key that only the joiner's program knows, which
//!   it shows to take its seat back.
//! - [`link`]: sockets and threads: the host's listener (handshakes side by
//!   side, through the [`gate`]) and the joiner's connection, each feeding
//!   one channel of events ([`link::HostEvent`]s and the messages read by
//!   [`link::spawn_reader`]) that a front end's loop reads.
//!
//! # What is protected
//!
//! Nobody without the code can join, read the moves or change them in
//! flight: a guess at the code is one online try that costs a whole key
//! exchange, and the host tries at most one wrong code a minute from one
//! address, and in all two a minute plus a reserve of one a minute for
//! addresses that have never tried a wrong code ([`gate::Tries`]). Nobody
//! without the code can keep the friend out for long either: handshakes
//! run side by side, each with a deadline, and a full house closes the
//! oldest handshake of the busiest address; one guessing address spends
//! only its own tries, and strangers at several addresses who spend
//! everybody's leave the friend the reserve. (An attacker with a new
//! address for every try can spend that too: then the friend is told when
//! to try again, a wait the joiner clamps to [`session::MAX_RETRY_IN`]
//! and its `--reconnect` time.) Holding the code and the name is not enough to take the
//! joiner's seat while its program is connected: that takes the seat key
//! ([`seat`]). Not hidden: that two machines talk, when, and how much (the
//! frame sizes). A player who has the code is trusted only to make legal
//! moves in turn: anything else ends their connection.

pub mod code;
pub mod frame;
pub mod gate;
pub mod hosted;
pub mod link;
pub mod message;
pub mod play;
pub mod resume;
pub mod seat;
pub mod session;

/// The protocol this program speaks. Programs talk only when their
/// protocols are equal: [`session`] checks it first, in the clear.
/// (4: the host sends its session's events, moves as who and which pit
/// with no board, and the question open for the joiner; 5: a move that
/// crossed the host's take-back request is refused, typed; 6: the pie
/// rule, its question and swap, and the seats apart from the sides in
/// the snapshot.)
pub const PROTOCOL_VERSION: u32 = 6;

/// The port `mancala host` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7531;

/// The longest sentence from the other program that is shown, in
/// characters.
pub const MAX_REMOTE_TEXT: usize = 300;

/// The sentence a player reads when the other program speaks another
/// protocol.
#[must_use]
pub fn version_mismatch(theirs: u32) -> String {
    format!(
        "The other program speaks mancala network protocol {theirs} and this one speaks protocol {PROTOCOL_VERSION}: only programs that speak the same protocol play together, so both players need the same mancala version."
    )
}

/// A name received from the network, made safe to print and keep as any
/// name is ([`crate::game::names::checked_name`]: no control or formatting
/// characters, trimmed, at most
/// [`MAX_NAME_GRAPHEMES`](crate::game::names::MAX_NAME_GRAPHEMES)
/// characters). `None` when nothing is left.
#[must_use]
pub fn clean_remote_name(name: &str) -> Option<String> {
    crate::game::names::checked_name(name).ok()
}

/// A sentence received from the network, safe to show: unsafe characters
/// escaped, at most [`MAX_REMOTE_TEXT`] characters.
#[must_use]
pub fn remote_text(text: &str) -> String {
    crate::escape::escaped(text, MAX_REMOTE_TEXT)
}

/// Text made from what the other program sent (a decoder's complaint, an
/// error), cleaned by [`remote_text`] when it is made: the only way to
/// make one is [`RemoteText::new`], so whatever prints it later cannot
/// forget to clean it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteText(String);

impl RemoteText {
    /// `text`, cleaned.
    #[must_use]
    pub fn new(text: &str) -> RemoteText {
        RemoteText(remote_text(text))
    }

    /// The cleaned text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for RemoteText {
    fn from(text: &str) -> RemoteText {
        RemoteText::new(text)
    }
}

impl std::ops::Deref for RemoteText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for RemoteText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_names_lose_control_characters_and_length() {
        let name = clean_remote_name(" Mi\u{1b}[2Jchael\n").unwrap();
        assert!(!name.contains('\u{1b}'), "{name}");
        assert_eq!(clean_remote_name("\u{7}\t "), None);
        let long = "x".repeat(100);
        assert_eq!(
            clean_remote_name(&long).unwrap().len(),
            crate::game::names::MAX_NAME_GRAPHEMES
        );
        let text = remote_text(&format!("\u{1b}[2J{}", "y".repeat(1000)));
        assert!(!text.contains('\u{1b}') && text.chars().count() < 2 * MAX_REMOTE_TEXT);
    }
}
