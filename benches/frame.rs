//! Drawing one frame of the game screen into ratatui's test backend.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use mancala::game::PlayOptions;
use mancala::game::{FirstMover, Match, MatchConfig, Seat};
use mancala::players::PlayerKind;
use mancala::rules::Rules;
use mancala::tui::game::{App, draw::draw};
use mancala::tui::input::Input;
use mancala::tui::screen::Screen;
use mancala::tui::theme::Theme;

fn app(rules: Rules, t0: Instant) -> App {
    let seat = |name: &str| Seat {
        name: name.into(),
        kind: PlayerKind::Human,
    };
    let config = MatchConfig {
        game: mancala::rules::Game::Kalah,
        rules,
        seats: [seat("Alice"), seat("Michael")],
        first: FirstMover::Alternate,
        start: None,
    };
    App::new(
        Match::new(config, 1),
        PlayOptions {
            seed_delay: Some(Duration::from_millis(150)),
            move_pause: Duration::from_millis(500),
            ..PlayOptions::default()
        },
        Theme::colour(),
        (80, 24),
        t0,
    )
}

fn press(app: &mut App, c: char, now: Instant) {
    let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let _ = app.update(Input::Key(key).into(), now);
}

fn frame(c: &mut Criterion) {
    let t0 = Instant::now();
    let twelve = Rules::KALAH.with_pits(12).unwrap();
    let opening = |rules| app(rules, t0);
    // d: the lift, then one seed every 150 ms: at 350 ms two seeds are down.
    let mut mid_animation = app(Rules::KALAH, t0);
    press(&mut mid_animation, 'd', t0);
    mid_animation.tick(t0 + Duration::from_millis(350));
    assert!(mid_animation.seed_delay().is_some());
    let mut help = app(Rules::KALAH, t0);
    press(&mut help, '?', t0);
    for (name, app) in [
        ("frame_80x24_6_pits", opening(Rules::KALAH)),
        ("frame_80x24_12_pits", opening(twelve)),
        ("frame_80x24_mid_animation", mid_animation),
        ("frame_80x24_help_overlay", help),
    ] {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        c.bench_function(name, |b| {
            b.iter(|| {
                // Clearing first makes every frame a full redraw, not a diff.
                terminal.clear().unwrap();
                terminal.draw(|f| draw(f, black_box(&app))).unwrap();
            });
        });
    }
}

criterion_group!(benches, frame);
criterion_main!(benches);
