//! Which commands are open now, and how each is typed on the board in
//! play: the one answer the key bar, the help and both front ends' parsers
//! come from.
//!
//! One rule: a letter that names a pit on the board in play is that pit
//! (the rules then say why it cannot be played when it is not the
//! mover's). Every command has a word that names no pit on any board
//! (`undo`, `redo`, `hint`, `now`, `quit`, `help`, `yes`, `no`, `play`, `swap`,
//! `analysis`), the same in every front end, and a one-key spelling: its
//! letter where that names no pit here, else the letter's capital
//! ([`command_key`]). At a question no pit is open, so the answers keep
//! their plain letters; the round's analysis at "Play again?" is no answer
//! and keeps the capital the full screen shows (`A` on a Kalah board).

use crate::rules::{Game, MoveError, Rules, Side};

use super::{Asking, Session, SessionCommand};

/// One command open now: what it does and how it is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenCommand {
    /// The command.
    pub command: SessionCommand,
    /// Its word, which names no pit on any board.
    pub word: &'static str,
    /// Its one-key spelling on this board.
    pub key: char,
    /// What it does, as the help says it ("undoes").
    pub does: &'static str,
    /// What it does in a key bar's few letters ("undo").
    pub label: &'static str,
}

/// A line or key that is no command open now, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unparsed {
    /// Nothing was typed.
    Empty,
    /// A single letter or a number that names no pit here.
    NoSuchPit,
    /// Something longer that is no pit and no command.
    NotAPit(String),
    /// Not an answer to the open question.
    NoAnswer,
}

/// The key that runs the command of `letter` on this board: the letter
/// itself, or its capital where the letter names a pit here.
///
/// ```
/// use mancala::rules::Rules;
/// use mancala::session::commands::command_key;
/// assert_eq!(command_key(&Rules::KALAH, 'u'), 'u');
/// assert_eq!(command_key(&Rules::KALAH, 'h'), 'H');
/// ```
#[must_use]
pub fn command_key(rules: &Rules, letter: char) -> char {
    if rules.pit_by_letter(letter).is_some() {
        letter.to_ascii_uppercase()
    } else {
        letter
    }
}

impl Session {
    /// The commands open now, with their spellings on this board (see the
    /// [module docs](self)); pits, when one may be chosen, are the
    /// mover's letters and numbers besides these.
    #[must_use]
    pub fn open_commands(&self) -> Vec<OpenCommand> {
        match self.asking() {
            Asking::Move(_) => turn_offers(self.game.rules()),
            Asking::Computer(_) => computer_offers(self.game.rules()),
            Asking::Swap(_) => swap_offers(self.game.rules()),
            Asking::Busy => vec![
                answer(
                    SessionCommand::Answer(true),
                    "play",
                    'p',
                    ("plays here unsaved", "play unsaved"),
                ),
                answer(SessionCommand::Quit, "quit", 'q', ("quits", "quit")),
            ],
            Asking::Resume => yes_no(("resumes", "resume"), ("starts a new match", "new match")),
            Asking::PlayAgain => {
                let mut answers = yes_no(("plays again", "play again"), ("stops", "stop"));
                answers.insert(2, analysis_offer(self.game.rules()));
                answers
            }
            Asking::Over => Vec::new(),
        }
    }

    /// Reads a typed line as the command it spells now (see the
    /// [module docs](self)).
    ///
    /// # Errors
    /// Why the line is no command open now.
    pub fn parse(&self, line: &str) -> Result<SessionCommand, Unparsed> {
        let text = line.trim();
        let offers = self.open_commands();
        let (Asking::Move(side) | Asking::Computer(side) | Asking::Swap(side)) = self.asking()
        else {
            return spelled(&offers, text).ok_or(Unparsed::NoAnswer);
        };
        if text.is_empty() {
            return Err(Unparsed::Empty);
        }
        parse_turn(self.game.rules(), side, &offers, text)
    }
}

/// An answer to a question: `command`, spelled `word` or `key`, doing
/// what `does` says (the help's words, the key bar's).
fn answer(
    command: SessionCommand,
    word: &'static str,
    key: char,
    (does, label): (&'static str, &'static str),
) -> OpenCommand {
    OpenCommand {
        command,
        word,
        key,
        does,
        label,
    }
}

/// The answers to a yes-or-no question: yes and no (each with what it
/// does, as the help and the key bar say it), and quit.
#[must_use]
pub fn yes_no(
    yes: (&'static str, &'static str),
    no: (&'static str, &'static str),
) -> Vec<OpenCommand> {
    vec![
        answer(SessionCommand::Answer(true), "yes", 'y', yes),
        answer(SessionCommand::Answer(false), "no", 'n', no),
        answer(SessionCommand::Quit, "quit", 'q', ("quits", "quit")),
    ]
}

/// The analysis of the round just finished, at "Play again?" on a board
/// of `rules`: the word `analysis`, the key `a` (its capital where `a` is
/// a pit, as on every Kalah board).
fn analysis_offer(rules: &Rules) -> OpenCommand {
    OpenCommand {
        command: SessionCommand::Analyse,
        word: "analysis",
        key: command_key(rules, 'a'),
        does: "shows this round's analysis",
        label: "analysis",
    }
}

/// The commands open at a person's turn on a board of `rules`.
#[must_use]
pub fn turn_offers(rules: &Rules) -> Vec<OpenCommand> {
    let offer = |command, word, letter, does, label| OpenCommand {
        command,
        word,
        key: command_key(rules, letter),
        does,
        label,
    };
    vec![
        offer(SessionCommand::Undo, "undo", 'u', "undoes", "undo"),
        offer(SessionCommand::Redo, "redo", 'r', "redoes", "redo"),
        offer(SessionCommand::Hint, "hint", 'h', "gives a hint", "hint"),
        offer(SessionCommand::Quit, "quit", 'q', "quits", "quit"),
        offer(SessionCommand::Help, "help", '?', "shows this help", "help"),
    ]
}

/// The commands open while a computer (or the friend over the network)
/// is to move on a board of `rules`: a person may take moves back, play
/// them again, hurry it, or leave.
#[must_use]
pub fn computer_offers(rules: &Rules) -> Vec<OpenCommand> {
    let mut offers = turn_offers(rules);
    offers.retain(|o| o.command != SessionCommand::Hint);
    offers.insert(
        2,
        OpenCommand {
            command: SessionCommand::MoveNow,
            word: "now",
            key: command_key(rules, 'm'),
            does: "moves now",
            label: "move now",
        },
    );
    offers
}

/// The commands open at the pie rule's question (RULES.md §5.3) on a
/// board of `rules`: a person's turn (a pit plays on) and `swap`.
#[must_use]
pub fn swap_offers(rules: &Rules) -> Vec<OpenCommand> {
    let mut offers = turn_offers(rules);
    offers.insert(0, swap_offer(rules));
    offers
}

/// The pie rule's `swap` on a board of `rules`, as [`swap_offers`] opens
/// it: what the front ends name in the question.
#[must_use]
pub fn swap_offer(rules: &Rules) -> OpenCommand {
    OpenCommand {
        command: SessionCommand::Swap,
        word: "swap",
        key: command_key(rules, 'w'),
        does: "swaps sides",
        label: "swap",
    }
}

/// Plain mode's pie-rule question to `name` (at `side`), whose opponent
/// `other` has just made the first turn: "Michael, swap sides? 'swap' …
/// (d-f): ", on one keyboard and over the network alike.
#[must_use]
pub fn swap_prompt(rules: &Rules, name: &str, other: &str, side: Side) -> String {
    let word = swap_offer(rules).word;
    let question = crate::game::messages::swap_question(name, other, &format!("'{word}'"));
    format!("{question} ({}): ", rules.letter_range(side))
}

/// The command of `offers` that `text` spells: its word (any case), or its
/// key (a lower-case key in either case, a capital exactly).
#[must_use]
pub fn spelled(offers: &[OpenCommand], text: &str) -> Option<SessionCommand> {
    offers
        .iter()
        .find(|o| {
            o.word.eq_ignore_ascii_case(text)
                || match *text.as_bytes() {
                    // A capital is a command key exactly where its letter
                    // is a pit: then only the capital spells it.
                    [byte] if o.key.is_ascii_uppercase() => char::from(byte) == o.key,
                    [byte] => char::from(byte).eq_ignore_ascii_case(&o.key),
                    _ => false,
                }
        })
        .map(|o| o.command)
}

/// A line typed at a person's turn: a lower-case pit letter is its pit,
/// then the commands, then any other spelling of a pit (a number, a
/// capital with no command: Caps Lock).
pub fn parse_turn(
    rules: &Rules,
    side: Side,
    offers: &[OpenCommand],
    text: &str,
) -> Result<SessionCommand, Unparsed> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c.is_ascii_lowercase()
        && let Some(pit) = rules.pit_by_letter(c)
    {
        return Ok(SessionCommand::Play(pit));
    }
    if let Some(command) = spelled(offers, text) {
        return Ok(command);
    }
    match rules.parse_pit(text, side) {
        Some(pit) => Ok(SessionCommand::Play(pit)),
        None if text.chars().count() == 1 || text.parse::<u64>().is_ok() => {
            Err(Unparsed::NoSuchPit)
        }
        None => Err(Unparsed::NotAPit(text.to_string())),
    }
}

impl Unparsed {
    /// What to tell the player of `game` (its word for a pit: Oware's
    /// are houses), when there is something to tell.
    #[must_use]
    pub fn message(&self, game: Game) -> Option<String> {
        let pit = game.pit_word();
        match self {
            Unparsed::Empty | Unparsed::NoAnswer => None,
            Unparsed::NoSuchPit => Some(MoveError::NoSuchPit.naming_in(game, "")),
            Unparsed::NotAPit(text) => Some(format!("'{text}' is not a {pit}.")),
        }
    }
}

/// "u undoes, r redoes, q quits": the keys of `offers`, for the help and
/// the key bar; `except` leaves those commands out.
#[must_use]
pub fn keys_said(offers: &[OpenCommand], except: &[SessionCommand]) -> String {
    offers
        .iter()
        .filter(|o| !except.contains(&o.command))
        .map(|o| format!("{} {}", o.key, o.does))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "undo, redo, hint, quit and help": the words of `offers`.
#[must_use]
pub fn words_said(offers: &[OpenCommand]) -> String {
    let words: Vec<&str> = offers.iter().map(|o| o.word).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    }
}
