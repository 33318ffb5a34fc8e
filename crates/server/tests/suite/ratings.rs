//! Ratings (docs/api.md, Ratings): rated games against a level and
//! between two accounts move Glicko-2 ratings once, when they end, with
//! the players' pages (rating, history, statistics) and the ratings' list
//! following; a game with a seat no account holds ends unrated; bad
//! requests are refused without a change; an active game shows nowhere;
//! a deleted account's rating and results go with it.

use crate::common::*;
use serde_json::{json, Value};

/// Plays game `game` to its end: the human seats by their tokens, the bots
/// on the server. Returns the final view.
async fn play_out(client: &Client, game: &str, tokens: &[String], seed: u64) -> Value {
    let mut pick = Pick::new(seed);
    loop {
        let view = play(client, game, tokens, &mut pick, 10_000).await;
        if view["status"] == "finished" {
            return view;
        }
        let version = view["version"].as_u64().unwrap();
        client.wait_for(game, "the bot's move", |v| v["version"].as_u64().unwrap() > version).await;
    }
}

fn rated_vs(level: &str) -> Value {
    json!({"seats": [{"type": "human", "mine": true}, {"type": "bot", "level": level}], "rated": true})
}

fn points_sum(stats: &Value) -> u64 {
    ["road", "city", "field", "monastery", "other"].iter().map(|k| stats["points"][k].as_u64().unwrap()).sum()
}

#[tokio::test]
async fn a_rated_game_against_a_level_moves_both_ratings_once_when_it_ends() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let level_before = ann.get("/api/players/beginner").await;
    assert_eq!(level_before.status, 200, "{}", level_before.body);
    assert_eq!(
        (level_before.body["kind"].clone(), level_before.body["rating"]["games"].clone()),
        (json!("level"), json!(0))
    );
    let start = level_before.body["rating"]["rating"].as_f64().unwrap();

    let created = ann.post("/api/games", &rated_vs("beginner")).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.body["game"].as_str().unwrap().to_string();
    let client = Client::new(&server);
    assert_eq!(client.view(&game).await["rated"], true);
    // While it is played, nothing of it shows.
    let page = ann.get("/api/players/ann").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!((page.body["name"].clone(), page.body["rating"].clone()), (json!("Ann"), Value::Null));
    assert_eq!(page.body["stats"]["games"], 0);

    let tokens = tokens(&created.body);
    let end = play_out(&client, &game, &tokens, 3).await;
    let scores: Vec<u64> = end["final"]["scores"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect();
    let won = scores[0] > scores[1];

    let page = ann.get("/api/players/ANN").await.body;
    assert_eq!(page["rating"]["games"], 1, "{page}");
    let rating = page["rating"]["rating"].as_f64().unwrap();
    assert_eq!(rating > 1500.0, won, "{scores:?}: {rating}");
    assert!(page["rating"]["deviation"].as_f64().unwrap() < 350.0);
    assert_eq!(page["rating"]["provisional"], true, "one game is not enough to be sure");
    let history = page["history"].as_array().unwrap();
    assert_eq!((history.len(), history[0]["game"].clone()), (1, json!(game)));
    assert_eq!(history[0]["rating"], page["rating"]["rating"]);
    let stats = &page["stats"];
    assert_eq!((stats["games"].clone(), stats["rated"].clone()), (json!(1), json!(1)));
    assert_eq!(stats["wins"], json!(u32::from(scores[0] >= scores[1])));
    assert_eq!(points_sum(stats), scores[0], "the points by kind add up to the score: {stats}");
    assert_eq!(stats["average_score"].as_f64().unwrap(), scores[0] as f64);
    assert_eq!(stats["average_margin"].as_f64().unwrap(), scores[0] as f64 - scores[1] as f64);
    assert!(stats["followers"].as_u64().unwrap() > 0);

    let level = ann.get("/api/players/beginner").await.body;
    assert_eq!(level["rating"]["games"], 1);
    let moved = level["rating"]["rating"].as_f64().unwrap() - start;
    assert_eq!(moved < 0.0, won, "the level moves the other way: {moved}");
    assert_eq!(points_sum(&level["stats"]), scores[1]);

    let list = ann.get("/api/ratings").await.body;
    assert_eq!(list["players"][0]["name"], "Ann");
    assert_eq!(list["players"].as_array().unwrap().len(), 1);
    let levels: Vec<&str> = list["levels"].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(levels.len(), 5, "every level, rated or not: {levels:?}");
    assert_eq!(levels[0], "expert", "strongest first");

    // Stored once: a restart and the game loaded again change nothing.
    drop(server);
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    assert_eq!(client.view(&game).await["status"], "finished");
    let again = client.get("/api/players/Ann").await.body;
    assert_eq!((again["rating"].clone(), again["stats"]["games"].clone()), (page["rating"].clone(), json!(1)));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: i64 = conn.query_row("SELECT COUNT(*) FROM results WHERE game = ?1", [&game], |r| r.get(0)).unwrap();
    assert_eq!(rows, 2);
}

#[tokio::test]
async fn two_accounts_rate_each_other_and_a_seat_without_one_leaves_the_game_unrated() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut ann = Browser::new(&server);
    let mut bob = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    assert_eq!(bob.register("Bob", PASSWORD).await.status, 201);
    let two = json!({"seats": [{"type": "human", "mine": true}, {"type": "human"}], "rated": true});

    // Bob takes the second seat by its link while signed in.
    let created = ann.post("/api/games", &two).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.body["game"].as_str().unwrap().to_string();
    let seats = tokens(&created.body);
    let joined = bob.post(&format!("/api/games/{game}/join"), &json!({"token": seats[1]})).await;
    assert_eq!((joined.status, joined.body["bound"].clone()), (200, json!(true)), "{}", joined.body);
    let end = play_out(&client, &game, &seats, 11).await;
    let s: Vec<i64> = end["final"]["scores"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    let a = ann.get("/api/players/Ann").await.body;
    let b = ann.get("/api/players/Bob").await.body;
    let (ra, rb) = (a["rating"]["rating"].as_f64().unwrap(), b["rating"]["rating"].as_f64().unwrap());
    match s[0].cmp(&s[1]) {
        std::cmp::Ordering::Greater => assert!(ra > 1500.0 && rb < 1500.0, "{ra} {rb}"),
        std::cmp::Ordering::Less => assert!(ra < 1500.0 && rb > 1500.0, "{ra} {rb}"),
        std::cmp::Ordering::Equal => assert!((ra - 1500.0).abs() < 1e-9),
    }
    assert!((ra - 1500.0 + (rb - 1500.0)).abs() < 1e-6, "equals before: equal and opposite moves");
    assert_eq!(a["stats"]["average_margin"].as_f64().unwrap(), (s[0] - s[1]) as f64);
    assert_eq!(b["stats"]["average_margin"].as_f64().unwrap(), (s[1] - s[0]) as f64);

    // The same with the second seat never taken by an account: unrated,
    // the creator's statistics count it all the same.
    let created = ann.post("/api/games", &two).await;
    let game = created.body["game"].as_str().unwrap().to_string();
    play_out(&client, &game, &tokens(&created.body), 12).await;
    let a2 = ann.get("/api/players/Ann").await.body;
    assert_eq!(a2["rating"]["games"], 1, "{a2}");
    assert_eq!(a2["rating"]["rating"], a["rating"]["rating"], "unmoved");
    assert_eq!((a2["stats"]["games"].clone(), a2["stats"]["rated"].clone()), (json!(2), json!(1)));
    assert_eq!(a2["history"].as_array().unwrap().len(), 1);

    // An unrated game moves nothing either.
    let created = ann
        .post("/api/games", &json!({"seats": [{"type": "human", "mine": true}, {"type": "bot", "level": "easy"}]}))
        .await;
    let game = created.body["game"].as_str().unwrap().to_string();
    assert_eq!(client.view(&game).await.get("rated"), None);
    play_out(&client, &game, &tokens(&created.body), 13).await;
    let a3 = ann.get("/api/players/Ann").await.body;
    assert_eq!((a3["rating"]["games"].clone(), a3["stats"]["games"].clone()), (json!(1), json!(3)));
    assert_eq!(ann.get("/api/players/easy").await.body["rating"]["games"], 0);
}

#[tokio::test]
async fn bad_rated_games_and_page_requests_are_refused_without_a_change() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let mut nobody = Browser::new(&server);
    assert_refused(&nobody.post("/api/games", &rated_vs("easy")).await, 401, "not_signed_in");
    let anonymous = json!({"seats": [{"type": "human"}, {"type": "bot"}], "rated": true});
    assert_refused(&nobody.post("/api/games", &anonymous).await, 400, "invalid_setup");
    for (setup, why) in [
        (anonymous.clone(), "the signed-in creator's"),
        (json!({"seats": [{"type": "human", "mine": true}], "rated": true}), "two seats"),
        (
            json!({"seats": [{"type": "human", "mine": true}, {"type": "bot"}], "rated": true, "hints": true}),
            "no hints",
        ),
        (rated_vs("mcts:iters=10"), "levels of the ladder"),
        (rated_vs("random"), "levels of the ladder"),
        (
            json!({"seats": [{"type": "human", "mine": true}, {"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}], "rated": true}),
            "one seat at most",
        ),
    ] {
        let r = ann.post("/api/games", &setup).await;
        assert_refused(&r, 400, "invalid_setup");
        assert!(r.body["error"]["message"].as_str().unwrap().contains(why), "{why}: {}", r.body);
    }
    let r = ann
        .post("/api/games", &json!({"seats": [{"type": "human", "mine": true}, {"type": "bot"}], "rated": "yes"}))
        .await;
    assert_refused(&r, 400, "malformed");
    assert_eq!(ann.get("/api/me").await.body["games"], json!([]), "nothing was created");

    assert_refused(&ann.get("/api/players/Nobody").await, 404, "not_found");
    assert_refused(&ann.get("/api/players/%00").await, 404, "not_found");
    assert_refused(&ann.get(&format!("/api/players/{}", "x".repeat(5000))).await, 404, "not_found");
    assert_refused(&ann.get("/api/ratings?limit=many").await, 400, "malformed");
    assert_refused(&ann.get("/api/ratings?order=desc").await, 400, "malformed");
    let r = ann.get("/api/ratings?limit=100000").await;
    assert_eq!((r.status, r.body["players"].clone()), (200, json!([])));
}

#[tokio::test]
async fn a_deleted_accounts_rating_and_results_go_with_it_the_levels_stay() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.register("Ann", PASSWORD).await.status, 201);
    let created = ann.post("/api/games", &rated_vs("medium")).await;
    let game = created.body["game"].as_str().unwrap().to_string();
    play_out(&client, &game, &tokens(&created.body), 5).await;
    assert_eq!(ann.get("/api/players/Ann").await.body["stats"]["games"], 1);
    let r = ann.post("/api/me/delete", &json!({"password": PASSWORD})).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_refused(&Browser::new(&server).get("/api/players/Ann").await, 404, "not_found");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mine: i64 = conn.query_row("SELECT COUNT(*) FROM results WHERE account IS NOT NULL", [], |r| r.get(0)).unwrap();
    let ratings: i64 =
        conn.query_row("SELECT COUNT(*) FROM ratings WHERE entity LIKE 'account:%'", [], |r| r.get(0)).unwrap();
    assert_eq!((mine, ratings), (0, 0));
    let level = client.get("/api/players/medium").await.body;
    assert_eq!((level["rating"]["games"].clone(), level["stats"]["games"].clone()), (json!(1), json!(1)));
    assert_eq!(client.get("/api/ratings").await.body["players"], json!([]));
}
