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
    let run = carcassonne_server::logging::init(cli.args.log_format)
        .and_then(|()| carcassonne_server::run(cli.args.options()));
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
