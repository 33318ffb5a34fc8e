//! `carcassonne odds RECORD [--json] [--turns N]`: the odds of the next
//! tile for every open cell, and each open feature's chance to be
//! completed, in the position a record leaves (docs/analysis.md).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use carcassonne_bots::odds::{self, Odds};
use carcassonne_engine::Game;

use crate::replay::read_record;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record (JSON, format carcassonne-record/1 or /2), finished or in progress; `-` reads standard input.
    pub file: PathBuf,
    /// Print the odds as one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// The position after the record's first N entries (turns) instead of after all of them.
    #[arg(long, value_name = "N")]
    pub turns: Option<usize>,
}

pub fn run(args: &Args) -> Result<()> {
    let mut record = read_record(&args.file)?;
    if let Some(n) = args.turns {
        if n > record.turns.len() {
            bail!("{}: the record has {} turns, not {n}", args.file.display(), record.turns.len());
        }
        record.turns.truncate(n);
    }
    let game = Game::replay(&record).with_context(|| format!("{}", args.file.display()))?;
    let odds = odds::odds(game.state());
    if args.json {
        println!("{}", serde_json::to_string(&odds)?);
    } else {
        print!("{}", tables(&odds, &record.setup.players));
    }
    Ok(())
}

fn at(a: [i32; 2]) -> String {
    format!("[{}, {}]", a[0], a[1])
}

/// The readable odds: the cells, likeliest first, then the features.
fn tables(o: &Odds, names: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} tiles in the bag, {} of them may be drawn next", o.bag, o.drawable);
    let _ = writeln!(out, "\ncell          next tile fits   tiles left that fit");
    let mut cells: Vec<_> = o.cells.iter().collect();
    cells.sort_by(|a, b| b.next.total_cmp(&a.next).then(a.at.cmp(&b.at)));
    for c in cells {
        let fits = if c.dead {
            "dead: no tile left fits".to_string()
        } else {
            let kinds: Vec<String> = c.tiles.iter().map(|t| format!("{}×{}", t.tile, t.count)).collect();
            let abbey = if c.abbey { " (and an abbey)" } else { "" };
            format!("{} ({}){abbey}", c.fitting, kinds.join(" "))
        };
        let _ = writeln!(out, "{:<12}  {:>13.1}%   {fits}", at(c.at), 100.0 * c.next);
    }
    let _ = writeln!(out, "\nfeature     at            completed   cells needed   followers");
    let mut features: Vec<_> = o.features.iter().collect();
    features.sort_by(|a, b| b.chance.total_cmp(&a.chance).then(a.at.cmp(&b.at)));
    for f in features {
        let chance = if f.dead { "dead".to_string() } else { format!("{:.1}%", 100.0 * f.chance) };
        let who: Vec<String> = f
            .followers
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(p, n)| format!("{} {n}", names.get(p).map_or("?", String::as_str)))
            .collect();
        let _ = writeln!(
            out,
            "{:<10}  {:<12}  {:>9}   {:>12}   {}",
            f.kind,
            at(f.at),
            chance,
            f.needs.len(),
            who.join(", ")
        );
    }
    out
}
