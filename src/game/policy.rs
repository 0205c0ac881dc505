//! The match policies every front end follows the same way (full screen,
//! plain mode, arena): undo and redo by turn, what a computer seat that
//! gives no legal move does, and how each seat's random player is seeded.

use std::fmt;
use std::time::Duration;

use super::messages::{EventKind, Notice, may_not_prove, plural};
use super::{Match, MatchConfig};
use crate::players::oware::{OwareEndgame, OwarePlayer, oware_player};
use crate::players::solver::proves_in_time;
use crate::players::{Limits, MoveProof, PlayerKind, TurnFn, computer};
use crate::rules::{Board, Pit, Side, Step};
use crate::rules::{Game, GameBoard, GamePlayed};

/// What [`Match::undo_turn`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undo {
    /// This many moves were taken back; a human is to move.
    Undone(usize),
    /// No move was made in this round yet.
    NothingToUndo,
    /// The round is over: its result was recorded and stands.
    RoundOver(u32),
    /// Both seats are computers: there is no human turn to go back to.
    NoHuman,
    /// The moves of this round were all the computer's (it started), so
    /// going back would only make it move again.
    NoEarlierTurn,
}

impl Undo {
    /// The message for the players.
    #[must_use]
    pub fn message(self) -> Notice {
        match self {
            Undo::Undone(n) => {
                Notice::new(EventKind::News, format!("Took back {}.", plural(n, "move")))
            }
            Undo::NothingToUndo => {
                Notice::new(EventKind::Refused, "There is no move to take back.")
            }
            Undo::RoundOver(round) => Notice::new(
                EventKind::Refused,
                format!("Round {round} is over; a finished round cannot be taken back."),
            ),
            Undo::NoHuman => Notice::new(
                EventKind::Refused,
                "Undo goes back to a human's turn; both players here are computers.",
            ),
            Undo::NoEarlierTurn => Notice::new(
                EventKind::Refused,
                "There is no earlier turn of yours in this round to go back to.",
            ),
        }
    }
}

impl fmt::Display for Undo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message().text)
    }
}

/// One move replayed by [`Match::redo_turn`], with its sowing trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redone {
    /// What the move did.
    pub played: GamePlayed,
    /// Every step of it, for animation.
    pub steps: Vec<Step>,
    /// The position before it (where an animation starts), as drawn
    /// ([`GameBoard::drawn`]).
    pub before: Board,
    /// The position after it, as drawn.
    pub after: Board,
}

/// "Redid 2 moves." or "There is no move to redo."
#[must_use]
pub fn redo_message(redone: &[Redone]) -> Notice {
    if redone.is_empty() {
        Notice::new(EventKind::Refused, "There is no move to redo.")
    } else {
        Notice::new(
            EventKind::News,
            format!("Redid {}.", plural(redone.len(), "move")),
        )
    }
}

impl Match {
    /// Undo by turn: takes back moves until a human is to move, at least
    /// one (against a computer, back to the human's previous turn). Refused,
    /// with the match unchanged, when the round is over, when nobody is
    /// human, or when the only earlier turns are the computer's.
    pub fn undo_turn(&mut self) -> Undo {
        if !self.config.seats.iter().any(|s| s.kind.is_human()) {
            return Undo::NoHuman;
        }
        if self.outcome().is_some() {
            return Undo::RoundOver(self.round);
        }
        if self.moves.is_empty() {
            return Undo::NothingToUndo;
        }
        let mut probe = self.clone();
        let undone = probe.undo_to_human();
        if !probe.seat(probe.position().to_move()).kind.is_human() {
            return Undo::NoEarlierTurn;
        }
        *self = probe;
        Undo::Undone(undone)
    }

    /// Undo for one player, as a network match takes a move back: takes
    /// back moves until it is `side`'s turn again, at least one, so that
    /// `side` plays their last move again (their own move, and the
    /// opponent's reply if there was one). Refused, with the match
    /// unchanged, when the round is over, when no move was made, or when
    /// `side` has made no move in this round.
    pub fn undo_for(&mut self, side: Side) -> Undo {
        if let Some(refused) = self.undo_for_refused(side) {
            return refused;
        }
        Undo::Undone(self.undo_until(|m| m.position().to_move() == side))
    }

    /// Why [`Match::undo_for`] would refuse `side` now, or `None` when it
    /// would take moves back. Asks without changing or copying the match
    /// (the screen asks it on every frame): `side` has a move in this
    /// round exactly when it was to move before one of the round's moves.
    #[must_use]
    pub fn undo_for_refused(&self, side: Side) -> Option<Undo> {
        if self.outcome().is_some() {
            return Some(Undo::RoundOver(self.round));
        }
        if self.moves.is_empty() {
            return Some(Undo::NothingToUndo);
        }
        self.last_turn_of(side)
            .is_none()
            .then_some(Undo::NoEarlierTurn)
    }

    /// Whether [`Match::undo_for`] of `side` would reach back before the
    /// pie rule's swap (RULES.md §5.3), which a network match refuses:
    /// there, the swap is answered once. Without copying the match, like
    /// [`Match::undo_for_refused`].
    #[must_use]
    pub fn undo_for_crosses_swap(&self, side: Side) -> bool {
        // undo_for keeps the moves before `side`'s last turn
        // (replayed only when the players swapped)
        self.swapped()
            .is_some_and(|after| self.last_turn_of(side).is_some_and(|kept| kept < after))
    }

    /// The index in this round's moves of `side`'s last move (the last
    /// one made with `side` to move), if it has one.
    fn last_turn_of(&self, side: Side) -> Option<usize> {
        let mut play = self.config.start_round(self.starter);
        let mut last = None;
        for (i, &pit) in self.moves.iter().enumerate() {
            if play.position().to_move() == side {
                last = Some(i);
            }
            play.replay(pit);
        }
        last
    }

    /// Redo by turn: replays the last move taken back and then, from the
    /// same redo list, the moves after it until a human is to move again
    /// or the round ends. A computer's moves are replayed as they were
    /// played, never chosen anew. Empty when there is nothing to redo.
    pub fn redo_turn(&mut self) -> Vec<Redone> {
        let mut redone = Vec::new();
        while self.redo_move().is_some() {
            let before = *self.board();
            let mut steps = Vec::new();
            let Some(played) = self.redo(&mut steps) else {
                break;
            };
            redone.push(Redone {
                played,
                steps,
                before,
                after: *self.board(),
            });
            let now = self.position();
            if now.is_over() || self.seat(now.to_move()).kind.is_human() {
                break;
            }
        }
        redone
    }
}

/// A computer seat's move, after the policy for answers that cannot be
/// played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputerMove {
    /// The pit to play.
    pub pit: Pit,
    /// The player gave no legal move (it gave up, erred or timed out), so
    /// this is the first legal pit instead.
    pub fallback: bool,
}

/// What a computer seat plays when its turn function answered `chosen`: the
/// pit itself when legal; otherwise the first legal pit, so that a player
/// that gives up or errs never stalls or ends a game. `None` only when the
/// board has no legal move (the round is over).
///
/// ```
/// use mancala_engine::game::computer_move;
/// use mancala_engine::rules::{Board, Rules};
/// let board = Board::new(Rules::KALAH);
/// let c = Rules::KALAH.pit_by_letter('c').unwrap();
/// assert!(!computer_move(&board, Some(c)).unwrap().fallback);
/// let given_up = computer_move(&board, None).unwrap();
/// assert_eq!((given_up.pit, given_up.fallback), (Rules::KALAH.pit_by_letter('a').unwrap(), true));
/// ```
#[must_use]
pub fn computer_move(board: &Board, chosen: Option<Pit>) -> Option<ComputerMove> {
    computer_move_in(&GameBoard::Kalah(*board), chosen)
}

/// [`computer_move`] in a position of either family.
#[must_use]
pub fn computer_move_in(position: &GameBoard, chosen: Option<Pit>) -> Option<ComputerMove> {
    match chosen.filter(|&p| position.check(p).is_ok()) {
        Some(pit) => Some(ComputerMove {
            pit,
            fallback: false,
        }),
        None => position.legal_moves().next().map(|pit| ComputerMove {
            pit,
            fallback: true,
        }),
    }
}

/// The seed of `side`'s computer player in a match seeded with `seed`: the
/// two seats never share a sequence, and the same match seed gives the same
/// players everywhere.
#[must_use]
pub const fn seat_seed(seed: u64, side: Side) -> u64 {
    seed ^ (side.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The computer player for `side`'s seat, of `kinds[side]` (`None` for a
/// human), seeded by [`seat_seed`]. It may think on its opponent's time
/// only when the opponent is a person (see
/// [`TurnFn::think_on_opponents_time`]).
#[must_use]
pub fn seat_player(kinds: [PlayerKind; 2], seed: u64, side: Side) -> Option<Box<dyn TurnFn>> {
    let mut player = computer(kinds[side.index()], seat_seed(seed, side))?;
    player.think_on_opponents_time(kinds[side.opponent().index()].is_person());
    Some(player)
}

/// Seeds on the board up to which an Oware `perfect` seat knows every
/// exact value: its endgame database is built as its seat is (a few
/// milliseconds) and kept for the match.
pub const OWARE_SEAT_ENDGAME_SEEDS: usize = 8;

/// A computer seat's player, of the match's family.
pub enum SeatPlayer {
    /// A Kalah turn function.
    Kalah(Box<dyn TurnFn>),
    /// An Oware player.
    Oware(Box<OwarePlayer>),
}

impl SeatPlayer {
    /// The player's choice in `position`; `None` when it gives up (or
    /// `position` is of the other family).
    pub fn choose(&mut self, position: &GameBoard, limits: &Limits) -> Option<Pit> {
        match (self, position) {
            (SeatPlayer::Kalah(player), GameBoard::Kalah(board)) => player.choose(board, limits),
            (SeatPlayer::Oware(player), GameBoard::Oware(board)) => player.choose(board, limits),
            _ => None,
        }
    }

    /// See [`TurnFn::last_proof`]; Oware's players never prove a move.
    #[must_use]
    pub fn last_proof(&self) -> Option<MoveProof> {
        match self {
            SeatPlayer::Kalah(player) => player.last_proof(),
            SeatPlayer::Oware(_) => None,
        }
    }

    /// See [`TurnFn::stop_thinking_ahead`].
    pub fn stop_thinking_ahead(&mut self) {
        if let SeatPlayer::Kalah(player) = self {
            player.stop_thinking_ahead();
        }
    }
}

impl From<Box<dyn TurnFn>> for SeatPlayer {
    fn from(player: Box<dyn TurnFn>) -> SeatPlayer {
        SeatPlayer::Kalah(player)
    }
}

/// The computer player of `side`'s seat in `config`'s match, of its
/// family ([`seat_player`] for Kalah); `None` for a person.
#[must_use]
pub fn seat_player_for(config: &MatchConfig, seed: u64, side: Side) -> Option<SeatPlayer> {
    let kinds = config.kinds();
    match config.game {
        Game::Kalah => seat_player(kinds, seed, side).map(SeatPlayer::Kalah),
        Game::Oware => {
            // The shared endgame database starts growing with the first
            // Oware match (on spare time; nothing waits for it).
            crate::players::oware::shelf().wake();
            let kind = kinds[side.index()];
            let endgame = std::sync::Arc::new(if kind == PlayerKind::Perfect {
                OwareEndgame::build(OWARE_SEAT_ENDGAME_SEEDS)
            } else {
                OwareEndgame::default()
            });
            // The kinds were checked where the match was set up
            // (`oware_kind_refused`); one refused here plays as a person.
            // A perfect seat takes the shared database's counts as they
            // grow (a fixed-database player, as `arena` has, stays
            // repeatable).
            oware_player(kind, seat_seed(seed, side), &endgame)
                .ok()
                .flatten()
                .map(|player| match kind {
                    PlayerKind::Perfect => player.following_shelf(),
                    _ => player,
                })
                .map(|player| SeatPlayer::Oware(Box::new(player)))
        }
    }
}

/// Why `kind` cannot play a seat of `game`, or `None` when it can: the
/// rated levels are Kalah's.
#[must_use]
pub fn kind_refused(game: Game, kind: PlayerKind) -> Option<String> {
    match game {
        Game::Kalah => None,
        Game::Oware => oware_player(kind, 0, &std::sync::Arc::new(OwareEndgame::default())).err(),
    }
}

/// What to say once as `config`'s match starts when a `perfect` seat is
/// not expected to prove its moves within `think` on its board
/// ([`proves_in_time`]); `None` when there is nothing to say.
#[must_use]
pub fn perfect_warning(config: &MatchConfig, think: Duration) -> Option<Notice> {
    if config.game != Game::Kalah || proves_in_time(&config.rules) {
        return None;
    }
    let names: Vec<&str> = config
        .seats
        .iter()
        .filter(|seat| seat.kind == PlayerKind::Perfect)
        .map(|seat| seat.name.as_str())
        .collect();
    (!names.is_empty()).then(|| may_not_prove(&names.join(" and "), think))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, MatchConfig, Seat};
    use crate::rules::{NoTrace, Rules};

    fn against(north: PlayerKind) -> Match {
        Match::new(
            MatchConfig {
                game: crate::rules::Game::Kalah,
                rules: Rules::KALAH,
                seats: [
                    Seat::new("Alice", PlayerKind::Human),
                    Seat::new("Michael", north),
                ],
                first: FirstMover::South,
                start: None,
            },
            1,
        )
    }

    fn pit(letter: char) -> Pit {
        Rules::KALAH.pit_by_letter(letter).unwrap()
    }

    #[test]
    fn undo_for_a_player_goes_back_to_that_players_turn() {
        let mut m = against(PlayerKind::Human);
        assert_eq!(m.undo_for(Side::South), Undo::NothingToUndo);
        // Alice c (extra turn), Alice f, Michael h.
        for letter in ['c', 'f', 'h'] {
            m.play(pit(letter), &mut NoTrace).unwrap();
        }
        let after_f = {
            let mut probe = m.clone();
            probe.undo();
            *probe.board()
        };
        // Michael asks after his own move: that one move.
        let mut michael = m.clone();
        assert_eq!(michael.undo_for(Side::North), Undo::Undone(1));
        assert_eq!(michael.board(), &after_f);
        // Alice asks: back to her turn before her f (Michael's h too).
        let mut alice = m.clone();
        assert_eq!(alice.undo_for(Side::South), Undo::Undone(2));
        assert_eq!(alice.moves(), &[pit('c')]);
        assert_eq!(alice.board().to_move(), Side::South);
        // Michael's first move taken back, he has none left in the round.
        assert_eq!(
            michael.undo_for_refused(Side::North),
            Some(Undo::NoEarlierTurn)
        );
        assert_eq!(alice.undo_for_refused(Side::South), None);
        assert_eq!(michael.undo_for(Side::North), Undo::NoEarlierTurn);
        assert_eq!(michael.board(), &after_f, "a refusal changes nothing");
        // A finished round stays.
        let mut over = against(PlayerKind::Human);
        while !over.board().is_over() {
            let next = over.board().legal_moves().next().unwrap();
            over.play(next, &mut NoTrace).unwrap();
        }
        assert_eq!(over.undo_for(Side::South), Undo::RoundOver(1));
    }

    #[test]
    fn undo_and_redo_go_by_turn_against_the_computer() {
        let mut m = against(PlayerKind::Random);
        m.play(pit('a'), &mut NoTrace).unwrap(); // Alice; Michael's turn
        m.play(pit('h'), &mut NoTrace).unwrap(); // Michael (computer)
        let after = *m.board();
        assert_eq!(m.undo_turn(), Undo::Undone(2));
        assert!(m.moves().is_empty());
        let redone = m.redo_turn();
        assert_eq!(redone.len(), 2, "the computer's move is replayed too");
        assert_eq!(redone[1].played.pit(), pit('h'));
        assert_eq!(*m.board(), after);
        assert_eq!(redo_message(&redone).text, "Redid 2 moves.");
        assert!(m.redo_turn().is_empty());
    }

    #[test]
    fn undo_is_refused_when_it_cannot_reach_a_humans_turn() {
        let mut m = against(PlayerKind::Random);
        assert_eq!(m.undo_turn(), Undo::NothingToUndo);
        let mut cfg = m.config().clone();
        cfg.first = FirstMover::North;
        let mut m = Match::new(cfg.clone(), 1);
        m.play(pit('h'), &mut NoTrace).unwrap(); // the computer started
        let before = m.clone();
        assert_eq!(m.undo_turn(), Undo::NoEarlierTurn);
        assert_eq!(m.moves(), before.moves());
        cfg.seats[0].kind = PlayerKind::Greedy;
        assert_eq!(Match::new(cfg, 1).undo_turn(), Undo::NoHuman);
    }

    #[test]
    fn a_finished_round_cannot_be_taken_back_by_turn() {
        let mut m = against(PlayerKind::Human);
        while let Some(p) = m.board().legal_moves().next() {
            m.play(p, &mut NoTrace).unwrap();
        }
        assert_eq!(m.undo_turn(), Undo::RoundOver(1));
        assert_eq!(m.tally().rounds(), 1);
    }

    #[test]
    fn between_humans_a_turn_is_one_move() {
        let mut m = against(PlayerKind::Human);
        m.play(pit('a'), &mut NoTrace).unwrap();
        m.play(pit('h'), &mut NoTrace).unwrap();
        assert_eq!(m.undo_turn(), Undo::Undone(1));
        assert_eq!(m.redo_turn().len(), 1);
    }

    #[test]
    fn seats_get_different_seeds() {
        assert_ne!(seat_seed(7, Side::South), seat_seed(7, Side::North));
        assert_eq!(seat_seed(7, Side::South), seat_seed(7, Side::South));
    }

    #[test]
    fn perfect_on_a_board_it_will_not_prove_in_time_is_said_once_at_the_start() {
        let think = std::time::Duration::from_millis(1000);
        let mut config = against(PlayerKind::Perfect).config().clone();
        // Kalah(6,4): the book answers its opening
        assert_eq!(perfect_warning(&config, think), None);
        config.rules = crate::rules::Rules::new(6, 6).unwrap();
        let said = perfect_warning(&config, think).expect("said");
        assert!(
            said.text.starts_with("Michael (perfect) may not prove"),
            "{said}"
        );
        assert!(said.text.contains("within 1.0 s"), "{said}");
        config.seats[1].name = "Computer (perfect)".into();
        let said = perfect_warning(&config, think).expect("said");
        assert!(
            said.text.starts_with("Computer (perfect) may not prove"),
            "the kind is said once: {said}"
        );
        config.seats[1].kind = PlayerKind::Hard;
        assert_eq!(perfect_warning(&config, think), None, "no perfect seat");
    }
}
