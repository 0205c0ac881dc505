//! The host's referee: the joiner's program only proposes; this decides,
//! with the rules core. The match itself is the host's front end's, played
//! by its own match loop with the friend as a [`PlayerKind::Network`] seat
//! and kept by its own [`Keeper`](crate::store::Keeper): the referee checks
//! each message of the joiner against the match as last kept, hands the
//! front end what to play or take back ([`Out::Play`], [`Out::TakeBack`],
//! [`Out::NextRound`], [`Out::Finish`]), and tells the joiner of a change
//! only once the front end has kept it ([`Referee::kept`]), so that what the
//! joiner has seen confirmed is always on the host's disk.
//!
//! The joiner's side is [`Mirror`]: it plays the host's confirmed moves on
//! its own copy of the match and checks that its board is the host's.
//!
//! Both report what happened as [`Happening`]s, for a front end to show
//! the same way on both screens.
//!
//! [`PlayerKind::Network`]: crate::players::PlayerKind::Network

use std::path::PathBuf;

use super::RemoteText;
use super::message::{At, Snapshot, ToHost, ToJoiner, same_board};
use super::resume::{self, HostNote};
use crate::game::Match;
use crate::rules::{MoveError, NoTrace, Outcome, Pit, Played, Side, Step};

/// Something that happened in the match, for the front ends to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A confirmed move, with its steps for the animation.
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
        /// Where the host recorded it (on the host only).
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
    /// The asker's last move (and the reply to it) was taken back: this
    /// many moves; the asker is to move.
    Undone {
        /// How many moves were taken back.
        moves: usize,
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
    /// Something to tell the player: a warning from the keeper, a reason.
    Note(String),
}

/// What the referee wants done, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// Send this to the joiner (dropped when none is connected: a joiner
    /// who comes back is sent the whole match).
    Send(ToJoiner),
    /// Show this to the host's player.
    Show(Happening),
    /// The joiner's move, checked: the front end plays it as the network
    /// seat's turn, keeps the match, then calls [`Referee::kept`].
    Play(Pit),
    /// Both agreed: take back this side's last move and the reply to it
    /// ([`Match::undo_for`]), keep the match, then call [`Referee::kept`].
    TakeBack(Side),
    /// Both want to play again: start the next round
    /// ([`Match::next_round`]), keep it, then call [`Referee::kept`].
    NextRound,
    /// Someone does not want to play again: the match is over, and its
    /// save can go (before the joiner is told, which comes next).
    Finish,
}

/// A message from the joiner that breaks the protocol: the connection
/// ends with this sentence, and the match is untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

/// The host's side of a network match. See the [module docs](self).
#[derive(Debug)]
pub struct Referee {
    /// The match as the front end last kept it.
    m: Match,
    journal: Option<(String, HostNote)>,
    /// Why the journal could not be kept, until it is said.
    journal_problem: Option<String>,
    again: [Option<bool>; 2],
    undo: Option<(Side, At)>,
    /// The joiner's move handed to the front end ([`Out::Play`]) and not
    /// kept yet: where it was made.
    playing: Option<At>,
    finished: bool,
}

/// The side the host plays; the joiner plays the other.
pub const HOST_SIDE: Side = Side::South;
/// The side the joiner plays.
pub const JOINER_SIDE: Side = Side::North;

impl Referee {
    /// The referee of `m` (as the front end keeps it).
    #[must_use]
    pub fn new(m: Match) -> Referee {
        Referee {
            m,
            journal: None,
            journal_problem: None,
            again: [None, None],
            undo: None,
            playing: None,
            finished: false,
        }
    }

    /// Keeps host `host`'s note (see [`super::resume`]) for this match.
    /// (A round's end is noted by the front end's
    /// [`Keeper`](crate::store::Keeper) itself, which completes it after a
    /// restart.)
    #[must_use]
    pub fn with_journal(mut self, host: &str, note: HostNote) -> Referee {
        if let Err(e) = resume::store(host, resume::Settings::of(&self.m), &note) {
            self.journal_problem = Some(format!(
                "the note that offers this match again after a restart could not be kept ({}); the match itself is saved as usual",
                crate::store::files::words(&e)
            ));
        }
        self.journal = Some((host.to_string(), note));
        self
    }

    /// Why the note of [`Referee::with_journal`] could not be kept, once.
    pub fn take_journal_problem(&mut self) -> Option<String> {
        self.journal_problem.take()
    }

    /// The match as last kept.
    #[must_use]
    pub fn game(&self) -> &Match {
        &self.m
    }

    /// Whether the match is over for good.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished
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
    /// The sentence that turns the joiner away: the name is the host's, or
    /// not the name this match was started with.
    pub fn welcome(&mut self, name: &str, resumed: bool) -> Result<Vec<ToJoiner>, String> {
        let expected = self.m.name(JOINER_SIDE);
        if name != expected {
            return Err(format!(
                "This is {}'s match against {expected}: join as {expected}, or ask {} for a new match.",
                self.m.name(HOST_SIDE),
                self.m.name(HOST_SIDE)
            ));
        }
        // A request made before the joiner went away no longer stands.
        self.undo = None;
        let mut out = vec![ToJoiner::Welcome {
            state: Snapshot::of(&self.m),
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

    /// The front end kept `m` after a change (a move, a take-back, a new
    /// round): what to tell the joiner about it, now that it is final.
    pub fn kept(&mut self, m: &Match) -> Vec<Out> {
        let mut out = Vec::new();
        if m.round() != self.m.round() {
            // A new round (both agreed): it starts empty.
            self.again = [None, None];
            self.m = Match::clone(m);
            while self.m.undo() {}
            out.push(Out::Send(ToJoiner::NextRound {
                round: m.round(),
                starter: m.starter(),
            }));
        }
        let (old, new) = (self.m.moves(), m.moves());
        if new.len() < old.len() && old.starts_with(new) {
            self.m = Match::clone(m);
            out.push(Out::Send(ToJoiner::Undone {
                at: At::of(m),
                board: m.board().counts().to_vec(),
            }));
        } else if new.len() > old.len() && new.starts_with(old) {
            // Each new move, as made (one, unless moves were made at once).
            for &pit in &new[old.len()..] {
                let at = At::of(&self.m);
                if self.m.play(pit, &mut NoTrace).is_err() {
                    break;
                }
                out.push(Out::Send(ToJoiner::Moved {
                    at,
                    pit: self.m.rules().letter(pit).unwrap_or('?'),
                    board: self.m.board().counts().to_vec(),
                    to_move: self.m.board().to_move(),
                }));
            }
            // A move ends any request to take one back, and a round's end
            // asks both "Play again?" afresh.
            self.undo = None;
            if self.m.board().is_over() {
                self.again = [None, None];
            }
        }
        self.m = Match::clone(m);
        self.playing = None;
        out
    }

    /// Whether the host's player may play `pit` now (the front end plays
    /// it, keeps it and calls [`Referee::kept`]).
    ///
    /// # Errors
    /// The rules' refusal; [`MoveError::GameOver`] when the match is
    /// over, [`MoveError::NotYours`] when it is not the host's turn.
    pub fn local_move(&self, pit: Pit) -> Result<(), MoveError> {
        if self.m.board().is_over() || self.finished {
            return Err(MoveError::GameOver);
        }
        if self.m.board().to_move() != HOST_SIDE {
            return Err(MoveError::NotYours);
        }
        self.m.board().check(pit)
    }

    /// The host's player asks to take back the last move.
    ///
    /// # Errors
    /// Why it cannot be asked now.
    pub fn local_undo(&mut self) -> Result<Vec<Out>, String> {
        self.check_undo(HOST_SIDE)?;
        let at = At::of(&self.m);
        self.undo = Some((HOST_SIDE, at));
        Ok(vec![Out::Send(ToJoiner::UndoAsked { at })])
    }

    /// Whether `by` may ask to take back their last move now.
    fn check_undo(&self, by: Side) -> Result<(), String> {
        if self.m.board().is_over() || self.finished {
            return Err("The round is over: its moves are recorded.".into());
        }
        if self.playing.is_some() {
            return Err(format!(
                "{} has just moved: the move is on its way.",
                self.m.name(JOINER_SIDE)
            ));
        }
        if !self.m.can_undo() {
            return Err("There is no move to take back.".into());
        }
        if self.undo.is_some() {
            return Err("A request to take back a move is already waiting for an answer.".into());
        }
        match self.m.undo_for_refused(by) {
            None => Ok(()),
            Some(refused) => Err(refused.message().text),
        }
    }

    /// Both agreed: the front end takes the asker's move back.
    fn take_back(&mut self) -> Vec<Out> {
        match self.undo.take() {
            Some((by, _)) => vec![Out::TakeBack(by)],
            None => Vec::new(),
        }
    }

    /// The host's player answers the joiner's request to take back a move;
    /// nothing happens when there is none.
    pub fn local_undo_answer(&mut self, yes: bool) -> Vec<Out> {
        match self.undo {
            Some((JOINER_SIDE, _)) if yes => self.take_back(),
            Some((JOINER_SIDE, _)) => {
                self.undo = None;
                vec![Out::Send(ToJoiner::UndoDeclined)]
            }
            _ => Vec::new(),
        }
    }

    /// `side`'s answer to "Play again?" (the host's own, or the joiner's).
    fn answer_again(&mut self, side: Side, yes: bool) -> Vec<Out> {
        if self.m.outcome().is_none() || self.finished {
            return Vec::new();
        }
        self.again[side.index()] = Some(yes);
        let mut out = Vec::new();
        if side == HOST_SIDE {
            out.push(Out::Send(ToJoiner::Again { yes }));
        } else {
            out.push(Out::Show(Happening::Again { side, yes }));
        }
        match self.again {
            [Some(false), _] | [_, Some(false)] => {
                self.finished = true;
                out.push(Out::Finish);
                out.push(Out::Send(ToJoiner::Finished));
                out.push(Out::Show(Happening::Finished));
            }
            [Some(true), Some(true)] => {
                self.again = [None, None];
                out.push(Out::NextRound);
            }
            _ => {}
        }
        out
    }

    /// The host's player answers "Play again?".
    pub fn local_again(&mut self, yes: bool) -> Vec<Out> {
        self.answer_again(HOST_SIDE, yes)
    }

    /// The host's player stops: the match stays saved.
    #[must_use]
    pub fn local_leave(&self) -> Vec<Out> {
        vec![Out::Send(ToJoiner::Leave)]
    }

    /// A message from the joiner.
    ///
    /// # Errors
    /// A [`Violation`] for a message out of turn, out of place or against
    /// the rules: the match is unchanged, and the connection should end.
    pub fn remote(&mut self, message: ToHost) -> Result<Vec<Out>, Violation> {
        let violation = |what: &str| Err(Violation(what.to_string()));
        match message {
            ToHost::Ping => Ok(Vec::new()),
            ToHost::Join { .. } => violation("joined twice on one connection"),
            ToHost::Move { at, pit } => {
                if self.playing == Some(at) {
                    // A move for the place whose move is being played (sent
                    // again by a joiner who came back before its
                    // confirmation reached it): the first one stands.
                    return Ok(Vec::new());
                }
                if self.m.board().is_over()
                    || self.finished
                    || self.playing.is_some()
                    || self.m.board().to_move() != JOINER_SIDE
                {
                    return violation("sent a move out of turn");
                }
                if at != At::of(&self.m) {
                    return violation("sent a move for another position");
                }
                if self.undo.is_some() {
                    return violation("sent a move while a take-back request was open");
                }
                let Some(pit) = self
                    .m
                    .rules()
                    .pit_by_letter(pit)
                    .filter(|&p| self.m.rules().owner(p) == JOINER_SIDE)
                else {
                    return violation("sent a move from a pit that is not theirs");
                };
                if let Err(e) = self.m.board().check(pit) {
                    return violation(&format!("sent a move the rules refuse ({e})"));
                }
                self.playing = Some(at);
                Ok(vec![Out::Play(pit)])
            }
            ToHost::Undo { at } => {
                if at != At::of(&self.m) {
                    // Asked before the last move arrived: void, not a fault.
                    return Ok(vec![Out::Send(ToJoiner::UndoDeclined)]);
                }
                if let Err(why) = self.check_undo(JOINER_SIDE) {
                    return Ok(vec![
                        Out::Send(ToJoiner::UndoDeclined),
                        Out::Show(Happening::Note(why)),
                    ]);
                }
                self.undo = Some((JOINER_SIDE, at));
                Ok(vec![Out::Show(Happening::UndoAsked { by: JOINER_SIDE })])
            }
            ToHost::UndoAnswer { at, yes } => match self.undo {
                Some((HOST_SIDE, asked)) if asked == at => {
                    if yes {
                        Ok(self.take_back())
                    } else {
                        self.undo = None;
                        Ok(vec![Out::Show(Happening::UndoDeclined { by: JOINER_SIDE })])
                    }
                }
                // An answer to a request that no longer stands.
                _ => Ok(Vec::new()),
            },
            ToHost::Again { yes } => {
                if self.m.outcome().is_none() {
                    return violation("answered 'Play again?' during a round");
                }
                Ok(self.answer_again(JOINER_SIDE, yes))
            }
            ToHost::Leave => {
                self.undo = None;
                Ok(vec![Out::Show(Happening::Left { side: JOINER_SIDE })])
            }
        }
    }
}

/// The joiner's copy of the match: it plays what the host confirms and
/// checks that both boards agree.
#[derive(Clone, Debug)]
pub struct Mirror {
    m: Match,
}

/// The host's word and this program's board disagree, or the host's
/// message makes no sense here: the game cannot go on. The sentence is
/// cleaned ([`RemoteText`]): it may quote what the host sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement(pub RemoteText);

impl Mirror {
    /// The joiner's copy of the match the host sent.
    ///
    /// # Errors
    /// When the host's match cannot be rebuilt.
    pub fn new(state: &Snapshot) -> Result<Mirror, Disagreement> {
        state
            .to_match()
            .map(|m| Mirror { m })
            .map_err(|e| Disagreement(RemoteText::new(&e)))
    }

    /// The match.
    #[must_use]
    pub fn game(&self) -> &Match {
        &self.m
    }

    /// A message from the host: what it changes, and what to show.
    ///
    /// # Errors
    /// A [`Disagreement`] when the boards differ or the message does not
    /// fit the match; the game ends there.
    pub fn apply(&mut self, message: ToJoiner) -> Result<Vec<Happening>, Disagreement> {
        let disagree = |what: String| Err(Disagreement(RemoteText::new(&what)));
        match message {
            ToJoiner::Moved {
                at,
                pit,
                board,
                to_move,
            } => {
                if at != At::of(&self.m) {
                    return disagree(format!(
                        "the host confirmed move {} of round {}, but this board is at move {} of round {}",
                        at.ply + 1,
                        at.round,
                        self.m.moves().len() + 1,
                        self.m.round()
                    ));
                }
                let Some(pit) = self.m.rules().pit_by_letter(pit) else {
                    return disagree(format!(
                        "the host confirmed a move from pit '{}', which this board does not have",
                        crate::game::names::shown(&pit.to_string())
                    ));
                };
                let mut steps = Vec::new();
                let played = match self.m.play(pit, &mut steps) {
                    Ok(played) => played,
                    Err(e) => {
                        return disagree(format!(
                            "the host confirmed a move this board refuses ({e})"
                        ));
                    }
                };
                if !same_board(self.m.board(), &board, Some(to_move)) {
                    return disagree(
                        "after the last move the host's board and this one differ".to_string(),
                    );
                }
                let mut out = vec![Happening::Moved { played, steps }];
                if let Some(outcome) = self.m.outcome() {
                    out.push(Happening::RoundOver {
                        outcome,
                        record: None,
                    });
                }
                Ok(out)
            }
            ToJoiner::Undone { at, board } => {
                // Back to the asker's turn: one move or more.
                let mut moves = 0;
                while At::of(&self.m).ply > at.ply && self.m.undo() {
                    moves += 1;
                }
                if At::of(&self.m) != at || !same_board(self.m.board(), &board, None) {
                    return disagree(
                        "after taking back a move the host's board and this one differ".to_string(),
                    );
                }
                Ok(vec![Happening::Undone { moves }])
            }
            ToJoiner::UndoAsked { .. } => Ok(vec![Happening::UndoAsked { by: HOST_SIDE }]),
            ToJoiner::UndoDeclined => Ok(vec![Happening::UndoDeclined { by: HOST_SIDE }]),
            ToJoiner::Again { yes } => Ok(vec![Happening::Again {
                side: HOST_SIDE,
                yes,
            }]),
            ToJoiner::NextRound { round, starter } => {
                let tally = *self.m.tally();
                let config = self.m.config().clone();
                self.m = Match::restore(config, round, starter, &[], tally, 0)
                    .map_err(|_| Disagreement("the next round could not start".into()))?;
                Ok(vec![Happening::NextRound])
            }
            ToJoiner::Finished => Ok(vec![Happening::Finished]),
            ToJoiner::Leave => Ok(vec![Happening::Left { side: HOST_SIDE }]),
            ToJoiner::Ping => Ok(Vec::new()),
            ToJoiner::Welcome { state, .. } => {
                *self = Mirror::new(&state)?;
                Ok(Vec::new())
            }
            ToJoiner::Refused { text } | ToJoiner::Error { text } => disagree(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat, Undo};
    use crate::players::PlayerKind;
    use crate::rules::Rules;

    /// The referee with the host's front end around it: the match, played
    /// and kept as the referee hands it over.
    struct Host {
        r: Referee,
        m: Match,
    }

    impl Host {
        fn new() -> Host {
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
            let m = Match::new(config, 1);
            Host {
                r: Referee::new(m.clone()),
                m,
            }
        }

        /// Carries out `out` as a front end does; what it sent and showed.
        fn carry_out(&mut self, out: Vec<Out>) -> Vec<Out> {
            let mut said = Vec::new();
            for item in out {
                match item {
                    Out::Play(pit) => {
                        self.m.play(pit, &mut NoTrace).expect("checked");
                        said.extend(self.r.kept(&self.m));
                    }
                    Out::TakeBack(side) => {
                        if let Undo::Undone(moves) = self.m.undo_for(side) {
                            said.push(Out::Show(Happening::Undone { moves }));
                        }
                        said.extend(self.r.kept(&self.m));
                    }
                    Out::NextRound => {
                        self.m.next_round();
                        said.extend(self.r.kept(&self.m));
                        said.push(Out::Show(Happening::NextRound));
                    }
                    other => said.push(other),
                }
            }
            said
        }

        /// The host's player plays `pit`.
        fn local_move(&mut self, pit: Pit) -> Result<Vec<Out>, MoveError> {
            self.r.local_move(pit)?;
            Ok(self.carry_out(vec![Out::Play(pit)]))
        }

        fn remote(&mut self, message: ToHost) -> Result<Vec<Out>, Violation> {
            let out = self.r.remote(message)?;
            Ok(self.carry_out(out))
        }

        fn game(&self) -> &Match {
            &self.m
        }
    }

    fn sent(out: &[Out]) -> Vec<ToJoiner> {
        out.iter()
            .filter_map(|o| match o {
                Out::Send(m) => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_round_played_through_the_referee_mirrors_exactly() {
        let mut h = Host::new();
        let welcome = h.r.welcome("Michael", false).unwrap();
        let ToJoiner::Welcome { state, .. } = &welcome[0] else {
            panic!("{welcome:?}")
        };
        let mut mirror = Mirror::new(state).unwrap();
        while h.game().outcome().is_none() {
            let side = h.game().board().to_move();
            let pit = h.game().board().legal_moves().next().unwrap();
            let out = if side == HOST_SIDE {
                h.local_move(pit).unwrap()
            } else {
                let letter = h.game().rules().letter(pit).unwrap();
                h.remote(ToHost::Move {
                    at: At::of(h.game()),
                    pit: letter,
                })
                .unwrap()
            };
            for message in sent(&out) {
                mirror.apply(message).unwrap();
            }
            assert_eq!(mirror.game().board(), h.game().board());
            assert_eq!(h.r.game().board(), h.game().board());
        }
        let out = h.r.local_again(true);
        let out = h.carry_out(out);
        for message in sent(&out) {
            mirror.apply(message).unwrap();
        }
        let out = h.remote(ToHost::Again { yes: true }).unwrap();
        assert!(out.contains(&Out::Show(Happening::NextRound)));
        for message in sent(&out) {
            mirror.apply(message).unwrap();
        }
        assert_eq!(mirror.game().board(), h.game().board());
        assert_eq!(mirror.game().round(), 2);
        assert_eq!(mirror.game().tally(), h.game().tally());
    }

    #[test]
    fn out_of_turn_and_illegal_moves_end_the_connection_and_change_nothing() {
        let mut h = Host::new();
        let before = *h.game().board();
        let at = At::of(h.game());
        // South (the host) moves first.
        assert!(h.remote(ToHost::Move { at, pit: 'd' }).is_err());
        let a = h.game().rules().pit_by_letter('a').unwrap();
        h.local_move(a).unwrap();
        let at = At::of(h.game());
        assert!(
            h.remote(ToHost::Move { at, pit: 'a' }).is_err(),
            "not theirs"
        );
        assert!(
            h.remote(ToHost::Move {
                at: At { round: 1, ply: 0 },
                pit: 'd'
            })
            .is_err(),
            "stale"
        );
        assert!(h.remote(ToHost::Again { yes: true }).is_err());
        assert!(
            h.remote(ToHost::Join {
                name: "x".into(),
                seat_key: None
            })
            .is_err()
        );
        assert_ne!(h.game().board(), &before);
        assert_eq!(h.game().moves().len(), 1, "nothing else played");
    }

    /// The joiner's move is handed to the front end to play as the network
    /// seat's turn; until the front end has kept it, a move for the same
    /// place is ignored (the first stands), one for another place is out
    /// of turn, and nobody can ask for a move back: the joiner is told of
    /// it only once it is kept.
    #[test]
    fn a_joiners_move_is_told_only_once_the_front_end_has_kept_it() {
        let mut h = Host::new();
        let a = h.game().rules().pit_by_letter('a').unwrap();
        h.local_move(a).unwrap();
        let at = At::of(h.game());
        let out = h.r.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        let d = h.game().rules().pit_by_letter('d').unwrap();
        assert_eq!(out, vec![Out::Play(d)], "nothing sent before it is kept");
        assert_eq!(h.r.remote(ToHost::Move { at, pit: 'd' }), Ok(Vec::new()));
        assert_eq!(h.r.remote(ToHost::Move { at, pit: 'e' }), Ok(Vec::new()));
        let later = At {
            ply: at.ply + 1,
            ..at
        };
        assert!(
            h.r.remote(ToHost::Move {
                at: later,
                pit: 'e'
            })
            .is_err()
        );
        assert!(h.r.local_undo().unwrap_err().contains("on its way"));
        let told = h.carry_out(out);
        assert!(
            matches!(sent(&told)[..], [ToJoiner::Moved { at: told_at, pit: 'd', .. }] if told_at == at),
            "{told:?}"
        );
        assert_eq!(h.r.game().moves().len(), 2);
    }

    #[test]
    fn undo_needs_the_others_yes() {
        let mut h = Host::new();
        let a = h.game().rules().pit_by_letter('a').unwrap();
        h.local_move(a).unwrap();
        // The joiner has no move of his own to take back yet.
        let at = At::of(h.game());
        let out = h.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(out[0], Out::Send(ToJoiner::UndoDeclined), "{out:?}");
        assert!(h.r.undo_request().is_none());
        // Michael d (ends in f): he asks for it back on Alice's turn.
        h.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        assert_eq!(h.game().board().to_move(), HOST_SIDE);
        let at = At::of(h.game());
        let out = h.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(
            out,
            vec![Out::Show(Happening::UndoAsked { by: JOINER_SIDE })]
        );
        assert_eq!(
            sent(&h.r.local_undo_answer(false)),
            vec![ToJoiner::UndoDeclined]
        );
        assert_eq!(h.game().moves().len(), 2);
        h.remote(ToHost::Undo { at }).unwrap();
        let out = h.r.local_undo_answer(true);
        assert_eq!(out, vec![Out::TakeBack(JOINER_SIDE)]);
        let out = h.carry_out(out);
        assert!(out.contains(&Out::Show(Happening::Undone { moves: 1 })));
        assert!(
            matches!(sent(&out)[..], [ToJoiner::Undone { .. }]),
            "{out:?}"
        );
        assert_eq!(h.game().moves().len(), 1, "back to Michael's turn");
        assert_eq!(h.game().board().to_move(), JOINER_SIDE);
        // Alice asks for her a (Michael's turn): one move back. The
        // joiner's "yes" for another place is void.
        h.r.local_undo().unwrap();
        h.remote(ToHost::UndoAnswer {
            at: At { round: 1, ply: 0 },
            yes: true,
        })
        .unwrap();
        assert_eq!(h.game().moves().len(), 1);
        let at = At::of(h.game());
        h.remote(ToHost::UndoAnswer { at, yes: true }).unwrap();
        assert!(h.game().moves().is_empty());
        assert!(h.r.game().moves().is_empty());
    }

    #[test]
    fn a_no_to_playing_again_finishes_before_the_joiner_is_told() {
        let mut h = Host::new();
        while h.game().outcome().is_none() {
            let pit = h.game().board().legal_moves().next().unwrap();
            if h.game().board().to_move() == HOST_SIDE {
                h.local_move(pit).unwrap();
            } else {
                let letter = h.game().rules().letter(pit).unwrap();
                let at = At::of(h.game());
                h.remote(ToHost::Move { at, pit: letter }).unwrap();
            }
        }
        let out = h.r.remote(ToHost::Again { yes: false }).unwrap();
        let finish = out.iter().position(|o| *o == Out::Finish).unwrap();
        let told = out
            .iter()
            .position(|o| *o == Out::Send(ToJoiner::Finished))
            .unwrap();
        assert!(finish < told, "{out:?}");
        assert!(h.r.is_finished());
    }

    #[test]
    fn a_joiner_of_another_name_is_turned_away() {
        let mut h = Host::new();
        let why = h.r.welcome("Bob", false).unwrap_err();
        assert!(why.contains("join as Michael"), "{why}");
    }

    #[test]
    fn a_mirror_refuses_a_board_that_differs() {
        let h = Host::new();
        let mut mirror = Mirror::new(&Snapshot::of(h.game())).unwrap();
        let mut board = h.game().board().counts().to_vec();
        board[0] += 1;
        let error = mirror
            .apply(ToJoiner::Moved {
                at: At::of(h.game()),
                pit: 'a',
                board,
                to_move: Side::North,
            })
            .unwrap_err();
        assert!(error.0.contains("differ"), "{error:?}");
    }
}
