//! Provisional turns (games created with `undo`): a seat's decisions are
//! seen by that seat alone and may be taken back until it ends the turn;
//! nothing another seat or a spectator saw is ever undone.

use std::time::Duration;

use crate::common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The next view pushed within `wait`, if any.
async fn next_view(socket: &mut Socket, wait: Duration) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(wait, socket.next()).await.ok()??.ok()?;
        if let Message::Text(t) = msg {
            let m: Value = serde_json::from_str(t.as_str()).unwrap();
            if m["type"] == "view" {
                return Some(m["view"].clone());
            }
        }
    }
}

fn undo_game() -> Value {
    let mut setup = two_humans(&[]);
    setup["undo"] = json!(true);
    setup
}

fn first_of<'a>(view: &'a Value, kind: &str) -> &'a Value {
    view["legal"].as_array().unwrap().iter().find(|a| a["type"] == kind).unwrap_or_else(|| panic!("a {kind} in {view}"))
}

fn v(r: &Reply) -> u64 {
    r.body["version"].as_u64().unwrap()
}

#[tokio::test]
async fn decisions_stay_with_their_seat_until_the_turn_ends() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(undo_game()).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let mut spectator = connect_seats(&server, &game, &[]).await;
    let mut own = connect_seats(&server, &game, &[&tokens[0]]).await;
    assert_eq!(next_view(&mut spectator, Duration::from_secs(5)).await.unwrap()["version"], 1);
    assert_eq!(next_view(&mut own, Duration::from_secs(5)).await.unwrap()["version"], 1);

    // Place: provisional, seen by the seat alone.
    let start = client.view(&game).await;
    let place = first_of(&start, "place").clone();
    let r = client.act(&game, 0, &tokens[0], 1, &place).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(v(&r), 2);
    let mine = &r.body["view"];
    assert_eq!(mine["step"], "deploy");
    assert_eq!(mine["undoable"], 1);
    assert!(mine["seq"].as_u64().is_some());
    let public = client.view(&game).await;
    assert_eq!(public["version"], 1, "everyone else still sees the turn's start");
    assert_eq!(public["step"], "place");
    assert!(public.get("undoable").is_none() && public.get("seq").is_none());
    assert_eq!(next_view(&mut own, Duration::from_secs(5)).await.unwrap()["version"], 2, "the seat's socket sees it");
    assert!(next_view(&mut spectator, Duration::from_millis(300)).await.is_none(), "a spectator sees nothing of it");
    // The history, the record and past views hold nothing provisional.
    let history = client.get(&format!("/api/games/{game}/actions")).await;
    assert_eq!(history.body["actions"].as_array().unwrap().len(), 1);
    assert_eq!(client.get(&format!("/api/games/{game}/view?version=2")).await.status, 404);
    // The seat asks for its own view with its token.
    let joined = client.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[0]})).await;
    assert_eq!(joined.body["seat"], 0);
    assert_eq!(joined.body["view"]["version"], 2);
    let other = client.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[1]})).await;
    assert_eq!(other.body["view"]["version"], 1, "another seat sees the public view");

    // Undo goes back to the place step; a stale undo is refused.
    let r = client.act(&game, 0, &tokens[0], 1, &json!({"type": "undo"})).await;
    assert_eq!(r.code(), "stale_version");
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "undo"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(v(&r), 1);
    assert_eq!(r.body["view"]["step"], "place");
    assert!(r.body["view"].get("undoable").is_none());
    let r = client.act(&game, 0, &tokens[0], 1, &json!("undo")).await;
    assert_eq!(r.code(), "nothing_to_undo");
    assert_eq!(r.status, 409);

    // Place again, deploy nothing: the turn waits to be ended.
    let r = client.act(&game, 0, &tokens[0], 1, &place).await;
    assert_eq!(v(&r), 2);
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "end_turn"})).await;
    assert_eq!(r.code(), "turn_not_over");
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "pass"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(v(&r), 3);
    let mine = &r.body["view"];
    assert_eq!(mine["step"], "end_turn");
    assert_eq!(mine["to_act"], 0);
    assert_eq!(mine["undoable"], 2);
    assert_eq!(mine["legal"], json!([{"type": "end_turn", "text": "end turn"}]));
    assert!(mine["drawn"].is_null(), "the next tile is not drawn before the turn ends");
    // The other seat cannot act meanwhile.
    let r = client.act(&game, 1, &tokens[1], 1, &json!({"type": "pass"})).await;
    assert_eq!(r.code(), "not_your_turn");

    // Ending the turn: stored, drawn, seen by all; nothing left to undo.
    let r = client.act(&game, 0, &tokens[0], 3, &json!("end turn")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(v(&r), 4);
    let public = client.view(&game).await;
    assert_eq!(public["version"], 4);
    assert_eq!(public["to_act"], 1);
    assert_eq!(public["step"], "place");
    assert!(public["drawn"].is_string());
    let seen = next_view(&mut spectator, Duration::from_secs(5)).await.unwrap();
    assert_eq!(seen["version"], 4);
    let history = client.get(&format!("/api/games/{game}/actions")).await;
    let kinds: Vec<&str> =
        history.body["actions"].as_array().unwrap().iter().map(|a| a["action"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["draw", "place", "pass", "draw"]);
    for seat in [0, 1] {
        let r = client.act(&game, seat, &tokens[seat], 4, &json!({"type": "undo"})).await;
        assert_eq!(r.code(), "nothing_to_undo", "seat {seat}: {}", r.body);
    }
}

#[tokio::test]
async fn a_whole_game_of_provisional_turns_plays_to_its_end_and_its_decisions_survive_a_restart() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut setup = json!({"seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "expansions": ["ferries"], "undo": true});
    setup["public"] = json!(false);
    let created = client.create(setup).await;
    let game = created["game"].as_str().unwrap().to_string();
    let token = tokens(&created)[0].clone();
    let mut pick = Pick::new(7);
    let mut view = client.view(&game).await;
    let mut undone = 0;
    for _ in 0..2000 {
        if view["status"] == "finished" {
            break;
        }
        if view["to_act"] != 0 {
            view = client.wait_for(&game, "the bot", |v| v["to_act"] == 0 || v["status"] == "finished").await;
            continue;
        }
        let version = view["version"].as_u64().unwrap();
        // Now and then take a decision back first, and make it again.
        if view["undoable"].as_u64().unwrap_or(0) > 0 && pick.index(4) == 0 {
            let r = client.act(&game, 0, &token, version, &json!({"type": "undo"})).await;
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(v(&r), version - 1);
            undone += 1;
            view = r.body["view"].clone();
            continue;
        }
        let action = pick.action(&view);
        let r = client.act(&game, 0, &token, version, &action).await;
        assert_eq!(r.status, 200, "{action} at {version}: {}", r.body);
        view = r.body["view"].clone();
    }
    assert_eq!(view["status"], "finished", "the game ends");
    assert!(undone > 0);
    // Every stored version replays, and the record holds only final decisions.
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record.status, 200);
    let last = view["version"].as_u64().unwrap();
    let history = client.get(&format!("/api/games/{game}/actions")).await;
    assert_eq!(history.body["actions"].as_array().unwrap().len() as u64, last);
    drop(server);

    // A provisional decision is stored with the game, for its seat alone:
    // after a restart the seat finds it again and may still take it back.
    let (_dir2, db2) = temp_db();
    let server = TestServer::start(&db2);
    let client = Client::new(&server);
    let created = client.create(undo_game()).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let start = client.view(&game).await;
    let r = client.act(&game, 0, &tokens[0], 1, first_of(&start, "place")).await;
    assert_eq!(v(&r), 2);
    server.kill();
    let server = TestServer::start(&db2);
    let client = Client::new(&server);
    let again = client.view(&game).await;
    assert_eq!(again["version"], 1);
    assert_eq!(again["step"], "place");
    let mine = client.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[0]})).await;
    assert_eq!((mine.body["view"]["version"].clone(), mine.body["view"]["undoable"].clone()), (json!(2), json!(1)));
    assert_eq!(client.act(&game, 0, &tokens[0], 1, &json!({"type": "undo"})).await.code(), "stale_version");
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "undo"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(v(&r), 1);
    assert_eq!(r.body["view"]["step"], "place");
}

#[tokio::test]
async fn without_undo_decisions_are_final_at_once() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let start = client.view(&game).await;
    let r = client.act(&game, 0, &tokens[0], 1, first_of(&start, "place")).await;
    assert_eq!(v(&r), 2);
    assert!(r.body["view"].get("undoable").is_none());
    assert_eq!(client.view(&game).await["version"], 2, "everyone sees it at once");
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "undo"})).await;
    assert_eq!(r.code(), "nothing_to_undo");
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "end_turn"})).await;
    assert_eq!(r.code(), "turn_not_over");
    // undo and end_turn are not moves of the game's notation for a record.
    let r = client.act(&game, 0, &tokens[0], 2, &json!({"type": "fly"})).await;
    assert_eq!(r.code(), "malformed");
}
