//! The real binary in a real terminal: a tmux server on a private socket,
//! keys sent to it, its screen read back. Each test's files live in a
//! `Scratch` folder (see `super::scratch`).
//!
//! CI installs tmux; without it these tests fail when `CI` is set and are
//! skipped with a notice otherwise ([`Tmux::start`] gives `None`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a screen or a file is waited for.
const WAIT: Duration = Duration::from_secs(15);

/// The binary under test: the one cargo built, or `$MANCALA_TEST_BIN`
/// (to run the tests against another build, such as an older one).
#[must_use]
pub fn binary() -> String {
    std::env::var("MANCALA_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_mancala").to_string())
}

/// A tmux server of our own (a private socket) with one session, `game`;
/// killed on drop, and its socket file removed.
pub struct Tmux {
    socket: String,
    socket_path: Option<PathBuf>,
}

impl Tmux {
    /// Starts `command` in a `width`×`height` terminal. `None` when tmux is
    /// not installed outside CI (in CI that fails the test).
    #[must_use]
    pub fn start(name: &str, width: u16, height: u16, command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required for the end-to-end tests in CI"
            );
            eprintln!("notice: tmux is not installed; skipping the end-to-end test {name}");
            return None;
        }
        let mut tmux = Tmux {
            socket: format!("mancala-test-{}-{name}", std::process::id()),
            socket_path: None,
        };
        let (width, height) = (width.to_string(), height.to_string());
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "game",
            "-x",
            &width,
            "-y",
            &height,
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

    /// Runs a tmux command on this server.
    pub fn run(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new("tmux");
        cmd.arg("-L").arg(&self.socket).args(args);
        if std::env::var_os("TERM").is_none() {
            cmd.env("TERM", "xterm-256color");
        }
        cmd.output().expect("tmux runs")
    }

    /// The text on the screen of the session.
    #[must_use]
    pub fn screen(&self) -> String {
        self.pane("game")
    }

    /// The text on the screen of `pane` (`game`, `game.1`, ...).
    #[must_use]
    pub fn pane(&self, pane: &str) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", pane]).stdout).into_owned()
    }

    /// Sends keys in tmux's notation (`"q"`, `"C-c"`, `"Enter"`).
    pub fn keys(&self, keys: &[&str]) {
        self.keys_to("game", keys);
    }

    /// Sends keys to `pane`.
    pub fn keys_to(&self, pane: &str, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", pane];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// Polls the screen until `want` shows; the screen then.
    pub fn wait_for(&self, want: &str) -> String {
        self.wait_for_in("game", want)
    }

    /// Polls `pane` until `want` shows; the screen then, once two captures
    /// agree (a capture taken while a frame is written can hold its first
    /// lines without its last: the key bar), or the last of a few tries
    /// while an animation runs.
    pub fn wait_for_in(&self, pane: &str, want: &str) -> String {
        let until = Instant::now() + WAIT;
        loop {
            let mut screen = self.pane(pane);
            if screen.contains(want) {
                for _ in 0..10 {
                    sleep(Duration::from_millis(20));
                    let again = self.pane(pane);
                    if again == screen || !again.contains(want) {
                        break;
                    }
                    screen = again;
                }
                return screen;
            }
            assert!(
                Instant::now() < until,
                "'{want}' never showed in {pane}; the screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Polls until `test` holds.
    pub fn wait_until(&self, what: &str, test: impl Fn(&Tmux) -> bool) {
        let until = Instant::now() + WAIT;
        while !test(self) {
            assert!(
                Instant::now() < until,
                "{what} never happened; the screen:\n{}",
                self.screen()
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Whether the program is in the alternate (full) screen.
    #[must_use]
    pub fn alternate_screen_on(&self) -> bool {
        self.flag("#{alternate_on}")
    }

    /// Whether the program in the pane asked for mouse reports of any kind.
    #[must_use]
    pub fn mouse_on(&self) -> bool {
        self.flag("#{mouse_any_flag}")
    }

    /// A tmux format flag of the pane (`#{alternate_on}`, ...).
    #[must_use]
    pub fn flag(&self, format: &str) -> bool {
        let out = self.run(&["display-message", "-p", "-t", "game", format]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    /// The pid of the program in the pane (the shell's child when the pane
    /// runs a shell command).
    #[must_use]
    pub fn program_pid(&self) -> String {
        let out = self.run(&["list-panes", "-F", "#{pane_pid}"]);
        let shell = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .unwrap_or_default();
        children
            .split_whitespace()
            .next()
            .map_or(shell, str::to_string)
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

/// Polls `path` until it holds a whole line; the line, trimmed. The file
/// is removed, so that the next run may write it again.
pub fn wait_for_line(path: &Path) -> String {
    let until = Instant::now() + WAIT;
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            let _ = std::fs::remove_file(path);
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
