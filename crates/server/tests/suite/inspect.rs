//! The feature inspector (`POST /api/games/{id}/feature`) against a real server.

use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn the_inspector_tells_a_features_tiles_figures_and_points() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    // The start tile D: its city on the north.
    let r = client.post(&format!("/api/games/{game}/feature"), &json!({"at": [0, 0], "piece": 0})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["kind"], "city");
    assert_eq!(r.body["tiles"], json!([[0, 0]]));
    assert_eq!(r.body["complete"], false);
    assert_eq!(r.body["followers"], json!([0, 0]));
    assert_eq!(r.body["value_complete"], 2, "a city of one tile, if closed");
    assert_eq!(r.body["value_end"], 1);
    assert_eq!(r.body["at_end"], json!([0, 0]), "no one scores a feature without figures");
    // Its road: both ends open.
    let r = client.post(&format!("/api/games/{game}/feature"), &json!({"at": [0, 0], "piece": 1})).await;
    assert_eq!(r.body["kind"], "road");
    assert_eq!(r.body["open_edges"], 2);
    for (body, code) in [
        (json!({"at": [5, 5], "piece": 0}), "not_found"),
        (json!({"at": [0, 0], "piece": 99}), "not_found"),
        (json!({"at": [0, 0]}), "malformed"),
        (json!({"at": [0, 0], "piece": 0, "version": 9}), "not_found"),
        (json!({"at": [0, 0], "piece": 0, "token": "nope"}), "wrong_token"),
    ] {
        let r = client.post(&format!("/api/games/{game}/feature"), &body).await;
        assert_eq!(r.code(), code, "{body}: {}", r.body);
    }
    // Play a few turns with followers; the inspector agrees with the view.
    let mut pick = Pick::new(3);
    let view = play(&client, &game, &tokens, &mut pick, 30).await;
    for f in view["followers"].as_array().unwrap() {
        let r = client.post(&format!("/api/games/{game}/feature"), &json!({"at": f["at"], "piece": f["piece"]})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["kind"], f["kind"]);
        let seat = f["seat"].as_u64().unwrap() as usize;
        assert!(r.body["followers"][seat].as_u64().unwrap() >= 1, "{f} in {}", r.body);
        assert!(r.body["tiles"].as_array().unwrap().contains(&f["at"]));
    }
    // A past version.
    let r = client.post(&format!("/api/games/{game}/feature"), &json!({"at": [0, 0], "piece": 0, "version": 1})).await;
    assert_eq!(r.body["tiles"], json!([[0, 0]]));
}
