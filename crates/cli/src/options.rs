//! Command-line options shared by several commands.

use anyhow::{anyhow, bail, Context, Result};
use carcassonne_engine::{Edition, Expansion, FollowerKind, RuleOptions, Rules, WagonMove};

/// The rules for `players` seats and the options as written.
pub fn rules(players: usize, expansions: &str, edition: &str) -> Result<Rules> {
    let mut list = Vec::new();
    for name in expansions.split(',').map(str::trim) {
        if name == "none" || name.is_empty() {
            continue;
        }
        list.push(name.parse::<Expansion>().map_err(|e| anyhow!("--expansions: {e}, or none"))?);
    }
    let edition = edition.parse::<Edition>().map_err(|e| anyhow!("--edition: {e}"))?;
    Rules::new(players, &list, edition).context("--players")
}

/// `rules` with the variants of `--rules` applied: `NAME=VALUE` items, the
/// option repeated or the items separated by commas: `tiny-city-scoring=2`
/// (a completed two-tile city scores 2, not 4), `wagon-move=C1` (Abbey &
/// Mayor's first-edition wagon), `abbeys=N`, `labyrinth-variant=basic` (a
/// road through the labyrinth without the bonus for its figures), and a
/// figure's name with how many each player has (`barn=2`, `pig=0`,
/// `normal=8`).
pub fn with_variants(mut rules: Rules, variants: &[String]) -> Result<Rules> {
    for item in variants.iter().flat_map(|v| v.split(',')).map(str::trim).filter(|s| !s.is_empty()) {
        let Some((name, value)) = item.split_once('=') else {
            bail!("--rules: '{item}' is not NAME=VALUE (such as tiny-city-scoring=2)");
        };
        let (name, value) = (name.trim(), value.trim());
        let count = || value.parse::<u8>().map_err(|_| anyhow!("--rules: {name} takes a number, not '{value}'"));
        rules = match name {
            "tiny-city-scoring" => {
                let points = value
                    .parse::<u32>()
                    .map_err(|_| anyhow!("--rules: tiny-city-scoring is 4 (standard) or 2, not '{value}'"))?;
                rules.with_tiny_city_scoring(points)
            }
            "wagon-move" => {
                let rule = WagonMove::parse(&value.to_ascii_uppercase())
                    .ok_or_else(|| anyhow!("--rules: wagon-move is C2 (standard) or C1, not '{value}'"))?;
                rules.with_wagon_move(rule)
            }
            "abbeys" => rules.with_abbeys(count()?),
            "labyrinth-variant" => {
                let variant = carcassonne_engine::LabyrinthVariant::parse(value).ok_or_else(|| {
                    anyhow!("--rules: labyrinth-variant is advanced (standard) or basic, not '{value}'")
                })?;
                rules.with_labyrinth_variant(variant)
            }
            other => match FollowerKind::parse(other) {
                Some(kind) => rules.with_figures(kind, count()?),
                None => bail!(
                    "--rules: unknown rule '{other}' (known: tiny-city-scoring, wagon-move, abbeys, labyrinth-variant, and the figures {})",
                    FollowerKind::ALL.map(FollowerKind::name).join(", ")
                ),
            },
        }
        .map_err(|e| anyhow!("--rules: {e}"))?;
    }
    Ok(rules)
}

/// The variants of `rules` in words, for a title line; empty for the
/// standard rules.
pub fn variants_text(rules: &Rules) -> String {
    let o = RuleOptions::of(rules);
    let mut parts = Vec::new();
    if let Some(n) = o.tiny_city_scoring {
        parts.push(format!("tiny-city-scoring {n}"));
    }
    if let Some(sets) = &o.tile_sets {
        parts.push(format!(
            "tiles of {}",
            if sets.is_empty() {
                "the base game only".to_string()
            } else {
                sets.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
            }
        ));
    }
    for (figure, n) in &o.figures {
        parts.push(format!("{figure} {n}"));
    }
    if let Some(n) = o.abbeys {
        parts.push(format!("abbeys {n}"));
    }
    if let Some(rule) = o.wagon_move {
        parts.push(format!("wagon-move {rule}"));
    }
    if let Some(variant) = o.labyrinth_variant {
        parts.push(format!("labyrinth-variant {}", variant.name()));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_options_are_named() {
        assert!(rules(2, "ferris", "c3").unwrap_err().to_string().contains("unknown expansion 'ferris'"));
        assert!(rules(2, "ferries", "c4").unwrap_err().to_string().contains("unknown edition 'c4'"));
        assert!(format!("{:#}", rules(6, "none", "c3").unwrap_err()).contains("1 to 5 players"));
        assert_eq!(rules(1, "none", "c3").unwrap().players(), 1);
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
        assert!(err("barn=2").contains("the barn cannot be in play without abbey"));
    }

    #[test]
    fn expansion_options_are_read() {
        let abbey = rules(2, "abbey,traders", "c3").unwrap();
        let got = with_variants(abbey, &["wagon-move=c1, barn=2,abbeys=0".into(), "pig=0".into()]).unwrap();
        assert_eq!(got.wagon_move(), WagonMove::C1);
        assert_eq!(got.figure_count(FollowerKind::Barn), 2);
        assert_eq!(got.figure_count(FollowerKind::Pig), 0);
        assert_eq!(got.abbeys(), 0);
        assert_eq!(variants_text(&got), "barn 2, pig 0, abbeys 0, wagon-move C1");
        let err = |v: &str| with_variants(abbey, &[v.to_string()]).unwrap_err().to_string();
        assert!(err("wagon-move=C3").contains("C2 (standard) or C1"));
        assert!(err("barn=many").contains("takes a number"));
        assert!(err("dragon=1").contains("unknown rule 'dragon'"));
        assert!(err("labyrinth-variant=basic").contains("cannot be in play without labyrinth"));
        let labyrinth = rules(1, "labyrinth,abbot", "c3").unwrap();
        let got = with_variants(labyrinth, &["labyrinth-variant=basic,abbot=2".into()]).unwrap();
        assert_eq!(got.labyrinth_variant(), carcassonne_engine::LabyrinthVariant::Basic);
        assert_eq!(variants_text(&got), "abbot 2, labyrinth-variant basic");
        let err = |v: &str| with_variants(labyrinth, &[v.to_string()]).unwrap_err().to_string();
        assert!(err("labyrinth-variant=hard").contains("advanced (standard) or basic"));
    }
}
