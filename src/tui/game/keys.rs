//! The game screen's keys: one table of what can be done now ([`offers`]),
//! which the key bar, the `?` help and the key handling all read, as
//! gitui's components list the commands they offer next to the keys they
//! handle.
//!
//! The match's commands and their keys on this board are the session's
//! one answer ([`Session::open_commands`](crate::session::Session::open_commands));
//! the screen adds its own keys beside them (the cursor, the speed, the
//! colours, the computers' pause, the analysis, the quit question's
//! answers). One rule on every board, the same as plain mode's: a
//! lower-case letter that names a pit here is that pit; a command whose
//! letter names a pit is its capital ([`command_key`]), and every command
//! answers to its capital, so the capitals, `Esc` and `?` name no pit on
//! any board. A capital with no command still names its pit (Caps Lock).
//!
//! `m` (move now) is a letter, not `Enter` or Space: those play the cursor's
//! pit on a human turn, and a second press after one's own move would
//! otherwise cut the computer's thinking short.

use crossterm::event::KeyCode;

use crate::rules::{Pit, Rules, Side};
use crate::session::{Asking, OpenCommand, SessionCommand};
use crate::tui::chrome::Weight;
use crate::tui::game::app::{App, Mode, Overlay};
use crate::tui::prefs::speed_name;

/// The key that runs the command of `letter` on this board: the session's
/// one rule, shared with plain mode.
pub use crate::session::commands::command_key;

/// What a key of the table does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Does {
    /// A command of the match, as the session offers it.
    Session(SessionCommand),
    /// Plays a pit (the letters and numbers, read before the table: a
    /// pit letter is always its pit).
    Pits,
    /// ← → move the cursor, Enter or Space play its pit.
    Cursor,
    /// `+` sows faster, `-` slower.
    Speed,
    /// Colours or black and white.
    Theme,
    /// Pauses or resumes the computer players.
    Pause,
    /// A paused computer makes one move.
    Step,
    /// The hint being looked for answers now.
    Hurry,
    /// The analysis of the round just played.
    Analyse,
    /// The quit question's answer: quit (`true`) or go back.
    Leave(bool),
    /// Any key finishes the move on show.
    Skip,
}

/// One line of the table: what it does, its keys, and how the key bar and
/// the help say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// What it does.
    pub does: Does,
    /// The keys that do it (a lower-case letter's capital too).
    pub keys: Vec<KeyCode>,
    /// The keys as the help writes them ("u", "q or Esc", "+/-"); the key
    /// bar writes the first ("q").
    pub shown: String,
    /// What it does in the key bar's few letters.
    pub label: String,
    /// What it does, as the help says it; empty for a key the help does
    /// not offer (one that only says why it does nothing now).
    pub help: String,
    /// Its place in the key bar; `None`: in the help only.
    pub bar: Option<Weight>,
    /// The session's word for it (plain mode's spelling), for a command.
    pub word: Option<&'static str>,
}

impl Offer {
    fn new(does: Does, keys: &[KeyCode], shown: impl Into<String>, label: &str) -> Offer {
        Offer {
            does,
            keys: keys.to_vec(),
            shown: shown.into(),
            label: label.to_string(),
            help: label.to_string(),
            bar: Some(Weight::Essential),
            word: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Offer {
        self.help = help.into();
        self
    }

    fn bar(mut self, weight: Option<Weight>) -> Offer {
        self.bar = weight;
        self
    }

    /// The keys as the key bar writes them: the first spelling.
    #[must_use]
    pub fn bar_key(&self) -> &str {
        self.shown.split(" or ").next().unwrap_or_default()
    }

    /// Whether `code` is one of its keys; a lower-case key answers to its
    /// capital too.
    #[must_use]
    pub fn answers(&self, code: KeyCode) -> bool {
        self.keys.contains(&code)
            || matches!(code, KeyCode::Char(c) if c.is_ascii_uppercase()
                && self.keys.contains(&KeyCode::Char(c.to_ascii_lowercase())))
    }
}

/// The one key of a letter command on this board, and its keys.
fn letter(rules: &Rules, letter: char) -> (char, [KeyCode; 1]) {
    let key = command_key(rules, letter);
    (key, [KeyCode::Char(key)])
}

/// What can be done on `app`'s screen now (behind an open help: what can
/// be done under it), in the key bar's order. See the [module docs](self).
#[must_use]
pub fn offers(app: &App) -> Vec<Offer> {
    use Weight::{Essential, Optional, Useful};
    if app.dialog() == Some(Overlay::ConfirmQuit) {
        return vec![
            Offer::new(Does::Leave(true), &[KeyCode::Char('y')], "y", "quit"),
            Offer::new(
                Does::Leave(false),
                &[KeyCode::Char('n'), KeyCode::Char('q'), KeyCode::Esc],
                "n",
                "back",
            ),
        ];
    }
    let rules = app.rules();
    let asking = app.session().asking();
    let mut commands = app.session().open_commands();
    // The hint first; quitting and the help last, with the screen's keys.
    let quit = commands
        .iter()
        .position(|o| o.command == SessionCommand::Quit)
        .map(|i| commands.remove(i));
    commands.retain(|o| o.command != SessionCommand::Help);
    commands.sort_by_key(|o| o.command != SessionCommand::Hint);
    let mut offers = Vec::new();
    if app.any_computer() && matches!(asking, Asking::Move(_) | Asking::Computer(_)) {
        // In the bar on a computer's turn; the key works during a move too.
        let shown = app.human_to_move().is_none() && app.animation().is_none();
        offers.extend(pause_offers(rules, app.paused(), shown));
    }
    if app.animation().is_some() {
        offers.push(
            Offer::new(Does::Skip, &[], "any key", "skip animation")
                .help("shows the rest of the move at once; a pit key is then played"),
        );
    } else {
        if let Some(side) = app.human_to_move() {
            offers.extend(pit_offers(rules, side));
        }
        for open in commands {
            let weight = match open.command {
                SessionCommand::Answer(_) => Some(Essential),
                SessionCommand::Redo => Some(Optional),
                SessionCommand::MoveNow if app.thinking_text().is_none() => None,
                _ => Some(Useful),
            };
            offers.push(Offer {
                word: Some(open.word),
                ..Offer::new(
                    Does::Session(open.command),
                    &[KeyCode::Char(open.key)],
                    open.key,
                    open.label,
                )
                .help(open.does)
                .bar(weight)
            });
        }
        if app.human_to_move().is_some() {
            let (m, keys) = letter(rules, 'm');
            let looking = matches!(app.mode(), Mode::Turn { hint: Some(_) });
            offers.push(
                Offer::new(Does::Hurry, &keys, m, "hint now")
                    .help("a hint being looked for comes now: the best found so far")
                    .bar(looking.then_some(Useful)),
            );
        }
        if app.round_over() {
            // Not offered, but said: a finished round cannot be taken back.
            let (u, keys) = letter(rules, 'u');
            offers.push(
                Offer::new(Does::Session(SessionCommand::Undo), &keys, u, "undo")
                    .help("")
                    .bar(None),
            );
        }
        if app.round_over() && app.can_analyse() {
            let (a, keys) = letter(rules, 'a');
            offers.push(
                Offer::new(Does::Analyse, &keys, a, "analysis")
                    .help("this round's analysis, every move under perfect play (q comes back)")
                    .bar(Some(Useful)),
            );
        }
    }
    if app.is_networked() {
        network_offers(app, &mut offers);
    }
    if app.resume_summary().is_none() && asking != Asking::Busy {
        offers.extend(view_offers(app));
    }
    offers.push(
        Offer::new(
            Does::Session(SessionCommand::Help),
            &[KeyCode::Char('?')],
            "?",
            "help",
        )
        .help("shows this help; any key closes it"),
    );
    if let Some(quit) = quit {
        offers.push(quit_offer(app, quit, asking));
    }
    offers
}

/// Quitting: the session's key, and `Esc` on every board (the bar says
/// `Esc` where q is a pit letter).
fn quit_offer(app: &App, quit: OpenCommand, asking: Asking) -> Offer {
    let key = quit.key;
    let what = if app.is_networked() {
        "leaves (asks first); the host keeps the match saved"
    } else if asking == Asking::Busy {
        "leaves the match to the other window"
    } else {
        "quits (asks first); Ctrl-C quits at once"
    };
    let offer = Offer::new(
        Does::Session(SessionCommand::Quit),
        &[KeyCode::Char(key), KeyCode::Esc],
        if key == 'q' {
            "q or Esc".to_string()
        } else {
            format!("Esc or {key}")
        },
        "quit",
    );
    Offer {
        help: what.to_string(),
        word: Some(quit.word),
        ..offer
    }
}

/// The pits, by letter, number or the cursor, for `side` to move.
fn pit_offers(rules: &Rules, side: Side) -> [Offer; 2] {
    let wait = if rules.pits() >= 10 {
        " (1 waits a moment, or Enter, for a second digit)"
    } else {
        ""
    };
    [
        Offer::new(Does::Pits, &[], rules.letter_range(side), "play").help(format!(
            "choose a pit by letter; {} by number from your left{wait}",
            rules.number_range()
        )),
        Offer::new(
            Does::Cursor,
            &[
                KeyCode::Left,
                KeyCode::Right,
                KeyCode::Enter,
                KeyCode::Char(' '),
            ],
            "← → Enter",
            "move the cursor and play (Space too), or click a pit",
        )
        .bar(None),
    ]
}

/// Pausing the computers, and stepping one move while paused; in the bar
/// when `shown`.
fn pause_offers(rules: &Rules, paused: bool, shown: bool) -> Vec<Offer> {
    let weight = shown.then_some(Weight::Useful);
    let (p, keys) = letter(rules, 'p');
    let label = if paused { "resume" } else { "pause" };
    let mut offers = vec![
        Offer::new(Does::Pause, &keys, p, label)
            .help(format!("{label} the computer players"))
            .bar(weight),
    ];
    if paused {
        let (s, [key]) = letter(rules, 's');
        offers.push(
            Offer::new(
                Does::Step,
                &[key, KeyCode::Char('.')],
                format!("{s} or ."),
                "step",
            )
            .help("a paused computer makes one move")
            .bar(weight),
        );
    }
    offers
}

/// The screen's own keys: the speed and the colours (no colours key
/// while `NO_COLOR` is set).
fn view_offers(app: &App) -> Vec<Offer> {
    let chosen = app.prefs();
    let mut offers = vec![
        Offer::new(
            Does::Speed,
            &[
                KeyCode::Char('+'),
                KeyCode::Char('='),
                KeyCode::Char('-'),
                KeyCode::Char('_'),
            ],
            "+/-",
            "speed",
        )
        .help(format!(
            "faster / slower sowing, kept for next time (now {})",
            speed_name(app.seed_delay())
        ))
        .bar(Some(Weight::Optional)),
    ];
    let (t, keys) = letter(app.rules(), 't');
    let theme = Offer::new(Does::Theme, &keys, t, "colours");
    offers.push(if chosen.can_switch_theme() {
        theme
            .help("colours or black and white, kept for next time")
            .bar(Some(Weight::Optional))
    } else {
        // Under NO_COLOR the key only says why colours stay off.
        theme.help("").bar(None)
    });
    offers
}

/// The network's part of the table: a move is taken back only when both
/// agree (and while the other player can be asked), nothing is redone or
/// hurried, and the network game's own questions take y or n. The keys of
/// those questions are read first by the network's part of the screen
/// (`App::on_waiting_key`); this is what the bar and the help say of them.
fn network_offers(app: &App, offers: &mut Vec<Offer>) {
    offers.retain(|o| {
        !matches!(
            o.does,
            Does::Session(SessionCommand::Redo | SessionCommand::MoveNow) | Does::Hurry
        )
    });
    let take_back = app.can_ask_take_back().then_some(Weight::Useful);
    for offer in offers.iter_mut() {
        if offer.does == Does::Session(SessionCommand::Undo) {
            offer.label = "take back".into();
            offer.help = "asks the other player to agree to take back your last move".into();
            offer.bar = take_back;
        }
    }
    if app.remote_question() {
        let (yes, no) = if app.remote_resume_question() {
            ("resume", "new match")
        } else {
            ("yes", "no")
        };
        offers.splice(
            0..0,
            [
                Offer::new(
                    Does::Session(SessionCommand::Answer(true)),
                    &[KeyCode::Char('y')],
                    "y",
                    yes,
                ),
                Offer::new(
                    Does::Session(SessionCommand::Answer(false)),
                    &[KeyCode::Char('n')],
                    "n",
                    no,
                ),
            ],
        );
    }
}

/// The pit a key names for `side` on `rules`' board: a lower-case pit
/// letter always, a capital only where `offers` has no command for it
/// (Caps Lock), a number counted from `side`'s left (0 is the tenth).
/// `Some(None)`: a number beyond the board.
#[must_use]
pub fn pit_key(code: KeyCode, rules: &Rules, side: Side, offers: &[Offer]) -> Option<Option<Pit>> {
    match code {
        KeyCode::Char(c) if c.is_ascii_lowercase() => rules.pit_by_letter(c).map(Some),
        KeyCode::Char(c) if c.is_ascii_uppercase() && !offers.iter().any(|o| o.answers(code)) => {
            rules.pit_by_letter(c).map(Some)
        }
        KeyCode::Char(d) => {
            let number = d.to_digit(10)? as usize;
            Some(rules.pit(side, if number == 0 { 10 } else { number }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_command_key_names_no_pit_and_answers_to_its_capital() {
        for pits in [1, 4, 6, 10, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            for letter_of in "hurqpstma".chars() {
                let (key, keys) = letter(&rules, letter_of);
                assert!(rules.pit_by_letter(key).is_none() || key.is_ascii_uppercase());
                let offer = Offer::new(Does::Skip, &keys, key, "x");
                let capital = KeyCode::Char(letter_of.to_ascii_uppercase());
                assert!(offer.answers(capital), "{pits} pits: {letter_of}");
                assert_eq!(pit_key(capital, &rules, Side::North, &[offer]), None);
            }
        }
        let twelve = Rules::KALAH.with_pits(12).unwrap();
        let u = twelve.pit_by_letter('u');
        let pit = |c| pit_key(KeyCode::Char(c), &twelve, Side::South, &[]);
        assert_eq!(pit('u'), Some(u));
        assert_eq!(pit('U'), Some(u), "caps lock");
        assert_eq!(pit('0'), Some(twelve.pit(Side::South, 10)));
        assert_eq!(pit('y'), None);
    }
}
