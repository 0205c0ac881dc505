//! Hardening: the real binary against hostile files, names, pipes, signals
//! and a second copy of itself (issue 10's thirteen items).
//!
//! Every test works in its own temporary data directory
//! (`MANCALA_DATA_DIR`), runs the binary with a time limit (a hang is a
//! failure, never a stuck test run), and needs neither a terminal nor
//! standard input. The full-screen signal tests run the game in tmux on a
//! private socket; CI installs tmux, and without it (outside CI) they are
//! skipped with a notice.

use crate::common;

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::scratch::Scratch;
use common::tmux::{Tmux, binary, wait_for_line};

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
    // Standard output or error may have been sent elsewhere by `setup`.
    let out_pipe = child.stdout.take();
    let err_pipe = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(mut pipe) = out_pipe {
            let _ = pipe.read_to_end(&mut text);
        }
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(mut pipe) = err_pipe {
            let _ = pipe.read_to_end(&mut text);
        }
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
fn temp_dir() -> Scratch {
    Scratch::new("hardening")
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

/// Runs `mancala ARGS` through the shell with standard error closed
/// (`2>&-`), its data in `data` and `input` on standard input.
fn mancala_with_stderr_closed(data: &Path, args: &[&str], input: &str) -> Run {
    let mut shell: Vec<&str> = vec!["-c", "exec \"$@\" 2>&-", "sh"];
    let program = binary();
    shell.push(&program);
    shell.extend_from_slice(args);
    let mut command = Command::new("sh");
    command
        .args(&shell)
        .env("MANCALA_DATA_DIR", data)
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command.spawn().expect("sh runs");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let mut stdout = String::new();
    let _ = child.stdout.take().unwrap().read_to_string(&mut stdout);
    let status = wait_or_kill(&mut child, LIMIT, &format!("mancala {args:?} 2>&-"));
    Run {
        status,
        stdout,
        stderr: String::new(),
    }
}

#[test]
fn an_unwritable_standard_error_never_panics() {
    let scratch = temp_dir();
    // A data directory that is a file: the plain game warns it will not save.
    let not_a_dir = scratch.file("not-a-directory");
    std::fs::write(&not_a_dir, "x").unwrap();
    // Statistics with a damaged line: `stats` warns and still reports.
    let data = scratch.data();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("stats.jsonl"), "garbage\n").unwrap();
    // Statistics that are a directory: `stats` fails.
    let broken = scratch.file("broken");
    std::fs::create_dir_all(broken.join("stats.jsonl")).unwrap();
    // (data directory, arguments, standard input, exit code): a usage
    // error, a failure, a warning before a report, warnings in a game.
    let cases: [(&Path, &[&str], &str, i32); 4] = [
        (&data, &["--pits", "99", "Alice", "Michael"], "", 2),
        (&broken, &["stats"], "", 1),
        (&data, &["stats"], "", 0),
        (&not_a_dir, &["--plain", "Alice", "Michael"], "q\ny\n", 0),
    ];
    for (dir, args, input, code) in cases {
        // A pipe whose reader has gone, and a full disk.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut ways: Vec<(&str, Stdio)> = vec![("a broken pipe", writer.into())];
        if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
            ways.push(("/dev/full", full.into()));
        }
        for (way, stderr) in ways {
            let run = mancala_with(dir, args, input, |command| {
                command.stderr(stderr);
            });
            assert_eq!(run.code(), Some(code), "{args:?}, stderr {way}: {run:?}");
            assert!(!run.stdout.contains("panicked"), "{args:?}: {run:?}");
        }
        let run = mancala_with_stderr_closed(dir, args, input);
        assert_eq!(run.code(), Some(code), "{args:?} 2>&-: {run:?}");
    }
    // `--help` with standard output closed or gone.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let run = mancala_with(&data, &["--help"], "", |command| {
        command.stdout(writer);
    });
    assert_eq!(run.code(), Some(0), "--help into a broken pipe: {run:?}");
    assert!(run.stderr.is_empty(), "{}", run.stderr);
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
        (
            &[
                "join",
                "127.0.0.1:1",
                "Bob",
                "--code",
                "x",
                "--reconnect",
                "-5",
            ],
            &["--reconnect", "'-5'"],
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
    let Some(tmux) = Tmux::start(&format!("{name}-{signal}"), 90, 30, &command) else {
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

// ---------------------------------------------------------------------
// Helpers for the files in the data directory.

/// The one match save in `data` (`saves/*.txt`).
fn save_file(data: &Path) -> std::path::PathBuf {
    let saves: Vec<_> = std::fs::read_dir(data.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(saves.len(), 1, "{saves:?}");
    saves[0].clone()
}

/// Plays one move of Alice and Michael in plain mode and stops with `q`,
/// so that the match is saved; returns the save's path.
fn saved_match(data: &Path) -> std::path::PathBuf {
    let run = mancala(data, &["--plain", "Alice", "Michael"], "c\nq\n");
    assert_eq!(run.code(), Some(0), "{run:?}");
    save_file(data)
}

/// Arguments of a round that two computers play to the end by themselves.
const COMPUTER_ROUND: &[&str] = &[
    "--plain",
    "--south",
    "random",
    "--north",
    "greedy",
    "--no-animation",
];

fn computer_round<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut args: Vec<&str> = COMPUTER_ROUND.to_vec();
    args.extend_from_slice(names);
    args
}

fn records_in(data: &Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(data.join("records"))
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    found.sort();
    found
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

// ---------------------------------------------------------------------
// Item 1: files that are not regular files.

#[test]
fn replay_refuses_devices_and_fifos_at_once() {
    let dir = temp_dir();
    let fifo = dir.path().join("fifo");
    assert!(mkfifo(&fifo), "mkfifo works");
    for (file, what) in [
        ("/dev/zero", "a device"),
        (fifo.to_str().unwrap(), "a FIFO"),
    ] {
        let run = mancala(dir.path(), &["replay", "--plain", file], "");
        assert_eq!(run.code(), Some(2), "{file}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{file}: {run:?}");
        assert!(run.stderr.contains(what), "{file}: {run:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_save_replaced_by_a_device_link_or_a_fifo_is_set_aside_and_the_game_starts() {
    let data = temp_dir();
    let save = saved_match(data.path());
    /// Puts something other than a regular file at a path.
    type Plant = fn(&Path) -> bool;
    let plants: [(&str, Plant); 3] = [
        ("link to /dev/zero", |p| {
            std::os::unix::fs::symlink("/dev/zero", p).is_ok()
        }),
        ("fifo", mkfifo),
        ("directory", |p| std::fs::create_dir(p).is_ok()),
    ];
    for (what, plant) in plants {
        std::fs::remove_file(&save).unwrap();
        assert!(plant(&save), "{what}");
        let run = mancala(data.path(), &["--plain", "Alice", "Michael"], "c\nq\n");
        assert_eq!(run.code(), Some(0), "{what}: {run:?}");
        assert!(run.stderr.contains("set aside"), "{what}: {run:?}");
        assert!(run.stdout.contains("Alice sows c"), "{what}: {run:?}");
        // Set aside once, not met again: the new save is a regular file.
        assert!(
            std::fs::symlink_metadata(&save).unwrap().is_file(),
            "{what}"
        );
        let again = mancala(data.path(), &["--plain", "Alice", "Michael"], "n\nq\n");
        assert!(!again.stderr.contains("set aside"), "{what}: {again:?}");
    }
}

#[cfg(unix)]
#[test]
fn statistics_that_are_a_device_link_or_a_fifo_neither_hang_nor_grow() {
    let data = temp_dir();
    std::fs::create_dir_all(data.path()).unwrap();
    let stats = data.path().join("stats.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &stats).unwrap();
    let run = mancala(data.path(), &["stats"], "");
    assert_eq!(run.code(), Some(1), "{run:?}");
    assert!(run.stderr.contains("symbolic link"), "{run:?}");
    std::fs::remove_file(&stats).unwrap();
    assert!(mkfifo(&stats));
    let run = mancala(data.path(), &["stats"], "");
    assert_eq!(run.code(), Some(1), "{run:?}");
    assert!(run.stderr.contains("a FIFO"), "{run:?}");
    // A round finishing with a FIFO there: recorded, counted nowhere, said.
    let run = mancala(data.path(), &computer_round(&["Ann", "Bob"]), "");
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert!(run.stderr.contains("could not count the round"), "{run:?}");
    assert_eq!(records_in(data.path()).len(), 1);
}

// ---------------------------------------------------------------------
// Items 3 and 4: names are cleaned and bounded where they enter.

#[test]
fn a_name_of_control_characters_only_is_refused_with_exit_2() {
    let data = temp_dir();
    for args in [
        &["--plain", "\u{1b}\u{7}", "Bob"][..],
        &["Alice", "\u{1b}\u{9b}\u{7}"][..],
    ] {
        let run = mancala(data.path(), args, "");
        assert_eq!(run.code(), Some(2), "{run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        assert!(run.stderr.contains("name"), "{run:?}");
        assert!(!run.stderr.contains('\u{1b}'), "{run:?}");
    }
}

#[test]
fn a_name_with_codes_and_tabs_makes_a_record_that_replays() {
    let data = temp_dir();
    let run = mancala(
        data.path(),
        &computer_round(&["Ev\u{1b}]2;owned\u{7}il\tone", "Bob"]),
        "",
    );
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert!(!run.stdout.contains('\u{1b}'), "{run:?}");
    let records = records_in(data.path());
    assert_eq!(records.len(), 1);
    let replay = mancala(
        data.path(),
        &["replay", "--plain", records[0].to_str().unwrap()],
        "",
    );
    assert_eq!(replay.code(), Some(0), "{replay:?}");
    let stats = mancala(data.path(), &["stats"], "");
    assert!(stats.stdout.contains("vs Ev ]2;owned il one"), "{stats:?}");
}

#[test]
fn very_long_names_are_cut_so_the_round_is_resumed_and_replayed() {
    let data = temp_dir();
    let long = "👍".repeat(10_000);
    let run = mancala(data.path(), &computer_round(&[&long, "Bob"]), "");
    assert_eq!(run.code(), Some(0), "{run:?}");
    let records = records_in(data.path());
    assert_eq!(records.len(), 1);
    let text = std::fs::read_to_string(&records[0]).unwrap();
    assert!(
        text.contains(&format!("south: {}\n", "👍".repeat(40))),
        "{}",
        cut(&text, 500)
    );
    let replay = mancala(
        data.path(),
        &["replay", "--plain", records[0].to_str().unwrap()],
        "",
    );
    assert_eq!(replay.code(), Some(0), "{replay:?}");
    // A match of such names is saved and resumed, not set aside.
    let first = mancala(data.path(), &["--plain", &long, "Bob"], "c\nq\n");
    assert_eq!(first.code(), Some(0), "{first:?}");
    let second = mancala(data.path(), &["--plain", &long, "Bob"], "y\nq\n");
    assert!(
        second.stdout.contains("Resume the unfinished match?"),
        "{second:?}"
    );
    assert!(!second.stderr.contains("set aside"), "{second:?}");
}

#[test]
fn stats_print_no_escape_codes_from_the_file() {
    let data = temp_dir();
    std::fs::create_dir_all(data.path()).unwrap();
    let line = "{\"time\":1,\"south\":\"\\u001b]2;owned\\u0007Eve\",\"north\":\"Bob\\u001b[31m\",\"score\":[30,18],\"rules\":\"r\"}\n";
    std::fs::write(data.path().join("stats.jsonl"), line).unwrap();
    let run = mancala(data.path(), &["stats"], "");
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert!(!run.stdout.contains('\u{1b}'), "{run:?}");
    assert!(!run.stdout.contains('\u{7}'), "{run:?}");
    assert!(run.stdout.contains("Eve vs Bob [31m:"), "{run:?}");
}

// ---------------------------------------------------------------------
// Item 6: concurrent rounds never overwrite each other's records.

#[test]
fn twenty_rounds_finishing_at_once_give_twenty_records() {
    let data = temp_dir();
    // Twenty copies of one match: the same moves, finishing together. All
    // but one find the match open in another window and play it unsaved
    // ("p"); every round is still recorded and counted.
    let runs: Vec<_> = (0..20)
        .map(|_| {
            let data = data.path().to_path_buf();
            std::thread::spawn(move || {
                mancala(&data, &computer_round(&["Alice", "Michael"]), "p\n")
            })
        })
        .collect();
    for run in runs {
        let run = run.join().unwrap();
        assert_eq!(run.code(), Some(0), "{run:?}");
    }
    let stats = std::fs::read_to_string(data.path().join("stats.jsonl")).unwrap();
    assert_eq!(stats.lines().count(), 20);
    assert_eq!(records_in(data.path()).len(), 20);
}

// ---------------------------------------------------------------------
// Item 8: a second copy of the game under the same names and settings.

#[test]
fn a_second_copy_is_told_the_match_is_open_and_may_play_unsaved_or_quit() {
    let data = temp_dir();
    // The first copy: one move, then it waits at the prompt.
    let mut first = Command::new(binary())
        .args(["--plain", "Alice", "Michael"])
        .env("MANCALA_DATA_DIR", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = first.stdin.take().unwrap();
    input.write_all(b"c\n").unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    let save = loop {
        let saves = data.path().join("saves");
        let found = std::fs::read_dir(&saves).ok().and_then(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .find(|p| p.extension().is_some_and(|e| e == "txt"))
        });
        if let Some(save) = found
            && std::fs::read_to_string(&save).is_ok_and(|t| t.contains("\nmoves: c\n"))
        {
            break save;
        }
        assert!(Instant::now() < until, "the first copy never saved");
        sleep(Duration::from_millis(50));
    };
    let saved = std::fs::read_to_string(&save).unwrap();

    let quit = mancala(data.path(), &["--plain", "Alice", "Michael"], "q\n");
    assert_eq!(quit.code(), Some(0), "{quit:?}");
    assert!(quit.stdout.contains("open in another window"), "{quit:?}");
    assert!(!quit.stdout.contains("Resume"), "{quit:?}");

    let unsaved = mancala(data.path(), &["--plain", "Alice", "Michael"], "p\nd\nq\n");
    assert!(unsaved.stdout.contains("Alice sows d"), "{unsaved:?}");
    assert!(unsaved.stdout.contains("not saved here"), "{unsaved:?}");
    assert!(
        !unsaved.stdout.contains("The match is saved"),
        "{unsaved:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&save).unwrap(),
        saved,
        "the first copy's save"
    );

    // Killing the first copy frees the match for the next one.
    first.kill().unwrap();
    first.wait().unwrap();
    let next = mancala(data.path(), &["--plain", "Alice", "Michael"], "y\nq\n");
    assert!(
        next.stdout.contains("Resume the unfinished match?"),
        "{next:?}"
    );
    assert!(!next.stdout.contains("open in another window"), "{next:?}");
}

// ---------------------------------------------------------------------
// Item 9: writes never follow a planted link; leftovers are cleaned.

#[cfg(unix)]
#[test]
fn a_statistics_link_is_not_written_through() {
    let data = temp_dir();
    let victim = data.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    std::os::unix::fs::symlink(&victim, data.path().join("stats.jsonl")).unwrap();
    let run = mancala(data.path(), &computer_round(&["Ann", "Bob"]), "");
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(run.stderr.contains("symbolic link"), "{run:?}");
}

#[cfg(unix)]
#[test]
fn links_planted_at_the_save_and_its_temporary_name_are_not_written_through() {
    let data = temp_dir();
    let save = saved_match(data.path());
    let victim = data.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    // A link at the save itself.
    std::fs::remove_file(&save).unwrap();
    std::os::unix::fs::symlink(&victim, &save).unwrap();
    let run = mancala(data.path(), &["--plain", "Alice", "Michael"], "c\nq\n");
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::symlink_metadata(&save).unwrap().is_file());
    // Links at every name a temporary file could be given in a guessable
    // scheme: `.NAME.tmp-PID`, with the PID the game will have (the shell
    // plants them, then becomes the game).
    let name = save.file_name().unwrap().to_string_lossy().into_owned();
    let saves = save.parent().unwrap();
    let script = format!(
        "ln -s {victim} {saves}/.{name}.tmp-$$; exec {bin} --plain Alice Michael",
        victim = victim.display(),
        saves = saves.display(),
        bin = binary()
    );
    let run = mancala_with(data.path(), &[], "y\nd\nq\n", |command| {
        *command = Command::new("sh");
        command
            .args(["-c", &script])
            .env("MANCALA_DATA_DIR", data.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
    });
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert!(run.stdout.contains("Alice sows d"), "{run:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(
        std::fs::read_to_string(&save)
            .unwrap()
            .contains("\nmoves: c,")
    );
}

#[test]
fn temporary_files_left_by_killed_runs_are_removed_at_start() {
    let data = temp_dir();
    saved_match(data.path());
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    let leftovers = [
        data.path()
            .join("saves")
            .join(".mancala-alice-vs-michael-0.txt.Xy12ab.tmp"),
        data.path()
            .join("records")
            .join(".mancala-r1.txt.AbC123.tmp"),
    ];
    // Another program's temporary files in a shared data directory, as
    // old: not ours, left alone (issue 33, hole 6).
    let others = [
        data.path().join(".notes.txt.tmp"),
        data.path().join(".backup.db.tmp-4242"),
        data.path().join("saves").join(".sync.txt.Q1w2E3.tmp"),
    ];
    for path in leftovers.iter().chain(&others) {
        let file = std::fs::File::create(path).unwrap();
        file.set_modified(old).unwrap();
    }
    let fresh = data
        .path()
        .join("saves")
        .join(".mancala-in-use.txt.XyZ789.tmp");
    std::fs::write(&fresh, "being written").unwrap();
    let run = mancala(data.path(), &["--plain", "Alice", "Michael"], "n\nq\n");
    assert_eq!(run.code(), Some(0), "{run:?}");
    for path in &leftovers {
        assert!(!path.exists(), "{} is left", path.display());
    }
    assert!(fresh.exists(), "a fresh temporary file may be in use");
    for path in &others {
        assert!(path.exists(), "{} was removed", path.display());
    }
}

// ---------------------------------------------------------------------
// Item 10: replay's messages escape the record's text and cut it short.

#[test]
fn replay_errors_escape_codes_and_cut_long_lines() {
    let dir = temp_dir();
    let cases = [
        RECORD.replace("south: Alice", "south: Alice\n\u{1b}]2;owned\u{7}"),
        RECORD.replace("capture: always", "capture: \u{1b}[31mred"),
        RECORD.replace(
            "sweep: owner",
            &format!("sweep: owner\n{}", "x".repeat(1_000_000)),
        ),
        RECORD.replace("moves: c,f,h", &format!("moves: c,{}", "z".repeat(500_000))),
    ];
    for (i, text) in cases.iter().enumerate() {
        let file = dir.path().join(format!("bad-{i}.txt"));
        std::fs::write(&file, text).unwrap();
        let run = mancala(
            dir.path(),
            &["replay", "--plain", file.to_str().unwrap()],
            "",
        );
        assert_eq!(run.code(), Some(2), "case {i}: {run:?}");
        assert!(!run.stderr.contains('\u{1b}'), "case {i}: {run:?}");
        assert!(!run.stderr.contains('\u{7}'), "case {i}: {run:?}");
        assert!(run.stderr.len() < 1000, "case {i}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "case {i}: {run:?}");
    }
}

// ---------------------------------------------------------------------
// Item 11: one failure does not silently drop the rest.

#[test]
fn an_unusable_records_directory_still_counts_the_round_and_says_so() {
    let data = temp_dir();
    std::fs::write(data.path().join("records"), "not a directory").unwrap();
    let run = mancala(data.path(), &computer_round(&["Ann", "Bob"]), "");
    assert_eq!(run.code(), Some(0), "{run:?}");
    assert!(run.stderr.contains("could not record the round"), "{run:?}");
    let stats = std::fs::read_to_string(data.path().join("stats.jsonl")).unwrap();
    assert_eq!(stats.lines().count(), 1, "{stats}");
}

// ---------------------------------------------------------------------
// Item 13: identical names.

/// Issue 33, hole 4: a name of invisible characters only is refused as
/// empty, whatever their category.
#[test]
fn a_name_of_invisible_characters_only_is_refused() {
    let data = temp_dir();
    for name in [
        "\u{3164}\u{2800}",
        "\u{AD}\u{200D}\u{E0001}\u{E0041}",
        "\u{115F}\u{FFA0}",
    ] {
        let run = mancala(data.path(), &["--plain", name, "Bob"], "");
        assert_eq!(run.code(), Some(2), "{name:?}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    }
}

/// Issue 33, hole 3: forty letters under 1,500 combining marks each
/// (120 KB of name) make a match that is saved and resumed after thirty
/// and more moves, not set aside as over the read limit.
#[test]
fn names_bounded_in_bytes_keep_every_save_readable() {
    let data = temp_dir();
    let heavy = format!("a{}", "\u{301}".repeat(1500)).repeat(40);
    assert!(heavy.len() > 100_000);
    // Houses by number from the mover's left, over and over: a move when
    // the house is full, else a short refusal.
    let moves = "1\n2\n3\n4\n5\n6\n".repeat(10);
    let args = ["--plain", "--seeds", "8", &heavy, "Bob"];
    let first = mancala(data.path(), &args, &format!("{moves}q\n"));
    assert_eq!(first.code(), Some(0), "{first:?}");
    let played = first.stdout.matches(" sows ").count();
    assert!(played >= 30, "{played} moves: {first:?}");
    let save = save_file(data.path());
    let size = std::fs::metadata(&save).unwrap().len();
    assert!(size < 100_000, "{size} bytes");
    let second = mancala(data.path(), &args, "y\nq\n");
    assert!(
        second.stdout.contains("Resume the unfinished match?"),
        "{second:?}"
    );
    assert!(!second.stderr.contains("set aside"), "{second:?}");
}

#[test]
fn identical_names_are_refused() {
    let data = temp_dir();
    for (a, b) in [
        ("Alice", "Alice"),
        ("alice", "ALICE "),
        ("Bob", "Bob\t"),
        // Issue 33, hole 4: invisible characters are no difference.
        ("Alice", "Alice\u{AD}"),
        ("Alice", "Al\u{200B}ice\u{E0041}"),
        ("Bob", "\u{2066}Bob\u{180E}"),
    ] {
        let run = mancala(data.path(), &["--plain", a, b], "");
        assert_eq!(run.code(), Some(2), "{a} {b}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        assert!(run.stderr.contains("two different names"), "{run:?}");
    }
    assert!(!data.path().join("stats.jsonl").exists());
}

/// Runs `mancala ARGS` full screen in tmux through a script file (so that
/// names may hold any bytes); the exit status goes to `status`.
fn full_screen_script(dir: &Path, args: &[&str]) -> (std::path::PathBuf, String) {
    let status = dir.join("status");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = dir.join("run.sh");
    std::fs::write(
        &script,
        format!(
            "MANCALA_DATA_DIR={} {} {}\necho \"$?\" > {}\nsleep 60\n",
            dir.join("data").display(),
            binary(),
            quoted.join(" "),
            status.display()
        ),
    )
    .unwrap();
    (status, format!("sh {}", script.display()))
}

#[test]
fn the_full_screen_game_shows_names_cleaned() {
    let dir = temp_dir();
    let (status, command) = full_screen_script(
        dir.path(),
        &["\u{1b}]2;owned\u{7}Eve", "Bo\tb", "--no-animation"],
    );
    let Some(tmux) = Tmux::start("names", 90, 30, &command) else {
        return;
    };
    tmux.wait_until("the cleaned names on screen", |t| {
        let screen = t.screen();
        screen.contains("]2;owned Eve") && screen.contains("Bo b")
    });
    tmux.run(&["send-keys", "-t", "game", "q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
}

#[test]
fn the_full_screen_game_refuses_a_name_of_control_characters() {
    let dir = temp_dir();
    let (status, command) = full_screen_script(dir.path(), &["\u{1b}\u{7}", "Bob"]);
    let Some(tmux) = Tmux::start("empty-name", 90, 30, &command) else {
        return;
    };
    assert_eq!(wait_for_line(&status), "2", "{}", tmux.screen());
    assert!(tmux.screen().contains("name"), "{}", tmux.screen());
}

#[test]
fn a_second_full_screen_copy_offers_to_play_unsaved_or_quit() {
    let dir = temp_dir();
    let data = dir.path().join("data");
    let args = "Alice Michael --no-animation";
    let Some(first) = Tmux::start("busy-1", 90, 30, &dir.command(args, &dir.file("s1"))) else {
        return;
    };
    first.wait_until("the first game", |t| t.screen().contains("▶ Alice to move"));
    first.run(&["send-keys", "-t", "game", "c"]);
    first.wait_until("the first move", |t| t.screen().contains("extra turn"));
    let save = save_file(&data);
    let saved = std::fs::read_to_string(&save).unwrap();

    // A second copy: told, and quits.
    let status = dir.path().join("s2");
    let second = Tmux::start("busy-2", 90, 30, &dir.command(args, &status)).unwrap();
    // Asked in the full screen, before anything moves.
    second.wait_until("the question", |t| t.screen().contains("(p/q)"));
    assert!(second.alternate_screen_on(), "asked in the full screen");
    assert!(
        second.screen().contains("open in another window"),
        "{}",
        second.screen()
    );
    second.run(&["send-keys", "-t", "game", "q"]);
    assert_eq!(wait_for_line(&status), "0");
    drop(second);

    // A third: plays unsaved, and the first one's save is untouched.
    let status = dir.path().join("s3");
    let third = Tmux::start("busy-3", 90, 30, &dir.command(args, &status)).unwrap();
    third.wait_until("the question", |t| t.screen().contains("(p/q)"));
    third.run(&["send-keys", "-t", "game", "p"]);
    third.wait_until("the game, unsaved", |t| {
        let screen = t.screen();
        screen.contains("▶ Alice to move") && screen.contains("unsaved")
    });
    third.run(&["send-keys", "-t", "game", "d"]);
    third.wait_until("a move", |t| t.screen().contains("Alice played d"));
    third.run(&["send-keys", "-t", "game", "q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
    assert!(
        !third.screen().contains("The match is saved"),
        "{}",
        third.screen()
    );
    assert_eq!(std::fs::read_to_string(&save).unwrap(), saved);

    // Killing the first lets the next copy take the match over.
    let pid = first.program_pid();
    assert!(
        Command::new("kill")
            .args(["-KILL", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = dir.path().join("s4");
    let fourth = Tmux::start("busy-4", 90, 30, &dir.command(args, &status)).unwrap();
    fourth.wait_until("the resume question", |t| {
        t.screen().contains("Resume the unfinished match?")
    });
    fourth.run(&["send-keys", "-t", "game", "n", "q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
}

#[test]
fn a_fifo_as_the_preferences_file_does_not_stop_the_game() {
    let dir = temp_dir();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("config")).unwrap();
    assert!(mkfifo(&data.join("config").join("preferences")));
    let status = dir.path().join("status");
    let Some(tmux) = Tmux::start("prefs-fifo", 90, 30, &dir.command("Alice Michael", &status))
    else {
        return;
    };
    tmux.wait_until("the game", |t| t.screen().contains("▶ Alice to move"));
    assert!(tmux.screen().contains("FIFO"), "{}", tmux.screen());
    tmux.run(&["send-keys", "-t", "game", "q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
}

// ---------------------------------------------------------------------
// Issue 33, hole 5: Ctrl-Z (SIGTSTP) restores the terminal, and `fg`
// (SIGCONT) brings the full screen back in raw mode, redrawn.

#[test]
fn a_stop_restores_the_terminal_and_fg_brings_the_game_back() {
    let dir = temp_dir();
    let pid_file = dir.path().join("pid");
    let data = dir.path().join("data");
    // An interactive shell with job control, in which the game runs as a
    // foreground job, as a player starts it.
    let Some(tmux) = Tmux::start("tstp", 90, 30, "bash --norc --noprofile -i") else {
        return;
    };
    tmux.wait_until("the shell", |t| !t.screen().trim().is_empty());
    let start = format!(
        "sh -c 'echo $$ > {}; exec env MANCALA_DATA_DIR={} MANCALA_CONFIG_DIR={}/config {} Alice Michael'",
        pid_file.display(),
        data.display(),
        data.display(),
        binary()
    );
    tmux.keys(&[&start, "Enter"]);
    tmux.wait_until("the alternate screen", |t| t.flag("#{alternate_on}"));
    tmux.wait_until("mouse capture", |t| t.flag("#{mouse_any_flag}"));
    tmux.wait_for("Michael");
    sleep(Duration::from_millis(300));
    let pid = wait_for_line(&pid_file);
    // Each stop is followed by one key without Enter, which only a game
    // in raw mode acts on.
    for (stop, key, answer) in [
        ("kill", "g", "Sorry, you don't control that pit."),
        ("key", "q", "Quit? (y/n)"),
    ] {
        if stop == "kill" {
            let sent = Command::new("kill").args(["-TSTP", &pid]).status().unwrap();
            assert!(sent.success());
        } else {
            tmux.keys(&["C-z"]);
        }
        tmux.wait_until("the main screen after a stop", |t| {
            !t.flag("#{alternate_on}")
        });
        assert!(
            !tmux.flag("#{mouse_any_flag}"),
            "mouse reporting left on ({stop})"
        );
        tmux.wait_for("Stopped");
        tmux.keys(&["fg", "Enter"]);
        tmux.wait_until("the alternate screen again", |t| t.flag("#{alternate_on}"));
        tmux.wait_until("mouse capture again", |t| t.flag("#{mouse_any_flag}"));
        let screen = tmux.wait_for("Michael");
        assert!(!screen.contains("Stopped"), "redrawn ({stop}):\n{screen}");
        tmux.keys(&[key]);
        tmux.wait_for(answer);
    }
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
}
