//! The server's tests: a real server on loopback with a real SQLite file,
//! through HTTP and WebSockets. One test program, linked once.
//!
//! Run one file's tests by its module name, for example
//! `cargo test --release -p carcassonne-server --test suite abbey::`.

mod abbey;
mod abbot;
mod accounts;
mod api;
mod bots;
mod chat;
mod clocks;
mod colours;
mod common;
mod connections;
mod first;
mod hints;
mod inspect;
mod limits;
mod lobby;
mod logs;
mod ratings;
mod records;
mod restart;
mod review;
mod traders;
mod undo;
mod ws;
