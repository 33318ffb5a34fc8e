//! `carcassonne replay FILE [--json]`.

use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use carcassonne_engine::{Event, Game, Record, Summary};

use crate::render;

/// Reads a record from a file, or from standard input for `-`.
pub fn read_record(path: &Path) -> Result<Record> {
    let text = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("cannot read standard input")?;
        s
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    Record::from_json(&text).with_context(|| format!("{}", path.display()))
}

pub fn run(path: &Path, json: bool) -> Result<()> {
    let record = read_record(path)?;
    let mut events = Vec::new();
    let game = Game::replay_with(&record, &mut events).with_context(|| format!("{}", path.display()))?;
    let summary = Summary::of(game.state());
    if json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print!("{}", account(&game, &events, &summary));
    }
    Ok(())
}

/// The readable account: turn by turn, the final board, the scores.
fn account(game: &Game, events: &[Event], summary: &Summary) -> String {
    let names = game.players();
    let mut out = String::new();
    let variants = crate::options::variants_text(game.state().rules());
    if !variants.is_empty() {
        let _ = writeln!(out, "rules: {variants}");
    }
    let mut turn = 0;
    for e in events {
        if let Event::TileDrawn { tile } = e {
            turn += 1;
            let _ = write!(out, "\nturn {turn}: drew {tile}");
            continue;
        }
        let line = render::event(e, names);
        if !line.is_empty() {
            let _ = write!(out, "\n  {line}");
        }
    }
    out.push_str("\n\nboard:\n");
    out.push_str(&render::board(game.state()));
    out.push_str("\nscores (during the game / with end-of-game scoring):\n");
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {name}: {} / {}  ({} followers in supply)",
            summary.scores[i], summary.final_scores[i], summary.supply[i]
        );
    }
    let state = if summary.finished {
        "the bag is empty: the game is over".to_string()
    } else if let Some(tile) = game.pending_tile() {
        format!("the game goes on: tile {tile} is drawn and waits to be placed")
    } else {
        "tiles remain in the bag".to_string()
    };
    let _ = writeln!(out, "{} turns played; {state}", summary.turns);
    out.trim_start().to_string()
}
