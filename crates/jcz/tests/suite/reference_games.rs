//! The reference games (`tests/data/`, played by JCloisterZone's
//! engine) survive export and import unchanged: base games and games with
//! The Ferries, ferry moves and discards included. Their ferry moves also
//! check the export's model of which ferries JCloisterZone offers to move.

use std::path::PathBuf;

use carcassonne_engine::{Game, Record, Summary};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    name: String,
    record: Record,
}

fn references() -> Vec<Reference> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/reference-games.jsonl");
    let text = std::fs::read_to_string(&path).expect("reference games");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("a reference line")).collect()
}

#[test]
fn reference_games_export_and_import_unchanged() {
    let games = references();
    assert_eq!(games.len(), 40);
    let mut failures = Vec::new();
    for g in &games {
        let result = carcassonne_jcz::export(&g.record).and_then(|e| carcassonne_jcz::import(&e.text));
        match result {
            Ok(back) if back.record == g.record && back.warnings.is_empty() => {
                let a = Summary::of(Game::replay(&g.record).unwrap().state());
                let b = Summary::of(Game::replay(&back.record).unwrap().state());
                assert_eq!(a, b, "{}", g.name);
            }
            Ok(back) if back.record != g.record => failures.push(format!("{}: the record changed", g.name)),
            Ok(back) => failures.push(format!("{}: warnings {:?}", g.name, back.warnings)),
            Err(e) => failures.push(format!("{}: {e}", g.name)),
        }
    }
    assert!(failures.is_empty(), "{} of {} games:\n{}", failures.len(), games.len(), failures.join("\n"));
}
