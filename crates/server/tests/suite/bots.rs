//! The bots share the machine fairly: one address flooding the server with
//! search bots does not hold up another's bots, an address past its bot
//! seconds for the hour has its search bots play greedily, and the queue
//! of bot decisions is bounded.

use std::time::{Duration, Instant};

use crate::common::*;
use carcassonne_server::Limits;
use serde_json::{json, Value};

fn human_and_bot(level: &str) -> Value {
    json!({"seats": [{"type": "human"}, {"type": "bot", "level": level}]})
}

fn bots(level: &str, n: usize) -> Value {
    json!({"seats": vec![json!({"type": "bot", "level": level}); n]})
}

/// Plays the human seat's turn (seat 0), then waits for the bot's whole
/// turn; returns how long the bot took.
async fn bot_reply(client: &Client, game: &str, token: &str, pick: &mut Pick) -> Duration {
    let mut v = client.wait_for(game, "the human's turn", |v| v["to_act"] == 0).await;
    let turn = v["turn"].clone();
    while v["to_act"] == 0 && v["turn"] == turn {
        let r = client.act(game, 0, token, v["version"].as_u64().unwrap(), &pick.action(&v)).await;
        assert_eq!(r.status, 200, "{}", r.body);
        v = r.body["view"].clone();
    }
    let asked = Instant::now();
    client.wait_for(game, "the bot's reply", |v| v["to_act"] == 0 || v["status"] == "finished").await;
    asked.elapsed()
}

#[tokio::test]
async fn another_address_flooding_the_server_with_search_bots_does_not_hold_up_an_instant_or_searching_bot() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_bots(&db, Limits::unlimited(), Some(2));
    let flooder = Client::from(&server, "127.0.0.1");
    for _ in 0..6 {
        flooder.create(bots("expert", 5)).await;
    }
    // Every bot thread is taken and decisions are queued.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let player = Client::from(&server, "127.0.0.2");
    let mut pick = Pick::new(4);
    for (level, budget) in [("easy", Duration::ZERO), ("mcts:ms=300:per=turn", Duration::from_millis(300))] {
        let created = player.create(human_and_bot(level)).await;
        let (game, token) = (created["game"].as_str().unwrap().to_string(), tokens(&created)[0].clone());
        for _ in 0..3 {
            let took = bot_reply(&player, &game, &token, &mut pick).await;
            // A search's budget, and time to spare for a loaded machine.
            assert!(took < budget + Duration::from_millis(900), "the {level} bot took {took:?}");
        }
    }
}

#[tokio::test]
async fn past_its_bot_seconds_an_address_search_bots_play_greedily_and_it_gets_no_more() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_bots(&db, Limits { bot_seconds_per_hour: 1, ..Limits::unlimited() }, Some(2));
    let client = Client::from(&server, "127.0.0.1");
    // 0.4 s a turn over some 70 turns: half a minute if the bots searched
    // throughout, a second or two once they play greedily.
    let created = client.create(bots("mcts:ms=400:per=turn", 2)).await;
    let game = created["game"].as_str().unwrap().to_string();
    let start = Instant::now();
    client.wait_for(&game, "the bots to finish", |v| v["status"] == "finished").await;
    assert!(start.elapsed() < Duration::from_secs(12), "took {:?}", start.elapsed());
    // No new game with search bots for this address for now; instant bots
    // and other addresses are fine.
    let r = client.post("/api/games", &human_and_bot("expert")).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "{}", r.body);
    client.create(human_and_bot("easy")).await;
    Client::from(&server, "127.0.0.2").create(human_and_bot("expert")).await;
}

#[tokio::test]
async fn the_queue_of_bot_decisions_is_bounded() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_bots(&db, Limits { bot_queue: 1, ..Limits::unlimited() }, Some(1));
    // One game thinks on the only thread, another's decision waits.
    Client::from(&server, "127.0.0.1").create(bots("mcts:ms=1500", 2)).await;
    Client::from(&server, "127.0.0.2").create(bots("mcts:ms=1500", 2)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let third = Client::from(&server, "127.0.0.3");
    let r = third.post("/api/games", &human_and_bot("mcts:ms=100")).await;
    assert_eq!((r.status, r.code()), (503, "busy"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("bot"), "{}", r.body);
    third.create(human_and_bot("easy")).await;
}
