//! Traders & Builders through the API: a game is created with it, the
//! builder is deployed on the player's road, a tile extending that road
//! gives the same seat a second turn (and no one else may act then), the
//! goods a completed city gives show in the view, a provisional turn ends
//! where the second one would begin, and bots play whole games. The deals
//! are random (the server keeps its seeds), so the tests steer their seats
//! with the engine towards what they check.

use crate::common::*;
use carcassonne_engine::{Action, Step};
use serde_json::{json, Value};

fn log_of(view: &Value) -> &Vec<Value> {
    view["log"].as_array().unwrap()
}

/// The goods a view says each seat holds, as `[wine, grain, cloth]`.
fn goods(view: &Value) -> Vec<[u64; 3]> {
    view["goods"]
        .as_array()
        .expect("goods in a T&B view")
        .iter()
        .map(|g| [g["wine"].as_u64().unwrap(), g["grain"].as_u64().unwrap(), g["cloth"].as_u64().unwrap()])
        .collect()
}

#[tokio::test]
async fn a_traders_game_is_created_with_goods_builders_and_pigs_and_takes_six_seats_only_with_inns() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(json!({"seats": humans(2), "expansions": ["traders", "ferries"]})).await;
    let game = created["game"].as_str().unwrap();
    let view = client.view(game).await;
    assert_eq!(view["setup"]["expansions"], json!(["traders", "ferries"]));
    assert_eq!(view["bag"]["total"], 71 + 8 + 24 - 1);
    assert_eq!(view["goods"], json!([{"wine": 0, "grain": 0, "cloth": 0}, {"wine": 0, "grain": 0, "cloth": 0}]));
    assert_eq!(view["second_turn"], false);
    assert_eq!(
        view["figures"],
        json!([
            {"figure": "normal", "each": 7, "supply": [7, 7]},
            {"figure": "builder", "each": 1, "supply": [1, 1]},
            {"figure": "pig", "each": 1, "supply": [1, 1]}
        ])
    );
    // Games without it carry neither field.
    let plain = client.create(two_humans(&["ferries"])).await;
    let v = client.view(plain["game"].as_str().unwrap()).await;
    assert!(v.get("goods").is_none() && v.get("second_turn").is_none(), "{v}");
    // The catalogue draws the goods.
    let cat = client.get("/api/tiles").await.body;
    let t2 = cat["tiles"].as_array().unwrap().iter().find(|t| t["id"] == "T2").unwrap();
    assert_eq!(t2["features"][0]["good"], "wine");
    // 1 to 5 seats, 6 with Inns & Cathedrals.
    let r = client.post("/api/games", &json!({"seats": humans(6), "expansions": ["traders"]})).await;
    assert_eq!((r.status, r.code()), (400, "invalid_setup"), "{}", r.body);
    let six = client.create(json!({"seats": humans(6), "expansions": ["traders", "inns"]})).await;
    assert_eq!(client.view(six["game"].as_str().unwrap()).await["goods"].as_array().unwrap().len(), 6);
}

/// Plays until `stop` holds, with the builder hunter, at most `n` actions.
async fn hunt(
    client: &Client,
    game: &str,
    tokens: &[String],
    seed: u64,
    n: usize,
    stop: impl Fn(&Value) -> bool,
) -> Value {
    let mut pick = Pick::new(seed);
    steer(client, game, tokens, n, builder_hunter(&mut pick), stop).await
}

/// One try at a builder's second turn in a new game: the builder is
/// deployed through the API on its seat's road, then the seats are steered
/// to a tile extending it. Returns the game, its tokens and the view at the
/// second turn; `None` when the deal gave no builder a road, or when the
/// builder's road was finished, or the game, before it earned anything.
async fn a_second_turn_earned(client: &Client, attempt: u64) -> Option<(String, Vec<String>, Value)> {
    let created = client.create(json!({"seats": humans(2), "expansions": ["traders", "ferries"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    // Up to a deploy step where the builder may go.
    let builder_offered = |v: &Value| {
        v["legal"].as_array().is_some_and(|l| l.iter().any(|a| a["type"] == "deploy" && a["figure"] == "builder"))
    };
    let view = hunt(client, &game, &tokens, 40 + attempt, 600, builder_offered).await;
    if !builder_offered(&view) {
        return None;
    }
    let seat = view["to_act"].as_u64().unwrap() as usize;
    let offer = view["legal"].as_array().unwrap().iter().find(|a| a["figure"] == "builder").unwrap().clone();
    assert_eq!(offer["kind"], "road", "the hunter's builder goes on its road: {offer}");
    assert!(offer["piece"].is_u64());
    // Deployed through the API, as the UI sends it.
    let version = view["version"].as_u64().unwrap();
    let action = json!({"type": "deploy", "meeple": offer["meeple"], "figure": "builder"});
    let r = client.act(&game, 1 - seat, &tokens[1 - seat], version, &action).await;
    assert_eq!((r.status, r.code()), (409, "not_your_turn"));
    let r = client.act(&game, seat, &tokens[seat], version, &action).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = &r.body["view"];
    let at = after["last_placed"]["at"].clone();
    assert!(after["followers"].as_array().unwrap().iter().any(|f| f["figure"] == "builder"
        && f["seat"] == seat
        && f["at"] == at
        && f["feature"] == offer["meeple"]
        && f["kind"] == "road"));
    let deployed = log_of(after).iter().rev().find(|e| e["type"] == "follower_deployed").unwrap();
    assert_eq!((deployed["figure"].clone(), deployed["seat"].clone()), (json!("builder"), json!(seat)));
    let builders = after["figures"].as_array().unwrap().iter().find(|f| f["figure"] == "builder").unwrap();
    assert_eq!(builders["supply"][seat], 0);
    // On to a tile extending that road: the same seat plays again.
    let v = hunt(client, &game, &tokens, 7 + attempt, 1200, |v| v["second_turn"] == true || v["status"] == "finished")
        .await;
    (v["second_turn"] == true).then_some((game, tokens, v))
}

#[tokio::test]
async fn a_builder_on_the_players_road_gives_a_second_turn_to_that_seat_alone() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    // The deals are random: a builder's road may be closed or blocked
    // before a tile extends it, so a few games are tried.
    let mut found = None;
    for attempt in 0..6u64 {
        found = a_second_turn_earned(&client, attempt).await;
        if found.is_some() {
            break;
        }
    }
    let (game, tokens, view) = found.expect("no builder earned a second turn in six games");
    let again = view["current"].as_u64().unwrap() as usize;
    assert_eq!((view["to_act"].clone(), view["step"].clone()), (json!(again), json!("place")));
    assert!(view["drawn"].is_string());
    let log = log_of(&view);
    let told = log.iter().rev().find(|e| e["type"] == "second_turn").expect("the log tells of the second turn");
    assert_eq!(told["seat"], again);
    // The turn before it was that seat's too: its tile was placed by it.
    let placed: Vec<&Value> = log.iter().filter(|e| e["type"] == "tile_placed").collect();
    assert_eq!(placed.last().unwrap()["seat"], again);
    assert_eq!(told["turn"], placed.last().unwrap()["turn"]);
    // No one else acts in it.
    let version = view["version"].as_u64().unwrap();
    let other = 1 - again;
    let place = view["legal"].as_array().unwrap().iter().find(|a| a["type"] == "place").unwrap().clone();
    let r = client
        .act(&game, other, &tokens[other], version, &json!({"type": "place", "at": place["at"], "rot": place["rot"]}))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_your_turn"));
    // Its record marks it.
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert!(record.body.to_string().contains("\"second\":true"), "{}", record.body);
    // The second turn is played out as any other: then the other seat's, no third.
    let v = steer(
        &client,
        &game,
        &tokens,
        20,
        // Pass where the step allows it; a ferry to place, say, cannot be passed.
        |s| {
            let legal = s.legal_action_list();
            if s.step() != Step::Place && legal.contains(&Action::Pass) {
                Action::Pass
            } else {
                legal[0]
            }
        },
        |v| v["current"] != again,
    )
    .await;
    assert_eq!(v["second_turn"], false);
    assert!(v["current"] == other || v["status"] == "finished");
}

#[tokio::test]
async fn the_goods_of_a_completed_city_show_in_the_view_and_the_log() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    for attempt in 0..4u64 {
        let created = client.create(json!({"seats": humans(3), "expansions": ["traders"]})).await;
        let game = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let view = hunt(&client, &game, &tokens, 60 + attempt, 800, |v| {
            v["goods"].as_array().is_some_and(|g| g != &vec![json!({"wine": 0, "grain": 0, "cloth": 0}); 3])
        })
        .await;
        if view["status"] == "finished" {
            continue;
        }
        let held = goods(&view);
        let mut told = [[0u64; 3]; 3];
        for e in log_of(&view).iter().filter(|e| e["type"] == "goods_taken") {
            let s = e["seat"].as_u64().unwrap() as usize;
            for (i, g) in ["wine", "grain", "cloth"].iter().enumerate() {
                told[s][i] += e[*g].as_u64().unwrap();
            }
        }
        assert_eq!(held, told.to_vec(), "the view's goods are those the log tells of");
        assert!(held.iter().flatten().sum::<u64>() > 0);
        // Taken by the seat whose turn completed the city (whoever's followers were in it).
        let taken = log_of(&view).iter().find(|e| e["type"] == "goods_taken").unwrap();
        let placed = log_of(&view)
            .iter()
            .rfind(|e| e["type"] == "tile_placed" && e["version"].as_u64() <= taken["version"].as_u64())
            .unwrap();
        assert_eq!((placed["seat"].clone(), placed["turn"].clone()), (taken["seat"].clone(), taken["turn"].clone()));
        return;
    }
    panic!("no city with goods was completed in four games");
}

#[tokio::test]
async fn a_provisional_turn_ends_where_the_second_turn_would_begin() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    for attempt in 0..4u64 {
        let created = client.create(json!({"seats": humans(2), "expansions": ["traders"], "undo": true})).await;
        let game = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let mut pick = Pick::new(90 + attempt);
        let mut hunter = builder_hunter(&mut pick);
        for _ in 0..200 {
            let public = client.view(&game).await;
            if public["status"] == "finished" {
                break;
            }
            let seat = public["to_act"].as_u64().unwrap() as usize;
            let state = engine_state(&client, &game).await;
            // The seat's turn, provisionally, on the engine's copy alongside.
            let mut mine = state.clone();
            let mut v = public.clone();
            let mut played = 0;
            let mut acts = Vec::new();
            let mut earned = false;
            while mine.actor() == Some(carcassonne_engine::Actor::Player(seat)) && mine.turns() == state.turns() {
                let a = hunter(&mine);
                earned |= earns_second_turn(&mine, a);
                let r =
                    client.act(&game, seat, &tokens[seat], v["version"].as_u64().unwrap(), &json!(a.to_string())).await;
                assert_eq!(r.status, 200, "{a}: {}", r.body);
                v = r.body["view"].clone();
                mine.play(a).unwrap();
                acts.push(a);
                played += 1;
            }
            if v.get("undoable").is_none() {
                continue; // a discard: final at once
            }
            assert_eq!((v["step"].clone(), v["undoable"].clone()), (json!("end_turn"), json!(played)));
            if !earned {
                let r =
                    client.act(&game, seat, &tokens[seat], v["version"].as_u64().unwrap(), &json!("end turn")).await;
                assert_eq!(r.status, 200, "{}", r.body);
                continue;
            }
            // Played out: the seat's view says a second turn follows, and
            // waits for the turn to be ended; nothing is drawn yet.
            assert_eq!(
                (v["to_act"].clone(), v["current"].clone(), v["second_turn"].clone()),
                (json!(seat), json!(seat), json!(true))
            );
            assert!(v["drawn"].is_null(), "{v}");
            assert_eq!(v["legal"], json!([{"type": "end_turn", "text": "end turn"}]));
            // Everyone else still sees the turn's start.
            let others = client.view(&game).await;
            assert_eq!(
                (others["version"].clone(), others["second_turn"].clone()),
                (public["version"].clone(), json!(false))
            );
            assert!(!log_of(&others)
                .iter()
                .any(|e| e["type"] == "second_turn" && e["version"].as_u64() > public["version"].as_u64()));
            // Another seat may not act meanwhile.
            let other = 1 - seat;
            let r = client.act(&game, other, &tokens[other], public["version"].as_u64().unwrap(), &json!("pass")).await;
            assert_eq!((r.status, r.code()), (409, "not_your_turn"), "{}", r.body);
            // Undo takes the last decision back: the turn is not over then.
            let version = v["version"].as_u64().unwrap();
            let r = client.act(&game, seat, &tokens[seat], version, &json!("undo")).await;
            assert_eq!(r.status, 200, "{}", r.body);
            let back = r.body["view"].clone();
            assert_ne!(back["step"], "end_turn");
            assert_eq!(back["undoable"], json!(played - 1));
            let r = client.act(&game, seat, &tokens[seat], version - 1, &json!("end turn")).await;
            assert_eq!((r.status, r.code()), (409, "turn_not_over"), "{}", r.body);
            // The same decision again, then the end of the turn.
            let last = acts.last().unwrap();
            let r = client.act(&game, seat, &tokens[seat], version - 1, &json!(last.to_string())).await;
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(
                (r.body["view"]["step"].clone(), r.body["view"]["second_turn"].clone()),
                (json!("end_turn"), json!(true))
            );
            let r = client.act(&game, seat, &tokens[seat], version, &json!({"type": "end_turn"})).await;
            assert_eq!(r.status, 200, "{}", r.body);
            // Now everyone sees it: the seat's second turn, its tile drawn.
            let now = client.view(&game).await;
            assert_eq!(now["version"], r.body["version"]);
            assert_eq!(
                (now["current"].clone(), now["to_act"].clone(), now["step"].clone(), now["second_turn"].clone()),
                (json!(seat), json!(seat), json!("place"), json!(true))
            );
            assert!(now["drawn"].is_string() && now.get("undoable").is_none());
            let told = log_of(&now).iter().rev().find(|e| e["type"] == "second_turn").expect("the log has it");
            assert_eq!(told["seat"], seat);
            let r = client.act(&game, other, &tokens[other], now["version"].as_u64().unwrap(), &json!("pass")).await;
            assert_eq!((r.status, r.code()), (409, "not_your_turn"), "{}", r.body);
            // The second turn is provisional as any other: its first decision is the seat's alone.
            let place = now["legal"].as_array().unwrap().iter().find(|a| a["type"] == "place").unwrap().clone();
            let r = client
                .act(
                    &game,
                    seat,
                    &tokens[seat],
                    now["version"].as_u64().unwrap(),
                    &json!({"type": "place", "at": place["at"], "rot": place["rot"]}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.body["view"]["undoable"], 1);
            assert_eq!(client.view(&game).await["version"], now["version"]);
            return;
        }
    }
    panic!("no second turn was earned in four games");
}

#[tokio::test]
async fn bots_play_whole_traders_and_ferries_games() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut games = Vec::new();
    for level in ["random", "easy"] {
        let seats = vec![json!({"type": "bot", "level": level}); 3];
        let created = client.create(json!({"seats": seats, "expansions": ["traders", "ferries"]})).await;
        games.push(created["game"].as_str().unwrap().to_string());
    }
    for game in &games {
        let v = client.wait_for(game, "the bots to finish", |v| v["status"] == "finished").await;
        assert!(v["final"]["scores"].is_array(), "{}", v["final"]);
        assert_eq!(goods(&v).len(), 3);
        let history = client.get(&format!("/api/games/{game}/actions")).await;
        let deploys =
            history.body["actions"].as_array().unwrap().iter().filter(|a| a["action"]["type"] == "deploy").count();
        assert!(deploys > 0);
        // The record replays.
        let record = client.get(&format!("/api/games/{game}/record")).await;
        assert_eq!(record.status, 200);
    }
    // Over both games, the bots used the T&B figures or took goods.
    let mut used = false;
    for game in &games {
        let v = client.view(game).await;
        used |= log_of(&v).iter().any(|e| {
            e["type"] == "goods_taken"
                || (e["type"] == "follower_deployed" && (e["figure"] == "builder" || e["figure"] == "pig"))
        });
    }
    assert!(used, "the bots played Traders & Builders");
}
