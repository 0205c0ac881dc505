//! The host's match: a [`Session`] with the friend at its
//! [`SeatKind::Network`](crate::session::SeatKind::Network) seat is the
//! referee ([`referee`]; the host's front end holds it, and the full
//! screen draws it). Each message of the joiner becomes a typed command for that
//! seat ([`Session::handle_for`]), so the session checks whose turn it is
//! and the rules check the move; the session keeps every change with its
//! [`Keeper`], and the joiner hears of a change only once it is saved
//! ([`Said`]): a move counts once the host has saved it.
//!
//! The match's two seats are the host's ([`HOST_SEAT`]) and the joiner's
//! ([`JOINER_SEAT`]); which side each plays is the match's word
//! ([`Match::holder`]): South and North, until the pie rule's swap (`--swap`,
//! RULES.md §5.3) changes them for the rest of the round. The session
//! asks the swap of whichever seat moves second, on either end, and takes
//! it from that seat only.
//!
//! What only a network match adds lives here beside the session
//! ([`Hosted`], handed the session at each call): a take-back needs the
//! other player's yes, and both answer "Play again?".
//! Nothing here touches a socket or a screen: what to send and what to
//! show comes back as [`Said`], for the friend's seat
//! ([`super::play::FriendSeat`]) to carry out.

use std::path::PathBuf;

use super::message::{At, NotNow, OpenQuestion, Snapshot, ToHost, ToJoiner};
use crate::game::{Match, Notice};
use crate::rules::{MoveError, Pit, Side};
use crate::session::{Asking, Moved, Session, SessionCommand, SessionEvent};
use crate::store::Keeper;

/// The host's seat: the match's first ([`crate::game::MatchConfig::seats`]),
/// which plays South until the pie rule's swap ([`Match::holder`]).
pub const HOST_SEAT: Side = Side::South;
/// The joiner's seat: the match's second, North's until a swap.
pub const JOINER_SEAT: Side = Side::North;

/// Why the player at `seat` may not take back their last move in `m`
/// now: the match's own reasons ([`Match::undo_for_refused`]), and, over
/// the network, a take-back that would reach back past the pie rule's
/// swap (the swap is answered once, like "Play again?").
#[must_use]
pub fn undo_refused(m: &Match, seat: Side) -> Option<String> {
    let side = m.holder(seat);
    if let Some(refused) = m.undo_for_refused(side) {
        return Some(refused.message().text);
    }
    m.undo_for_crosses_swap(side).then(|| {
        "The players swapped sides after that move: a move from before the swap cannot be taken back.".to_string()
    })
}

/// Something that happened in the match, for the front ends to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A move, as the session made it (with its sowing, for the
    /// animation).
    Moved(Box<Moved>),
    /// The round just ended (its last move was shown before).
    RoundOver {
        /// How it ended, as the session said it ("Alice wins! 30–18").
        result: Notice,
        /// Where it was recorded.
        record: Option<PathBuf>,
    },
    /// The player at seat `by` asks to take back the last move.
    UndoAsked {
        /// Who asks (a seat).
        by: Side,
    },
    /// The player at seat `by` said no to taking back a move.
    UndoDeclined {
        /// Who said no (a seat).
        by: Side,
    },
    /// Both agreed: a move and the replies to it were taken back (a
    /// joiner's session takes them back too).
    Undone {
        /// "Took back 1 move: Alice plays again."
        text: String,
    },
    /// The player at `seat` answered "Play again?".
    Again {
        /// Who answered.
        seat: Side,
        /// The answer.
        yes: bool,
    },
    /// The next round started.
    NextRound,
    /// The match is over: someone does not want to play again.
    Finished,
    /// The pie rule's swap was taken: the seats play the other sides for
    /// the rest of the round (a screen's session swaps too).
    Swapped {
        /// "Michael swaps sides: …"
        text: String,
    },
    /// The player at `seat` left (the match stays saved on the host).
    Left {
        /// Who left.
        seat: Side,
    },
    /// How the friend joins, each a line (the code, the commands to type,
    /// where the host listens; which unfinished matches a join resumes).
    /// Stale once the friend is in ([`Happening::Joined`]): a screen's log
    /// drops them then; plain mode's lines stay printed above the join, as
    /// any line does.
    HowToJoin(Vec<String>),
    /// The friend joined the host's match from `from` (`back`: it was
    /// going on before this connection).
    Joined {
        /// Whether the friend is back in a match that was going on.
        back: bool,
        /// Where the friend's program connected from.
        from: std::net::SocketAddr,
    },
    /// Something to know about what is kept ("Note: …").
    Note(String),
    /// A sentence for this end's player.
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

/// What the session's `events` show on either end, in order.
#[must_use]
pub fn happenings(events: Vec<SessionEvent>) -> Vec<Happening> {
    let record = events.iter().find_map(|e| match e {
        SessionEvent::Recorded(path) => Some(path.clone()),
        _ => None,
    });
    let happening = |event| {
        Some(match event {
            SessionEvent::KeepFailed(text) | SessionEvent::Rebuilding(text) => {
                Happening::Note(text)
            }
            SessionEvent::Moved(moved) => Happening::Moved(moved),
            SessionEvent::RoundOver(result, _) => Happening::RoundOver {
                result,
                record: record.clone(),
            },
            SessionEvent::TookBack(notice, _) => Happening::Undone { text: notice.text },
            SessionEvent::RoundOpened(..) => Happening::NextRound,
            SessionEvent::Swapped(notice) => Happening::Swapped { text: notice.text },
            _ => return None,
        })
    };
    events.into_iter().filter_map(happening).collect()
}

/// The host's session, the referee, of the match `game`, kept by
/// `keeper`, played with the pie rule when `pie_rule` (`--swap`, RULES.md
/// §5.3).
#[must_use]
pub fn referee(game: Match, keeper: Keeper, pie_rule: bool) -> Session {
    let mut session = Session::hosting(game, JOINER_SEAT, keeper);
    session.set_pie_rule(pie_rule);
    session
}

/// A message from the joiner that breaks the protocol: the connection
/// ends with this sentence, and the match is untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

/// What only a network match adds to the host's session (see the
/// [module docs](self)): each method is handed that session, `s`.
#[derive(Default)]
pub struct Hosted {
    /// Each seat's answer to "Play again?".
    again: [Option<bool>; 2],
    /// The seat that asked to take back a move, and where.
    undo: Option<(Side, At)>,
    /// What the joiner is told once the change waiting for its save is
    /// kept (moves and the swap only: nothing else is done meanwhile).
    held: Vec<ToJoiner>,
}

impl Hosted {
    /// Where the match is as the joiner was told of it.
    fn told_at(&self, s: &Session) -> At {
        let mut at = At::of(s.current());
        let held = self
            .held
            .iter()
            .filter(|m| matches!(m, ToJoiner::Moved { .. }))
            .count();
        at.ply = at
            .ply
            .saturating_sub(u32::try_from(held).unwrap_or(u32::MAX));
        at
    }

    /// What the player at `seat` is asked now, as the session has it with
    /// what only a network match adds (a take-back both agree to, both
    /// answers to "Play again?"); nothing while a change waits for its
    /// save.
    #[must_use]
    pub fn question(&self, s: &Session, seat: Side) -> Option<OpenQuestion> {
        if s.is_behind() {
            return None;
        }
        if let Some((by, _)) = self.undo {
            return Some(if by == seat {
                OpenQuestion::WaitAgree
            } else {
                OpenQuestion::Agree
            });
        }
        let side = s.current().holder(seat);
        match s.asking() {
            Asking::PlayAgain if self.again[seat.index()].is_some() => {
                Some(OpenQuestion::WaitAgain)
            }
            Asking::PlayAgain => Some(OpenQuestion::PlayAgain),
            Asking::Move(to_move) if to_move == side => Some(OpenQuestion::Move),
            Asking::Swap(asked) if asked == side => Some(OpenQuestion::Swap),
            Asking::Move(_) | Asking::Swap(_) => Some(OpenQuestion::Wait),
            _ => None,
        }
    }

    /// The joiner's question, for it to be told after a change.
    fn ask_joiner(&self, s: &Session, said: &mut Said) {
        if let Some(question) = self.question(s, JOINER_SEAT) {
            said.send.push(ToJoiner::Asked { question });
        }
    }

    /// What a joiner named `name` (already cleaned) is sent on joining:
    /// the match as it was told (a move waiting for its save is not in
    /// it), the host's answer to "Play again?" if given, and its question.
    ///
    /// # Errors
    /// The sentence that turns the joiner away: not the name this match
    /// was started with.
    pub fn welcome(
        &mut self,
        s: &Session,
        name: &str,
        resumed: bool,
    ) -> Result<Vec<ToJoiner>, String> {
        let m = s.current();
        let expected = m.seat_name(JOINER_SEAT);
        if name != expected {
            let host = m.seat_name(HOST_SEAT);
            return Err(format!(
                "This is {host}'s match against {expected}: join as {expected}, or ask {host} for a new match."
            ));
        }
        let mut state = Snapshot::of(m, s.pie_rule());
        if self
            .held
            .iter()
            .any(|m| matches!(m, ToJoiner::Swapped { .. }))
        {
            // Told once it is saved, as a move is.
            state.swapped = None;
        }
        let told = usize::try_from(self.told_at(s).ply).unwrap_or(usize::MAX);
        state.moves = state
            .moves
            .split(',')
            .take(told)
            .collect::<Vec<_>>()
            .join(",");
        // A request made before the joiner went away no longer stands.
        self.undo = None;
        let mut said = Said::default();
        said.send.push(ToJoiner::Welcome {
            state: Box::new(state),
            resumed,
            // The host's seat keeper fills in the key (see `super::seat`).
            seat_key: String::new(),
        });
        if let Some(yes) = self.again[HOST_SEAT.index()] {
            said.send.push(ToJoiner::Again { yes });
        }
        // The joiner answers again after coming back.
        self.again[JOINER_SEAT.index()] = None;
        self.ask_joiner(s, &mut said);
        Ok(said.send)
    }

    /// Carries out `command` (of the player at `seat`, when given) in the
    /// session: what the host's player is shown, and what the joiner is
    /// told once the change is kept; the rules' refusal, if any.
    fn run(
        &mut self,
        s: &mut Session,
        seat: Option<Side>,
        command: SessionCommand,
        said: &mut Said,
    ) -> Option<MoveError> {
        let mut at = At::of(s.current());
        let events = match seat {
            Some(seat) => {
                let side = s.current().holder(seat);
                s.handle_for(side, command)
            }
            None => s.handle(command),
        };
        let mut tell = Vec::new();
        for event in &events {
            match event {
                SessionEvent::Refused(e) => return Some(*e),
                SessionEvent::Moved(moved) => {
                    let (by, pit) = (moved.played.mover(), moved.played.pit());
                    let pit = s.current().rules().letter(pit).unwrap_or('?');
                    tell.push(ToJoiner::Moved { at, by, pit });
                    at.ply += 1;
                    // A move ends any request to take one back.
                    self.undo = None;
                }
                SessionEvent::TookBack(..) => {
                    let seat = self.undo.take().map_or(HOST_SEAT, |(by, _)| by);
                    let by = s.current().holder(seat);
                    let at = At::of(s.current());
                    tell.push(ToJoiner::TookBack { at, by });
                }
                SessionEvent::Swapped(..) => tell.push(ToJoiner::Swapped { at }),
                SessionEvent::RoundOpened(..) => {
                    // Both answer the next "Play again?" afresh.
                    self.again = [None, None];
                    let m = s.current();
                    let (round, starter) = (m.round(), m.starter());
                    tell.push(ToJoiner::NextRound { round, starter });
                }
                _ => {}
            }
        }
        said.show.extend(happenings(events));
        if s.is_behind() {
            if self.held.is_empty() {
                let opponent = s.current().seat_name(JOINER_SEAT);
                said.show.push(Happening::Said(format!(
                    "{opponent} is told of it once it is saved; the save is tried again every second."
                )));
            }
            self.held.extend(tell);
        } else {
            said.send.append(&mut self.held);
            said.send.extend(tell);
        }
        None
    }

    /// Tries again the save that failed; once it is kept, the joiner
    /// hears of the change.
    pub fn save_again(&mut self, s: &mut Session) -> Said {
        let mut said = Said::default();
        // The reason was said already.
        let _ = s.save_again();
        if !s.is_behind() {
            let opponent = s.current().seat_name(JOINER_SEAT);
            said.show.push(Happening::Said(format!(
                "The match is saved now: {opponent} is told."
            )));
            said.send.append(&mut self.held);
            self.ask_joiner(s, &mut said);
        }
        said
    }

    /// The host's player plays `pit`.
    ///
    /// # Errors
    /// Why it cannot be played now.
    pub fn local_move(&mut self, s: &mut Session, pit: Pit) -> Result<Said, String> {
        if self.undo.is_some() {
            return Err("First the request to take back a move must be answered.".into());
        }
        if s.is_behind() {
            return Err("The last move is not saved yet: play on once it is.".into());
        }
        let mut said = Said::default();
        match self.run(s, Some(HOST_SEAT), SessionCommand::Play(pit), &mut said) {
            Some(MoveError::NotYours) => Err(format!(
                "It is {}'s turn.",
                s.current().seat_name(JOINER_SEAT)
            )),
            Some(MoveError::GameOver) => Err("The round is over: answer y or n.".into()),
            Some(e) => Err(e.naming_in(s.current().game(), "your opponent")),
            None => {
                self.ask_joiner(s, &mut said);
                Ok(said)
            }
        }
    }

    /// The host's player takes the pie rule's swap (RULES.md §5.3).
    ///
    /// # Errors
    /// Why it cannot be taken now: no swap is open to the host's player.
    pub fn local_swap(&mut self, s: &mut Session) -> Result<Said, String> {
        if self.undo.is_some() {
            return Err("First the request to take back a move must be answered.".into());
        }
        if self.question(s, HOST_SEAT) != Some(OpenQuestion::Swap) {
            return Err(crate::session::no_swap_open().text);
        }
        let mut said = Said::default();
        self.run(s, Some(HOST_SEAT), SessionCommand::Swap, &mut said);
        self.ask_joiner(s, &mut said);
        Ok(said)
    }

    /// The host's player asks to take back their last move.
    ///
    /// # Errors
    /// Why it cannot be asked now.
    pub fn local_undo(&mut self, s: &Session) -> Result<Said, String> {
        self.check_undo(s, HOST_SEAT)?;
        let at = At::of(s.current());
        self.undo = Some((HOST_SEAT, at));
        let mut said = Said::default();
        said.send.push(ToJoiner::UndoAsked { at });
        self.ask_joiner(s, &mut said);
        Ok(said)
    }

    /// The host's player's yes or no to the question open now: the
    /// joiner's request to take back a move, else "Play again?" after a
    /// round; `None` when neither is open.
    pub fn local_answer(&mut self, s: &mut Session, yes: bool) -> Option<Said> {
        let mut said = Said::default();
        match self.question(s, HOST_SEAT)? {
            OpenQuestion::Agree if yes => self.take_back(s, &mut said),
            OpenQuestion::Agree => {
                self.undo = None;
                said.send.push(ToJoiner::UndoDeclined);
                said.show
                    .push(Happening::Said("You said no: the move stays.".into()));
            }
            OpenQuestion::PlayAgain => self.answer_again(s, HOST_SEAT, yes, &mut said),
            _ => return None,
        }
        self.ask_joiner(s, &mut said);
        Some(said)
    }

    /// Whether the player at seat `by` may ask to take back their last
    /// move now.
    fn check_undo(&self, s: &Session, by: Side) -> Result<(), String> {
        let m = s.current();
        if m.outcome().is_some() || s.asking() == Asking::Over {
            return Err("The round is over: its moves are recorded.".into());
        }
        if s.is_behind() {
            return Err(format!(
                "{} has just moved: the move is on its way.",
                m.seat_name(JOINER_SEAT)
            ));
        }
        if !m.can_undo() {
            return Err("There is no move to take back.".into());
        }
        if self.undo.is_some() {
            return Err("A request to take back a move is already waiting for an answer.".into());
        }
        undo_refused(m, by).map_or(Ok(()), Err)
    }

    /// Both agreed: the asker's move and the replies to it go.
    fn take_back(&mut self, s: &mut Session, said: &mut Said) {
        if let Some((seat, _)) = self.undo {
            let side = s.current().holder(seat);
            self.run(s, None, SessionCommand::TakeBack(side), said);
        }
    }

    /// `seat`'s answer to "Play again?" (the host's own, or the joiner's):
    /// a no ends the match (its save cleared before the joiner is told),
    /// two yeses start the next round.
    fn answer_again(&mut self, s: &mut Session, seat: Side, yes: bool, said: &mut Said) {
        self.again[seat.index()] = Some(yes);
        if seat == HOST_SEAT {
            said.send.push(ToJoiner::Again { yes });
        } else {
            said.show.push(Happening::Again { seat, yes });
        }
        match self.again {
            [Some(false), _] | [_, Some(false)] => {
                self.run(s, None, SessionCommand::Answer(false), said);
                said.send.push(ToJoiner::Finished);
                said.show.push(Happening::Finished);
            }
            [Some(true), Some(true)] => {
                self.run(s, None, SessionCommand::Answer(true), said);
            }
            _ => {}
        }
    }

    /// A message from the joiner, as a command for the network seat.
    ///
    /// # Errors
    /// A [`Violation`] for a message out of turn, out of place or against
    /// the rules: the match is unchanged, and the connection should end.
    pub fn remote(&mut self, s: &mut Session, message: ToHost) -> Result<Said, Violation> {
        let violation = |what: &str| Err(Violation(what.to_string()));
        let mut said = Said::default();
        let told = self.told_at(s);
        match message {
            ToHost::Ping => return Ok(said),
            ToHost::Join { .. } => return violation("joined twice on one connection"),
            // Sent again by a joiner who came back before hearing of it:
            // the first one stands, and waits for its save.
            ToHost::Move { at, .. } | ToHost::Swap { at } if s.is_behind() && at == told => {
                return Ok(said);
            }
            ToHost::Move { at, .. } if at != told => {
                return violation("sent a move for another position");
            }
            // Sent before the host's request to take back a move reached
            // the joiner: the request stands, the move is refused.
            ToHost::Move { at, .. } if matches!(self.undo, Some((HOST_SEAT, _))) => {
                let why = NotNow::TakeBackAsked;
                said.send.push(ToJoiner::MoveRefused { at, why });
            }
            ToHost::Move { .. } if self.undo.is_some() => {
                return violation("sent a move while its own take-back request was open");
            }
            ToHost::Swap { at } if at != told => {
                return violation("sent a swap for another position");
            }
            // Sent before the host's request to take back a move reached
            // the joiner: the request stands, the swap is refused.
            ToHost::Swap { at } if matches!(self.undo, Some((HOST_SEAT, _))) => {
                let why = NotNow::TakeBackAsked;
                said.send.push(ToJoiner::MoveRefused { at, why });
            }
            // The referee's word: no swap is open to the joiner, so none
            // is taken (and nothing is played in its place).
            ToHost::Swap { at } if self.question(s, JOINER_SEAT) != Some(OpenQuestion::Swap) => {
                let why = NotNow::NoSwapOpen;
                said.send.push(ToJoiner::MoveRefused { at, why });
            }
            ToHost::Swap { .. } => {
                self.run(s, Some(JOINER_SEAT), SessionCommand::Swap, &mut said);
            }
            ToHost::Move { pit, .. } => {
                let rules = *s.current().rules();
                let side = s.current().holder(JOINER_SEAT);
                let Some(pit) = rules.pit_by_letter(pit).filter(|&p| rules.owner(p) == side) else {
                    return violation("sent a move from a pit that is not theirs");
                };
                match self.run(s, Some(JOINER_SEAT), SessionCommand::Play(pit), &mut said) {
                    Some(MoveError::NotYours | MoveError::GameOver) => {
                        return violation("sent a move out of turn");
                    }
                    Some(e) => return violation(&format!("sent a move the rules refuse ({e})")),
                    None => {}
                }
            }
            ToHost::Undo { at } => {
                if at != told {
                    // Asked before the last move arrived: void, not a fault.
                    said.send.push(ToJoiner::UndoDeclined);
                } else if let Err(why) = self.check_undo(s, JOINER_SEAT) {
                    said.send.push(ToJoiner::UndoDeclined);
                    said.show.push(Happening::Note(why));
                } else {
                    self.undo = Some((JOINER_SEAT, at));
                    said.show.push(Happening::UndoAsked { by: JOINER_SEAT });
                }
            }
            ToHost::UndoAnswer { at, yes } => match self.undo {
                Some((HOST_SEAT, asked)) if asked == at && yes => self.take_back(s, &mut said),
                Some((HOST_SEAT, asked)) if asked == at => {
                    self.undo = None;
                    said.show.push(Happening::UndoDeclined { by: JOINER_SEAT });
                }
                // An answer to a request that no longer stands.
                _ => {}
            },
            ToHost::Again { yes } => match self.question(s, JOINER_SEAT) {
                Some(OpenQuestion::PlayAgain) => self.answer_again(s, JOINER_SEAT, yes, &mut said),
                Some(OpenQuestion::WaitAgain) => {}
                _ => return violation("answered 'Play again?' during a round"),
            },
            ToHost::Leave => {
                self.undo = None;
                said.show.push(Happening::Left { seat: JOINER_SEAT });
                return Ok(said);
            }
        }
        self.ask_joiner(s, &mut said);
        Ok(said)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat};
    use crate::players::PlayerKind;
    use crate::rules::Rules;

    /// What could not be kept, and a kept file being made again (Oware's
    /// endgame database), are shown on both ends of a network match.
    #[test]
    fn a_keeping_problem_and_a_rebuilt_file_are_shown_on_both_ends() {
        let said = happenings(vec![
            SessionEvent::KeepFailed("disk full".into()),
            SessionEvent::Rebuilding("built again".into()),
        ]);
        assert_eq!(
            said,
            [
                Happening::Note("disk full".into()),
                Happening::Note("built again".into())
            ]
        );
    }

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

    /// The host's session and what only a network match adds to it.
    struct H(Hosted, Session);

    impl H {
        fn new(m: Match, pie_rule: bool) -> H {
            H(Hosted::default(), referee(m, Keeper::new(None), pie_rule))
        }
        fn current(&self) -> &Match {
            self.1.current()
        }
        fn question(&self, seat: Side) -> Option<OpenQuestion> {
            self.0.question(&self.1, seat)
        }
        fn welcome(&mut self, name: &str, resumed: bool) -> Result<Vec<ToJoiner>, String> {
            self.0.welcome(&self.1, name, resumed)
        }
        fn local_move(&mut self, pit: Pit) -> Result<Said, String> {
            self.0.local_move(&mut self.1, pit)
        }
        fn local_swap(&mut self) -> Result<Said, String> {
            self.0.local_swap(&mut self.1)
        }
        fn local_undo(&mut self) -> Result<Said, String> {
            self.0.local_undo(&self.1)
        }
        fn local_answer(&mut self, yes: bool) -> Option<Said> {
            self.0.local_answer(&mut self.1, yes)
        }
        fn remote(&mut self, message: ToHost) -> Result<Said, Violation> {
            self.0.remote(&mut self.1, message)
        }
    }

    fn hosted() -> H {
        H::new(a_match(), false)
    }

    fn pit(h: &H, letter: char) -> Pit {
        h.current().rules().pit_by_letter(letter).unwrap()
    }

    #[test]
    fn out_of_turn_and_illegal_moves_end_the_connection_and_change_nothing() {
        let mut h = hosted();
        let at = At::of(h.current());
        // South (the host) moves first.
        assert!(h.remote(ToHost::Move { at, pit: 'd' }).is_err());
        assert!(h.local_move(pit(&h, 'd')).is_err(), "not hers");
        let said = h.local_move(pit(&h, 'a')).unwrap();
        assert!(matches!(
            said.send[..],
            [
                ToJoiner::Moved {
                    pit: 'a',
                    by: HOST_SEAT,
                    ..
                },
                ToJoiner::Asked {
                    question: OpenQuestion::Move
                }
            ]
        ));
        let at = At::of(h.current());
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
        let at = At::of(h.current());
        let said = h.remote(ToHost::Undo { at }).unwrap();
        let asked = |question| ToJoiner::Asked { question };
        assert_eq!(
            said.send,
            [ToJoiner::UndoDeclined, asked(OpenQuestion::Move)]
        );
        h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        let at = At::of(h.current());
        let said = h.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(said.show, [Happening::UndoAsked { by: JOINER_SEAT }]);
        assert_eq!(said.send, [asked(OpenQuestion::WaitAgree)]);
        assert_eq!(h.question(HOST_SEAT), Some(OpenQuestion::Agree));
        assert_eq!(
            h.local_answer(false).unwrap().send,
            [ToJoiner::UndoDeclined, asked(OpenQuestion::Wait)]
        );
        h.remote(ToHost::Undo { at }).unwrap();
        let said = h.local_answer(true).unwrap();
        assert!(
            matches!(
                said.send[..],
                [
                    ToJoiner::TookBack {
                        by: JOINER_SEAT,
                        ..
                    },
                    ToJoiner::Asked {
                        question: OpenQuestion::Move
                    }
                ]
            ),
            "{said:?}"
        );
        assert_eq!(h.current().moves().len(), 1, "back to Michael's turn");
        assert_eq!(h.current().board().to_move(), JOINER_SEAT);
    }

    /// The race: the joiner's move crosses the host's request to take back
    /// its last move on the wire. The host's session, the referee, refuses
    /// the move with a typed reason (the question it answered is no longer
    /// open) and keeps the connection: nothing the joiner did not agree to
    /// is played, and the request still waits for the joiner's answer.
    #[test]
    fn a_move_that_crosses_a_take_back_request_is_refused_not_a_violation() {
        let mut h = hosted();
        h.local_move(pit(&h, 'a')).unwrap();
        let at = At::of(h.current());
        let said = h.local_undo().unwrap();
        assert_eq!(said.send[0], ToJoiner::UndoAsked { at });
        // Sent by the joiner before the request reached it.
        let said = h
            .remote(ToHost::Move { at, pit: 'd' })
            .expect("the connection stays");
        let asked = |question| ToJoiner::Asked { question };
        assert_eq!(
            said.send,
            [
                ToJoiner::MoveRefused {
                    at,
                    why: NotNow::TakeBackAsked
                },
                asked(OpenQuestion::Agree)
            ]
        );
        assert_eq!(h.current().moves().len(), 1, "the move is not played");
        assert_eq!(h.question(HOST_SEAT), Some(OpenQuestion::WaitAgree));
        // The joiner's yes to the request it then sees takes Alice's a back.
        let said = h.remote(ToHost::UndoAnswer { at, yes: true }).unwrap();
        assert!(
            matches!(said.send[0], ToJoiner::TookBack { by: HOST_SEAT, .. }),
            "{said:?}"
        );
        assert!(h.current().moves().is_empty());
        // A no instead leaves the joiner to move again, at the same place.
        let mut h = hosted();
        h.local_move(pit(&h, 'a')).unwrap();
        h.local_undo().unwrap();
        h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        let said = h.remote(ToHost::UndoAnswer { at, yes: false }).unwrap();
        assert_eq!(said.send, [asked(OpenQuestion::Move)]);
        h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        assert_eq!(h.current().moves().len(), 2);
    }

    /// The pie rule (RULES.md §5.3) with the host's session as referee:
    /// the joiner's swap is taken only where the question is open to him
    /// (else refused, typed, and nothing is played), after it the seats
    /// play the other sides, and a joiner who comes back is welcomed with
    /// the swap.
    #[test]
    fn the_joiners_swap_is_refereed_and_the_seats_change_sides() {
        let mut h = H::new(a_match(), true);
        let at = At::of(h.current());
        let said = h.remote(ToHost::Swap { at }).unwrap();
        let refused = ToJoiner::MoveRefused {
            at,
            why: NotNow::NoSwapOpen,
        };
        assert_eq!(said.send[0], refused, "no swap before the first turn");
        assert_eq!(
            h.local_swap().unwrap_err(),
            crate::session::no_swap_open().text
        );
        let said = h.local_move(pit(&h, 'a')).unwrap();
        let asked = |question| ToJoiner::Asked { question };
        assert_eq!(said.send.last(), Some(&asked(OpenQuestion::Swap)));
        assert_eq!(h.question(HOST_SEAT), Some(OpenQuestion::Wait));
        assert!(h.local_swap().is_err(), "not Alice's to take");
        let at = At::of(h.current());
        let said = h.remote(ToHost::Swap { at }).unwrap();
        assert_eq!(
            said.send,
            [ToJoiner::Swapped { at }, asked(OpenQuestion::Wait)]
        );
        assert!(
            matches!(&said.show[..], [Happening::Swapped { text }] if text.starts_with("Michael swaps sides"))
        );
        assert_eq!(h.current().holder(JOINER_SEAT), Side::South);
        assert_eq!(h.question(HOST_SEAT), Some(OpenQuestion::Move));
        // Alice now plays North's pits; Michael South's.
        assert!(h.local_move(pit(&h, 'a')).is_err());
        h.local_move(pit(&h, 'd')).unwrap();
        let welcome = h.welcome("Michael", true).unwrap();
        let ToJoiner::Welcome { state, .. } = &welcome[0] else {
            panic!("{welcome:?}")
        };
        assert!(state.pie_rule);
        let m = state.to_match().unwrap();
        assert_eq!((m.swapped(), m.names()), (Some(1), ["Michael", "Alice"]));
        // A take-back that would reach back past the swap is refused.
        let at = At::of(h.current());
        let said = h.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(said.send[0], ToJoiner::UndoDeclined);
    }

    /// A pit at the pie rule's question plays on: nothing is swapped.
    #[test]
    fn a_pit_at_the_swap_question_plays_on() {
        let mut h = H::new(a_match(), true);
        h.local_move(pit(&h, 'a')).unwrap();
        assert_eq!(h.question(JOINER_SEAT), Some(OpenQuestion::Swap));
        let at = At::of(h.current());
        let said = h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        assert!(
            matches!(said.send[0], ToJoiner::Moved { pit: 'd', .. }),
            "{said:?}"
        );
        assert_eq!(h.current().swapped(), None);
        assert_eq!(h.current().names(), ["Alice", "Michael"]);
    }

    /// The host's own swap, with the joiner moving first.
    #[test]
    fn the_hosts_swap_changes_sides_for_both() {
        let mut config = a_match().config().clone();
        config.first = FirstMover::North;
        let mut h = H::new(Match::new(config, 1), true);
        let at = At::of(h.current());
        h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        assert_eq!(h.question(HOST_SEAT), Some(OpenQuestion::Swap));
        let said = h.local_swap().unwrap();
        assert_eq!(
            said.send[0],
            ToJoiner::Swapped {
                at: At::of(h.current())
            }
        );
        assert_eq!(h.current().names(), ["Michael", "Alice"]);
        assert_eq!(h.question(JOINER_SEAT), Some(OpenQuestion::Move));
    }

    #[test]
    fn a_round_ends_with_both_answers() {
        let mut h = hosted();
        while h.current().outcome().is_none() {
            let p = h.current().board().legal_moves().next().unwrap();
            if h.current().board().to_move() == HOST_SEAT {
                h.local_move(p).unwrap();
            } else {
                let letter = h.current().rules().letter(p).unwrap();
                let at = At::of(h.current());
                h.remote(ToHost::Move { at, pit: letter }).unwrap();
            }
        }
        let said = h.local_answer(true).unwrap();
        let asked = ToJoiner::Asked {
            question: OpenQuestion::PlayAgain,
        };
        assert_eq!(said.send, [ToJoiner::Again { yes: true }, asked]);
        let said = h.remote(ToHost::Again { yes: true }).unwrap();
        assert!(
            matches!(
                said.send[..],
                [ToJoiner::NextRound { round: 2, .. }, ToJoiner::Asked { .. }]
            ),
            "{said:?}"
        );
        assert!(said.show.contains(&Happening::NextRound));
        assert_eq!(h.current().round(), 2);
    }
}
