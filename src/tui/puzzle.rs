//! `mancala puzzle` full screen, on the [screen loop](crate::tui::screen):
//! a position, the side to move, and the player's move to find (a pit's
//! letter or number, or a click). The answer is judged (best or not, the
//! best moves, what each other move loses), the best line is sown seed by
//! seed with the game's own animation, and the streak and rating move.
//!
//! Dealing a puzzle and judging an answer need the solver and the data
//! directory, so they are effects ([`PuzzleEffect`]); the world
//! ([`PuzzleWorld`]) does them on a thread of their own, so that the
//! screen keeps drawing ("Finding a puzzle…") meanwhile.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::analysis::puzzles::{origin_words, task_words, verdict_words};
use crate::game::MOVE_PAUSE;
use crate::rules::{Board, Pit, Side, Step};
use crate::store::puzzles::{Answered, Dealt, Trainer};
use crate::tui::animation::{self, Animation};
use crate::tui::chrome::{HelpScroll, HelpText, KeyBar, Weight, draw_help, draw_too_small};
use crate::tui::game::help::rules_text;
use crate::tui::input::Input;
use crate::tui::layout::ScreenLayout;
use crate::tui::prefs::{Chosen, Kept, Prefs};
use crate::tui::screen::{Screen, World};
use crate::tui::theme::Theme;
use crate::tui::widgets::board::BoardView;

/// Moves of the best line sown after an answer.
pub const BEST_LINE_PLIES: usize = 4;

/// The names the board shows: a puzzle is about the sides.
const NAMES: [&str; 2] = ["South", "North"];

/// What happens to the puzzle screen: the terminal's input, and the
/// world's answers.
#[derive(Debug)]
pub enum PuzzleMessage {
    /// A key, click, resize or tick.
    Input(Input),
    /// The next puzzle, or `None` when none is left; with the player's
    /// rating and streak.
    Dealt(Option<Box<Dealt>>, f64, u32),
    /// The answer judged: how it went, the best line, what could not be
    /// kept.
    Judged(Answered, Vec<Pit>, Option<String>),
}

impl From<Input> for PuzzleMessage {
    fn from(input: Input) -> Self {
        PuzzleMessage::Input(input)
    }
}

/// What the puzzle screen asks of the world.
#[derive(Debug)]
pub enum PuzzleEffect {
    /// Keep the speed and theme.
    Prefs(Prefs),
    /// Deal the next puzzle.
    Next,
    /// Judge this answer to this puzzle (and keep the progress).
    Answer(Box<Dealt>, Pit),
}

/// Where the screen is.
#[derive(Debug)]
enum Stage {
    /// Waiting for the world to deal a puzzle.
    Dealing,
    /// The puzzle is set: the player's move is awaited.
    Asking(Box<Dealt>),
    /// The move is being judged.
    Judging(Box<Dealt>, Pit),
    /// The answer is judged; the best line is being sown.
    JudgedAnswer(Box<JudgedAnswer>),
    /// No puzzle is left.
    Empty,
}

/// A judged answer on screen.
#[derive(Debug)]
struct JudgedAnswer {
    dealt: Dealt,
    pit: Pit,
    answered: Answered,
    line: Vec<Pit>,
    /// Moves of the best line sown so far.
    sown: usize,
    /// The board after the moves sown.
    board: Board,
}

/// The puzzle screen. See the [module docs](self).
pub struct PuzzleView {
    stage: Stage,
    number: usize,
    rating: f64,
    streak: u32,
    animation: Option<Animation>,
    /// When the next move of the best line is due.
    next_move_at: Option<Instant>,
    chosen: Chosen,
    note: Option<String>,
    help: Option<HelpScroll>,
    size: Rect,
    quit: bool,
}

impl PuzzleView {
    /// The screen before its first puzzle (ask the world with
    /// [`PuzzleEffect::Next`]), with the player's `rating` and `streak`.
    #[must_use]
    pub fn new(chosen: Chosen, rating: f64, streak: u32) -> PuzzleView {
        PuzzleView {
            stage: Stage::Dealing,
            number: 0,
            rating,
            streak,
            animation: None,
            next_move_at: None,
            chosen,
            note: None,
            help: None,
            size: Rect::default(),
            quit: false,
        }
    }

    /// The board on screen (the puzzle's, or the best line's so far).
    fn board(&self) -> Option<Board> {
        match &self.stage {
            Stage::Asking(d) | Stage::Judging(d, _) => Some(d.puzzle.board),
            Stage::JudgedAnswer(s) => Some(s.board),
            Stage::Dealing | Stage::Empty => None,
        }
    }

    /// The counts drawn now: mid-sowing, the animation's.
    fn counts(&self) -> Option<Vec<u16>> {
        if let Some(animation) = &self.animation {
            return Some(animation.counts().to_vec());
        }
        self.board().map(|b| b.counts().to_vec())
    }

    /// The player chose `pit` while asked.
    fn answer(&mut self, pit: Pit) -> Vec<PuzzleEffect> {
        let Stage::Asking(dealt) = std::mem::replace(&mut self.stage, Stage::Dealing) else {
            return Vec::new();
        };
        if let Err(e) = dealt.puzzle.board.check(pit) {
            self.note = Some(e.to_string());
            self.stage = Stage::Asking(dealt);
            return Vec::new();
        }
        self.note = None;
        self.stage = Stage::Judging(dealt.clone(), pit);
        vec![PuzzleEffect::Answer(dealt, pit)]
    }

    /// Asks for the next puzzle.
    fn next_puzzle(&mut self) -> Vec<PuzzleEffect> {
        self.animation = None;
        self.next_move_at = None;
        self.note = None;
        self.stage = Stage::Dealing;
        vec![PuzzleEffect::Next]
    }

    /// Sows the next move of the best line, if any is left.
    fn sow_next(&mut self, now: Instant) {
        let delay = self.chosen.seed_delay();
        let Stage::JudgedAnswer(shown) = &mut self.stage else {
            return;
        };
        let Some(&pit) = shown.line.get(shown.sown) else {
            self.next_move_at = None;
            return;
        };
        let before = shown.board.counts().to_vec();
        let mut steps: Vec<Step> = Vec::new();
        if shown.board.play_traced(pit, &mut steps).is_err() {
            shown.sown = shown.line.len();
            return;
        }
        shown.sown += 1;
        match delay {
            Some(delay) => {
                self.animation = Some(Animation::new(&before, steps, delay, now));
                self.next_move_at = None;
            }
            None => self.next_move_at = Some(now + MOVE_PAUSE),
        }
    }

    /// Sows the best line again from the puzzle's position.
    fn replay_line(&mut self, now: Instant) {
        if let Stage::JudgedAnswer(shown) = &mut self.stage {
            shown.board = shown.dealt.puzzle.board;
            shown.sown = 0;
            self.animation = None;
            self.next_move_at = Some(now);
        }
    }

    fn tick(&mut self, now: Instant) {
        if let Some(animation) = &mut self.animation {
            animation.advance(now);
            if !animation.is_done(now) {
                return;
            }
            self.animation = None;
            self.next_move_at = Some(now + MOVE_PAUSE);
        }
        if self.next_move_at.is_some_and(|at| now >= at) {
            self.next_move_at = None;
            self.sow_next(now);
        }
    }

    fn key(&mut self, code: KeyCode, now: Instant) -> Vec<PuzzleEffect> {
        // while asked, a letter or number of the mover's pits is a move
        if let Stage::Asking(dealt) = &self.stage
            && let KeyCode::Char(c) = code
        {
            let board = dealt.puzzle.board;
            if let Some(pit) = board.rules().parse_pit(&c.to_string(), board.to_move())
                && board.rules().owner(pit) == board.to_move()
            {
                return self.answer(pit);
            }
        }
        match code {
            KeyCode::Char('q' | 'Q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char('?') | KeyCode::F(1) => self.help = Some(HelpScroll::default()),
            KeyCode::Char('+' | '=') | KeyCode::Char('-' | '_') => {
                let faster = matches!(code, KeyCode::Char('+' | '='));
                self.note = Some(self.chosen.change_speed_of(&mut self.animation, faster));
            }
            KeyCode::Char('t' | 'T') => self.note = Some(self.chosen.switch_theme()),
            KeyCode::Char('n' | 'N' | ' ') | KeyCode::Enter
                if matches!(self.stage, Stage::JudgedAnswer(_)) =>
            {
                return self.next_puzzle();
            }
            KeyCode::Char('r' | 'R') if matches!(self.stage, Stage::JudgedAnswer(_)) => {
                self.replay_line(now);
            }
            _ => {}
        }
        Vec::new()
    }

    /// The help screen.
    fn help_text(&self) -> HelpText {
        let rules = self
            .board()
            .map_or(crate::rules::Rules::KALAH, |b| *b.rules());
        let mut keys = HelpText::pairs(&[
            (
                "a-f 1-6 click",
                "play that pit of the side to move: your answer",
            ),
            (
                "n Space Enter",
                "the next puzzle, once the answer is judged",
            ),
            ("r", "sow the best line again"),
        ]);
        keys.extend(self.chosen.help_keys("t"));
        keys.extend(HelpText::pairs(&[
            (
                "q or Esc",
                "leave the puzzles (your progress is kept after every answer)",
            ),
            ("?", "this help (↑↓ scroll it, any other key closes it)"),
        ]));
        HelpText {
            title: " Mancala puzzles — help ".to_string(),
            heading: format!("Rules: {rules}"),
            sentences: vec![
                "Find the move that keeps the most seeds for the side to move under perfect play. A failed puzzle comes back after a few others, until it is learnt.".to_string(),
            ]
            .into_iter()
            .chain(rules_text(&rules, NAMES))
            .collect(),
            keys,
        }
    }

    fn key_bar(&self) -> KeyBar {
        let mut keys = KeyBar::default();
        match &self.stage {
            Stage::Asking(d) => {
                let side = d.puzzle.board.to_move();
                keys.add(
                    d.puzzle.board.rules().letter_range(side),
                    "your move",
                    Weight::Essential,
                );
            }
            Stage::JudgedAnswer(_) => {
                keys.add("n", "next puzzle", Weight::Essential);
                keys.add("r", "best line again", Weight::Useful);
            }
            _ => {}
        }
        self.chosen.add_keys(&mut keys, "t");
        keys.add("?", "help", Weight::Essential);
        keys.add("q", "quit", Weight::Essential);
        keys
    }

    /// The lines under the board.
    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        match &self.stage {
            Stage::Dealing => lines.push(Line::styled("Finding a puzzle…", theme.text)),
            Stage::Empty => lines.push(Line::styled(
                "No puzzle left to set: your own rounds give more. q leaves.",
                theme.title,
            )),
            Stage::Asking(d) | Stage::Judging(d, _) => {
                lines.push(Line::styled(origin_words(&d.puzzle), theme.dim));
                if d.review.is_some() {
                    lines.push(Line::styled(
                        "You missed this one before: here it is again.",
                        theme.text,
                    ));
                }
                let task = if matches!(self.stage, Stage::Judging(..)) {
                    "Judging your move…".to_string()
                } else {
                    task_words(&d.puzzle)
                };
                lines.push(Line::styled(task, theme.title));
            }
            Stage::JudgedAnswer(s) => {
                let style = if s.answered.solved {
                    theme.good
                } else {
                    theme.title
                };
                // The verdict in its colour; what each other move loses and
                // the rest as plain text.
                for (i, line) in verdict_words(&s.dealt.puzzle, s.pit)
                    .into_iter()
                    .enumerate()
                {
                    lines.push(Line::styled(line, if i == 0 { style } else { theme.text }));
                }
                let rules = s.dealt.puzzle.board.rules();
                let line: Vec<String> = s
                    .line
                    .iter()
                    .map(|&p| rules.letter(p).unwrap_or('?').to_string())
                    .collect();
                if !line.is_empty() {
                    lines.push(Line::styled(
                        format!("The best line: {} (sown on the board).", line.join(" ")),
                        theme.text,
                    ));
                }
                lines.push(Line::styled(s.answered.to_string(), theme.title));
            }
        }
        if let Some(note) = &self.note {
            lines.push(Line::styled(note.clone(), theme.text));
        }
        lines
    }

    /// Draws the screen.
    fn draw(&self, frame: &mut Frame, theme: &Theme) {
        let area = frame.area();
        if let Some(scroll) = self.help {
            draw_help(frame, area, &self.help_text(), scroll, theme);
            return;
        }
        let (Some(board), Some(counts)) = (self.board(), self.counts()) else {
            let mut lines = vec![Line::styled("Mancala puzzles", theme.title)];
            lines.extend(self.lines(theme));
            frame.render_widget(Paragraph::new(lines), area);
            return;
        };
        let rules = *board.rules();
        let layout = match ScreenLayout::new(area, &rules) {
            Ok(layout) => layout,
            Err(need) => {
                draw_too_small(
                    frame,
                    area,
                    (need.width, need.height),
                    "The puzzle",
                    None,
                    theme,
                );
                return;
            }
        };
        let puzzle_rating = match &self.stage {
            Stage::Asking(d) | Stage::Judging(d, _) => d.puzzle.rating(),
            Stage::JudgedAnswer(s) => s.dealt.puzzle.rating(),
            _ => 0.0,
        };
        let header = format!(
            "Puzzle {} (rated {:.0}) · your rating {:.0} · streak {}",
            self.number, puzzle_rating, self.rating, self.streak
        );
        frame.render_widget(Line::styled(header, theme.title), layout.header);
        frame.render_widget(Line::styled(rules.to_string(), theme.dim), layout.rules);
        let scores = crate::rules::Score {
            south: counts[rules.store(Side::South).index()],
            north: counts[rules.store(Side::North).index()],
        };
        let caption = self.animation.as_ref().map_or_else(Line::default, |a| {
            Line::from(animation::caption(a, NAMES, &rules))
        });
        let view = BoardView::new(&rules, &counts, NAMES, scores, theme)
            .to_move((self.animation.is_none() && !board.is_over()).then(|| board.to_move()))
            .sowing(self.animation.as_ref())
            .caption(caption)
            .laid_out(&layout.geometry);
        frame.render_widget(&view, layout.board);
        frame.render_widget(
            Paragraph::new(self.lines(theme)).wrap(Wrap { trim: false }),
            layout.bottom,
        );
        let keys = self.key_bar();
        frame.render_widget(keys.line(layout.keys.width, theme), layout.keys);
    }

    /// The pit under a click, while asked.
    fn clicked(&self, at: ratatui::layout::Position) -> Option<Pit> {
        let Stage::Asking(d) = &self.stage else {
            return None;
        };
        let layout = ScreenLayout::new(self.size, d.puzzle.board.rules()).ok()?;
        layout.geometry.hit(at)
    }
}

impl Screen for PuzzleView {
    type Message = PuzzleMessage;
    type Effect = PuzzleEffect;

    fn update(&mut self, message: PuzzleMessage, now: Instant) -> Vec<PuzzleEffect> {
        let mut effects = match message {
            PuzzleMessage::Dealt(dealt, rating, streak) => {
                self.rating = rating;
                self.streak = streak;
                match dealt {
                    Some(dealt) => {
                        self.number += 1;
                        self.stage = Stage::Asking(dealt);
                    }
                    None => self.stage = Stage::Empty,
                }
                Vec::new()
            }
            PuzzleMessage::Judged(answered, line, problem) => {
                if let Stage::Judging(dealt, pit) =
                    std::mem::replace(&mut self.stage, Stage::Dealing)
                {
                    self.rating = answered.rating.1;
                    self.streak = answered.streak;
                    self.note = problem;
                    self.stage = Stage::JudgedAnswer(Box::new(JudgedAnswer {
                        board: dealt.puzzle.board,
                        dealt: *dealt,
                        pit,
                        answered,
                        line,
                        sown: 0,
                    }));
                    self.next_move_at = Some(now + MOVE_PAUSE);
                }
                Vec::new()
            }
            PuzzleMessage::Input(input) => match input {
                Input::Resize(columns, lines) => {
                    self.size = Rect::new(0, 0, columns, lines);
                    Vec::new()
                }
                Input::Key(key) if key.kind != KeyEventKind::Press => Vec::new(),
                Input::Key(key) if self.help.is_some() => {
                    let help = self.help_text();
                    if let Some(scroll) = &mut self.help
                        && !scroll.key(key.code, &help, self.size)
                    {
                        self.help = None;
                    }
                    Vec::new()
                }
                Input::Key(key) => self.key(key.code, now),
                Input::Click(at) => match self.clicked(at) {
                    Some(pit) => self.answer(pit),
                    None => Vec::new(),
                },
                Input::Scroll(step) if self.help.is_some() => {
                    let help = self.help_text();
                    if let Some(scroll) = &mut self.help {
                        scroll.wheel(step, &help, self.size);
                    }
                    Vec::new()
                }
                Input::Interrupt => {
                    self.quit = true;
                    Vec::new()
                }
                Input::Tick => {
                    self.tick(now);
                    Vec::new()
                }
                Input::Chord(_) | Input::Scroll(_) => Vec::new(),
            },
        };
        effects.extend(self.chosen.take_changed().map(PuzzleEffect::Prefs));
        effects
    }

    fn view(&self, frame: &mut Frame) {
        self.draw(frame, self.chosen.theme());
    }

    fn next_wake(&self) -> Option<Instant> {
        match &self.animation {
            Some(animation) => animation.next_frame_at(),
            None => self.next_move_at,
        }
    }

    fn done(&self) -> bool {
        self.quit
    }
}

/// What the worker thread sends back: the trainer, and the answer.
type Back = (Trainer, PuzzleMessage);

/// Deals and judges puzzles on a thread of its own, and keeps the
/// preferences.
pub struct PuzzleWorld {
    /// The trainer, while no work is under way.
    trainer: Option<Trainer>,
    /// Work asked for while the trainer was busy.
    waiting: Vec<PuzzleEffect>,
    back: Option<mpsc::Receiver<Back>>,
    kept: Kept,
    /// The first problem keeping the preferences, said at the end.
    problem: Option<String>,
}

impl PuzzleWorld {
    /// A world dealing from `trainer`, keeping preferences in `kept`.
    #[must_use]
    pub fn new(trainer: Trainer, kept: Kept) -> PuzzleWorld {
        PuzzleWorld {
            trainer: Some(trainer),
            waiting: Vec::new(),
            back: None,
            kept,
            problem: None,
        }
    }

    /// Starts `effect`'s work on a thread with the trainer.
    fn start(&mut self, effect: PuzzleEffect) {
        let Some(mut trainer) = self.trainer.take() else {
            self.waiting.push(effect);
            return;
        };
        let (tx, rx) = mpsc::channel();
        self.back = Some(rx);
        std::thread::spawn(move || {
            let message = match effect {
                PuzzleEffect::Answer(dealt, pit) => {
                    let (answered, problem) = trainer.answer(&dealt, pit);
                    let line = trainer.best_line(&dealt.puzzle, BEST_LINE_PLIES);
                    PuzzleMessage::Judged(answered, line, problem)
                }
                PuzzleEffect::Next | PuzzleEffect::Prefs(_) => {
                    let dealt = trainer.deal().map(Box::new);
                    let progress = trainer.progress();
                    PuzzleMessage::Dealt(dealt, progress.rating, progress.streak)
                }
            };
            let _ = tx.send((trainer, message));
        });
    }
}

impl World<PuzzleView> for PuzzleWorld {
    fn perform(&mut self, effect: PuzzleEffect, _: &mut Vec<PuzzleMessage>) {
        match effect {
            PuzzleEffect::Prefs(prefs) => {
                if let Err(problem) = self.kept.save(prefs) {
                    self.problem.get_or_insert(problem);
                }
            }
            work => self.start(work),
        }
    }

    fn poll(&mut self, answers: &mut Vec<PuzzleMessage>) {
        let Some(rx) = &self.back else {
            return;
        };
        match rx.try_recv() {
            Ok((trainer, message)) => {
                self.back = None;
                self.trainer = Some(trainer);
                answers.push(message);
                if !self.waiting.is_empty() {
                    let next = self.waiting.remove(0);
                    self.start(next);
                }
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => {
                self.back = None;
                self.problem
                    .get_or_insert_with(|| "the puzzle maker stopped".to_string());
            }
        }
    }

    fn busy(&self) -> bool {
        self.back.is_some()
    }
}

/// Plays puzzles from `trainer` full screen until the player leaves.
/// `given` is the pause between two seeds chosen on the command line
/// (`Some(None)`: no animation; `None`: the kept speed).
///
/// # Errors
/// When the terminal fails.
pub fn run(trainer: Trainer, given: Option<Option<Duration>>) -> anyhow::Result<()> {
    let kept = Kept::load();
    let chosen = Chosen::for_run(given, kept.prefs);
    let progress = trainer.progress();
    let mut view = PuzzleView::new(chosen, progress.rating, progress.streak);
    view.note.clone_from(&kept.problem);
    let mut world = PuzzleWorld::new(trainer, kept);
    world.start(PuzzleEffect::Next);
    crate::tui::screen::run(&mut view, &mut world)?;
    if let Some(problem) = world.problem {
        crate::console::warn(problem);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::puzzles::{Origin, Puzzle};
    use crate::rules::Rules;

    /// A judged answer: the verdict's first line in the verdict's colour,
    /// the lines after it (what each other move loses) in plain text.
    #[test]
    fn only_the_verdicts_first_line_takes_its_colour() {
        let theme = Theme::colour();
        let board = Board::starting(Rules::KALAH, Side::South);
        let values: Vec<(Pit, i32)> = board
            .legal_moves()
            .enumerate()
            .map(|(i, pit)| (pit, if i == 2 { 4 } else { -4 }))
            .collect();
        let best = values[2].0;
        let puzzle = Puzzle {
            board,
            values,
            origin: Origin::Builtin { seed: 1 },
        };
        let mut view = PuzzleView::new(Chosen::unkept(None, theme), 1200.0, 0);
        view.stage = Stage::JudgedAnswer(Box::new(JudgedAnswer {
            dealt: Dealt {
                puzzle,
                review: None,
            },
            pit: best,
            answered: Answered {
                solved: true,
                rating: (1200.0, 1230.0),
                streak: 1,
                comes_back: None,
            },
            line: Vec::new(),
            sown: 0,
            board,
        }));
        let lines = view.lines(&theme);
        let text = |l: &Line| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        };
        let verdict = lines.iter().find(|l| text(l).starts_with("Best!")).unwrap();
        assert_eq!(verdict.style, theme.good);
        let others = lines
            .iter()
            .find(|l| text(l).starts_with("The other moves"))
            .unwrap();
        assert_eq!(others.style, theme.text, "{:?}", text(others));
    }
}
