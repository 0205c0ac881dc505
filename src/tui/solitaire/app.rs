//! The state of the full-screen solitaire game and what each key, click
//! and clock tick does to it. No terminal here: time comes in as an
//! argument, so tests drive it exactly.
//!
//! The keys are the two-player game's where they mean the same: `u` undoes,
//! `r` redoes, `h` hints, `?` helps, `q` quits. `s` starts the board over
//! and `n` deals a new one; both ask "(y/n)" first when moves would be
//! lost, and starting over keeps the moves for `r` to replay.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Position, Rect};

use crate::rng::Rng;
use crate::tui::chrome::HelpScroll;
use crate::tui::digits::{DigitEntry, Entered};
use crate::tui::input::{Input, chord_message};
use crate::tui::prefs::{self, Chosen, Prefs};
use crate::tui::theme::Theme;

use crate::rules::solitaire::{SolitaireBoard, SolitaireStep};

use super::random::deal_random;
use super::view;

/// A move being shown seed by seed: the one animation type of every
/// screen ([`crate::tui::animation`]), paced the same way.
pub type HouseAnimation = crate::tui::animation::Animation<SolitaireStep>;

impl HouseAnimation {
    /// The house played.
    #[must_use]
    pub fn house(&self) -> usize {
        match self.first() {
            Some(SolitaireStep::Lift { house, .. }) => house,
            _ => 0,
        }
    }

    /// Where the hand is: over the house it lifted the seeds from, then over
    /// each house (0 = the store) as it drops a seed there.
    #[must_use]
    pub fn hand_at(&self) -> usize {
        self.last_drop().unwrap_or(self.house())
    }

    /// The house the last seed shown landed in, if one has landed.
    #[must_use]
    pub fn last_drop(&self) -> Option<usize> {
        match self.current() {
            Some(SolitaireStep::Sow { house }) => Some(house),
            _ => None,
        }
    }
}

/// A question waiting for `y` (any other key answers no).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Back to the start of this board?
    StartOver,
    /// Deal a new board, leaving this one unfinished?
    NewBoard,
    /// Leave the game? (`q` or Esc; Ctrl-C leaves at once.)
    Quit,
}

/// What the screen is doing: exactly one at a time.
#[derive(Debug)]
pub enum SolitaireMode {
    /// Waiting for a move.
    Play,
    /// A move being shown seed by seed.
    Sowing(HouseAnimation),
    /// A question waiting for `y`.
    Asking(Question),
    /// The help over the board, scrolled this far.
    Help(HelpScroll),
}

/// The game on the screen: the board, its history, and what is shown.
#[derive(Debug)]
pub struct SolitaireGame {
    board: SolitaireBoard,
    start: SolitaireBoard,
    start_winnable: bool,
    moves: Vec<usize>,
    /// Moves taken back, the next one to replay last.
    redo: Vec<usize>,
    mode: SolitaireMode,
    /// The speed and theme, and the keys that change them.
    chosen: Chosen,
    cursor: usize,
    digits: DigitEntry,
    hint: Option<usize>,
    message: Option<String>,
    quit: bool,
    deals: u32,
    rng: Rng,
    trace: Vec<SolitaireStep>,
    /// The whole screen, once the screen loop told it (where clicks
    /// land, how far the help scrolls, whether the board fits).
    size: Option<Rect>,
}

impl SolitaireGame {
    /// A game of `board`, animated with `seed_delay` between two seeds
    /// (`None` or zero: moves at once); `rng` deals the boards `n` asks for.
    #[must_use]
    pub fn new(board: SolitaireBoard, seed_delay: Option<Duration>, rng: Rng) -> SolitaireGame {
        let mut app = SolitaireGame {
            board: SolitaireBoard::new(),
            start: SolitaireBoard::new(),
            start_winnable: true,
            moves: Vec::new(),
            redo: Vec::new(),
            mode: SolitaireMode::Play,
            chosen: Chosen::unkept(seed_delay, Theme::monochrome()),
            cursor: 0,
            digits: DigitEntry::default(),
            hint: None,
            message: None,
            quit: false,
            deals: 0,
            rng,
            trace: Vec::new(),
            size: None,
        };
        app.set_board(board);
        app
    }

    fn set_board(&mut self, board: SolitaireBoard) {
        self.start_winnable = board.plan_moves().finish().is_won();
        self.start = board.clone();
        self.board = board;
        self.moves.clear();
        self.redo.clear();
        self.mode = SolitaireMode::Play;
        self.digits.clear();
        self.hint = None;
        self.message = None;
        self.deals += 1;
        self.cursor = self.default_cursor();
    }

    /// The legal house closest to the store, else house 1 (0 with no houses).
    fn default_cursor(&self) -> usize {
        match self.board.choose() {
            0 => usize::from(self.board.houses() > 0),
            house => house,
        }
    }

    /// The board after every move made (animations notwithstanding).
    #[must_use]
    pub fn board(&self) -> &SolitaireBoard {
        &self.board
    }

    /// The counts to draw: mid-animation, those after the steps shown so far.
    #[must_use]
    pub fn shown_counts(&self) -> Vec<u64> {
        match &self.mode {
            SolitaireMode::Sowing(animation) => animation.counts().to_vec(),
            _ => self.board.counts().to_vec(),
        }
    }

    /// The move being animated, if any.
    #[must_use]
    pub fn animation(&self) -> Option<&HouseAnimation> {
        match &self.mode {
            SolitaireMode::Sowing(animation) => Some(animation),
            _ => None,
        }
    }

    /// Shows with `chosen`'s speed and theme, and keeps what the player
    /// changes from there.
    pub fn keep_prefs(&mut self, chosen: Chosen) {
        self.chosen = chosen;
    }

    /// The preferences, if the player changed them since the last call.
    pub fn take_prefs(&mut self) -> Option<Prefs> {
        self.chosen.take_changed()
    }

    /// Shows `message` (a problem with the preferences file, say) in the
    /// status line.
    pub fn tell(&mut self, message: Option<String>) {
        if message.is_some() {
            self.message = message;
        }
    }

    /// The styles to draw with.
    #[must_use]
    pub fn theme(&self) -> &Theme {
        self.chosen.theme()
    }

    /// The moves made since the start of this board.
    #[must_use]
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The question waiting for an answer, if any.
    #[must_use]
    pub fn question(&self) -> Option<Question> {
        match self.mode {
            SolitaireMode::Asking(question) => Some(question),
            _ => None,
        }
    }

    /// The selected house (0 when the board has no houses).
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The house the hint points at, while shown.
    #[must_use]
    pub fn hint(&self) -> Option<usize> {
        self.hint
    }

    /// Digits typed towards a house number of two or more digits.
    #[must_use]
    pub fn typed(&self) -> Option<usize> {
        self.digits.typed()
    }

    /// How far the help is scrolled, while it is open.
    #[must_use]
    pub fn help_scroll(&self) -> Option<HelpScroll> {
        match self.mode {
            SolitaireMode::Help(scroll) => Some(scroll),
            _ => None,
        }
    }

    /// The speed and theme, and which keys change them.
    #[must_use]
    pub fn prefs(&self) -> &Chosen {
        &self.chosen
    }

    /// Whether the player asked to quit.
    #[must_use]
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Which board this is since the program started (1 for the first).
    #[must_use]
    pub fn deal_number(&self) -> u32 {
        self.deals
    }

    /// Whether the start of this board can be won.
    #[must_use]
    pub fn start_winnable(&self) -> bool {
        self.start_winnable
    }

    /// The feedback of the last action, if it left one.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Advances the animation to `now`.
    pub fn tick(&mut self, now: Instant) {
        let SolitaireMode::Sowing(animation) = &mut self.mode else {
            return;
        };
        animation.advance(now);
        // The last seed stays on screen for one delay too.
        if animation.is_done(now) {
            self.finish_animation();
        }
    }

    fn finish_animation(&mut self) {
        if matches!(self.mode, SolitaireMode::Sowing(_)) {
            self.mode = SolitaireMode::Play;
            self.after_move();
        }
    }

    /// Moves the cursor where play goes on, once a move is over.
    fn after_move(&mut self) {
        if !self.board.is_legal(self.cursor) {
            self.cursor = self.default_cursor();
        }
    }

    /// Reacts to a key; only presses count (not repeats or releases).
    pub fn on_key(&mut self, key: KeyEvent, now: Instant) {
        if key.kind != KeyEventKind::Press {
            return;
        }
        match Input::from_key(key) {
            Input::Key(key) => self.on_plain_key(key, now),
            other => self.on_input(other, now),
        }
    }

    /// Whether the screen is too small for the board (it then shows what
    /// it needs, and any question waiting).
    fn too_small(&self) -> bool {
        self.size
            .is_some_and(|area| view::layout(area, self).is_none())
    }

    /// A key pressed alone or with Shift.
    fn on_plain_key(&mut self, key: KeyEvent, now: Instant) {
        // As in the game, an open help keeps its keys (it is drawn over the
        // too-small screen too); else the too-small screen takes q (to ask
        // about quitting) and the answer to the question it shows, nothing
        // else.
        if self.too_small()
            && !matches!(self.mode, SolitaireMode::Asking(_) | SolitaireMode::Help(_))
        {
            if matches!(key.code, KeyCode::Char('q' | 'Q') | KeyCode::Esc) {
                self.ask_quit();
            }
            return;
        }
        // The speed and the theme, whatever the screen is doing; but a
        // question waits for its answer first, and the help takes any key
        // but the arrows as closing it (as in the game).
        match key.code {
            _ if matches!(self.mode, SolitaireMode::Asking(_) | SolitaireMode::Help(_)) => {}
            KeyCode::Char('+' | '=') => return self.change_speed(true),
            KeyCode::Char('-' | '_') => return self.change_speed(false),
            KeyCode::Char('t' | 'T') => {
                self.message = Some(self.chosen.switch_theme());
                return;
            }
            _ => {}
        }
        match std::mem::replace(&mut self.mode, SolitaireMode::Play) {
            SolitaireMode::Play => {}
            sowing @ SolitaireMode::Sowing(_) => {
                self.mode = sowing;
                if matches!(key.code, KeyCode::Char('q' | 'Q') | KeyCode::Esc) {
                    return self.ask_quit();
                }
                self.finish_animation();
                // A house number also plays once the move on show is done:
                // a player who types ahead loses nothing.
                let digit = matches!(key.code, KeyCode::Char(c) if c.is_ascii_digit());
                if !digit || !matches!(self.mode, SolitaireMode::Play) {
                    return;
                }
            }
            SolitaireMode::Help(mut scroll) => {
                // The arrows scroll it; any other key closes it, and q
                // goes on to ask about quitting.
                let area = self.size.unwrap_or_default();
                if scroll.key(key.code, &view::help_text(self), area) {
                    self.mode = SolitaireMode::Help(scroll);
                } else if matches!(key.code, KeyCode::Char('q' | 'Q')) {
                    self.ask_quit();
                }
                return;
            }
            SolitaireMode::Asking(question) => {
                match (key.code, question) {
                    (KeyCode::Char('y' | 'Y'), Question::StartOver) => self.start_over(),
                    (KeyCode::Char('y' | 'Y'), Question::NewBoard) => self.new_board(),
                    (KeyCode::Char('y' | 'Y'), Question::Quit) => self.quit = true,
                    (_, Question::Quit) => self.message = Some("Playing on.".into()),
                    _ => self.message = Some("Kept the board as it is.".into()),
                }
                return;
            }
        }
        if self.on_digits(key.code, now) {
            return;
        }
        match key.code {
            KeyCode::Char('q' | 'Q') | KeyCode::Esc => self.ask_quit(),
            KeyCode::Left => self.move_cursor(1),
            KeyCode::Right => self.move_cursor(-1),
            KeyCode::Home => self.select(self.board.houses()),
            KeyCode::End => self.select(1),
            KeyCode::Tab | KeyCode::Down => self.next_legal(),
            KeyCode::Up | KeyCode::BackTab => self.previous_legal(),
            KeyCode::Enter | KeyCode::Char(' ') => self.play(self.cursor, now),
            KeyCode::Char('u' | 'U') | KeyCode::Char('z') => self.undo(),
            KeyCode::Char('r' | 'R') => self.redo(now),
            KeyCode::Char('s' | 'S') => self.ask_start_over(),
            KeyCode::Char('h' | 'H') => self.show_hint(),
            KeyCode::Char('n' | 'N') => self.ask_new_board(),
            KeyCode::Char('?') | KeyCode::F(1) => {
                self.mode = SolitaireMode::Help(HelpScroll::default());
            }
            _ => {}
        }
    }

    /// House numbers typed in digits (the game's [`DigitEntry`]: a number
    /// that a longer one could start with waits for more digits or Enter).
    /// Returns whether the key was taken for that.
    fn on_digits(&mut self, code: KeyCode, now: Instant) -> bool {
        let houses = self.board.houses();
        match self.digits.key(code, houses, None, now) {
            Entered::NotADigit => return false,
            Entered::Zero => {
                self.message = Some("House 0 is the store; it is never played.".into());
            }
            Entered::OutOfRange(number) => {
                self.message = Some(match houses {
                    0 => "This board has no houses.".into(),
                    _ => format!("There is no house {number}: the houses are 1 to {houses}."),
                });
            }
            Entered::Waiting(number) => {
                self.cursor = number;
                self.message = None;
            }
            Entered::Cleared => self.message = None,
            Entered::Complete(number) => {
                self.cursor = number;
                self.play(number, now);
            }
        }
        true
    }

    /// `+` and `-`: the next speed; a move being sown goes on at it.
    fn change_speed(&mut self, faster: bool) {
        match self.chosen.change_speed(faster) {
            Ok(next) => {
                if let (Some(delay), SolitaireMode::Sowing(animation)) = (next, &mut self.mode) {
                    animation.set_delay(delay);
                }
                if next.is_none() {
                    self.finish_animation();
                }
                self.message = Some(prefs::speed_message(next));
            }
            Err(end) => self.message = Some(end),
        }
    }

    fn select(&mut self, house: usize) {
        if house > 0 {
            self.cursor = house;
            self.message = None;
        }
    }

    /// Left (`+1`) is away from the store, right (`-1`) towards it.
    fn move_cursor(&mut self, towards_left: isize) {
        let houses = self.board.houses();
        if houses == 0 {
            return;
        }
        let next = self
            .cursor
            .saturating_add_signed(towards_left)
            .clamp(1, houses);
        self.select(next);
    }

    fn next_legal(&mut self) {
        let after = self.board.legal_moves().find(|&h| h > self.cursor);
        if let Some(house) = after.or_else(|| self.board.legal_moves().next()) {
            self.select(house);
        }
    }

    fn previous_legal(&mut self) {
        let legal: Vec<usize> = self.board.legal_moves().collect();
        let before = legal
            .iter()
            .rev()
            .find(|&&h| h < self.cursor)
            .or(legal.last());
        if let Some(&house) = before {
            self.select(house);
        }
    }

    /// Plays `house` if it is legal, animating it; else says why not. A
    /// new move forgets the moves taken back.
    pub fn play(&mut self, house: usize, now: Instant) {
        if self.play_move(house, now) {
            self.redo.clear();
        }
    }

    /// Plays `house` (whether new or replayed); whether it was legal.
    fn play_move(&mut self, house: usize, now: Instant) -> bool {
        let before = self.board.counts().to_vec();
        if let Err(e) = self.board.apply_traced(house, &mut self.trace) {
            self.message = Some(e.to_string());
            return false;
        }
        self.moves.push(house);
        self.cursor = house;
        self.hint = None;
        self.message = None;
        let steps = std::mem::take(&mut self.trace);
        match self.chosen.seed_delay() {
            Some(delay) => {
                self.mode = SolitaireMode::Sowing(HouseAnimation::new(&before, steps, delay, now));
            }
            None => self.after_move(),
        }
        true
    }

    fn undo(&mut self) {
        match self.moves.pop() {
            Some(house) => {
                self.board
                    .unapply(house)
                    .expect("a move just made can be taken back");
                self.redo.push(house);
                self.cursor = house;
                self.hint = None;
                self.message = Some(format!(
                    "Took back the move from house {house}; r plays it again."
                ));
            }
            None => self.message = Some("Nothing to undo: this is the start of the board.".into()),
        }
    }

    fn redo(&mut self, now: Instant) {
        match self.redo.pop() {
            Some(house) => {
                let played = self.play_move(house, now);
                debug_assert!(played, "a move taken back can be played again");
            }
            None => self.message = Some("Nothing to redo: no move was taken back.".into()),
        }
    }

    /// "Quit? (y/n)", as the two-player game asks.
    fn ask_quit(&mut self) {
        self.finish_animation();
        self.mode = SolitaireMode::Asking(Question::Quit);
        self.message = None;
    }

    fn ask_start_over(&mut self) {
        if self.moves.is_empty() {
            self.message = Some("Already at the start of the board.".into());
        } else {
            self.mode = SolitaireMode::Asking(Question::StartOver);
            self.message = None;
        }
    }

    /// Back to the start of the board; every move made is kept for `r` to
    /// replay, so nothing is lost.
    fn start_over(&mut self) {
        let made = self.moves.len();
        self.redo.extend(self.moves.drain(..).rev());
        self.board = self.start.clone();
        self.hint = None;
        self.digits.clear();
        self.cursor = self.default_cursor();
        self.message = Some(if made == 1 {
            "Back to the start of the board; r replays your move.".to_string()
        } else {
            format!("Back to the start of the board; r replays your {made} moves one by one.")
        });
    }

    fn ask_new_board(&mut self) {
        let unfinished = !self.moves.is_empty() && self.board.choose() != 0;
        if unfinished {
            self.mode = SolitaireMode::Asking(Question::NewBoard);
            self.message = None;
        } else {
            self.new_board();
        }
    }

    fn show_hint(&mut self) {
        match self.board.choose() {
            0 => {
                self.hint = None;
                self.message = Some(if self.board.is_won() {
                    "No hint needed: every seed is in the store.".into()
                } else {
                    "No house can be played: press u to undo or s to start over.".into()
                });
            }
            house => {
                self.hint = Some(house);
                self.cursor = house;
                self.message = Some(format!(
                    "Hint: play house {house}, the playable house closest to the store."
                ));
            }
        }
    }

    fn new_board(&mut self) {
        let board = deal_random(&mut self.rng);
        self.set_board(board);
        self.message = Some(format!(
            "A new board: {} seeds in {} houses.",
            self.board.in_houses(),
            self.board.houses()
        ));
    }

    /// Reacts to one input from the [screen loop](crate::tui::screen):
    /// keys, Ctrl-C, chords (which only say they do nothing), clicks, the
    /// wheel, the screen's size and the clock.
    pub fn on_input(&mut self, input: Input, now: Instant) {
        match input {
            Input::Key(key) => self.on_plain_key(key, now),
            Input::Interrupt => self.quit = true,
            Input::Chord(key) => self.message = Some(chord_message(key)),
            Input::Click(position) => self.on_click(position, now),
            Input::Scroll(direction) => self.on_scroll(direction),
            Input::Resize(columns, lines) => self.size = Some(Rect::new(0, 0, columns, lines)),
            Input::Tick => {}
        }
        self.tick(now);
    }

    /// The wheel scrolls an open help, else moves the cursor (up: away
    /// from the store).
    fn on_scroll(&mut self, direction: i8) {
        if let SolitaireMode::Help(mut scroll) = self.mode {
            scroll.wheel(
                direction,
                &view::help_text(self),
                self.size.unwrap_or_default(),
            );
            self.mode = SolitaireMode::Help(scroll);
        } else if matches!(self.mode, SolitaireMode::Play) && !self.too_small() {
            self.move_cursor(if direction < 0 { 1 } else { -1 });
        }
    }

    /// A left click on a house plays it, a click on a scroll arrow shows
    /// the houses past it.
    fn on_click(&mut self, click: Position, now: Instant) {
        match std::mem::replace(&mut self.mode, SolitaireMode::Play) {
            SolitaireMode::Play => {}
            sowing @ SolitaireMode::Sowing(_) => {
                self.mode = sowing;
                return self.finish_animation();
            }
            // A click closes the help, as a key does.
            SolitaireMode::Help(_) => return,
            SolitaireMode::Asking(_) => {
                self.message = Some("Kept the board as it is.".into());
                return;
            }
        }
        let Some(layout) = self.size.and_then(|area| view::layout(area, self)) else {
            return;
        };
        match layout.hit(click.x, click.y) {
            Some(view::Hit::Select(house)) => self.select(house),
            Some(view::Hit::Store) => self.message = Some("The store cannot be played.".into()),
            Some(view::Hit::Play(house)) => {
                self.digits.clear();
                self.play(house, now);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::screen::Screen as _;
    use crate::tui::theme::Palette;
    use crossterm::event::{KeyEventState, KeyModifiers};

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn app(counts: &[u64], delay_ms: Option<u64>) -> SolitaireGame {
        SolitaireGame::new(
            SolitaireBoard::from_counts(counts).unwrap(),
            delay_ms.map(Duration::from_millis),
            Rng::new(3),
        )
    }

    #[test]
    fn number_key_plays_the_house_and_bad_houses_are_explained() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3, 0, 0, 0], None);
        assert_eq!(
            a.cursor(),
            1,
            "starts on the legal house closest to the store"
        );
        a.on_key(press(KeyCode::Char('2')), now);
        assert_eq!(
            a.message(),
            Some("House 2 holds 1 seed; it can be played only when it holds exactly 2.")
        );
        assert!(a.moves().is_empty());
        a.on_key(press(KeyCode::Char('9')), now);
        assert_eq!(
            a.message(),
            Some("There is no house 9: the houses are 1 to 6.")
        );
        a.on_key(press(KeyCode::Char('0')), now);
        assert!(a.message().unwrap().contains("store"));
        a.on_key(press(KeyCode::Char('3')), now);
        assert_eq!(a.moves(), [3]);
        assert_eq!(a.board().counts(), [1, 2, 2, 0, 0, 0, 0]);
    }

    /// With the help open, `+`, `-` and `t` close it and change nothing
    /// behind it (as in the game); `q` closes it and asks about quitting.
    #[test]
    fn the_help_closes_on_the_speed_and_theme_keys_without_acting() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], Some(40));
        let (delay, theme) = (a.chosen.seed_delay(), *a.theme());
        for key in ['+', '-', 't'] {
            a.on_key(press(KeyCode::Char('?')), now);
            assert!(a.help_scroll().is_some());
            a.on_key(press(KeyCode::Char(key)), now);
            assert!(a.help_scroll().is_none(), "{key} closes the help");
            assert_eq!((a.chosen.seed_delay(), *a.theme()), (delay, theme), "{key}");
            assert_eq!(a.message(), None, "{key}");
        }
        a.on_key(press(KeyCode::Char('?')), now);
        a.on_key(press(KeyCode::Char('q')), now);
        assert!(a.help_scroll().is_none());
        assert_eq!(a.question(), Some(Question::Quit));
        // Outside the help, they act.
        a.on_key(press(KeyCode::Char('n')), now);
        a.on_key(press(KeyCode::Char('+')), now);
        assert_ne!(a.chosen.seed_delay(), delay);
    }

    /// A help open when the window shrinks stays open over the too-small
    /// screen and keeps its keys, as in the game: the arrows and the wheel
    /// scroll it, another key closes it, and only then does the too-small
    /// screen take q.
    #[test]
    fn an_open_help_keeps_its_keys_on_the_too_small_screen() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], Some(40));
        a.on_input(Input::Resize(view::MIN_WIDTH, view::MIN_HEIGHT), now);
        a.on_key(press(KeyCode::Char('?')), now);
        a.on_input(Input::Resize(view::MIN_WIDTH - 1, 8), now);
        assert!(a.too_small());
        a.on_key(press(KeyCode::Down), now);
        assert_eq!(a.help_scroll().map(HelpScroll::offset), Some(1));
        a.on_input(Input::Scroll(1), now);
        assert_eq!(a.help_scroll().map(HelpScroll::offset), Some(2));
        a.on_input(Input::Scroll(-1), now);
        assert_eq!(a.help_scroll().map(HelpScroll::offset), Some(1));
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(view::MIN_WIDTH - 1, 8))
                .unwrap();
        terminal
            .draw(|f| view::draw(f, &a, Theme::monochrome()))
            .unwrap();
        let text = terminal.backend().to_string();
        assert!(
            text.contains("Solitaire Mancala — help"),
            "drawn over it:\n{text}"
        );
        a.on_key(press(KeyCode::Char('q')), now);
        assert!(a.help_scroll().is_none(), "q closes the help");
        assert_eq!(
            a.question(),
            Some(Question::Quit),
            "and asks, as in the help"
        );
        terminal
            .draw(|f| view::draw(f, &a, Theme::monochrome()))
            .unwrap();
        let text = terminal.backend().to_string();
        assert!(text.contains("Terminal too small"), "{text}");
    }

    /// The too-small screen takes only q and the answer to its question,
    /// as the game's does; once the window grows, keys play again.
    #[test]
    fn the_too_small_screen_ignores_all_but_quitting() {
        let now = Instant::now();
        // A middle speed, so that both + and - would change it.
        let mut a = app(&[0, 1, 1, 3], Some(40));
        let delay = a.chosen.seed_delay();
        a.on_input(Input::Resize(view::MIN_WIDTH - 1, view::MIN_HEIGHT), now);
        let cursor = a.cursor();
        for code in [
            KeyCode::Char('3'),
            KeyCode::Enter,
            KeyCode::Left,
            KeyCode::Char('?'),
            KeyCode::Char('+'),
            KeyCode::Char('-'),
            KeyCode::Char('h'),
        ] {
            a.on_key(press(code), now);
        }
        a.on_input(Input::Scroll(1), now);
        assert!(a.moves().is_empty());
        assert_eq!(
            (a.cursor(), a.hint(), a.help_scroll().is_some()),
            (cursor, None, false)
        );
        assert_eq!((a.chosen.seed_delay(), a.message()), (delay, None));
        a.on_key(press(KeyCode::Char('q')), now);
        assert_eq!(a.question(), Some(Question::Quit));
        a.on_key(press(KeyCode::Char('n')), now);
        assert_eq!((a.question(), a.should_quit()), (None, false));
        a.on_input(Input::Resize(view::MIN_WIDTH, view::MIN_HEIGHT), now);
        a.on_key(press(KeyCode::Char('3')), now);
        assert_eq!(a.moves(), [3]);
    }

    #[test]
    fn ctrl_and_alt_digits_do_not_play() {
        let now = Instant::now();
        let mut a = app(&[0, 1], None);
        a.on_key(
            KeyEvent::new(KeyCode::Char('1'), KeyModifiers::CONTROL),
            now,
        );
        a.on_key(KeyEvent::new(KeyCode::Char('1'), KeyModifiers::ALT), now);
        assert!(a.moves().is_empty());
        assert!(
            a.message().unwrap().contains("Alt-1 does nothing"),
            "{:?}",
            a.message()
        );
        a.on_key(press(KeyCode::Char('1')), now);
        assert_eq!(a.moves(), [1]);
    }

    #[test]
    fn only_key_presses_count() {
        let mut a = app(&[0, 1], None);
        let mut release = press(KeyCode::Char('1'));
        release.kind = KeyEventKind::Release;
        a.on_key(release, Instant::now());
        let mut repeat = KeyEvent::new_with_kind_and_state(
            KeyCode::Char('1'),
            KeyModifiers::NONE,
            KeyEventKind::Repeat,
            KeyEventState::NONE,
        );
        a.on_key(repeat, Instant::now());
        repeat.kind = KeyEventKind::Press;
        assert!(a.moves().is_empty());
        a.on_key(repeat, Instant::now());
        assert_eq!(a.moves(), [1]);
        assert!(a.board().is_won());
    }

    #[test]
    fn arrows_and_enter_play_the_selected_house_left_is_away_from_the_store() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], None);
        a.on_key(press(KeyCode::Left), now);
        a.on_key(press(KeyCode::Left), now);
        assert_eq!(a.cursor(), 3);
        a.on_key(press(KeyCode::Left), now);
        assert_eq!(a.cursor(), 3, "stops at the last house");
        a.on_key(press(KeyCode::Right), now);
        assert_eq!(a.cursor(), 2);
        a.on_key(press(KeyCode::Enter), now);
        assert!(a.moves().is_empty(), "house 2 holds 1 seed");
        a.on_key(press(KeyCode::Tab), now);
        assert_eq!(a.cursor(), 3, "Tab goes to the next playable house");
        a.on_key(press(KeyCode::Char(' ')), now);
        assert_eq!(a.moves(), [3]);
        assert_eq!(a.board().counts(), [1, 2, 2, 0]);
        assert_eq!(
            a.cursor(),
            2,
            "then to the playable house closest to the store"
        );
    }

    #[test]
    fn two_digit_houses_wait_for_a_second_digit_or_enter() {
        let now = Instant::now();
        let mut counts = vec![0u64; 13];
        counts[1] = 1;
        counts[12] = 5;
        let mut a = app(&counts, None);
        a.on_key(press(KeyCode::Char('1')), now);
        assert_eq!(a.typed(), Some(1));
        assert_eq!(a.cursor(), 1);
        assert!(
            a.moves().is_empty(),
            "house 1 is legal but 1 may begin 10, 11 or 12"
        );
        a.on_key(press(KeyCode::Char('2')), now);
        assert_eq!(a.typed(), None);
        assert_eq!(a.cursor(), 12);
        assert_eq!(
            a.message(),
            Some("House 12 holds 5 seeds; it can be played only when it holds exactly 12.")
        );
        a.on_key(press(KeyCode::Char('1')), now);
        a.on_key(press(KeyCode::Enter), now);
        assert_eq!(a.moves(), [1]);
        // A legal two-digit house is played as soon as the number is complete.
        counts[1] = 0;
        counts[12] = 12;
        let mut b = app(&counts, None);
        b.on_key(press(KeyCode::Char('1')), now);
        b.on_key(press(KeyCode::Char('2')), now);
        assert_eq!(b.moves(), [12]);
        // Digits that no house number starts with are refused at once.
        b.on_key(press(KeyCode::Char('3')), now);
        assert_eq!(b.typed(), None);
        assert!(b.message().unwrap().contains("holds 1 seed"));
        assert_eq!(a.moves(), [1]);
    }

    #[test]
    fn animation_drops_one_seed_per_delay_and_any_key_finishes_it() {
        let t0 = Instant::now();
        let ms = Duration::from_millis(100);
        let mut a = app(&[0, 1, 1, 3], Some(100));
        a.on_key(press(KeyCode::Char('3')), t0);
        assert_eq!(
            a.board().counts(),
            [1, 2, 2, 0],
            "the move itself is done at once"
        );
        assert_eq!(a.shown_counts(), [0, 1, 1, 0], "lifted, nothing sown yet");
        assert_eq!(a.animation().unwrap().hand(), 3);
        assert_eq!(
            a.animation().unwrap().hand_at(),
            3,
            "the hand is over the house lifted"
        );
        a.tick(t0 + ms / 2);
        assert_eq!(a.shown_counts(), [0, 1, 1, 0]);
        a.tick(t0 + ms);
        assert_eq!(a.shown_counts(), [0, 1, 2, 0]);
        assert_eq!(a.animation().unwrap().hand(), 2);
        assert_eq!(a.animation().unwrap().last_drop(), Some(2));
        assert_eq!(a.animation().unwrap().hand_at(), 2);
        a.tick(t0 + 2 * ms);
        assert_eq!(a.shown_counts(), [0, 2, 2, 0]);
        a.on_key(press(KeyCode::Char('x')), t0 + 2 * ms);
        assert!(a.animation().is_none(), "any key finishes the animation");
        assert_eq!(a.shown_counts(), [1, 2, 2, 0]);
        assert_eq!(a.moves(), [3], "and the key does nothing else");
        // A house number typed during the sowing finishes it and is played.
        let mut c = app(&[0, 1, 1, 3], Some(100));
        c.on_key(press(KeyCode::Char('3')), t0);
        assert!(c.animation().is_some());
        c.on_key(press(KeyCode::Char('2')), t0 + ms);
        assert_eq!(c.moves(), [3, 2], "the typed house is not lost");

        let mut b = app(&[0, 1, 1, 3], Some(100));
        b.on_key(press(KeyCode::Char('3')), t0);
        b.tick(t0 + 3 * ms);
        assert_eq!(
            b.shown_counts(),
            [1, 2, 2, 0],
            "the last seed is in the store"
        );
        assert_eq!(b.animation().unwrap().hand(), 0);
        assert_eq!(b.animation().unwrap().hand_at(), 0);
        b.tick(t0 + 4 * ms);
        assert!(
            b.animation().is_none(),
            "over one delay after the last seed"
        );
        b.tick(t0 + 10 * ms);
        assert!(b.animation().is_none(), "over after lift + 3 seeds");
        assert_eq!(b.next_wake(), None);
    }

    #[test]
    fn undo_goes_back_to_the_start_and_no_further() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], None);
        for key in ['1', '3', '1'] {
            a.on_key(press(KeyCode::Char(key)), now);
        }
        assert_eq!(a.moves(), [1, 3, 1]);
        for _ in 0..3 {
            a.on_key(press(KeyCode::Char('u')), now);
        }
        assert_eq!(a.board().counts(), [0, 1, 1, 3]);
        assert!(a.moves().is_empty());
        a.on_key(press(KeyCode::Char('u')), now);
        assert!(a.message().unwrap().starts_with("Nothing to undo"));
        assert_eq!(a.board().counts(), [0, 1, 1, 3]);
    }

    #[test]
    fn r_redoes_what_u_undid_as_in_the_two_player_game() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], None);
        for key in ['1', '3', '1'] {
            a.on_key(press(KeyCode::Char(key)), now);
        }
        let after_three = a.board().clone();
        a.on_key(press(KeyCode::Char('r')), now);
        assert_eq!(a.board(), &after_three, "r never starts over");
        assert!(a.message().unwrap().starts_with("Nothing to redo"));
        a.on_key(press(KeyCode::Char('u')), now);
        a.on_key(press(KeyCode::Char('u')), now);
        assert_eq!(a.moves(), [1]);
        assert_eq!(a.redo.iter().rev().copied().collect::<Vec<_>>(), [3, 1]);
        a.on_key(press(KeyCode::Char('r')), now);
        a.on_key(press(KeyCode::Char('R')), now);
        assert_eq!(a.moves(), [1, 3, 1]);
        assert_eq!(a.board(), &after_three);
        // A new move forgets the moves taken back.
        a.on_key(press(KeyCode::Char('u')), now);
        assert_eq!(a.redo.len(), 1);
        a.on_key(press(KeyCode::Char('2')), now);
        assert_eq!(a.moves(), [1, 3, 2]);
        assert_eq!(a.redo.len(), 0);
        a.on_key(press(KeyCode::Char('r')), now);
        assert_eq!(a.moves(), [1, 3, 2]);
        // A refused move keeps them.
        a.on_key(press(KeyCode::Char('u')), now);
        a.on_key(press(KeyCode::Char('3')), now);
        assert!(a.message().unwrap().contains("House 3"));
        assert_eq!(a.redo.iter().rev().copied().collect::<Vec<_>>(), [2]);
    }

    #[test]
    fn redo_animates_like_a_move() {
        let t0 = Instant::now();
        let mut a = app(&[0, 1, 1, 3], Some(100));
        a.on_key(press(KeyCode::Char('3')), t0);
        a.tick(t0 + Duration::from_secs(1));
        a.on_key(press(KeyCode::Char('u')), t0 + Duration::from_secs(1));
        a.on_key(press(KeyCode::Char('r')), t0 + Duration::from_secs(1));
        assert_eq!(a.animation().unwrap().house(), 3);
        assert_eq!(a.shown_counts(), [0, 1, 1, 0], "lifted, nothing sown yet");
        assert_eq!(a.board().counts(), [1, 2, 2, 0]);
    }

    #[test]
    fn s_starts_over_after_a_yes_and_the_moves_stay_for_redo() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], None);
        a.on_key(press(KeyCode::Char('s')), now);
        assert_eq!(a.question(), None, "nothing to lose: no question");
        assert!(a.message().unwrap().starts_with("Already at the start"));
        for key in ['1', '3', '1'] {
            a.on_key(press(KeyCode::Char(key)), now);
        }
        let played = a.board().clone();
        a.on_key(press(KeyCode::Char('s')), now);
        assert_eq!(a.question(), Some(Question::StartOver));
        a.on_key(press(KeyCode::Char('n')), now);
        assert_eq!(a.question(), None);
        assert_eq!(a.board(), &played, "any key but y keeps the board");
        assert_eq!(a.message(), Some("Kept the board as it is."));
        a.on_key(press(KeyCode::Char('s')), now);
        a.on_key(press(KeyCode::Char('y')), now);
        assert_eq!(
            a.message(),
            Some("Back to the start of the board; r replays your 3 moves one by one.")
        );
        assert_eq!(a.board().counts(), [0, 1, 1, 3]);
        assert!(a.moves().is_empty());
        assert_eq!(a.deal_number(), 1, "the same board");
        assert_eq!(a.redo.iter().rev().copied().collect::<Vec<_>>(), [1, 3, 1]);
        for _ in 0..3 {
            a.on_key(press(KeyCode::Char('r')), now);
        }
        assert_eq!(a.board(), &played, "starting over lost nothing");
        assert_eq!(a.moves(), [1, 3, 1]);
    }

    #[test]
    fn n_asks_before_leaving_an_unfinished_board() {
        let now = Instant::now();
        let mut a = app(&[0, 1, 1, 3], None);
        a.on_key(press(KeyCode::Char('1')), now);
        a.on_key(press(KeyCode::Char('n')), now);
        assert_eq!(a.question(), Some(Question::NewBoard));
        a.on_key(press(KeyCode::Esc), now);
        assert!(!a.should_quit(), "Esc answers the question");
        assert_eq!((a.deal_number(), a.moves()), (1, &[1][..]));
        a.on_key(press(KeyCode::Char('n')), now);
        a.on_key(press(KeyCode::Char('Y')), now);
        assert_eq!(a.deal_number(), 2);
        assert!(a.moves().is_empty() && a.redo.is_empty());
        // A finished board (won here) is left without a question.
        let mut b = app(&[0, 1], None);
        b.on_key(press(KeyCode::Char('1')), now);
        b.on_key(press(KeyCode::Char('n')), now);
        assert_eq!((b.question(), b.deal_number()), (None, 2));
    }

    #[test]
    fn hint_points_at_the_closest_legal_house_and_following_hints_wins() {
        let now = Instant::now();
        let mut a = SolitaireGame::new(crate::rules::solitaire::deal(25), None, Rng::new(5));
        let mut played = 0;
        while !a.board().is_won() {
            a.on_key(press(KeyCode::Char('h')), now);
            let hint = a.hint().expect("a winnable board always has a hint");
            assert_eq!(hint, a.board().choose());
            assert_eq!(a.cursor(), hint);
            a.on_key(press(KeyCode::Enter), now);
            played += 1;
        }
        assert_eq!(played, 25);
        a.on_key(press(KeyCode::Char('h')), now);
        assert_eq!(a.hint(), None);
        assert!(a.message().unwrap().contains("every seed is in the store"));
    }

    #[test]
    fn new_board_help_and_quit_keys() {
        let now = Instant::now();
        let mut a = app(&[0, 1], None);
        a.on_key(press(KeyCode::Char('n')), now);
        assert_eq!(a.deal_number(), 2);
        assert!((10..=40).contains(&a.board().in_houses()));
        assert!(a.board().plan().won());
        a.on_key(press(KeyCode::Char('?')), now);
        assert!(a.help_scroll().is_some());
        a.on_key(press(KeyCode::Esc), now);
        assert!(
            a.help_scroll().is_none() && !a.should_quit(),
            "Esc closes the help first"
        );
        a.on_key(press(KeyCode::Esc), now);
        assert!(!a.should_quit(), "Esc asks first");
        assert_eq!(a.question(), Some(Question::Quit));
        a.on_key(press(KeyCode::Char('x')), now);
        assert!(
            !a.should_quit() && a.question().is_none(),
            "any other key plays on"
        );
        a.on_key(press(KeyCode::Esc), now);
        a.on_key(press(KeyCode::Char('y')), now);
        assert!(a.should_quit());

        let mut b = app(&[0, 1, 1, 3], Some(1000));
        b.on_key(press(KeyCode::Char('3')), now);
        b.on_key(
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
            now,
        );
        assert!(b.should_quit(), "Ctrl-C quits at once, even mid-animation");
        let mut c = app(&[0, 1], None);
        c.on_key(press(KeyCode::Char('q')), now);
        assert!(!c.should_quit(), "q asks, as in the two-player game");
        c.on_key(press(KeyCode::Char('Y')), now);
        assert!(c.should_quit());
    }

    #[test]
    fn clicking_a_house_plays_it() {
        let now = Instant::now();
        let area = Rect::new(0, 0, 80, 24);
        let mut a = app(&[0, 1, 1, 3], None);
        let layout = view::layout(area, &a).expect("80x24 is big enough");
        let (_, rect3) = *layout.houses.iter().find(|(h, _)| *h == 3).unwrap();
        let (_, rect1) = *layout.houses.iter().find(|(h, _)| *h == 1).unwrap();
        assert!(rect3.x < rect1.x, "house 3 is left of house 1");
        assert!(rect1.x < layout.store.x, "the store is at the right end");
        let click = |rect: Rect| Input::Click(Position::new(rect.x + 1, rect.y + 1));
        a.on_input(Input::Resize(area.width, area.height), now);
        a.on_input(click(rect3), now);
        assert_eq!(a.moves(), [3]);
        a.on_input(click(layout.store), now);
        assert_eq!(a.message(), Some("The store cannot be played."));
    }

    #[test]
    fn speed_keys_pace_the_sowing_and_are_kept_with_the_theme() {
        let t0 = Instant::now();
        let mut a = app(&[0, 1, 2, 3], Some(150));
        assert_eq!(a.take_prefs(), None, "nothing chosen yet");
        a.on_key(press(KeyCode::Char('3')), t0);
        assert!(matches!(&a.mode, SolitaireMode::Sowing(_)));
        a.on_key(press(KeyCode::Char('-')), t0);
        assert!(
            matches!(&a.mode, SolitaireMode::Sowing(_)),
            "- slows the sowing down, it does not skip it"
        );
        assert_eq!(a.animation().unwrap().delay(), Duration::from_millis(220));
        assert_eq!(a.message(), Some("Sowing speed: 220 ms per seed."));
        a.on_key(press(KeyCode::Char('t')), t0);
        assert!(!a.theme().monochrome, "t switches to colours");
        assert_eq!(
            a.take_prefs(),
            Some(Prefs {
                seed_delay: Some(Duration::from_millis(220)),
                palette: Palette::Colour,
            })
        );
        assert_eq!(a.take_prefs(), None);
    }

    #[test]
    fn a_question_takes_its_answer_before_the_speed_keys() {
        let t0 = Instant::now();
        let mut a = app(&[0, 1, 2, 3], None);
        a.on_key(press(KeyCode::Char('q')), t0);
        assert!(matches!(&a.mode, SolitaireMode::Asking(Question::Quit)));
        a.on_key(press(KeyCode::Char('+')), t0);
        assert_eq!(a.take_prefs(), None);
        assert!(
            matches!(&a.mode, SolitaireMode::Play),
            "any other key answers no"
        );
        assert!(!a.should_quit());
    }
}
