//! `carcassonne train-eval`: learns the evaluation's weights from self-play
//! and writes them where the bots crate compiles them in.

use std::path::PathBuf;

use anyhow::{Context, Result};
use carcassonne_bots::train::{rule_sets, rule_sets_named, train, TrainConfig};

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
    /// The rule sets the games cycle through, comma-separated (base,
    /// ferries, inns, abbey, traders, all four); all of them by default.
    #[arg(long)]
    pub rule_sets: Option<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let sets = match &args.rule_sets {
        None => rule_sets(),
        Some(names) => rule_sets_named(names).map_err(anyhow::Error::msg)?,
    };
    let set_names: Vec<&str> = sets.iter().map(|(n, _)| *n).collect();
    let config = TrainConfig { games: args.games, seed: args.seed, sets: sets.clone(), ..TrainConfig::default() };
    let trained = train(&config, |line| eprintln!("{line}"));
    let only = match &args.rule_sets {
        None => String::new(),
        Some(_) => format!(" --rule-sets '{}'", set_names.join(",")),
    };
    let header = format!(
        "Weights of the learned evaluation (crates/bots/src/evaluation.rs), from games of: {}.\n\
         Reproduce: carcassonne train-eval --games {} --seed {}{only} --out {}\n\n{}",
        set_names.join(", "),
        args.games,
        args.seed,
        args.out.display(),
        trained.report
    );
    let text = trained.model.to_text(&header);
    std::fs::write(&args.out, &text).with_context(|| format!("cannot write {}", args.out.display()))?;
    print!("{}", trained.report);
    println!("weights written to {} ({} bytes)", args.out.display(), text.len());
    Ok(())
}
