//! `--rules tiny-city-scoring=2` on `play` and `simulate`: the variant
//! reaches the game, its records and `replay`; bad values are named.

use std::path::Path;
use std::process::Output;

use crate::common::run_with_input;

use serde_json::Value;

fn carcassonne(args: &[&str], input: &str) -> Output {
    run_with_input(crate::common::carcassonne().args(args).env("NO_COLOR", "1"), input)
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn simulate_plays_and_records_the_variant() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-records");
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["simulate", "--players", "greedy,random", "--games", "2", "--rules", "tiny-city-scoring=2", "--json"];
    let out = ok(&carcassonne(&[&args[..], &["--records", dir.to_str().unwrap()]].concat(), ""));
    let summary: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(summary["rules"], serde_json::json!({"tiny-city-scoring": 2}));
    for file in std::fs::read_dir(&dir).unwrap() {
        let path = file.unwrap().path();
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(record["setup"]["rules"], serde_json::json!({"tiny-city-scoring": 2}));
        let account = ok(&carcassonne(&["replay", path.to_str().unwrap()], ""));
        assert!(account.starts_with("rules: tiny-city-scoring 2\n"), "{account}");
    }
    // The standard rules write no `rules` at all.
    let plain: Value = serde_json::from_str(
        ok(&carcassonne(&args[..5].iter().chain(&["--json"]).copied().collect::<Vec<_>>(), "")).trim(),
    )
    .unwrap();
    assert!(plain.get("rules").is_none(), "{plain}");
}

#[test]
fn play_shows_the_variant_and_saves_it() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-play.json");
    let _ = std::fs::remove_file(&path);
    let p = path.to_str().unwrap();
    let script = format!("1\nsave {p}\nquit\n");
    let out = ok(&carcassonne(
        &["play", "--players", "human,greedy", "--seed", "4", "--rules", "tiny-city-scoring=2"],
        &script,
    ));
    assert!(out.lines().next().unwrap().contains("tiny-city-scoring 2"), "{out}");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record["setup"]["rules"], serde_json::json!({"tiny-city-scoring": 2}));
    let err = carcassonne(&["play", "--load", p, "--rules", "tiny-city-scoring=4"], "");
    assert!(!err.status.success());
    assert!(String::from_utf8_lossy(&err.stderr).contains("--load continues the record's game"));
}

#[test]
fn bad_rules_get_a_one_line_error() {
    for (rule, says) in [
        ("tiny-city-scoring=3", "--rules: tiny-city-scoring is 4 (standard) or 2"),
        ("tiny-cities=2", "--rules: unknown rule 'tiny-cities'"),
        ("tiny-city-scoring", "is not NAME=VALUE"),
    ] {
        for cmd in ["simulate", "play"] {
            let out = carcassonne(&[cmd, "--players", "greedy,random", "--rules", rule], "");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{cmd} {rule}");
            assert!(
                err.starts_with("error: ") && err.contains(says) && err.lines().count() == 1,
                "{cmd} {rule}: {err}"
            );
        }
    }
}
