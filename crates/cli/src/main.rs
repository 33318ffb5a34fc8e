//! `carcassonne`: the command line of the Carcassonne engine.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyse;
mod bench;
mod board_art;
mod engine;
mod jcz;
mod odds;
mod options;
mod play;
mod players;
mod render;
mod replay;
mod serve;
mod simulate;
mod train_eval;

#[derive(Parser)]
#[command(name = "carcassonne", version, about = "Carcassonne with The Ferries: the browser game, bots, game records")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the browser game: hot-seat, against bots and online (http://127.0.0.1:8080 by default).
    // Boxed: its many options would make every command as large.
    Serve(Box<carcassonne_server::ServeArgs>),
    /// Make the bots' decisions for servers that share a PostgreSQL database (docs/deploy.md).
    BotWorker(carcassonne_server::WorkerArgs),
    /// Check a game record and play it to its last turn.
    Replay {
        /// The record (JSON, format carcassonne-record/1); `-` reads standard input.
        file: PathBuf,
        /// Print the figures as one JSON object instead of a readable account.
        #[arg(long)]
        json: bool,
    },
    /// Review every decision of a game record with the strongest bot: win chances, points lost, marks, luck.
    #[command(alias = "analyze")]
    Analyse(analyse::Args),
    /// The odds of the next tile for each open cell, and each open feature's chance to be completed.
    Odds(odds::Args),
    /// Play games between bots and summarize who won.
    Simulate(simulate::Args),
    /// Play a game in the terminal against bots.
    Play(play::Args),
    /// Measure random games, legal action lists and search iterations per second.
    Bench(bench::Args),
    /// Play as an engine over a line protocol on standard input and output (docs/engine-protocol.md).
    Engine(engine::Args),
    /// Learn the bots' evaluation from self-play and write its weights (docs/bots.md).
    TrainEval(train_eval::Args),
    /// Convert a JCloisterZone 5 saved game (.jcz) into a game record and check it.
    ImportJcz(jcz::ImportArgs),
    /// Write a game record as a JCloisterZone 5 saved game (.jcz).
    ExportJcz(jcz::ExportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(&args),
        Command::BotWorker(args) => serve::work(&args),
        Command::Replay { file, json } => replay::run(&file, json),
        Command::Analyse(args) => analyse::run(&args),
        Command::Odds(args) => odds::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::ImportJcz(args) => jcz::import(&args),
        Command::ExportJcz(args) => jcz::export(&args),
        Command::Play(args) => play::run(&args),
        Command::TrainEval(args) => train_eval::run(&args),
        Command::Engine(args) => engine::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
