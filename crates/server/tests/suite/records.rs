//! Records and JCloisterZone saved games opened in the browser
//! (`POST /api/records/view`).

use crate::common::*;
use serde_json::{json, Value};

const RECORD: &str = include_str!("../../../../docs/examples/ferries-mcts-vs-greedy.json");
const JCZ: &str = include_str!("../../../../tests/data/jcz/basic-502-0001.jcz");

#[tokio::test]
async fn a_record_or_a_saved_game_opens_step_by_step() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);

    let r = client.post("/api/records/view", &json!({ "file": RECORD })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let total = r.body["versions"].as_u64().unwrap();
    assert!(total > 79 * 2, "every draw and decision: {total}");
    assert_eq!(r.body["history"]["actions"].as_array().unwrap().len() as u64, total);
    assert_eq!(r.body["view"]["version"], 1);
    assert_eq!(r.body["view"]["legal"], json!([]));
    assert_eq!(r.body["view"]["seats"][1]["name"], "greedy");
    let record = r.body["record"].clone();
    assert!(record["format"].as_str().unwrap().starts_with("carcassonne-record"));
    // Later steps send the record back.
    let end = client.post("/api/records/view", &json!({ "record": record, "version": total })).await;
    assert_eq!(end.status, 200, "{}", end.body);
    assert!(end.body.get("record").is_none() && end.body.get("history").is_none());
    assert_eq!(end.body["view"]["status"], "finished");
    assert!(end.body["view"]["final"]["scores"].is_array());
    let beyond = client.post("/api/records/view", &json!({ "record": record, "version": total + 1 })).await;
    assert_eq!(beyond.code(), "not_found");

    // A JCloisterZone saved game is converted, then shown the same way.
    let r = client.post("/api/records/view", &json!({ "file": JCZ, "version": 3 })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["view"]["version"], 3);
    assert!(r.body["versions"].as_u64().unwrap() > 3);
}

#[tokio::test]
async fn a_file_that_is_no_game_is_refused_with_the_reason() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let refused = |r: &Reply| {
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.code(), "invalid_record");
        r.body["error"]["message"].as_str().unwrap().to_string()
    };
    let m = refused(&client.post("/api/records/view", &json!({ "file": "hello" })).await);
    assert!(m.contains("not JSON"), "{m}");
    let m = refused(&client.post("/api/records/view", &json!({ "file": "{\"a\": 1}" })).await);
    assert!(m.contains("neither"), "{m}");
    // A turn that breaks the rules: the engine names it.
    let mut bad: Value = serde_json::from_str(RECORD).unwrap();
    bad["turns"][5]["at"] = json!([40, 40]);
    let m = refused(&client.post("/api/records/view", &json!({ "file": bad.to_string() })).await);
    assert!(m.contains('6'), "the sixth turn is named: {m}");
    let mut odd: Value = serde_json::from_str(JCZ).unwrap();
    odd["setup"]["sets"] = json!({"abbey-and-mayor": 1});
    let m = refused(&client.post("/api/records/view", &json!({ "file": odd.to_string() })).await);
    assert!(m.starts_with("JCloisterZone saved game"), "{m}");
    let r = client.post("/api/records/view", &json!({ "version": 1 })).await;
    assert_eq!(r.code(), "malformed");
    // Bodies are limited, if more generously than elsewhere.
    let big = "x".repeat(600 * 1024);
    let r = client.post("/api/records/view", &json!({ "file": big })).await;
    assert_eq!(r.status, 413);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("524288"), "{}", r.body);
}

/// A ferry move that completes a road (turn 6 of this record: the move is
/// version 20), as the inspector of a record opened in the browser tells it.
const FERRY_COMPLETES: &str = include_str!("../data/ferry-move-completes-road.json");

#[tokio::test]
async fn the_inspector_tells_a_feature_of_a_record_at_each_version() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let r = client.post("/api/records/view", &json!({ "file": FERRY_COMPLETES })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let record = r.body["record"].clone();
    assert_eq!(r.body["history"]["actions"][19]["action"]["type"], "move", "version 20 moves the ferry");
    // The start tile's road (D: a city on the north, a road from west to east).
    let ask =
        |version: u64, piece: usize| json!({ "record": record, "version": version, "at": [0, 0], "piece": piece });
    let mut road = None;
    for piece in 0..4 {
        let r = client.post("/api/records/feature", &ask(19, piece)).await;
        assert_eq!(r.status, 200, "{}", r.body);
        if r.body["kind"] == "road" {
            road = Some(piece);
        }
    }
    let road = road.expect("the start tile has a road");
    let before = client.post("/api/records/feature", &ask(19, road)).await.body;
    assert_eq!(before["complete"], false, "{before}");
    assert_eq!(before["followers"], json!([1, 0]));
    // The move ends the road at the jetty the ferry left: complete, 5 tiles, 5 points for Ann.
    let after = client.post("/api/records/feature", &ask(20, road)).await.body;
    assert_eq!(after["complete"], true, "{after}");
    assert_eq!(after["tiles"].as_array().unwrap().len(), 5);
    assert_eq!(after["if_completed"], json!([5, 0]));
    // As the server's own games answer: the same report for the same position.
    assert_eq!(client.post("/api/records/feature", &ask(27, 9)).await.code(), "not_found");
    assert_eq!(client.post("/api/records/feature", &ask(28, road)).await.code(), "not_found");
    let r = client.post("/api/records/feature", &json!({ "record": record, "at": [0, 0], "piece": 0 })).await;
    assert_eq!(r.code(), "malformed");
}
