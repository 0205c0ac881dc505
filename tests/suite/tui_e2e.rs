//! End to end: the real binary in a real pseudo-terminal (tmux), driven by
//! keys, read back from the screen.
//!
//! CI installs tmux; without it these tests fail when `CI` is set and are
//! skipped with a notice otherwise. Every game gets a fresh data directory
//! (`MANCALA_DATA_DIR`), so that no test meets another's saved match.

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::scratch::Scratch;
use common::tmux::{Tmux, binary, wait_for_line};

#[test]
fn two_people_play_then_quit_and_the_terminal_is_restored() {
    let scratch = Scratch::new("humans");
    let status = scratch.file("status");
    let Some(tmux) = Tmux::start("humans", 80, 24, &scratch.command("Alice Michael", &status))
    else {
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
    assert_eq!(wait_for_line(&status), "0");
    let last = tmux.wait_for("Final score: Alice 0 – 0 Michael");
    assert!(
        !tmux.alternate_screen_on(),
        "left the alternate screen:\n{last}"
    );
}

#[test]
fn a_computer_answers_on_screen_and_ctrl_c_quits_at_once() {
    let scratch = Scratch::new("computer");
    let status = scratch.file("status");
    let command = format!(
        "NO_COLOR=1 {}",
        scratch.command("Alice --north greedy --speed 20", &status)
    );
    let Some(tmux) = Tmux::start("computer", 100, 30, &command) else {
        return;
    };
    tmux.wait_for("▶ Alice to move");
    tmux.keys(&["a"]);
    tmux.wait_for("Computer (greedy) played");
    tmux.wait_for("▶ Alice to move");
    tmux.keys(&["C-c"]);
    assert_eq!(wait_for_line(&status), "0");
    tmux.wait_for("Final score:");
    assert!(!tmux.alternate_screen_on());
}

#[test]
fn a_mouse_click_on_a_pit_plays_it() {
    let scratch = Scratch::new("mouse");
    let status = scratch.file("status");
    let Some(tmux) = Tmux::start(
        "mouse",
        80,
        24,
        &scratch.command("Alice Michael --no-animation", &status),
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
    assert_eq!(wait_for_line(&status), "0");
}

/// The numbers drawn inside the board (pit and store counts), top row to
/// bottom row: the position as a player reads it.
fn counts_on_screen(screen: &str) -> Vec<u32> {
    let lines: Vec<&str> = screen.lines().collect();
    let first = lines.iter().position(|l| l.contains('╭')).expect("a board");
    let last = lines
        .iter()
        .rposition(|l| l.contains('╰'))
        .expect("a board");
    lines[first..=last]
        .iter()
        .flat_map(|line| {
            line.split(|c: char| !c.is_ascii_digit())
                .filter(|part| !part.is_empty())
                .map(|part| part.parse::<u32>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn a_match_killed_mid_round_resumes_on_the_same_board() {
    let scratch = Scratch::new("resume");
    let data = scratch.data();
    let game = format!(
        "exec env MANCALA_DATA_DIR={} {} Alice Michael --no-animation",
        data.display(),
        binary()
    );
    let Some(first) = Tmux::start("resume-1", 80, 24, &game) else {
        return;
    };
    first.wait_for("▶ Alice to move");
    // c: an extra turn; f; then Michael's h.
    first.keys(&["c"]);
    first.wait_for("Alice gets an extra turn!");
    first.keys(&["f"]);
    first.wait_for("▶ Michael to move");
    first.keys(&["h"]);
    let before = first.wait_for("Michael played h.");
    let saves: Vec<PathBuf> = std::fs::read_dir(data.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saves.len(), 1, "{saves:?}");
    let saved = std::fs::read_to_string(&saves[0]).unwrap();
    assert!(saved.contains("\nmoves: c,f,h\n"), "{saved}");

    // SIGKILL: no chance to save anything on the way out.
    let pid = first.run(&["display-message", "-p", "-t", "game", "#{pane_pid}"]);
    let pid = String::from_utf8_lossy(&pid.stdout).trim().to_string();
    let killed = Command::new("kill").args(["-9", &pid]).status().unwrap();
    assert!(killed.success());
    drop(first);
    assert_eq!(std::fs::read_to_string(&saves[0]).unwrap(), saved);
    // A killed process lets go of the match's lock only once it has
    // exited, a moment after the signal; a copy started before that is
    // rightly told another window plays the match.
    wait_until_unlocked(&data.join("locks"));

    let Some(second) = Tmux::start("resume-2", 80, 24, &game) else {
        return;
    };
    let asked = second.wait_for("Resume the unfinished match? (y/n)");
    assert!(
        asked.contains("Alice and Michael: round 1, 3 moves played."),
        "{asked}"
    );
    second.keys(&["y"]);
    let resumed = second.wait_for("Resumed. Round 1 goes on after 3 moves");
    assert_eq!(counts_on_screen(&resumed), counts_on_screen(&before));
    let side = |screen: &str| screen.contains("▶ Michael to move");
    assert_eq!(side(&resumed), side(&before));
    // It goes on: a move, then quitting mid-round keeps the match saved.
    second.keys(&["i"]);
    second.wait_for("Michael played i.");
    assert!(
        std::fs::read_to_string(&saves[0])
            .unwrap()
            .contains("\nmoves: c,f,h,i\n")
    );
    drop(second);
}

#[test]
fn a_corrupt_save_is_shown_with_its_path_and_the_game_starts() {
    let scratch = Scratch::new("corrupt");
    let data = scratch.data();
    let game = format!(
        "exec env MANCALA_DATA_DIR={} {} Alice Michael --no-animation",
        data.display(),
        binary()
    );
    // A first run makes the save's file name; then it is spoilt.
    let Some(first) = Tmux::start("corrupt-1", 80, 24, &game) else {
        return;
    };
    first.wait_for("▶ Alice to move");
    first.keys(&["d"]);
    first.wait_for("Alice played d.");
    let pane = first.run(&["list-panes", "-F", "#{pane_pid}"]);
    let pid = String::from_utf8_lossy(&pane.stdout).trim().to_string();
    drop(first);
    // The first game holds the match's lock until it has ended.
    let until = Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
    }) && Instant::now() < until
    {
        sleep(Duration::from_millis(50));
    }
    let save = std::fs::read_dir(data.join("saves"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&save, "not a save\n").unwrap();

    let Some(second) = Tmux::start("corrupt-2", 80, 24, &game) else {
        return;
    };
    let screen = second.wait_for("▶ Alice to move");
    let joined: String = screen.lines().map(str::trim).collect();
    assert!(
        joined.contains(&format!("{}.corrupt-", save.display())),
        "{screen}"
    );
    assert!(!screen.contains("Resume the unfinished match?"), "{screen}");
    second.keys(&["c"]);
    second.wait_for("Alice gets an extra turn!");
    drop(second);
    let names: Vec<String> = std::fs::read_dir(data.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.len(),
        2,
        "the new save and the one set aside: {names:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&save)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("moves:")),
        Some("moves: c")
    );
}

#[test]
fn sigterm_restores_the_terminal_and_mouse_mode() {
    let scratch = Scratch::new("sigterm");
    let status = scratch.file("status");
    let pid_file = scratch.file("pid");
    // The inner shell writes its pid and then becomes the game (exec), so
    // the signal goes to the game itself and not to a shell around it.
    let command = format!(
        "sh -c 'echo $$ > {}; exec env MANCALA_DATA_DIR={} {} Alice Michael'; echo \"$?\" > {}; sleep 60",
        pid_file.display(),
        scratch.data().display(),
        binary(),
        status.display()
    );
    let Some(tmux) = Tmux::start("sigterm", 80, 24, &command) else {
        return;
    };
    tmux.wait_for("▶ Alice to move");
    assert!(tmux.alternate_screen_on());
    assert!(tmux.mouse_on(), "the game captures the mouse");
    let pid = std::fs::read_to_string(&pid_file).expect("pid written");
    let _ = std::fs::remove_file(&pid_file);
    let killed = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    assert_eq!(wait_for_line(&status), "143", "128 + SIGTERM");
    let screen = tmux.screen();
    assert!(
        !tmux.alternate_screen_on(),
        "left the alternate screen:\n{screen}"
    );
    assert!(!tmux.mouse_on(), "mouse reporting is off again");
}

#[test]
fn a_game_whose_terminal_goes_away_exits_instead_of_spinning() {
    // Closing the window (here: the tmux server) hangs up the terminal.
    // crossterm's input loop then retries its end-of-file read for ever, so
    // the game must end on the hangup signal rather than wait for a key.
    let scratch = Scratch::new("hangup");
    let command = format!(
        "exec env MANCALA_DATA_DIR={} {} Alice Michael --no-animation",
        scratch.data().display(),
        binary()
    );
    let Some(tmux) = Tmux::start("hangup", 80, 24, &command) else {
        return;
    };
    tmux.wait_for("▶ Alice to move");
    let pane = tmux.run(&["list-panes", "-F", "#{pane_pid}"]);
    let pid = String::from_utf8_lossy(&pane.stdout).trim().to_string();
    assert!(!pid.is_empty(), "the pane has a process");
    drop(tmux); // kills the tmux server: the game's terminal hangs up
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            // a zombie ("Z") has ended and only waits to be reaped
            .is_ok_and(|stat| {
                stat.rsplit(')')
                    .next()
                    .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
            })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while alive(&pid) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let still_running = alive(&pid);
    if still_running {
        let _ = Command::new("kill").args(["-KILL", &pid]).status();
    }
    assert!(
        !still_running,
        "the game (pid {pid}) still runs after its terminal hung up"
    );
}

#[test]
fn ctrl_letters_do_not_play_and_the_speed_chosen_is_kept_for_the_next_game() {
    let scratch = Scratch::new("prefs");
    let status = scratch.file("status");
    let Some(tmux) = Tmux::start("prefs", 80, 24, &scratch.command("Alice Michael", &status))
    else {
        return;
    };
    // The key bar is the first frame's last line: once it is on the
    // screen, so is the board (a capture can catch the frame half drawn).
    tmux.wait_for("q quit");
    let opening = tmux.wait_for("150 ms per seed");
    // Ctrl-D is not d, Ctrl-U not u: nothing is played, the screen says why.
    tmux.keys(&["C-d"]);
    tmux.wait_for("Ctrl-D does nothing here");
    tmux.keys(&["C-u"]);
    let after = tmux.wait_for("Ctrl-U does nothing here");
    assert_eq!(
        counts_on_screen(&after),
        counts_on_screen(&opening),
        "no seed moved:\n{after}"
    );
    assert!(!after.contains("played"), "{after}");
    // Faster twice: 100, then 70 ms per seed.
    tmux.keys(&["+", "+"]);
    tmux.wait_for("70 ms per seed");
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
    drop(tmux);

    let tmux = Tmux::start(
        "prefs-again",
        80,
        24,
        &scratch.command("Alice Michael", &status),
    )
    .expect("tmux ran a moment ago");
    tmux.wait_for("70 ms per seed");
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
}

/// The theme chosen with `t` is kept in the preferences file and used at
/// the next start; `NO_COLOR` still turns colours off for one run, and a
/// corrupt theme gives the defaults and one line.
#[test]
fn the_theme_chosen_with_t_is_kept_and_no_color_still_wins() {
    let scratch = Scratch::new("theme");
    let status = scratch.file("status");
    let prefs = scratch.config().join("preferences");
    let Some(tmux) = Tmux::start("theme", 80, 24, &scratch.command("Alice Michael", &status))
    else {
        return;
    };
    tmux.wait_for("▶ Alice to move");
    assert!(colours_in(&tmux), "colours at first");
    tmux.keys(&["t"]);
    tmux.wait_for("Black and white (t: colours).");
    assert!(!colours_in(&tmux), "no colours after t");
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
    drop(tmux);
    let kept = std::fs::read_to_string(&prefs).unwrap();
    assert!(kept.contains("theme = mono"), "{kept}");

    // The next start is black and white; t brings the colours back.
    let tmux = Tmux::start(
        "theme-2",
        80,
        24,
        &scratch.command("Alice Michael", &status),
    )
    .expect("tmux ran a moment ago");
    tmux.wait_for("▶ Alice to move");
    assert!(!colours_in(&tmux), "kept black and white");
    tmux.keys(&["t"]);
    tmux.wait_for("Colours on (t: black and white).");
    assert!(colours_in(&tmux));
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
    drop(tmux);

    // NO_COLOR: black and white for this run, and t says why.
    let command = format!("NO_COLOR=1 {}", scratch.command("Alice Michael", &status));
    let tmux = Tmux::start("theme-3", 80, 24, &command).expect("tmux ran a moment ago");
    tmux.wait_for("▶ Alice to move");
    assert!(!colours_in(&tmux), "NO_COLOR wins over the kept colours");
    tmux.keys(&["t"]);
    tmux.wait_for("NO_COLOR is set");
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
    drop(tmux);
    assert!(
        std::fs::read_to_string(&prefs)
            .unwrap()
            .contains("theme = colour")
    );

    // A theme the game does not know: the defaults, and one line saying so.
    std::fs::write(&prefs, "speed = 100\ntheme = rainbow\n").unwrap();
    let tmux = Tmux::start(
        "theme-4",
        80,
        24,
        &scratch.command("Alice Michael", &status),
    )
    .expect("tmux ran a moment ago");
    let screen = tmux.wait_for("▶ Alice to move");
    assert!(
        screen.contains("150 ms per seed"),
        "the defaults:\n{screen}"
    );
    let joined: String = screen.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    assert!(joined.contains("the defaults apply"), "{screen}");
    tmux.keys(&["q", "y"]);
    assert_eq!(wait_for_line(&status), "0");
}

/// Whether the screen uses any colour (a foreground or background colour
/// in tmux's escape-coded capture).
fn colours_in(tmux: &Tmux) -> bool {
    let out = tmux.run(&["capture-pane", "-p", "-e", "-t", "game"]);
    let text = String::from_utf8_lossy(&out.stdout);
    // SGR parameters 30-37, 40-47, 90-97 or 38;/48; (256 colours).
    text.split("\x1b[").skip(1).any(|sgr| {
        let params = sgr.split('m').next().unwrap_or("");
        params.split(';').any(|p| {
            p.parse::<u32>().is_ok_and(|n| {
                (30..=37).contains(&n)
                    || (40..=47).contains(&n)
                    || (90..=97).contains(&n)
                    || n == 38
                    || n == 48
            })
        })
    })
}

/// The scratch folder of a test is removed when the test ends, also when
/// it fails: test runs leave no folders behind in the temporary directory.
#[test]
fn a_failing_test_leaves_no_scratch_folder_behind() {
    let mut kept = None;
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let scratch = Scratch::new("panics");
        std::fs::create_dir_all(scratch.config()).unwrap();
        std::fs::write(scratch.file("status"), "0\n").unwrap();
        kept = Some(scratch.path().to_path_buf());
        panic!("a failing test");
    }));
    assert!(failed.is_err());
    let path = kept.expect("the folder was made");
    assert!(!path.exists(), "{} is left behind", path.display());
}

/// On 12 pits (a-x) q and u are pits: the bar offers Esc and capitals,
/// never a pit letter; q plays pit q, U takes it back, Esc asks to quit
/// (its bar: its answers only), and the help lists the keys of the board.
#[test]
fn on_twelve_pits_q_plays_its_pit_and_esc_and_capitals_are_the_commands() {
    let scratch = Scratch::new("twelve");
    let status = scratch.file("status");
    let command = scratch.command("Alice Michael --pits 12 --speed 0", &status);
    let Some(tmux) = Tmux::start("twelve", 100, 30, &command) else {
        return;
    };
    let screen = tmux.wait_for("▶ Alice to move");
    let bar = screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    for shown in ["H hint", "U undo", "R redo", "Esc quit"] {
        assert!(bar.contains(shown), "{shown} in {bar}");
    }
    tmux.keys(&["a"]);
    tmux.wait_for("▶ Michael to move");
    tmux.keys(&["q"]);
    tmux.wait_for("Michael played q.");
    tmux.keys(&["U"]);
    tmux.wait_for("▶ Michael to move");
    tmux.keys(&["?"]);
    let help = tmux.wait_for("Esc or Q");
    assert!(
        help.contains("U, R, H, Q and Esc work on every board"),
        "{help}"
    );
    assert!(!help.contains("y / n"), "no question is open:\n{help}");
    tmux.keys(&["x"]);
    tmux.keys(&["Escape"]);
    let asked = tmux.wait_for("Quit? (y/n)");
    let bar = asked.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert_eq!(bar.trim(), "y quit  n back", "{asked}");
    tmux.keys(&["y"]);
    assert_eq!(wait_for_line(&status), "0");
}

/// Waits (at most 10 s) until no program holds a lock file in `locks`.
fn wait_until_unlocked(locks: &std::path::Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let held = std::fs::read_dir(locks).unwrap().any(|entry| {
            let file = std::fs::File::open(entry.unwrap().path()).unwrap();
            file.try_lock().is_err()
        });
        if !held {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "a lock in {} is still held",
            locks.display()
        );
        sleep(Duration::from_millis(20));
    }
}
