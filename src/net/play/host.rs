//! The host's match line by line: the match and its [`Keeper`], played by
//! this loop with the friend at the [`FriendSeat`] (whose moves arrive from
//! the connection, checked by the referee), and what the host's player
//! types.

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use crate::game::{Match, Undo};
use crate::net::referee::{HOST_SIDE, Happening, JOINER_SIDE};
use crate::net::resume::HostNote;
use crate::rules::{Pit, Step};
use crate::store::Keeper;

use super::friend::{ForMatch, FriendSeat};
use super::{Command, HostIn, HostSetup, LineInput, Show, Taken, is_command_line, read};

/// The host's program (see this module's docs).
pub struct HostGame<S> {
    seat: FriendSeat<S>,
    keeper: Keeper,
    /// The match, once the friend joined or the saved one was resumed.
    game: Option<Match>,
    /// A saved match offered for resuming, with its note.
    offer: Option<(Match, HostNote)>,
    /// Lines typed before the question they answer.
    typed_ahead: VecDeque<LineInput>,
}

impl<S: Show> HostGame<S> {
    /// Opens the host's match: offers the unfinished one if there is one
    /// (answered through [`HostGame::handle`]), else starts listening.
    /// Network events are sent to `tx`, which the caller reads and hands
    /// back to [`HostGame::handle`].
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn new(setup: HostSetup, show: S, tx: mpsc::Sender<HostIn>) -> anyhow::Result<HostGame<S>> {
        let (seat, keeper, offer) = FriendSeat::open(setup, show, tx)?;
        Ok(HostGame {
            seat,
            keeper,
            game: None,
            offer,
            typed_ahead: VecDeque::new(),
        })
    }

    /// The front end's view.
    pub fn show_mut(&mut self) -> &mut S {
        self.seat.show_mut()
    }

    /// The answer to the resume question.
    fn answer_offer(&mut self, line: &str) -> anyhow::Result<()> {
        match read(&self.seat.rules(), HOST_SIDE, true, line) {
            Ok(Some(Command::Answer(yes))) => {
                let offer = self.offer.take().filter(|_| yes);
                self.seat.start(offer)?;
                self.carry_out()?;
                Ok(())
            }
            _ => {
                self.seat.show_mut().say("Please answer y or n.")?;
                let rules = self.seat.rules();
                self.seat.show_mut().ask(&super::Ask::Resume, &rules)?;
                Ok(())
            }
        }
    }

    /// How long the caller may wait for the next event before calling
    /// [`HostGame::tick`].
    #[must_use]
    pub fn wait(&self) -> Duration {
        self.seat.wait()
    }

    /// Time passed: keeps the connection alive.
    ///
    /// # Errors
    /// When the output fails.
    pub fn tick(&mut self) -> io::Result<()> {
        self.seat.save_again(&mut self.keeper)?;
        self.seat.tick()
    }

    /// Handles one event; `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn handle(&mut self, event: HostIn) -> anyhow::Result<Option<ExitCode>> {
        let changed = match event {
            HostIn::Net(event) => {
                let changed = self.seat.on_net(event, &mut self.keeper)?;
                self.carry_out()?;
                changed
            }
            HostIn::Input(input) => {
                self.typed_ahead.push_back(input);
                false
            }
        };
        if let Some(code) = self.settle(changed)? {
            return Ok(Some(code));
        }
        // What was typed answers the questions as they come, in order:
        // a line typed ahead waits for the question it answers.
        while let Some(input) = self.typed_ahead.pop_front() {
            if !self.ready_for(&input) {
                self.typed_ahead.push_front(input);
                break;
            }
            let changed = match self.take_input(input)? {
                Taken::Exit(code) => return Ok(Some(code)),
                Taken::Changed(changed) => changed,
            };
            if let Some(code) = self.settle(changed)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    /// Does to the match what the network game asks ([`ForMatch`]), keeps
    /// each change, and then lets the friend hear of it.
    fn carry_out(&mut self) -> io::Result<()> {
        for action in self.seat.take_actions() {
            match action {
                ForMatch::Start(m) => self.game = Some(*m),
                ForMatch::Play(pit) => self.play(pit)?,
                ForMatch::TakeBack(side) => {
                    let Some(m) = self.game.as_mut() else {
                        continue;
                    };
                    let moves = match m.undo_for(side) {
                        Undo::Undone(moves) => moves,
                        _ => 0,
                    };
                    let warning = self.keeper.save(m);
                    let m = m.clone();
                    self.note(&m, warning)?;
                    self.seat.kept(&m, &self.keeper)?;
                    self.seat
                        .show_mut()
                        .show(&m, &Happening::Undone { moves })?;
                }
                ForMatch::NextRound => {
                    let Some(m) = self.game.as_mut() else {
                        continue;
                    };
                    // The keeper saved this next round when the last one closed.
                    m.next_round();
                    let m = m.clone();
                    self.seat.kept(&m, &self.keeper)?;
                    self.seat.show_mut().show(&m, &Happening::NextRound)?;
                }
                ForMatch::Finished => {}
            }
        }
        Ok(())
    }

    /// Plays `pit` (the host's or the friend's, checked), keeps the match,
    /// tells the friend, and shows the move.
    fn play(&mut self, pit: Pit) -> io::Result<()> {
        let Some(m) = self.game.as_mut() else {
            return Ok(());
        };
        let mut steps: Vec<Step> = Vec::new();
        let Ok(played) = m.play(pit, &mut steps) else {
            return Ok(());
        };
        let mut warnings = Vec::new();
        let mut record = None;
        if m.board().is_over() {
            let kept = self.keeper.close_round(m);
            record = kept.record;
            warnings = kept.warnings;
        } else {
            warnings.extend(self.keeper.save(m));
        }
        let m = m.clone();
        for warning in warnings {
            self.note(&m, Some(warning))?;
        }
        // Kept: now it is final, and the friend may hear of it.
        self.seat.kept(&m, &self.keeper)?;
        let show = self.seat.show_mut();
        show.show(&m, &Happening::Moved { played, steps })?;
        if let Some(outcome) = m.outcome() {
            show.show(&m, &Happening::RoundOver { outcome, record })?;
        }
        Ok(())
    }

    fn note(&mut self, m: &Match, warning: Option<String>) -> io::Result<()> {
        match warning {
            Some(text) => self.seat.show_mut().show(m, &Happening::Note(text)),
            None => Ok(()),
        }
    }

    /// Whether `input` can be taken now: a command at any time, an answer
    /// when a question for this player is open.
    fn ready_for(&self, input: &LineInput) -> bool {
        let LineInput::Line(line) = input else {
            return true;
        };
        if self.offer.is_some() {
            return true;
        }
        is_command_line(&self.seat.rules(), HOST_SIDE, line)
            || self
                .seat
                .current_ask()
                .is_some_and(|a| a.is_answered_by_this_player())
    }

    /// Takes one input: a line or the end of input.
    fn take_input(&mut self, input: LineInput) -> anyhow::Result<Taken> {
        Ok(match input {
            LineInput::Line(line) if self.offer.is_some() => {
                self.seat.show_mut().echo(&line)?;
                self.answer_offer(&line)?;
                Taken::Changed(false)
            }
            LineInput::End if self.offer.is_some() => {
                self.seat.show_mut().say("")?;
                self.seat
                    .show_mut()
                    .say("End of input: nothing was played.")?;
                Taken::Exit(ExitCode::SUCCESS)
            }
            LineInput::Line(line) => {
                self.seat.show_mut().echo(&line)?;
                match self.on_line(&line)? {
                    Some(code) => Taken::Exit(code),
                    None => Taken::Changed(true),
                }
            }
            LineInput::End => {
                self.seat.show_mut().say("")?;
                self.seat.show_mut().say("End of input.")?;
                self.seat.leave()?;
                Taken::Exit(ExitCode::SUCCESS)
            }
        })
    }

    /// After a change: ends the program once the match is over, else asks
    /// what comes next.
    fn settle(&mut self, changed: bool) -> anyhow::Result<Option<ExitCode>> {
        if self.seat.is_finished() {
            self.seat.end();
            return Ok(Some(ExitCode::SUCCESS));
        }
        if changed {
            self.seat.prompt()?;
        }
        Ok(None)
    }

    /// Handles a typed line; `Some` ends the program with that code.
    fn on_line(&mut self, line: &str) -> anyhow::Result<Option<ExitCode>> {
        let rules = self.seat.rules();
        let (question, answers_only) = self.seat.referee().map_or((false, false), |r| {
            let asked = r.undo_request() == Some(JOINER_SIDE);
            let round_over = r.game().outcome().is_some();
            let again = round_over && r.again()[HOST_SIDE.index()].is_none();
            (asked || again, asked || round_over)
        });
        let said = match read(&rules, HOST_SIDE, question, line) {
            Ok(Some(command)) => return self.on_command(command),
            Ok(None) => return Ok(None),
            Err(_) if self.seat.referee().is_none() => "Nobody has joined yet; q quits.".into(),
            Err(_) if answers_only => "Please answer y or n.".into(),
            Err(said) => said,
        };
        self.seat.show_mut().say(&said)?;
        Ok(None)
    }

    /// Carries out the host player's `command`; `Some` ends the program
    /// with that code.
    fn on_command(&mut self, command: Command) -> anyhow::Result<Option<ExitCode>> {
        let rules = self.seat.rules();
        if command == Command::Quit {
            self.seat.leave()?;
            return Ok(Some(ExitCode::SUCCESS));
        }
        let Some(referee) = self.seat.referee() else {
            self.seat
                .show_mut()
                .say("Nobody has joined yet; q quits.")?;
            return Ok(None);
        };
        let opponent = referee.game().name(JOINER_SIDE).to_string();
        let round_over = referee.game().outcome().is_some();
        let undo_request = referee.undo_request();
        let to_move = referee.game().board().to_move();
        let said = match command {
            Command::Answer(yes) => {
                if self.seat.answer(yes, &mut self.keeper)? {
                    self.carry_out()?;
                }
                return Ok(None);
            }
            Command::Help => {
                self.seat.show_mut().help(&rules, HOST_SIDE)?;
                return Ok(None);
            }
            _ if !self.seat.is_connected() => format!(
                "{opponent} is not connected: waiting for {opponent} to come back (q quits)."
            ),
            Command::Undo => {
                self.seat.ask_take_back()?;
                return Ok(None);
            }
            Command::Play(_) if undo_request.is_some() => {
                "First the request to take back a move must be answered.".to_string()
            }
            Command::Play(_) if round_over => "The round is over: answer y or n.".to_string(),
            Command::Play(_) if self.seat.is_unsaved() => {
                "The last move is not saved yet: play on once it is.".to_string()
            }
            Command::Play(_) if to_move != HOST_SIDE => format!("It is {opponent}'s turn."),
            Command::Play(pit) => match self.seat.referee().map(|r| r.local_move(pit)) {
                Some(Err(e)) => e.to_string(),
                _ => {
                    self.play(pit)?;
                    return Ok(None);
                }
            },
            // Not offered over the network.
            _ => return Ok(None),
        };
        self.seat.show_mut().say(&said)?;
        Ok(None)
    }
}
