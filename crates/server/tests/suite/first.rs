//! Who moves first, asked for at creation (`first`): a seat of the request,
//! or one drawn at random; the record's `players` are then in turn order.

use crate::common::*;
use serde_json::{json, Value};

fn names(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().or(s["name"].as_str()).unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_seats_go_round_from_the_one_asked_to_move_first() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client
        .create(json!({"seats": [
            {"type": "human", "name": "Ann", "colour": "green"},
            {"type": "human", "name": "Bob"},
            {"type": "human", "name": "Cid"},
        ], "first": 1}))
        .await;
    // Bob first, then Cid, then Ann: each keeps its name, colour and token.
    assert_eq!(names(&created["seats"]), ["Bob", "Cid", "Ann"]);
    let asked: Vec<u64> = created["seats"].as_array().unwrap().iter().map(|s| s["asked"].as_u64().unwrap()).collect();
    assert_eq!(asked, [1, 2, 0]);
    assert_eq!(created["seats"][2]["colour"], "green");
    let game = created["game"].as_str().unwrap();
    let view = client.view(game).await;
    assert_eq!(view["to_act"], 0);
    assert_eq!(names(&view["setup"]["players"]), ["Bob", "Cid", "Ann"]);
    // The token of the seat listed first plays seat 2 now.
    let ann = created["seats"][2]["token"].as_str().unwrap();
    let joined = client.post(&format!("/api/games/{game}/join"), &json!({ "token": ann })).await;
    assert_eq!(joined.body["seat"], 2);
    // The record says so: its players in turn order, replayable as it is.
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(names(&record.body["setup"]["players"]), ["Bob", "Cid", "Ann"]);
    let replay = client.post("/api/records/view", &json!({ "file": record.body.to_string() })).await;
    assert_eq!(replay.status, 200, "{}", replay.body);

    // Without `first`, or with 0, the order is the request's.
    for first in [Value::Null, json!(0)] {
        let mut setup = json!({"seats": humans(3)});
        if !first.is_null() {
            setup["first"] = first;
        }
        let created = client.create(setup).await;
        assert_eq!(names(&created["seats"]), ["P0", "P1", "P2"]);
    }
}

#[tokio::test]
async fn a_first_seat_that_is_not_there_or_not_a_seat_is_refused_saying_why() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let r = client.post("/api/games", &json!({"seats": humans(2), "first": 2})).await;
    assert_eq!(r.code(), "invalid_setup", "{}", r.body);
    let m = r.body["error"]["message"].as_str().unwrap();
    assert!(m.contains("seat 2") && m.contains("2 seats"), "{m}");
    for bad in [json!("sometimes"), json!(-1), json!(1.5), json!(true)] {
        let r = client.post("/api/games", &json!({"seats": humans(2), "first": bad})).await;
        assert_eq!(r.code(), "malformed", "{bad}: {}", r.body);
        let m = r.body["error"]["message"].as_str().unwrap();
        assert!(m.contains("first") && m.contains("\"random\" or a seat number"), "{bad}: {m}");
    }
}

#[tokio::test]
async fn a_random_first_seat_is_any_seat_and_the_rest_follow_in_order() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let mut firsts = [0usize; 3];
    for _ in 0..30 {
        let created = client.create(json!({"seats": humans(3), "first": "random"})).await;
        let order = names(&created["seats"]);
        let first: usize = order[0][1..].parse().unwrap();
        // Round the table from the one drawn, in the order listed.
        let expect: Vec<String> = (0..3).map(|k| format!("P{}", (first + k) % 3)).collect();
        assert_eq!(order, expect);
        let view = client.view(created["game"].as_str().unwrap()).await;
        assert_eq!(names(&view["setup"]["players"]), expect);
        firsts[first] += 1;
    }
    // Each of three seats is drawn in 30 games (all but certain: 1 - 3·(2/3)^30).
    assert!(firsts.iter().all(|&n| n > 0), "{firsts:?}");
}

/// The draw is uniform: over many seeds each seat moves first about as
/// often, for every number of seats.
#[test]
fn the_draw_is_uniform_over_seeds() {
    for n in 1..=6 {
        let games = 12_000;
        let mut count = vec![0u32; n];
        for seed in 0..games {
            count[carcassonne_server::game::drawn_first(seed, n)] += 1;
        }
        let expect = games as f64 / n as f64;
        // Within 5 standard deviations of a fair draw's count.
        let sd = (expect * (1.0 - 1.0 / n as f64)).sqrt();
        for (seat, &c) in count.iter().enumerate() {
            assert!((c as f64 - expect).abs() <= 5.0 * sd + 1e-9, "{n} seats: seat {seat} first {c} times of {games}");
        }
        // The same seed always draws the same seat.
        assert_eq!(carcassonne_server::game::drawn_first(42, n), carcassonne_server::game::drawn_first(42, n));
    }
}
