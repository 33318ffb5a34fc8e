//! The record's optional `setup.rules`: absent means the standard rules and
//! is never written for them, so version-1 records read and write as before;
//! a variant this program does not know is refused.

use carcassonne_engine::{Game, Record, RecordError, RuleOptions, Rules};

const PLAIN: &str = r#"{"format": "carcassonne-record/1", "setup": {"players": ["A", "B"]},
    "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "meeple": "city:S"}]}"#;

#[test]
fn a_record_without_rules_is_written_back_without_them() {
    let record = Record::from_json(PLAIN).unwrap();
    assert!(record.setup.rules.is_empty());
    assert!(!record.to_json().contains("rules"), "{}", record.to_json());
    assert_eq!(record.setup.rules().unwrap().tiny_city_scoring(), 4);
    assert_eq!(Game::replay(&record).unwrap().state().scores(), [4, 0]);
}

#[test]
fn the_tiny_city_variant_is_read_replayed_and_written() {
    let text = PLAIN.replace(r#""players": ["A", "B"]"#, r#""players": ["A", "B"], "rules": {"tiny-city-scoring": 2}"#);
    let record = Record::from_json(&text).unwrap();
    assert_eq!(record.setup.rules, RuleOptions { tiny_city_scoring: Some(2), ..RuleOptions::default() });
    assert_eq!(Game::replay(&record).unwrap().state().scores(), [2, 0]);
    assert!(record.to_json().contains(r#""rules":{"tiny-city-scoring":2}"#), "{}", record.to_json());
    assert_eq!(Record::from_json(&record.to_json()).unwrap(), record);
}

#[test]
fn unknown_variants_and_values_are_refused() {
    let text = PLAIN.replace(r#""players": ["A", "B"]"#, r#""players": ["A", "B"], "rules": {"tiny-cities": 2}"#);
    let err = Record::from_json(&text).unwrap_err();
    assert!(matches!(err, RecordError::Malformed(_)) && err.to_string().contains("tiny-cities"), "{err}");
    let text = PLAIN.replace(r#""players": ["A", "B"]"#, r#""players": ["A", "B"], "rules": {"tiny-city-scoring": 3}"#);
    let err = Game::replay(&Record::from_json(&text).unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "setup: rules: tiny-city-scoring is 4 (standard) or 2 (a completed two-tile city scores as if incomplete), not 3");
}

#[test]
fn rule_options_name_only_what_differs_from_the_standard() {
    let base = Rules::base(2).unwrap();
    assert!(RuleOptions::of(&base).is_empty());
    let tiny = base.with_tiny_city_scoring(2).unwrap();
    assert_eq!(RuleOptions::of(&tiny).tiny_city_scoring, Some(2));
    assert_eq!(tiny.with_tiny_city_scoring(4).unwrap(), base);
    assert!(base.with_tiny_city_scoring(0).is_err());
}

/// As JCloisterZone lets a setup choose them: Abbey & Mayor without its
/// tiles, two barns and no other figure, no abbey, the first edition's wagon.
#[test]
fn figures_tile_sets_abbeys_and_the_wagon_rule_are_read_replayed_and_written() {
    use carcassonne_engine::{Expansion, FollowerKind, WagonMove};
    let text = PLAIN.replace(
        r#""players": ["A", "B"]"#,
        r#""players": ["A", "B"], "expansions": ["abbey"], "rules": {"tile-sets": [], "figures": {"mayor": 0, "wagon": 2, "barn": 0}, "abbeys": 0, "wagon-move": "C1"}"#,
    );
    let record = Record::from_json(&text).unwrap();
    let rules = record.setup.rules().unwrap();
    assert!(rules.has(Expansion::Abbey) && !rules.has_tiles(Expansion::Abbey));
    assert_eq!(rules.figures(), [(FollowerKind::Normal, 7), (FollowerKind::Wagon, 2)]);
    assert_eq!((rules.abbeys(), rules.wagon_move()), (0, WagonMove::C1));
    // Only the base game's tiles are in the bag, and no abbey is offered.
    let game = Game::replay(&record).unwrap();
    assert_eq!(game.state().bag().total(), 70);
    assert_eq!(game.state().supply_of(FollowerKind::Wagon), [2, 2]);
    assert_eq!(game.state().supply_of(FollowerKind::Barn), [0, 0]);
    // Written back as read, naming only what differs from the standard.
    assert_eq!(RuleOptions::of(&rules), record.setup.rules);
    assert_eq!(Record::from_json(&record.to_json()).unwrap(), record);
    assert!(!record.to_json().contains("normal"), "{}", record.to_json());
}

#[test]
fn figure_options_the_expansions_do_not_give_are_refused() {
    let refused = |rules: &str, expansions: &str| {
        let text = PLAIN.replace(
            r#""players": ["A", "B"]"#,
            &format!(r#""players": ["A", "B"], "expansions": [{expansions}], "rules": {rules}"#),
        );
        Game::replay(&Record::from_json(&text).unwrap()).unwrap_err().to_string()
    };
    assert_eq!(refused(r#"{"figures": {"barn": 1}}"#, ""), "setup: rules: the barn cannot be in play without abbey");
    assert_eq!(
        refused(r#"{"figures": {"barn": 10}}"#, r#""abbey""#),
        "setup: rules: a player starts with 0 to 9 barns, not 10"
    );
    assert_eq!(
        refused(r#"{"figures": {"normal": 0}}"#, ""),
        "setup: rules: a player starts with 1 to 20 followers, not 0"
    );
    assert_eq!(refused(r#"{"figures": {"pig": 1}}"#, ""), "setup: rules: the pig cannot be in play without traders");
    assert!(refused(r#"{"figures": {"dragon": 1}}"#, "").starts_with("setup: rules: unknown figure 'dragon'"));
    assert_eq!(
        refused(r#"{"tile-sets": ["inns"]}"#, r#""abbey""#),
        "setup: rules: the tiles of inns cannot be in play without inns"
    );
    assert_eq!(refused(r#"{"abbeys": 1}"#, ""), "setup: rules: abbeys cannot be in play without abbey");
    assert_eq!(
        refused(r#"{"wagon-move": "C1"}"#, ""),
        "setup: rules: the wagon's move cannot be in play without abbey"
    );
    let text = PLAIN.replace(r#""players": ["A", "B"]"#, r#""players": ["A", "B"], "rules": {"wagon-move": "C3"}"#);
    assert!(Record::from_json(&text).is_err());
}
