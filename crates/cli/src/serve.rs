//! `carcassonne serve`: the browser game (see docs/api.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Result;
use carcassonne_server::{Limits, ServeOptions};

#[derive(clap::Args)]
pub struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database file, created and migrated on first start.
    #[arg(long, default_value = "carcassonne.db")]
    db: PathBuf,
    /// Serve the UI from this folder instead of the copy built into the
    /// program (for working on the UI).
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,
    /// Bot decisions computed at once (default: one per core).
    #[arg(long, value_name = "N")]
    bot_threads: Option<usize>,
    /// API requests a second one client address may make (bursts of three
    /// times as many). Behind a reverse proxy all clients share its address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().requests_per_second,
          value_parser = clap::value_parser!(u32).range(1..))]
    requests_per_second: u32,
    /// Games one client address may create a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_per_minute,
          value_parser = clap::value_parser!(u32).range(1..))]
    games_per_minute: u32,
    /// Live WebSocket connections over all games.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 28))]
    max_sockets: usize,
    /// Live WebSocket connections on one game.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_game,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 28))]
    max_sockets_per_game: usize,
    /// Messages a second one WebSocket connection may send (bursts of three
    /// times as many).
    #[arg(long, value_name = "N", default_value_t = Limits::default().messages_per_second,
          value_parser = clap::value_parser!(u32).range(1..))]
    messages_per_second: u32,
}

pub fn run(args: &Args) -> Result<()> {
    carcassonne_server::run(ServeOptions {
        addr: args.addr,
        db_path: args.db.clone(),
        assets: args.assets.clone(),
        bot_threads: args.bot_threads,
        limits: Limits {
            requests_per_second: args.requests_per_second,
            games_per_minute: args.games_per_minute,
            sockets: args.max_sockets,
            sockets_per_game: args.max_sockets_per_game,
            messages_per_second: args.messages_per_second,
        },
    })
}
