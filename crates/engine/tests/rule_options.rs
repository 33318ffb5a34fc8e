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
    assert_eq!(record.setup.rules, RuleOptions { tiny_city_scoring: Some(2) });
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
