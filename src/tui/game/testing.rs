//! Helpers for the screen tests: apps without a terminal, events, and
//! rendering into ratatui's test backend.

use std::time::{Duration, Instant};

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::game::PlayOptions;
use crate::game::{FirstMover, Match, MatchConfig, Seat};
use crate::players::PlayerKind;
use crate::rules::{Board, Pit, Rules};
use crate::tui::game::app::App;
use crate::tui::game::computer::{Answer, Request};
use crate::tui::game::draw::draw;
use crate::tui::input::Input;
use crate::tui::theme::Theme;

/// A match between two seats of the given kinds, Alice (South) against Michael.
pub fn config(rules: Rules, south: PlayerKind, north: PlayerKind) -> MatchConfig {
    MatchConfig {
        game: crate::rules::Game::Kalah,
        rules,
        seats: [Seat::new("Alice", south), Seat::new("Michael", north)],
        first: FirstMover::Alternate,
        start: None,
    }
}

/// An app for `config` on an 80×24 terminal; `delay` is the sowing delay.
pub fn app_for(config: MatchConfig, delay: Option<Duration>, t0: Instant) -> App {
    App::new(
        Match::new(config, 1),
        PlayOptions {
            seed_delay: delay,
            move_pause: Duration::from_millis(500),
            ..PlayOptions::default()
        },
        Theme::monochrome(),
        (80, 24),
        t0,
    )
}

/// The app of a match of `config` kept in the scratch store `dir` (the
/// session's keeper keeps it there, as in a real game).
pub fn kept_app(config: MatchConfig, dir: &std::path::Path, t0: Instant) -> App {
    let store = crate::store::SaveStore::at(dir).expect("a scratch store");
    let session = crate::session::Session::thinking_outside(
        Match::new(config, 1),
        Duration::from_millis(10),
        crate::store::Keeper::new(Some(store)),
    );
    let settings = PlayOptions {
        seed_delay: None,
        move_pause: Duration::from_millis(500),
        ..PlayOptions::default()
    };
    App::start(session, settings, Theme::monochrome(), (80, 24), t0)
}

/// The app of `saved`'s players started with `saved` kept in a scratch
/// store: the session offers it for resuming. The store's directory
/// lasts as long as the returned guard.
pub fn resuming(saved: &Match, t0: Instant) -> (App, tempfile::TempDir) {
    let scratch = crate::store::files::scratch("resume");
    let store = crate::store::SaveStore::at(scratch.path()).expect("a scratch store");
    store.save(saved).expect("saved");
    (
        kept_app(saved.config().clone(), scratch.path(), t0),
        scratch,
    )
}

/// The app of `config` while another keeper (another window) holds the
/// match: the session asks whether to play it here unsaved. The guards
/// keep the store and the other window's lock.
pub fn busy(config: MatchConfig, t0: Instant) -> (App, tempfile::TempDir, crate::store::Keeper) {
    let scratch = crate::store::files::scratch("busy");
    let store = crate::store::SaveStore::at(scratch.path()).expect("a scratch store");
    let mut other = crate::store::Keeper::new(Some(store));
    assert!(!other.look(&config).busy);
    (kept_app(config, scratch.path(), t0), scratch, other)
}

/// Alice (human) against a computer `north` of that kind, Kalah.
pub fn against(north: PlayerKind, delay: Option<Duration>, t0: Instant) -> App {
    app_for(config(Rules::KALAH, PlayerKind::Human, north), delay, t0)
}

/// Answers the one move the computer was asked for with pit `letter`
/// (of the standard board) at `now`.
pub fn answer_move(app: &mut App, letter: char, now: Instant) {
    let [Request::Move { id, .. }] = app.take_requests()[..] else {
        panic!("the computer was asked for one move");
    };
    let pit = Rules::KALAH.pit_by_letter(letter);
    app.on_answer(Answer::Move { id, pit }, now);
}

/// Alice against Michael, Kalah, both human, no animation.
pub fn humans(t0: Instant) -> App {
    app_for(
        config(Rules::KALAH, PlayerKind::Human, PlayerKind::Human),
        None,
        t0,
    )
}

/// A key press.
pub fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// A key press event.
pub fn press(code: KeyCode) -> Event {
    Event::Key(key(code))
}

/// A character key press.
pub fn ch(c: char) -> Event {
    Event::Key(key(KeyCode::Char(c)))
}

/// A character key press as the screen loop delivers it.
pub fn pit_key(c: char) -> Input {
    Input::Key(key(KeyCode::Char(c)))
}

/// A left click at a screen position.
pub fn click(column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// The screen as text, one line per row, trailing blanks trimmed.
pub fn render(app: &App, width: u16, height: u16) -> String {
    render_with(width, height, |frame| draw(frame, app))
}

/// What `draw` puts on a `width`×`height` screen, as text, one line per
/// row, trailing blanks trimmed (for any screen's tests).
pub fn render_with(width: u16, height: u16, draw: impl FnOnce(&mut ratatui::Frame)) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(draw).expect("draw");
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buffer[(x, y)].symbol());
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// The shortest line of play from the start (South first) whose last move
/// captures, as pit letters, found with the rules core.
pub fn moves_to_first_capture(rules: Rules) -> Vec<char> {
    fn search(board: &Board, depth: u32, line: &mut Vec<Pit>) -> bool {
        if depth == 0 {
            return false;
        }
        for pit in board.legal_moves() {
            let mut next = *board;
            let played = next.play(pit).expect("legal");
            line.push(pit);
            if played.capture.is_some_and(|c| c.seeds > 1) || search(&next, depth - 1, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let board = Board::new(rules);
    for depth in 1..6 {
        let mut line = Vec::new();
        if search(&board, depth, &mut line) {
            return line
                .into_iter()
                .map(|p| rules.letter(p).expect("a pit"))
                .collect();
        }
    }
    panic!("no capture within 5 moves");
}

/// The host's screen of a network match showing `m`, before the network
/// game says anything.
pub fn host_screen(m: Match, delay: Option<Duration>, t0: Instant) -> App {
    let options = PlayOptions {
        seed_delay: delay,
        ..PlayOptions::default()
    };
    let session = crate::session::Session::following(m, crate::store::Keeper::new(None));
    let app = App::start(session, options, Theme::monochrome(), (80, 24), t0);
    app.networked(crate::rules::Side::South)
}
