//! What is kept on disk, each file through one door ([`files`]): the
//! directories ([`dirs`]), the save of a match in play and the lock on it
//! ([`save`]), the records of finished rounds ([`record`]), the statistics
//! ([`stats`]) with the person's rating ([`rating`]), the analyses kept
//! beside the records ([`reviews`]), Oware's endgame database
//! ([`oware_endgame`]), and the [`Keeper`] that a session
//! hands every change of its match to.

pub mod dirs;
pub mod files;
pub mod keeper;
pub mod oware_endgame;
pub mod pgn;
pub mod puzzles;
pub mod rating;
pub mod record;
pub mod reviews;
pub mod save;
pub mod stats;

pub use keeper::{BUSY_NOTICE, BUSY_QUESTION, Keeper, RESUME_QUESTION};
pub use record::{Record, RecordError, Stepper};
pub use save::{SaveError, SaveStore, data_dir};
