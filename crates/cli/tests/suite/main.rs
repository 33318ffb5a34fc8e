//! The command line's tests, running the built `carcassonne` binary: its
//! subcommands, the engine protocol, JCloisterZone files, and several
//! servers and bot workers on PostgreSQL. One test program, linked once.
//!
//! Run one file's tests by its module name, for example
//! `cargo test --release -p carcassonne-cli --test suite engine::`.

// The server's test client, shared with its own tests.
#[path = "../../../server/tests/suite/common/mod.rs"]
mod server_common;

mod analyse;
mod common;
mod engine;
mod jcz;
mod play;
mod postgres;
mod rules;
mod serve;
mod simulate;
