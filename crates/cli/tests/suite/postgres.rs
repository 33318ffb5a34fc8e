//! Several servers and bot workers on one PostgreSQL, as separate
//! processes of the command line (`carcassonne serve --db postgres://…`,
//! `carcassonne bot-worker`), on a throwaway PostgreSQL cluster: a
//! temporary folder, a free port, removed afterwards (docs/deploy.md).
//!
//! The servers and workers connect as a role that owns its database and is
//! no superuser, as deployments do (docs/deploy.md, Setting up PostgreSQL).
//!
//! The server binaries come from Debian's `postgresql` package:
//! `CARCASSONNE_PG_BIN`, or the newest `/usr/lib/postgresql/*/bin`. Without
//! them the test says so and passes, unless `CARCASSONNE_PG_REQUIRED` is
//! set (as `scripts/test.sh` does, after installing the package).

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::server_common::{tokens, Client, Pick, Reply};
use futures_util::StreamExt;
use serde_json::{json, Value};

/// How long a worker's claim lasts in this test: a killed worker's job is
/// taken again after this.
const LEASE: &str = "2";

/// The PostgreSQL server programs, if installed.
fn pg_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CARCASSONNE_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").exists())
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A PostgreSQL cluster in a temporary folder, stopped and removed on drop.
struct TempPostgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    root: bool,
}

impl TempPostgres {
    fn command(&self, program: &str) -> Command {
        // PostgreSQL refuses to run as root: then it runs as the package's
        // `postgres` user.
        if self.root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(self.bin.join(program));
            c
        } else {
            Command::new(self.bin.join(program))
        }
    }

    /// A cluster, or `None` (the test then passes, saying so) when the
    /// server programs are not installed and not required.
    fn start_if_installed() -> Option<TempPostgres> {
        let missing = "PostgreSQL's server programs are not installed (Debian: apt-get install postgresql)";
        let Some(bin) = pg_bin() else {
            assert!(std::env::var_os("CARCASSONNE_PG_REQUIRED").is_none(), "{missing}");
            eprintln!("skipped: {missing}");
            return None;
        };
        Some(TempPostgres::start(bin))
    }

    fn start(bin: PathBuf) -> TempPostgres {
        let root = is_root();
        let dir = tempfile::Builder::new().prefix("carcassonne-pg").tempdir().unwrap();
        if root {
            assert!(Command::new("chown").arg("postgres").arg(dir.path()).status().unwrap().success());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let pg = TempPostgres { bin, dir, port, root };
        let data = pg.dir.path().join("data");
        let out = pg.command("initdb").args(["-A", "trust", "-U", "postgres", "-D"]).arg(&data).output().unwrap();
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        let options = format!("-p {port} -h 127.0.0.1 -k {} -c fsync=off", pg.dir.path().display());
        let out = pg
            .command("pg_ctl")
            .args(["-w", "-D"])
            .arg(&data)
            .args(["-o", &options, "-l"])
            .arg(pg.dir.path().join("log"))
            .arg("start")
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_ctl start: {}", String::from_utf8_lossy(&out.stdout));
        // As docs/deploy.md says: a role of its own, owning its database.
        pg.psql("postgres", "CREATE ROLE carcassonne LOGIN PASSWORD 'secret'");
        pg.psql("postgres", "CREATE DATABASE games OWNER carcassonne");
        pg
    }

    fn url(&self) -> String {
        self.url_via(self.port)
    }

    /// The URL of the database through `port` (a [`CutProxy`]'s).
    fn url_via(&self, port: u16) -> String {
        format!("postgres://carcassonne:secret@127.0.0.1:{port}/games")
    }

    /// Runs `sql` as the superuser on `db`; returns what it prints.
    fn psql(&self, db: &str, sql: &str) -> String {
        let port = self.port.to_string();
        let out = self
            .command("psql")
            .args([
                "-X",
                "-q",
                "-At",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-d",
                db,
            ])
            .args(["-c", sql])
            .output()
            .unwrap();
        assert!(out.status.success(), "psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn pg_ctl(&self, args: &[&str]) {
        let options = format!("-p {} -h 127.0.0.1 -k {} -c fsync=off", self.port, self.dir.path().display());
        let out = self
            .command("pg_ctl")
            .args(["-w", "-D"])
            .arg(self.dir.path().join("data"))
            .args(["-o", &options, "-l"])
            .arg(self.dir.path().join("log"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_ctl {args:?}: {}", String::from_utf8_lossy(&out.stdout));
    }

    /// Stops the database at once, as a crash would.
    fn crash(&self) {
        let mut c = self.command("pg_ctl");
        c.args(["-m", "immediate", "-D"]).arg(self.dir.path().join("data")).arg("stop");
        assert!(c.stdout(Stdio::null()).status().unwrap().success());
    }

    fn restart(&self) {
        self.pg_ctl(&["start"]);
    }

    /// The postmaster and every process it started.
    fn processes(&self) -> Vec<String> {
        let pid = std::fs::read_to_string(self.dir.path().join("data/postmaster.pid")).unwrap();
        let pid = pid.lines().next().unwrap().trim().to_string();
        let mut all = vec![pid.clone()];
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
            // pid (comm) state ppid …
            let after = stat.rsplit_once(") ").map(|(_, rest)| rest).unwrap_or("");
            if after.split_whitespace().nth(1) == Some(pid.as_str()) {
                all.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        all
    }

    /// Freezes (`STOP`) or thaws (`CONT`) the database's processes.
    fn signal(&self, which: &str) {
        for pid in self.processes() {
            let _ = Command::new("kill").args([&format!("-{which}"), &pid]).status();
        }
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .args(["-m", "immediate", "-D"])
            .arg(self.dir.path().join("data"))
            .arg("stop")
            .output();
    }
}

/// A TCP proxy between one server and PostgreSQL that can break a write
/// after its commit. Armed, it lets the next write of an action reach
/// PostgreSQL whole, holds back PostgreSQL's answer until PostgreSQL says
/// it is done with it (`ReadyForQuery`: committed or refused), and then
/// closes both connections: the action is stored, and the server cannot
/// know it.
///
/// What is cut is what tokio-postgres sends for the write
/// (`crates/server/src/store/postgres.rs`, `Postgres::save`): one prepared
/// statement, `WITH g AS (UPDATE games SET record = …) …`, run outside any
/// transaction block as `Bind`, `Execute`, `Sync`; PostgreSQL commits its
/// implicit transaction at the `Sync`. So the proxy reads the server's
/// messages, remembers each statement's text from its `Parse`, and holds
/// everything back from the `Bind` of the write on.
struct CutProxy {
    port: u16,
    armed: Arc<AtomicBool>,
    /// The answer PostgreSQL gave the write that was cut: the tag of its
    /// `CommandComplete` (`SELECT 1`: the row was at the revision, the
    /// write is stored), or the message of its `ErrorResponse`.
    cut: Arc<Mutex<Option<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl CutProxy {
    async fn start(pg_port: u16) -> CutProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (armed, cut) = (Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(None)));
        let task = tokio::spawn({
            let (armed, cut) = (armed.clone(), cut.clone());
            async move {
                while let Ok((server, _)) = listener.accept().await {
                    // PostgreSQL down: the server's connection fails as it would.
                    let Ok(pg) = tokio::net::TcpStream::connect(("127.0.0.1", pg_port)).await else { continue };
                    tokio::spawn(pipe(server, pg, armed.clone(), cut.clone()));
                }
            }
        });
        CutProxy { port, armed, cut, task }
    }

    /// Cuts the next write of an action (one only).
    fn arm(&self) {
        *self.cut.lock().unwrap() = None;
        self.armed.store(true, Ordering::SeqCst);
    }

    /// What PostgreSQL answered the write that was cut, once it was.
    fn cut(&self) -> Option<String> {
        self.cut.lock().unwrap().clone()
    }
}

impl Drop for CutProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Forwards one connection both ways until either side closes it, or until
/// the armed proxy has cut a write: returning drops (closes) both.
async fn pipe(
    server: tokio::net::TcpStream,
    pg: tokio::net::TcpStream,
    armed: Arc<AtomicBool>,
    cut: Arc<Mutex<Option<String>>>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut from_server, mut to_server) = server.into_split();
    let (mut from_pg, mut to_pg) = pg.into_split();
    let mut frontend = Frontend::default();
    // PostgreSQL's answer to the write being cut, held back.
    let mut held: Option<Vec<u8>> = None;
    let (mut up, mut down) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        tokio::select! {
            n = from_server.read(&mut up) => {
                let Ok(n @ 1..) = n else { return };
                // Decided before the bytes go on, so that nothing of the
                // answer can reach the server.
                if frontend.feed(&up[..n]) && held.is_none() && armed.swap(false, Ordering::SeqCst) {
                    held = Some(Vec::new());
                }
                if to_pg.write_all(&up[..n]).await.is_err() {
                    return;
                }
            }
            n = from_pg.read(&mut down) => {
                let Ok(n @ 1..) = n else { return };
                match &mut held {
                    // The connection was idle before the write: its answer
                    // starts with a message.
                    Some(answer) => {
                        answer.extend_from_slice(&down[..n]);
                        if let Some(outcome) = answered(answer) {
                            *cut.lock().unwrap() = Some(outcome);
                            return;
                        }
                    }
                    None => {
                        if to_server.write_all(&down[..n]).await.is_err() {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// The server's side of PostgreSQL's protocol, read as it goes by.
#[derive(Default)]
struct Frontend {
    unread: Vec<u8>,
    /// Past the startup message (before it, messages have no type byte).
    started: bool,
    /// Each prepared statement's text, by name.
    statements: HashMap<String, String>,
}

impl Frontend {
    /// Takes in what the server sent; says whether it binds the statement
    /// that writes an action.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        self.unread.extend_from_slice(bytes);
        let mut writes = false;
        loop {
            if !self.started {
                let Some(len) = be32(&self.unread, 0) else { break };
                let Some(code) = be32(&self.unread, 4).filter(|_| self.unread.len() >= len) else { break };
                // An SSLRequest or GSSENCRequest comes before the startup message.
                self.started = code != 80_877_103 && code != 80_877_104;
                self.unread.drain(..len);
                continue;
            }
            let Some(len) = be32(&self.unread, 1).map(|l| l + 1).filter(|l| self.unread.len() >= *l) else { break };
            let message: Vec<u8> = self.unread.drain(..len).collect();
            let mut fields = message[5..].split(|b| *b == 0).map(|f| String::from_utf8_lossy(f).into_owned());
            match message[0] {
                b'P' => {
                    let (name, query) = (fields.next().unwrap_or_default(), fields.next().unwrap_or_default());
                    self.statements.insert(name, query);
                }
                b'B' => {
                    let name = fields.nth(1).unwrap_or_default();
                    writes |= self.statements.get(&name).is_some_and(|q| q.contains("UPDATE games SET record"));
                }
                _ => {}
            }
        }
        writes
    }
}

/// PostgreSQL's answer in `bytes`, once it is whole (up to its
/// `ReadyForQuery`): the tag of its `CommandComplete`, or its error.
fn answered(bytes: &[u8]) -> Option<String> {
    let mut outcome = None;
    let mut at = 0;
    while let Some(len) = be32(bytes, at + 1).map(|l| l + 1).filter(|l| bytes.len() >= at + l) {
        let body = &bytes[at + 5..at + len];
        match bytes[at] {
            b'C' => outcome = Some(String::from_utf8_lossy(body).trim_end_matches('\0').to_string()),
            b'E' => outcome = Some(format!("error: {}", String::from_utf8_lossy(body))),
            b'Z' => return Some(outcome.unwrap_or_else(|| "no answer".to_string())),
            _ => {}
        }
        at += len;
    }
    None
}

/// The big-endian u32 at `at` in `bytes`, if there.
fn be32(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// A process of the command line, killed (SIGKILL) on drop; its log in a file.
struct Proc {
    child: Child,
    log: PathBuf,
}

impl Proc {
    fn spawn(args: &[&str], log: PathBuf) -> Proc {
        let child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Proc { child, log }
    }

    /// The first line it prints.
    fn first_line(&mut self) -> String {
        let mut line = String::new();
        BufReader::new(self.child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "it stopped: {}", std::fs::read_to_string(&self.log).unwrap_or_default());
        line
    }

    /// kill -9.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server on a free port that leaves the bots to the workers; returns
/// it with its address.
fn server(url: &str, dir: &Path, name: &str) -> (Proc, String) {
    server_with(url, dir, name, &["--bot-workers", "0"])
}

fn server_with(url: &str, dir: &Path, name: &str, more: &[&str]) -> (Proc, String) {
    let many = "1000000";
    let mut args = vec![
        "serve",
        "--db",
        url,
        "--addr",
        "127.0.0.1:0",
        "--job-timeout",
        LEASE,
        "--requests-per-second",
        many,
        "--games-per-minute",
        many,
        "--messages-per-second",
        many,
    ];
    args.extend_from_slice(more);
    let mut p = Proc::spawn(&args, dir.join(format!("{name}.log")));
    let line = p.first_line();
    let addr = line.split("http://").nth(1).and_then(|r| r.split_whitespace().next()).expect("the address").to_string();
    (p, format!("http://{addr}"))
}

/// The log of `p` so far.
fn log_of(p: &Proc) -> String {
    std::fs::read_to_string(&p.log).unwrap_or_default()
}

async fn wait_for_log(p: &Proc, what: &str, limit: Duration) {
    let start = Instant::now();
    while !log_of(p).contains(what) {
        assert!(start.elapsed() < limit, "no {what:?} in the log: {}", log_of(p));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn worker(url: &str, dir: &Path, name: &str) -> Proc {
    let mut p = Proc::spawn(
        &["bot-worker", "--db", url, "--threads", "2", "--job-timeout", LEASE, "--name", name],
        dir.join(format!("{name}.log")),
    );
    p.first_line();
    p
}

fn client(base: &str) -> Client {
    Client { http: reqwest::Client::new(), base: base.to_string() }
}

/// A game of the test: its seats' tokens and every action a server
/// acknowledged, by the version it was played at.
struct Game {
    id: String,
    tokens: Vec<String>,
    acknowledged: HashMap<u64, Value>,
}

impl Game {
    async fn create(c: &Client, seats: Value, expansions: &[&str]) -> Game {
        let created = c.create(json!({"seats": seats, "expansions": expansions})).await;
        Game {
            id: created["game"].as_str().unwrap().to_string(),
            tokens: tokens(&created),
            acknowledged: HashMap::new(),
        }
    }

    /// Plays one action for the human seat to act, through `c`, if one is to act.
    async fn step(&mut self, c: &Client, pick: &mut Pick) -> Option<Reply> {
        let view = c.view(&self.id).await;
        let seat = view["to_act"].as_u64()? as usize;
        if self.tokens[seat].is_empty() {
            return None;
        }
        let version = view["version"].as_u64().unwrap();
        let action = pick.action(&view);
        let r = c.act(&self.id, seat, &self.tokens[seat], version, &action).await;
        if r.status == 200 {
            self.acknowledged.insert(version, action);
        }
        Some(r)
    }

    async fn finished(&self, c: &Client) -> bool {
        c.view(&self.id).await["status"] == "finished"
    }

    /// Every acknowledged action is in the stored history, where it was played.
    async fn check_history(&self, c: &Client) {
        let h = c.get(&format!("/api/games/{}/actions", self.id)).await;
        let actions = h.body["actions"].as_array().unwrap();
        for (version, action) in &self.acknowledged {
            let stored = &actions[*version as usize];
            assert_eq!(stored["version"], json!(version + 1));
            // As the legal actions name it (the history omits the annotations).
            assert_eq!(stored["action"]["text"], action["text"], "game {} action {}", self.id, version + 1);
        }
    }
}

/// Follows a game's views over a WebSocket; returns the versions seen
/// until the game ended (or the socket closed).
fn follow(ws: String) -> tokio::task::JoinHandle<Vec<u64>> {
    tokio::spawn(async move {
        let (mut socket, _) = tokio_tungstenite::connect_async(ws).await.expect("websocket");
        let mut seen = Vec::new();
        while let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(120), socket.next()).await {
            let tokio_tungstenite::tungstenite::Message::Text(t) = msg else { continue };
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "view" {
                seen.push(v["view"]["version"].as_u64().unwrap());
                if v["view"]["status"] == "finished" {
                    break;
                }
            }
        }
        seen
    })
}

async fn wait_until<F: std::future::Future<Output = bool>>(what: &str, limit: Duration, mut done: impl FnMut() -> F) {
    let start = Instant::now();
    while !done().await {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_and_two_workers_share_the_games_and_survive_kill_9() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (server_a, a) = server(&url, &logs, "server-a");
    let (_server_b, b) = server(&url, &logs, "server-b");
    let (ca, cb) = (client(&a), client(&b));
    let w1 = worker(&url, &logs, "w1");
    let mut pick = Pick::new(7);

    // Two humans, one on each server; a spectator on each server.
    let mut duel = Game::create(&ca, json!([{"type": "human"}, {"type": "human"}]), &["ferries"]).await;
    let ws = |base: &str, id: &str| format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    let spectators = [follow(ws(&a, &duel.id)), follow(ws(&b, &duel.id))];
    // Against bots, created on one server and played on the other.
    let mut slow = Game::create(&cb, json!([{"type": "human"}, {"type": "bot", "level": "mcts:ms=800"}]), &[]).await;
    let quick = Game::create(
        &ca,
        json!([{"type": "bot", "level": "easy"}, {"type": "human"}, {"type": "bot", "level": "random"}]),
        &["inns", "ferries"],
    )
    .await;

    // Clients on both servers take turns in the same game: each server
    // takes the other's actions at once, its own spectators see them.
    for i in 0..30 {
        let c = if i % 2 == 0 { &ca } else { &cb };
        let r = duel.step(c, &mut pick).await.expect("a human is to act");
        assert_eq!(r.status, 200, "{}", r.body);
    }

    // Racing actions across servers: exactly one wins.
    for _ in 0..10 {
        let view = ca.view(&duel.id).await;
        let (seat, version) = (view["to_act"].as_u64().unwrap() as usize, view["version"].as_u64().unwrap());
        let legal = view["legal"].as_array().unwrap();
        let (x, y) = (&legal[0], &legal[legal.len() - 1]);
        let token = &duel.tokens[seat];
        let (ra, rb) =
            tokio::join!(ca.act(&duel.id, seat, token, version, x), cb.act(&duel.id, seat, token, version, y));
        let won: Vec<&Reply> = [&ra, &rb].into_iter().filter(|r| r.status == 200).collect();
        assert_eq!(won.len(), 1, "one of two racing actions wins: {} / {}", ra.body, rb.body);
        let lost = if ra.status == 200 { &rb } else { &ra };
        assert_eq!((lost.status, lost.code()), (409, "stale_version"), "{}", lost.body);
        duel.acknowledged.insert(version, if ra.status == 200 { x.clone() } else { y.clone() });
    }

    // A worker killed in the middle of a search loses nothing: the job is
    // taken again once its claim runs out.
    let bot_due = loop {
        let r = slow.step(&cb, &mut pick).await.expect("the human's turn");
        assert_eq!(r.status, 200, "{}", r.body);
        if r.body["view"]["to_act"] == json!(1) {
            break r.body["version"].as_u64().unwrap();
        }
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(ca.view(&slow.id).await["version"].as_u64(), Some(bot_due), "the bot is still searching");
    w1.kill();
    let killed = Instant::now();
    let w2 = worker(&url, &logs, "w2");
    let w3 = worker(&url, &logs, "w3");
    wait_until("the search taken again", Duration::from_secs(20), || async {
        ca.view(&slow.id).await["version"].as_u64() > Some(bot_due)
    })
    .await;
    assert!(killed.elapsed() >= Duration::from_millis(1500), "taken again only once the claim ran out");
    // The worker that took it over says so: which job, from whom, how long it was held.
    let takeover = format!("{}{}", log_of(&w2), log_of(&w3));
    let line = takeover.lines().find(|l| l.contains("bot job taken over")).expect("the takeover is logged");
    assert!(line.contains(&slow.id) && line.contains("from=w1/") && line.contains("held_secs="), "{line}");

    // Bots against bots, on the workers alone.
    let mut bots = Vec::new();
    for level in ["mcts:ms=20", "easy"] {
        bots.push(
            Game::create(
                &cb,
                json!([{"type": "bot", "level": level}, {"type": "bot", "level": "random"}]),
                &["ferries"],
            )
            .await,
        );
    }

    // kill -9 of a server in the middle of a burst of actions: every
    // action it acknowledged is stored; the others may or may not be.
    let before = duel.acknowledged.len();
    let burst = {
        let (mut duel, ca) = (
            std::mem::replace(&mut duel, Game { id: String::new(), tokens: vec![], acknowledged: HashMap::new() }),
            client(&a),
        );
        tokio::spawn(async move {
            let mut pick = Pick::new(11);
            loop {
                let view = match ca.http.get(format!("{}/api/games/{}", ca.base, duel.id)).send().await {
                    Ok(r) => r.json::<Value>().await.ok(),
                    Err(_) => None,
                };
                let Some(view) = view else { break };
                let (Some(seat), Some(version)) = (view["to_act"].as_u64(), view["version"].as_u64()) else { break };
                let action = pick.action(&view);
                let body =
                    json!({"seat": seat, "token": duel.tokens[seat as usize], "version": version, "action": action});
                let sent = ca.http.post(format!("{}/api/games/{}/actions", ca.base, duel.id)).json(&body).send().await;
                match sent {
                    Ok(r) if r.status() == 200 => {
                        if r.json::<Value>().await.is_err() {
                            break;
                        }
                        duel.acknowledged.insert(version, action);
                    }
                    _ => break,
                }
            }
            duel
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    server_a.kill();
    let duel = burst.await.unwrap();
    assert!(duel.acknowledged.len() > before, "the burst had acknowledged actions when the server died");
    duel.check_history(&cb).await;
    let (_server_a2, a2) = server(&url, &logs, "server-a2");
    let ca = client(&a2);

    // Every game goes on to its end, on both servers.
    let mut humans = [duel, slow, quick];
    let mut i = 0;
    let start = Instant::now();
    loop {
        let mut all = true;
        for g in humans.iter_mut() {
            let c = if i % 2 == 0 { &ca } else { &cb };
            i += 1;
            if !g.finished(c).await {
                all = false;
                if let Some(r) = g.step(c, &mut pick).await {
                    assert!(r.status == 200 || r.code() == "stale_version", "{}", r.body);
                }
            }
        }
        for g in &bots {
            all &= g.finished(&cb).await;
        }
        if all {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(240), "the games did not end in time");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for g in &humans {
        g.check_history(&ca).await;
        g.check_history(&cb).await;
        assert_eq!(ca.view(&g.id).await, cb.view(&g.id).await, "both servers show the same game");
    }
    // The spectator on the killed server saw the game until it died; the
    // other one saw it to its end, in order.
    let [on_a, on_b] = spectators;
    let (on_a, on_b) = (on_a.await.unwrap(), on_b.await.unwrap());
    for seen in [&on_a, &on_b] {
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "versions in order: {seen:?}");
    }
    assert!(on_a.len() > 20, "the spectator on the first server followed the game: {on_a:?}");
    assert_eq!(on_b.last().copied(), ca.view(&humans[0].id).await["version"].as_u64(), "the last version seen");
    let three = cb.view(&humans[2].id).await;
    assert_eq!(three["final"]["scores"].as_array().map(Vec::len), Some(3), "{}", three["final"]);

    // Without workers, a server runs the bots itself (its default).
    drop((w2, w3));
    let (_server_c, c) = server_with(&url, &logs, "server-c", &[]);
    let cc = client(&c);
    let alone =
        Game::create(&cc, json!([{"type": "bot", "level": "mcts:ms=5"}, {"type": "bot", "level": "easy"}]), &[]).await;
    wait_until("the bots' game on a server alone", Duration::from_secs(60), || alone.finished(&cc)).await;
}

/// The queue serves the address with the fewest decisions being made
/// first, the longest waiting first among equals: one address's many games
/// do not hold up another's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_queue_is_fair_across_addresses() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    // No worker: the jobs wait, and this test claims them itself.
    let (_server, base) = server(&url, pg.dir.path(), "server");
    let from = |local: &str| Client {
        http: reqwest::Client::builder().local_address(local.parse::<std::net::IpAddr>().unwrap()).build().unwrap(),
        base: base.clone(),
    };
    let bots = json!([{"type": "bot", "level": "easy"}, {"type": "bot", "level": "random"}]);
    let mut flood = Vec::new();
    for _ in 0..4 {
        flood.push(Game::create(&from("127.0.0.2"), bots.clone(), &[]).await.id);
    }
    let other = Game::create(&from("127.0.0.3"), bots.clone(), &[]).await.id;
    let queue = carcassonne_server::store::postgres::Postgres::connect(&url, 2).await.unwrap();
    let lease = Duration::from_secs(60);
    let mut taken = Vec::new();
    for _ in 0..5 {
        taken.push(queue.take_job("test", lease).await.unwrap().expect("a job").game);
    }
    // The flooder's oldest first (nobody has a decision running), then the
    // other address's (the flooder has one running), then the flooder's in turn.
    assert_eq!(taken, [flood[0].clone(), other, flood[1].clone(), flood[2].clone(), flood[3].clone()]);
    assert!(queue.take_job("test", lease).await.unwrap().is_none(), "every job is claimed");
}

/// What an operator lives with: a server started before its database waits
/// for it; a role without rights is told what to do; a frozen database is
/// answered `503` with `Retry-After` within a few seconds and its recovery
/// logged once; an action made while the database is down is answered 5xx
/// and, sent again at the same version once it is back, applied once; the
/// other server's watchers see writes again within a second or so of the
/// database's return; a worker, and a server making bot decisions itself,
/// stopped by SIGTERM finish the decision in flight and leave no claim
/// behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn outages_start_down_frozen_and_killed() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let quick = ["--db-statement-timeout", "1", "--db-pool-wait", "1"];

    // A fresh database owned by someone else: PostgreSQL 15 lets no other
    // role create tables in its schema public.
    pg.psql("postgres", "CREATE ROLE visitor LOGIN");
    pg.psql("postgres", "CREATE DATABASE elsewhere");
    let refused = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(format!("postgres://visitor@127.0.0.1:{}/elsewhere", pg.port))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(said.contains("permission denied") && said.contains("docs/deploy.md"), "{said}");

    // Started while the database is down: it waits, says so, and starts
    // once the database is back.
    pg.crash();
    let mut args = vec!["serve", "--db", &url, "--addr", "127.0.0.1:0", "--bot-workers", "0", "--db-start-wait", "30"];
    args.extend_from_slice(&quick);
    let mut early = Proc::spawn(&args, logs.join("early.log"));
    wait_for_log(&early, "waiting for the database", Duration::from_secs(10)).await;
    assert!(early.child.try_wait().unwrap().is_none(), "it waits rather than exits");
    pg.restart();
    let line = early.first_line();
    let a = format!("http://{}", line.split("http://").nth(1).and_then(|r| r.split_whitespace().next()).unwrap());
    wait_for_log(&early, "listening", Duration::from_secs(5)).await;
    assert!(log_of(&early).contains("store=\"postgres\"") || log_of(&early).contains("store=postgres"));
    let (_b_proc, b) = server_with(&url, &logs, "b", &[&["--bot-workers", "0"][..], &quick[..]].concat());
    let (ca, cb) = (client(&a), client(&b));
    let mut duel = Game::create(&ca, json!([{"type": "human"}, {"type": "human"}]), &[]).await;
    let mut pick = Pick::new(3);
    for _ in 0..4 {
        assert_eq!(duel.step(&ca, &mut pick).await.unwrap().status, 200);
    }

    // Frozen: requests are answered 503 with Retry-After within a few
    // seconds, and the probe says not ready.
    pg.signal("STOP");
    let asked = Instant::now();
    let r = ca.http.get(format!("{a}/api/games/{}", duel.id)).send().await.unwrap();
    let waited = asked.elapsed();
    assert_eq!(r.status(), 503);
    assert!(r.headers().get("retry-after").is_some());
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    assert!(body["error"]["request"].is_string());
    assert!(waited < Duration::from_secs(5), "answered within a few seconds: {waited:?}");
    let ready = ca.http.get(format!("{a}/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), 503);
    pg.signal("CONT");
    wait_until("the game read again", Duration::from_secs(10), || async {
        ca.http.get(format!("{a}/api/games/{}", duel.id)).send().await.is_ok_and(|r| r.status() == 200)
    })
    .await;
    wait_for_log(&early, "database recovered", Duration::from_secs(5)).await;
    assert_eq!(log_of(&early).matches("database recovered").count(), 1, "once: {}", log_of(&early));
    assert!(log_of(&early).contains("outage_secs="));

    // Killed: an action made while it is down is answered 5xx, and is not
    // stored; sent again at the same version once the database is back, it
    // is applied, once. (An action whose write is cut after its commit:
    // the test above.)
    let ws = format!("{}/api/games/{}/ws", b.replace("http://", "ws://"), duel.id);
    let (mut watcher, _) = tokio_tungstenite::connect_async(ws).await.expect("websocket");
    for _ in 0..6 {
        assert_eq!(duel.step(&ca, &mut pick).await.unwrap().status, 200);
    }
    let view = ca.view(&duel.id).await;
    pg.crash();
    let (seat, version) = (view["to_act"].as_u64().unwrap() as usize, view["version"].as_u64().unwrap());
    let action = pick.action(&view);
    let r = ca.act(&duel.id, seat, &duel.tokens[seat], version, &action).await;
    assert!(r.status == 500 || r.status == 503, "the database is down: {}", r.body);
    assert!(r.body["error"]["request"].is_string(), "{}", r.body);
    pg.restart();
    let back = Instant::now();
    wait_until("the game read again", Duration::from_secs(15), || async {
        ca.http.get(format!("{a}/api/games/{}", duel.id)).send().await.is_ok_and(|r| r.status() == 200)
    })
    .await;
    let r = ca.act(&duel.id, seat, &duel.tokens[seat], version, &action).await;
    assert_eq!(r.status, 200, "sent again: {}", r.body);
    duel.acknowledged.insert(version, action.clone());
    let r = ca.act(&duel.id, seat, &duel.tokens[seat], version, &action).await;
    assert_eq!(r.code(), "stale_version", "sent once more, it is refused: {}", r.body);
    duel.check_history(&ca).await;
    duel.check_history(&cb).await;
    // The other server listens again within a second of the database's
    // return: its watcher catches up, and sees the next write at once.
    tokio::time::sleep(Duration::from_millis(1200).saturating_sub(back.elapsed())).await;
    assert_eq!(duel.step(&ca, &mut pick).await.unwrap().status, 200);
    let version = ca.view(&duel.id).await["version"].as_u64().unwrap();
    let sent = Instant::now();
    let mut seen = 0;
    while seen < version {
        let msg = tokio::time::timeout(Duration::from_secs(1), watcher.next()).await;
        let Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t)))) = msg else {
            panic!("the other server's watcher saw {seen}, not {version}, {:?} after the write", sent.elapsed());
        };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        if v["type"] == "view" {
            seen = v["view"]["version"].as_u64().unwrap();
        }
    }
    drop(watcher);

    // SIGTERM: a worker finishes the decision it makes, and leaves no claim.
    let w = worker(&url, &logs, "term");
    let slow = Game::create(&cb, json!([{"type": "bot", "level": "mcts:ms=1500"}, {"type": "human"}]), &[]).await;
    let said = terminate_while_deciding(&pg, w, "term/%", &slow.id, None).await;
    assert!(ca.view(&slow.id).await["version"].as_u64() > Some(1), "the decision in flight was played: {said}");

    // So does a server that makes bot decisions itself, and it stops
    // taking requests at once.
    let (own, c) = server_with(&url, &logs, "own-bots", &["--bot-workers", "1"]);
    let slow =
        Game::create(&client(&c), json!([{"type": "bot", "level": "mcts:ms=1500"}, {"type": "human"}]), &[]).await;
    // Its claims are made as host-pid/loop.
    let claims = format!("%-{}/%", own.child.id());
    let said = terminate_while_deciding(&pg, own, &claims, &slow.id, Some(&c)).await;
    assert!(cb.view(&slow.id).await["version"].as_u64() > Some(1), "the decision in flight was played: {said}");
}

/// Waits until `p` claims the bot job of `game` (as `claims`, a LIKE
/// pattern; it may hold others' too, a game's next decision), stops
/// it with SIGTERM in the middle of that decision, and checks that it
/// exits 0 leaving no claim; a server (at `base`) refuses connections
/// while it finishes the decision. Gives its log.
async fn terminate_while_deciding(
    pg: &TempPostgres,
    mut p: Proc,
    claims: &str,
    game: &str,
    base: Option<&str>,
) -> String {
    let held = format!(
        "SELECT count(*) FROM bot_jobs WHERE game = '{game}' AND taken_by LIKE '{claims}' AND taken_until >= now()"
    );
    wait_until("the job claimed", Duration::from_secs(10), || async { pg.psql("games", &held) == "1" }).await;
    let pid = p.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    if let Some(base) = base {
        let http = reqwest::Client::new();
        wait_until("connections refused", Duration::from_secs(1), || async {
            http.get(format!("{base}/healthz")).send().await.is_err()
        })
        .await;
        assert!(p.child.try_wait().unwrap().is_none(), "still finishing its decision: {}", log_of(&p));
        assert_eq!(pg.psql("games", &held), "1", "the claim is held while the decision is made");
    }
    let status = p.child.wait().unwrap();
    assert!(status.success(), "{status}: {}", log_of(&p));
    let left = format!("SELECT count(*) FROM bot_jobs WHERE taken_by LIKE '{claims}'");
    assert_eq!(pg.psql("games", &left), "0", "{}", log_of(&p));
    log_of(&p)
}

/// The rule of a 5xx (docs/api.md, Errors), made certain: a write whose
/// connection breaks after PostgreSQL committed it, before the server hears
/// so. The server answers 5xx; the action is stored; sent again at the same
/// version it is `stale_version`, and the history holds it once, on both
/// servers.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_action_stored_after_its_connection_broke_is_answered_5xx_and_never_applied_twice() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let logs = pg.dir.path().to_path_buf();
    let proxy = CutProxy::start(pg.port).await;
    let (_a_proc, a) = server(&pg.url_via(proxy.port), &logs, "through-proxy");
    let (_b_proc, b) = server(&pg.url(), &logs, "direct");
    let (ca, cb) = (client(&a), client(&b));
    let mut duel = Game::create(&cb, json!([{"type": "human"}, {"type": "human"}]), &[]).await;
    let mut pick = Pick::new(5);
    for _ in 0..3 {
        assert_eq!(duel.step(&ca, &mut pick).await.unwrap().status, 200, "the proxy passes writes unarmed");
    }

    let view = ca.view(&duel.id).await;
    let (seat, version) = (view["to_act"].as_u64().unwrap() as usize, view["version"].as_u64().unwrap());
    let action = pick.action(&view);
    proxy.arm();
    let r = ca.act(&duel.id, seat, &duel.tokens[seat], version, &action).await;
    assert_eq!(proxy.cut().as_deref(), Some("SELECT 1"), "PostgreSQL committed the write that was cut");
    assert!(r.status == 500 || r.status == 503, "{} {}", r.status, r.body);
    assert!(["storage", "unavailable"].contains(&r.code()), "{}", r.body);
    assert_eq!(r.body["error"]["request"].as_str().map(str::len), Some(16), "{}", r.body);

    // Sent again at the same version: stored already, so stale_version,
    // with the version it led to (the draw after it included).
    let again = ca.act(&duel.id, seat, &duel.tokens[seat], version, &action).await;
    assert_eq!((again.status, again.code()), (409, "stale_version"), "{}", again.body);
    let current = again.body["error"]["version"].as_u64().unwrap();
    assert!(current > version, "{}", again.body);
    assert_eq!(ca.view(&duel.id).await["version"].as_u64(), Some(current));
    // In the history once: where it was played, and no other action of the
    // seat after it.
    duel.acknowledged.insert(version, action);
    duel.check_history(&ca).await;
    let history = ca.get(&format!("/api/games/{}/actions", duel.id)).await;
    let actions = history.body["actions"].as_array().unwrap();
    assert_eq!(actions.len() as u64, current, "{}", history.body);
    let by_seat = actions[version as usize..].iter().filter(|a| a["seat"] == json!(seat)).count();
    assert_eq!(by_seat, 1, "applied once: {}", history.body);
    let elsewhere = cb.get(&format!("/api/games/{}/actions", duel.id)).await;
    assert_eq!(elsewhere.body, history.body, "the other server agrees");
    assert_eq!(ca.view(&duel.id).await, cb.view(&duel.id).await);

    // And the game goes on through the server that was cut off.
    assert_eq!(duel.step(&ca, &mut pick).await.unwrap().status, 200);
    duel.check_history(&cb).await;
}

/// A worker with `--review-ms`, for the reviews' tests.
fn review_worker(url: &str, dir: &Path, name: &str, review_ms: &str) -> Proc {
    let mut p = Proc::spawn(
        &[
            "bot-worker",
            "--db",
            url,
            "--threads",
            "1",
            "--job-timeout",
            LEASE,
            "--name",
            name,
            "--review-ms",
            review_ms,
        ],
        dir.join(format!("{name}.log")),
    );
    p.first_line();
    p
}

/// Where the review of `id` stands, as server `c` says.
async fn review_of(c: &Client, id: &str) -> Value {
    let r = c.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// A finished game of two random bots (the workers play it).
async fn random_game(c: &Client) -> String {
    let g =
        Game::create(c, json!([{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]), &["ferries"])
            .await;
    wait_until("the bots to finish", Duration::from_secs(60), || g.finished(c)).await;
    g.id
}

/// Reviews with several servers (docs/analysis.md): asked of one server,
/// queued in the database, made by a bot worker, followed with progress
/// and read from another server; a worker killed in the middle leaves the
/// review to another once its claim runs out; one review is stored; the
/// address's limit holds across servers.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reviews_are_made_by_the_bot_workers_and_read_from_any_server() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (_server_a, a) = server(&url, &logs, "server-a");
    let (_server_b, b) = server(&url, &logs, "server-b");
    let (ca, cb) = (client(&a), client(&b));
    let w1 = review_worker(&url, &logs, "w1", "40");
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(random_game(&ca).await);
    }
    assert_eq!(review_of(&ca, &games[0]).await["status"], "none");
    let r = ca.post(&format!("/api/games/{}/review", games[0]), &json!({})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    // Its progress, read on the other server, until the worker has gone part of the way.
    let start = Instant::now();
    loop {
        let s = review_of(&cb, &games[0]).await;
        if s["status"] == "running" && s["done"].as_u64().unwrap_or(0) > 20 {
            assert!(s["total"].as_u64().unwrap() > 100, "{s}");
            break;
        }
        assert!(["queued", "running"].contains(&s["status"].as_str().unwrap()), "{s}");
        assert!(start.elapsed() < Duration::from_secs(30), "the review did not start: {s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Killed in the middle: another worker takes it once the claim runs out.
    w1.kill();
    let killed = Instant::now();
    let w2 = review_worker(&url, &logs, "w2", "40");
    let review = loop {
        let s = review_of(&cb, &games[0]).await;
        match s["status"].as_str().unwrap() {
            "done" => break s["review"].clone(),
            "queued" | "running" => {}
            other => panic!("review {other}: {s}"),
        }
        assert!(killed.elapsed() < Duration::from_secs(90), "the review was not made again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(killed.elapsed() >= Duration::from_millis(1500), "made again only once the claim ran out");
    assert_eq!(review["finished"], true);
    assert!(review["decisions"].as_array().unwrap().len() > 50);
    // The same review on both servers, stored once, and off the queue.
    assert_eq!(review_of(&ca, &games[0]).await["review"], review);
    assert_eq!(pg.psql("games", "SELECT count(*) FROM reviews").trim(), "1");
    assert_eq!(pg.psql("games", "SELECT count(*) FROM review_jobs").trim(), "0");
    let again = ca.post(&format!("/api/games/{}/review", games[0]), &json!({})).await;
    assert_eq!((again.status, again.body["status"].as_str()), (202, Some("done")), "a review made is no new one");
    // The address's limit, across servers (no worker now: what is queued waits):
    // two under way, the third refused, and nothing of it queued.
    w2.kill();
    let r1 = ca.post(&format!("/api/games/{}/review", games[1]), &json!({})).await;
    let r2 = cb.post(&format!("/api/games/{}/review", games[2]), &json!({})).await;
    assert_eq!((r1.status, r2.status), (202, 202), "{} / {}", r1.body, r2.body);
    assert_eq!(review_of(&ca, &games[2]).await["status"], "queued");
    let busy = ca.post(&format!("/api/games/{}/review", games[3]), &json!({})).await;
    assert_eq!((busy.status, busy.code()), (429, "reviews_busy"), "{}", busy.body);
    assert!(busy.body["error"]["message"].as_str().unwrap().contains("2 reviews under way"), "{}", busy.body);
    assert_eq!(review_of(&cb, &games[3]).await["status"], "none");
}

/// A hint with several servers: asked of one, written in the record; the
/// seat's action through the other server at the same version is taken
/// (the row's revision moved, the game did not).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hint_written_on_one_server_leaves_the_seats_action_on_another_valid() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (_server_a, a) = server_with(&url, &logs, "server-a", &["--bot-workers", "0", "--hint-ms", "20"]);
    let (_server_b, b) = server(&url, &logs, "server-b");
    let (ca, cb) = (client(&a), client(&b));
    let created = ca
        .create(json!({"seats": [{"type": "human"}, {"type": "human"}], "expansions": ["ferries"], "hints": true}))
        .await;
    let id = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let view = cb.view(&id).await;
    let version = view["version"].as_u64().unwrap();
    let hint = ca.post(&format!("/api/games/{id}/hint"), &json!({"token": tokens[0], "version": version})).await;
    assert_eq!(hint.status, 200, "{}", hint.body);
    let r = cb.act(&id, 0, &tokens[0], version, &hint.body["action"]).await;
    assert_eq!(r.status, 200, "the action after the other server's hint: {}", r.body);
    let record = cb.get(&format!("/api/games/{id}/record")).await.body;
    assert_eq!(record["turns"][0]["hints"], json!([0]));
    assert_eq!(ca.view(&id).await["hints"], json!([1, 0]));
}

/// The chat with several servers: what is said on one is heard at once by
/// the followers of the same room on the other, and by no one else; said
/// on both at once, every message reaches a follower, none twice, in the
/// order of their ids.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn chat_said_on_one_server_is_heard_on_the_other() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (_server_a, a) = server_with(&url, &logs, "chat-a", &["--bot-workers", "0", "--chat-per-minute", "100000"]);
    let (_server_b, b) = server_with(&url, &logs, "chat-b", &["--bot-workers", "0", "--chat-per-minute", "100000"]);
    let (ca, cb) = (client(&a), client(&b));
    let created = ca.create(json!({"seats": [{"type": "human"}, {"type": "human"}], "expansions": []})).await;
    let id = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let ws = format!("{}/api/games/{id}/ws", b.replace("http://", "ws://"));
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(ws.as_str()).unwrap();
    request
        .headers_mut()
        .insert("sec-websocket-protocol", format!("carcassonne, token.{}", tokens[1]).parse().unwrap());
    let (mut player, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
    let (mut spectator, _) = tokio_tungstenite::connect_async(ws.as_str()).await.expect("websocket");
    // What a socket hears of the chat within `wait`, message by message.
    async fn heard(
        socket: &mut (impl futures_util::Stream<
            Item = Result<tokio_tungstenite::tungstenite::Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin),
        want: usize,
    ) -> Vec<Value> {
        let mut lines = Vec::new();
        while lines.len() < want {
            let msg = tokio::time::timeout(Duration::from_secs(3), socket.next()).await;
            let Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t)))) = msg else {
                panic!("heard {} of {want}: {lines:?}", lines.len());
            };
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "chat" {
                lines.extend(v["messages"].as_array().unwrap().iter().cloned());
            }
        }
        lines
    }
    let say = |c: &Client, body: Value| {
        let (c, path) = (client(&c.base), format!("/api/games/{id}/chat"));
        async move { c.post(&path, &body).await }
    };
    assert_eq!(say(&ca, json!({"name": "Eve", "text": "from A"})).await.status, 201);
    let got = heard(&mut spectator, 1).await;
    assert_eq!((got[0]["room"].clone(), got[0]["text"].clone()), (json!("spectators"), json!("from A")));
    assert_eq!(say(&ca, json!({"token": tokens[0], "text": "hello Bob"})).await.status, 201);
    let got = heard(&mut player, 1).await;
    assert_eq!(
        (got[0]["room"].clone(), got[0]["seat"].clone(), got[0]["text"].clone()),
        (json!("players"), json!(0), json!("hello Bob"))
    );

    // Both servers at once, 20 messages each.
    let mut said = Vec::new();
    for i in 0..20 {
        said.push(tokio::spawn(say(&ca, json!({"token": tokens[0], "text": format!("a{i}")}))));
        said.push(tokio::spawn(say(&cb, json!({"token": tokens[1], "text": format!("b{i}")}))));
    }
    for s in said {
        assert_eq!(s.await.unwrap().status, 201);
    }
    let got = heard(&mut player, 40).await;
    let ids: Vec<u64> = got.iter().map(|m| m["id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "in order, none twice: {ids:?}");
    for c in [&ca, &cb] {
        let r = c.post(&format!("/api/games/{id}/chat/read"), &json!({"token": tokens[0]})).await;
        let stored: Vec<u64> =
            r.body["messages"].as_array().unwrap().iter().map(|m| m["id"].as_u64().unwrap()).collect();
        assert_eq!(stored[1..], ids[..], "each server reads what the follower heard");
    }
    // The spectator heard none of it.
    let r = tokio::time::timeout(Duration::from_millis(300), spectator.next()).await;
    assert!(r.is_err(), "nothing more for the spectator: {r:?}");
}

/// A request with the session cookie `cookie` (and a JSON body) to `base`;
/// its status, body and the session cookie it sets, if any.
async fn with_session(
    method: &str,
    base: &str,
    path: &str,
    body: Value,
    cookie: Option<&str>,
) -> (u16, Value, Option<String>) {
    let mut r = reqwest::Client::new()
        .request(reqwest::Method::from_bytes(method.as_bytes()).unwrap(), format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(c) = cookie {
        r = r.header("cookie", format!("carcassonne_session={c}"));
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    let set = r.headers().get("set-cookie").map(|v| {
        v.to_str().unwrap().strip_prefix("carcassonne_session=").unwrap().split(';').next().unwrap().to_string()
    });
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)), set)
}

/// Accounts with several servers: a session made on one server is
/// honoured by the other, acts there on the account's seat, and ends on
/// both when it signs out everywhere on one; failed sign-ins per name are
/// counted across servers; and a database of the schema before accounts
/// migrates and keeps its games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_made_on_one_server_is_honoured_by_another() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let more = ["--bot-workers", "0", "--sign-in-failures-per-name", "3"];
    let (server_a, a) = server_with(&url, &logs, "server-a", &more);
    let (server_b, b) = server_with(&url, &logs, "server-b", &more);
    let password = "correct horse battery staple";
    let creds = json!({"name": "Ann", "password": password});
    let (status, _, cookie) = with_session("POST", &a, "/api/accounts", creds.clone(), None).await;
    assert_eq!(status, 201);
    let on_a = cookie.expect("a session cookie");
    let (status, me, _) = with_session("GET", &b, "/api/me", json!({}), Some(&on_a)).await;
    assert_eq!((status, me["account"]["name"].clone()), (200, json!("Ann")), "{me}");

    // A game made on B with the account's seat, played on A without a token.
    let setup = json!({"seats": [{"type": "human", "mine": true}, {"type": "human", "name": "Guest"}]});
    let (status, created, _) = with_session("POST", &b, "/api/games", setup, Some(&on_a)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"].as_str().unwrap().to_string();
    let view = client(&a).view(&id).await;
    let act = json!({"seat": 0, "version": view["version"], "action": view["legal"][0]});
    let (status, acted, _) = with_session("POST", &a, &format!("/api/games/{id}/actions"), act, Some(&on_a)).await;
    assert_eq!(status, 200, "{acted}");
    let (_, me, _) = with_session("GET", &a, "/api/me", json!({}), Some(&on_a)).await;
    assert_eq!((me["games"][0]["game"].clone(), me["games"][0]["mine"].clone()), (json!(id), json!([0])));

    // Sign out everywhere on A: the sessions made on A and on B end on both.
    let (status, _, cookie) = with_session("POST", &b, "/api/session", creds.clone(), None).await;
    assert_eq!(status, 200);
    let on_b = cookie.unwrap();
    let (status, ended, _) = with_session("DELETE", &a, "/api/me/sessions", json!({}), Some(&on_a)).await;
    assert_eq!((status, ended["ended"].clone()), (200, json!(2)), "{ended}");
    for base in [&a, &b] {
        for cookie in [&on_a, &on_b] {
            let (status, body, _) = with_session("GET", base, "/api/me", json!({}), Some(cookie)).await;
            assert_eq!((status, body["error"]["code"].clone()), (401, json!("not_signed_in")), "{base}: {body}");
        }
    }

    // Failed sign-ins of a name count on every server.
    let bad = json!({"name": "Ann", "password": "Wrong-Abbot-Cloister-17"});
    for base in [&a, &b, &a] {
        assert_eq!(with_session("POST", base, "/api/session", bad.clone(), None).await.0, 401);
    }
    let (status, body, _) = with_session("POST", &b, "/api/session", creds.clone(), None).await;
    assert_eq!((status, body["error"]["code"].clone()), (429, json!("rate_limited")), "{body}");

    // Back to the schema before accounts (version 4): a server migrates it
    // and the games are kept.
    server_a.kill();
    server_b.kill();
    pg.psql(
        "games",
        "DROP INDEX games_by_clock_due; ALTER TABLE games DROP COLUMN clock; ALTER TABLE games DROP COLUMN clock_due; \
         DROP TABLE table_seats; DROP TABLE tables; \
         DROP TABLE results; DROP TABLE ratings; ALTER TABLE games DROP COLUMN rated; \
         DROP TABLE chat; DROP TABLE sign_in_failures; DROP TABLE seat_accounts; DROP TABLE sessions; DROP TABLE accounts; \
         UPDATE schema_version SET version = 4",
    );
    let before = pg.psql("games", &format!("SELECT md5(record) FROM games WHERE id = '{id}'"));
    let (_server_c, c) = server_with(&url, &logs, "server-c", &more);
    assert_eq!(
        pg.psql("games", "SELECT version FROM schema_version"),
        "9",
        "the accounts (5), the chat (6), the ratings (7), the lobby (8), the clocks (9)"
    );
    assert_eq!(pg.psql("games", &format!("SELECT md5(record) FROM games WHERE id = '{id}'")), before);
    let view = client(&c).view(&id).await;
    assert_eq!(view["version"], acted["version"]);
    let (status, _, _) = with_session("POST", &c, "/api/accounts", creds, None).await;
    assert_eq!(status, 201, "the accounts' tables are back");
}

/// Ratings with several servers: two rated games between two accounts,
/// each action sent to both servers at once (one of each pair wins), both
/// games played at the same time: each game's results are stored once,
/// and the two accounts' ratings count both games (no update lost to the
/// other game's), as either server reads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rated_games_raced_on_two_servers_move_ratings_exactly_once() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (_server_a, a) = server_with(&url, &logs, "rated-a", &["--bot-workers", "0"]);
    let (_server_b, b) = server_with(&url, &logs, "rated-b", &["--bot-workers", "0"]);
    let password = "correct horse battery staple";
    let mut cookies = Vec::new();
    for name in ["Ann", "Bob"] {
        let (status, _, cookie) =
            with_session("POST", &a, "/api/accounts", json!({"name": name, "password": password}), None).await;
        assert_eq!(status, 201);
        cookies.push(cookie.unwrap());
    }
    let setup = json!({"seats": [{"type": "human", "mine": true}, {"type": "human"}], "rated": true});
    let mut games = Vec::new();
    for _ in 0..2 {
        let (status, created, _) = with_session("POST", &a, "/api/games", setup.clone(), Some(&cookies[0])).await;
        assert_eq!(status, 201, "{created}");
        let id = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let (status, joined, _) =
            with_session("POST", &b, &format!("/api/games/{id}/join"), json!({"token": tokens[1]}), Some(&cookies[1]))
                .await;
        assert_eq!((status, joined["bound"].clone()), (200, json!(true)), "{joined}");
        games.push((id, tokens));
    }
    let race = |id: String, tokens: Vec<String>, seed: u64| {
        let (ca, cb) = (client(&a), client(&b));
        tokio::spawn(async move {
            let mut pick = Pick::new(seed);
            loop {
                let view = ca.view(&id).await;
                if view["status"] == "finished" {
                    return view;
                }
                let seat = view["to_act"].as_u64().unwrap() as usize;
                let version = view["version"].as_u64().unwrap();
                let action = pick.action(&view);
                let (ra, rb) = tokio::join!(
                    ca.act(&id, seat, &tokens[seat], version, &action),
                    cb.act(&id, seat, &tokens[seat], version, &action)
                );
                let won = [ra.status, rb.status].iter().filter(|&&s| s == 200).count();
                assert_eq!(won, 1, "one of the two at version {version}: {} {}", ra.body, rb.body);
            }
        })
    };
    let racers: Vec<_> =
        games.iter().enumerate().map(|(i, (id, tokens))| race(id.clone(), tokens.clone(), 40 + i as u64)).collect();
    let mut margins = 0.0;
    for r in racers {
        let end = r.await.unwrap();
        let s = &end["final"]["scores"];
        margins += s[0].as_f64().unwrap() - s[1].as_f64().unwrap();
    }
    for (id, _) in &games {
        assert_eq!(pg.psql("games", &format!("SELECT COUNT(*) FROM results WHERE game = '{id}'")), "2");
    }
    for base in [&a, &b] {
        let ann = client(base).get("/api/players/ann").await.body;
        let bob = client(base).get("/api/players/bob").await.body;
        assert_eq!((ann["rating"]["games"].clone(), bob["rating"]["games"].clone()), (json!(2), json!(2)), "{ann}");
        assert_eq!((ann["stats"]["rated"].clone(), ann["history"].as_array().unwrap().len()), (json!(2), 2));
        assert!((ann["stats"]["average_margin"].as_f64().unwrap() - margins / 2.0).abs() < 1e-9);
        // Two players who started equal move by equal and opposite amounts.
        let (ra, rb) = (ann["rating"]["rating"].as_f64().unwrap(), bob["rating"]["rating"].as_f64().unwrap());
        assert!((ra - 1500.0 + (rb - 1500.0)).abs() < 1e-6, "{ra} {rb}");
    }
    assert_eq!(pg.psql("games", "SELECT COUNT(*) FROM ratings"), "2");
}

/// The lobby with several servers: quick match pairs a player waiting on
/// one server with a player asking on the other, into one game; a quick
/// match whose wait is over, looked at on both servers at once, starts
/// one game with a bot; a table filled by two joins on two servers at once
/// seats one of them and starts one game.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn quick_match_pairs_players_waiting_on_different_servers() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (_server_a, a) = server_with(&url, &logs, "lobby-a", &["--bot-workers", "0"]);
    let (_server_b, b) = server_with(&url, &logs, "lobby-b", &["--bot-workers", "0"]);
    let password = "correct horse battery staple";
    let mut cookies = Vec::new();
    for name in ["Ann", "Bob", "Cy", "Dan", "Eve"] {
        let (status, _, cookie) =
            with_session("POST", &a, "/api/accounts", json!({"name": name, "password": password}), None).await;
        assert_eq!(status, 201);
        cookies.push(cookie.unwrap());
    }
    let (ann, bob, cy, dan, eve) = (&cookies[0], &cookies[1], &cookies[2], &cookies[3], &cookies[4]);
    let (_, waiting, _) = with_session("POST", &a, "/api/quick-match", json!({}), Some(ann)).await;
    assert_eq!(waiting["status"], "open", "{waiting}");
    let (_, paired, _) = with_session("POST", &b, "/api/quick-match", json!({}), Some(bob)).await;
    assert_eq!((paired["table"].clone(), paired["status"].clone()), (waiting["table"].clone(), json!("started")));
    let game = paired["game"].as_str().unwrap().to_string();
    let (_, seen, _) = with_session("GET", &a, "/api/quick-match", json!({}), Some(ann)).await;
    assert_eq!(seen["table"]["game"], json!(game));
    assert_eq!(client(&a).view(&game).await["rated"], true);

    // Cy's wait is over: both servers asked at once, one game with a bot.
    let (_, asked, _) = with_session("POST", &a, "/api/quick-match", json!({"bot_after": 0}), Some(cy)).await;
    assert_eq!(asked["status"], "open");
    let (ra, rb) = tokio::join!(
        with_session("GET", &a, "/api/quick-match", json!({}), Some(cy)),
        with_session("GET", &b, "/api/quick-match", json!({}), Some(cy))
    );
    let table = asked["table"].as_str().unwrap();
    wait_until("the bot's game", Duration::from_secs(10), || async {
        pg.psql("games", &format!("SELECT status FROM tables WHERE id = '{table}'")) == "started"
    })
    .await;
    let game = pg.psql("games", &format!("SELECT game FROM tables WHERE id = '{table}'"));
    for (status, body, _) in [ra, rb] {
        assert_eq!(status, 200, "{body}");
        assert!(body["table"]["game"].is_null() || body["table"]["game"] == json!(game), "{body}");
    }
    let cy_id = pg.psql("games", "SELECT id FROM accounts WHERE name = 'Cy'");
    assert_eq!(
        pg.psql("games", &format!("SELECT COUNT(*) FROM seat_accounts WHERE account = {cy_id}")),
        "1",
        "one game"
    );

    // Two joins of a table's last seat on two servers at once: one seat, one game.
    let (_, opened, _) = with_session("POST", &a, "/api/lobby", json!({"humans": 2}), Some(dan)).await;
    let t = opened["table"].as_str().unwrap().to_string();
    let join = format!("/api/lobby/{t}/join");
    let ((sa, ja, _), (sb, jb, _)) = tokio::join!(
        with_session("POST", &a, &join, json!({}), Some(eve)),
        with_session("POST", &b, &join, json!({}), Some(eve))
    );
    assert_eq!((sa, sb), (200, 200), "{ja} {jb}");
    wait_until("the table's game", Duration::from_secs(10), || async {
        pg.psql("games", &format!("SELECT status FROM tables WHERE id = '{t}'")) == "started"
    })
    .await;
    assert_eq!(pg.psql("games", &format!("SELECT COUNT(*) FROM table_seats WHERE tbl = '{t}'")), "2");
    let eve_id = pg.psql("games", "SELECT id FROM accounts WHERE name = 'Eve'");
    assert_eq!(pg.psql("games", &format!("SELECT COUNT(*) FROM seat_accounts WHERE account = {eve_id}")), "1");
}

/// Clocks with several servers: a seat that runs out of time is acted on
/// once, though both servers look for clocks that ran out: the bot plays
/// its turn, one server's log says so, and the game goes on as one.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_expired_clock_is_acted_on_once_by_two_servers() {
    let Some(pg) = TempPostgres::start_if_installed() else { return };
    let url = pg.url();
    let logs = pg.dir.path().to_path_buf();
    let (server_a, a) = server_with(&url, &logs, "clock-a", &[]);
    let (server_b, b) = server_with(&url, &logs, "clock-b", &[]);
    let created = client(&a)
        .create(json!({"seats": [{"type": "human"}, {"type": "human"}], "clock": {"base": 10, "on_timeout": "bot"}}))
        .await;
    let id = created["game"].as_str().unwrap().to_string();
    let start = Instant::now();
    loop {
        let v = client(&b).view(&id).await;
        if v["to_act"] == 1 && v["clock"]["out"] == json!([0]) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(25),
            "the bot did not play seat 0's turn: {}\n{}\n{}",
            v["clock"],
            log_of(&server_a),
            log_of(&server_b)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Both servers' views agree (once the other has heard of the last
    // write), and the turn was played once.
    wait_until("both servers to agree", Duration::from_secs(5), || async {
        let (va, vb) = (client(&a).view(&id).await, client(&b).view(&id).await);
        va["version"] == vb["version"] && va["clock"] == vb["clock"]
    })
    .await;
    let ran_out = [&server_a, &server_b].iter().map(|p| log_of(p).matches("a clock ran out").count()).sum::<usize>();
    assert_eq!(ran_out, 1, "acted on by one server");
}
