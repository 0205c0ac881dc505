//! The game screen on the [screen loop](crate::tui::screen): its messages,
//! its effects, and the world that carries them out (the computer players'
//! [`Worker`] and the preferences; the session keeps the match itself).

use std::path::PathBuf;
use std::time::Instant;

use ratatui::Frame;

use crate::tui::game::app::{App, Shown};
use crate::tui::game::computer::{Answer, Request, Worker};
use crate::tui::game::draw::draw;
use crate::tui::input::Input;
use crate::tui::prefs::{self, Prefs};
use crate::tui::screen::{Screen, World};

/// Everything that can happen to the game screen.
#[derive(Clone, Debug)]
pub enum GameMessage {
    /// A key, click, resize or clock tick.
    Input(Input),
    /// The computer answered a [`Request`].
    Computer(Answer),
    /// Keeping the match failed; the game goes on (the sentence saying so).
    Warning(String),
    /// What the network game said (a network match only).
    Net(Shown),
}

impl From<Input> for GameMessage {
    fn from(input: Input) -> GameMessage {
        GameMessage::Input(input)
    }
}

/// What the game screen asks of the world.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Ask the computer (or stop its searches).
    Think(Request),
    /// Keep the players' preferences (the sowing speed) for next time.
    SavePrefs(Prefs),
    /// A command for the network game (the host's screen).
    Net(crate::session::SessionCommand),
    /// A message for the host (the joiner's screen).
    ToHost(crate::net::message::ToHost),
}

impl Screen for App {
    type Message = GameMessage;
    type Effect = Effect;

    fn update(&mut self, message: GameMessage, now: Instant) -> Vec<Effect> {
        match message {
            GameMessage::Input(input) => self.on_input(input, now),
            GameMessage::Computer(answer) => {
                self.on_answer(answer, now);
                self.tick(now);
            }
            GameMessage::Warning(text) => self.warn(text),
            GameMessage::Net(shown) => {
                self.on_shown(shown, now);
                self.tick(now);
            }
        }
        let mut effects: Vec<Effect> = self
            .take_requests()
            .into_iter()
            .map(Effect::Think)
            .collect();
        effects.extend(self.take_prefs().map(Effect::SavePrefs));
        effects.extend(self.take_commands().into_iter().map(Effect::Net));
        effects.extend(self.take_messages().into_iter().map(Effect::ToHost));
        effects
    }

    fn view(&self, frame: &mut Frame) {
        draw(frame, self);
    }

    fn next_wake(&self) -> Option<Instant> {
        App::next_wake(self)
    }

    fn done(&self) -> bool {
        self.wants_quit()
    }

    fn take_copy(&mut self) -> Option<String> {
        self.take_copied()
    }
}

/// Where a round was recorded, as both ends' screens say it.
pub(crate) fn recorded_note(path: &std::path::Path) -> String {
    format!("Round recorded in {}.", home_relative(path))
}

/// `path` as a player reads it: under the home directory it starts with
/// `~`, which keeps the line short enough for the screen.
pub(crate) fn home_relative(path: &std::path::Path) -> String {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match home
        .as_deref()
        .and_then(|home| path.strip_prefix(home).ok())
    {
        Some(rest) if !rest.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => path.display().to_string(),
    }
}

/// The game's world: the computer players and the preferences.
pub struct GameWorld {
    /// The computer players' searches.
    pub worker: Worker,
    /// Where preferences are kept (`None`: nowhere, they last one game).
    pub prefs: Option<PathBuf>,
}

/// The game screen's, and a network match's screen's
/// (`crate::tui::net`).
impl<S: Screen<Message = GameMessage, Effect = Effect>> World<S> for GameWorld {
    fn perform(&mut self, effect: Effect, answers: &mut Vec<GameMessage>) {
        match effect {
            Effect::Think(request) => self.worker.submit(request),
            // A local match has no network game to answer.
            Effect::Net(_) | Effect::ToHost(_) => {}
            Effect::SavePrefs(prefs) => {
                if let Some(path) = &self.prefs
                    && let Err(warning) = prefs::save(path, &prefs)
                {
                    answers.push(GameMessage::Warning(warning));
                }
            }
        }
    }

    fn poll(&mut self, answers: &mut Vec<GameMessage>) {
        answers.extend(self.worker.poll().into_iter().map(GameMessage::Computer));
    }

    fn busy(&self) -> bool {
        self.worker.busy()
    }

    fn shut_down(&mut self) {
        // Stop any search but do not wait for it: the process ends soon.
        self.worker.stop_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_home_are_shown_from_a_tilde() {
        let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else {
            return;
        };
        assert_eq!(
            home_relative(&home.join(".local/share/mancala/records/a.txt")),
            "~/.local/share/mancala/records/a.txt"
        );
        assert_eq!(home_relative(std::path::Path::new("/x/y")), "/x/y");
    }
    use crate::store::SaveStore;
    use crate::tui::game::testing::{config, kept_app, key, pit_key};
    use crate::tui::screen::dispatch;
    use crossterm::event::KeyCode;
    use std::fs;
    use std::time::{Duration, Instant};

    #[test]
    fn through_the_screen_loop_each_move_is_saved_each_round_recorded_once_and_the_end_cleared() {
        use crate::players::PlayerKind;
        let scratch = crate::store::files::scratch("keep");
        let dir = scratch.path();
        let store = SaveStore::at(dir).unwrap();
        let t0 = Instant::now();
        let rules = crate::rules::Rules::KALAH;
        let mut app = kept_app(config(rules, PlayerKind::Human, PlayerKind::Human), dir, t0);
        let config = app.game().config().clone();
        let mut world = GameWorld {
            worker: Worker::new(&config, Duration::from_millis(10), 1),
            prefs: None,
        };
        let records = || fs::read_dir(dir.join("records")).unwrap().count();
        let mut press = |app: &mut App, input: Input| dispatch(app, &mut world, input.into(), t0);

        press(&mut app, pit_key('d'));
        assert_eq!(
            store.load(&config).unwrap().unwrap().moves(),
            app.game().moves()
        );
        while !app.round_over() {
            press(&mut app, Input::Key(key(KeyCode::Enter)));
        }
        assert_eq!(records(), 1);
        let stats = fs::read_to_string(store.stats_path()).unwrap();
        assert_eq!(stats.lines().count(), 1);
        let saved = store.load(&config).unwrap().unwrap();
        assert_eq!(
            (saved.round(), saved.moves().len()),
            (2, 0),
            "the next round"
        );
        assert_eq!(saved.tally(), app.game().tally());
        let note = app.round_note().unwrap().text.clone();
        assert!(note.starts_with("Round recorded in "), "{note}");
        assert!(note.contains(&dir.display().to_string()), "{note}");
        // Undo refused, keys repeated: still one record.
        press(&mut app, pit_key('u'));
        assert_eq!(records(), 1);
        press(&mut app, pit_key('n'));
        assert!(store.load(&config).unwrap().is_none(), "the match is over");
        assert_eq!(records(), 1);
    }
}
