//! A game's chat (docs/api.md, Chat): the players' room for the seats'
//! holders only, the spectators' room for anyone without a seat; pushed
//! over the WebSockets of each room and of no other; text kept as given
//! (never markup), tidied, and refused when it cannot be shown honestly;
//! limited per seat and per address; kept with the game across a restart.

use crate::common::*;
use carcassonne_server::Limits;
use serde_json::{json, Value};

async fn say(client: &Client, game: &str, body: Value) -> Reply {
    client.post(&format!("/api/games/{game}/chat"), &body).await
}

/// The texts of a room's messages, as `(seat, name, text)`.
fn lines(messages: &Value) -> Vec<(Value, String, String)> {
    messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["seat"].clone(), m["name"].as_str().unwrap().to_string(), m["text"].as_str().unwrap().to_string()))
        .collect()
}

async fn players_room(client: &Client, game: &str, token: &str) -> Value {
    let r = client.post(&format!("/api/games/{game}/chat/read"), &json!({"token": token})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["room"], "players");
    r.body["messages"].clone()
}

async fn spectators_room(client: &Client, game: &str) -> Value {
    let r = client.get(&format!("/api/games/{game}/chat")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["room"], "spectators");
    r.body["messages"].clone()
}

/// A new game of two human seats, named Ann and Bob.
async fn game(client: &Client) -> (String, Vec<String>) {
    let created = client
        .create(
            json!({"seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}], "expansions": []}),
        )
        .await;
    (created["game"].as_str().unwrap().to_string(), tokens(&created))
}

#[tokio::test]
async fn players_and_spectators_talk_in_rooms_of_their_own() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let (game, tokens) = game(&client).await;

    let r = say(&client, &game, json!({"token": tokens[0], "text": "  good\nluck <b>Bob</b> "})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = &r.body["message"];
    assert_eq!((m["room"].clone(), m["seat"].clone(), m["name"].clone()), (json!("players"), json!(0), json!("Ann")));
    assert_eq!(m["text"], "good luck <b>Bob</b>", "one line, markup kept as text");
    assert!(m["id"].as_u64().unwrap() > 0 && m["at"].as_i64().unwrap() > 1_700_000_000, "{m}");
    let r = say(&client, &game, json!({"name": "Kibitzer", "text": "play the ferry!"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.body["message"]["room"].clone(), r.body["message"]["seat"].clone()),
        (json!("spectators"), Value::Null)
    );
    let r = say(&client, &game, json!({"text": "anyone?"})).await;
    assert_eq!(r.body["message"]["name"], "Spectator", "the default name");

    // Each room holds its own; the players' is read with a seat's token only.
    let players = players_room(&client, &game, &tokens[1]).await;
    assert_eq!(lines(&players), vec![(json!(0), "Ann".into(), "good luck <b>Bob</b>".into())]);
    let spectators = lines(&spectators_room(&client, &game).await);
    assert_eq!(
        spectators,
        vec![
            (Value::Null, "Kibitzer".into(), "play the ferry!".into()),
            (Value::Null, "Spectator".into(), "anyone?".into())
        ]
    );
    let r = client.post(&format!("/api/games/{game}/chat/read"), &json!({"token": "0123456789abcdef"})).await;
    assert_eq!((r.status, r.code()), (403, "wrong_token"), "{}", r.body);

    // Since an id: only what came after it.
    let first = spectators_room(&client, &game).await[0]["id"].as_u64().unwrap();
    let r = client.get(&format!("/api/games/{game}/chat?since={first}")).await;
    assert_eq!(lines(&r.body["messages"]).len(), 1, "{}", r.body);
    let r = client.get(&format!("/api/games/{game}/chat?since={}", u64::MAX)).await;
    assert_eq!((r.status, lines(&r.body["messages"]).len()), (200, 0), "{}", r.body);
    let r = client.get(&format!("/api/games/{game}/chat?since=-1")).await;
    assert_eq!((r.status, r.code()), (400, "malformed"), "{}", r.body);

    // Refused, and nothing stored: a spectator passing for a seat, a token
    // with a name, a wrong token, empty or long or disguised text, no text.
    for (body, status, code) in [
        (json!({"name": "ann", "text": "I resign"}), 422, "bad_message"),
        (json!({"name": "B\u{ff4f}b", "text": "I resign"}), 422, "bad_message"),
        (json!({"token": tokens[0], "name": "Zed", "text": "hi"}), 400, "malformed"),
        (json!({"token": "0123456789abcdef", "text": "hi"}), 403, "wrong_token"),
        (json!({"token": tokens[0], "text": " \n "}), 422, "bad_message"),
        (json!({"token": tokens[0], "text": "x".repeat(501)}), 422, "bad_message"),
        (json!({"token": tokens[0], "text": "evil\u{202e}txt.exe"}), 422, "bad_message"),
        (json!({"token": tokens[0], "text": "bell\u{7}"}), 422, "bad_message"),
        (json!({"name": "A\u{200b}nn", "text": "hi"}), 422, "bad_message"),
        (json!({"token": tokens[0]}), 400, "malformed"),
        (json!({"token": tokens[0], "text": 7}), 400, "malformed"),
    ] {
        let r = say(&client, &game, body.clone()).await;
        assert_eq!((r.status, r.code()), (status, code), "{body}: {}", r.body);
        assert!(r.body["error"]["message"].is_string(), "{}", r.body);
    }
    let r = client.post_raw(&format!("/api/games/{game}/chat"), "not json").await;
    assert_eq!((r.status, r.code()), (400, "malformed"));
    let r = say(&client, "00000000000000ff", json!({"text": "hello?"})).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    assert_eq!(players_room(&client, &game, &tokens[0]).await.as_array().unwrap().len(), 1);
    assert_eq!(spectators_room(&client, &game).await.as_array().unwrap().len(), 2);
    // The chat changes nothing in the game.
    assert_eq!(client.view(&game).await["version"], 1);
}

#[tokio::test]
async fn each_websocket_hears_its_own_room_and_no_other() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let (game, tokens) = game(&client).await;
    say(&client, &game, json!({"token": tokens[1], "text": "before"})).await;

    let mut player = connect_seats(&server, &game, &[&tokens[0]]).await;
    let mut spectator = connect(&server, &game).await;
    // The room so far comes after the first view.
    assert_eq!(next(&mut player).await["type"], "view");
    let so_far = until(&mut player, "chat").await;
    assert_eq!(
        (so_far["room"].clone(), lines(&so_far["messages"])),
        (json!("players"), vec![(json!(1), "Bob".into(), "before".into())])
    );
    assert_eq!(next(&mut spectator).await["type"], "view");

    // A spectator's message reaches the spectator, never the player.
    say(&client, &game, json!({"name": "Eve", "text": "psst"})).await;
    let heard = until(&mut spectator, "chat").await;
    assert_eq!(
        (heard["room"].clone(), lines(&heard["messages"])),
        (json!("spectators"), vec![(Value::Null, "Eve".into(), "psst".into())])
    );
    // A player's reaches the player, never the spectator.
    say(&client, &game, json!({"token": tokens[1], "text": "your turn"})).await;
    let heard = until(&mut player, "chat").await;
    assert_eq!(lines(&heard["messages"]), vec![(json!(1), "Bob".into(), "your turn".into())], "only what is new");
    // Then a view, which each socket gets next: nothing of the other room came between.
    let view = client.view(&game).await;
    assert_eq!(client.act(&game, 0, &tokens[0], 1, &view["legal"][0]).await.status, 200);
    assert_eq!(next(&mut player).await["type"], "view");
    assert_eq!(next(&mut spectator).await["type"], "view");
}

#[tokio::test]
async fn the_chat_is_limited_per_seat_and_per_address() {
    let (_dir, db) = temp_db();
    // One a minute: the bursts are all there is within a test.
    let server = TestServer::start_with(&db, Limits { chat_per_minute: 1, ..Limits::unlimited() });
    let client = Client::new(&server);
    let (game, tokens) = game(&client).await;
    for i in 0..5 {
        let r = say(&client, &game, json!({"token": tokens[0], "text": format!("hi {i}")})).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = say(&client, &game, json!({"token": tokens[0], "text": "once more"})).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "the seat's burst is spent: {}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("try again in"), "{}", r.body);
    // The other seat has its own allowance, but the address's is shared.
    for i in 0..4 {
        assert_eq!(say(&client, &game, json!({"token": tokens[1], "text": format!("yo {i}")})).await.status, 201);
    }
    let r = say(&client, &game, json!({"name": "Eve", "text": "me too"})).await;
    assert_eq!(r.status, 201, "the address's tenth: {}", r.body);
    let r = say(&client, &game, json!({"name": "Mallory", "text": "and me"})).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "the address's burst is spent: {}", r.body);
    // Another address is not held back.
    let other = Client::from(&server, "127.0.0.2");
    assert_eq!(say(&other, &game, json!({"name": "Trent", "text": "hello"})).await.status, 201);
    assert_eq!(players_room(&client, &game, &tokens[0]).await.as_array().unwrap().len(), 9);
    assert_eq!(spectators_room(&client, &game).await.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn the_chat_is_kept_across_a_restart_pages_and_fills_up() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let (game, tokens) = game(&client).await;
    let max = carcassonne_server::game::chat::MAX_LINES;
    for i in 0..max {
        let r = say(&client, &game, json!({"token": tokens[i % 2], "text": format!("line {i}")})).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = say(&client, &game, json!({"name": "Late", "text": "too late"})).await;
    assert_eq!((r.status, r.code()), (409, "chat_full"), "{}", r.body);
    drop(server);

    let server = TestServer::start(&db);
    let client = Client::new(&server);
    // A first look gives the last page, oldest first; then page by page.
    let page = players_room(&client, &game, &tokens[0]).await;
    let texts: Vec<String> = lines(&page).into_iter().map(|l| l.2).collect();
    let page_len = carcassonne_server::game::chat::PAGE;
    assert_eq!(texts.len(), page_len);
    assert_eq!(
        (texts[0].as_str(), texts[page_len - 1].as_str()),
        (format!("line {}", max - page_len).as_str(), format!("line {}", max - 1).as_str())
    );
    let first = client.post(&format!("/api/games/{game}/chat/read"), &json!({"token": tokens[1], "since": 1})).await;
    let texts: Vec<String> = lines(&first.body["messages"]).into_iter().map(|l| l.2).collect();
    assert_eq!((texts.len(), texts[0].as_str()), (page_len, "line 1"), "after the first message");
    assert!(spectators_room(&client, &game).await.as_array().unwrap().is_empty());
}
