//! The game screen on terminals bigger than 80×24: the board grows, the
//! log takes the lines left, the key bar stays on the last line, and a
//! click still plays the pit drawn under it.

use std::time::Instant;

use crossterm::event::KeyCode;

use crate::players::PlayerKind;
use crate::rules::{Rules, Side};
use crate::tui::game::testing::render;
use crate::tui::game::testing::{
    app_for, ch, click, config, humans, moves_to_first_capture, press,
};

/// Sizes a player's terminal is likely to have.
const SIZES: [(u16, u16); 5] = [(80, 24), (100, 30), (120, 40), (160, 50), (200, 60)];

/// Two humans on `pits` pits, no animation, on a `width`×`height` terminal.
fn humans_on(pits: usize, (width, height): (u16, u16)) -> crate::tui::App {
    let rules = Rules::KALAH.with_pits(pits).unwrap();
    let mut app = app_for(
        config(rules, PlayerKind::Human, PlayerKind::Human),
        None,
        Instant::now(),
    );
    app.resize(width, height);
    app
}

#[test]
fn a_click_inside_a_drawn_pit_plays_that_pit_at_every_size() {
    let t0 = Instant::now();
    for pits in [1, 6, 12] {
        let rules = Rules::KALAH.with_pits(pits).unwrap();
        for size in SIZES {
            let screen = render(&humans_on(pits, size), size.0, size.1);
            // South's letters are on the bottom border of their boxes, the
            // last line with box corners on it.
            let (border_row, border) = screen
                .lines()
                .enumerate()
                .filter(|(_, l)| l.contains('╰') || l.contains('╚'))
                .last()
                .unwrap();
            for pit in rules.pits_of(Side::South) {
                let letter = rules.letter(pit).unwrap();
                let column = border
                    .chars()
                    .zip(border.chars().skip(1))
                    .position(|(before, c)| c == letter && matches!(before, '─' | '═' | '▸'))
                    .unwrap_or_else(|| panic!("{letter} drawn in\n{screen}"))
                    + 1;
                // Inside the box, just above its bottom border.
                let mut app = humans_on(pits, size);
                app.handle_event(&click(column as u16, border_row as u16 - 1), t0);
                assert_eq!(
                    app.game().moves(),
                    &[pit],
                    "{pits} pits at {size:?}: a click on {letter}\n{screen}"
                );
            }
        }
    }
}

#[test]
fn every_size_keeps_the_key_bar_on_the_last_line() {
    for pits in [1, 6, 12] {
        for (width, height) in SIZES {
            let screen = render(&humans_on(pits, (width, height)), width, height);
            let last = screen.lines().last().unwrap_or_default();
            assert!(
                last.contains("? help"),
                "{pits} pits at {width}×{height}\n{screen}"
            );
            let first = screen.lines().find(|l| !l.trim().is_empty());
            assert!(
                first.unwrap_or_default().contains("Round 1"),
                "{pits} pits at {width}×{height}\n{screen}"
            );
        }
    }
}

#[test]
fn mid_round_at_120_by_40_with_the_newest_of_a_long_log() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    app.resize(120, 40);
    for letter in moves_to_first_capture(Rules::KALAH) {
        app.handle_event(&ch(letter), t0);
    }
    // Then each player plays their rightmost pit that has seeds, until
    // the log is longer than an 80×24 screen shows.
    while app.notes().log().len() <= 12 && !app.round_over() {
        let pit = app.game().board().legal_moves().last().unwrap();
        app.handle_event(&ch(Rules::KALAH.letter(pit).unwrap()), t0);
    }
    assert!(!app.round_over());
    let screen = render(&app, 120, 40);
    let log = app.notes().log();
    assert!(log.len() > 12, "more lines than an 80×24 screen shows");
    // The log's lines under the status line, the newest last.
    for note in log.iter().skip(log.len() - 11) {
        assert!(screen.contains(&note.text), "{}\n{screen}", note.text);
    }
    // The game sits in the middle: as many empty lines above as below.
    let lines: Vec<&str> = screen.lines().collect();
    let above = lines.iter().take_while(|l| l.trim().is_empty()).count();
    assert!(above >= 2, "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn end_of_round_at_120_by_40() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    app.resize(120, 40);
    while !app.round_over() {
        app.handle_event(&press(KeyCode::Enter), t0);
    }
    let screen = render(&app, 120, 40);
    assert!(screen.contains("Play again? (y/n)"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn twelve_pits_at_200_by_60() {
    let app = humans_on(12, (200, 60));
    insta::assert_snapshot!(render(&app, 200, 60));
}
