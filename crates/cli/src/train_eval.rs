//! `carcassonne train-eval`: learns the evaluation's weights from self-play
//! and writes them where the bots crate compiles them in.

use std::path::PathBuf;

use anyhow::{Context, Result};
use carcassonne_bots::train::{train, TrainConfig};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games per round of self-play (two rounds; a fifth of each held out).
    #[arg(long, default_value_t = TrainConfig::default().games)]
    pub games: u64,
    /// Seed of the games.
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    pub seed: u64,
    /// Where to write the weights (the file the bots crate compiles in is
    /// crates/bots/data/eval-weights.txt).
    #[arg(long, default_value = "crates/bots/data/eval-weights.txt")]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    let config = TrainConfig { games: args.games, seed: args.seed, ..TrainConfig::default() };
    let trained = train(&config, |line| eprintln!("{line}"));
    let header = format!(
        "Weights of the learned evaluation (crates/bots/src/evaluation.rs).\n\
         Reproduce: carcassonne train-eval --games {} --seed {} --out crates/bots/data/eval-weights.txt\n\n{}",
        args.games, args.seed, trained.report
    );
    let text = trained.model.to_text(&header);
    std::fs::write(&args.out, &text).with_context(|| format!("cannot write {}", args.out.display()))?;
    print!("{}", trained.report);
    println!("weights written to {} ({} bytes)", args.out.display(), text.len());
    Ok(())
}
