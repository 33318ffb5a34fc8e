//! Load benchmark: many concurrent games played by bots through the API.
//!
//! ```text
//! cargo run --release -p carcassonne-server --example load -- [--games 200] [--transport ws|http]
//!     [--server-bot LEVEL|none] [--url http://HOST:PORT[,http://HOST:PORT...]] [--accounts]
//! ```
//!
//! Each game has a seat played by this client (a random bot choosing among
//! the view's legal actions, over a WebSocket or HTTP) and, by default, a
//! seat played by the server's `easy` bot. Without `--url`, a server runs in
//! this process on its own runtime with a fresh database in a temporary
//! directory, without per-client limits (every simulated client has the
//! same address); a server given with `--url` needs limits as high, such as
//! `carcassonne serve --requests-per-second 100000 --games-per-minute 100000
//! --max-sockets-per-address 100000 --messages-per-second 100000`. Given
//! several servers (sharing a PostgreSQL database, docs/deploy.md), each
//! game is created on one and played on the next, so that every action
//! crosses from one server to another.
//! With `--accounts`, each game's client is a signed-in player: an account
//! registered first (its own), the game created rated with the account's
//! seat, its actions sent without a token over a signed-in WebSocket (the
//! session checked before each), and the ratings moved as each game ends.
//! Reports the latency of every client action (sent to acknowledged) and
//! every error.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use carcassonne_server::{Limits, ServeOptions, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

struct Options {
    games: usize,
    ws: bool,
    server_bot: Option<String>,
    urls: Vec<String>,
    accounts: bool,
}

fn options() -> Options {
    let mut o = Options { games: 200, ws: true, server_bot: Some("easy".into()), urls: Vec::new(), accounts: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--accounts" {
            o.accounts = true;
            continue;
        }
        let v = args.next().unwrap_or_default();
        match a.as_str() {
            "--games" => o.games = v.parse().expect("--games N"),
            "--transport" => o.ws = v != "http",
            "--server-bot" => o.server_bot = (v != "none").then_some(v),
            "--url" => o.urls = v.split(',').map(|u| u.trim_end_matches('/').to_string()).collect(),
            _ => panic!("unknown argument {a}"),
        }
    }
    o
}

#[derive(Default)]
struct Stats {
    latencies: std::sync::Mutex<Vec<Duration>>,
    errors: AtomicU64,
    finished: AtomicU64,
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What the client reads of a message: a browser parses the whole view,
/// natively; here only the fields a bot needs are kept.
#[derive(serde::Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    view: Option<ViewLite>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(serde::Deserialize)]
struct ViewLite {
    version: u64,
    status: String,
    to_act: Option<u64>,
    legal: Vec<Value>,
}

fn seats(server_bot: &Option<String>, signed: bool) -> Value {
    match (server_bot, signed) {
        (Some(level), true) => json!([{"type": "human", "mine": true}, {"type": "bot", "level": level}]),
        (Some(level), false) => json!([{"type": "human", "name": "client"}, {"type": "bot", "level": level}]),
        (None, _) => json!([{"type": "human"}, {"type": "human"}]),
    }
}

/// Registers account `name`; its session cookie.
async fn register(http: &reqwest::Client, base: &str, name: &str) -> Result<String, String> {
    let r = http
        .post(format!("{base}/api/accounts"))
        .json(&json!({"name": name, "password": "correct horse battery staple"}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    let status = r.status();
    cookie.filter(|_| status.is_success()).ok_or(format!("register {name}: {status}"))
}

async fn create(
    http: &reqwest::Client,
    base: &str,
    o: &Options,
    cookie: Option<&str>,
) -> Result<(String, Vec<String>), String> {
    let signed = cookie.is_some() && o.server_bot.is_some();
    let mut request = http
        .post(format!("{base}/api/games"))
        .json(&json!({"seats": seats(&o.server_bot, signed), "expansions": ["ferries"], "rated": signed}));
    if let Some(c) = cookie {
        request = request.header("cookie", c);
    }
    let r = request.send().await.map_err(|e| e.to_string())?;
    let v: Value = r.json().await.map_err(|e| e.to_string())?;
    let game = v["game"].as_str().ok_or_else(|| v.to_string())?.to_string();
    let tokens = v["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().unwrap_or("").to_string()).collect();
    Ok((game, tokens))
}

/// Plays one game over a WebSocket (signed in, with `cookie`: its seats
/// act by the session, without their tokens).
async fn play_ws(
    base: String,
    game: String,
    tokens: Vec<String>,
    seed: u64,
    stats: Arc<Stats>,
    cookie: Option<String>,
) -> Result<(), String> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("{}/api/games/{game}/ws", base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().map_err(|e| e.to_string())?;
    if let Some(c) = &cookie {
        request.headers_mut().insert("cookie", c.parse().map_err(|_| "cookie".to_string())?);
    }
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(request, Some(config), false).await.map_err(|e| e.to_string())?;
    let mut rng = Rng(seed | 1);
    let mut acted_at: u64 = 0;
    let mut pending: Option<Instant> = None;
    let mut next_id = 0u64;
    while let Some(msg) = socket.next().await {
        let Message::Text(text) = msg.map_err(|e| e.to_string())? else { continue };
        let m: Incoming = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
        match m.kind.as_str() {
            "ack" => {
                if let Some(t) = pending.take() {
                    stats.latencies.lock().unwrap().push(t.elapsed());
                }
            }
            "error" => {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!("game {game}: {:?}", m.error);
                pending = None;
            }
            "view" => {
                let Some(view) = m.view else { continue };
                if view.status == "finished" {
                    stats.finished.fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
                let Some(seat) = view.to_act else { continue };
                let token = &tokens[seat as usize];
                if token.is_empty() || view.version <= acted_at || pending.is_some() {
                    continue;
                }
                let action = &view.legal[rng.below(view.legal.len().max(1))];
                next_id += 1;
                let mut msg =
                    json!({"type": "act", "id": next_id, "seat": seat, "version": view.version, "action": action});
                if cookie.is_none() {
                    msg["token"] = json!(token);
                }
                acted_at = view.version;
                pending = Some(Instant::now());
                socket.send(Message::Text(msg.to_string().into())).await.map_err(|e| e.to_string())?;
            }
            _ => {}
        }
    }
    Err("socket closed".into())
}

/// Plays one game over HTTP, polling while the server's bot plays.
async fn play_http(
    http: reqwest::Client,
    base: String,
    game: String,
    tokens: Vec<String>,
    seed: u64,
    stats: Arc<Stats>,
) -> Result<(), String> {
    #[derive(serde::Deserialize)]
    struct Acted {
        view: ViewLite,
    }
    let get = |http: reqwest::Client, url: String| async move {
        let text = http.get(url).send().await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
        serde_json::from_str::<ViewLite>(&text).map_err(|e| e.to_string())
    };
    let url = format!("{base}/api/games/{game}");
    let mut rng = Rng(seed | 1);
    let mut view = get(http.clone(), url.clone()).await?;
    loop {
        if view.status == "finished" {
            stats.finished.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        match view.to_act.filter(|s| !tokens[*s as usize].is_empty()) {
            None => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                view = get(http.clone(), url.clone()).await?;
            }
            Some(seat) => {
                let action = &view.legal[rng.below(view.legal.len().max(1))];
                let body =
                    json!({"seat": seat, "token": tokens[seat as usize], "version": view.version, "action": action});
                let t = Instant::now();
                let r = http.post(format!("{url}/actions")).json(&body).send().await.map_err(|e| e.to_string())?;
                let ok = r.status().is_success();
                let text = r.text().await.map_err(|e| e.to_string())?;
                if ok {
                    stats.latencies.lock().unwrap().push(t.elapsed());
                    view = serde_json::from_str::<Acted>(&text).map_err(|e| e.to_string())?.view;
                } else {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    eprintln!("game {game}: {text}");
                    view = get(http.clone(), url.clone()).await?;
                }
            }
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn main() {
    let o = options();
    // The server, unless one is given: on its own runtime, as `serve` runs it.
    let _dir = tempfile::tempdir().expect("temporary directory");
    let server_rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (bases, _server) = match o.urls.is_empty() {
        false => (o.urls.clone(), None),
        true => {
            let options = ServeOptions {
                addr: "127.0.0.1:0".parse().unwrap(),
                db: carcassonne_server::Database::Sqlite(_dir.path().join("load.db")),
                // Every simulated client shares one address.
                limits: Limits::unlimited(),
                ..ServeOptions::default()
            };
            let server = server_rt.block_on(Server::start(options)).expect("server");
            (vec![format!("http://{}", server.local_addr())], Some(server))
        }
    };
    let client_rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let stats = Arc::new(Stats::default());
    let wall = client_rt.block_on(async {
        let http = reqwest::Client::builder().pool_max_idle_per_host(400).build().unwrap();
        // The players' accounts, registered a few at a time (each costs
        // the server an Argon2id hash).
        let mut cookies: Vec<Option<String>> = vec![None; o.games];
        if o.accounts {
            let t = Instant::now();
            let mut registering = futures_util::stream::iter((0..o.games).map(|g| {
                let (http, base) = (http.clone(), bases[g % bases.len()].clone());
                async move { (g, register(&http, &base, &format!("load player {g}")).await) }
            }))
            .buffer_unordered(8);
            while let Some((g, r)) = registering.next().await {
                match r {
                    Ok(c) => cookies[g] = Some(c),
                    Err(e) => {
                        eprintln!("{e}");
                        stats.errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            println!("accounts: {} registered in {:.1} s", o.games, t.elapsed().as_secs_f64());
        }
        let start = Instant::now();
        let mut tasks = Vec::new();
        for g in 0..o.games {
            let (game, tokens) = match create(&http, &bases[g % bases.len()], &o, cookies[g].as_deref()).await {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("create: {e}");
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
            };
            let stats = stats.clone();
            let seed = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(g as u64 + 1);
            let base = bases[(g + 1) % bases.len()].clone();
            tasks.push(if o.ws {
                tokio::spawn(play_ws(base, game, tokens, seed, stats, cookies[g].clone()))
            } else {
                tokio::spawn(play_http(http.clone(), base, game, tokens, seed, stats))
            });
        }
        for t in tasks {
            match t.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    eprintln!("game failed: {e}");
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    eprintln!("task failed: {e}");
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        start.elapsed()
    });
    let mut lat = stats.latencies.lock().unwrap().clone();
    lat.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "games: {} concurrent ({} finished), transport {}, server bot {}{}",
        o.games,
        stats.finished.load(Ordering::Relaxed),
        if o.ws { "websocket" } else { "http" },
        o.server_bot.as_deref().unwrap_or("none"),
        if o.accounts { ", signed-in players, rated" } else { "" }
    );
    println!(
        "client actions: {} in {:.1} s ({:.0}/s); errors: {}",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        stats.errors.load(Ordering::Relaxed)
    );
    println!(
        "latency ms: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        ms(percentile(&lat, 0.50)),
        ms(percentile(&lat, 0.90)),
        ms(percentile(&lat, 0.99)),
        ms(lat.last().copied().unwrap_or_default())
    );
    drop(_server);
    server_rt.shutdown_timeout(Duration::from_secs(5));
}
