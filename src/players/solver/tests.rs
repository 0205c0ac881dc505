use super::*;
use crate::players::TurnFn;
use crate::players::random_position;
use crate::players::search::{AfterMove as ChildNext, Children};
use crate::rng::{Rng, TestMap};
use crate::rules::{Capture, Rules, Side, Sowing, Sweep};

/// Plain minimax to the end (memoised on the whole board): the value and
/// every best move.
fn brute(board: &Board) -> (i32, Vec<Pit>) {
    brute_memo(board, &mut TestMap::default())
}

/// As [`brute`], with the values found kept in `memo` for the next call
/// under the same rules.
fn brute_memo(board: &Board, memo: &mut TestMap<Board, i32>) -> (i32, Vec<Pit>) {
    let me = board.to_move();
    let base = board.score().margin(me);
    let mut best = i32::MIN;
    let mut moves = Vec::new();
    for child in Children::new(board).as_slice() {
        let rest = match child.next {
            ChildNext::Over => 0,
            _ => {
                let v = match memo.get(&child.board) {
                    Some(&v) => v,
                    None => {
                        let v = brute_memo(&child.board, memo).0;
                        memo.insert(child.board, v);
                        v
                    }
                };
                v - child.board.score().margin(child.board.to_move())
            }
        };
        let v = base + child.value(rest);
        if v > best {
            best = v;
            moves.clear();
        }
        if v == best {
            moves.push(child.pit);
        }
    }
    (best, moves)
}

fn first_player_value(rules: Rules) -> i32 {
    let mut solver = Solver::new(64 << 20);
    solver.value(&Board::new(rules), &Limits::none()).unwrap()
}

#[test]
fn solver_reproduces_kalah_6_3_capture_nonempty() {
    let rules = Rules::new(6, 3).unwrap().with_capture(Capture::NonEmpty);
    assert_eq!(first_player_value(rules), 2);
}

#[test]
fn solver_reproduces_kalah_6_3_capture_always() {
    assert_eq!(first_player_value(Rules::new(6, 3).unwrap()), 2);
}

/// Issue 4's proven values (first player's final margin with perfect
/// play): (pits, seeds, capture nonempty, capture always). Kalah(6,3) has
/// tests of its own above; Kalah(6,4) is benchmark-only.
const KNOWN_VALUES: [(usize, usize, i32, i32); 9] = [
    (3, 1, 0, 0),
    (3, 2, 4, 4),
    (3, 3, 2, 2),
    (4, 1, 2, 2),
    (4, 2, 6, 6),
    (4, 3, 6, 8),
    (4, 4, 2, 2),
    (6, 1, 2, 2),
    (6, 2, 6, 10),
];

#[test]
fn solver_reproduces_the_known_values_under_both_capture_rules() {
    for (pits, seeds, nonempty, always) in KNOWN_VALUES {
        for (capture, value) in [(Capture::NonEmpty, nonempty), (Capture::Always, always)] {
            let rules = Rules::new(pits, seeds).unwrap().with_capture(capture);
            assert_eq!(
                first_player_value(rules),
                value,
                "Kalah({pits},{seeds}) capture {capture}"
            );
        }
    }
}

#[test]
fn threads_sharing_split_points_find_the_same_values_and_moves() {
    // split points everywhere the table is used, so that small boards
    // exercise the hand-over, the cutoffs that stop other threads, and
    // helping below one's own split point
    let mut rng = Rng::new(77);
    let variants = [
        Rules::new(4, 3).unwrap(),
        Rules::new(5, 3).unwrap().with_capture(Capture::NonEmpty),
        Rules::new(4, 3).unwrap().with_sowing(Sowing::Relay),
        Rules::new(4, 4).unwrap().with_sweep(Sweep::None),
    ];
    for rules in variants {
        let mut alone = Solver::new(8 << 20).with_threads(1).with_endgame_seeds(4);
        let mut shared = Solver::new(8 << 20)
            .with_threads(3)
            .with_endgame_seeds(4)
            .with_split_above(0);
        let mut splits = 0;
        for _ in 0..12 {
            let plies = rng.below(6);
            let board = random_position(&mut rng, Board::new(rules), plies);
            let expected = alone.solve(&board, &Limits::none()).unwrap();
            let got = shared.solve(&board, &Limits::none()).unwrap();
            splits += shared.splits;
            assert_eq!(
                (got.value, &got.best),
                (expected.value, &expected.best),
                "{board:?}"
            );
        }
        assert!(splits > 0, "{rules:?}: no split point was made");
    }
}

#[test]
fn solver_agrees_with_brute_force_on_random_positions_of_every_variant() {
    let mut rng = Rng::new(2024);
    let variants = [
        Rules::new(3, 2).unwrap(),
        Rules::new(3, 2).unwrap().with_capture(Capture::NonEmpty),
        Rules::new(3, 3).unwrap().with_capture(Capture::Never),
        Rules::new(3, 2).unwrap().with_sowing(Sowing::Relay),
        Rules::new(3, 2).unwrap().with_sweep(Sweep::None),
        Rules::new(4, 2)
            .unwrap()
            .with_sowing(Sowing::Relay)
            .with_capture(Capture::Never)
            .with_sweep(Sweep::None),
    ];
    for rules in variants {
        let memo = &mut TestMap::default();
        // no database, a small one (the search above it: peeks, plain
        // search, table), and the default one
        for (threads, endgame) in [(1, Some(0)), (2, Some(4)), (1, None), (2, None)] {
            let solver = Solver::new(MIN_MEMORY).with_threads(threads);
            let mut solver = match endgame {
                Some(seeds) => solver.with_endgame_seeds(seeds),
                None => solver,
            };
            for _ in 0..25 {
                let start =
                    Board::starting(rules, if rng.coin() { Side::South } else { Side::North });
                let plies = rng.below(8);
                let board = random_position(&mut rng, start, plies);
                let solution = solver.solve(&board, &Limits::none()).unwrap();
                if board.is_over() {
                    assert_eq!(solution.value, board.score().margin(board.to_move()));
                    assert!(solution.best.is_empty());
                    continue;
                }
                let (value, best) = brute_memo(&board, memo);
                assert_eq!(
                    (solution.value, &solution.best),
                    (value, &best),
                    "{board:?}"
                );
                let (pit, v) = solver.best_move(&board, &Limits::none()).unwrap();
                assert_eq!(v, value);
                assert!(best.contains(&pit));
            }
        }
    }
}

/// The database's future margin of `board` plus its store margin is the
/// brute-force value.
fn assert_database_matches_brute_force(db: &Endgame, board: &Board, counter: &mut Counter) {
    let (value, _) = brute(board);
    let pos = Compact::from_board(board).unwrap();
    let future = db.value(&pos, counter);
    let margin = board.score().margin(board.to_move());
    assert_eq!(future + margin, value, "{} {board:?}", board.rules());
}

#[test]
fn endgame_database_matches_brute_force() {
    // built eagerly for single sowing (every capture rule and sweep), and
    // lazily for relay sowing
    let variants = [
        Rules::new(3, 2).unwrap().with_capture(Capture::NonEmpty),
        Rules::new(3, 2).unwrap(),
        Rules::new(3, 2).unwrap().with_capture(Capture::Never),
        Rules::new(3, 2).unwrap().with_sweep(Sweep::None),
        Rules::new(3, 2).unwrap().with_sowing(Sowing::Relay),
    ];
    for rules in variants {
        let mut memory = EndgameMemory::new(CompactRules::new(rules), 6);
        let db = memory.database();
        let total = AtomicU64::new(0);
        let limits = Limits::none();
        let mut counter = Counter::new(&limits, &total);
        db.fill_all(&mut counter);
        assert_eq!(db.bytes() as u64, endgame::entries(3, 6));
        assert_eq!(db.bytes(), 924);
        // every position with seeds on both sides is filled: C(12,6) splits
        // of at most 6 seeds over 6 pits, less the C(9,3) with South's pits
        // empty and the C(9,3) with North's, plus the empty board counted
        // twice
        let in_play = 924 - 84 - 84 + 1;
        assert_eq!(db.known(), in_play, "{rules}");
        assert_eq!(db.ready(), 6);
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let mut cells = [0u16; 8];
            for _ in 0..rng.below(7) {
                let pit = [0, 1, 2, 4, 5, 6][rng.below(6)];
                cells[pit] += 1;
            }
            cells[3] = rng.below(5) as u16;
            cells[7] = rng.below(5) as u16;
            let side = if rng.coin() { Side::South } else { Side::North };
            let board = Board::from_counts(rules, &cells, side).unwrap();
            if board.is_over() {
                continue;
            }
            assert_database_matches_brute_force(&db, &board, &mut counter);
        }
        assert_eq!(db.known(), in_play, "nothing new computed after the build");
    }
}

#[test]
fn a_bigger_endgame_database_matches_brute_force_on_kalah_6() {
    // Kalah(6,n) positions of up to 9 seeds, both capture rules: the
    // eager build, split over two threads, against plain minimax
    for capture in [Capture::NonEmpty, Capture::Always] {
        let rules = Rules::new(6, 4).unwrap().with_capture(capture);
        let mut memory = EndgameMemory::new(CompactRules::new(rules), 9);
        let db = memory.database();
        db.build(2, u8::MAX, &Limits::none(), &AtomicU8::new(0));
        assert_eq!(db.ready(), 9);
        assert_eq!(db.bytes() as u64, endgame::entries(6, 9));
        assert_eq!(db.bytes(), 293_930);
        let total = AtomicU64::new(0);
        let limits = Limits::none();
        let mut counter = Counter::new(&limits, &total);
        let mut rng = Rng::new(9);
        let mut checked = 0;
        while checked < 150 {
            let mut cells = [0u16; 14];
            for _ in 0..1 + rng.below(9) {
                let pit = rng.below(13);
                cells[if pit >= 6 { pit + 1 } else { pit }] += 1;
            }
            cells[6] = rng.below(20) as u16;
            cells[13] = rng.below(20) as u16;
            let side = if rng.coin() { Side::South } else { Side::North };
            let board = Board::from_counts(rules, &cells, side).unwrap();
            if board.is_over() {
                continue;
            }
            assert_database_matches_brute_force(&db, &board, &mut counter);
            checked += 1;
        }
        assert_eq!(counter.nodes, 0, "every entry was built");
    }
}

#[test]
fn a_stopped_solver_reports_bounds_and_the_player_still_moves() {
    let board = Board::new(Rules::new(6, 3).unwrap());
    let mut solver = Solver::new(MIN_MEMORY).with_threads(1);
    assert_eq!(solver.value(&board, &Limits::nodes(100)), None);
    let Some(SolveOutcome::Bounds {
        lower,
        upper,
        nodes,
    }) = solver.solve_bounded(&board, &Limits::nodes(20_000), true)
    else {
        panic!("stopped");
    };
    assert!(lower <= 2 && 2 <= upper && lower >= -36 && upper <= 36);
    assert_eq!(nodes, 20_000);
    let limits = Limits::none();
    limits.stop.store(true, Ordering::Relaxed);
    let mut player = PerfectPlayer::with_solver(Solver::new(MIN_MEMORY));
    let pit = player.choose(&board, &limits).unwrap();
    assert!(board.legal_moves().contains(pit));
}

#[test]
fn one_thread_counts_the_same_nodes_every_time() {
    let board = Board::new(Rules::new(5, 3).unwrap());
    let run = || {
        let mut solver = Solver::new(8 << 20).with_threads(1);
        let s = solver.solve(&board, &Limits::none()).unwrap();
        (s.value, s.best, s.nodes)
    };
    let first = run();
    assert!(first.2 > 1000);
    assert_eq!(run(), first);
}

/// Positions a one-thread solve of Kalah(6,3) searches (value and best
/// moves), for each capture rule.
fn kalah_6_3_positions(capture: Capture) -> u64 {
    let board = Board::new(Rules::new(6, 3).unwrap().with_capture(capture));
    // the whole table (8 MiB) from the start, as these counts were taken
    let mut solver = Solver::new(DEFAULT_SOLVE_MEMORY)
        .with_threads(1)
        .with_small_table_nodes(0);
    let s = solver.solve(&board, &Limits::none()).unwrap();
    assert_eq!((s.value, s.best.len()), (2, 1), "capture {capture:?}");
    s.nodes
}

#[test]
fn transposition_cutoffs_wherever_the_table_is_used_spare_positions() {
    // with them only from 30 seeds on: 1.88 M (nonempty) and 1.55 M (always)
    let nonempty = kalah_6_3_positions(Capture::NonEmpty);
    let always = kalah_6_3_positions(Capture::Always);
    assert!(nonempty < 1_700_000, "{nonempty} positions");
    assert!(always < 1_450_000, "{always} positions");
}

#[test]
fn moves_that_gain_seeds_are_searched_first() {
    // a move sowing into the store gains a seed as a capture of an empty
    // pit does; a seed gained weighs as three pits nearer the store.
    // Whole table, one thread: 1.42 M positions (nonempty) and 0.55 M
    // (always); ranked strictly by gain, 1.65 M and 0.67 M; with such moves
    // below every capture, 1.64 M and 1.30 M
    let nonempty = kalah_6_3_positions(Capture::NonEmpty);
    let always = kalah_6_3_positions(Capture::Always);
    assert!(nonempty < 1_550_000, "{nonempty} positions");
    assert!(always < 620_000, "{always} positions");
}

#[test]
fn a_solve_stopped_before_its_search_starts_searches_nothing() {
    // a pondering player stopped while its database is built answers at
    // once: no search starts on the fresh table
    let board = Board::new(Rules::new(6, 3).unwrap());
    let limits = Limits::none();
    limits.stop.store(true, Ordering::Relaxed);
    let mut solver = Solver::new(8 << 20).with_threads(1);
    let Some(SolveOutcome::Bounds {
        lower,
        upper,
        nodes,
    }) = solver.solve_bounded(&board, &limits, true)
    else {
        panic!("stopped");
    };
    assert_eq!(nodes, 0);
    assert!(lower <= 2 && 2 <= upper);
}

#[test]
fn the_progress_counts_positions_while_the_first_probe_runs() {
    // Kalah(6,6)'s first probe takes far longer than this test waits: a
    // progress line must still see the positions searched so far
    let board = Board::new(Rules::new(6, 6).unwrap());
    let mut solver = Solver::new(16 << 20).with_threads(1);
    let progress = solver.progress();
    let limits = Limits::none();
    let stop = Arc::clone(&limits.stop);
    let search = std::thread::spawn(move || solver.solve_bounded(&board, &limits, false));
    let waited = Instant::now();
    while progress.nodes() < 100_000 && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let seen = progress.nodes();
    let bounds = progress.bounds();
    stop.store(true, Ordering::Relaxed);
    let outcome = search.join().unwrap();
    assert!(seen >= 100_000, "only {seen} positions seen in 20 s");
    assert_eq!(bounds, Some((-72, 72)), "still in the first probe");
    assert!(matches!(outcome, Some(SolveOutcome::Bounds { .. })));
}

#[test]
fn a_big_board_the_table_does_not_know_starts_mtdf_near_its_value() {
    // the values the solver proves for Kalah(6,4) (README, `mancala solve`)
    for (capture, value) in [(Capture::NonEmpty, 8), (Capture::Always, 10)] {
        let board = Board::new(Rules::KALAH.with_capture(capture));
        let total = AtomicU64::new(0);
        let guess = first_guess(&board, 48, &Limits::none(), &total);
        assert!((guess - value).abs() <= 2, "{capture:?}: guessed {guess}");
        let searched = total.load(Ordering::Relaxed);
        assert!(
            (1..=GUESS_NODES).contains(&searched),
            "{searched} positions"
        );
    }
}

#[test]
fn small_boards_and_small_budgets_start_mtdf_at_the_margin_without_a_search() {
    let total = AtomicU64::new(0);
    let mut board = Board::new(Rules::new(6, 3).unwrap());
    board
        .play(board.rules().pit(Side::South, 4).unwrap())
        .unwrap();
    let margin = board.score().margin(board.to_move());
    assert_eq!(first_guess(&board, 35, &Limits::none(), &total), margin);
    let big = Board::new(Rules::KALAH);
    let budget = Limits::nodes(GUESS_NODES);
    assert_eq!(first_guess(&big, 48, &budget, &total), 0);
    assert_eq!(total.load(Ordering::Relaxed), 0);
}

#[test]
fn the_listing_of_the_best_moves_is_offered_to_every_thread() {
    let rules = Rules::new(6, 3).unwrap();
    let board = Board::new(rules);
    let alone = Solver::new(16 << 20)
        .with_threads(1)
        .solve(&board, &Limits::none())
        .unwrap();
    let mut solver = Solver::new(16 << 20)
        .with_threads(2)
        .with_endgame_seeds(4)
        .with_split_above(0);
    let value = solver.value(&board, &Limits::none()).unwrap();
    // The table is left knowing the root's value only, so the solve's one
    // search is the listing and each move needs a proof of its own (the
    // value's search may have left every other move's bound, depending on
    // how the threads ran).
    let pos = Compact::from_board(&board).unwrap();
    let key = key_of(&pos, wide_keys(6));
    let table = Solver::table_view(&mut solver.table, solver.small_view);
    let root = table.probe(key).unwrap();
    table.clear();
    table.store(key, root);
    let solution = solver.solve(&board, &Limits::none()).unwrap();
    assert_eq!((solution.value, &solution.best), (value, &alone.best));
    assert!(
        solver.splits > 0,
        "the listing offered no move to the other thread"
    );
}

#[test]
fn a_small_problem_is_searched_in_a_small_table_and_a_big_one_in_the_whole() {
    let board = Board::new(Rules::new(6, 3).unwrap());
    let solved = |solver: &mut Solver| {
        let s = solver.solve(&board, &Limits::none()).unwrap();
        let e = board.rules().pit(Side::South, 5).unwrap();
        assert_eq!((s.value, s.best), (2, vec![e]));
        s.nodes
    };
    // Kalah(6,3) is solved within the first 1 MiB of its 8 MiB table
    let mut small = Solver::new(DEFAULT_SOLVE_MEMORY).with_threads(1);
    let nodes = solved(&mut small);
    assert!(small.small_view, "{nodes} positions left the small table");
    assert_eq!(small.table.as_ref().unwrap().bytes(), 8 << 20);
    // past its budget of positions it goes on in the whole table, from
    // the bounds proven
    let mut big = Solver::new(DEFAULT_SOLVE_MEMORY)
        .with_threads(1)
        .with_small_table_nodes(100_000);
    let nodes = solved(&mut big);
    assert!(!big.small_view);
    assert!(nodes > 100_000);
    let pos = Compact::from_board(&board).unwrap();
    let whole = Solver::table_view(&mut big.table, false);
    assert_eq!(whole.probe(key_of(&pos, false)).map(|e| e.lower), Some(2));
    // a budget of the caller's below the small table's is a stop, not a
    // reason to leave the small table
    let mut budget = Solver::new(DEFAULT_SOLVE_MEMORY).with_threads(1);
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::none()
    };
    let outcome = budget.solve_bounded(&board, &limits, true).unwrap();
    assert!(
        matches!(outcome, SolveOutcome::Bounds { .. }),
        "{outcome:?}"
    );
    // its table is what the budget can fill: no bigger than the small one
    assert!(budget.small_view || budget.table.as_ref().unwrap().bytes() <= SMALL_TABLE_BYTES);
    // Kalah(6,4) (55 M positions) starts in the whole table
    let mut kalah = Solver::new(DEFAULT_SOLVE_MEMORY);
    kalah.prepare(CompactRules::new(Rules::KALAH));
    assert!(!kalah.small_view);
}

#[test]
fn the_table_is_sized_to_the_game_not_to_the_memory_allowed() {
    // Kalah(6,3) searches the same positions with 8 MiB as with 64 MiB
    // (1.87 M): more only costs the clearing of pages never needed
    let mut solver = Solver::new(DEFAULT_SOLVE_MEMORY);
    solver.prepare(CompactRules::new(Rules::new(6, 3).unwrap()));
    let table = solver.table.as_ref().unwrap().bytes();
    assert_eq!(table, 8 << 20);
    // the 11-seed database: C(23, 12) positions of a byte
    assert_eq!(solver.memory_used(), table + 1_352_078);
    // Kalah(6,4) keeps its 512 MiB, within the memory allowed
    solver.prepare(CompactRules::new(Rules::KALAH));
    assert_eq!(solver.table.as_ref().unwrap().bytes(), 512 << 20);
    let mut small = Solver::new(128 << 20);
    small.prepare(CompactRules::new(Rules::KALAH));
    assert!(small.memory_used() <= 128 << 20);
}

#[test]
fn a_players_solver_plans_for_its_database_and_a_small_table_on_kalah_6_4() {
    // `perfect` and the hints: a 16-seed database, two steps below a
    // solve's 18 (built before the game leaves the book, where the 18
    // seeds were not under load), and a table of what pondering needs,
    // where it had 512 MiB (565 MB resident in a game against a person)
    let mut player = Solver::new(DEFAULT_PLAYER_MEMORY).growing();
    player.prepare(CompactRules::new(Rules::KALAH));
    assert_eq!(player.table_bytes, PLAYER_TABLE_BYTES);
    let database = player.endgame.as_mut().unwrap();
    assert_eq!(database.database().max_seeds(), 16);
    // C(28, 12) positions of a byte
    assert_eq!(database.bytes(), 30_421_755);
    assert!(database.bytes() + player.table_bytes < 100 << 20);
    // a solve keeps its 18 seeds and the table sized to the game
    let mut solve = Solver::new(DEFAULT_PLAYER_MEMORY);
    solve.prepare(CompactRules::new(Rules::KALAH));
    assert_eq!(solve.endgame.as_mut().unwrap().database().max_seeds(), 18);
    assert!(solve.table_bytes > 256 << 20);
    // an explicit limit and a smaller database scale
    let mut small = Solver::new(DEFAULT_PLAYER_MEMORY)
        .with_table_limit(1 << 20)
        .with_endgame_scale(1);
    small.prepare(CompactRules::new(Rules::KALAH));
    assert_eq!(small.table_bytes, 1 << 20);
    assert_eq!(small.endgame.as_mut().unwrap().database().max_seeds(), 16);
}

#[test]
fn a_growing_solver_searches_with_the_levels_built_and_grows_the_rest_on_other_time() {
    // Kalah(6,4) in 64 MiB: a 15-seed database and a 47 MiB table. A
    // growing solver searches with its first 13 levels and a 32 MiB table,
    // building no more before a search however long it may grow, and finds
    // the same value and moves as a solver that built all 15 first.
    let rules = Rules::KALAH.with_capture(Capture::NonEmpty);
    let counts = [3, 0, 2, 1, 4, 1, 15, 2, 1, 0, 3, 2, 1, 13];
    let board = Board::from_counts(rules, &counts, Side::South).unwrap();
    let mut whole = Solver::new(64 << 20).with_threads(2);
    // sized to the whole game, as a growing solver is (a solve alone is
    // sized to the seeds in play)
    whole.prepare(CompactRules::new(rules));
    let expected = whole.solve(&board, &Limits::none()).unwrap();
    assert_eq!(whole.endgame().0, 15);
    let mut growing = Solver::new(64 << 20)
        .with_threads(2)
        .with_endgame_slice(Duration::from_secs(60));
    let found = growing.solve(&board, &Limits::none()).unwrap();
    assert_eq!((found.value, &found.best), (expected.value, &expected.best));
    assert_eq!(growing.endgame().0, FIRST_DB_SEEDS, "nothing built first");
    let table_bytes = |s: &Solver| s.table.as_ref().unwrap().bytes();
    assert_eq!(
        table_bytes(&growing),
        GROWING_TABLE_BYTES,
        "a small table first"
    );
    assert!(!growing.is_warm(&board));
    // positions the first levels answer need no more of it
    let end = Board::from_counts(
        rules,
        &[1, 0, 0, 0, 0, 2, 25, 1, 1, 0, 0, 0, 0, 18],
        Side::North,
    )
    .unwrap();
    assert_eq!(growing.value(&end, &Limits::none()), Some(brute(&end).0));
    assert_eq!(growing.endgame().0, FIRST_DB_SEEDS);
    // once the database is complete, growing brings in the full-size table
    // beside the small one: searches keep the small one until it is all in
    growing.table.as_mut().unwrap().fault_in(|| false);
    growing.build_endgame(u8::MAX, &Limits::none());
    growing.grow(&board, &Limits::time(Duration::ZERO));
    assert_eq!(
        table_bytes(&growing),
        GROWING_TABLE_BYTES,
        "still the small one"
    );
    assert!(growing.pending_table.is_some());
    assert_eq!(
        growing.memory_used(),
        GROWING_TABLE_BYTES + whole.memory_used(),
        "both tables count while the full one comes in"
    );
    assert!(growing.is_ready_to_search(&board) && !growing.is_warm(&board));
    let again = growing.solve(&board, &Limits::none()).unwrap();
    assert_eq!((again.value, &again.best), (expected.value, &expected.best));
    // warming up finishes it: then the full one
    assert_eq!(growing.warm_up(&board, &Limits::none()), Some(true));
    assert_eq!(growing.endgame().0, 15);
    assert_eq!(table_bytes(&growing), table_bytes(&whole), "the full one");
    assert!(growing.pending_table.is_none());
    let again = growing.solve(&board, &Limits::none()).unwrap();
    assert_eq!((again.value, &again.best), (expected.value, &expected.best));
}

#[test]
fn growing_builds_the_first_levels_and_brings_in_the_small_table_before_the_rest() {
    // Kalah(6,4) in 64 MiB (15 seeds): slices of growing make the solver
    // ready to search (13 levels, the small table in) before the database
    // is complete, and no slice goes back
    let board = Board::new(Rules::KALAH);
    let mut growing = Solver::new(64 << 20)
        .with_threads(2)
        .with_endgame_slice(Duration::from_millis(5));
    assert!(!growing.is_ready_to_search(&board));
    let place = |s: &Solver| {
        let e = s.endgame.as_ref().unwrap();
        (e.ready(), e.resumed_at())
    };
    let mut slices = 0;
    let mut last = (0, 0);
    while !growing.is_ready_to_search(&board) {
        growing.grow(&board, &Limits::none());
        slices += 1;
        assert!(slices < 10_000, "ready in time");
        let now = place(&growing);
        assert!(now >= last, "{now:?} after {last:?}");
        last = now;
    }
    assert_eq!(growing.endgame().0, FIRST_DB_SEEDS);
    assert!(growing.table.as_ref().unwrap().is_faulted_in());
    assert!(!growing.is_warm(&board));
    // a search now starts at once: it builds nothing (with time to build
    // more levels, which a solve that is not growing would use)
    let past_book = [3, 0, 2, 1, 4, 1, 15, 2, 1, 0, 3, 2, 1, 13];
    let past_book = Board::from_counts(*board.rules(), &past_book, Side::South).unwrap();
    growing.solve(&past_book, &Limits::time(Duration::from_millis(300)));
    assert_eq!(place(&growing), last);
}

#[test]
fn kalah_6_5_in_8_gib_has_a_26_seed_database_beside_its_whole_table() {
    let memory = 8usize << 30;
    assert_eq!(endgame::seeds_for(6, 60, database_budget(memory)), 26);
    // C(38, 12) positions of a byte, and the 4 GiB table: 7.0 GB
    assert!(2_707_475_148 + (1u64 << table_bits(60)) <= memory as u64);
    // Kalah(6,4)'s is sized to its game, not to the memory
    let mut solver = Solver::new(DEFAULT_SOLVE_MEMORY);
    solver.prepare(CompactRules::new(Rules::KALAH));
    assert_eq!(solver.endgame.as_ref().unwrap().ready(), 0);
    assert_eq!(solver.endgame.as_ref().unwrap().bytes(), 86_493_225);
}

#[test]
fn the_bracket_proves_bounds_from_the_outside_in() {
    let mut bracket = Bracket::new(72, BRACKET_MIN_SEEDS);
    let betas: Vec<i32> =
        std::iter::from_fn(|| (bracket.step > 0).then(|| bracket.next(2))).collect();
    // a lower bound below the guess, then an upper one above it, closer each time
    assert_eq!(betas, [-14, 19, -6, 11, -2, 7, 0, 5, 1, 4]);
    assert_eq!(
        Bracket::new(60, BRACKET_MIN_SEEDS).step,
        0,
        "Kalah(6,5) goes straight to its guess"
    );
}

#[test]
fn a_bracketed_solve_finds_the_same_answer_and_proves_a_bound_sooner() {
    for capture in [Capture::NonEmpty, Capture::Always] {
        let board = Board::new(Rules::new(6, 3).unwrap().with_capture(capture));
        let plain = Solver::new(64 << 20)
            .with_threads(1)
            .solve(&board, &Limits::none());
        let bracketed = Solver::new(64 << 20)
            .with_threads(1)
            .with_bracket_from(0)
            .solve(&board, &Limits::none());
        let (plain, bracketed) = (plain.unwrap(), bracketed.unwrap());
        assert_eq!(
            (plain.value, &plain.best),
            (bracketed.value, &bracketed.best)
        );
    }
    // stopped after 300,000 positions, Kalah(6,4) has proven nothing
    // straight from its guess (0: the budget is too small for a heuristic
    // one), and 16 below it when bracketed
    let board = Board::new(Rules::KALAH.with_capture(Capture::NonEmpty));
    let bounds = |from| {
        let mut solver = Solver::new(256 << 20)
            .with_threads(1)
            .with_bracket_from(from);
        match solver.solve_bounded(&board, &Limits::nodes(300_000), true) {
            Some(SolveOutcome::Bounds { lower, upper, .. }) => (lower, upper),
            other => panic!("stopped: {other:?}"),
        }
    };
    assert_eq!(bounds(BRACKET_MIN_SEEDS), (-48, 48));
    assert_eq!(bounds(0), (-16, 48));
}

#[test]
fn two_sharing_players_of_one_process_build_and_hold_one_database() {
    // rules no other test shares a database of; a solve's database scale,
    // for more levels than the first
    let rules = Rules::new(4, 4).unwrap().with_sweep(Sweep::None);
    let board = Board::new(rules);
    let player = || Solver::new(64 << 20).growing().with_endgame_scale(DB_SCALE);
    let mut a = player().sharing();
    let mut b = player().sharing();
    assert_eq!(a.warm_up(&board, &Limits::none()), Some(true));
    let built = a.endgame().0;
    assert!(built > FIRST_DB_SEEDS, "{built} seeds");
    // the second finds every level built, in the same memory
    b.reserve(&board);
    assert_eq!(b.endgame().0, built);
    let (Some(HeldDatabase::Kept(x)), Some(HeldDatabase::Kept(y))) = (&a.endgame, &b.endgame)
    else {
        panic!("kept databases");
    };
    assert!(std::ptr::eq(*x, *y));
    // a solver of its own builds its own, and both answer the same
    let mut own = player();
    own.reserve(&board);
    assert_eq!(own.endgame().0, 0);
    let limits = Limits::none();
    assert_eq!(b.value(&board, &limits), own.value(&board, &limits));
}

#[test]
fn a_value_within_a_window_is_the_value_there_and_says_which_side_beyond() {
    // against brute force, on positions whose values fall inside, below
    // and above narrow windows; one solver throughout, so that its table
    // holds bounds wider than the windows asked (the case that once
    // clamped with the lower bound above the upper)
    let mut rng = Rng::new(35);
    let mut solver = Solver::new(8 << 20).with_endgame_seeds(4);
    let mut seen = [0; 3];
    for rules in [
        Rules::new(3, 3).unwrap(),
        Rules::new(3, 3).unwrap().with_capture(Capture::NonEmpty),
    ] {
        for _ in 0..20 {
            let plies = 2 + rng.below(6);
            let board = random_position(&mut rng, Board::new(rules), plies);
            let exact = brute(&board).0;
            for (lo, hi) in [(0, 0), (-2, 1), (exact, exact), (exact + 1, exact + 3)] {
                let got = solver
                    .value_within(&board, &Limits::none(), lo, hi)
                    .expect("solved");
                assert_eq!(got, exact.clamp(lo - 1, hi + 1), "{board:?} in {lo}..={hi}");
                seen[usize::from(exact >= lo) + usize::from(exact > hi)] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn a_budget_sizes_the_table_to_what_it_can_fill() {
    // no budget: the whole game's table
    assert_eq!(table_cap(&Limits::none(), 2), usize::MAX);
    // 1,000 positions fill 8 KB: the least table, 64 KiB
    assert_eq!(table_cap(&Limits::nodes(1000), 2), 1 << 16);
    // 100 ms on two threads: at most 100 ms × 16 M positions a second ×
    // 2 threads × 8 bytes, as a power of two (32 MiB), not the 512 MiB of
    // the whole Kalah(6,4) game
    let cap = table_cap(&Limits::time(Duration::from_millis(100)), 2);
    assert!((16 << 20..=32 << 20).contains(&cap), "{cap}");
    // the smaller of both budgets
    let both = Limits {
        nodes: Some(1000),
        ..Limits::time(Duration::from_millis(100))
    };
    assert_eq!(table_cap(&both, 2), 1 << 16);
    // a deadline passed already: the least table
    let passed = Limits {
        deadline: Some(Instant::now()),
        ..Limits::default()
    };
    assert_eq!(table_cap(&passed, 2), 1 << 16);
}

#[test]
fn a_passed_deadline_stops_the_search_within_one_look_at_the_clock() {
    let total = AtomicU64::new(0);
    let limits = Limits {
        deadline: Some(Instant::now()),
        ..Limits::default()
    };
    let mut counter = Counter::new(&limits, &total);
    let mut ticks = 0;
    while !counter.tick() {
        ticks += 1;
        assert!(ticks < CHECK_EVERY, "the deadline was not looked at");
    }
    assert!(counter.limited && counter.aborted);
    // once stopped it stays stopped
    assert!(counter.tick());
}

#[test]
fn a_solve_whose_deadline_passed_builds_and_searches_nothing() {
    let board = Board::new(Rules::KALAH);
    let limits = Limits {
        deadline: Some(Instant::now()),
        ..Limits::default()
    };
    let mut solver = Solver::new(DEFAULT_SOLVE_MEMORY).with_threads(1);
    let outcome = solver.solve_bounded(&board, &limits, true).unwrap();
    let SolveOutcome::Bounds { lower, upper, .. } = outcome else {
        panic!("solved with no time: {outcome:?}");
    };
    assert_eq!((lower, upper), (-48, 48));
    assert_eq!(solver.endgame().0, 0, "the database was built");
    // the table set up is the least one, not the game's 512 MiB
    let table = solver.table.as_ref().map_or(0, TableMemory::bytes);
    assert!(table <= 1 << 16, "{table} bytes of table");
}

#[test]
fn sharing_solvers_hold_one_table_and_find_each_others_bounds() {
    // rules no other test shares a table of
    let rules = Rules::new(4, 3)
        .unwrap()
        .with_capture(Capture::NonEmpty)
        .with_sweep(Sweep::None);
    let board = Board::new(rules);
    let mut a = Solver::new(16 << 20).growing().sharing();
    let mut b = Solver::new(16 << 20).sharing().with_threads(1);
    let value = a.value(&board, &Limits::none());
    b.reserve(&board);
    assert!(a.shares_memory_with(&b));
    // b's first look at the start finds a's proof: no search
    assert_eq!(b.value(&board, &Limits::none()), value);
    assert_eq!(b.nodes, 1, "found in the shared table");
    // its own memory: its own table, searched again
    let mut own = Solver::new(16 << 20).with_threads(1);
    assert_eq!(own.value(&board, &Limits::none()), value);
    assert!(own.nodes > 1000, "{} positions", own.nodes);
    assert!(!own.shares_memory_with(&a));
    // bringing a kept table in by atomic writes keeps its entries
    assert!(b.warm_up(&board, &Limits::none()).unwrap());
    assert!(b.table.as_ref().unwrap().is_faulted_in());
    assert_eq!(b.value(&board, &Limits::none()), value);
}
