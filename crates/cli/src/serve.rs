//! `carcassonne serve`: the browser game (see docs/api.md), and
//! `carcassonne bot-worker`: its bots, for servers on PostgreSQL (docs/deploy.md).

use anyhow::Result;
use carcassonne_server::{ServeArgs, WorkerArgs};

pub fn run(args: &ServeArgs) -> Result<()> {
    carcassonne_server::logging::init(args.log_format)?;
    carcassonne_server::run(args.options())
}

pub fn work(args: &WorkerArgs) -> Result<()> {
    let run = args.options().map_err(anyhow::Error::msg)?;
    carcassonne_server::logging::init(args.log_format)?;
    carcassonne_server::run_worker(run)
}
