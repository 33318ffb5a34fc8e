//! Whatever a file holds, an import returns a record or a refusal naming
//! where (a message index that exists) and why, on one line; never a panic.
//! The files are games JCloisterZone saved (`tests/data/jcz/`), one of its
//! Inns & Cathedrals test games and our hand-made game of Inns & Cathedrals
//! with The Ferries and six players, mangled.

use std::path::PathBuf;

use carcassonne_jcz::import;
use proptest::prelude::*;
use serde_json::{json, Value};

/// A saved game, by its path from this crate's folder.
fn saved(path: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const FILES: [&str; 6] = [
    "../../tests/data/jcz/basic-502-0001.jcz",
    "../../tests/data/jcz/basic-505-0000.jcz",
    "../../tests/data/jcz/ferries-602-0000.jcz",
    "../../tests/data/jcz/ferries-605-0002.jcz",
    "tests/data/engine-tests/cathedrals-scoring.jcz",
    "tests/data/inns-ferries.jcz",
];

/// A JSON value of any kind, to put where a field was.
fn junk_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "[A-Z_./]{0,8}".prop_map(Value::String),
        prop::sample::select(
            &[
                "I",
                "CLOISTER",
                "NWSE",
                "WE",
                "NL.NR",
                "R90",
                "FERRY",
                "0.small.1",
                "0.big.1",
                "2.big.1",
                "1.big.2",
                "Monastery",
                "Road",
                "Field",
                "IC/Cccc.c",
                "IC/CCCC",
                "IC/CCCCG",
                "FR/RRR",
            ][..]
        )
        .prop_map(|s| json!(s)),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| json!([x, y])),
        Just(json!({})),
        Just(json!([])),
    ]
}

#[derive(Debug, Clone)]
enum Change {
    Remove(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Type(usize, &'static str),
    Field(usize, &'static str, Value),
    Pointer(usize, &'static str, Value),
    Top(&'static str, Value),
    /// A set or element of the setup, set or removed (null).
    Setup(&'static str, &'static str, Value),
}

fn change() -> impl Strategy<Value = Change> {
    let i = 0usize..400;
    let types = prop::sample::select(&["PLACE_TILE", "DEPLOY_MEEPLE", "PASS", "PLACE_TOKEN", "COMMIT", "UNDO"][..]);
    let fields = prop::sample::select(&["tileId", "rotation", "position", "pointer", "meepleId", "token"][..]);
    let pointer = prop::sample::select(&["position", "location", "feature"][..]);
    let top = prop::sample::select(&["setup", "players", "replay", "gameAnnotations", "appVersion"][..]);
    let section = prop::sample::select(&["sets", "elements"][..]);
    let setup_key = prop::sample::select(
        &[
            "basic:1",
            "ferries",
            "inns-and-cathedrals:1",
            "inns-and-cathedrals:2",
            "small-follower",
            "big-follower",
            "inn",
            "cathedral",
            "ferry",
        ][..],
    );
    prop_oneof![
        i.clone().prop_map(Change::Remove),
        i.clone().prop_map(Change::Duplicate),
        (i.clone(), i.clone()).prop_map(|(a, b)| Change::Swap(a, b)),
        (i.clone(), types).prop_map(|(a, t)| Change::Type(a, t)),
        (i.clone(), fields, junk_value()).prop_map(|(a, f, v)| Change::Field(a, f, v)),
        (i, pointer, junk_value()).prop_map(|(a, f, v)| Change::Pointer(a, f, v)),
        (top, junk_value()).prop_map(|(f, v)| Change::Top(f, v)),
        (section, setup_key, prop_oneof![Just(Value::Null), Just(json!(1)), Just(json!(true)), junk_value()])
            .prop_map(|(s, k, v)| Change::Setup(s, k, v)),
    ]
}

fn apply(doc: &mut Value, c: &Change) {
    if let Change::Top(f, v) = c {
        doc.as_object_mut().expect("a saved game").insert(f.to_string(), v.clone());
        return;
    }
    if let Change::Setup(section, key, v) = c {
        if let Some(map) = doc.get_mut("setup").and_then(|s| s.get_mut(*section)).and_then(Value::as_object_mut) {
            if v.is_null() {
                map.remove(*key);
            } else {
                map.insert(key.to_string(), v.clone());
            }
        }
        return;
    }
    let Some(replay) = doc["replay"].as_array_mut() else { return };
    let n = replay.len().max(1);
    match c {
        Change::Remove(i) if !replay.is_empty() => {
            replay.remove(i % n);
        }
        Change::Duplicate(i) if !replay.is_empty() => {
            let m = replay[i % n].clone();
            replay.insert(i % n, m);
        }
        Change::Swap(a, b) if !replay.is_empty() => replay.swap(a % n, b % n),
        Change::Type(i, t) if !replay.is_empty() => {
            if let Some(m) = replay[i % n].as_object_mut() {
                m.insert("type".into(), json!(t));
            }
        }
        Change::Field(i, f, v) if !replay.is_empty() && replay[i % n].get("payload").is_some_and(Value::is_object) => {
            replay[i % n]["payload"][*f] = v.clone();
        }
        Change::Pointer(i, f, v)
            if !replay.is_empty()
                && replay[i % n].get("payload").and_then(|p| p.get("pointer")).is_some_and(Value::is_object) =>
        {
            replay[i % n]["payload"]["pointer"][*f] = v.clone();
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn changed_games_import_or_are_refused_with_the_place(
        file in prop::sample::select(&FILES[..]),
        changes in prop::collection::vec(change(), 1..4),
    ) {
        let mut doc = saved(file);
        for c in &changes {
            apply(&mut doc, c);
        }
        let len = doc["replay"].as_array().map_or(0, Vec::len);
        if let Err(e) = import(&doc.to_string()) {
            let text = e.to_string();
            prop_assert!(!text.contains('\n') && !e.message.is_empty(), "{}", text);
            if let Some(i) = e.at.strip_prefix("replay[").and_then(|r| r.split(']').next()) {
                prop_assert!(i.parse::<usize>().unwrap() < len, "{}", text);
            }
        }
    }

    #[test]
    fn any_text_imports_or_is_refused(text in "\\PC{0,200}") {
        let _ = import(&text);
    }

    #[test]
    fn cut_files_import_or_are_refused(
        file in prop::sample::select(&[FILES[2], FILES[5]][..]),
        at in 0.0f64..1.0,
        junk in "[\\[\\]{}:,\"0-9A-Z_ -]{0,12}",
    ) {
        let text = saved(file).to_string();
        let mut cut = ((text.len() as f64 * at) as usize).min(text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let _ = import(&format!("{}{}{}", &text[..cut], junk, &text[cut..]));
    }
}
