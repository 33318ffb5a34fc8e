//! Each seat's colour, chosen at creation, shown to everyone.

use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn seats_have_the_colours_asked_for_and_the_first_ones_left_otherwise() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client
        .create(json!({"seats": [
            {"type": "human", "name": "Ann", "colour": "green"},
            {"type": "human", "name": "Bob"},
            {"type": "bot", "level": "random", "colour": "red"},
        ]}))
        .await;
    let colours: Vec<&str> =
        created["seats"].as_array().unwrap().iter().map(|s| s["colour"].as_str().unwrap()).collect();
    assert_eq!(colours, ["green", "blue", "red"]);
    let game = created["game"].as_str().unwrap();
    let view = client.view(game).await;
    assert_eq!(view["seats"][0]["colour"], "green");
    assert_eq!(view["seats"][2]["colour"], "red");
    for (seats, why) in [
        (json!([{"type": "human", "colour": "mauve"}, {"type": "human"}]), "mauve"),
        (json!([{"type": "human", "colour": "red"}, {"type": "human", "colour": "red"}]), "both be red"),
    ] {
        let r = client.post("/api/games", &json!({ "seats": seats })).await;
        assert_eq!(r.code(), "invalid_setup", "{}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains(why), "{}", r.body);
    }
}
