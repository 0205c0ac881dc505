//! The line-by-line front end: plain text in, plain text out.
//!
//! Used with `--plain`, and whenever standard input or output is not a
//! terminal: over a pipe, in a script, with a screen reader. It prints no
//! escape codes, only lines of text:
//!
//! - the board after every move, box-drawn with pit letters
//!   ([`board::render`]), and the messages of RULES.md §3 ("Alice gets an extra
//!   turn!", "Michael captured the contents of pits e and h");
//! - with animation on (the default), one line before the board listing
//!   where the hand dropped each seed (`Alice sows c: d e f store`); with
//!   `--no-animation`, only the boards and messages. Plain mode never
//!   pauses between seeds, so scripted games run at full speed;
//! - the prompt `Alice, choose a pit (a-f):`. An answer is a pit letter, or
//!   a number 1..n counted from the mover's left (as on the full screen);
//!   `u` takes back a move (against a computer, back to the human's previous
//!   turn), `r` redoes it, `q` quits, `?` shows this help. A wrong answer
//!   gets the rules' message ("Sorry, that pit is empty.") and the question
//!   again.
//!
//! When the input is not a terminal, each answer read is echoed after its
//! prompt, so that a transcript reads like a game.
//!
//! # Scripts are deterministic
//!
//! `printf 'c\nf\n...' | mancala --plain Alice Michael` always plays the
//! same game: the rules are pure, the default `--first alternate` involves
//! no chance, and when standard input is not a terminal the random parts
//! (the coin of `--first random`, the `random` player) are seeded with a
//! fixed number ([`SCRIPT_SEED`]). At a terminal they are seeded from the
//! clock. Computer players that search against the clock (`--think`) may
//! still choose differently on a slower machine.
//!
//! # Keeping the match
//!
//! The match is saved after every move (see [`crate::game::save`]), so
//! that a program killed at any moment loses nothing: starting again with
//! the same names and settings asks "Resume the unfinished match? (y/n)".
//! `q`, and end of input at a terminal (Ctrl-D), stop with the match saved.
//! End of input from a script ends the match and clears its save, so that
//! running the same script again plays the same game instead of meeting the
//! resume question. Each finished round is written as a record and counted
//! in the statistics. Answering `n` to "Play again? (y/n)" (or ending the
//! input there) ends the match and clears its save. The full-screen game
//! keeps matches by the same rules: both use [`crate::game::keeper`].

pub mod analysis;
pub mod board;
pub mod lines;
pub mod net;
pub mod replay;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc;

use crate::game::console::{self, LineInput};
use crate::game::keeper::{Found, busy_answer, saved_summary};
use crate::game::messages::{gave_no_move, plays, round_goes_on, unproven};
use crate::game::{
    BUSY_NOTICE, BUSY_QUESTION, Keeper, Match, MatchConfig, PlayOptions, RESUME_QUESTION, Redone,
    Undo, computer_move, describe, match_score_line, outcome_message, perfect_warning,
    redo_message, seat_player,
};
use crate::players::{Limits, MoveProof, TurnFn};
use crate::rng::Rng;
use crate::rules::{Board, MoveError, Played, Side, Step};

use lines::LineGame;

/// The seed of every random choice when the input is a script.
pub const SCRIPT_SEED: u64 = 0x006d_616e_6361_6c61;

/// Plays a match line by line on standard input and output, through the
/// one plain loop ([`lines::drive`]).
///
/// # Errors
/// When standard output fails.
pub fn run(mut config: MatchConfig, options: &PlayOptions) -> anyhow::Result<ExitCode> {
    // Names are printed on every turn: no control characters (escape
    // codes) in them.
    for seat in &mut config.seats {
        seat.name = crate::game::record::clean_name(&seat.name);
    }
    let scripted = !io::stdin().is_terminal();
    let seed = if scripted {
        SCRIPT_SEED
    } else {
        Rng::from_entropy().next_u64()
    };
    let (keeper, warning) = Keeper::open();
    if let Some(warning) = warning {
        console::warn(format_args!("mancala: {warning}"));
    }
    let (tx, rx) = mpsc::channel();
    lines::spawn_input(tx, |line| line);
    let mut game = LocalGame::new(
        io::stdout().lock(),
        scripted,
        *options,
        keeper,
        config,
        seed,
    );
    let played = game.start().and_then(|ended| match ended {
        Some(code) => Ok(code),
        None => lines::drive(&mut game, &rx),
    });
    match played {
        Ok(code) => Ok(code),
        // The reader went away (`| head`): nothing left to tell.
        Err(e) if is_broken_pipe(&e) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// The question the local game waits on; each typed line answers it.
enum Asking {
    /// [`BUSY_QUESTION`]: the match is open in another window.
    Busy(Box<Found>),
    /// [`RESUME_QUESTION`] about the saved match (the new one is the
    /// game's until it is answered).
    Resume(Box<Match>),
    /// The human to move in the match chooses a pit.
    Move,
    /// "Play again? (y/n)" after a finished round.
    PlayAgain,
}

/// An answer to a yes/no question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum YesNo {
    Yes,
    No,
    /// `q`: stop here, keeping the match saved.
    Quit,
}

fn yes_no(line: &str) -> Option<YesNo> {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(YesNo::Yes),
        "n" | "no" => Some(YesNo::No),
        "q" | "quit" => Some(YesNo::Quit),
        _ => None,
    }
}

/// The local match, line by line: a [`LineGame`] that the one plain loop
/// drives. Computers move as soon as it is their turn (plain mode reads no
/// input while they think); a human's turn, and each question, waits for
/// the next line.
struct LocalGame<W> {
    out: W,
    /// Whether each line read is printed after its prompt (input from a
    /// script, so that a transcript reads like a game).
    echo: bool,
    options: PlayOptions,
    keeper: Keeper,
    computers: [Option<Box<dyn TurnFn>>; 2],
    /// The match: a new one until a saved one is resumed.
    game: Match,
    asking: Asking,
}

impl<W: Write> LocalGame<W> {
    /// A new match of `config` (`seed` makes its random parts repeatable).
    fn new(
        out: W,
        echo: bool,
        options: PlayOptions,
        keeper: Keeper,
        config: MatchConfig,
        seed: u64,
    ) -> LocalGame<W> {
        let kinds = config.kinds();
        LocalGame {
            out,
            echo,
            options,
            keeper,
            computers: Side::BOTH.map(|side| seat_player(kinds, seed, side)),
            game: Match::new(config, seed),
            asking: Asking::Move,
        }
    }

    /// Says who plays what, and asks the first question (or plays until a
    /// human's turn); `Some` when the program ends already.
    fn start(&mut self) -> anyhow::Result<Option<ExitCode>> {
        let config = self.game.config().clone();
        let [s, n] = [&config.seats[0], &config.seats[1]];
        writeln!(
            self.out,
            "Mancala: {} (South, {}) against {} (North, {}).",
            s.name, s.kind, n.name, n.kind
        )?;
        writeln!(self.out, "Rules: {}.", config.rules)?;
        if let Some(warning) = perfect_warning(&config, self.options.think) {
            writeln!(self.out, "{warning}")?;
        }
        self.print_help(&config)?;
        let found = self.keeper.look(&config);
        if found.busy {
            writeln!(self.out, "{BUSY_NOTICE}")?;
            return self.ask_again(Asking::Busy(Box::new(found)));
        }
        self.offer(found)
    }

    /// Offers the saved match `found`, if any, else plays the new one.
    fn offer(&mut self, found: Found) -> anyhow::Result<Option<ExitCode>> {
        for note in &found.notes {
            writeln!(self.out, "Note: {note}")?;
        }
        if let Some(problem) = &found.problem {
            console::warn(format_args!("mancala: {problem}"));
        }
        match found.saved {
            Some(saved) => {
                writeln!(self.out, "{}", saved_summary(&saved))?;
                self.ask_again(Asking::Resume(Box::new(saved)))
            }
            None => self.begin(),
        }
    }

    /// Plays the match from its current round.
    fn begin(&mut self) -> anyhow::Result<Option<ExitCode>> {
        self.open_round()?;
        self.play_on()
    }

    /// The round's opening line and board.
    fn open_round(&mut self) -> io::Result<()> {
        let m = &self.game;
        let opening = match m.moves().len() {
            0 => m.round_message(),
            played => round_goes_on(m.round(), played, m.name(m.starter())),
        };
        let board = board::render(m.board(), m.names());
        writeln!(self.out)?;
        writeln!(self.out, "{opening}")?;
        writeln!(self.out)?;
        write!(self.out, "{board}")
    }

    /// Plays the computers' moves until a human's turn or the round's end,
    /// and asks the question that comes then.
    fn play_on(&mut self) -> anyhow::Result<Option<ExitCode>> {
        loop {
            let m = &self.game;
            if m.board().is_over() {
                break;
            }
            let side = m.board().to_move();
            let Some(player) = &mut self.computers[side.index()] else {
                self.asking = Asking::Move;
                self.prompt()?;
                return Ok(None);
            };
            let limits = Limits::time(self.options.think);
            let chosen = player.choose(m.board(), &limits);
            let proof = player.last_proof();
            let Some(choice) = computer_move(m.board(), chosen) else {
                break;
            };
            let letter = m.rules().letter(choice.pit).unwrap_or('?');
            if choice.fallback {
                writeln!(self.out, "{}", gave_no_move(m.name(side), letter))?;
            } else {
                writeln!(self.out, "{}", plays(m.name(side), letter))?;
            }
            if let Some(MoveProof::Unproven { thought }) = proof {
                writeln!(self.out, "{}", unproven(m.name(side), thought))?;
            }
            self.play(choice.pit)?;
        }
        self.end_round()?;
        self.ask_again(Asking::PlayAgain)
    }

    /// Asks the question waited on.
    fn prompt(&mut self) -> io::Result<()> {
        match &self.asking {
            Asking::Busy(_) => write!(self.out, "{BUSY_QUESTION} ")?,
            Asking::Resume(_) => write!(self.out, "{RESUME_QUESTION} ")?,
            Asking::PlayAgain => write!(self.out, "Play again? (y/n) ")?,
            Asking::Move => {
                let m = &self.game;
                let side = m.board().to_move();
                write!(
                    self.out,
                    "{}, choose a pit ({}): ",
                    m.name(side),
                    m.rules().letter_range(side)
                )?;
            }
        }
        self.out.flush()
    }

    /// The answer to the question waited on.
    fn on_line(&mut self, line: &str) -> anyhow::Result<Option<ExitCode>> {
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        match std::mem::replace(&mut self.asking, Asking::Move) {
            Asking::Busy(found) => match busy_answer(line) {
                Some(true) => {
                    writeln!(self.out, "Playing unsaved: rounds are still recorded.")?;
                    self.offer(*found)
                }
                Some(false) => self.left_to_other(),
                None => {
                    writeln!(self.out, "Please answer p or q.")?;
                    self.ask_again(Asking::Busy(found))
                }
            },
            Asking::Resume(saved) => match yes_no(line) {
                Some(YesNo::Yes) => {
                    self.game = *saved;
                    self.begin()
                }
                Some(YesNo::No) => self.begin(),
                Some(YesNo::Quit) => {
                    writeln!(
                        self.out,
                        "Stopped. The match stays saved: start mancala with the same names to resume it."
                    )?;
                    Ok(Some(ExitCode::SUCCESS))
                }
                None => {
                    writeln!(self.out, "Please answer y or n (q stops here).")?;
                    self.ask_again(Asking::Resume(saved))
                }
            },
            Asking::PlayAgain => match yes_no(line) {
                Some(YesNo::Yes) => {
                    self.open_round()?;
                    self.play_on()
                }
                Some(YesNo::Quit) => self.stop(false),
                Some(YesNo::No) => self.thanks(false),
                None => {
                    writeln!(self.out, "Please answer y or n (q stops here).")?;
                    self.ask_again(Asking::PlayAgain)
                }
            },
            Asking::Move => self.on_move_line(line),
        }
    }

    fn ask_again(&mut self, asking: Asking) -> anyhow::Result<Option<ExitCode>> {
        self.asking = asking;
        self.prompt()?;
        Ok(None)
    }

    /// The end of input: whatever was asked, the program ends.
    fn on_end(&mut self) -> anyhow::Result<Option<ExitCode>> {
        if self.echo {
            writeln!(self.out)?;
        }
        match std::mem::replace(&mut self.asking, Asking::Move) {
            Asking::Busy(_) => self.left_to_other(),
            Asking::Resume(_) => {
                writeln!(self.out, "End of input: nothing was played.")?;
                Ok(Some(ExitCode::SUCCESS))
            }
            Asking::PlayAgain => self.thanks(true),
            Asking::Move => self.stop(true),
        }
    }

    fn left_to_other(&mut self) -> anyhow::Result<Option<ExitCode>> {
        writeln!(
            self.out,
            "Nothing was played here: the match goes on in the other window."
        )?;
        Ok(Some(ExitCode::SUCCESS))
    }

    /// "n" to "Play again?" (or the end of input there): the match is over.
    fn thanks(&mut self, end_of_input: bool) -> anyhow::Result<Option<ExitCode>> {
        self.finish();
        if end_of_input {
            writeln!(self.out)?;
        }
        writeln!(self.out, "Thanks for playing!")?;
        self.print_tally()?;
        Ok(Some(ExitCode::SUCCESS))
    }

    /// A line typed at a human's turn: a pit, or a command.
    fn on_move_line(&mut self, line: &str) -> anyhow::Result<Option<ExitCode>> {
        let m = &self.game;
        let side = m.board().to_move();
        let rules = *m.rules();
        let text = line.trim();
        // On 10- and 12-pit boards q, r and u are pit letters too: the
        // mover's own pit wins, as in the full-screen game; the words
        // quit, redo and undo always work.
        let own_pit = rules
            .parse_pit(text, side)
            .filter(|&p| !text.starts_with(|c: char| c.is_ascii_digit()) && rules.owner(p) == side);
        let command = if own_pit.is_some() { "" } else { text };
        match command.to_ascii_lowercase().as_str() {
            "" if text.is_empty() => return self.play_on(),
            "q" | "quit" => return self.stop(false),
            "?" | "help" => {
                let config = m.config().clone();
                self.print_help(&config)?;
                return self.play_on();
            }
            "u" | "undo" => {
                self.undo()?;
                return self.play_on();
            }
            "r" | "redo" => {
                self.redo()?;
                return self.play_on();
            }
            _ => {}
        }
        let Some(pit) = rules.parse_pit(text, side) else {
            let single = text.chars().count() == 1 || text.parse::<u64>().is_ok();
            if single {
                writeln!(self.out, "{}", MoveError::NoSuchPit)?;
            } else {
                writeln!(self.out, "'{text}' is not a pit.")?;
            }
            writeln!(
                self.out,
                "Type a letter {} or a number {} (u undoes, r redoes, q quits).",
                rules.letter_range(side),
                rules.number_range()
            )?;
            return self.play_on();
        };
        if let Err(e) = m.board().check(pit) {
            writeln!(self.out, "{e}")?;
            return self.play_on();
        }
        self.play(pit)?;
        self.play_on()
    }

    fn save(&mut self) {
        save(&mut self.keeper, &self.game);
    }

    /// Stops playing: at the player's request (`q`), which keeps the match
    /// saved to resume later, or at the end of input. A script's end of input
    /// (input not a terminal) ends the match for good: a saved match would
    /// make the next run of the same script answer the resume question with
    /// its first move, and scripted games must replay the same way each time.
    fn stop(&mut self, end_of_input: bool) -> anyhow::Result<Option<ExitCode>> {
        if end_of_input && self.echo {
            self.finish();
            writeln!(self.out, "End of input: the match ends here.")?;
        } else {
            let why = if end_of_input {
                "End of input"
            } else {
                "Stopped"
            };
            if self.keeper.is_saving() {
                writeln!(
                    self.out,
                    "{why}. The match is saved: start mancala with the same names to resume it."
                )?;
            } else {
                writeln!(self.out, "{why}. This match was not saved here.")?;
            }
        }
        self.print_standing()?;
        Ok(Some(ExitCode::SUCCESS))
    }

    /// Clears the match's save: the players are done with it.
    fn finish(&mut self) {
        let m = &self.game;
        if let Some(warning) = self.keeper.finish(m.config()) {
            console::warn(format_args!("mancala: {warning}"));
        }
    }

    fn print_tally(&mut self) -> io::Result<()> {
        let m = &self.game;
        writeln!(self.out, "{}", match_score_line(m.tally(), m.names()))
    }

    fn print_help(&mut self, config: &MatchConfig) -> io::Result<()> {
        writeln!(
            self.out,
            "Choose a pit by its letter or by its number {} from your left; u undoes, r redoes, q quits, ? shows this help.",
            config.rules.number_range()
        )
    }

    /// Announces the end of a round, keeps its record and statistics, and
    /// moves the match on to the next round (the save holds it from here
    /// on: see `Keeper::close_round`).
    fn end_round(&mut self) -> io::Result<()> {
        let m = &mut self.game;
        if let Some(outcome) = m.outcome() {
            writeln!(
                self.out,
                "{}",
                outcome_message(outcome, m.board().score(), m.names())
            )?;
        }
        writeln!(self.out, "{}", match_score_line(m.tally(), m.names()))?;
        let kept = self.keeper.close_round(m);
        if let Some(path) = kept.record {
            writeln!(self.out, "Round recorded in {}.", path.display())?;
        }
        for warning in kept.warnings {
            console::warn(format_args!("mancala: {warning}"));
        }
        m.next_round();
        Ok(())
    }

    /// Undo by turn ([`Match::undo_turn`]): back to the human's previous
    /// turn, or a message saying why not.
    fn undo(&mut self) -> io::Result<()> {
        self.stop_thinking_ahead();
        let m = &mut self.game;
        let undo = m.undo_turn();
        writeln!(self.out, "{}", undo.message())?;
        if let Undo::Undone(_) = undo {
            let board = board::render(m.board(), m.names());
            self.save();
            writeln!(self.out)?;
            write!(self.out, "{board}")?;
        }
        Ok(())
    }

    /// Redo by turn ([`Match::redo_turn`]): the move taken back and the
    /// computer's moves after it, as they were played.
    fn redo(&mut self) -> io::Result<()> {
        self.stop_thinking_ahead();
        let m = &mut self.game;
        let redone = m.redo_turn();
        let animate = self.options.seed_delay.is_some();
        for Redone {
            played,
            steps,
            after,
            ..
        } in &redone
        {
            report_move(&mut self.out, animate, m, after, played, steps)?;
        }
        writeln!(self.out, "{}", redo_message(&redone))?;
        if !redone.is_empty() {
            self.save();
        }
        Ok(())
    }

    /// The computers stop thinking ahead: the line of play they were
    /// thinking about is being changed (undo, redo).
    fn stop_thinking_ahead(&mut self) {
        for player in self.computers.iter_mut().flatten() {
            player.stop_thinking_ahead();
        }
    }

    /// Plays a checked pit, saves, and shows what happened.
    fn play(&mut self, pit: crate::rules::Pit) -> io::Result<()> {
        let m = &mut self.game;
        let mut steps: Vec<Step> = Vec::new();
        let played = match m.play(pit, &mut steps) {
            Ok(played) => played,
            Err(e) => return writeln!(self.out, "{e}"),
        };
        save(&mut self.keeper, m);
        let animate = self.options.seed_delay.is_some();
        report_move(&mut self.out, animate, m, m.board(), &played, &steps)
    }

    /// The round's seeds so far and the match score.
    fn print_standing(&mut self) -> io::Result<()> {
        let m = &self.game;
        let score = m.board().score();
        let [s, n] = m.names();
        writeln!(
            self.out,
            "This round so far: {s} {}, {n} {}.",
            score.south, score.north
        )?;
        self.print_tally()
    }
}

/// Saves `m`; a problem is a warning, and the game goes on.
fn save(keeper: &mut Keeper, m: &Match) {
    if let Some(warning) = keeper.save(m) {
        console::warn(format_args!("mancala: {warning}"));
    }
}

/// Shows a move of `m` on `out`: its sowing line (when `animate`), the
/// board it led to, what it did.
fn report_move(
    out: &mut impl Write,
    animate: bool,
    m: &Match,
    after: &Board,
    played: &Played,
    steps: &[Step],
) -> io::Result<()> {
    if animate && let Some(line) = board::sowing_line(m.rules(), steps) {
        writeln!(out, "{} {line}", m.name(played.mover))?;
    }
    writeln!(out)?;
    write!(out, "{}", board::render(after, m.names()))?;
    for line in describe(m.rules(), played, m.names()) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

impl<W: Write> LineGame for LocalGame<W> {
    type Event = LineInput;

    fn handle(&mut self, event: LineInput) -> anyhow::Result<Option<ExitCode>> {
        let ended = match event {
            LineInput::Line(line) => self.on_line(&line),
            LineInput::End => self.on_end(),
        }?;
        self.out.flush()?;
        Ok(ended)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, Seat};
    use crate::players::PlayerKind;
    use crate::rules::Rules;
    use std::time::Duration;

    /// A computer player that never finds a move.
    struct GivesUp;

    impl TurnFn for GivesUp {
        fn choose(&mut self, _: &crate::rules::Board, _: &Limits) -> Option<crate::rules::Pit> {
            None
        }
    }

    #[test]
    fn a_computer_with_no_move_plays_its_first_legal_pit_as_in_the_game_policy() {
        let config = MatchConfig {
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Random),
            ],
            first: FirstMover::North,
        };
        let options = PlayOptions::default();
        let mut game = LocalGame::new(Vec::new(), true, options, Keeper::new(None), config, 1);
        game.computers = [None, Some(Box::new(GivesUp))];
        let out = play_script(game, "");
        let board = crate::rules::Board::starting(Rules::KALAH, Side::North);
        let policy = crate::game::computer_move(&board, None).unwrap();
        assert!(policy.fallback);
        let letter = Rules::KALAH.letter(policy.pit).unwrap();
        assert!(
            out.contains(&format!(
                "Michael gave no legal move; playing its first legal pit, {letter}."
            )),
            "{out}"
        );
        assert!(
            out.contains("Alice, choose a pit"),
            "the game goes on: {out}"
        );
    }

    fn transcript(input: &str, north: PlayerKind, animate: bool) -> String {
        let config = MatchConfig {
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", north),
            ],
            first: FirstMover::Alternate,
        };
        let options = PlayOptions {
            seed_delay: animate.then_some(Duration::ZERO),
            think: Duration::from_millis(10),
            ..PlayOptions::default()
        };
        let game = LocalGame::new(Vec::new(), true, options, Keeper::new(None), config, 1);
        play_script(game, input)
    }

    /// Plays `game` on the lines of `input` as the one plain loop would
    /// hand them over, and returns what was printed.
    fn play_script(mut game: LocalGame<Vec<u8>>, input: &str) -> String {
        let mut ended = game.start().unwrap();
        for event in lines::lines_of(input.as_bytes()) {
            if ended.is_some() {
                break;
            }
            ended = game.handle(event).unwrap();
        }
        assert!(ended.is_some(), "the end of input ends the game");
        String::from_utf8(game.out).unwrap()
    }

    #[test]
    fn moves_messages_and_the_end_of_input() {
        let out = transcript("c\nf\n", PlayerKind::Human, false);
        assert!(out.contains("Alice, choose a pit (a-f): c\n"), "{out}");
        assert!(out.contains("Alice gets an extra turn!"), "{out}");
        assert!(
            out.contains("Michael, choose a pit (g-l): \nEnd of input: the match ends here."),
            "{out}"
        );
        assert!(
            out.contains("This round so far: Alice 2, Michael 0."),
            "{out}"
        );
        assert!(!out.contains(" sows "), "no animation lines: {out}");
        assert!(!out.contains('\u{1b}'), "no escape codes");
    }

    #[test]
    fn an_endless_line_is_cut_short_and_the_game_goes_on() {
        let input = format!("{}\nc\n", "x".repeat(100_000));
        let out = transcript(&input, PlayerKind::Human, false);
        assert!(
            out.contains(&format!("'{}' is not a pit.", "x".repeat(1024))),
            "cut to 1024 bytes"
        );
        assert!(!out.contains(&"x".repeat(1025)));
        assert!(
            out.contains("Alice gets an extra turn!"),
            "the next line is read"
        );
    }

    #[test]
    fn animation_lines_list_the_sowing() {
        let out = transcript("c\n", PlayerKind::Human, true);
        assert!(out.contains("Alice sows c: d e f store\n"), "{out}");
    }

    #[test]
    fn wrong_answers_are_explained_and_asked_again() {
        let out = transcript(
            "h\n7\nbanana\nc\nc\n\u{ff}\n\u{1b}[2J\n",
            PlayerKind::Human,
            false,
        );
        assert!(!out.contains('\u{1b}'), "no escape codes echoed: {out}");
        assert!(out.contains("'\u{fffd}[2J' is not a pit."), "{out}");
        for message in [
            "Sorry, you don't control that pit.",
            "Sorry, there is no such pit.",
            "'banana' is not a pit.",
            "Sorry, that pit is empty.",
        ] {
            assert!(out.contains(message), "{message}: {out}");
        }
        assert_eq!(
            out.matches("Alice, choose a pit (a-f):").count(),
            8,
            "{out}"
        );
    }

    /// The boards printed, in order.
    fn boards(out: &str) -> Vec<String> {
        let lines: Vec<&str> = out.lines().collect();
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with('╔'))
            .map(|(i, _)| lines[i..i + 5].join("\n"))
            .collect()
    }

    #[test]
    fn undo_against_the_computer_goes_back_to_the_humans_turn() {
        let out = transcript("a\nu\nr\n", PlayerKind::Greedy, false);
        assert!(out.contains("Michael plays "), "{out}");
        let (before_undo, after) = out.split_once("Took back ").unwrap();
        let (after_undo, after_redo) = after.split_once("Redid ").unwrap();
        let start = &boards(before_undo)[0];
        let before = boards(before_undo).pop().unwrap();
        assert_eq!(&boards(after_undo)[0], start, "back to the start: {out}");
        assert_eq!(boards(after_undo).pop().unwrap(), before, "redone: {out}");
        assert!(
            after_redo.starts_with(&format!("{} moves.", boards(before_undo).len() - 1)),
            "{out}"
        );
    }
}
