//! The rules of Solitaire Mancala (Tchoukaillon), RULES.md §6: one player, a
//! row of houses and a store; bring every seed into the store.
//!
//! Houses are numbered from the store outwards (store 0, nearest house 1),
//! and house `i` may be played only when it holds exactly `i` seeds, so its
//! last seed lands in the store.
//!
//! Like the rest of the rules core, this is pure: no I/O, no terminal, no
//! randomness. The full-screen game and the random deal are in the crate's
//! `solitaire` module.
//!
//! The methods of the classic exercise (RULES.md §1.5) and where they live:
//!
//! | exercise         | here                                   |
//! |------------------|----------------------------------------|
//! | `__init__`       | [`SolitaireBoard::new`]                          |
//! | `set_board`      | [`SolitaireBoard::set_board`], [`SolitaireBoard::from_counts`] |
//! | `__str__`        | `Display` for [`SolitaireBoard`]                 |
//! | `get_num_seeds`  | [`SolitaireBoard::seeds`]                        |
//! | `is_legal_move`  | [`SolitaireBoard::is_legal`] ([`SolitaireBoard::check`] says why not) |
//! | `apply_move`     | [`SolitaireBoard::apply`], [`SolitaireBoard::apply_traced`] |
//! | `choose_move`    | [`SolitaireBoard::choose`]                       |
//! | `is_game_won`    | [`SolitaireBoard::is_won`]                       |
//! | `plan_moves`     | [`SolitaireBoard::plan`]                         |
//!
//! [`deal`] gives the one winnable board for any number of seeds;
//! [`SolitaireBoard::unapply`] takes a move back.
//!
//! ```
//! use mancala_engine::rules::solitaire::SolitaireBoard;
//! let mut board = SolitaireBoard::from_counts(&[0, 1, 1, 3, 0, 0, 0]).unwrap();
//! assert_eq!(board.choose(), 1);
//! board.apply(3).unwrap(); // the farther house first...
//! assert_eq!(board.seeds(1), 2); // ...leaves house 1 with 2 seeds for ever
//! assert!(!board.plan().won());
//! ```

mod board;
mod deal;

pub use board::{BoardError, Plan, PlanMoves, SolitaireBoard, SolitaireError, SolitaireStep};
pub use deal::deal;
