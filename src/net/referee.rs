//! The host's match: the referee. The joiner's program only proposes; this
//! decides, with the rules core, and keeps the match through the
//! [`Keeper`] (saved after every change, recorded at each round's end)
//! *before* telling the joiner, so that what the joiner has seen confirmed
//! is always on the host's disk.
//!
//! The joiner's side is [`Mirror`]: it plays the host's confirmed moves on
//! its own copy of the match and checks that its board is the host's.
//!
//! Both report what happened as [`Happening`]s, for a front end to show
//! the same way on both screens.

use std::path::PathBuf;

use super::RemoteText;
use super::message::{At, Snapshot, ToHost, ToJoiner, same_board};
use super::resume::{self, HostNote};
use crate::game::{Keeper, Match, Undo};
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

/// What the referee wants done: a message for the joiner, or a
/// [`Happening`] to show on the host's screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// Send this to the joiner (dropped when none is connected: a joiner
    /// who comes back is sent the whole match).
    Send(ToJoiner),
    /// Show this to the host's player.
    Show(Happening),
}

/// A message from the joiner that breaks the protocol: the connection
/// ends with this sentence, and the match is untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

/// The host's side of a network match. See the [module docs](self).
#[derive(Debug)]
pub struct Referee {
    m: Match,
    keeper: Keeper,
    journal: Option<(String, HostNote)>,
    again: [Option<bool>; 2],
    undo: Option<(Side, At)>,
    finished: bool,
}

/// The side the host plays; the joiner plays the other.
pub const HOST_SIDE: Side = Side::South;
/// The side the joiner plays.
pub const JOINER_SIDE: Side = Side::North;

impl Referee {
    /// The referee of `m`, kept by `keeper`.
    #[must_use]
    pub fn new(m: Match, keeper: Keeper) -> Referee {
        Referee {
            m,
            keeper,
            journal: None,
            again: [None, None],
            undo: None,
            finished: false,
        }
    }

    /// Keeps host `host`'s note (see [`super::resume`]) for this match.
    /// (A round's end is noted by the [`Keeper`] itself, which completes
    /// it after a restart: see [`Keeper::close_round`].)
    #[must_use]
    pub fn with_journal(mut self, host: &str, note: HostNote) -> Referee {
        let _ = resume::store(host, &note);
        self.journal = Some((host.to_string(), note));
        self
    }

    /// The match.
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

    fn save(&mut self, out: &mut Vec<Out>) {
        if let Some(warning) = self.keeper.save(&self.m) {
            out.push(Out::Show(Happening::Note(warning)));
        }
    }

    /// Plays `pit` for `side` after checking it with the rules, keeps the
    /// match, and says what to send and show.
    fn play(&mut self, pit: Pit) -> Result<Vec<Out>, MoveError> {
        let at = At::of(&self.m);
        let mut steps = Vec::new();
        let played = self.m.play(pit, &mut steps)?;
        self.undo = None;
        let mut out = Vec::new();
        let mut record = None;
        if self.m.board().is_over() {
            let kept = self.keeper.close_round(&self.m);
            record = kept.record;
            out.extend(
                kept.warnings
                    .into_iter()
                    .map(|w| Out::Show(Happening::Note(w))),
            );
            self.again = [None, None];
        } else {
            self.save(&mut out);
        }
        // Saved: now it is final, and the joiner may hear of it.
        out.push(Out::Send(ToJoiner::Moved {
            at,
            pit: self.m.rules().letter(pit).unwrap_or('?'),
            board: self.m.board().counts().to_vec(),
            to_move: self.m.board().to_move(),
        }));
        out.push(Out::Show(Happening::Moved { played, steps }));
        if let Some(outcome) = self.m.outcome() {
            out.push(Out::Show(Happening::RoundOver { outcome, record }));
        }
        Ok(out)
    }

    /// The host's player plays `pit`.
    ///
    /// # Errors
    /// The rules' refusal; [`MoveError::GameOver`] when the match is
    /// over, [`MoveError::NotYours`] when it is not the host's turn
    /// (nothing changes).
    pub fn local_move(&mut self, pit: Pit) -> Result<Vec<Out>, MoveError> {
        if self.m.board().is_over() || self.finished {
            return Err(MoveError::GameOver);
        }
        if self.m.board().to_move() != HOST_SIDE {
            return Err(MoveError::NotYours);
        }
        self.play(pit)
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

    /// Takes back the asker's last move (and the reply to it): back to the
    /// asker's turn, as [`Match::undo_for`] does.
    fn take_back(&mut self) -> Vec<Out> {
        let moves = match self.undo.take() {
            Some((by, _)) => match self.m.undo_for(by) {
                Undo::Undone(moves) => moves,
                _ => 0,
            },
            None => 0,
        };
        let mut out = Vec::new();
        self.save(&mut out);
        out.push(Out::Send(ToJoiner::Undone {
            at: At::of(&self.m),
            board: self.m.board().counts().to_vec(),
        }));
        out.push(Out::Show(Happening::Undone { moves }));
        out
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
                if let Some(warning) = self.keeper.finish(self.m.config()) {
                    out.push(Out::Show(Happening::Note(warning)));
                }
                out.push(Out::Send(ToJoiner::Finished));
                out.push(Out::Show(Happening::Finished));
            }
            [Some(true), Some(true)] => {
                // The keeper saved this next round when the last one closed.
                self.m.next_round();
                self.again = [None, None];
                out.push(Out::Send(ToJoiner::NextRound {
                    round: self.m.round(),
                    starter: self.m.starter(),
                }));
                out.push(Out::Show(Happening::NextRound));
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
                if self.m.board().is_over()
                    || self.finished
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
                self.play(pit)
                    .or_else(|e| violation(&format!("sent a move the rules refuse ({e})")))
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

/// Plays `pit` on a scratch copy of `m` to check it: the rules' refusal,
/// if any.
///
/// # Errors
/// The rules core's [`MoveError`].
pub fn check_move(m: &Match, pit: Pit) -> Result<(), MoveError> {
    m.clone().play(pit, &mut NoTrace).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat};
    use crate::players::PlayerKind;
    use crate::rules::Rules;

    fn referee() -> Referee {
        let config = MatchConfig {
            rules: Rules::new(3, 2).unwrap(),
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Human),
            ],
            first: FirstMover::Alternate,
        };
        Referee::new(Match::new(config, 1), Keeper::new(None))
    }

    fn sent(out: &[Out]) -> Vec<ToJoiner> {
        out.iter()
            .filter_map(|o| match o {
                Out::Send(m) => Some(m.clone()),
                Out::Show(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_round_played_through_the_referee_mirrors_exactly() {
        let mut r = referee();
        let welcome = r.welcome("Michael", false).unwrap();
        let ToJoiner::Welcome { state, .. } = &welcome[0] else {
            panic!("{welcome:?}")
        };
        let mut mirror = Mirror::new(state).unwrap();
        while r.game().outcome().is_none() {
            let side = r.game().board().to_move();
            let pit = r.game().board().legal_moves().next().unwrap();
            let out = if side == HOST_SIDE {
                r.local_move(pit).unwrap()
            } else {
                let letter = r.game().rules().letter(pit).unwrap();
                r.remote(ToHost::Move {
                    at: At::of(r.game()),
                    pit: letter,
                })
                .unwrap()
            };
            for message in sent(&out) {
                mirror.apply(message).unwrap();
            }
            assert_eq!(mirror.game().board(), r.game().board());
        }
        let out = r.local_again(true);
        for message in sent(&out) {
            mirror.apply(message).unwrap();
        }
        let out = r.remote(ToHost::Again { yes: true }).unwrap();
        assert!(out.contains(&Out::Show(Happening::NextRound)));
        for message in sent(&out) {
            mirror.apply(message).unwrap();
        }
        assert_eq!(mirror.game().board(), r.game().board());
        assert_eq!(mirror.game().round(), 2);
        assert_eq!(mirror.game().tally(), r.game().tally());
    }

    #[test]
    fn out_of_turn_and_illegal_moves_end_the_connection_and_change_nothing() {
        let mut r = referee();
        let before = *r.game().board();
        let at = At::of(r.game());
        // South (the host) moves first.
        assert!(r.remote(ToHost::Move { at, pit: 'd' }).is_err());
        let a = r.game().rules().pit_by_letter('a').unwrap();
        r.local_move(a).unwrap();
        let at = At::of(r.game());
        assert!(
            r.remote(ToHost::Move { at, pit: 'a' }).is_err(),
            "not theirs"
        );
        assert!(
            r.remote(ToHost::Move {
                at: At { round: 1, ply: 0 },
                pit: 'd'
            })
            .is_err(),
            "stale"
        );
        assert!(r.remote(ToHost::Again { yes: true }).is_err());
        assert!(
            r.remote(ToHost::Join {
                name: "x".into(),
                seat_key: None
            })
            .is_err()
        );
        assert_ne!(r.game().board(), &before);
        assert_eq!(r.game().moves().len(), 1, "nothing else played");
    }

    #[test]
    fn undo_needs_the_others_yes() {
        let mut r = referee();
        let a = r.game().rules().pit_by_letter('a').unwrap();
        r.local_move(a).unwrap();
        // The joiner has no move of his own to take back yet.
        let at = At::of(r.game());
        let out = r.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(out[0], Out::Send(ToJoiner::UndoDeclined), "{out:?}");
        assert!(r.undo_request().is_none());
        // Michael d (ends in f): he asks for it back on Alice's turn.
        r.remote(ToHost::Move { at, pit: 'd' }).unwrap();
        assert_eq!(r.game().board().to_move(), HOST_SIDE);
        let at = At::of(r.game());
        let out = r.remote(ToHost::Undo { at }).unwrap();
        assert_eq!(
            out,
            vec![Out::Show(Happening::UndoAsked { by: JOINER_SIDE })]
        );
        assert_eq!(
            sent(&r.local_undo_answer(false)),
            vec![ToJoiner::UndoDeclined]
        );
        assert_eq!(r.game().moves().len(), 2);
        r.remote(ToHost::Undo { at }).unwrap();
        let out = r.local_undo_answer(true);
        assert!(out.contains(&Out::Show(Happening::Undone { moves: 1 })));
        assert_eq!(r.game().moves().len(), 1, "back to Michael's turn");
        assert_eq!(r.game().board().to_move(), JOINER_SIDE);
        // Alice asks for her a (Michael's turn): one move back. The
        // joiner's "yes" for another place is void.
        r.local_undo().unwrap();
        r.remote(ToHost::UndoAnswer {
            at: At { round: 1, ply: 0 },
            yes: true,
        })
        .unwrap();
        assert_eq!(r.game().moves().len(), 1);
        r.remote(ToHost::UndoAnswer {
            at: At::of(r.game()),
            yes: true,
        })
        .unwrap();
        assert!(r.game().moves().is_empty());
    }

    #[test]
    fn a_joiner_of_another_name_is_turned_away() {
        let mut r = referee();
        let why = r.welcome("Bob", false).unwrap_err();
        assert!(why.contains("join as Michael"), "{why}");
    }

    #[test]
    fn a_mirror_refuses_a_board_that_differs() {
        let r = referee();
        let mut mirror = Mirror::new(&Snapshot::of(r.game())).unwrap();
        let mut board = r.game().board().counts().to_vec();
        board[0] += 1;
        let error = mirror
            .apply(ToJoiner::Moved {
                at: At::of(r.game()),
                pit: 'a',
                board,
                to_move: Side::North,
            })
            .unwrap_err();
        assert!(error.0.contains("differ"), "{error:?}");
    }
}
