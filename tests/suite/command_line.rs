//! The command line of the real binary (issue 24, point 3): a mistyped
//! command, one name against a computer, `--speed`, and `--help` on a full
//! disk. Each run has its own data directory, no terminal, and a time limit.

use crate::common;

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::scratch::Scratch;
use common::tmux::binary;

/// The longest any one run of the binary may take here.
const LIMIT: Duration = Duration::from_secs(20);

/// What a run of the binary did.
#[derive(Debug)]
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `args`, its data in `data`, nothing on standard
/// input and standard output sent to `stdout`; killed (failing the test)
/// past [`LIMIT`].
fn mancala_to(data: &Path, args: &[&str], stdout: Stdio) -> Run {
    let mut child = Command::new(binary())
        .args(args)
        .env("MANCALA_DATA_DIR", data)
        .env("MANCALA_CONFIG_DIR", data.join("config"))
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let until = Instant::now() + LIMIT;
    while child.try_wait().expect("wait works").is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mancala {args:?} did not end within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().expect("the output");
    Run {
        status: output.status,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// [`mancala_to`] with standard output on a pipe. The runs here print
/// little, so the pipe never fills before the binary ends.
fn mancala(data: &Path, args: &[&str]) -> Run {
    mancala_to(data, args, Stdio::piped())
}

/// The first line of the plain game: who plays whom.
fn first_line(run: &Run) -> &str {
    run.stdout.lines().next().unwrap_or("")
}

#[test]
fn a_mistyped_command_is_named_and_names_stay_possible() {
    let scratch = Scratch::new("typo");
    let run = mancala(&scratch.data(), &["solitare", "--plain"]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr
            .contains("unknown command 'solitare'; did you mean solitaire?"),
        "{run:?}"
    );
    assert!(run.stderr.contains("mancala -- solitare"), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert!(run.stdout.is_empty(), "no game started: {run:?}");
    // A name after `--`, or two names, is a game.
    let run = mancala(&scratch.data(), &["--plain", "--", "solitare"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(
        first_line(&run).starts_with("Mancala: solitare (South, human) against Computer (level "),
        "{run:?}"
    );
    let run = mancala(&scratch.data(), &["solitare", "Bob", "--plain"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(
        first_line(&run).starts_with("Mancala: solitare (South, human) against Bob"),
        "{run:?}"
    );
    // A name that only resembles a short command is a name.
    let run = mancala(&scratch.data(), &["John", "--plain"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(first_line(&run).starts_with("Mancala: John"), "{run:?}");
}

#[test]
fn one_name_against_a_computer_is_the_persons() {
    let scratch = Scratch::new("names");
    let run = mancala(&scratch.data(), &["--south", "hard", "Michael", "--plain"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert_eq!(
        first_line(&run),
        "Mancala: Computer (hard) (South, hard) against Michael (North, human).",
        "{run:?}"
    );
    let run = mancala(&scratch.data(), &["--north", "easy", "Alice", "--plain"]);
    assert_eq!(
        first_line(&run),
        "Mancala: Alice (South, human) against Computer (easy) (North, easy).",
        "{run:?}"
    );
    // One name and no computer named: nobody else was named to play, so
    // the person plays the computer (not a person called "North").
    let run = mancala(&scratch.data(), &["Alice", "--plain"]);
    let line = first_line(&run);
    assert!(
        line.starts_with("Mancala: Alice (South, human) against Computer (level ")
            && line.contains("(North, level:"),
        "{run:?}"
    );
    // Two names are given seat by seat, whoever plays.
    let run = mancala(
        &scratch.data(),
        &["--south", "hard", "Hal", "Michael", "--plain"],
    );
    assert_eq!(
        first_line(&run),
        "Mancala: Hal (South, hard) against Michael (North, human).",
        "{run:?}"
    );
}

/// A name that is empty or only spaces is refused (exit 2, one line),
/// for the game, the host and the joiner: `mancala Alice ""` silently
/// gave a computer opponent, and `mancala "" ""` two people called South
/// and North.
#[test]
fn a_blank_name_is_refused() {
    let scratch = Scratch::new("blank-names");
    for args in [
        &["--plain", "Alice", ""][..],
        &["--plain", "Alice", "   "],
        &["--plain", "", "Bob"],
        &["--plain", "", ""],
        &["--plain", " ", "\t"],
        &["--plain", "--north", "easy", "Alice", " "],
        &["host", "--plain", "  "],
        &[
            "join",
            "--plain",
            "--code",
            "7-guitar-orbit",
            "127.0.0.1:7531",
            " ",
        ],
    ] {
        let run = mancala(&scratch.data(), args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {run:?}");
        assert!(run.stderr.contains("name"), "{args:?}: {run:?}");
        assert!(run.stdout.is_empty(), "no game started: {run:?}");
    }
}

#[test]
fn speed_takes_off_and_explains_a_bad_value() {
    let scratch = Scratch::new("speed");
    let run = mancala(&scratch.data(), &["Alice", "--speed", "off", "--plain"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(first_line(&run).starts_with("Mancala: Alice"), "{run:?}");
    for bad in ["-5", "fast", "5001", "1.5", "99999999999999999999999"] {
        let run = mancala(&scratch.data(), &["Alice", "--speed", bad, "--plain"]);
        assert_eq!(run.status.code(), Some(2), "{bad}: {run:?}");
        assert!(
            run.stderr.contains(&format!(
                "invalid value '{bad}' for '--speed <MS>': a speed is milliseconds per seed, a whole number from 0 to 5000, or off for no animation"
            )),
            "{bad}: {run:?}"
        );
        assert!(!run.stderr.contains("invalid digit"), "{bad}: {run:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn help_and_version_on_a_full_disk_fail() {
    let scratch = Scratch::new("full");
    for args in [&["--help"][..], &["--version"], &["help", "stats"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full on Linux");
        let run = mancala_to(&scratch.data(), args, Stdio::from(full));
        assert_eq!(run.status.code(), Some(1), "{args:?}: {run:?}");
        assert!(
            run.stderr.contains("cannot write the output"),
            "{args:?}: {run:?}"
        );
        // On a pipe, the same text is written and the run succeeds.
        let run = mancala(&scratch.data(), args);
        assert_eq!(run.status.code(), Some(0), "{args:?}: {run:?}");
        assert!(run.stdout.contains("mancala"), "{args:?}: {run:?}");
    }
}

/// `network` is the friend's seat in a network match, which `mancala host`
/// and `mancala join` give: no seat option or arena player takes it (it
/// started a game against "Computer (network)", a seat nothing played).
#[test]
fn network_is_no_player_to_choose() {
    let scratch = Scratch::new("network-seat");
    for args in [
        &["Alice", "--north", "network", "--plain"][..],
        &["--south", "Network", "--plain"][..],
        &["arena", "network", "random", "--rounds", "1"][..],
    ] {
        let run = mancala(&scratch.data(), args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
        assert!(
            run.stderr
                .contains("'network' is not a player to choose: a friend on another machine plays through `mancala host NAME` and `mancala join`")
                || run.stderr.contains("'Network' is not a player to choose"),
            "{args:?}: {run:?}"
        );
        assert!(run.stdout.is_empty(), "no game started: {run:?}");
    }
}

/// Issue 33, hole 9, and issue 32's command-line items: every error in
/// one style (`mancala: …`, the subcommand's own help named), words
/// instead of Rust's or the system's, the advice that fits the cause;
/// `mancala version` starts no game; `--help` names the environment.
#[test]
fn errors_have_one_style_with_the_subcommands_help_and_words() {
    let scratch = Scratch::new("styles");
    let data = scratch.data();
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["position", "--pits", "13"],
            &["(see mancala position --help)"],
        ),
        (
            &["--think", "-5", "Alice", "--plain"],
            &["'-5'", "not a negative one", "(see mancala --help)"],
        ),
        (
            &["analyze", "--think", "x1", "r.txt"],
            &["not a whole number", "(see mancala analyze --help)"],
        ),
        (&["stat"], &["did you mean stats?", "(see mancala --help)"]),
        (&["version"], &["mancala --version", "mancala -- version"]),
        (
            &["join", "127.0.0.1:99999", "--code", "7-guitar-orbit", "Bob"],
            &["no port 99999", "from 1 to 65535"],
        ),
    ];
    for (args, wanted) in cases {
        let run = mancala(&data, args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {run:?}");
        assert!(run.stderr.starts_with("mancala: "), "{args:?}: {run:?}");
        for want in *wanted {
            assert!(run.stderr.contains(want), "{args:?}: {run:?}");
        }
        for raw in ["error:", "invalid digit", "os error", "failed to lookup"] {
            assert!(!run.stderr.contains(raw), "{args:?}: {run:?}");
        }
        assert!(run.stdout.is_empty(), "no game started: {args:?}: {run:?}");
    }
    let help = mancala(&data, &["--help"]);
    for want in ["MANCALA_DATA_DIR", "MANCALA_CONFIG_DIR"] {
        assert!(help.stdout.contains(want), "{help:?}");
    }
    assert!(
        !help.stdout.contains("moves first in round 1)"),
        "not so with --first north: {help:?}"
    );
    // A data directory that is a file: said in words, with the way out.
    let file = scratch.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let run = mancala(&file, &["Alice", "Bob", "--plain"]);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("is a file, not a folder"), "{run:?}");
    assert!(!said.contains("os error"), "{run:?}");
}
