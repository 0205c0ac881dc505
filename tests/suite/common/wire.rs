//! Messages a test sends by hand to a host: the hello of a program of
//! another protocol version.

use mancala::net::message::Hello;

/// The protocol version of the made-up other program.
pub const OTHER_VERSION: u32 = 9;

/// The joiner's hello of a program that speaks [`OTHER_VERSION`], as the
/// bytes of a clear frame.
#[must_use]
pub fn other_version_hello() -> Vec<u8> {
    serde_json::to_vec(&Hello::Joiner {
        game: "mancala".into(),
        version: OTHER_VERSION,
        pake: vec![],
    })
    .unwrap()
}
