//! The review of a finished game through the API (docs/api.md): refused
//! while the game is played, computed in the background with progress,
//! stored once for everyone, refused past an address's bot time and beyond
//! its reviews under way.

use std::time::{Duration, Instant};

use crate::common::*;
use carcassonne_server::Limits;
use serde_json::{json, Value};

/// A review as fast as a test needs: 2 ms a decision.
fn quick() -> Limits {
    Limits { review_ms: 2, ..Limits::unlimited() }
}

/// A finished 2-player game of random bots.
async fn finished_game(client: &Client, expansions: &[&str]) -> String {
    let seats = vec![json!({"type": "bot", "level": "random"}); 2];
    let created = client.create(json!({"seats": seats, "expansions": expansions})).await;
    let game = created["game"].as_str().unwrap().to_string();
    client.wait_for(&game, "the bots to finish", |v| v["status"] == "finished").await;
    game
}

async fn wait_review(client: &Client, game: &str) -> Value {
    let start = Instant::now();
    let mut seen_progress = false;
    loop {
        let r = client.get(&format!("/api/games/{game}/review")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        match r.body["status"].as_str().unwrap() {
            "done" => return r.body["review"].clone(),
            "running" => {
                let (done, total) = (r.body["done"].as_u64().unwrap(), r.body["total"].as_u64().unwrap());
                assert!(done <= total && total > 100, "{}", r.body);
                seen_progress = true;
            }
            "queued" => {}
            other => panic!("review {other}: {} (progress seen: {seen_progress})", r.body),
        }
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for the review");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_finished_game_is_reviewed_in_the_background_and_the_review_is_kept() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    // A game being played is not reviewed.
    let playing = client.create(two_humans(&["ferries"])).await;
    let id = playing["game"].as_str().unwrap();
    let r = client.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert_eq!((r.status, r.code()), (409, "not_finished"), "{}", r.body);
    assert_eq!(client.get(&format!("/api/games/{id}/review")).await.body, json!({"status": "none"}));
    // No such game.
    let r = client.post("/api/games/0123456789abcdef/review", &json!({})).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = client.get("/api/games/<script>/review").await;
    assert_eq!((r.status, r.code()), (404, "not_found"));

    let game = finished_game(&client, &["ferries"]).await;
    assert_eq!(client.get(&format!("/api/games/{game}/review")).await.body, json!({"status": "none"}));
    let r = client.post(&format!("/api/games/{game}/review"), &json!({})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert!(["queued", "running", "done"].contains(&r.body["status"].as_str().unwrap()), "{}", r.body);
    let review = wait_review(&client, &game).await;
    // The review is the engine's: one decision per choice of the game's record.
    let record = client.get(&format!("/api/games/{game}/record")).await.body;
    let record = carcassonne_engine::Record::from_json(&record.to_string()).unwrap();
    let mut replay = carcassonne_engine::Game::new(record.setup.clone()).unwrap();
    let mut choices = 0;
    for a in record.actions().unwrap().into_iter().flatten() {
        if matches!(replay.state().actor(), Some(carcassonne_engine::Actor::Player(_)))
            && replay.state().legal_action_list().len() > 1
        {
            choices += 1;
        }
        replay.play(a).unwrap();
    }
    assert_eq!(review["decisions"].as_array().unwrap().len(), choices);
    // Each decision's index is the version before it: the history's action
    // at version index + 1 is the move reviewed.
    let history = client.get(&format!("/api/games/{game}/actions")).await.body;
    let actions = history["actions"].as_array().unwrap();
    for d in review["decisions"].as_array().unwrap() {
        let i = d["index"].as_u64().unwrap() as usize;
        assert_eq!(actions[i]["version"], i + 1);
        assert_eq!(actions[i]["action"]["text"], d["played"], "{d}");
    }
    assert_eq!(review["players"].as_array().unwrap().len(), 2);
    assert_eq!(review["finished"], true);
    // Asked again: the same review, not a second one.
    let again = client.post(&format!("/api/games/{game}/review"), &json!({})).await;
    assert_eq!((again.status, again.body["status"].clone()), (202, json!("done")));
    assert_eq!(again.body["review"], review);
    drop(client);
    drop(server);
    // Kept: a restarted server serves it from the database.
    let server = TestServer::start_with(&db, quick());
    let client = Client::new(&server);
    let r = client.get(&format!("/api/games/{game}/review")).await;
    assert_eq!(r.body["status"], "done");
    assert_eq!(r.body["review"], review);
}

#[tokio::test]
async fn reviews_count_against_the_bot_time_of_the_address_that_asks() {
    let (_dir, db) = temp_db();
    // One bot second an hour: the first review spends it.
    let server = TestServer::start_with(&db, Limits { bot_seconds_per_hour: 1, review_ms: 20, ..Limits::unlimited() });
    let client = Client::new(&server);
    let games = [finished_game(&client, &[]).await, finished_game(&client, &[]).await];
    let r = client.post(&format!("/api/games/{}/review", games[0]), &json!({})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    wait_review(&client, &games[0]).await;
    let r = client.post(&format!("/api/games/{}/review", games[1]), &json!({})).await;
    assert_eq!((r.status, r.code()), (429, "bot_time_used"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("reviews and hints count as bots do"), "{}", r.body);
    // Nothing was started.
    assert_eq!(client.get(&format!("/api/games/{}/review", games[1])).await.body, json!({"status": "none"}));
}

#[tokio::test]
async fn an_address_has_at_most_two_reviews_under_way() {
    let (_dir, db) = temp_db();
    // Slow reviews, on one bot thread: the first keeps it while the others wait.
    let server = TestServer::start_bots(&db, Limits { review_ms: 200, ..Limits::unlimited() }, Some(1));
    let client = Client::new(&server);
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(finished_game(&client, &[]).await);
    }
    for game in &games[..2] {
        let r = client.post(&format!("/api/games/{game}/review"), &json!({})).await;
        assert_eq!(r.status, 202, "{}", r.body);
    }
    let r = client.post(&format!("/api/games/{}/review", games[2]), &json!({})).await;
    assert_eq!((r.status, r.code()), (429, "reviews_busy"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("2 reviews under way"), "{}", r.body);
}
