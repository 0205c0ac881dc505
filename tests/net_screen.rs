//! The network game full screen on both ends, side by side in one tmux
//! window (two panes of the same size): the real binary, on 127.0.0.1,
//! driven by keys and read back from the screens.
//!
//! CI installs tmux; without it this test fails when `CI` is set and is
//! skipped with a notice otherwise.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// A tmux server of our own, killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new("tmux");
        cmd.arg("-L").arg(&self.socket).args(args);
        if std::env::var_os("TERM").is_none() {
            cmd.env("TERM", "xterm-256color");
        }
        cmd.output().expect("tmux runs")
    }

    fn screen(&self, pane: &str) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", pane]).stdout).into_owned()
    }

    fn keys(&self, pane: &str, keys: &str) {
        assert!(self.run(&["send-keys", "-t", pane, keys]).status.success());
    }

    /// Polls pane `pane` until `want` shows (up to fifteen seconds).
    fn wait_for(&self, pane: &str, want: &str) -> String {
        let until = Instant::now() + Duration::from_secs(15);
        loop {
            let screen = self.screen(pane);
            if screen.contains(want) {
                return screen;
            }
            assert!(
                Instant::now() < until,
                "'{want}' never showed in pane {pane}; the screen:\n{screen}\nthe other pane:\n{}",
                self.screen(if pane.ends_with(".0") {
                    "net.1"
                } else {
                    "net.0"
                })
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

/// The board's rows of a screen: from the first box top to the last box
/// bottom.
fn board(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let first = lines.iter().position(|l| l.contains('╭')).expect("a board");
    let last = lines
        .iter()
        .rposition(|l| l.contains('╰'))
        .expect("a board");
    lines[first..=last]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

#[test]
fn both_full_screens_side_by_side_show_the_same_match() {
    if Command::new("tmux").arg("-V").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux is required for the end-to-end tests in CI"
        );
        eprintln!("notice: tmux is not installed; skipping the network screen test");
        return;
    }
    let data: PathBuf =
        std::env::temp_dir().join(format!("mancala-net-screen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let tmux = Tmux {
        socket: format!("mancala-net-{}", std::process::id()),
    };
    let env = format!("MANCALA_DATA_DIR={}", data.display());
    let host =
        format!("env {env} {BIN} host Alice --bind 127.0.0.1 --port {port} --speed 20; sleep 30");
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "net",
        "-x",
        "180",
        "-y",
        "30",
        &host,
    ]);
    assert!(
        out.status.success(),
        "tmux: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let screen = tmux.wait_for("net.0", "--code ");
    let code = screen
        .split("--code ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    let join =
        format!("env {env} {BIN} join 127.0.0.1:{port} --code {code} Michael --speed 20; sleep 30");
    let out = tmux.run(&["split-window", "-h", "-t", "net", &join]);
    assert!(
        out.status.success(),
        "tmux: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Both screens show the starting board; Alice moves first.
    tmux.wait_for("net.0", "Alice, choose a pit (a-f):");
    tmux.wait_for("net.1", "Waiting for Alice…");
    // c: an extra turn; then f: Michael's turn.
    tmux.keys("net.0", "c");
    tmux.wait_for("net.1", "Alice gets an extra turn!");
    tmux.wait_for("net.0", "Alice, choose a pit (a-f):");
    tmux.keys("net.0", "f");
    let joiner = tmux.wait_for("net.1", "Michael, choose a pit (g-l):");
    let host = tmux.wait_for("net.0", "Waiting for Michael…");
    assert_eq!(
        board(&host),
        board(&joiner),
        "the same board on both screens"
    );
    // Michael asks to take back; Alice says no.
    tmux.keys("net.1", "u");
    tmux.wait_for("net.0", "Michael asks to take back the last move.");
    tmux.keys("net.0", "n");
    tmux.wait_for("net.1", "Alice does not agree to take back the move.");
    // Michael plays k, then leaves: Alice's screen says so.
    tmux.keys("net.1", "k");
    tmux.wait_for("net.0", "Michael played k.");
    tmux.wait_for("net.0", "Alice, choose a pit (a-f):");
    let joiner = tmux.wait_for("net.1", "Waiting for Alice…");
    let host = tmux.screen("net.0");
    assert_eq!(
        board(&host),
        board(&joiner),
        "the same board after Michael's move"
    );
    tmux.keys("net.1", "q");
    tmux.wait_for("net.0", "Michael left the match.");
    tmux.wait_for("net.1", "You left the match");
    tmux.keys("net.0", "q");
    tmux.wait_for("net.0", "The match is saved");
}
