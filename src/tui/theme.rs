//! Colours and text styles, in two flavours: a colour theme readable on
//! light and dark backgrounds, and a monochrome one for `NO_COLOR`.
//!
//! Nothing on screen is told by colour alone: the pit being sown has a thick
//! border, the selected pit a double one, the mover's name a `▶` marker, and
//! errors a `✗`. The colours only add to that.

use std::fmt;
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};

/// The look the players chose (kept in the [preferences](crate::tui::prefs)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Palette {
    /// The colour theme.
    #[default]
    Colour,
    /// Black and white: bold, reverse and dim only.
    Mono,
}

impl Palette {
    /// The other one (the key that switches them).
    #[must_use]
    pub fn other(self) -> Palette {
        match self {
            Palette::Colour => Palette::Mono,
            Palette::Mono => Palette::Colour,
        }
    }
}

impl fmt::Display for Palette {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Palette::Colour => "colour",
            Palette::Mono => "mono",
        })
    }
}

impl FromStr for Palette {
    type Err = String;

    fn from_str(text: &str) -> Result<Palette, String> {
        match text {
            "colour" | "color" => Ok(Palette::Colour),
            "mono" => Ok(Palette::Mono),
            _ => Err("the theme is neither colour nor mono".into()),
        }
    }
}

/// The styles the screens draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether this is the monochrome theme.
    pub monochrome: bool,
    /// Plain text.
    pub text: Style,
    /// Secondary text (rules line, idle captions).
    pub dim: Style,
    /// Headings and names.
    pub title: Style,
    /// A key in the key bar and on the help screen.
    pub key: Style,
    /// Seed counts.
    pub count: Style,
    /// Seed marks.
    pub seeds: Style,
    /// A pit or store border.
    pub border: Style,
    /// The border of the pit under the cursor.
    pub selected: Style,
    /// The pit or store a seed is moving through right now.
    pub active: Style,
    /// The mover's label.
    pub mover: Style,
    /// Messages that report a mistake.
    pub error: Style,
    /// Messages that report something good (an extra turn, a capture, a win).
    pub good: Style,
    /// A pit or house that can be played now (solitaire marks them with
    /// `▲` and a thick border too).
    pub playable: Style,
    /// The move a hint points at (marked with `★` too).
    pub hint: Style,
    /// South's pits, store, seeds and name.
    pub south: Style,
    /// North's pits, store, seeds and name.
    pub north: Style,
}

impl Theme {
    /// Colours chosen to read on both light and dark backgrounds: wherever a
    /// background colour is set, the foreground is set too.
    #[must_use]
    pub fn colour() -> Theme {
        Theme {
            monochrome: false,
            text: Style::new(),
            dim: Style::new().add_modifier(Modifier::DIM),
            title: Style::new().add_modifier(Modifier::BOLD),
            key: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            count: Style::new().add_modifier(Modifier::BOLD),
            seeds: Style::new().fg(Color::Green),
            border: Style::new(),
            selected: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            active: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            mover: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            good: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            playable: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            hint: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            // Two hues that read on dark and light backgrounds alike and
            // differ from the highlight (yellow) and the messages (red, green).
            south: Style::new().fg(Color::Cyan),
            north: Style::new().fg(Color::Magenta),
        }
    }

    /// No colours at all: bold, reverse and dim only.
    #[must_use]
    pub fn monochrome() -> Theme {
        Theme {
            monochrome: true,
            text: Style::new(),
            dim: Style::new().add_modifier(Modifier::DIM),
            title: Style::new().add_modifier(Modifier::BOLD),
            key: Style::new().add_modifier(Modifier::BOLD),
            count: Style::new().add_modifier(Modifier::BOLD),
            seeds: Style::new(),
            border: Style::new(),
            selected: Style::new().add_modifier(Modifier::BOLD),
            active: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            mover: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            error: Style::new().add_modifier(Modifier::BOLD),
            good: Style::new().add_modifier(Modifier::BOLD),
            playable: Style::new().add_modifier(Modifier::BOLD),
            hint: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            // The rows' places tell the sides apart.
            south: Style::new(),
            north: Style::new(),
        }
    }

    /// `side`'s colour.
    #[must_use]
    pub fn side(&self, side: crate::rules::Side) -> Style {
        match side {
            crate::rules::Side::South => self.south,
            crate::rules::Side::North => self.north,
        }
    }

    /// The theme of `palette`.
    #[must_use]
    pub fn of(palette: Palette) -> Theme {
        match palette {
            Palette::Colour => Theme::colour(),
            Palette::Mono => Theme::monochrome(),
        }
    }

    /// Whether `NO_COLOR` is set to a non-empty value (the
    /// <https://no-color.org> convention): no colours, whatever was chosen.
    /// Read here rather than left to crossterm, whose own handling of it
    /// also drops bold and reverse.
    #[must_use]
    pub fn colour_forbidden() -> bool {
        forbids_colour(std::env::var_os("NO_COLOR").as_deref())
    }

    /// The palette this theme is.
    #[must_use]
    pub fn palette(&self) -> Palette {
        if self.monochrome {
            Palette::Mono
        } else {
            Palette::Colour
        }
    }
}

/// Whether a `NO_COLOR` value forbids colours: any non-empty value does.
fn forbids_colour(no_color: Option<&std::ffi::OsStr>) -> bool {
    no_color.is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_color_with_a_value_means_monochrome() {
        assert!(forbids_colour(Some(OsStr::new("1"))));
        assert!(!forbids_colour(Some(OsStr::new(""))));
        assert!(!forbids_colour(None));
    }

    #[test]
    fn the_monochrome_theme_sets_no_colour() {
        let t = Theme::monochrome();
        for style in [
            t.text, t.dim, t.title, t.key, t.count, t.seeds, t.border, t.selected, t.active,
            t.mover, t.error, t.good, t.south, t.north,
        ] {
            assert_eq!((style.fg, style.bg), (None, None), "{style:?}");
        }
        // The sides differ in colour, and from the highlight.
        let colour = Theme::colour();
        assert_ne!(colour.south.fg, colour.north.fg);
        assert_ne!(colour.south.fg, colour.active.bg);
        assert_ne!(colour.north.fg, colour.active.bg);
        // The highlights still stand out without colour.
        assert!(t.active.add_modifier.contains(Modifier::REVERSED));
        assert!(t.mover.add_modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn colour_backgrounds_always_come_with_a_foreground() {
        let t = Theme::colour();
        let all = [
            t.text, t.dim, t.title, t.key, t.count, t.seeds, t.border, t.selected, t.active,
            t.mover, t.error, t.good,
        ];
        // The moving seed and the mover stand out by background...
        for style in [t.active, t.mover] {
            assert!(style.bg.is_some() && style.fg.is_some(), "{style:?}");
        }
        // ...and no style sets a background without its foreground, which
        // would leave the terminal's own text colour on it (unreadable on
        // one of light or dark backgrounds).
        let backgrounds: Vec<_> = all.iter().filter(|s| s.bg.is_some()).collect();
        assert_eq!(backgrounds.len(), 2, "{backgrounds:?}");
        for style in all {
            assert!(style.bg.is_none() || style.fg.is_some(), "{style:?}");
        }
    }

    #[test]
    fn playable_and_hint_stand_out_in_both_themes() {
        let mono = Theme::monochrome();
        for style in [mono.playable, mono.hint] {
            assert_eq!((style.fg, style.bg), (None, None), "{style:?}");
            assert!(style.add_modifier.contains(Modifier::BOLD));
        }
        assert!(mono.hint.add_modifier.contains(Modifier::REVERSED));
        let colour = Theme::colour();
        // The hint sets a background, so it sets its foreground too.
        assert!(colour.hint.bg.is_some() && colour.hint.fg.is_some());
        assert_ne!(colour.playable, colour.border);
    }
}
