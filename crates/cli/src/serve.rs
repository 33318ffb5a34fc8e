//! `carcassonne serve`: the browser game (see docs/api.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Result;
use carcassonne_server::ServeOptions;

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
}

pub fn run(args: &Args) -> Result<()> {
    carcassonne_server::run(ServeOptions {
        addr: args.addr,
        db_path: args.db.clone(),
        assets: args.assets.clone(),
        bot_threads: args.bot_threads,
    })
}
