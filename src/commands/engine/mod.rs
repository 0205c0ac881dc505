//! `mancala engine`: the UCI-style protocol Aualé speaks to its Oware
//! engines, on standard input and output, so that Aualé or a tournament
//! runner can use this program as an engine (README, "Engine protocol").
//!
//! Oware by default; `setoption name Game value kalah` switches to Kalah.
//! Positions and moves are in Aalina's notation ([`notation`]). Standard
//! input is untrusted: lines are bounded, and a line that is not a
//! command, or a command that cannot be done, is answered with one
//! `info string error: …` line and changes nothing. The search runs on a
//! thread ([`think`]), so `stop` is answered at once whatever it is doing.

mod notation;
mod protocol;
mod think;

use std::io::{BufRead, Read};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::cli::EngineCmd;
use crate::players::Limits;
use crate::players::oware::{OwareEndgame, shelf};
use crate::rules::{Game, Side};

use notation::{EnginePosition, shown};
use protocol::{EngineCommand, Go};
use think::{SearchJob, Searchers};

/// The longest line read; the rest of a longer one is skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Megabytes per search table unless `setoption name Hash` says otherwise.
const DEFAULT_HASH_MB: usize = 16;
/// The most megabytes `Hash` accepts.
const MAX_HASH_MB: usize = 1024;
/// Thinking time of a `go` that sets no limit at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// Moves a clock is shared over when `go` does not say (`movestogo`).
const MOVES_TO_GO: u64 = 25;
/// Kept from every clock for reading and writing the protocol.
const OVERHEAD: Duration = Duration::from_millis(20);

/// Standard output, shared by the loop and the search thread: one whole
/// line at a time; a failed write (the reader went away) is remembered so
/// that the engine ends.
#[derive(Clone, Default)]
pub struct EngineOutput {
    failed: Arc<AtomicBool>,
}

impl EngineOutput {
    /// Writes one line.
    pub fn line(&self, text: &str) {
        if super::output::emit_line(text).is_err() {
            self.failed.store(true, Ordering::Release);
        }
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }
}

/// A line of input, or why there is none.
enum ReadLine {
    Line(String),
    TooLong,
    End,
}

/// Reads lines of at most [`MAX_LINE_BYTES`] into `lines`.
fn read_lines(input: impl Read, lines: &mpsc::Sender<ReadLine>) {
    let mut input = std::io::BufReader::new(input);
    loop {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let buf = match input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                if line.is_empty() && !too_long {
                    let _ = lines.send(ReadLine::End);
                    return;
                }
                break;
            }
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            if !too_long {
                let room = MAX_LINE_BYTES - line.len();
                if take > room {
                    too_long = true;
                    line.clear();
                } else {
                    line.extend_from_slice(&buf[..take]);
                }
            }
            input.consume(take + usize::from(end));
            if end {
                break;
            }
        }
        let item = if too_long {
            ReadLine::TooLong
        } else {
            ReadLine::Line(String::from_utf8_lossy(&line).into_owned())
        };
        if lines.send(item).is_err() {
            return;
        }
    }
}

/// A search under way.
struct Running {
    handle: thread::JoinHandle<Searchers>,
    stop: Arc<AtomicBool>,
    hold: Arc<AtomicBool>,
    /// Pondering: the time to think once `ponderhit` comes.
    ponder_budget: Option<Duration>,
}

/// The engine between commands.
struct Service {
    out: EngineOutput,
    game: Game,
    position: EnginePosition,
    searchers: Option<Searchers>,
    running: Option<Running>,
    /// When the search must be stopped (after `ponderhit`).
    deadline: Option<Instant>,
    hash_mb: usize,
    use_endgame: bool,
    debug: bool,
}

/// Runs `mancala engine` until `quit` or the end of standard input.
///
/// # Errors
/// None so far: every bad input is answered on standard output.
pub fn run(_: &EngineCmd) -> anyhow::Result<ExitCode> {
    let out = EngineOutput::default();
    let (send, lines) = mpsc::channel();
    thread::spawn(move || read_lines(std::io::stdin(), &send));
    let mut engine = Service {
        out: out.clone(),
        game: Game::Oware,
        position: EnginePosition::start(Game::Oware),
        searchers: Some(Searchers::new(DEFAULT_HASH_MB)),
        running: None,
        deadline: None,
        hash_mb: DEFAULT_HASH_MB,
        use_endgame: true,
        debug: false,
    };
    loop {
        let input = match engine.deadline {
            Some(at) => match lines.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(input) => input,
                Err(RecvTimeoutError::Timeout) => {
                    engine.deadline = None;
                    if let Some(running) = &engine.running {
                        running.stop.store(true, Ordering::Release);
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => ReadLine::End,
            },
            None => lines.recv().unwrap_or(ReadLine::End),
        };
        let go_on = match input {
            ReadLine::Line(line) => match protocol::parse(&line) {
                Ok(Some(command)) => engine.handle(command),
                Ok(None) => true,
                Err(why) => {
                    engine.error(&why);
                    true
                }
            },
            ReadLine::TooLong => {
                engine.error(&format!(
                    "a line longer than {MAX_LINE_BYTES} bytes was skipped"
                ));
                true
            }
            ReadLine::End => false,
        };
        if !go_on || out.failed() {
            break;
        }
    }
    engine.stop_search();
    // The database's grower is not waited for: a count it was building is
    // built again at the next start (the counts written are kept).
    Ok(ExitCode::SUCCESS)
}

impl Service {
    fn error(&self, why: &str) {
        self.out.line(&format!("info string error: {why}"));
    }

    fn debug(&self, what: &str) {
        if self.debug {
            self.out.line(&format!("info string {what}"));
        }
    }

    /// Starts the process's shared Oware endgame database (read from the
    /// data directory, or built there a seed count at a time on a thread of
    /// low priority) once the engine plays Oware with it: a session that
    /// only plays Kalah never reads, builds or writes it.
    fn wake_endgame(&self) {
        if self.game == Game::Oware && self.use_endgame {
            shelf().wake();
        }
    }

    /// Acts on one command; `false` to end.
    fn handle(&mut self, command: EngineCommand) -> bool {
        self.reclaim();
        // What the database's grower has to tell (a file it builds again)
        // is said once, at the next command, as an engine says things.
        for news in shelf().take_news() {
            self.out.line(&format!("info string {news}"));
        }
        // A command that readies a game: from the first one while the game
        // is Oware, its database is on its way (`isready` is where a GUI
        // lets an engine prepare, so the first `go` has what is kept; a
        // `go` with none before wakes it as it takes the database).
        if matches!(
            command,
            EngineCommand::IsReady | EngineCommand::NewGame | EngineCommand::Position(_)
        ) {
            self.wake_endgame();
        }
        match command {
            EngineCommand::Uci => self.identify(),
            EngineCommand::Debug(on) => self.debug = on.unwrap_or(!self.debug),
            EngineCommand::IsReady => self.out.line("readyok"),
            EngineCommand::SetOption { name, value } => {
                self.stop_search();
                self.set_option(&name, value.as_deref());
            }
            EngineCommand::NewGame => {
                self.stop_search();
                if let Some(searchers) = &mut self.searchers {
                    searchers.clear();
                }
                self.position = EnginePosition::start(self.game);
            }
            EngineCommand::Position(spec) => {
                self.stop_search();
                let position = match &spec.fen {
                    None => Ok(EnginePosition::start(self.game)),
                    Some(fen) => EnginePosition::from_fen(self.game, fen),
                }
                .and_then(|mut position| position.play_letters(&spec.moves).map(|()| position));
                match position {
                    Ok(position) => self.position = position,
                    Err(why) => self.error(&format!("position: {why}; the position is unchanged")),
                }
            }
            EngineCommand::Go(go) => self.go(&go),
            EngineCommand::Stop => self.stop_search(),
            EngineCommand::PonderHit => match &self.running {
                Some(running) if running.hold.load(Ordering::Acquire) => {
                    let budget = running.ponder_budget;
                    running.hold.store(false, Ordering::Release);
                    self.deadline = budget.map(|b| Instant::now() + b);
                }
                _ => self.error("ponderhit: the engine is not pondering"),
            },
            EngineCommand::Wait => match &self.running {
                Some(running) if running.hold.load(Ordering::Acquire) => {
                    self.error("wait: the search is infinite; send stop");
                }
                Some(_) => self.join(),
                None => {}
            },
            EngineCommand::Quit => return false,
        }
        true
    }

    fn identify(&self) {
        self.out
            .line(&format!("id name mancala {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the mancala developers");
        self.out
            .line("option name Game type combo default oware var oware var kalah");
        self.out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.out.line("option name Ponder type check default false");
        self.out
            .line("option name UseLeaves type check default true");
        self.out.line("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let check = |value: Option<&str>| match value {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(format!("setoption {name}: the value is true or false")),
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "game" => match value.map(str::parse::<Game>) {
                Some(Ok(game)) => {
                    self.game = game;
                    self.position = EnginePosition::start(game);
                    self.debug(&format!("playing {game}"));
                    self.wake_endgame();
                    Ok(())
                }
                _ => Err("setoption Game: the value is oware or kalah".to_string()),
            },
            "hash" => match value.and_then(|v| v.parse::<usize>().ok()) {
                Some(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    self.hash_mb = mb;
                    self.searchers = Some(Searchers::new(mb));
                    Ok(())
                }
                _ => Err(format!("setoption Hash: megabytes from 1 to {MAX_HASH_MB}")),
            },
            // The GUI says whether it will ask for pondering: nothing to do.
            "ponder" => check(value).map(|_| ()),
            // Aualé sends it to every engine, at every strength: there is
            // no opening book to switch, so nothing to do (not offered).
            "ownbook" => {
                check(value).map(|_| self.debug("no opening book: OwnBook changes nothing"))
            }
            "useleaves" => check(value).map(|on| self.use_endgame = on),
            _ => Err(format!("unknown option '{}'", shown(name))),
        };
        if let Err(why) = result {
            self.error(&why);
        }
    }

    fn go(&mut self, go: &Go) {
        if self.running.is_some() {
            self.error("go: the engine is already thinking; send stop first");
            return;
        }
        let Some(searchers) = self.searchers.take() else {
            self.error("go: the engine is not ready");
            return;
        };
        if !go.ignored.is_empty() {
            self.debug(&format!("go: skipped {}", go.ignored.join(" ")));
        }
        let budget = move_budget(go, self.position.to_move());
        let hold = go.infinite || go.ponder;
        let limits = Limits {
            deadline: if hold {
                None
            } else {
                budget.map(|b| Instant::now() + b)
            },
            nodes: go.nodes,
            stop: Arc::new(AtomicBool::new(false)),
        };
        let endgame = if self.use_endgame && self.game == Game::Oware {
            shelf().current()
        } else {
            Arc::new(OwareEndgame::default())
        };
        self.debug(&format!(
            "thinking on {} ({}), endgame database up to {} seeds",
            self.position.fen(),
            self.position.game(),
            endgame
                .max_seeds()
                .map_or_else(|| "no".to_string(), |n| n.to_string())
        ));
        let stop = Arc::clone(&limits.stop);
        let hold_flag = Arc::new(AtomicBool::new(hold));
        let job = SearchJob {
            position: self.position.clone(),
            depth: go.depth,
            limits,
            hold: Arc::clone(&hold_flag),
            endgame,
        };
        let handle = think::start(searchers, job, self.out.clone());
        self.running = Some(Running {
            handle,
            stop,
            hold: hold_flag,
            ponder_budget: if go.ponder { budget } else { None },
        });
    }

    /// Takes the searchers back from a search that has ended by itself.
    fn reclaim(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.join();
        }
    }

    /// Stops the search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Release);
            running.hold.store(false, Ordering::Release);
        }
        self.join();
    }

    fn join(&mut self) {
        self.deadline = None;
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(searchers) => self.searchers = Some(searchers),
                Err(_) => {
                    self.error("the search failed; its tables are new");
                    self.searchers = Some(Searchers::new(self.hash_mb));
                }
            }
        }
    }
}

/// How long `go` may think: `movetime`, else a share of the mover's clock
/// (`None` when it sets neither but a depth, positions, or no end).
fn move_budget(go: &Go, mover: Side) -> Option<Duration> {
    if let Some(ms) = go.movetime {
        return Some(Duration::from_millis(ms));
    }
    let i = mover.index();
    if let Some(left) = go.time[i] {
        let left = Duration::from_millis(left);
        let increment = Duration::from_millis(go.increment[i].unwrap_or(0));
        let share = left
            / u32::try_from(go.moves_to_go.unwrap_or(MOVES_TO_GO).clamp(1, 1000)).unwrap_or(1)
            + increment * 3 / 4;
        let most = (left / 2).saturating_sub(OVERHEAD);
        return Some(share.min(most).max(Duration::from_millis(5)));
    }
    if go.depth.is_some() || go.nodes.is_some() || go.infinite {
        return None;
    }
    Some(DEFAULT_MOVE_TIME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_shared_over_the_moves_to_go_and_never_spent_past_half() {
        let go = Go {
            time: [Some(50_000), Some(1_000)],
            increment: [Some(2_000), None],
            ..Go::default()
        };
        assert_eq!(
            move_budget(&go, Side::South),
            Some(Duration::from_millis(2000 + 1500))
        );
        assert_eq!(
            move_budget(&go, Side::North),
            Some(Duration::from_millis(40))
        );
        let go = Go {
            time: [Some(100), None],
            increment: [Some(10_000), None],
            ..Go::default()
        };
        assert_eq!(
            move_budget(&go, Side::South),
            Some(Duration::from_millis(30))
        );
        assert_eq!(
            move_budget(&Go::default(), Side::South),
            Some(DEFAULT_MOVE_TIME)
        );
        let depth = Go {
            depth: Some(4),
            ..Go::default()
        };
        assert_eq!(move_budget(&depth, Side::South), None);
    }

    #[test]
    fn lines_are_bounded_and_the_rest_of_a_long_one_skipped() {
        let mut text = b"uci\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        text.extend_from_slice(b"\nisready\n\xff\nlast");
        let (send, lines) = mpsc::channel();
        read_lines(&text[..], &send);
        let got: Vec<String> = lines
            .try_iter()
            .map(|input| match input {
                ReadLine::Line(l) => l,
                ReadLine::TooLong => "<too long>".into(),
                ReadLine::End => "<end>".into(),
            })
            .collect();
        assert_eq!(
            got,
            ["uci", "<too long>", "isready", "\u{fffd}", "last", "<end>"]
        );
    }
}
