//! The computer players' thinking, off the drawing thread.
//!
//! Each computer turn moves that seat's [`TurnFn`](crate::players::TurnFn) into a new thread with a
//! copy of the board; the thread sends the answer back over a channel
//! together with the turn function, which waits in its slot for the next
//! turn. The event loop checks the channel between frames, so nothing ever
//! blocks the screen, and quitting only sets the stop flag: it never waits
//! for a search to end.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::analysis::live::{Pause, PauseHeld};
use crate::game::{MatchConfig, SeatPlayer, seat_player_for};
use crate::players::{Advisor, Hint, Limits, MoveProof};
use crate::rules::{GameBoard, Pit, Side};

/// Something the screen asks the computer to think about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Choose `side`'s move in `board`.
    Move {
        /// Matches the [`Answer`].
        id: u64,
        /// Whose turn function to ask.
        side: Side,
        /// The position, in its family's rules.
        board: GameBoard,
    },
    /// Find the best move for the side to move in `board` (the `h` key).
    Hint {
        /// Matches the [`Answer`].
        id: u64,
        /// The position, in its family's rules.
        board: GameBoard,
    },
    /// Stop every search under way; their answers no longer matter. The
    /// players also stop thinking ahead (the position is gone: undo, redo).
    StopAll,
    /// Answer request `id` now with the best found so far ("move now").
    Hurry {
        /// The request to hurry.
        id: u64,
    },
}

/// What the computer came back with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The move chosen for a [`Request::Move`]; `None` if the turn function gave up.
    Move {
        /// The request's id.
        id: u64,
        /// The pit chosen.
        pit: Option<Pit>,
    },
    /// The move of [`Request::Move`] `id`, about to come, is not proven
    /// best (sent before its [`Answer::Move`], by players that prove moves).
    Unproven {
        /// The request's id.
        id: u64,
        /// How long the player thought.
        thought: Duration,
    },
    /// The advice for a [`Request::Hint`].
    Hint {
        /// The request's id.
        id: u64,
        /// The advice (`None` when the game is over).
        hint: Option<Hint>,
    },
}

enum Reply {
    Move {
        id: u64,
        side: Side,
        pit: Option<Pit>,
        player: SeatPlayer,
    },
    Hint {
        id: u64,
        hint: Option<Hint>,
    },
}

/// Runs the computer players' searches on worker threads. See the [module docs](self).
pub struct Worker {
    /// Each seat's turn function while it is at home (`None` for a human,
    /// or while it is out thinking).
    players: [Option<SeatPlayer>; 2],
    think: Duration,
    sender: Sender<Reply>,
    receiver: Receiver<Reply>,
    /// Stop flags of the searches under way, by request id.
    running: Vec<(u64, Arc<AtomicBool>)>,
    /// Threads out, whose replies have not come back yet.
    out: usize,
    /// A move request for a turn function that is still out on a stopped search.
    waiting: Option<(u64, Side, GameBoard)>,
    /// Answers given without a thread (the system refused one).
    failed: Vec<Answer>,
    /// How to rebuild a seat's turn function if its thread could not start.
    config: MatchConfig,
    seed: u64,
    /// The match's hint giver: its solver and engine tables are allocated
    /// on the first hint and kept for the next ones.
    advisor: Arc<Mutex<Advisor>>,
    /// Holds the round's analysis still while a search is out
    /// ([`Worker::pause_analysis`]).
    analysis: Option<Pause>,
    held: Option<PauseHeld>,
}

impl Worker {
    /// A worker for `config`'s computer seats, each thinking up to `think`
    /// per move; `seed` makes random players repeatable.
    #[must_use]
    pub fn new(config: &MatchConfig, think: Duration, seed: u64) -> Worker {
        let (sender, receiver) = mpsc::channel();
        let player = |side: Side| seat_player_for(config, seed, side);
        Worker {
            players: [player(Side::South), player(Side::North)],
            think,
            sender,
            receiver,
            running: Vec::new(),
            out: 0,
            waiting: None,
            failed: Vec::new(),
            config: config.clone(),
            seed,
            advisor: Arc::new(Mutex::new(Advisor::new())),
            analysis: None,
            held: None,
        }
    }

    /// Holds the analysis worked out as the round is played still with
    /// `pause` whenever a search is out, so that it never slows a move.
    pub fn pause_analysis(&mut self, pause: Option<Pause>) {
        self.analysis = pause;
    }

    /// A search goes out: the analysis stands still until every one is
    /// back.
    fn going_out(&mut self) {
        self.out += 1;
        if self.held.is_none() {
            self.held = self.analysis.as_ref().map(Pause::hold);
        }
    }

    fn limits(&mut self, id: u64) -> Limits {
        let stop = Arc::new(AtomicBool::new(false));
        self.running.push((id, Arc::clone(&stop)));
        Limits {
            deadline: Some(Instant::now() + self.think),
            nodes: None,
            stop,
        }
    }

    /// Starts work on a request.
    pub fn submit(&mut self, request: Request) {
        match request {
            Request::Move { id, side, board } => self.start_move(id, side, board),
            Request::Hint { id, board } => {
                let limits = self.limits(id);
                let sender = self.sender.clone();
                let advisor = Arc::clone(&self.advisor);
                self.going_out();
                let spawned = thread::Builder::new()
                    .name("mancala-hint".into())
                    .spawn(move || {
                        let mut advisor = advisor.lock().unwrap_or_else(|e| e.into_inner());
                        let hint = advisor.advise(&board, &limits);
                        let _ = sender.send(Reply::Hint { id, hint });
                    });
                if spawned.is_err() {
                    self.out -= 1;
                    self.failed.push(Answer::Hint { id, hint: None });
                }
            }
            Request::StopAll => self.stop_all(),
            Request::Hurry { id } => self.hurry(id),
        }
    }

    fn start_move(&mut self, id: u64, side: Side, board: GameBoard) {
        let Some(mut player) = self.players[side.index()].take() else {
            // Still out on a stopped search (or a human seat, which the
            // screen never asks about): try again when it comes back.
            self.waiting = Some((id, side, board));
            return;
        };
        let limits = self.limits(id);
        let sender = self.sender.clone();
        self.going_out();
        let spawned = thread::Builder::new()
            .name("mancala-think".into())
            .spawn(move || {
                let pit = player.choose(&board, &limits);
                let _ = sender.send(Reply::Move {
                    id,
                    side,
                    pit,
                    player,
                });
            });
        if spawned.is_err() {
            // The turn function went down with the closure: build a fresh
            // one, and answer "gave up" so that the screen plays on.
            self.out -= 1;
            self.players[side.index()] = seat_player_for(&self.config, self.seed, side);
            self.failed.push(Answer::Move { id, pit: None });
        }
    }

    /// Sets the stop flag of every search under way (quitting, undo, a new
    /// round), and stops the players at home thinking ahead.
    pub fn stop_all(&mut self) {
        for (_, flag) in self.running.drain(..) {
            flag.store(true, Ordering::Relaxed);
        }
        self.waiting = None;
        for player in self.players.iter_mut().flatten() {
            player.stop_thinking_ahead();
        }
    }

    /// Sets the stop flag of request `id`'s search, if it is under way: its
    /// answer comes at once with the best found so far, and still counts.
    pub fn hurry(&mut self, id: u64) {
        for (_, flag) in self.running.iter().filter(|(running, _)| *running == id) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a search is under way (the event loop then checks back often).
    #[must_use]
    pub fn busy(&self) -> bool {
        self.out > 0
    }

    /// The answers that have come back since the last call, without waiting.
    pub fn poll(&mut self) -> Vec<Answer> {
        let mut answers = std::mem::take(&mut self.failed);
        while let Ok(reply) = self.receiver.try_recv() {
            self.out = self.out.saturating_sub(1);
            match reply {
                Reply::Move {
                    id,
                    side,
                    pit,
                    player,
                } => {
                    if let Some(MoveProof::Unproven { thought }) = player.last_proof() {
                        answers.push(Answer::Unproven { id, thought });
                    }
                    self.players[side.index()] = Some(player);
                    answers.push(Answer::Move { id, pit });
                    if let Some((id, s, board)) = self.waiting
                        && s == side
                    {
                        self.waiting = None;
                        self.start_move(id, s, board);
                    }
                }
                Reply::Hint { id, hint } => answers.push(Answer::Hint { id, hint }),
            }
        }
        if self.out == 0 {
            self.running.clear();
            self.held = None;
        }
        answers
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FirstMover, Seat};
    use crate::players::PlayerKind;
    use crate::rules::{Board, Rules};

    fn config() -> MatchConfig {
        MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::KALAH,
            seats: [
                Seat::new("A", PlayerKind::Human),
                Seat::new("B", PlayerKind::Random),
            ],
            first: FirstMover::North,
            start: None,
        }
    }

    /// Asks `worker` for a hint in `board` under `id`; the one answer's
    /// hint (a panic naming the answers when it is anything else).
    fn hint_from(worker: &mut Worker, id: u64, board: GameBoard) -> Hint {
        worker.submit(Request::Hint { id, board });
        let answers = wait_for(worker);
        match answers[..] {
            [
                Answer::Hint {
                    id: answered,
                    hint: Some(hint),
                },
            ] if answered == id => hint,
            _ => panic!("{answers:?}"),
        }
    }

    fn wait_for(worker: &mut Worker) -> Vec<Answer> {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let answers = worker.poll();
            if !answers.is_empty() || Instant::now() > until {
                return answers;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_move_comes_back_with_its_id_and_the_player_is_reusable() {
        let config = config();
        let mut worker = Worker::new(&config, Duration::from_millis(100), 7);
        let board = Board::starting(config.rules, Side::North);
        for id in [3, 4] {
            worker.submit(Request::Move {
                id,
                side: Side::North,
                board: GameBoard::Kalah(board),
            });
            assert!(worker.busy());
            let answers = wait_for(&mut worker);
            let [
                Answer::Move {
                    id: got,
                    pit: Some(pit),
                },
            ] = answers[..]
            else {
                panic!("{answers:?}");
            };
            assert_eq!(got, id);
            assert!(board.legal_moves().contains(pit));
            assert!(!worker.busy());
        }
    }

    #[test]
    fn a_request_for_a_player_still_out_on_a_stopped_search_waits_for_it() {
        let config = config();
        let mut worker = Worker::new(&config, Duration::from_millis(100), 7);
        let board = Board::starting(config.rules, Side::North);
        worker.submit(Request::Move {
            id: 1,
            side: Side::North,
            board: GameBoard::Kalah(board),
        });
        worker.submit(Request::StopAll);
        // The turn function only comes home through poll(), so it is
        // certainly still out: this request has to wait for it.
        worker.submit(Request::Move {
            id: 2,
            side: Side::North,
            board: GameBoard::Kalah(board),
        });
        let mut seen = Vec::new();
        let until = Instant::now() + Duration::from_secs(10);
        while !seen.contains(&2) && Instant::now() < until {
            for answer in wait_for(&mut worker) {
                if let Answer::Move { id, .. } = answer {
                    seen.push(id);
                }
            }
        }
        assert_eq!(seen, [1, 2]);
        assert!(!worker.busy());
    }

    #[test]
    fn hints_are_worked_out_off_the_calling_thread() {
        let mut worker = Worker::new(&config(), Duration::from_millis(100), 7);
        let board = Board::new(Rules::KALAH);
        let hint = hint_from(&mut worker, 9, GameBoard::Kalah(board));
        assert!(board.legal_moves().contains(hint.pit));
    }

    #[test]
    fn hurrying_a_thinking_computer_brings_its_best_move_at_once() {
        // perfect on Kalah(6,6) with a minute to think: it could not prove
        // its move in that time; hurried, it answers with its best so far
        let config = MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::new(6, 6).unwrap(),
            seats: [
                Seat::new("A", PlayerKind::Human),
                Seat::new("B", PlayerKind::Perfect),
            ],
            first: FirstMover::North,
            start: None,
        };
        let mut worker = Worker::new(&config, Duration::from_secs(60), 7);
        let board = Board::starting(config.rules, Side::North);
        let answers = hurried_while_thinking(&mut worker, GameBoard::Kalah(board), |worker| {
            worker.submit(Request::Hurry { id: 4 });
            thread::sleep(Duration::from_millis(300));
            assert!(worker.poll().is_empty(), "another id hurries nothing");
        });
        let [
            Answer::Unproven { id: 5, .. },
            Answer::Move {
                id: 5,
                pit: Some(pit),
            },
        ] = answers[..]
        else {
            panic!("{answers:?}");
        };
        assert!(board.legal_moves().contains(pit));
    }

    /// North's move on `board` asked of `worker` (id 5); while it is still
    /// thinking, `meanwhile`, then the move hurried: the answers, which
    /// came within 3 s of the hurry.
    fn hurried_while_thinking(
        worker: &mut Worker,
        board: GameBoard,
        meanwhile: impl FnOnce(&mut Worker),
    ) -> Vec<Answer> {
        worker.submit(Request::Move {
            id: 5,
            side: Side::North,
            board,
        });
        thread::sleep(Duration::from_millis(300));
        assert!(worker.poll().is_empty() && worker.busy(), "still thinking");
        meanwhile(worker);
        let hurried = Instant::now();
        worker.submit(Request::Hurry { id: 5 });
        let answers = wait_for(worker);
        assert!(
            hurried.elapsed() < Duration::from_secs(3),
            "{:?}",
            hurried.elapsed()
        );
        answers
    }

    #[test]
    fn an_oware_computer_hurried_answers_at_once_and_oware_hints_come_back() {
        // hard on Oware with a minute to think: hurried, it answers with
        // its best house so far
        let config = MatchConfig {
            game: crate::rules::Game::Oware,
            rules: Rules::KALAH,
            seats: [
                Seat::new("A", PlayerKind::Human),
                Seat::new("B", PlayerKind::Hard),
            ],
            first: FirstMover::North,
            start: None,
        };
        let mut worker = Worker::new(&config, Duration::from_secs(60), 7);
        let board = config.start_round(Side::North).position();
        let answers = hurried_while_thinking(&mut worker, board, |_| {});
        let [
            Answer::Move {
                id: 5,
                pit: Some(pit),
            },
        ] = answers[..]
        else {
            panic!("{answers:?}");
        };
        assert!(board.check(pit).is_ok());
        // the person's hint in the same position, within the think time
        let mut worker = Worker::new(&config, Duration::from_millis(100), 7);
        let hint = hint_from(&mut worker, 6, board);
        assert!(board.check(hint.pit).is_ok());
        assert!(!hint.exact, "48 seeds are not proven in 100 ms");
    }
}
