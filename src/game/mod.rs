//! A match: rounds of one game after another between two seats, the tally,
//! who starts each round, and the moves of the round in play (for undo,
//! redo, records and resume). Both front ends drive this one state machine,
//! and follow the same policies ([`Match::undo_turn`], [`Match::redo_turn`],
//! [`computer_move`], [`seat_seed`]) and words ([`messages`]).

pub mod messages;
pub mod names;
mod options;
mod policy;

pub use messages::{
    EventKind, Notice, Tone, describe, describe_move, gave_no_move, match_score, match_score_line,
    match_score_short, may_not_prove, outcome_event, outcome_message, played, plural,
    round_goes_on, round_starts, unproven,
};
pub use options::{DEFAULT_SPEED_MS, MAX_SPEED_MS, MOVE_PAUSE, PlayOptions, parse_speed};
pub use policy::{
    ComputerMove, OWARE_SEAT_ENDGAME_SEEDS, Redone, SeatPlayer, Undo, computer_move,
    computer_move_in, kind_refused, perfect_warning, redo_message, seat_player, seat_player_for,
    seat_seed,
};

use crate::players::PlayerKind;
use crate::rng::Rng;
use crate::rules::{
    Board, Game, GameBoard, GamePlayed, GameRound, MoveError, NoTrace, Outcome, Pit, Played, Rules,
    Side, Tracer,
};
use std::fmt;
use std::str::FromStr;

/// Who starts each round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FirstMover {
    /// South starts every round.
    South,
    /// North starts every round.
    North,
    /// South starts round 1, then the starter alternates.
    #[default]
    Alternate,
    /// A coin toss before each round (RULES.md §5.1).
    Random,
}

impl FromStr for FirstMover {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "south" => Ok(FirstMover::South),
            "north" => Ok(FirstMover::North),
            "alternate" => Ok(FirstMover::Alternate),
            "random" => Ok(FirstMover::Random),
            _ => Err(format!(
                "'{s}' is not a choice (expected south, north, alternate or random)"
            )),
        }
    }
}

impl fmt::Display for FirstMover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FirstMover::South => "south",
            FirstMover::North => "north",
            FirstMover::Alternate => "alternate",
            FirstMover::Random => "random",
        })
    }
}

/// One side's player: a name and what plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Shown on screen and in messages.
    pub name: String,
    /// Who chooses the moves.
    pub kind: PlayerKind,
}

impl Seat {
    /// A seat named `name` played by `kind`.
    ///
    /// ```
    /// use mancala_engine::game::Seat;
    /// use mancala_engine::players::PlayerKind;
    /// assert!(Seat::new("Alice", PlayerKind::Human).kind.is_human());
    /// ```
    #[must_use]
    pub fn new(name: impl Into<String>, kind: PlayerKind) -> Seat {
        Seat {
            name: name.into(),
            kind,
        }
    }
}

/// Everything that stays fixed for a whole match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// The game family: Kalah, or Oware (whose board is Kalah's 6×4 layout,
    /// `rules` then being [`Rules::KALAH`]).
    pub game: Game,
    /// The rules in force (Kalah's options).
    pub rules: Rules,
    /// South's and North's seats, in that order.
    pub seats: [Seat; 2],
    /// Who starts each round.
    pub first: FirstMover,
    /// The position each round starts from when it is not the usual one
    /// (a position played on from, or a fair start): its houses and
    /// stores; the side to move is the round's starter, chosen by
    /// `first`. `None`: every house holds the rules' seeds.
    pub start: Option<Board>,
}

impl MatchConfig {
    /// The position a round started by `starter` begins in, as drawn
    /// ([`GameBoard::drawn`]).
    #[must_use]
    pub fn start_board(&self, starter: Side) -> Board {
        self.start_round(starter).position().drawn()
    }

    /// The round started by `starter`, from its first position: `start` as
    /// its side to move sees it (a round started by the other side has the
    /// two rows and stores exchanged, so that a fair start stays fair
    /// whoever starts).
    #[must_use]
    pub fn start_round(&self, starter: Side) -> GameRound {
        let start = self.start.map(|start| {
            let mut counts = start.counts().to_vec();
            if start.to_move() != starter {
                let half = counts.len() / 2;
                counts.rotate_left(half);
            }
            Board::from_counts(self.rules, &counts, starter).unwrap_or(start)
        });
        GameRound::starting(self.game, self.rules, start.as_ref(), starter)
    }

    /// The game and its rules in words ([`rules_text`]).
    #[must_use]
    pub fn rules_text(&self) -> String {
        rules_text(self.game, self.rules)
    }

    /// What each side's pile at the end of the board holds: "store" (Kalah,
    /// sown into) or "captures" (Oware, the seeds a player has taken).
    #[must_use]
    pub const fn pile_word(&self) -> &'static str {
        match self.game {
            Game::Kalah => "store",
            Game::Oware => "captures",
        }
    }

    /// South's and North's kinds of player, in that order.
    #[must_use]
    pub fn kinds(&self) -> [PlayerKind; 2] {
        self.seats.each_ref().map(|seat| seat.kind)
    }
}

/// `game` under `rules` in words, as the screens head them: "6 pits × 4
/// seeds, capture always, …" for Kalah, the family's name and its rules
/// for Oware.
#[must_use]
pub fn rules_text(game: Game, rules: Rules) -> String {
    match game {
        Game::Kalah => rules.to_string(),
        Game::Oware => "Oware (Abapa): 6 houses × 4 seeds, captures of 2 or 3, 25 wins".to_string(),
    }
}

/// Rounds won by each side, and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Rounds won, indexed by [`Side::index`].
    pub wins: [u32; 2],
    /// Rounds drawn.
    pub draws: u32,
}

impl Tally {
    /// Rounds finished.
    #[must_use]
    pub const fn rounds(&self) -> u32 {
        self.wins[0] + self.wins[1] + self.draws
    }

    fn count(&mut self, outcome: Outcome, sign: i32) {
        let slot = match outcome {
            Outcome::Win(side) => &mut self.wins[side.index()],
            Outcome::Draw => &mut self.draws,
        };
        *slot = slot.saturating_add_signed(sign);
    }
}

mod in_play {
    use crate::rules::{Board, GamePlayed, GameRound, MoveError, Pit, Tracer};

    /// The round in play and its position as a Kalah board (what
    /// [`super::Match::board`] lends), kept in step: the board is worked
    /// out from the round in one place, [`InPlay::settle`], after every
    /// change, and nothing outside this module can set either.
    #[derive(Clone, Debug)]
    pub(super) struct InPlay {
        round: GameRound,
        drawn: Board,
    }

    impl InPlay {
        pub(super) fn new(round: GameRound) -> InPlay {
            let drawn = Board::new(crate::rules::Rules::KALAH);
            let mut in_play = InPlay { round, drawn };
            in_play.settle();
            in_play
        }

        fn settle(&mut self) {
            self.drawn = self.round.position().drawn();
        }

        pub(super) fn round(&self) -> &GameRound {
            &self.round
        }

        pub(super) fn drawn(&self) -> &Board {
            &self.drawn
        }

        pub(super) fn play(
            &mut self,
            pit: Pit,
            trace: &mut impl Tracer,
        ) -> Result<GamePlayed, MoveError> {
            let played = self.round.play(pit, trace)?;
            self.settle();
            Ok(played)
        }
    }
}

use in_play::InPlay;

/// A match in progress. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Match {
    config: MatchConfig,
    round: u32,
    starter: Side,
    /// The round being played, with its position as drawn.
    play: InPlay,
    moves: Vec<Pit>,
    redo: Vec<Pit>,
    tally: Tally,
    rng: Rng,
    /// The pie rule's swap in this round: the seats changed sides after
    /// this many moves (RULES.md §5.3).
    swapped: Option<usize>,
    /// The swap that undo took back with the move it followed: it comes
    /// back when redo replays that move (after this many moves), and is
    /// forgotten with the redo list; that move typed again instead of
    /// redone forgets it and the redo list.
    redo_swap: Option<usize>,
}

impl Match {
    /// Round 1 of a new match. `seed` drives the coin flip of
    /// [`FirstMover::Random`].
    #[must_use]
    pub fn new(config: MatchConfig, seed: u64) -> Match {
        let mut rng = Rng::new(seed);
        let starter = Match::choose_starter(config.first, 1, None, &mut rng);
        let play = InPlay::new(config.start_round(starter));
        Match {
            play,
            config,
            round: 1,
            starter,
            moves: Vec::new(),
            redo: Vec::new(),
            tally: Tally::default(),
            rng,
            swapped: None,
            redo_swap: None,
        }
    }

    /// Rebuilds a match from saved parts: the round being played, who
    /// started it, its moves so far, and the tally of earlier rounds.
    ///
    /// # Errors
    /// The first move that the rules refuse, with its position in the list.
    pub fn restore(
        config: MatchConfig,
        round: u32,
        starter: Side,
        moves: &[Pit],
        tally: Tally,
        seed: u64,
    ) -> Result<Match, (usize, MoveError)> {
        let play = InPlay::new(config.start_round(starter));
        let mut m = Match {
            play,
            config,
            round: round.max(1),
            starter,
            moves: Vec::with_capacity(moves.len()),
            redo: Vec::new(),
            tally,
            rng: Rng::new(seed),
            swapped: None,
            redo_swap: None,
        };
        for (i, &pit) in moves.iter().enumerate() {
            m.play(pit, &mut NoTrace).map_err(|e| (i, e))?;
        }
        Ok(m)
    }

    fn choose_starter(
        first: FirstMover,
        round: u32,
        previous: Option<Side>,
        rng: &mut Rng,
    ) -> Side {
        match first {
            FirstMover::South => Side::South,
            FirstMover::North => Side::North,
            FirstMover::Alternate => match previous {
                Some(side) => side.opponent(),
                None if round % 2 == 1 => Side::South,
                None => Side::North,
            },
            FirstMover::Random => {
                if rng.coin() {
                    Side::South
                } else {
                    Side::North
                }
            }
        }
    }

    /// The fixed settings.
    #[must_use]
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    /// The game family played.
    #[must_use]
    pub fn game(&self) -> Game {
        self.config.game
    }

    /// The position now, in its family's rules.
    #[must_use]
    pub fn position(&self) -> GameBoard {
        self.play.round().position()
    }

    /// The position now as a Kalah board: Kalah's own, or an Oware
    /// position's counts on the same layout (what the network, which
    /// plays Kalah only, and the drawing read). Ask [`Match::position`]
    /// about an Oware round's moves and end.
    #[must_use]
    pub fn board(&self) -> &Board {
        self.play.drawn()
    }

    /// The round being played, from 1.
    #[must_use]
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Who started this round.
    #[must_use]
    pub fn starter(&self) -> Side {
        self.starter
    }

    /// Whether a coin toss chose who starts each round (`--first random`).
    #[must_use]
    pub fn coin_tossed(&self) -> bool {
        self.config.first == FirstMover::Random
    }

    /// How this round begins, for the players ("Round 2: a coin toss,
    /// Michael moves first.").
    #[must_use]
    pub fn round_message(&self) -> Notice {
        messages::round_starts(self.round, self.name(self.starter), self.coin_tossed())
    }

    /// The round in play, as it opens ([`Match::round_message`]) or goes on
    /// after the moves played so far: the words every front end and both
    /// network ends say. Who moved first is the starter's seat, whatever
    /// side it plays after the pie rule's swap.
    #[must_use]
    pub fn opening(&self) -> Notice {
        match self.moves.len() {
            0 => self.round_message(),
            played => messages::round_goes_on(self.round, played, self.seat_name(self.starter)),
        }
    }

    /// South's and North's names.
    #[must_use]
    pub fn names(&self) -> [&str; 2] {
        [self.name(Side::South), self.name(Side::North)]
    }

    /// Finished rounds so far (this one included once it is over), by
    /// the side each player has in this round.
    #[must_use]
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Finished rounds so far by the match's seats ([`MatchConfig::seats`]),
    /// whatever sides they have in this round.
    #[must_use]
    pub fn seat_tally(&self) -> Tally {
        let mut tally = self.tally;
        if self.swapped.is_some() {
            tally.wins.swap(0, 1);
        }
        tally
    }

    /// The seat of [`MatchConfig::seats`] that plays `side` in this round:
    /// `side`'s own, or the other after the pie rule's swap.
    #[must_use]
    pub fn holder(&self, side: Side) -> Side {
        match self.swapped {
            None => side,
            Some(_) => side.opponent(),
        }
    }

    /// `side`'s seat in this round.
    #[must_use]
    pub fn seat(&self, side: Side) -> &Seat {
        &self.config.seats[self.holder(side).index()]
    }

    /// The name of the player at `seat` (the side they sat down at), whatever
    /// side they play after the pie rule's swap.
    #[must_use]
    pub fn seat_name(&self, seat: Side) -> &str {
        &self.config.seats[seat.index()].name
    }

    /// `side`'s name in this round.
    #[must_use]
    pub fn name(&self, side: Side) -> &str {
        &self.seat(side).name
    }

    /// After how many moves of this round the players swapped sides (the
    /// pie rule, RULES.md §5.3), if they did.
    #[must_use]
    pub fn swapped(&self) -> Option<usize> {
        self.swapped
    }

    /// Whether the pie rule's question is due now: the starter's first
    /// turn has just ended (its extra turns included), and the players
    /// have not swapped sides in this round (RULES.md §5.3).
    #[must_use]
    pub fn at_pie_point(&self) -> bool {
        let board = self.board();
        if self.swapped.is_some() || self.moves.is_empty() || board.is_over() {
            return false;
        }
        if board.to_move() == self.starter {
            return false;
        }
        // Every move so far was the starter's.
        let mut board = self.config.start_board(self.starter);
        for &pit in &self.moves[..self.moves.len() - 1] {
            board.play_unchecked(pit);
            if board.to_move() != self.starter {
                return false;
            }
        }
        true
    }

    /// The pie rule: the player to move takes the position of the one who
    /// has just moved, and the other player moves next from the other
    /// side. The board stays as it is; the seats change sides for the rest
    /// of this round.
    pub fn swap_seats(&mut self) {
        if self.swapped.is_none() {
            self.swapped = Some(self.moves.len());
            self.redo_swap = None;
            self.tally.wins.swap(0, 1);
        }
    }

    /// The moves of this round so far, in playing order.
    #[must_use]
    pub fn moves(&self) -> &[Pit] {
        &self.moves
    }

    /// How this round ended, or `None` while it is on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Plays `pit` for the side to move, reporting each step to `trace`.
    /// A move ending the round counts in the tally at once.
    ///
    /// # Errors
    /// The rules core's [`MoveError`]; nothing changes then.
    pub fn play_move(
        &mut self,
        pit: Pit,
        trace: &mut impl Tracer,
    ) -> Result<GamePlayed, MoveError> {
        let played = self.play.play(pit, trace)?;
        self.moves.push(pit);
        if self.redo.last() == Some(&pit) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        if let Some(after) = self.redo_swap {
            if self.redo.is_empty() {
                // a different move: the swap goes with the redo list
                self.redo_swap = None;
            } else if self.moves.len() == after {
                // The same move typed up to the swap's point, without the
                // swap (only redo brings it back): the moves taken back
                // after it were the swapped seats', so they go too, or a
                // redo would play one side's move as the other's.
                self.redo.clear();
                self.redo_swap = None;
            }
        }
        if let Some(outcome) = self.outcome() {
            self.tally.count(outcome, 1);
        }
        Ok(played)
    }

    /// [`Match::play_move`] for the Kalah-only callers (the network): what
    /// the move did as Kalah's [`Played`] ([`GamePlayed::as_kalah`]).
    ///
    /// # Errors
    /// As [`Match::play_move`].
    pub fn play(&mut self, pit: Pit, trace: &mut impl Tracer) -> Result<Played, MoveError> {
        self.play_move(pit, trace).map(|played| played.as_kalah())
    }

    /// Whether there is a move to take back in this round.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Takes back the last move of this round; `false` when there is none.
    /// A finished round taken back no longer counts in the tally.
    pub fn undo(&mut self) -> bool {
        let Some(pit) = self.moves.pop() else {
            return false;
        };
        if let Some(outcome) = self.outcome() {
            self.tally.count(outcome, -1);
        }
        if let Some(after) = self.swapped.filter(|&after| self.moves.len() < after) {
            // The swap came after the move taken back: it goes with it,
            // and comes back with it on redo.
            self.unswap();
            self.redo_swap = Some(after);
        }
        self.redo.push(pit);
        let mut play = self.config.start_round(self.starter);
        for &p in &self.moves {
            play.replay(p);
        }
        self.play = InPlay::new(play);
        true
    }

    /// Takes back moves until it is a human's turn again, at least one move
    /// back (against a computer, back to the human's previous turn).
    /// Returns how many moves were taken back.
    pub fn undo_to_human(&mut self) -> usize {
        self.undo_until(|m| m.seat(m.position().to_move()).kind.is_human())
    }

    /// Takes back moves, at least one, until `reached` holds of the match
    /// (or no move is left). Returns how many moves were taken back.
    fn undo_until(&mut self, reached: impl Fn(&Match) -> bool) -> usize {
        let mut undone = 0;
        while self.undo() {
            undone += 1;
            if reached(self) {
                break;
            }
        }
        undone
    }

    /// The move [`Match::redo`] would replay.
    #[must_use]
    pub fn redo_move(&self) -> Option<Pit> {
        self.redo.last().copied()
    }

    /// Replays the last move taken back, reporting its steps to `trace`;
    /// when undo took the pie rule's swap back with that move, the seats
    /// swap sides again ([`Match::swapped`]), as before the undo.
    pub fn redo(&mut self, trace: &mut impl Tracer) -> Option<GamePlayed> {
        let pit = self.redo_move()?;
        // not seen by `play_move`, which forgets a swap passed by hand
        let pending = self.redo_swap.take();
        let played = match self.play_move(pit, trace) {
            Ok(played) => played,
            Err(_) => {
                self.redo_swap = pending;
                return None;
            }
        };
        // (undo keeps a swap only ahead of the moves left, with moves to
        // redo up to it)
        match pending {
            Some(after) if after == self.moves.len() => self.swap_seats(),
            _ => self.redo_swap = pending,
        }
        Some(played)
    }

    /// Starts the next round: a fresh board, the starter chosen by the
    /// [`FirstMover`] setting. The tally stays.
    pub fn next_round(&mut self) {
        self.round += 1;
        self.starter = Match::choose_starter(
            self.config.first,
            self.round,
            Some(self.starter),
            &mut self.rng,
        );
        self.play = InPlay::new(self.config.start_round(self.starter));
        self.moves.clear();
        self.redo.clear();
        self.redo_swap = None;
        self.unswap();
    }

    /// The seats go back to their own sides.
    fn unswap(&mut self) {
        if self.swapped.take().is_some() {
            self.tally.wins.swap(0, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(first: FirstMover) -> MatchConfig {
        MatchConfig {
            game: Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Human),
            ],
            first,
            start: None,
        }
    }

    fn play_out(m: &mut Match) {
        while let Some(pit) = m.board().legal_moves().next() {
            m.play(pit, &mut NoTrace).unwrap();
        }
    }

    #[test]
    fn finished_rounds_count_in_the_tally_and_starters_alternate() {
        let mut m = Match::new(config(FirstMover::Alternate), 1);
        assert_eq!(m.starter(), Side::South);
        play_out(&mut m);
        assert_eq!(m.tally().rounds(), 1);
        m.next_round();
        assert_eq!(
            (m.round(), m.starter(), m.board().to_move()),
            (2, Side::North, Side::North)
        );
        assert!(m.moves().is_empty());
        play_out(&mut m);
        assert_eq!(m.tally().rounds(), 2);
    }

    #[test]
    fn undo_and_redo_walk_the_round_back_and_forth() {
        let mut m = Match::new(config(FirstMover::South), 1);
        let start = *m.board();
        let c = Rules::KALAH.pit_by_letter('c').unwrap();
        m.play(c, &mut NoTrace).unwrap();
        let after = *m.board();
        assert!(m.undo());
        assert_eq!(*m.board(), start);
        assert!(!m.undo());
        m.redo(&mut NoTrace).unwrap();
        assert_eq!(*m.board(), after);
        assert_eq!(m.redo_move(), None);
    }

    /// Undo takes the pie rule's swap back with the move it followed;
    /// redo brings both back, and a different move forgets the swap as it
    /// forgets the redo list.
    #[test]
    fn redo_brings_back_the_swap_undo_took_back_with_its_move() {
        let b = Rules::KALAH.pit_by_letter('b').unwrap();
        let c = Rules::KALAH.pit_by_letter('c').unwrap();
        let h = Rules::KALAH.pit_by_letter('h').unwrap();
        let mut m = Match::new(config(FirstMover::South), 1);
        m.play(b, &mut NoTrace).unwrap();
        m.swap_seats();
        let board = *m.board();
        assert!(m.undo());
        assert_eq!((m.swapped(), m.names()), (None, ["Alice", "Michael"]));
        m.redo(&mut NoTrace).unwrap();
        assert_eq!((m.swapped(), m.names()), (Some(1), ["Michael", "Alice"]));
        assert_eq!(*m.board(), board);
        // Moves after the swap: undone past it and redone, it comes back
        // after the first move again, and only once.
        m.play(h, &mut NoTrace).unwrap();
        assert!(m.undo() && m.undo());
        assert_eq!(m.swapped(), None);
        assert_eq!(m.redo_turn().len(), 1);
        assert_eq!(m.swapped(), Some(1));
        assert_eq!(m.redo_turn().len(), 1);
        assert_eq!((m.swapped(), m.moves()), (Some(1), &[b, h][..]));
        // The same first move typed instead of redo: the swap is not
        // made, and the move taken back after it (the swapped seats')
        // cannot be redone as the other side's.
        assert!(m.undo() && m.undo());
        m.play(b, &mut NoTrace).unwrap();
        assert_eq!((m.swapped(), m.redo_move()), (None, None));
        assert!(m.at_pie_point(), "the swap is asked again");
        // A different move instead of redo: the swap is forgotten.
        m.swap_seats();
        m.play(h, &mut NoTrace).unwrap();
        assert!(m.undo() && m.undo());
        m.play(c, &mut NoTrace).unwrap();
        assert_eq!(m.swapped(), None);
        assert!(m.undo());
        m.redo(&mut NoTrace).unwrap();
        assert_eq!((m.swapped(), m.names()), (None, ["Alice", "Michael"]));
    }

    #[test]
    fn undoing_a_finished_round_takes_it_out_of_the_tally() {
        let mut m = Match::new(config(FirstMover::South), 1);
        play_out(&mut m);
        assert_eq!(m.tally().rounds(), 1);
        m.undo();
        assert_eq!(m.tally().rounds(), 0);
        assert!(m.outcome().is_none());
    }

    #[test]
    fn undo_to_human_skips_back_over_computer_moves() {
        let mut cfg = config(FirstMover::South);
        cfg.seats[1].kind = PlayerKind::Random;
        let mut m = Match::new(cfg, 1);
        let a = Rules::KALAH.pit_by_letter('a').unwrap();
        let h = Rules::KALAH.pit_by_letter('h').unwrap();
        m.play(a, &mut NoTrace).unwrap(); // South, turn passes
        m.play(h, &mut NoTrace).unwrap(); // North (computer)
        assert_eq!(m.undo_to_human(), 2);
        assert_eq!(m.board().to_move(), Side::South);
        assert!(m.moves().is_empty());
    }

    #[test]
    fn restore_replays_moves_and_reports_the_bad_one() {
        let c = Rules::KALAH.pit_by_letter('c').unwrap();
        let m = Match::restore(
            config(FirstMover::South),
            3,
            Side::South,
            &[c],
            Tally::default(),
            0,
        )
        .unwrap();
        assert_eq!(m.round(), 3);
        assert_eq!(m.moves(), &[c]);
        let err = Match::restore(
            config(FirstMover::South),
            1,
            Side::South,
            &[c, c],
            Tally::default(),
            0,
        )
        .unwrap_err();
        assert_eq!(err, (1, MoveError::Empty));
    }

    #[test]
    fn random_first_mover_uses_both_sides() {
        let mut m = Match::new(config(FirstMover::Random), 42);
        let mut seen = [false; 2];
        for _ in 0..40 {
            seen[m.starter().index()] = true;
            m.next_round();
        }
        assert_eq!(seen, [true, true]);
    }
}
