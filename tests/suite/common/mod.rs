//! What the integration tests share: an independent oracle of the rules
//! ([`oracle`]), property tests' cases ([`cases`]), a scratch folder
//! removed on drop ([`scratch`]), the
//! real binary driven in a real terminal ([`tmux`]) and messages sent by
//! hand ([`wire`]).
//! Each test crate uses only some of it.

#![allow(dead_code)]

pub mod cases;
pub mod oracle;
pub mod program;
pub mod scratch;
pub mod tmux;
pub mod wire;

#[allow(unused_imports)]
pub use oracle::Oracle;
