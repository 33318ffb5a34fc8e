//! Clocks (docs/api.md, Clocks): a Fischer clock whose seat runs out has
//! its turns played by the server's bot, the seat refused from then on,
//! the other seat's bank charged and credited; the clock survives a
//! restart; a per-move clock with `lose` ends a rated game with the seat
//! last and the ratings moved so; bad time controls are refused.

use crate::common::*;
use serde_json::{json, Value};

fn clock(view: &Value) -> &Value {
    &view["clock"]
}

#[tokio::test]
async fn a_seat_out_of_time_is_played_by_the_bot_and_the_clock_survives_a_restart() {
    let (_dir, db) = temp_db();
    let setup = json!({"seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
                       "clock": {"base": 10, "increment": 2}});
    let (game, tokens) = {
        let server = TestServer::start(&db);
        let client = Client::new(&server);
        let created = client.create(setup).await;
        let game = created["game"].as_str().unwrap().to_string();
        let view = client.view(&game).await;
        let c = clock(&view);
        let asked = &c["setup"];
        assert_eq!(
            (asked["base"].clone(), asked["increment"].clone(), asked["on_timeout"].clone()),
            (json!(10), json!(2), json!("bot"))
        );
        assert_eq!(c["banks"], json!([10_000, 10_000]));
        assert_eq!(c["running"]["seat"], 0);
        let deadline = c["deadline"].as_i64().unwrap();
        assert_eq!(deadline - c["running"]["since"].as_i64().unwrap(), 10_000);
        (game, tokens(&created))
    };
    // The server stops while Ann thinks; it starts again: her clock ran on.
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let view = client
        .wait_for(&game, "the bot to play Ann's turn", |v| v["to_act"] == 1 && clock(v)["out"] == json!([0]))
        .await;
    assert_eq!(clock(&view)["banks"][0], 0, "empty: the bot plays for the seat from now on, with no increment");
    assert_eq!(clock(&view)["running"]["seat"], 1);
    // Bob plays his turn in time: his bank is charged and credited.
    let mut pick = Pick::new(1);
    let mut view = view;
    let since = clock(&view)["running"]["since"].as_i64().unwrap();
    while view["to_act"] == 1 {
        let action = pick.action(&view);
        let r = client.act(&game, 1, &tokens[1], view["version"].as_u64().unwrap(), &action).await;
        assert_eq!(r.status, 200, "{}", r.body);
        view = r.body["view"].clone();
    }
    let bank = clock(&view)["banks"][1].as_i64().unwrap();
    assert!(bank > 10_000 - 5_000 && bank <= 12_000, "charged its turn, credited 2 s: {bank} (since {since})");
    // Ann's later turns are the bot's; her token is refused.
    let view = client.wait_for(&game, "Ann's turn played again", |v| v["to_act"] == 1).await;
    assert!(clock(&view)["running"]["seat"] == 1 && clock(&view)["out"] == json!([0]));
    let h = client.get(&format!("/api/games/{game}/actions")).await.body;
    let played_by_bot = h["actions"].as_array().unwrap().iter().filter(|a| a["seat"] == 0).count();
    assert!(played_by_bot >= 2, "two turns of Ann's at least: {played_by_bot}");
}

#[tokio::test]
async fn running_out_with_lose_ends_a_rated_game_with_the_seat_last() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = Browser::new(&server);
    let mut bob = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    assert_eq!(bob.register("Bob", PASSWORD).await.status, 201);
    let setup = json!({"seats": [{"type": "human", "mine": true}, {"type": "human"}], "rated": true,
                       "clock": {"per_move": 10, "on_timeout": "lose"}});
    let created = ann.post("/api/games", &setup).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.body["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created.body);
    bob.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[1]})).await;
    let client = Client::new(&server);
    // Ann plays her first turn; Bob then lets his clock run out.
    let mut pick = Pick::new(3);
    let mut view = client.view(&game).await;
    while view["to_act"] == 0 {
        let r = client.act(&game, 0, &tokens[0], view["version"].as_u64().unwrap(), &pick.action(&view)).await;
        assert_eq!(r.status, 200, "{}", r.body);
        view = r.body["view"].clone();
    }
    let listed = bob.me().await.body;
    assert_eq!(listed["games"][0]["to_act"], 1, "Bob's turn, in his list");
    assert!(listed["games"][0]["deadline"].as_i64().unwrap() > 0);
    let end = client.wait_for(&game, "Bob to lose on time", |v| v["status"] == "finished").await;
    assert_eq!((end["final"]["forfeit"].clone(), end["final"]["winners"].clone()), (json!(1), json!([0])));
    assert_eq!((clock(&end)["forfeit"].clone(), end["legal"].clone()), (json!(1), json!([])));
    assert_eq!(end["to_act"], Value::Null, "no one is to act in a game that is over");
    assert_eq!(clock(&end).get("deadline"), None);
    let r = client.act(&game, 1, &tokens[1], end["version"].as_u64().unwrap(), &json!({"type": "pass"})).await;
    assert_eq!(r.body["error"]["code"], "game_over");
    // Rated: Bob lost, whatever the scores.
    let a = client.get("/api/players/Ann").await.body;
    let b = client.get("/api/players/Bob").await.body;
    assert!(a["rating"]["rating"].as_f64().unwrap() > 1500.0 && b["rating"]["rating"].as_f64().unwrap() < 1500.0);
    assert_eq!((a["stats"]["wins"].clone(), b["stats"]["wins"].clone()), (json!(1), json!(0)));
}

#[tokio::test]
async fn bad_time_controls_are_refused() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let seats = json!([{"type": "human"}, {"type": "human"}]);
    for (clock, code) in [
        (json!({}), "invalid_setup"),
        (json!({"per_move": 60, "base": 60}), "invalid_setup"),
        (json!({"per_move": 1}), "invalid_setup"),
        (json!({"base": 600, "increment": 99999}), "invalid_setup"),
        (json!({"base": 600, "on_timeout": "draw"}), "malformed"),
        (json!({"base": 600, "delay": 3}), "malformed"),
        (json!("10+5"), "malformed"),
    ] {
        let r = client.post("/api/games", &json!({"seats": seats, "clock": clock})).await;
        assert_eq!(r.body["error"]["code"], code, "{clock}: {}", r.body);
    }
    assert_eq!(client.get("/api/games").await.body["games"], json!([]));
    // Without a clock, no clock in the view.
    let created = client.create(json!({"seats": seats})).await;
    assert_eq!(client.view(created["game"].as_str().unwrap()).await.get("clock"), None);
}
