//! Command-line options shared by several commands.

use anyhow::{anyhow, bail, Context, Result};
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

/// `rules` with the variants of `--rules` applied: `NAME=VALUE` items, the
/// option repeated or the items separated by commas. The one variant is
/// `tiny-city-scoring=2` (a completed two-tile city scores 2, not 4).
pub fn with_variants(mut rules: Rules, variants: &[String]) -> Result<Rules> {
    for item in variants.iter().flat_map(|v| v.split(',')).map(str::trim).filter(|s| !s.is_empty()) {
        let Some((name, value)) = item.split_once('=') else {
            bail!("--rules: '{item}' is not NAME=VALUE (such as tiny-city-scoring=2)");
        };
        match name.trim() {
            "tiny-city-scoring" => {
                let points = value
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| anyhow!("--rules: tiny-city-scoring is 4 (standard) or 2, not '{}'", value.trim()))?;
                rules = rules.with_tiny_city_scoring(points).map_err(|e| anyhow!("--rules: {e}"))?;
            }
            other => bail!("--rules: unknown rule '{other}' (known: tiny-city-scoring)"),
        }
    }
    Ok(rules)
}

/// The variants of `rules` in words, for a title line; empty for the
/// standard rules.
pub fn variants_text(rules: &Rules) -> String {
    match rules.tiny_city_scoring() {
        4 => String::new(),
        n => format!("tiny-city-scoring {n}"),
    }
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

    #[test]
    fn rule_variants_are_read_and_bad_ones_named() {
        let base = rules(2, "none", "c3").unwrap();
        assert_eq!(with_variants(base, &[]).unwrap(), base);
        let tiny = with_variants(base, &["tiny-city-scoring=2".into()]).unwrap();
        assert_eq!(tiny.tiny_city_scoring(), 2);
        assert_eq!(variants_text(&tiny), "tiny-city-scoring 2");
        assert_eq!(variants_text(&base), "");
        let back = with_variants(base, &["tiny-city-scoring=2, tiny-city-scoring=4".into()]).unwrap();
        assert_eq!(back, base);
        let err = |v: &str| with_variants(base, &[v.to_string()]).unwrap_err().to_string();
        assert_eq!(err("tiny-city-scoring=3"), "--rules: tiny-city-scoring is 4 (standard) or 2 (a completed two-tile city scores as if incomplete), not 3");
        assert!(err("tiny-city-scoring=two").contains("not 'two'"));
        assert!(err("tiny-cities=2").contains("unknown rule 'tiny-cities'"));
        assert!(err("tiny-city-scoring").contains("is not NAME=VALUE"));
    }
}
