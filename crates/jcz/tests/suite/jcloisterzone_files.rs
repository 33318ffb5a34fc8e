//! Files JCloisterZone wrote itself: 24 games saved by JCloisterZone 5.12
//! (`tests/data/jcz/` at the repository root, with the final scores it
//! computed) and the test games of JCloisterZone's own engine tests
//! (`tests/data/engine-tests/`, each with the assertions JCloisterZone checks
//! on it). Every one must import and end with JCloisterZone's figures.
//! The Inns & Cathedrals test games are also compared, turn by turn, with
//! the engine's own scenarios of the same games
//! (`crates/engine/tests/scenarios/inns/`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use carcassonne_engine::{Event, FeatureKind, Game, Pos, Record, Scoring, Summary};
use carcassonne_jcz::import;
use serde_json::Value;

fn repo_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/jcz").join(name)
}

fn engine_test(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/engine-tests").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn games_saved_by_jcloisterzone_import_with_its_final_scores() {
    let expect: BTreeMap<String, Vec<u32>> =
        serde_json::from_str(&std::fs::read_to_string(repo_data("final-scores.json")).unwrap()).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(repo_data(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".jcz"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 24);
    assert_eq!(names, expect.keys().cloned().collect::<Vec<_>>());
    let mut failures = Vec::new();
    let (mut skipped_steps, mut monasteries) = (0, 0);
    for name in &names {
        let text = std::fs::read_to_string(repo_data(name)).unwrap();
        monasteries += text.matches(r#""location":"I""#).count();
        let doc: Value = serde_json::from_str(&text).unwrap();
        let replay = doc["replay"].as_array().unwrap();
        // Turns where JCloisterZone skipped the follower step: no message
        // between PLACE_TILE and the next PLACE_TOKEN or COMMIT.
        skipped_steps += replay
            .windows(2)
            .filter(|w| w[0]["type"] == "PLACE_TILE" && matches!(w[1]["type"].as_str(), Some("COMMIT" | "PLACE_TOKEN")))
            .count();
        match import(&text) {
            Ok(got) => {
                let s = Summary::of(Game::replay(&got.record).unwrap().state());
                if !s.finished || s.final_scores != expect[name] || !got.warnings.is_empty() {
                    failures.push(format!(
                        "{name}: finished {} final scores {:?}, JCloisterZone {:?}; warnings {:?}",
                        s.finished, s.final_scores, expect[name], got.warnings
                    ));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {}:\n{}", failures.len(), names.len(), failures.join("\n"));
    // The games exercise both findings: monasteries at I, skipped steps.
    assert!(monasteries > 10 && skipped_steps > 100, "{monasteries} monasteries, {skipped_steps} skipped steps");
}

/// Checks one of JCloisterZone's assertions on an imported game: "NAME has
/// N points" or "NAME scored FEATURE for N points".
fn check(assertion: &str, players: &[String], scores: &[u32], scorings: &[Scoring]) -> Result<(), String> {
    let words: Vec<&str> = assertion.split_whitespace().collect();
    let seat = |name: &str| players.iter().position(|p| p == name).ok_or(format!("no player {name}"));
    let points = |n: &str| n.parse::<u32>().map_err(|e| format!("{n}: {e}"));
    match words[..] {
        [name, "has", n, "points" | "point"] => {
            let (seat, n) = (seat(name)?, points(n)?);
            (scores[seat] == n).then_some(()).ok_or(format!("{name} has {}", scores[seat]))
        }
        [name, "scored", feature, "for", n, "points" | "point"] => {
            let (seat, n) = (seat(name)?, points(n)?);
            let found = scorings.iter().any(|s| s.kind.name() == feature && s.points[seat] == n);
            let all: Vec<String> = scorings.iter().map(|s| format!("{} {:?}", s.kind.name(), s.points)).collect();
            found.then_some(()).ok_or(format!("scorings: {all:?}"))
        }
        _ => Err("not an assertion this test knows".into()),
    }
}

/// Imports a test game and checks every assertion it carries. A game with
/// `endTurn` was ended by JCloisterZone there: its points are the final ones.
fn assert_engine_test(name: &str) -> Record {
    assert_engine_test_scorings(name).0
}

/// As [`assert_engine_test`], also giving every scoring of the game (those
/// of the end of the game too, for a game JCloisterZone ended).
fn assert_engine_test_scorings(name: &str) -> (Record, Vec<Scoring>) {
    let text = engine_test(name);
    let doc: Value = serde_json::from_str(&text).unwrap();
    let got = import(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut events = Vec::new();
    let game = Game::replay_with(&got.record, &mut events).unwrap();
    let mut scorings: Vec<Scoring> = events
        .into_iter()
        .filter_map(|e| match e {
            Event::Scored(s) => Some(s),
            _ => None,
        })
        .collect();
    let ended = doc["gameAnnotations"].get("endTurn").is_some();
    let scores = if ended {
        game.state().final_scores_with(|s| scorings.push(s))
    } else {
        assert!(got.warnings.is_empty(), "{name}: {:?}", got.warnings);
        game.state().scores().to_vec()
    };
    let assertions = doc["test"]["assertions"].as_array().unwrap();
    assert!(!assertions.is_empty());
    for a in assertions {
        let a = a.as_str().unwrap();
        if let Err(why) = check(a, game.players(), &scores, &scorings) {
            panic!("{name}: '{a}' does not hold: {why}");
        }
    }
    (got.record, scorings)
}

#[test]
fn city_and_road_scoring() {
    assert_engine_test("city-and-road-scoring.jcz");
}

#[test]
fn field_scoring() {
    assert_engine_test("field-scoring.jcz");
}

#[test]
fn monastery_scoring_with_i_and_with_cloister() {
    let newer = assert_engine_test("monastery-scoring.jcz");
    let older = assert_engine_test("monastery-scoring-cloister.jcz");
    assert_eq!(newer, older);
}

#[test]
fn the_tiny_city_variant() {
    let record = assert_engine_test("tiny-city-rule-two-players.jcz");
    assert_eq!(record.setup.rules.tiny_city_scoring, Some(2));
    // The same game under the standard rules: Bob's two-tile city scores 4.
    let standard = engine_test("tiny-city-rule-two-players.jcz")
        .replace(r#""tiny-city-scoring": "2""#, r#""tiny-city-scoring": "4""#);
    let got = import(&standard).unwrap().record;
    assert_eq!(Game::replay(&got).unwrap().state().scores(), [6, 4]);
}

/// Solo games (one player, as JCloisterZone allows): every turn is
/// Wendy's. With the tiny-city variant her two-tile city scores 2, the
/// three-tile one 6; with a pennant the two-tile city scores 3.
#[test]
fn solo_games_with_the_tiny_city_variant() {
    let record = assert_engine_test("tiny-city-rule.jcz");
    assert_eq!(record.setup.players, ["Wendy"]);
    assert_eq!(record.setup.rules.tiny_city_scoring, Some(2));
    let record = assert_engine_test("tiny-city-coa.jcz");
    assert_eq!(record.setup.players, ["Wendy"]);
    assert_eq!(record.setup.expansions, ["abbey"]);
}

/// The turns of one of the engine's Inns & Cathedrals scenarios.
fn scenario_turns(name: &str) -> Vec<carcassonne_engine::record::Turn> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/scenarios/inns").join(name);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    serde_json::from_value::<Record>(doc["record"].clone()).unwrap().turns
}

/// One scoring of a game, found by its kind and a tile of it.
fn scoring_at(scorings: &[Scoring], kind: FeatureKind, tile: Pos, end_of_game: bool) -> &Scoring {
    let mut found =
        scorings.iter().filter(|s| s.kind == kind && s.tiles.contains(&tile) && s.end_of_game == end_of_game);
    let s = found.next().unwrap_or_else(|| panic!("no {kind} scored at {tile}: {scorings:?}"));
    assert!(found.next().is_none(), "two {kind} scorings at {tile}");
    s
}

fn sorted(mut tiles: Vec<Pos>) -> Vec<Pos> {
    tiles.sort();
    tiles
}

/// Alice's cathedral city of five tiles closes: 15. Bob's, open at the end
/// of the game (JCloisterZone ends it after 5 tiles), scores 0 for him: a
/// scoring of 0 points, not 2 a tile.
#[test]
fn inns_and_cathedrals_cathedrals_scoring() {
    let (record, scorings) = assert_engine_test_scorings("cathedrals-scoring.jcz");
    assert_eq!(record.setup.expansions, ["inns"]);
    assert_eq!(record.turns, scenario_turns("cathedral-completed-and-open.json"));
    let alice = scoring_at(&scorings, FeatureKind::City, Pos::new(0, -1), false);
    assert!(alice.completed);
    assert_eq!(alice.points, [15, 0]);
    assert_eq!(
        sorted(alice.tiles.clone()),
        sorted(vec![Pos::new(0, 0), Pos::new(0, -1), Pos::new(0, -2), Pos::new(1, -1), Pos::new(-1, -1)])
    );
    let bob = scoring_at(&scorings, FeatureKind::City, Pos::new(2, -1), true);
    assert!(!bob.completed);
    assert_eq!(bob.points, [0, 0]);
    assert_eq!(sorted(bob.tiles.clone()), [Pos::new(1, -1), Pos::new(2, -1)]);
}

/// The cathedral triples pennants too: 7 tiles and 5 pennants, 36 points, in
/// the middle of the game (no `endTurn`). IC/CCc+ lies turned 180.
#[test]
fn inns_and_cathedrals_cathedrals_scoring_2() {
    let (record, scorings) = assert_engine_test_scorings("cathedrals-scoring-2.jcz");
    assert_eq!(record.turns, scenario_turns("cathedral-pennants-count-three.json"));
    assert_eq!(record.turns[4].tile, "I6");
    assert_eq!(record.turns[4].rot, Some(180));
    let city = scoring_at(&scorings, FeatureKind::City, Pos::new(0, -1), false);
    assert_eq!((city.completed, city.tiles.len(), city.points.clone()), (true, 7, vec![36, 0]));
}

/// Alice's road with an inn closes: 3 tiles, 6 points. Bob's road with an
/// inn is open at the end: 0. IC/RRR.i's junction ends its three roads, so
/// its inn is on Alice's road only.
#[test]
fn inns_and_cathedrals_inns_scoring() {
    let (record, scorings) = assert_engine_test_scorings("inns-scoring.jcz");
    assert_eq!(record.turns, scenario_turns("inn-road-completed-and-open.json"));
    let alice = scoring_at(&scorings, FeatureKind::Road, Pos::new(0, 0), false);
    assert_eq!((alice.completed, alice.points.clone()), (true, vec![6, 0]));
    assert_eq!(sorted(alice.tiles.clone()), [Pos::new(-1, 0), Pos::new(0, 0), Pos::new(1, 0)]);
    let bob = scoring_at(&scorings, FeatureKind::Road, Pos::new(-2, 0), true);
    assert_eq!((bob.completed, bob.points.clone()), (false, vec![0, 0]));
    assert_eq!(sorted(bob.tiles.clone()), [Pos::new(-2, 0), Pos::new(-1, 0)]);
}

// ----- Abbey & Mayor: JCloisterZone's `engine-tests/abbey-and-mayor/` -----

/// The actions of a record's turn `i`, in the record's notation.
fn actions(record: &Record, i: usize) -> Vec<String> {
    record.turns[i].actions.iter().map(ToString::to_string).collect()
}

/// Every action of a record, in the record's notation.
fn all_actions(record: &Record) -> Vec<String> {
    (0..record.turns.len()).flat_map(|i| actions(record, i)).collect()
}

/// The abbey closes four cities at once; no A&M tiles, only the abbey
/// element: A&M is in play with the base game's tiles and no figures.
#[test]
fn abbey_and_mayor_abbey_closes_edges() {
    let record = assert_engine_test("abbey-merge.jcz");
    assert_eq!(record.setup.expansions, ["abbey"]);
    let rules = record.setup.rules().unwrap();
    assert!(!rules.has_tiles(carcassonne_engine::Expansion::Abbey));
    assert_eq!(rules.abbeys(), 1);
    assert_eq!(rules.figures(), [(carcassonne_engine::FollowerKind::Normal, 7)]);
    assert!(all_actions(&record).contains(&"abbey at [1, -1]".to_string()));
}

/// First edition's wagon rule (C1): Bob's wagon leaves the road the abbey
/// closed for the abbey's monastery, which it reaches through the abbey.
#[test]
fn abbey_and_mayor_wagon_moves_to_the_abbey_under_c1() {
    let record = assert_engine_test("abbey-wagon-move.jcz");
    assert_eq!(record.setup.rules.wagon_move, Some(carcassonne_engine::WagonMove::C1));
    let last = actions(&record, record.turns.len() - 1);
    assert_eq!(last.last().map(String::as_str), Some("move wagon to monastery at [0, -1]"));
}

/// Two wagons a player, C1: both roads close at once, and both wagons move
/// on along the crossing's links, to roads W and N of the crossing.
#[test]
fn abbey_and_mayor_multiple_wagons() {
    let record = assert_engine_test("multiple-wagons.jcz");
    assert_eq!(record.setup.rules.figures.get("wagon"), Some(&2));
    let moves: Vec<String> = actions(&record, 3).into_iter().filter(|a| a.starts_with("move wagon")).collect();
    assert_eq!(moves, ["move wagon to road:W at [1, 0]", "move wagon to road:N at [1, 0]"]);
}

/// Two barns of one player on one farm score it once at the end.
#[test]
fn abbey_and_mayor_multiple_barns() {
    let record = assert_engine_test("multiple-barns.jcz");
    assert_eq!(record.setup.rules.figures.get("barn"), Some(&2));
    let barns = all_actions(&record).iter().filter(|a| a.starts_with("deploy barn")).count();
    assert_eq!(barns, 2);
}

/// The barn scores the farmers at once (3 a city), then its farm at 4 a
/// city at the end: Alice 14, alone as in JCloisterZone's file, and with
/// Bob added, who places the second and fourth tiles.
#[test]
fn abbey_and_mayor_barn_scoring() {
    let solo = assert_engine_test("barn-scoring.jcz");
    assert!(all_actions(&solo).contains(&"deploy barn on corner:NW".to_string()));
    let record = assert_engine_test("barn-scoring-two-players.jcz");
    assert!(actions(&record, 4).contains(&"deploy barn on corner:NW".to_string()));
}

/// A mayor in a city without pennants has no strength: the city scores 0.
#[test]
fn abbey_and_mayor_mayor_without_pennants() {
    let solo = assert_engine_test("mayor-zero-points.jcz");
    assert!(actions(&solo, 0).contains(&"deploy mayor on city:S".to_string()));
    let record = assert_engine_test("mayor-zero-points-two-players.jcz");
    assert!(actions(&record, 0).contains(&"deploy mayor on city:S".to_string()));
}

/// A barn with Traders & Builders' pig (without its tiles): the farmer and
/// the pig score at once when the barn comes (3 + 1 a city), later at 1 + 1
/// a city when a tile joins them to the barn's farm; the barn 4 a city at
/// the end. Alice 8, Bob 8.
#[test]
fn abbey_and_mayor_barn_connected_scoring_with_a_pig() {
    let record = assert_engine_test("barn-connected-scoring.jcz");
    assert_eq!(record.setup.expansions, ["abbey", "traders"]);
    assert_eq!(record.setup.rules.tile_sets, Some(vec![carcassonne_engine::Expansion::Abbey]));
    assert_eq!(record.setup.rules.figures.get("builder"), Some(&0));
    assert!(all_actions(&record).iter().any(|a| a.starts_with("deploy pig")));
}

// ----- Traders & Builders: JCloisterZone's `engine-tests/traders-and-builders/` -----

/// The goods go to the player who completes the city: Oskar 10, Carol 6.
#[test]
fn traders_and_builders_wine_scoring() {
    let record = assert_engine_test("wine-scoring.jcz");
    assert_eq!(record.setup.expansions, ["traders"]);
    let game = Game::replay(&record).unwrap();
    assert_eq!(game.state().goods(), [[0, 0, 0], [1, 0, 0]]);
}

/// The goods of all the city's tiles, with no follower in it: Alice 10.
#[test]
fn traders_and_builders_grain_scoring() {
    let record = assert_engine_test("grain-scoring.jcz");
    assert_eq!(Game::replay(&record).unwrap().state().goods(), [[0, 2, 0], [0, 0, 0]]);
}

/// One cloth each: both score 10.
#[test]
fn traders_and_builders_cloth_tie() {
    let record = assert_engine_test("cloth-scoring-tie.jcz");
    assert_eq!(Game::replay(&record).unwrap().state().goods(), [[0, 0, 1], [0, 0, 1]]);
}

/// The pig adds 1 a city to its owner's farm (no T&B tiles: the pig
/// element alone): Alice 8, Bob 6.
#[test]
fn traders_and_builders_pig_scoring() {
    let record = assert_engine_test("pig-scoring.jcz");
    assert_eq!(record.setup.rules.tile_sets, Some(vec![]));
}

/// Two pigs of one player in one farm add 1 a city, not 2: Alice alone, as
/// in JCloisterZone's file, and with Bob added, who places monasteries in
/// between.
#[test]
fn traders_and_builders_pigs_do_not_stack() {
    let solo = assert_engine_test("pigs-no-stack.jcz");
    assert_eq!(solo.setup.rules.figures.get("pig"), Some(&2));
    let record = assert_engine_test("pigs-no-stack-two-players.jcz");
    assert_eq!(record.setup.rules.figures.get("pig"), Some(&2));
}

/// The Abbot: two abbots on the gardens of `basic:2`'s garden tiles; one
/// garden is surrounded (9), the other scores at the end (4).
#[test]
fn the_abbot_garden_scoring() {
    let record = assert_engine_test("garden-scoring.jcz");
    assert!(record.setup.expansions.contains(&carcassonne_engine::Expansion::Abbot));
    assert_eq!(record.setup.rules.tile_sets, None, "the garden tiles are in the bag");
    let tiles: Vec<&str> = record.turns.iter().map(|t| t.tile.as_str()).collect();
    assert_eq!(tiles[..2], ["UG", "VG"]);
    assert_eq!(actions(&record, 0), ["place at [1, 0] turned 0", "deploy abbot on garden"]);
}

/// The Labyrinth, both variants: the same game scores its road 6 under the
/// basic one, and 12 with the bonus of 2 a figure (three followers, each
/// on a leg of its own).
#[test]
fn the_labyrinth_in_both_variants() {
    let basic = assert_engine_test("labyrinth-basic-variant.jcz");
    assert_eq!(basic.setup.rules.labyrinth_variant, Some(carcassonne_engine::LabyrinthVariant::Basic));
    let bonus = assert_engine_test("labyrinth-meeples-bonus.jcz");
    assert_eq!(bonus.setup.rules.labyrinth_variant, None, "the standard rule");
    assert_eq!(bonus.setup.players.len(), 1, "a solo game");
    let roads = bonus.turns.iter().filter(|t| t.meeple.as_deref().is_some_and(|m| m.starts_with("road:"))).count();
    assert_eq!(roads, 3);
}

/// The one engine test of these folders that needs an expansion outside
/// the product is refused, naming it: a bridge of Bridges, Castles & Bazaars.
#[test]
fn the_wagon_move_over_a_bridge_is_refused_naming_the_bridge() {
    let err = import(&engine_test("abbey-wagon-move-bridge.jcz")).unwrap_err();
    assert_eq!(err.kind, carcassonne_jcz::JczErrorKind::Unsupported);
    let text = err.to_string();
    assert!(
        text.starts_with("setup.elements.bridge: game element bridge (Bridges, Castles & Bazaars) is not supported"),
        "{text}"
    );
}
