//! Importing hand-made JCloisterZone saved games (`tests/data/`), checked
//! against figures worked out by hand; the round trip through an export;
//! and files that must be refused, each with the place and the reason.

use std::path::PathBuf;

use carcassonne_engine::{Action, FollowerKind, Game, Location, Record, Summary};
use carcassonne_jcz::{export, import, JczErrorKind};
use serde_json::{json, Value};

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn summary(record: &Record) -> Summary {
    Summary::of(Game::replay(record).expect("the record replays").state())
}

fn figures(s: &Summary) -> (u32, Vec<u32>, Vec<u32>, Vec<u8>) {
    (s.turns, s.scores.clone(), s.final_scores.clone(), s.supply.clone())
}

/// Ann and Bob, base game, 8 turns around the start tile D at [0, 0]:
///
/// 1. Ann: X at [1, 0], follower on its west road (which runs into D's road).
/// 2. Bob: W at [-1, 0], follower on its south road. W's east road closes
///    the road W-D-X between two villages: 3 tiles, Ann +3.
/// 3. Ann: F turned 90 at [0, -1] on D's city, follower on the city.
/// 4. Bob: E turned 180 at [0, -2] closes the city D-F-E: 3 tiles and F's
///    pennant, (3 + 1) x 2 = 8, Ann +8. Bob's farmer on E's field.
/// 5. Ann: B at [-1, -1], monk.
/// 6. Bob: A turned 180 at [-1, 1], monk; A's road closes W's south road
///    between W's village and A's monastery: 2 tiles, Bob +2.
/// 7. Ann: M turned 90 at [1, -2] (city open to the north and east, its
///    field joining E's), follower on the city.
/// 8. Bob: U at [2, 0] on X's east road, follower on it.
///
/// During the game: Ann 3 + 8 = 11, Bob 2. At the end: Ann's monk on B has
/// E, F, W and D around it (1 + 4 = 5), her open city M with its pennant
/// scores 1 + 1 = 2: 18. Bob's monk on A has W and D (1 + 2 = 3), his open
/// road X-U 2, his farmer's field (E and M) borders one completed city
/// (D-F-E) for 3: 2 + 3 + 2 + 3 = 10. Followers in supply: Ann 5 (B, M),
/// Bob 4 (E's field, A, U).
#[test]
fn base_game_scores_every_kind_of_feature() {
    let got = import(&data("base-scoring.jcz")).expect("imports");
    assert!(got.warnings.is_empty(), "{:?}", got.warnings);
    let r = &got.record;
    assert_eq!(r.setup.players, ["Ann", "Bob"]);
    assert!(r.setup.expansions.is_empty());
    let tiles: Vec<&str> = r.turns.iter().map(|t| t.tile.as_str()).collect();
    assert_eq!(tiles, ["X", "W", "F", "E", "B", "A", "M", "U"]);
    let meeples: Vec<Option<&str>> = r.turns.iter().map(|t| t.meeple.as_deref()).collect();
    assert_eq!(
        meeples,
        [
            Some("road:W"),
            Some("road:S"),
            Some("city:N"),
            Some("field:NNW"),
            Some("monastery"),
            Some("monastery"),
            Some("city:N"),
            Some("road:E")
        ]
    );
    assert_eq!((r.turns[2].at, r.turns[2].rot), (Some([0, -1]), Some(90)));
    assert_eq!(figures(&summary(r)), (8, vec![11, 2], vec![18, 10], vec![5, 4]));
}

/// Ann and Bob with The Ferries (JCloisterZone's lake tiles: edition c2):
///
/// 1. Ann: F3 at [1, 0] (jetties E, S, W), follower on the west jetty road
///    (joined to D's road), ferry E-W.
/// 2. Bob: W at [-1, 0], follower on its south road; moves the ferry at
///    [1, 0] to E-S. The road W-D-F3 now ends at F3's west jetty, which has
///    no ferry, and at W's village: 3 tiles, Ann +3 (F9: a move alone closes
///    a road).
/// 3. Ann: U at [2, 0] on F3's east jetty, follower on it; she could move the
///    ferry and does not (a PASS).
/// 4. Bob: A turned 180 at [1, 1] on F3's south jetty, monk; no move (PASS).
/// 5. Ann: W at [3, 0] closes U's road: W, U, F3 (east jetty, ferry, south
///    jetty) and A's monastery: 4 tiles, Ann +4. Follower on W's east road.
/// 6. Bob: F4 at [-1, 1] below W's south road, follower on its east jetty
///    road (free until the ferry joins it, F4), ferry N-E: his two
///    followers share the road W-F4. No ferry to move.
/// 7. Ann: V at [0, 1] on F4's east jetty, no follower; moves the ferry at
///    [-1, 1] to E-S. W's south road now ends at F4's north jetty: closed,
///    2 tiles, Bob +2; his other follower stays on the open road V-F4.
///
/// During the game: Ann 3 + 4 = 7, Bob 2. At the end: Ann's road W at
/// [3, 0] 1: 8. Bob's road V-F4 2 (F11: a road with ferries scores as any),
/// his monk on A has D, F3, U and V around it (1 + 4 = 5): 2 + 2 + 5 = 9.
/// Followers in supply: Ann 6, Bob 5.
#[test]
fn ferries_placed_and_moved() {
    let got = import(&data("ferries.jcz")).expect("imports");
    assert!(got.warnings.is_empty(), "{:?}", got.warnings);
    let r = &got.record;
    assert_eq!(r.setup.expansions, ["ferries"]);
    assert_eq!(r.setup.edition, Some(carcassonne_engine::Edition::C2));
    let ferries: Vec<Option<&str>> = r.turns.iter().map(|t| t.ferry.as_deref()).collect();
    assert_eq!(ferries, [Some("E-W"), None, None, None, None, Some("N-E"), None]);
    let moves: Vec<(usize, [i64; 2], &str)> = r
        .turns
        .iter()
        .enumerate()
        .flat_map(|(i, t)| t.moves.iter().map(move |m| (i + 1, m.at, m.ferry.as_str())))
        .collect();
    assert_eq!(moves, [(2, [1, 0], "E-S"), (7, [-1, 1], "E-S")]);
    assert_eq!(figures(&summary(r)), (7, vec![7, 2], vec![8, 9], vec![6, 5]));
}

#[test]
fn import_export_import_gives_the_same_record() {
    for name in ["base-scoring.jcz", "ferries.jcz"] {
        let first = import(&data(name)).unwrap().record;
        let written = export(&first).unwrap();
        assert!(written.warnings.is_empty());
        let again = import(&written.text).unwrap();
        assert_eq!(again.record, first, "{name}");
        assert!(again.warnings.is_empty());
    }
}

#[test]
fn export_writes_what_jcloisterzone_replays() {
    let record = import(&data("ferries.jcz")).unwrap().record;
    let saved: Value = serde_json::from_str(&export(&record).unwrap().text).unwrap();
    assert_eq!(saved["setup"]["sets"], json!({"basic:1": 1, "ferries": 1}));
    assert_eq!(saved["setup"]["elements"]["ferry"], json!(1));
    assert_eq!(saved["setup"]["start"][0]["tile"], json!("BA/RCr"));
    assert_eq!(saved["players"][1], json!({"name": "Bob", "slot": 1}));
    assert_eq!(saved["gameAnnotations"]["drawOrder"][5], json!("FR/RRRR"));
    let replay = saved["replay"].as_array().unwrap();
    let kinds: Vec<&str> = replay.iter().map(|m| m["type"].as_str().unwrap()).collect();
    // The hand-made file's messages, one for one: a PASS ends the moves only
    // where JCloisterZone still offers a ferry to move (turns 3, 4 and 5).
    let original: Value = serde_json::from_str(&data("ferries.jcz")).unwrap();
    let want: Vec<&str> = original["replay"].as_array().unwrap().iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, want);
    assert_eq!(replay[1]["payload"]["pointer"], json!({"position": [1, 0], "feature": "Road", "location": "W"}));
    assert_eq!(replay[1]["payload"]["meepleId"], json!("0.small.1"));
    assert_eq!(replay[6]["payload"]["pointer"]["location"], json!("SE"));
    assert_eq!(replay[13]["payload"]["pointer"], json!({"position": [1, 1], "feature": "Monastery", "location": "I"}));
    // Ann's first follower came back in turn 2; her second is on U until
    // the end of turn 5.
    assert_eq!(replay[9]["payload"]["meepleId"], json!("0.small.1"));
    assert_eq!(replay[17]["payload"]["meepleId"], json!("0.small.2"));
}

#[test]
fn a_game_without_a_draw_order_warns_that_the_bag_is_unproven() {
    let mut doc: Value = serde_json::from_str(&data("base-scoring.jcz")).unwrap();
    doc.as_object_mut().unwrap().remove("gameAnnotations");
    let got = import(&doc.to_string()).unwrap();
    assert_eq!(figures(&summary(&got.record)), (8, vec![11, 2], vec![18, 10], vec![5, 4]));
    assert_eq!(got.warnings.len(), 1);
    assert!(got.warnings[0].contains("do not record discarded tiles"), "{}", got.warnings[0]);
}

#[test]
fn an_uncommitted_last_turn_is_left_out_with_a_warning() {
    let mut doc: Value = serde_json::from_str(&data("base-scoring.jcz")).unwrap();
    doc["replay"].as_array_mut().unwrap().pop();
    let got = import(&doc.to_string()).unwrap();
    assert_eq!(got.record.turns.len(), 7);
    assert!(
        got.warnings.iter().any(|w| w.starts_with("replay[21]: the last turn was never committed")),
        "{:?}",
        got.warnings
    );
}

/// Applies `change` to a hand-made file and imports it, expecting a refusal.
fn refused(file: &str, change: impl FnOnce(&mut Value)) -> carcassonne_jcz::JczError {
    let mut doc: Value = serde_json::from_str(&data(file)).unwrap();
    change(&mut doc);
    let err = import(&doc.to_string()).expect_err("refused");
    assert!(!err.to_string().contains('\n'), "one line: {err}");
    err
}

fn assert_refusal(err: &carcassonne_jcz::JczError, kind: JczErrorKind, text: &str) {
    assert_eq!(err.kind, kind, "{err}");
    assert!(err.to_string().starts_with(text), "'{err}' should start with '{text}'");
}

#[test]
fn abbey_and_mayor_tiles_without_its_elements_give_no_figures() {
    let mut doc: Value = serde_json::from_str(&data("base-scoring.jcz")).unwrap();
    doc["setup"]["sets"]["abbey-and-mayor:1"] = json!(1);
    let got = import(&doc.to_string()).unwrap();
    let rules = got.record.setup.rules().unwrap();
    assert!(rules.has(carcassonne_engine::Expansion::Abbey) && rules.has_tiles(carcassonne_engine::Expansion::Abbey));
    assert_eq!(rules.abbeys(), 0);
    assert_eq!(rules.figures(), [(carcassonne_engine::FollowerKind::Normal, 7)]);
    // The same game as without the set: its tiles are only in the bag.
    assert_eq!(figures(&summary(&got.record)), (8, vec![11, 2], vec![18, 10], vec![5, 4]));
}

#[test]
fn other_expansions_and_rule_variants_are_refused() {
    let e = refused("base-scoring.jcz", |d| d["setup"]["sets"]["bridges-castles-and-bazaars"] = json!(1));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.sets: tile set bridges-castles-and-bazaars is not supported");
    let e = refused("base-scoring.jcz", |d| d["setup"]["sets"]["traders-and-builders:1"] = json!(1));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "setup.elements.traders: Traders & Builders' tiles without their trade goods are not supported",
    );
    let e = refused("base-scoring.jcz", |d| d["setup"]["elements"]["barn"] = json!(10));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.elements.barn: 10 barns a player are not supported");
    let e = refused("base-scoring.jcz", |d| {
        d["setup"]["elements"]["barn"] = json!(1);
        d["setup"]["rules"]["barn-placement"] = json!("occupied");
    });
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "setup.rules.barn-placement: barn-placement occupied is not supported",
    );
    let e = refused("base-scoring.jcz", |d| d["setup"]["elements"]["fairy"] = json!(true));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "setup.elements.fairy: game element fairy (The Princess & the Dragon) is not supported",
    );
    let e = refused("base-scoring.jcz", |d| d["setup"]["elements"]["farmers"] = json!(false));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.elements.farmers: a game without farmers is not supported");
    let e = refused("base-scoring.jcz", |d| d["setup"]["rules"]["tiny-city-scoring"] = json!("3"));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.rules.tiny-city-scoring: a two-tile city scoring \"3\"");
    let e = refused("base-scoring.jcz", |d| d["setup"]["elements"]["small-follower"] = json!(8));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.elements.small-follower: 8 followers");
    let e = refused("ferries.jcz", |d| {
        d["setup"]["elements"].as_object_mut().unwrap().remove("ferry");
    });
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.elements.ferry: lake tiles without ferries");
    let e = refused("base-scoring.jcz", |d| {
        d["setup"] = json!({"expansions": {"BASIC": true, "TRADERS_AND_BUILDERS": true}});
    });
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.expansions: expansion TRADERS_AND_BUILDERS is not supported");
    let e = refused("base-scoring.jcz", |d| d["appVersion"] = json!("4.6.1"));
    assert_refusal(&e, JczErrorKind::Unsupported, "appVersion: saved games of JCloisterZone 4.6.1");
    let e = refused("base-scoring.jcz", |d| d["replay"][0]["payload"]["tileId"] = json!("AM/A"));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "replay[0]: tile AM/A is an abbey, and the setup gives the players none",
    );
    let e = refused("ferries.jcz", |d| d["replay"][2]["payload"]["token"] = json!("BRIDGE"));
    assert_refusal(&e, JczErrorKind::Unsupported, "replay[2]: token BRIDGE is not supported");
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["payload"]["meepleId"] = json!("0.phantom.1"));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "replay[1]: meeple 0.phantom.1 is not supported (only small and big followers, mayors, wagons, barns, builders, pigs and abbots are)",
    );
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["payload"]["meepleId"] = json!("0.abbot.1"));
    assert_refusal(
        &e,
        JczErrorKind::Illegal,
        "replay[1]: meeple 0.abbot.1 is an abbot, and this game gives the players none",
    );
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["payload"]["meepleId"] = json!("0.builder.1"));
    assert_refusal(
        &e,
        JczErrorKind::Illegal,
        "replay[1]: meeple 0.builder.1 is a builder, and this game gives the players none",
    );
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["payload"]["meepleId"] = json!("0.big.1"));
    assert_refusal(
        &e,
        JczErrorKind::Illegal,
        "replay[1]: meeple 0.big.1 is a big follower, and this game gives the players none",
    );
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["type"] = json!("MOVE_NEUTRAL_FIGURE"));
    assert_refusal(&e, JczErrorKind::Unsupported, "replay[1]: message MOVE_NEUTRAL_FIGURE is not supported");
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["payload"]["pointer"]["location"] = json!("TOWER"));
    assert_refusal(&e, JczErrorKind::Unsupported, "replay[1]: location TOWER is not supported");
}

#[test]
fn malformed_files_are_refused() {
    let e = import("{ not json").unwrap_err();
    assert_refusal(&e, JczErrorKind::Malformed, "not a JSON document");
    let e = import("[1, 2]").unwrap_err();
    assert_refusal(&e, JczErrorKind::Malformed, "not a JCloisterZone saved game");
    let e = refused("base-scoring.jcz", |d| {
        d.as_object_mut().unwrap().remove("replay");
    });
    assert_refusal(&e, JczErrorKind::Malformed, "replay: missing");
    let e = refused("base-scoring.jcz", |d| d["replay"][0]["payload"]["rotation"] = json!("R45"));
    assert_refusal(&e, JczErrorKind::Malformed, "replay[0]: \"R45\" is not a rotation");
    let e = refused("base-scoring.jcz", |d| d["replay"][0]["payload"]["position"] = json!([1]));
    assert_refusal(&e, JczErrorKind::Malformed, "replay[0]: [1] is not a position");
    let e = refused("base-scoring.jcz", |d| {
        d["replay"].as_array_mut().unwrap().remove(2);
    });
    assert_refusal(&e, JczErrorKind::Malformed, "replay[2]: PLACE_TILE before the COMMIT");
    let e = refused("base-scoring.jcz", |d| {
        d["replay"].as_array_mut().unwrap().remove(1);
    });
    assert_refusal(&e, JczErrorKind::Malformed, "replay[1]: COMMIT before the follower step");
    let e = refused("base-scoring.jcz", |d| d["players"] = json!([]));
    assert_refusal(&e, JczErrorKind::Unsupported, "players: a game has 1 to 5 players, not 0");
}

#[test]
fn illegal_moves_are_refused_where_they_are() {
    let e = refused("base-scoring.jcz", |d| d["replay"][3]["payload"]["rotation"] = json!("R90"));
    assert_refusal(
        &e,
        JczErrorKind::Illegal,
        "replay[3]: tile W turned 90 at [-1, 0] does not match the edge of its neighbour to the E",
    );
    let e = refused("base-scoring.jcz", |d| d["replay"][0]["payload"]["position"] = json!([5, 5]));
    assert_refusal(&e, JczErrorKind::Illegal, "replay[0]: a tile must share an edge with a placed tile");
    // A follower on a feature the tile does not have there.
    let e = refused("base-scoring.jcz", |d| d["replay"][1]["payload"]["pointer"]["location"] = json!("WE"));
    assert_refusal(&e, JczErrorKind::Illegal, "replay[1]: tile X turned 0 has no feature at WE");
    // Bob's follower on the road Ann holds.
    let e = refused("base-scoring.jcz", |d| d["replay"][4]["payload"]["pointer"]["location"] = json!("E"));
    assert_refusal(&e, JczErrorKind::Illegal, "replay[4]: the feature at road:E already holds a follower");
    let e = refused("base-scoring.jcz", |d| d["replay"][3]["player"] = json!(0));
    assert_refusal(
        &e,
        JczErrorKind::Illegal,
        "replay[3]: PLACE_TILE by player 0 (Ann), but it is the turn of player 1 (Bob)",
    );
    // The draw order says BA/C came first: it fits, so it was not discarded.
    let e = refused("base-scoring.jcz", |d| {
        d["gameAnnotations"]["drawOrder"].as_array_mut().unwrap().insert(0, json!("BA/C"));
    });
    assert_refusal(&e, JczErrorKind::Illegal, "gameAnnotations.drawOrder[0]: tile BA/C is drawn here");
    // A lake tile takes a ferry.
    let e = refused("ferries.jcz", |d| {
        d["replay"].as_array_mut().unwrap().remove(2);
    });
    assert_refusal(&e, JczErrorKind::Illegal, "replay[2]: a lake tile takes a ferry");
    // The ferry placed this turn cannot move (F6).
    let e = refused("ferries.jcz", |d| d["replay"][6]["payload"]["pointer"]["position"] = json!([-1, 0]));
    assert_refusal(&e, JczErrorKind::Illegal, "replay[6]: there is no ferry at [-1, 0]");
}

/// JCloisterZone before 5.7 named the monastery CLOISTER (and wrote no
/// feature class); such files import as the newer ones do.
#[test]
fn older_files_name_the_monastery_cloister() {
    let newer = import(&data("base-scoring.jcz")).unwrap().record;
    let mut doc: Value = serde_json::from_str(&data("base-scoring.jcz")).unwrap();
    for m in doc["replay"].as_array_mut().unwrap() {
        if m["payload"]["pointer"]["location"] == json!("I") {
            m["payload"]["pointer"]["location"] = json!("CLOISTER");
            m["payload"]["pointer"].as_object_mut().unwrap().remove("feature");
        }
    }
    doc["appVersion"] = json!("5.6.1");
    let older = import(&doc.to_string()).unwrap();
    assert_eq!(older.record, newer);
    assert!(older.warnings.is_empty());
}

/// `tiny-city-scoring: "2"` is read into the record, and changes the score:
/// Ann's city D-F-E in base-scoring.jcz has 3 tiles, so it is not tiny and
/// scores 8 either way, but a two-tile city scores 2 instead of 4.
#[test]
fn the_tiny_city_variant_is_read_and_written() {
    let mut doc: Value = serde_json::from_str(&data("base-scoring.jcz")).unwrap();
    doc["setup"]["rules"]["tiny-city-scoring"] = json!("2");
    let got = import(&doc.to_string()).unwrap();
    assert_eq!(got.record.setup.rules.tiny_city_scoring, Some(2));
    assert_eq!(figures(&summary(&got.record)), (8, vec![11, 2], vec![18, 10], vec![5, 4]));
    let saved: Value = serde_json::from_str(&export(&got.record).unwrap().text).unwrap();
    assert_eq!(saved["setup"]["rules"], json!({"tiny-city-scoring": "2"}));
    assert_eq!(import(&saved.to_string()).unwrap().record, got.record);

    // Ann closes the two-tile city D-E at once.
    let two = r#"{"format": "carcassonne-record/1", "setup": {"players": ["Ann", "Bob"], "edition": "c2",
        "rules": {"tiny-city-scoring": 2}}, "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "meeple": "city:S"}]}"#;
    let record = Record::from_json(two).unwrap();
    let saved: Value = serde_json::from_str(&export(&record).unwrap().text).unwrap();
    assert_eq!(saved["setup"]["rules"], json!({"tiny-city-scoring": "2"}));
    let back = import(&saved.to_string()).unwrap().record;
    assert_eq!(summary(&back).scores, [2, 0]);
    let mut standard = saved.clone();
    standard["setup"]["rules"]["tiny-city-scoring"] = json!("4");
    let back = import(&standard.to_string()).unwrap().record;
    assert!(back.setup.rules.is_empty());
    assert_eq!(summary(&back).scores, [4, 0]);
}

/// A record of a game in progress ends with the drawn tile alone: the export
/// puts it next in the draw order, and warns that an import ends before it.
#[test]
fn a_drawn_tile_waiting_is_exported_as_the_next_draw() {
    let mut record = import(&data("base-scoring.jcz")).unwrap().record;
    let whole = record.clone();
    record.turns.push(carcassonne_engine::record::Turn { tile: "K".into(), ..Default::default() });
    let written = export(&record).unwrap();
    assert_eq!(written.warnings.len(), 1);
    assert!(written.warnings[0].starts_with("turn 9: tile K is drawn and not yet placed"), "{:?}", written.warnings);
    let saved: Value = serde_json::from_str(&written.text).unwrap();
    assert_eq!(saved["gameAnnotations"]["drawOrder"][8], json!("BA/RrC"));
    assert_eq!(saved["replay"], serde_json::from_str::<Value>(&export(&whole).unwrap().text).unwrap()["replay"]);
    assert_eq!(import(&written.text).unwrap().record, whole);
}

/// Six players with Inns & Cathedrals and The Ferries (Ann, Bob, Cat, Dan,
/// Eve, Fay; Fay is JCloisterZone's slot 5):
///
/// 1. Ann: IC/CCCC (I3) at [0, -1]; its south cap closes D's city (two
///    tiles, nobody's: nothing scored). Her farmer on the field inside the
///    tile (`Field` at `I`, our `field:inner`).
/// 2. Bob: IC/RFr.i (I15, a road with an inn) at [1, 0], follower on its road.
/// 3. Cat: FR/RRR (F3) at [-1, 0]; its east jetty road joins D's road, which
///    Bob holds, so her **big follower** (`2.big.1`) goes on the west jetty
///    road; her ferry W-E then joins the two: Cat 2 against Bob's 1.
/// 4. Dan: A turned 90 at [2, 0] ends the road at its monastery, monk. The
///    ferry at [-1, 0] could move: a PASS ends the moves.
/// 5. Eve: A turned 270 at [-2, 0] closes the road A-F3-D-I15-A: 5 tiles
///    with an inn, 5 x 2 = 10 for Cat alone. Monk; PASS ends the moves.
/// 6. Fay: IC/Cccc.c (I1) at [0, -2] on I3's north cap, her big follower
///    (`5.big.1`) on the cathedral city.
/// 7. Ann again: E turned 270 at [1, -1] closes I3's east cap (two tiles,
///    nobody's). She passes.
///
/// During the game: Cat 10. At the end: Ann's farmer borders four caps, two
/// of them in completed cities: 6. Dan's monk has E and I15 around it
/// (1 + 2 = 3), Eve's has F3 (1 + 1 = 2). Fay's cathedral city is open: 0.
/// Bob: 0. Followers in supply: Ann 6, Dan and Eve 6, the others 7; Cat's
/// big follower is back, Fay's is on the board.
#[test]
fn inns_with_ferries_and_six_players() {
    let got = import(&data("inns-ferries.jcz")).expect("imports");
    assert!(got.warnings.is_empty(), "{:?}", got.warnings);
    let r = &got.record;
    assert_eq!(r.setup.players, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]);
    assert_eq!(r.setup.expansions, ["ferries", "inns"]);
    // A big follower needs version 2: its turns list their actions.
    assert_eq!(r.format, "carcassonne-record/2");
    let tiles: Vec<&str> = r.turns.iter().map(|t| t.tile.as_str()).collect();
    assert_eq!(tiles, ["I3", "I15", "F3", "A", "A", "I1", "E"]);
    let deploys: Vec<(usize, Action)> = r
        .turns
        .iter()
        .flat_map(|t| t.actions.iter().filter(|a| matches!(a, Action::Deploy(..))).map(|a| (t.player.unwrap(), *a)))
        .collect();
    let deploy = |kind, loc: &str| Action::Deploy(kind, loc.parse::<Location>().unwrap());
    assert_eq!(
        deploys,
        [
            (0, deploy(FollowerKind::Normal, "field:inner")),
            (1, deploy(FollowerKind::Normal, "road:E")),
            (2, deploy(FollowerKind::Big, "road:W")),
            (3, deploy(FollowerKind::Normal, "monastery")),
            (4, deploy(FollowerKind::Normal, "monastery")),
            (5, deploy(FollowerKind::Big, "city:N")),
        ]
    );
    assert_eq!(r.turns[2].actions[2].to_string(), "ferry E-W");
    let s = summary(r);
    assert_eq!(figures(&s), (7, vec![0, 0, 10, 0, 0, 0], vec![6, 0, 10, 3, 2, 0], vec![6, 7, 7, 6, 6, 7]));
    let state = Game::replay(r).unwrap();
    assert_eq!(state.state().supply_of(FollowerKind::Big), [1, 1, 1, 1, 1, 0]);
}

/// The export of an Inns & Cathedrals game with The Ferries: message for
/// message the hand-made file above (but its random numbers), and in the
/// shape of JCloisterZone's own Inns & Cathedrals files: the same set and
/// elements, and every message, payload and pointer with the same fields.
#[test]
fn inns_export_writes_what_jcloisterzone_writes() {
    let record = import(&data("inns-ferries.jcz")).unwrap().record;
    let written = export(&record).unwrap();
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let saved: Value = serde_json::from_str(&written.text).unwrap();
    let hand: Value = serde_json::from_str(&data("inns-ferries.jcz")).unwrap();
    for (ours, theirs) in saved["replay"].as_array().unwrap().iter().zip(hand["replay"].as_array().unwrap()) {
        assert_eq!(ours["type"], theirs["type"]);
        assert_eq!(ours["player"], theirs["player"]);
        if ours["type"] != "COMMIT" {
            assert_eq!(ours["payload"], theirs["payload"]);
        }
    }
    assert_eq!(saved["replay"].as_array().unwrap().len(), hand["replay"].as_array().unwrap().len());
    assert_eq!(saved["gameAnnotations"]["drawOrder"], hand["gameAnnotations"]["drawOrder"]);
    assert_eq!(saved["replay"][7]["payload"]["meepleId"], json!("2.big.1"));
    assert_eq!(saved["replay"][19]["payload"]["meepleId"], json!("5.big.1"));
    assert_eq!(
        saved["replay"][1]["payload"]["pointer"],
        json!({"position": [0, -1], "feature": "Field", "location": "I"})
    );
    assert_eq!(saved["players"][5], json!({"name": "Fay", "slot": 5}));

    // JCloisterZone's own file of this expansion, beside ours.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/engine-tests/cathedrals-scoring.jcz");
    let real: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut sets = real["setup"]["sets"].clone();
    sets["ferries"] = json!(1);
    assert_eq!(saved["setup"]["sets"], sets);
    let mut elements = real["setup"]["elements"].clone();
    elements["ferry"] = json!(1);
    assert_eq!(saved["setup"]["elements"], elements);
    assert_eq!(saved["setup"]["start"], real["setup"]["start"]);
    assert_eq!(keys(&saved["players"][0]), keys(&real["players"][0]));
    // Every top-level field of theirs but the test's own is written.
    for k in keys(&real) {
        assert!(k == "test" || saved.get(&k).is_some(), "{k}");
    }
    for k in keys(&real["setup"]) {
        assert!(k == "options" || saved["setup"].get(&k).is_some(), "setup.{k}");
    }
    // Each kind of message they have, with the same fields at each level.
    for kind in ["PLACE_TILE", "DEPLOY_MEEPLE", "PASS"] {
        let find = |doc: &Value| doc["replay"].as_array().unwrap().iter().find(|m| m["type"] == kind).cloned().unwrap();
        let (ours, theirs) = (find(&saved), find(&real));
        assert_eq!(keys(&ours), keys(&theirs), "{kind}");
        assert_eq!(keys(&ours["payload"]), keys(&theirs["payload"]), "{kind}");
        assert_eq!(keys(&ours["payload"]["pointer"]), keys(&theirs["payload"]["pointer"]), "{kind}");
    }
    // JCloisterZone's file writes COMMIT {random} (5.7) and ours {random, salt}.
    let commit = saved["replay"].as_array().unwrap().iter().find(|m| m["type"] == "COMMIT").unwrap();
    assert!(commit["payload"].get("random").is_some());

    // And back: the same record, the same game.
    let back = import(&written.text).unwrap();
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(back.record, record);
    assert!(Game::replay(&back.record).unwrap().state() == Game::replay(&record).unwrap().state());
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
    k.sort();
    k
}

/// What a setup of Inns & Cathedrals must have, and what is refused.
#[test]
fn inns_setups_we_cannot_play_are_refused() {
    let f = "inns-ferries.jcz";
    let e = refused(f, |d| {
        d["setup"]["sets"].as_object_mut().unwrap().remove("inns-and-cathedrals:1");
        d["setup"]["sets"]["inns-and-cathedrals:2"] = json!(1);
    });
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.sets: tile set inns-and-cathedrals:2 is not supported");
    // A garden tile of that set, in a game of the first set.
    let e = refused(f, |d| d["replay"][3]["payload"]["tileId"] = json!("IC/RFr.iG"));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "replay[3]: tile IC/RFr.iG is not supported: it is a garden tile of the set inns-and-cathedrals:2",
    );
    let e = refused(f, |d| d["gameAnnotations"]["drawOrder"][0] = json!("IC/CCCCG"));
    assert_refusal(&e, JczErrorKind::Unsupported, "gameAnnotations.drawOrder[0]: tile IC/CCCCG is not supported");
    for (element, what) in [("inn", "inns"), ("cathedral", "cathedrals")] {
        for off in [json!(false), Value::Null] {
            let e = refused(f, |d| {
                if off.is_null() {
                    d["setup"]["elements"].as_object_mut().unwrap().remove(element);
                } else {
                    d["setup"]["elements"][element] = off.clone();
                }
            });
            assert_refusal(
                &e,
                JczErrorKind::Unsupported,
                &format!("setup.elements.{element}: Inns & Cathedrals with its {what} switched off is not supported"),
            );
        }
    }
    let e = refused(f, |d| d["setup"]["elements"]["big-follower"] = json!(0));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "setup.elements.big-follower: Inns & Cathedrals without the big follower is not supported",
    );
    let e = refused(f, |d| d["setup"]["elements"]["big-follower"] = json!(2));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.elements.big-follower: 2 big followers a player");
    let e = refused(f, |d| d["setup"]["elements"]["big-follower"] = json!("many"));
    assert_refusal(&e, JczErrorKind::Malformed, "setup.elements.big-follower: not a number");
    // Big followers need the expansion's set; its tiles too.
    let e = refused("base-scoring.jcz", |d| d["setup"]["elements"]["big-follower"] = json!(1));
    assert_refusal(&e, JczErrorKind::Unsupported, "setup.elements.big-follower: big followers without the tiles");
    let e = refused("base-scoring.jcz", |d| d["replay"][0]["payload"]["tileId"] = json!("IC/RRR.i"));
    assert_refusal(
        &e,
        JczErrorKind::Unsupported,
        "replay[0]: tile IC/RRR.i is a tile of Inns & Cathedrals, whose set inns-and-cathedrals:1 the setup does not name",
    );
    // Seven players, one more than the expansion allows.
    let e = refused(f, |d| d["players"].as_array_mut().unwrap().push(json!({"name": "Gus", "slot": 6})));
    assert_refusal(&e, JczErrorKind::Unsupported, "players: a game has 1 to 6 players, not 7");
    // The big follower is a figure of its own: a second one is not in supply.
    let e = refused(f, |d| {
        d["replay"][1]["payload"]["meepleId"] = json!("0.big.1");
        d["replay"][22]["type"] = json!("DEPLOY_MEEPLE");
        d["replay"][22]["payload"] = json!({"pointer": {"position": [1, -1], "feature": "Field", "location": "NL.NR.EL.ER.SL.SR"}, "meepleId": "0.big.1"});
    });
    assert_eq!(e.kind, JczErrorKind::Illegal, "{e}");
    assert_eq!(e.to_string(), "replay[22]: no big follower is left in supply");
}

/// `inn` and `cathedral` without the expansion's tiles name nothing on any
/// tile: such a setup (JCloisterZone writes none) reads as the base game.
#[test]
fn inns_and_cathedrals_elements_without_its_tiles_change_nothing() {
    let plain = import(&data("base-scoring.jcz")).unwrap().record;
    let mut doc: Value = serde_json::from_str(&data("base-scoring.jcz")).unwrap();
    doc["setup"]["elements"]["inn"] = json!(true);
    doc["setup"]["elements"]["cathedral"] = json!(true);
    assert_eq!(import(&doc.to_string()).unwrap().record, plain);
}
