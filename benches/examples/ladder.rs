//! Measures the ladder of computer levels and writes its table.
//!
//! `cargo run --profile fast -p mancala-benches --example ladder -- --rounds 24 > /tmp/ladder.md`
//!
//! A round-robin arena: every level of `level:N` against every other, on
//! Kalah(6,4) with capture always and capture nonempty, `--rounds` rounds
//! per pair and per rule (each level starts half of them; one thread per
//! rule). A Bradley–Terry fit of all the rounds (draws half, one virtual
//! draw between neighbouring levels so that perfect play's rating stays
//! finite) gives each level its rating, level 1 anchored at `--anchor`,
//! with 95% intervals. It writes the table to `src/players/ladder.json`
//! (`--out` elsewhere; `mancala levels` prints what the program was built
//! with) and prints on stdout the table and each level's distribution of
//! move losses under perfect play (from the first `--analysed` rounds of
//! each pair, solved exactly), as docs/PERFORMANCE.md shows them.
//! `--pairs N` plays only pairs at most N levels apart (tuning runs).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mancala::players::ladder::{Ladder, Pairing, Rung, fit};
use mancala::players::solver::book;
use mancala::players::{LevelPlayer, Limits, MAX_LEVEL, Solver, TurnFn};
use mancala::rules::{Board, Capture, Rules, Side};

struct Options {
    rounds: u32,
    analysed: u32,
    pairs: u8,
    anchor: f64,
    seed: u64,
    out: String,
}

fn options() -> Options {
    let mut o = Options {
        rounds: 24,
        analysed: 2,
        pairs: MAX_LEVEL,
        anchor: 800.0,
        seed: 1,
        out: "src/players/ladder.json".into(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map_or("", String::as_str);
        let number = || value.parse::<u64>().expect("a whole number");
        match pair[0].as_str() {
            "--rounds" => o.rounds = number() as u32,
            "--analysed" => o.analysed = number() as u32,
            "--pairs" => o.pairs = number() as u8,
            "--anchor" => o.anchor = number() as f64,
            "--seed" => o.seed = number(),
            "--out" => o.out = value.to_string(),
            other => panic!("unknown option {other}"),
        }
    }
    o
}

/// Losses of one level's moves, in seeds against perfect play.
#[derive(Default, Clone)]
struct Losses {
    moves: u64,
    total: u64,
    /// 0, 1–2, 3–6, 7–12, 13 or more (Kalah's margins, and so its
    /// losses, are even when the seeds are).
    bins: [u64; 5],
}

impl Losses {
    fn add(&mut self, loss: i32) {
        let loss = loss.max(0) as u64;
        self.moves += 1;
        self.total += loss;
        let bin = match loss {
            0 => 0,
            1..=2 => 1,
            3..=6 => 2,
            7..=12 => 3,
            _ => 4,
        };
        self.bins[bin] += 1;
    }
}

/// The exact value of `board` for its side to move: the book first, then
/// the solver (`None` when it does not prove it within 0.2 s: such moves
/// are left out of the distribution, which the output says).
fn exact(solver: &mut Solver, board: &Board) -> Option<i32> {
    let base = board.score().margin(board.to_move());
    if board.is_over() {
        return Some(base);
    }
    if let Some(entry) = book::shipped().get(board) {
        return Some(base + entry.future);
    }
    solver.value(board, &Limits::time(Duration::from_millis(200)))
}

/// What one rule's thread measured.
struct Measured {
    /// (lower level index, higher level index, rounds, lower's score).
    pairings: Vec<Pairing>,
    losses: Vec<Losses>,
}

fn limits_for(level: u8) -> Limits {
    if level == MAX_LEVEL {
        Limits::time(Duration::from_secs(2))
    } else {
        Limits::none()
    }
}

fn run_rule(rules: Rules, o: &Options, log: &Mutex<()>) -> Measured {
    let n = usize::from(MAX_LEVEL);
    let mut players: Vec<LevelPlayer> = (1..=MAX_LEVEL)
        .map(|l| LevelPlayer::new(l, o.seed.wrapping_mul(1000) + u64::from(l)))
        .collect();
    let mut solver = Solver::new(256 << 20).with_threads(1);
    let mut losses = vec![Losses::default(); n];
    let mut pairings = Vec::new();
    let t0 = Instant::now();
    for a in 0..n {
        for b in a + 1..n {
            if b - a > usize::from(o.pairs) {
                continue;
            }
            let mut score = 0.0;
            for round in 0..o.rounds {
                let starter = if round % 2 == 0 {
                    Side::South
                } else {
                    Side::North
                };
                let mut board = Board::starting(rules, starter);
                let analyse = round < o.analysed;
                let mut value = if analyse {
                    exact(&mut solver, &board)
                } else {
                    None
                };
                while !board.is_over() {
                    let mover = board.to_move();
                    let index = if mover == Side::South { a } else { b };
                    let level = index as u8 + 1;
                    let (low, high) = players.split_at_mut(b);
                    let player: &mut LevelPlayer = if index == a {
                        &mut low[a]
                    } else {
                        &mut high[0]
                    };
                    let pit = player
                        .choose(&board, &limits_for(level))
                        .expect("a level answers");
                    assert!(board.legal_moves().contains(pit));
                    board.play_unchecked(pit);
                    if analyse {
                        let after = exact(&mut solver, &board);
                        if let (Some(before), Some(after_v)) = (value, after) {
                            let mine = if board.is_over() || board.to_move() == mover {
                                after_v
                            } else {
                                -after_v
                            };
                            losses[index].add(before - mine);
                        }
                        value = after;
                    }
                }
                let margin = board.score().margin(Side::South);
                score += match margin.signum() {
                    1 => 1.0,
                    0 => 0.5,
                    _ => 0.0,
                };
            }
            pairings.push(Pairing {
                a,
                b,
                rounds: f64::from(o.rounds),
                score_a: score,
            });
            let _guard = log.lock();
            eprintln!(
                "{:?} level {} vs {}: {score}/{} ({:.0?})",
                rules.capture(),
                a + 1,
                b + 1,
                o.rounds,
                t0.elapsed()
            );
        }
    }
    Measured { pairings, losses }
}

fn main() {
    let o = options();
    let n = usize::from(MAX_LEVEL);
    let rule_set = [
        (
            "Kalah(6,4), capture always",
            Rules::KALAH.with_capture(Capture::Always),
        ),
        (
            "Kalah(6,4), capture nonempty",
            Rules::KALAH.with_capture(Capture::NonEmpty),
        ),
    ];
    let log = Mutex::new(());
    let stop = Arc::new(AtomicBool::new(false));
    let measured: Vec<Measured> = std::thread::scope(|s| {
        let handles: Vec<_> = rule_set
            .iter()
            .map(|&(_, rules)| {
                let (o, log) = (&o, &log);
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(s, move || run_rule(rules, o, log))
                    .expect("a thread")
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    drop(stop);
    let pairings: Vec<Pairing> = measured.iter().flat_map(|m| m.pairings.clone()).collect();
    let result = fit(n, &pairings, 1.0);
    let mut losses = vec![Losses::default(); n];
    for m in &measured {
        for (all, one) in losses.iter_mut().zip(&m.losses) {
            all.moves += one.moves;
            all.total += one.total;
            for (a, b) in all.bins.iter_mut().zip(one.bins) {
                *a += b;
            }
        }
    }
    let score_between = |a: usize, b: usize| -> (f64, f64) {
        pairings
            .iter()
            .filter(|p| p.a == a && p.b == b)
            .fold((0.0, 0.0), |(s, r), p| (s + p.score_a, r + p.rounds))
    };
    let levels: Vec<Rung> = (0..n)
        .map(|i| {
            let (score_vs_below, gap, gap_interval) = if i == 0 {
                (0.0, 0.0, 0.0)
            } else {
                let (s, r) = score_between(i - 1, i);
                (
                    if r > 0.0 { 1.0 - s / r } else { 0.0 },
                    result.ratings[i] - result.ratings[i - 1],
                    result.gap_interval(i, i - 1),
                )
            };
            let rounds: f64 = pairings
                .iter()
                .filter(|p| p.a == i || p.b == i)
                .map(|p| p.rounds)
                .sum();
            Rung {
                level: i as u8 + 1,
                rating: (o.anchor + result.ratings[i]).round(),
                interval: result.interval(i).round(),
                gap: gap.round(),
                gap_interval: gap_interval.round(),
                score_vs_below: (score_vs_below * 1000.0).round() / 1000.0,
                rounds: rounds as u32,
            }
        })
        .collect();
    let mut command = format!(
        "cargo run --profile fast -p mancala-benches --example ladder -- --rounds {} --analysed {} --seed {}",
        o.rounds, o.analysed, o.seed
    );
    if o.pairs < MAX_LEVEL {
        command += &format!(" --pairs {}", o.pairs);
    }
    let ladder = Ladder {
        command: command.clone(),
        rounds_per_pair: o.rounds,
        boards: rule_set
            .iter()
            .map(|(name, _)| (*name).to_string())
            .collect(),
        anchor: o.anchor,
        levels,
    };
    let json = serde_json::to_string_pretty(&ladder).expect("serialisable");
    std::fs::write(&o.out, json + "\n").expect("the table written");
    println!("`{command}`\n");
    println!(
        "| level | rating | 95% | gap to the level below | 95% | score vs the level below | rounds |"
    );
    println!("|---|---|---|---|---|---|---|");
    for r in &ladder.levels {
        println!(
            "| {} | {} | ±{} | {} | ±{} | {:.3} | {} |",
            r.level, r.rating, r.interval, r.gap, r.gap_interval, r.score_vs_below, r.rounds
        );
    }
    println!(
        "\nMove losses under perfect play (seeds), first {} rounds of each pair (moves whose positions the book or the solver valued within 0.2 s):\n",
        o.analysed
    );
    println!("| level | moves | mean loss | 0 | 1–2 | 3–6 | 7–12 | 13+ |");
    println!("|---|---|---|---|---|---|---|---|");
    for (i, l) in losses.iter().enumerate() {
        let pct = |x: u64| 100.0 * x as f64 / l.moves.max(1) as f64;
        println!(
            "| {} | {} | {:.2} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            i + 1,
            l.moves,
            l.total as f64 / l.moves.max(1) as f64,
            pct(l.bins[0]),
            pct(l.bins[1]),
            pct(l.bins[2]),
            pct(l.bins[3]),
            pct(l.bins[4])
        );
    }
}
