//! The network decoders against arbitrary bytes and arbitrary messages:
//! they never panic, and a message the host refuses never changes its
//! match (its session).

use mancala::game::{FirstMover, Match, MatchConfig, Seat};
use mancala::net::frame::read_frame;
use mancala::net::hosted::{Hosted, referee};
use mancala::net::message::{At, Hello, Snapshot, ToHost, ToJoiner, decode};
use mancala::net::play::Follower;
use mancala::players::PlayerKind;
use mancala::rules::{NoTrace, Rules};
use mancala::session::Session;
use mancala::store::Keeper;

use crate::common::cases::{Rng, any_char, any_string, byte, for_all, int, list, one_of};

/// The host's match after `moves` moves (each side's first legal pit),
/// kept nowhere: its session, the referee, and what only a network match
/// adds to it.
fn hosted(moves: usize) -> (Hosted, Session) {
    let config = MatchConfig {
        game: mancala::rules::Game::Kalah,
        rules: Rules::new(4, 3).unwrap(),
        seats: [
            Seat::new("Alice", PlayerKind::Human),
            Seat::new("Michael", PlayerKind::Network),
        ],
        first: FirstMover::Alternate,
        start: None,
    };
    let mut m = Match::new(config, 1);
    for _ in 0..moves {
        if let Some(pit) = m.board().legal_moves().next() {
            m.play(pit, &mut NoTrace).unwrap();
        }
    }
    (Hosted::default(), referee(m, Keeper::new(None), false))
}

fn to_host(rng: &mut Rng) -> ToHost {
    let at = |rng: &mut Rng| At {
        round: int(rng, 0, 3) as u32,
        ply: int(rng, 0, 11) as u32,
    };
    match rng.below(8) {
        0 => ToHost::Join {
            name: any_string(rng, 0, 40),
            seat_key: None,
        },
        1 => ToHost::Move {
            at: at(rng),
            pit: any_char(rng),
        },
        2 => ToHost::Move {
            at: at(rng),
            pit: one_of(rng, &['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']),
        },
        3 => ToHost::Undo { at: at(rng) },
        4 => ToHost::UndoAnswer {
            at: at(rng),
            yes: rng.coin(),
        },
        5 => ToHost::Again { yes: rng.coin() },
        6 => ToHost::Ping,
        _ => ToHost::Leave,
    }
}

/// Cases for each property.
const CASES: u64 = 512;

#[test]
fn arbitrary_bytes_never_panic_a_decoder() {
    for_all(
        CASES,
        |rng| list(rng, 0, 599, byte),
        |bytes| {
            let _ = decode::<ToHost>(&bytes);
            let _ = decode::<ToJoiner>(&bytes);
            let _ = decode::<Hello>(&bytes);
            let mut input = &bytes[..];
            while read_frame(&mut input).is_ok() {}
        },
    );
}

#[test]
fn json_shaped_noise_never_panics_a_decoder() {
    const KINDS: [&str; 14] = [
        "join",
        "move",
        "undo",
        "undo-answer",
        "again",
        "ping",
        "leave",
        "welcome",
        "moved",
        "took-back",
        "asked",
        "next-round",
        "move-refused",
        "error",
    ];
    let printable = |rng: &mut Rng| char::from(b' ' + int(rng, 0, 94) as u8);
    let draw = |rng: &mut Rng| {
        (
            one_of(rng, &KINDS),
            list(rng, 0, 80, printable).into_iter().collect::<String>(),
        )
    };
    for_all(CASES, draw, |(kind, body)| {
        let text = format!("{{\"type\":\"{kind}\",{body}}}");
        let _ = decode::<ToHost>(text.as_bytes());
        if let Ok(message) = decode::<ToJoiner>(text.as_bytes()) {
            let m = Snapshot::of(hosted(3).1.current(), false)
                .to_match()
                .unwrap();
            let mut session = Session::following(m, Keeper::new(None));
            let _ = Follower::default().follow(&mut session, message);
        }
    });
}

#[test]
fn a_refused_message_never_changes_the_hosts_match() {
    for_all(
        CASES,
        |rng| (int(rng, 0, 5), list(rng, 1, 7, to_host)),
        |(played, messages)| {
            let (mut h, mut s) = hosted(played);
            for message in messages {
                let state = |s: &Session| {
                    let m = s.current();
                    (*m.board(), m.moves().to_vec(), *m.tally(), m.round())
                };
                let before = state(&s);
                if h.remote(&mut s, message.clone()).is_err() {
                    assert_eq!(&before, &state(&s), "{message:?}");
                }
                // Nothing is kept unsaved here: the joiner is told of all.
                assert!(!s.is_behind());
            }
        },
    );
}

#[test]
fn arbitrary_snapshots_are_checked_not_trusted() {
    let draw = |rng: &mut Rng| {
        let game = match rng.below(3) {
            0 => "kalah".to_string(),
            1 => "oware".to_string(),
            _ => list(rng, 0, 8, |rng| char::from(b'a' + int(rng, 0, 25) as u8))
                .into_iter()
                .collect(),
        };
        let letter_or_comma = |rng: &mut Rng| match rng.below(27) {
            26 => ',',
            k => char::from(b'a' + k as u8),
        };
        let moves = list(rng, 0, 40, letter_or_comma).into_iter().collect();
        Snapshot {
            game,
            pits: byte(rng),
            seeds: byte(rng),
            capture: "always".into(),
            sowing: "single".into(),
            sweep: "owner".into(),
            first: "alternate".into(),
            names: [any_string(rng, 0, 40), any_string(rng, 0, 40)],
            round: rng.next_u64() as u32,
            starter: mancala::rules::Side::South,
            earlier: [
                rng.next_u64() as u32,
                rng.next_u64() as u32,
                rng.next_u64() as u32,
            ],
            moves,
            pie_rule: rng.coin(),
            swapped: rng.coin().then(|| int(rng, 0, 49) as u32),
        }
    };
    for_all(CASES, draw, |snapshot| {
        let pits = snapshot.pits;
        if let Ok(m) = snapshot.to_match() {
            assert!(m.rules().pits() == usize::from(pits));
            assert!(
                !m.name(mancala::rules::Side::North)
                    .chars()
                    .any(char::is_control)
            );
        }
    });
}
