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
pub mod net;
pub mod replay;

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;

use crate::game::console;
use crate::game::keeper::busy_answer;
use crate::game::keeper::saved_summary;
use crate::game::messages::{gave_no_move, plays, round_goes_on, unproven};
use crate::game::{
    BUSY_NOTICE, BUSY_QUESTION, Keeper, Match, MatchConfig, PlayOptions, RESUME_QUESTION, Redone,
    Undo, computer_move, describe, match_score_line, outcome_message, perfect_warning,
    redo_message, seat_player,
};
use crate::players::{Limits, MoveProof, TurnFn};
use crate::rng::Rng;
use crate::rules::{Board, MoveError, Played, Side, Step};

/// The longest answer line read, in bytes.
const MAX_LINE: u64 = 1024;

/// The seed of every random choice when the input is a script.
pub const SCRIPT_SEED: u64 = 0x006d_616e_6361_6c61;

/// Plays a match line by line on standard input and output.
///
/// # Errors
/// When standard input or output fails.
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
    let mut game = Plain {
        input: io::stdin().lock(),
        out: io::stdout().lock(),
        echo: scripted,
        options: *options,
        keeper,
        computers: [None, None],
    };
    match game.play_match(config, seed) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The reader went away (`| head`): nothing left to tell.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}

/// An answer to a yes/no question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum YesNo {
    Yes,
    No,
    /// `q`: stop here, keeping the match saved.
    Quit,
}

/// What to do after the resume question.
enum Resume {
    Play(Box<Match>),
    Quit,
    EndOfInput,
    /// The match is open in another window, and the players quit.
    LeftToOther,
}

/// The plain-text game over any input and output.
struct Plain<R, W> {
    input: R,
    out: W,
    echo: bool,
    options: PlayOptions,
    keeper: Keeper,
    computers: [Option<Box<dyn TurnFn>>; 2],
}

impl<R: BufRead, W: Write> Plain<R, W> {
    /// Reads one line (without its end); `None` at end of input. Bytes that
    /// are not UTF-8 are replaced rather than refused.
    /// A longer line is cut to this many bytes (the rest is skipped), so
    /// that endless input without a newline cannot exhaust memory.
    fn read_line(&mut self) -> io::Result<Option<String>> {
        self.out.flush()?;
        let mut bytes = Vec::new();
        if (&mut self.input)
            .take(MAX_LINE)
            .read_until(b'\n', &mut bytes)?
            == 0
        {
            if self.echo {
                writeln!(self.out)?;
            }
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') && bytes.len() as u64 == MAX_LINE {
            self.skip_rest_of_line()?;
        }
        // Control characters (escape sequences included) are never
        // printed back.
        let line: String = String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\n', '\r'])
            .chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect();
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(Some(line))
    }

    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            if let Some(i) = buf.iter().position(|&b| b == b'\n') {
                self.input.consume(i + 1);
                return Ok(());
            }
            let len = buf.len();
            self.input.consume(len);
        }
    }

    /// Asks a yes/no question until answered: `q` stops (the match stays
    /// saved), as at the move prompt; `None` at end of input.
    fn ask_yes_no(&mut self, question: &str) -> io::Result<Option<YesNo>> {
        loop {
            write!(self.out, "{question} ")?;
            let Some(line) = self.read_line()? else {
                return Ok(None);
            };
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(Some(YesNo::Yes)),
                "n" | "no" => return Ok(Some(YesNo::No)),
                "q" | "quit" => return Ok(Some(YesNo::Quit)),
                _ => writeln!(self.out, "Please answer y or n (q stops here).")?,
            }
        }
    }

    fn save(&mut self, m: &Match) {
        if let Some(warning) = self.keeper.save(m) {
            console::warn(format_args!("mancala: {warning}"));
        }
    }

    /// Clears the match's save: the players are done with it.
    /// Stops playing: at the player's request (`q`), which keeps the match
    /// saved to resume later, or at the end of input. A script's end of input
    /// (input not a terminal) ends the match for good: a saved match would
    /// make the next run of the same script answer the resume question with
    /// its first move, and scripted games must replay the same way each time.
    fn stop(&mut self, m: &Match, end_of_input: bool) -> io::Result<bool> {
        if end_of_input && self.echo {
            self.finish(m);
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
        self.print_standing(m)?;
        Ok(false)
    }

    fn finish(&mut self, m: &Match) {
        if let Some(warning) = self.keeper.finish(m.config()) {
            console::warn(format_args!("mancala: {warning}"));
        }
    }

    fn names(m: &Match) -> [&str; 2] {
        [m.name(Side::South), m.name(Side::North)]
    }

    fn print_board(&mut self, m: &Match) -> io::Result<()> {
        writeln!(self.out)?;
        write!(self.out, "{}", board::render(m.board(), Self::names(m)))
    }

    fn print_tally(&mut self, m: &Match) -> io::Result<()> {
        writeln!(self.out, "{}", match_score_line(m.tally(), m.names()))
    }

    /// Asks [`BUSY_QUESTION`] until answered: whether to play on unsaved
    /// (`false` for quit or the end of input).
    fn ask_play_unsaved(&mut self) -> io::Result<bool> {
        loop {
            write!(self.out, "{BUSY_QUESTION} ")?;
            let Some(line) = self.read_line()? else {
                return Ok(false);
            };
            match busy_answer(&line) {
                Some(play) => return Ok(play),
                None => writeln!(self.out, "Please answer p or q.")?,
            }
        }
    }

    /// The saved match to go on with, if any and if the players want it,
    /// else a new one; when the match is open in another window, a new one
    /// played unsaved, if the players want that.
    fn resume_or_new(&mut self, config: &MatchConfig, seed: u64) -> io::Result<Resume> {
        let found = self.keeper.look(config);
        if found.busy {
            writeln!(self.out, "{BUSY_NOTICE}")?;
            if !self.ask_play_unsaved()? {
                return Ok(Resume::LeftToOther);
            }
            writeln!(self.out, "Playing unsaved: rounds are still recorded.")?;
        }
        for note in &found.notes {
            writeln!(self.out, "Note: {note}")?;
        }
        if let Some(problem) = &found.problem {
            console::warn(format_args!("mancala: {problem}"));
        }
        let Some(saved) = found.saved else {
            return Ok(Resume::Play(Box::new(Match::new(config.clone(), seed))));
        };
        writeln!(self.out, "{}", saved_summary(&saved))?;
        Ok(match self.ask_yes_no(RESUME_QUESTION)? {
            Some(YesNo::Yes) => Resume::Play(Box::new(saved)),
            Some(YesNo::No) => Resume::Play(Box::new(Match::new(config.clone(), seed))),
            Some(YesNo::Quit) => Resume::Quit,
            None => Resume::EndOfInput,
        })
    }

    fn play_match(&mut self, config: MatchConfig, seed: u64) -> io::Result<()> {
        let kinds = config.kinds();
        for side in Side::BOTH {
            // A player set beforehand (a test's) stays.
            if self.computers[side.index()].is_none() {
                self.computers[side.index()] = seat_player(kinds, seed, side);
            }
        }
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
        let mut m = match self.resume_or_new(&config, seed)? {
            Resume::Play(m) => *m,
            Resume::Quit => {
                writeln!(
                    self.out,
                    "Stopped. The match stays saved: start mancala with the same names to resume it."
                )?;
                return Ok(());
            }
            Resume::EndOfInput => {
                writeln!(self.out, "End of input: nothing was played.")?;
                return Ok(());
            }
            Resume::LeftToOther => {
                writeln!(
                    self.out,
                    "Nothing was played here: the match goes on in the other window."
                )?;
                return Ok(());
            }
        };
        loop {
            writeln!(self.out)?;
            let opening = match m.moves().len() {
                0 => m.round_message(),
                played => round_goes_on(m.round(), played, m.name(m.starter())),
            };
            writeln!(self.out, "{opening}")?;
            self.print_board(&m)?;
            if !self.play_round(&mut m)? {
                return Ok(());
            }
            // The finished round is recorded, and from here on the save
            // holds the next round (see `Keeper::close_round`).
            self.end_round(&m)?;
            m.next_round();
            match self.ask_yes_no("Play again? (y/n)")? {
                Some(YesNo::Yes) => {}
                Some(YesNo::Quit) => {
                    self.stop(&m, false)?;
                    return Ok(());
                }
                answer => {
                    self.finish(&m);
                    if answer.is_none() {
                        writeln!(self.out)?;
                    }
                    writeln!(self.out, "Thanks for playing!")?;
                    return self.print_tally(&m);
                }
            }
        }
    }

    fn print_help(&mut self, config: &MatchConfig) -> io::Result<()> {
        writeln!(
            self.out,
            "Choose a pit by its letter or by its number {} from your left; u undoes, r redoes, q quits, ? shows this help.",
            config.rules.number_range()
        )
    }

    /// Announces the end of a round, and keeps its record and statistics.
    fn end_round(&mut self, m: &Match) -> io::Result<()> {
        if let Some(outcome) = m.outcome() {
            writeln!(
                self.out,
                "{}",
                outcome_message(outcome, m.board().score(), Self::names(m))
            )?;
        }
        self.print_tally(m)?;
        let kept = self.keeper.close_round(m);
        if let Some(path) = kept.record {
            writeln!(self.out, "Round recorded in {}.", path.display())?;
        }
        for warning in kept.warnings {
            console::warn(format_args!("mancala: {warning}"));
        }
        Ok(())
    }

    /// Plays the round to its end: `Ok(false)` when the players stopped
    /// (end of input or `q`).
    fn play_round(&mut self, m: &mut Match) -> io::Result<bool> {
        while !m.board().is_over() {
            let side = m.board().to_move();
            if let Some(player) = &mut self.computers[side.index()] {
                let limits = Limits::time(self.options.think);
                let chosen = player.choose(m.board(), &limits);
                let Some(choice) = computer_move(m.board(), chosen) else {
                    break;
                };
                let letter = m.rules().letter(choice.pit).unwrap_or('?');
                if choice.fallback {
                    writeln!(self.out, "{}", gave_no_move(m.name(side), letter))?;
                } else {
                    writeln!(self.out, "{}", plays(m.name(side), letter))?;
                }
                if let Some(MoveProof::Unproven { thought }) = player.last_proof() {
                    writeln!(self.out, "{}", unproven(m.name(side), thought))?;
                }
                self.play(m, choice.pit)?;
                continue;
            }
            let prompt = format!(
                "{}, choose a pit ({}):",
                m.name(side),
                m.rules().letter_range(side)
            );
            write!(self.out, "{prompt} ")?;
            let Some(line) = self.read_line()? else {
                return self.stop(m, true);
            };
            let text = line.trim();
            // On 10- and 12-pit boards q, r and u are pit letters too: the
            // mover's own pit wins, as in the full-screen game; the words
            // quit, redo and undo always work.
            let own_pit = m.rules().parse_pit(text, side).filter(|&p| {
                !text.starts_with(|c: char| c.is_ascii_digit()) && m.rules().owner(p) == side
            });
            let command = if own_pit.is_some() { "" } else { text };
            match command.to_ascii_lowercase().as_str() {
                "" if text.is_empty() => continue,
                "q" | "quit" => return self.stop(m, false),
                "?" | "help" => {
                    let config = m.config().clone();
                    self.print_help(&config)?;
                    continue;
                }
                "u" | "undo" => {
                    self.undo(m)?;
                    continue;
                }
                "r" | "redo" => {
                    self.redo(m)?;
                    continue;
                }
                _ => {}
            }
            let Some(pit) = m.rules().parse_pit(text, side) else {
                let single = text.chars().count() == 1 || text.parse::<u64>().is_ok();
                if single {
                    writeln!(self.out, "{}", MoveError::NoSuchPit)?;
                } else {
                    writeln!(self.out, "'{text}' is not a pit.")?;
                }
                writeln!(
                    self.out,
                    "Type a letter {} or a number {} (u undoes, r redoes, q quits).",
                    m.rules().letter_range(side),
                    m.rules().number_range()
                )?;
                continue;
            };
            if let Err(e) = m.board().check(pit) {
                writeln!(self.out, "{e}")?;
                continue;
            }
            self.play(m, pit)?;
        }
        Ok(true)
    }

    /// Undo by turn ([`Match::undo_turn`]): back to the human's previous
    /// turn, or a message saying why not.
    fn undo(&mut self, m: &mut Match) -> io::Result<()> {
        self.stop_thinking_ahead();
        let undo = m.undo_turn();
        writeln!(self.out, "{}", undo.message())?;
        if let Undo::Undone(_) = undo {
            self.save(m);
            self.print_board(m)?;
        }
        Ok(())
    }

    /// Redo by turn ([`Match::redo_turn`]): the move taken back and the
    /// computer's moves after it, as they were played.
    fn redo(&mut self, m: &mut Match) -> io::Result<()> {
        self.stop_thinking_ahead();
        let redone = m.redo_turn();
        for Redone {
            played,
            steps,
            after,
            ..
        } in &redone
        {
            self.report_move(m, after, played, steps)?;
        }
        writeln!(self.out, "{}", redo_message(&redone))?;
        if !redone.is_empty() {
            self.save(m);
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
    fn play(&mut self, m: &mut Match, pit: crate::rules::Pit) -> io::Result<()> {
        let mut steps: Vec<Step> = Vec::new();
        let played = match m.play(pit, &mut steps) {
            Ok(played) => played,
            Err(e) => return writeln!(self.out, "{e}"),
        };
        self.save(m);
        let after = *m.board();
        self.report_move(m, &after, &played, &steps)
    }

    /// Shows a move: its sowing line, the board it led to, what it did.
    fn report_move(
        &mut self,
        m: &Match,
        after: &Board,
        played: &Played,
        steps: &[Step],
    ) -> io::Result<()> {
        if self.options.seed_delay.is_some()
            && let Some(line) = board::sowing_line(m.rules(), steps)
        {
            writeln!(self.out, "{} {line}", m.name(played.mover))?;
        }
        writeln!(self.out)?;
        write!(self.out, "{}", board::render(after, Self::names(m)))?;
        for line in describe(m.rules(), played, Self::names(m)) {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// The round's seeds so far and the match score.
    fn print_standing(&mut self, m: &Match) -> io::Result<()> {
        let score = m.board().score();
        let [s, n] = Self::names(m);
        writeln!(
            self.out,
            "This round so far: {s} {}, {n} {}.",
            score.south, score.north
        )?;
        self.print_tally(m)
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
        let mut out = Vec::new();
        let mut game = Plain {
            input: "".as_bytes(),
            out: &mut out,
            echo: true,
            options: PlayOptions::default(),
            keeper: Keeper::new(None),
            computers: [None, Some(Box::new(GivesUp))],
        };
        game.play_match(config, 1).unwrap();
        let out = String::from_utf8(out).unwrap();
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
        let mut out = Vec::new();
        let mut game = Plain {
            input: input.as_bytes(),
            out: &mut out,
            echo: true,
            options: PlayOptions {
                seed_delay: animate.then_some(Duration::ZERO),
                think: Duration::from_millis(10),
                ..PlayOptions::default()
            },
            keeper: Keeper::new(None),
            computers: [None, None],
        };
        game.play_match(config, 1).unwrap();
        String::from_utf8(out).unwrap()
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
