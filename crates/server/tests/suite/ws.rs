//! The WebSocket protocol against a real server.

use std::time::Duration;

use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn players_act_and_spectators_follow_over_websockets() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(two_humans(&["ferries"])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);

    let mut player = connect(&server, &game).await;
    let mut spectator = connect(&server, &game).await;
    let first = next(&mut player).await;
    assert_eq!(first["type"], "view");
    assert_eq!(first["view"]["version"], 1);
    assert_eq!(next(&mut spectator).await["view"]["version"], 1);

    // Act over the socket: an ack, and the new view to everyone.
    let action = first["view"]["legal"][0].clone();
    send(&mut player, json!({"type": "act", "id": 7, "seat": 0, "token": tokens[0], "version": 1, "action": action}))
        .await;
    let mut acked = false;
    let mut seen = 1;
    while !acked || seen < 2 {
        let m = next(&mut player).await;
        match m["type"].as_str() {
            Some("ack") => {
                assert_eq!((m["id"].clone(), m["version"].clone()), (json!(7), json!(2)));
                acked = true;
            }
            Some("view") => seen = m["view"]["version"].as_u64().unwrap(),
            _ => panic!("unexpected {m}"),
        }
    }
    assert_eq!(until(&mut spectator, "view").await["view"]["version"], 2);

    // An action over HTTP is pushed to the sockets too.
    let view = client.view(&game).await;
    let r = client.act(&game, 0, &tokens[0], 2, &view["legal"][0]).await;
    assert_eq!(r.status, 200);
    assert_eq!(until(&mut spectator, "view").await["view"]["version"], r.body["version"]);

    // Stale version, wrong token, malformed messages: typed errors, socket stays open.
    send(&mut player, json!({"type": "act", "id": 8, "seat": 0, "token": tokens[0], "version": 1, "action": action}))
        .await;
    let e = until(&mut player, "error").await;
    assert_eq!((e["id"].clone(), e["error"]["code"].clone()), (json!(8), json!("stale_version")));
    let version = r.body["version"].as_u64().unwrap();
    let seat = r.body["view"]["to_act"].as_u64().unwrap();
    send(
        &mut player,
        json!({"type": "act", "id": 9, "seat": seat, "token": "f00", "version": version, "action": {"type": "pass"}}),
    )
    .await;
    let e = until(&mut player, "error").await;
    assert_eq!((e["id"].clone(), e["error"]["code"].clone()), (json!(9), json!("wrong_token")));
    player.send(Message::Text("{not json".into())).await.unwrap();
    let e = until(&mut player, "error").await;
    assert_eq!((e["id"].clone(), e["error"]["code"].clone()), (Value::Null, json!("malformed")));
    send(&mut player, json!({"type": "teleport", "id": 10})).await;
    let e = until(&mut player, "error").await;
    assert_eq!((e["id"].clone(), e["error"]["code"].clone()), (json!(10), json!("malformed")));
    send(&mut player, json!({"type": "ping"})).await;
    assert_eq!(until(&mut player, "pong").await["type"], "pong");

    // A reconnecting browser gets the current view at once.
    drop(player);
    let mut again = connect(&server, &game).await;
    let m = next(&mut again).await;
    assert_eq!((m["type"].clone(), m["view"]["version"].clone()), (json!("view"), json!(version)));

    // A message over 16 KiB closes the socket.
    let big = json!({"type": "ping", "pad": "x".repeat(20 * 1024)});
    let _ = again.send(Message::Text(big.to_string().into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match again.next().await {
                None | Some(Err(_)) => return None,
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .expect("closed in time");
    assert_eq!(closed, Some(1009));

    // The server is still well.
    assert_eq!(client.view(&game).await["version"], version);
}

#[tokio::test]
async fn unknown_games_have_no_socket() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let err = tokio_tungstenite::connect_async(server.ws_url("0123456789abcdef")).await;
    assert!(err.is_err());
}

#[tokio::test]
async fn a_bot_game_is_followed_live_to_its_end() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created =
        client.create(json!({"seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut socket = connect(&server, &game).await;
    let mut last = 0;
    loop {
        let m = until(&mut socket, "view").await;
        let v = m["view"]["version"].as_u64().unwrap();
        assert!(v >= last, "views never go back");
        last = v;
        if m["view"]["status"] == "finished" {
            assert!(m["view"]["final"]["scores"].is_array());
            break;
        }
    }
}
