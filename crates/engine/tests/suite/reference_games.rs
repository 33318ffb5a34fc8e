//! The reference games computed by JCloisterZone (`tests/data/`)
//! replay to exactly the figures it computed: base games, and games with
//! The Ferries (edition c2) with ferry moves and discards.

use std::path::PathBuf;

use carcassonne_engine::{Game, Record, Summary};
use serde::Deserialize;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
}

#[derive(Deserialize)]
struct Expect {
    turns: u32,
    scores: Vec<u32>,
    final_scores: Vec<u32>,
    supply: Vec<u8>,
}

#[derive(Deserialize)]
struct Reference {
    name: String,
    record: Record,
    expect: Expect,
}

fn check(name: &str, record: &Record, expect: &Expect) -> Result<(), String> {
    let game = Game::replay(record).map_err(|e| format!("{name}: {e}"))?;
    // The same game in version 2, and back from its actions to version 1.
    let v2 = record.to_v2().map_err(|e| format!("{name}: to_v2: {e}"))?;
    let again = Game::replay(&Record::from_json(&v2.to_json()).unwrap()).map_err(|e| format!("{name}: v2: {e}"))?;
    if again.state() != game.state() {
        return Err(format!("{name}: the version-2 record replays to another state"));
    }
    let actions = record.actions().map_err(|e| format!("{name}: actions: {e}"))?;
    if v2.actions().map_err(|e| format!("{name}: v2 actions: {e}"))? != actions {
        return Err(format!("{name}: versions 1 and 2 read as different actions"));
    }
    let rewritten = Record::from_actions(record.setup.clone(), actions.iter().flatten().copied()).unwrap();
    if rewritten.format != record.format || rewritten.actions().unwrap() != actions {
        return Err(format!("{name}: the record written again from its actions differs"));
    }
    let got = Summary::of(game.state());
    let want = (expect.turns, &expect.scores, &expect.final_scores, &expect.supply);
    if (got.turns, &got.scores, &got.final_scores, &got.supply) != want {
        return Err(format!(
            "{name}: got turns {} scores {:?} final {:?} supply {:?}, JCloisterZone says turns {} scores {:?} final {:?} supply {:?}",
            got.turns, got.scores, got.final_scores, got.supply, want.0, want.1, want.2, want.3
        ));
    }
    Ok(())
}

fn references(filter: impl Fn(&Reference) -> bool) -> Vec<Reference> {
    let text = std::fs::read_to_string(examples().join("reference-games.jsonl")).expect("reference games");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a reference line"))
        .filter(filter)
        .collect()
}

fn run(games: Vec<Reference>) {
    assert!(!games.is_empty());
    let failures: Vec<String> = games.iter().filter_map(|g| check(&g.name, &g.record, &g.expect).err()).collect();
    assert!(failures.is_empty(), "{} of {} games differ:\n{}", failures.len(), games.len(), failures.join("\n"));
}

#[test]
fn base_games_match_jcloisterzone() {
    let games = references(|g| g.record.setup.expansions.is_empty());
    assert_eq!(games.len(), 15);
    run(games);
}

#[test]
fn ferries_games_match_jcloisterzone() {
    let games = references(|g| g.record.setup.expansions.contains(&carcassonne_engine::Expansion::Ferries));
    assert_eq!(games.len(), 25);
    run(games);
}

#[test]
fn the_record_format_example_replays_to_its_figures() {
    let text = std::fs::read_to_string(examples().join("record-format-example.json")).unwrap();
    let expect: Expect =
        serde_json::from_str(&std::fs::read_to_string(examples().join("record-format-example.expect.json")).unwrap())
            .unwrap();
    check("record-format-example", &Record::from_json(&text).unwrap(), &expect).unwrap();
}

/// A server's record of a game in progress ends with the drawn tile alone:
/// every reference game, cut to its drawn last tile, replays to the figures
/// of the turns before it and is not finished, even with the bag now empty.
#[test]
fn a_game_waiting_for_its_last_tile_is_not_finished() {
    let games = references(|_| true);
    for g in &games {
        let complete = &g.record.turns[..g.record.turns.len() - 1];
        let before = Record { turns: complete.to_vec(), ..g.record.clone() };
        let mut waiting = before.clone();
        let last = g.record.turns.last().unwrap();
        waiting.turns.push(carcassonne_engine::record::Turn { tile: last.tile.clone(), ..Default::default() });

        let game = Game::replay(&waiting).unwrap_or_else(|e| panic!("{}: {e}", g.name));
        assert_eq!(game.pending_tile().map(|t| t.to_string()), Some(last.tile.clone()), "{}", g.name);
        assert!(game.state().bag().is_empty(), "{}: the last tile is drawn", g.name);
        let got = Summary::of(game.state());
        assert!(!got.finished, "{}: a tile waits to be placed", g.name);
        assert_eq!(got, Summary::of(Game::replay(&before).unwrap().state()), "{}", g.name);
        assert_eq!(game.record(), &waiting, "{}: the record keeps the waiting tile", g.name);
    }
}
