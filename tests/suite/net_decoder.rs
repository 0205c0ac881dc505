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
use proptest::prelude::*;

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

fn to_host() -> impl Strategy<Value = ToHost> {
    let at = (0u32..4, 0u32..12).prop_map(|(round, ply)| At { round, ply });
    prop_oneof![
        ".{0,40}".prop_map(|name| ToHost::Join {
            name,
            seat_key: None
        }),
        (at.clone(), any::<char>()).prop_map(|(at, pit)| ToHost::Move { at, pit }),
        (at.clone(), proptest::char::range('a', 'j'))
            .prop_map(|(at, pit)| ToHost::Move { at, pit }),
        at.clone().prop_map(|at| ToHost::Undo { at }),
        (at, any::<bool>()).prop_map(|(at, yes)| ToHost::UndoAnswer { at, yes }),
        any::<bool>().prop_map(|yes| ToHost::Again { yes }),
        Just(ToHost::Ping),
        Just(ToHost::Leave),
    ]
}

proptest! {
    // XorShift: the default ChaCha, unoptimised in the tests' profile,
    // took most of these tests' time.
    #![proptest_config(ProptestConfig {
        cases: 512,
        rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes_never_panic_a_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = decode::<ToHost>(&bytes);
        let _ = decode::<ToJoiner>(&bytes);
        let _ = decode::<Hello>(&bytes);
        let mut input = &bytes[..];
        while read_frame(&mut input).is_ok() {}
    }

    #[test]
    fn json_shaped_noise_never_panics_a_decoder(
        kind in "(join|move|undo|undo-answer|again|ping|leave|welcome|moved|took-back|asked|next-round|move-refused|error)",
        body in "[ -~]{0,80}",
    ) {
        let text = format!("{{\"type\":\"{kind}\",{body}}}");
        let _ = decode::<ToHost>(text.as_bytes());
        if let Ok(message) = decode::<ToJoiner>(text.as_bytes()) {
            let m = Snapshot::of(hosted(3).1.current(), false).to_match().unwrap();
            let mut session = Session::following(m, Keeper::new(None));
            let _ = Follower::default().follow(&mut session, message);
        }
    }

    #[test]
    fn a_refused_message_never_changes_the_hosts_match(
        played in 0usize..6,
        messages in proptest::collection::vec(to_host(), 1..8),
    ) {
        let (mut h, mut s) = hosted(played);
        for message in messages {
            let state = |s: &Session| {
                let m = s.current();
                (*m.board(), m.moves().to_vec(), *m.tally(), m.round())
            };
            let before = state(&s);
            if h.remote(&mut s, message.clone()).is_err() {
                prop_assert_eq!(&before, &state(&s), "{:?}", message);
            }
            // Nothing is kept unsaved here: the joiner is told of all.
            prop_assert!(!s.is_behind());
        }
    }

    #[test]
    fn arbitrary_snapshots_are_checked_not_trusted(
        pits in any::<u8>(), seeds in any::<u8>(),
        names in proptest::array::uniform2(".{0,40}"),
        round in any::<u32>(), moves in "[a-z,]{0,40}",
        earlier in proptest::array::uniform3(any::<u32>()),
        game in "(kalah|oware|[a-z]{0,8})",
        pie_rule in any::<bool>(), swapped in proptest::option::of(0u32..50),
    ) {
        let snapshot = Snapshot {
            game, pits, seeds,
            capture: "always".into(), sowing: "single".into(), sweep: "owner".into(),
            first: "alternate".into(), names, round,
            starter: mancala::rules::Side::South, earlier, moves, pie_rule, swapped,
        };
        if let Ok(m) = snapshot.to_match() {
            prop_assert!(m.rules().pits() == usize::from(pits));
            prop_assert!(!m.name(mancala::rules::Side::North).chars().any(char::is_control));
        }
    }
}
