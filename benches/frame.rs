//! Drawing one frame of the game screen into ratatui's test backend.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use mancala::game::{FirstMover, Match, MatchConfig, Seat};
use mancala::players::PlayerKind;
use mancala::rules::Rules;
use mancala::tui::theme::Theme;
use mancala::tui::{App, Settings, draw::draw};

fn app(rules: Rules) -> App {
    let seat = |name: &str| Seat {
        name: name.into(),
        kind: PlayerKind::Human,
    };
    let config = MatchConfig {
        rules,
        seats: [seat("Alice"), seat("Michael")],
        first: FirstMover::Alternate,
    };
    App::new(
        Match::new(config, 1),
        Settings {
            seed_delay: Some(Duration::from_millis(150)),
            move_pause: Duration::from_millis(500),
        },
        Theme::colour(),
        (80, 24),
        Instant::now(),
    )
}

fn frame(c: &mut Criterion) {
    for (name, rules) in [
        ("frame_80x24_6_pits", Rules::KALAH),
        ("frame_80x24_12_pits", Rules::KALAH.with_pits(12).unwrap()),
    ] {
        let app = app(rules);
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
