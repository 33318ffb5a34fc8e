//! The lobby (docs/api.md, Lobby): open tables listed with their options
//! and players' ratings, seats taken by signed-in players, the last seat
//! starting the game with every seat bound and named; leaving and closing;
//! quick match pairing close ratings only, and a bot of the nearest level
//! after the chosen wait; bad requests refused without a change.

use crate::common::*;
use serde_json::{json, Value};

async fn signed(server: &TestServer, name: &str) -> Browser {
    let mut b = Browser::new(server);
    assert_eq!(b.register(name, PASSWORD).await.status, 201);
    b
}

fn names(view: &Value) -> Vec<String> {
    view["seats"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_table_fills_and_starts_its_game_with_every_seat_bound() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = signed(&server, "Ann").await;
    let mut bob = signed(&server, "Bob").await;
    let mut cy = signed(&server, "Cy").await;
    let setup = json!({"humans": 2, "bots": ["easy"], "expansions": ["ferries"], "rated": true, "undo": true});
    let opened = ann.post("/api/lobby", &setup).await;
    assert_eq!(opened.status, 201, "{}", opened.body);
    let table = opened.body["table"].as_str().unwrap().to_string();
    assert_eq!((opened.body["status"].clone(), opened.body["humans"].clone()), (json!("open"), json!(2)));

    // Anyone sees it in the lobby, with its options and who waits there.
    let client = Client::new(&server);
    let lobby = client.get("/api/lobby").await.body;
    let listed = &lobby["tables"][0];
    assert_eq!(listed["table"], json!(table));
    assert_eq!(
        (listed["setup"]["expansions"].clone(), listed["setup"]["rated"].clone()),
        (json!(["ferries"]), json!(true))
    );
    assert_eq!(listed["players"], json!([{"seat": 0, "name": "Ann", "rating": null}]));

    let joined = bob.post(&format!("/api/lobby/{table}/join"), &json!({})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.body["status"], "started");
    let game = joined.body["game"].as_str().unwrap().to_string();
    let view = client.view(&game).await;
    let mut seated = names(&view);
    seated.sort();
    assert_eq!(seated, ["Ann", "Bob", "Bot 3 (easy)"], "named after the accounts");
    assert_eq!((view["rated"].clone(), view["setup"]["expansions"].clone()), (json!(true), json!(["ferries"])));
    // Each player's seat is its account's, found by the table too.
    let bob_seat = joined.body["seat"].as_u64().unwrap() as usize;
    assert_eq!(names(&view)[bob_seat], "Bob");
    let ann_seat = ann.get(&format!("/api/lobby/{table}")).await.body["seat"].as_u64().unwrap() as usize;
    assert_eq!(names(&view)[ann_seat], "Ann");
    assert_eq!(ann.me().await.body["games"][0]["mine"], json!([ann_seat]));
    // A spectator sees the table but no seat of its.
    assert_eq!(client.get(&format!("/api/lobby/{table}")).await.body.get("seat"), None);

    // Full and started: no seat for Cy, and the lobby no longer lists it.
    assert_refused(&cy.post(&format!("/api/lobby/{table}/join"), &json!({})).await, 409, "table_closed");
    assert_eq!(client.get("/api/lobby").await.body["tables"], json!([]));
    // Joining again is no new seat.
    let again = bob.post(&format!("/api/lobby/{table}/join"), &json!({})).await;
    assert_eq!((again.status, again.body["game"].clone()), (200, json!(game)));
}

#[tokio::test]
async fn players_leave_a_table_and_its_creator_closes_it() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = signed(&server, "Ann").await;
    let mut bob = signed(&server, "Bob").await;
    let opened = ann.post("/api/lobby", &json!({"humans": 3})).await;
    let table = opened.body["table"].as_str().unwrap().to_string();
    let joined = bob.post(&format!("/api/lobby/{table}/join"), &json!({})).await;
    assert_eq!(
        (joined.body["status"].clone(), joined.body["players"][1]["name"].clone()),
        (json!("open"), json!("Bob"))
    );
    let left = bob.post(&format!("/api/lobby/{table}/leave"), &json!({})).await;
    assert_eq!(left.body["left"], "freed");
    assert_eq!(
        Client::new(&server).get(&format!("/api/lobby/{table}")).await.body["players"].as_array().unwrap().len(),
        1
    );
    assert_eq!(bob.post(&format!("/api/lobby/{table}/leave"), &json!({})).await.body["left"], "nothing");
    assert_eq!(ann.post(&format!("/api/lobby/{table}/leave"), &json!({})).await.body["left"], "closed");
    assert_refused(&bob.post(&format!("/api/lobby/{table}/join"), &json!({})).await, 409, "table_closed");
    let t = Client::new(&server).get(&format!("/api/lobby/{table}")).await.body;
    assert_eq!((t["status"].clone(), t.get("game")), (json!("closed"), None));
}

#[tokio::test]
async fn quick_match_pairs_close_ratings_and_gives_a_bot_after_the_wait() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = signed(&server, "Ann").await;
    let mut bob = signed(&server, "Bob").await;
    let mut cy = signed(&server, "Cy").await;
    let mut dan = signed(&server, "Dan").await;

    // Ann waits; asking again is the same table; Bob, as new as she, takes the seat.
    let waiting = ann.post("/api/quick-match", &json!({"expansions": ["ferries"]})).await;
    assert_eq!(waiting.status, 200, "{}", waiting.body);
    assert_eq!((waiting.body["status"].clone(), waiting.body["quick"].clone()), (json!("open"), json!(true)));
    let again = ann.post("/api/quick-match", &json!({"expansions": ["ferries"]})).await;
    assert_eq!(again.body["table"], waiting.body["table"]);
    assert_eq!(Client::new(&server).get("/api/lobby").await.body["tables"], json!([]), "not listed");
    // Other options: no match.
    let other = bob.post("/api/quick-match", &json!({})).await;
    assert_eq!(other.body["status"], "open");
    assert_eq!(bob.send("DELETE", "/api/quick-match", None, &[]).await.body["cancelled"], true);
    // The same options: the default edition named is the same as none named.
    let paired = bob.post("/api/quick-match", &json!({"expansions": ["ferries"], "edition": "c3"})).await;
    assert_eq!(paired.body["table"], waiting.body["table"], "{}", paired.body);
    assert_eq!(paired.body["status"], "started");
    let game = paired.body["game"].as_str().unwrap().to_string();
    let mine = ann.get("/api/quick-match").await.body;
    assert_eq!((mine["table"]["game"].clone(), mine["table"]["status"].clone()), (json!(game), json!("started")));
    let view = Client::new(&server).view(&game).await;
    assert_eq!(view["rated"], true);
    assert_eq!(names(&view)[mine["table"]["seat"].as_u64().unwrap() as usize], "Ann");

    // Two who asked at the same moment, each at a table of their own: the
    // later one, looking again, takes the earlier one's seat.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let early = dan.post("/api/quick-match", &json!({})).await.body;
    let (setup, cy_id): (String, i64) = conn
        .query_row(
            "SELECT t.setup, (SELECT id FROM accounts WHERE name = 'Cy') FROM tables t WHERE t.id = ?1",
            [early["table"].as_str().unwrap()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO tables (id, created, updated, creator, setup, humans, quick, rating, status)
         VALUES ('00000000000000cc', ?1, ?1, ?2, ?3, 2, 1, 1500, 'open')",
        rusqlite::params![early["created"].as_i64().unwrap() + 1, cy_id, setup],
    )
    .unwrap();
    conn.execute("INSERT INTO table_seats (tbl, seat, account, joined) VALUES ('00000000000000cc', 0, ?1, 0)", [cy_id])
        .unwrap();
    let looked = cy.get("/api/quick-match").await.body;
    assert_eq!(
        (looked["table"]["table"].clone(), looked["table"]["status"].clone()),
        (early["table"].clone(), json!("started"))
    );
    assert_eq!(Client::new(&server).get("/api/lobby/00000000000000cc").await.body["status"], "closed");
    assert_eq!(dan.get("/api/quick-match").await.body["table"]["game"], looked["table"]["game"]);

    // A rating far from the waiting player's is not paired at once.
    conn.execute(
        "INSERT INTO ratings (entity, rating, deviation, volatility, games, updated) VALUES (?1, 2100, 60, 0.06, 40, 1)",
        [format!("account:{cy_id}")],
    )
    .unwrap();
    let d = dan.post("/api/quick-match", &json!({})).await.body;
    let c = cy.post("/api/quick-match", &json!({})).await.body;
    assert_ne!(c["table"], d["table"], "2100 against 1500: too far");
    assert_eq!(c["status"], "open");
    assert_eq!(cy.send("DELETE", "/api/quick-match", None, &[]).await.body["cancelled"], true);

    // Dan chose to wait no time for a bot: his next look finds a rated
    // game against the level nearest to 1500, medium.
    assert_eq!(dan.send("DELETE", "/api/quick-match", None, &[]).await.body["cancelled"], true);
    let asked = dan.post("/api/quick-match", &json!({"bot_after": 0})).await.body;
    assert_eq!(asked["status"], "open");
    let now = dan.get("/api/quick-match").await.body;
    assert_eq!(now["table"]["status"], "started", "{now}");
    let view = Client::new(&server).view(now["table"]["game"].as_str().unwrap()).await;
    let mut seated = names(&view);
    seated.sort();
    assert!(seated[0].ends_with("(medium)") && seated[1] == "Dan", "{seated:?}");
    // Cy, at 2100, meets expert (1859), the level nearest to him.
    cy.post("/api/quick-match", &json!({"bot_after": 0})).await;
    let c = cy.get("/api/quick-match").await.body;
    let view = Client::new(&server).view(c["table"]["game"].as_str().unwrap()).await;
    assert!(names(&view).iter().any(|n| n.ends_with("(expert)")), "{:?}", names(&view));
}

#[tokio::test]
async fn bad_lobby_requests_are_refused_without_a_change() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = signed(&server, "Ann").await;
    let mut nobody = Browser::new(&server);
    assert_refused(&nobody.post("/api/lobby", &json!({"humans": 2})).await, 401, "not_signed_in");
    assert_refused(&nobody.post("/api/quick-match", &json!({})).await, 401, "not_signed_in");
    assert_refused(&nobody.get("/api/quick-match").await, 401, "not_signed_in");
    for (setup, code) in [
        (json!({"humans": 1}), "invalid_setup"),
        (json!({"humans": 7}), "invalid_setup"),
        (json!({"humans": 2, "expansions": ["dragons"]}), "invalid_setup"),
        (json!({"humans": 2, "bots": ["hard", "hard"], "rated": true}), "invalid_setup"),
        (json!({"humans": 2, "bots": ["mcts:iters=10"], "rated": true}), "invalid_setup"),
        (json!({"humans": 2, "bots": ["mcts:ms=99999999"]}), "bot_budget"),
        (json!({"humans": 2, "hints": true}), "malformed"),
        (json!({"humans": "two"}), "malformed"),
    ] {
        let r = ann.post("/api/lobby", &setup).await;
        assert_eq!(r.body["error"]["code"], code, "{setup}: {}", r.body);
    }
    assert_refused(&ann.post("/api/quick-match", &json!({"bot_after": 99999})).await, 400, "invalid_setup");
    assert_refused(&ann.post("/api/quick-match", &json!({"expansions": ["nope"]})).await, 400, "invalid_setup");
    assert_refused(&ann.post("/api/quick-match", &json!({"humans": 3})).await, 400, "malformed");
    assert_eq!(ann.get("/api/quick-match").await.body, json!({"table": null}), "nothing was queued");
    assert_eq!(Client::new(&server).get("/api/lobby").await.body["tables"], json!([]), "nothing was opened");
    for path in ["/api/lobby/0123456789abcdef/join", "/api/lobby/..%2Fx/join", "/api/lobby/x/leave"] {
        assert_refused(&ann.post(path, &json!({})).await, 404, "not_found");
    }
    assert_refused(&ann.get("/api/lobby/0123456789abcdef").await, 404, "not_found");
    assert_refused(&ann.get("/api/lobby?limit=lots").await, 400, "malformed");
    assert_refused(&ann.get("/api/lobby?sort=new").await, 400, "malformed");
}

#[tokio::test]
async fn a_table_whose_starter_died_is_started_by_the_next_look() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let mut ann = signed(&server, "Ann").await;
    let bob = signed(&server, "Bob").await;
    let opened = ann.post("/api/lobby", &json!({"humans": 2})).await;
    let table = opened.body["table"].as_str().unwrap().to_string();
    // As a server that died between filling the table and creating its game leaves it.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let bob_id: i64 = conn.query_row("SELECT id FROM accounts WHERE name = 'Bob'", [], |r| r.get(0)).unwrap();
    conn.execute(
        "INSERT INTO table_seats (tbl, seat, account, joined) VALUES (?1, 1, ?2, 0)",
        rusqlite::params![table, bob_id],
    )
    .unwrap();
    conn.execute("UPDATE tables SET status = 'starting', updated = 5 WHERE id = ?1", [&table]).unwrap();
    drop(bob);
    let t = Client::new(&server).get(&format!("/api/lobby/{table}")).await.body;
    assert_eq!(t["status"], "started", "{t}");
    let view = Client::new(&server).view(t["game"].as_str().unwrap()).await;
    let mut seated = names(&view);
    seated.sort();
    assert_eq!(seated, ["Ann", "Bob"]);
    // Once: looking again changes nothing.
    let again = Client::new(&server).get(&format!("/api/lobby/{table}")).await.body;
    assert_eq!(again["game"], t["game"]);
}
