//! The pie rule (`--swap`, RULES.md §5.3) on the full screen: the question
//! on the status line, `w` to swap, a pit to play on, and a computer seat
//! that keeps thinking for its own seat after a swap; and the end panel's
//! rating change after a round against a level.

use std::time::{Duration, Instant};

use super::*;
use crate::game::{Match, PlayOptions};
use crate::players::PlayerKind;
use crate::rules::Rules;
use crate::tui::game::computer::Request;
use crate::tui::game::testing::{ch, config, render};
use crate::tui::theme::Theme;

fn pie_app(north: PlayerKind, t0: Instant) -> App {
    pie_app_sowing(north, t0, None)
}

/// [`pie_app`] with each seed sown `seed_delay` apart.
fn pie_app_sowing(north: PlayerKind, t0: Instant, seed_delay: Option<Duration>) -> App {
    App::new(
        Match::new(config(Rules::KALAH, PlayerKind::Human, north), 1),
        PlayOptions {
            seed_delay,
            move_pause: Duration::from_millis(500),
            pie_rule: true,
            ..PlayOptions::default()
        },
        Theme::monochrome(),
        (80, 24),
        t0,
    )
}

#[test]
fn the_swap_question_is_asked_on_screen_and_w_swaps_the_sides() {
    let t0 = Instant::now();
    let mut app = pie_app(PlayerKind::Human, t0);
    app.handle_event(&ch('c'), t0);
    app.handle_event(&ch('f'), t0);
    assert_eq!(app.human_to_move(), Some(Side::North));
    let screen = render(&app, 80, 24);
    assert!(
        screen
            .contains("Michael, swap sides? w takes Alice's position; a pit plays on from yours."),
        "{screen}"
    );
    app.handle_event(&ch('w'), t0);
    assert_eq!(app.names(), ["Michael", "Alice"]);
    assert_eq!(
        app.human_to_move(),
        Some(Side::North),
        "Alice moves for North"
    );
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Michael swaps sides"), "{screen}");
    // The board's names follow the seats.
    let lines: Vec<&str> = screen.lines().collect();
    let south = lines.iter().rposition(|l| l.contains("Michael")).unwrap();
    let north = lines.iter().position(|l| l.contains("Alice")).unwrap();
    assert!(north < south, "{screen}");
}

#[test]
fn a_pit_at_the_question_plays_on_from_ones_own_side() {
    let t0 = Instant::now();
    let mut app = pie_app(PlayerKind::Human, t0);
    app.handle_event(&ch('a'), t0);
    app.handle_event(&ch('w'), t0);
    // w is not a pit here: it swapped. Undo, then answer with a pit.
    assert_eq!(app.names(), ["Michael", "Alice"]);
    app.handle_event(&ch('u'), t0);
    assert_eq!(app.names(), ["Alice", "Michael"]);
    app.handle_event(&ch('a'), t0);
    app.handle_event(&ch('h'), t0);
    assert_eq!(app.names(), ["Alice", "Michael"]);
    assert_eq!(app.game().moves().len(), 2);
}

/// u takes the swap back with the move it followed, and r brings both
/// back: the sides swapped again and told so, Alice asked for North as
/// before the u, the move told as Alice's. (r brought back only the move
/// and asked the question again.)
#[test]
fn redo_after_undo_brings_the_swap_back() {
    let t0 = Instant::now();
    let mut app = pie_app(PlayerKind::Human, t0);
    app.handle_event(&ch('b'), t0);
    app.handle_event(&ch('w'), t0);
    app.handle_event(&ch('u'), t0);
    assert_eq!(app.names(), ["Alice", "Michael"]);
    app.handle_event(&ch('r'), t0);
    assert_eq!(app.names(), ["Michael", "Alice"]);
    assert_eq!(app.game().swapped(), Some(1));
    assert_eq!(app.human_to_move(), Some(Side::North));
    let screen = render(&app, 80, 40);
    assert!(screen.contains("Michael swaps sides"), "{screen}");
    assert!(!screen.contains("swap sides?"), "{screen}");
    // told twice: as played, and as redone
    assert_eq!(screen.matches("Alice played b.").count(), 2, "{screen}");
    assert!(!screen.contains("Michael played b"), "{screen}");
}

/// The same sown seed by seed (the default): while the redone move is
/// sown, the board, the caption and the prompt name its mover as the
/// sides were then (the swap follows it), and the swap is logged after
/// the move, not before it.
#[test]
fn a_redone_move_is_sown_under_the_names_it_was_made_with() {
    let t0 = Instant::now();
    let mut app = pie_app_sowing(PlayerKind::Human, t0, Some(Duration::from_millis(100)));
    let later = t0 + Duration::from_secs(10);
    app.handle_event(&ch('b'), t0);
    app.tick(later);
    app.handle_event(&ch('w'), later);
    app.handle_event(&ch('u'), later);
    app.handle_event(&ch('r'), later);
    assert!(app.animation().is_some(), "the redone move is sown");
    assert_eq!(app.board_names(), ["Alice", "Michael"]);
    let screen = render(&app, 80, 40);
    assert!(screen.contains("Alice plays b"), "{screen}");
    assert!(!screen.contains("Michael plays b"), "{screen}");
    app.tick(later + Duration::from_secs(10));
    assert!(app.animation().is_none());
    assert_eq!(app.board_names(), ["Michael", "Alice"]);
    let screen = render(&app, 80, 40);
    let (moved, swapped) = (
        screen.rfind("Alice played b.").unwrap(),
        screen.rfind("Michael swaps sides").unwrap(),
    );
    assert!(moved < swapped, "{screen}");
}

/// After Michael (a computer) swaps, he plays South: the screen asks his
/// own turn function (his seat, North's) for South's move.
#[test]
fn after_a_computers_swap_its_own_turn_function_plays_the_other_side() {
    let t0 = Instant::now();
    let mut app = pie_app(PlayerKind::Greedy, t0);
    app.handle_event(&ch('c'), t0);
    app.handle_event(&ch('f'), t0);
    // c then f is South's winning opening (the book's): Michael takes it.
    assert_eq!(app.names(), ["Michael", "Alice"]);
    assert_eq!(app.human_to_move(), Some(Side::North));
    app.take_requests();
    app.handle_event(&ch('g'), t0);
    let requests = app.take_requests();
    let [Request::Move { side, board, .. }] = requests[..] else {
        panic!("{requests:?}");
    };
    assert_eq!(board.to_move(), Side::South);
    assert_eq!(side, Side::North, "Michael's seat");
}

/// A round against a rated level, kept in a scratch store: the end panel
/// says what it did to Alice's rating, as the statistics count it.
#[test]
fn the_end_panel_says_the_rating_change_after_a_round_against_a_level() {
    let t0 = Instant::now();
    let scratch = crate::store::files::scratch("rated");
    let mut app = crate::tui::game::testing::kept_app(
        config(Rules::KALAH, PlayerKind::Human, PlayerKind::Level(1)),
        scratch.path(),
        t0,
    );
    let mut now = t0;
    for _ in 0..300 {
        if app.round_over() {
            break;
        }
        now += Duration::from_secs(1);
        if app.human_to_move().is_some() {
            let pit = app.game().board().legal_moves().next().unwrap();
            app.handle_event(&ch(Rules::KALAH.letter(pit).unwrap()), now);
        } else {
            let requests = app.take_requests();
            if let Some(Request::Move { id, board, .. }) = requests
                .iter()
                .find(|r| matches!(r, Request::Move { .. }))
                .cloned()
            {
                let pit = board.legal_moves().next();
                app.on_answer(crate::tui::game::computer::Answer::Move { id, pit }, now);
            }
            app.tick(now);
        }
    }
    assert!(app.round_over());
    let stats = crate::store::stats::read(
        &crate::store::SaveStore::at(scratch.path())
            .unwrap()
            .stats_path(),
    )
    .unwrap();
    let rating = stats.ratings[0].1.rating.round() as i32;
    let screen = render(&app, 80, 24);
    assert!(
        screen.contains(&format!("Rating: Alice 1200 → {rating} (")),
        "{screen}"
    );
}

/// After a round played across a swap, the end panel names the winner of
/// that round by the sides as they were held in it, not by the next
/// round's (they named the other player, and the match score was turned
/// round).
#[test]
fn the_end_panel_names_the_winner_by_the_sides_of_the_round_played() {
    let t0 = Instant::now();
    let rules = Rules::KALAH.with_pits(3).unwrap().with_seeds(2).unwrap();
    let options = PlayOptions {
        seed_delay: None,
        pie_rule: true,
        ..PlayOptions::default()
    };
    let m = Match::new(config(rules, PlayerKind::Human, PlayerKind::Human), 1);
    let mut app = App::new(m, options, Theme::monochrome(), (80, 24), t0);
    app.handle_event(&ch('a'), t0);
    app.handle_event(&ch('w'), t0);
    assert_eq!(app.names(), ["Michael", "Alice"]);
    let mut last = String::new();
    while !app.round_over() {
        let pit = app.game().board().legal_moves().next().unwrap();
        let letter = rules.letter(pit).unwrap();
        last = format!(
            "{} played {letter}.",
            app.game().name(app.game().board().to_move())
        );
        app.handle_event(&ch(letter), t0);
    }
    let log: Vec<&str> = app.notes().log().iter().map(|n| n.text.as_str()).collect();
    assert!(log.contains(&last.as_str()), "{last}: {log:?}");
    assert_eq!(app.names(), ["Michael", "Alice"], "the round on show");
    let Some(crate::rules::Outcome::Win(side)) = app.game().outcome() else {
        panic!("a draw: pick another line")
    };
    let winner = app.game().name(side).to_string();
    let screen = render(&app, 80, 24);
    assert!(screen.contains(&format!("★ {winner} wins!")), "{screen}");
}
