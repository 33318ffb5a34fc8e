//! The engine's tests against its public API: rules, records, scenarios,
//! golden transcripts, conformance with a naive reference, no panic on bad
//! input. One test program for all of them, so that the release build links
//! (and optimizes across crates) once rather than once per file.
//!
//! Run one file's tests by its module name, for example
//! `cargo test --release -p carcassonne-engine --test suite architecture::`.

mod abbot;
mod architecture;
mod conformance;
mod events;
mod feature_worth;
mod golden;
mod hints;
mod no_panic;
mod playout;
mod records;
mod reference_games;
mod river;
mod rule_options;
mod rules_modules;
mod scenarios;
