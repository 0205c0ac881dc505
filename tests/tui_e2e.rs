//! End to end: the real binary in a real pseudo-terminal (tmux), driven by
//! keys, read back from the screen.
//!
//! CI installs tmux; without it these tests fail when `CI` is set and are
//! skipped with a notice otherwise.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket), killed on drop.
struct Tmux {
    socket: String,
    /// The socket file, removed on drop (tmux leaves it behind).
    socket_path: Option<PathBuf>,
}

impl Tmux {
    /// `None` when tmux is not installed (and `CI` is not set).
    fn start(name: &str, width: u16, height: u16, command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required for the end-to-end tests in CI"
            );
            eprintln!("notice: tmux is not installed; skipping the end-to-end test {name}");
            return None;
        }
        let mut tmux = Tmux {
            socket: format!("mancala-e2e-{}-{name}", std::process::id()),
            socket_path: None,
        };
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "game",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let path = tmux
            .run(&["display-message", "-p", "#{socket_path}"])
            .stdout;
        let path = String::from_utf8_lossy(&path).trim().to_string();
        tmux.socket_path = (!path.is_empty()).then(|| PathBuf::from(path));
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new("tmux");
        cmd.arg("-L").arg(&self.socket).args(args);
        if std::env::var_os("TERM").is_none() {
            cmd.env("TERM", "xterm-256color");
        }
        cmd.output().expect("tmux runs")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "game"]).stdout)
            .into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "game"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// Polls the screen until `want` shows (up to ten seconds).
    fn wait_for(&self, want: &str) -> String {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let screen = self.screen();
            if screen.contains(want) {
                return screen;
            }
            assert!(
                Instant::now() < until,
                "'{want}' never showed; the screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    fn alternate_screen_on(&self) -> bool {
        let out = self.run(&["display-message", "-p", "-t", "game", "#{alternate_on}"]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mancala-e2e-{}-{name}", std::process::id()))
}

/// The shell command that runs the game and writes its exit status to
/// `status`, then keeps the pane open so the screen can still be read.
fn wrapped(args: &str, status: &Path) -> String {
    format!(
        "{} {args}; echo \"exit=$?\" > {}; sleep 60",
        env!("CARGO_BIN_EXE_mancala"),
        status.display()
    )
}

fn wait_for_status(status: &Path) -> String {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(status)
            && text.ends_with('\n')
        {
            let _ = std::fs::remove_file(status);
            return text.trim().to_string();
        }
        assert!(Instant::now() < until, "the game did not exit");
        sleep(Duration::from_millis(50));
    }
}

#[test]
fn two_people_play_then_quit_and_the_terminal_is_restored() {
    let status = temp_file("humans");
    let _ = std::fs::remove_file(&status);
    let Some(tmux) = Tmux::start("humans", 80, 24, &wrapped("Alice Michael", &status)) else {
        return;
    };
    let opening = tmux.wait_for("▶ Alice to move");
    assert!(opening.contains("Michael"));
    assert!(tmux.alternate_screen_on());

    // c: four seeds, the last in Alice's store: an extra turn, shown once
    // the animation is over.
    tmux.keys(&["c"]);
    let after = tmux.wait_for("Alice gets an extra turn!");
    assert_ne!(after, opening, "the board changed");
    assert!(after.contains("▶ Alice to move"));
    // A pit of Michael's: the rules core refuses, nothing moves.
    tmux.keys(&["g"]);
    tmux.wait_for("Sorry, you don't control that pit.");
    // Alice plays f; then Michael, by number, and a key cuts the animation short.
    tmux.keys(&["f"]);
    tmux.wait_for("▶ Michael to move");
    tmux.keys(&["2", "x"]);
    tmux.wait_for("Michael played h.");

    tmux.keys(&["q"]);
    tmux.wait_for("Quit? (y/n)");
    tmux.keys(&["y"]);
    assert_eq!(wait_for_status(&status), "exit=0");
    let last = tmux.wait_for("Final score: Alice 0 – 0 Michael");
    assert!(
        !tmux.alternate_screen_on(),
        "left the alternate screen:\n{last}"
    );
}

#[test]
fn a_computer_answers_on_screen_and_ctrl_c_quits_at_once() {
    let status = temp_file("computer");
    let _ = std::fs::remove_file(&status);
    let command = format!(
        "NO_COLOR=1 {}",
        wrapped("Alice --north greedy --speed 20", &status)
    );
    let Some(tmux) = Tmux::start("computer", 100, 30, &command) else {
        return;
    };
    tmux.wait_for("▶ Alice to move");
    tmux.keys(&["a"]);
    tmux.wait_for("Computer (greedy) played");
    tmux.wait_for("▶ Alice to move");
    tmux.keys(&["C-c"]);
    assert_eq!(wait_for_status(&status), "exit=0");
    tmux.wait_for("Final score:");
    assert!(!tmux.alternate_screen_on());
}

#[test]
fn a_mouse_click_on_a_pit_plays_it() {
    let status = temp_file("mouse");
    let _ = std::fs::remove_file(&status);
    let Some(tmux) = Tmux::start(
        "mouse",
        80,
        24,
        &wrapped("Alice Michael --no-animation", &status),
    ) else {
        return;
    };
    let screen = tmux.wait_for("▶ Alice to move");
    // South's pit d: its letter sits in the bottom border; click the count
    // just above it. Terminal mouse reports count from 1.
    let lines: Vec<&str> = screen.lines().collect();
    let (row, column) = lines
        .iter()
        .enumerate()
        .find_map(|(i, line)| {
            let column = line.chars().position(|c| c == 'd')?;
            line.contains("─d─").then_some((i, column))
        })
        .expect("pit d on screen");
    let press = format!("\x1b[<0;{};{}M", column + 1, row);
    let release = format!("\x1b[<0;{};{}m", column + 1, row);
    tmux.keys(&["-l", &press]);
    tmux.keys(&["-l", &release]);
    tmux.wait_for("Alice played d.");
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_status(&status), "exit=0");
}
