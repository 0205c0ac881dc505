//! The computer players' headless commands, through the real binary, and
//! the strength ladder through the arena.

use std::process::{Command, Output};

use mancala::commands::arena::{MoveBudget, play_arena};
use mancala::players::PlayerKind;
use mancala::rules::Rules;

fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Exit code 2 and exactly one line on stderr mentioning `needle`.
fn assert_usage_error(args: &[&str], needle: &str) {
    let output = mancala(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn solve_prints_value_every_best_move_nodes_and_seconds() {
    let report = json(&mancala(&[
        "solve",
        "--pits",
        "3",
        "--seeds",
        "2",
        "--capture",
        "nonempty",
    ]));
    assert_eq!(report["value"], 4);
    let best = report["best"].as_array().unwrap();
    assert!(!best.is_empty());
    assert!(report["nodes"].as_u64().is_some());
    assert!(report["seconds"].as_f64().is_some());
    // every listed move keeps the value: after it, the solver agrees
    for letter in best {
        let letter = letter.as_str().unwrap();
        let after = json(&mancala(&[
            "solve",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--capture",
            "nonempty",
            "--moves",
            letter,
        ]));
        let position = json(&mancala(&[
            "position",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--capture",
            "nonempty",
            "--moves",
            letter,
        ]));
        let same_side = position["to_move"] == "south";
        let v = after["value"].as_i64().unwrap();
        assert_eq!(
            if same_side { v } else { -v },
            4,
            "after {letter}: {after} {position}"
        );
    }
}

#[test]
fn solve_of_a_finished_position_is_its_score() {
    // South's pits are empty: North sweeps its 3 seeds, 20 against 28.
    let report = json(&mancala(&[
        "solve",
        "--board",
        "0,0,0,0,0,0,20,1,2,0,0,0,0,25",
    ]));
    assert_eq!(report["value"], -8);
    assert_eq!(report["best"], serde_json::json!([]));
    // with no sweep the seeds left count for nobody
    let report = json(&mancala(&[
        "solve",
        "--sweep",
        "none",
        "--board",
        "0,0,0,0,0,0,20,1,2,0,0,0,0,25",
    ]));
    assert_eq!(report["value"], -5);
}

#[test]
fn bad_input_gives_exit_code_2_and_one_line() {
    assert_usage_error(&["arena", "wizard", "greedy"], "wizard");
    assert_usage_error(&["arena", "hard", "tree:99"], "tree");
    assert_usage_error(&["arena", "human", "greedy"], "human");
    assert_usage_error(&["arena", "hard", "greedy", "--think", "0"], "--think");
    assert_usage_error(&["arena", "hard", "greedy", "--think", "soon"], "--think");
    assert_usage_error(&["--north", "hard", "--think", "-3"], "-3");
    assert_usage_error(&["solve", "--board", "1,2,3"], "");
    assert_usage_error(&["solve", "--board", "4,4,x,4,4,4,0,4,4,4,4,4,4,0"], "x");
    assert_usage_error(&["solve", "--moves", "h"], "h");
    assert_usage_error(&["solve", "--memory", "0"], "--memory");
    assert_usage_error(&["solve", "--think", "-1"], "-1");
    assert_usage_error(&["solve", "--threads", "0"], "--threads");
    assert_usage_error(&["solve", "--pits", "12", "--seeds", "20"], "255");
}

#[test]
fn a_stopped_solve_reports_the_bounds_proven_so_far() {
    let report = json(&mancala(&[
        "solve",
        "--pits",
        "6",
        "--seeds",
        "4",
        "--nodes",
        "20000",
        "--threads",
        "1",
    ]));
    assert_eq!(report["value"], serde_json::Value::Null);
    let bounds = report["bounds"].as_array().unwrap();
    let (lo, hi) = (bounds[0].as_i64().unwrap(), bounds[1].as_i64().unwrap());
    // Kalah(6,4) capture always is worth 10 to the first player
    assert!(
        (-48..=10).contains(&lo) && (10..=48).contains(&hi),
        "{report}"
    );
    assert_eq!(report["nodes"], 20000);
    assert!(report["memory_mb"].as_f64().unwrap() <= 1024.0);
    let report = json(&mancala(&[
        "solve", "--pits", "6", "--seeds", "4", "--think", "50", "--memory", "64",
    ]));
    assert_eq!(report["value"], serde_json::Value::Null, "{report}");
    assert!(report["memory_mb"].as_f64().unwrap() <= 64.0, "{report}");
}

#[test]
fn a_node_budget_is_kept_on_every_thread() {
    // the threads share the budget: together they search it, never more
    for _ in 0..5 {
        let report = json(&mancala(&[
            "solve",
            "--moves",
            "c,f",
            "--nodes",
            "1000",
            "--threads",
            "2",
        ]));
        let nodes = report["nodes"].as_u64().unwrap();
        assert!(nodes <= 1000, "{report}");
    }
}

#[test]
fn a_position_with_few_seeds_is_solved_with_a_database_of_its_seeds() {
    // 2 seeds in play on a Kalah(6,4) board: no 18-seed database first
    let report = json(&mancala(&[
        "solve",
        "--board",
        "0,0,0,0,0,1,10,0,0,0,0,0,1,0",
    ]));
    assert_eq!(report["value"], 10, "{report}");
    assert_eq!(report["best"], serde_json::json!(["f"]), "{report}");
    assert!(report["endgame_seeds"].as_u64().unwrap() <= 2, "{report}");
    assert!(report["memory_mb"].as_f64().unwrap() <= 1.0, "{report}");
}

#[test]
fn a_short_budget_sets_up_only_the_table_it_can_fill() {
    let report = json(&mancala(&["solve", "--moves", "c,f", "--think", "100"]));
    assert_eq!(report["value"], serde_json::Value::Null, "{report}");
    // the whole game's table is 512 MiB; 100 ms fill a small part of it
    assert!(report["memory_mb"].as_f64().unwrap() <= 160.0, "{report}");
}

#[test]
fn one_solver_thread_repeats_its_node_count() {
    let args = ["solve", "--pits", "5", "--seeds", "3", "--threads", "1"];
    let first = json(&mancala(&args));
    let second = json(&mancala(&args));
    assert_eq!(first["nodes"], second["nodes"]);
    assert_eq!(
        (&first["value"], &first["best"]),
        (&second["value"], &second["best"])
    );
    assert_eq!(first["threads"], 1);
}

#[test]
fn arena_with_a_node_budget_repeats_exactly() {
    let args = [
        "arena", "medium", "hard", "--rounds", "4", "--nodes", "3000", "--seed", "5", "--json",
        "--pits", "4", "--seeds", "3",
    ];
    let mut first = json(&mancala(&args));
    let mut second = json(&mancala(&args));
    // thinking times differ from run to run; everything else repeats
    for report in [&mut first, &mut second] {
        for player in ["a", "b"] {
            let times = report[player]
                .as_object_mut()
                .unwrap()
                .remove("move_ms")
                .expect("move_ms for each player");
            let (mean, p95, max) = (
                times["mean"].as_f64().unwrap(),
                times["p95"].as_f64().unwrap(),
                times["max"].as_f64().unwrap(),
            );
            assert!(0.0 <= mean && mean <= max && p95 <= max, "{times}");
        }
    }
    assert_eq!(first, second);
    let a = &first["a"];
    let total =
        a["wins"].as_u64().unwrap() + a["draws"].as_u64().unwrap() + a["losses"].as_u64().unwrap();
    assert_eq!(total, 4);
    assert_eq!(first["b"]["wins"], a["losses"]);
    assert!(first["mean_margin"].as_f64().is_some());
    assert_eq!(first["draws"], a["draws"]);
}

#[test]
fn arena_summary_names_both_players() {
    let output = mancala(&[
        "arena", "random", "greedy", "--rounds", "2", "--pits", "4", "--seeds", "2",
    ]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("random (A)") && text.contains("greedy (B)"),
        "{text}"
    );
    assert!(text.contains("mean margin"), "{text}");
    assert!(
        text.contains("A per move: mean") && text.contains("B per move: mean"),
        "{text}"
    );
    // no progress bar when stderr is not a terminal
    assert!(output.stderr.is_empty());
}

#[test]
fn hard_beats_greedy_and_tree_4() {
    for opponent in [PlayerKind::Greedy, PlayerKind::Tree(4)] {
        let result = play_arena(
            Rules::KALAH,
            [PlayerKind::Hard, opponent],
            6,
            3,
            MoveBudget::Nodes(50_000),
            |_| {},
        )
        .unwrap();
        assert!(result.a.wins >= 5, "hard against {opponent}: {result:?}");
    }
}

#[test]
fn perfect_never_loses_a_round_it_starts() {
    let result = play_arena(
        Rules::new(4, 3).unwrap(),
        [PlayerKind::Perfect, PlayerKind::Hard],
        6,
        11,
        MoveBudget::Nodes(5_000),
        |_| {},
    )
    .unwrap();
    // Kalah(4,3) is a first-player win by 8: starting, perfect wins
    assert_eq!(result.a.wins_starting, 3, "{result:?}");
    assert_eq!(result.a.losses_starting, 0, "{result:?}");
}

/// Issue 35 point 5: a deep tree out of time plays the best move of the
/// deepest tree it finished, never its first legal pit: `tree:12` beats
/// `random` on 12×20 in 25 ms a move (it lost both rounds, playing `a`,
/// `a`, `a`).
#[test]
fn a_deep_tree_out_of_time_still_beats_random_on_a_big_board() {
    let report = json(&mancala(&[
        "arena", "tree:12", "random", "--pits", "12", "--seeds", "20", "--rounds", "2", "--think",
        "25", "--json",
    ]));
    assert_eq!(report["a"]["wins"], 2, "{report}");
    assert!(report["mean_margin"].as_f64().unwrap() > 0.0, "{report}");
}

/// A level never loses to a lower one on average, on small and odd
/// boards (1×1 up): the mean margin of the higher level is never below 0.
#[test]
fn a_level_never_loses_to_a_lower_one_on_average() {
    for (pits, seeds) in [(1, 1), (2, 3), (3, 5), (5, 2), (7, 3)] {
        let rules = Rules::new(pits, seeds).unwrap();
        for (high, low) in [(3, 1), (6, 3), (10, 6)] {
            let result = play_arena(
                rules,
                [PlayerKind::Level(high), PlayerKind::Level(low)],
                8,
                5,
                MoveBudget::Nodes(200_000),
                |_| {},
            )
            .unwrap();
            assert!(
                result.mean_margin() >= 0.0,
                "level {high} against {low} on {pits}×{seeds}: {}",
                result.summary()
            );
        }
    }
}

/// `mancala levels --json` lists every level with its measured rating,
/// rising; the top is perfect play.
#[test]
fn levels_lists_every_level_with_a_rising_rating() {
    let list = json(&mancala(&["levels", "--json"]));
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 10);
    let ratings: Vec<i64> = list.iter().map(|l| l["rating"].as_i64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] < w[1]), "{ratings:?}");
    assert_eq!(list[0]["level"], 1);
    assert!(list[9]["plays"].as_str().unwrap().contains("perfect"));
    let text = mancala(&["levels"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("--example ladder"));
    assert_usage_error(&["arena", "level:auto", "random"], "level:auto");
    assert_usage_error(&["arena", "level:11", "random"], "level");
}

/// `mancala position --fair --seed K` deals the same position for the
/// same seed, with the usual seeds, South to move.
#[test]
fn position_fair_deals_a_repeatable_start() {
    let args = [
        "position", "--fair", "--pits", "3", "--seeds", "2", "--seed", "4",
    ];
    let first = json(&mancala(&args));
    assert_eq!(first, json(&mancala(&args)));
    assert_eq!(first["to_move"], "south");
    let board: Vec<u64> = first["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(board.iter().sum::<u64>(), 12);
    assert_ne!(board, vec![2, 2, 2, 0, 2, 2, 2, 0]);
    // the solver agrees it is a draw
    let counts: Vec<String> = board.iter().map(u64::to_string).collect();
    let solved = json(&mancala(&[
        "solve",
        "--pits",
        "3",
        "--seeds",
        "2",
        "--board",
        &counts.join(","),
    ]));
    assert_eq!(solved["value"], 0, "{solved}");
}
