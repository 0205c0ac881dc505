//! The analysis of a recorded round full screen, on the [screen
//! loop](crate::tui::screen): the table of moves (value before, best pits,
//! value after, loss), the turning points marked `▼` (and drawn in the
//! error style, which in black and white is bold), and a chart of the
//! value over the round. Opened by `mancala analyze FILE` and by `a` in the
//! replay.
//!
//! The analysis itself ([`crate::analysis`]) runs on a thread of its
//! own (or was worked out while the round was played,
//! [`crate::analysis::live`]): the screen shows its progress and stays
//! responsive; leaving the screen stops a thread of its own. Until it is
//! done, the screen shows a sketch ([`crate::analysis::sketch`]): every
//! move at once, estimated where not proven yet (`≈`), firmed up as the
//! analysis goes (big boards take minutes).

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEventKind};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph};

use crate::analysis::live::{Standing, Watch};
use crate::analysis::{Analysis, Analyst, PositionBudget, RoundAnalyser, SKETCH_NODES, sketch};
use crate::analysis::{best_text, difference_word, loss_text, pit_text, value_text};
use crate::store::Record;
use crate::tui::chrome::{HelpScroll, HelpText, KeyBar, Weight, draw_help, draw_too_small};
use crate::tui::clipboard;
use crate::tui::input::Input;
use crate::tui::prefs::{Chosen, Kept, Prefs, PrefsWorld};
use crate::tui::screen::Screen;
use crate::tui::text::{columns, first_fitting, fit};
use crate::tui::theme::Theme;

/// The least window the screen is drawn in.
const MIN_WIDTH: u16 = 60;
const MIN_HEIGHT: u16 = 20;
/// Lines of the chart.
const CHART_HEIGHT: u16 = 8;
/// The table's columns besides the player's name: the cursor and turning
/// point marks (2), the move (4), the pit (3), the best moves (9), the
/// values before and after (6 each), the loss (4), and a space between
/// each two.
const TABLE_COLUMNS: usize = 2 + 4 + 3 + 9 + 6 + 6 + 4 + 6;
/// The heading of the players' column, and its least width.
const PLAYER_HEADING: &str = "player";
/// Time per position of an analysis opened from another screen (the
/// replay, the end of a round); `mancala analyze --think MS` sets it on
/// the command line.
pub use crate::analysis::DEFAULT_THINK;
/// How often the screen looks for the analysis's progress.
const POLL: Duration = Duration::from_millis(100);
/// How often the analysis thread sends a new sketch while it works.
const SKETCH_EVERY: Duration = Duration::from_secs(2);

/// What the analysis thread reports.
enum Report {
    Progress(usize, usize),
    /// The analysis so far, estimated where not proven yet.
    Sketch(Analysis),
    Done(Result<Analysis, String>),
}

/// The analysis under way on its thread.
struct Job {
    reports: Receiver<Report>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl Drop for Job {
    fn drop(&mut self) {
        // leaving the screen stops the thread at its next look at the flag
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What the screen has of the analysis.
enum Figures {
    /// Nothing yet.
    Nothing,
    /// A sketch, shown until the analysis is done.
    Sketch(Analysis),
    /// The analysis done.
    Done(Analysis),
}

impl Figures {
    /// The figures on screen, a sketch's or the analysis's.
    fn figures(&self) -> Option<&Analysis> {
        match self {
            Figures::Nothing => None,
            Figures::Sketch(a) | Figures::Done(a) => Some(a),
        }
    }
}

/// The analysis screen: the record, the analysis (once done) and the move
/// the cursor is on.
pub struct AnalysisView {
    record: Record,
    analysis: Figures,
    /// The sketch made for a watched analysis, until it comes.
    sketching: Option<Receiver<Analysis>>,
    progress: (usize, usize),
    problem: Option<String>,
    job: Option<Job>,
    /// The analysis worked out as the round was played, while it is not
    /// done.
    watch: Option<Watch>,
    /// The move under the cursor (an index into the moves).
    selected: usize,
    chosen: Chosen,
    note: Option<String>,
    quit: bool,
    /// The help, while it is open.
    help: Option<HelpScroll>,
    /// The screen as last drawn (how far the help scrolls).
    drawn: Cell<Rect>,
    /// The position line to copy to the clipboard (`c`), until the loop
    /// takes it.
    copied: Option<String>,
}

impl AnalysisView {
    /// The screen of `record`, analysed on a thread within `think` per
    /// position.
    #[must_use]
    pub fn start(record: Record, think: Duration, chosen: Chosen) -> AnalysisView {
        let (sender, reports) = mpsc::channel();
        let budget = PositionBudget::time(think);
        let stop = Arc::clone(&budget.stop);
        let (start, moves) = (record.start_round(), record.moves.clone());
        let total = moves.len() + 1;
        let spawned = std::thread::Builder::new()
            .name("mancala-analysis".into())
            .spawn(move || {
                let result = analyse(start, &moves, &budget, &sender);
                let _ = sender.send(Report::Done(result));
            });
        let (job, problem) = match spawned {
            Ok(_) => (Some(Job { reports, stop }), None),
            Err(e) => (None, Some(format!("The analysis could not start: {e}"))),
        };
        let mut view = AnalysisView::waiting(record, chosen, total);
        view.job = job;
        view.problem = problem;
        view
    }

    /// The screen of `record` with no analysis yet, of `total` positions.
    fn waiting(record: Record, chosen: Chosen, total: usize) -> AnalysisView {
        AnalysisView {
            record,
            analysis: Figures::Nothing,
            sketching: None,
            progress: (0, total),
            problem: None,
            job: None,
            watch: None,
            selected: 0,
            chosen,
            note: None,
            quit: false,
            help: None,
            drawn: Cell::default(),
            copied: None,
        }
    }

    /// The screen of `record`, whose analysis `watch` follows (worked out
    /// as the round was played): shown at once when it is done already.
    #[must_use]
    pub fn watching(record: Record, watch: Watch, chosen: Chosen) -> AnalysisView {
        let total = record.moves.len() + 1;
        let (start, moves) = (record.start_round(), record.moves.clone());
        let mut view = AnalysisView::waiting(record, chosen, total);
        view.watch = Some(watch);
        view.poll();
        if view.analysis.figures().is_none() && view.problem.is_none() {
            // the figures at once, while the round's analysis goes on
            let (sender, sketching) = mpsc::channel();
            let spawned = std::thread::Builder::new()
                .name("mancala-sketch".into())
                .spawn(move || {
                    if let Ok(drawn) = sketch(start, &moves, SKETCH_NODES) {
                        let _ = sender.send(drawn);
                    }
                });
            view.sketching = spawned.is_ok().then_some(sketching);
        }
        view
    }

    /// Shows `drawn`, a sketch, unless the analysis is done.
    fn show_sketch(&mut self, drawn: Analysis) {
        if !matches!(self.analysis, Figures::Done(_)) {
            self.analysis = Figures::Sketch(drawn);
        }
    }

    /// Shows the analysis done.
    fn show_done(&mut self, analysis: Analysis) {
        self.analysis = Figures::Done(analysis);
        self.sketching = None;
    }

    /// Whether the viewer left the screen.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.quit
    }

    /// Opens the screen again (after the viewer left it).
    pub fn reopen(&mut self) {
        self.quit = false;
        self.help = None;
    }

    /// What `?` shows: every key of the screen.
    fn help_text(&self) -> HelpText {
        let mut keys = HelpText::pairs(&[
            ("↑↓ ←→ j k", "the move before / after"),
            ("PgUp PgDn", "ten moves back / on"),
            ("Home End", "the first / last move"),
            ("n", "the next turning point"),
        ]);
        if self.copies() {
            keys.push((
                clipboard::LETTER.to_string(),
                format!("{} (the one before the move chosen)", clipboard::HELP),
            ));
        }
        keys.extend(self.chosen.help_theme_key("t"));
        keys.extend(HelpText::pairs(&[("?", "this help"), ("q Esc", "back")]));
        HelpText {
            title: " Analysis — help ".to_string(),
            heading: format!(
                "Values: final {} difference for the mover, perfect play.",
                difference_word(self.record.config.game)
            ),
            sentences: vec![
                "Each move shows the value before it, the best pits, the value after it and \
                 the seeds it lost; ≈ marks a value estimated within the time given, not proven."
                    .to_string(),
                "The turning points are the moves that lost most; n goes from one to the next."
                    .to_string(),
                "▶ marks the move chosen; ▼ marks a turning point.".to_string(),
                "A + after the pit played: that move earned another turn.".to_string(),
                "… after the best pit: the opening book's or the engine's one choice; others \
                 may be as good."
                    .to_string(),
            ],
            keys,
        }
    }

    /// The speed and theme chosen, to hand back to the screen that opened
    /// this one.
    #[must_use]
    pub fn chosen(&mut self) -> &mut Chosen {
        &mut self.chosen
    }

    /// The styles to draw with.
    #[must_use]
    pub fn theme(&self) -> &Theme {
        self.chosen.theme()
    }

    /// Takes the thread's reports in, without waiting.
    pub fn poll(&mut self) {
        if let Some(drawn) = self.sketching.as_ref().and_then(|r| r.try_recv().ok()) {
            self.sketching = None;
            self.show_sketch(drawn);
        }
        if let Some(watch) = &self.watch {
            match watch.standing() {
                Standing::Working(done, total) => self.progress = (done, total),
                Standing::Done(analysis) => {
                    self.progress = (analysis.south_values.len(), analysis.south_values.len());
                    self.show_done(analysis);
                    self.watch = None;
                }
                Standing::Failed(problem) => {
                    self.problem = Some(problem);
                    self.watch = None;
                }
            }
            return;
        }
        loop {
            let Some(job) = &self.job else {
                return;
            };
            match job.reports.try_recv() {
                Ok(Report::Progress(done, total)) => self.progress = (done, total),
                Ok(Report::Sketch(drawn)) => self.show_sketch(drawn),
                Ok(Report::Done(Ok(analysis))) => {
                    self.show_done(analysis);
                    self.job = None;
                    return;
                }
                Ok(Report::Done(Err(problem))) => {
                    self.problem = Some(problem);
                    self.job = None;
                    return;
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.problem = Some("The analysis stopped unfinished.".to_string());
                    self.job = None;
                    return;
                }
            }
        }
    }

    /// Reacts to a key or a tick.
    pub fn handle(&mut self, input: &Input) {
        let moves = self.analysis.figures().map_or(0, |a| a.moves.len());
        let last = moves.saturating_sub(1);
        match input {
            Input::Key(key) if key.kind == KeyEventKind::Press => {
                self.note = None;
                if let Some(mut scroll) = self.help {
                    // The arrows scroll it; any other key closes it.
                    let open = scroll.key(key.code, &self.help_text(), self.drawn.get());
                    self.help = open.then_some(scroll);
                    return;
                }
                match key.code {
                    KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
                    KeyCode::Down | KeyCode::Right | KeyCode::Char('j') => {
                        self.selected = (self.selected + 1).min(last);
                    }
                    KeyCode::Up | KeyCode::Left | KeyCode::Char('k') => {
                        self.selected = self.selected.saturating_sub(1);
                    }
                    KeyCode::PageDown => self.selected = (self.selected + 10).min(last),
                    KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
                    KeyCode::Home => self.selected = 0,
                    KeyCode::End => self.selected = last,
                    KeyCode::Char('n') => {
                        // the next turning point after the cursor, round the end
                        if let Some(a) = self.analysis.figures() {
                            let mut points = a.turning_points();
                            points.sort_unstable();
                            let next = points.iter().find(|&&i| i > self.selected);
                            if let Some(&i) = next.or(points.first()) {
                                self.selected = i;
                            }
                        }
                    }
                    KeyCode::Char(c)
                        if c.eq_ignore_ascii_case(&clipboard::LETTER) && self.copies() =>
                    {
                        self.copy_position();
                    }
                    KeyCode::Char('t' | 'T') => self.note = Some(self.chosen.switch_theme()),
                    KeyCode::Char('?') | KeyCode::F(1) => self.help = Some(HelpScroll::default()),
                    _ => {}
                }
            }
            Input::Scroll(step) => {
                if let Some(mut scroll) = self.help {
                    // The wheel scrolls the help, never the moves behind it.
                    scroll.wheel(*step, &self.help_text(), self.drawn.get());
                    self.help = Some(scroll);
                    return;
                }
                self.selected = if *step < 0 {
                    self.selected.saturating_sub(1)
                } else {
                    (self.selected + 1).min(last)
                };
            }
            Input::Interrupt => self.quit = true,
            Input::Tick => self.poll(),
            _ => {}
        }
    }

    /// Whether the position key is offered: the analysis is on screen.
    fn copies(&self) -> bool {
        self.analysis.figures().is_some()
    }

    /// The position key: the position the chosen move was played in, on
    /// the status line and to the clipboard.
    fn copy_position(&mut self) {
        let Ok(mut stepper) = self.record.stepper() else {
            return;
        };
        stepper.seek(self.selected);
        let (said, line) = clipboard::copy(&stepper.position());
        self.note = Some(said);
        self.copied = Some(line);
    }

    /// Draws the screen.
    pub fn draw(&self, frame: &mut Frame, theme: &Theme) {
        let area = frame.area();
        self.drawn.set(area);
        if let Some(scroll) = self.help {
            draw_help(frame, area, &self.help_text(), scroll, theme);
            return;
        }
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            draw_too_small(
                frame,
                area,
                (MIN_WIDTH, MIN_HEIGHT),
                "The analysis",
                None,
                theme,
            );
            return;
        }
        let names = self.record.names();
        let [title, explain, table, turning, chart, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(4),
            Constraint::Length(1),
            Constraint::Length(CHART_HEIGHT),
            Constraint::Length(1),
        ])
        .areas(area);
        // long names keep the title whole by shortening its words
        let (round, players) = (
            self.record.round,
            format!("{} against {}", names[0], names[1]),
        );
        let heading = first_fitting(
            &[
                format!("Analysis of round {round}: {players}"),
                format!("Round {round}: {players}"),
                players,
            ],
            usize::from(title.width),
        );
        frame.render_widget(Line::styled(heading, theme.title), title);
        frame.render_widget(
            Line::styled(
                format!(
                    "Values: final {} difference for the mover, perfect play; ≈ estimated.",
                    difference_word(self.record.config.game)
                ),
                theme.dim,
            ),
            explain,
        );
        let mut bar = KeyBar::default();
        match self.analysis.figures() {
            None => {
                let (done, total) = self.progress;
                let text = self
                    .problem
                    .clone()
                    .unwrap_or_else(|| format!("Analysing the round: position {done} of {total}…"));
                let style = if self.problem.is_some() {
                    theme.error
                } else {
                    theme.text
                };
                frame.render_widget(Paragraph::new(Line::styled(text, style)), table);
            }
            Some(analysis) => {
                self.draw_table(frame, table, analysis, theme);
                if matches!(self.analysis, Figures::Sketch(_)) {
                    // the turning points wait for proven figures
                    let (done, total) = self.progress;
                    let text = format!(
                        "≈ estimates for now; analysing the round: position {done} of {total}…"
                    );
                    frame.render_widget(Line::styled(text, theme.text), turning);
                } else {
                    self.draw_turning(frame, turning, analysis, theme);
                }
                self.draw_chart(frame, chart, analysis, theme);
                bar.add("↑↓", "move", Weight::Essential);
                bar.add("n", "next turning point", Weight::Useful);
                if self.copies() {
                    bar.add(
                        clipboard::LETTER.to_string(),
                        clipboard::LABEL,
                        Weight::Optional,
                    );
                }
                self.chosen.add_theme_key(&mut bar, "t");
            }
        }
        if let Some(note) = &self.note {
            frame.render_widget(Line::styled(note.clone(), theme.text), turning);
        }
        bar.add("?", "help", Weight::Useful);
        bar.add("q", "back", Weight::Essential);
        frame.render_widget(bar.line(keys.width, theme), keys);
    }

    fn draw_table(&self, frame: &mut Frame, area: Rect, analysis: &Analysis, theme: &Theme) {
        let names = self.record.names();
        let rules = self.record.rules();
        // the names take what the other columns leave, cut with `…` only
        // where the screen is narrower than they are
        let room = usize::from(area.width).saturating_sub(TABLE_COLUMNS);
        let width = names
            .iter()
            .map(|n| columns(n))
            .max()
            .unwrap_or(0)
            .clamp(PLAYER_HEADING.len(), room.max(PLAYER_HEADING.len()));
        let turning = analysis.turning_points();
        let rows = usize::from(area.height.saturating_sub(1));
        // the window of rows keeps the cursor in sight
        let first = self
            .selected
            .saturating_sub(rows.saturating_sub(1) / 2)
            .min(analysis.moves.len().saturating_sub(rows));
        let mut lines = vec![Line::styled(
            format!(
                "  {:>4} {:<width$} {:<3} {:<9} {:>6} {:>6} {:>4}",
                "move", PLAYER_HEADING, "pit", "best", "before", "after", "loss"
            ),
            theme.title,
        )];
        for (i, m) in analysis.moves.iter().enumerate().skip(first).take(rows) {
            let name = fit(names[m.side.index()], width);
            let is_turning = turning.contains(&i);
            let cursor = if i == self.selected { "▶" } else { " " };
            let mark = if is_turning { "▼" } else { " " };
            let text = format!(
                "{:>4} {name} {:<3} {:<9} {:>6} {:>6} {:>4}",
                m.ply,
                pit_text(rules, m),
                best_text(rules, m),
                value_text(m.before),
                value_text(m.after),
                loss_text(m),
            );
            let mut style = if is_turning { theme.error } else { theme.text };
            if i == self.selected {
                style = style.add_modifier(Modifier::REVERSED);
            }
            lines.push(Line::from(vec![
                Span::styled(format!("{cursor}{mark}"), style),
                Span::styled(text, style),
            ]));
        }
        frame.render_widget(Paragraph::new(lines), area);
    }

    fn draw_turning(&self, frame: &mut Frame, area: Rect, analysis: &Analysis, theme: &Theme) {
        let points = analysis.turning_points();
        let text = if points.is_empty() {
            "No turning point: no move lost anything.".to_string()
        } else {
            let items: Vec<String> = points
                .iter()
                .map(|&i| {
                    let m = &analysis.moves[i];
                    format!("move {} lost {}", m.ply, loss_text(m))
                })
                .collect();
            format!("▼ Turning points: {}", items.join(", "))
        };
        frame.render_widget(Line::styled(text, theme.title), area);
    }

    fn draw_chart(&self, frame: &mut Frame, area: Rect, analysis: &Analysis, theme: &Theme) {
        let names = self.record.names();
        let points: Vec<(f64, f64)> = analysis
            .south_values
            .iter()
            .enumerate()
            .map(|(i, v)| (i as f64, f64::from(v.value)))
            .collect();
        let last = points.len().saturating_sub(1).max(1) as f64;
        // ratatui spaces the labels evenly: with bounds symmetric about
        // 0, the middle one, "0", sits on the zero line
        let reach = analysis
            .south_values
            .iter()
            .map(|v| v.value.abs())
            .max()
            .unwrap_or(0)
            .max(1);
        let (lo, hi) = (-reach, reach);
        let zero = [(0.0, 0.0), (last, 0.0)];
        let cursor = [(
            (self.selected + 1) as f64,
            points.get(self.selected + 1).map_or(0.0, |p| p.1),
        )];
        let datasets = vec![
            Dataset::default()
                .marker(Marker::Dot)
                .graph_type(GraphType::Line)
                .style(theme.dim)
                .data(&zero),
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(theme.south)
                .data(&points),
            Dataset::default()
                .marker(Marker::Block)
                .graph_type(GraphType::Scatter)
                .style(theme.selected)
                .data(&cursor),
        ];
        // The caption goes above the plot: as the axis's title it was
        // drawn over the line's last points.
        let caption = Line::styled(
            format!("value for {} (South), move by move", names[0]),
            theme.dim,
        );
        let chart = Chart::new(datasets)
            .block(Block::new().title(caption))
            .x_axis(
                Axis::default()
                    .style(theme.dim)
                    .bounds([0.0, last])
                    .labels(["0".to_string(), format!("move {}", points.len() - 1)]),
            )
            .y_axis(
                Axis::default()
                    .style(theme.dim)
                    .bounds([f64::from(lo), f64::from(hi)])
                    .labels([format!("{lo:+}"), "0".to_string(), format!("{hi:+}")]),
            );
        frame.render_widget(chart, area);
    }
}

/// The analysis of the round from `start` with `moves` within `budget`
/// per position, the last position first, on the analysis thread: a sketch
/// at once and every [`SKETCH_EVERY`] after, and the progress after each
/// position, sent on `reports`.
fn analyse(
    start: crate::rules::GameRound,
    moves: &[crate::rules::Pit],
    budget: &PositionBudget,
    reports: &mpsc::Sender<Report>,
) -> Result<Analysis, String> {
    let mut analyser = RoundAnalyser::from_start(Analyst::new(), start);
    for (i, &pit) in moves.iter().enumerate() {
        analyser
            .push(pit)
            .map_err(|e| format!("move {} of the record: {e}", i + 1))?;
    }
    let _ = reports.send(Report::Sketch(analyser.sketch(SKETCH_NODES)));
    let mut sketched = Instant::now();
    while !analyser.work_one(budget) && !budget.stop.load(Ordering::Relaxed) {
        let (done, total) = analyser.progress();
        let _ = reports.send(Report::Progress(done, total));
        if sketched.elapsed() >= SKETCH_EVERY {
            let _ = reports.send(Report::Sketch(analyser.sketch(SKETCH_NODES)));
            sketched = Instant::now();
        }
    }
    Ok(analyser.analysis(budget))
}

impl Screen for AnalysisView {
    type Message = Input;
    type Effect = Prefs;

    fn update(&mut self, input: Input, _now: Instant) -> Vec<Prefs> {
        self.handle(&input);
        self.chosen.take_changed().into_iter().collect()
    }

    fn view(&self, frame: &mut Frame) {
        self.draw(frame, self.chosen.theme());
    }

    /// While a thread works for it: soon, to look at the thread again.
    fn next_wake(&self) -> Option<Instant> {
        (self.job.is_some() || self.watch.is_some() || self.sketching.is_some())
            .then(|| Instant::now() + POLL)
    }

    fn done(&self) -> bool {
        self.quit
    }

    /// The position line the key asked to copy, once.
    fn take_copy(&mut self) -> Option<String> {
        self.copied.take()
    }
}

/// The analysis of a round hosted by another screen (the game at a
/// round's end, the replay), the same way on both: started on its thread
/// the first time it is opened, kept when the viewer goes back so that
/// opening it again shows it at once. It is on screen exactly while its
/// view is not done: that is not stored twice.
#[derive(Default)]
pub struct HostedAnalysis {
    view: Option<AnalysisView>,
}

impl HostedAnalysis {
    /// Puts the analysis on screen with the host's `chosen` speed and
    /// theme: the analysis of `record` (only asked for the first time),
    /// followed by `watch` when it is worked out as the round was played,
    /// else within [`DEFAULT_THINK`] per position.
    pub fn open(&mut self, record: impl FnOnce() -> Record, watch: Option<Watch>, chosen: Chosen) {
        match &mut self.view {
            Some(view) => {
                view.reopen();
                *view.chosen() = chosen;
            }
            None => {
                self.view = Some(match watch {
                    Some(watch) => AnalysisView::watching(record(), watch, chosen),
                    None => AnalysisView::start(record(), DEFAULT_THINK, chosen),
                });
            }
        }
    }

    /// The analysis screen, while it is on screen.
    #[must_use]
    pub fn on_screen(&self) -> Option<&AnalysisView> {
        self.view.as_ref().filter(|view| !view.is_done())
    }

    /// `input` while the analysis is on screen goes there (`false`: it is
    /// not on screen). What `t` chooses there becomes the host's `chosen`
    /// at once (to be kept, and shown on the way back).
    pub fn input(&mut self, input: &Input, chosen: &mut Chosen) -> bool {
        let Some(view) = self.view.as_mut().filter(|view| !view.is_done()) else {
            return false;
        };
        view.handle(input);
        *chosen = *view.chosen();
        // Handed on: the host keeps it, once.
        view.chosen().take_changed();
        true
    }

    /// When the analysis on screen looks at its thread again.
    #[must_use]
    pub fn next_wake(&self) -> Option<Instant> {
        self.on_screen().and_then(AnalysisView::next_wake)
    }

    /// The position line the analysis's key asked to copy, once.
    pub fn take_copy(&mut self) -> Option<String> {
        self.view.as_mut().and_then(AnalysisView::take_copy)
    }
}

/// Analyses `record` full screen, within `think` per position, until the
/// viewer quits.
///
/// # Errors
/// When the terminal fails.
pub fn run(record: &Record, think: Duration) -> anyhow::Result<()> {
    let kept = Kept::load();
    let chosen = Chosen::for_run(None, kept.prefs);
    let mut view = AnalysisView::start(record.clone(), think, chosen);
    view.note.clone_from(&kept.problem);
    PrefsWorld::run(&mut view, kept)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEvent, KeyModifiers};

    /// The analysis of `view`, once done (not its sketch).
    fn done_analysis(view: &AnalysisView) -> Option<&Analysis> {
        match &view.analysis {
            Figures::Done(analysis) => Some(analysis),
            Figures::Nothing | Figures::Sketch(_) => None,
        }
    }

    /// A whole round of Kalah(4,3) with mistakes in it: the pits taken in
    /// turn from a fixed pattern, whichever are legal.
    fn record() -> Record {
        record_of("Alice", "Michael")
    }

    /// The same round between `south` and `north`.
    fn record_of(south: &str, north: &str) -> Record {
        let rules = crate::rules::Rules::new(4, 3).unwrap();
        let mut board = crate::rules::Board::new(rules);
        let mut letters = Vec::new();
        for choice in [0usize, 3, 1].into_iter().cycle() {
            if board.is_over() {
                break;
            }
            let legal: Vec<_> = board.legal_moves().collect();
            let pit = legal[choice % legal.len()];
            board.play(pit).unwrap();
            letters.push(rules.letter(pit).unwrap().to_string());
        }
        Record::parse(&format!(
            "mancala record 1\npits: 4\nseeds: 3\ncapture: always\nsowing: single\nsweep: owner\nsouth: {south}\nnorth: {north}\nstarter: south\nmoves: {}\n",
            letters.join(",")
        ))
        .unwrap()
    }

    fn analysed() -> AnalysisView {
        analysed_of(record())
    }

    fn analysed_of(record: Record) -> AnalysisView {
        let analysis = Analyst::new()
            .round_from(
                record.start_board(),
                &record.moves,
                &PositionBudget::default(),
                |_, _| {},
            )
            .unwrap();
        let total = analysis.south_values.len();
        let chosen = Chosen::unkept(None, Theme::monochrome());
        let mut view = AnalysisView::waiting(record, chosen, total);
        view.show_done(analysis);
        view
    }

    fn screen(view: &AnalysisView, width: u16, height: u16) -> String {
        crate::tui::game::testing::render_with(width, height, |f| {
            view.draw(f, &Theme::monochrome());
        })
    }

    fn press(view: &mut AnalysisView, code: KeyCode) {
        view.handle(&Input::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    #[test]
    fn the_screen_shows_the_moves_the_turning_points_and_the_chart() {
        let view = analysed();
        insta::assert_snapshot!(screen(&view, 80, 26));
    }

    #[test]
    fn the_table_gives_the_names_the_room_they_need() {
        // a computer's name, and a name of the most characters a name keeps
        let long = "Maximiliana Konstantinopoulou-Wellington";
        assert_eq!(long.chars().count(), crate::game::names::MAX_NAME_GRAPHEMES);
        let view = analysed_of(record_of("Computer (perfect)", long));
        let rows = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| {
                    l.trim_start_matches(['▶', '▼', ' '])
                        .starts_with(char::is_numeric)
                })
                .map(str::to_string)
                .collect()
        };
        for (width, height) in [(100, 30), (80, 24)] {
            let text = screen(&view, width, height);
            let rows = rows(&text);
            assert!(
                rows.iter().any(|r| r.contains(" Computer (perfect) ")),
                "{text}"
            );
            assert!(rows.iter().any(|r| r.contains(long)), "{text}");
            insta::assert_snapshot!(format!("long_names_at_{width}_by_{height}"), text);
        }
        // narrower than the names: cut, and said to be cut
        let text = screen(&view, MIN_WIDTH, 24);
        assert!(
            rows(&text)
                .iter()
                .any(|r| r.contains(" Maximiliana Konstan… ")),
            "{text}"
        );
    }

    #[test]
    fn turning_points_are_marked_by_a_sign_not_only_a_style() {
        let mut view = analysed();
        let points = done_analysis(&view).unwrap().turning_points();
        assert!(!points.is_empty(), "the record has mistakes");
        // from the last move, `n` goes round to the first turning point
        press(&mut view, KeyCode::End);
        press(&mut view, KeyCode::Char('n'));
        let mut sorted = points.clone();
        sorted.sort_unstable();
        assert_eq!(view.selected, sorted[0]);
        let text = screen(&view, 80, 26);
        let ply = done_analysis(&view).unwrap().moves[sorted[0]].ply;
        let row = text
            .lines()
            .find(|l| l.starts_with("▶▼"))
            .unwrap_or_else(|| panic!("a cursor row marked ▼:\n{text}"));
        assert_eq!(
            row.trim_start_matches(['▶', '▼']).split_whitespace().next(),
            Some(ply.to_string().as_str()),
            "{row}"
        );
        press(&mut view, KeyCode::Char('q'));
        assert!(view.is_done());
    }

    #[test]
    fn the_thread_reports_progress_then_the_analysis() {
        let record = record();
        let chosen = Chosen::unkept(None, Theme::monochrome());
        let mut view = AnalysisView::start(record.clone(), Duration::from_secs(5), chosen);
        assert!(screen(&view, 80, 26).contains("Analysing the round"));
        let t0 = Instant::now();
        while done_analysis(&view).is_none() && t0.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
            view.handle(&Input::Tick);
        }
        assert!(view.next_wake().is_none(), "nothing more to wait for");
        let expected = analysed();
        assert_eq!(done_analysis(&view), done_analysis(&expected));
    }

    /// The screen of `view` once its sketch is drawn (at most 20 s).
    fn sketched(view: &mut AnalysisView) -> String {
        let t0 = Instant::now();
        while !matches!(view.analysis, Figures::Sketch(_)) && t0.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(5));
            view.handle(&Input::Tick);
        }
        screen(view, 80, 26)
    }

    /// A long analysis (a big board, a second a position) shows every move
    /// at once as a sketch, marked as estimates, and not as the analysis
    /// done; leaving the screen stops it.
    #[test]
    fn a_long_analysis_shows_its_figures_at_once_as_a_sketch() {
        let record = Record::parse(
            "mancala record 1\npits: 6\nseeds: 6\ncapture: always\nsowing: single\nsweep: owner\nsouth: Alice\nnorth: Michael\nstarter: south\nmoves: c,h,a,k\n",
        )
        .unwrap();
        let chosen = Chosen::unkept(None, Theme::monochrome());
        let mut view = AnalysisView::start(record, Duration::from_secs(60), chosen);
        let text = sketched(&mut view);
        assert!(text.contains("≈ estimates for now"), "{text}");
        for ply in 1..=4 {
            let row = text
                .lines()
                .find(|l| {
                    let words = l.trim_start_matches(['▶', '▼', ' ']);
                    words.split_whitespace().next() == Some(&ply.to_string())
                })
                .unwrap_or_else(|| panic!("move {ply} in\n{text}"));
            assert!(row.contains('≈'), "an estimate: {row}");
        }
        assert_eq!(done_analysis(&view), None, "a sketch is not the analysis");
        assert!(view.next_wake().is_some(), "the analysis goes on");
        // the same for an analysis worked out as the round was played
        let mut live =
            crate::analysis::live::LiveAnalysis::start(Duration::from_secs(60)).expect("a thread");
        let record = view.record.clone();
        live.follow(record.start_board(), &record.moves);
        let mut view = AnalysisView::watching(record, live.watch(), chosen);
        let text = sketched(&mut view);
        assert!(text.contains("≈ estimates for now"), "{text}");
        assert_eq!(done_analysis(&view), None, "a sketch is not the analysis");
    }

    #[test]
    fn with_no_color_set_the_key_bar_offers_no_colours_key() {
        let mut view = analysed();
        assert!(screen(&view, 80, 26).contains("t colours"));
        let kept = crate::tui::prefs::Prefs {
            seed_delay: None,
            palette: Theme::monochrome().palette(),
        };
        view.chosen = Chosen::new(None, Theme::monochrome(), kept, true);
        let text = screen(&view, 80, 26);
        assert!(!text.contains("colours"), "{text}");
    }

    /// `?` opens the shared help page (it names `t` only without
    /// `NO_COLOR`); the arrows scroll it to its last line on a small
    /// screen; any other key closes it without acting behind it.
    #[test]
    fn question_mark_shows_the_help_and_any_other_key_closes_it() {
        let mut view = analysed();
        assert!(screen(&view, 80, 26).contains("? help"));
        press(&mut view, KeyCode::Char('?'));
        let help = screen(&view, 80, 26);
        assert!(help.contains("Analysis — help"), "{help}");
        assert!(help.contains("next turning point"), "{help}");
        assert!(help.contains("colours or black and white"), "{help}");
        // A small screen: scrolled down to its last line.
        let small = screen(&view, 60, 12);
        assert!(!small.contains("q Esc"), "{small}");
        for _ in 0..50 {
            press(&mut view, KeyCode::Down);
        }
        let bottom = screen(&view, 60, 12);
        assert!(
            bottom.lines().nth(10).unwrap().contains("q Esc"),
            "{bottom}"
        );
        assert_eq!(
            view.selected, 0,
            "the arrows scroll the help, not the moves"
        );
        press(&mut view, KeyCode::Char('q'));
        assert!(!view.is_done(), "q closes the help only");
        assert!(screen(&view, 80, 26).contains("Analysis of round"));
        press(&mut view, KeyCode::Char('?'));
        press(&mut view, KeyCode::Char('n'));
        assert_eq!(view.selected, 0, "n closed the help, moved nothing");
        let kept = crate::tui::prefs::Prefs {
            seed_delay: None,
            palette: Theme::monochrome().palette(),
        };
        view.chosen = Chosen::new(None, Theme::monochrome(), kept, true);
        press(&mut view, KeyCode::Char('?'));
        let help = screen(&view, 80, 26);
        assert!(!help.contains("colours"), "{help}");
    }

    /// The mouse wheel over an open help scrolls the help (to its last
    /// line on a small screen), never the moves behind it.
    #[test]
    fn the_wheel_scrolls_an_open_help_not_the_moves() {
        let mut view = analysed();
        press(&mut view, KeyCode::Char('?'));
        let top = screen(&view, 60, 12);
        assert!(!top.contains("q Esc"), "{top}");
        for _ in 0..50 {
            view.handle(&Input::Scroll(1));
        }
        assert_eq!(view.selected, 0, "the wheel moved no move behind the help");
        let bottom = screen(&view, 60, 12);
        assert!(bottom.contains("q Esc"), "scrolled to the end:\n{bottom}");
        for _ in 0..50 {
            view.handle(&Input::Scroll(-1));
        }
        assert_eq!(screen(&view, 60, 12), top, "scrolled back to the top");
        press(&mut view, KeyCode::Esc);
        view.handle(&Input::Scroll(1));
        assert_eq!(view.selected, 1, "with the help closed the wheel moves on");
    }

    /// The help explains every mark the table draws: the cursor, the
    /// turning points, the extra turn and the best pits left unlisted.
    #[test]
    fn the_help_explains_the_tables_marks() {
        let mut view = analysed();
        press(&mut view, KeyCode::Char('?'));
        let help = screen(&view, 100, 40);
        for mark in [
            "▶ marks the move chosen",
            "▼ marks a turning point",
            "A + after",
            "… after",
        ] {
            assert!(help.contains(mark), "{mark}:\n{help}");
        }
    }

    #[test]
    fn the_charts_caption_has_a_line_of_its_own() {
        let text = screen(&analysed(), 80, 26);
        let caption = text
            .lines()
            .find(|l| l.contains("value for Alice (South)"))
            .unwrap_or_else(|| panic!("a caption:\n{text}"));
        assert!(
            !caption
                .chars()
                .any(|c| ('\u{2800}'..='\u{28ff}').contains(&c) || c == '█'),
            "nothing is plotted on the caption's line: {caption}"
        );
    }

    #[test]
    fn the_zero_label_sits_on_the_zero_line() {
        let mut view = analysed();
        // a lopsided round: +10 at best, -22 at worst
        let Figures::Done(analysis) = &mut view.analysis else {
            panic!("analysed");
        };
        let values = &mut analysis.south_values;
        let n = values.len();
        for (i, v) in values.iter_mut().enumerate() {
            let value = if i < n / 3 { 10 } else { -22 };
            *v = crate::analysis::Valuation::exact(value);
        }
        // every height: the plot's rows odd or even in number
        for height in 20..=40 {
            let text = screen(&view, 80, height);
            let zero = text
                .lines()
                .find(|l| {
                    l.trim_start()
                        .strip_prefix('0')
                        .is_some_and(|rest| rest.trim_start().starts_with('│'))
                })
                .unwrap_or_else(|| panic!("a row labelled 0:\n{text}"));
            assert!(zero.contains('•'), "the zero line on the 0 row:\n{text}");
        }
    }

    #[test]
    fn c_copies_the_position_the_chosen_move_was_played_in() {
        let mut view = analysed();
        assert!(screen(&view, 80, 26).contains("c copy position"));
        press(&mut view, KeyCode::Down);
        press(&mut view, KeyCode::Down);
        press(&mut view, KeyCode::Char('c'));
        let line = view.take_copy().expect("a line to copy");
        assert_eq!(view.take_copy(), None, "handed over once");
        let boards = view.record.stepper().unwrap().boards().to_vec();
        let position: crate::rules::Position = line.parse().unwrap();
        assert_eq!(position.kalah(), Some(&boards[2]), "before move 3");
        let text = screen(&view, 120, 26);
        assert!(text.contains(&format!("Position: {line}")), "{text}");
        press(&mut view, KeyCode::Char('?'));
        assert!(screen(&view, 100, 40).contains("one-line notation; copied where OSC 52 works"));
    }

    #[test]
    fn a_small_window_says_what_it_needs() {
        let view = analysed();
        let text = screen(&view, 40, 10);
        assert!(text.contains("The analysis needs 60×20"), "{text}");
    }
}
