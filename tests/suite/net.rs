//! `mancala host` and `mancala join` through the real binary, on
//! 127.0.0.1 only, in plain mode through pipes. Every wait has a deadline,
//! every child is killed when its test ends, and every port is picked
//! free by the system.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use mancala::net::PROTOCOL_VERSION;
use mancala::net::frame::{Kind, read_frame, write_frame};
use mancala::net::message::{Hello, Refusal, ToHost, ToJoiner};
use mancala::rng::Rng;

use crate::common;

use common::program::{PATIENCE, Program, counted_rounds};
use common::scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

fn data_dir(tag: &str) -> Scratch {
    Scratch::new(&format!("net-{tag}"))
}

/// A running mancala program, and how many of its prompts of each kind
/// were answered.
struct Player {
    program: Program,
    answered: usize,
    again_answered: usize,
}

/// The joiner's data directory beside the host's `data`: each end keeps
/// its own record and statistics of the match.
fn joiner_dir(data: &Path) -> PathBuf {
    data.join("joiner")
}

impl Player {
    /// `mancala ARGS` on `data`; a joiner on [`joiner_dir`].
    fn spawn(data: &Path, args: &[String]) -> Player {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let data = if args[0] == "join" {
            joiner_dir(data)
        } else {
            data.to_path_buf()
        };
        Player {
            program: Program::spawn(&data, &args),
            answered: 0,
            again_answered: 0,
        }
    }
}

impl Deref for Player {
    type Target = Program;

    fn deref(&self) -> &Program {
        &self.program
    }
}

impl DerefMut for Player {
    fn deref_mut(&mut self) -> &mut Program {
        &mut self.program
    }
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn host_args(port: u16, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["host", "Alice", "--bind", "127.0.0.1", "--port"]
        .iter()
        .map(ToString::to_string)
        .collect();
    args.push(port.to_string());
    args.extend(extra.iter().map(ToString::to_string));
    args
}

fn join_args(port: u16, code: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "join".to_string(),
        format!("127.0.0.1:{port}"),
        "--code".into(),
        code.into(),
        "Michael".into(),
    ];
    args.extend(extra.iter().map(ToString::to_string));
    args
}

/// Starts a host and waits for its join line: the host and its code.
fn start_host(data: &Path, port: u16, extra: &[&str]) -> (Player, String) {
    let host = Player::spawn(data, &host_args(port, extra));
    let text = host.wait_for("join line", |t| t.contains("Waiting for"));
    let line = text
        .lines()
        .find(|l| l.contains("mancala join 127.0.0.1:"))
        .unwrap_or_else(|| panic!("no join line:\n{text}"));
    let code = line
        .split("--code ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    (host.reattach(), code.to_string())
}

impl Player {
    /// (Keeps the borrow checker happy in `start_host`.)
    fn reattach(self) -> Player {
        self
    }
}

/// Whether `text` ends with an open question that has not been answered.
fn open_prompt(text: &str, prompt: &str, answered: usize) -> bool {
    text.trim_end_matches(' ').ends_with(prompt.trim_end())
        && text.matches(prompt).count() > answered
}

/// Answers `player`'s open pit question with a random pit of `letters`, or
/// its "Play again?" with `again`: whether it answered.
fn answer(player: &mut Player, name: &str, rng: &mut Rng, letters: &[char], again: bool) -> bool {
    let text = player.text();
    let pit_prompt = format!("{name}, choose a pit (");
    if text.matches(&pit_prompt).count() > player.answered
        && text.trim_end().ends_with("):")
        && text
            .rsplit('\n')
            .next()
            .is_some_and(|l| l.starts_with(&pit_prompt))
    {
        player.answered = text.matches(&pit_prompt).count();
        let letter = letters[rng.below(letters.len())];
        player.send(&letter.to_string());
        return true;
    }
    if open_prompt(&text, "Play again? (y/n) ", player.again_answered) {
        player.again_answered = text.matches("Play again? (y/n) ").count();
        player.send(if again { "y" } else { "n" });
        return true;
    }
    false
}

/// The last board box printed in `text` (the lines from `North: ` to
/// `South: `).
fn last_board(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("North: "))
        .expect("a board");
    lines[start..start + 9].join("\n")
}

/// The records written (not the hidden temporary file a host killed in
/// the middle of writing one leaves behind: it was never renamed into a
/// record).
fn records(data: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(data.join("records"))
        .map(|d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The board `mancala position` gives for a record's moves, as plain
/// mode draws it, and whether the round is over there.
fn replayed_board(record: &Path) -> (String, bool) {
    let text = std::fs::read_to_string(record).unwrap();
    let command = text
        .lines()
        .find_map(|l| l.strip_prefix("# The same position: mancala "))
        .unwrap_or_else(|| panic!("no position line in {text}"));
    let args: Vec<&str> = command.split_whitespace().collect();
    let out = Command::new(BIN).args(&args).output().unwrap();
    assert!(out.status.success(), "{command}: {out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts: Vec<u16> = json["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| u16::try_from(c.as_u64().unwrap()).unwrap())
        .collect();
    let record = mancala::store::Record::parse(&text).unwrap();
    let drawn = mancala::plain::board::render_counts(record.rules(), &counts, record.names());
    (drawn.trim_end().to_string(), json["over"] == true)
}

/// A whole round of Kalah(3,2) as the rules core plays it (each side
/// takes its first legal pit): each side's moves, as letters, in order.
fn scripted_round() -> [Vec<String>; 2] {
    use mancala::rules::{Board, Rules, Side};
    let rules = Rules::KALAH.with_pits(3).unwrap().with_seeds(2).unwrap();
    let mut board = Board::new(rules);
    let mut moves: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    while !board.is_over() {
        let side: Side = board.to_move();
        let pit = board.legal_moves().next().unwrap();
        moves[side.index()].push(rules.letter(pit).unwrap().to_string());
        board.play(pit).unwrap();
    }
    moves
}

#[test]
fn lines_typed_ahead_answer_each_question_in_order_every_run() {
    // Both players type their whole script at once, before the questions
    // come: every move, then the answer to "Play again?" (Alice says no).
    let [south, north] = scripted_round();
    let mut outputs = Vec::new();
    for run in 0..2 {
        let scratch = data_dir(&format!("typed-ahead-{run}"));
        let data = scratch.path();
        let port = free_port();
        let (mut host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
        for line in &south {
            host.send(line);
        }
        host.send("n");
        let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
        for line in &north {
            joiner.send(line);
        }
        joiner.send("y");
        assert_eq!(host.wait_exit(), 0, "{}", host.text());
        assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
        let (host_text, joiner_text) = (host.text(), joiner.text());
        assert!(
            host_text.contains("Play again? (y/n) n\n"),
            "the answer typed right after the last move is taken:\n{host_text}"
        );
        assert!(
            host_text.contains("The match is over. Thanks for playing!"),
            "{host_text}"
        );
        assert!(
            !host_text.contains("It is Michael's turn")
                && !joiner_text.contains("It is Alice's turn"),
            "no line is turned away for coming early:\n{host_text}\n{joiner_text}"
        );
        let asked_after_no = joiner_text
            .split("Alice does not want to play again.")
            .nth(1)
            .unwrap_or_else(|| panic!("the joiner hears Alice's no:\n{joiner_text}"));
        assert!(
            !asked_after_no.contains("Play again?"),
            "no question after the host said no:\n{joiner_text}"
        );
        assert_eq!(records(data).len(), 1, "the round is recorded");
        outputs.push(last_board(&host_text));
    }
    assert_eq!(outputs[0], outputs[1], "the same game every run");
}

/// The joiner keeps its own record and statistics of each round (today's
/// main kept nothing there), and news from the host that comes while the
/// joiner's prompt is open goes on a line of its own, not after the
/// prompt.
#[test]
fn the_joiner_keeps_its_rounds_and_news_never_runs_on_from_an_open_prompt() {
    let [south, north] = scripted_round();
    let scratch = data_dir("joiner-keeps");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    host.send(&south[0]);
    joiner.wait_for("Michael's turn", |t| {
        t.ends_with("Michael, choose a pit (d-f): ")
    });
    host.send("u");
    joiner.wait_for("the request on its own line", |t| {
        t.ends_with(
            "Michael, choose a pit (d-f): \nAlice asks to take back their last move.\nAgree? (y/n) ",
        )
    });
    joiner.send("n");
    joiner.wait_for("the prompt again", |t| {
        t.ends_with("Michael, choose a pit (d-f): ")
    });
    for line in &south[1..] {
        host.send(line);
    }
    host.send("n");
    for line in &north {
        joiner.send(line);
    }
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    let said = joiner.text();
    assert!(said.contains("Round recorded in "), "{said}");
    let joiner_data = joiner_dir(data);
    assert_eq!(records(&joiner_data).len(), 1, "{said}");
    assert_eq!(counted_rounds(&joiner_data), 1);
    assert_eq!(records(data).len(), 1, "the host's own record");
    assert_eq!(counted_rounds(data), 1);
}

/// The plain tests' scripted round (the rightmost legal pit each move,
/// Kalah 6 × 4) through host and joiner in plain mode: both records hold
/// the moves of the same round played locally in plain mode.
#[test]
fn the_scripted_round_through_the_network_records_as_plain_local_play() {
    use mancala::rules::{Board, Rules};
    let rules = Rules::KALAH;
    let mut board = Board::new(rules);
    let mut letters = Vec::new();
    while let Some(pit) = board.legal_moves().last() {
        letters.push((board.to_move(), rules.letter(pit).unwrap().to_string()));
        board.play(pit).unwrap();
    }
    let scratch = data_dir("scripted");
    let data = scratch.path();
    let local = data.join("local");
    let input: String = letters.iter().map(|(_, l)| format!("{l}\n")).collect();
    let mut game = Player::spawn(
        &local,
        &["--plain", "--no-animation", "Alice", "Michael"].map(String::from),
    );
    game.send(&format!("{input}n"));
    assert_eq!(game.wait_exit(), 0, "{}", game.text());
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--no-animation"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &["--no-animation"]));
    play_both_ends(&mut host, &mut joiner, &letters);
    let played = sole_record(&local).1;
    assert_eq!(played.0.len(), letters.len());
    assert_eq!(sole_record(data).1, played, "the host's record");
    assert_eq!(
        sole_record(&joiner_dir(data)).1,
        played,
        "the joiner's record"
    );
}

/// Each letter typed on the end whose side moves, then "n" at "Play
/// again?": both ends end cleanly.
fn play_both_ends(
    host: &mut Player,
    joiner: &mut Player,
    letters: &[(mancala::rules::Side, String)],
) {
    for (side, letter) in letters {
        match side {
            mancala::rules::Side::South => host.send(letter),
            mancala::rules::Side::North => joiner.send(letter),
        }
    }
    host.send("n");
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
}

/// The one record kept in `dir`: its text, and its moves and names.
fn sole_record(dir: &Path) -> (String, (Vec<mancala::rules::Pit>, [String; 2])) {
    let found = records(dir);
    assert_eq!(found.len(), 1, "{dir:?}");
    let text = std::fs::read_to_string(&found[0]).unwrap();
    let record = mancala::store::Record::parse(&text).unwrap();
    let kept = (record.moves.clone(), record.names().map(String::from));
    (text, kept)
}

/// A round of Oware (RULES.md §7) through host and joiner in plain mode:
/// both records hold the moves of the same round played locally in plain
/// mode, each move a pseudo-random legal one (the same every run).
#[test]
fn an_oware_round_through_the_network_records_as_plain_local_play() {
    use mancala::rules::Rules;
    use mancala::rules::oware::{OwareBoard, OwareRound};
    let mut round = OwareRound::new(OwareBoard::new());
    let mut rng = Rng::new(11);
    let mut letters = Vec::new();
    while !round.board().is_over() {
        let legal: Vec<_> = round.board().legal_moves().collect();
        let pit = legal[rng.below(legal.len())];
        let letter = Rules::KALAH.letter(pit).unwrap().to_string();
        letters.push((round.board().to_move(), letter));
        round.play(pit).unwrap();
    }
    let scratch = data_dir("oware");
    let data = scratch.path();
    let local = data.join("local");
    let input: String = letters.iter().map(|(_, l)| format!("{l}\n")).collect();
    let args = [
        "--game",
        "oware",
        "--first",
        "south",
        "--plain",
        "--no-animation",
    ];
    let local_args: Vec<String> = [&args[..], &["Alice", "Michael"]]
        .concat()
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut game = Player::spawn(&local, &local_args);
    game.send(&format!("{input}n"));
    assert_eq!(game.wait_exit(), 0, "{}", game.text());
    let port = free_port();
    let (mut host, code) = start_host(data, port, &args[..4]);
    // The joiner follows the host's game: the join line the host prints
    // names no game.
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    host.wait_for("the greeting", |t| {
        t.contains("Alice hosts a match of Oware (Abapa): 6 houses × 4 seeds")
    });
    joiner.wait_for("the rules", |t| {
        t.contains("Rules: Oware (Abapa): 6 houses × 4 seeds")
    });
    play_both_ends(&mut host, &mut joiner, &letters);
    let record = |dir: &Path| {
        let (text, kept) = sole_record(dir);
        assert!(text.contains("\ngame: oware\n"), "{text}");
        kept
    };
    let played = record(&local);
    assert_eq!(played.0.len(), letters.len());
    assert_eq!(record(data), played, "the host's record");
    assert_eq!(record(&joiner_dir(data)), played, "the joiner's record");
}

#[test]
fn a_whole_match_in_plain_mode_on_both_ends() {
    let scratch = data_dir("match");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    assert!(code.split('-').count() == 3, "{code}");
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    let seen = joiner.wait_for("rules", |t| t.contains("Waiting for Alice…"));
    assert!(
        seen.contains("Rules: 3 pits × 2 seeds"),
        "the joiner sees the rules before play:\n{seen}"
    );
    host.wait_for("joined", |t| t.contains("Michael joined"));

    // Alice plays a, then asks to take it back; Michael agrees.
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    host.send("a");
    joiner.wait_for("Alice's move", |t| t.contains("Alice sows a: b c"));
    host.wait_for("waiting", |t| t.contains("Waiting for Michael…"));
    host.send("u");
    joiner.wait_for("undo request", |t| {
        t.contains("Alice asks to take back their last move.\nAgree? (y/n) ")
    });
    joiner.send("y");
    host.wait_for("undone", |t| {
        t.contains("Took back 1 move: Alice plays again.")
    });
    joiner.wait_for("undone", |t| {
        t.contains("Took back 1 move: Alice plays again.")
    });

    // Then the round is played out with random pits (wrong ones are
    // refused and asked again), and a second round, then both stop.
    let mut rng = Rng::new(7);
    let deadline = Instant::now() + PATIENCE * 2;
    while !host.text().contains("The match is over") {
        assert!(
            Instant::now() < deadline,
            "no end:\n{}\n----\n{}",
            host.text(),
            joiner.text()
        );
        // Alice plays a second round, then stops.
        let again = host.again_answered == 0;
        answer(&mut host, "Alice", &mut rng, &['a', 'b', 'c'], again);
        answer(&mut joiner, "Michael", &mut rng, &['d', 'e', 'f'], true);
        thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(host.wait_exit(), 0);
    assert_eq!(joiner.wait_exit(), 0);
    let (h, j) = (host.text(), joiner.text());
    for text in [&h, &j] {
        assert!(
            text.contains("The match is over. Thanks for playing!"),
            "{text}"
        );
        assert!(text.contains("Round 2: Michael moves first."), "{text}");
    }
    assert!(h.contains("Michael wants to play again."), "{h}");
    assert!(j.contains("Alice wants to play again."), "{j}");
    assert!(j.contains("Alice does not want to play again."), "{j}");
    assert!(j.contains("Waiting for Alice…"), "{j}");
    // Both ends showed the same final board and score.
    assert_eq!(last_board(&h), last_board(&j));
    let tally = |t: &str| {
        t.lines()
            .rfind(|l| l.starts_with("Match score"))
            .unwrap()
            .to_string()
    };
    assert_eq!(tally(&h), tally(&j));
    // The host recorded both rounds, and its records replay to the boards.
    let recs = records(data);
    assert_eq!(recs.len(), 2, "{recs:?}");
    let (board, over) = replayed_board(&recs[1]);
    assert!(over);
    assert_eq!(last_board(&h), board);
}

#[test]
fn a_wrong_code_is_refused_on_both_sides_and_the_host_keeps_waiting() {
    let scratch = data_dir("code");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &[]);
    let wrong = if code.starts_with("1-") {
        code.replacen("1-", "2-", 1)
    } else {
        format!("1-{}", code.split_once('-').unwrap().1)
    };
    let mut intruder = Player::spawn(data, &join_args(port, &wrong, &[]));
    assert_eq!(intruder.wait_exit(), 1);
    assert!(
        intruder
            .text()
            .contains(&format!("The host did not accept the code {wrong}")),
        "{}",
        intruder.text()
    );
    host.wait_for("wrong code note", |t| {
        t.contains("tried to join with a wrong code; still waiting for the right one.")
    });
    // A malformed code never reaches the network.
    let mut typo = Player::spawn(data, &join_args(port, "seven-guitar", &[]));
    assert_eq!(typo.wait_exit(), 2);
    assert!(
        typo.text().contains("is not a join code"),
        "{}",
        typo.text()
    );
    // The right code still gets in, at once: one wrong code leaves tries.
    let joiner = Player::spawn(data, &join_args(port, &code, &[]));
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("join", |t| t.contains("Michael joined"));
    // One joiner at a time: a third player with the code is turned away.
    let mut args = join_args(port, &code, &[]);
    args[4] = "Bob".into();
    let mut third = Player::spawn(data, &args);
    assert_eq!(third.wait_exit(), 1);
    assert!(
        third
            .text()
            .contains("Alice is already playing with Michael."),
        "{}",
        third.text()
    );
    host.wait_for("busy note", |t| t.contains("Bob at 127.0.0.1:"));
    assert!(
        joiner.text().ends_with("Waiting for Alice…\n"),
        "{}",
        joiner.text()
    );
}

/// Reads the host's greeting on a raw socket.
fn raw_connect(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let (kind, body) = read_frame(&mut stream).unwrap();
    assert_eq!(kind, Kind::Clear);
    let hello: Hello = serde_json::from_slice(&body).unwrap();
    assert!(
        matches!(
            hello,
            Hello::Host {
                version: PROTOCOL_VERSION,
                ..
            }
        ),
        "{hello:?}"
    );
    stream
}

/// Whether the other end closed `stream` (within the read timeout).
fn closed(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return true,
            Ok(_) => {}
        }
    }
}

#[test]
fn garbage_oversized_and_out_of_turn_messages_end_only_that_connection() {
    let scratch = data_dir("garbage");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &[]);

    let mut garbage = raw_connect(port);
    garbage.write_all(b"\x00\x05Chello and more bytes").unwrap();
    assert!(closed(&mut garbage));
    host.wait_for("garbage note", |t| {
        t.contains("was closed: the other end is not a mancala game.")
    });

    let mut oversized = raw_connect(port);
    oversized.write_all(&[0xff, 0xff]).unwrap();
    oversized.write_all(&[b'C'; 1000]).unwrap();
    assert!(closed(&mut oversized));
    host.wait_for("oversized note", |t| {
        t.contains("a message of 65535 bytes was refused (the limit is 4096)")
    });

    // Another protocol version is told which versions talk together.
    let mut other = raw_connect(port);
    let hello = common::wire::other_version_hello();
    write_frame(&mut other, Kind::Clear, &hello).unwrap();
    let (_, body) = read_frame(&mut other).unwrap();
    assert_eq!(
        serde_json::from_slice::<Hello>(&body).unwrap(),
        Hello::Refused {
            reason: Refusal::Version,
            retry_in: 0
        }
    );
    host.wait_for("version note", |t| {
        t.contains(&format!(
            "speaks mancala network protocol 9 and this one speaks protocol {PROTOCOL_VERSION}"
        ))
    });

    // A real session that moves out of turn (Alice starts) is closed with
    // a sentence, and the match is unchanged.
    let code = code.parse().unwrap();
    let addr = ("127.0.0.1", port);
    let addresses: Vec<_> = std::net::ToSocketAddrs::to_socket_addrs(&addr)
        .unwrap()
        .collect();
    let (mut sender, mut receiver, first) =
        mancala::net::link::connect(&addresses, &code, "Michael", None).unwrap();
    let ToJoiner::Welcome { state, .. } = first else {
        panic!("{first:?}")
    };
    assert_eq!(state.moves, "");
    sender
        .send(&ToHost::Move {
            at: mancala::net::message::At { round: 1, ply: 0 },
            pit: 'h',
        })
        .unwrap();
    // The welcome is followed by the question open for the joiner.
    let reply = loop {
        match receiver.recv::<ToJoiner>().unwrap() {
            ToJoiner::Asked { .. } => {}
            reply => break reply,
        }
    };
    assert!(
        matches!(&reply, ToJoiner::Error { text } if text.contains("sent a move out of turn")),
        "{reply:?}"
    );
    host.wait_for("violation note", |t| t.contains("Michael's program sent a move out of turn. The connection was closed and the match is unchanged."));

    // The host still plays: a real joiner gets the untouched match.
    let joiner = Player::spawn(data, &join_args(port, &code.to_string(), &[]));
    let text = joiner.wait_for("welcome", |t| t.contains("Round 1: Alice moves first."));
    assert!(!text.contains("goes on after"), "{text}");
}

#[test]
fn a_joiner_of_another_version_gets_one_clear_sentence() {
    // A host that speaks the next protocol, faked on a raw socket.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let fake = thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let hello = serde_json::to_vec(&Hello::Host {
            game: "mancala".into(),
            version: PROTOCOL_VERSION + 1,
            pake: vec![0; 33],
        })
        .unwrap();
        write_frame(&mut stream, Kind::Clear, &hello).unwrap();
        read_frame(&mut stream).map(|(_, body)| serde_json::from_slice::<Hello>(&body).unwrap())
    });
    let scratch = data_dir("version");
    let data = scratch.path();
    let mut joiner = Player::spawn(data, &join_args(port, "7-guitar-orbit", &[]));
    assert_eq!(joiner.wait_exit(), 1);
    assert!(
        joiner.text().contains(&format!(
            "The other program speaks mancala network protocol {} and this one speaks protocol {PROTOCOL_VERSION}: only programs that speak the same protocol play together",
            PROTOCOL_VERSION + 1
        )),
        "{}",
        joiner.text()
    );
    // The joiner told the fake host its own version.
    assert!(matches!(
        fake.join().unwrap(),
        Ok(Hello::Joiner {
            version: PROTOCOL_VERSION,
            ..
        })
    ));
}

/// A TCP relay between the joiner and the host that the test can cut.
struct Relay {
    port: u16,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn start(to: u16) -> Relay {
        Relay::start_with(to, Duration::ZERO)
    }

    /// A relay that passes on the joiner's end of a connection to the host
    /// only `late` after it (a slow network, or a busy machine).
    fn start_with(to: u16, late: Duration) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(Mutex::new(Vec::<TcpStream>::new()));
        let streams = Arc::clone(&open);
        thread::spawn(move || {
            for down in listener.incoming() {
                let Ok(down) = down else { continue };
                let Ok(up) = TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                streams
                    .lock()
                    .unwrap()
                    .extend([down.try_clone().unwrap(), up.try_clone().unwrap()]);
                for (mut from, mut to, late) in [
                    (down.try_clone().unwrap(), up.try_clone().unwrap(), late),
                    (up, down, Duration::ZERO),
                ] {
                    thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        thread::sleep(late);
                        let _ = to.shutdown(Shutdown::Both);
                        let _ = from.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay { port, open }
    }

    /// Closes every connection through the relay, as a broken cable would.
    fn cut(&self) {
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

fn log(data: &Path, who: &str, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(data.join(format!("log-{who}.txt")))
        .unwrap();
    writeln!(f, "==== KILLED ====\n{text}").unwrap();
}

#[test]
fn connections_cut_at_random_points_resume_and_lose_or_repeat_no_move() {
    let scratch = data_dir("cuts");
    let data = scratch.path();
    let port = free_port();
    let rules = ["--pits", "4", "--seeds", "3", "--no-animation"];
    let (mut host, code) = start_host(data, port, &rules);
    let relay = Relay::start(port);
    let joiner_args = join_args(relay.port, &code, &["--no-animation", "--reconnect", "30"]);
    let mut joiner = Player::spawn(data, &joiner_args);
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));

    let mut rng = Rng::new(2024);
    let mut cuts = [0usize; 3];
    let mut moves_since_cut = 0;
    let deadline = Instant::now() + Duration::from_secs(90);
    while !host.text().contains("The match is over") {
        assert!(
            Instant::now() < deadline,
            "no end after cuts {cuts:?}:\n{}\n----\n{}",
            host.text(),
            joiner.text()
        );
        let again = cuts.iter().sum::<usize>() < 24;
        let mut acted = answer(&mut host, "Alice", &mut rng, &['a', 'b', 'c', 'd'], again);
        acted |= answer(
            &mut joiner,
            "Michael",
            &mut rng,
            &['e', 'f', 'g', 'h'],
            true,
        );
        // A host restarted after a kill offers to resume: yes.
        if open_prompt(&host.text(), "Resume the unfinished match? (y/n) ", 0) {
            host.send("y");
            host.wait_for("listening", |t| t.contains("Listening on"));
        }
        if acted {
            moves_since_cut += 1;
        }
        // Cut at a random moment, at least two answers after the last cut.
        if moves_since_cut >= 2 && cuts.iter().sum::<usize>() < 24 && rng.below(3) == 0 {
            thread::sleep(Duration::from_millis(rng.below(30) as u64));
            moves_since_cut = 0;
            let kind = rng.below(3);
            cuts[kind] += 1;
            match kind {
                0 => {
                    joiner.kill();
                    log(data, "joiner", &joiner.text());
                    joiner = Player::spawn(data, &joiner_args);
                    joiner.wait_for("welcome", |t| {
                        t.contains("Connected: Alice") || t.contains("did not accept")
                    });
                }
                1 => {
                    host.kill();
                    log(data, "host", &host.text());
                    host = Player::spawn(data, &host_args(port, &rules));
                    host.wait_for("resume question or listening", |t| {
                        t.contains("Resume the unfinished match? (y/n) ")
                            || t.contains("Listening on")
                    });
                }
                _ => relay.cut(),
            }
        }
        thread::sleep(Duration::from_millis(5));
    }
    assert!(cuts.iter().sum::<usize>() >= 20, "{cuts:?}");
    assert!(cuts.iter().all(|&n| n > 0), "every kind of cut: {cuts:?}");
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
    joiner.wait_for("the end", |t| t.contains("The match is over"));

    // Every round was recorded once, each record's moves replay with
    // `mancala position` to a finished game, and the last one is the
    // board both ends showed last.
    let recs = records(data);
    assert!(!recs.is_empty());
    let rounds: Vec<u32> = recs
        .iter()
        .map(|r| {
            mancala::store::Record::parse(&std::fs::read_to_string(r).unwrap())
                .unwrap()
                .round
        })
        .collect();
    let expected: Vec<u32> = (1..=u32::try_from(recs.len()).unwrap()).collect();
    let mut sorted = rounds.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, expected, "each round recorded once");
    let last = recs.iter().zip(&rounds).max_by_key(|(_, r)| **r).unwrap().0;
    for rec in &recs {
        assert!(replayed_board(rec).1, "{rec:?} replays to a finished round");
    }
    let (board, _) = replayed_board(last);
    assert_eq!(last_board(&host.text()), board, "host");
    assert_eq!(last_board(&joiner.text()), board, "joiner");
}

/// Plays `mancala --plain Alice Michael` (3 pits × 2 seeds) in `data` with
/// `input`, and gives its output.
fn local_match(data: &Path, input: &[&str]) -> String {
    let args: Vec<String> = ["--plain", "Alice", "Michael", "--pits", "3", "--seeds", "2"]
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut local = Player::spawn(data, &args);
    for line in input {
        local.send(line);
    }
    assert_eq!(local.wait_exit(), 0, "{}", local.text());
    local.text()
}

/// Alice hosts a match against Michael (3 pits × 2 seeds) in `data`, plays
/// one move (saved by the host before it is confirmed), then both stop.
fn one_hosted_move(data: &Path) {
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    host.send("a");
    joiner.wait_for("Alice's move", |t| t.contains("Alice sows a: b c"));
    host.kill();
    joiner.kill();
}

#[test]
fn a_network_match_and_a_local_match_of_the_same_names_keep_their_own_saves() {
    let scratch = data_dir("apart");
    let data = scratch.path();
    let rules = ["--pits", "3", "--seeds", "2"];
    // A network match of Alice and Michael: one move, then both stop.
    one_hosted_move(data);

    // A local match of the same names and rules is not offered it: it
    // starts afresh and is kept after two moves (b gives an extra turn).
    let local = local_match(data, &["b", "c", "q"]);
    assert!(!local.contains("unfinished match"), "{local}");
    assert!(local.contains("The match is saved"), "{local}");

    // The host is offered its own match (one move), not the local one.
    let host = Player::spawn(data, &host_args(free_port(), &rules));
    host.wait_for("resume question", |t| {
        t.contains("Resume the unfinished match?")
    });
    assert!(
        host.text()
            .contains("There is an unfinished match of Alice and Michael: round 1, 1 move played."),
        "{}",
        host.text()
    );
    drop(host);

    // And the local match resumes its own two moves.
    let local = local_match(data, &["y", "q"]);
    assert!(
        local.contains(
            "There is an unfinished match of Alice and Michael: round 1, 2 moves played."
        ),
        "{local}"
    );
}

#[test]
fn a_hosted_match_does_not_overwrite_a_local_save_of_the_same_names() {
    let scratch = data_dir("apart-local-first");
    let data = scratch.path();
    // A local match of Alice and Michael, kept after two moves.
    let local = local_match(data, &["b", "c", "q"]);
    assert!(local.contains("The match is saved"), "{local}");
    // Alice hosts a match of the same names and rules; one move is played
    // (and saved by the host) before both stop.
    one_hosted_move(data);
    // The local match still resumes its own two moves.
    let local = local_match(data, &["y", "q"]);
    assert!(
        local.contains(
            "There is an unfinished match of Alice and Michael: round 1, 2 moves played."
        ),
        "{local}"
    );
}

/// Waits until `done` holds for `player`'s output, for at most `limit`:
/// whether it did.
fn within(player: &Player, limit: Duration, done: impl Fn(&str) -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if done(&player.text()) {
            return true;
        }
        thread::sleep(Duration::from_millis(10));
    }
    done(&player.text())
}

/// The host's lines about connections it turned away.
fn turned_lines(host: &str) -> Vec<&str> {
    host.lines()
        .filter(|l| {
            [
                "A connection from",
                "A program at",
                "Someone at",
                "In the last minute",
            ]
            .iter()
            .any(|start| l.starts_with(start))
                || l.contains("connections were joining at once")
        })
        .collect()
}

/// A code of the same shape as `code` that is not `code`.
fn wrong_code(code: &str, n: u8) -> String {
    let (number, words) = code.split_once('-').unwrap();
    let number: u8 = number.parse().unwrap();
    let other = (number + n - 1) % 99 + 1;
    let other = if other == number {
        other % 99 + 1
    } else {
        other
    };
    format!("{other}-{words}")
}

#[test]
fn silent_and_dripping_connections_do_not_keep_the_friend_out() {
    let scratch = data_dir("silent");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &[]);
    // One connection that sends a byte every second (a frame that never
    // ends), then more silent ones than the host runs handshakes at once.
    let mut drip = TcpStream::connect(("127.0.0.1", port)).unwrap();
    drip.write_all(&[0x0f]).unwrap();
    let dripping = thread::spawn(move || {
        for _ in 0..8 {
            thread::sleep(Duration::from_secs(1));
            if drip.write_all(b"C").is_err() {
                return;
            }
        }
    });
    thread::sleep(Duration::from_millis(100));
    let silent: Vec<TcpStream> = (0..40)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    thread::sleep(Duration::from_millis(300));
    // The friend gets in at once, all of them still open.
    let started = Instant::now();
    let joiner = Player::spawn(data, &join_args(port, &code, &[]));
    assert!(
        within(&joiner, Duration::from_secs(6), |t| t
            .contains("Connected: Alice")),
        "the friend was kept out for {:?}:\n{}\n---- host:\n{}",
        started.elapsed(),
        joiner.text(),
        host.text()
    );
    host.wait_for("join", |t| t.contains("Michael joined"));
    // The host's player read a line or two about them, not forty.
    let text = host.text();
    let turned = turned_lines(&text);
    assert!(turned.len() <= 3, "{turned:#?}");
    drop(silent);
    dripping.join().unwrap();
}

#[test]
fn wrong_guesses_do_not_hold_the_friend_behind_a_pause() {
    let scratch = data_dir("guesses");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &[]);
    // Seven wrong guesses at once, as in the report.
    let mut guessers: Vec<Player> = (1..=7)
        .map(|n| Player::spawn(data, &join_args(port, &wrong_code(&code, n), &[])))
        .collect();
    let started = Instant::now();
    for guesser in &guessers {
        assert!(
            within(guesser, Duration::from_secs(6), |t| t.contains("code")
                && t.lines().count() >= 2),
            "a guesser waited {:?}:\n{}",
            started.elapsed(),
            guesser.text()
        );
    }
    let mut refused = 0;
    for guesser in &mut guessers {
        assert_eq!(guesser.wait_exit(), 1);
        let text = guesser.text();
        assert!(!text.contains("os error"), "{text}");
        if text.contains("did not accept the code") {
            refused += 1;
        } else {
            assert!(
                text.contains("too many wrong codes were tried lately. Try again in"),
                "{text}"
            );
        }
    }
    // Three tries an address at once: the others were not tried.
    assert_eq!(refused, 3);
    // The friend, from the same address, is told at once why and when to
    // come back: no silent wait, no "os error".
    let started = Instant::now();
    let mut friend = Player::spawn(data, &join_args(port, &code, &[]));
    assert_eq!(friend.wait_exit(), 1);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let text = friend.text();
    assert!(
        text.contains("is not trying any code from here now: too many wrong codes were tried lately. Try again in"),
        "{text}"
    );
    // The host read one line per kind, in either order: under load the
    // door can turn a guesser away before the first wrong code is told.
    assert!(within(&host, Duration::from_secs(5), |t| turned_lines(t)
        .len()
        >= 2));
    thread::sleep(Duration::from_millis(200));
    let hosted = host.text();
    let turned = turned_lines(&hosted);
    assert_eq!(turned.len(), 2, "{turned:#?}");
    for kind in ["tried to join with a wrong code", "too many wrong codes"] {
        assert!(turned.iter().any(|l| l.contains(kind)), "{turned:#?}");
    }
}

#[test]
fn a_flood_of_another_version_gets_few_host_lines() {
    let scratch = data_dir("flood");
    let data = scratch.path();
    let port = free_port();
    let (host, _code) = start_host(data, port, &[]);
    let hello = common::wire::other_version_hello();
    let (mut told_version, mut told_wait) = (0, 0);
    let started = Instant::now();
    for _ in 0..300 {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let (_, body) = read_frame(&mut stream).unwrap();
        match serde_json::from_slice::<Hello>(&body).unwrap() {
            Hello::Host { .. } => {
                write_frame(&mut stream, Kind::Clear, &hello).unwrap();
                let (_, body) = read_frame(&mut stream).unwrap();
                assert_eq!(
                    serde_json::from_slice::<Hello>(&body).unwrap(),
                    Hello::Refused {
                        reason: Refusal::Version,
                        retry_in: 0
                    }
                );
                told_version += 1;
            }
            Hello::Refused {
                reason: Refusal::TooManyTries,
                retry_in,
            } => {
                assert!((1..=60).contains(&retry_in), "{retry_in}");
                told_wait += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    let took = started.elapsed();
    // Not a guess at the code: every one is told, none spends a try (issue
    // 33: otherwise strangers keep the friend out at no cost).
    assert_eq!((told_version, told_wait), (300, 0), "in {took:?}");
    thread::sleep(Duration::from_millis(300));
    let text = host.text();
    let turned = turned_lines(&text);
    assert_eq!(turned.len(), 1, "{turned:#?}");
    assert!(turned[0].contains("protocol 9"), "{turned:#?}");
}

#[test]
fn a_second_join_with_the_code_and_name_cannot_take_a_seat_in_use() {
    let scratch = data_dir("seat");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("join", |t| t.contains("Michael joined"));
    // Someone else with the code and the name.
    let mut taker = Player::spawn(data, &join_args(port, &code, &[]));
    assert_eq!(taker.wait_exit(), 1, "{}", taker.text());
    assert!(
        taker.text().contains(
            "Michael is already playing in this match from another program, which is still connected"
        ),
        "{}",
        taker.text()
    );
    host.wait_for("the host is told", |t| {
        t.contains("tried to take Michael's seat while Michael is connected")
    });
    // The first joiner still plays.
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    host.send("a");
    joiner.wait_for("Alice's move", |t| t.contains("Alice sows a: b c"));
    assert!(
        !joiner.text().contains("Connection lost"),
        "{}",
        joiner.text()
    );
    // Once its program is gone the seat is free: a new `join` takes it,
    // and the host's player is told.
    joiner.kill();
    let back = Player::spawn(data, &join_args(port, &code, &[]));
    back.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("newcomer", |t| {
        t.contains("Michael is back") && t.contains("From a new program")
    });
}

#[test]
fn join_without_code_reads_it_from_standard_input() {
    let scratch = data_dir("stdin-code");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &[]);
    let args: Vec<String> = [
        "join".to_string(),
        format!("127.0.0.1:{port}"),
        "Michael".into(),
    ]
    .into();
    let mut joiner = Player::spawn(data, &args);
    joiner.send(&code);
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("join", |t| t.contains("Michael joined"));
    // The rest of the input is the game's.
    joiner.send("q");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    assert!(
        joiner.text().contains("You left the match"),
        "{}",
        joiner.text()
    );
    // No line at all: a usage error that says how to give the code.
    let mut none = Player::spawn(data, &args);
    none.close_input();
    assert_eq!(none.wait_exit(), 2);
    assert!(none.text().contains("no join code"), "{}", none.text());
}

#[test]
fn when_the_friend_leaves_or_is_cut_off_the_host_is_told_once_what_it_waits_for() {
    let scratch = data_dir("away");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &[]);
    let away = "Waiting for Michael to come back (the match is saved; q quits)…";
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("join", |t| t.contains("Michael joined"));
    joiner.send("q");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    let text = host.wait_for("away", |t| t.contains(away));
    let after = text.split("Michael left the match.").nth(1).unwrap_or("");
    assert_eq!(after.matches(away).count(), 1, "{text}");
    assert!(!after.contains("choose a pit"), "no move is asked: {text}");
    // Back, then cut off: the reason, and the same one line.
    let mut back = Player::spawn(data, &join_args(port, &code, &[]));
    back.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("back", |t| t.contains("Michael is back"));
    back.kill();
    let text = host.wait_for("cut off", |t| {
        t.split("Michael is back")
            .nth(1)
            .is_some_and(|a| a.contains(away))
    });
    let after = text.split("Michael is back").nth(1).unwrap_or("");
    assert!(after.contains("Connection lost"), "{text}");
    assert_eq!(after.matches(away).count(), 1, "{text}");
    host.send("q");
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
}

#[test]
fn taking_back_goes_back_to_the_askers_turn_with_the_reply_to_it() {
    let scratch = data_dir("take-back");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    joiner.wait_for("welcome", |t| t.contains("Waiting for Alice…"));
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    // Alice a (a: 0, b: 3, c: 3), Michael d (ends in f), Alice b (ends in d).
    host.send("a");
    joiner.wait_for("Michael's turn", |t| {
        t.ends_with("Michael, choose a pit (d-f): ")
    });
    joiner.send("d");
    host.wait_for("Alice's turn", |t| {
        t.matches("Alice, choose a pit (a-c): ").count() == 2
    });
    host.send("b");
    joiner.wait_for("Michael's turn again", |t| {
        t.matches("Michael, choose a pit (d-f): ").count() == 2
    });
    // Michael asks on his turn: his move d and Alice's reply b go back.
    joiner.send("u");
    host.wait_for("request", |t| {
        t.contains("Michael asks to take back their last move.\nAgree? (y/n) ")
    });
    host.send("y");
    let said = "Took back 2 moves: Michael plays again.";
    host.wait_for("undone", |t| t.contains(said));
    let joiner_text = joiner.wait_for("undone", |t| {
        t.split(said)
            .nth(1)
            .is_some_and(|rest| rest.contains("Michael, choose a pit (d-f): "))
    });
    // The board is the one Michael moved on (after Alice's a).
    let board_after = |text: &str, mark: &str| -> Option<String> {
        let rest = text.split(mark).nth(1)?;
        let lines: Vec<&str> = rest
            .lines()
            .skip_while(|l| !l.starts_with('╔'))
            .take(5)
            .collect();
        Some(lines.join("\n"))
    };
    let after_a = board_after(&joiner_text, "Alice sows a");
    assert!(
        after_a
            .as_ref()
            .is_some_and(|b| b.contains("║ 0 ║ 3 ║ 3 ║")),
        "{joiner_text}"
    );
    assert_eq!(after_a, board_after(&joiner_text, said), "{joiner_text}");
    joiner.send("q");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    host.send("q");
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
}

/// A joiner's program killed and started again at once, before the end of
/// its old connection reaches the host (here the relay passes it on a
/// second late): the host waits a moment for the old connection to end,
/// then gives the seat to the new program. It turned the friend away
/// ("which is still connected ... wait 20 s") before.
#[test]
fn a_joiner_restarted_before_its_old_connections_end_reaches_the_host_gets_its_seat() {
    let scratch = data_dir("rejoin-early");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &["--no-animation"]);
    let relay = Relay::start_with(port, Duration::from_secs(1));
    let mut first = Player::spawn(data, &join_args(relay.port, &code, &["--no-animation"]));
    first.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("the join", |t| t.contains("Michael joined"));
    first.kill();
    let again = Player::spawn(data, &join_args(port, &code, &["--no-animation"]));
    let text = again.wait_for("an answer", |t| {
        t.contains("Connected: Alice") || t.contains("which is still connected")
    });
    assert!(text.contains("Connected: Alice"), "{text}");
    host.wait_for("the new program", |t| t.contains("From a new program"));
}

/// On a board where `q` names a pit (10 pits), `Q` (the quit key there)
/// leaves the match: quitting never plays a move. Today's main played the
/// joiner's pit q.
#[test]
fn quitting_where_q_is_a_pit_plays_no_move() {
    let scratch = data_dir("quit-q");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--pits", "10", "--no-animation"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &["--no-animation"]));
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-j): "));
    host.send("a");
    joiner.wait_for("Michael's turn", |t| {
        t.ends_with("Michael, choose a pit (k-t): ")
    });
    joiner.send("Q");
    let text = host.wait_for("Michael's leaving", |t| {
        t.contains("Michael left the match.") || t.contains("Michael plays q")
    });
    assert!(!text.contains("Michael plays q"), "{text}");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    assert!(joiner.text().contains("You left the match"));
}

/// Plays out the round in progress with random pits (wrong ones are
/// refused and asked again): Alice at `host` on `alice`'s letters,
/// Michael at `joiner` on `michael`'s; both answer "Play again?" `again`.
fn play_out(host: &mut Player, joiner: &mut Player, alice: &[char], michael: &[char], again: bool) {
    let mut rng = Rng::new(11);
    let deadline = Instant::now() + PATIENCE * 2;
    let done = |p: &Player| p.again_answered > 0 || p.text().contains("The match is over");
    while !done(host) || !done(joiner) {
        assert!(
            Instant::now() < deadline,
            "no end:\n{}\n----\n{}",
            host.text(),
            joiner.text()
        );
        answer(host, "Alice", &mut rng, alice, again);
        answer(joiner, "Michael", &mut rng, michael, again);
        thread::sleep(Duration::from_millis(5));
    }
}

/// Both ends say `swapped` with the board under it, Michael on South and
/// Alice on North.
fn both_see_the_swap(host: &Player, joiner: &Player, swapped: &str) {
    for end in [host, joiner] {
        // the sentence, then the board under it
        let text = end.wait_for("the swap", |t| {
            t.split(swapped)
                .nth(1)
                .is_some_and(|a| a.contains("South: "))
        });
        let after = text.split(swapped).nth(1).unwrap().to_string();
        assert!(
            after.contains("North: Alice") && after.contains("South: Michael"),
            "{text}"
        );
    }
}

/// `player`, asked `prompt` to move on the side they have now, types
/// `swap`: refused in words, and nothing is played (the same prompt comes
/// again; its answers so far are counted).
fn no_swap_is_open(player: &mut Player, prompt: &str) {
    player.wait_for("the other side", |t| t.ends_with(prompt));
    player.send("swap");
    let text = player.wait_for("refused", |t| t.matches(prompt).count() == 2);
    assert!(text.contains("No swap is open now"), "{text}");
    let name = prompt.split(',').next().unwrap();
    player.answered = text.matches(&format!("{name}, choose a pit (")).count() - 1;
}

/// The one record at `dir`, parsed.
fn the_record(dir: &Path) -> mancala::store::Record {
    let found = records(dir);
    assert_eq!(found.len(), 1, "{dir:?}");
    mancala::store::Record::parse(&std::fs::read_to_string(&found[0]).unwrap()).unwrap()
}

/// The pie rule over the network (RULES.md §5.3), the joiner swapping:
/// after Alice's first turn Michael (the joiner) is asked, answers
/// `swap`, and from then on both ends show Michael on South and Alice on
/// North, each typing the other row's letters; `swap` when none is open
/// is refused in words and plays nothing; both ends' records name who
/// played which side, and the next round starts as `--first alternate`
/// says, with the players on their own sides again. (Before, `host
/// --swap` was refused.)
#[test]
fn the_joiner_takes_the_pie_rules_swap_and_both_ends_follow() {
    let scratch = data_dir("swap-joiner");
    let data = scratch.path();
    let port = free_port();
    let (mut host, code) = start_host(data, port, &["--swap", "--pits", "3", "--seeds", "2"]);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    let greeted = joiner.wait_for("welcome", |t| t.contains("Waiting for Alice…"));
    assert!(greeted.contains("The pie rule: "), "{greeted}");
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    host.send("a");
    let question =
        "Michael, swap sides? 'swap' takes Alice's position; a pit plays on from yours (d-f): ";
    joiner.wait_for("the swap question", |t| t.ends_with(question));
    host.wait_for("waiting", |t| t.contains("Waiting for Michael…"));
    joiner.send("swap");
    let swapped = "Michael swaps sides: Michael now plays South, and Alice moves for North.";
    both_see_the_swap(&host, &joiner, swapped);
    no_swap_is_open(&mut host, "Alice, choose a pit (d-f): ");
    play_out(
        &mut host,
        &mut joiner,
        &['d', 'e', 'f'],
        &['a', 'b', 'c'],
        true,
    );
    // The next round: Michael (North, his own side again) moves first.
    for player in [&host, &joiner] {
        player.wait_for("round 2", |t| t.contains("Round 2: Michael moves first."));
    }
    joiner.wait_for("Michael on North", |t| {
        t.ends_with("Michael, choose a pit (d-f): ")
    });
    joiner.send("q");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    host.send("q");
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
    for dir in [data.to_path_buf(), joiner_dir(data)] {
        let record = the_record(&dir);
        assert_eq!(record.names(), ["Michael", "Alice"], "{dir:?}");
        assert_eq!(record.swapped, Some(1), "{dir:?}");
        let text = std::fs::read_to_string(&records(&dir)[0]).unwrap();
        assert!(text.contains("#   1. Alice: a\n#   2. Alice: "), "{text}");
        // both ends credit the round to its winner
        let end = *record.stepper().unwrap().last_board();
        let side = end
            .outcome()
            .unwrap()
            .winner()
            .expect("the scripted round has a winner");
        let name = record.names()[side.index()];
        for said in [host.text(), joiner.text()] {
            let score = said
                .lines()
                .find(|l| l.starts_with("Match score: "))
                .unwrap();
            let won = [format!("{name} 1 "), format!(" 1 {name}")];
            assert!(won.iter().any(|w| score.contains(w.as_str())), "{said}");
        }
        // the statistics name the sides as they were played
        let stats = std::fs::read_to_string(dir.join("stats.jsonl")).unwrap();
        let round: serde_json::Value = serde_json::from_str(stats.lines().next().unwrap()).unwrap();
        assert_eq!(
            (&round["south"], &round["north"]),
            (&"Michael".into(), &"Alice".into()),
            "{stats}"
        );
    }
}

/// A host killed after the joiner's swap and started again with the same
/// options resumes the match with the swap: its board, and the joiner's
/// after it reconnects, show Michael on South and Alice on North, the
/// round goes on naming Alice as its first mover, and Michael plays on
/// from South's pits.
#[test]
fn a_swap_survives_the_hosts_restart() {
    let scratch = data_dir("swap-resume");
    let data = scratch.path();
    let port = free_port();
    let args = ["--swap", "--pits", "3", "--seeds", "2"];
    let (mut host, code) = start_host(data, port, &args);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    host.wait_for("prompt", |t| t.ends_with("Alice, choose a pit (a-c): "));
    host.send("a");
    joiner.wait_for("the swap question", |t| t.ends_with("(d-f): "));
    joiner.send("swap");
    host.wait_for("Alice on North", |t| {
        t.ends_with("Alice, choose a pit (d-f): ")
    });
    host.send("d");
    joiner.wait_for("Michael on South", |t| {
        t.ends_with("Michael, choose a pit (a-c): ")
    });
    drop(host);
    joiner.wait_for("lost", |t| t.contains("Trying to reconnect"));
    let mut host = Player::spawn(data, &host_args(port, &args));
    let text = host.wait_for("the resume question", |t| {
        t.ends_with("Resume the unfinished match? (y/n) ")
    });
    assert!(
        last_board(&text).contains("North: Alice") && text.contains("South: Michael"),
        "{text}"
    );
    host.send("y");
    let resumed = "Round 1 goes on after 2 moves (Alice moved first).";
    host.wait_for("resumed", |t| t.contains(resumed));
    let text = joiner.wait_for("reconnected", |t| {
        t.split("Reconnected").nth(1).is_some_and(|rest| {
            rest.contains(resumed) && rest.ends_with("Michael, choose a pit (a-c): ")
        })
    });
    assert!(last_board(&text).contains("South: Michael"), "{text}");
    joiner.send("b");
    host.wait_for("Michael's move", |t| t.contains("Michael sows b"));
    joiner.send("q");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    host.send("q");
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
}

/// The pie rule over the network, the host swapping: Michael (the
/// joiner) moves first (`--first north`), Alice is asked on the host and
/// answers `swap`; Michael's `swap` at his next turn is refused in words
/// on his end, and both ends' records name who played which side.
#[test]
fn the_host_takes_the_pie_rules_swap_and_both_ends_follow() {
    let scratch = data_dir("swap-host");
    let data = scratch.path();
    let port = free_port();
    let args = ["--swap", "--first", "north", "--pits", "3", "--seeds", "2"];
    let (mut host, code) = start_host(data, port, &args);
    let mut joiner = Player::spawn(data, &join_args(port, &code, &[]));
    joiner.wait_for("prompt", |t| t.ends_with("Michael, choose a pit (d-f): "));
    joiner.send("d");
    let question =
        "Alice, swap sides? 'swap' takes Michael's position; a pit plays on from yours (a-c): ";
    host.wait_for("the swap question", |t| t.ends_with(question));
    host.send("swap");
    let swapped = "Alice swaps sides: Alice now plays North, and Michael moves for South.";
    both_see_the_swap(&host, &joiner, swapped);
    no_swap_is_open(&mut joiner, "Michael, choose a pit (a-c): ");
    play_out(
        &mut host,
        &mut joiner,
        &['d', 'e', 'f'],
        &['a', 'b', 'c'],
        false,
    );
    assert_eq!(host.wait_exit(), 0, "{}", host.text());
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
    for dir in [data.to_path_buf(), joiner_dir(data)] {
        let record = the_record(&dir);
        assert_eq!(record.names(), ["Michael", "Alice"], "{dir:?}");
        assert_eq!(record.swapped, Some(1), "{dir:?}");
    }
}

/// The pie rule is Kalah's: `host --swap --game oware` says so in one
/// sentence and exits with the usage code, before it listens.
#[test]
fn hosting_oware_with_the_pie_rule_is_refused_before_it_listens() {
    let scratch = data_dir("swap-oware");
    let data = scratch.path();
    let args = host_args(free_port(), &["--swap", "--game", "oware", "--plain"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::program::run(data, &data.join("config"), &args, "");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("--swap is Kalah's"), "{said}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
