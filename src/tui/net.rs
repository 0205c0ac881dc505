//! The network game full screen, on the [one screen loop](crate::tui::screen).
//!
//! The other player is a turn source like any other: the screen shows
//! what [`crate::net::play`] says (the same words as plain mode) and
//! animates each confirmed move seed by seed with the game's
//! [`Animation`] and [`BoardView`]. Keys become the same answers plain
//! mode reads: a pit letter or number, `u`, `q`, `?`, `y`/`n`. The
//! network threads answer through [`NetWorld`], which the loop polls.

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::game::{Match, console, match_score};
use crate::net::play::{
    HostGame, HostIn, HostSetup, JoinGame, JoinIn, JoinSetup, LineInput as Typed, Show, names,
};
use crate::rules::{Played, Side, Step};
use crate::tui::animation::{Animation, caption};
use crate::tui::chrome::{KeyBar, Weight, draw_too_small};
use crate::tui::digits::{DIGIT_WAIT, DigitEntry, Entered};
use crate::tui::input::{Input, chord_name};
use crate::tui::layout::ScreenLayout;
use crate::tui::prefs::Chosen;
use crate::tui::screen::{Screen, World};
use crate::tui::text;
use crate::tui::theme::Theme;
use crate::tui::widgets::board::BoardView;

/// Lines of news kept.
const LOG_LENGTH: usize = 60;

/// What the network game says, in order, for the screen to show.
#[derive(Clone, Debug)]
pub enum Shown {
    /// A line of news.
    Say(String),
    /// What the player may do now.
    Prompt(String),
    /// The match as it stands.
    Board(Box<Match>),
    /// A confirmed move: the counts before it, the match after it.
    Moved {
        /// Every count before the move.
        before: Vec<u16>,
        /// The match after it.
        after: Box<Match>,
        /// Who moved.
        mover: Side,
        /// Each seed, for the animation.
        steps: Vec<Step>,
    },
    /// The program ends with this code.
    Ended(u8),
}

/// The [`Show`] of the full screen: it collects what is said for the
/// world to hand to the screen.
#[derive(Debug, Default)]
pub struct Feed {
    shown: Vec<Shown>,
    last: Option<Vec<u16>>,
}

impl Show for Feed {
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.shown.push(Shown::Say(text.to_string()));
        Ok(())
    }

    fn prompt(&mut self, text: &str) -> io::Result<()> {
        self.shown.push(Shown::Prompt(text.trim_end().to_string()));
        Ok(())
    }

    fn echo(&mut self, _: &str) -> io::Result<()> {
        Ok(())
    }

    fn board(&mut self, m: &Match) -> io::Result<()> {
        self.last = Some(m.board().counts().to_vec());
        self.shown.push(Shown::Board(Box::new(m.clone())));
        Ok(())
    }

    fn moved(&mut self, m: &Match, played: &Played, steps: &[Step]) -> io::Result<()> {
        let after = m.board().counts().to_vec();
        let before = self.last.replace(after).unwrap_or_else(|| {
            // Never seen a board: start from the one the steps lead back to.
            m.board().counts().to_vec()
        });
        self.shown.push(Shown::Say(format!(
            "{} played {}.",
            m.name(played.mover),
            m.rules().letter(played.pit).unwrap_or('?')
        )));
        self.shown.push(Shown::Moved {
            before,
            after: Box::new(m.clone()),
            mover: played.mover,
            steps: steps.to_vec(),
        });
        Ok(())
    }
}

/// The network game's screen. See the [module docs](self).
pub struct NetScreen {
    theme: Theme,
    me: Side,
    seed_delay: Option<Duration>,
    size: Rect,
    /// The match as shown (after the last finished animation).
    game: Option<Match>,
    animation: Option<Animation>,
    /// What is still to show, in order (behind an animation).
    queue: VecDeque<Shown>,
    log: VecDeque<String>,
    prompt: String,
    ended: Option<u8>,
    help: bool,
    /// Digits typed towards a pit number of two digits (10- and 12-pit
    /// boards), as in the game.
    digits: DigitEntry,
    /// What the digits typed so far mean, while a second may follow.
    entry: Option<String>,
}

/// Everything that can happen to the network screen.
#[derive(Clone, Debug)]
pub enum Message {
    /// A key, click, resize or tick.
    Input(Input),
    /// What the network game said.
    Shown(Shown),
}

impl From<Input> for Message {
    fn from(input: Input) -> Message {
        Message::Input(input)
    }
}

/// What the screen asks of the network game: a line typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typing(pub String);

impl NetScreen {
    /// A screen for the player of `me`.
    #[must_use]
    pub fn new(me: Side, seed_delay: Option<Duration>, theme: Theme) -> NetScreen {
        NetScreen {
            theme,
            me,
            seed_delay,
            size: Rect::new(0, 0, 80, 24),
            game: None,
            animation: None,
            queue: VecDeque::new(),
            log: VecDeque::new(),
            prompt: String::new(),
            ended: None,
            help: false,
            digits: DigitEntry::default(),
            entry: None,
        }
    }

    /// The exit code, once the game has ended.
    #[must_use]
    pub fn ended(&self) -> Option<u8> {
        self.ended
    }

    /// The news so far, oldest first.
    pub fn log(&self) -> impl Iterator<Item = &str> {
        self.log.iter().map(String::as_str)
    }

    fn note(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        self.log.push_back(text);
        while self.log.len() > LOG_LENGTH {
            self.log.pop_front();
        }
    }

    /// Shows what is queued, up to the next animation.
    fn show_queue(&mut self, now: Instant) {
        if let Some(animation) = &mut self.animation {
            animation.advance(now);
            if !animation.is_done(now) {
                return;
            }
            self.animation = None;
        }
        while let Some(shown) = self.queue.pop_front() {
            match shown {
                Shown::Say(text) => self.note(text),
                Shown::Prompt(text) => self.prompt = text,
                Shown::Board(m) => self.game = Some(*m),
                Shown::Ended(code) => self.ended = Some(code),
                Shown::Moved {
                    before,
                    after,
                    mover: _,
                    steps,
                } => {
                    self.game = Some(*after);
                    self.prompt.clear();
                    if let Some(delay) = self.seed_delay {
                        self.animation = Some(Animation::new(&before, steps, delay, now));
                        return;
                    }
                }
            }
        }
    }

    /// Pits per side on the board shown (6 before the first board).
    fn pits(&self) -> usize {
        self.game.as_ref().map_or(6, |game| game.rules().pits())
    }

    /// Closes the help or shows the rest of a move, if either is up: what
    /// any key or click does first. Whether it did.
    fn dismiss(&mut self) -> bool {
        if self.help {
            self.help = false;
            return true;
        }
        if let Some(animation) = &mut self.animation {
            animation.finish();
            return true;
        }
        false
    }

    fn on_key(&mut self, code: KeyCode, now: Instant) -> Vec<Typing> {
        if self.dismiss() {
            return Vec::new();
        }
        // Pit numbers as in the game: 1 on a 12-pit board waits a moment
        // (or Enter) for a second digit; 0 is the tenth pit.
        let pits = self.pits();
        self.entry = None;
        match self.digits.key(code, pits, Some(DIGIT_WAIT), now) {
            Entered::Complete(number) | Entered::OutOfRange(number) => {
                return vec![Typing(number.to_string())];
            }
            Entered::Zero => return vec![Typing(if pits >= 10 { "10" } else { "0" }.into())],
            Entered::Waiting(first) => {
                let last = pits.min(first * 10 + 9);
                self.entry = Some(format!(
                    "{first}… a second digit for pits {}-{last}; Enter or a moment's wait plays pit {first}.",
                    first * 10
                ));
                return Vec::new();
            }
            Entered::Cleared => return Vec::new(),
            Entered::NotADigit => {}
        }
        match code {
            KeyCode::Char('?') => {
                self.help = true;
                Vec::new()
            }
            KeyCode::Char(c) if c.is_ascii_alphanumeric() => vec![Typing(c.to_string())],
            KeyCode::Esc => vec![Typing("q".into())],
            _ => Vec::new(),
        }
    }

    /// A click on a pit types its letter (the game then plays it or says
    /// why not); any click closes the help or shows the rest of a move.
    fn on_click(&mut self, position: Position) -> Vec<Typing> {
        self.digits.clear();
        self.entry = None;
        if self.dismiss() {
            return Vec::new();
        }
        let Some(game) = &self.game else {
            return Vec::new();
        };
        let rules = game.rules();
        let Ok(layout) = ScreenLayout::new(self.size, rules) else {
            return Vec::new();
        };
        layout
            .geometry()
            .hit(position)
            .and_then(|pit| rules.letter(pit))
            .map(|letter| Typing(letter.to_string()))
            .into_iter()
            .collect()
    }

    fn draw_text(&self, frame: &mut Frame, area: Rect) {
        let width = usize::from(area.width.max(1));
        let mut rows: Vec<Line> = Vec::new();
        for line in &self.log {
            rows.extend(
                text::wrap(line, width, 2)
                    .into_iter()
                    .map(|row| Line::styled(row, self.theme.text)),
            );
        }
        for line in [Some(&self.prompt), self.entry.as_ref()]
            .into_iter()
            .flatten()
        {
            rows.extend(
                text::wrap(line, width, 2)
                    .into_iter()
                    .map(|row| Line::styled(row, self.theme.title)),
            );
        }
        let skip = rows.len().saturating_sub(usize::from(area.height));
        let shown: Vec<Line> = rows.into_iter().skip(skip).collect();
        frame.render_widget(Paragraph::new(shown), area);
    }
}

impl Screen for NetScreen {
    type Message = Message;
    type Effect = Typing;

    fn update(&mut self, message: Message, now: Instant) -> Vec<Typing> {
        let typed = match message {
            Message::Shown(shown) => {
                self.queue.push_back(shown);
                Vec::new()
            }
            Message::Input(Input::Key(key)) => self.on_key(key.code, now),
            Message::Input(Input::Click(position)) => self.on_click(position),
            Message::Input(Input::Tick) => match self.digits.expired(now) {
                Some(number) => {
                    self.entry = None;
                    vec![Typing(number.to_string())]
                }
                None => Vec::new(),
            },
            Message::Input(Input::Interrupt) => vec![Typing("q".into())],
            Message::Input(Input::Chord(key)) => {
                self.note(format!("{} does nothing here.", chord_name(key)));
                Vec::new()
            }
            Message::Input(Input::Resize(w, h)) => {
                self.size = Rect::new(0, 0, w, h);
                Vec::new()
            }
            Message::Input(_) => Vec::new(),
        };
        self.show_queue(now);
        typed
    }

    fn view(&self, frame: &mut Frame) {
        let area = frame.area();
        let Some(game) = &self.game else {
            self.draw_text(frame, area);
            return;
        };
        let Ok(layout) = ScreenLayout::new(area, game.rules()) else {
            // The one too-small screen, with what the game asks now.
            let need = ScreenLayout::minimum(game.rules());
            let question = (!self.prompt.is_empty()).then_some(self.prompt.as_str());
            draw_too_small(
                frame,
                area,
                (need.width, need.height),
                "This board",
                question,
                &self.theme,
            );
            return;
        };
        let t = game.tally();
        let [s, n] = names(game);
        let me = game.name(self.me);
        frame.render_widget(
            Line::from(vec![
                Span::styled(format!(" Round {} ", game.round()), self.theme.title),
                Span::styled(
                    format!(
                        "  Match: {}   (network: you are {me})",
                        match_score(t, [s, n])
                    ),
                    self.theme.text,
                ),
            ]),
            layout.header(),
        );
        frame.render_widget(
            Line::styled(game.rules().to_string(), self.theme.dim),
            layout.rules(),
        );
        let counts = self
            .animation
            .as_ref()
            .map_or(game.board().counts(), |a| a.counts());
        let caption_text = self
            .animation
            .as_ref()
            .map(|a| caption(a, names(game), game.rules()))
            .unwrap_or_default();
        let view = BoardView::new(
            game.rules(),
            counts,
            names(game),
            game.board().score(),
            &self.theme,
        )
        .to_move(
            (self.animation.is_none() && game.outcome().is_none()).then(|| game.board().to_move()),
        )
        .sowing(self.animation.as_ref())
        .caption(Line::styled(caption_text, self.theme.dim));
        frame.render_widget(&view, layout.board());
        if self.help {
            frame.render_widget(
                Paragraph::new(format!(
                    "Type a pit letter ({}) or number {} on your turn, or click a pit; u asks to take back the last move; y/n answer questions; q leaves (the match stays saved on the host). Any key closes this help.",
                    game.rules().letter_range(self.me),
                    game.rules().number_range()
                ))
                .wrap(Wrap { trim: true }),
                layout.bottom(),
            );
        } else {
            self.draw_text(frame, layout.bottom());
        }
        let mut keys = KeyBar::new();
        keys.add(
            game.rules().letter_range(self.me),
            "play",
            Weight::Essential,
        );
        keys.add("u", "take back", Weight::Useful);
        keys.add("y/n", "answer", Weight::Useful);
        keys.add("?", "help", Weight::Essential);
        keys.add("q", "leave", Weight::Essential);
        frame.render_widget(keys.line(layout.keys().width, &self.theme), layout.keys());
    }

    fn next_wake(&self) -> Option<Instant> {
        let frame = self.animation.as_ref().and_then(Animation::next_frame_at);
        [frame, self.digits.due()].into_iter().flatten().min()
    }

    fn done(&self) -> bool {
        self.ended.is_some() && self.animation.is_none() && self.queue.is_empty()
    }
}

/// The theme kept in the preferences (`NO_COLOR` still wins).
/// The network screen's speed and theme for a run: the speed given on the
/// command line (`given`), else the one kept in the preferences file, as
/// in the game, solitaire and the replay; the kept theme.
fn chosen(given: Option<Option<Duration>>) -> Chosen {
    Chosen::for_run(given, crate::tui::prefs::Kept::load().prefs)
}

/// One end of the network game, as the screen's world drives it.
pub trait NetEngine {
    /// Hands a typed line to the game; `Some` ends it.
    ///
    /// # Errors
    /// What ends the program with an error.
    fn typed(&mut self, line: String) -> anyhow::Result<Option<ExitCode>>;
    /// Handles what arrived from the network; `Some` ends the game.
    ///
    /// # Errors
    /// What ends the program with an error.
    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>>;
    /// What was said since the last call.
    fn drain(&mut self) -> Vec<Shown>;
}

/// The host's end.
pub struct HostEngine {
    game: HostGame<Feed>,
    rx: mpsc::Receiver<HostIn>,
}

impl NetEngine for HostEngine {
    fn typed(&mut self, line: String) -> anyhow::Result<Option<ExitCode>> {
        self.game.handle(HostIn::Input(Typed::Line(line)))
    }

    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>> {
        while let Ok(event) = self.rx.try_recv() {
            if let Some(code) = self.game.handle(event)? {
                return Ok(Some(code));
            }
        }
        self.game.tick()?;
        Ok(None)
    }

    fn drain(&mut self) -> Vec<Shown> {
        std::mem::take(&mut self.game.show_mut().shown)
    }
}

/// The joiner's end.
pub struct JoinEngine {
    game: JoinGame<Feed>,
    rx: mpsc::Receiver<JoinIn>,
}

impl NetEngine for JoinEngine {
    fn typed(&mut self, line: String) -> anyhow::Result<Option<ExitCode>> {
        Ok(self.game.handle(JoinIn::Input(Typed::Line(line)))?)
    }

    fn poll(&mut self) -> anyhow::Result<Option<ExitCode>> {
        while let Ok(event) = self.rx.try_recv() {
            if let Some(code) = self.game.handle(event)? {
                return Ok(Some(code));
            }
        }
        Ok(self.game.tick()?)
    }

    fn drain(&mut self) -> Vec<Shown> {
        std::mem::take(&mut self.game.show_mut().shown)
    }
}

/// Carries the screen's typing to the network game and brings back what
/// it says.
pub struct NetWorld<E> {
    engine: E,
    ended: bool,
}

impl<E: NetEngine> NetWorld<E> {
    fn settle(&mut self, result: anyhow::Result<Option<ExitCode>>, answers: &mut Vec<Message>) {
        let mut shown = self.engine.drain();
        match result {
            Ok(None) => {}
            Ok(Some(code)) => {
                self.ended = true;
                let code = if code == ExitCode::SUCCESS { 0 } else { 1 };
                shown.push(Shown::Ended(code));
            }
            Err(e) => {
                self.ended = true;
                shown.push(Shown::Say(format!("mancala: {e:#}")));
                shown.push(Shown::Ended(1));
            }
        }
        answers.extend(shown.into_iter().map(Message::Shown));
    }
}

impl<E: NetEngine> World<NetScreen> for NetWorld<E> {
    fn perform(&mut self, effect: Typing, answers: &mut Vec<Message>) {
        if self.ended {
            return;
        }
        let result = self.engine.typed(effect.0);
        self.settle(result, answers);
    }

    fn poll(&mut self, answers: &mut Vec<Message>) {
        if self.ended {
            return;
        }
        let result = self.engine.poll();
        self.settle(result, answers);
    }

    fn busy(&self) -> bool {
        !self.ended
    }
}

/// Runs the screen until the game ends, then prints the last news on the
/// normal screen.
fn run_screen<E: NetEngine>(mut screen: NetScreen, engine: E) -> anyhow::Result<ExitCode> {
    let mut world = NetWorld {
        engine,
        ended: false,
    };
    let mut first = Vec::new();
    world.settle(Ok(None), &mut first);
    for message in first {
        screen.update(message, Instant::now());
    }
    crate::tui::screen::run(&mut screen, &mut world)?;
    let last: Vec<&str> = screen.log().collect();
    for line in &last[last.len().saturating_sub(3)..] {
        console::say(line);
    }
    Ok(match screen.ended() {
        Some(0) | None => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(code),
    })
}

/// Runs `mancala host` full screen, sowing at the speed `given` on the
/// command line (see [`SpeedArgs::given`](crate::cli::SpeedArgs::given)),
/// else at the kept one.
///
/// # Errors
/// When the port cannot be listened on, or the terminal fails.
pub fn host(setup: HostSetup, given: Option<Option<Duration>>) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel();
    let look = chosen(given);
    let game = HostGame::new(setup, Feed::default(), tx)?;
    run_screen(
        NetScreen::new(
            crate::net::referee::HOST_SIDE,
            look.seed_delay(),
            *look.theme(),
        ),
        HostEngine { game, rx },
    )
}

/// Runs `mancala join` full screen, sowing at the speed `given` on the
/// command line, else at the kept one.
///
/// # Errors
/// When the terminal fails.
pub fn join(setup: JoinSetup, given: Option<Option<Duration>>) -> anyhow::Result<ExitCode> {
    let (tx, rx) = mpsc::channel();
    let look = chosen(given);
    let game = match JoinGame::connect(setup, Feed::default(), tx)? {
        Ok(game) => game,
        Err((feed, code)) => {
            // Not connected: say why on the normal screen.
            for shown in feed.shown {
                if let Shown::Say(text) = shown {
                    console::say(text);
                }
            }
            return Ok(code);
        }
    };
    run_screen(
        NetScreen::new(
            crate::net::referee::JOINER_SIDE,
            look.seed_delay(),
            *look.theme(),
        ),
        JoinEngine { game, rx },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat};
    use crate::players::PlayerKind;
    use crate::rules::Rules;
    use crossterm::event::{KeyEvent, KeyModifiers};

    /// The host's screen (South) showing a fresh match of `pits` pits.
    fn screen(pits: usize) -> NetScreen {
        let mut screen = NetScreen::new(Side::South, None, Theme::monochrome());
        let config = MatchConfig {
            rules: Rules::KALAH.with_pits(pits).unwrap(),
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Human),
            ],
            first: FirstMover::South,
        };
        let game = Match::new(config, 1);
        screen.update(Message::Shown(Shown::Board(Box::new(game))), Instant::now());
        screen
    }

    fn key(screen: &mut NetScreen, c: char, now: Instant) -> Vec<Typing> {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        screen.update(Message::Input(Input::Key(key)), now)
    }

    fn typed(text: &str) -> Vec<Typing> {
        vec![Typing(text.to_string())]
    }

    #[test]
    fn two_digit_pits_are_typed_as_in_the_game() {
        let t0 = Instant::now();
        let mut twelve = screen(12);
        assert!(key(&mut twelve, '1', t0).is_empty(), "1 may start 10-12");
        assert_eq!(twelve.next_wake(), Some(t0 + DIGIT_WAIT));
        assert_eq!(key(&mut twelve, '1', t0), typed("11"));
        // 1 alone: played once the moment has passed.
        assert!(key(&mut twelve, '1', t0).is_empty());
        assert!(
            twelve
                .update(Message::Input(Input::Tick), t0 + DIGIT_WAIT / 2)
                .is_empty()
        );
        assert_eq!(
            twelve.update(Message::Input(Input::Tick), t0 + DIGIT_WAIT),
            typed("1")
        );
        assert_eq!(key(&mut twelve, '0', t0), typed("10"), "0 is the tenth pit");
        assert_eq!(key(&mut twelve, '5', t0), typed("5"));
        // A six-pit board plays each digit at once, as before.
        let mut six = screen(6);
        assert_eq!(key(&mut six, '1', t0), typed("1"));
        assert_eq!(key(&mut six, 'c', t0), typed("c"));
    }

    #[test]
    fn a_click_on_a_pit_types_its_letter() {
        let t0 = Instant::now();
        let mut screen = screen(6);
        screen.update(Message::Input(Input::Resize(80, 24)), t0);
        let layout = ScreenLayout::new(Rect::new(0, 0, 80, 24), &Rules::KALAH).unwrap();
        let d = layout
            .geometry()
            .cell(Rules::KALAH.pit_by_letter('d').unwrap());
        let click = Position::new(d.x + 1, d.y + 1);
        assert_eq!(
            screen.update(Message::Input(Input::Click(click)), t0),
            typed("d")
        );
        let store = layout.geometry().cell(Rules::KALAH.store(Side::South));
        let click = Position::new(store.x + 1, store.y + 1);
        assert!(
            screen
                .update(Message::Input(Input::Click(click)), t0)
                .is_empty(),
            "a store is no move"
        );
    }

    fn render(screen: &NetScreen, width: u16, height: u16) -> String {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| screen.view(frame)).unwrap();
        format!("{:?}", terminal.backend())
    }

    #[test]
    fn the_shared_too_small_screen_and_key_bar() {
        let t0 = Instant::now();
        let mut screen = screen(6);
        screen.update(
            Message::Shown(Shown::Prompt("Alice, choose a pit (a-f):".into())),
            t0,
        );
        let small = render(&screen, 36, 10);
        assert!(small.contains("Terminal too small"), "{small}");
        assert!(
            small.contains("choose a pit"),
            "the prompt stays in sight: {small}"
        );
        let full = render(&screen, 80, 24);
        assert!(full.contains("a-f play  u take back"), "{full}");
        assert!(
            full.contains("Match: Alice 0 – 0 Michael, 0 draws"),
            "the one wording of the match score: {full}"
        );
    }
}
