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

/// One player is a solo game: the bag played out for the highest score, so
/// the summary has scores and no rates; its records replay, one player's.
#[test]
fn simulate_plays_solo_games() {
    let dir = folder("simulate-solo");
    let args = ["simulate", "--players", "greedy", "--games", "3", "--seed", "4", "--records", dir.to_str().unwrap()];
    let summary = json(&carcassonne(&[&args[..], &["--json"]].concat()));
    assert_eq!(summary["games"], 3);
    assert_eq!(summary["deals"], 3);
    let bot = &summary["bots"][0];
    assert_eq!(bot["games"], 3);
    for rate in ["win_rate", "score_rate", "win_rate_ci95", "score_rate_ci95", "mean_margin"] {
        assert!(bot.get(rate).is_none(), "{rate} in a solo summary: {bot}");
    }
    let (min, max, mean) =
        (bot["min_score"].as_f64().unwrap(), bot["max_score"].as_f64().unwrap(), bot["mean_score"].as_f64().unwrap());
    assert!(min > 0.0 && min <= mean && mean <= max, "{bot}");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 3);
    let mut total = 0;
    for file in &files {
        let replay = json(&carcassonne(&["replay", file.to_str().unwrap(), "--json"]));
        assert_eq!(replay["finished"], true);
        assert_eq!(replay["final_scores"].as_array().unwrap().len(), 1);
        total += replay["final_scores"][0].as_u64().unwrap();
        // Every turn is the one player's, to the end of the bag.
        assert!(replay["turns"].as_u64().unwrap() >= 71, "{replay}");
    }
    assert_eq!(mean, total as f64 / 3.0);
    let out = carcassonne(&args[..7]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("score (95% CI)") && text.contains("solo games") && !text.contains("win rate"), "{text}");
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
    // legal lists (two figures), evaluations (three), search iterations
    // (two) and cut searches (two).
    assert_eq!(figures.len(), 19);
    assert_eq!(figures.iter().filter(|f| f["what"] == "evaluations").count(), 2, "{figures:?}");
    assert!(figures.iter().any(|f| f["rules"] == "inns+ferries"), "{figures:?}");
    assert!(figures.iter().any(|f| f["rules"] == "traders+ferries"), "{figures:?}");
    assert!(figures.iter().any(|f| f["rules"] == "inns+traders+abbey+ferries"), "{figures:?}");
    assert!(figures.iter().all(|f| f["rate"].as_f64().unwrap() > 0.0), "{figures:?}");
}

#[test]
fn bench_keeps_the_best_of_its_rounds() {
    let figures = json(&carcassonne(&["bench", "--seconds", "0.01", "--rounds", "2", "--json"]));
    let figures = figures.as_array().unwrap();
    assert_eq!(figures.len(), 19, "one figure for each measure, however many rounds: {figures:?}");
    assert!(figures.iter().all(|f| f["rate"].as_f64().unwrap() > 0.0), "{figures:?}");
    let text = String::from_utf8(carcassonne(&["bench", "--seconds", "0.01", "--rounds", "2"]).stdout).unwrap();
    assert!(text.contains("each figure the best of 2 measurements of 0.01 s"), "{text}");
}

#[test]
fn bad_input_gets_a_one_line_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--players", "alphago,greedy"], "unknown bot 'alphago'"),
        (&["simulate", "--players", "mcts:iters=lots,greedy"], "mcts option iters=lots"),
        (&["simulate", "--players", "mcts:depth=3,greedy"], "unknown mcts option 'depth'"),
        (&["simulate", "--players", "greedy,greedy,greedy,greedy,greedy,greedy"], "1 to 5 players"),
        (&["simulate", "--players", "greedy", "--sprt"], "--sprt compares two bots, not 1"),
        (&["simulate", "--players", "greedy,random", "--expansions", "tunnels"], "unknown expansion 'tunnels'"),
        (&["simulate", "--players", "greedy,random", "--edition", "c9"], "unknown edition 'c9'"),
        (&["simulate", "--players", "greedy,random", "--games", "0"], "--games"),
        (&["bench", "--seconds", "-1"], "--seconds"),
        (&["bench", "--rounds", "0"], "--rounds"),
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

#[test]
fn a_match_in_a_folder_is_written_game_by_game_and_resumed() {
    let dir = folder("simulate-resume");
    let run = |games: &str, seed: &str, resume: bool| {
        let mut args = vec![
            "simulate",
            "--players",
            "mcts:iters=20:trees=1:cut=0,greedy",
            "--games",
            games,
            "--seed",
            seed,
            "--json",
        ];
        if resume {
            args.extend(["--resume", dir.to_str().unwrap()]);
        }
        carcassonne(&args)
    };
    let first = json(&run("2", "9", true));
    assert_eq!(first["games"], 2);
    let lines = || std::fs::read_to_string(dir.join("games.jsonl")).unwrap().lines().count();
    assert_eq!(lines(), 2);
    // An interrupted write leaves a cut line: that game is played again.
    let mut f = std::fs::OpenOptions::new().append(true).open(dir.join("games.jsonl")).unwrap();
    std::io::Write::write_all(&mut f, b"{\"game\": 3, \"bo").unwrap();
    let resumed = json(&run("6", "9", true));
    assert_eq!((resumed["games"].as_u64(), resumed["resumed"].as_u64()), (Some(6), Some(2)));
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let good = text.lines().filter(|l| serde_json::from_str::<Value>(l).is_ok()).count();
    assert_eq!(good, 6, "two games first, four more: {text}");
    // The same match played in one go gives the same games.
    let fresh = json(&run("6", "9", false));
    for key in ["wins", "ties", "mean_score", "mean_margin"] {
        assert_eq!(resumed["bots"][0][key], fresh["bots"][0][key], "{key}");
    }
    // Run again, the match has nothing left to play, and the table says so.
    let mut args = vec!["simulate", "--players", "mcts:iters=20:trees=1:cut=0,greedy", "--games", "6", "--seed", "9"];
    args.extend(["--resume", dir.to_str().unwrap()]);
    let table = String::from_utf8(carcassonne(&args).stdout).unwrap();
    assert!(table.contains("all 6 games read from the match folder"), "{table}");
    // Another match cannot be resumed from this folder.
    let other = run("6", "10", true);
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("holds another match"));
}

#[test]
fn a_sequential_test_stops_a_match_once_it_has_decided() {
    let out = carcassonne(&["simulate", "--players", "greedy,random", "--games", "400", "--sprt", "--json"]);
    let summary = json(&out);
    let sprt = &summary["sprt"];
    assert_eq!(sprt["verdict"], "H1", "{summary}");
    let deals = sprt["deals"].as_u64().unwrap();
    assert!(deals < 50, "greedy against random decides quickly: {deals} deals");
    assert_eq!(summary["games"].as_u64().unwrap(), 2 * deals);
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["bounds"][1].as_f64().unwrap());
    let three = carcassonne(&["simulate", "--players", "greedy,random,random", "--sprt"]);
    assert!(String::from_utf8_lossy(&three.stderr).contains("--sprt compares two bots"));
}
