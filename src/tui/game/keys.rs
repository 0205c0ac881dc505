//! The game screen's keys: one table of what can be done now ([`offers`]),
//! which the key bar, the `?` help and the key handling all read, as
//! gitui's components list the commands they offer next to the keys they
//! handle.
//!
//! The match's commands and their keys on this board are the session's
//! one answer ([`Session::open_commands`](crate::session::Session::open_commands));
//! the screen adds its own keys beside them (the cursor, the speed, the
//! colours, the position key, the computers' pause, the quit question's
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

use crate::rules::{Game, Pit, Rules, Side};
use crate::session::{Asking, SessionCommand};
use crate::tui::chrome::Weight;
use crate::tui::clipboard;
use crate::tui::game::app::{App, Mode, Overlay};

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
    /// The position in the one-line notation, said and copied.
    Copy,
    /// The quit question's answer: quit (`true`) or go back.
    Leave(bool),
    /// Any key finishes the move on show.
    Skip,
}

/// One line of the table: what it does, its keys, and how the key bar and
/// the help say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyOffer {
    /// What it does.
    pub does: Does,
    /// The keys that do it, one character each (`Esc` is `\u{1b}`, Enter
    /// `\n`, the arrows `←` `→`); a lower-case letter's capital too.
    pub keys: String,
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
}

impl KeyOffer {
    /// `keys` doing `does`, written as they are typed, in the bar.
    fn new(does: Does, keys: impl Into<String>, label: &str) -> KeyOffer {
        let keys = keys.into();
        KeyOffer {
            does,
            shown: keys.clone(),
            keys,
            label: label.to_string(),
            help: label.to_string(),
            bar: Some(Weight::Essential),
        }
    }

    /// The command of `letter`, by its key on this board ([`command_key`]).
    fn letter(does: Does, rules: &Rules, letter: char, label: &str) -> KeyOffer {
        KeyOffer::new(does, command_key(rules, letter), label)
    }

    fn shown(self, shown: impl Into<String>) -> KeyOffer {
        let shown = shown.into();
        KeyOffer { shown, ..self }
    }

    fn help(self, help: impl Into<String>) -> KeyOffer {
        let help = help.into();
        KeyOffer { help, ..self }
    }

    fn bar(self, bar: Option<Weight>) -> KeyOffer {
        KeyOffer { bar, ..self }
    }

    /// The keys as the key bar writes them: the first spelling, tight
    /// ("+/-" for the help's "+ / -").
    #[must_use]
    pub fn bar_key(&self) -> String {
        let first = self.shown.split(" or ").next().unwrap_or_default();
        first.replace(" / ", "/")
    }

    /// Whether `code` is one of its keys; a lower-case key answers to its
    /// capital too.
    #[must_use]
    pub fn answers(&self, code: KeyCode) -> bool {
        let key = match code {
            KeyCode::Char(c) => c,
            KeyCode::Esc => '\u{1b}',
            KeyCode::Enter => '\n',
            KeyCode::Left => '←',
            KeyCode::Right => '→',
            _ => return false,
        };
        self.keys.contains(key)
            || (key.is_ascii_uppercase() && self.keys.contains(key.to_ascii_lowercase()))
    }
}

/// What can be done on `app`'s screen now (behind an open help: what can
/// be done under it), in the key bar's order. See the [module docs](self).
#[must_use]
pub fn offers(app: &App) -> Vec<KeyOffer> {
    use Weight::{Essential, Optional, Useful};
    if app.dialog() == Some(Overlay::ConfirmQuit) {
        let back = KeyOffer::new(Does::Leave(false), "nq\u{1b}", "back").shown("n");
        return vec![KeyOffer::new(Does::Leave(true), "y", "quit"), back];
    }
    let rules = app.rules();
    let asking = app.session().asking();
    let mut commands = app.session().open_commands();
    // The hint first; quitting and the help last, with the screen's keys.
    commands.sort_by_key(|o| match o.command {
        SessionCommand::Hint => 0,
        SessionCommand::Quit | SessionCommand::Help => 2,
        _ => 1,
    });
    let mut offers = Vec::new();
    if app.any_computer() && matches!(asking, Asking::Move(_) | Asking::Computer(_)) {
        // In the bar on a computer's turn; the key works during a move too.
        let shown = app.human_to_move().is_none() && app.animation().is_none();
        offers.extend(pause_offers(rules, app.paused(), shown));
    }
    if app.animation().is_some() {
        let skip = KeyOffer::new(Does::Skip, "", "skip animation").shown("any key");
        let pit = app.session().game().game().pit_word();
        offers.push(skip.help(format!(
            "shows the rest of the move at once; a {pit} key is then played"
        )));
    } else {
        if let Some(side) = app.human_to_move() {
            offers.extend(pit_offers(rules, app.session().game().game(), side));
        }
        let screens = [SessionCommand::Quit, SessionCommand::Help];
        for open in commands.iter().filter(|o| {
            !screens.contains(&o.command)
                && (o.command != SessionCommand::Analyse || app.can_analyse())
        }) {
            let weight = match open.command {
                SessionCommand::Answer(_) => Some(Essential),
                SessionCommand::Redo => Some(Optional),
                SessionCommand::MoveNow if app.thinking_text().is_none() => None,
                _ => Some(Useful),
            };
            let offer = KeyOffer::new(Does::Session(open.command), open.key, open.label);
            offers.push(offer.help(open.does).bar(weight));
        }
        if app.human_to_move().is_some() {
            let looking = matches!(app.mode(), Mode::Turn { hint: Some(_) });
            let hurry = KeyOffer::letter(Does::Hurry, rules, 'm', "hint now");
            offers.push(
                hurry
                    .help("a hint being looked for comes now: the best found so far")
                    .bar(looking.then_some(Useful)),
            );
        }
        if app.round_over() {
            // Not offered, but said: a finished round cannot be taken back.
            let undo = KeyOffer::letter(Does::Session(SessionCommand::Undo), rules, 'u', "undo");
            offers.push(undo.help("").bar(None));
        }
    }
    if app.is_networked() {
        network_offers(app, &mut offers);
    }
    if app.resume_summary().is_none() && asking != Asking::Busy {
        offers.extend(view_offers(app));
    }
    let help = KeyOffer::new(Does::Session(SessionCommand::Help), "?", "help");
    offers.push(help.help("shows this help; any key closes it"));
    if let Some(quit) = commands.iter().find(|o| o.command == SessionCommand::Quit) {
        offers.push(quit_offer(app, quit.key, asking));
    }
    offers
}

/// Quitting: the session's key, and `Esc` on every board (the bar says
/// `Esc` where q is a pit letter).
fn quit_offer(app: &App, key: char, asking: Asking) -> KeyOffer {
    let what = if app.is_networked() {
        "leaves (asks first); the host keeps the match saved"
    } else if asking == Asking::Busy {
        "leaves the match to the other window"
    } else {
        "quits (asks first); Ctrl-C quits at once"
    };
    let shown = match key {
        'q' => "q or Esc".to_string(),
        _ => format!("Esc or {key}"),
    };
    let quit = KeyOffer::new(
        Does::Session(SessionCommand::Quit),
        format!("{key}\u{1b}"),
        "quit",
    );
    quit.shown(shown).help(what)
}

/// The pits, by letter, number or the cursor, for `side` to move.
fn pit_offers(rules: &Rules, game: Game, side: Side) -> [KeyOffer; 2] {
    let pit = game.pit_word();
    let wait = if rules.pits() >= 10 {
        " (1 waits a moment, or Enter, for a second digit)"
    } else {
        ""
    };
    let numbers = rules.number_range();
    let pits = KeyOffer::new(Does::Pits, "", "play").shown(rules.letter_range(side));
    let cursor = KeyOffer::new(Does::Cursor, "←→\n ", "cursor").shown("← → Enter");
    [
        pits.help(format!(
            "choose a {pit} by letter; {numbers} by number from your left{wait}"
        )),
        cursor
            .help(format!(
                "move the cursor and play (Space too), or click a {pit}"
            ))
            .bar(None),
    ]
}

/// Pausing the computers, and stepping one move while paused; in the bar
/// when `shown`.
fn pause_offers(rules: &Rules, paused: bool, shown: bool) -> Vec<KeyOffer> {
    let weight = shown.then_some(Weight::Useful);
    let label = if paused { "resume" } else { "pause" };
    let pause = KeyOffer::letter(Does::Pause, rules, 'p', label);
    let mut offers = vec![
        pause
            .help(format!("{label} the computer players"))
            .bar(weight),
    ];
    if paused {
        let s = command_key(rules, 's');
        let step = KeyOffer::new(Does::Step, format!("{s}."), "step").shown(format!("{s} or ."));
        offers.push(step.help("a paused computer makes one move").bar(weight));
    }
    offers
}

/// The screen's own keys: the speed and the colours (no colours key
/// while `NO_COLOR` is set), worded as on every screen
/// ([`Chosen::help_keys`](crate::tui::prefs::Chosen::help_keys)).
fn view_offers(app: &App) -> Vec<KeyOffer> {
    let t = command_key(app.rules(), 't');
    let mut help = app.prefs().help_keys(&t.to_string()).into_iter();
    let mut offers = Vec::new();
    if let Some((shown, what)) = help.next() {
        let speed = KeyOffer::new(Does::Speed, "+=-_", "speed").shown(shown);
        offers.push(speed.help(what).bar(Some(Weight::Optional)));
    }
    // Under NO_COLOR the key only says why colours stay off.
    let (what, bar) = help
        .next()
        .map_or((String::new(), None), |(_, w)| (w, Some(Weight::Optional)));
    offers.push(KeyOffer::new(Does::Theme, t, "colours").help(what).bar(bar));
    let copy = KeyOffer::letter(Does::Copy, app.rules(), clipboard::LETTER, clipboard::LABEL);
    offers.push(copy.help(clipboard::HELP).bar(Some(Weight::Optional)));
    offers
}

/// The network's part of the table: a move is taken back only when both
/// agree (and while the other player can be asked), nothing is redone or
/// hurried, and the network game's own questions take y or n. The keys of
/// those questions are read first by the network's part of the screen
/// (`App::on_waiting_key`); this is what the bar and the help say of them.
fn network_offers(app: &App, offers: &mut Vec<KeyOffer>) {
    // While the other machine is waited for, no hint and no answer but
    // the network's own questions' (App::on_waiting_key).
    let waiting = matches!(app.mode(), Mode::Waiting);
    offers.retain(|o| match o.does {
        Does::Session(SessionCommand::Redo | SessionCommand::MoveNow) | Does::Hurry => false,
        Does::Session(SessionCommand::Hint | SessionCommand::Answer(_) | SessionCommand::Swap) => {
            !waiting
        }
        _ => true,
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
        let answer =
            |yes, key, label| KeyOffer::new(Does::Session(SessionCommand::Answer(yes)), key, label);
        offers.splice(0..0, [answer(true, "y", yes), answer(false, "n", no)]);
    }
}

/// The pit a key names for `side` on `rules`' board: a lower-case pit
/// letter always, a capital only where `offers` has no command for it
/// (Caps Lock), a number counted from `side`'s left (0 is the tenth).
/// `Some(None)`: a number beyond the board.
#[must_use]
pub fn pit_key(
    code: KeyCode,
    rules: &Rules,
    side: Side,
    offers: &[KeyOffer],
) -> Option<Option<Pit>> {
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
    use std::time::Instant;

    use super::*;
    use crate::players::PlayerKind;
    use crate::rules::Rules;
    use crate::tui::game::testing::{app_for, ch, config, press, render};

    /// Alice and Michael at one keyboard on a board of `pits`.
    fn named(pits: usize) -> App {
        let rules = Rules::KALAH.with_pits(pits).unwrap();
        app_for(
            config(rules, PlayerKind::Human, PlayerKind::Human),
            None,
            Instant::now(),
        )
    }

    /// The key bar: the screen's last non-blank line.
    fn key_bar_of(screen: &str) -> &str {
        screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap()
    }

    /// The help's rows are the key bar's table: at every moment it lists
    /// exactly the commands the session has open (with the screen's own
    /// keys), each with the key the bar shows.
    #[test]
    fn the_help_lists_exactly_the_open_commands_with_the_bars_keys() {
        let t0 = Instant::now();
        for pits in [6, 10, 12] {
            let mut app = named(pits);
            // A human's turn, then the end of a round.
            for _ in 0..2 {
                let rows = crate::tui::game::help::key_list(&app);
                let table = offers(&app);
                let open = app.session().open_commands();
                for o in &open {
                    let row = table
                        .iter()
                        .find(|t| t.does == Does::Session(o.command))
                        .unwrap_or_else(|| panic!("{pits} pits: {:?} not in the table", o.command));
                    assert!(row.shown.contains(o.key), "{pits} pits: {row:?}");
                    assert!(
                        rows.iter().any(|(keys, _)| *keys == row.shown),
                        "{pits} pits: {:?} not in the help {rows:?}",
                        o.command
                    );
                }
                // And nothing the session does not offer now.
                for t in &table {
                    if let Does::Session(command) = t.does
                        && command != SessionCommand::Help
                        && !t.help.is_empty()
                    {
                        assert!(
                            open.iter().any(|o| o.command == command),
                            "{pits} pits: {command:?} offered but not open"
                        );
                    }
                }
                let bar = key_bar_of(&render(&app, 100, 30)).to_string();
                for t in table
                    .iter()
                    .filter(|t| t.bar.is_some() && !t.help.is_empty())
                {
                    if bar.contains(&t.label) {
                        assert!(
                            rows.iter()
                                .any(|(keys, help)| *keys == t.shown && *help == t.help),
                            "{pits} pits: {} in the bar, not in the help",
                            t.label
                        );
                    }
                }
                play_out(&mut app, t0);
            }
        }
    }

    /// Plays the round out with Enter (the cursor's pit).
    fn play_out(app: &mut App, t0: Instant) {
        while !app.round_over() {
            app.handle_event(&press(KeyCode::Enter), t0);
        }
    }

    /// No key the bar offers while pits are open is a pit letter of the board
    /// in play, on any board: either player's turn, a computer's turn paused.
    /// (At a question no pit is open: its answers keep their letters.)
    #[test]
    fn the_key_bar_on_every_board_offers_no_letter_that_is_a_pit() {
        let t0 = Instant::now();
        for pits in [4, 6, 10, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let mut apps = vec![named(pits)];
            let mut computer = app_for(
                config(rules, PlayerKind::Random, PlayerKind::Human),
                None,
                t0,
            );
            computer.handle_event(&ch('p'), t0);
            apps.push(computer);
            let mut north = named(pits);
            north.handle_event(&ch('a'), t0);
            apps.push(north);
            for app in &apps {
                let bar = key_bar_of(&render(app, 200, 30)).to_string();
                let mut words = bar.split("  ").map(str::trim).filter(|w| !w.is_empty());
                let keys: Vec<&str> = words.by_ref().filter_map(|w| w.split(' ').next()).collect();
                for key in &keys {
                    let mut chars = key.chars();
                    if let (Some(c), None) = (chars.next(), chars.next()) {
                        assert!(
                            rules.pit_by_letter(c).is_none() || c.is_ascii_uppercase(),
                            "{pits} pits: {c} is a pit, in {bar}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_command_key_names_no_pit_and_answers_to_its_capital() {
        for pits in [1, 4, 6, 10, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            for letter_of in "hurqpstma".chars() {
                let offer = KeyOffer::letter(Does::Skip, &rules, letter_of, "x");
                let c = offer.keys.chars().next().unwrap();
                assert!(rules.pit_by_letter(c).is_none() || c.is_ascii_uppercase());
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

    /// On 12 pits (a-x) q and u are North's pits: a small letter plays its
    /// pit; U undoes and Esc asks to quit, as the bar and help say.
    #[test]
    fn on_twelve_pits_q_and_u_play_their_pits_and_capitals_and_esc_do_the_commands() {
        let t0 = Instant::now();
        let mut app = named(12);
        let pit = |c| app.rules().pit_by_letter(c).unwrap();
        let (q, u) = (pit('q'), pit('u'));
        app.handle_event(&ch('a'), t0);
        app.handle_event(&ch('q'), t0);
        assert_eq!(app.game().moves().last(), Some(&q), "q played pit q");
        app.handle_event(&ch('U'), t0);
        assert_eq!(app.game().moves().len(), 1, "U took back q");
        app.handle_event(&ch('u'), t0);
        assert_eq!(app.game().moves().last(), Some(&u), "u played pit u");
        app.handle_event(&press(KeyCode::Esc), t0);
        assert_eq!(app.dialog(), Some(Overlay::ConfirmQuit));
        assert_eq!(key_bar_of(&render(&app, 80, 24)).trim(), "y quit  n back");
    }
}
