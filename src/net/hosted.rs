//! The host's match: a [`Session`] with the friend at its
//! [`SeatKind::Network`](crate::session::SeatKind::Network) seat is the
//! referee. Each message of the joiner becomes a typed command for that
//! seat ([`Session::handle_for`]), so the session checks whose turn it is
//! and the rules check the move; the session keeps every change with its
//! [`Keeper`], and the joiner hears of a change only once it is saved
//! ([`Hosted::tell`]): a move counts once the host has saved it.
//!
//! What only a network match adds lives here beside the session: a
//! take-back needs the other player's yes, and both answer "Play again?".
//! Nothing here touches a socket or a screen: what to send and what to
//! show comes back as [`Said`], for the friend's seat
//! ([`super::play::FriendSeat`]) to carry out.

use std::path::PathBuf;

use super::message::{At, Snapshot, ToHost, ToJoiner};
use super::resume::{self, HostNote};
use crate::game::Match;
use crate::rules::{MoveError, NoTrace, Outcome, Pit, Played, Side, Step};
use crate::session::{Asking, Session, SessionCommand, SessionEvent};
use crate::store::Keeper;

/// The side the host plays; the joiner plays the other.
pub const HOST_SIDE: Side = Side::South;
/// The side the joiner plays.
pub const JOINER_SIDE: Side = Side::North;

/// Something that happened in the match, for the front ends to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A move, with its steps for the animation.
    Moved {
        /// What the move did.
        played: Played,
        /// Each seed lifted and dropped, in order.
        steps: Vec<Step>,
    },
    /// The round just ended (its last move was shown before).
    RoundOver {
        /// How it ended.
        outcome: Outcome,
        /// Where it was recorded.
        record: Option<PathBuf>,
    },
    /// `by` asks to take back the last move.
    UndoAsked {
        /// Who asks.
        by: Side,
    },
    /// `by` said no to taking back a move.
    UndoDeclined {
        /// Who said no.
        by: Side,
    },
    /// Moves were taken back (both agreed): what is said of it.
    Undone {
        /// "Took back 1 move: Alice plays again."
        text: String,
    },
    /// `side` answered "Play again?".
    Again {
        /// Who answered.
        side: Side,
        /// The answer.
        yes: bool,
    },
    /// The next round started.
    NextRound,
    /// The match is over: someone does not want to play again.
    Finished,
    /// `side`'s player left (the match stays saved on the host).
    Left {
        /// Who left.
        side: Side,
    },
    /// Something to know about what is kept ("Note: …").
    Note(String),
    /// A sentence for the host's player.
    Said(String),
}

/// What a change asks of the friend's seat: messages for the joiner and
/// what to show the host's player, each in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    /// For the joiner (dropped when none is connected: a joiner who comes
    /// back is sent the whole match).
    pub send: Vec<ToJoiner>,
    /// For the host's player.
    pub show: Vec<Happening>,
}

/// A message from the joiner that breaks the protocol: the connection
/// ends with this sentence, and the match is untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

/// The host's match. See the [module docs](self).
pub struct Hosted {
    session: Session,
    /// The match as the joiner was last told of it.
    told: Match,
    /// Why the resume note could not be kept, until it is said.
    journal_problem: Option<String>,
    again: [Option<bool>; 2],
    undo: Option<(Side, At)>,
    /// A change is not saved yet: the joiner hears of it once it is.
    unsaved: bool,
    finished: bool,
}

impl Hosted {
    /// The host's match `game`, kept by `keeper`.
    #[must_use]
    pub fn new(game: Match, keeper: Keeper) -> Hosted {
        Hosted {
            told: game.clone(),
            session: Session::hosting(game, JOINER_SIDE, keeper),
            journal_problem: None,
            again: [None, None],
            undo: None,
            unsaved: false,
            finished: false,
        }
    }

    /// Keeps host `host`'s resume note (see [`super::resume`]) for this
    /// match.
    #[must_use]
    pub fn with_journal(mut self, host: &str, note: &HostNote) -> Hosted {
        if let Err(e) = resume::store(host, resume::Settings::of(&self.told), note) {
            self.journal_problem = Some(format!(
                "the note that offers this match again after a restart could not be kept ({}); the match itself is saved as usual",
                crate::store::files::words(&e)
            ));
        }
        self
    }

    /// Why the resume note could not be kept, once.
    pub fn take_journal_problem(&mut self) -> Option<String> {
        self.journal_problem.take()
    }

    /// The match as the joiner was last told of it (what both players
    /// have seen confirmed).
    #[must_use]
    pub fn game(&self) -> &Match {
        &self.told
    }

    /// The match as the host's session holds it (ahead of
    /// [`Hosted::game`] while a change waits for its save).
    #[must_use]
    pub fn current(&self) -> &Match {
        self.session.current()
    }

    /// Whether the match is over for good.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether a change waits for its save before the joiner hears of it.
    #[must_use]
    pub fn is_unsaved(&self) -> bool {
        self.unsaved
    }

    /// The answers to "Play again?" given so far, by side.
    #[must_use]
    pub fn again(&self) -> [Option<bool>; 2] {
        self.again
    }

    /// A pending request to take back a move: who asked.
    #[must_use]
    pub fn undo_request(&self) -> Option<Side> {
        self.undo.map(|(side, _)| side)
    }

    /// What a joiner named `name` (already cleaned) is sent on joining:
    /// the match, and the host's answer to "Play again?" if given.
    ///
    /// # Errors
    /// The sentence that turns the joiner away: not the name this match
    /// was started with.
    pub fn welcome(&mut self, name: &str, resumed: bool) -> Result<Vec<ToJoiner>, String> {
        let expected = self.told.name(JOINER_SIDE);
        if name != expected {
            let host = self.told.name(HOST_SIDE);
            return Err(format!(
                "This is {host}'s match against {expected}: join as {expected}, or ask {host} for a new match."
            ));
        }
        // A request made before the joiner went away no longer stands.
        self.undo = None;
        let mut out = vec![ToJoiner::Welcome {
            state: Snapshot::of(&self.told),
            resumed,
            // The host's seat keeper fills in the key (see `super::seat`).
            seat_key: String::new(),
        }];
        if let Some(yes) = self.again[HOST_SIDE.index()] {
            out.push(ToJoiner::Again { yes });
        }
        // The joiner answers again after coming back.
        self.again[JOINER_SIDE.index()] = None;
        Ok(out)
    }

    /// The session's `events` after a change: what the host's player is
    /// shown, and what the joiner is told once the change is kept.
    fn after(&mut self, events: Vec<SessionEvent>, said: &mut Said) {
        let record = events.iter().find_map(|e| match e {
            SessionEvent::Recorded(path) => Some(path.clone()),
            _ => None,
        });
        // What could not be kept is said before the change itself.
        for event in &events {
            if let SessionEvent::KeepFailed(text) = event {
                said.show.push(Happening::Note(text.clone()));
            }
        }
        let was = self.unsaved;
        self.unsaved = self.session.is_behind();
        if self.unsaved && !was {
            let opponent = self.told.name(JOINER_SIDE);
            said.show.push(Happening::Said(format!(
                "{opponent} is told of it once it is saved; the save is tried again every second."
            )));
        }
        self.tell(said);
        for event in events {
            said.show.push(match event {
                SessionEvent::Moved(moved) => Happening::Moved {
                    played: moved.played.as_kalah(),
                    steps: moved.steps,
                },
                SessionEvent::RoundOver(..) => match self.current().outcome() {
                    Some(outcome) => Happening::RoundOver {
                        outcome,
                        record: record.clone(),
                    },
                    None => continue,
                },
                SessionEvent::TookBack(notice, _) => Happening::Undone { text: notice.text },
                SessionEvent::RoundOpened(..) => Happening::NextRound,
                _ => continue,
            });
        }
    }

    /// Tells the joiner what the session has kept since it was last told
    /// (nothing while a save waits: see the [module docs](self)).
    fn tell(&mut self, said: &mut Said) {
        if self.unsaved {
            return;
        }
        let m = self.session.current().clone();
        if m.round() != self.told.round() {
            // A new round (both agreed): it starts empty.
            self.again = [None, None];
            self.told = m.clone();
            while self.told.undo() {}
            said.send.push(ToJoiner::NextRound {
                round: m.round(),
                starter: m.starter(),
            });
        }
        let (old, new) = (self.told.moves(), m.moves());
        if new.len() < old.len() && old.starts_with(new) {
            said.send.push(ToJoiner::Undone {
                at: At::of(&m),
                board: m.board().counts().to_vec(),
            });
        } else if new.len() > old.len() && new.starts_with(old) {
            // Each new move, as made.
            for &pit in &new[old.len()..] {
                let at = At::of(&self.told);
                if self.told.play(pit, &mut NoTrace).is_err() {
                    break;
                }
                said.send.push(ToJoiner::Moved {
                    at,
                    pit: self.told.rules().letter(pit).unwrap_or('?'),
                    board: self.told.board().counts().to_vec(),
                    to_move: self.told.board().to_move(),
                });
            }
            // A move ends any request to take one back, and a round's end
            // asks both "Play again?" afresh.
            self.undo = None;
            if self.told.board().is_over() {
                self.again = [None, None];
            }
        }
        self.told = m;
    }

    /// Tries again the save that failed; once it is kept, the joiner
    /// hears of the change.
    pub fn save_again(&mut self) -> Said {
        let mut said = Said::default();
        // The reason was said already.
        let _ = self.session.save_again();
        self.unsaved = self.session.is_behind();
        if !self.unsaved {
            let opponent = self.told.name(JOINER_SIDE);
            said.show.push(Happening::Said(format!(
                "The match is saved now: {opponent} is told."
            )));
        }
        self.tell(&mut said);
        said
    }

    /// The host's player plays `pit`.
    ///
    /// # Errors
    /// Why it cannot be played now.
    pub fn local_move(&mut self, pit: Pit) -> Result<Said, String> {
        let opponent = self.told.name(JOINER_SIDE).to_string();
        if self.undo.is_some() {
            return Err("First the request to take back a move must be answered.".into());
        }
        if self.told.outcome().is_some() || self.finished {
            return Err("The round is over: answer y or n.".into());
        }
        if self.unsaved {
            return Err("The last move is not saved yet: play on once it is.".into());
        }
        let events = self
            .session
            .handle_for(HOST_SIDE, SessionCommand::Play(pit));
        match events.iter().find_map(|e| match e {
            SessionEvent::Refused(e) => Some(*e),
            _ => None,
        }) {
            Some(_) if self.session.asking() == Asking::Move(JOINER_SIDE) => {
                Err(format!("It is {opponent}'s turn."))
            }
            Some(e) => Err(e.to_string()),
            None => {
                let mut said = Said::default();
                self.after(events, &mut said);
                Ok(said)
            }
        }
    }

    /// The host's player asks to take back their last move.
    ///
    /// # Errors
    /// Why it cannot be asked now.
    pub fn local_undo(&mut self) -> Result<Said, String> {
        self.check_undo(HOST_SIDE)?;
        let at = At::of(&self.told);
        self.undo = Some((HOST_SIDE, at));
        Ok(Said {
            send: vec![ToJoiner::UndoAsked { at }],
            show: Vec::new(),
        })
    }

    /// The host's player's yes or no to the question open now: the
    /// joiner's request to take back a move, else "Play again?" after a
    /// round; `None` when neither is open.
    pub fn local_answer(&mut self, yes: bool) -> Option<Said> {
        let mut said = Said::default();
        if self.undo_request() == Some(JOINER_SIDE) {
            if yes {
                self.take_back(&mut said);
            } else {
                self.undo = None;
                said.send.push(ToJoiner::UndoDeclined);
                said.show
                    .push(Happening::Said("You said no: the move stays.".into()));
            }
        } else if self.told.outcome().is_some() && self.again[HOST_SIDE.index()].is_none() {
            self.answer_again(HOST_SIDE, yes, &mut said);
        } else {
            return None;
        }
        Some(said)
    }

    /// Whether `by` may ask to take back their last move now.
    fn check_undo(&self, by: Side) -> Result<(), String> {
        let m = self.current();
        if self.told.board().is_over() || self.finished {
            return Err("The round is over: its moves are recorded.".into());
        }
        if self.unsaved {
            return Err(format!(
                "{} has just moved: the move is on its way.",
                m.name(JOINER_SIDE)
            ));
        }
        if !m.can_undo() {
            return Err("There is no move to take back.".into());
        }
        if self.undo.is_some() {
            return Err("A request to take back a move is already waiting for an answer.".into());
        }
        match m.undo_for_refused(by) {
            None => Ok(()),
            Some(refused) => Err(refused.message().text),
        }
    }

    /// Both agreed: the asker's move and the replies to it go.
    fn take_back(&mut self, said: &mut Said) {
        if let Some((by, _)) = self.undo.take() {
            let events = self.session.handle(SessionCommand::TakeBack(by));
            self.after(events, said);
        }
    }

    /// `side`'s answer to "Play again?" (the host's own, or the joiner's):
    /// a no ends the match (its save cleared before the joiner is told),
    /// two yeses start the next round.
    fn answer_again(&mut self, side: Side, yes: bool, said: &mut Said) {
        if self.told.outcome().is_none() || self.finished {
            return;
        }
        self.again[side.index()] = Some(yes);
        if side == HOST_SIDE {
            said.send.push(ToJoiner::Again { yes });
        } else {
            said.show.push(Happening::Again { side, yes });
        }
        match self.again {
            [Some(false), _] | [_, Some(false)] => {
                self.finished = true;
                let events = self.session.handle(SessionCommand::Answer(false));
                self.after(events, said);
                said.send.push(ToJoiner::Finished);
                said.show.push(Happening::Finished);
            }
            [Some(true), Some(true)] => {
                self.again = [None, None];
                let events = self.session.handle(SessionCommand::Answer(true));
                self.after(events, said);
            }
            _ => {}
        }
    }

    /// A message from the joiner, as a command for the network seat.
    ///
    /// # Errors
    /// A [`Violation`] for a message out of turn, out of place or against
    /// the rules: the match is unchanged, and the connection should end.
    pub fn remote(&mut self, message: ToHost) -> Result<Said, Violation> {
        let violation = |what: &str| Err(Violation(what.to_string()));
        let mut said = Said::default();
        match message {
            ToHost::Ping => {}
            ToHost::Join { .. } => return violation("joined twice on one connection"),
            ToHost::Move { at, pit } => {
                if self.unsaved && at == At::of(&self.told) {
                    // Sent again by a joiner who came back before hearing
                    // of it: the first one stands, and waits for its save.
                    return Ok(said);
                }
                if at != At::of(&self.told) {
                    return violation("sent a move for another position");
                }
                if self.undo.is_some() {
                    return violation("sent a move while a take-back request was open");
                }
                let rules = *self.told.rules();
                let Some(pit) = rules
                    .pit_by_letter(pit)
                    .filter(|&p| rules.owner(p) == JOINER_SIDE)
                else {
                    return violation("sent a move from a pit that is not theirs");
                };
                let events = self
                    .session
                    .handle_for(JOINER_SIDE, SessionCommand::Play(pit));
                match events.iter().find_map(|e| match e {
                    SessionEvent::Refused(e) => Some(*e),
                    _ => None,
                }) {
                    Some(MoveError::NotYours | MoveError::GameOver) => {
                        return violation("sent a move out of turn");
                    }
                    Some(e) => return violation(&format!("sent a move the rules refuse ({e})")),
                    None => self.after(events, &mut said),
                }
            }
            ToHost::Undo { at } => {
                if at != At::of(&self.told) {
                    // Asked before the last move arrived: void, not a fault.
                    said.send.push(ToJoiner::UndoDeclined);
                } else if let Err(why) = self.check_undo(JOINER_SIDE) {
                    said.send.push(ToJoiner::UndoDeclined);
                    said.show.push(Happening::Note(why));
                } else {
                    self.undo = Some((JOINER_SIDE, at));
                    said.show.push(Happening::UndoAsked { by: JOINER_SIDE });
                }
            }
            ToHost::UndoAnswer { at, yes } => match self.undo {
                Some((HOST_SIDE, asked)) if asked == at => {
                    if yes {
                        self.take_back(&mut said);
                    } else {
                        self.undo = None;
                        said.show.push(Happening::UndoDeclined { by: JOINER_SIDE });
                    }
                }
                // An answer to a request that no longer stands.
                _ => {}
            },
            ToHost::Again { yes } => {
                if self.told.outcome().is_none() {
                    return violation("answered 'Play again?' during a round");
                }
                self.answer_again(JOINER_SIDE, yes, &mut said);
            }
            ToHost::Leave => {
                self.undo = None;
                said.show.push(Happening::Left { side: JOINER_SIDE });
            }
        }
        Ok(said)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat};
    use crate::players::PlayerKind;
    use crate::rules::Rules;

    /// A fresh match of Kalah(3,2): Alice at the host, Michael at the
    /// network seat.
    pub(crate) fn a_match() -> Match {
        let config = MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::new(3, 2).unwrap(),
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Network),
            ],
            first: FirstMover::Alternate,
            start: None,
        };
        Match::new(config, 1)
    }

    fn hosted() -> Hosted {
        Hosted::new(a_match(), Keeper::new(None))
    }

    fn pit(h: &Hosted, letter: char) -> Pit {
        h.game().rules().pit_by_letter(letter).unwrap()
    }

    #[test]
    fn out_of_turn_and_illegal_moves_end_the_connection_and_change_nothing() {
        let mut h = hosted();
        let at = At::of(h.game());
        // South (the host) moves first.
        assert!(h.remote(ToHost::Move { at, pit: 'd' }).is_err());
        assert!(h.local_move(pit(&h, 'd')).is_err(), "not hers");
        let said = h.local_move(pit(&h, 'a')).unwrap();
        assert!(matches!(said.send[..], [ToJoiner::Moved { pit: 'a', .. }]));
        let at = At::of(h.game());
        assert!(h.remote(ToHost::Move { at, pit: 'a' }).is_err(), "not his");
        let stale = At { round: 1, ply: 0 };
        assert!(
            h.remote(ToHost::Move {
                at: stale,
                pit: 'd'
            })
            .is_err()
        );
        assert!(h.remote(ToHost::Again { yes: true }).is_err());
        assert_eq!(h.current().moves().len(), 1, "nothing else played");
        assert_eq!(
            h.local_move(pit(&h, 'b')).unwrap_err(),
            "It is Michael's turn."
        );
    }

    #[test]
    fn undo_needs_the_others_yes() {
        let mut h = hosted();
        h.local_move(pit(&h, 'a')).unwrap();
        // The joiner has no move of his own to take back yet.
        let at = At::of(h.game());
        let said = h.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(said.send, [ToJoiner::UndoDeclined]);
        h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        let at = At::of(h.game());
        let said = h.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(said.show, [Happening::UndoAsked { by: JOINER_SIDE }]);
        assert_eq!(
            h.local_answer(false).unwrap().send,
            [ToJoiner::UndoDeclined]
        );
        h.remote(ToHost::Undo { at }).unwrap();
        let said = h.local_answer(true).unwrap();
        assert!(
            matches!(said.send[..], [ToJoiner::Undone { .. }]),
            "{said:?}"
        );
        assert_eq!(h.game().moves().len(), 1, "back to Michael's turn");
        assert_eq!(h.game().board().to_move(), JOINER_SIDE);
    }

    #[test]
    fn a_round_ends_with_both_answers() {
        let mut h = hosted();
        while h.game().outcome().is_none() {
            let p = h.game().board().legal_moves().next().unwrap();
            if h.game().board().to_move() == HOST_SIDE {
                h.local_move(p).unwrap();
            } else {
                let letter = h.game().rules().letter(p).unwrap();
                let at = At::of(h.game());
                h.remote(ToHost::Move { at, pit: letter }).unwrap();
            }
        }
        let said = h.local_answer(true).unwrap();
        assert_eq!(said.send, [ToJoiner::Again { yes: true }]);
        let said = h.remote(ToHost::Again { yes: true }).unwrap();
        assert!(
            matches!(said.send[..], [ToJoiner::NextRound { round: 2, .. }]),
            "{said:?}"
        );
        assert!(said.show.contains(&Happening::NextRound));
        assert_eq!(h.game().round(), 2);
    }
}
