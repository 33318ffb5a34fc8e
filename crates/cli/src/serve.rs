//! `carcassonne serve`: the browser game (see docs/api.md).

use anyhow::Result;
use carcassonne_server::ServeArgs;

pub fn run(args: &ServeArgs) -> Result<()> {
    carcassonne_server::logging::init(args.log_format)?;
    carcassonne_server::run(args.options())
}
