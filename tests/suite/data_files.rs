//! The data directory and the statistics through the real binary (issue 24,
//! points 2 and 4): linked folders are never written through, a save past
//! counting is refused, the solitaire plan stays within a bound of memory,
//! and `mancala stats` keeps rules apart and names together.
//! Each run has its own data directory, no terminal, and a time limit.

use crate::common;

use std::fs;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::scratch::Scratch;
use common::tmux::binary;

/// The longest any one run of the binary may take here.
const LIMIT: Duration = Duration::from_secs(30);

/// What a run of the binary did.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut = |text: &str| text.chars().take(3000).collect::<String>();
        write!(
            f,
            "{}\nstdout: {}\nstderr: {}",
            self.status,
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }
}

/// Runs `program` with `args`, its data in `data` and `input` on standard
/// input; killed (failing the test) past [`LIMIT`].
fn run_program(program: &str, data: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(program)
        .args(args)
        .env("MANCALA_DATA_DIR", data)
        .env("MANCALA_CONFIG_DIR", data.join("config"))
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out_pipe.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err_pipe.read_to_end(&mut text);
        text
    });
    let until = Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            break status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{program} {args:?} did not end within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Run {
        status,
        stdout: String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
    }
}

fn mancala(data: &Path, args: &[&str], input: &str) -> Run {
    run_program(&binary(), data, args, input)
}

/// The files under `dir`, whatever their depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// A quick computer round: one round of two greedy players on a tiny board.
const QUICK_ROUND: &[&str] = &[
    "--south",
    "greedy",
    "--north",
    "greedy",
    "--pits",
    "2",
    "--seeds",
    "1",
    "--think",
    "10",
    "--no-animation",
    "--plain",
];

#[cfg(unix)]
#[test]
fn linked_folders_in_the_data_directory_are_not_written_through() {
    let scratch = Scratch::new("linked");
    let data = scratch.data();
    let elsewhere = scratch.file("elsewhere");
    fs::create_dir_all(&data).unwrap();
    let link = |name: &str| {
        fs::create_dir_all(elsewhere.join(name)).unwrap();
        std::os::unix::fs::symlink(elsewhere.join(name), data.join(name)).unwrap();
    };
    let own = |name: &str| {
        fs::remove_file(data.join(name)).unwrap();
        fs::create_dir(data.join(name)).unwrap();
    };
    for name in ["saves", "records", "locks"] {
        link(name);
    }
    // A move and a quit would leave a save; a finished round a record.
    let run = mancala(&data, &["Alice", "Bob", "--plain"], "c\nq\n");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(
        run.stderr
            .contains("saves is a symbolic link, not a folder"),
        "{run:?}"
    );
    own("saves");
    let run = mancala(&data, &["Alice", "Bob", "--plain"], "c\nq\n");
    assert!(
        run.stderr
            .contains("locks is a symbolic link, not a folder"),
        "{run:?}"
    );
    own("locks");
    let run = mancala(&data, QUICK_ROUND, "n\n");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(
        run.stdout
            .contains("records is a symbolic link, not a folder")
            || run
                .stderr
                .contains("records is a symbolic link, not a folder"),
        "{run:?}"
    );
    assert_eq!(
        files_under(&elsewhere),
        Vec::<PathBuf>::new(),
        "nothing lands in a link's target"
    );
    // With the folders its own, the game keeps everything again.
    own("records");
    let run = mancala(&data, &["Alice", "Bob", "--plain"], "c\nq\n");
    assert!(run.stderr.is_empty(), "{run:?}");
    // Beside the save, the note of the quick round whose record could not
    // be written (`.closing`): that match's next start records it.
    let saves = files_under(&data.join("saves"));
    let ext = |p: &PathBuf| p.extension().map(|e| e.to_string_lossy().into_owned());
    assert_eq!(
        saves
            .iter()
            .filter(|p| ext(p).as_deref() == Some("txt"))
            .count(),
        1,
        "{run:?}"
    );
    assert!(
        saves
            .iter()
            .all(|p| matches!(ext(p).as_deref(), Some("txt" | "closing"))),
        "{saves:?}"
    );
}

#[test]
fn a_save_past_counting_is_refused_not_wrapped() {
    let scratch = Scratch::new("round");
    let data = scratch.data();
    let run = mancala(&data, &["Alice", "Bob", "--plain"], "c\nq\n");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let saves = files_under(&data.join("saves"));
    assert_eq!(saves.len(), 1, "{saves:?}");
    let text = fs::read_to_string(&saves[0]).unwrap();
    assert!(text.contains("\nround: 1\n"), "{text}");
    fs::write(
        &saves[0],
        text.replace("\nround: 1\n", "\nround: 4294967295\n"),
    )
    .unwrap();
    let run = mancala(&data, &["Alice", "Bob", "--plain"], "y\nq\n");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(!all.contains("4294967295, 1 move played"), "{run:?}");
    assert!(
        all.contains("the saved match cannot be used (its round number 4294967295 is past the most a match counts, 1000000)"),
        "{run:?}"
    );
    assert!(all.contains("Round 1: Alice moves first."), "{run:?}");
    // The refused save is kept aside for the player, not overwritten.
    let kept_aside = files_under(&data.join("saves"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".corrupt-"))
        .count();
    assert_eq!(kept_aside, 1);
}

/// The most memory, in kibibytes, that `solitaire --plan` may map for the
/// largest deal (it runs in 16 MiB; the whole plan held as JSON values took
/// some 770 MiB). For
/// the largest deal, the board is 5,604 houses and the plan 10 million moves,
/// written out as they are found rather than held.
#[cfg(target_os = "linux")]
const PLAN_MEMORY_KIB: u64 = 64 * 1024;

#[cfg(target_os = "linux")]
#[test]
fn the_largest_solitaire_plan_stays_within_a_bound_of_memory() {
    let scratch = Scratch::new("plan");
    // The shell's `ulimit -v` caps the address space of the binary it runs:
    // past it, an allocation fails and the binary aborts.
    let script =
        format!("ulimit -v {PLAN_MEMORY_KIB} && exec \"$0\" solitaire --seeds 10000000 --plan");
    let run = run_program("sh", &scratch.data(), &["-c", &script, &binary()], "");
    assert_eq!(run.status.code(), Some(0), "{:?}", run.stderr);
    // The moves are checked as text: the test holds no ten million values.
    let text = run.stdout.trim_end();
    let (head, rest) = text.split_once(",\"moves\":[").expect("the moves");
    let (moves, tail) = rest.split_once(']').expect("the end of the moves");
    let board: Vec<u64> = serde_json::from_str(head.strip_prefix("{\"board\":").unwrap()).unwrap();
    assert_eq!(board.len(), 5_605, "the store and 5,604 houses");
    assert_eq!(board.iter().sum::<u64>(), 10_000_000);
    // Every move brings exactly one seed into the store.
    assert_eq!(moves.split(',').count(), 10_000_000);
    assert!(
        moves
            .split(',')
            .take(1000)
            .all(|m| m.parse::<usize>().is_ok())
    );
    assert!(
        tail.starts_with(",\"won\":true,\"final\":[10000000,0,"),
        "{}",
        &tail[..60]
    );
}

#[test]
fn stats_keep_rules_apart_and_names_together_whatever_their_case() {
    let scratch = Scratch::new("stats");
    let data = scratch.data();
    // Two greedy players, named seat by seat, one round each.
    let round = |south: &str, north: &str, pits: &str| {
        let mut args = QUICK_ROUND.to_vec();
        let at = args.iter().position(|a| *a == "2").unwrap();
        args[at] = pits;
        args.extend([south, north]);
        let run = mancala(&data, &args, "n\n");
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    };
    round("alice", "Bob", "2");
    round("BOB", "Alice", "2");
    round("Alice", "bob", "3");
    let run = mancala(&data, &["stats", "--json"], "");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let pairs = json["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 2, "{json}");
    // The rules played most first; each name as last written.
    assert_eq!(pairs[0]["players"], serde_json::json!(["Alice", "bob"]));
    assert_eq!(pairs[0]["rounds"], 2, "{json}");
    assert!(
        pairs[0]["rules"]
            .as_str()
            .unwrap()
            .starts_with("2 pits × 1 seed"),
        "{json}"
    );
    assert_eq!(pairs[1]["rounds"], 1, "{json}");
    assert!(
        pairs[1]["rules"]
            .as_str()
            .unwrap()
            .starts_with("3 pits × 1 seed"),
        "{json}"
    );
    let total = |pair: &serde_json::Value| {
        pair["wins"][0].as_u64().unwrap()
            + pair["wins"][1].as_u64().unwrap()
            + pair["draws"].as_u64().unwrap()
    };
    assert_eq!(total(&pairs[0]), 2, "{json}");
    let run = mancala(&data, &["stats"], "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{run:?}");
    assert!(lines[0].starts_with("Rules: 2 pits × 1 seed"), "{run:?}");
    assert!(
        lines[1].starts_with("  Alice vs bob: 2 rounds; "),
        "{run:?}"
    );
    assert!(lines[2].starts_with("Rules: 3 pits × 1 seed"), "{run:?}");
    assert!(lines[3].starts_with("  Alice vs bob: 1 round; "), "{run:?}");
}

/// Each side's (seeds lost, moves) in `mancala analyze --json FILE`.
fn analysed_losses(data: &Path, file: &Path) -> [(u64, u64); 2] {
    let run = mancala(data, &["analyze", "--json", file.to_str().unwrap()], "");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let mut sums = [(0, 0); 2];
    for m in json["moves"].as_array().unwrap() {
        let side = usize::from(m["side"] == "north");
        sums[side].0 += m["loss"].as_u64().unwrap();
        sums[side].1 += 1;
    }
    sums
}

#[test]
fn stats_with_the_analysis_give_each_players_mean_loss_analysed_once() {
    let scratch = Scratch::new("stats-analysis");
    let data = scratch.data();
    for _ in 0..2 {
        let args = [
            "--south",
            "greedy",
            "--north",
            "random",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--think",
            "10",
            "--no-animation",
            "--plain",
            "Alice",
            "Bob",
        ];
        let run = mancala(&data, &args, "n\n");
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
    // What `mancala analyze` says of each record, added up per side.
    let records = files_under(&data.join("records"));
    assert_eq!(records.len(), 2, "{records:?}");
    let mut lost = [0u64; 2];
    let mut moves = [0u64; 2];
    for record in &records {
        for (side, (l, m)) in analysed_losses(&data, record).into_iter().enumerate() {
            lost[side] += l;
            moves[side] += m;
        }
    }
    let stats = |args: &[&str]| {
        let run = mancala(&data, args, "");
        assert_eq!(run.status.code(), Some(0), "{run:?}");
        run
    };
    let first = stats(&["stats", "--analysis", "--json"]);
    assert!(
        first.stderr.contains("analysed 2 recorded rounds"),
        "{first:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&first.stdout).expect("JSON");
    let pair = &json["pairs"][0];
    assert_eq!(
        pair["players"],
        serde_json::json!(["Alice", "Bob"]),
        "{json}"
    );
    assert_eq!(pair["analysed_rounds"], 2, "{json}");
    assert_eq!(pair["rounds_left_out"], 0, "{json}");
    assert_eq!(pair["estimated_moves"], serde_json::json!([0, 0]), "{json}");
    assert_eq!(pair["analysed_moves"], serde_json::json!(moves), "{json}");
    assert_eq!(pair["seeds_lost"], serde_json::json!(lost), "{json}");
    let mean = |i: usize| lost[i] as f64 / moves[i] as f64;
    assert_eq!(pair["mean_loss"], serde_json::json!([mean(0), mean(1)]));
    let cache = data.join("analysis-cache.jsonl");
    assert_eq!(fs::read_to_string(&cache).unwrap().lines().count(), 2);

    // Analysed once: the next run answers from the cache, the same.
    let again = stats(&["stats", "--analysis", "--json"]);
    assert_eq!(again.stdout, first.stdout);
    assert!(!again.stderr.contains("analysed"), "{again:?}");
    // A corrupt cache is analysed again, to the same figures.
    fs::write(&cache, "\u{0}garbage{\"record\":\n").unwrap();
    let recomputed = stats(&["stats", "--analysis", "--json"]);
    assert_eq!(recomputed.stdout, first.stdout);
    assert!(recomputed.stderr.contains("analysed 2 recorded rounds"));
    assert!(recomputed.stderr.contains("kept in"), "{recomputed:?}");
    // A cache that cannot be used (a FIFO): the rounds are analysed, and
    // nothing claims they were kept.
    fs::remove_file(&cache).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&cache).status();
    if made.is_ok_and(|s| s.success()) {
        let unkept = stats(&["stats", "--analysis", "--json"]);
        assert_eq!(unkept.stdout, first.stdout);
        assert!(
            unkept.stderr.contains("analysed 2 recorded rounds"),
            "{unkept:?}"
        );
        assert!(
            unkept.stderr.contains("cannot use the analyses kept in"),
            "{unkept:?}"
        );
        assert!(!unkept.stderr.contains("for next time"), "{unkept:?}");
        fs::remove_file(&cache).unwrap();
    }

    // A round whose record is gone is left out, and the text says so.
    fs::remove_file(&records[0]).unwrap();
    let text = stats(&["stats", "--analysis"]);
    assert!(
        text.stdout
            .contains("(1 of 2 rounds analysed, 1 without a record left out; all "),
        "{text:?}"
    );
    assert!(
        text.stdout.contains("mean loss per move: Alice "),
        "{text:?}"
    );
    // Without --analysis, nothing of it; --think alone is refused.
    assert!(!stats(&["stats"]).stdout.contains("mean loss"));
    let refused = mancala(&data, &["stats", "--think", "5"], "");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
}
