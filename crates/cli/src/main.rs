//! `carcassonne`: the command line of the Carcassonne engine.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod render;
mod replay;

#[derive(Parser)]
#[command(name = "carcassonne", version, about = "Carcassonne with The Ferries: replay and check game records")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a game record and play it to its last turn.
    Replay {
        /// The record (JSON, format carcassonne-record/1); `-` reads standard input.
        file: PathBuf,
        /// Print the figures as one JSON object instead of a readable account.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay { file, json } => replay::run(&file, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
