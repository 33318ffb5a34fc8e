//! The bots' tests: legal play, the arena, the learned evaluation, and a
//! measurement of the search's speed (ignored by default). One test
//! program, linked once.
//!
//! Run one file's tests by its module name, for example
//! `cargo test --release -p carcassonne-bots --test suite bots::`.

mod bots;
mod draws_speed;
mod evaluation;
mod review;
