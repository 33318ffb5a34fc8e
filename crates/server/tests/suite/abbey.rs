//! Abbey & Mayor through the API: a game is created with it, an abbey is
//! placed in a hole, and a wagon whose feature scored is moved by its
//! owner, out of turn if need be (and by no one else), a bot seat's too.
//! The deals are random (the server keeps its seeds), so the tests steer
//! their seats with the engine towards what they check.

use crate::common::*;
use carcassonne_engine::{Action, Actor, FeatureKind, FollowerKind, Location, State, Step};
use serde_json::{json, Value};

/// How many holes the board has (empty cells with a tile on each side).
fn holes(state: &State) -> usize {
    let b = state.board();
    b.open_cells().iter().filter(|c| c.surrounded()).count()
}

/// The wagon deployments: on a road, city or monastery.
fn wagon_deploy(a: Action) -> bool {
    matches!(a, Action::Deploy(FollowerKind::Wagon, l) if l.kind() != FeatureKind::Field)
}

/// A placement after which a wagon of another seat than the current one
/// is to move.
fn completes_anothers_wagon(state: &State, a: Action) -> bool {
    if !matches!(a, Action::Place(_)) {
        return false;
    }
    let next = after_turn(state, a);
    next.step() == Step::MoveWagon && next.actor() != Some(Actor::Player(state.current_player()))
}

/// Deploys wagons, completes the others' wagons' features, passes abbeys
/// and takes wagons back: a game that comes to a wagon moving out of turn.
fn wagon_hunter(pick: &mut Pick) -> impl FnMut(&State) -> Action + '_ {
    move |state| match state.step() {
        Step::Abbey | Step::MoveWagon => Action::Pass,
        Step::Deploy => state.legal_action_list().into_iter().find(|a| wagon_deploy(*a)).unwrap_or(Action::Pass),
        _ => prefer(state, completes_anothers_wagon, pick),
    }
}

#[tokio::test]
async fn an_abbey_and_mayor_game_is_created_and_an_abbey_placed_in_a_hole() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(json!({"seats": humans(2), "expansions": ["abbey", "ferries"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let view = client.view(&game).await;
    assert_eq!(view["setup"]["expansions"], json!(["abbey", "ferries"]));
    assert_eq!(view["bag"]["total"], 71 + 8 + 12 - 1);
    assert_eq!(view["abbeys"], json!([1, 1]));
    assert_eq!(
        view["figures"],
        json!([
            {"figure": "normal", "each": 7, "supply": [7, 7]},
            {"figure": "mayor", "each": 1, "supply": [1, 1]},
            {"figure": "wagon", "each": 1, "supply": [1, 1]},
            {"figure": "barn", "each": 1, "supply": [1, 1]}
        ])
    );
    // The first turn has no hole to fill: it begins with the draw.
    assert_eq!(view["step"], "place");
    // Place tiles where they make holes, until a turn begins with the abbey.
    let mut pick = Pick::new(3);
    let view = steer(
        &client,
        &game,
        &tokens,
        400,
        |state| match state.step() {
            Step::Place => {
                let before = holes(state);
                prefer(state, |s, a| matches!(a, Action::Place(_)) && holes(&after_turn(s, a)) > before, &mut pick)
            }
            Step::Deploy | Step::MoveWagon | Step::MoveFerries => Action::Pass,
            _ => prefer(state, |_, _| false, &mut pick),
        },
        |v| v["step"] == "abbey",
    )
    .await;
    assert_eq!(view["step"], "abbey", "no turn began with a hole to fill");
    let seat = view["to_act"].as_u64().unwrap() as usize;
    assert_eq!(view["current"], seat);
    assert!(view["drawn"].is_null(), "the abbey comes before the draw");
    // The holes are the legal abbeys, and passing (drawing instead) is offered.
    let state = engine_state(&client, &game).await;
    let legal = view["legal"].as_array().unwrap();
    let abbeys: Vec<&Value> = legal.iter().filter(|a| a["type"] == "abbey").collect();
    assert_eq!(abbeys.len(), holes(&state));
    assert!(legal.iter().any(|a| a["type"] == "pass"));
    let at = abbeys[0]["at"].clone();
    assert!(abbeys[0]["text"].as_str().unwrap().starts_with("abbey at"), "{}", abbeys[0]);
    // Another seat may not place its abbey now.
    let version = view["version"].as_u64().unwrap();
    let r = client.act(&game, 1 - seat, &tokens[1 - seat], version, &json!({"type": "abbey", "at": at})).await;
    assert_eq!((r.status, r.code()), (409, "not_your_turn"));
    // Nor anywhere but in a hole.
    let r = client.act(&game, seat, &tokens[seat], version, &json!({"type": "abbey", "at": [40, 40]})).await;
    assert_eq!((r.status, r.code()), (422, "illegal_action"), "{}", r.body);
    let r = client.act(&game, seat, &tokens[seat], version, &json!({"type": "abbey", "at": at})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = &r.body["view"];
    assert!(after["board"].as_array().unwrap().iter().any(|t| t["tile"] == "AB" && t["at"] == at));
    assert_eq!(after["last_placed"]["tile"], "AB");
    assert_eq!(after["abbeys"][seat], 0);
    assert_eq!(after["abbeys"][1 - seat], 1);
    let placed = after["log"].as_array().unwrap().iter().rev().find(|e| e["type"] == "tile_placed").unwrap();
    assert_eq!(
        (placed["tile"].clone(), placed["at"].clone(), placed["seat"].clone()),
        (json!("AB"), at.clone(), json!(seat))
    );
    // The turn goes on as after placing a tile: a monk may go on the abbey.
    if after["step"] == "deploy" {
        assert!(after["legal"].as_array().unwrap().iter().any(|a| a["type"] == "deploy" && a["meeple"] == "monastery"));
    }
    // The record has it.
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert!(record.body.to_string().contains("abbey at"), "{}", record.body);
}

#[tokio::test]
async fn a_wagon_moves_out_of_turn_by_its_owner_and_no_one_else() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut found = None;
    for attempt in 0..3u64 {
        let created = client.create(json!({"seats": humans(3), "expansions": ["abbey", "ferries"]})).await;
        let game = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let mut pick = Pick::new(11 + attempt);
        let view = steer(&client, &game, &tokens, 2000, wagon_hunter(&mut pick), |v| {
            v["step"] == "move_wagon" && v["to_act"] != v["current"]
        })
        .await;
        if view["step"] == "move_wagon" {
            found = Some((game, tokens, view));
            break;
        }
    }
    let (game, tokens, view) = found.expect("no wagon had to move out of turn in three games");
    let owner = view["to_act"].as_u64().unwrap() as usize;
    let current = view["current"].as_u64().unwrap() as usize;
    assert_ne!(owner, current);
    // The wagon waits where it stood, its owner's; the targets are legal actions.
    let waiting = &view["waiting_wagons"][0];
    assert_eq!(waiting["seat"], owner);
    assert!(waiting["piece"].is_u64() && waiting["kind"] != "field", "{waiting}");
    let legal = view["legal"].as_array().unwrap();
    let moves: Vec<&Value> = legal.iter().filter(|a| a["type"] == "wagon").collect();
    assert!(!moves.is_empty() && legal.iter().any(|a| a["type"] == "pass"));
    for m in &moves {
        let (from, to) = (&waiting["at"], &m["at"]);
        let near = (0..2).all(|i| (from[i].as_i64().unwrap() - to[i].as_i64().unwrap()).abs() <= 1);
        assert!(near && m["piece"].is_u64() && m["kind"] != "field", "{m} from {waiting}");
    }
    let version = view["version"].as_u64().unwrap();
    let target = moves[0];
    let action = json!({"type": "wagon", "at": target["at"], "to": target["to"]});
    // Neither the current player nor a third seat may move it, nor the
    // owner with another seat's token.
    let third = (0..3).find(|s| *s != owner && *s != current).unwrap();
    for seat in [current, third] {
        let r = client.act(&game, seat, &tokens[seat], version, &action).await;
        assert_eq!((r.status, r.code()), (409, "not_your_turn"), "seat {seat}: {}", r.body);
    }
    let r = client.act(&game, owner, &tokens[current], version, &action).await;
    assert_eq!((r.status, r.code()), (403, "wrong_token"));
    assert_eq!(client.view(&game).await["version"], version);
    // Its owner moves it.
    let r = client.act(&game, owner, &tokens[owner], version, &action).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = &r.body["view"];
    let to_feature = target["to"].as_str().unwrap();
    assert!(after["followers"].as_array().unwrap().iter().any(|f| f["figure"] == "wagon"
        && f["seat"] == owner
        && f["at"] == target["at"]
        && f["feature"] == to_feature));
    let moved = after["log"].as_array().unwrap().iter().rev().find(|e| e["type"] == "wagon_moved").unwrap();
    assert_eq!(
        (
            moved["seat"].clone(),
            moved["from"].clone(),
            moved["from_feature"].clone(),
            moved["at"].clone(),
            moved["feature"].clone()
        ),
        (json!(owner), waiting["at"].clone(), waiting["feature"].clone(), target["at"].clone(), json!(to_feature))
    );
    // The history names the owner as the one who moved it.
    let history = client.get(&format!("/api/games/{game}/actions")).await;
    let entry = &history.body["actions"][version as usize];
    assert_eq!((entry["seat"].clone(), entry["action"]["type"].clone()), (json!(owner), json!("wagon")));
}

#[tokio::test]
async fn a_bot_seat_moves_its_wagon_when_its_feature_scores_in_anothers_turn() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut done = false;
    for attempt in 0..4u64 {
        let created = client
            .create(json!({"seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "expansions": ["abbey"]}))
            .await;
        let game = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let mut pick = Pick::new(5 + attempt);
        // The human completes the bot's wagon's feature when it can, until
        // the bot has a wagon to move.
        let mut hunter = wagon_hunter(&mut pick);
        let mut before = 0;
        loop {
            let v = client.wait_for(&game, "the human's turn", |v| v["to_act"] == 0 || v["status"] == "finished").await;
            if v["status"] == "finished" {
                break;
            }
            let v = steer(&client, &game, &tokens, 1, &mut hunter, |_| false).await;
            if v["step"] == "move_wagon" && v["to_act"] == 1 {
                before = v["version"].as_u64().unwrap();
                break;
            }
        }
        if before == 0 {
            continue;
        }
        // The bot decides at once, out of turn: a move or taking it back.
        let v = client.wait_for(&game, "the bot's wagon", |v| v["version"].as_u64().unwrap() > before).await;
        let history = client.get(&format!("/api/games/{game}/actions")).await;
        let entry = &history.body["actions"][before as usize];
        assert_eq!(entry["seat"], 1, "{entry}");
        let kind = entry["action"]["type"].as_str().unwrap();
        assert!(kind == "wagon" || kind == "pass", "{entry}");
        let log = v["log"].as_array().unwrap();
        let told = log.iter().any(|e| {
            e["version"] == before + 1
                && e["seat"] == 1
                && (e["type"] == "wagon_moved" || (e["type"] == "follower_returned" && kind == "pass"))
        });
        assert!(told, "the log tells of the bot's wagon at version {}", before + 1);
        // It was the human's turn all along.
        assert_eq!(client.get(&format!("/api/games/{game}/view?version={before}")).await.body["current"], 0);
        done = true;
        break;
    }
    assert!(done, "the bot never had a wagon to move in four games");
}

#[tokio::test]
async fn provisional_turns_end_where_a_wagons_owner_decides_and_that_decision_is_final() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    for attempt in 0..4u64 {
        let created = client.create(json!({"seats": humans(3), "expansions": ["abbey"], "undo": true})).await;
        let game = created["game"].as_str().unwrap().to_string();
        let tokens = tokens(&created);
        let mut pick = Pick::new(21 + attempt);
        let mut hunter = wagon_hunter(&mut pick);
        for _ in 0..400 {
            let view = client.view(&game).await;
            if view["status"] == "finished" {
                break;
            }
            let seat = view["to_act"].as_u64().unwrap() as usize;
            let state = engine_state(&client, &game).await;
            let version = view["version"].as_u64().unwrap();
            if state.step() == Step::Abbey {
                // Passing the abbey draws at once: final, no end of turn.
                let r = client.act(&game, seat, &tokens[seat], version, &json!("pass")).await;
                assert_eq!(r.status, 200, "{}", r.body);
                assert!(r.body["view"].get("undoable").is_none(), "{}", r.body["view"]);
                // (With tiles left, the draw follows.)
                let drawn = u64::from(view["bag"]["total"].as_u64().unwrap() > 0);
                assert_eq!(client.view(&game).await["version"], version + 1 + drawn);
                continue;
            }
            // Play the turn provisionally, on the engine's copy alongside.
            let mut mine = state.clone();
            let mut v = view.clone();
            let mut played = 0;
            while mine.actor() == Some(Actor::Player(seat)) && !matches!(mine.step(), Step::Draw) {
                let a = hunter(&mine);
                let r =
                    client.act(&game, seat, &tokens[seat], v["version"].as_u64().unwrap(), &json!(a.to_string())).await;
                assert_eq!(r.status, 200, "{a}: {}", r.body);
                v = r.body["view"].clone();
                mine.play(a).unwrap();
                played += 1;
            }
            if v.get("undoable").is_none() {
                // A discard: final at once, and the seat draws again.
                continue;
            }
            // The seat's own view: the turn waits to be ended, even when
            // another seat (a wagon's owner) decides next.
            assert_eq!(
                (v["step"].clone(), v["to_act"].clone(), v["undoable"].clone()),
                (json!("end_turn"), json!(seat), json!(played))
            );
            let out_of_turn = mine.step() == Step::MoveWagon;
            let r = client
                .act(&game, seat, &tokens[seat], v["version"].as_u64().unwrap(), &json!({"type": "end_turn"}))
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            if !out_of_turn {
                continue;
            }
            let v = &r.body["view"];
            let owner = v["to_act"].as_u64().unwrap() as usize;
            assert_ne!(owner, seat);
            assert_eq!((v["step"].clone(), v["current"].clone()), (json!("move_wagon"), json!(seat)));
            assert_eq!(client.view(&game).await["version"], v["version"], "everyone sees the ended turn");
            // The owner's decision is final at once: everyone sees it, a draw follows.
            let version = v["version"].as_u64().unwrap();
            let r = client.act(&game, owner, &tokens[owner], version, &json!("pass")).await;
            assert_eq!(r.status, 200, "{}", r.body);
            assert!(r.body["view"].get("undoable").is_none(), "{}", r.body["view"]);
            let public = client.view(&game).await;
            assert_eq!(public["version"], r.body["version"], "everyone sees it");
            // Another wagon moves, or the next turn begins: its abbey, or the tile drawn for it.
            if public["step"] == "move_wagon" {
                assert_eq!(public["current"], seat);
            } else {
                assert!(public["step"] == "abbey" || public["step"] == "place", "{}", public["step"]);
                assert_ne!(public["current"], seat);
            }
            assert!(public["log"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["version"] == version + 1 && e["type"] == "follower_returned" && e["seat"] == owner));
            return;
        }
    }
    panic!("no wagon had to move out of turn in four games");
}

/// A barn is shown on its corner.
#[tokio::test]
async fn a_barn_stands_on_its_corner_in_the_view() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(json!({"seats": humans(2), "expansions": ["abbey"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let mut pick = Pick::new(8);
    let barn = |a: Action| matches!(a, Action::Deploy(FollowerKind::Barn, Location::Corner(_)));
    let view = steer(
        &client,
        &game,
        &tokens,
        1000,
        |state| match state.step() {
            Step::Deploy => {
                let legal = state.legal_action_list();
                legal.iter().copied().find(|a| barn(*a)).unwrap_or(Action::Pass)
            }
            Step::Abbey | Step::MoveWagon => Action::Pass,
            // Where a barn may go next.
            _ => prefer(
                state,
                |s, a| {
                    let mut next = s.clone();
                    matches!(a, Action::Place(_))
                        && next.play(a).is_ok()
                        && next.legal_action_list().into_iter().any(barn)
                },
                &mut pick,
            ),
        },
        |v| v["followers"].as_array().is_some_and(|f| f.iter().any(|f| f["figure"] == "barn")),
    )
    .await;
    let barn = view["followers"].as_array().unwrap().iter().find(|f| f["figure"] == "barn").expect("a barn in a game");
    let corner = barn["feature"].as_str().unwrap();
    assert!(["corner:NW", "corner:NE", "corner:SE", "corner:SW"].contains(&corner), "{barn}");
    assert_eq!(barn["kind"], "field");
    let deployed = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "follower_deployed" && e["figure"] == "barn")
        .unwrap();
    assert_eq!((deployed["feature"].clone(), deployed["at"].clone()), (json!(corner), barn["at"].clone()));
}
