//! Latency of the network game on loopback: one confirmed move's round
//! trip through the real session (SPAKE2-keyed ChaCha20-Poly1305, frames,
//! JSON), the host's session as the referee (turn and rules check, then
//! the confirmation once it has played the move) and the joiner's
//! follower (its own session plays the kept move by the rules). Each
//! iteration: the joiner proposes a move, the host validates it and sends
//! the kept move and the joiner's next question, the joiner plays the move.
//! Both ends then start again from the same position.

use std::net::{SocketAddr, TcpListener};
use std::thread;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use mancala::game::{FirstMover, Match, MatchConfig, Seat};
use mancala::net::code::JoinCode;
use mancala::net::gate::Tries;
use mancala::net::hosted::{Happening, Hosted, referee};
use mancala::net::link;
use mancala::net::message::{At, Snapshot, ToHost, ToJoiner};
use mancala::net::play::{Followed, Follower};
use mancala::net::session::{HANDSHAKE_TIMEOUT, host_handshake};
use mancala::players::PlayerKind;
use mancala::rules::{NoTrace, Rules};
use mancala::session::Session;
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
                state: Box::new(Snapshot::of(&position(), false)),
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
            let mut session = referee(position(), Keeper::new(None), false);
            for reply in Hosted::default()
                .remote(&mut session, message)
                .unwrap()
                .send
            {
                sender.send(&reply).unwrap();
            }
        }
    });
    let (mut sender, mut receiver, welcome) =
        link::connect(&[addr], &code, "Michael", None).unwrap();
    let ToJoiner::Welcome { state, .. } = welcome else {
        panic!("{welcome:?}")
    };
    let at = At::of(&state.to_match().unwrap());
    let mut group = c.benchmark_group("net");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("confirmed_move_round_trip_loopback", |b| {
        b.iter(|| {
            let mut session = Session::following(state.to_match().unwrap(), Keeper::new(None));
            sender.send(&ToHost::Move { at, pit: 'h' }).unwrap();
            let confirmed = receiver.recv::<ToJoiner>().unwrap();
            let shown = Follower::default().follow(&mut session, confirmed).unwrap();
            assert!(
                matches!(&shown, Followed::Happened(h) if matches!(h[..], [Happening::Moved(_)])),
                "{shown:?}"
            );
            let asked = receiver.recv::<ToJoiner>().unwrap();
            assert!(matches!(asked, ToJoiner::Asked { .. }), "{asked:?}");
        });
    });
    group.finish();
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
