//! Snapshots of the screens, drawn into ratatui's test backend. Time is
//! passed in, the theme is fixed and only the text is compared, so the
//! pictures do not depend on the clock or the environment.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;

use crate::players::PlayerKind;
use crate::rules::Rules;
use crate::tui::game::app::Overlay;
use crate::tui::game::testing::{
    against, app_for, ch, config, humans, moves_to_first_capture, press, render,
};

#[test]
fn opening_board_alice_and_michael() {
    let app = humans(Instant::now());
    let screen = render(&app, 80, 24);
    assert!(screen.contains("▶ Alice to move"));
    insta::assert_snapshot!(screen);
}

#[test]
fn opening_board_at_100_by_30() {
    let app = humans(Instant::now());
    insta::assert_snapshot!(render(&app, 100, 30));
}

#[test]
fn at_120_by_40_header_messages_and_keys_line_up_with_the_centred_board() {
    let app = humans(Instant::now());
    let screen = render(&app, 120, 40);
    let column = |needle: &str| {
        screen
            .lines()
            .find_map(|l| l.find(needle).map(|i| l[..i].chars().count()))
            .unwrap_or_else(|| panic!("{needle} in\n{screen}"))
    };
    let board = column("╭─");
    let top = screen
        .lines()
        .find(|l| l.contains("╭─"))
        .unwrap_or_default();
    let right_margin = 120 - top.chars().count();
    assert!(
        board > 0 && board.abs_diff(right_margin) <= 1,
        "the board is centred\n{screen}"
    );
    for text in ["Round 1", "Alice, your move", "a-f play"] {
        assert_eq!(
            column(text),
            board,
            "{text} lines up with the board\n{screen}"
        );
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn a_computer_seat_reads_naturally_and_narrow_boards_keep_the_names() {
    let app = app_for(
        crate::game::MatchConfig {
            game: crate::rules::Game::Kalah,
            seats: [
                crate::game::Seat::new("Alice", PlayerKind::Human),
                crate::game::Seat::new("Computer (hard)", PlayerKind::Hard),
            ],
            ..config(Rules::KALAH, PlayerKind::Human, PlayerKind::Hard)
        },
        None,
        Instant::now(),
    );
    let screen = render(&app, 80, 24);
    assert!(!screen.contains("Computer (hard)'s"), "{screen}");
    assert!(screen.contains("◀ store of Computer (hard)"), "{screen}");
    let narrow = render(&humans(Instant::now()), 44, 17);
    assert!(
        narrow.contains("◀ Michael") && narrow.contains("Alice ▶"),
        "{narrow}"
    );
}

/// Humans' round played to its end and recorded under `dir` with the
/// name the game gives two computers' records, the longest kind.
fn recorded_round(dir: &str) -> (crate::tui::game::app::App, &'static str) {
    let t0 = Instant::now();
    let mut app = humans(t0);
    while !app.round_over() {
        app.handle_event(&press(KeyCode::Enter), t0);
    }
    let name = "20261127-175652-computer_greedy_south-vs-computer_greedy_north-r1.txt";
    app.round_recorded(format!("Round recorded in {dir}/{name}."));
    (app, name)
}

#[test]
fn a_low_screen_keeps_the_records_name_whole_at_the_end_of_a_round() {
    let (app, name) = recorded_round("/home/alice/.local/share/mancala/records");
    let screen = render(&app, 60, 20);
    let joined: String = screen.lines().map(str::trim).collect();
    assert!(joined.contains(&format!("…/{name}.")), "{screen}");
    assert!(screen.contains("Play again? (y/n)"), "{screen}");
    // The match score stays in the header.
    assert!(screen.contains("Match: Alice 0 – 1 Michael"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_records_name_is_whole_at_80_by_24_and_100_by_30() {
    let dir = "/home/alice/.local/share/mancala/records";
    let (app, name) = recorded_round(dir);
    for (width, height) in [(80, 24), (100, 30)] {
        let screen = render(&app, width, height);
        let joined: String = screen.lines().map(str::trim).collect();
        assert!(
            joined.contains(&format!("Round recorded in {dir}/{name}.")),
            "{screen}"
        );
        assert!(screen.contains("Play again? (y/n)"), "{screen}");
    }
}

#[test]
fn board_mid_animation() {
    let t0 = Instant::now();
    let mut app = against(PlayerKind::Human, Some(Duration::from_millis(100)), t0);
    // d: four seeds to e, f, the store and g. The lift shows for two
    // delays, then one seed a delay: at 350 ms two seeds are down.
    app.handle_event(&ch('d'), t0);
    app.tick(t0 + Duration::from_millis(350));
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Alice sows… 2 in hand"), "{screen}");
    assert!(screen.contains('┏'), "the pit being sown is highlighted");
    insta::assert_snapshot!(screen);
}

#[test]
fn capture_message() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    for letter in moves_to_first_capture(Rules::KALAH) {
        app.handle_event(&ch(letter), t0);
    }
    let screen = render(&app, 80, 24);
    assert!(
        screen.contains("captures 7 seeds: 6 from h, 1 from e."),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn end_of_round_screen() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    while !app.round_over() {
        app.handle_event(&press(KeyCode::Enter), t0);
    }
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Play again? (y/n)"));
    insta::assert_snapshot!(screen);
}

#[test]
fn help_screen() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    app.handle_event(&ch('?'), t0);
    assert_eq!(app.dialog(), Some(Overlay::Help));
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Rules: 6 pits × 4 seeds"));
    // whole at 80×24: nothing to scroll, the last key shown
    assert!(screen.contains(" any key closes "), "{screen}");
    assert!(!screen.contains("scroll"), "{screen}");
    assert!(screen.contains("work on every board"), "{screen}");
    insta::assert_snapshot!(screen);
    // against the computer too (its pause key one row more)
    let mut app = against(PlayerKind::Random, None, t0);
    app.handle_event(&ch('?'), t0);
    let screen = render(&app, 80, 24);
    assert!(screen.contains("the computer players"), "{screen}");
    assert!(!screen.contains("scroll"), "{screen}");
}

#[test]
fn too_small_terminal() {
    let app = humans(Instant::now());
    let screen = render(&app, 50, 12);
    assert!(screen.contains("Terminal too small"));
    insta::assert_snapshot!(screen);
}

#[test]
fn four_pit_board() {
    let app = app_for(
        config(
            Rules::KALAH.with_pits(4).unwrap(),
            PlayerKind::Human,
            PlayerKind::Human,
        ),
        None,
        Instant::now(),
    );
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn twelve_pit_board_fits_80_by_24() {
    let app = app_for(
        config(
            Rules::KALAH.with_pits(12).unwrap(),
            PlayerKind::Human,
            PlayerKind::Human,
        ),
        None,
        Instant::now(),
    );
    let screen = render(&app, 80, 24);
    assert!(!screen.contains("too small"));
    insta::assert_snapshot!(screen);
}

#[test]
fn quit_question() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    app.handle_event(&ch('q'), t0);
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Quit? (y/n)"));
}

#[test]
fn computer_thinking_indicator_for_perfect_play() {
    let t0 = Instant::now();
    let mut app = app_for(
        config(Rules::KALAH, PlayerKind::Perfect, PlayerKind::Human),
        None,
        t0,
    );
    app.tick(t0);
    app.tick(t0 + Duration::from_millis(1250));
    let screen = render(&app, 80, 24);
    // perfect keeps to the think time as the others do; m hurries it
    assert!(screen.contains("Alice is thinking… 1.2 s"), "{screen}");
    assert!(screen.contains("m move now"), "{screen}");
}

#[test]
fn monochrome_screens_use_no_colour_and_still_mark_the_mover_and_the_moving_seed() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::{Color, Modifier};

    let t0 = Instant::now();
    let mut app = against(PlayerKind::Human, Some(Duration::from_millis(100)), t0);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let reversed_cells = |terminal: &Terminal<TestBackend>| {
        let buffer = terminal.backend().buffer();
        for cell in buffer.content() {
            assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
        }
        buffer
            .content()
            .iter()
            .filter(|c| c.modifier.contains(Modifier::REVERSED))
            .count()
    };
    terminal.draw(|f| super::draw(f, &app)).unwrap();
    // Only the mover's label is reversed on the opening board.
    let label = reversed_cells(&terminal);
    assert_eq!(label, "▶ Alice to move ".chars().count());
    app.handle_event(&ch('d'), t0);
    terminal.draw(|f| super::draw(f, &app)).unwrap();
    assert!(
        reversed_cells(&terminal) > 0,
        "the pit being lifted is reversed"
    );
}

#[test]
fn resume_question() {
    let t0 = Instant::now();
    let mut saved = crate::game::Match::new(
        config(Rules::KALAH, PlayerKind::Human, PlayerKind::Human),
        1,
    );
    for c in ['c', 'f', 'h'] {
        saved
            .play(
                Rules::KALAH.pit_by_letter(c).unwrap(),
                &mut crate::rules::NoTrace,
            )
            .unwrap();
    }
    let counts = saved.board().counts().to_vec();
    let (app, _dir) = crate::tui::game::testing::resuming(&saved, t0);
    let screen = render(&app, 80, 24);
    assert!(
        screen.contains("Resume the unfinished match? (y/n)"),
        "{screen}"
    );
    assert!(
        screen.contains("Alice and Michael: round 1, 3 moves played."),
        "{screen}"
    );
    assert_eq!(app.shown_counts(), &counts[..], "the saved board is shown");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_long_warning_wraps_and_shows_its_whole_path() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    let path = "/home/somebody/.local/share/mancala/saves/alice-vs-michael-0123456789abcdef.txt";
    app.warn(format!(
        "the saved match {path} cannot be used (it is not text); it was moved to {path}.corrupt-1 and a new match starts"
    ));
    let screen = render(&app, 80, 24);
    let joined: String = screen.lines().map(str::trim).collect();
    assert!(joined.contains(&format!("{path}.corrupt-1")), "{screen}");
    assert!(screen.contains("Alice, your move"), "{screen}");
    assert_eq!(
        screen.matches("the saved match").count(),
        1,
        "said once: {screen}"
    );
}

/// Two humans with the given names on `pits` pits, no animation.
fn named(pits: usize, south: &str, north: &str) -> crate::tui::App {
    let mut config = config(
        Rules::KALAH.with_pits(pits).unwrap(),
        PlayerKind::Human,
        PlayerKind::Human,
    );
    config.seats[0].name = south.into();
    config.seats[1].name = north.into();
    app_for(config, None, Instant::now())
}

/// The key bar: the screen's last non-blank line.
fn key_bar_of(screen: &str) -> &str {
    screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap()
}

#[test]
fn the_key_bar_shows_the_capital_of_every_command_whose_letter_is_a_pit_here() {
    let t0 = Instant::now();
    let mut app = named(12, "Alice", "Michael");
    // 12 pits: a..l and m..x, so h, u, r and q are pits on either turn.
    for turn in ["South", "North"] {
        let bar = key_bar_of(&render(&app, 80, 24)).to_string();
        for shown in ["H hint", "U undo", "R redo", "Esc quit"] {
            assert!(bar.contains(shown), "{turn}: {shown} in {bar}");
        }
        for wrong in [" h hint", " u undo", " q quit"] {
            assert!(!bar.contains(wrong), "{turn}: {wrong} in {bar}");
        }
        // a: 4 seeds to b..e, no extra turn: North (m..x) to move.
        app.handle_event(&ch('a'), t0);
    }
    app.handle_event(&ch('U'), t0);
    app.handle_event(&ch('U'), t0);
    assert!(app.game().moves().is_empty(), "U undid both");
    app.handle_event(&ch('R'), t0);
    assert_eq!(app.game().moves().len(), 1, "R redid a");
    app.handle_event(&press(KeyCode::Esc), t0);
    assert_eq!(app.dialog(), Some(Overlay::ConfirmQuit));
    // On the standard board only h is a pit: H hints, u undoes, q quits.
    let bar = key_bar_of(&render(&named(6, "Alice", "Michael"), 80, 24)).to_string();
    for shown in ["H hint", "u undo", "r redo", "q quit"] {
        assert!(bar.contains(shown), "{shown} in {bar}");
    }
}

#[test]
fn the_help_shows_the_keys_that_work_on_this_board() {
    let t0 = Instant::now();
    let mut app = named(6, "Alice", "Michael");
    app.handle_event(&ch('?'), t0);
    let screen = render(&app, 80, 40);
    for keys in ["  H    ", "  u    ", "  r    ", "  q or Esc "] {
        assert!(screen.contains(keys), "{keys} in\n{screen}");
    }
    assert!(!screen.contains("  h    "), "{screen}");
    let mut app = named(12, "Alice", "Michael");
    app.handle_event(&ch('?'), t0);
    let screen = render(&app, 80, 40);
    for keys in ["  U    ", "  R    ", "  T    ", "  Esc or Q "] {
        assert!(screen.contains(keys), "{keys} in\n{screen}");
    }
    assert!(
        screen.contains("U, R, H, Q and Esc work on every board"),
        "{screen}"
    );
}

#[test]
fn with_no_color_set_the_help_offers_no_colours_key_as_the_key_bar() {
    use crate::tui::prefs::{Chosen, Prefs};
    let t0 = Instant::now();
    for pits in [6, 12] {
        let mut app = named(pits, "Alice", "Michael");
        app.keep_prefs(Chosen::new(
            None,
            crate::tui::theme::Theme::monochrome(),
            Prefs::default(),
            true,
        ));
        assert!(!key_bar_of(&render(&app, 100, 30)).contains("colours"));
        app.handle_event(&ch('?'), t0);
        let screen = render(&app, 100, 50);
        assert!(screen.contains("faster / slower sowing"), "{screen}");
        assert!(!screen.contains("colours"), "{pits} pits:\n{screen}");
        assert!(!screen.contains("  T "), "{pits} pits:\n{screen}");
    }
    // Without NO_COLOR both offer it.
    let mut app = named(12, "Alice", "Michael");
    assert!(key_bar_of(&render(&app, 100, 30)).contains("T colours"));
    app.handle_event(&ch('?'), t0);
    let screen = render(&app, 100, 50);
    assert!(screen.contains("colours or black and white"), "{screen}");
    assert!(screen.contains("  T "), "{screen}");
}

/// Every text of the game screen is whole at `width` × `height`: both
/// labels with their scores, the prompt, the key bar's essentials.
fn assert_nothing_cut(screen: &str, app: &crate::tui::App) {
    let rules = app.rules();
    assert!(!screen.contains("too small"), "{screen}");
    assert!(screen.contains(" Round 1 "), "{screen}");
    assert!(screen.contains("0 – 0"), "match score whole:\n{screen}");
    for label in ["▶ Alice to move", "Michael"] {
        assert!(screen.contains(label), "{label}:\n{screen}");
    }
    assert_eq!(
        screen.matches("score 0").count(),
        2,
        "both scores:\n{screen}"
    );
    assert!(
        screen.contains(&format!(
            "{} or 1-{}",
            rules.letter_range(crate::rules::Side::South),
            rules.pits()
        )),
        "prompt:\n{screen}"
    );
    let bar = key_bar_of(screen);
    assert!(
        bar.contains("play") && bar.contains("? help") && bar.trim_end().ends_with("quit"),
        "{bar}"
    );
}

#[test]
fn the_minimum_size_shows_every_text_whole_on_6_and_12_pits() {
    use crate::tui::layout::ScreenLayout;
    for pits in [6, 12] {
        let app = named(pits, "Alice", "Michael");
        let need = ScreenLayout::minimum(app.rules());
        let screen = render(&app, need.width, need.height);
        assert_nothing_cut(&screen, &app);
        insta::assert_snapshot!(format!("minimum_size_{pits}_pits"), screen);
    }
}

#[test]
fn labels_use_the_whole_width_and_never_lose_the_score() {
    let app = named(2, "Maximilian", "Bartholomew");
    let screen = render(&app, 80, 24);
    assert!(
        screen.contains("▶ Maximilian to move   South · score 0"),
        "{screen}"
    );
    assert!(screen.contains("Bartholomew  North · score 0"), "{screen}");
    // Two computers of one kind are named after their sides: not twice.
    let app = named(6, "Computer (hard), South", "Computer (hard), North");
    let screen = render(&app, 80, 24);
    assert!(
        screen.contains("Computer (hard), North  score 0"),
        "{screen}"
    );
    assert!(!screen.contains("North  North"), "{screen}");
    // A name too long for the line is cut, visibly, and the score stays.
    let long = "Maximilian Alexander von Hohenzollern-Sigmaringen the Third";
    let app = named(2, long, "B");
    let screen = render(&app, 44, 15);
    assert!(screen.contains("… 0"), "{screen}");
}

#[test]
fn store_captions_on_a_one_pit_board_do_not_overlap() {
    let app = named(1, "Alice", "Michael");
    let screen = render(&app, 80, 24);
    assert!(
        !screen.contains("ststore") && !screen.contains("store▶"),
        "{screen}"
    );
    assert!(screen.contains('◀') && screen.contains('▶'), "{screen}");
}

#[test]
fn the_rules_line_is_shortened_rather_than_cut() {
    let app = named(6, "Alice", "Michael");
    let rules = app.rules().to_string();
    let wide = render(&app, 80, 24);
    assert!(wide.contains(&rules), "{wide}");
    let narrow = render(&app, 50, 24);
    assert!(!narrow.contains(&rules));
    assert!(
        narrow.contains("6 pits × 4 seeds, capture always, … (? help)"),
        "{narrow}"
    );
}

#[test]
fn one_pit_board_prompt_names_the_single_number() {
    let app = app_for(
        config(
            Rules::KALAH.with_pits(1).unwrap(),
            PlayerKind::Human,
            PlayerKind::Human,
        ),
        None,
        Instant::now(),
    );
    let screen = render(&app, 80, 24);
    assert!(screen.contains("your move: a or 1,"), "{screen}");
    assert!(!screen.contains("1-1"), "{screen}");
}

/// At 80 columns the paused header keeps both the pause and the speed,
/// with long names and a match under way (shorter wordings, not less).
#[test]
fn the_paused_header_keeps_the_speed_at_80_columns() {
    let t0 = Instant::now();
    let mut app = app_for(
        crate::game::MatchConfig {
            game: crate::rules::Game::Kalah,
            seats: [
                crate::game::Seat::new("Computer (medium)", PlayerKind::Medium),
                crate::game::Seat::new("Computer (greedy)", PlayerKind::Greedy),
            ],
            ..config(Rules::KALAH, PlayerKind::Medium, PlayerKind::Greedy)
        },
        Some(Duration::from_millis(150)),
        t0,
    );
    app.handle_event(&ch('p'), t0);
    assert!(app.paused());
    let screen = render(&app, 80, 24);
    let header = screen.lines().find(|l| l.contains("Round 1")).unwrap();
    assert!(header.contains("PAUSED"), "{header}");
    assert!(header.contains("150"), "the speed stays: {header}");
    assert!(
        header.contains("Computer (medium)"),
        "the score keeps the names where the speed text can be shorter: {header}"
    );
    assert_eq!(screen.matches("Paused:").count(), 1, "said once:\n{screen}");
}

#[test]
fn a_narrow_header_still_says_what_the_speed_figure_is() {
    let mut config = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Human);
    config.seats[0].name = "Alice".into();
    config.seats[1].name = "Michael".into();
    let app = app_for(config, Some(Duration::from_millis(150)), Instant::now());
    let screen = render(&app, 60, 20);
    let header = screen.lines().find(|l| l.contains("Round 1")).unwrap();
    assert!(header.contains("Alice 0 – 0 Michael"), "{header}");
    assert!(header.trim_end().ends_with(" 150 ms/seed"), "{header}");
    let bottom = screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(bottom.contains("? help"), "{bottom}");
}

/// The quit question takes only its answers, and its key bar says so.
#[test]
fn the_quit_questions_key_bar_offers_its_answers_only() {
    let t0 = Instant::now();
    let mut app = humans(t0);
    app.handle_event(&ch('q'), t0);
    let screen = render(&app, 80, 24);
    let bar = screen.lines().last().unwrap_or_default().trim().to_string();
    assert_eq!(bar, "y quit  n back", "{screen}");
}
