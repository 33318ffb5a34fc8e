//! Hints through the API (docs/api.md, docs/analysis.md): off unless the
//! game was created with them; given only to the seat to act, at its
//! version; written in the record, shown in the view and kept across a
//! restart; refused past the address's bot time and beyond its hints
//! under way; and they change nothing in the game.

use std::time::Duration;

use crate::common::*;
use carcassonne_engine::{Game, Record};
use carcassonne_server::Limits;
use serde_json::{json, Value};

/// Hints as fast as a test needs: 5 ms a hint.
fn quick() -> Limits {
    Limits { hint_ms: 5, ..Limits::unlimited() }
}

fn with_hints(mut setup: Value) -> Value {
    setup["hints"] = json!(true);
    setup
}

async fn ask(client: &Client, game: &str, token: &str, version: u64) -> Reply {
    client.post(&format!("/api/games/{game}/hint"), &json!({"token": token, "version": version})).await
}

async fn record_of(client: &Client, game: &str) -> Record {
    let r = client.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    Record::from_json(&r.body.to_string()).unwrap()
}

#[tokio::test]
async fn a_hint_is_the_legal_choice_of_the_bot_for_the_seat_to_act_and_is_written_in_the_record() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    let created = client.create(with_hints(two_humans(&["ferries"]))).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    assert!(created["seats"].as_array().unwrap().iter().all(|s| s["hints"] == true), "{created}");
    let mut pick = Pick::new(3);
    let view = play(&client, &game, &tokens, &mut pick, 7).await;
    assert_eq!(view["hints"], json!([0, 0]), "no hint yet");
    let seat = view["to_act"].as_u64().unwrap() as usize;
    let version = view["version"].as_u64().unwrap();
    // Only the seat to act, at the version it sees.
    let r = ask(&client, &game, &tokens[1 - seat], version).await;
    assert_eq!((r.status, r.code()), (409, "not_your_turn"), "{}", r.body);
    let r = ask(&client, &game, &tokens[seat], version - 1).await;
    assert_eq!((r.status, r.code()), (409, "stale_version"), "{}", r.body);
    let r = ask(&client, &game, "0123456789abcdef0123456789abcdef", version).await;
    assert_eq!((r.status, r.code()), (403, "wrong_token"), "{}", r.body);
    assert_eq!(record_of(&client, &game).await.turns.iter().map(|t| t.hints.len()).sum::<usize>(), 0);
    // The hint: one of the view's legal actions, with the chances to win.
    let r = ask(&client, &game, &tokens[seat], version).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let text = r.body["action"]["text"].as_str().unwrap();
    assert!(view["legal"].as_array().unwrap().iter().any(|a| a["text"] == text), "{text} is legal");
    assert_eq!((r.body["version"].as_u64(), r.body["used"].as_u64()), (Some(version), Some(1)));
    let win: f64 = r.body["win"].as_array().unwrap().iter().map(|w| w.as_f64().unwrap()).sum();
    assert!((win - 1.0).abs() < 1e-3, "{}", r.body);
    // Written in the record, in the turn being played, and counted in the view.
    let after = client.view(&game).await;
    assert_eq!(after["version"], view["version"], "a hint is no action");
    assert_eq!(after["hints"][seat], 1);
    let record = record_of(&client, &game).await;
    let turn = record.turns.len() - 1;
    assert_eq!(record.turns[turn].hints, [seat]);
    assert_eq!(Game::replay(&record).unwrap().hints_used()[seat], 1);
    // The hint followed, the game goes on; a second hint later is counted too.
    let r = client.act(&game, seat, &tokens[seat], version, &r.body["action"]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let view = play(&client, &game, &tokens, &mut pick, 5).await;
    let seat2 = view["to_act"].as_u64().unwrap() as usize;
    let r = ask(&client, &game, &tokens[seat2], view["version"].as_u64().unwrap()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mut used = [0u32, 0];
    used[seat] += 1;
    used[seat2] += 1;
    assert_eq!(r.body["used"].as_u64(), Some(u64::from(used[seat2])));
    assert_eq!(client.view(&game).await["hints"], json!(used));
    // Kept across a restart, with the game as it was.
    let before = record_of(&client, &game).await;
    drop(client);
    drop(server);
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    assert_eq!(record_of(&client, &game).await, before);
    assert_eq!(client.view(&game).await["hints"], json!(used));
    // Played to the end: the record replays, its hints on it.
    play(&client, &game, &tokens, &mut pick, 10_000).await;
    let record = record_of(&client, &game).await;
    assert_eq!(Game::replay(&record).unwrap().hints_used(), used);
    let r = ask(&client, &game, &tokens[0], client.view(&game).await["version"].as_u64().unwrap()).await;
    assert_eq!((r.status, r.code()), (409, "game_over"), "{}", r.body);
}

#[tokio::test]
async fn a_game_without_hints_refuses_them_and_bad_requests_change_nothing() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    let created = client.create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let view = client.view(&game).await;
    assert!(view.get("hints").is_none(), "no hints in a game without them: {}", view["hints"]);
    let seat = view["to_act"].as_u64().unwrap() as usize;
    let version = view["version"].as_u64().unwrap();
    let r = ask(&client, &game, &tokens[seat], version).await;
    assert_eq!((r.status, r.code()), (403, "hints_off"), "{}", r.body);
    for body in [json!({}), json!({"token": tokens[seat]}), json!({"token": 5, "version": version}), json!([1])] {
        let r = client.post(&format!("/api/games/{game}/hint"), &body).await;
        assert_eq!((r.status, r.code()), (400, "malformed"), "{body}: {}", r.body);
    }
    let r = client.post("/api/games/0123456789abcdef/hint", &json!({"token": "x", "version": 1})).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    assert_eq!(client.view(&game).await["version"], view["version"]);
    assert!(record_of(&client, &game).await.turns.iter().all(|t| t.hints.is_empty()));
    // A bot seat has no token to ask with, and in a game with hints only humans may.
    let created =
        client.create(with_hints(json!({"seats": [{"type": "human"}, {"type": "bot", "level": "random"}]}))).await;
    let seats = created["seats"].as_array().unwrap();
    assert_eq!((seats[0]["hints"].as_bool(), seats[1].get("hints")), (Some(true), None));
}

#[tokio::test]
async fn hints_count_against_the_bot_time_of_the_address_that_asks() {
    let (_dir, db) = temp_db();
    // One bot second an hour, and hints of 1.2 s: the first spends it.
    let server = TestServer::start_with(&db, Limits { bot_seconds_per_hour: 1, hint_ms: 1200, ..Limits::unlimited() });
    let client = Client::new(&server);
    let created = client.create(with_hints(two_humans(&[]))).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let view = client.view(&game).await;
    let version = view["version"].as_u64().unwrap();
    let r = ask(&client, &game, &tokens[0], version).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The next decision's hint is refused: the first spent the hour's second.
    let r = client.act(&game, 0, &tokens[0], version, &r.body["action"]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let version = r.body["version"].as_u64().unwrap();
    let r = ask(&client, &game, &tokens[0], version).await;
    assert_eq!((r.status, r.code()), (429, "bot_time_used"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("hints count as bots do"), "{}", r.body);
    assert_eq!(record_of(&client, &game).await.turns.last().unwrap().hints, [0], "the refused hint is not written");
}

#[tokio::test]
async fn an_address_has_at_most_two_hints_under_way() {
    let (_dir, db) = temp_db();
    // Slow hints on one bot thread: the first holds it while the others wait.
    let server = TestServer::start_bots(&db, Limits { hint_ms: 1500, ..Limits::unlimited() }, Some(1));
    let client = Client::new(&server);
    let created = client.create(with_hints(two_humans(&[]))).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let version = client.view(&game).await["version"].as_u64().unwrap();
    let first = tokio::spawn({
        let (client, game, token) = (Client::new(&server), game.clone(), tokens[0].clone());
        async move { ask(&client, &game, &token, version).await }
    });
    let second = tokio::spawn({
        let (client, game, token) = (Client::new(&server), game.clone(), tokens[0].clone());
        async move { ask(&client, &game, &token, version).await }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    let r = ask(&client, &game, &tokens[0], version).await;
    assert_eq!((r.status, r.code()), (429, "hints_busy"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("2 hints under way"), "{}", r.body);
    let (first, second) = (first.await.unwrap(), second.await.unwrap());
    assert_eq!((first.status, second.status), (200, 200));
    // The same position asked twice: one hint, written once, the same answer to both.
    assert_eq!(first.body, second.body);
    assert_eq!(first.body["used"], 1);
    assert_eq!(record_of(&client, &game).await.turns.last().unwrap().hints, [0]);
    // Asked again there: answered at once, still written once.
    let again = ask(&client, &game, &tokens[0], version).await;
    assert_eq!((again.status, &again.body), (200, &first.body));
    assert_eq!(record_of(&client, &game).await.turns.last().unwrap().hints, [0]);
}

#[tokio::test]
async fn a_hint_in_a_game_with_undo_is_kept_when_the_turn_is_ended() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    let mut setup = with_hints(two_humans(&["ferries"]));
    setup["undo"] = json!(true);
    let created = client.create(setup).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    // Seat 0 places its tile provisionally, then asks at its own version.
    let view = client.view(&game).await;
    let place = view["legal"][0].clone();
    let r = client.act(&game, 0, &tokens[0], view["version"].as_u64().unwrap(), &place).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mine = r.body["view"].clone();
    let version = r.body["version"].as_u64().unwrap();
    let r = ask(&client, &game, &tokens[0], version).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(mine["legal"].as_array().unwrap().iter().any(|a| a["text"] == r.body["action"]["text"]));
    // A restart with the provisional decision and the hint: both come back.
    drop(client);
    drop(server);
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    let joined = client.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[0]})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let mine = joined.body["view"].clone();
    assert_eq!((mine["version"].as_u64(), &mine["hints"]), (Some(version), &json!([1, 0])), "{mine}");
    // The turn played out in the seat's own game, then ended: the hint stays in the turn.
    let (mut mine, mut v) = (mine, version);
    while mine["step"] != "end_turn" {
        let r = client.act(&game, 0, &tokens[0], v, &mine["legal"][0]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        (mine, v) = (r.body["view"].clone(), r.body["version"].as_u64().unwrap());
    }
    assert_eq!(mine["hints"], json!([1, 0]), "the seat's own view counts it");
    let r = client.act(&game, 0, &tokens[0], v, &json!({"type": "end_turn"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let record = record_of(&client, &game).await;
    assert_eq!(record.turns[0].hints, [0]);
    assert_eq!(client.view(&game).await["hints"], json!([1, 0]));
}
