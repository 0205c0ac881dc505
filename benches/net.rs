//! Latency of the network game on loopback: one confirmed move's round
//! trip through the real session (SPAKE2-keyed ChaCha20-Poly1305, frames,
//! JSON), the host's session as the referee (turn and rules check, then
//! the confirmation once it has played the move) and the joiner's mirror (board
//! check). Each iteration: the joiner proposes a move, the host validates
//! and confirms it with the resulting board, the joiner plays it back and
//! compares boards. Both ends then start again from the same position.

use std::net::{SocketAddr, TcpListener};
use std::thread;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use mancala::game::{FirstMover, Match, MatchConfig, Seat};
use mancala::net::code::JoinCode;
use mancala::net::gate::Tries;
use mancala::net::hosted::Hosted;
use mancala::net::link;
use mancala::net::message::{At, Snapshot, ToHost, ToJoiner};
use mancala::net::mirror::Mirror;
use mancala::net::session::{HANDSHAKE_TIMEOUT, host_handshake};
use mancala::players::PlayerKind;
use mancala::rules::{NoTrace, Rules};
use mancala::store::Keeper;

/// A match where it is the joiner's (North's) turn.
fn position() -> Match {
    let config = MatchConfig {
        game: mancala::rules::Game::Kalah,
        rules: Rules::KALAH,
        seats: [
            Seat::new("Alice", PlayerKind::Human),
            Seat::new("Michael", PlayerKind::Network),
        ],
        first: FirstMover::South,
        start: None,
    };
    let mut m = Match::new(config, 1);
    m.play(Rules::KALAH.pit_by_letter('a').unwrap(), &mut NoTrace)
        .unwrap();
    m
}

fn round_trip(c: &mut Criterion) {
    let code = JoinCode::random();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let deadline = std::time::Instant::now() + HANDSHAKE_TIMEOUT;
        let (mut sender, mut receiver, _) =
            host_handshake(stream, &code, &Tries::default(), deadline).unwrap();
        sender
            .send(&ToJoiner::Welcome {
                state: Snapshot::of(&position()),
                resumed: false,
                seat_key: String::new(),
            })
            .unwrap();
        loop {
            let Ok(message) = receiver.recv::<ToHost>() else {
                return;
            };
            // The host's session checks the move, plays it (kept
            // nowhere here) and confirms it.
            let mut hosted = Hosted::new(position(), Keeper::new(None));
            for reply in hosted.remote(message).unwrap().send {
                sender.send(&reply).unwrap();
            }
        }
    });
    let (mut sender, mut receiver, welcome) =
        link::connect(&[addr], &code, "Michael", None).unwrap();
    let ToJoiner::Welcome { state, .. } = welcome else {
        panic!("{welcome:?}")
    };
    let start = Mirror::new(&state).unwrap();
    let at = At::of(start.game());
    let mut group = c.benchmark_group("net");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("confirmed_move_round_trip_loopback", |b| {
        b.iter(|| {
            let mut mirror = start.clone();
            sender.send(&ToHost::Move { at, pit: 'h' }).unwrap();
            let confirmed = receiver.recv::<ToJoiner>().unwrap();
            let shown = mirror.apply(confirmed).unwrap();
            assert!(!shown.is_empty());
        });
    });
    group.finish();
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
