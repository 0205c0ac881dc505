//! The engine's thinking, on a thread of its own so that `stop`,
//! `isready` and `ponderhit` are answered while it thinks: one search per
//! `go`, its `info` lines as each iteration ends, then `bestmove` (held
//! back while the search is infinite or pondering, until `stop` or
//! `ponderhit`, as the protocol asks).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::EngineOutput;
use super::notation::EnginePosition;
use crate::players::oware::{OwareEndgame, OwareSearch};
use crate::players::{Engine, Limits};
use crate::rules::{GameRound, Pit};

/// The deepest Oware iteration when `go` sets no depth.
const MAX_OWARE_DEPTH: u32 = 200;
/// Bytes per Oware table entry (13, aligned to 16).
const OWARE_ENTRY_BYTES: usize = 16;
/// Bytes per Kalah table bucket.
const KALAH_BUCKET_BYTES: usize = 32;

/// The searchers and their tables, kept from one move to the next.
pub struct Searchers {
    oware: OwareSearch,
    kalah: Engine,
    hash_mb: usize,
}

/// `log2` of the entries of `size` bytes that fit in `mb` megabytes.
fn table_bits(mb: usize, size: usize) -> u32 {
    let entries = (mb << 20) / size;
    entries.max(2).ilog2()
}

impl Searchers {
    /// Searchers whose tables take about `hash_mb` megabytes each.
    #[must_use]
    pub fn new(hash_mb: usize) -> Searchers {
        Searchers {
            oware: OwareSearch::new(
                table_bits(hash_mb, OWARE_ENTRY_BYTES),
                Arc::new(OwareEndgame::default()),
            ),
            kalah: Engine::new(table_bits(hash_mb, KALAH_BUCKET_BYTES)),
            hash_mb,
        }
    }

    /// Forgets every position searched.
    pub fn clear(&mut self) {
        *self = Searchers::new(self.hash_mb);
    }
}

/// One `go`.
pub struct SearchJob {
    /// The position.
    pub position: EnginePosition,
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// Time, positions and the stop flag.
    pub limits: Limits,
    /// While set, `bestmove` waits (infinite search, pondering).
    pub hold: Arc<AtomicBool>,
    /// The endgame database to probe (Oware).
    pub endgame: Arc<OwareEndgame>,
}

/// Starts `job` on a thread; the thread gives the searchers back when it
/// has said its `bestmove`.
pub fn start(
    mut searchers: Searchers,
    job: SearchJob,
    out: EngineOutput,
) -> thread::JoinHandle<Searchers> {
    thread::spawn(move || {
        think(&mut searchers, &job, &out);
        searchers
    })
}

fn think(searchers: &mut Searchers, job: &SearchJob, out: &EngineOutput) {
    let started = Instant::now();
    let position = &job.position;
    let mut best: Option<Pit> = None;
    let mut ponder: Option<Pit> = None;
    if position.is_over() {
        out.line("info string the round is over: no move");
    } else {
        match &position.0 {
            GameRound::Oware(round) => {
                let board = round.board();
                let search = &mut searchers.oware;
                search.set_endgame(Arc::clone(&job.endgame));
                // the real round's values near its end, with the database
                if job.endgame.max_seeds().is_some() {
                    search.take_real_when_built(board);
                } else {
                    search.set_real(Arc::default());
                }
                let depth = job.depth.unwrap_or(MAX_OWARE_DEPTH).min(MAX_OWARE_DEPTH);
                let mut line = Vec::new();
                let result = search.search_reporting(board, depth, &job.limits, &mut |r, pv| {
                    line = pv.to_vec();
                    out.line(&info(
                        r.depth,
                        r.value,
                        r.nodes,
                        started.elapsed(),
                        &position.letters(pv),
                    ));
                });
                if line.first() != result.best.as_ref() {
                    line.clear();
                }
                best = result.best;
                ponder = line.get(1).copied();
            }
            GameRound::Kalah(board) => {
                let depth = job.depth.unwrap_or(u32::MAX);
                if let Some(result) = searchers.kalah.search(board, &job.limits, depth, None) {
                    out.line(&info(
                        result.depth,
                        result.value,
                        result.nodes,
                        started.elapsed(),
                        &position.letters(&[result.best]),
                    ));
                    best = Some(result.best);
                }
            }
        }
        // A search stopped before its first iteration still has a move.
        if best.is_none() {
            best = position.legal_pits().first().copied();
        }
    }
    while job.hold.load(Ordering::Acquire) && !job.limits.stopped() {
        thread::sleep(Duration::from_millis(2));
    }
    out.line(&match (best, ponder) {
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            position.letter(best),
            position.letter(ponder)
        ),
        (Some(best), None) => format!("bestmove {}", position.letter(best)),
        (None, _) => "bestmove 0000".to_string(),
    });
}

/// An `info` line: the value in hundredths of a seed from the mover's side.
fn info(depth: u32, value: i32, nodes: u64, took: Duration, line: &str) -> String {
    let ms = took.as_millis();
    let mut text = format!(
        "info depth {depth} score cp {} nodes {nodes} time {ms}",
        100 * value
    );
    if !line.is_empty() {
        text.push_str(" pv ");
        text.push_str(line);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_fit_the_megabytes_given() {
        assert_eq!(table_bits(16, 16), 20);
        assert_eq!(table_bits(1, 32), 15);
        assert_eq!(table_bits(0, 16), 1);
    }
}
