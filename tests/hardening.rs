//! Hardening: the real binary against hostile files, names, pipes, signals
//! and a second copy of itself (issue 10's thirteen items).
//!
//! Every test works in its own temporary data directory
//! (`MANCALA_DATA_DIR`), runs the binary with a time limit (a hang is a
//! failure, never a stuck test run), and needs neither a terminal nor
//! standard input. The full-screen signal tests run the game in tmux on a
//! private socket; CI installs tmux, and without it (outside CI) they are
//! skipped with a notice.

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The binary under test: the one cargo built, or `$MANCALA_TEST_BIN`
/// (to run these tests against another build, such as an older one).
fn binary() -> String {
    std::env::var("MANCALA_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_mancala").to_string())
}

/// The longest any one run of the binary may take here.
const LIMIT: Duration = Duration::from_secs(20);

/// What a run of the binary did.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// At most `max` characters of `text`, for a failure message.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}… ({} bytes)", &text[..at], text.len()),
        None => text.to_string(),
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}\nstdout: {}\nstderr: {}",
            self.status,
            cut(&self.stdout, 2000),
            cut(&self.stderr, 2000)
        )
    }
}

impl Run {
    fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

/// Runs the binary with `args`, its data in `data` and `input` on standard
/// input, and kills it (failing the test) if it outlives [`LIMIT`].
fn mancala(data: &Path, args: &[&str], input: &str) -> Run {
    mancala_with(data, args, input, |_| {})
}

fn mancala_with(data: &Path, args: &[&str], input: &str, setup: impl FnOnce(&mut Command)) -> Run {
    let mut command = Command::new(binary());
    command
        .args(args)
        .env("MANCALA_DATA_DIR", data)
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    setup(&mut command);
    let mut child = command.spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    // Standard output may have been sent elsewhere by `setup`.
    let out_pipe = child.stdout.take();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(mut pipe) = out_pipe {
            let _ = pipe.read_to_end(&mut text);
        }
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err_pipe.read_to_end(&mut text);
        text
    });
    let status = wait_or_kill(&mut child, LIMIT, &format!("mancala {args:?}"));
    let _ = writer.join();
    Run {
        status,
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
    }
}

/// Waits for `child`; past `limit` it is killed and the test fails.
fn wait_or_kill(child: &mut std::process::Child, limit: Duration, what: &str) -> ExitStatus {
    let until = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            return status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not end within {limit:?}");
        }
        sleep(Duration::from_millis(20));
    }
}

/// A fresh temporary directory, removed when dropped.
fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("mancala-hardening-")
        .tempdir()
        .expect("a temporary directory")
}

// ---------------------------------------------------------------------
// Item 2: an unbounded --board.

#[test]
fn a_huge_solitaire_board_is_refused_in_one_line() {
    let data = temp_dir();
    let board = (0..12_000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let run = mancala(
        data.path(),
        &["solitaire", "--plan", "--board", &format!("0,{board}")],
        "",
    );
    assert_eq!(run.code(), Some(2), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("--board"), "{}", run.stderr);
    assert!(run.stderr.contains("too many seeds"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

// ---------------------------------------------------------------------
// Item 5: output write errors in the headless commands.

/// The headless commands, each with arguments that make it print.
const HEADLESS: &[&[&str]] = &[
    &["position", "--moves", "c,f"],
    &["solve", "--pits", "3", "--seeds", "2"],
    &["arena", "random", "greedy", "--rounds", "3"],
    &["stats"],
    &["stats", "--json"],
    &["solitaire", "--plan", "--seeds", "200"],
];

#[test]
fn a_closed_pipe_ends_every_headless_command_quietly() {
    let data = temp_dir();
    for args in HEADLESS {
        // A reader that has gone away: standard output is a pipe whose
        // other end is closed before the command writes.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let run = mancala_with(data.path(), args, "", |command| {
            command.stdout(writer);
        });
        assert_eq!(run.code(), Some(0), "{args:?}: {run:?}");
        assert!(run.stderr.is_empty(), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_full_disk_is_one_line_and_exit_1_for_every_headless_command() {
    if !Path::new("/dev/full").exists() {
        eprintln!("notice: no /dev/full; skipping");
        return;
    }
    let data = temp_dir();
    for args in HEADLESS {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let run = mancala_with(data.path(), args, "", |command| {
            command.stdout(full);
        });
        assert_eq!(run.code(), Some(1), "{args:?}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("No space left on device"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

// ---------------------------------------------------------------------
// Item 12: clap's one-line errors name what is missing or wrong.

#[test]
fn argument_errors_name_what_is_missing_or_wrong_in_one_line() {
    let data = temp_dir();
    let cases: &[(&[&str], &[&str])] = &[
        (&["arena", "random"], &["KIND_B"]),
        (&["arena"], &["KIND_A", "KIND_B"]),
        (&["Alice", "Michael", "Bob"], &["'Bob'", "two names"]),
        (&["--pits", "-1", "Alice", "Michael"], &["--pits", "'-1'"]),
        (&["position", "--seeds", "-4"], &["--seeds", "'-4'"]),
        (
            &["arena", "random", "greedy", "--rounds", "-2"],
            &["--rounds"],
        ),
    ];
    for (args, wanted) in cases {
        let run = mancala(data.path(), args, "");
        assert_eq!(run.code(), Some(2), "{args:?}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        for want in *wanted {
            assert!(run.stderr.contains(want), "{args:?}: {}", run.stderr);
        }
    }
}

// ---------------------------------------------------------------------
// Item 7: every default-fatal signal restores the terminal, with 128 + n.

/// A tmux server of our own (a private socket), killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `None` when tmux is missing outside CI (in CI that fails the test).
    fn start(name: &str, command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required for the signal tests in CI"
            );
            eprintln!("notice: tmux is not installed; skipping {name}");
            return None;
        }
        let tmux = Tmux {
            socket: format!("harden-{}-{name}", std::process::id()),
        };
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "game",
            "-x",
            "90",
            "-y",
            "30",
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        let mut cmd = Command::new("tmux");
        cmd.arg("-L").arg(&self.socket).args(args);
        if std::env::var_os("TERM").is_none() {
            cmd.env("TERM", "xterm-256color");
        }
        cmd.output().expect("tmux runs")
    }

    fn flag(&self, format: &str) -> bool {
        let out = self.run(&["display-message", "-p", "-t", "game", format]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "game"]).stdout)
            .into_owned()
    }

    fn wait_until(&self, what: &str, test: impl Fn(&Tmux) -> bool) {
        let until = Instant::now() + Duration::from_secs(10);
        while !test(self) {
            assert!(
                Instant::now() < until,
                "{what} never happened; the screen:\n{}",
                self.screen()
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// Polls `path` until it holds a whole line (up to ten seconds).
fn wait_for_line(path: &Path) -> String {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text.trim().to_string();
        }
        assert!(
            Instant::now() < until,
            "{} was never written",
            path.display()
        );
        sleep(Duration::from_millis(50));
    }
}

/// Runs `args` full screen in tmux, sends `signal` once the screen is up,
/// and checks the exit status and that the terminal was restored.
fn signal_restores(name: &str, args: &str, signal: &str, number: i32) {
    let dir = temp_dir();
    let pid_file = dir.path().join("pid");
    let status_file = dir.path().join("status");
    let data = dir.path().join("data");
    // The inner shell writes its pid and becomes the game (exec), so the
    // signal goes to the game itself; the outer shell keeps the pane open.
    let command = format!(
        "sh -c 'echo $$ > {}; exec env MANCALA_DATA_DIR={} {} {args}'; echo \"$?\" > {}; sleep 60",
        pid_file.display(),
        data.display(),
        binary(),
        status_file.display()
    );
    let Some(tmux) = Tmux::start(&format!("{name}-{signal}"), &command) else {
        return;
    };
    tmux.wait_until("the alternate screen", |t| t.flag("#{alternate_on}"));
    tmux.wait_until("mouse capture", |t| t.flag("#{mouse_any_flag}"));
    // Let the screen draw once more, so the signal meets the running loop.
    sleep(Duration::from_millis(300));
    let pid = wait_for_line(&pid_file);
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = wait_for_line(&status_file);
    assert_eq!(
        status,
        (128 + number).to_string(),
        "{name} after SIG{signal}"
    );
    assert!(
        !tmux.flag("#{alternate_on}"),
        "{name} after SIG{signal} left the alternate screen on:\n{}",
        tmux.screen()
    );
    assert!(
        !tmux.flag("#{mouse_any_flag}"),
        "{name} after SIG{signal} left mouse reporting on"
    );
}

const SIGNALS: [(&str, i32); 4] = [("INT", 2), ("TERM", 15), ("HUP", 1), ("QUIT", 3)];

#[test]
fn every_fatal_signal_restores_the_terminal_in_the_game() {
    for (signal, number) in SIGNALS {
        signal_restores("game", "Alice Michael", signal, number);
    }
}

#[test]
fn every_fatal_signal_restores_the_terminal_in_solitaire() {
    for (signal, number) in SIGNALS {
        signal_restores("solitaire", "solitaire --seeds 10", signal, number);
    }
}

/// A short valid record.
const RECORD: &str = "mancala record 1\npits: 6\nseeds: 4\ncapture: always\nsowing: single\nsweep: owner\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: c,f,h\n";

#[test]
fn every_fatal_signal_restores_the_terminal_in_the_replay() {
    let dir = temp_dir();
    let record = dir.path().join("round.txt");
    std::fs::write(&record, RECORD).unwrap();
    for (signal, number) in SIGNALS {
        signal_restores(
            "replay",
            &format!("replay {}", record.display()),
            signal,
            number,
        );
    }
}
