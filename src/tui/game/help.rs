//! The help screen (`?`): the rules in force and every key.

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::rules::{Capture, Rules, Side, Sowing, Sweep};
use crate::tui::chrome::{HelpText, draw_help};
use crate::tui::game::app::App;
use crate::tui::game::keys::command_key;
use crate::tui::prefs::{Chosen, speed_names};

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

/// Every key on this board, as (keys, what they do) pairs; a command whose
/// letter names a pit here shows its capital (see [`command_key`]). A match
/// with a friend on another machine (`networked`) takes a move back only
/// when both agree, redoes nothing and pauses nobody. The speed and theme
/// keys are `chosen`'s ([`Chosen::help_keys`]: no colours key while
/// `NO_COLOR` is set, as in the key bar).
#[must_use]
pub fn key_list(rules: &Rules, chosen: &Chosen, networked: bool) -> Vec<(String, String)> {
    let theme_switch = chosen.can_switch_theme();
    let key = |letter| command_key(rules, letter);
    let wait = if rules.pits() >= 10 {
        " (1 waits a moment, or Enter, for a second digit)"
    } else {
        ""
    };
    let letters = format!(
        "{} / {}",
        rules.letter_range(Side::South),
        rules.letter_range(Side::North)
    );
    let mut keys = vec![
        (
            letters,
            format!(
                "choose a pit by letter; {} by number from the mover's left{wait}",
                rules.number_range()
            ),
        ),
        (
            "← → Enter".into(),
            "move the cursor and play (Space too), or click a pit".into(),
        ),
        (key('h').into(), "hint for the human to move".into()),
    ];
    if networked {
        keys.push((
            key('u').into(),
            "ask the other player to agree to take back your last move (and their reply)".into(),
        ));
    } else {
        keys.push((
            format!("{} / {}", key('u'), key('r')),
            "take back / play again a whole turn (with the replies)".into(),
        ));
    }
    keys.extend(chosen.help_keys(&key('t').to_string()));
    if !networked {
        keys.push((
            format!("{} / {} or .", key('p'), key('s')),
            "pause the computer / step one computer move".into(),
        ));
        keys.push((
            key('m').into(),
            "a thinking computer moves now: the best it has found so far".into(),
        ));
    }
    let quit = if networked {
        "leave (asks first); the host keeps the match saved"
    } else {
        "quit (asks first); Ctrl-C quits at once"
    };
    keys.extend([
        (
            "y / n".into(),
            if networked {
                "after a round: play again / stop (both answer); also the answer to a request to take back a move"
            } else {
                "after a round: play again / stop"
            }
            .into(),
        ),
    ]);
    if !networked {
        keys.push((
            key('a').into(),
            "after a round: its analysis, every move under perfect play (q comes back)".into(),
        ));
    }
    keys.extend([
        (format!("{} or Esc", key('q')), quit.into()),
        (
            "any key".into(),
            "finishes an animation; ? shows this help".into(),
        ),
    ]);
    let taken: Vec<char> = "hurtpsmq"
        .chars()
        .filter(|&letter| theme_switch || letter != 't')
        .filter(|&letter| rules.pit_by_letter(letter).is_some())
        .collect();
    if !taken.is_empty() {
        let list = |letters: &mut dyn Iterator<Item = char>| {
            letters.map(String::from).collect::<Vec<_>>().join(", ")
        };
        let verb = if taken.len() == 1 {
            "names a pit"
        } else {
            "name pits"
        };
        keys.push((
            "Capitals".into(),
            format!(
                "{} {verb} on this board, so the command is {}; every command answers to its capital too",
                list(&mut taken.iter().copied()),
                list(&mut taken.iter().map(char::to_ascii_uppercase)),
            ),
        ));
    }
    keys
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
    let rules = app.rules();
    HelpText {
        title: " Mancala — help ".into(),
        heading: format!("Rules: {rules}"),
        sentences: rules_text(rules, app.names()),
        keys: key_list(rules, app.prefs(), app.is_networked()),
    }
}

/// Draws the help screen over the whole of `area` (the one help layout
/// every screen shares: [`draw_help`]).
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    draw_help(frame, area, &text(app), app.help_scroll(), app.theme());
}
