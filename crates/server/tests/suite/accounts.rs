//! Accounts (docs/api.md, Accounts): registering, signing in and out,
//! sessions in a cookie that slide, end and are revoked, names, weak
//! passwords and bad bodies refused without a change, cross-site requests
//! refused, sign-in limits per name and per address (behind a trusted proxy
//! too), seats bound to an account and played from any device without
//! their token, and an account's deletion that leaves its games playable.

use std::time::Duration;

use crate::common::*;
use carcassonne_server::{Limits, ServeOptions};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const OTHER: &str = "Meeple-Ferry-47-lantern";

fn accounts_server(db: &std::path::Path) -> TestServer {
    TestServer::start(db)
}

#[tokio::test]
async fn register_sign_in_and_out_with_a_session_cookie() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let mut ann = Browser::new(&server);
    let r = ann.register("  Ann  Lee ", PASSWORD).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["account"]["name"], "Ann Lee");
    let set = ann.last_set_cookie.clone().unwrap();
    for part in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/", "Max-Age=2592000"] {
        assert!(set.contains(part), "{part} in {set}");
    }
    let token = ann.cookie.clone().unwrap();
    assert_eq!(token.len(), 64, "256 random bits");
    let me = ann.me().await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!((me.body["account"]["name"].clone(), me.body["games"].clone()), (json!("Ann Lee"), json!([])));

    // Only the token's digest is stored.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let stored: String = conn.query_row("SELECT token FROM sessions", [], |r| r.get(0)).unwrap();
    assert_ne!(stored, token);
    assert_eq!(stored.len(), 64);
    let hash: String = conn.query_row("SELECT password FROM accounts", [], |r| r.get(0)).unwrap();
    assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$") && !hash.contains(PASSWORD), "{hash}");

    // No session, or a made-up one: not signed in.
    let mut nobody = Browser::new(&server);
    assert_refused(&nobody.me().await, 401, "not_signed_in");
    nobody.cookie = Some("0".repeat(64));
    assert_refused(&nobody.me().await, 401, "not_signed_in");
    nobody.cookie = Some("not a token".into());
    assert_refused(&nobody.me().await, 401, "not_signed_in");

    // Signing out ends the session on the server, and removes the cookie.
    let r = ann.send("DELETE", "/api/session", None, &[]).await;
    assert_eq!(r.status, 204);
    assert!(ann.last_set_cookie.clone().unwrap().contains("Max-Age=0"));
    assert!(ann.cookie.is_none());
    ann.cookie = Some(token);
    assert_refused(&ann.me().await, 401, "not_signed_in");

    // Signing in: by name (any case or look-alike form), with the password.
    let mut again = Browser::new(&server);
    let r = again.sign_in("ANN LEE", PASSWORD).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(again.me().await.body["account"]["name"], "Ann Lee");
    let wrong = Browser::new(&server).sign_in("Ann Lee", OTHER).await;
    let unknown = Browser::new(&server).sign_in("Nobody", PASSWORD).await;
    assert_refused(&wrong, 401, "bad_credentials");
    assert_refused(&unknown, 401, "bad_credentials");
    assert_eq!(wrong.body["error"]["message"], unknown.body["error"]["message"], "a name's existence is not told");
    assert!(wrong.headers.get("set-cookie").is_none());
}

#[tokio::test]
async fn without_tls_the_cookie_is_not_secure_when_told() {
    let (_dir, db) = temp_db();
    let options = ServeOptions { limits: Limits::unlimited(), secure_cookies: false, ..ServeOptions::default() };
    let server = TestServer::start_options(&db, options);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let set = ann.last_set_cookie.clone().unwrap();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax") && !set.contains("Secure"), "{set}");
}

#[tokio::test]
async fn names_are_unique_clean_and_never_a_bots() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    assert_eq!(Browser::new(&server).register("Zoë", PASSWORD).await.status, 201);
    for twin in ["zoë", "ZOË", "Zoe\u{308}", "Ｚｏë"] {
        assert_refused(&Browser::new(&server).register(twin, PASSWORD).await, 409, "name_taken");
    }
    for bot in ["Bot 2 (easy)", "bot", "Expert", "random", "mcts:ms=800", "greedy"] {
        assert_refused(&Browser::new(&server).register(bot, PASSWORD).await, 400, "invalid_name");
    }
    for bad in ["", "   ", "An\u{200b}n", "Ann\u{202e}", "Ann\nBob", &"x".repeat(33)] {
        assert_refused(&Browser::new(&server).register(bad, PASSWORD).await, 400, "invalid_name");
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn.query_row("SELECT count(*) FROM accounts", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 1, "no refusal stored anything");
    assert_eq!(Browser::new(&server).register("Botticelli", PASSWORD).await.status, 201);
}

#[tokio::test]
async fn weak_passwords_and_bad_bodies_are_refused_and_change_nothing() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let mut b = Browser::new(&server);
    for weak in ["short", "password1234", "123456789012", "qwertyuiopasdf", "annleeannlee", &"x".repeat(129)] {
        assert_refused(&b.register("Ann Lee", weak).await, 400, "weak_password");
    }
    for body in [json!({}), json!({"name": "Ann"}), json!({"password": PASSWORD}), json!([1])] {
        assert_refused(&b.post("/api/accounts", &body).await, 400, "malformed");
        assert_refused(&b.post("/api/session", &body).await, 400, "malformed");
    }
    // A value of the wrong type is not quoted back (it might be a password).
    let r = b.post("/api/accounts", &json!({"name": "Ann", "password": 987654321987_u64})).await;
    assert_refused(&r, 400, "malformed");
    assert!(!r.body.to_string().contains("987654321987"), "{}", r.body);
    let r = b.send("POST", "/api/accounts", None, &[("content-type", "application/json")]).await;
    assert_refused(&r, 400, "malformed");
    // Not JSON's content type: refused before it is read.
    let body = json!({"name": "Ann", "password": PASSWORD}).to_string();
    for ct in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
        let r = b
            .http
            .post(format!("{}/api/accounts", b.base))
            .header("content-type", ct)
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 415, "{ct}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"]["code"], "unsupported_media_type");
    }
    let r = b.http.post(format!("{}/api/accounts", b.base)).body(body.clone()).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 415, "no content type at all");
    // Too large.
    let huge = json!({"name": "Ann", "password": "x".repeat(70 * 1024)});
    assert_refused(&b.post("/api/accounts", &huge).await, 413, "too_large");
    // Wrong methods.
    assert_refused(&b.get("/api/accounts").await, 405, "method_not_allowed");
    assert_refused(&b.send("PUT", "/api/session", Some(&json!({})), &[]).await, 405, "method_not_allowed");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn.query_row("SELECT count(*) FROM accounts", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 0, "nothing was stored");
    assert!(b.cookie.is_none());
    assert_eq!(b.register("Ann Lee", PASSWORD).await.status, 201);
}

#[tokio::test]
async fn requests_from_other_sites_are_refused() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let host = server.addr.to_string();
    let here = format!("http://{host}");
    let creds = json!({"name": "Ann", "password": PASSWORD});
    let mut b = Browser::new(&server);
    for headers in [
        vec![("origin", "https://evil.example")],
        vec![("origin", "null")],
        vec![("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "same-site"), ("origin", here.as_str())],
    ] {
        let r = b.send("POST", "/api/accounts", Some(&creds), &headers).await;
        assert_refused(&r, 403, "cross_site");
    }
    assert!(b.cookie.is_none(), "no account was made");
    let r =
        b.send("POST", "/api/accounts", Some(&creds), &[("origin", &here), ("sec-fetch-site", "same-origin")]).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = b.send("POST", "/api/session", Some(&creds), &[("origin", &here)]).await;
    assert_eq!(r.status, 200, "an Origin naming this host: {}", r.body);

    // With the cookie, any request that changes something: refused from
    // another site, and the session (and the game) are left as they were.
    let created = b.post("/api/games", &json!({"seats": [{"type": "human", "mine": true}, {"type": "human"}]})).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.body["game"].as_str().unwrap().to_string();
    let view = b.get(&format!("/api/games/{game}")).await.body;
    let action = view["legal"][0].clone();
    let act = json!({"seat": 0, "version": 1, "action": action});
    let evil = [("origin", "https://evil.example"), ("sec-fetch-site", "cross-site")];
    let r = b.send("POST", &format!("/api/games/{game}/actions"), Some(&act), &evil).await;
    assert_refused(&r, 403, "cross_site");
    assert_refused(&b.send("DELETE", "/api/me/sessions", None, &evil).await, 403, "cross_site");
    assert_refused(&b.send("DELETE", "/api/session", None, &evil).await, 403, "cross_site");
    assert_eq!(b.me().await.status, 200, "still signed in");
    assert_eq!(b.get(&format!("/api/games/{game}")).await.body["version"], 1);
    // Reading is not refused (another site cannot read the answer).
    assert_eq!(b.send("GET", "/api/me", None, &evil).await.status, 200);
    // Without the cookie a seat's token acts from anywhere, as before accounts.
    let token = created.body["seats"][0]["token"].as_str().unwrap().to_string();
    let mut anon = Browser::new(&server);
    let act = json!({"seat": 0, "token": token, "version": 1, "action": action});
    let r = anon.send("POST", &format!("/api/games/{game}/actions"), Some(&act), &evil).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn sessions_end_run_out_and_slide() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let mut one = Browser::new(&server);
    assert_eq!(one.register("Ann", PASSWORD).await.status, 201);
    let mut two = Browser::new(&server);
    assert_eq!(two.sign_in("Ann", PASSWORD).await.status, 200);
    let mut three = Browser::new(&server);
    assert_eq!(three.sign_in("Ann", PASSWORD).await.status, 200);

    // A session that ran out.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let digest = |token: &str| carcassonne_server::accounts::digest(token);
    conn.execute("UPDATE sessions SET expires = 5 WHERE token = ?1", [digest(three.cookie.as_deref().unwrap())])
        .unwrap();
    assert_refused(&three.me().await, 401, "not_signed_in");

    // One used a day after its last push is pushed back, with its cookie.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let d = digest(two.cookie.as_deref().unwrap());
    conn.execute(
        "UPDATE sessions SET refreshed = ?1, expires = ?2 WHERE token = ?3",
        (now - 2 * 86400, now + 1000, &d),
    )
    .unwrap();
    let r = two.me().await;
    assert_eq!(r.status, 200);
    let set = two.last_set_cookie.clone().expect("the cookie again");
    assert!(set.contains("Max-Age=259"), "{set}");
    let expires: i64 = conn.query_row("SELECT expires FROM sessions WHERE token = ?1", [&d], |r| r.get(0)).unwrap();
    assert!(expires > now + 29 * 86400);

    // Sign out everywhere: every session of the account ends.
    let r = one.send("DELETE", "/api/me/sessions", None, &[]).await;
    assert_eq!((r.status, r.body["ended"].clone()), (200, json!(3)), "{}", r.body);
    assert!(one.cookie.is_none());
    let token = two.cookie.clone().unwrap();
    assert_refused(&two.me().await, 401, "not_signed_in");
    assert_refused(&two.send("DELETE", "/api/me/sessions", None, &[]).await, 401, "not_signed_in");
    assert_eq!(two.cookie.as_deref(), Some(token.as_str()));
    // A revoked session is refused by every endpoint that needs one, and
    // changes nothing.
    let mine = json!({"seats": [{"type": "human", "mine": true}, {"type": "human"}]});
    let change = json!({"old": PASSWORD, "new": OTHER});
    for (method, path, body) in [
        ("POST", "/api/me/password", Some(&change)),
        ("POST", "/api/me/delete", Some(&json!({"password": PASSWORD}))),
        ("POST", "/api/games", Some(&mine)),
        ("GET", "/api/me", None),
    ] {
        assert_refused(&two.send(method, path, body, &[]).await, 401, "not_signed_in");
    }
    assert_eq!(Browser::new(&server).sign_in("Ann", PASSWORD).await.status, 200, "the password is as it was");
    assert_refused(&Browser::new(&server).send("DELETE", "/api/me/sessions", None, &[]).await, 401, "not_signed_in");
}

#[tokio::test]
async fn changing_the_password_needs_the_old_one_and_ends_the_other_sessions() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let mut here = Browser::new(&server);
    assert_eq!(here.register("Ann", PASSWORD).await.status, 201);
    let mut there = Browser::new(&server);
    assert_eq!(there.sign_in("Ann", PASSWORD).await.status, 200);
    let change = |old: &str, new: &str| json!({"old": old, "new": new});
    assert_refused(&here.post("/api/me/password", &change(OTHER, OTHER)).await, 403, "wrong_password");
    assert_refused(&here.post("/api/me/password", &change(PASSWORD, "password1234")).await, 400, "weak_password");
    assert_refused(&here.post("/api/me/password", &json!({"old": PASSWORD})).await, 400, "malformed");
    assert_refused(
        &Browser::new(&server).post("/api/me/password", &change(PASSWORD, OTHER)).await,
        401,
        "not_signed_in",
    );
    assert_eq!(there.me().await.status, 200, "nothing changed yet");
    let before = here.cookie.clone().unwrap();
    let r = here.post("/api/me/password", &change(PASSWORD, OTHER)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(here.cookie.as_deref(), Some(before.as_str()), "this device has a new session");
    assert_eq!(here.me().await.status, 200);
    assert_refused(&there.me().await, 401, "not_signed_in");
    let mut old = Browser::new(&server);
    old.cookie = Some(before);
    assert_refused(&old.me().await, 401, "not_signed_in");
    assert_refused(&Browser::new(&server).sign_in("Ann", PASSWORD).await, 401, "bad_credentials");
    assert_eq!(Browser::new(&server).sign_in("Ann", OTHER).await.status, 200);
}

/// A game of two human seats created by `b`: seat 0 its own (bound to
/// its account), seat 1 invited; its id and tokens.
async fn my_game(b: &mut Browser, undo: bool) -> (String, Vec<String>) {
    let r = b
        .post(
            "/api/games",
            &json!({"seats": [{"type": "human", "mine": true}, {"type": "human", "name": "Guest"}], "undo": undo}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    (r.body["game"].as_str().unwrap().to_string(), tokens(&r.body))
}

#[tokio::test]
async fn a_signed_in_players_seats_are_theirs_from_any_device() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let mut laptop = Browser::new(&server);
    assert_eq!(laptop.register("Ann", PASSWORD).await.status, 201);
    let (game, tokens) = my_game(&mut laptop, false).await;
    let view = laptop.get(&format!("/api/games/{game}")).await.body;
    assert_eq!(view["seats"][0]["name"], "Ann", "a bound seat is named after its account by default");

    // Another device: the game is listed, and its seat acts without a token.
    let mut phone = Browser::new(&server);
    assert_eq!(phone.sign_in("ann", PASSWORD).await.status, 200);
    let me = phone.me().await;
    assert_eq!(me.body["games"][0]["game"], json!(game), "{}", me.body);
    assert_eq!(me.body["games"][0]["mine"], json!([0]));
    assert_eq!(me.body["games"][0]["status"], "active");
    let joined = phone.post(&format!("/api/games/{game}/join"), &json!({})).await;
    assert_eq!(
        (joined.status, joined.body["seat"].clone(), joined.body["bound"].clone()),
        (200, json!(0), json!(true))
    );
    let act =
        |seat: usize, version: &Value, action: &Value| json!({"seat": seat, "version": version, "action": action});
    let action = view["legal"][0].clone();
    let r = phone.post(&format!("/api/games/{game}/actions"), &act(0, &view["version"], &action)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let view = r.body["view"].clone();

    // Not the invited seat, not another account, not without a session.
    let mut bob = Browser::new(&server);
    assert_eq!(bob.register("Bob", PASSWORD).await.status, 201);
    let next = view["legal"][0].clone();
    let path = format!("/api/games/{game}/actions");
    let seat = view["to_act"].as_u64().unwrap() as usize;
    assert_refused(&phone.post(&path, &act(1, &view["version"], &next)).await, 403, "not_your_seat");
    assert_refused(&bob.post(&path, &act(seat, &view["version"], &next)).await, 403, "not_your_seat");
    assert_refused(&bob.post(&format!("/api/games/{game}/join"), &json!({"seat": 0})).await, 403, "not_your_seat");
    assert_refused(&Browser::new(&server).post(&path, &act(seat, &view["version"], &next)).await, 400, "malformed");
    let mut ended = Browser::new(&server);
    ended.cookie = Some("f".repeat(64));
    assert_refused(&ended.post(&path, &act(seat, &view["version"], &next)).await, 401, "not_signed_in");
    assert_refused(
        &phone.post("/api/games/0123456789abcdef/actions", &act(0, &json!(1), &next)).await,
        404,
        "not_found",
    );
    assert_eq!(phone.get(&format!("/api/games/{game}")).await.body["version"], view["version"], "nothing changed");

    // The invited seat taken by its link while signed in becomes Bob's;
    // another account's link-join does not take it from him.
    let r = bob.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[1]})).await;
    assert_eq!((r.status, r.body["seat"].clone(), r.body["bound"].clone()), (200, json!(1), json!(true)), "{}", r.body);
    let r = laptop.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[1]})).await;
    assert_eq!((r.status, r.body["bound"].clone()), (200, json!(false)));
    assert_eq!(bob.me().await.body["games"][0]["mine"], json!([1]));
    assert_eq!(laptop.me().await.body["games"][0]["mine"], json!([0]));
    // And the tokens work as ever, signed in or not.
    let anon = Client::new(&server);
    let now = anon.view(&game).await;
    let seat = now["to_act"].as_u64().unwrap() as usize;
    let r = anon.act(&game, seat, &tokens[seat], now["version"].as_u64().unwrap(), &now["legal"][0]).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn socket(server: &TestServer, game: &str, cookie: Option<&str>, origin: Option<&str>) -> Socket {
    let mut request = server.ws_url(game).into_client_request().unwrap();
    request.headers_mut().insert("sec-websocket-protocol", "carcassonne".parse().unwrap());
    if let Some(c) = cookie {
        request.headers_mut().insert("cookie", format!("carcassonne_session={c}").parse().unwrap());
    }
    if let Some(o) = origin {
        request.headers_mut().insert("origin", o.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request).await.expect("websocket").0
}

async fn next_any(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), socket.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

async fn next_message(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let m = next_any(socket).await;
        if m["type"] == kind {
            return m;
        }
    }
}

#[tokio::test]
async fn a_seats_own_view_goes_to_its_account_alone() {
    let (_dir, db) = temp_db();
    // Pings every 0.3 s: a signed-in socket checks its session at each.
    let limits = Limits {
        ping_interval: Duration::from_millis(300),
        pong_timeout: Duration::from_secs(5),
        ..Limits::unlimited()
    };
    let server = TestServer::start_with(&db, limits);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let mut bob = Browser::new(&server);
    assert_eq!(bob.register("Bob", PASSWORD).await.status, 201);
    let (game, _) = my_game(&mut ann, true).await;
    let here = format!("http://{}", server.addr);
    let mut ann_ws = socket(&server, &game, ann.cookie.as_deref(), Some(&here)).await;
    let mut bob_ws = socket(&server, &game, bob.cookie.as_deref(), Some(&here)).await;
    let mut evil_ws = socket(&server, &game, ann.cookie.as_deref(), Some("https://evil.example")).await;
    for ws in [&mut ann_ws, &mut bob_ws, &mut evil_ws] {
        assert_eq!(next_message(ws, "view").await["view"]["version"], 1);
    }
    // Ann places provisionally, over her socket, without a token.
    let view = ann.get(&format!("/api/games/{game}")).await.body;
    let place = view["legal"].as_array().unwrap().iter().find(|a| a["type"] == "place").unwrap().clone();
    ann_ws
        .send(Message::Text(
            json!({"type": "act", "id": 1, "seat": 0, "version": 1, "action": place}).to_string().into(),
        ))
        .await
        .unwrap();
    // Her own view comes to her socket (before or after the ack).
    let (mut acked, mut own) = (false, None);
    while !acked || own.is_none() {
        let m = next_any(&mut ann_ws).await;
        match m["type"].as_str() {
            Some("ack") => acked = m["version"] == 2 || panic!("{m}"),
            Some("view") if m["view"]["version"] == 2 => own = Some(m["view"].clone()),
            _ => {}
        }
    }
    assert_eq!(own.unwrap()["undoable"], 1);
    // Nobody else sees it: not Bob signed in, not a page of another site
    // with her cookie (which may not act either).
    assert!(
        tokio::time::timeout(Duration::from_millis(500), next_message(&mut bob_ws, "view")).await.is_err(),
        "Bob is sent nothing of it"
    );
    evil_ws
        .send(Message::Text(
            json!({"type": "act", "id": 2, "seat": 0, "version": 2, "action": "undo"}).to_string().into(),
        ))
        .await
        .unwrap();
    let e = next_message(&mut evil_ws, "error").await;
    assert_eq!(e["error"]["code"], "malformed", "{e}");
    bob_ws
        .send(Message::Text(
            json!({"type": "act", "id": 3, "seat": 0, "version": 2, "action": "undo"}).to_string().into(),
        ))
        .await
        .unwrap();
    assert_eq!(next_message(&mut bob_ws, "error").await["error"]["code"], "not_your_seat");
    let joined = ann.post(&format!("/api/games/{game}/join"), &json!({"seat": 0})).await;
    assert_eq!(joined.body["view"]["undoable"], 1);
    // The seat's own position for the odds and the inspector: its account's alone.
    let odds = format!("/api/games/{game}/odds");
    assert_eq!(ann.post(&odds, &json!({"seat": 0})).await.status, 200);
    assert_refused(&bob.post(&odds, &json!({"seat": 0})).await, 403, "not_your_seat");
    let feature = format!("/api/games/{game}/feature");
    let piece = json!({"at": [0, 0], "piece": 0, "seat": 0});
    assert_eq!(ann.post(&feature, &piece).await.status, 200);
    assert_refused(&bob.post(&feature, &piece).await, 403, "not_your_seat");
    assert_refused(&Browser::new(&server).post(&feature, &piece).await, 400, "malformed");
    let public = bob.get(&format!("/api/games/{game}")).await.body;
    assert!(public.get("undoable").is_none() && public["version"] == 1);
    // Her session ended elsewhere: the socket acts no more.
    assert_eq!(ann.send("DELETE", "/api/me/sessions", None, &[]).await.status, 200);
    ann_ws
        .send(Message::Text(
            json!({"type": "act", "id": 4, "seat": 0, "version": 2, "action": "undo"}).to_string().into(),
        ))
        .await
        .unwrap();
    assert_eq!(next_message(&mut ann_ws, "error").await["error"]["code"], "not_signed_in");
    // And at the next ping the socket of the ended session is closed.
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(5), ann_ws.next()).await.expect("closed in time") {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => continue,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(4003));
    // Bob's socket (a spectator's, with a live session) stays.
    assert!(tokio::time::timeout(Duration::from_millis(800), next_message(&mut bob_ws, "error")).await.is_err());
}

#[tokio::test]
async fn a_deleted_accounts_games_stay_playable_by_link() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let mut other = Browser::new(&server);
    assert_eq!(other.sign_in("Ann", PASSWORD).await.status, 200);
    let (game, tokens) = my_game(&mut ann, false).await;
    assert_refused(&ann.post("/api/me/delete", &json!({"password": OTHER})).await, 403, "wrong_password");
    assert_refused(&ann.post("/api/me/delete", &json!({})).await, 400, "malformed");
    assert_refused(
        &Browser::new(&server).post("/api/me/delete", &json!({"password": PASSWORD})).await,
        401,
        "not_signed_in",
    );
    assert_eq!(ann.me().await.status, 200, "not deleted yet");
    let r = ann.post("/api/me/delete", &json!({"password": PASSWORD})).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert!(ann.cookie.is_none());
    assert_refused(&other.me().await, 401, "not_signed_in");
    assert_refused(&Browser::new(&server).sign_in("Ann", PASSWORD).await, 401, "bad_credentials");
    // The game: its seats' names as they were, its links playing.
    let client = Client::new(&server);
    let view = client.view(&game).await;
    assert_eq!(view["seats"][0]["name"], "Ann");
    let r = client.act(&game, 0, &tokens[0], 1, &view["legal"][0]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The name is free again, and the new Ann has no seat of the old one's.
    let mut new = Browser::new(&server);
    assert_eq!(new.register("Ann", OTHER).await.status, 201);
    assert_eq!(new.me().await.body["games"], json!([]));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let bound: i64 = conn.query_row("SELECT count(*) FROM seat_accounts", [], |r| r.get(0)).unwrap();
    assert_eq!(bound, 0);
}

#[tokio::test]
async fn mine_needs_a_session() {
    let (_dir, db) = temp_db();
    let server = accounts_server(&db);
    let setup = json!({"seats": [{"type": "human", "mine": true}, {"type": "bot"}]});
    let r = Browser::new(&server).post("/api/games", &setup).await;
    assert_refused(&r, 401, "not_signed_in");
    assert_eq!(Client::new(&server).get("/api/games").await.body["games"], json!([]));
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let r = ann
        .post(
            "/api/games",
            &json!({"seats": [{"type": "human", "mine": true, "name": "Annie"}, {"type": "bot"}], "first": 1}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // The seat moved round the table is still the account's.
    assert_eq!(r.body["seats"][1]["name"], "Annie");
    assert_eq!(ann.me().await.body["games"][0]["mine"], json!([1]));
}

#[tokio::test]
async fn sign_ins_are_limited_per_name_and_per_address() {
    let (_dir, db) = temp_db();
    let limits = Limits { sign_in_failures_per_name: 3, sign_ins_per_minute: 6, ..Limits::unlimited() };
    let server = TestServer::start_with(&db, limits);
    let mut ann = Browser::from(&server, "127.0.0.1");
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    for _ in 0..3 {
        assert_refused(&Browser::from(&server, "127.0.0.2").sign_in("ann", OTHER).await, 401, "bad_credentials");
    }
    // The name waits, even for the right password, from any address.
    let r = Browser::from(&server, "127.0.0.3").sign_in("Ann", PASSWORD).await;
    assert_refused(&r, 429, "rate_limited");
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((800..=900).contains(&wait), "Retry-After {wait}");
    assert!(r.body["error"]["message"].as_str().unwrap().contains("for this name"));
    // Its wrong password counts too, when changing it.
    assert_refused(&ann.post("/api/me/password", &json!({"old": PASSWORD, "new": OTHER})).await, 429, "rate_limited");
    // Other names are not held up.
    assert_eq!(Browser::from(&server, "127.0.0.3").register("Bob", PASSWORD).await.status, 201);
    assert_eq!(Browser::from(&server, "127.0.0.3").sign_in("Bob", PASSWORD).await.status, 200);

    // Per address: 6 password checks a minute (the three above from .2).
    let mut from2 = Browser::from(&server, "127.0.0.2");
    for _ in 0..3 {
        assert_refused(&from2.sign_in("Nobody", PASSWORD).await, 401, "bad_credentials");
    }
    let r = from2.sign_in("Bob", PASSWORD).await;
    assert_refused(&r, 429, "rate_limited");
    assert!(r.body["error"]["message"].as_str().unwrap().contains("from this address"));
    assert_refused(&from2.register("Carl", PASSWORD).await, 429, "rate_limited");
    assert_eq!(Browser::from(&server, "127.0.0.4").sign_in("Bob", PASSWORD).await.status, 200);
}

#[tokio::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let (_dir, db) = temp_db();
    let options = ServeOptions {
        limits: Limits { sign_ins_per_minute: 1, games_per_minute: 1, ..Limits::unlimited() },
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..ServeOptions::default()
    };
    let server = TestServer::start_options(&db, options);
    let creds = json!({"name": "Nobody", "password": PASSWORD});
    let mut proxy = Browser::from(&server, "127.0.0.1");
    let via = |client: &'static str| [("x-forwarded-for", client)];
    // From the trusted proxy: each forwarded client has its own allowance.
    let r = proxy.send("POST", "/api/session", Some(&creds), &via("198.51.100.1")).await;
    assert_refused(&r, 401, "bad_credentials");
    let r = proxy.send("POST", "/api/session", Some(&creds), &via("198.51.100.1")).await;
    assert_refused(&r, 429, "rate_limited");
    let r = proxy.send("POST", "/api/session", Some(&creds), &via("198.51.100.2")).await;
    assert_refused(&r, 401, "bad_credentials");
    // What the client wrote further left does not count: the proxy's entry does.
    let r = proxy.send("POST", "/api/session", Some(&creds), &via("198.51.100.9, 198.51.100.2")).await;
    assert_refused(&r, 429, "rate_limited");
    // The other limits too: a game a minute per forwarded client.
    let game = json!({"seats": [{"type": "human"}, {"type": "human"}]});
    assert_eq!(proxy.send("POST", "/api/games", Some(&game), &via("198.51.100.1")).await.status, 201);
    assert_eq!(proxy.send("POST", "/api/games", Some(&game), &via("198.51.100.2")).await.status, 201);
    assert_refused(&proxy.send("POST", "/api/games", Some(&game), &via("198.51.100.2")).await, 429, "rate_limited");
    // From a peer not trusted, the header is ignored: one allowance.
    let mut direct = Browser::from(&server, "127.0.0.2");
    let r = direct.send("POST", "/api/session", Some(&creds), &via("203.0.113.1")).await;
    assert_refused(&r, 401, "bad_credentials");
    let r = direct.send("POST", "/api/session", Some(&creds), &via("203.0.113.2")).await;
    assert_refused(&r, 429, "rate_limited");
    assert_eq!(direct.send("POST", "/api/games", Some(&game), &via("203.0.113.3")).await.status, 201);
    assert_refused(&direct.send("POST", "/api/games", Some(&game), &via("203.0.113.4")).await, 429, "rate_limited");
}

#[tokio::test]
async fn a_database_of_the_previous_schema_migrates_and_keeps_its_games() {
    let (_dir, db) = temp_db();
    let (game, tokens) = {
        let server = TestServer::start(&db);
        let client = Client::new(&server);
        let created = client.create(two_humans(&["ferries"])).await;
        let game = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let mut pick = Pick::new(3);
        play(&client, &game, &tokens, &mut pick, 6).await;
        (game, tokens)
    };
    // Back to schema version 4, as the server before accounts left it.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "DROP INDEX games_by_clock_due; ALTER TABLE games DROP COLUMN clock; ALTER TABLE games DROP COLUMN clock_due;
         DROP TABLE table_seats; DROP TABLE tables;
         DROP TABLE results; DROP TABLE ratings; ALTER TABLE games DROP COLUMN rated;
         DROP TABLE chat; DROP TABLE sign_in_failures; DROP TABLE seat_accounts; DROP TABLE sessions;
         DROP TABLE accounts; UPDATE schema_version SET version = 4;",
    )
    .unwrap();
    let before: String = conn.query_row("SELECT record FROM games WHERE id = ?1", [&game], |r| r.get(0)).unwrap();
    drop(conn);
    let server = TestServer::start(&db);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 9, "the accounts (5), the chat (6), the ratings (7), the lobby (8), the clocks (9)");
    let after: String = conn.query_row("SELECT record FROM games WHERE id = ?1", [&game], |r| r.get(0)).unwrap();
    assert_eq!(before, after);
    let client = Client::new(&server);
    let view = client.view(&game).await;
    assert!(view["turn"].as_u64().unwrap() > 0);
    let mut pick = Pick::new(4);
    play(&client, &game, &tokens, &mut pick, 4).await;
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let r = ann.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[0]})).await;
    assert_eq!(r.body["bound"], true, "{}", r.body);
    assert_eq!(ann.me().await.body["games"][0]["game"], json!(game));
    assert_eq!(client.view(&game).await.get("rated"), None, "a game of before is unrated");
}
