//! The look of the solitaire screen, in colour or monochrome.
//!
//! Meaning never rests on colour alone: legal houses carry a `▲` and a
//! thick border, the selected one a `▼`, the hint a `★`, so the monochrome
//! theme (for `NO_COLOR`) only drops the colours.

use ratatui::style::{Color, Modifier, Style};

/// Styles for each part of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours are used at all.
    pub colour: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set to a non-empty value (no-color.org).
    #[must_use]
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { colour: !no_color }
    }

    /// The colour theme.
    pub const COLOUR: Theme = Theme { colour: true };
    /// The monochrome theme.
    pub const MONO: Theme = Theme { colour: false };

    fn tint(self, style: Style, colour: Color) -> Style {
        if self.colour { style.fg(colour) } else { style }
    }

    /// Frames and ordinary text.
    #[must_use]
    pub fn frame(self) -> Style {
        self.tint(Style::new(), Color::Gray)
    }

    /// The title.
    #[must_use]
    pub fn title(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    /// A house that cannot be played.
    #[must_use]
    pub fn house(self) -> Style {
        self.tint(Style::new(), Color::Gray)
    }

    /// A house that can be played.
    #[must_use]
    pub fn legal(self) -> Style {
        self.tint(Style::new().add_modifier(Modifier::BOLD), Color::Green)
    }

    /// The selected house's marker and number.
    #[must_use]
    pub fn cursor(self) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        if self.colour {
            style.fg(Color::Yellow)
        } else {
            style.add_modifier(Modifier::REVERSED)
        }
    }

    /// The hint marker.
    #[must_use]
    pub fn hint(self) -> Style {
        self.tint(Style::new().add_modifier(Modifier::BOLD), Color::Cyan)
    }

    /// The store (pink in doc 003's pictures).
    #[must_use]
    pub fn store(self) -> Style {
        self.tint(Style::new().add_modifier(Modifier::BOLD), Color::Magenta)
    }

    /// The seeds in the hand, and the house a seed just landed in.
    #[must_use]
    pub fn hand(self) -> Style {
        self.tint(Style::new().add_modifier(Modifier::BOLD), Color::Yellow)
    }

    /// Seed marks.
    #[must_use]
    pub fn seeds(self) -> Style {
        self.tint(Style::new(), Color::Yellow)
    }

    /// A won board.
    #[must_use]
    pub fn won(self) -> Style {
        self.tint(Style::new().add_modifier(Modifier::BOLD), Color::Green)
    }

    /// A stuck board, and refused moves.
    #[must_use]
    pub fn stuck(self) -> Style {
        self.tint(Style::new().add_modifier(Modifier::BOLD), Color::Red)
    }

    /// Secondary text: key help, scroll notes.
    #[must_use]
    pub fn dim(self) -> Style {
        if self.colour {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new()
        }
    }
}
