//! The joiner's copy of the host's match: [`Mirror`] plays the moves the
//! host confirms and checks that both boards agree.

use super::RemoteText;
use super::hosted::{HOST_SIDE, Happening};
use super::message::{At, Snapshot, ToJoiner, same_board};
use crate::game::Match;

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
                let mover = self.m.name(self.m.board().to_move());
                let text = crate::game::messages::taken_back(moves, mover);
                Ok(vec![Happening::Undone { text }])
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
    use crate::rules::Side;

    #[test]
    fn a_mirror_refuses_a_board_that_differs() {
        let m = crate::net::hosted::tests::a_match();
        let mut mirror = Mirror::new(&Snapshot::of(&m)).unwrap();
        let mut board = m.board().counts().to_vec();
        board[0] += 1;
        let error = mirror
            .apply(ToJoiner::Moved {
                at: At::of(&m),
                pit: 'a',
                board,
                to_move: Side::North,
            })
            .unwrap_err();
        assert!(error.0.contains("differ"), "{error:?}");
    }
}
