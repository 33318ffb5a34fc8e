//! The server binary's log lines (on standard error): start, refused
//! requests, storage errors and bot failures with their game, stop; as
//! JSON with `--log-format json`, at the level `RUST_LOG` asks for.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{json, Value};

struct Running {
    child: Child,
    base: String,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Running {
    fn start(db: &Path, args: &[&str], rust_log: Option<&str>) -> Running {
        let mut command = Command::new(env!("CARGO_BIN_EXE_carcassonne-server"));
        command.args(["--addr", "127.0.0.1:0", "--db"]).arg(db).args(args);
        match rust_log {
            Some(filter) => command.env("RUST_LOG", filter),
            None => command.env_remove("RUST_LOG"),
        };
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the server starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let sink = lines.clone();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).expect("address").to_string();
        Running { child, base: format!("http://{addr}"), lines }
    }

    fn client(&self, from: &str) -> Client {
        let http = reqwest::Client::builder().local_address(from.parse::<std::net::IpAddr>().unwrap()).build().unwrap();
        Client { http, base: self.base.clone() }
    }

    /// The first log line that `matches`, waiting a few seconds for it.
    fn line(&self, what: &str, matches: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            if let Some(l) = self.lines.lock().unwrap().iter().find(|l| matches(l)) {
                return l.clone();
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no log line {what} in {:#?}",
                self.lines.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The first JSON log event whose fields hold all of `fields`.
    fn event(&self, fields: Value) -> Value {
        let want = fields.as_object().unwrap().clone();
        let line = self.line(&fields.to_string(), |l| {
            serde_json::from_str::<Value>(l).is_ok_and(|v| want.iter().all(|(k, x)| &v[k] == x))
        });
        serde_json::from_str(&line).unwrap()
    }

    /// Stops it as a service manager would, and waits for it.
    fn terminate(&mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn json_log_lines_tell_start_refusals_storage_errors_bot_failures_and_stop() {
    let (_dir, db) = temp_db();
    let mut server = Running::start(&db, &["--log-format", "json", "--requests-per-second", "1"], None);
    let start = server.event(json!({"message": "listening", "level": "INFO"}));
    assert_eq!(format!("http://{}", start["addr"].as_str().unwrap()), server.base);

    // A refused request: its class, status, client address.
    let flooder = server.client("127.0.0.1");
    let mut refused = 0;
    for _ in 0..6 {
        refused += usize::from(flooder.get("/api/tiles").await.status == 429);
    }
    assert!(refused > 0);
    let e = server.event(json!({"class": "rate_limited", "level": "WARN"}));
    assert_eq!((e["status"].as_u64(), e["peer"].as_str()), (Some(429), Some("127.0.0.1")));

    // A database that refuses every write: the storage errors and the
    // bot's failure name their game.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TRIGGER broken BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;")
        .unwrap();
    let client = server.client("127.0.0.2");
    let created = client.create(json!({"seats": [{"type": "bot", "level": "random"}, {"type": "human"}]})).await;
    let bot_game = created["game"].as_str().unwrap().to_string();
    let e = server.event(json!({"game": bot_game, "level": "ERROR", "message": "storage error: the write failed"}));
    assert!(e["error"].as_str().unwrap().contains("disk on fire"), "{e}");
    server.event(json!({"game": bot_game, "level": "WARN", "seat": 0}));
    let created = client.create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap().to_string();
    // (From a third address: one request a second, bursts of three.)
    let player = server.client("127.0.0.3");
    let view = player.view(&game).await;
    let r = player.act(&game, 0, &tokens(&created)[0], 1, &view["legal"][0]).await;
    assert_eq!((r.status, r.code()), (500, "storage"));
    let e = server.event(json!({"class": "storage", "game": game, "level": "ERROR"}));
    assert_eq!((e["status"].as_u64(), e["method"].as_str()), (Some(500), Some("POST")));

    server.terminate();
    server.event(json!({"message": "stopping", "level": "INFO"}));
    server.event(json!({"message": "stopped", "level": "INFO"}));
    for line in server.lines.lock().unwrap().iter() {
        assert!(serde_json::from_str::<Value>(line).is_ok_and(|v| v.is_object()), "not JSON: {line}");
    }
}

#[tokio::test]
async fn log_lines_are_text_by_default_at_the_level_rust_log_asks_for() {
    let (_dir, db) = temp_db();
    let server = Running::start(&db, &["--requests-per-second", "1"], Some("warn"));
    let client = server.client("127.0.0.1");
    for _ in 0..6 {
        client.get("/api/tiles").await;
    }
    let line = server.line("rate_limited", |l| l.contains("rate_limited"));
    assert!(line.contains("WARN") && line.contains("request refused"), "{line}");
    assert!(serde_json::from_str::<Value>(&line).is_err(), "text, not JSON: {line}");
    let lines = server.lines.lock().unwrap().clone();
    assert!(!lines.iter().any(|l| l.contains("listening")), "info lines are left out at warn: {lines:#?}");
}

/// A server logging JSON with a game of two humans whose writes fail: a
/// trigger on the database refuses every update, with a cause the log
/// tells and the answer does not ("disk on fire").
struct Broken {
    server: Running,
    client: Client,
    game: String,
    /// The first seat's token.
    token: String,
    /// A legal action of the first seat.
    action: Value,
    /// Holds the trigger; `DROP TRIGGER broken` mends the database.
    conn: rusqlite::Connection,
}

impl Broken {
    async fn start(db: &Path) -> Broken {
        let server = Running::start(db, &["--log-format", "json"], None);
        let client = server.client("127.0.0.1");
        let created = client.create(two_humans(&[])).await;
        let game = created["game"].as_str().unwrap().to_string();
        let token = tokens(&created)[0].clone();
        let action = client.view(&game).await["legal"][0].clone();
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.execute_batch(
            "CREATE TRIGGER broken BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;",
        )
        .unwrap();
        Broken { server, client, game, token, action, conn }
    }
}

/// A write that fails is answered with a short public message and the
/// request's id; the cause is only in the log's line of that id. Sent
/// again at the same version once the database is well, the action is
/// applied, once (docs/api.md, Errors: the rule of a 5xx).
#[tokio::test]
async fn a_failed_write_names_its_request_and_sent_again_is_applied_once() {
    let (_dir, db) = temp_db();
    let Broken { server, client, game, token, action, conn } = Broken::start(&db).await;
    let token = &token;

    let r = client.act(&game, 0, token, 1, &action).await;
    assert_eq!((r.status, r.code()), (500, "storage"));
    let message = r.body["error"]["message"].as_str().unwrap();
    assert!(!message.contains("disk on fire"), "the cause stays out of the answer: {message}");
    let request = r.body["error"]["request"].as_str().expect("the request's id").to_string();
    assert_eq!(request.len(), 16);
    let e = server.event(json!({"message": format!("request failed: {message}"), "request": request}));
    assert!(e["cause"].as_str().unwrap().contains("disk on fire"), "{e}");
    assert_eq!((e["class"].as_str(), e["game"].as_str()), (Some("storage"), Some(game.as_str())));

    conn.execute_batch("DROP TRIGGER broken").unwrap();
    let again = client.act(&game, 0, token, 1, &action).await;
    assert_eq!(again.status, 200, "{}", again.body);
    let twice = client.act(&game, 0, token, 1, &action).await;
    assert_eq!((twice.status, twice.code()), (409, "stale_version"));
    let history = client.get(&format!("/api/games/{game}/actions")).await;
    let played: Vec<&Value> = history.body["actions"].as_array().unwrap().iter().filter(|a| a["seat"] == 0).collect();
    assert_eq!(played.len(), 1, "applied once: {}", history.body);
    assert_eq!(played[0]["version"], 2);
}

/// Every API answer carries its request's id; the load balancer's probes
/// answer without limits.
#[tokio::test]
async fn answers_carry_request_ids_and_the_probes_answer() {
    let (_dir, db) = temp_db();
    let server = Running::start(&db, &["--requests-per-second", "1"], None);
    let http = reqwest::Client::new();
    let r = http.get(format!("{}/api/tiles", server.base)).send().await.unwrap();
    let id = r.headers().get("x-request-id").expect("an id").to_str().unwrap().to_string();
    let r = http.get(format!("{}/api/games/0123456789abcdef", server.base)).send().await.unwrap();
    let other = r.headers().get("x-request-id").unwrap().to_str().unwrap().to_string();
    assert_ne!(id, other);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["request"].as_str(), Some(other.as_str()));
    for _ in 0..10 {
        for probe in ["/healthz", "/readyz"] {
            let r = http.get(format!("{}{probe}", server.base)).send().await.unwrap();
            assert_eq!(r.status(), 200, "{probe}");
        }
    }
}

/// `header_timeout` is logged for a request whose headers began and did not
/// finish in time; a connection that sent nothing is only idle.
#[tokio::test]
async fn only_a_begun_request_times_out_its_headers() {
    use tokio::io::AsyncWriteExt;
    let (_dir, db) = temp_db();
    let server = Running::start(&db, &["--log-format", "json", "--header-timeout", "0.3"], None);
    let addr = server.base.trim_start_matches("http://").to_string();
    let idle = tokio::net::TcpStream::connect(&addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let begun_lines = |lines: &[String]| lines.iter().filter(|l| l.contains("header_timeout")).count();
    assert_eq!(begun_lines(&server.lines.lock().unwrap()), 0, "an idle connection is no header timeout");
    let mut half = tokio::net::TcpStream::connect(&addr).await.unwrap();
    half.write_all(b"GET /api/tiles HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let e = server.event(json!({"class": "header_timeout"}));
    assert_eq!(e["level"], "INFO");
    drop((idle, half));
}

/// Failures that repeat are rate-limited in the log: five lines of a kind
/// in ten seconds at most, and the next one says how many were left out.
#[tokio::test]
async fn repeated_failures_are_counted_not_written() {
    let (_dir, db) = temp_db();
    let Broken { server, client, game, token, action, conn: _conn } = Broken::start(&db).await;
    let token = &token;
    let started = Instant::now();
    for _ in 0..12 {
        assert_eq!(client.act(&game, 0, token, 1, &action).await.status, 500);
    }
    assert!(started.elapsed() < Duration::from_secs(9), "the burst fits in one window");
    std::thread::sleep(Duration::from_millis(300));
    let failed = |lines: &[String]| lines.iter().filter(|l| l.contains("request failed")).count();
    assert_eq!(failed(&server.lines.lock().unwrap()), 5, "{:#?}", server.lines.lock().unwrap());
    std::thread::sleep(Duration::from_secs(10).saturating_sub(started.elapsed()) + Duration::from_millis(200));
    // A new connection: the idle one is closed by the header timeout by now.
    assert_eq!(server.client("127.0.0.2").act(&game, 0, token, 1, &action).await.status, 500);
    let e = server.event(json!({"class": "storage", "repeated": 7}));
    assert_eq!(e["level"], "ERROR");
}

/// No password and no session token is ever in the log, at any level:
/// a server at `trace` lives through registering, signing in (and failing
/// to), acting by session, changing the password, refused bodies and
/// signing out, and then its every line is searched for them.
#[tokio::test]
async fn no_password_or_session_token_is_ever_logged() {
    let (_dir, db) = temp_db();
    let server = Running::start(&db, &["--log-format", "json"], Some("trace"));
    let http = reqwest::Client::new();
    let (first, second, wrong) = ("Tidal-Meeple-Lantern-93", "Quiet-Ferry-Harbour-58", "Wrong-Abbot-Cloister-17");
    let mut tokens: Vec<String> = Vec::new();
    let send = |method: &str, path: &str, body: Value, cookie: Option<&String>| {
        let mut r = http
            .request(reqwest::Method::from_bytes(method.as_bytes()).unwrap(), format!("{}{path}", server.base))
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(c) = cookie {
            r = r.header("cookie", format!("carcassonne_session={c}"));
        }
        r.send()
    };
    let cookie_of = |r: &reqwest::Response| {
        let v = r.headers().get("set-cookie").expect("a session cookie").to_str().unwrap();
        v.strip_prefix("carcassonne_session=").unwrap().split(';').next().unwrap().to_string()
    };
    let r = send("POST", "/api/accounts", json!({"name": "Ann", "password": first}), None).await.unwrap();
    assert_eq!(r.status(), 201);
    tokens.push(cookie_of(&r));
    let r = send("POST", "/api/session", json!({"name": "Ann", "password": wrong}), None).await.unwrap();
    assert_eq!(r.status(), 401);
    let r = send("POST", "/api/accounts", json!({"name": "Bob", "password": "password1234"}), None).await.unwrap();
    assert_eq!(r.status(), 400);
    let r = send("POST", "/api/session", json!({"name": "Ann", "password": 123, "x": first}), None).await.unwrap();
    assert_eq!(r.status(), 400);
    let r = send("POST", "/api/session", json!({"name": "Ann", "password": first}), None).await.unwrap();
    assert_eq!(r.status(), 200);
    tokens.push(cookie_of(&r));
    let setup = json!({"seats": [{"type": "human", "mine": true}, {"type": "bot", "level": "random"}]});
    let r = send("POST", "/api/games", setup, tokens.last()).await.unwrap();
    assert_eq!(r.status(), 201);
    let game: Value = r.json().await.unwrap();
    let id = game["game"].as_str().unwrap();
    let view: Value = http.get(format!("{}/api/games/{id}", server.base)).send().await.unwrap().json().await.unwrap();
    let act = json!({"seat": 0, "version": view["version"], "action": view["legal"][0]});
    let r = send("POST", &format!("/api/games/{id}/actions"), act, tokens.last()).await.unwrap();
    assert_eq!(r.status(), 200);
    let r = send("GET", "/api/me", json!({}), tokens.last()).await.unwrap();
    assert_eq!(r.status(), 200);
    let change = json!({"old": wrong, "new": second});
    assert_eq!(send("POST", "/api/me/password", change, tokens.last()).await.unwrap().status(), 403);
    let change = json!({"old": first, "new": second});
    let r = send("POST", "/api/me/password", change, tokens.last()).await.unwrap();
    assert_eq!(r.status(), 200);
    tokens.push(cookie_of(&r));
    // A session that ended, sent again.
    assert_eq!(send("GET", "/api/me", json!({}), tokens.first()).await.unwrap().status(), 401);
    assert_eq!(send("DELETE", "/api/session", json!({}), tokens.last()).await.unwrap().status(), 204);
    std::thread::sleep(Duration::from_millis(500));
    let lines = server.lines.lock().unwrap().clone();
    // The lines that tell of these requests are there (and searched).
    for what in ["account created", "bad_credentials", "weak_password", "malformed", "wrong_password", "not_signed_in"]
    {
        assert!(lines.iter().any(|l| l.contains(what)), "no {what} in {lines:#?}");
    }
    let digests: Vec<String> = tokens.iter().map(|t| carcassonne_server::accounts::digest(t)).collect();
    for secret in [first, second, wrong].iter().map(|s| s.to_string()).chain(tokens.clone()).chain(digests) {
        for line in &lines {
            assert!(!line.contains(&secret), "{secret} is in the log: {line}");
        }
    }
}
