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
