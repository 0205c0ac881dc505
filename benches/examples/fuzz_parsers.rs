//! Fuzzing the parsers of everything the game reads from files: records,
//! saves, statistics lines and names. Run for a fixed time by
//! `benches/scripts/fuzz.sh SECONDS` (never by `cargo test`, which only builds it).
//!
//! Inputs come from proptest strategies: arbitrary bytes, and valid records
//! of random rounds under random rules, mutated (bytes flipped, inserted
//! and cut, lines doubled, swapped and dropped, fields given odd values).
//! Every input goes through:
//!
//! - `Record::parse`: never panics; what it accepts writes back to text
//!   that parses to the same record; its error messages hold no control
//!   characters and stay short;
//! - `SaveStore::load` on a save file of those bytes: never panics; a file
//!   it cannot use is set aside, never left in place;
//! - `stats::summarize` and `Stats::to_text`: never panic, print no
//!   control characters;
//! - `names::clean_name`: no unsafe characters, at most 40 graphemes, and
//!   cleaning twice changes nothing.
//!
//! A failing input is saved under `fuzz/findings/` and counted. The last
//! line printed is the summary: executions, executions per second, findings.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

use mancala::escape::is_unsafe_char;
use mancala::game::names::{MAX_NAME_GRAPHEMES, clean_name};
use mancala::game::{FirstMover, Match, MatchConfig, Seat};
use mancala::players::PlayerKind;
use mancala::rules::{Capture, Rules, Sowing, Sweep};
use mancala::store::{Record, SaveStore, stats};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use unicode_segmentation::UnicodeSegmentation as _;

/// A valid record of a random round under random rules.
fn record_text() -> impl Strategy<Value = String> {
    (
        1usize..=12,
        1usize..=20,
        0usize..3,
        0usize..2,
        0usize..2,
        any::<u64>(),
        0usize..200,
        "[a-zA-Z \u{e9}\u{1F44D}]{1,12}",
        "[a-zA-Z \u{e9}]{1,12}",
    )
        .prop_map(
            |(pits, seeds, capture, sowing, sweep, seed, length, a, b)| {
                let rules = Rules::new(pits, seeds)
                    .unwrap()
                    .with_capture(Capture::ALL[capture])
                    .with_sowing(Sowing::ALL[sowing])
                    .with_sweep(Sweep::ALL[sweep]);
                let config = MatchConfig {
                    game: mancala::rules::Game::Kalah,
                    rules,
                    seats: [
                        Seat::new(a, PlayerKind::Human),
                        Seat::new(format!("{b}2"), PlayerKind::Greedy),
                    ],
                    first: FirstMover::Alternate,
                    start: None,
                };
                let mut m = Match::new(config, seed);
                let mut rng = seed;
                for _ in 0..length {
                    let legal: Vec<_> = m.board().legal_moves().collect();
                    if legal.is_empty() {
                        break;
                    }
                    rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let pit = legal[(rng >> 33) as usize % legal.len()];
                    m.play(pit, &mut mancala::rules::NoTrace).unwrap();
                }
                Record::of_match(&m).to_text()
            },
        )
}

/// One change to a text's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    Cut(usize, usize),
    DoubleLine(usize),
    SwapLines(usize, usize),
    DropLine(usize),
    OddValue(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Mutation::Flip(at, b)),
        (
            any::<usize>(),
            proptest::collection::vec(any::<u8>(), 1..16)
        )
            .prop_map(|(at, bytes)| Mutation::Insert(at, bytes)),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Cut(at, len)),
        any::<usize>().prop_map(Mutation::DoubleLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        any::<usize>().prop_map(Mutation::DropLine),
        (
            any::<usize>(),
            prop_oneof![
                Just(String::new()),
                Just("-1".to_string()),
                Just("99999999999999999999".to_string()),
                Just("\u{1b}]2;x\u{7}".to_string()),
                Just("a,".repeat(300)),
                Just("south 1, north 2, draws".to_string()),
                Just("tree:0".to_string()),
                "\\PC{0,20}",
            ]
        )
            .prop_map(|(line, value)| Mutation::OddValue(line, value)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len();
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let n = lines.len();
    match mutation {
        Mutation::Flip(at, b) if len > 0 => bytes[at % len] = *b,
        Mutation::Insert(at, more) => {
            let at = if len == 0 { 0 } else { at % (len + 1) };
            bytes.splice(at..at, more.iter().copied());
        }
        Mutation::Cut(at, cut) if len > 0 => {
            let at = at % len;
            bytes.drain(at..(at + cut).min(len));
        }
        Mutation::DoubleLine(i) => {
            let line = lines[i % n].clone();
            lines.insert(i % n, line);
            *bytes = lines.join(&b'\n');
        }
        Mutation::SwapLines(a, b) => {
            lines.swap(a % n, b % n);
            *bytes = lines.join(&b'\n');
        }
        Mutation::DropLine(i) => {
            lines.remove(i % n);
            *bytes = lines.join(&b'\n');
        }
        Mutation::OddValue(i, value) => {
            let line = &mut lines[i % n];
            if let Some(colon) = line.iter().position(|&b| b == b':') {
                line.truncate(colon + 1);
                line.push(b' ');
                line.extend_from_slice(value.as_bytes());
            }
            *bytes = lines.join(&b'\n');
        }
        _ => {}
    }
}

/// The inputs: arbitrary bytes, or a valid record mutated a few times.
fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..2048),
        4 => (record_text(), proptest::collection::vec(mutation(), 0..6)).prop_map(
            |(text, mutations)| {
                let mut bytes = text.into_bytes();
                for m in &mutations {
                    apply(&mut bytes, m);
                }
                bytes
            }
        ),
    ]
}

/// A config for loading saves that match no input in particular.
fn some_config() -> MatchConfig {
    MatchConfig {
        game: mancala::rules::Game::Kalah,
        rules: Rules::KALAH,
        seats: [
            Seat::new("Alice", PlayerKind::Human),
            Seat::new("Michael", PlayerKind::Human),
        ],
        first: FirstMover::Alternate,
        start: None,
    }
}

/// Checks one input against every property; `Err` says which failed.
fn check(bytes: &[u8], store: &SaveStore) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    let parsed = Record::parse(&text);
    let config = match &parsed {
        Ok(record) => {
            let again = Record::parse(&record.to_text())
                .map_err(|e| format!("a parsed record does not parse again: {e}"))?;
            if &again != record {
                return Err("a parsed record changes on the round trip".into());
            }
            record.config.clone()
        }
        Err(e) => {
            let message = e.to_string();
            if message.chars().any(is_unsafe_char) {
                return Err(format!(
                    "an error message holds control characters: {message:?}"
                ));
            }
            if message.chars().count() > 320 {
                return Err(format!("an error message is {} characters", message.len()));
            }
            some_config()
        }
    };
    let path = store.path_for(&config);
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    match store.load(&config) {
        Ok(Some(_)) if parsed.is_err() => {
            return Err("a save that is not a record was resumed".into());
        }
        Ok(_) => {}
        Err(_) if path.exists() => return Err("an unusable save was left in place".into()),
        Err(_) => {}
    }
    // What was set aside goes too: `set_aside` names files by the second,
    // and a fuzzer sets aside far more than people ever do.
    for entry in std::fs::read_dir(path.parent().unwrap_or(Path::new(".")))
        .into_iter()
        .flatten()
    {
        let _ = entry.map(|e| std::fs::remove_file(e.path()));
    }
    let summary = stats::summarize(&text);
    if summary
        .to_text()
        .chars()
        .any(|c| is_unsafe_char(c) && c != '\n')
    {
        return Err("the statistics print control characters".into());
    }
    let name = clean_name(&text);
    if name.chars().any(is_unsafe_char) || name.graphemes(true).count() > MAX_NAME_GRAPHEMES {
        return Err(format!("a cleaned name is unsafe or long: {name:?}"));
    }
    if clean_name(&name) != name {
        return Err("cleaning a name twice changes it".into());
    }
    Ok(())
}

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = SaveStore::at(dir.path()).expect("a store");
    let findings = Path::new("fuzz/findings");
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let strategy = input();
    // A panic is a finding, reported once below, not printed each time.
    std::panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let (mut executions, mut found) = (0u64, 0u64);
    while Instant::now() < deadline {
        let bytes = strategy
            .new_tree(&mut runner)
            .expect("inputs can be made")
            .current();
        executions += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| check(&bytes, &store)))
            .unwrap_or_else(|_| Err("panic".into()));
        if let Err(why) = outcome {
            found += 1;
            let _ = std::fs::create_dir_all(findings);
            let file = findings.join(format!("finding-{seed}-{executions}.bin"));
            let _ = std::fs::write(&file, &bytes);
            println!("finding: {why} (input in {})", file.display());
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "fuzz_parsers: {executions} executions in {elapsed:.1} s ({:.0}/s), seed {seed}, {found} findings",
        executions as f64 / elapsed
    );
    if found > 0 {
        std::process::exit(1);
    }
}
