//! The server binary's log lines (on standard error): start, refused
//! requests, storage errors and bot failures with their game, stop; as
//! JSON with `--log-format json`, at the level `RUST_LOG` asks for.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
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
    let e = server.event(json!({"game": bot_game, "level": "ERROR", "message": "storage error: nothing was changed"}));
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
