//! The HTTP API against a real server on loopback with a real SQLite file.

use crate::common::*;
use carcassonne_engine::Game;
use serde_json::{json, Value};

#[tokio::test]
async fn a_hot_seat_game_is_played_to_the_end_then_listed_replayed_and_downloaded() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);

    let created = client.create(public(two_humans(&["ferries"]))).await;
    let game = created["game"].as_str().unwrap().to_string();
    assert_eq!(game.len(), 16);
    assert_eq!(created["version"], 1);
    let tokens = tokens(&created);
    assert!(tokens.iter().all(|t| t.len() == 32));
    assert_ne!(tokens[0], tokens[1]);
    assert_eq!(created["seats"][0]["link"], format!("/#game={game}&token={}", tokens[0]));

    let view = client.view(&game).await;
    assert_eq!(view["version"], 1);
    assert_eq!(view["status"], "active");
    assert_eq!(view["step"], "place");
    assert_eq!(view["to_act"], 0);
    assert_eq!(view["board"], json!([{"tile": "D", "at": [0, 0], "rot": 0}]));
    assert!(view["drawn"].is_string());
    assert_eq!(view["bag"]["total"], 71 + 8 - 1);
    assert!(view["legal"].as_array().unwrap().iter().all(|a| a["type"] == "place" || a["type"] == "discard"));
    // The view never carries the seed or the bag's order.
    let text = view.to_string();
    assert!(!text.contains("seed"));

    // The join link names the seat.
    let r = client.post(&format!("/api/games/{game}/join"), &json!({"token": tokens[1]})).await;
    assert_eq!((r.status, r.body["seat"].clone(), r.body["name"].clone()), (200, json!(1), json!("Bob")));

    // Hot seat: this one client holds both tokens and plays the game out.
    let mut pick = Pick::new(3);
    let end = play(&client, &game, &tokens, &mut pick, 10_000).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["step"], "game_over");
    assert_eq!(end["to_act"], Value::Null);
    assert_eq!(end["legal"], json!([]));
    let fin = &end["final"];
    assert_eq!(fin["scores"].as_array().unwrap().len(), 2);
    assert!(!fin["winners"].as_array().unwrap().is_empty());
    let log = end["log"].as_array().unwrap();
    assert!(log.iter().any(|e| e["type"] == "scored"));
    assert!(log.iter().any(|e| e["type"] == "game_ended"));

    // Acting on a finished game is refused.
    let r = client.act(&game, 0, &tokens[0], end["version"].as_u64().unwrap(), &json!({"type": "pass"})).await;
    assert_eq!((r.status, r.code()), (409, "game_over"));

    // Listed among the finished games.
    let list = client.get("/api/games?status=finished").await;
    assert_eq!(list.status, 200);
    let listed = list.body["games"].as_array().unwrap();
    let entry = listed.iter().find(|g| g["game"] == game.as_str()).expect("listed");
    assert_eq!(entry["scores"], fin["scores"]);
    assert_eq!(entry["players"], json!(["Ann", "Bob"]));
    let active = client.get("/api/games?status=active").await;
    assert!(active.body["games"].as_array().unwrap().iter().all(|g| g["game"] != game.as_str()));

    // The record: format 1, no seed, and it replays to the same final scores.
    let r = client.http.get(server.url(&format!("/api/games/{game}/record"))).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains("attachment"));
    let text = r.text().await.unwrap();
    assert!(!text.contains("seed"));
    let replayed = Game::from_json(&text).expect("the record replays");
    assert!(replayed.state().is_over());
    assert_eq!(json!(replayed.state().final_scores()), fin["scores"]);

    // A step-by-step replay: any past version, without legal actions.
    let v5 = client.get(&format!("/api/games/{game}/view?version=5")).await;
    assert_eq!((v5.status, v5.body["version"].clone()), (200, json!(5)));
    assert_eq!(v5.body["legal"], json!([]));
    let last = end["version"].as_u64().unwrap();
    let r = client.get(&format!("/api/games/{game}/view?version={}", last + 1)).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let history = client.get(&format!("/api/games/{game}/actions")).await;
    let actions = history.body["actions"].as_array().unwrap();
    assert_eq!(actions.len() as u64, last);
    assert_eq!(actions[0]["action"]["type"], "draw");
    assert_eq!(actions[0]["seat"], Value::Null);
    assert_eq!(actions[1]["seat"], 0);
}

#[tokio::test]
async fn refused_actions_have_typed_errors_and_change_nothing() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client
        .create(json!({"seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "random"}]}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let before = client.view(&game).await;
    let version = before["version"].as_u64().unwrap();
    let good = before["legal"][0].clone();
    let path = format!("/api/games/{game}/actions");

    // Stale version.
    let r = client.act(&game, 0, &tokens[0], version - 1, &good).await;
    assert_eq!((r.status, r.code()), (409, "stale_version"));
    assert_eq!(r.body["error"]["version"], version);
    let r = client.act(&game, 0, &tokens[0], version + 7, &good).await;
    assert_eq!((r.status, r.code()), (409, "stale_version"));
    // Wrong token: another seat's, a made-up one, an empty one.
    for token in [tokens[1].as_str(), "00000000000000000000000000000000", ""] {
        let r = client.act(&game, 0, token, version, &good).await;
        assert_eq!((r.status, r.code()), (403, "wrong_token"), "{token}");
    }
    let r = client.post(&format!("/api/games/{game}/join"), &json!({"token": "nope"})).await;
    assert_eq!((r.status, r.code()), (403, "wrong_token"));
    // A bot's seat, a seat that does not exist, and the wrong turn.
    let r = client.act(&game, 2, &tokens[0], version, &good).await;
    assert_eq!((r.status, r.code()), (403, "bot_seat"));
    let r = client.act(&game, 9, &tokens[0], version, &good).await;
    assert_eq!((r.status, r.code()), (400, "malformed"));
    let r = client.act(&game, 1, &tokens[1], version, &good).await;
    assert_eq!((r.status, r.code()), (409, "not_your_turn"));
    // Illegal: deploying while the tile is to be placed; placing far away.
    let r = client.act(&game, 0, &tokens[0], version, &json!({"type": "deploy", "meeple": "road:E"})).await;
    assert_eq!((r.status, r.code()), (422, "illegal_action"));
    let r = client.act(&game, 0, &tokens[0], version, &json!({"type": "place", "at": [5, 5], "rot": 0})).await;
    assert_eq!((r.status, r.code()), (422, "illegal_action"));
    assert!(r.body["error"]["message"].as_str().unwrap().contains("share an edge"));
    // Malformed: not JSON, wrong shapes, bad notation, a draw.
    let bad_bodies = [
        "{".to_string(),
        "[]".to_string(),
        "null".to_string(),
        json!({"seat": 0, "token": tokens[0], "version": version}).to_string(),
        json!({"seat": -1, "token": tokens[0], "version": version, "action": good}).to_string(),
        json!({"seat": 0, "token": tokens[0], "version": "x", "action": good}).to_string(),
        json!({"seat": 0, "token": tokens[0], "version": version, "action": {"type": "fly"}}).to_string(),
        json!({"seat": 0, "token": tokens[0], "version": version, "action": {"type": "place", "at": [0, 1], "rot": 45}})
            .to_string(),
        json!({"seat": 0, "token": tokens[0], "version": version, "action": {"type": "place", "at": [1e30, 1], "rot": 0}})
            .to_string(),
        json!({"seat": 0, "token": tokens[0], "version": version, "action": {"type": "deploy", "meeple": "road:Q"}})
            .to_string(),
        json!({"seat": 0, "token": tokens[0], "version": version, "action": {"type": "draw", "tile": "C"}}).to_string(),
        "\u{0}\u{1}garbage".to_string(),
    ];
    for body in bad_bodies {
        let r = client.post_raw(&path, body.clone()).await;
        assert_eq!((r.status, r.code()), (400, "malformed"), "{body}: {}", r.body);
    }
    // Too large.
    let r = client.post_raw(&path, vec![b' '; 70 * 1024]).await;
    assert_eq!((r.status, r.code()), (413, "too_large"));
    // Unknown games, ids that are not ids, unknown endpoints.
    for p in ["/api/games/0123456789abcdef", "/api/games/..%2F..%2Fetc", "/api/games/x/record", "/api/nothing"] {
        let r = client.get(p).await;
        assert_eq!((r.status, r.code()), (404, "not_found"), "{p}");
    }
    let r = client.act("0123456789abcdef", 0, &tokens[0], version, &good).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));

    let r = client.http.put(server.url("/api/games")).send().await.unwrap();
    assert_eq!(r.status(), 405);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "method_not_allowed");

    // Nothing changed.
    let after = client.view(&game).await;
    assert_eq!(after, before);

    // And the right action still goes through.
    let r = client.act(&game, 0, &tokens[0], version, &good).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["version"], version + 1);
}

#[tokio::test]
async fn setups_are_checked() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let human = json!({"type": "human"});
    let cases = [
        json!({"seats": []}),
        json!({"seats": [human, human, human, human, human, human]}),
        json!({"seats": [human, human, human, human, human, human, human], "expansions": ["inns"]}),
        json!({"seats": [human, human], "expansions": ["tunnels"]}),
        json!({"seats": [human, human], "expansions": ["ferries", "ferries"]}),
        json!({"seats": [human, human], "edition": "c9"}),
        json!({"seats": [human, {"type": "bot", "level": "godlike"}]}),
        json!({"seats": [human, {"type": "human", "name": "x".repeat(40)}]}),
        json!({"seats": [human, {"type": "human", "name": "a\u{7}b"}]}),
    ];
    for body in cases {
        let r = client.post("/api/games", &body).await;
        assert_eq!((r.status, r.code()), (400, "invalid_setup"), "{body}: {}", r.body);
    }
    let r = client.post("/api/games", &json!({"seats": [human, {"type": "alien"}]})).await;
    assert_eq!((r.status, r.code()), (400, "malformed"));
    let created = client
        .create(json!({"seats": [human, {"type": "bot", "level": "mcts:ms=20"}], "edition": "c2", "expansions": ["ferries"]}))
        .await;
    assert_eq!(created["seats"][1]["type"], "bot");
    assert!(created["seats"][1].get("token").is_none());
    let game = created["game"].as_str().unwrap().to_string();
    let view = client.view(&game).await;
    assert_eq!(view["setup"]["edition"], "c2");
    assert_eq!(view["setup"]["players"], json!(["Player 1", "Bot 2 (mcts:ms=20)"]));
    // The search bot answers a turn.
    let tokens = tokens(&created);
    let mut pick = Pick::new(1);
    let mut v = view;
    while v["turn"] == 0 {
        v = play(&client, &game, &tokens, &mut pick, 1).await;
    }
    let v = client.wait_for(&game, "the search bot's turn", |v| v["turn"] == 2).await;
    assert!(v["log"].as_array().unwrap().iter().any(|e| e["type"] == "tile_placed" && e["seat"] == 1));
}

#[tokio::test]
async fn an_inns_and_cathedrals_game_seats_six_and_deploys_the_big_follower() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let seats: Vec<Value> = (0..6).map(|i| json!({"type": "human", "name": format!("P{i}")})).collect();
    // Six seats need Inns & Cathedrals.
    let r = client.post("/api/games", &json!({"seats": seats, "expansions": ["ferries"]})).await;
    assert_eq!((r.status, r.code()), (400, "invalid_setup"));
    assert!(r.body["error"]["message"].as_str().unwrap().contains("1 to 5 seats"), "{}", r.body);
    let created = client.create(json!({"seats": seats, "expansions": ["ferries", "inns"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let view = client.view(&game).await;
    assert_eq!(view["setup"]["expansions"], json!(["ferries", "inns"]));
    assert_eq!(view["bag"]["total"], 71 + 8 + 18 - 1);
    assert_eq!(
        view["figures"],
        json!([
            {"figure": "normal", "each": 7, "supply": [7, 7, 7, 7, 7, 7]},
            {"figure": "big", "each": 1, "supply": [1, 1, 1, 1, 1, 1]}
        ])
    );
    // Play until a big follower may be deployed on a field (where it stays:
    // a road or city the tile completes would send it back at once), then
    // deploy it (by its fields).
    let mut pick = Pick::new(9);
    let mut v = view;
    let big = loop {
        assert_eq!(v["status"], "active", "no big follower could be deployed in a whole game");
        let legal = v["legal"].as_array().unwrap();
        if let Some(a) = legal.iter().find(|a| a["type"] == "deploy" && a["figure"] == "big" && a["kind"] == "field") {
            break a.clone();
        }
        v = play(&client, &game, &tokens, &mut pick, 1).await;
    };
    assert!(big["text"].as_str().unwrap().starts_with("deploy big on "), "{big}");
    let seat = v["to_act"].as_u64().unwrap() as usize;
    let version = v["version"].as_u64().unwrap();
    let action = json!({"type": "deploy", "meeple": big["meeple"], "figure": "big"});
    let r = client.act(&game, seat, &tokens[seat], version, &action).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = &r.body["view"];
    let at = after["last_placed"]["at"].clone();
    assert!(after["followers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["figure"] == "big" && f["seat"] == seat && f["at"] == at && f["feature"] == big["meeple"]));
    assert_eq!(after["figures"][1]["supply"][seat], 0);
    let deployed = after["log"].as_array().unwrap().iter().rev().find(|e| e["type"] == "follower_deployed").unwrap();
    assert_eq!(deployed["figure"], "big");
    // The record names the figure.
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert!(record.body.to_string().contains("deploy big on"), "{}", record.body);
}

/// Tiles without a river carry no `river` field.
fn only_river_tiles_have_a_river(tiles: &[Value]) -> bool {
    tiles.iter().filter(|t| t["expansion"] != "river").all(|t| t.get("river").is_none())
}

#[tokio::test]
async fn the_catalogue_and_the_ui_are_served() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let r = client.get("/api/tiles").await;
    assert_eq!(r.status, 200);
    let tiles = r.body["tiles"].as_array().unwrap();
    // The base game's, The Ferries', Inns & Cathedrals', Abbey & Mayor's
    // (its abbey too), Traders & Builders', The River's, The Abbot's
    // (its garden tiles) and The Labyrinth's kinds.
    assert_eq!(tiles.len(), 24 + 3 + 17 + 12 + 1 + 24 + 11 + 8 + 1);
    // The River: its edges and the sides its river reaches; D and the
    // spring start games.
    let r4 = tiles.iter().find(|t| t["id"] == "R4").unwrap();
    assert_eq!(
        (r4["edges"].clone(), r4["river"].clone()),
        (json!(["river", "road", "river", "road"]), json!(["N", "S"]))
    );
    let starts: Vec<&Value> = tiles.iter().filter(|t| t["start"] == true).map(|t| &t["id"]).collect();
    assert_eq!(starts, [&json!("D"), &json!("RS")]);
    assert!(only_river_tiles_have_a_river(tiles));
    let c = tiles.iter().find(|t| t["id"] == "C").unwrap();
    assert_eq!(c["features"][0]["pennants"], 1);
    assert_eq!(c["features"][0]["sides"], json!(["N", "E", "S", "W"]));
    assert!(c["features"][0].get("mark").is_none());
    // Inns & Cathedrals: the marks, and the field inside I3 named as the notation names it.
    let i1 = tiles.iter().find(|t| t["id"] == "I1").unwrap();
    assert_eq!((i1["expansion"].clone(), i1["features"][0]["mark"].clone()), (json!("inns"), json!("cathedral")));
    let i15 = tiles.iter().find(|t| t["id"] == "I15").unwrap();
    assert_eq!(i15["features"][0]["kind"], "road");
    assert_eq!(i15["features"][0]["mark"], "inn");
    let i3 = tiles.iter().find(|t| t["id"] == "I3").unwrap();
    let inner = i3["features"].as_array().unwrap().iter().find(|f| f["kind"] == "field").unwrap();
    assert_eq!(inner["name"], "field:inner");

    let r = client.http.get(server.url("/")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(r.text().await.unwrap().to_lowercase().contains("<html"));
    let r = client.http.get(server.url("/no-such-file.js")).send().await.unwrap();
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn bot_seats_play_by_themselves() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);

    // A human against a bot: after each human turn, the bot takes its own.
    let created = client
        .create(json!({"seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "expansions": ["ferries"]}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let mut pick = Pick::new(11);
    // A bot turn for every turn the human hands over (a discard does not:
    // the human draws again).
    let bot_turns = |v: &Value| {
        let log = v["log"].as_array().unwrap();
        log.iter().filter(|e| e["seat"] == 1 && (e["type"] == "tile_placed" || e["type"] == "tile_discarded")).count()
    };
    let mut handed_over = 0;
    for _ in 0..5 {
        let view = client.wait_for(&game, "the human's turn", |v| v["to_act"] == 0 || v["status"] == "finished").await;
        let turn = view["turn"].as_u64().unwrap();
        let mut v = view;
        while v["to_act"] == 0 && v["turn"].as_u64().unwrap() == turn {
            let action = pick.action(&v);
            let r = client.act(&game, 0, &tokens[0], v["version"].as_u64().unwrap(), &action).await;
            assert_eq!(r.status, 200, "{}", r.body);
            v = r.body["view"].clone();
        }
        if v["current"] == 1 {
            handed_over += 1;
        }
    }
    assert!(handed_over > 0, "the human never ended a turn by handing over");
    client.wait_for(&game, "the bot's turns", |v| v["to_act"] == 0 && bot_turns(v) >= handed_over).await;

    // Bots alone play a whole game.
    let created = client
        .create(json!({"seats": [{"type": "bot", "level": "random"}, {"type": "bot", "level": "easy"}], "expansions": ["ferries"]}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let end = client.wait_for(&game, "the bots to finish", |v| v["status"] == "finished").await;
    assert!(end["final"]["scores"].is_array());
}

#[tokio::test]
async fn search_bots_with_turn_budgets_play_a_whole_game() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    // The server keeps a seat's bot across the decisions of its turn, so a
    // turn budget answers the follower and ferry decisions from the search
    // of the placement; every one of them must still be legal, or the
    // server refuses it and the game stalls.
    let seats = json!([{"type": "bot", "level": "mcts:iters=40:per=turn"}, {"type": "bot", "level": "mcts:iters=40"}]);
    let created = client.create(json!({"seats": seats, "expansions": ["ferries"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let end = client.wait_for(&game, "the bots to finish", |v| v["status"] == "finished").await;
    assert_eq!(end["final"]["scores"].as_array().unwrap().len(), 2);
    assert!(end["turn"].as_u64().unwrap() > 70, "a whole game: {}", end["turn"]);
}

/// The record of a game in progress replays: it ends with the drawn tile
/// alone, also in the middle of a turn (the turn shows from its start).
#[tokio::test]
async fn the_record_of_a_game_in_progress_replays_with_its_drawn_tile_waiting() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(two_humans(&["ferries"])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let mut pick = Pick::new(11);
    let mut view = client.view(&game).await;
    let mut checked = [false, false];
    for _ in 0..400 {
        let step = view["step"].as_str().unwrap().to_string();
        if step == "place" || step == "deploy" {
            let r = client.http.get(server.url(&format!("/api/games/{game}/record"))).send().await.unwrap();
            let record = carcassonne_engine::Record::from_json(&r.text().await.unwrap()).unwrap();
            let last = record.turns.last().unwrap();
            assert!(last.is_pending(), "the last entry holds only the tile: {last:?}");
            assert_eq!(view["drawn"], json!(last.tile));
            let replayed = Game::replay(&record).expect("the record of a game in progress replays");
            assert_eq!(replayed.pending_tile().map(|t| t.to_string()), Some(last.tile.clone()));
            let summary = carcassonne_engine::Summary::of(replayed.state());
            assert!(!summary.finished);
            assert_eq!(summary.turns as usize, record.turns.len() - 1);
            assert_eq!(json!(summary.scores), view["scores"]);
            checked[(step == "deploy") as usize] = true;
        }
        if checked == [true, true] {
            break;
        }
        view = play(&client, &game, &tokens, &mut pick, 1).await;
    }
    assert_eq!(checked, [true, true], "checked at the placement and in the middle of a turn");
}

#[tokio::test]
async fn the_tiny_city_variant_is_a_game_option() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let human = json!({"type": "human"});
    let r = client.post("/api/games", &json!({"seats": [human, human], "rules": {"tiny-city-scoring": 3}})).await;
    assert_eq!((r.status, r.code()), (400, "invalid_setup"), "{}", r.body);
    let message = r.body["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("rules: tiny-city-scoring is 4 (standard) or 2"), "{message}");
    let r = client.post("/api/games", &json!({"seats": [human, human], "rules": {"tiny-cities": 2}})).await;
    assert_eq!((r.status, r.code()), (400, "malformed"), "{}", r.body);

    let created =
        client.create(json!({"seats": [human, human], "rules": {"tiny-city-scoring": 2}, "public": true})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let view = client.view(&game).await;
    assert_eq!(view["setup"]["rules"], json!({"tiny-city-scoring": 2}));
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record.body["setup"]["rules"], json!({"tiny-city-scoring": 2}));
    let list = client.get("/api/games").await;
    let listed = list.body["games"].as_array().unwrap().iter().find(|g| g["game"] == game.as_str()).unwrap().clone();
    assert_eq!(listed["rules"], json!({"tiny-city-scoring": 2}));

    // The standard rules say nothing.
    let plain = client.create(json!({"seats": [human, human]})).await;
    let view = client.view(plain["game"].as_str().unwrap()).await;
    assert!(view["setup"].get("rules").is_none(), "{}", view["setup"]);
}

#[tokio::test]
async fn games_are_listed_only_if_their_creator_makes_them_public() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let unlisted = client.create(two_humans(&[])).await;
    assert_eq!(unlisted["public"], false);
    let listed = client.create(public(two_humans(&[]))).await;
    assert_eq!(listed["public"], true);
    let finished = client.create(public(two_humans(&[]))).await;
    let hidden_finished = client.create(two_humans(&[])).await;
    let mut pick = Pick::new(2);
    for g in [&finished, &hidden_finished] {
        let end = play(&client, g["game"].as_str().unwrap(), &tokens(g), &mut pick, 10_000).await;
        assert_eq!(end["status"], "finished");
    }
    let ids = |status: &str| {
        let client = &client;
        let status = status.to_string();
        async move {
            let r = client.get(&format!("/api/games?status={status}")).await;
            assert_eq!(r.status, 200, "{}", r.body);
            r.body["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["game"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    let id = |g: &Value| g["game"].as_str().unwrap().to_string();
    assert_eq!(ids("active").await, vec![id(&listed)]);
    assert_eq!(ids("finished").await, vec![id(&finished)]);
    assert_eq!(ids("all").await.len(), 2);
    // An unlisted game's links still work: the spectator link is its id.
    let view = client.view(&id(&unlisted)).await;
    assert_eq!(view["status"], "active");
    assert_eq!(unlisted["spectate"], format!("/#game={}", id(&unlisted)));
    assert_eq!(client.view(&id(&hidden_finished)).await["status"], "finished");
    // Ids are 64 random bits: another one finds nothing.
    let r = client.get("/api/games/0123456789abcdef").await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
}

#[tokio::test]
async fn seat_names_are_tidied_and_disguises_and_twins_refused() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let seats = |a: &str, b: &str| json!({"seats": [{"type": "human", "name": a}, {"type": "human", "name": b}]});
    for (a, b, why) in [
        ("Ann\u{202e}nmoB", "Bob", "bidirectional"),
        ("Ann", "B\u{200b}ob", "zero-width"),
        ("Ann\u{2028}", "Bob", "line breaks"),
        ("Ann", "Bob\u{1b}[31m", "control"),
        ("Ann", "ann", "same name"),
        ("Player 2", "", "same name"),
        (&"x".repeat(33), "Bob", "at most 32"),
    ] {
        let r = client.post("/api/games", &seats(a, b)).await;
        assert_eq!((r.status, r.code()), (400, "invalid_setup"), "{a:?} {b:?}: {}", r.body);
        let message = r.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{a:?} {b:?}: {message}");
    }
    let created = client.create(seats("  Ann \u{3000} Lee ", "Jose\u{301}")).await;
    let view = client.view(created["game"].as_str().unwrap()).await;
    assert_eq!(view["setup"]["players"], json!(["Ann Lee", "José"]));
}

#[tokio::test]
async fn bot_budgets_above_the_servers_maximum_are_refused() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let with = |level: &str| json!({"seats": [{"type": "human"}, {"type": "bot", "level": level}]});
    for level in ["mcts:ms=99999999", "mcts:ms=5001:per=turn", "mcts:iters=50001", "mcts:ms=100:trees=8"] {
        let r = client.post("/api/games", &with(level)).await;
        assert_eq!((r.status, r.code()), (400, "bot_budget"), "{level}: {}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains("this server"), "{}", r.body);
    }
    // At the maximum, and shown as asked.
    let created = client.create(with("mcts:ms=5000")).await;
    assert_eq!(created["seats"][1]["level"], "mcts:ms=5000");
}

/// One seat is a solo game: every turn is that seat's, to the end of the
/// bag; its record replays as a solo game. A bot plays one by itself too.
#[tokio::test]
async fn a_solo_game_has_one_seat_that_takes_every_turn() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(json!({"seats": [{"type": "human", "name": "Sol"}], "expansions": ["ferries"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    assert_eq!(tokens.len(), 1);
    let mut pick = Pick::new(5);
    let end = play(&client, &game, &tokens, &mut pick, 10_000).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["final"]["scores"].as_array().unwrap().len(), 1);
    assert_eq!(end["final"]["winners"], json!([0]));
    let log = end["log"].as_array().unwrap();
    assert!(log.iter().filter(|e| e["type"] == "tile_placed").all(|e| e["seat"] == 0));
    let text = client.http.get(server.url(&format!("/api/games/{game}/record"))).send().await.unwrap();
    let replayed = Game::from_json(&text.text().await.unwrap()).expect("the record replays");
    assert_eq!(replayed.players(), ["Sol"]);
    assert!(replayed.state().is_over());
    assert_eq!(json!(replayed.state().final_scores()), end["final"]["scores"]);

    let bot = client.create(json!({"seats": [{"type": "bot", "level": "easy"}]})).await;
    let game = bot["game"].as_str().unwrap().to_string();
    let end = client.wait_for(&game, "the bot to finish", |v| v["status"] == "finished").await;
    assert!(end["final"]["scores"][0].as_u64().unwrap() > 0, "{}", end["final"]);
}
