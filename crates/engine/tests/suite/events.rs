//! Events report what happened, for logs and user interfaces.

use carcassonne_engine::geometry::{Pos, Side};
use carcassonne_engine::{Event, FeatureKind, Game, JettyPair, Location, Record, Scoring};

fn record(json: &str) -> Record {
    Record::from_json(json).unwrap()
}

#[test]
fn a_completed_city_reports_its_tiles_points_and_returned_follower() {
    // E turned 180 puts its city south, closing D's city to the north: 2 tiles, 4 points.
    let r = record(
        r#"{"format":"carcassonne-record/1","setup":{"players":["A","B"]},
            "turns":[{"tile":"E","at":[0,-1],"rot":180,"meeple":"city:S"}]}"#,
    );
    let mut events = Vec::new();
    Game::replay_with(&r, &mut events).unwrap();
    let scored: Vec<&Scoring> =
        events.iter().filter_map(|e| if let Event::Scored(s) = e { Some(s) } else { None }).collect();
    assert_eq!(scored.len(), 1);
    let s = scored[0];
    assert_eq!(s.kind, FeatureKind::City);
    assert!(s.completed && !s.end_of_game);
    let mut tiles = s.tiles.clone();
    tiles.sort();
    assert_eq!(tiles, vec![Pos::new(0, -1), Pos::new(0, 0)]);
    assert_eq!(s.points, vec![4, 0]);
    assert!(events.contains(&Event::FollowerReturned {
        player: 0,
        at: Pos::new(0, -1),
        location: Location::City(Side::S)
    }));
    // Order: placed, deployed, scored, returned.
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            Event::TileDrawn { .. } => "drawn",
            Event::TilePlaced { .. } => "placed",
            Event::FollowerDeployed { .. } => "deployed",
            Event::Scored(_) => "scored",
            Event::FollowerReturned { .. } => "returned",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, vec!["drawn", "placed", "deployed", "scored", "returned"]);
}

#[test]
fn ferries_placed_and_moved_are_reported() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/record-format-example.json"))
            .unwrap();
    let mut events = Vec::new();
    Game::replay_with(&record(&text), &mut events).unwrap();
    let ew = JettyPair::new(Side::E, Side::W).unwrap();
    let sw = JettyPair::new(Side::S, Side::W).unwrap();
    assert!(events.contains(&Event::FerryPlaced { player: 1, at: Pos::new(1, 0), ferry: ew }));
    assert!(events.contains(&Event::FerryMoved { player: 0, at: Pos::new(1, 0), from: ew, to: sw }));
}

#[test]
fn the_end_of_the_game_reports_end_scoring_and_the_final_totals() {
    let line = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/reference-games.jsonl"))
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    let r: Record = serde_json::from_value(first["record"].clone()).unwrap();
    let mut events = Vec::new();
    let game = Game::replay_with(&r, &mut events).unwrap();
    let Some(Event::GameEnded { scores }) = events.last() else { panic!("the last event ends the game") };
    assert_eq!(scores, &game.state().final_scores());
    let end: u32 = events
        .iter()
        .filter_map(|e| if let Event::Scored(s) = e { Some(s) } else { None })
        .filter(|s| s.end_of_game)
        .map(|s| s.points.iter().sum::<u32>())
        .sum();
    let during: u32 = game.state().scores().iter().sum();
    assert_eq!(during + end, scores.iter().sum::<u32>(), "end-of-game scorings add up to the final totals");
}
