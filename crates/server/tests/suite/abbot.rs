//! The Abbot and The Labyrinth through the API: a game is created with
//! them (and the labyrinth's basic variant), the catalogue has their tiles,
//! and an abbot deployed on a monastery or a garden is taken back at its
//! owner's next deploy step, in the fields form and in the notation, for
//! what its feature is worth; a take-back that is not legal is refused
//! saying why. The deals are random (the server keeps its seeds), so the
//! tests steer their seats with the engine towards what they check.

use crate::common::*;
use carcassonne_engine::{Action, FollowerKind, State, Step};
use serde_json::{json, Value};

/// The Abbot's garden tiles: the base layouts they take a copy of.
const GARDEN_TILES: [(&str, &str); 8] =
    [("EG", "E"), ("HG", "H"), ("IG", "I"), ("MG", "M"), ("NG", "N"), ("RG", "R"), ("UG", "U"), ("VG", "V")];

#[tokio::test]
async fn an_abbot_and_labyrinth_game_is_created_with_their_tiles_and_an_abbot_each() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(json!({"seats": humans(2), "expansions": ["abbot", "labyrinth"]})).await;
    let view = client.view(created["game"].as_str().unwrap()).await;
    assert_eq!(view["setup"]["expansions"], json!(["abbot", "labyrinth"]));
    assert!(view["setup"].get("rules").is_none(), "the standard labyrinth is the default: {}", view["setup"]);
    // Each garden tile takes the place of a plain copy: 72 base tiles and the labyrinth.
    assert_eq!(view["bag"]["total"], 71 + 1 - 1);
    let count = |v: &Value, id: &str| v["bag"]["tiles"][id].as_u64().unwrap_or(0) + u64::from(v["drawn"] == id);
    let base = client.create(json!({"seats": humans(2)})).await;
    let base = client.view(base["game"].as_str().unwrap()).await;
    for (garden, plain) in GARDEN_TILES {
        assert_eq!(count(&view, garden), 1, "{garden}");
        assert_eq!(count(&view, plain), count(&base, plain) - 1, "{garden} takes the place of a copy of {plain}");
    }
    assert_eq!(count(&view, "LA"), 1);
    assert_eq!(
        view["figures"],
        json!([
            {"figure": "normal", "each": 7, "supply": [7, 7]},
            {"figure": "abbot", "each": 1, "supply": [1, 1]}
        ])
    );
    // The labyrinth's basic variant, a rule of The Labyrinth only.
    let basic = client
        .create(json!({"seats": humans(2), "expansions": ["labyrinth"], "rules": {"labyrinth-variant": "basic"}}))
        .await;
    let v = client.view(basic["game"].as_str().unwrap()).await;
    assert_eq!(v["setup"]["rules"], json!({"labyrinth-variant": "basic"}));
    let r = client
        .post(
            "/api/games",
            &json!({"seats": humans(2), "expansions": ["abbot"], "rules": {"labyrinth-variant": "basic"}}),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "invalid_setup"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("labyrinth"), "{}", r.body);
}

#[tokio::test]
async fn the_catalogue_has_the_garden_tiles_and_the_labyrinth() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let cat = client.get("/api/tiles").await.body;
    let tiles = cat["tiles"].as_array().unwrap();
    let tile = |id: &str| tiles.iter().find(|t| t["id"] == id).unwrap_or_else(|| panic!("{id} in the catalogue"));
    let gardens = |t: &Value| -> Vec<Value> {
        t["features"].as_array().unwrap().iter().filter(|f| f["kind"] == "garden").cloned().collect()
    };
    for (garden, plain) in GARDEN_TILES {
        let (g, p) = (tile(garden), tile(plain));
        assert_eq!(g["expansion"], "abbot", "{garden}");
        assert_eq!(g["count"], json!({"c3": 1, "c2": 1}), "{garden}");
        // The same layout as the plain tile, and a garden besides.
        assert_eq!(g["edges"], p["edges"], "{garden}");
        let found = gardens(g);
        assert_eq!(found.len(), 1, "{garden}: {g}");
        let f = &found[0];
        assert_eq!(
            (f["name"].clone(), f["sides"].clone(), f["halves"].clone()),
            (json!("garden"), json!([]), json!([]))
        );
        assert_eq!(f["index"], g["features"].as_array().unwrap().len() - 1, "{garden}: the garden comes last");
        assert!(gardens(p).is_empty(), "{plain} has no garden");
    }
    // The River's bend R9 has one too.
    assert_eq!(gardens(tile("R9")).len(), 1);
    // The labyrinth: one road reaching all four sides, and its four fields.
    let la = tile("LA");
    assert_eq!((la["expansion"].clone(), la["count"].clone()), (json!("labyrinth"), json!({"c3": 1, "c2": 1})));
    assert_eq!(la["edges"], json!(["road", "road", "road", "road"]));
    let roads: Vec<&Value> = la["features"].as_array().unwrap().iter().filter(|f| f["kind"] == "road").collect();
    assert_eq!(roads.len(), 1, "{la}");
    assert_eq!(roads[0]["sides"], json!(["N", "E", "S", "W"]));
    assert_eq!(la["features"].as_array().unwrap().iter().filter(|f| f["kind"] == "field").count(), 4);
}

/// Deploys the abbot wherever it may go (placing tiles where it then may),
/// passes otherwise: a game that comes to an abbot to take back.
fn abbot_hunter(pick: &mut Pick) -> impl FnMut(&State) -> Action + '_ {
    move |state| match state.step() {
        Step::Place => prefer(state, |s, a| then_deploys(s, a, |k, _| k == FollowerKind::Abbot), pick),
        Step::Deploy => state
            .legal_action_list()
            .into_iter()
            .find(|a| deploys(*a, |k, _| k == FollowerKind::Abbot))
            .unwrap_or(Action::Pass),
        _ => prefer(state, |_, _| false, pick),
    }
}

/// The view's legal take-back, if any.
fn take_back(view: &Value) -> Option<Value> {
    view["legal"].as_array()?.iter().find(|a| a["type"] == "return_abbot").cloned()
}

/// What the abbot at `at` scores taken back now: 1 for its tile and 1 for
/// each tile of the board around it.
fn worth(view: &Value, at: &Value) -> u64 {
    let (x, y) = (at[0].as_i64().unwrap(), at[1].as_i64().unwrap());
    let around = view["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            let (tx, ty) = (t["at"][0].as_i64().unwrap(), t["at"][1].as_i64().unwrap());
            (tx - x).abs().max((ty - y).abs()) == 1
        })
        .count();
    1 + around as u64
}

fn message(r: &Reply) -> &str {
    r.body["error"]["message"].as_str().unwrap_or("")
}

/// Checks the view after the acting `seat` took its abbot back from `at`
/// for `points`, its score having been `before`.
fn taken_back(after: &Value, seat: usize, at: &Value, points: u64, before: u64) {
    assert_eq!(after["scores"][seat], before + points, "{}", after["scores"]);
    let log = after["log"].as_array().unwrap();
    let scored = log.iter().rev().find(|e| e["type"] == "scored").unwrap();
    assert!(scored["kind"] == "garden" || scored["kind"] == "monastery", "{scored}");
    assert_eq!(
        (scored["completed"].clone(), scored["end_of_game"].clone(), scored["tiles"].clone()),
        (json!(false), json!(false), json!([at]))
    );
    assert_eq!(scored["points"][seat], points);
    assert_eq!(scored["points"][1 - seat], 0);
    let returned = log.iter().rev().find(|e| e["type"] == "follower_returned").unwrap();
    assert_eq!((returned["seat"].clone(), returned["at"].clone()), (json!(seat), at.clone()));
    assert_eq!(returned["feature"], scored["kind"]);
    assert!(!after["followers"].as_array().unwrap().iter().any(|f| f["figure"] == "abbot" && f["seat"] == seat));
    let abbots = after["figures"].as_array().unwrap().iter().find(|f| f["figure"] == "abbot").unwrap();
    assert_eq!(abbots["supply"][seat], 1, "the abbot is back in the supply");
}

#[tokio::test]
async fn the_abbot_is_taken_back_in_either_form_when_legal_and_refused_saying_why_when_not() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let client = Client::new(&server);
    let created = client.create(json!({"seats": humans(2), "expansions": ["abbot", "labyrinth"]})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    // Not at the place step.
    let view = client.view(&game).await;
    assert_eq!(view["step"], "place");
    let seat = view["to_act"].as_u64().unwrap() as usize;
    let version = view["version"].as_u64().unwrap();
    let r = client.act(&game, seat, &tokens[seat], version, &json!({"type": "return_abbot", "at": [0, 0]})).await;
    assert_eq!((r.status, r.code()), (422, "illegal_action"), "{}", r.body);
    assert!(message(&r).contains("take back an abbot") && message(&r).contains("place"), "{}", r.body);
    // Nor at a deploy step with no abbot there, in either form.
    let mut pick = Pick::new(11);
    let view = steer(&client, &game, &tokens, 10, abbot_hunter(&mut pick), |v| v["step"] == "deploy").await;
    assert_eq!(view["step"], "deploy");
    let seat = view["to_act"].as_u64().unwrap() as usize;
    let version = view["version"].as_u64().unwrap();
    for action in [json!({"type": "return_abbot", "at": [0, 0]}), json!("take back abbot at [0, 0]")] {
        let r = client.act(&game, seat, &tokens[seat], version, &action).await;
        assert_eq!((r.status, r.code()), (422, "illegal_action"), "{action}: {}", r.body);
        assert_eq!(message(&r), "you have no abbot at [0, 0] to take back", "{action}");
    }
    let r = client.act(&game, seat, &tokens[seat], version, &json!("take back abbot")).await;
    assert_eq!((r.status, r.code()), (400, "malformed"), "{}", r.body);

    // Twice an abbot taken back: in the fields form, then in the notation.
    for form in ["fields", "notation"] {
        let mut found = None;
        for _ in 0..3 {
            let v = steer(&client, &game, &tokens, 400, abbot_hunter(&mut pick), |v| {
                take_back(v).is_some() || v["status"] == "finished"
            })
            .await;
            if take_back(&v).is_some() {
                found = Some(v);
                break;
            }
        }
        let view = found.unwrap_or_else(|| panic!("no abbot to take back ({form})"));
        let offer = take_back(&view).unwrap();
        let seat = view["to_act"].as_u64().unwrap() as usize;
        let at = offer["at"].clone();
        assert_eq!(offer["text"], format!("take back abbot at [{}, {}]", at[0], at[1]), "{offer}");
        let abbot = view["followers"].as_array().unwrap().iter().find(|f| f["figure"] == "abbot" && f["seat"] == seat);
        let abbot = abbot.expect("the seat's abbot on the board");
        assert_eq!(abbot["at"], at);
        assert!(abbot["kind"] == "garden" || abbot["kind"] == "monastery", "{abbot}");
        assert_eq!(abbot["feature"], abbot["kind"]);
        // Deploying is still offered beside it, and passing.
        assert!(view["legal"].as_array().unwrap().iter().any(|a| a["type"] == "pass"));
        let version = view["version"].as_u64().unwrap();
        let points = worth(&view, &at);
        let before = view["scores"][seat].as_u64().unwrap();
        // No one else's, and only where the abbot stands.
        let r =
            client.act(&game, 1 - seat, &tokens[1 - seat], version, &json!({"type": "return_abbot", "at": at})).await;
        assert_eq!((r.status, r.code()), (409, "not_your_turn"));
        let elsewhere = json!([at[0].as_i64().unwrap() + 40, at[1]]);
        let r =
            client.act(&game, seat, &tokens[seat], version, &json!({"type": "return_abbot", "at": elsewhere})).await;
        assert_eq!((r.status, r.code()), (422, "illegal_action"), "{}", r.body);
        assert!(message(&r).starts_with("you have no abbot at"), "{}", r.body);
        let action = match form {
            "fields" => json!({"type": "return_abbot", "at": at}),
            _ => json!(offer["text"]),
        };
        let r = client.act(&game, seat, &tokens[seat], version, &action).await;
        assert_eq!(r.status, 200, "{action}: {}", r.body);
        let after = r.body["view"].clone();
        taken_back(&after, seat, &at, points, before);
        // The history tells it in both forms.
        let history = client.get(&format!("/api/games/{game}/actions")).await.body;
        let last = history["actions"].as_array().unwrap().iter().rev().find(|a| a["seat"] == seat).unwrap();
        assert_eq!(last["action"], json!({"type": "return_abbot", "at": at, "text": offer["text"]}));
        // Taken back, it is not there to take back again.
        if after["to_act"] == seat && after["step"] == "deploy" {
            let v = after["version"].as_u64().unwrap();
            let r = client.act(&game, seat, &tokens[seat], v, &json!({"type": "return_abbot", "at": at})).await;
            assert_eq!((r.status, r.code()), (422, "illegal_action"), "{}", r.body);
        }
    }
    let record = client.get(&format!("/api/games/{game}/record")).await;
    assert!(record.body.to_string().contains("take back abbot at"), "{}", record.body);
}
