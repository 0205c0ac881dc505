//! `mancala replay` full screen, on the [screen loop](crate::tui::screen): the recorded round one position at a
//! time, stepped with the arrow keys or played by itself (`p`), drawn
//! with the game's own board widget ([`BoardView`]) and sowing animation
//! ([`Animation`]); `?` shows every key ([`keys::help_text`]).
//!
//! The stepping is the shared [`Stepper`]; [`ReplayView`] adds only what
//! the screen needs (the move being animated, whether it plays by
//! itself), so it is tested without a terminal. Playing by itself needs
//! no thread: [`Screen::next_wake`] tells the loop when the next move is
//! due, and the tick at that time plays it.

mod keys;

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

pub use self::keys::{ReplayKey, action, help_text};
use crate::game::{MOVE_PAUSE, describe_move, outcome_message};
use crate::rules::{Score, Side};
use crate::store::{Record, Stepper};
use crate::tui::analysis::HostedAnalysis;
use crate::tui::animation::{self, Animation};
use crate::tui::chrome::{HelpScroll, KeyBar, Weight, draw_help, draw_too_small};
use crate::tui::clipboard;
use crate::tui::input::Input;
use crate::tui::layout::ScreenLayout;
use crate::tui::prefs::{Chosen, Kept, Prefs, PrefsWorld};
use crate::tui::screen::Screen;
use crate::tui::theme::Theme;
use crate::tui::widgets::board::BoardView;

/// A replay on screen: the position reached and the move being sown.
pub struct ReplayView {
    record: Record,
    stepper: Stepper,
    animation: Option<Animation>,
    /// The moves play by themselves (`p`).
    playing: bool,
    /// While playing, when the next move is due (`None` while a move is
    /// being sown: the pause starts when it ends).
    next_move_at: Option<Instant>,
    /// The speed and theme, and the keys that change them.
    chosen: Chosen,
    /// What the last key did, if it says anything.
    note: Option<String>,
    /// The analysis of the round, once asked for (`a`).
    analysis: HostedAnalysis,
    /// The help screen's scroll, while it is open.
    help: Option<HelpScroll>,
    /// The terminal's size (how far the help scrolls).
    size: Rect,
    quit: bool,
    /// The position line to copy to the clipboard (`c`), until the loop
    /// takes it.
    copied: Option<String>,
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
            playing: false,
            next_move_at: None,
            chosen: Chosen::unkept(seed_delay, Theme::monochrome()),
            note: None,
            analysis: HostedAnalysis::default(),
            help: None,
            size: Rect::default(),
            quit: false,
            copied: None,
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

    /// Acts on a key's action; `false` when the viewer quits. A key that
    /// moves through the round first finishes the sowing on screen, and
    /// stops the moves playing by themselves.
    pub fn handle(&mut self, action: ReplayKey, now: Instant) -> bool {
        self.note = None;
        match action {
            ReplayKey::Faster | ReplayKey::Slower => {
                // The move being sown goes on at the new speed.
                let faster = action == ReplayKey::Faster;
                self.note = Some(self.chosen.change_speed_of(&mut self.animation, faster));
            }
            ReplayKey::Theme => {
                self.note = Some(self.chosen.switch_theme());
            }
            ReplayKey::Analyse => {
                self.stop_playing();
                let record = &self.record;
                self.analysis.open(|| record.clone(), None, self.chosen);
            }
            ReplayKey::Copy => {
                // The position on the board: a move being sown is shown
                // whole first.
                self.animation = None;
                let (said, line) = clipboard::copy(&self.stepper.position());
                self.note = Some(said);
                self.copied = Some(line);
            }
            ReplayKey::Help => {
                // The board stands still behind the help.
                self.stop_playing();
                self.help = Some(HelpScroll::default());
            }
            ReplayKey::Play => {
                if self.playing {
                    self.stop_playing();
                    self.note = Some("Stopped; p plays on.".to_string());
                } else {
                    if self.stepper.index() == self.stepper.len() {
                        self.animation = None;
                        self.stepper.seek(0);
                    }
                    self.playing = true;
                    // The first move at once, unless one is being sown.
                    self.next_move_at = self.animation.is_none().then_some(now);
                    self.note = Some("Playing the moves; p stops.".to_string());
                    self.tick(now);
                }
            }
            ReplayKey::Quit => return false,
            ReplayKey::Forward => {
                self.settle();
                self.step_forward(now);
            }
            ReplayKey::Back => {
                self.settle();
                self.stepper.back();
            }
            ReplayKey::Start => {
                self.settle();
                self.stepper.seek(0);
            }
            ReplayKey::End => {
                self.settle();
                self.stepper.seek(self.stepper.len());
            }
        }
        true
    }

    /// Before a key moves through the round: the sowing on screen is
    /// finished and the moves stop playing by themselves.
    fn settle(&mut self) {
        self.animation = None;
        self.stop_playing();
    }

    fn stop_playing(&mut self) {
        self.playing = false;
        self.next_move_at = None;
    }

    /// Plays the next move of the record, sown seed by seed at the speed
    /// chosen.
    fn step_forward(&mut self, now: Instant) {
        let before = self.stepper.board().counts().to_vec();
        let steps = self.stepper.next_steps();
        if self.stepper.forward()
            && let Some(delay) = self.chosen.seed_delay()
        {
            self.animation = Some(Animation::new(&before, steps, delay, now));
        }
    }

    /// Moves the animation on to `now`, and drops it once it is over;
    /// while the moves play by themselves, plays the next one when it is
    /// due ([`MOVE_PAUSE`] after the last one was sown), and stops at the
    /// end of the round.
    pub fn tick(&mut self, now: Instant) {
        if let Some(animation) = &mut self.animation {
            animation.advance(now);
            if !animation.is_done(now) {
                return;
            }
            self.animation = None;
        }
        if !self.playing {
            return;
        }
        if self.stepper.index() == self.stepper.len() {
            self.stop_playing();
            self.note = Some("The end of the round; p plays it again.".to_string());
            return;
        }
        let due = *self.next_move_at.get_or_insert(now + MOVE_PAUSE);
        if now >= due {
            self.next_move_at = None;
            self.step_forward(now);
            if self.animation.is_none() {
                // No animation: the pause alone sets the pace.
                self.next_move_at = Some(now + MOVE_PAUSE);
            }
        }
    }

    /// When the picture changes next without a key: the next frame of the
    /// sowing, else the next move while the moves play by themselves.
    #[must_use]
    pub fn next_wake(&self) -> Option<Instant> {
        match &self.animation {
            Some(animation) => animation.next_frame_at(),
            None if self.playing => Some(self.next_move_at.unwrap_or_else(Instant::now)),
            None => None,
        }
    }

    /// A key while the help is open: the arrows scroll it, any other key
    /// closes it.
    fn help_key(&mut self, code: KeyCode) {
        let help = help_text(&self.record, &self.chosen);
        if let Some(scroll) = &mut self.help
            && !scroll.key(code, &help, self.size)
        {
            self.help = None;
        }
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
        if let Some(scroll) = self.help {
            // The help covers the whole screen, whatever its size.
            let help = help_text(&self.record, &self.chosen);
            draw_help(frame, area, &help, scroll, theme);
            return;
        }
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
        let board = self.stepper.position();
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
            "Replay of round {}: {} against {} · move {} of {}{}",
            self.record.round,
            names[0],
            names[1],
            self.stepper.index(),
            self.stepper.len(),
            if self.playing { " · playing" } else { "" }
        );
        frame.render_widget(Line::styled(header, theme.title), layout.header);
        frame.render_widget(
            Line::styled(self.record.config.rules_text(), theme.dim),
            layout.rules,
        );
        let view = BoardView::new(rules, counts, names, scores, theme)
            .piles(self.record.config.pile_word())
            .to_move((self.animation.is_none() && !board.is_over()).then(|| board.to_move()))
            .sowing(self.animation.as_ref())
            .caption(self.caption())
            .laid_out(&layout.geometry);
        frame.render_widget(&view, layout.board);

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
                        names[played.mover().index()],
                        rules.letter(played.pit()).unwrap_or('?')
                    ),
                    theme.title,
                ));
                if self.animation.is_none() {
                    let steps = self.stepper.last_steps();
                    for message in describe_move(rules, played, &steps, names) {
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
        // long names make long sentences: wrapped, never cut at the edge
        frame.render_widget(
            Paragraph::new(lines).wrap(Wrap { trim: false }),
            layout.bottom,
        );
        let keys = self.key_bar();
        frame.render_widget(keys.line(layout.keys.width, theme), layout.keys);
    }

    /// The keys of the replay, the most important kept where they do not
    /// all fit.
    fn key_bar(&self) -> KeyBar {
        let mut keys = KeyBar::default();
        keys.add("←", "back", Weight::Essential);
        keys.add("→", "forward", Weight::Essential);
        keys.add(
            "p",
            if self.playing { "stop" } else { "play" },
            Weight::Essential,
        );
        keys.add("Home", "start", Weight::Useful);
        keys.add("End", "end", Weight::Useful);
        self.chosen.add_keys(&mut keys, "t");
        keys.add("a", "analysis", Weight::Useful);
        keys.add(
            clipboard::LETTER.to_string(),
            clipboard::LABEL,
            Weight::Optional,
        );
        keys.add("?", "help", Weight::Essential);
        keys.add("q", "quit", Weight::Essential);
        keys
    }
}

impl Screen for ReplayView {
    type Message = Input;
    type Effect = Prefs;

    fn update(&mut self, input: Input, now: Instant) -> Vec<Prefs> {
        if let Input::Resize(columns, lines) = input {
            self.size = Rect::new(0, 0, columns, lines);
        }
        if self.analysis.input(&input, &mut self.chosen) {
            self.quit = matches!(input, Input::Interrupt);
            return self.chosen.take_changed().into_iter().collect();
        }
        match input {
            Input::Key(key) if self.help.is_some() => self.help_key(key.code),
            Input::Key(key) => {
                if let Some(action) = action(key) {
                    self.quit = !self.handle(action, now);
                }
            }
            Input::Interrupt => self.quit = true,
            Input::Scroll(step) if self.help.is_some() => {
                let help = help_text(&self.record, &self.chosen);
                if let Some(scroll) = &mut self.help {
                    scroll.wheel(step, &help, self.size);
                }
            }
            // Chords, clicks and the wheel (but over the help) do nothing
            // here; the size is taken above.
            Input::Chord(_) | Input::Click(_) | Input::Scroll(_) | Input::Resize(..) => {}
            Input::Tick => self.tick(now),
        }
        self.chosen.take_changed().into_iter().collect()
    }

    fn view(&self, frame: &mut Frame) {
        match self.analysis.on_screen() {
            Some(analysis) => analysis.draw(frame, analysis.theme()),
            None => self.draw(frame, self.chosen.theme()),
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        match self.analysis.on_screen() {
            Some(analysis) => analysis.next_wake(),
            None => ReplayView::next_wake(self),
        }
    }

    fn done(&self) -> bool {
        self.quit
    }

    fn take_copy(&mut self) -> Option<String> {
        self.copied.take().or_else(|| self.analysis.take_copy())
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
mod tests;
