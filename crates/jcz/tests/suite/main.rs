//! JCloisterZone saved games: import and export against files that
//! JCloisterZone wrote, the rules of each direction, no panic on bad
//! input. One test program, linked once.
//!
//! Run one file's tests by its module name, for example
//! `cargo test --release -p carcassonne-jcz --test suite export_rules::`.

mod export_rules;
mod import;
mod jcloisterzone_files;
mod no_panic;
mod reference_games;
