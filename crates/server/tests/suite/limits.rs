//! Per-client limits: a client over its allowance is refused with a typed
//! error, the refusal changes nothing, and the others go on being served.

use std::time::Duration;

use crate::common::*;
use carcassonne_server::Limits;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

fn limits() -> Limits {
    Limits {
        requests_per_second: 1000,
        games_per_minute: 1000,
        sockets: 1000,
        sockets_per_game: 1000,
        sockets_per_address: 1000,
        messages_per_second: 1000,
        ..Limits::default()
    }
}

#[tokio::test]
async fn api_requests_over_the_allowance_wait_for_it() {
    let (_dir, db) = temp_db();
    // One request a second with bursts of three.
    let server = TestServer::start_with(&db, Limits { requests_per_second: 1, ..limits() });
    let client = Client::new(&server);
    for _ in 0..3 {
        assert_eq!(client.get("/api/tiles").await.status, 200);
    }
    let r = client.http.get(server.url("/api/tiles")).send().await.unwrap();
    assert_eq!(r.status(), 429);
    let wait: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&wait), "Retry-After {wait}");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    assert!(body["error"]["message"].as_str().unwrap().contains("try again in"), "{body}");
    // The UI's pages are not API requests.
    let page = client.http.get(server.url("/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    // The allowance comes back with time.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(client.get("/api/tiles").await.status, 200);
}

#[tokio::test]
async fn games_created_over_the_allowance_are_refused_and_not_stored() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, Limits { games_per_minute: 2, ..limits() });
    let client = Client::new(&server);
    client.create(public(two_humans(&[]))).await;
    client.create(public(two_humans(&["ferries"]))).await;
    let r = client.post("/api/games", &two_humans(&[])).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "{}", r.body);
    let listed = client.get("/api/games").await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.body["games"].as_array().unwrap().len(), 2, "{}", listed.body);
}

async fn connect(server: &TestServer, game: &str) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    tokio_tungstenite::connect_async(server.ws_url(game)).await.map(|(socket, _)| socket)
}

async fn next_json(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), socket.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// Two new games of two human seats.
async fn two_games(client: &Client) -> (String, String) {
    let game = |c: Value| c["game"].as_str().unwrap().to_string();
    (game(client.create(two_humans(&[])).await), game(client.create(two_humans(&[])).await))
}

/// A refused upgrade's status, error code and message.
fn refusal(connected: Result<Socket, tokio_tungstenite::tungstenite::Error>) -> (u16, String, String) {
    match connected {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            let body: Value = serde_json::from_slice(r.body().as_deref().unwrap_or_default()).unwrap();
            let text = |k: &str| body["error"][k].as_str().unwrap().to_string();
            (r.status().as_u16(), text("code"), text("message"))
        }
        Err(other) => panic!("not an HTTP refusal: {other}"),
        Ok(_) => panic!("connected, where a refusal was expected"),
    }
}

/// Whether `game` takes a connection again within a few seconds (a closed
/// connection's place comes back once the server has seen it close).
async fn connects_again(server: &TestServer, game: &str) -> bool {
    for _ in 0..50 {
        if connect(server, game).await.is_ok() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn a_game_takes_so_many_live_connections_and_frees_them_when_they_close() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, Limits { sockets_per_game: 2, sockets: 3, ..limits() });
    let client = Client::new(&server);
    let (a, b) = two_games(&client).await;

    let mut first = connect(&server, &a).await.unwrap();
    assert_eq!(next_json(&mut first).await["type"], "view");
    let _second = connect(&server, &a).await.unwrap();
    let (status, code, message) = refusal(connect(&server, &a).await);
    assert_eq!((status, code.as_str()), (503, "busy"));
    assert!(message.contains("this game"), "{message}");
    // Another game still has room, until the server's own maximum.
    let _other = connect(&server, &b).await.unwrap();
    let (status, code, message) = refusal(connect(&server, &b).await);
    assert_eq!((status, code.as_str()), (503, "busy"));
    assert!(message.contains("the server"), "{message}");

    // A closed connection gives its place back.
    first.close(None).await.unwrap();
    drop(first);
    assert!(connects_again(&server, &a).await, "the closed connection's place was not given back");
}

#[tokio::test]
async fn a_connection_sending_too_fast_is_answered_with_rate_limited_and_stays_open() {
    let (_dir, db) = temp_db();
    // One message a second with bursts of three.
    let server = TestServer::start_with(&db, Limits { messages_per_second: 1, ..limits() });
    let client = Client::new(&server);
    let created = client.create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap();
    let mut socket = connect(&server, game).await.unwrap();
    assert_eq!(next_json(&mut socket).await["type"], "view");
    for _ in 0..5 {
        socket.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
    }
    let mut kinds = Vec::new();
    for _ in 0..5 {
        let m = next_json(&mut socket).await;
        kinds.push(if m["type"] == "error" {
            m["error"]["code"].as_str().unwrap().to_string()
        } else {
            m["type"].to_string()
        });
    }
    let pongs = kinds.iter().filter(|k| k.contains("pong")).count();
    assert!((3..=4).contains(&pongs), "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| *k == "rate_limited").count(), 5 - pongs, "{kinds:?}");
    // Still open, and served again once the allowance is back.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    socket.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["type"], "pong");
    // Binary frames count as well.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for _ in 0..2 {
        socket.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    }
    assert_eq!(next_json(&mut socket).await["error"]["code"], "malformed");
    assert_eq!(next_json(&mut socket).await["error"]["code"], "rate_limited");
}

#[tokio::test]
async fn one_address_takes_so_many_live_connections() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, Limits { sockets_per_address: 2, ..limits() });
    let client = Client::new(&server);
    let (a, b) = two_games(&client).await;
    let mut first = connect(&server, &a).await.unwrap();
    assert_eq!(next_json(&mut first).await["type"], "view");
    let _second = connect(&server, &b).await.unwrap();
    let (status, code, message) = refusal(connect(&server, &b).await);
    assert_eq!((status, code.as_str()), (503, "busy"));
    assert!(message.contains("this address"), "{message}");
    first.close(None).await.unwrap();
    drop(first);
    assert!(connects_again(&server, &b).await, "the closed connection's place was not given back to its address");
}
