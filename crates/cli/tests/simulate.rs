//! The built `carcassonne` binary: `simulate` with tiny budgets, its records
//! replayed by `replay`, `bench`, and bad input refused in one line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn carcassonne(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(args).output().expect("the binary runs")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on standard output")
}

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn simulate_summarizes_and_its_records_replay() {
    let dir = folder("simulate-records");
    let players = "mcts:iters=16:trees=2,greedy";
    let out = carcassonne(&[
        "simulate",
        "--players",
        players,
        "--games",
        "2",
        "--expansions",
        "ferries",
        "--seed",
        "3",
        "--parallel",
        "2",
        "--json",
        "--records",
        dir.to_str().unwrap(),
    ]);
    let summary = json(&out);
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["deals"], 1);
    assert_eq!(summary["expansions"], serde_json::json!(["ferries"]));
    assert_eq!(summary["edition"], "c3");
    let bots = summary["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 2);
    for b in bots {
        assert_eq!(b["games"], 2, "every bot sits in every seat once");
        let outcomes = b["wins"].as_u64().unwrap() + b["ties"].as_u64().unwrap() + b["losses"].as_u64().unwrap();
        assert_eq!(outcomes, 2);
        let [lo, hi] = [b["win_rate_ci95"][0].as_f64().unwrap(), b["win_rate_ci95"][1].as_f64().unwrap()];
        assert!(lo <= b["win_rate"].as_f64().unwrap() && b["win_rate"].as_f64().unwrap() <= hi);
    }
    assert_eq!(bots[0]["iterations_per_search"], 16.0);
    assert!(bots[1].get("iterations_per_search").is_none());
    assert!(summary["games_per_second"].as_f64().unwrap() > 0.0);

    // Every record replays to a finished game, and its final scores are the
    // ones the summary averaged.
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 2);
    let mut total = [0u64; 2];
    for file in &files {
        let replay = json(&carcassonne(&["replay", file.to_str().unwrap(), "--json"]));
        assert_eq!(replay["finished"], true);
        let record: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for (seat, name) in record["setup"]["players"].as_array().unwrap().iter().enumerate() {
            let bot = bots.iter().position(|b| b["name"] == *name).expect("a named bot");
            total[bot] += replay["final_scores"][seat].as_u64().unwrap();
        }
    }
    for (b, t) in bots.iter().zip(total) {
        assert_eq!(b["mean_score"].as_f64().unwrap(), t as f64 / 2.0);
    }
}

#[test]
fn simulate_is_reproducible_from_its_seed() {
    let run = || {
        let mut s = json(&carcassonne(&[
            "simulate",
            "--players",
            "mcts:iters=12,random",
            "--games",
            "2",
            "--seed",
            "9",
            "--json",
        ]));
        for b in s["bots"].as_array_mut().unwrap() {
            b["ms_per_decision"] = Value::Null;
            b["ms_per_turn"] = Value::Null;
        }
        s["seconds"] = Value::Null;
        s["games_per_second"] = Value::Null;
        s
    };
    assert_eq!(run(), run());
}

#[test]
fn simulate_prints_a_table() {
    let out = carcassonne(&["simulate", "--players", "greedy,random,random", "--games", "3", "--edition", "c2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("3 games (1 deals x 3 seatings), ferries, edition c2, seed 0"), "{text}");
    assert!(text.contains("random#2") && text.contains("random#3"), "{text}");
    assert!(text.contains("games/s"), "{text}");
}

#[test]
fn bench_measures_every_figure() {
    let figures = json(&carcassonne(&["bench", "--seconds", "0.02", "--json"]));
    let figures = figures.as_array().unwrap();
    // Random games of five rule sets on one and on all threads, then
    // legal lists (two figures) and search iterations (two).
    assert_eq!(figures.len(), 14);
    assert!(figures.iter().any(|f| f["rules"] == "inns+ferries"), "{figures:?}");
    assert!(figures.iter().any(|f| f["rules"] == "traders+ferries"), "{figures:?}");
    assert!(figures.iter().any(|f| f["rules"] == "inns+traders+abbey+ferries"), "{figures:?}");
    assert!(figures.iter().all(|f| f["rate"].as_f64().unwrap() > 0.0), "{figures:?}");
}

#[test]
fn bad_input_gets_a_one_line_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--players", "alphago,greedy"], "unknown bot 'alphago'"),
        (&["simulate", "--players", "mcts:iters=lots,greedy"], "mcts option iters=lots"),
        (&["simulate", "--players", "mcts:depth=3,greedy"], "unknown mcts option 'depth'"),
        (&["simulate", "--players", "greedy"], "2 to 5 players"),
        (&["simulate", "--players", "greedy,random", "--expansions", "tunnels"], "unknown expansion 'tunnels'"),
        (&["simulate", "--players", "greedy,random", "--edition", "c9"], "unknown edition 'c9'"),
        (&["simulate", "--players", "greedy,random", "--games", "0"], "--games"),
        (&["bench", "--seconds", "-1"], "--seconds"),
    ];
    for (args, says) in cases {
        let out = carcassonne(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.starts_with("error: ") && first.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed {}", String::from_utf8_lossy(&out.stdout));
    }

    // An unwritable records folder is an error too, not a panic.
    let file = folder("records-is-a-file");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "").unwrap();
    let out = carcassonne(&["simulate", "--players", "random,random", "--records", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.starts_with("error: cannot create the records folder"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn simulate_plays_the_ferries_unless_told_otherwise() {
    let default = json(&carcassonne(&["simulate", "--players", "random,random", "--json"]));
    assert_eq!(default["expansions"], serde_json::json!(["ferries"]));
    let base = json(&carcassonne(&["simulate", "--players", "random,random", "--expansions", "none", "--json"]));
    assert_eq!(base["expansions"], serde_json::json!([]));
}

/// The example records of docs/examples replay as they are, to the figures
/// its README gives.
#[test]
fn the_example_records_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let figures = |name: &str| json(&carcassonne(&["replay", "--json", dir.join(name).to_str().unwrap()]));
    let a = figures("ferries-mcts-vs-greedy.json");
    assert_eq!((a["final_scores"].clone(), a["finished"].clone()), (serde_json::json!([71, 36]), Value::Bool(true)));
    let b = figures("ferries-c2-three-players.json");
    assert_eq!(b["final_scores"], serde_json::json!([13, 39, 62]));
    let c = figures("ferries-in-progress.json");
    assert_eq!((c["turns"].clone(), c["finished"].clone()), (serde_json::json!(40), Value::Bool(false)));
    let listed = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(listed, 3, "every example is checked here");
}
