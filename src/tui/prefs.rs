//! Preferences kept between games, shared by every screen (the game,
//! solitaire, the replay): the sowing speed and the colour theme, in a
//! small text file in the configuration directory
//! ([`crate::store::dirs::config_dir`]):
//!
//! ```text
//! # mancala preferences
//! speed = 150
//! theme = colour
//! ```
//!
//! `speed` is milliseconds per seed, `off` for no animation; `theme` is
//! `colour` or `mono` (`NO_COLOR` still turns colours off for a run). A
//! setting left out takes its default. The file is read with a bound; a
//! file that is missing gives the defaults quietly, one that is unreadable
//! or corrupt gives the defaults and a one-line message, never a crash.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use crate::game::{MAX_SPEED_MS, parse_speed};

use crate::game::DEFAULT_SPEED_MS;
use crate::store::dirs::config_dir;
use crate::store::files::write_atomic;
use crate::store::files::{self, Follow, ReadError};
use crate::tui::chrome::{KeyBar, Weight};
use crate::tui::screen::{Screen, World};
use crate::tui::theme::{Palette, Theme};

/// The file's name in the configuration directory.
pub const FILE_NAME: &str = "preferences";
/// The most bytes read from the file: it holds a few short lines.
const MAX_BYTES: u64 = 4096;
/// Sowing speeds `+` and `-` step through, in milliseconds per seed (0: no animation).
const SPEEDS_MS: [u64; 11] = [0, 20, 40, 70, 100, 150, 220, 330, 500, 750, 1000];

/// What the players chose last time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefs {
    /// Pause between two seeds of the animation; `None`: no animation.
    pub seed_delay: Option<Duration>,
    /// Colours or black and white.
    pub palette: Palette,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            seed_delay: Some(Duration::from_millis(DEFAULT_SPEED_MS)),
            palette: Palette::Colour,
        }
    }
}

/// The speed after `current` when `+` (`faster`) or `-` is pressed, in the
/// steps every screen uses; `Err` with the sentence to show at either end.
///
/// # Errors
/// "Already the fastest: ..." or "Already the slowest: ...".
pub fn next_speed(current: Option<Duration>, faster: bool) -> Result<Option<Duration>, String> {
    let now_ms = current.map_or(0, |d| d.as_millis() as u64);
    let next = if faster {
        SPEEDS_MS.iter().rev().find(|&&ms| ms < now_ms)
    } else {
        SPEEDS_MS.iter().find(|&&ms| ms > now_ms)
    };
    match next {
        Some(&ms) => Ok((ms > 0).then(|| Duration::from_millis(ms))),
        None if faster => Err(format!("Already the fastest: {}.", speed_name(None))),
        None => Err(format!(
            "Already the slowest: {}.",
            speed_name(Some(Duration::from_millis(SPEEDS_MS[SPEEDS_MS.len() - 1])))
        )),
    }
}

/// How a sowing speed reads on every screen, longest first, for where
/// room is short: "150 ms per seed", "150 ms/seed", "150 ms"; "no
/// animation", "no anim.". Every wording of a speed comes from here (the
/// full one from [`speed_name`]).
#[must_use]
pub fn speed_names(delay: Option<Duration>) -> Vec<String> {
    match delay {
        Some(d) => {
            let ms = d.as_millis();
            vec![
                speed_name(delay),
                format!("{ms} ms/seed"),
                format!("{ms} ms"),
            ]
        }
        None => vec![speed_name(delay), "no anim.".to_string()],
    }
}

/// How a sowing speed reads in full: "150 ms per seed", or "no
/// animation" (the first of [`speed_names`]).
#[must_use]
pub fn speed_name(delay: Option<Duration>) -> String {
    match delay {
        Some(d) => format!("{} ms per seed", d.as_millis()),
        None => "no animation".to_string(),
    }
}

/// What the screens say when the speed changed.
#[must_use]
pub fn speed_message(delay: Option<Duration>) -> String {
    match delay {
        Some(_) => format!("Sowing speed: {}.", speed_name(delay)),
        None => "Animation off.".to_string(),
    }
}

/// What the screens say when the theme key is pressed and the theme is
/// now `palette` (or stays black and white because `NO_COLOR` is set).
#[must_use]
pub fn palette_message(palette: Palette, forbidden: bool) -> String {
    match (forbidden, palette) {
        (true, _) => "NO_COLOR is set: this run stays black and white.".to_string(),
        (false, Palette::Colour) => "Colours on (t: black and white).".to_string(),
        (false, Palette::Mono) => "Black and white (t: colours).".to_string(),
    }
}

/// The speed and theme a screen shows things with, and what the keys that
/// change them (`+`, `-`, `t`) do: the same on every screen. Changes are
/// handed on ([`Chosen::take_changed`]) to be kept in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chosen {
    seed_delay: Option<Duration>,
    theme: Theme,
    /// What is kept in the file: a speed given on the command line is for
    /// one run only, and is kept only once changed here.
    kept: Prefs,
    colour_forbidden: bool,
    changed: bool,
}

impl Chosen {
    /// Showing with `seed_delay` (`None` or zero: no animation) and
    /// `theme`; `kept` is what the file holds, `colour_forbidden` says that
    /// `NO_COLOR` is set.
    #[must_use]
    pub fn new(
        seed_delay: Option<Duration>,
        theme: Theme,
        kept: Prefs,
        colour_forbidden: bool,
    ) -> Chosen {
        Chosen {
            seed_delay: seed_delay.filter(|d| !d.is_zero()),
            theme,
            kept,
            colour_forbidden,
            changed: false,
        }
    }

    /// Showing with `seed_delay` and `theme`, which are also what is kept
    /// once one of them changes (a screen not yet given the preferences
    /// file's, as in tests).
    #[must_use]
    pub fn unkept(seed_delay: Option<Duration>, theme: Theme) -> Chosen {
        let kept = Prefs {
            seed_delay,
            palette: theme.palette(),
        };
        Chosen::new(seed_delay, theme, kept, false)
    }

    /// For a run with the preferences `kept` in the file: the speed given
    /// on the command line (`given`), else the kept one; the kept theme
    /// unless `NO_COLOR` is set.
    #[must_use]
    pub fn for_run(given: Option<Option<Duration>>, kept: Prefs) -> Chosen {
        let forbidden = Theme::colour_forbidden();
        let theme = if forbidden {
            Theme::monochrome()
        } else {
            Theme::of(kept.palette)
        };
        Chosen::new(given.unwrap_or(kept.seed_delay), theme, kept, forbidden)
    }

    /// The pause between two seeds (`None`: no animation).
    #[must_use]
    pub fn seed_delay(&self) -> Option<Duration> {
        self.seed_delay
    }

    /// The styles to draw with.
    #[must_use]
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// `+` (`faster`) or `-`: the new speed, or the sentence saying it is
    /// already the fastest or slowest.
    ///
    /// # Errors
    /// At either end of the speeds.
    pub fn change_speed(&mut self, faster: bool) -> Result<Option<Duration>, String> {
        let next = next_speed(self.seed_delay, faster)?;
        self.seed_delay = next;
        self.kept.seed_delay = next;
        self.changed = true;
        Ok(next)
    }

    /// `+` (`faster`) or `-` on a screen that may be sowing: the animation
    /// in play follows the new speed (none when animation is off), and the
    /// sentence that says the speed, or that it is already at an end.
    pub fn change_speed_of(
        &mut self,
        animation: &mut Option<crate::tui::animation::Animation>,
        faster: bool,
    ) -> String {
        match self.change_speed(faster) {
            Ok(next) => {
                match (next, animation.as_mut()) {
                    (Some(delay), Some(shown)) => shown.set_delay(delay),
                    (None, _) => *animation = None,
                    _ => {}
                }
                speed_message(next)
            }
            Err(end) => end,
        }
    }

    /// Whether `t` can change the theme (not while `NO_COLOR` is set).
    #[must_use]
    pub fn can_switch_theme(&self) -> bool {
        !self.colour_forbidden
    }

    /// Puts the keys that change the speed and the theme in a screen's key
    /// bar: `+/-` always, `theme_key` (`t`, or `T` where `t` names a pit)
    /// only where it can work, not while `NO_COLOR` is set. Every screen's
    /// bar takes them from here, so that the rule is one.
    pub fn add_keys(&self, bar: &mut KeyBar, theme_key: &str) {
        bar.add("+/-", "speed", Weight::Optional);
        self.add_theme_key(bar, theme_key);
    }

    /// Only the theme key of [`Chosen::add_keys`], for a screen that sows
    /// nothing (the analysis).
    pub fn add_theme_key(&self, bar: &mut KeyBar, theme_key: &str) {
        if self.can_switch_theme() {
            bar.add(theme_key, "colours", Weight::Optional);
        }
    }

    /// The same keys as [`Chosen::add_keys`] for a help screen, as (keys,
    /// what they do) pairs, with the speed now.
    #[must_use]
    pub fn help_keys(&self, theme_key: &str) -> Vec<(String, String)> {
        let mut keys = vec![(
            "+ / -".to_string(),
            format!(
                "faster / slower sowing, kept for next time (now {})",
                speed_name(self.seed_delay)
            ),
        )];
        keys.extend(self.help_theme_key(theme_key));
        keys
    }

    /// Only the theme key of [`Chosen::help_keys`] (none while
    /// `NO_COLOR` is set), for a screen that sows nothing (the analysis).
    #[must_use]
    pub fn help_theme_key(&self, theme_key: &str) -> Option<(String, String)> {
        self.can_switch_theme().then(|| {
            (
                theme_key.to_string(),
                "colours or black and white, kept for next time".to_string(),
            )
        })
    }

    /// `t`: colours or black and white (`NO_COLOR` keeps a run black and
    /// white); the sentence to show.
    pub fn switch_theme(&mut self) -> String {
        if !self.colour_forbidden {
            let palette = self.theme.palette().other();
            self.theme = Theme::of(palette);
            self.kept.palette = palette;
            self.changed = true;
        }
        palette_message(self.theme.palette(), self.colour_forbidden)
    }

    /// The preferences to keep, if they changed since the last call.
    pub fn take_changed(&mut self) -> Option<Prefs> {
        std::mem::take(&mut self.changed).then_some(self.kept)
    }
}

/// The world of a screen whose one effect is keeping the preferences
/// (solitaire, the replay): writes them, and keeps the first problem to
/// print once the screen is closed.
#[derive(Debug, Default)]
pub struct PrefsWorld {
    /// Where they are kept.
    pub kept: Kept,
    /// The first save that failed, in one line.
    pub problem: Option<String>,
}

impl PrefsWorld {
    /// Runs `screen` full screen with the preferences `kept`; a save that
    /// failed is said once the normal screen is back.
    ///
    /// # Errors
    /// When the terminal fails.
    pub fn run<S: Screen<Effect = Prefs>>(screen: &mut S, kept: Kept) -> std::io::Result<()> {
        let mut world = PrefsWorld {
            kept,
            problem: None,
        };
        crate::tui::screen::run(screen, &mut world)?;
        if let Some(problem) = world.problem {
            crate::console::warn(problem);
        }
        Ok(())
    }
}

impl<S: Screen<Effect = Prefs>> World<S> for PrefsWorld {
    fn perform(&mut self, prefs: Prefs, _: &mut Vec<S::Message>) {
        if let Err(problem) = self.kept.save(prefs) {
            self.problem.get_or_insert(problem);
        }
    }

    fn poll(&mut self, _: &mut Vec<S::Message>) {}
}

/// The preferences of a run: as read from the file (or the defaults), where
/// they are kept, and what was wrong with the file, to show once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The preferences.
    pub prefs: Prefs,
    /// The file (`None`: no configuration directory; they last one run).
    pub path: Option<PathBuf>,
    /// The one line about a file that could not be used.
    pub problem: Option<String>,
}

impl Kept {
    /// Reads the preferences file, if there is one.
    #[must_use]
    pub fn load() -> Kept {
        let path = path();
        let (prefs, problem) = match path.as_deref().map(load) {
            Some(Ok(Some(prefs))) => (prefs, None),
            Some(Err(problem)) => (Prefs::default(), Some(problem)),
            Some(Ok(None)) | None => (Prefs::default(), None),
        };
        Kept {
            prefs,
            path,
            problem,
        }
    }

    /// Writes `prefs` to the file, if there is one.
    ///
    /// # Errors
    /// A one-line message naming the file.
    pub fn save(&mut self, prefs: Prefs) -> Result<(), String> {
        self.prefs = prefs;
        match &self.path {
            Some(path) => save(path, &prefs),
            None => Ok(()),
        }
    }
}

/// Where the preferences file is, if there is a configuration directory.
#[must_use]
pub fn path() -> Option<PathBuf> {
    config_dir().map(|dir| dir.join(FILE_NAME))
}

/// Reads the preferences: `Ok(None)` when there are none yet; `Err` with a
/// one-line message when the file cannot be read or makes no sense.
///
/// # Errors
/// A sentence naming the file and what is wrong with it.
pub fn load(path: &Path) -> Result<Option<Prefs>, String> {
    // The game's one bounded reader: a regular file only (a FIFO or a
    // device there never blocks or floods), at most MAX_BYTES. A link is
    // followed: people keep their configuration files in linked dotfiles.
    let text = match files::read_text(path, MAX_BYTES, Follow::Allowed) {
        Ok(text) => text,
        Err(ReadError::NotFound) => return Ok(None),
        Err(e) => return Err(problem(path, &e.to_string())),
    };
    parse(&text).map(Some).map_err(|e| problem(path, &e))
}

fn problem(path: &Path, what: &str) -> String {
    format!(
        "Preferences in {} were not used ({what}); the defaults apply.",
        path.display()
    )
}

/// The preferences in `text` (see the [module docs](self)).
///
/// # Errors
/// What is wrong, in a few words.
pub fn parse(text: &str) -> Result<Prefs, String> {
    let mut prefs = Prefs::default();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err("a line without '='".into());
        };
        match (key.trim(), value.trim()) {
            ("speed", speed) => prefs.seed_delay = parse_speed(speed)?,
            ("theme", name) => prefs.palette = name.parse()?,
            // Keys of later versions are left alone.
            _ => {}
        }
    }
    Ok(prefs)
}

/// The file's text for `prefs`.
#[must_use]
pub fn render(prefs: &Prefs) -> String {
    let speed = prefs
        .seed_delay
        .map_or("off".to_string(), |d| d.as_millis().to_string());
    format!(
        "# mancala preferences\nspeed = {speed}\ntheme = {}\n",
        prefs.palette
    )
}

/// Writes `prefs` to `path` (creating its directory), replacing the file
/// whole so that a crash never leaves half of it.
///
/// # Errors
/// A one-line message naming the file.
pub fn save(path: &Path, prefs: &Prefs) -> Result<(), String> {
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        write_atomic(path, &render(prefs))
    };
    write().map_err(|e| {
        format!(
            "The preferences could not be saved in {}: {e}.",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder (removed on drop) and the preferences file in a
    /// folder of it that does not exist yet.
    fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let scratch = crate::store::files::scratch(&format!("prefs-{name}"));
        let path = scratch.path().join("config").join(FILE_NAME);
        (scratch, path)
    }

    #[test]
    fn preferences_round_trip_and_a_missing_file_is_no_problem() {
        let (_scratch, path) = temp("round-trip");
        assert_eq!(load(&path), Ok(None));
        for seed_delay in [None, Some(Duration::from_millis(330))] {
            for palette in [Palette::Colour, Palette::Mono] {
                let prefs = Prefs {
                    seed_delay,
                    palette,
                };
                save(&path, &prefs).unwrap();
                assert_eq!(load(&path), Ok(Some(prefs)));
            }
        }
    }

    #[test]
    fn a_corrupt_or_huge_file_gives_one_line_and_the_defaults() {
        let (_scratch, path) = temp("corrupt");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        for text in [
            "speed = fast\n".to_string(),
            "speed = 100\ntheme = rainbow\n".to_string(),
            "\u{0}\u{1}garbage".to_string(),
            "speed = 99999999999999999999\n".to_string(),
            "speed = 5001\n".to_string(),
            "speed = -5\n".to_string(),
            format!("# {}\nspeed = 100\n", "x".repeat(10_000)),
        ] {
            fs::write(&path, &text).unwrap();
            let message = load(&path).unwrap_err();
            assert!(message.starts_with("Preferences in "), "{message}");
            assert!(message.ends_with("the defaults apply."), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
        fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        assert!(load(&path).is_err(), "not UTF-8");
    }

    #[test]
    fn each_setting_left_out_takes_its_default() {
        assert_eq!(parse(""), Ok(Prefs::default()));
        assert_eq!(
            parse("theme = mono\n"),
            Ok(Prefs {
                palette: Palette::Mono,
                ..Prefs::default()
            })
        );
        assert_eq!(
            parse("speed = off\n"),
            Ok(Prefs {
                seed_delay: None,
                ..Prefs::default()
            })
        );
        assert_eq!(parse(&render(&Prefs::default())), Ok(Prefs::default()));
    }

    #[test]
    fn speeds_step_through_the_list_and_stop_at_either_end() {
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(next_speed(ms(150), true), Ok(ms(100)));
        assert_eq!(next_speed(ms(150), false), Ok(ms(220)));
        assert_eq!(next_speed(ms(20), true), Ok(None));
        assert_eq!(next_speed(ms(123), true), Ok(ms(100)), "between steps");
        assert!(next_speed(None, true).unwrap_err().contains("fastest"));
        assert!(next_speed(ms(1000), false).unwrap_err().contains("slowest"));
    }
}
