//! The host's door and the joiner's patience, through the real binary on
//! loopback addresses only (127.0.0.x): strangers at several addresses
//! cannot keep the friend out, a peer cannot park a joiner past its
//! `--reconnect` deadline, and a replayed frame does not end the joiner.
//! Every wait has a deadline and every child is killed when its test
//! ends.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use mancala::net::code::JoinCode;
use mancala::net::frame::{Kind, read_frame, write_frame};
use mancala::net::message::{Hello, Refusal, ToHost};
use mancala::net::session::{SessionError, join_handshake};

use crate::common;

use common::program::Program;
use common::scratch::Scratch;

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `mancala host Alice` on 127.0.0.1 and waits for its join line:
/// the host and its code.
fn start_host(data: &std::path::Path, port: u16, extra: &[&str]) -> (Program, String) {
    let port = port.to_string();
    let mut args = vec!["host", "Alice", "--bind", "127.0.0.1", "--port", &port];
    args.extend_from_slice(extra);
    let host = Program::spawn(data, &args);
    let text = host.wait_for("join line", |t| t.contains("Waiting for"));
    let code = text
        .split("--code ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no code:\n{text}"))
        .to_string();
    (host, code)
}

/// A connection to the host at `port` from loopback address `from`.
fn connect_from(from: [u8; 4], port: u16) -> TcpStream {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket
        .bind(&SocketAddr::from((from, 0)).into())
        .unwrap_or_else(|e| panic!("bind {from:?}: {e}"));
    socket
        .connect_timeout(
            &SocketAddr::from(([127, 0, 0, 1], port)).into(),
            Duration::from_secs(5),
        )
        .unwrap();
    let stream: TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// A code that is not `code`.
fn wrong(code: &str) -> JoinCode {
    let (number, words) = code.split_once('-').unwrap();
    let number: u8 = number.parse().unwrap();
    format!("{}-{words}", number % 99 + 1).parse().unwrap()
}

/// A hello of protocol 9 from `from`: what the host answers.
fn other_version(from: [u8; 4], port: u16) -> Hello {
    let mut stream = connect_from(from, port);
    let (_, body) = read_frame(&mut stream).unwrap();
    if let Hello::Host { .. } = serde_json::from_slice(&body).unwrap() {
        let hello = common::wire::other_version_hello();
        write_frame(&mut stream, Kind::Clear, &hello).unwrap();
        let (_, body) = read_frame(&mut stream).unwrap();
        serde_json::from_slice(&body).unwrap()
    } else {
        serde_json::from_slice(&body).unwrap()
    }
}

/// A whole key exchange with a wrong code from `from`.
fn guess(from: [u8; 4], port: u16, code: &JoinCode) -> Result<(), SessionError> {
    join_handshake(
        connect_from(from, port),
        code,
        &ToHost::Join {
            name: "Mallory".into(),
            seat_key: None,
        },
        Instant::now() + Duration::from_secs(10),
    )
    .map(|_| ())
}

const STRANGERS: [[u8; 4]; 3] = [[127, 0, 0, 2], [127, 0, 0, 3], [127, 0, 0, 4]];

/// Issue 33, hole 1: three addresses spending every try, with hellos of
/// another version and with whole key exchanges of wrong codes, and
/// going on while the friend joins, do not keep the friend at 127.0.0.1
/// (right code) out.
#[test]
fn strangers_at_three_addresses_do_not_keep_the_friend_out() {
    let scratch = Scratch::new("door-strangers");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    // Hellos of another version are no guess: each is told, none spends
    // a try.
    for from in STRANGERS {
        for _ in 0..5 {
            assert_eq!(
                other_version(from, port),
                Hello::Refused {
                    reason: Refusal::Version,
                    retry_in: 0
                }
            );
        }
    }
    // Wrong codes from each stranger until the host tries none of theirs.
    let bad = wrong(&code);
    let mut refused = 0;
    for from in STRANGERS {
        for _ in 0..5 {
            match guess(from, port, &bad) {
                Err(SessionError::WrongCode) => refused += 1,
                Err(SessionError::TooManyTries(_)) => break,
                other => panic!("{from:?}: {:?}", other.map_err(|e| e.to_string())),
            }
        }
    }
    assert!(refused >= 6, "the overall bucket is spent: {refused}");
    // They keep at it while the friend joins.
    let stop = Instant::now() + Duration::from_secs(4);
    let hammer = thread::spawn(move || {
        let mut n = 0;
        while Instant::now() < stop {
            for from in STRANGERS {
                let _ = guess(from, port, &bad);
                let _ = other_version(from, port);
                n += 1;
            }
        }
        n
    });
    thread::sleep(Duration::from_millis(300));
    let port_text = port.to_string();
    let address = format!("127.0.0.1:{port_text}");
    let mut friend = Program::spawn(data, &["join", &address, "--code", &code, "Michael"]);
    friend.wait_for("the friend gets in", |t| {
        t.contains("Connected: Alice") || t.contains("Try again")
    });
    assert!(
        friend.text().contains("Connected: Alice"),
        "{}",
        friend.text()
    );
    host.wait_for("the host is told", |t| t.contains("Michael joined"));
    assert!(hammer.join().unwrap() > 0);
    friend.kill();
}

/// What the proxy does to a joiner's connections, in order: the first is
/// passed on with its `dup`-th sealed frame from the joiner sent twice
/// (0: none), and cut after `cut_after` (if any); every later one is
/// passed on, or, with `refuse_later`, answered by the proxy itself with
/// a refusal asking for the longest wait there is.
#[derive(Clone, Copy)]
struct Proxy {
    dup: usize,
    cut_after: Option<Duration>,
    refuse_later: bool,
}

/// A man in the middle on 127.0.0.1 between joiners and the host at
/// `host_port`: its port.
fn proxy(host_port: u16, plan: Proxy) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for (n, joiner) in listener.incoming().enumerate() {
            let Ok(mut joiner) = joiner else { return };
            if n > 0 && plan.refuse_later {
                let refusal = serde_json::to_vec(&Hello::Refused {
                    reason: Refusal::TooManyTries,
                    retry_in: u32::MAX,
                })
                .unwrap();
                let _ = write_frame(&mut joiner, Kind::Clear, &refusal);
                continue;
            }
            let Ok(host) = TcpStream::connect(("127.0.0.1", host_port)) else {
                return;
            };
            let (mut from_host, mut to_joiner) =
                (host.try_clone().unwrap(), joiner.try_clone().unwrap());
            thread::spawn(move || {
                let _ = std::io::copy(&mut from_host, &mut to_joiner);
                let _ = to_joiner.shutdown(std::net::Shutdown::Both);
            });
            let (mut from_joiner, mut to_host) =
                (joiner.try_clone().unwrap(), host.try_clone().unwrap());
            let first = n == 0;
            thread::spawn(move || {
                let mut sealed = 0;
                while let Ok((kind, body)) = read_frame(&mut from_joiner) {
                    if write_frame(&mut to_host, kind, &body).is_err() {
                        break;
                    }
                    if kind == Kind::Sealed {
                        sealed += 1;
                        if first && sealed == plan.dup {
                            let _ = write_frame(&mut to_host, kind, &body);
                        }
                    }
                }
                let _ = to_host.shutdown(std::net::Shutdown::Both);
            });
            if let (true, Some(after)) = (n == 0, plan.cut_after) {
                thread::spawn(move || {
                    thread::sleep(after);
                    let _ = joiner.shutdown(std::net::Shutdown::Both);
                    let _ = host.shutdown(std::net::Shutdown::Both);
                });
            }
        }
    });
    port
}

/// Issue 33, hole 8: one sealed frame of the joiner's, replayed on the
/// way, does not end the joiner's program: it reconnects, as when the
/// connection is cut, and the match goes on.
#[test]
fn a_replayed_frame_does_not_end_the_joiner() {
    let scratch = Scratch::new("door-replay");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    // The joiner's second sealed frame (a ping within 5 s, or a move) is
    // sent twice.
    let middle = proxy(
        port,
        Proxy {
            dup: 2,
            cut_after: None,
            refuse_later: false,
        },
    );
    let address = format!("127.0.0.1:{middle}");
    let mut joiner = Program::spawn(data, &["join", &address, "--code", &code, "Michael"]);
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("the replay is met", |t| t.contains("Connection lost"));
    host.wait_for("the joiner is back", |t| t.contains("Michael is back"));
    let text = joiner.text();
    assert!(!text.contains("The host closed the connection"), "{text}");
    joiner.send("q");
    assert_eq!(joiner.wait_exit(), 0, "{}", joiner.text());
}

/// Issue 33, hole 7: a refusal asking for a wait of 136 years does not
/// park a reconnecting joiner past its `--reconnect` deadline.
#[test]
fn a_refusals_wait_never_outlasts_the_reconnect_deadline() {
    let scratch = Scratch::new("door-wait");
    let data = scratch.path();
    let port = free_port();
    let (_host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    let middle = proxy(
        port,
        Proxy {
            dup: 0,
            cut_after: Some(Duration::from_secs(1)),
            refuse_later: true,
        },
    );
    let address = format!("127.0.0.1:{middle}");
    let mut joiner = Program::spawn(
        data,
        &[
            "join",
            &address,
            "--code",
            &code,
            "Michael",
            "--reconnect",
            "3",
        ],
    );
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    joiner.wait_for("the cut", |t| t.contains("Connection lost"));
    let lost = Instant::now();
    // `wait_for` gives up after its patience (20 s): a joiner parked for
    // the wait the refusal asks for fails here.
    let text = joiner.wait_for("the joiner gives up", |t| t.contains("Could not reconnect"));
    assert!(
        lost.elapsed() < Duration::from_secs(15),
        "{:?}",
        lost.elapsed()
    );
    assert!(text.contains("Try again in 120 s"), "{text}");
    assert_eq!(joiner.wait_exit(), 1, "{}", joiner.text());
}

/// Issue 33, hole 2: a link planted at `DATA/net` is not followed: the
/// resume note, which holds the join code, is neither written nor read
/// through it.
#[cfg(unix)]
#[test]
fn a_link_planted_at_the_net_folder_is_not_followed() {
    let scratch = Scratch::new("door-netlink");
    let data = scratch.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let elsewhere = scratch.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, data.join("net")).unwrap();
    let port = free_port();
    let (host, code) = start_host(&data, port, &["--pits", "3", "--seeds", "2"]);
    let address = format!("127.0.0.1:{port}");
    let mut joiner = Program::spawn(&data, &["join", &address, "--code", &code, "Michael"]);
    joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
    host.wait_for("the join", |t| t.contains("Michael joined"));
    // The host's player is told, in words.
    host.wait_for("the failed note", |t| {
        t.contains("could not be kept") && t.contains("not a folder")
    });
    thread::sleep(Duration::from_millis(300));
    let written: Vec<_> = std::fs::read_dir(&elsewhere).unwrap().collect();
    assert!(written.is_empty(), "written through the link: {written:?}");
    assert!(
        std::fs::symlink_metadata(data.join("net"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is left alone"
    );
    joiner.kill();
}

/// Issue 32, point 5: host Bob, quit; host Carol under other rules; host
/// again under the first rules: the Bob match is offered (and Carol's
/// stays), not overwritten.
#[test]
fn every_unfinished_network_match_is_found_again() {
    let scratch = Scratch::new("door-notes");
    let data = scratch.path();
    let play_one = |opponent: &str, rules: &[&str]| {
        let port = free_port();
        let (mut host, code) = start_host(data, port, rules);
        let address = format!("127.0.0.1:{port}");
        let mut joiner = Program::spawn(data, &["join", &address, "--code", &code, opponent]);
        joiner.wait_for("welcome", |t| t.contains("Connected: Alice"));
        host.wait_for("the prompt", |t| t.contains("Alice, choose a pit"));
        host.send("a");
        joiner.wait_for("the move", |t| {
            t.contains("Alice sows a") || t.contains("Alice plays a")
        });
        host.send("q");
        assert_eq!(host.wait_exit(), 0, "{}", host.text());
        joiner.kill();
    };
    let first = ["--pits", "4", "--seeds", "3"];
    let other = ["--pits", "5", "--seeds", "2"];
    play_one("Bob", &first);
    play_one("Carol", &other);
    for (rules, opponent) in [(&first, "Bob"), (&other, "Carol")] {
        let port = free_port().to_string();
        let mut args = vec!["host", "Alice", "--bind", "127.0.0.1", "--port", &port];
        args.extend_from_slice(rules);
        let mut host = Program::spawn(data, &args);
        let text = host.wait_for("the offer", |t| t.contains("(y/n)"));
        assert!(
            text.contains(&format!("unfinished match of Alice and {opponent}")),
            "{opponent}: {text}"
        );
        host.kill();
    }
}

/// Issue 33, hole 4: a joiner named "Alice" with an invisible character
/// is not let in against host Alice (both seats would read "Alice").
#[test]
fn a_joiner_with_the_hosts_name_and_an_invisible_character_is_refused() {
    let scratch = Scratch::new("door-names");
    let data = scratch.path();
    let port = free_port();
    let (host, code) = start_host(data, port, &["--pits", "3", "--seeds", "2"]);
    let address = format!("127.0.0.1:{port}");
    for name in ["Alice\u{AD}", "Ali\u{200D}ce", "\u{E0041}Alice\u{3164}"] {
        let mut joiner = Program::spawn(data, &["join", &address, "--code", &code, name]);
        assert_eq!(joiner.wait_exit(), 1, "{name:?}: {}", joiner.text());
        assert!(
            joiner.text().contains("is the host's name"),
            "{name:?}: {}",
            joiner.text()
        );
    }
    assert!(!host.text().contains("joined"), "{}", host.text());
}
