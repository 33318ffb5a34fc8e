//! `carcassonne analyse RECORD [--json] [--ms N | --iterations N]`: a review
//! of every decision of a game by the strongest bot (docs/analysis.md).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, Result};
use carcassonne_bots::review::{self, Mark, Review, ReviewBudget};
use indicatif::{ProgressBar, ProgressStyle};

use crate::replay::read_record;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON, format carcassonne-record/1 or /2), finished or in progress; `-` reads standard input.
    pub file: PathBuf,
    /// Print the review as one JSON object instead of a readable account.
    #[arg(long)]
    pub json: bool,
    /// Milliseconds of search for each decision that has a choice.
    #[arg(long, default_value_t = review::DEFAULT_MS, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub ms: u64,
    /// Search iterations for each decision instead of a time: the same review every time for a given seed.
    #[arg(long, conflicts_with = "ms", value_parser = clap::value_parser!(u32).range(1..))]
    pub iterations: Option<u32>,
    /// Seed of the search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &Args) -> Result<()> {
    let record = read_record(&args.file)?;
    let budget = match args.iterations {
        Some(n) => ReviewBudget::Iterations(n),
        None => ReviewBudget::Millis(args.ms),
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(0);
        let style =
            ProgressStyle::with_template("{bar:40} {pos}/{len} actions reviewed, {elapsed} elapsed, {eta} to go")
                .expect("a valid progress template");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let reviewed = review::review(&record, budget, args.seed, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .with_context(|| format!("{}", args.file.display()))?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string(&reviewed)?);
    } else {
        print!("{}", account(&reviewed, &record.setup.players));
    }
    Ok(())
}

/// The readable review: each decision with a choice, then each player's figures.
fn account(r: &Review, names: &[String]) -> String {
    let mut out = String::new();
    let name = |p: usize| names.get(p).map_or_else(|| format!("player {}", p + 1), Clone::clone);
    let _ = writeln!(out, "turn  player        step                 win before → after   lost  mark  played (best)");
    for d in &r.decisions {
        let best = if d.best == d.played { String::new() } else { format!("  (best: {})", d.best) };
        let hinted = if d.hinted { "  [hint asked for this turn]" } else { "" };
        let _ = writeln!(
            out,
            "{:>4}  {:<12}  {:<19}  {:>5.1}% → {:>5.1}%   {:>5.1}  {:<4}  {}{}{}",
            d.turn,
            truncate(&name(d.player), 12),
            d.step.name(),
            100.0 * d.win_before[d.player],
            100.0 * d.win[d.player],
            d.loss,
            d.mark.map_or("", Mark::symbol),
            d.played,
            best,
            hinted,
        );
    }
    let _ = writeln!(out, "\nplayer        accuracy   ?!    ?   ??   points lost   luck of the draws   hints");
    for (p, pr) in r.players.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:<12}  {:>7.1}%  {:>3}  {:>3}  {:>3}   {:>11.1}   {:>+17.1}   {:>5}",
            truncate(&name(p), 12),
            pr.accuracy,
            pr.marks.inaccuracies,
            pr.marks.mistakes,
            pr.marks.blunders,
            pr.loss,
            pr.luck,
            pr.hints,
        );
    }
    if !r.finished {
        out.push_str("\nthe game is not over: the review stops at its last decision\n");
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
