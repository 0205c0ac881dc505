//! A real `mancala` program run by a test, its standard output and error
//! collected as bytes as they come, killed when dropped.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long a test waits for what it expects.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Runs `mancala ARGS` to its end with `input` on its standard input and
/// `data` and `config` as its data and configuration directories.
pub fn run(data: &Path, config: &Path, args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(super::tmux::binary())
        .args(args)
        .env("MANCALA_DATA_DIR", data)
        .env("MANCALA_CONFIG_DIR", config)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mancala");
    // A program that stops reading early is not this helper's failure.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().expect("mancala ends")
}

/// What `mancala stats --json` in `data` says of Alice and Michael: the
/// rounds they finished (0 when none).
pub fn counted_rounds(data: &Path) -> u64 {
    let out = Command::new(super::tmux::binary())
        .args(["stats", "--json"])
        .env("MANCALA_DATA_DIR", data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["players"] == serde_json::json!(["Alice", "Michael"]))
        .map_or(0, |p| p["rounds"].as_u64().unwrap())
}

/// A running program with its standard output and error collected as
/// bytes.
pub struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Arc<Mutex<Vec<u8>>>,
    /// The threads that collect the output (done once the program ends).
    readers: Vec<thread::JoinHandle<()>>,
}

impl Program {
    /// Starts `mancala ARGS` with `data` as its data directory.
    pub fn spawn(data: &Path, args: &[&str]) -> Program {
        let mut child = Command::new(super::tmux::binary())
            .args(args)
            .env("MANCALA_DATA_DIR", data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = Arc::new(Mutex::new(Vec::new()));
        let mut readers = Vec::new();
        for mut stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let out = Arc::clone(&out);
            readers.push(thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    out.lock().unwrap().extend_from_slice(&buf[..n]);
                }
            }));
        }
        Program {
            stdin: child.stdin.take(),
            child,
            out,
            readers,
        }
    }

    /// Types `line` (and a line break) into the program; a program that
    /// has ended reads nothing, which is fine here.
    pub fn send(&mut self, line: &str) {
        if let Some(stdin) = &mut self.stdin {
            let _ = writeln!(stdin, "{line}");
            let _ = stdin.flush();
        }
    }

    /// Everything it printed so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.out.lock().unwrap().clone()
    }

    /// Everything it printed so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }

    /// Waits until `done` holds for the output; fails after [`PATIENCE`].
    pub fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let text = self.text();
            if done(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "no {what} within {PATIENCE:?}; output so far:\n{text}"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for the program to end (all its output in); its exit code.
    pub fn wait_exit(&mut self) -> i32 {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // All its output is in once the pipes are drained.
                for reader in self.readers.drain(..) {
                    let _ = reader.join();
                }
                return status.code().unwrap_or(-1);
            }
            assert!(
                Instant::now() < deadline,
                "the program did not end; output:\n{}",
                self.text()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Fails when the output holds a control character other than the
    /// line break: a raw byte below 0x20 or 0x7f, or a C1 control.
    pub fn assert_clean(&self, who: &str) {
        let bytes = self.bytes();
        let raw = bytes
            .iter()
            .position(|&b| (b < 0x20 && b != b'\n') || b == 0x7f || b == 0x9b);
        let text = String::from_utf8_lossy(&bytes);
        let c1 = text.chars().find(|c| c.is_control() && *c != '\n');
        assert!(
            raw.is_none() && c1.is_none(),
            "{who} printed a control character ({raw:?}, {c1:?}):\n{}",
            text.escape_debug()
        );
    }
}

impl Program {
    /// Its process id (for `/proc/{id}`).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Ends the program at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Closes its standard input: it reads the end of input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.kill();
    }
}
