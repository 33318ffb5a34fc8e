//! The built `carcassonne` binary: `import-jcz` and `export-jcz` on the
//! hand-made saved games of `crates/jcz/tests/data/`, their output replayed
//! by `replay`, and bad files refused in one line without writing anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn carcassonne(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne")).args(args).output().expect("the binary runs")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../jcz/tests/data").join(name).display().to_string()
}

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn imported_games_replay_with_the_hand_worked_scores() {
    let dir = folder("jcz-import");
    for (file, scores, finals) in [
        ("base-scoring.jcz", "[11,2]", "[18,10]"),
        ("ferries.jcz", "[7,2]", "[8,9]"),
        ("inns-ferries.jcz", "[0,0,10,0,0,0]", "[6,0,10,3,2,0]"),
    ] {
        let record = dir.join(file.replace(".jcz", ".json"));
        let out = carcassonne(&["import-jcz", &data(file), "-o", record.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(out.stdout.is_empty() && out.stderr.is_empty());
        let out = carcassonne(&["replay", record.to_str().unwrap(), "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let figures: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(figures["scores"].to_string(), scores, "{file}");
        assert_eq!(figures["final_scores"].to_string(), finals, "{file}");
    }
}

#[test]
fn import_without_output_prints_the_record_and_export_reads_it_back() {
    let dir = folder("jcz-round-trip");
    let out = carcassonne(&["import-jcz", &data("ferries.jcz")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let record: Value = serde_json::from_slice(&out.stdout).expect("a record on standard output");
    assert_eq!(record["format"], "carcassonne-record/1");
    let record_path = dir.join("ferries.json");
    std::fs::write(&record_path, &out.stdout).unwrap();

    let saved = dir.join("again.jcz");
    let out = carcassonne(&["export-jcz", record_path.to_str().unwrap(), "-o", saved.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let jcz: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(jcz["setup"]["sets"]["ferries"], 1);

    let out = carcassonne(&["import-jcz", saved.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again, record);
}

/// A game with big followers is a version-2 record; it exports with the
/// set, elements and meeple ids of Inns & Cathedrals, and reads back the same.
#[test]
fn inns_and_cathedrals_round_trip() {
    let dir = folder("jcz-inns");
    let record = dir.join("inns.json");
    let out = carcassonne(&["import-jcz", &data("inns-ferries.jcz"), "-o", record.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(first["format"], "carcassonne-record/2");
    assert_eq!(first["setup"]["expansions"], serde_json::json!(["ferries", "inns"]));

    let out = carcassonne(&["export-jcz", record.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let jcz: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(jcz["setup"]["sets"]["inns-and-cathedrals:1"], 1);
    assert_eq!(jcz["setup"]["elements"]["big-follower"], 1);
    assert!(jcz["replay"].as_array().unwrap().iter().any(|m| m["payload"]["meepleId"] == "5.big.1"));
    let saved = dir.join("again.jcz");
    std::fs::write(&saved, &out.stdout).unwrap();
    let out = carcassonne(&["import-jcz", saved.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again, first);
}

#[test]
fn a_game_without_draw_order_imports_with_a_warning() {
    let dir = folder("jcz-warning");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(data("base-scoring.jcz")).unwrap()).unwrap();
    doc.as_object_mut().unwrap().remove("gameAnnotations");
    let file = dir.join("no-order.jcz");
    std::fs::write(&file, doc.to_string()).unwrap();
    let out = carcassonne(&["import-jcz", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("warning: {}: ", file.display())), "{err}");
    assert!(err.contains("discarded tiles"), "{err}");
}

#[test]
fn unsupported_files_are_refused_in_one_line_and_nothing_is_written() {
    let dir = folder("jcz-refused");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(data("base-scoring.jcz")).unwrap()).unwrap();
    doc["replay"][4]["type"] = "PLACE_TOKEN".into();
    doc["replay"][4]["payload"] =
        serde_json::json!({"token": "BRIDGE", "pointer": {"position": [-1, 0], "location": "WE"}});
    let file = dir.join("bridge.jcz");
    std::fs::write(&file, doc.to_string()).unwrap();
    let output = dir.join("never.json");
    let out = carcassonne(&["import-jcz", file.to_str().unwrap(), "-o", output.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        format!("error: {}: replay[4]: token BRIDGE is not supported (only FERRY is)\n", file.display())
    );
    assert!(!output.exists());

    let file = dir.join("broken.jcz");
    std::fs::write(&file, "{\"setup\": ").unwrap();
    let out = carcassonne(&["import-jcz", file.to_str().unwrap(), "-o", output.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("error: {}: not a JSON document", file.display())), "{err}");
    assert!(!output.exists());

    // An illegal record is not exported either.
    let record = dir.join("illegal.json");
    std::fs::write(
        &record,
        r#"{"format": "carcassonne-record/1", "setup": {"players": ["A", "B"]}, "turns": [{"tile": "C", "at": [1, 0], "rot": 0}]}"#,
    )
    .unwrap();
    let saved = dir.join("never.jcz");
    let out = carcassonne(&["export-jcz", record.to_str().unwrap(), "-o", saved.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("error: {}: turn 1: ", record.display())), "{err}");
    assert!(!saved.exists());
}
