//! The host's match line by line: what the host's player types, read as
//! commands for the [`FriendSeat`]'s match (the session that is the
//! referee), and what it says, printed.

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use super::friend::FriendSeat;
use super::{Ask, Command, HostIn, HostSetup, LineInput, Show, is_command_line, read};
use crate::net::hosted::HOST_SEAT;
use crate::net::message::OpenQuestion;
use crate::session::Session;

/// The host's program (see this module's docs).
pub struct HostGame<S> {
    seat: FriendSeat<S>,
    /// The host's session: the referee once a friend joins (the match
    /// waiting for one until then).
    session: Session,
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
        let mut session = setup.waiting_session();
        Ok(HostGame {
            seat: FriendSeat::open(setup, show, tx, &mut session)?,
            session,
            typed_ahead: VecDeque::new(),
        })
    }

    /// The front end's view.
    pub fn show_mut(&mut self) -> &mut S {
        self.seat.show_mut()
    }

    /// The answer to the resume question.
    fn answer_offer(&mut self, line: &str) -> anyhow::Result<()> {
        match read(self.session.current(), HOST_SEAT, true, line) {
            Ok(Some(Command::Answer(yes))) => self.seat.answer_offer(&mut self.session, yes),
            _ => {
                let show = self.seat.show_mut();
                show.say("Please answer y or n.")?;
                show.ask(Ask::Resume, self.session.current(), HOST_SEAT)?;
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

    /// Time passed: tries a failed save again, keeps the connection alive.
    ///
    /// # Errors
    /// When the output fails.
    pub fn tick(&mut self) -> io::Result<()> {
        self.seat.tick(&mut self.session)
    }

    /// Handles one event; `Some` when the program should end with that code.
    ///
    /// # Errors
    /// When the port cannot be listened on, or the output fails.
    pub fn handle(&mut self, event: HostIn) -> anyhow::Result<Option<ExitCode>> {
        let changed = match event {
            HostIn::Net(event) => self.seat.on_net(&mut self.session, event)?,
            HostIn::Input(input) => {
                self.typed_ahead.push_back(input);
                false
            }
        };
        if let Some(code) = self.seat.settle(&mut self.session, changed)? {
            return Ok(Some(code));
        }
        // What was typed answers the questions as they come, in order:
        // a line typed ahead waits for the question it answers.
        while let Some(input) = self.typed_ahead.front().filter(|i| self.ready_for(i)) {
            let input = input.clone();
            self.typed_ahead.pop_front();
            // An answer to the resume question changes no question yet.
            let changed = !self.seat.is_offering();
            if let Some(code) = self.take_input(input)? {
                return Ok(Some(code));
            }
            if let Some(code) = self.seat.settle(&mut self.session, changed)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    /// Whether `input` can be taken now: a command at any time, an answer
    /// when a question for this player is open.
    fn ready_for(&self, input: &LineInput) -> bool {
        let LineInput::Line(line) = input else {
            return true;
        };
        if self.seat.is_offering() {
            return true;
        }
        is_command_line(self.session.current(), HOST_SEAT, line)
            || self
                .seat
                .current_ask(&self.session)
                .is_some_and(|a| a.is_answered_by_this_player())
    }

    /// Takes one input: a line or the end of input; `Some` ends the
    /// program with that code.
    fn take_input(&mut self, input: LineInput) -> anyhow::Result<Option<ExitCode>> {
        Ok(match input {
            LineInput::Line(line) if self.seat.is_offering() => {
                self.seat.show_mut().echo(&line)?;
                self.answer_offer(&line)?;
                None
            }
            LineInput::End if self.seat.is_offering() => {
                self.seat.show_mut().say("")?;
                self.seat
                    .show_mut()
                    .say("End of input: nothing was played.")?;
                Some(ExitCode::SUCCESS)
            }
            LineInput::Line(line) => {
                self.seat.show_mut().echo(&line)?;
                self.on_line(&line)?
            }
            LineInput::End => {
                self.seat.show_mut().say("")?;
                self.seat.show_mut().say("End of input.")?;
                self.seat.leave(&self.session)?;
                Some(ExitCode::SUCCESS)
            }
        })
    }

    /// Handles a typed line; `Some` ends the program with that code.
    fn on_line(&mut self, line: &str) -> anyhow::Result<Option<ExitCode>> {
        // What is open is the session's question (see `Hosted::question`).
        let ask = self.seat.current_ask(&self.session);
        let question = ask.is_some_and(Ask::is_question);
        let answers_only = question || ask == Some(Ask::Open(OpenQuestion::WaitAgain));
        let said = match read(self.session.current(), HOST_SEAT, question, line) {
            Ok(Some(command)) => return self.seat.command(&mut self.session, command),
            Ok(None) => return Ok(None),
            Err(_) if !self.seat.begun() => "Nobody has joined yet; q quits.".into(),
            Err(_) if answers_only => "Please answer y or n.".into(),
            Err(said) => said,
        };
        self.seat.show_mut().say(&said)?;
        Ok(None)
    }
}
