//! The session without any front end: commands in, events out.

use std::time::Duration;

use super::*;
use crate::game::{FirstMover, Seat};
use crate::players::PlayerKind;
use crate::rules::{NoTrace, Rules};
use crate::store::SaveStore;

fn config(rules: Rules, north: PlayerKind) -> MatchConfig {
    MatchConfig {
        game: crate::rules::Game::Kalah,
        rules,
        seats: [
            Seat::new("Alice", PlayerKind::Human),
            Seat::new("Michael", north),
        ],
        first: FirstMover::South,
        start: None,
    }
}

fn session(rules: Rules, north: PlayerKind, keeper: Keeper) -> Session {
    Session::new(config(rules, north), 1, Duration::from_millis(10), keeper)
}

fn pit(letter: char) -> Pit {
    Rules::KALAH.pit_by_letter(letter).unwrap()
}

/// The moves among `events`: who made them and the pit.
fn moves(events: &[SessionEvent]) -> Vec<(MovedBy, char)> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Moved(m) => Some((m.by, Rules::KALAH.letter(m.played.pit()).unwrap())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_turn_is_asked_and_a_move_is_reported_with_its_trace() {
    let mut s = session(Rules::KALAH, PlayerKind::Human, Keeper::new(None));
    let events = s.start();
    assert!(
        matches!(events[0], SessionEvent::RoundOpened(..)),
        "{events:?}"
    );
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Move(Side::South)))
    );
    let events = s.handle(SessionCommand::Play(pit('c')));
    let SessionEvent::Moved(moved) = &events[0] else {
        panic!("{events:?}");
    };
    let mut expected = Vec::new();
    let mut board = Board::new(Rules::KALAH);
    board.play_traced(pit('c'), &mut expected).unwrap();
    assert_eq!(
        (moved.by, &moved.steps, moved.after),
        (MovedBy::Person, &expected, board)
    );
    // c ends in the store: Alice again.
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Move(Side::South)))
    );
    let events = s.handle(SessionCommand::Play(pit('c')));
    assert_eq!(
        events,
        vec![
            SessionEvent::Refused(MoveError::Empty),
            SessionEvent::Asked(Asking::Move(Side::South))
        ]
    );
}

#[test]
fn a_computer_answers_at_once_and_undo_and_redo_go_by_turn() {
    let mut s = session(Rules::KALAH, PlayerKind::Greedy, Keeper::new(None));
    s.start();
    let events = s.handle(SessionCommand::Play(pit('a')));
    let played = moves(&events);
    assert_eq!(played[0], (MovedBy::Person, 'a'));
    assert!(
        played[1..].iter().all(|(by, _)| matches!(
            by,
            MovedBy::Computer {
                fallback: false,
                ..
            }
        )),
        "{played:?}"
    );
    let after = *s.game().board();
    let events = s.handle(SessionCommand::Undo);
    assert!(
        matches!(&events[0], SessionEvent::TookBack(_, board) if *board == Board::new(Rules::KALAH))
    );
    let events = s.handle(SessionCommand::Redo);
    let redone = moves(&events);
    assert_eq!(redone.len(), played.len(), "{events:?}");
    assert!(redone.iter().all(|(by, _)| *by == MovedBy::Redone));
    assert_eq!(*s.game().board(), after);
    let events = s.handle(SessionCommand::Redo);
    assert!(
        matches!(&events[0], SessionEvent::Notice(n) if n.text == "There is no move to redo."),
        "{events:?}"
    );
}

#[test]
fn a_finished_round_asks_to_play_again_and_no_ends_the_match() {
    let mut s = session(
        Rules::KALAH.with_pits(2).unwrap(),
        PlayerKind::Random,
        Keeper::new(None),
    );
    s.start();
    while let Asking::Move(side) = s.asking() {
        let pit = s.game().board().legal_moves().next().unwrap();
        assert_eq!(side, Side::South);
        s.handle(SessionCommand::Play(pit));
    }
    assert_eq!(s.asking(), Asking::PlayAgain);
    assert_eq!(s.game().tally().rounds(), 1);
    assert_eq!(
        s.game().round(),
        2,
        "the match has moved on to the next round"
    );
    assert_eq!(
        s.handle(SessionCommand::Answer(false)),
        vec![SessionEvent::Ended(Ending::Finished { after_round: true })]
    );
    assert_eq!(s.asking(), Asking::Over);
    assert_eq!(
        s.handle(SessionCommand::Undo),
        Vec::new(),
        "nothing after the end"
    );
}

#[test]
fn quitting_mid_round_says_whether_the_match_is_saved() {
    let mut s = session(Rules::KALAH, PlayerKind::Human, Keeper::new(None));
    s.start();
    assert_eq!(
        s.handle(SessionCommand::Quit),
        vec![SessionEvent::Ended(Ending::Stopped { saved: false })]
    );
}

#[test]
fn a_saved_match_is_offered_and_resumed() {
    let scratch = crate::store::files::scratch("session-resume");
    let store = SaveStore::at(scratch.path()).unwrap();
    let mut saved = Match::new(config(Rules::KALAH, PlayerKind::Human), 1);
    saved.play(pit('a'), &mut NoTrace).unwrap();
    store.save(&saved).unwrap();
    let mut s = session(
        Rules::KALAH,
        PlayerKind::Human,
        Keeper::new(Some(store.clone())),
    );
    let events = s.start();
    assert_eq!(events.last(), Some(&SessionEvent::Asked(Asking::Resume)));
    assert_eq!(s.offered().map(Match::moves), Some(saved.moves()));
    let events = s.handle(SessionCommand::Answer(true));
    assert!(
        matches!(&events[0], SessionEvent::RoundOpened(said, board)
            if said.text.starts_with("Round 1 goes on after 1 move") && board == saved.board()),
        "{events:?}"
    );
    assert_eq!(s.game().moves(), saved.moves());
    // The next move is saved.
    s.handle(SessionCommand::Play(pit('h')));
    assert_eq!(
        store
            .load(s.game().config())
            .unwrap()
            .unwrap()
            .moves()
            .len(),
        2
    );
}

#[test]
fn a_pit_letter_is_the_pit_and_every_command_has_a_word() {
    let twelve = Rules::KALAH.with_pits(12).unwrap();
    for rules in [Rules::KALAH, twelve] {
        let mut s = session(rules, PlayerKind::Human, Keeper::new(None));
        s.start();
        for (typed, expected) in [
            ("quit", SessionCommand::Quit),
            ("QUIT", SessionCommand::Quit),
            ("undo", SessionCommand::Undo),
            ("redo", SessionCommand::Redo),
            ("hint", SessionCommand::Hint),
            ("help", SessionCommand::Help),
            ("?", SessionCommand::Help),
            ("Q", SessionCommand::Quit),
            ("U", SessionCommand::Undo),
            ("H", SessionCommand::Hint),
            (
                "2",
                SessionCommand::Play(rules.pit(Side::South, 2).unwrap()),
            ),
        ] {
            assert_eq!(s.parse(typed), Ok(expected), "{typed} on {rules}");
        }
        for letter in ['h', 'q', 'r', 'u'] {
            let parsed = s.parse(&letter.to_string());
            match rules.pit_by_letter(letter) {
                Some(p) => assert_eq!(parsed, Ok(SessionCommand::Play(p)), "{letter}"),
                None => assert!(
                    matches!(parsed, Ok(c) if !matches!(c, SessionCommand::Play(_))),
                    "{letter} on {rules}: {parsed:?}"
                ),
            }
        }
        assert_eq!(s.parse(""), Err(Unparsed::Empty));
        assert_eq!(s.parse("banana"), Err(Unparsed::NotAPit("banana".into())));
        // No command word is a pit letter on any board.
        assert!(s.open_commands().iter().all(|o| o.word.len() > 1));
    }
    // At a question no pit is open: n is "no" even where it names a pit.
    let mut s = session(twelve, PlayerKind::Human, Keeper::new(None));
    s.pending = Pending::PlayAgain;
    assert_eq!(s.parse("n"), Ok(SessionCommand::Answer(false)));
    assert_eq!(s.parse("Yes"), Ok(SessionCommand::Answer(true)));
    assert_eq!(s.parse("c"), Err(Unparsed::NoAnswer));
}

#[test]
fn a_hint_names_a_legal_pit_for_the_person_to_move() {
    let mut s = session(Rules::KALAH, PlayerKind::Human, Keeper::new(None));
    s.start();
    let events = s.handle(SessionCommand::Hint);
    let SessionEvent::Hinted(hint) = events[0] else {
        panic!("{events:?}");
    };
    assert!(s.game().board().check(hint.pit).is_ok());
    assert_eq!(s.game().moves(), &[][..], "a hint plays nothing");
}

#[test]
fn an_oware_hint_names_a_legal_house_as_the_engines_estimate() {
    let mut config = config(Rules::KALAH, PlayerKind::Human);
    config.game = crate::rules::Game::Oware;
    let mut s = Session::new(config, 1, Duration::from_millis(10), Keeper::new(None));
    s.start();
    let events = s.handle(SessionCommand::Hint);
    let SessionEvent::Hinted(hint) = events[0] else {
        panic!("{events:?}");
    };
    // 48 seeds in 10 ms: nothing is proven
    assert!(!hint.exact, "{hint:?}");
    assert!(s.game().position().check(hint.pit).is_ok());
    assert_eq!(s.game().moves(), &[][..], "a hint plays nothing");
}

/// A session whose computer thinks outside it: Alice against Michael
/// (greedy), Michael moving first.
fn outside(rules: Rules) -> Session {
    let mut config = config(rules, PlayerKind::Greedy);
    config.first = FirstMover::North;
    Session::thinking_outside(Match::new(config, 1), Duration::ZERO, Keeper::new(None))
}

#[test]
fn an_outside_computer_is_asked_for_its_move_and_the_session_plays_it() {
    let mut s = outside(Rules::KALAH);
    let events = s.start();
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Computer(Side::North)))
    );
    // A person's pit, a hint or an answer does nothing meanwhile.
    for command in [
        SessionCommand::Play(pit('a')),
        SessionCommand::Hint,
        SessionCommand::Answer(true),
    ] {
        assert_eq!(
            s.handle(command),
            vec![SessionEvent::Asked(Asking::Computer(Side::North))]
        );
    }
    assert_eq!(
        s.handle(SessionCommand::MoveNow),
        vec![
            SessionEvent::Hurry,
            SessionEvent::Asked(Asking::Computer(Side::North))
        ]
    );
    let open: Vec<SessionCommand> = s.open_commands().iter().map(|o| o.command).collect();
    assert!(open.contains(&SessionCommand::MoveNow) && !open.contains(&SessionCommand::Hint));
    let thought = Duration::from_millis(300);
    let events = s.handle(SessionCommand::Computer {
        pit: Some(pit('h')),
        unproven: Some(thought),
    });
    assert_eq!(
        moves(&events),
        [(
            MovedBy::Computer {
                fallback: false,
                unproven: Some(thought)
            },
            'h'
        )]
    );
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Move(Side::South)))
    );
    // Alice's hint is asked of the front end.
    let events = s.handle(SessionCommand::Hint);
    assert_eq!(events[0], SessionEvent::HintWanted(s.game().position()));
}

#[test]
fn an_outside_computers_move_that_cannot_be_played_gives_its_first_legal_pit() {
    let mut s = outside(Rules::KALAH);
    s.start();
    // a is Alice's pit: not Michael's to play.
    let events = s.handle(SessionCommand::Computer {
        pit: Some(pit('a')),
        unproven: None,
    });
    assert_eq!(
        moves(&events),
        [(
            MovedBy::Computer {
                fallback: true,
                unproven: None
            },
            'g'
        )]
    );
}

#[test]
fn the_finished_round_stays_on_show_until_the_next_begins() {
    let mut s = outside(Rules::KALAH.with_pits(1).unwrap().with_seeds(1).unwrap());
    s.start();
    s.handle(SessionCommand::Computer {
        pit: None,
        unproven: None,
    });
    assert_eq!(s.asking(), Asking::PlayAgain);
    let finished = s.finished_round().expect("the round just played");
    assert!(finished.outcome().is_some() && s.game().outcome().is_none());
    assert_eq!(s.game().round(), 2);
    s.handle(SessionCommand::Answer(true));
    assert!(s.finished_round().is_none());
}

#[test]
fn both_agreeing_take_back_a_sides_last_move_and_the_reply() {
    let mut s = outside(Rules::KALAH);
    s.start();
    s.handle(SessionCommand::Computer {
        pit: Some(pit('h')),
        unproven: None,
    });
    s.handle(SessionCommand::Play(pit('b')));
    let events = s.handle(SessionCommand::TakeBack(Side::North));
    assert!(
        matches!(&events[0], SessionEvent::TookBack(said, board)
            if said.text == "Took back 2 moves: Michael plays again." && *board == Board::starting(Rules::KALAH, Side::North)),
        "{events:?}"
    );
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Computer(Side::North)))
    );
}

/// The pie rule (RULES.md §5.3): asked of the second player when the
/// starter's first turn ends (its extra turn included); `swap` changes
/// the seats' sides, undo past it takes it back.
#[test]
fn the_pie_rule_asks_after_the_first_turn_and_swap_changes_sides() {
    let mut s = session(Rules::KALAH, PlayerKind::Human, Keeper::new(None));
    s.set_pie_rule(true);
    s.start();
    // c ends in South's store: the first turn goes on.
    let events = s.handle(SessionCommand::Play(pit('c')));
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Move(Side::South)))
    );
    let events = s.handle(SessionCommand::Play(pit('f')));
    assert_eq!(
        events.last(),
        Some(&SessionEvent::Asked(Asking::Swap(Side::North)))
    );
    let open: Vec<_> = s.open_commands().iter().map(|o| o.command).collect();
    assert!(open.contains(&SessionCommand::Swap), "{open:?}");
    assert_eq!(s.parse("swap"), Ok(SessionCommand::Swap));
    assert_eq!(s.parse("h"), Ok(SessionCommand::Play(pit('h'))));
    let board = *s.game().board();
    let events = s.handle(SessionCommand::Swap);
    assert!(
        matches!(&events[0], SessionEvent::Swapped(said) if said.text.starts_with("Michael swaps sides")),
        "{events:?}"
    );
    assert_eq!(*s.game().board(), board, "the board stays");
    assert_eq!(s.game().names(), ["Michael", "Alice"]);
    assert_eq!(
        s.asking(),
        Asking::Move(Side::North),
        "Alice moves for North"
    );
    // Not asked again in this round.
    s.handle(SessionCommand::Play(pit('g')));
    assert!(matches!(s.asking(), Asking::Move(Side::South)));
    // Undo back before the swap takes it back too.
    s.handle(SessionCommand::Undo);
    s.handle(SessionCommand::Undo);
    assert_eq!(s.game().names(), ["Alice", "Michael"]);
    assert_eq!(s.game().moves().len(), 1);
    assert_eq!(s.asking(), Asking::Move(Side::South));
}

/// Redo brings back what undo took back: the pie rule's swap with the
/// move it followed, announced as the swap is, the same question open,
/// and saved so that the match resumes swapped. (Redo brought back only
/// the move, and the question "swap sides?" was asked again.)
#[test]
fn redo_after_undo_brings_the_pie_rules_swap_back() {
    let scratch = crate::store::files::scratch("session-redo-swap");
    let store = SaveStore::at(scratch.path()).unwrap();
    let mut s = session(
        Rules::KALAH,
        PlayerKind::Human,
        Keeper::new(Some(store.clone())),
    );
    s.set_pie_rule(true);
    s.start();
    s.handle(SessionCommand::Play(pit('b')));
    assert_eq!(s.asking(), Asking::Swap(Side::North));
    let swapped = s.handle(SessionCommand::Swap);
    let said = match &swapped[0] {
        SessionEvent::Swapped(said) => said.clone(),
        other => panic!("{other:?}"),
    };
    let (board, asked) = (*s.game().board(), s.asking());
    assert_eq!(s.game().names(), ["Michael", "Alice"]);
    assert_eq!(asked, Asking::Move(Side::North));

    s.handle(SessionCommand::Undo);
    assert_eq!(s.game().names(), ["Alice", "Michael"]);
    assert!(s.game().moves().is_empty());
    let events = s.handle(SessionCommand::Redo);
    assert_eq!(moves(&events), [(MovedBy::Redone, 'b')]);
    let at = events
        .iter()
        .position(|e| matches!(e, SessionEvent::Moved(_)))
        .unwrap();
    assert_eq!(
        events.get(at + 1),
        Some(&SessionEvent::Swapped(said)),
        "{events:?}"
    );
    // The move is told with the sides as held when it was made.
    let SessionEvent::Moved(moved) = &events[at] else {
        unreachable!()
    };
    assert_eq!(moved.names, ["Alice", "Michael"]);
    assert_eq!(s.game().names(), ["Michael", "Alice"]);
    assert_eq!(s.game().swapped(), Some(1));
    assert_eq!(*s.game().board(), board);
    assert_eq!(s.asking(), asked);
    assert_eq!(events.last(), Some(&SessionEvent::Asked(asked)));
    let kept = store.load(s.game().config()).unwrap().unwrap();
    assert_eq!(
        (kept.swapped(), kept.names(), kept.moves()),
        (Some(1), ["Michael", "Alice"], s.game().moves())
    );

    // A different move instead of redo forgets the swap with the redo list.
    s.handle(SessionCommand::Undo);
    s.handle(SessionCommand::Play(pit('c')));
    assert_eq!(s.game().swapped(), None);
    s.handle(SessionCommand::Undo);
    let events = s.handle(SessionCommand::Redo);
    assert_eq!(moves(&events), [(MovedBy::Redone, 'c')]);
    assert!(
        !events.iter().any(|e| matches!(e, SessionEvent::Swapped(_))),
        "{events:?}"
    );
    assert_eq!(s.game().names(), ["Alice", "Michael"]);
}

/// Without the pie rule, nobody is asked; a pit at the question plays on.
#[test]
fn without_the_pie_rule_or_with_a_pit_the_sides_stay() {
    let mut s = session(Rules::KALAH, PlayerKind::Human, Keeper::new(None));
    s.start();
    s.handle(SessionCommand::Play(pit('c')));
    s.handle(SessionCommand::Play(pit('f')));
    assert_eq!(s.asking(), Asking::Move(Side::North));
    let mut s = session(Rules::KALAH, PlayerKind::Human, Keeper::new(None));
    s.set_pie_rule(true);
    s.start();
    s.handle(SessionCommand::Play(pit('a')));
    assert_eq!(s.asking(), Asking::Swap(Side::North));
    s.handle(SessionCommand::Play(pit('h')));
    assert_eq!(s.game().names(), ["Alice", "Michael"]);
    assert_eq!(s.asking(), Asking::Move(Side::South));
}

/// A computer answers the question itself: it swaps exactly when the
/// position the first turn made is better for its maker, by the exact
/// value on a board small enough to solve here.
#[test]
fn a_computer_swaps_when_the_first_turn_made_the_better_position() {
    let rules = Rules::new(3, 3).unwrap();
    let mut seen = [false; 2];
    for first in ['a', 'b', 'c'] {
        let mut s = session(rules, PlayerKind::Greedy, Keeper::new(None));
        s.set_pie_rule(true);
        s.start();
        let mut board = *s.game().board();
        let p = rules.pit_by_letter(first).unwrap();
        board.play(p).unwrap();
        if board.to_move() == Side::South {
            continue;
        }
        let value = crate::players::Solver::new(1 << 20)
            .value(&board, &crate::players::Limits::none())
            .expect("solved");
        s.handle(SessionCommand::Play(p));
        let swapped = s.game().swapped().is_some();
        assert_eq!(swapped, value < 0, "after {first}: value {value}");
        seen[usize::from(swapped)] = true;
    }
    assert!(
        seen[0] && seen[1],
        "both a swap and a refusal are checked: {seen:?}"
    );
}

/// The analysis of `round`'s moves worked out after it, from scratch.
fn analysed_from_scratch(round: &Match) -> crate::analysis::Analysis {
    crate::analysis::Analyst::new()
        .round(
            *round.rules(),
            round.starter(),
            round.moves(),
            &crate::analysis::PositionBudget::default(),
            |_, _| {},
        )
        .unwrap()
}

/// Waits until the analysis watched has valued every position of the
/// round as it stands (or 60 s pass); whether it had.
fn analysed(watch: &crate::analysis::live::Watch) -> crate::analysis::live::Standing {
    watch.wait(Duration::from_secs(60))
}

#[test]
fn a_round_is_analysed_move_by_move_as_it_is_played_and_matches_the_analysis_after_it() {
    use crate::analysis::live::Standing;
    let rules = Rules::new(4, 3).unwrap();
    let mut s = session(rules, PlayerKind::Human, Keeper::new(None));
    s.set_seat(Side::North, SeatKind::Human);
    s.analyse_as_played(Duration::from_secs(1));
    s.start();
    let mut played = 0;
    // Two people take turns; after each move the analysis catches up on
    // the spare time before the next one.
    while let Asking::Move(_) = s.asking() {
        let pit = s.game().board().legal_moves().last().unwrap();
        s.handle(SessionCommand::Play(pit));
        played += 1;
        let watch = s.round_analysis().unwrap();
        match analysed(&watch) {
            Standing::Done(analysis) => assert_eq!(analysis.moves.len(), played),
            other => panic!("after move {played}: {other:?}"),
        }
    }
    assert_eq!(s.asking(), Asking::PlayAgain);
    // At "Play again?" the finished round's analysis is complete already:
    // no position is left to value.
    let finished = s.finished_round().unwrap().clone();
    let Standing::Done(live) = s.round_analysis().unwrap().standing() else {
        panic!("not complete at the end of the round");
    };
    let whole = analysed_from_scratch(&finished);
    assert!(whole.exact());
    assert_eq!(live, whole);
}

#[test]
fn computers_moves_are_analysed_and_the_next_round_is_followed_after_play_again() {
    use crate::analysis::live::Standing;
    let rules = Rules::new(3, 2).unwrap();
    let mut both = config(rules, PlayerKind::Greedy);
    both.seats[0] = Seat::new("Alice", PlayerKind::Random);
    let mut s = Session::new(both, 5, Duration::from_millis(10), Keeper::new(None));
    s.analyse_as_played(Duration::from_secs(1));
    s.start();
    assert_eq!(s.asking(), Asking::PlayAgain, "two computers play it out");
    let finished = s.finished_round().unwrap().clone();
    let first = match analysed(&s.round_analysis().unwrap()) {
        Standing::Done(first) => first,
        other => panic!("the first round: {other:?}"),
    };
    let whole = analysed_from_scratch(&finished);
    assert_eq!(first, whole);
    s.handle(SessionCommand::Answer(true));
    let next = s.round_analysis().unwrap();
    let second = match analysed(&next) {
        Standing::Done(second) => second,
        other => panic!("the second round: {other:?}"),
    };
    // the second round, played out by the computers too
    assert_eq!(s.current().round(), 2);
    assert_eq!(second, analysed_from_scratch(s.current()));
}

#[test]
fn an_oware_rounds_analysis_at_play_again_comes_from_the_session_too() {
    use crate::analysis::live::Standing;
    // two computers play an Oware round out; nothing is analysed as it is
    // played (Kalah only), but asked at "Play again?" the session gives it
    let mut both = config(Rules::KALAH, PlayerKind::Greedy);
    both.game = crate::rules::Game::Oware;
    both.seats[0] = Seat::new("Alice", PlayerKind::Greedy);
    let mut s = Session::new(both, 3, Duration::from_millis(1), Keeper::new(None));
    s.analyse_as_played(Duration::from_millis(5));
    assert!(s.round_analysis().is_none(), "not as it is played");
    s.start();
    assert_eq!(s.asking(), Asking::PlayAgain);
    let moves = s.finished_round().unwrap().moves().len();
    let watch = s.analysis_of_round(Duration::from_millis(5)).unwrap();
    let Standing::Done(analysis) = analysed(&watch) else {
        panic!("not analysed");
    };
    assert_eq!(analysis.moves.len(), moves);
    assert_eq!(analysis.to_json()["game"], "oware");
}

#[test]
fn the_greetings_say_the_fair_start_and_the_pie_rule_for_both_front_ends() {
    let mut dealt = config(Rules::KALAH, PlayerKind::Human);
    let start = crate::players::fair::deal(Rules::KALAH, 1, Duration::ZERO).unwrap();
    dealt.start = Some(start);
    let mut s = Session::new(dealt, 1, Duration::from_millis(10), Keeper::new(None));
    // a start of its own (a position played on from) is no fair start
    assert!(s.greetings().is_empty());
    s.set_fair_start(true);
    s.set_pie_rule(true);
    let said: Vec<String> = s.greetings().iter().map(ToString::to_string).collect();
    let counts: Vec<String> = start.counts().iter().map(u16::to_string).collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with(&format!("A fair start: {}", counts.join(","))),
        "{said:?}"
    );
    assert!(said[0].contains("value 0"), "{said:?}");
    assert!(said[1].starts_with("The pie rule"), "{said:?}");
}
