//! The plain-text game, records, resume and statistics, through the real
//! binary: scripted input on a pipe, a fresh data directory per test.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mancala::game::{FirstMover, MatchConfig, Seat, outcome_message};
use mancala::plain::board::render;
use mancala::players::{Limits, PlayerKind, TurnFn, computer};
use mancala::rules::{Board, Rules, Side};
use mancala::store::{Record, SaveStore};

use crate::common;

use common::scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// A fresh, empty data directory for one test.
fn data_dir(tag: &str) -> Scratch {
    Scratch::new(&format!("plain-{tag}"))
}

fn command(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("MANCALA_DATA_DIR", data)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn run(data: &Path, args: &[&str], input: &str) -> Output {
    let mut child = command(data, args).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn config(rules: Rules, south: &str, north: &str) -> MatchConfig {
    MatchConfig {
        game: mancala::rules::Game::Kalah,
        rules,
        seats: [
            Seat::new(south, PlayerKind::Human),
            Seat::new(north, PlayerKind::Human),
        ],
        first: FirstMover::Alternate,
        start: None,
    }
}

/// A whole round played by always taking the rightmost legal pit: the
/// letters to type and every position on the way.
fn scripted_round(rules: Rules) -> (Vec<char>, Vec<Board>) {
    let mut board = Board::new(rules);
    let mut letters = Vec::new();
    let mut boards = vec![board];
    while let Some(pit) = board.legal_moves().last() {
        letters.push(rules.letter(pit).unwrap());
        board.play(pit).unwrap();
        boards.push(board);
    }
    (letters, boards)
}

/// The box of each board printed, in order (the five lines from `╔`).
fn boxes(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    (0..lines.len())
        .filter(|&i| lines[i].starts_with('╔'))
        .map(|i| lines[i..i + 5].join("\n"))
        .collect()
}

fn box_of(board: &Board, names: [&str; 2]) -> String {
    boxes(&render(board, names)).remove(0)
}

fn records(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn a_scripted_round_prints_every_board_the_result_and_the_score() {
    let scratch = data_dir("round");
    let data = scratch.path();
    let (letters, boards) = scripted_round(Rules::KALAH);
    let mut input: String = letters.iter().map(|c| format!("{c}\n")).collect();
    input.push_str("n\n");
    let out = run(
        data,
        &["--plain", "--no-animation", "Alice", "Michael"],
        &input,
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(!stdout.contains('\u{1b}'), "no escape codes");
    let names = ["Alice", "Michael"];
    let expected: Vec<String> = boards.iter().map(|b| box_of(b, names)).collect();
    assert_eq!(boxes(&stdout), expected, "{stdout}");
    assert!(stdout.contains("Alice, choose a pit (a-f): "), "{stdout}");
    assert!(stdout.contains("Michael, choose a pit (g-l): "), "{stdout}");
    assert!(
        !stdout.contains(" sows "),
        "--no-animation: boards only\n{stdout}"
    );
    let last = boards.last().unwrap();
    let result = outcome_message(last.outcome().unwrap(), last.score(), names);
    assert!(stdout.contains(&result), "{result}\n{stdout}");
    let tally = match last.outcome().unwrap().winner() {
        Some(Side::South) => "Alice 1 – 0 Michael, 0 draws",
        Some(Side::North) => "Alice 0 – 1 Michael, 0 draws",
        None => "Alice 0 – 0 Michael, 1 draw",
    };
    assert!(
        stdout.contains(&format!("Match score: {tally} (1 round).")),
        "{stdout}"
    );
    assert!(
        stdout.trim_end().ends_with(&format!(
            "Thanks for playing!\nMatch score: {tally} (1 round)."
        )),
        "{stdout}"
    );

    // The round's record replays to the same positions.
    let files = records(data);
    assert_eq!(files.len(), 1, "{files:?}");
    let record = Record::parse(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(record.stepper().unwrap().boards(), &boards[..]);
    assert!(
        stdout.contains(&format!("Round recorded in {}.", files[0].display())),
        "{stdout}"
    );
    let replay = run(
        data,
        &[
            "replay",
            "--plain",
            "--no-animation",
            files[0].to_str().unwrap(),
        ],
        "",
    );
    assert!(replay.status.success(), "{replay:?}");
    let replayed = text(&replay.stdout);
    assert_eq!(boxes(&replayed), expected, "{replayed}");
    assert!(replayed.contains(&result), "{replayed}");

    // The finished match left no save behind, and counts in the statistics.
    assert_eq!(std::fs::read_dir(data.join("saves")).unwrap().count(), 0);
    let stats = run(data, &["stats", "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    let pair = &json["pairs"][0];
    assert_eq!(pair["players"], serde_json::json!(["Alice", "Michael"]));
    assert_eq!(pair["rounds"], 1);
    let stats = text(&run(data, &["stats"], "").stdout);
    assert!(stats.contains("\n  Alice vs Michael: 1 round; "), "{stats}");
    std::fs::remove_dir_all(data).unwrap();
}

/// A capture says what it was worth and where the seeds came from
/// (RULES.md §3.4: 5 from g across, the last seed from f).
#[test]
fn a_capture_says_its_seeds_and_the_pits_they_came_from() {
    let scratch = data_dir("capture");
    let line =
        "kalah 6x4 capture=always sowing=single sweep=owner S:1,0,0,0,1,0:0 N:5,1,1,1,1,1:0 south";
    let args = [
        "--plain",
        "--no-animation",
        "Alice",
        "Michael",
        "--from",
        line,
    ];
    let out = run(scratch.path(), &args, "e\nq\n");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\nAlice captures 6 seeds: 5 from g, 1 from f.\n"),
        "{stdout}"
    );
}

/// The scripted match of the test above, played on the full screen (the
/// local game's `App`, drawn into ratatui's test backend before every
/// key), keeps the same record as plain mode: both drive the one session.
#[test]
fn the_scripted_match_on_the_full_screen_keeps_the_record_plain_mode_keeps() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use mancala::game::{Match, PlayOptions};
    use mancala::session::Session;
    use mancala::store::Keeper;
    use mancala::tui::input::Input;
    use ratatui::{Terminal, backend::TestBackend};

    let (letters, _) = scripted_round(Rules::KALAH);
    let plain_data = data_dir("plain-record");
    let mut input: String = letters.iter().map(|c| format!("{c}\n")).collect();
    input.push_str("n\n");
    let args = ["--plain", "--no-animation", "Alice", "Michael"];
    assert!(run(plain_data.path(), &args, &input).status.success());

    let screen_data = data_dir("screen-record");
    let store = SaveStore::at(screen_data.path()).unwrap();
    let game = Match::new(config(Rules::KALAH, "Alice", "Michael"), 1);
    let session =
        Session::thinking_outside(game, Duration::from_millis(10), Keeper::new(Some(store)));
    let options = PlayOptions {
        seed_delay: None,
        ..PlayOptions::default()
    };
    let t0 = Instant::now();
    let theme = mancala::tui::theme::Theme::monochrome();
    let mut app = mancala::tui::App::start(session, options, theme, (80, 24), t0);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    for c in letters.iter().copied().chain(['n']) {
        terminal
            .draw(|frame| mancala::tui::game::draw::draw(frame, &app))
            .unwrap();
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        app.on_input(Input::Key(key), t0);
    }
    assert!(app.wants_quit(), "n ends the match");

    let kept = |data: &Path| {
        let files = records(data);
        assert_eq!(files.len(), 1, "{files:?}");
        assert_eq!(std::fs::read_dir(data.join("saves")).unwrap().count(), 0);
        Record::parse(&std::fs::read_to_string(&files[0]).unwrap()).unwrap()
    };
    let (plain, screen) = (kept(plain_data.path()), kept(screen_data.path()));
    assert_eq!(screen.names(), plain.names());
    assert_eq!(screen.moves_text(), plain.moves_text());
    assert_eq!(
        screen.stepper().unwrap().boards(),
        plain.stepper().unwrap().boards()
    );
}

#[test]
fn the_records_moves_line_rebuilds_the_position_with_mancala_position() {
    let scratch = data_dir("position");
    let data = scratch.path();
    let rules = Rules::new(4, 3).unwrap();
    let (letters, boards) = scripted_round(rules);
    let half = letters.len() / 2;
    let mut input: String = letters[..half].iter().map(|c| format!("{c}\n")).collect();
    input.push_str("q\n");
    let out = run(
        data,
        &["--plain", "--pits", "4", "--seeds", "3", "Ann", "Bob"],
        &input,
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Ann sows "),
        "animation line on by default: {stdout}"
    );
    // The save is a record of the unfinished round; its comment line is the
    // `mancala position` command for the same position.
    let save = SaveStore::at(data)
        .unwrap()
        .path_for(&config(rules, "Ann", "Bob"));
    let saved = std::fs::read_to_string(&save).unwrap();
    let command_line = saved
        .lines()
        .find_map(|l| l.strip_prefix("# The same position: mancala "))
        .unwrap();
    let args: Vec<&str> = command_line.split(' ').collect();
    let position = run(data, &args, "");
    assert!(position.status.success(), "{position:?}");
    let json: serde_json::Value = serde_json::from_slice(&position.stdout).unwrap();
    assert_eq!(
        json["board"],
        serde_json::json!(boards[half].counts()),
        "{saved}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn end_of_input_in_the_middle_of_a_round_ends_cleanly_with_the_score() {
    let scratch = data_dir("eof");
    let data = scratch.path();
    let out = run(data, &["--plain", "Alice", "Michael"], "c\nf\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Alice gets an extra turn!"), "{stdout}");
    assert!(
        stdout.contains("End of input: the match ends here."),
        "{stdout}"
    );
    assert!(
        stdout.contains("This round so far: Alice 2, Michael 0."),
        "{stdout}"
    );
    assert!(
        stdout.contains("Match score: Alice 0 – 0 Michael, 0 draws (0 rounds)."),
        "{stdout}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn garbage_lines_get_a_message_and_the_question_again() {
    let scratch = data_dir("garbage");
    let data = scratch.path();
    let out = run(
        data,
        &["--plain", "Alice", "Michael"],
        "xyzzy\n\n9\nh\n0\n3\nc\n",
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("'xyzzy' is not a pit."), "{stdout}");
    assert!(stdout.contains("Sorry, there is no such pit."), "{stdout}");
    assert!(
        stdout.contains("Sorry, you don't control that pit."),
        "{stdout}"
    );
    // "3" is pit c, counted from Alice's left; then c is empty.
    assert!(stdout.contains("Alice gets an extra turn!"), "{stdout}");
    assert!(stdout.contains("Sorry, that pit is empty."), "{stdout}");
    assert_eq!(
        stdout.matches("Alice, choose a pit (a-f):").count(),
        8,
        "{stdout}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_one_pit_board_asks_for_the_number_1_not_a_range() {
    let scratch = data_dir("one-pit");
    let data = scratch.path();
    let out = run(
        data,
        &[
            "--plain",
            "--no-animation",
            "--pits",
            "1",
            "Alice",
            "Michael",
        ],
        "?\nzz\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("by its number 1 from your left"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Type a letter a or a number 1 (u undoes"),
        "{stdout}"
    );
    assert!(!stdout.contains("1-1"), "{stdout}");
}

#[test]
fn undo_and_redo_against_the_computer() {
    let scratch = data_dir("undo");
    let data = scratch.path();
    let out = run(
        data,
        &["--plain", "--north", "greedy", "Alice"],
        "a\nu\nu\nr\n",
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    let (before, rest) = stdout.split_once("Took back ").unwrap();
    assert!(before.contains("Computer (greedy) plays "), "{stdout}");
    let (undone, redone) = rest.split_once("There is no move to take back.").unwrap();
    let names = ["Alice", "Computer (greedy)"];
    let start = box_of(&Board::new(Rules::KALAH), names);
    assert_eq!(boxes(undone), vec![start], "back to Alice's first turn");
    // Redo replays Alice's move and the computer's answer: the same board
    // as before the undo.
    assert_eq!(boxes(redone).last(), boxes(before).last(), "{stdout}");
    assert!(
        redone.contains(&format!("Redid {} moves.", boxes(before).len() - 1)),
        "{stdout}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn computer_players_and_rule_options_play_a_whole_round() {
    let scratch = data_dir("computers");
    let data = scratch.path();
    let args = [
        "--plain",
        "--south",
        "greedy",
        "--north",
        "random",
        "--pits",
        "5",
        "--seeds",
        "3",
        "--sowing",
        "relay",
        "--capture",
        "never",
        "--sweep",
        "none",
        "--think",
        "20",
    ];
    let out = run(data, &args, "n\n");
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    // Replaying what was printed with the same players gives the same
    // game: the random player is seeded for scripts.
    let rules = Rules::new(5, 3)
        .unwrap()
        .with_sowing("relay".parse().unwrap())
        .with_capture("never".parse().unwrap())
        .with_sweep("none".parse().unwrap());
    let played: Vec<char> = stdout
        .lines()
        .filter_map(|l| {
            l.split_once(" plays ")
                .map(|(_, rest)| rest.chars().next().unwrap())
        })
        .collect();
    assert!(!played.is_empty(), "{stdout}");
    let mut board = Board::new(rules);
    for &c in &played {
        board.play(rules.pit_by_letter(c).unwrap()).unwrap();
    }
    assert!(board.is_over(), "{stdout}");
    assert!(
        stdout.contains("relayed"),
        "relay sowing is in force: {stdout}"
    );
    let again = text(&run(data, &args, "n\n").stdout);
    let played_again: Vec<char> = again
        .lines()
        .filter_map(|l| {
            l.split_once(" plays ")
                .map(|(_, rest)| rest.chars().next().unwrap())
        })
        .collect();
    assert_eq!(played, played_again, "scripted games are repeatable");
    // The random player really is one: the greedy player alone would not
    // need it, so check the kinds were kept in the record.
    let record = std::fs::read_to_string(&records(data)[0]).unwrap();
    assert!(record.contains("north-player: random\n"), "{record}");
    assert!(record.contains("sowing: relay\n"), "{record}");
    std::fs::remove_dir_all(data).unwrap();
}

/// Reads a child's stdout on a thread into a shared string.
fn collect_stdout(child: &mut Child) -> Arc<Mutex<String>> {
    let mut stdout = child.stdout.take().unwrap();
    let shared = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&shared);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    shared
}

fn wait_for(shared: &Arc<Mutex<String>>, needle: &str, times: usize) -> String {
    let start = Instant::now();
    loop {
        let now = shared.lock().unwrap().clone();
        if now.matches(needle).count() >= times {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "never saw {needle:?}:\n{now}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_match_killed_mid_round_resumes_exactly_where_it_stopped() {
    let scratch = data_dir("resume");
    let data = scratch.path();
    let (letters, boards) = scripted_round(Rules::KALAH);
    let mut child = command(data, &["--plain", "Alice", "Michael"])
        .spawn()
        .unwrap();
    let shared = collect_stdout(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let played = 5;
    for (i, c) in letters[..played].iter().enumerate() {
        // Answer each prompt only once it is asked.
        wait_for(&shared, "choose a pit", i + 1);
        writeln!(stdin, "{c}").unwrap();
        stdin.flush().unwrap();
    }
    let before = wait_for(&shared, "choose a pit", played + 1);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    drop(stdin);
    let names = ["Alice", "Michael"];
    assert_eq!(
        boxes(&before).last().unwrap(),
        &box_of(&boards[played], names)
    );

    let mut input = String::from("y\n");
    for c in &letters[played..] {
        input.push_str(&format!("{c}\n"));
    }
    input.push_str("n\n");
    let out = run(data, &["--plain", "Alice", "Michael"], &input);
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Resume the unfinished match? (y/n) y"),
        "{stdout}"
    );
    let expected: Vec<String> = boards[played..].iter().map(|b| box_of(b, names)).collect();
    assert_eq!(
        boxes(&stdout),
        expected,
        "the round goes on from move {played}:\n{stdout}"
    );
    let last = boards.last().unwrap();
    assert!(stdout.contains(&outcome_message(
        last.outcome().unwrap(),
        last.score(),
        names
    )));
    // The record holds the whole round, from before and after the kill.
    let record = Record::parse(&std::fs::read_to_string(&records(data)[0]).unwrap()).unwrap();
    assert_eq!(record.moves.len(), letters.len());
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn answering_no_starts_afresh_and_the_old_save_is_replaced() {
    let scratch = data_dir("fresh");
    let data = scratch.path();
    run(data, &["--plain", "Alice", "Michael"], "c\nq\n");
    let out = run(data, &["--plain", "Alice", "Michael"], "n\na\nq\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("round 1, 1 move played."), "{stdout}");
    let first = boxes(&stdout)[0].clone();
    assert_eq!(
        first,
        box_of(&Board::new(Rules::KALAH), ["Alice", "Michael"])
    );
    let save = SaveStore::at(data)
        .unwrap()
        .path_for(&config(Rules::KALAH, "Alice", "Michael"));
    assert!(
        std::fs::read_to_string(save)
            .unwrap()
            .contains("\nmoves: a\n")
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_corrupt_save_is_reported_set_aside_and_the_game_still_starts() {
    let scratch = data_dir("corrupt");
    let data = scratch.path();
    let save = SaveStore::at(data)
        .unwrap()
        .path_for(&config(Rules::KALAH, "Alice", "Michael"));
    let garbage = "mancala record 1\npits: 6\nmoves: c,c\n\u{0}\u{1}";
    std::fs::write(&save, garbage).unwrap();
    let out = run(data, &["--plain", "Alice", "Michael"], "c\nq\n");
    assert!(out.status.success(), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&save.display().to_string()), "{stderr}");
    assert!(stderr.contains(".corrupt-"), "{stderr}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Alice gets an extra turn!"),
        "the game started: {stdout}"
    );
    let aside: Vec<PathBuf> = std::fs::read_dir(data.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        std::fs::read_to_string(&aside[0]).unwrap(),
        garbage,
        "kept as it was"
    );
    // The new match has its own save.
    assert!(
        std::fs::read_to_string(&save)
            .unwrap()
            .contains("\nmoves: c\n")
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_corrupt_record_is_refused_with_its_path_and_exit_code_2() {
    let scratch = data_dir("badrecord");
    let data = scratch.path();
    let path = data.join("bad.txt");
    std::fs::write(&path, "mancala record 1\npits: 6\nseeds: 4\ncapture: always\nsowing: single\nsweep: owner\nsouth: A\nnorth: B\nstarter: south\nmoves: c,h\n").unwrap();
    let out = run(data, &["replay", "--plain", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&path.display().to_string()), "{stderr}");
    assert!(
        stderr.contains("line 10: move 2 ('h'): Sorry, you don't control that pit."),
        "{stderr}"
    );
    let missing = run(
        data,
        &["replay", data.join("nope.txt").to_str().unwrap()],
        "",
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("nope.txt"));
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn stats_survive_a_damaged_file() {
    let scratch = data_dir("stats");
    let data = scratch.path();
    let empty = run(data, &["stats"], "");
    assert!(empty.status.success());
    assert_eq!(text(&empty.stdout), "No finished rounds yet.\n");
    // Two computer rounds, then damage, then one more.
    let args = [
        "--plain", "--south", "greedy", "--north", "greedy", "--pits", "4", "--seeds", "2",
    ];
    run(data, &args, "y\nn\n");
    let stats_file = data.join("stats.jsonl");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&stats_file)
        .unwrap();
    file.write_all(b"{\"time\":1,\"south\":\"cut sh").unwrap();
    drop(file);
    run(data, &args, "n\n");
    let out = run(data, &["stats", "--json"], "");
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["pairs"][0]["rounds"], 3, "{json}");
    assert_eq!(json["skipped_lines"], 1, "{json}");
    assert!(text(&out.stderr).contains("1 damaged line"), "{out:?}");
    // The rounds agree with the games the greedy players play.
    let rules = Rules::new(4, 2).unwrap();
    let mut wins = [0u32; 2];
    let mut draws = 0;
    for starter in [Side::South, Side::North, Side::South] {
        let mut board = Board::starting(rules, starter);
        let mut players: [Box<dyn TurnFn>; 2] = [
            computer(PlayerKind::Greedy, 1).unwrap(),
            computer(PlayerKind::Greedy, 2).unwrap(),
        ];
        while !board.is_over() {
            let side = board.to_move().index();
            let pit = players[side].choose(&board, &Limits::none()).unwrap();
            board.play(pit).unwrap();
        }
        match board.outcome().unwrap().winner() {
            Some(side) => wins[side.index()] += 1,
            None => draws += 1,
        }
    }
    // Both seats are named by their kind and side ("Computer (greedy),
    // North" and "..., South"); the pair lists them alphabetically.
    assert_eq!(
        json["pairs"][0]["players"],
        serde_json::json!(["Computer (greedy), North", "Computer (greedy), South"]),
        "{json}"
    );
    assert_eq!(
        json["pairs"][0]["wins"],
        serde_json::json!([wins[1], wins[0]]),
        "{json}"
    );
    assert_eq!(json["pairs"][0]["draws"], draws, "{json}");
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_match_killed_at_play_again_counts_its_round_once() {
    let scratch = data_dir("killagain");
    let data = scratch.path();
    let args = [
        "--plain", "--south", "greedy", "--north", "greedy", "--pits", "4", "--seeds", "2",
    ];
    let mut child = command(data, &args).spawn().unwrap();
    let shared = collect_stdout(&mut child);
    wait_for(&shared, "Play again? (y/n)", 1);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = run(data, &args, "y\nn\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("round 2, 0 moves played."), "{stdout}");
    assert!(stdout.contains("(2 rounds)."), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_slice(&run(data, &["stats", "--json"], "").stdout).unwrap();
    assert_eq!(json["pairs"][0]["rounds"], 2, "{json}");
    assert_eq!(records(data).len(), 2);
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn undo_never_goes_back_to_a_computers_first_move() {
    let scratch = data_dir("undofirst");
    let data = scratch.path();
    let out = run(
        data,
        &["--plain", "--first", "north", "--north", "greedy", "Alice"],
        "u\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("There is no earlier turn of yours in this round to go back to."),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("Computer (greedy) plays ").count(),
        boxes(&stdout).len() - 1,
        "no replayed moves: {stdout}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn an_unusable_data_directory_is_reported_and_the_game_is_played_anyway() {
    let scratch = data_dir("nodir");
    let data = scratch.path();
    let not_a_dir = data.join("file");
    std::fs::write(&not_a_dir, "").unwrap();
    let out = run(&not_a_dir, &["--plain", "Alice", "Michael"], "c\n");
    assert!(out.status.success(), "{out:?}");
    assert!(
        text(&out.stderr).contains("this match will not be saved"),
        "{out:?}"
    );
    assert!(text(&out.stdout).contains("Alice gets an extra turn!"));
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_scripts_random_starters_are_the_same_every_run() {
    let scratch = data_dir("coin");
    let data = scratch.path();
    let args = [
        "--plain", "--first", "random", "--south", "greedy", "--north", "greedy", "--pits", "3",
        "--seeds", "1", "Sam", "Nat",
    ];
    let starters = |out: &Output| -> Vec<String> {
        text(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("Round ") && l.ends_with("moves first."))
            .map(str::to_string)
            .collect()
    };
    let input = "y\n".repeat(11) + "n\n";
    let first = starters(&run(data, &args, &input));
    assert_eq!(first.len(), 12);
    assert!(
        first.iter().any(|l| l.contains("Sam")) && first.iter().any(|l| l.contains("Nat")),
        "a real coin: {first:?}"
    );
    assert_eq!(starters(&run(data, &args, &input)), first);
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn the_board_and_score_lines_are_exactly_as_documented() {
    // Pinned literally (not through the library's own renderer), so that a
    // change in drawing or wording shows up here.
    let scratch = data_dir("literal");
    let data = scratch.path();
    let out = run(
        data,
        &["--plain", "--no-animation", "Alice", "Michael"],
        "c\nb\n",
    );
    let stdout = text(&out.stdout);
    let after_c_and_b = "\
          l   k   j   i   h   g
╔═══════╦═══╦═══╦═══╦═══╦═══╦═══╦═══════╗
║ North ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ South ║
║   0   ╠═══╬═══╬═══╬═══╬═══╬═══╣   1   ║
║       ║ 4 ║ 0 ║ 1 ║ 6 ║ 6 ║ 6 ║       ║
╚═══════╩═══╩═══╩═══╩═══╩═══╩═══╩═══════╝
          a   b   c   d   e   f";
    assert!(stdout.contains(after_c_and_b), "{stdout}");
    assert!(stdout.contains("Alice gets an extra turn!\n"), "{stdout}");
    assert!(stdout.contains("Michael, choose a pit (g-l): "), "{stdout}");
    assert!(
        stdout.contains("This round so far: Alice 1, Michael 0.\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Match score: Alice 0 – 0 Michael, 0 draws (0 rounds).\n"),
        "{stdout}"
    );
    assert!(out.status.success());
}

#[test]
fn on_a_twelve_pit_board_north_plays_its_pits_q_r_and_u_by_letter() {
    // q, r and u are North's pits m..x here: a letter that names a pit is
    // that pit, whoever types it; the words quit, redo and undo (and the
    // capitals Q, R, U) are the commands.
    let scratch = data_dir("twelve");
    let data = scratch.path();
    let out = run(
        data,
        &["--plain", "--no-animation", "--pits", "12", "A", "B"],
        "a\nq\nb\nr\nc\nu\n",
    );
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("Stopped"), "{stdout}");
    assert!(!stdout.contains("Nothing to"), "{stdout}");
    assert_eq!(
        stdout.matches("A, choose a pit (a-l): ").count(),
        4,
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("B, choose a pit (m-x): ").count(),
        3,
        "{stdout}"
    );
    assert!(
        stdout.contains("U undoes, R redoes, H gives a hint, Q quits, ? shows this help. The words undo, redo, hint, quit and help work on every board"),
        "the help says how commands are spelled here: {stdout}"
    );
    // South's turn: q names North's pit, so it is refused as a pit (it
    // used to quit); `quit` and `Q` quit.
    for quit in ["quit", "Q"] {
        let out = run(
            data,
            &["--plain", "--no-animation", "--pits", "12", "A", "B"],
            &format!("q\n{quit}\n"),
        );
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("(a-l): q\nSorry, you don't control that pit.\n"),
            "{stdout}"
        );
        assert!(stdout.contains("Stopped. The match is saved"), "{stdout}");
        std::fs::remove_dir_all(data.join("saves")).unwrap();
    }
}

/// Redo shows each move it replays as a move: "Alice plays a." before
/// its board, as a computer's move is shown (it used to print the boards
/// alone).
#[test]
fn redo_says_who_plays_each_move_it_replays() {
    let scratch = data_dir("redo-plays");
    let out = run(
        scratch.path(),
        &["--plain", "--no-animation", "--north", "greedy", "Alice"],
        "a\nundo\nredo\n",
    );
    let stdout = text(&out.stdout);
    let (before, redone) = stdout.split_once("redo\n").unwrap();
    let computer: Vec<&str> = before
        .lines()
        .filter(|l| l.starts_with("Computer (greedy) plays "))
        .collect();
    assert!(!computer.is_empty(), "{stdout}");
    let plays: Vec<&str> = redone.lines().filter(|l| l.contains(" plays ")).collect();
    let mut expected = vec!["Alice plays a."];
    expected.extend(&computer);
    assert_eq!(plays, expected, "{stdout}");
    // Each "plays" line comes just before its board.
    assert_eq!(
        redone.matches(" plays ").count(),
        redone.matches(".\n\nNorth: ").count(),
        "{stdout}"
    );
}

/// `hint` (or `H`, as h is a pit here) asks the engine, in plain mode as
/// on the full screen; a hint plays nothing.
#[test]
fn a_hint_is_given_in_plain_mode() {
    let scratch = data_dir("hint");
    let out = run(
        scratch.path(),
        &[
            "--plain",
            "--no-animation",
            "--think",
            "50",
            "Alice",
            "Michael",
        ],
        "hint\nH\n",
    );
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("Hint: play ").count(), 2, "{stdout}");
    assert_eq!(boxes(&stdout).len(), 1, "nothing played: {stdout}");
}

#[test]
fn a_script_replays_the_same_way_every_time() {
    // End of input from a script ends the match (nothing left to resume),
    // so running the same script again gives the same game.
    let scratch = data_dir("rerun");
    let data = scratch.path();
    let args = ["--plain", "--no-animation", "Alice", "Michael"];
    let first = text(&run(data, &args, "c\nf\nh\n").stdout);
    let second = text(&run(data, &args, "c\nf\nh\n").stdout);
    assert!(
        first.contains("End of input: the match ends here."),
        "{first}"
    );
    assert!(!second.contains("Resume"), "{second}");
    assert_eq!(first, second);
}

/// A script that stops with `q` keeps its match; the same script run again
/// meets the resume question and can stop there with `q` too (it used to be
/// refused: "Please answer y or n." until the input ran out).
#[test]
fn a_script_ending_in_q_can_answer_the_resume_question_with_q() {
    let scratch = data_dir("q-twice");
    let data = scratch.path();
    let args = ["--plain", "--no-animation", "Alice", "Michael"];
    let first = run(data, &args, "c\nq\n");
    assert!(first.status.success(), "{first:?}");
    assert!(text(&first.stdout).contains("Stopped. The match is saved"));
    let second = run(data, &args, "c\nq\n");
    let stdout = text(&second.stdout);
    assert!(second.status.success(), "{second:?}");
    assert!(
        stdout.contains(
            "Resume the unfinished match? (y/n) c\nPlease answer y or n (q stops here).\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("(y/n) q\nStopped. The match stays saved"),
        "{stdout}"
    );
    assert!(!stdout.contains("End of input"), "{stdout}");
    // Still saved: a third run is asked again, and `y` resumes it.
    let third = run(data, &args, "y\n");
    let stdout = text(&third.stdout);
    assert!(
        stdout.contains("Round 1 goes on after 1 move (Alice moved first)."),
        "{stdout}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

/// `--first random` says that a coin was tossed, every round.
#[test]
fn a_random_first_mover_is_announced_as_a_coin_toss() {
    let scratch = data_dir("coin");
    let data = scratch.path();
    let out = run(
        data,
        &[
            "--plain",
            "--no-animation",
            "--first",
            "random",
            "Alice",
            "Michael",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Round 1: a coin toss, Alice moves first.")
            || stdout.contains("Round 1: a coin toss, Michael moves first."),
        "{stdout}"
    );
    let plain = run(data, &["--plain", "--no-animation", "Bo", "Cy"], "");
    assert!(text(&plain.stdout).contains("Round 1: Bo moves first."));
    std::fs::remove_dir_all(data).unwrap();
}

/// A computer seat's record is named readably: `computer_random`, not
/// `computer__random_`.
#[test]
fn records_of_computer_seats_have_readable_names() {
    let scratch = data_dir("computer-names");
    let data = scratch.path();
    let out = run(
        data,
        &[
            "--plain",
            "--no-animation",
            "--south",
            "random",
            "--north",
            "greedy",
        ],
        "n\n",
    );
    assert!(out.status.success(), "{out:?}");
    let names: Vec<String> = records(data)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(
        names[0].ends_with("-computer_random-vs-computer_greedy-r1.txt"),
        "{names:?}"
    );
    std::fs::remove_dir_all(data).unwrap();
}

/// A script's computer seat is seeded by the game's seat-seed policy: the
/// same random player, built with `seat_player` from the script seed, makes
/// the same choice as the one in the binary.
#[test]
fn a_scripts_random_seat_is_seeded_by_the_game_policy() {
    use mancala::game::seat_player;
    use mancala::plain::SCRIPT_SEED;
    let scratch = data_dir("seat-seed");
    let data = scratch.path();
    let out = run(
        data,
        &["--plain", "--no-animation", "--north", "random", "Alice"],
        "a\n",
    );
    let stdout = text(&out.stdout);
    let rules = Rules::KALAH;
    let mut board = Board::new(rules);
    board.play(rules.pit_by_letter('a').unwrap()).unwrap();
    let mut player = seat_player(
        [PlayerKind::Human, PlayerKind::Random],
        SCRIPT_SEED,
        Side::North,
    )
    .unwrap();
    let pit = player.choose(&board, &Limits::default()).unwrap();
    let expected = format!("Computer (random) plays {}.", rules.letter(pit).unwrap());
    assert!(stdout.contains(&expected), "{expected}\n{stdout}");
    std::fs::remove_dir_all(data).unwrap();
}

/// The letters of a whole round of `rules` started by `starter`, always
/// taking the rightmost legal pit.
fn round_from(rules: Rules, starter: Side) -> Vec<String> {
    let mut board = Board::starting(rules, starter);
    let mut letters = Vec::new();
    while let Some(pit) = board.legal_moves().last() {
        letters.push(rules.letter(pit).unwrap().to_string());
        board.play(pit).unwrap();
    }
    letters
}

/// A data directory where nothing can be written for a while (a folder
/// where the save goes, a file where the records folder goes, a folder
/// where the statistics go): every failed save is said, keeping never
/// switches off, and once writing works again the round that could not be
/// kept is recorded and counted, every round exactly once. (It used to
/// stop keeping at the first failure: no record, no statistics, ever.)
#[test]
fn keeping_never_switches_off_after_a_failed_write() {
    let scratch = data_dir("unwritable");
    let data = scratch.path();
    let rules = Rules::KALAH.with_pits(2).unwrap();
    let store = SaveStore::at(data).unwrap();
    let save = store.path_for(&config(rules, "Alice", "Michael"));
    let folder = data.join("records");
    std::fs::remove_dir(&folder).unwrap();
    std::fs::write(&folder, "").unwrap();
    std::fs::create_dir(store.stats_path()).unwrap();
    let mut game = common::program::Program::spawn(
        data,
        &[
            "--plain",
            "--no-animation",
            "--pits",
            "2",
            "Alice",
            "Michael",
        ],
    );
    // Once the game has looked for a save (a folder there would be set
    // aside), a folder where the save goes.
    game.wait_for("the first turn", |t| t.contains("choose a pit"));
    std::fs::create_dir_all(&save).unwrap();
    let first = round_from(rules, Side::South);
    for letter in &first {
        game.send(letter);
    }
    game.wait_for("play again", |t| t.contains("Play again? (y/n)"));
    // Each move's save, and the next round's at the round's end: standard
    // error is read apart from standard output, so its lines may come in
    // after the question.
    let saves = first.len() + 1;
    let out = game.wait_for("every failed save said", |t| {
        t.matches("could not save the match").count() >= saves
            && t.contains("could not record the round")
            && t.contains("could not count the round")
    });
    assert_eq!(
        out.matches("could not save the match").count(),
        saves,
        "{out}"
    );
    assert!(out.contains("could not record the round"), "{out}");
    assert!(out.contains("could not count the round"), "{out}");
    std::fs::remove_dir(&save).unwrap();
    std::fs::remove_file(&folder).unwrap();
    std::fs::remove_dir(store.stats_path()).unwrap();
    game.send("y");
    let second = round_from(rules, Side::North);
    for letter in &second {
        game.send(letter);
    }
    game.wait_for("play again", |t| {
        t.matches("Play again? (y/n)").count() == 2
    });
    game.send("n");
    assert_eq!(game.wait_exit(), 0, "{}", game.text());
    let stats = std::fs::read_to_string(store.stats_path()).unwrap();
    assert_eq!(stats.lines().count(), 2, "{stats}");
    assert_eq!(records(data).len(), 2, "{}", game.text());
    assert!(!save.exists(), "the finished match's save is cleared");
    assert!(
        !store
            .closing_path(&config(rules, "Alice", "Michael"))
            .exists()
    );
}

/// `A` (or `analysis`) at "Play again?" prints the round's analysis, the
/// same report `mancala analyze --plain` gives of the round's record, and
/// asks again; a wrong answer names it.
#[test]
fn the_analysis_at_play_again_is_the_report_analyze_gives_of_the_record() {
    let data = data_dir("analysis-at-end");
    let rules = Rules::new(4, 3).unwrap();
    let (letters, _) = scripted_round(rules);
    let mut input: String = letters.iter().map(|c| format!("{c}\n")).collect();
    input.push_str("x\nA\nanalysis\nn\n");
    let args = [
        "--plain",
        "--no-animation",
        "--pits",
        "4",
        "--seeds",
        "3",
        "Alice",
        "Michael",
    ];
    let out = run(data.path(), &args, &input);
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Please answer y or n (q stops here, A shows this round's analysis)."),
        "{stdout}"
    );
    let files = records(data.path());
    assert_eq!(files.len(), 1, "{files:?}");
    let analyzed = run(
        data.path(),
        &["analyze", files[0].to_str().unwrap(), "--plain"],
        "",
    );
    assert!(analyzed.status.success(), "{analyzed:?}");
    let report = text(&analyzed.stdout);
    assert!(report.contains("Turning points"), "{report}");
    let expected = format!(
        "Play again? (y/n) A\n\n{report}\nPlay again? (y/n) analysis\n\n{report}\nPlay again? (y/n) n\n"
    );
    assert!(stdout.contains(&expected), "{expected}\n---\n{stdout}");
    assert!(stdout.contains("Thanks for playing!"), "{stdout}");
}
