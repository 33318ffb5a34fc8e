//! Rule scenarios as data: every `*.json` file under `tests/scenarios/` is a
//! game record with the figures `replay --json` must print for it, or the
//! error it must be refused with. Each names the rule it checks.
//!
//! ```json
//! { "name": "...", "rule": "F6 ...", "record": { ... },
//!   "expect": {"turns": 3, "scores": [0, 0], "final_scores": [3, 2], "supply": [6, 6]} }
//! ```
//! or, for an illegal record, the refusal's kind, turn (absent for a setup
//! error), numbered ruling (absent when the rule broken has none) and, when
//! the refusal names a position, that position:
//! `"error": {"turn": 3, "kind": "ferry-not-movable", "rule": "F6", "at": [1, 0]}`.
//! `expect` may also give other figures in supply (`"supply_of": {"builder":
//! [1, 1]}`), the goods held (`"goods": [[1, 0, 0], [0, 0, 0]]`: wine, grain,
//! cloth) and whether the turn is a second turn (`"second_turn": true`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use carcassonne_engine::{FollowerKind, Game, Record, RecordError, Summary};
use serde::Deserialize;

/// The refusal a scenario expects.
#[derive(Deserialize, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
struct Refusal {
    #[serde(default)]
    turn: Option<usize>,
    kind: String,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    at: Option<[i32; 2]>,
}

impl Refusal {
    fn of(e: &RecordError) -> Refusal {
        Refusal {
            turn: e.turn(),
            kind: e.kind().to_string(),
            rule: e.ruling().map(str::to_string),
            at: e.play_error().and_then(|p| p.at()).map(|p| [p.x, p.y]),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    turns: u32,
    scores: Vec<u32>,
    final_scores: Vec<u32>,
    supply: Vec<u8>,
    #[serde(default)]
    finished: Option<bool>,
    /// Figures other than the follower in each player's supply, by name.
    #[serde(default)]
    supply_of: BTreeMap<String, Vec<u8>>,
    /// Tokens of wine, grain and cloth each player holds (Traders & Builders).
    #[serde(default)]
    goods: Option<Vec<[u8; 3]>>,
    /// Whether the turn being played (or the next one) is a second turn.
    #[serde(default)]
    second_turn: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    rule: String,
    #[serde(default)]
    source: Option<String>,
    /// Read as the record reader reads a file (`Record::from_json`), so
    /// that a setup it refuses is refused as it would be.
    record: serde_json::Value,
    #[serde(default)]
    expect: Option<Expect>,
    #[serde(default)]
    error: Option<Refusal>,
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

fn run(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let s: Scenario = serde_json::from_str(&text).map_err(|e| format!("not a scenario: {e}"))?;
    assert!(!s.rule.trim().is_empty() && !s.name.trim().is_empty(), "{}: a scenario names its rule", path.display());
    let _ = s.source;
    let replayed = Record::from_json(&s.record.to_string()).and_then(|r| Game::replay(&r));
    match (replayed, s.expect, s.error) {
        (Ok(game), Some(want), None) => {
            let got = Summary::of(game.state());
            let state = game.state();
            let figures_ok = want
                .supply_of
                .iter()
                .all(|(name, n)| FollowerKind::parse(name).is_some_and(|kind| state.supply_of(kind) == n.as_slice()));
            let same = got.turns == want.turns
                && got.scores == want.scores
                && got.final_scores == want.final_scores
                && got.supply == want.supply
                && want.finished.is_none_or(|f| f == got.finished)
                && figures_ok
                && want.goods.as_ref().is_none_or(|g| g.as_slice() == state.goods())
                && want.second_turn.is_none_or(|s| s == state.is_second_turn());
            if same {
                Ok(())
            } else {
                let others: Vec<String> =
                    FollowerKind::ALL[1..].iter().map(|k| format!("{} {:?}", k.name(), state.supply_of(*k))).collect();
                Err(format!(
                    "'{}' ({}): got turns {} scores {:?} final {:?} supply {:?} ({}) goods {:?} second turn {}, expected turns {} scores {:?} final {:?} supply {:?} {:?} goods {:?} second turn {:?}",
                    s.name, s.rule, got.turns, got.scores, got.final_scores, got.supply, others.join(", "), state.goods(), state.is_second_turn(),
                    want.turns, want.scores, want.final_scores, want.supply, want.supply_of, want.goods, want.second_turn
                ))
            }
        }
        (Err(e), None, Some(want)) if Refusal::of(&e) == want => Ok(()),
        (Err(e), None, Some(want)) => {
            Err(format!("'{}' ({}): refused with {:?} ('{e}'), expected {want:?}", s.name, s.rule, Refusal::of(&e)))
        }
        (Ok(_), None, Some(want)) => {
            Err(format!("'{}' ({}): replayed, but should be refused with {want:?}", s.name, s.rule))
        }
        (Err(e), Some(_), None) => Err(format!("'{}' ({}): refused: {e}", s.name, s.rule)),
        _ => Err("a scenario has exactly one of 'expect' and 'error'".into()),
    }
}

#[test]
fn every_scenario_replays_to_its_figures_or_is_refused_as_expected() {
    let mut all = Vec::new();
    files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios"), &mut all);
    all.sort();
    let failures: Vec<String> = all
        .iter()
        .filter_map(|p| run(p).err().map(|e| format!("{}: {e}", p.file_name().unwrap().to_string_lossy())))
        .collect();
    assert!(failures.is_empty(), "{} of {} scenarios fail:\n{}", failures.len(), all.len(), failures.join("\n"));
    eprintln!("{} scenarios checked", all.len());
}
