//! The replay screen's tests: the model without a terminal, the picture
//! on ratatui's test backend.

use super::*;
use crate::tui::theme::Palette;
use crossterm::event::{KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn key(code: KeyCode, kind: KeyEventKind) -> KeyEvent {
    let mut k = KeyEvent::new(code, KeyModifiers::NONE);
    k.kind = kind;
    k
}

fn record() -> Record {
    Record::parse(
        "mancala record 1\npits: 6\nseeds: 4\ncapture: always\nsowing: single\nsweep: owner\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: c,f,h\n",
    )
    .unwrap()
}

fn screen(view: &ReplayView) -> String {
    crate::tui::game::testing::render_with(80, 24, |f| view.draw(f, &Theme::monochrome()))
}

#[test]
fn arrows_step_and_only_presses_count() {
    assert_eq!(
        action(key(KeyCode::Right, KeyEventKind::Press)),
        Some(ReplayKey::Forward)
    );
    assert_eq!(
        action(key(KeyCode::Left, KeyEventKind::Press)),
        Some(ReplayKey::Back)
    );
    assert_eq!(action(key(KeyCode::Right, KeyEventKind::Release)), None);
    assert_eq!(
        action(key(KeyCode::Char('q'), KeyEventKind::Press)),
        Some(ReplayKey::Quit)
    );
}

/// A replay of [`record`] sown at 100 ms a seed, and the record's boards.
fn animated() -> (ReplayView, Vec<crate::rules::Board>) {
    let record = record();
    let boards = record.stepper().unwrap().boards().to_vec();
    let view = ReplayView::new(record, Some(Duration::from_millis(100))).unwrap();
    (view, boards)
}

#[test]
fn stepping_walks_the_records_positions_and_animates_forward() {
    let (mut view, boards) = animated();
    let t0 = Instant::now();
    assert!(view.handle(ReplayKey::Forward, t0));
    assert!(view.animating());
    assert_ne!(view.counts(), boards[1].counts(), "mid-sowing");
    view.tick(t0 + Duration::from_secs(10));
    assert!(!view.animating());
    assert_eq!(view.counts(), boards[1].counts());
    view.handle(ReplayKey::End, t0);
    assert_eq!(view.counts(), boards[3].counts());
    view.handle(ReplayKey::Back, t0);
    assert_eq!(view.counts(), boards[2].counts());
    view.handle(ReplayKey::Start, t0);
    assert_eq!(view.counts(), boards[0].counts());
    assert!(!view.handle(ReplayKey::Quit, t0));
}

#[test]
fn the_screen_shows_the_board_the_move_and_its_message() {
    let mut view = ReplayView::new(record(), None).unwrap();
    view.handle(ReplayKey::Forward, Instant::now());
    let text = screen(&view);
    assert!(text.contains("move 1 of 3"), "{text}");
    assert!(text.contains("Alice played c."), "{text}");
    assert!(text.contains("Alice gets an extra turn!"), "{text}");
    assert!(text.contains("▶ Alice to move"), "{text}");
    assert!(text.contains("→ forward"), "{text}");
    view.handle(ReplayKey::End, Instant::now());
    let text = screen(&view);
    assert!(text.contains("Michael gets an extra turn!"), "{text}");
    assert!(text.contains("the round was not finished"), "{text}");
}

#[test]
fn a_opens_the_analysis_of_the_round_and_q_comes_back() {
    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), None).unwrap();
    let press = |view: &mut ReplayView, code| {
        Screen::update(view, Input::Key(key(code, KeyEventKind::Press)), t0)
    };
    press(&mut view, KeyCode::Char('a'));
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let text = |view: &ReplayView, terminal: &mut Terminal<TestBackend>| {
        terminal.draw(|f| Screen::view(view, f)).unwrap();
        let buffer = terminal.backend().buffer();
        buffer
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect::<String>()
    };
    assert!(text(&view, &mut terminal).contains("Analysis of round 1"));
    // the analysis thread finishes (three moves of Kalah: the book's)
    let start = Instant::now();
    while !text(&view, &mut terminal).contains("before")
        && start.elapsed() < Duration::from_secs(30)
    {
        std::thread::sleep(Duration::from_millis(10));
        Screen::update(&mut view, Input::Tick, t0);
    }
    let shown = text(&view, &mut terminal);
    assert!(shown.contains("value for Alice (South)"), "{shown}");
    press(&mut view, KeyCode::Char('q'));
    assert!(
        !Screen::done(&view),
        "q leaves the analysis, not the replay"
    );
    assert!(text(&view, &mut terminal).contains("Replay of round 1"));
    press(&mut view, KeyCode::Char('q'));
    assert!(Screen::done(&view));
}

#[test]
fn plus_minus_and_t_change_the_speed_and_theme_and_keep_them() {
    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), Some(Duration::from_millis(150))).unwrap();
    assert_eq!(
        action(key(KeyCode::Char('+'), KeyEventKind::Press)),
        Some(ReplayKey::Faster)
    );
    view.handle(ReplayKey::Forward, t0);
    assert!(view.handle(ReplayKey::Slower, t0));
    assert!(view.animating(), "the sowing goes on, slower");
    assert_eq!(
        view.animation.as_ref().unwrap().delay(),
        Duration::from_millis(220)
    );
    assert!(screen(&view).contains("Sowing speed: 220 ms per seed."));
    view.handle(ReplayKey::Theme, t0);
    let kept = Screen::update(&mut view, Input::Tick, t0);
    assert_eq!(
        kept,
        [Prefs {
            seed_delay: Some(Duration::from_millis(220)),
            palette: Palette::Colour,
        }],
        "kept for next time"
    );
    assert!(Screen::update(&mut view, Input::Tick, t0).is_empty());
}

fn press(view: &mut ReplayView, code: KeyCode, now: Instant) {
    Screen::update(view, Input::Key(key(code, KeyEventKind::Press)), now);
}

#[test]
fn question_mark_shows_the_help_arrows_scroll_it_and_any_other_key_closes_it() {
    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), None).unwrap();
    assert!(screen(&view).contains("? help"), "the key bar says so");
    press(&mut view, KeyCode::Char('?'), t0);
    assert!(view.help.is_some());
    let shown = screen(&view);
    insta::assert_snapshot!(shown);
    assert!(shown.contains("Mancala replay — help"), "{shown}");
    assert!(shown.contains("Rules: 6 pits × 4 seeds"), "{shown}");
    assert!(!shown.contains("Replay of round 1"), "{shown}");
    press(&mut view, KeyCode::Down, t0);
    assert_eq!(screen(&view), shown, "it fits: nothing to scroll");
    assert!(
        shown.contains("any key closes ╯") && !shown.contains("↑↓ scroll ·"),
        "nor arrows offered: {shown}"
    );
    assert!(view.help.is_some());
    press(&mut view, KeyCode::Char('q'), t0);
    assert!(view.help.is_none(), "q closes the help");
    assert!(!Screen::done(&view), "and does not leave the replay");
    assert_eq!(view.stepper.index(), 0);
    assert!(screen(&view).contains("Replay of round 1"));
}

#[test]
fn the_help_fits_a_small_screen_and_scrolls_to_its_last_line() {
    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), None).unwrap();
    Screen::update(&mut view, Input::Resize(40, 12), t0);
    press(&mut view, KeyCode::Char('?'), t0);
    let small = |view: &ReplayView| {
        crate::tui::game::testing::render_with(40, 12, |f| view.draw(f, &Theme::monochrome()))
    };
    let top = small(&view);
    assert!(top.contains("Rules: 6 pits"), "{top}");
    assert!(!top.contains("this help"), "{top}");
    for _ in 0..200 {
        press(&mut view, KeyCode::Down, t0);
    }
    let bottom = small(&view);
    assert!(bottom.contains("this help"), "the last key shows: {bottom}");
    assert!(!bottom.contains("Rules: 6 pits"), "{bottom}");
    assert!(
        bottom.lines().nth(10).unwrap().contains("closes it)"),
        "no further than the last line: {bottom}"
    );
    press(&mut view, KeyCode::Up, t0);
    let back = small(&view);
    assert!(
        !back.lines().nth(10).unwrap().contains("closes it)"),
        "the scrolling stopped at the last line: one ↑ goes back a line:\n{back}"
    );
    // The wheel scrolls it as the arrows do, and moves nothing behind it.
    for _ in 0..200 {
        Screen::update(&mut view, Input::Scroll(-1), t0);
    }
    assert_eq!(small(&view), top, "the wheel scrolled it back up");
    for _ in 0..200 {
        Screen::update(&mut view, Input::Scroll(1), t0);
    }
    assert_eq!(small(&view), bottom, "and down to its last line");
    assert!(view.help.is_some());
    assert_eq!(view.stepper.index(), 0, "the round did not move behind it");
}

#[test]
fn with_no_color_set_neither_the_key_bar_nor_the_help_offers_colours() {
    let t0 = Instant::now();
    for forbidden in [false, true] {
        let mut view = ReplayView::new(record(), None).unwrap();
        let kept = crate::tui::prefs::Prefs {
            seed_delay: None,
            palette: Palette::Mono,
        };
        view.chosen = Chosen::new(None, Theme::monochrome(), kept, forbidden);
        // The whole bar: the screen's keeps to the board's width.
        let bar = view.key_bar().line(200, &Theme::monochrome()).to_string();
        press(&mut view, KeyCode::Char('?'), t0);
        let help = screen(&view);
        assert_eq!(bar.contains("t colours"), !forbidden, "{bar}");
        assert_eq!(help.contains("colours or black"), !forbidden, "{help}");
    }
}

/// Ticks `view` at every time it asks to be woken, from `t0`, until it
/// stops playing or `limit` wakes went by; the times each move was played.
fn play_through(view: &mut ReplayView, t0: Instant, limit: usize) -> Vec<Duration> {
    let mut played = Vec::new();
    for _ in 0..limit {
        if !view.playing {
            break;
        }
        let now = view.next_wake().expect("a playing replay wakes by itself");
        let before = view.stepper.index();
        Screen::update(view, Input::Tick, now);
        if view.stepper.index() != before {
            played.push(now - t0);
        }
    }
    played
}

#[test]
fn p_plays_the_moves_by_themselves_on_ticks_and_stops_at_the_end() {
    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), Some(Duration::from_millis(100))).unwrap();
    press(&mut view, KeyCode::Char('p'), t0);
    assert!(view.playing);
    assert_eq!(view.stepper.index(), 1, "the first move at once");
    assert!(view.animating(), "sown seed by seed");
    assert!(screen(&view).contains("p stop"), "{}", screen(&view));
    assert!(screen(&view).contains("· playing"));
    let played = play_through(&mut view, t0, 1000);
    assert_eq!(played.len(), 2, "the two other moves, by themselves");
    assert!(!view.playing, "stopped at the end");
    assert_eq!(view.stepper.index(), 3);
    assert!(!view.animating());
    assert_eq!(view.next_wake(), None, "nothing more to wake for");
    let end = screen(&view);
    assert!(
        end.contains("The end of the round; p plays it again."),
        "{end}"
    );
    assert!(end.contains("p play"), "{end}");
    // Each move waits for the sowing before it, then the pause.
    assert!(
        played[0] >= MOVE_PAUSE + Duration::from_millis(100),
        "{played:?}"
    );
    // p at the end plays the round again from the start.
    press(&mut view, KeyCode::Char('p'), t0);
    assert_eq!(view.stepper.index(), 1);
    assert!(view.playing);
}

#[test]
fn the_speed_sets_the_pace_and_a_step_key_or_p_stops_the_playing() {
    let pace = |delay: Option<Duration>| {
        let t0 = Instant::now();
        let mut view = ReplayView::new(record(), delay).unwrap();
        view.handle(ReplayKey::Play, t0);
        Screen::update(&mut view, Input::Tick, t0);
        let played = play_through(&mut view, t0, 1000);
        assert_eq!(view.stepper.index(), 3, "{delay:?}");
        *played.last().unwrap()
    };
    let fast = pace(Some(Duration::from_millis(20)));
    let slow = pace(Some(Duration::from_millis(500)));
    let still = pace(None);
    assert!(fast < slow, "{fast:?} {slow:?}");
    assert_eq!(still, 2 * MOVE_PAUSE, "without animation, the pause alone");
    assert!(fast > still, "the sowing takes its time: {fast:?}");

    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), None).unwrap();
    view.handle(ReplayKey::Play, t0);
    view.handle(ReplayKey::Faster, t0);
    assert!(view.playing, "the speed keys keep it playing");
    view.handle(ReplayKey::Back, t0);
    assert!(!view.playing, "stepping by hand stops it");
    assert_eq!(view.stepper.index(), 0);
    view.tick(t0 + Duration::from_secs(60));
    assert_eq!(view.stepper.index(), 0, "and nothing plays any more");
    view.handle(ReplayKey::Play, t0);
    view.handle(ReplayKey::Play, t0);
    assert!(!view.playing, "p again stops it");
    assert!(screen(&view).contains("Stopped; p plays on."));
}

/// The analysis kept from a first look takes the theme chosen in the
/// replay since, when opened again.
#[test]
fn the_analysis_opened_again_shows_the_theme_chosen_meanwhile() {
    let t0 = Instant::now();
    let mut view = ReplayView::new(record(), None).unwrap();
    press(&mut view, KeyCode::Char('a'), t0);
    assert!(view.analysis.on_screen().is_some());
    press(&mut view, KeyCode::Char('q'), t0);
    assert!(view.analysis.on_screen().is_none(), "q comes back");
    press(&mut view, KeyCode::Char('t'), t0);
    let theme = *view.chosen.theme();
    assert!(!theme.monochrome, "t brought the colours");
    press(&mut view, KeyCode::Char('a'), t0);
    let analysis = view.analysis.on_screen().expect("on screen again");
    assert_eq!(analysis.theme(), &theme);
}

#[test]
fn c_says_the_position_on_the_board_and_hands_its_line_to_the_clipboard() {
    let (mut view, boards) = animated();
    let t0 = Instant::now();
    // in the help (the bar has no room for it beside the replay's keys)
    let help = help_text(&view.record, &view.chosen);
    assert!(
        help.keys
            .iter()
            .any(|(k, what)| k == "c" && what == clipboard::HELP)
    );
    view.handle(ReplayKey::Forward, t0);
    assert!(view.animating());
    // a move being sown is shown whole first: its position is copied
    let copy = action(key(KeyCode::Char('C'), KeyEventKind::Press)).unwrap();
    assert_eq!(copy, ReplayKey::Copy);
    view.handle(copy, t0);
    assert!(!view.animating());
    let line = view.take_copy().expect("a line to copy");
    assert_eq!(view.take_copy(), None, "handed over once");
    let position: crate::rules::Position = line.parse().unwrap();
    assert_eq!(position.kalah(), Some(&boards[1]));
    assert!(
        screen(&view).contains(&format!("Position: {}", &line[..60])),
        "{}",
        screen(&view)
    );
}

/// The help of an Oware record's replay states Oware's rules, as the
/// game's help does: it showed Kalah's (stores, extra turns, 6 pits × 4
/// seeds with capture always).
#[test]
fn an_oware_replays_help_states_oware_rules() {
    let oware = Record::parse(
        "mancala record 1\ngame: oware\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: c,h\n",
    )
    .unwrap();
    let view = ReplayView::new(oware, None).unwrap();
    let help = help_text(&view.record, &view.chosen);
    assert!(help.heading.contains("Oware"), "{}", help.heading);
    assert!(!help.heading.contains("capture always"), "{}", help.heading);
    let all = help.sentences.join(" ");
    assert!(
        all.contains("2 or 3") && all.contains("25 captured wins"),
        "{all}"
    );
    assert!(
        !all.contains("store") && !all.contains("move again"),
        "{all}"
    );
    let kalah = help_text(&record(), &view.chosen);
    assert!(kalah.sentences.join(" ").contains("your own store"));
}

/// A sentence wider than the screen wraps onto the next line instead of
/// losing its end at the edge (it was cut: "… goes to Alexandra" and no
/// more).
#[test]
fn a_long_sentence_at_the_end_of_the_record_is_shown_whole() {
    let south = "Alexandra Catherine Montgomery-Smythe";
    let north = "Bartholomew Maximilian Fairweather";
    let record = Record::parse(&format!(
        "mancala record 1\npits: 1\nseeds: 1\ncapture: always\nsowing: single\nsweep: owner\nsouth: {south}\nnorth: {north}\nstarter: south\nmoves: a\n"
    ))
    .unwrap();
    let mut view = ReplayView::new(record, None).unwrap();
    view.handle(ReplayKey::Forward, Instant::now());
    let shown = screen(&view);
    let joined: String = shown.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    let sweep = format!("The round is over: 1 seed left on {north}'s side goes to {north}.");
    assert!(
        sweep.chars().count() > 80,
        "the sentence must not fit one line"
    );
    assert!(joined.contains(&sweep), "{shown}");
}
