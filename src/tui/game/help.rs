//! The help screen (`?`): the rules in force and every key.

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::rules::{Capture, Game, Rules, Side, Sowing, Sweep};
use crate::tui::chrome::{HelpText, draw_help};
use crate::tui::game::app::App;
use crate::tui::game::keys;
use crate::tui::prefs::speed_names;

/// The rules in force, in a few sentences.
#[must_use]
pub fn rules_text(rules: &Rules, names: [&str; 2]) -> Vec<String> {
    let [south, north] = names;
    let mut lines = vec![
        format!(
            "{south} plays {} on the bottom row, {north} plays {} on the top row.",
            rules.letter_range(Side::South),
            rules.letter_range(Side::North),
        ),
        "Lift all seeds of one of your pits and sow them one per pit, counter-clockwise, into your own store too but never the opponent's.".to_string(),
    ];
    if rules.sowing() == Sowing::Relay {
        lines.push("Relay: last seed in a pit that held seeds? Lift it and sow on.".to_string());
    }
    lines.push("Last seed in your own store: you move again.".to_string());
    lines.push(
        match rules.capture() {
            Capture::Always => {
                "Last seed in your own empty pit: it and the pit opposite go to your store."
            }
            Capture::NonEmpty => {
                "Last seed in your own empty pit, seeds opposite: both go to your store."
            }
            Capture::Never => "There are no captures.",
        }
        .to_string(),
    );
    lines.push(
        match rules.sweep() {
            Sweep::Owner => {
                "One side's pits empty: round over, pits go to their owner. Most seeds wins."
            }
            Sweep::None => "One side's pits empty: round over, seeds left in pits do not count.",
        }
        .to_string(),
    );
    lines
}

/// Oware's rules (RULES.md §7), in a few sentences.
#[must_use]
pub fn oware_rules_text(names: [&str; 2]) -> Vec<String> {
    let [south, north] = names;
    vec![
        format!("{south} plays a-f on the bottom row, {north} plays g-l on the top row."),
        "Lift all seeds of one of your houses and sow them one per house, counter-clockwise; with 12 or more, the house you lifted is skipped.".to_string(),
        "Last seed makes an opponent's house hold 2 or 3: you capture it, and the houses before it while they are the opponent's and hold 2 or 3.".to_string(),
        "A move that would capture all the opponent's seeds (a grand slam) captures nothing.".to_string(),
        "Your opponent has no seeds: you must give them some; if no move does, the round ends.".to_string(),
        "25 captured wins. At the end, or when a position repeats, seeds left go to the side they lie on.".to_string(),
    ]
}

/// The rules of `game` (with `rules`, Kalah's options) in a few
/// sentences: what every help screen of a round shows, the game's and the
/// replay's alike.
#[must_use]
pub fn family_rules_text(game: Game, rules: &Rules, names: [&str; 2]) -> Vec<String> {
    match game {
        Game::Kalah => rules_text(rules, names),
        Game::Oware => oware_rules_text(names),
    }
}

/// The help's keys: the screen's table of what can be done now
/// ([`keys::offers`], the key bar's too), then how commands are spelled
/// on every board.
#[must_use]
pub fn key_list(app: &App) -> Vec<(String, String)> {
    let offers = keys::offers(app);
    let offers: Vec<_> = offers.into_iter().filter(|o| !o.help.is_empty()).collect();
    let mut list: Vec<(String, String)> = offers
        .iter()
        .map(|o| (o.shown.clone(), o.help.clone()))
        .collect();
    // The session's commands: their capitals and words, the same in
    // plain mode, name no pit on any board.
    // One line at 80 columns, so that the whole help fits 80×24; plain
    // mode's own help lists its words.
    let capitals: Vec<String> = (app.session().open_commands().iter())
        .filter(|o| o.key.is_ascii_alphabetic())
        .map(|o| o.key.to_ascii_uppercase().to_string())
        .collect();
    if !capitals.is_empty() {
        list.push((
            "Capitals".into(),
            format!(
                "{} and Esc work on every board, as in plain mode",
                capitals.join(", ")
            ),
        ));
    }
    list
}

/// The speed for the header, longest first, with the pause in front when
/// the computers are paused ("PAUSED · 150 ms per seed", "… 150 ms/seed",
/// "… 150 ms"): every form says what the figure is.
#[must_use]
pub fn speed_texts(delay: Option<std::time::Duration>, paused: bool) -> Vec<String> {
    let texts = speed_names(delay);
    if paused {
        texts.iter().map(|t| format!("PAUSED · {t}")).collect()
    } else {
        texts
    }
}

/// The help screen of `app`: the rules in force and every key.
#[must_use]
pub fn text(app: &App) -> HelpText {
    let config = app.game().config();
    HelpText {
        title: " Mancala — help ".into(),
        heading: format!("Rules: {}", config.rules_text()),
        sentences: family_rules_text(config.game, app.rules(), app.names()),
        keys: key_list(app),
    }
}

/// Draws the help screen over the whole of `area` (the one help layout
/// every screen shares: [`draw_help`]).
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    draw_help(frame, area, &text(app), app.help_scroll(), app.theme());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::PlayerKind;
    use crate::tui::game::testing::{app_for, config};
    use std::time::Instant;

    /// An Oware match's help states Oware's rules, not Kalah's stores.
    #[test]
    fn an_oware_match_gets_oware_rules_in_its_help() {
        let mut oware = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Human);
        oware.game = Game::Oware;
        let help = text(&app_for(oware, None, Instant::now()));
        assert!(help.heading.contains("Oware"), "{}", help.heading);
        let all = help.sentences.join(" ");
        assert!(
            all.contains("2 or 3") && all.contains("25 captured wins"),
            "{all}"
        );
        assert!(!all.contains("store"), "{all}");
        // its keys say houses, Oware's word, where Kalah's say pits
        let keys = |help: &HelpText| {
            let said: Vec<&str> = help.keys.iter().map(|(_, what)| what.as_str()).collect();
            said.join(" ")
        };
        let said = keys(&help);
        assert!(said.contains("choose a house by letter"), "{said}");
        assert!(!said.contains("pit"), "{said}");
        let kalah = config(Rules::KALAH, PlayerKind::Human, PlayerKind::Human);
        let help = text(&app_for(kalah, None, Instant::now()));
        assert!(help.sentences.join(" ").contains("your own store"));
        assert!(keys(&help).contains("choose a pit by letter"));
    }
}
