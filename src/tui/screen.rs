//! One screen loop for every full-screen view (the game, solitaire, the
//! replay, and any later one), in The Elm Architecture's shape:
//!
//! - a screen is a model with a message type for everything that can
//!   happen to it ([`Screen::Message`], which every terminal [`Input`]
//!   converts into);
//! - [`Screen::update`] changes the model and returns *effects*: what the
//!   outside world should do (save the match, ask the computer, ...);
//! - [`Screen::view`] draws the model, and nothing else;
//! - a [`World`] carries effects out and brings back what they answer (a
//!   computer's move, a network peer's move) as more messages.
//!
//! # Plugging in a new screen
//! 1. Write the model and a `Message` enum with a `From<Input>` conversion
//!    (keys, clicks, resizes and [`Input::Tick`] arrive that way; key
//!    presses only, Ctrl/Alt chords already told apart).
//! 2. Implement [`Screen`]: `update` never blocks and never touches the
//!    terminal or the disk; it returns effects instead. `next_wake` says
//!    when the picture changes by itself (animation), so the loop sleeps
//!    until then; `done` ends the loop.
//! 3. Implement [`World`] for whatever carries out the effects: `perform`
//!    runs one effect (it may answer at once by pushing messages), `poll`
//!    picks up answers that arrived meanwhile (from a thread or a socket)
//!    without waiting, and `busy` asks the loop to look again soon.
//! 4. Call [`run`]: it enters full screen ([`FullScreen`]), loops, and
//!    restores the terminal on every way out (quit, error, panic, signal).
//!
//! The loop polls the terminal with a timeout, so animation needs no
//! thread of its own.

use std::io;
use std::time::{Duration, Instant};

use crossterm::event;
use ratatui::{DefaultTerminal, Frame};

use crate::tui::input::Input;
use crate::tui::terminal::{FullScreen, SIGNAL_TICK, resumed, suspend, terminated};

/// How long to wait for input when nothing else is due (the loop still
/// wakes every [`SIGNAL_TICK`] to notice a termination signal).
const IDLE: Duration = Duration::from_secs(60);
/// How often to look for answers while the world is busy (and for the
/// network, by a network match's screen).
pub const WHILE_BUSY: Duration = Duration::from_millis(20);

/// A full-screen view. See the [module docs](self).
pub trait Screen {
    /// Everything that can happen to this screen.
    type Message: From<Input>;
    /// What this screen asks the outside world to do.
    type Effect;

    /// Reacts to one message at time `now`; returns what to do outside.
    fn update(&mut self, message: Self::Message, now: Instant) -> Vec<Self::Effect>;

    /// Draws the model.
    fn view(&self, frame: &mut Frame);

    /// When the picture changes next without input (`None`: only on input).
    fn next_wake(&self) -> Option<Instant>;

    /// Whether the screen is finished (the player quit).
    fn done(&self) -> bool;

    /// Text the screen asked, since the last call, to be copied to the
    /// terminal's clipboard (the loop writes it as OSC 52, see
    /// [`crate::tui::clipboard`]).
    fn take_copy(&mut self) -> Option<String> {
        None
    }
}

/// Carries out a screen's effects. See the [module docs](self).
pub trait World<S: Screen> {
    /// Does `effect`; answers that come at once go into `answers`.
    fn perform(&mut self, effect: S::Effect, answers: &mut Vec<S::Message>);

    /// Answers that arrived since the last call, without waiting.
    fn poll(&mut self, answers: &mut Vec<S::Message>);

    /// Whether answers are awaited (the loop then looks again soon).
    fn busy(&self) -> bool {
        false
    }

    /// The screen is finished: stop what is under way, without waiting.
    fn shut_down(&mut self) {}
}

/// Delivers `message` to `screen` at `now` and carries out the effects,
/// and the effects of whatever they answer at once, until all is quiet.
/// (The loop's one way in; tests drive screens with it too.)
pub fn dispatch<S: Screen, W: World<S>>(
    screen: &mut S,
    world: &mut W,
    message: S::Message,
    now: Instant,
) {
    let mut queue = vec![message];
    while !queue.is_empty() {
        let mut answers = Vec::new();
        for message in queue {
            for effect in screen.update(message, now) {
                world.perform(effect, &mut answers);
            }
        }
        queue = answers;
    }
}

/// One round of the loop without waiting: answers from the world, then the
/// clock.
pub fn catch_up<S: Screen, W: World<S>>(screen: &mut S, world: &mut W, now: Instant) {
    let mut answers = Vec::new();
    world.poll(&mut answers);
    for answer in answers {
        dispatch(screen, world, answer, now);
    }
    dispatch(screen, world, Input::Tick.into(), now);
}

/// Runs `screen` full screen until it is done or a termination signal
/// comes, then restores the terminal.
///
/// # Errors
/// When the terminal fails.
pub fn run<S: Screen, W: World<S>>(screen: &mut S, world: &mut W) -> io::Result<()> {
    let mut full = FullScreen::enter()?;
    let terminal = full.terminal();
    let size = terminal.size()?;
    dispatch(
        screen,
        world,
        Input::Resize(size.width, size.height).into(),
        Instant::now(),
    );
    let result = run_on(terminal, screen, world);
    world.shut_down();
    result
}

/// Whether `event` is Ctrl-Z pressed: in raw mode the terminal sends it
/// as a key instead of stopping the program.
fn is_suspend_key(event: &event::Event) -> bool {
    use event::{KeyCode, KeyEventKind, KeyModifiers};
    matches!(event, event::Event::Key(key)
        if key.kind == KeyEventKind::Press
            && key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('z' | 'Z')))
}

/// The loop itself, on any terminal: draw, wait for input or the next
/// frame, react.
fn run_on<S: Screen, W: World<S>>(
    terminal: &mut DefaultTerminal,
    screen: &mut S,
    world: &mut W,
) -> io::Result<()> {
    loop {
        catch_up(screen, world, Instant::now());
        if let Some(text) = screen.take_copy() {
            use std::io::Write as _;
            let backend = terminal.backend_mut();
            write!(backend, "{}", crate::tui::clipboard::osc52(&text))?;
            backend.flush()?;
        }
        if screen.done() || terminated() {
            return Ok(());
        }
        if resumed() {
            // Back from a stop: the terminal shows whatever the shell
            // left there; draw every cell again.
            terminal.clear()?;
        }
        terminal.draw(|frame| screen.view(frame))?;
        let mut timeout = screen
            .next_wake()
            .map_or(IDLE, |at| at.saturating_duration_since(Instant::now()));
        if world.busy() {
            timeout = timeout.min(WHILE_BUSY);
        }
        // A termination signal only sets a flag: look at it again soon.
        timeout = timeout.min(SIGNAL_TICK);
        if event::poll(timeout)? {
            // Take every event already waiting before drawing again.
            loop {
                let event = event::read()?;
                if is_suspend_key(&event) {
                    suspend();
                } else if let Some(input) = Input::from_event(&event) {
                    dispatch(screen, world, input.into(), Instant::now());
                }
                if !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
}
