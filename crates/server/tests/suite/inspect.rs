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

#[tokio::test]
async fn the_odds_are_the_librarys_for_the_position_now_and_at_a_past_version() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(two_humans(&["ferries"])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let mut pick = Pick::new(8);
    let view = play(&client, &game, &tokens, &mut pick, 40).await;
    let version = view["version"].as_u64().unwrap();
    let r = client.get(&format!("/api/games/{game}/odds")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let state = engine_state_at(&client, &game, Some(version)).await;
    // (Through JSON text, as the server writes it: f32s as their shortest decimals.)
    let want: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&carcassonne_bots::odds::odds(&state)).unwrap()).unwrap();
    assert!(r.body == want, "the server's odds differ from the library's");
    assert!(!r.body["cells"].as_array().unwrap().is_empty() && !r.body["features"].as_array().unwrap().is_empty());
    // A past version: the position then.
    let past = client.get(&format!("/api/games/{game}/odds?version=5")).await;
    assert_eq!(past.status, 200, "{}", past.body);
    let view5 = client.get(&format!("/api/games/{game}/view?version=5")).await.body;
    assert_eq!(past.body["bag"], view5["bag"]["total"]);
    assert!(past.body["cells"].as_array().unwrap().len() < r.body["cells"].as_array().unwrap().len());
    for (query, status, code) in
        [("version=0", 404, "not_found"), ("version=99999", 404, "not_found"), ("version=x", 400, "malformed")]
    {
        let r = client.get(&format!("/api/games/{game}/odds?{query}")).await;
        assert_eq!((r.status, r.code()), (status, code), "{query}: {}", r.body);
    }
    // A seat's own position, its token in the body: the same odds here (no provisional decision).
    let seat = client.post(&format!("/api/games/{game}/odds"), &json!({"token": tokens[0]})).await;
    assert!(seat.status == 200 && seat.body == r.body, "the seat's odds: {}", seat.status);
    for (body, status, code) in [
        (json!({"token": "0123456789abcdef0123456789abcdef"}), 403, "wrong_token"),
        (json!({"version": "five"}), 400, "malformed"),
        (json!({"version": 5}), 200, ""),
    ] {
        let r = client.post(&format!("/api/games/{game}/odds"), &body).await;
        assert_eq!(r.status, status, "{body}: {}", r.body);
        if status != 200 {
            assert_eq!(r.code(), code);
        } else {
            assert!(r.body == past.body, "the odds at version 5 by POST");
        }
    }
    let r = client.get("/api/games/0123456789abcdef/odds").await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
}
