//! Command-line options shared by several commands.

use anyhow::{anyhow, Context, Result};
use carcassonne_engine::{Edition, Expansion, Rules};

/// The rules for `players` seats and the options as written.
pub fn rules(players: usize, expansions: &str, edition: &str) -> Result<Rules> {
    let mut list = Vec::new();
    for name in expansions.split(',').map(str::trim) {
        if name == "none" || name.is_empty() {
            continue;
        }
        let known: Vec<_> = Expansion::ALL.iter().map(|e| e.name()).collect();
        list.push(Expansion::parse(name).ok_or_else(|| {
            anyhow!("--expansions: unknown expansion '{name}' (known: {}, or none)", known.join(", "))
        })?);
    }
    let edition =
        Edition::parse(edition).ok_or_else(|| anyhow!("--edition: unknown edition '{edition}' (c3 or c2)"))?;
    Rules::new(players, &list, edition).context("--players")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_options_are_named() {
        assert!(rules(2, "ferris", "c3").unwrap_err().to_string().contains("unknown expansion 'ferris'"));
        assert!(rules(2, "ferries", "c4").unwrap_err().to_string().contains("unknown edition 'c4'"));
        assert!(format!("{:#}", rules(1, "none", "c3").unwrap_err()).contains("2 to 5 players"));
        assert!(rules(3, "ferries", "c2").unwrap().has(Expansion::Ferries));
    }
}
