//! `carcassonne-server`: the game server alone, with the options of
//! `carcassonne serve` (which runs the same).

use std::process::ExitCode;

use clap::Parser;

/// The Carcassonne game server: the browser game, its API and its database.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    args: carcassonne_server::ServeArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match carcassonne_server::run(cli.args.options()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
