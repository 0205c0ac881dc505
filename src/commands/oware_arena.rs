//! `mancala arena --game oware`: rounds of Oware between two computer
//! players, reported as the Kalah arena reports them.

use std::sync::Arc;
use std::time::Instant;

use super::arena::{ArenaResult, MoveBudget, starter};
use crate::players::PlayerKind;
use crate::players::oware::{OwareEndgame, OwarePlayer, oware_player};
use crate::rng::Rng;
use crate::rules::oware::{OwareBoard, OwareRound, OwareRules};

/// Seeds on the board up to which `perfect` knows every exact value in
/// the arena (built once, before the first round).
pub const ARENA_ENDGAME_SEEDS: usize = 8;

/// Plays `rounds` rounds of Oware of `kinds[0]` (A, South) against
/// `kinds[1]` (B): South starts the even rounds, North the odd ones. A
/// round ends by the rules (25 seeds, no feeding move, a repetition).
///
/// # Errors
/// A message when a kind is not an Oware computer player.
pub fn play(
    kinds: [PlayerKind; 2],
    rounds: u32,
    seed: u64,
    budget: MoveBudget,
    endgame: &Arc<OwareEndgame>,
    mut progress: impl FnMut(u32),
) -> Result<ArenaResult, String> {
    let mut seeds = Rng::new(seed);
    let mut players: Vec<OwarePlayer> = Vec::with_capacity(2);
    for (i, kind) in kinds.into_iter().enumerate() {
        let player =
            oware_player(kind, seed.wrapping_add(i as u64), endgame)?.ok_or_else(|| {
                format!("'{kind}' is not a computer player (the arena has no keyboard)")
            })?;
        players.push(player);
    }
    let mut result = ArenaResult::new(kinds);
    for round in 0..rounds {
        let starter = starter(round);
        let mut play = OwareRound::new(OwareBoard::starting(OwareRules::ABAPA, starter));
        while !play.board().is_over() {
            let board = *play.board();
            let mover = board.to_move();
            let limits = budget.limits(&mut seeds);
            let started = Instant::now();
            let chosen = players[mover.index()].choose(&board, &limits);
            result.move_times[mover.index()].add(started.elapsed());
            // As in Kalah's arena: a player that gives up has its first
            // legal house played.
            let Some(pit) = chosen
                .filter(|&p| board.legal_moves().contains(p))
                .or_else(|| board.legal_moves().next())
            else {
                break;
            };
            play.play(pit).map_err(|e| e.to_string())?;
        }
        let score = play.board().score();
        result.add_round(i32::from(score.south) - i32::from(score.north), starter);
        progress(round + 1);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_whole_and_repeatable_and_the_search_beats_random() {
        let db = Arc::new(OwareEndgame::build(4));
        let run = |kinds| play(kinds, 4, 3, MoveBudget::Nodes(3_000), &db, |_| {}).unwrap();
        let first = run([PlayerKind::Medium, PlayerKind::Random]);
        assert_eq!(first, run([PlayerKind::Medium, PlayerKind::Random]));
        assert_eq!(first.rounds, 4);
        assert_eq!(first.a.wins + first.a.draws + first.a.losses, 4);
        assert_eq!(first.a.wins, 4, "{}", first.summary());
        let greedy = run([PlayerKind::Greedy, PlayerKind::Random]);
        assert!(greedy.a.wins >= 3, "{}", greedy.summary());
        let err = play(
            [PlayerKind::Level(3), PlayerKind::Random],
            1,
            1,
            MoveBudget::Nodes(10),
            &db,
            |_| {},
        )
        .unwrap_err();
        assert!(err.contains("Kalah's"), "{err}");
    }
}
