//! Records of actions (version 2) beside version 1: the one reading of a
//! record as actions, the way back, and what a version-2 entry may hold.

use carcassonne_engine::record::{Setup, Turn, FORMAT_V1, FORMAT_V2};
use carcassonne_engine::{Action, Game, PlayError, Record, RecordError, Summary, TurnError};

const V1: &str = r#"{
  "format": "carcassonne-record/1",
  "setup": {"players": ["Alice", "Bob"], "expansions": ["ferries"], "edition": "c3"},
  "turns": [
    {"tile": "A",  "at": [-1, 0], "rot": 270, "meeple": "road:E"},
    {"tile": "F3", "at": [1, 0],  "rot": 0,   "meeple": "road:E", "ferry": "E-W"},
    {"tile": "U",  "at": [2, 0],  "rot": 0,   "moves": [{"at": [1, 0], "ferry": "W-S"}]}
  ]
}"#;

const V2: &str = r#"{
  "format": "carcassonne-record/2",
  "setup": {"players": ["Alice", "Bob"], "expansions": ["ferries"], "edition": "c3"},
  "turns": [
    {"tile": "A",  "player": 0, "actions": ["place at [-1, 0] turned 270", "deploy on road:E"]},
    {"tile": "F3", "player": 1, "actions": ["place at [1, 0] turned 0", "deploy on road:E", "ferry E-W"]},
    {"tile": "U",  "player": 0, "actions": ["place at [2, 0] turned 0", "pass", "move ferry at [1, 0] to S-W", "pass"]}
  ]
}"#;

fn v2_with(turns: &str) -> Record {
    Record::from_json(&format!(
        r#"{{"format": "carcassonne-record/2", "setup": {{"players": ["A", "B"], "expansions": ["ferries"]}}, "turns": {turns}}}"#
    ))
    .unwrap()
}

fn refusal(record: &Record) -> (usize, TurnError) {
    match Game::replay(record) {
        Err(RecordError::Turn { turn, error }) => (turn, error),
        other => panic!("expected a refused turn, got {other:?}"),
    }
}

#[test]
fn the_documented_version_2_example_is_the_version_1_example() {
    let v1 = Record::from_json(V1).unwrap();
    let v2 = Record::from_json(V2).unwrap();
    assert_eq!(v1.to_v2().unwrap(), v2, "to_v2 writes the documented form");
    let (a, b) = (Game::replay(&v1).unwrap(), Game::replay(&v2).unwrap());
    assert_eq!(a.state(), b.state());
    assert_eq!(Summary::of(b.state()).final_scores, vec![3, 2]);
    assert_eq!(v1.actions().unwrap(), v2.actions().unwrap());
    assert_eq!(
        v1.actions().unwrap()[2].iter().map(|a| a.to_string()).collect::<Vec<_>>(),
        ["draw U", "place at [2, 0] turned 0", "pass", "move ferry at [1, 0] to S-W", "pass"]
    );
}

#[test]
fn games_are_written_in_version_1_and_a_version_2_game_goes_on_in_version_2() {
    let v1 = Record::from_json(V1).unwrap();
    let actions: Vec<Action> = v1.actions().unwrap().into_iter().flatten().collect();
    let again = Record::from_actions(v1.setup.clone(), actions.iter().copied()).unwrap();
    assert_eq!(again.format, FORMAT_V1);
    // The same fields, names written in their canonical form ("W-S" as "S-W").
    let canonical: serde_json::Value = serde_json::from_str(&V1.replace("W-S", "S-W")).unwrap();
    assert_eq!(serde_json::to_value(&again).unwrap(), canonical);
    assert_eq!(again.actions().unwrap().concat(), actions);
    assert_eq!(again.turns[2].moves[0].ferry, "S-W");

    let mut game = Game::replay(&Record::from_json(V2).unwrap()).unwrap();
    assert_eq!(game.record().format, FORMAT_V2);
    game.play("draw V".parse().unwrap()).unwrap();
    game.play("place at [3, 0] turned 0".parse().unwrap()).unwrap();
    let last = game.record().turns.last().unwrap();
    assert_eq!((last.tile.as_str(), last.player, last.actions.len()), ("V", Some(1), 1));
    // A turn in progress replays as it stands, and the game goes on from it.
    let replayed = Game::replay(&game.settled_record()).unwrap();
    assert_eq!(replayed.state(), game.state());
}

#[test]
fn from_actions_names_the_refused_action() {
    let setup: Setup = Record::from_json(V1).unwrap().setup;
    let actions = ["draw A", "place at [5, 5] turned 0"].map(|a| a.parse::<Action>().unwrap());
    match Record::from_actions(setup, actions) {
        Err(RecordError::Action { index: 1, error: PlayError::NotTouching(_) }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn version_2_entries_are_whole_turns_of_the_named_player() {
    let (turn, e) =
        refusal(&v2_with(r#"[{"tile": "U", "player": 1, "actions": ["place at [1, 0] turned 0", "pass"]}]"#));
    assert_eq!((turn, e), (1, TurnError::WrongPlayer { named: 1, expected: 0, second: false }));

    let r = v2_with(r#"[{"tile": "U", "actions": ["place at [1, 0] turned 0"]}, {"tile": "V", "actions": []}]"#);
    let (turn, e) = refusal(&r);
    assert_eq!((turn, e.kind()), (1, "unfinished"));

    let r = v2_with(r#"[{"tile": "U", "actions": ["place at [1, 0] turned 0", "pass", "pass"]}]"#);
    assert_eq!(refusal(&r), (1, TurnError::Overlong(2)));

    let r = v2_with(r#"[{"tile": "U", "at": [1, 0], "rot": 0, "actions": ["place at [1, 0] turned 0", "pass"]}]"#);
    assert_eq!(refusal(&r), (1, TurnError::MixedFields));

    let r = v2_with(r#"[{"tile": "U", "actions": ["place at [1, 0] turned 0", "deploy on city:N"]}]"#);
    let (turn, e) = refusal(&r);
    assert_eq!((turn, e.kind()), (1, "no-such-feature"));

    let r = v2_with(r#"[{"tile": "F3", "actions": ["place at [1, 0] turned 0", "pass", "ferry N-S"]}]"#);
    let (_, e) = refusal(&r);
    assert_eq!((e.kind(), e.ruling()), ("not-jetties", Some("F3")));

    // The last entry may stop mid-turn: a game in progress.
    let r = v2_with(r#"[{"tile": "U", "actions": ["place at [1, 0] turned 0"]}]"#);
    let game = Game::replay(&r).unwrap();
    assert_eq!(Summary::of(game.state()).turns, 0);
    assert!(!Summary::of(game.state()).finished);
}

#[test]
fn an_action_outside_the_notation_makes_the_record_malformed() {
    let text = V2.replace("place at [2, 0] turned 0", "place at [2, 0] turned 45");
    assert!(
        matches!(Record::from_json(&text), Err(RecordError::Malformed(m)) if m.contains("place at [2, 0] turned 45"))
    );
}

#[test]
fn version_1_fields_in_version_2_and_back_are_refused() {
    let mut r = Record::from_json(V1).unwrap();
    r.turns[0].actions.push(Action::Pass);
    assert_eq!(refusal(&r), (1, TurnError::MixedFields));
    let mut r = Record::from_json(V1).unwrap();
    r.turns.push(Turn { tile: "U".into(), player: Some(1), ..Turn::default() });
    assert_eq!(refusal(&r), (4, TurnError::MixedFields));
}

#[test]
fn a_figure_the_rules_in_play_do_not_give_is_refused_by_name() {
    // The base game and The Ferries give only the normal follower: a big
    // follower (Inns & Cathedrals) is not in the game, which is not the
    // same as none left.
    let r = v2_with(r#"[{"tile": "U", "actions": ["place at [1, 0] turned 0", "deploy big on road:E"]}]"#);
    let (turn, e) = refusal(&r);
    assert_eq!((turn, e.kind()), (1, "figure-not-in-game"));
    assert_eq!(e.to_string(), "this game has no big follower: it comes with Inns & Cathedrals, which is not in play");
    // Its expansion in play, with the rules giving none of it (barn=0).
    let mut r = v2_with(r#"[{"tile": "U", "actions": ["place at [1, 0] turned 0", "deploy barn on field:NNE"]}]"#);
    r.setup.expansions = vec![carcassonne_engine::Expansion::Abbey];
    r.setup.rules.figures.insert("barn".into(), 0);
    let (turn, e) = refusal(&r);
    assert_eq!((turn, e.kind()), (1, "figure-not-in-game"), "{e}");
    assert_eq!(e.to_string(), "this game has no barn: the rules in play give none");
}

#[test]
fn the_first_actions_of_a_turn_in_progress_are_read_up_to_a_count() {
    let v1 = Record::from_json(V1).unwrap();
    let all: Vec<Action> = v1.actions().unwrap().concat();
    // Version 1 cannot show that a turn stopped after its placement (no
    // follower yet): the count says where to stop, what follows is not read.
    let mut unfinished = v1.clone();
    let last = unfinished.turns.last_mut().unwrap();
    last.moves.clear();
    let upto = all.len() - 3; // draw U, place: the deploy step waits
    assert_eq!(unfinished.actions_upto(upto).unwrap(), all[..upto]);
    assert_eq!(v1.actions_upto(all.len()).unwrap(), all);
    assert_eq!(v1.actions_upto(all.len() + 1).unwrap_err().kind(), "too-few-actions");
    // An error before the count still refuses the record.
    let mut broken = v1.clone();
    broken.turns[1].ferry = Some("N-N".into());
    assert!(broken.actions_upto(upto).is_err());
}
