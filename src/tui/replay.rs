//! `mancala replay` full screen, on the [screen loop](crate::tui::screen): the recorded round one position at a
//! time, stepped with the arrow keys, drawn with the game's own board
//! widget ([`BoardView`]) and sowing animation ([`Animation`]).
//!
//! The stepping is the shared [`Stepper`]; [`ReplayView`] adds only what
//! the screen needs (the move being animated), so it is tested without a
//! terminal.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::game::{Record, Stepper, describe, outcome_message};
use crate::rules::{Score, Side};
use crate::tui::analysis::{AnalysisView, DEFAULT_THINK};
use crate::tui::animation::{self, Animation};
use crate::tui::chrome::{KeyBar, Weight, draw_too_small};
use crate::tui::input::Input;
use crate::tui::layout::ScreenLayout;
use crate::tui::prefs::{self, Chosen, Kept, Prefs, PrefsWorld};
use crate::tui::screen::Screen;
use crate::tui::theme::Theme;
use crate::tui::widgets::board::BoardView;

/// What a key asks of the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayKey {
    /// One move forward (animated).
    Forward,
    /// One move back.
    Back,
    /// To the start of the round.
    Start,
    /// To the end of the round.
    End,
    /// Sow faster (`+`), kept for next time.
    Faster,
    /// Sow slower (`-`), kept for next time.
    Slower,
    /// Colours or black and white (`t`), kept for next time.
    Theme,
    /// The analysis of the round (`a`).
    Analyse,
    /// Leave the replay.
    Quit,
}

/// The action of a key press (releases and repeats of other kinds do nothing).
#[must_use]
pub fn action(key: KeyEvent) -> Option<ReplayKey> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    Some(match key.code {
        KeyCode::Right | KeyCode::Char(' ') | KeyCode::Enter => ReplayKey::Forward,
        KeyCode::Left | KeyCode::Backspace => ReplayKey::Back,
        KeyCode::Home => ReplayKey::Start,
        KeyCode::End => ReplayKey::End,
        KeyCode::Char('q') | KeyCode::Esc => ReplayKey::Quit,
        KeyCode::Char('+' | '=') => ReplayKey::Faster,
        KeyCode::Char('-' | '_') => ReplayKey::Slower,
        KeyCode::Char('t' | 'T') => ReplayKey::Theme,
        KeyCode::Char('a' | 'A') => ReplayKey::Analyse,
        _ => return None,
    })
}

/// A replay on screen: the position reached and the move being sown.
pub struct ReplayView {
    record: Record,
    stepper: Stepper,
    animation: Option<Animation>,
    /// The speed and theme, and the keys that change them.
    chosen: Chosen,
    /// What the last speed or theme key did.
    note: Option<String>,
    /// The analysis of the round, once asked for (kept when the viewer
    /// goes back to the replay, so that `a` again shows it at once).
    analysis: Option<AnalysisView>,
    /// Whether the analysis is on screen.
    analysing: bool,
    quit: bool,
}

impl ReplayView {
    /// A replay of `record` at its start; with `seed_delay`, each step
    /// forward is sown seed by seed.
    ///
    /// # Errors
    /// When the record's moves are refused by the rules.
    pub fn new(record: Record, seed_delay: Option<Duration>) -> anyhow::Result<ReplayView> {
        let stepper = record.stepper()?;
        Ok(ReplayView {
            record,
            stepper,
            animation: None,
            chosen: Chosen::unkept(seed_delay, Theme::monochrome()),
            note: None,
            analysis: None,
            analysing: false,
            quit: false,
        })
    }

    /// Whether a move is being sown on screen.
    #[cfg(test)]
    fn animating(&self) -> bool {
        self.animation.is_some()
    }

    /// The counts the board shows now.
    #[must_use]
    pub fn counts(&self) -> &[u16] {
        self.animation
            .as_ref()
            .map_or_else(|| self.stepper.board().counts(), Animation::counts)
    }

    /// Acts on a key's action; `false` when the viewer quits. A key pressed
    /// during an animation first finishes it.
    pub fn handle(&mut self, action: ReplayKey, now: Instant) -> bool {
        self.note = None;
        match action {
            ReplayKey::Faster | ReplayKey::Slower => {
                // The move being sown goes on at the new speed.
                let faster = action == ReplayKey::Faster;
                self.note = Some(match self.chosen.change_speed(faster) {
                    Ok(next) => {
                        match (next, &mut self.animation) {
                            (Some(delay), Some(animation)) => animation.set_delay(delay),
                            (None, _) => self.animation = None,
                            _ => {}
                        }
                        prefs::speed_message(next)
                    }
                    Err(end) => end,
                });
                return true;
            }
            ReplayKey::Theme => {
                self.note = Some(self.chosen.switch_theme());
                return true;
            }
            ReplayKey::Analyse => {
                let (record, chosen) = (&self.record, self.chosen);
                let view = self.analysis.get_or_insert_with(|| {
                    AnalysisView::start(record.clone(), DEFAULT_THINK, chosen)
                });
                view.reopen();
                self.analysing = true;
                return true;
            }
            _ => {}
        }
        self.animation = None;
        match action {
            ReplayKey::Faster | ReplayKey::Slower | ReplayKey::Theme | ReplayKey::Analyse => {}
            ReplayKey::Quit => return false,
            ReplayKey::Forward => {
                let before = self.stepper.board().counts().to_vec();
                let steps = self.stepper.next_steps();
                if self.stepper.forward()
                    && let Some(delay) = self.chosen.seed_delay()
                {
                    self.animation = Some(Animation::new(&before, steps, delay, now));
                }
            }
            ReplayKey::Back => {
                self.stepper.back();
            }
            ReplayKey::Start => self.stepper.seek(0),
            ReplayKey::End => self.stepper.seek(self.stepper.len()),
        }
        true
    }

    /// Moves the animation on to `now`; drops it once it is over.
    pub fn tick(&mut self, now: Instant) {
        if let Some(animation) = &mut self.animation {
            animation.advance(now);
            if animation.is_done(now) {
                self.animation = None;
            }
        }
    }

    /// When the picture changes next without a key.
    #[must_use]
    pub fn next_wake(&self) -> Option<Instant> {
        self.animation.as_ref().and_then(Animation::next_frame_at)
    }

    fn caption(&self) -> Line<'static> {
        let Some(animation) = &self.animation else {
            return Line::default();
        };
        Line::from(animation::caption(
            animation,
            self.record.names(),
            self.record.rules(),
        ))
    }

    /// Draws the replay.
    pub fn draw(&self, frame: &mut Frame, theme: &Theme) {
        let area = frame.area();
        let rules = self.record.rules();
        let layout = match ScreenLayout::new(area, rules) {
            Ok(layout) => layout,
            Err(need) => {
                draw_too_small(
                    frame,
                    area,
                    (need.width, need.height),
                    "The replay",
                    None,
                    theme,
                );
                return;
            }
        };
        let names = self.record.names();
        let board = self.stepper.board();
        let counts = self.counts();
        let scores = if self.animation.is_some() {
            Score {
                south: counts[rules.store(Side::South).index()],
                north: counts[rules.store(Side::North).index()],
            }
        } else {
            board.score()
        };
        let header = format!(
            "Replay of round {}: {} against {} · move {} of {}",
            self.record.round,
            names[0],
            names[1],
            self.stepper.index(),
            self.stepper.len()
        );
        frame.render_widget(Line::styled(header, theme.title), layout.header());
        frame.render_widget(Line::styled(rules.to_string(), theme.dim), layout.rules());
        let view = BoardView::new(rules, counts, names, scores, theme)
            .to_move((self.animation.is_none() && !board.is_over()).then(|| board.to_move()))
            .sowing(self.animation.as_ref())
            .caption(self.caption());
        frame.render_widget(&view, layout.board());

        let mut lines = Vec::new();
        match self.stepper.last_played() {
            None => lines.push(Line::styled(
                format!(
                    "Start of the round: {} moves first.",
                    names[self.record.starter.index()]
                ),
                theme.text,
            )),
            Some(played) => {
                lines.push(Line::styled(
                    format!(
                        "{} played {}.",
                        names[played.mover.index()],
                        rules.letter(played.pit).unwrap_or('?')
                    ),
                    theme.title,
                ));
                if self.animation.is_none() {
                    for message in describe(rules, played, names) {
                        lines.push(Line::styled(message.text, theme.good));
                    }
                }
            }
        }
        if self.animation.is_none() && self.stepper.index() == self.stepper.len() {
            lines.push(Line::styled(
                match board.outcome() {
                    Some(outcome) => outcome_message(outcome, board.score(), names),
                    None => "The record ends here; the round was not finished.".to_string(),
                },
                theme.title,
            ));
        }
        if let Some(note) = &self.note {
            lines.push(Line::styled(note.clone(), theme.text));
        }
        frame.render_widget(Paragraph::new(lines), layout.bottom());
        let mut keys = KeyBar::new();
        keys.add("←", "back", Weight::Essential);
        keys.add("→", "forward", Weight::Essential);
        keys.add("Home", "start", Weight::Useful);
        keys.add("End", "end", Weight::Useful);
        keys.add("+/-", "speed", Weight::Optional);
        keys.add("a", "analysis", Weight::Useful);
        keys.add("t", "colours", Weight::Optional);
        keys.add("q", "quit", Weight::Essential);
        frame.render_widget(keys.line(layout.keys().width, theme), layout.keys());
    }
}

impl Screen for ReplayView {
    type Message = Input;
    type Effect = Prefs;

    fn update(&mut self, input: Input, now: Instant) -> Vec<Prefs> {
        if self.analysing
            && let Some(analysis) = &mut self.analysis
        {
            analysis.handle(&input);
            let kept = analysis.chosen().take_changed();
            if analysis.is_done() {
                // back to the replay, with the theme chosen there
                self.analysing = false;
                self.chosen = *analysis.chosen();
            }
            self.quit = matches!(input, Input::Interrupt);
            return kept.into_iter().collect();
        }
        match input {
            Input::Key(key) => {
                if let Some(action) = action(key) {
                    self.quit = !self.handle(action, now);
                }
            }
            Input::Interrupt => self.quit = true,
            // Chords, clicks and the wheel do nothing here; sizes are read
            // when drawing.
            Input::Chord(_) | Input::Click(_) | Input::Scroll(_) | Input::Resize(..) => {}
            Input::Tick => self.tick(now),
        }
        self.chosen.take_changed().into_iter().collect()
    }

    fn view(&self, frame: &mut Frame) {
        match &self.analysis {
            Some(analysis) if self.analysing => analysis.draw(frame, analysis.theme()),
            _ => self.draw(frame, self.chosen.theme()),
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        match &self.analysis {
            Some(analysis) if self.analysing => analysis.next_wake(),
            _ => ReplayView::next_wake(self),
        }
    }

    fn done(&self) -> bool {
        self.quit
    }
}

/// Replays `record` full screen until the viewer quits. `given` is the
/// pause between two seeds chosen on the command line (`Some(None)`: no
/// animation; `None`: the kept speed).
///
/// # Errors
/// When the terminal fails.
pub fn run(record: &Record, given: Option<Option<Duration>>) -> anyhow::Result<()> {
    let kept = Kept::load();
    let chosen = Chosen::for_run(given, kept.prefs);
    let mut view = ReplayView::new(record.clone(), chosen.seed_delay())?;
    view.chosen = chosen;
    view.note.clone_from(&kept.problem);
    PrefsWorld::run(&mut view, kept)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::Palette;
    use crossterm::event::KeyModifiers;
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

    #[test]
    fn stepping_walks_the_records_positions_and_animates_forward() {
        let record = record();
        let boards = record.stepper().unwrap().boards().to_vec();
        let mut view = ReplayView::new(record, Some(Duration::from_millis(100))).unwrap();
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
}
