//! `carcassonne analyse`: the review of a record as JSON and as text, and
//! bad records refused with one line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use carcassonne_engine::{Action, Game, Record};
use serde_json::Value;

fn carcassonne(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(args).output().expect("the binary runs")
}

/// A record of one short game, written by `simulate`.
fn a_record(name: &str, expansions: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let out = carcassonne(&[
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "1",
        "--expansions",
        expansions,
        "--seed",
        "11",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("deal0000-seating0.json")
}

#[test]
fn analyse_json_holds_every_decision_with_its_figures_and_each_player_s_summary() {
    let path = a_record("analyse-json", "ferries");
    let out = carcassonne(&["analyse", path.to_str().unwrap(), "--json", "--iterations", "150"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let decisions = v["decisions"].as_array().unwrap();
    // The decisions played are the record's, in order, those with a choice.
    let mut game = Game::new(record.setup.clone()).unwrap();
    let mut played = Vec::new();
    for a in record.actions().unwrap().into_iter().flatten() {
        if matches!(game.state().actor(), Some(carcassonne_engine::Actor::Player(_)))
            && game.state().legal_action_list().len() > 1
        {
            played.push(a.to_string());
        }
        game.play(a).unwrap();
    }
    let got: Vec<String> = decisions.iter().map(|d| d["played"].as_str().unwrap().to_string()).collect();
    assert_eq!(got, played);
    for d in decisions {
        for key in ["turn", "player", "played", "best", "win", "margin", "loss", "mark"] {
            assert!(d.get(key).is_some(), "{key} missing in {d}");
        }
        let win: f64 = d["win"].as_array().unwrap().iter().map(|w| w.as_f64().unwrap()).sum();
        assert!((win - 1.0).abs() < 1e-3, "{d}");
        assert_eq!(d["margin"].as_array().unwrap().len(), 2);
        let best: Action = d["best"].as_str().unwrap().parse().expect("the best move in the notation");
        if best.to_string() == d["played"] {
            assert_eq!((d["loss"].as_f64(), d["mark"].is_null()), (Some(0.0), true));
        }
        assert!(d["mark"].is_null() || ["?!", "?", "??"].contains(&d["mark"].as_str().unwrap()));
    }
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for p in players {
        assert!((0.0..=100.0).contains(&p["accuracy"].as_f64().unwrap()));
        assert!(p["luck"].is_number());
        for m in ["?!", "?", "??"] {
            assert!(p["marks"][m].is_u64(), "{p}");
        }
    }
    // Random play is far less accurate than greedy's.
    assert!(players[0]["accuracy"].as_f64() > players[1]["accuracy"].as_f64(), "{players:?}");
}

#[test]
fn analyse_prints_a_table_of_the_decisions_and_the_players() {
    let path = a_record("analyse-text", "none");
    let out = carcassonne(&["analyse", path.to_str().unwrap(), "--iterations", "100"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("turn  player"), "{text}");
    assert!(text.contains("place the tile"), "{text}");
    assert!(text.contains("accuracy") && text.contains("luck of the draws"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("greedy ")) && text.lines().any(|l| l.starts_with("random ")));
}

#[test]
fn analyse_counts_the_hints_a_record_holds_per_player_and_marks_their_turns() {
    let path = a_record("analyse-hints", "ferries");
    let mut record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // Seat 1 (random) asked twice in the sixth turn.
    record.turns[5].hints = vec![1, 1];
    let hinted = path.with_file_name("hinted.json");
    std::fs::write(&hinted, record.to_json()).unwrap();
    let out = carcassonne(&["analyse", hinted.to_str().unwrap(), "--json", "--iterations", "100"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["players"][0]["hints"].as_u64(), v["players"][1]["hints"].as_u64()), (Some(0), Some(2)));
    for d in v["decisions"].as_array().unwrap() {
        let asked = d["turn"] == 6 && d["player"] == 1;
        assert_eq!(d.get("hinted").and_then(Value::as_bool).unwrap_or(false), asked, "{d}");
    }
    let out = carcassonne(&["analyse", hinted.to_str().unwrap(), "--iterations", "100"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[hint asked for this turn]") && text.contains("hints"), "{text}");
    let random = text.lines().find(|l| l.starts_with("random ")).unwrap();
    assert!(random.trim_end().ends_with(" 2"), "{random}");
}

#[test]
fn analyse_refuses_a_bad_record_with_one_line() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyse-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"format": "carcassonne-record/1", "setup": {"players": ["a", "b"]}, "turns": [{"tile": "ZZ"}]}"#,
    )
    .unwrap();
    for args in [
        vec!["analyse", bad.to_str().unwrap()],
        vec!["analyse", "/no/such/file.json"],
        vec!["analyse", bad.to_str().unwrap(), "--ms", "0"],
    ] {
        let out = carcassonne(&args);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.lines().count() <= 3 && !err.trim().is_empty(), "{err}");
    }
}

#[test]
fn odds_lists_each_open_cell_and_feature_of_the_position_a_record_leaves() {
    let path = a_record("odds", "ferries");
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let out = carcassonne(&["odds", path.to_str().unwrap(), "--json", "--turns", "30"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The same figures as the library's, for the position after 30 turns.
    let mut early = record.clone();
    early.turns.truncate(30);
    let game = Game::replay(&early).unwrap();
    let odds = carcassonne_bots::odds::odds(game.state());
    let want: Value = serde_json::from_str(&serde_json::to_string(&odds).unwrap()).unwrap();
    assert!(v == want, "the command line's odds differ from the library's");
    assert_eq!(v["cells"].as_array().unwrap().len(), game.state().board().open_cells().len());
    assert!(!v["features"].as_array().unwrap().is_empty());
    let text = carcassonne(&["odds", path.to_str().unwrap(), "--turns", "30"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("next tile fits") && text.contains("completed"), "{text}");
    // More turns than the record has: one line, no panic.
    let out = carcassonne(&["odds", path.to_str().unwrap(), "--turns", "1000"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("turns, not 1000") && err.lines().count() == 1, "{err}");
}
