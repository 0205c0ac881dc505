//! A look at the round just played, from its end: `A` at "Play again?"
//! opens the analysis screen ([`AnalysisView`], the one `mancala analyze`
//! and the replay's `a` show) of the round. A session that works the
//! analysis out as the round is played ([`Session::analyse_as_played`],
//! as the full screen's does) has it complete or nearly so: shown at
//! once, or the rest with its progress; otherwise the session starts it
//! then ([`Session::analysis_of_round`], as plain mode's `A` does). `q`
//! comes back to the question.
//!
//! [`Session::analyse_as_played`]: crate::session::Session::analyse_as_played
//! [`Session::analysis_of_round`]: crate::session::Session::analysis_of_round

use super::App;
use crate::store::Record;
use crate::tui::analysis::{AnalysisView, DEFAULT_THINK};

impl App {
    /// Whether the end of this round offers its analysis (`A`): a local
    /// match whose round is over. (A network match's end is answered by
    /// both players at once.)
    #[must_use]
    pub fn can_analyse(&self) -> bool {
        self.round_over()
    }

    /// The analysis screen, while it is open.
    #[must_use]
    pub fn analysis_on_screen(&self) -> Option<&AnalysisView> {
        self.review.on_screen()
    }

    /// `A` at the end of a round: the analysis of the round, started on
    /// its thread the first time.
    pub(super) fn open_analysis(&mut self) {
        if self.can_analyse() {
            // the session's (worked out while the round was played, or
            // started now), the one plain mode prints; with no thread for
            // the session's analysis, the screen's own
            let watch = self.session.analysis_of_round(DEFAULT_THINK);
            let game = self.session.finished_round().unwrap_or(self.session.game());
            self.review
                .open(|| Record::of_match(game), watch, self.chosen);
        }
    }

    /// The position line the position key asked to copy, here or in the
    /// analysis on top, once.
    pub fn take_copied(&mut self) -> Option<String> {
        self.copied.take().or_else(|| self.review.take_copy())
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

    use crate::players::PlayerKind;
    use crate::rules::Rules;
    use crate::tui::App;
    use crate::tui::game::testing::{app_for, ch, config, humans, press, render};

    /// Two humans on a board so small that its analysis is done at once
    /// (2 pits, 1 seed each), played to the end of round 1.
    fn tiny_round_over(t0: Instant) -> App {
        let rules = Rules::KALAH.with_pits(2).unwrap().with_seeds(1).unwrap();
        let app = app_for(
            config(rules, PlayerKind::Human, PlayerKind::Human),
            None,
            t0,
        );
        played_out(app, t0)
    }

    /// `app` with round 1 played to its end, Enter (the cursor's pit) at
    /// every turn.
    fn played_out(mut app: App, t0: Instant) -> App {
        for _ in 0..2000 {
            if app.round_over() {
                break;
            }
            app.handle_event(&press(KeyCode::Enter), t0);
        }
        assert!(app.round_over());
        app
    }

    /// Ticks until the analysis on screen is done (its table's heading
    /// shows), for at most 30 s.
    fn wait_for_the_analysis(app: &mut App, t0: Instant) -> String {
        let start = Instant::now();
        loop {
            let screen = render(app, 80, 24);
            if screen.contains("before") || start.elapsed() > Duration::from_secs(30) {
                return screen;
            }
            std::thread::sleep(Duration::from_millis(10));
            app.on_input(crate::tui::input::Input::Tick, t0);
        }
    }

    #[test]
    fn capital_a_at_the_end_of_a_round_shows_its_analysis_and_q_comes_back_to_play_again() {
        let t0 = Instant::now();
        let mut app = tiny_round_over(t0);
        let screen = render(&app, 80, 24);
        assert!(
            screen.contains("A looks at this round's analysis"),
            "{screen}"
        );
        assert!(screen.contains("A analysis"), "key bar:\n{screen}");
        app.handle_event(&ch('a'), t0);
        assert!(
            app.analysis_on_screen().is_none(),
            "a is a pit, not the analysis"
        );
        app.handle_event(&ch('A'), t0);
        assert!(app.analysis_on_screen().is_some());
        let screen = render(&app, 80, 24);
        assert!(
            screen.contains("Analysis of round 1: Alice against Michael"),
            "{screen}"
        );
        let screen = wait_for_the_analysis(&mut app, t0);
        assert!(screen.contains("value for Alice (South)"), "{screen}");
        // Keys go to the analysis while it is up: y answers nothing there.
        app.handle_event(&ch('y'), t0);
        assert!(app.round_over() && app.game().round() == 1);
        app.handle_event(&ch('q'), t0);
        assert!(app.analysis_on_screen().is_none(), "q leaves the analysis");
        assert!(!app.wants_quit(), "and not the game");
        let screen = render(&app, 80, 24);
        assert!(screen.contains("Play again? (y/n)"), "{screen}");
        // Opened again, it is the same analysis, already done.
        app.handle_event(&ch('A'), t0);
        assert!(render(&app, 80, 24).contains("value for Alice (South)"));
        app.handle_event(&press(KeyCode::Esc), t0);
        app.handle_event(&ch('y'), t0);
        assert_eq!(app.game().round(), 2, "y plays again");
        assert!(app.analysis_on_screen().is_none());
        assert!(!app.can_analyse(), "mid-round there is nothing to look at");
    }

    #[test]
    fn capital_a_at_the_end_of_an_oware_round_analyses_it_too() {
        let t0 = Instant::now();
        let mut oware = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Human);
        oware.game = crate::rules::Game::Oware;
        let mut app = played_out(app_for(oware, None, t0), t0);
        assert!(app.can_analyse());
        app.handle_event(&ch('A'), t0);
        assert!(app.analysis_on_screen().is_some());
        let screen = render(&app, 80, 24);
        assert!(
            screen.contains("Analysis of round 1: Alice against Michael"),
            "{screen}"
        );
        assert!(screen.contains("final score difference"), "{screen}");
        assert!(screen.contains("Analysing the round: position"), "{screen}");
    }

    #[test]
    fn a_long_round_is_analysed_off_the_event_loop_with_its_progress_shown() {
        let t0 = Instant::now();
        let mut app = played_out(humans(t0), t0);
        app.handle_event(&ch('A'), t0);
        // The key came back at once, with the analysis still at work (a
        // whole 6-pit round takes seconds): its progress is on screen.
        let screen = render(&app, 80, 24);
        assert!(screen.contains("Analysing the round: position"), "{screen}");
        assert!(
            app.next_wake().is_some(),
            "the screen looks at the thread again"
        );
        // Ctrl-C there leaves the game at once; dropping the app stops the
        // thread.
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        app.handle_event(&Event::Key(ctrl_c), t0);
        assert!(app.wants_quit());
    }

    /// The position key on the game screen: its capital where `c` is a
    /// pit, the position on the status line (the picture: a snapshot),
    /// its line handed to the loop once (from the analysis on top too).
    #[test]
    fn capital_c_says_the_position_and_hands_its_line_to_the_clipboard() {
        let t0 = Instant::now();
        let mut app = crate::tui::game::testing::humans(t0);
        app.handle_event(&ch('c'), t0);
        assert_eq!(app.take_copied(), None, "c played pit c");
        app.handle_event(&ch('C'), t0);
        let line = app.take_copied().expect("a line to copy");
        assert_eq!(app.take_copied(), None, "handed over once");
        let position: crate::rules::Position = line.parse().unwrap();
        assert_eq!(position.kalah(), Some(app.game().board()));
        insta::assert_snapshot!(render(&app, 100, 30));
        // at the end of a round, from the analysis on top
        let mut app = tiny_round_over(t0);
        app.handle_event(&ch('A'), t0);
        wait_for_the_analysis(&mut app, t0);
        app.handle_event(&ch('c'), t0);
        let line = app.take_copied().expect("the analysis's line");
        let start: crate::rules::Position = line.parse().unwrap();
        let rules = Rules::KALAH.with_pits(2).unwrap().with_seeds(1).unwrap();
        assert_eq!(start.kalah(), Some(&crate::rules::Board::new(rules)));
    }

    #[test]
    fn the_help_and_the_answer_to_a_wrong_key_name_the_analysis() {
        let t0 = Instant::now();
        let mut app = tiny_round_over(t0);
        app.handle_event(&ch('z'), t0);
        let said = app
            .notes()
            .message()
            .map(|n| n.text.clone())
            .unwrap_or_default();
        assert!(said.contains("A shows this round's analysis"), "{said}");
        app.handle_event(&ch('?'), t0);
        let screen = render(&app, 100, 50);
        assert!(screen.contains("this round's analysis"), "{screen}");
    }
}
