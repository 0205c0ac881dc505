//! Who may take the joiner's seat: holding the code and the name is not
//! enough while the seat is in use.
//!
//! The host gives the joiner's program a random seat key in each welcome
//! ([`super::message::ToJoiner::Welcome`]); the program keeps it in memory
//! and shows it when it reconnects ([`super::message::ToHost::Join`]).
//!
//! - The right key takes the seat back at once, even while the host still
//!   holds the old connection (which is then closed): the same program
//!   came back.
//! - Without it, the seat is taken only when it is free (nobody connected,
//!   or the connection has ended): then the newcomer, say the friend who
//!   started `mancala join` again, gets a new key, and the host's player
//!   is told. While a connection holds the seat, the newcomer is refused.

use chacha20poly1305::aead::OsRng;
use chacha20poly1305::aead::rand_core::RngCore;

/// The longest seat key accepted, in bytes (a key is 32 hex digits).
const MAX_KEY: usize = 64;

/// The key of the joiner's seat, if it was given.
#[derive(Debug, Default)]
pub struct SeatKeeper {
    key: Option<String>,
}

/// Whether a joiner may take the seat.
#[derive(Debug, PartialEq, Eq)]
pub enum Admission {
    /// It showed the seat's key: the same program came back.
    Back,
    /// The seat is free (or was never taken): it takes it with this new
    /// key, which [`SeatKeeper::seat`] keeps once it is welcomed.
    Newcomer(String),
    /// A live connection holds the seat and the key was not shown.
    Taken,
}

impl SeatKeeper {
    /// Whether a joiner that showed `offered` may take the seat, which a
    /// live connection holds when `in_use`. Nothing changes until
    /// [`SeatKeeper::seat`].
    #[must_use]
    pub fn admit(&self, offered: Option<&str>, in_use: bool) -> Admission {
        let shown = offered.filter(|k| k.len() <= MAX_KEY);
        match (&self.key, shown) {
            (Some(key), Some(shown)) if same(key.as_bytes(), shown.as_bytes()) => Admission::Back,
            _ if in_use && self.key.is_some() => Admission::Taken,
            _ => Admission::Newcomer(new_key()),
        }
    }

    /// Keeps the key of the joiner just welcomed after `admission`.
    pub fn seat(&mut self, admission: Admission) {
        if let Admission::Newcomer(key) = admission {
            self.key = Some(key);
        }
    }

    /// The seat's key, to send in each welcome ("" before any).
    #[must_use]
    pub fn key(&self) -> &str {
        self.key.as_deref().unwrap_or("")
    }
}

/// A new random key: 16 bytes from the operating system, in hex.
fn new_key() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    crate::store::files::hex(&bytes)
}

/// Compares in a time that does not depend on where two keys differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_key_takes_a_seat_in_use() {
        let mut keeper = SeatKeeper::default();
        // The first joiner gets a key.
        let first = keeper.admit(None, false);
        let Admission::Newcomer(key) = &first else {
            panic!("{first:?}")
        };
        let key = key.clone();
        assert_eq!(key.len(), 32);
        keeper.seat(first);
        assert_eq!(keeper.key(), key);
        // Its program comes back with it, in use or not.
        assert_eq!(keeper.admit(Some(&key), true), Admission::Back);
        assert_eq!(keeper.admit(Some(&key), false), Admission::Back);
        // Another program without it, or with a wrong one, is refused
        // while the seat is in use.
        assert_eq!(keeper.admit(None, true), Admission::Taken);
        let mut wrong = key.clone();
        wrong.replace_range(0..1, if key.starts_with('0') { "1" } else { "0" });
        assert_eq!(keeper.admit(Some(&wrong), true), Admission::Taken);
        assert_eq!(
            keeper.admit(Some(&"a".repeat(10_000)), true),
            Admission::Taken
        );
        // A free seat goes to the newcomer, with a new key; the old key
        // no longer works.
        let newcomer = keeper.admit(None, false);
        assert!(matches!(&newcomer, Admission::Newcomer(k) if *k != key));
        keeper.seat(newcomer);
        assert_eq!(keeper.admit(Some(&key), true), Admission::Taken);
        assert_ne!(new_key(), new_key());
    }
}
