//! The line-by-line front end: plain text in, plain text out.
//!
//! Used with `--plain`, and whenever standard input or output is not a
//! terminal: over a pipe, in a script, with a screen reader. It prints no
//! escape codes, only lines of text:
//!
//! - the board after every move, box-drawn with pit letters
//!   ([`board::render`]), and the messages of RULES.md §3 ("Alice gets an extra
//!   turn!", "Michael captures 4 seeds: 3 from e, 1 from h.");
//! - with animation on (the default), one line before the board listing
//!   where the hand dropped each seed (`Alice sows c: d e f store`); with
//!   `--no-animation`, only the boards and messages. Plain mode never
//!   pauses between seeds, so scripted games run at full speed;
//! - the prompt `Alice, choose a pit (a-f):`. An answer is a pit letter, or
//!   a number 1..n counted from the mover's left (as on the full screen);
//!   `undo` takes back a move (against a computer, back to the human's
//!   previous turn), `redo` redoes it, `hint` asks the engine, `quit`
//!   quits, `help` shows this help; their letters work where they name no
//!   pit (see [`crate::session::commands`]: one answer for every front
//!   end). A wrong answer gets the rules' message ("Sorry, that pit is
//!   empty.") and the question again.
//!
//! At "Play again?", `A` (or `analysis`) prints the round's analysis as
//! `mancala analyze --plain` does: every move under perfect play, the
//! turning points and the value over the round (worked out as the round
//! was played when a person is at the keyboard, else when asked).
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
//! The match is saved after every move (see [`crate::store::save`]), so
//! that a program killed at any moment loses nothing: starting again with
//! the same names and settings asks "Resume the unfinished match? (y/n)".
//! `q`, and end of input at a terminal (Ctrl-D), stop with the match saved.
//! End of input from a script ends the match and clears its save, so that
//! running the same script again plays the same game instead of meeting the
//! resume question. Each finished round is written as a record and counted
//! in the statistics. Answering `n` to "Play again? (y/n)" (or ending the
//! input there) ends the match and clears its save. All of this is the
//! [`Session`]'s: this front end turns lines into its commands and its
//! events into lines.

pub mod analysis;
pub mod board;
pub mod lines;
pub mod net;
pub mod puzzle;
pub mod replay;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use crate::analysis::DEFAULT_THINK;
use crate::analysis::live::Standing;

use crate::console::{self, LineInput};
use crate::game::messages::{gave_no_move, hint_text, plays, unproven};
use crate::game::{Match, MatchConfig, PlayOptions, describe_move, match_score_line};
use crate::rng::Rng;
use crate::session::commands::{keys_said, swap_prompt, turn_offers, words_said};
use crate::session::{
    Asking, Ending, Moved, MovedBy, Session, SessionCommand, SessionEvent, Unparsed,
};
use crate::store::{BUSY_QUESTION, Keeper, RESUME_QUESTION, Record};

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
        seat.name = crate::store::record::clean_name(&seat.name);
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
    quiet_when_unread(played)
}

/// `played`, except that a reader that went away (`| head`) ends it with
/// success: nothing is left to tell.
///
/// # Errors
/// Any other error of `played`.
pub fn quiet_when_unread(played: anyhow::Result<ExitCode>) -> anyhow::Result<ExitCode> {
    match played {
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        other => other,
    }
}

/// The local match, line by line: a [`LineGame`] that the one plain loop
/// drives. It turns each line into a [`SessionCommand`] and each
/// [`SessionEvent`] into lines; the [`Session`] decides everything else.
/// Computers move as soon as it is their turn (plain mode reads no input
/// while they think); a human's turn, and each question, waits for the
/// next line.
struct LocalGame<W> {
    out: W,
    /// Whether each line read is printed after its prompt (input from a
    /// script, so that a transcript reads like a game).
    echo: bool,
    /// Whether each move's sowing line is printed.
    animate: bool,
    session: Session,
    /// Whether the last line was the end of input (it words the ending).
    at_end: bool,
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
        let mut session = Session::new(config, seed, options.think, keeper);
        session.set_pie_rule(options.pie_rule);
        session.set_fair_start(options.fair);
        if !echo {
            // A person at the keyboard: the round's analysis worked out as
            // it is played, ready at "Play again?" (a script's is worked
            // out when it asks for it).
            session.analyse_as_played(DEFAULT_THINK);
        }
        LocalGame {
            out,
            echo,
            animate: options.seed_delay.is_some(),
            session,
            at_end: false,
        }
    }

    /// Says who plays what, and starts the session; `Some` when the
    /// program ends already.
    fn start(&mut self) -> anyhow::Result<Option<ExitCode>> {
        let config = self.session.game().config().clone();
        let [s, n] = [&config.seats[0], &config.seats[1]];
        writeln!(
            self.out,
            "Mancala: {} (South, {}) against {} (North, {}).",
            s.name, s.kind, n.name, n.kind
        )?;
        writeln!(self.out, "Rules: {}.", config.rules_text())?;
        for said in self.session.greetings() {
            writeln!(self.out, "{said}")?;
        }
        self.print_help()?;
        let events = self.session.start();
        self.show(events)
    }

    /// Prints what the session said; `Some` when it ended.
    fn show(&mut self, events: Vec<SessionEvent>) -> anyhow::Result<Option<ExitCode>> {
        for event in events {
            if let Some(code) = self.show_one(event)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    fn show_one(&mut self, event: SessionEvent) -> anyhow::Result<Option<ExitCode>> {
        // the round the event is of (a round's last move and its end: the
        // round just finished, its sides as held after a swap)
        let m = self.session.current();
        match event {
            SessionEvent::Notice(notice) => writeln!(self.out, "{notice}")?,
            SessionEvent::Rebuilding(words) => writeln!(self.out, "{words}")?,
            SessionEvent::Note(note) => writeln!(self.out, "Note: {note}")?,
            SessionEvent::KeepFailed(problem) => console::warn(format_args!("mancala: {problem}")),
            SessionEvent::RoundOpened(opening, now) => {
                let board = board::render_piles(&now, m.names(), piles(m));
                write!(self.out, "\n{opening}\n\n{board}")?;
            }
            SessionEvent::Moved(moved) => report_move(&mut self.out, self.animate, m, &moved)?,
            SessionEvent::Swapped(said) => {
                let board = board::render(m.board(), m.names());
                write!(self.out, "{said}\n\n{board}")?;
            }
            SessionEvent::TookBack(said, now) => {
                let board = board::render_piles(&now, m.names(), piles(m));
                write!(self.out, "{said}\n\n{board}")?;
            }
            SessionEvent::Hinted(hint) => {
                writeln!(self.out, "{}", hint_text(m.rules(), m.game(), &hint))?
            }
            SessionEvent::Refused(e) => {
                let opponent = m.name(m.position().to_move().opponent());
                writeln!(self.out, "{}", e.naming_in(m.game(), opponent))?;
            }
            // Plain mode thinks inside the session: never asked.
            SessionEvent::HintWanted(_) | SessionEvent::Hurry => {}
            SessionEvent::RoundOver(result, tally) => {
                writeln!(self.out, "{result}")?;
                writeln!(self.out, "{}", match_score_line(&tally, m.names()))?;
            }
            SessionEvent::Rated(change) => writeln!(self.out, "{change}.")?,
            SessionEvent::Recorded(path) => {
                writeln!(self.out, "Round recorded in {}.", path.display())?;
            }
            SessionEvent::Asked(_) => self.prompt()?,
            SessionEvent::Ended(ending) => {
                self.ended(ending)?;
                return Ok(Some(ExitCode::SUCCESS));
            }
        }
        Ok(None)
    }

    /// Asks the question waited on.
    fn prompt(&mut self) -> io::Result<()> {
        let m = self.session.game();
        match self.session.asking() {
            Asking::Busy => write!(self.out, "{BUSY_QUESTION} ")?,
            Asking::Resume => write!(self.out, "{RESUME_QUESTION} ")?,
            Asking::PlayAgain => write!(self.out, "Play again? (y/n) ")?,
            Asking::Move(side) => write!(
                self.out,
                "{}, choose a {} ({}): ",
                m.name(side),
                m.game().pit_word(),
                m.rules().letter_range(side)
            )?,
            Asking::Swap(side) => write!(
                self.out,
                "{}",
                swap_prompt(m.rules(), m.name(side), m.name(side.opponent()), side)
            )?,
            // Plain mode's computers move inside the session.
            Asking::Computer(_) | Asking::Over => {}
        }
        self.out.flush()
    }

    /// A line typed: the command it spells, or why it is none.
    fn on_line(&mut self, line: &str) -> anyhow::Result<Option<ExitCode>> {
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        let command = match self.session.parse(line) {
            Ok(SessionCommand::Help) => {
                self.print_help()?;
                return self.prompt().map(|()| None).map_err(Into::into);
            }
            Ok(SessionCommand::Analyse) => {
                self.print_analysis()?;
                return self.prompt().map(|()| None).map_err(Into::into);
            }
            Ok(command) => command,
            Err(unparsed) => {
                self.explain(&unparsed)?;
                self.prompt()?;
                return Ok(None);
            }
        };
        let events = self.session.handle(command);
        self.show(events)
    }

    /// Why a line was no answer, and how to answer.
    fn explain(&mut self, unparsed: &Unparsed) -> io::Result<()> {
        let m = self.session.game();
        let rules = *m.rules();
        match self.session.asking() {
            Asking::Busy => writeln!(self.out, "Please answer p or q."),
            Asking::Resume => writeln!(self.out, "Please answer y or n (q stops here)."),
            Asking::PlayAgain => {
                let analysis = keys_said(
                    &self.session.open_commands(),
                    &[
                        SessionCommand::Answer(true),
                        SessionCommand::Answer(false),
                        SessionCommand::Quit,
                    ],
                );
                writeln!(self.out, "Please answer y or n (q stops here, {analysis}).")
            }
            Asking::Move(side) | Asking::Computer(side) | Asking::Swap(side) => {
                let Some(message) = unparsed.message(self.session.game().game()) else {
                    return Ok(());
                };
                let keys = keys_said(
                    &self.session.open_commands(),
                    &[SessionCommand::Hint, SessionCommand::Help],
                );
                writeln!(self.out, "{message}")?;
                writeln!(
                    self.out,
                    "Type a letter {} or a number {} ({keys}).",
                    rules.letter_range(side),
                    rules.number_range()
                )
            }
            Asking::Over => Ok(()),
        }
    }

    /// The end of input: whatever was asked, the program ends. A script's
    /// end of input (input not a terminal) ends the match for good: a
    /// saved match would make the next run of the same script answer the
    /// resume question with its first move, and scripted games must replay
    /// the same way each time.
    fn on_end(&mut self) -> anyhow::Result<Option<ExitCode>> {
        if self.echo {
            writeln!(self.out)?;
        }
        self.at_end = true;
        let command = match self.session.asking() {
            Asking::Move(_) | Asking::Swap(_) if !self.echo => SessionCommand::Quit,
            Asking::Busy => SessionCommand::Quit,
            _ => SessionCommand::Finish,
        };
        let events = self.session.handle(command);
        self.show(events)?;
        Ok(Some(ExitCode::SUCCESS))
    }

    /// Words how the session ended.
    fn ended(&mut self, ending: Ending) -> io::Result<()> {
        let why = if self.at_end {
            "End of input"
        } else {
            "Stopped"
        };
        match ending {
            Ending::LeftToOther => writeln!(
                self.out,
                "Nothing was played here: the match goes on in the other window."
            ),
            Ending::Untouched if self.at_end => {
                writeln!(self.out, "End of input: nothing was played.")
            }
            Ending::Untouched => writeln!(
                self.out,
                "Stopped. The match stays saved: start mancala with the same names to resume it."
            ),
            Ending::Finished { after_round: true } => {
                if self.at_end {
                    writeln!(self.out)?;
                }
                writeln!(self.out, "Thanks for playing!")?;
                self.print_tally()
            }
            Ending::Finished { after_round: false } => {
                writeln!(self.out, "End of input: the match ends here.")?;
                self.print_standing()
            }
            Ending::Stopped { saved } => {
                if saved {
                    writeln!(
                        self.out,
                        "{why}. The match is saved: start mancala with the same names to resume it."
                    )?;
                } else {
                    writeln!(self.out, "{why}. This match was not saved here.")?;
                }
                self.print_standing()
            }
        }
    }

    /// The analysis of the round just finished ([`SessionCommand::Analyse`]
    /// at "Play again?"), as `mancala analyze --plain` prints it: the live
    /// analysis's, waited for (its progress on standard error when that is
    /// a terminal); a round of a game it does not follow is analysed here.
    fn print_analysis(&mut self) -> io::Result<()> {
        let Some(round) = self.session.finished_round() else {
            return Ok(());
        };
        let record = Record::of_match(round);
        let shown = std::io::stderr().is_terminal();
        let analysis = match self.session.analysis_of_round(DEFAULT_THINK) {
            Some(watch) => loop {
                match watch.wait(Duration::from_millis(500)) {
                    Standing::Done(analysis) => break Ok(analysis),
                    Standing::Failed(why) => break Err(why),
                    Standing::Working(done, total) if shown => {
                        eprint!("\rAnalysing: position {done} of {total}");
                    }
                    Standing::Working(..) => {}
                }
            },
            None => Err("the system refused the analysis a thread".to_string()),
        };
        if shown {
            eprint!("\r\x1b[K");
        }
        match analysis {
            Ok(analysis) => write!(self.out, "\n{}\n", analysis::report(&record, &analysis)),
            Err(why) => writeln!(self.out, "No analysis of this round: {why}"),
        }
    }

    fn print_tally(&mut self) -> io::Result<()> {
        let m = self.session.game();
        writeln!(self.out, "{}", match_score_line(m.tally(), m.names()))
    }

    /// The pits and commands, from the session's open commands.
    fn print_help(&mut self) -> io::Result<()> {
        let rules = *self.session.game().rules();
        let pit = self.session.game().game().pit_word();
        let offers = turn_offers(&rules);
        writeln!(
            self.out,
            "Choose a {pit} by its letter or by its number {} from your left; {}. The words {} work on every board; a letter that names a {pit} is that {pit}.",
            rules.number_range(),
            keys_said(&offers, &[]),
            words_said(&offers),
        )
    }

    /// The round's seeds so far and the match score.
    fn print_standing(&mut self) -> io::Result<()> {
        let m = self.session.game();
        let score = m.position().score();
        let [s, n] = m.names();
        writeln!(
            self.out,
            "This round so far: {s} {}, {n} {}.",
            score.south, score.north
        )?;
        self.print_tally()
    }
}

/// What the board shows under each store's count: Oware's piles are named
/// as the full screen names them ([`MatchConfig::pile_word`]); Kalah's
/// stores need no word.
fn piles(m: &Match) -> Option<&'static str> {
    pile_caption(m.config())
}

/// [`piles`] for a match of `config` (a record's too).
pub(crate) fn pile_caption(config: &MatchConfig) -> Option<&'static str> {
    (config.game != crate::rules::Game::Kalah).then_some(config.pile_word())
}

/// Shows a move of `m` on `out`: who played it when they did not type it
/// here, its sowing line (when `animate`), the board it led to, what it
/// did.
fn report_move(out: &mut impl Write, animate: bool, m: &Match, moved: &Moved) -> io::Result<()> {
    let Moved {
        by,
        played,
        steps,
        after,
        names,
        ..
    } = moved;
    // the sides as held when it was made (a swap may follow it)
    let names = [names[0].as_str(), names[1].as_str()];
    let name = names[played.mover().index()];
    let letter = m.rules().letter(played.pit()).unwrap_or('?');
    match *by {
        MovedBy::Person => {}
        // Not typed here: said, unless its sowing line says it.
        MovedBy::Network if animate && board::sowing_line(m.rules(), steps).is_some() => {}
        MovedBy::Redone | MovedBy::Network => writeln!(out, "{}", plays(name, letter))?,
        MovedBy::Computer {
            fallback,
            unproven: thought,
        } => {
            if fallback {
                writeln!(out, "{}", gave_no_move(name, letter))?;
            } else {
                writeln!(out, "{}", plays(name, letter))?;
            }
            if let Some(thought) = thought {
                writeln!(out, "{}", unproven(name, thought))?;
            }
        }
    }
    if animate && let Some(line) = board::sowing_line(m.rules(), steps) {
        writeln!(out, "{name} {line}")?;
    }
    writeln!(out)?;
    write!(out, "{}", board::render_piles(after, names, piles(m)))?;
    for line in describe_move(m.rules(), played, steps, names) {
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
    use crate::players::{Limits, TurnFn};
    use crate::rules::{Rules, Side};
    use crate::session::SeatKind;
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
            game: crate::rules::Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Random),
            ],
            first: FirstMover::North,
            start: None,
        };
        let options = PlayOptions::default();
        let mut game = LocalGame::new(Vec::new(), true, options, Keeper::new(None), config, 1);
        use crate::game::SeatPlayer;
        game.session.set_seat(
            Side::North,
            SeatKind::Computer(SeatPlayer::Kalah(Box::new(GivesUp))),
        );
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
            game: crate::rules::Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", north),
            ],
            first: FirstMover::Alternate,
            start: None,
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
