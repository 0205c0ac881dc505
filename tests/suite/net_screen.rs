//! The network game full screen on both ends, side by side in one tmux
//! window (two panes of the same size): the real binary, on 127.0.0.1,
//! driven by keys and read back from the screens.
//!
//! CI installs tmux; without it this test fails when `CI` is set and is
//! skipped with a notice otherwise.

use crate::common;

use std::net::TcpListener;

use common::scratch::{Scratch, break_network_save, mend_save};
use common::tmux::{Tmux, binary};

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
        .map(|l| without_cursor(l.trim_end()))
        .collect()
}

/// A board line with the pit cursor's double frame drawn as a plain one:
/// each screen has its own cursor, the seeds are what must agree.
fn without_cursor(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '╔' => '╭',
            '╗' => '╮',
            '╚' => '╰',
            '╝' => '╯',
            '═' | '▸' | '◂' => '─',
            '║' => '│',
            other => other,
        })
        .collect()
}

/// Alice's `mancala host` (pane `game.0`) and Michael's `mancala join`
/// (pane `game.1`) side by side in a tmux window of its own, with the
/// data and preferences of `scratch` (the joiner's data in
/// [`joiner_data`]) and the extra options given; `None` when there is no
/// tmux (see [`Tmux::start`]).
fn host_and_join(scratch: &Scratch, name: &str, host_opts: &str, join_opts: &str) -> Option<Tmux> {
    host_and_join_in(scratch, name, (180, 30), host_opts, join_opts)
}

/// [`host_and_join`] in a tmux window of `size` (columns, rows).
fn host_and_join_in(
    scratch: &Scratch,
    name: &str,
    size: (u16, u16),
    host_opts: &str,
    join_opts: &str,
) -> Option<Tmux> {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = format!(
        "MANCALA_DATA_DIR={} MANCALA_CONFIG_DIR={}",
        scratch.data().display(),
        scratch.config().display()
    );
    let bin = binary();
    let host =
        format!("env {env} {bin} host Alice --bind 127.0.0.1 --port {port} {host_opts}; sleep 30");
    let tmux = Tmux::start(name, size.0, size.1, &host)?;
    let screen = tmux.wait_for_in("game.0", "--code ");
    let code = screen
        .split("--code ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    let env = format!(
        "MANCALA_DATA_DIR={} MANCALA_CONFIG_DIR={}",
        joiner_data(scratch).display(),
        scratch.config().display()
    );
    let join = format!(
        "env {env} {bin} join 127.0.0.1:{port} --code {code} Michael {join_opts}; sleep 30"
    );
    let out = tmux.run(&["split-window", "-h", "-t", "game", &join]);
    assert!(
        out.status.success(),
        "tmux: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(tmux)
}

/// The joiner's own data directory: each end keeps its own.
fn joiner_data(scratch: &Scratch) -> std::path::PathBuf {
    scratch.path().join("joiner")
}

#[test]
fn both_full_screens_side_by_side_show_the_same_match() {
    let scratch = Scratch::new("net-screen");
    let Some(tmux) = host_and_join(&scratch, "net", "--speed 20", "--speed 20") else {
        return;
    };

    // Both screens show the starting board; Alice moves first.
    tmux.wait_for_in("game.0", "Alice, your move: a-f");
    tmux.wait_for_in("game.1", "Waiting for Alice…");
    // c: an extra turn; then f: Michael's turn.
    tmux.keys_to("game.0", &["c"]);
    tmux.wait_for_in("game.1", "Alice gets an extra turn!");
    tmux.wait_for_in("game.0", "Alice, your move: a-f");
    tmux.keys_to("game.0", &["f"]);
    let joiner = tmux.wait_for_in("game.1", "Michael, your move: g-l");
    let host = tmux.wait_for_in("game.0", "Waiting for Michael…");
    assert_eq!(
        board(&host),
        board(&joiner),
        "the same board on both screens"
    );
    // Michael has no move of his own to take back yet: said on his screen.
    tmux.keys_to("game.1", &["u"]);
    tmux.wait_for_in("game.1", "There is no earlier turn of yours in this round");
    // Michael plays k, asks to take it back; Alice says no.
    tmux.keys_to("game.1", &["k"]);
    tmux.wait_for_in("game.0", "Michael played k.");
    tmux.wait_for_in("game.0", "Alice, your move: a-f");
    let joiner = tmux.wait_for_in("game.1", "Waiting for Alice…");
    let host = tmux.pane("game.0");
    assert_eq!(
        board(&host),
        board(&joiner),
        "the same board after Michael's move"
    );
    tmux.keys_to("game.1", &["u"]);
    tmux.wait_for_in("game.0", "Michael asks to take back their last move.");
    tmux.keys_to("game.0", &["n"]);
    tmux.wait_for_in("game.1", "Alice does not agree to take back the move.");
    // Then Michael leaves: Alice's screen says so.
    // Leaving asks first, as in a local match; n goes back to the game.
    tmux.keys_to("game.1", &["q"]);
    let asked = tmux.wait_for_in("game.1", "Quit? (y/n)");
    // The joiner resumes with the same `join` command, not "the same names".
    assert!(asked.contains("join again"), "{asked}");
    assert!(!asked.contains("same names"), "{asked}");
    tmux.keys_to("game.1", &["n"]);
    tmux.keys_to("game.1", &["q"]);
    tmux.wait_for_in("game.1", "Quit? (y/n)");
    assert!(
        !tmux.pane("game.0").contains("Michael left the match."),
        "nothing is sent before the answer"
    );
    tmux.keys_to("game.1", &["y"]);
    tmux.wait_for_in("game.0", "Michael left the match.");
    tmux.wait_for_in("game.1", "You left the match");
    tmux.keys_to("game.0", &["q"]);
    tmux.wait_for_in("game.0", "Quit? (y/n)");
    tmux.keys_to("game.0", &["y"]);
    tmux.wait_for_in("game.0", "The match is saved");
}

/// The host's log says how the friend joins (the code, the `mancala join`
/// commands, where it listens) until the friend is in; then those lines
/// are stale and go, under the welcome, which stays, with who joined.
/// (Before, they stayed in the host's log for the whole match.)
#[test]
fn the_hosts_log_drops_how_to_join_once_the_friend_is_in() {
    let scratch = Scratch::new("net-how-to-join");
    let Some(tmux) = host_and_join_in(&scratch, "how-to-join", (200, 60), "", "--plain") else {
        return;
    };
    tmux.wait_for_in("game.1", "Waiting for Alice…");
    tmux.wait_for_in("game.0", "Michael joined (from 127.0.0.1:");
    let host = tmux.wait_for_in("game.0", "Alice, your move: a-f");
    assert!(host.contains("Alice hosts a match of Mancala."), "{host}");
    for stale in [
        "Your friend joins with this code",
        "mancala join",
        "--code",
        "NAME is your friend's name",
        "Listening on",
        "Waiting for your friend",
    ] {
        assert!(!host.contains(stale), "'{stale}' stays:\n{host}");
    }
    tmux.keys_to("game.0", &["q"]);
    tmux.wait_for_in("game.0", "Quit? (y/n)");
    tmux.keys_to("game.0", &["y"]);
    tmux.wait_for_in("game.1", "Alice left the match.");
}

#[test]
fn the_network_screen_sows_at_the_speed_kept_in_the_preferences() {
    let scratch = Scratch::new("net-speed");
    // The host's kept speed is the slowest (5 s a seed); the joiner shows
    // moves at once.
    std::fs::create_dir_all(scratch.config()).unwrap();
    std::fs::write(scratch.config().join("preferences"), "speed = 5000\n").unwrap();
    let Some(tmux) = host_and_join(&scratch, "net-speed", "", "--no-animation") else {
        return;
    };
    tmux.wait_for_in("game.0", "Alice, your move: a-f");
    tmux.wait_for_in("game.1", "Waiting for Alice…");
    // c sows four seeds and gives an extra turn: the joiner shows it at
    // once; the host is still sowing seconds later (at the default speed
    // it would be done in 0.6 s).
    tmux.keys_to("game.0", &["c"]);
    tmux.wait_for_in("game.1", "Alice gets an extra turn!");
    std::thread::sleep(std::time::Duration::from_secs(3));
    let host = tmux.pane("game.0");
    assert!(
        !host.contains("Alice, your move: a-f"),
        "the host's sowing should take 20 s:\n{host}"
    );
    assert_ne!(board(&host), board(&tmux.pane("game.1")), "{host}");
}

/// Two rounds to their end on both full screens, 1 pit × 1 seed (the first
/// move ends a round): each round is recorded once, by the host's game
/// keeper, with the friend's seat as the network's; both answer "Play
/// again?" before the next round starts on both screens; a "no" ends the
/// match on both, and the host's save goes.
#[test]
fn whole_rounds_end_on_both_screens_and_the_host_keeps_them() {
    let scratch = Scratch::new("net-rounds");
    let rules = "--pits 1 --seeds 1 --first alternate --no-animation";
    let Some(tmux) = host_and_join(&scratch, "net-rounds", rules, "--no-animation") else {
        return;
    };
    tmux.wait_for_in("game.0", "Alice, your move: a");
    tmux.wait_for_in("game.1", "Waiting for Alice…");
    tmux.keys_to("game.0", &["a"]);
    tmux.wait_for_in("game.0", "Round recorded in");
    let panel = tmux.wait_for_in("game.1", "Play again? (y/n)");
    // The joiner recorded the round too, and offers its analysis.
    assert!(panel.contains("looks at this round's analysis"), "{panel}");
    tmux.wait_for_in("game.1", "Round recorded in");
    tmux.keys_to("game.0", &["y"]);
    tmux.wait_for_in("game.0", "Waiting for Michael's answer");
    tmux.wait_for_in("game.1", "Alice wants to play again.");
    tmux.keys_to("game.1", &["y"]);
    // Round 2: Michael starts; his only move ends it.
    let round2 = tmux.wait_for_in("game.1", "Michael, your move: b");
    // Round 2 starts on a clean log, as in a local match.
    assert!(!round2.contains("Alice wants to play again."), "{round2}");
    tmux.wait_for_in("game.0", "Waiting for Michael…");
    tmux.keys_to("game.1", &["b"]);
    tmux.wait_for_in("game.0", "Round recorded in");
    tmux.wait_for_in("game.1", "Play again? (y/n)");
    tmux.keys_to("game.1", &["n"]);
    tmux.wait_for_in("game.0", "The match is over. Thanks for playing!");
    tmux.wait_for_in("game.1", "The match is over. Thanks for playing!");

    let records: Vec<String> = std::fs::read_dir(scratch.data().join("records"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "one record a round: {records:?}");
    for record in &records {
        assert!(record.contains("south-player: human"), "{record}");
        assert!(record.contains("north-player: network"), "{record}");
    }
    let stats = std::fs::read_to_string(scratch.data().join("stats.jsonl")).unwrap();
    assert_eq!(stats.lines().count(), 2, "{stats}");
    let saves = scratch.data().join("saves/network");
    let left = std::fs::read_dir(&saves).map_or(0, |d| d.count());
    assert_eq!(left, 0, "the match is over: no save of it stays");
    // The joiner keeps its own record and statistics of each round.
    let joiner = joiner_data(&scratch);
    let kept = std::fs::read_dir(joiner.join("records")).map_or(0, |d| d.count());
    assert_eq!(kept, 2, "the joiner's records");
    let stats = std::fs::read_to_string(joiner.join("stats.jsonl")).unwrap();
    assert_eq!(stats.lines().count(), 2, "{stats}");
}

/// On a board where `q` names a pit (10 pits), the joiner's Esc and `y`
/// to "Quit?" leave the match: no move is played (today's main sent the
/// line "q", which the host played as Michael's pit q).
#[test]
fn quitting_the_joiners_screen_where_q_is_a_pit_plays_no_move() {
    let scratch = Scratch::new("net-quit-q");
    let rules = "--pits 10 --no-animation";
    let Some(tmux) = host_and_join(&scratch, "net-quit-q", rules, "--no-animation") else {
        return;
    };
    tmux.wait_for_in("game.0", "Alice, your move: a-j");
    tmux.keys_to("game.0", &["a"]);
    tmux.wait_for_in("game.1", "Michael, your move: k-t");
    tmux.keys_to("game.1", &["Escape"]);
    tmux.wait_for_in("game.1", "Quit? (y/n)");
    tmux.keys_to("game.1", &["y"]);
    let host = tmux.wait_for_in("game.0", "Michael left the match.");
    assert!(!host.contains("Michael played q"), "{host}");
}

/// On a board where `u` names a pit (12 pits), the joiner's `u` while its
/// move is on its way to the host (held there: the host's save fails) is
/// that pit, which does nothing now, never a request to take back a move:
/// the keys come from the session's open commands, as at one keyboard
/// (today's main read `u` as the take-back and answered "A request is
/// already waiting for an answer.").
#[test]
fn u_on_the_joiners_screen_where_u_is_a_pit_names_the_pit() {
    let scratch = Scratch::new("net-u-pit");
    let rules = "--pits 12 --no-animation";
    let Some(tmux) = host_and_join(&scratch, "net-u-pit", rules, "--no-animation") else {
        return;
    };
    for (pane, turn, letter) in [
        ("game.0", "Alice, your move: a-l", "a"),
        ("game.1", "Michael, your move: m-x", "m"),
        ("game.0", "Alice, your move: a-l", "b"),
    ] {
        tmux.wait_for_in(pane, turn);
        tmux.keys_to(pane, &[letter]);
    }
    tmux.wait_for_in("game.1", "Michael, your move: m-x");
    let save = break_network_save(&scratch.data());
    tmux.keys_to("game.1", &["n"]);
    tmux.wait_for_in("game.0", "once it is saved");
    tmux.keys_to("game.1", &["u"]);
    let screen = tmux.wait_for_in("game.1", "u does nothing now");
    assert!(!screen.contains("A request is already waiting"), "{screen}");
    mend_save(&save);
    tmux.wait_for_in("game.0", "Alice, your move: a-l");
    let host = tmux.pane("game.0");
    assert!(!host.contains("Michael asks to take back"), "{host}");
}

/// The counts a screen shows: North's pits left to right, the stores
/// (North's on the left), South's pits left to right.
fn counts_shown(screen: &str) -> Vec<u32> {
    let rows = board(screen);
    let numbers = |line: &str| -> Vec<u32> {
        line.split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect()
    };
    let stores = rows.iter().find(|r| r.contains('◀')).expect("the stores");
    let mut shown = numbers(&rows[1]);
    shown.extend(numbers(stores));
    shown.extend(numbers(&rows[rows.len() - 2]));
    shown
}

/// What a screen shows of `board`, in [`counts_shown`]'s order.
fn counts_of(board: &mancala::rules::Board) -> Vec<u32> {
    let counts: Vec<u32> = board.counts().iter().map(|&c| u32::from(c)).collect();
    let pits = (counts.len() - 2) / 2;
    let mut shown: Vec<u32> = counts[pits + 1..2 * pits + 1]
        .iter()
        .rev()
        .copied()
        .collect();
    shown.extend([counts[2 * pits + 1], counts[pits]]);
    shown.extend(&counts[..pits]);
    shown
}

/// The plain tests' scripted round (the rightmost legal pit each move,
/// Kalah 6 × 4) played on both full screens, each move typed on its
/// player's screen once both show the board before it: the host's and the
/// joiner's records hold the same moves as the round played locally in
/// plain mode.
#[test]
fn the_scripted_round_on_both_full_screens_records_as_plain_local_play() {
    use mancala::rules::{Board, Rules, Side};
    let rules = Rules::KALAH;
    let mut board = Board::new(rules);
    let mut script = Vec::new();
    while let Some(pit) = board.legal_moves().last() {
        let mover = board.to_move();
        board.play(pit).unwrap();
        script.push((mover, rules.letter(pit).unwrap(), board));
    }
    let scratch = Scratch::new("net-scripted");
    let local = scratch.path().join("local");
    let input: String = script.iter().map(|(_, l, _)| format!("{l}\n")).collect();
    let out = common::program::run(
        &local,
        &scratch.config(),
        &["--plain", "--no-animation", "Alice", "Michael"],
        &format!("{input}n\n"),
    );
    assert!(out.status.success(), "{out:?}");
    let opts = "--no-animation";
    let Some(tmux) = host_and_join(&scratch, "net-scripted", opts, opts) else {
        return;
    };
    tmux.wait_for_in("game.0", "Alice, your move");
    tmux.wait_for_in("game.1", "Waiting for Alice…");
    for (mover, letter, after) in &script {
        let (pane, name) = match mover {
            Side::South => ("game.0", "Alice"),
            Side::North => ("game.1", "Michael"),
        };
        tmux.wait_for_in(pane, &format!("{name}, your move"));
        tmux.keys_to(pane, &[&letter.to_string()]);
        let want = counts_of(after);
        tmux.wait_until(&format!("{name}'s {letter} on both screens"), |t| {
            ["game.0", "game.1"]
                .iter()
                .all(|p| counts_shown(&t.pane(p)) == want)
        });
    }
    tmux.wait_for_in("game.0", "Play again? (y/n)");
    tmux.keys_to("game.0", &["n"]);
    tmux.wait_for_in("game.1", "The match is over. Thanks for playing!");
    let moves = |data: &std::path::Path| {
        let records: Vec<_> = std::fs::read_dir(data.join("records"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(records.len(), 1, "{records:?}");
        let text = std::fs::read_to_string(&records[0]).unwrap();
        mancala::store::Record::parse(&text).unwrap().moves
    };
    let played = moves(&local);
    assert_eq!(played.len(), script.len());
    assert_eq!(moves(&scratch.data()), played, "the host's record");
    assert_eq!(moves(&joiner_data(&scratch)), played, "the joiner's record");
}
