//! Every integration test in one binary: one link instead of one per file,
//! and the files' tests run side by side. Each module was a file of its own
//! under `tests/`; `cargo test --profile fast --test suite MODULE::` runs one.

mod common;

mod ai_commands;
mod analyze_cli;
mod architecture;
mod command_line;
mod completions;
mod data_files;
mod engine_cli;
mod fair_swap;
mod hardening;
mod net;
mod net_decoder;
mod net_door;
mod net_keep;
mod net_screen;
mod net_wire;
mod oware_cli;
mod oware_endgame_kept;
mod oware_play;
mod perft;
mod pgn_cli;
mod plain;
mod position_cli;
mod properties;
mod puzzle_cli;
mod rules;
mod solitaire_cli;
mod tui_e2e;
