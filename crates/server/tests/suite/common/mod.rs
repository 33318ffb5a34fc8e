//! A real server on loopback with a real SQLite file, and a small client.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use carcassonne_server::{Limits, ServeOptions, Server};
use serde_json::{json, Value};

/// A server on its own runtime and thread, so that it can be killed:
/// dropping the runtime abandons every task at whatever point it was.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<mpsc::Sender<bool>>,
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    /// A server without per-client limits: a test client is far faster
    /// than a person.
    pub fn start(db: &Path) -> TestServer {
        TestServer::start_with(db, Limits::unlimited())
    }

    pub fn start_with(db: &Path, limits: Limits) -> TestServer {
        TestServer::start_bots(db, limits, None)
    }

    /// With `bot_threads` bot threads (default: one per core).
    pub fn start_bots(db: &Path, limits: Limits, bot_threads: Option<usize>) -> TestServer {
        TestServer::start_options(db, ServeOptions { limits, bot_threads, ..ServeOptions::default() })
    }

    /// With these options (their address and database replaced).
    pub fn start_options(db: &Path, options: ServeOptions) -> TestServer {
        let (tx, rx) = mpsc::channel();
        let (stop_tx, stop_rx) = mpsc::channel::<bool>();
        let db = db.to_path_buf();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            let options = ServeOptions {
                addr: "127.0.0.1:0".parse().unwrap(),
                db: carcassonne_server::Database::Sqlite(db),
                ..options
            };
            let server = rt.block_on(Server::start(options)).expect("server starts");
            tx.send(server.local_addr()).unwrap();
            let graceful = stop_rx.recv().unwrap_or(false);
            if graceful {
                rt.block_on(server.shutdown()).unwrap();
            } else {
                // Killed: no shutdown, every task dropped where it stands
                // (writes already handed to SQLite finish, as in a process
                // that dies after a write() call).
                rt.shutdown_timeout(Duration::from_secs(5));
                drop(server);
            }
        });
        let addr = rx.recv().expect("server address");
        TestServer { addr, stop: Some(stop_tx), thread: Some(thread) }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn ws_url(&self, game: &str) -> String {
        format!("ws://{}/api/games/{}/ws", self.addr, game)
    }

    /// A bare TCP connection from the loopback address `local`.
    pub async fn tcp_from(&self, local: &str) -> std::io::Result<tokio::net::TcpStream> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(local.parse().unwrap(), 0))?;
        socket.connect(self.addr).await
    }

    /// Stops the server abruptly, as a kill would.
    pub fn kill(mut self) {
        self.stop(false);
    }

    fn stop(&mut self, graceful: bool) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(graceful);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop(true);
    }
}

pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.db");
    (dir, path)
}

pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
}

/// A response: status and JSON body.
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Reply {
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

impl Client {
    pub fn new(server: &TestServer) -> Client {
        Client { http: reqwest::Client::new(), base: format!("http://{}", server.addr) }
    }

    /// A client from another loopback address (127.0.0.2, …), so that the
    /// server counts it apart.
    pub fn from(server: &TestServer, local: &str) -> Client {
        let http =
            reqwest::Client::builder().local_address(local.parse::<std::net::IpAddr>().unwrap()).build().unwrap();
        Client { http, base: format!("http://{}", server.addr) }
    }

    pub async fn get(&self, path: &str) -> Reply {
        let r = self.http.get(format!("{}{}", self.base, path)).send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        Reply { status, body: serde_json::from_str(&text).unwrap_or(Value::String(text)) }
    }

    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let r = self
            .http
            .post(format!("{}{}", self.base, path))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        Reply { status, body: serde_json::from_str(&text).unwrap_or(Value::String(text)) }
    }

    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_raw(path, body.to_string()).await
    }

    pub async fn create(&self, setup: Value) -> Value {
        let r = self.post("/api/games", &setup).await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.body
    }

    pub async fn view(&self, game: &str) -> Value {
        let r = self.get(&format!("/api/games/{game}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    }

    pub async fn act(&self, game: &str, seat: usize, token: &str, version: u64, action: &Value) -> Reply {
        let body = json!({"seat": seat, "token": token, "version": version, "action": action});
        self.post(&format!("/api/games/{game}/actions"), &body).await
    }

    /// Waits until `done` holds for the view, polling.
    pub async fn wait_for(&self, game: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let v = self.view(game).await;
            if done(&v) {
                return v;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// A tiny deterministic generator for picking legal actions.
pub struct Pick(u64);

impl Pick {
    pub fn new(seed: u64) -> Pick {
        Pick(seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407))
    }

    pub fn index(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    /// A legal action of the view, preferring to deploy now and then.
    pub fn action(&mut self, view: &Value) -> Value {
        let legal = view["legal"].as_array().expect("legal actions");
        assert!(!legal.is_empty(), "someone is to act, so something is legal");
        legal[self.index(legal.len())].clone()
    }
}

/// A game setup, listed in `GET /api/games`.
pub fn public(mut setup: Value) -> Value {
    setup["public"] = Value::Bool(true);
    setup
}

/// `n` human seats, named P0, P1, …
pub fn humans(n: usize) -> Vec<Value> {
    (0..n).map(|i| json!({"type": "human", "name": format!("P{i}")})).collect()
}

pub fn two_humans(expansions: &[&str]) -> Value {
    json!({"seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}], "expansions": expansions})
}

pub fn tokens(created: &Value) -> Vec<String> {
    created["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().unwrap_or("").to_string()).collect()
}

/// Plays `n` actions (or to the end) for the human seats whose tokens are
/// known, returning the last view.
pub async fn play(client: &Client, game: &str, tokens: &[String], pick: &mut Pick, n: usize) -> Value {
    let mut view = client.view(game).await;
    for _ in 0..n {
        let Some(seat) = view["to_act"].as_u64() else { break };
        let seat = seat as usize;
        if tokens[seat].is_empty() {
            break;
        }
        let action = pick.action(&view);
        let version = view["version"].as_u64().unwrap();
        let r = client.act(game, seat, &tokens[seat], version, &action).await;
        assert_eq!(r.status, 200, "{action} at version {version}: {}", r.body);
        assert!(r.body["version"].as_u64().unwrap() > version);
        view = r.body["view"].clone();
    }
    view
}

// ----- steering a game with the engine -------------------------------------

use carcassonne_engine::record::Setup;
use carcassonne_engine::{Action, Actor, FeatureKind, FollowerKind, Game, State, Step};

/// The game as the server has stored it (its public view), replayed with
/// the engine from its setup and history: what a test steers by.
pub async fn engine_state(client: &Client, game: &str) -> State {
    engine_state_at(client, game, None).await
}

/// As [`engine_state`], once the history holds `version` actions (the
/// version of the view an action was answered with): a history read at
/// once after an action may not hold it yet on a loaded machine.
pub async fn engine_state_at(client: &Client, game: &str, version: Option<u64>) -> State {
    let mut tries = 0;
    let (view, history) = loop {
        let view = client.view(game).await;
        let history = client.get(&format!("/api/games/{game}/actions")).await;
        let held = history.body["actions"].as_array().map_or(0, |a| a.len() as u64);
        let want = version.unwrap_or_else(|| view["version"].as_u64().unwrap_or(0));
        tries += 1;
        if held >= want || tries >= 100 {
            break (view, history);
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let setup: Setup = serde_json::from_value(view["setup"].clone()).expect("the view's setup");
    let mut replayed = Game::new(setup).expect("a valid setup");
    for a in history.body["actions"].as_array().expect("the history") {
        let action: Action = a["action"]["text"].as_str().unwrap().parse().expect("the history's notation");
        replayed.play(action).expect("the history replays");
    }
    assert_eq!(replayed.state().turns() as u64, view["turn"].as_u64().unwrap());
    replayed.state().clone()
}

/// `state` after `action`, with the rest of that player's turn decided
/// plainly (no follower, the first ferry, no ferry moves): where the turn
/// comes to once the acting player has played `action`. Stops at a draw,
/// the next turn's abbey or a wagon to move.
pub fn after_turn(state: &State, action: Action) -> State {
    let mut next = state.clone();
    next.play(action).expect("a legal action");
    let me = state.actor();
    while next.actor() == me && matches!(next.step(), Step::Deploy | Step::PlaceFerry | Step::MoveFerries) {
        let legal = next.legal_action_list();
        let a = if legal.contains(&Action::Pass) { Action::Pass } else { legal[0] };
        next.play(a).expect("a legal action");
    }
    next
}

/// Plays for the human seats (whose tokens are known), each decision
/// chosen by `choose` from the engine's state, until `stop` holds for the
/// view, a bot is to act or the game ends; at most `n` actions. Returns
/// the last view.
pub async fn steer(
    client: &Client,
    game: &str,
    tokens: &[String],
    n: usize,
    mut choose: impl FnMut(&State) -> Action,
    stop: impl Fn(&Value) -> bool,
) -> Value {
    let mut view = client.view(game).await;
    for _ in 0..n {
        if stop(&view) {
            break;
        }
        let Some(seat) = view["to_act"].as_u64() else { break };
        let seat = seat as usize;
        if tokens[seat].is_empty() {
            break;
        }
        let version = view["version"].as_u64().unwrap();
        let state = engine_state_at(client, game, Some(version)).await;
        assert_eq!(state.actor(), Some(Actor::Player(seat)), "the engine agrees on who acts");
        let action = choose(&state);
        let r = client.act(game, seat, &tokens[seat], version, &json!(action.to_string())).await;
        assert_eq!(r.status, 200, "{action} at version {version}: {}", r.body);
        view = r.body["view"].clone();
    }
    view
}

/// The legal action `pick` prefers, else one `fallback` picks.
pub fn prefer(state: &State, pick: impl Fn(&State, Action) -> bool, fallback: &mut Pick) -> Action {
    let legal = state.legal_action_list();
    match legal.iter().copied().find(|a| pick(state, *a)) {
        Some(a) => a,
        None => legal[fallback.index(legal.len())],
    }
}

/// What a test prefers among legal actions.
pub type Preference<'a> = &'a dyn Fn(&State, Action) -> bool;

/// The first legal action a test in `picks` prefers (the earlier the
/// better), else one `fallback` picks.
pub fn prefer_first(state: &State, picks: &[Preference<'_>], fallback: &mut Pick) -> Action {
    let legal = state.legal_action_list();
    for pick in picks {
        if let Some(a) = legal.iter().copied().find(|a| pick(state, *a)) {
            return a;
        }
    }
    legal[fallback.index(legal.len())]
}

// ----- Traders & Builders --------------------------------------------------

/// Whether placing a tile with `a` gives the current player a second turn
/// (it extends the road or city of their builder).
pub fn earns_second_turn(state: &State, a: Action) -> bool {
    matches!(a, Action::Place(_)) && {
        let next = after_turn(state, a);
        next.is_second_turn() && next.current_player() == state.current_player()
    }
}

/// Whether after placing a tile with `a` the player may deploy a figure
/// matching `figure` (its kind and the feature's kind).
pub fn then_deploys(state: &State, a: Action, figure: impl Fn(FollowerKind, FeatureKind) -> bool) -> bool {
    let mut next = state.clone();
    matches!(a, Action::Place(_))
        && next.play(a).is_ok()
        && next.legal_action_list().into_iter().any(|d| matches!(d, Action::Deploy(k, l) if figure(k, l.kind())))
}

/// Whether `a` deploys a figure matching `figure`.
pub fn deploys(a: Action, figure: impl Fn(FollowerKind, FeatureKind) -> bool) -> bool {
    matches!(a, Action::Deploy(k, l) if figure(k, l.kind()))
}

/// Whether the current player has a figure on a road.
fn on_a_road(s: &State) -> bool {
    let me = s.current_player() as u8;
    s.followers().iter().any(|f| f.player == me && s.features().info(f.piece).kind == FeatureKind::Road)
}

/// Steers a Traders & Builders game towards a builder's second turn: a
/// follower on a road, then the builder on a tile extending that road, then
/// another tile extending it; pigs where they may go, cities with goods
/// completed on the way. Abbeys and wagons pass, ferries are picked.
pub fn builder_hunter(pick: &mut Pick) -> impl FnMut(&State) -> Action + '_ {
    move |state| match state.step() {
        Step::Place => prefer_first(
            state,
            &[
                &|s: &State, a: Action| earns_second_turn(s, a),
                &|s: &State, a: Action| then_deploys(s, a, |k, _| k == FollowerKind::Builder),
                &|s: &State, a: Action| {
                    !on_a_road(s) && then_deploys(s, a, |k, f| k == FollowerKind::Normal && f == FeatureKind::Road)
                },
                &|s: &State, a: Action| matches!(a, Action::Place(_)) && after_turn(s, a).goods() != s.goods(),
            ],
            pick,
        ),
        Step::Deploy => prefer_first(
            state,
            &[
                &|_: &State, a: Action| deploys(a, |k, _| k == FollowerKind::Builder),
                &|_: &State, a: Action| deploys(a, |k, _| k == FollowerKind::Pig),
                &|s: &State, a: Action| {
                    !on_a_road(s) && deploys(a, |k, f| k == FollowerKind::Normal && f == FeatureKind::Road)
                },
                // A farmer now and then, for the pig to join.
                &|s: &State, a: Action| {
                    s.supply()[s.current_player()] > 4
                        && deploys(a, |k, f| k == FollowerKind::Normal && f == FeatureKind::Field)
                },
                &|_: &State, a: Action| a == Action::Pass,
            ],
            pick,
        ),
        Step::Abbey | Step::MoveWagon | Step::MoveFerries => Action::Pass,
        _ => prefer(state, |_, _| false, pick),
    }
}

// ---------- WebSockets ----------

use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message as WsMessage;

pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn connect(server: &TestServer, game: &str) -> Socket {
    let (socket, _) = tokio_tungstenite::connect_async(server.ws_url(game)).await.expect("websocket");
    socket
}

/// A WebSocket offering the seats' tokens.
pub async fn connect_seats(server: &TestServer, game: &str, tokens: &[&str]) -> Socket {
    let mut request = server.ws_url(game).into_client_request().unwrap();
    let mut protocols = "carcassonne".to_string();
    for t in tokens {
        protocols.push_str(&format!(", token.{t}"));
    }
    request.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
    let (socket, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
    socket
}

/// The next JSON message (skipping pings), within a few seconds.
pub async fn next(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), futures_util::StreamExt::next(socket))
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .expect("a good frame");
        match msg {
            WsMessage::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
            WsMessage::Ping(_) | WsMessage::Pong(_) => continue,
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// Reads messages until one of type `kind` comes, returning it and the last view seen.
pub async fn until(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let m = next(socket).await;
        if m["type"] == kind {
            return m;
        }
    }
}

pub async fn send(socket: &mut Socket, v: Value) {
    futures_util::SinkExt::send(socket, WsMessage::Text(v.to_string().into())).await.unwrap();
}

// Accounts: a browser that keeps its session cookie.

/// A password strong enough for the accounts' check.
pub const PASSWORD: &str = "correct horse battery staple";

/// A browser's view of the API: a client that keeps the session cookie
/// (and may be given headers of its own, an Origin say).
pub struct Browser {
    pub http: reqwest::Client,
    pub base: String,
    pub cookie: Option<String>,
    pub last_set_cookie: Option<String>,
}

pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

impl Browser {
    pub fn new(server: &TestServer) -> Browser {
        Browser::from(server, "127.0.0.1")
    }

    pub fn from(server: &TestServer, local: &str) -> Browser {
        let http =
            reqwest::Client::builder().local_address(local.parse::<std::net::IpAddr>().unwrap()).build().unwrap();
        Browser { http, base: format!("http://{}", server.addr), cookie: None, last_set_cookie: None }
    }

    pub async fn send(&mut self, method: &str, path: &str, body: Option<&Value>, extra: &[(&str, &str)]) -> Answer {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut r = self.http.request(method, format!("{}{}", self.base, path));
        if let Some(b) = body {
            r = r.header("content-type", "application/json").body(b.to_string());
        }
        if let Some(c) = &self.cookie {
            r = r.header("cookie", format!("carcassonne_session={c}"));
        }
        for (k, v) in extra {
            r = r.header(*k, *v);
        }
        let res = r.send().await.unwrap();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        for v in headers.get_all("set-cookie") {
            let v = v.to_str().unwrap().to_string();
            let value = v.strip_prefix("carcassonne_session=").unwrap().split(';').next().unwrap().to_string();
            self.cookie = (!v.contains("Max-Age=0")).then_some(value);
            self.last_set_cookie = Some(v);
        }
        let text = res.text().await.unwrap();
        Answer { status, body: serde_json::from_str(&text).unwrap_or(Value::String(text)), headers }
    }

    pub async fn get(&mut self, path: &str) -> Answer {
        self.send("GET", path, None, &[]).await
    }

    pub async fn post(&mut self, path: &str, body: &Value) -> Answer {
        self.send("POST", path, Some(body), &[]).await
    }

    pub async fn register(&mut self, name: &str, password: &str) -> Answer {
        self.post("/api/accounts", &json!({"name": name, "password": password})).await
    }

    pub async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        self.post("/api/session", &json!({"name": name, "password": password})).await
    }

    pub async fn me(&mut self) -> Answer {
        self.get("/api/me").await
    }
}

pub fn assert_refused(a: &Answer, status: u16, code: &str) {
    assert_eq!((a.status, a.code()), (status, code), "{}", a.body);
    assert!(!a.body["error"]["message"].as_str().unwrap_or("").is_empty());
}
