//! Killing the server mid-game and resuming from the same database file.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::*;
use serde_json::{json, Value};

/// Plays until the seat to act has placed a tile and must now decide on a
/// follower: the middle of a turn.
async fn play_to_mid_turn(client: &Client, game: &str, tokens: &[String], pick: &mut Pick) -> Value {
    let mut view = play(client, game, tokens, pick, 25).await;
    while view["step"] != "deploy" {
        view = play(client, game, tokens, pick, 1).await;
    }
    view
}

#[tokio::test]
async fn a_killed_server_resumes_every_game_where_it_was() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut pick = Pick::new(5);

    // Mid-turn, two humans.
    let a = client.create(public(two_humans(&["ferries"]))).await;
    let (ga, ta) = (a["game"].as_str().unwrap().to_string(), tokens(&a));
    let va = play_to_mid_turn(&client, &ga, &ta, &mut pick).await;
    // A human against a bot, the human to act.
    let b = client.create(public(json!({"seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]}))).await;
    let (gb, tb) = (b["game"].as_str().unwrap().to_string(), tokens(&b));
    for _ in 0..3 {
        client.wait_for(&gb, "the human's turn", |v| v["to_act"] == 0).await;
        let v = client.view(&gb).await;
        let turn = v["turn"].clone();
        let mut v = v;
        while v["to_act"] == 0 && v["turn"] == turn {
            v = play(&client, &gb, &tb, &mut pick, 1).await;
        }
    }
    let vb = client.wait_for(&gb, "the human's turn", |v| v["to_act"] == 0).await;
    // A finished game.
    let c = client.create(public(two_humans(&[]))).await;
    let (gc, tc) = (c["game"].as_str().unwrap().to_string(), tokens(&c));
    let vc = play(&client, &gc, &tc, &mut pick, 10_000).await;
    assert_eq!(vc["status"], "finished");
    // Bots alone, playing while the server is killed.
    let d = client.create(public(json!({"seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}, {"type": "bot", "level": "easy"}]}))).await;
    let gd = d["game"].as_str().unwrap().to_string();
    let vd = client.wait_for(&gd, "the bots to start", |v| v["version"].as_u64().unwrap() > 20).await;

    server.kill();
    let server = TestServer::start(&db);
    let client = Client::new(&server);

    // Everything exactly as it was: board, followers, scores, drawn tile, step, legal actions, log.
    assert_eq!(client.view(&ga).await, va);
    assert_eq!(client.view(&gb).await, vb);
    assert_eq!(client.view(&gc).await, vc);
    // The bots' game kept every acknowledged action, and goes on by itself.
    let end = client.wait_for(&gd, "the bots to finish", |v| v["status"] == "finished").await;
    let past = client.get(&format!("/api/games/{gd}/view?version={}", vd["version"])).await.body;
    assert_eq!(past["board"], vd["board"]);
    if past["log"] != vd["log"] {
        let (p, v) = (past["log"].as_array().unwrap(), vd["log"].as_array().unwrap());
        for (i, (x, y)) in p.iter().zip(v).enumerate() {
            if x != y {
                panic!("log entry {i}: {x} vs {y}; lens {} {}", p.len(), v.len());
            }
        }
        panic!("lens {} {}", p.len(), v.len());
    }
    assert!(end["version"].as_u64() > vd["version"].as_u64());

    // Old tokens still act, and stale versions are still refused.
    let seat = va["to_act"].as_u64().unwrap() as usize;
    let stale = client.act(&ga, seat, &ta[seat], 1, &json!({"type": "pass"})).await;
    assert_eq!(stale.code(), "stale_version");
    let ended = play(&client, &ga, &ta, &mut pick, 10_000).await;
    assert_eq!(ended["status"], "finished");
    let mut v = vb.clone();
    while v["to_act"] == 0 && v["turn"] == vb["turn"] {
        let r = client.act(&gb, 0, &tb[0], v["version"].as_u64().unwrap(), &v["legal"][0]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        v = r.body["view"].clone();
    }
    client.wait_for(&gb, "the bot to answer", |v| v["to_act"] == 0 && v["turn"] != vb["turn"]).await;

    // The list holds them all (each was made public).
    let list = client.get("/api/games?status=all&limit=200").await;
    assert_eq!(list.body["games"].as_array().unwrap().len(), 4);
}

/// The real binary, killed with SIGKILL.
struct Process {
    child: Child,
    base: String,
}

impl Process {
    fn start(db: &std::path::Path) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne-server"))
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).expect("address").to_string();
        Process { child, base: format!("http://{addr}") }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn a_server_process_killed_with_sigkill_loses_nothing_acknowledged() {
    let (_dir, db) = temp_db();
    let process = Process::start(&db);
    let client = Client { http: reqwest::Client::new(), base: process.base.clone() };
    let mut pick = Pick::new(9);
    let a = client.create(two_humans(&["ferries"])).await;
    let (ga, ta) = (a["game"].as_str().unwrap().to_string(), tokens(&a));
    let va = play_to_mid_turn(&client, &ga, &ta, &mut pick).await;
    let b =
        client.create(json!({"seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]})).await;
    let gb = b["game"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let vb = client.view(&gb).await;

    drop(process); // SIGKILL
    let process = Process::start(&db);
    let client = Client { http: reqwest::Client::new(), base: process.base.clone() };
    assert_eq!(client.view(&ga).await, va);
    let end = client.wait_for(&gb, "the bots to finish", |v| v["status"] == "finished").await;
    let past = client.get(&format!("/api/games/{gb}/view?version={}", vb["version"])).await.body;
    assert_eq!(past["board"], vb["board"]);
    assert!(end["final"]["scores"].is_array());
    let ended = play(&client, &ga, &ta, &mut pick, 10_000).await;
    assert_eq!(ended["status"], "finished");
}

#[tokio::test]
async fn a_second_server_on_the_same_database_refuses_to_start() {
    let (_dir, db) = temp_db();
    let first = Process::start(&db);
    // Another process: one clear line, and it stops.
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne-server"))
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!("error: cannot open the database {}: another server is using it (its lock file is held)", db.display())
    );
    // In this process too.
    let options = carcassonne_server::ServeOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: carcassonne_server::Database::Sqlite(db.clone()),
        ..Default::default()
    };
    let refused = carcassonne_server::Server::start(options.clone()).await.err().expect("refused");
    assert!(refused.to_string().contains("another server is using it"), "{refused}");
    // The first one goes on; once it is gone, however it went, the file is free.
    let client = Client { http: reqwest::Client::new(), base: first.base.clone() };
    client.create(two_humans(&[])).await;
    drop(first); // SIGKILL
    let again = carcassonne_server::Server::start(options).await.expect("the lock went with the process");
    again.shutdown().await.unwrap();
}
