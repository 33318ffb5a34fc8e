//! No panic is reachable from a record or from `play`: property tests over
//! arbitrary input. A refused action leaves the state exactly as it was.

use carcassonne_engine::geometry::{HalfEdge, Pos, Rotation, Side};
use carcassonne_engine::playout::random_action;
use carcassonne_engine::record::{FerryMove, Setup, Turn};
use carcassonne_engine::{
    Action, FollowerKind, Game, JettyPair, Location, Placement, Record, RuleOptions, Rules, State, TileKind,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const TILE_IDS: &[&str] = &[
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W",
    "X", "FC", "F3", "F4", "Z", "", "d",
];
const FEATURES: &[&str] = &[
    "road:N",
    "road:E",
    "road:S",
    "road:W",
    "city:N",
    "city:E",
    "city:W",
    "field:NNE",
    "field:SSW",
    "monastery",
    "road",
    "x:y",
];
const EXPANSIONS: &[&[&str]] = &[&[], &["ferries"], &["ferries", "ferries"], &["inns"]];
const PAIRS: &[&str] = &["E-W", "N-S", "S-W", "N-E", "E-S", "N-W", "E-E", "W-X", ""];

fn turn() -> impl Strategy<Value = Turn> {
    (
        prop::sample::select(TILE_IDS),
        prop::option::of(prop_oneof![9 => (-4i64..=4, -4i64..=4), 1 => Just((i64::MAX, i64::MIN)), 1 => Just((2147483647, -2147483648))]),
        prop::option::of(prop::sample::select(&[0i64, 90, 180, 270, 45, -90, 360][..])),
        prop::bool::weighted(0.05),
        prop::option::weighted(0.4, prop::sample::select(FEATURES)),
        prop::option::weighted(0.2, prop::sample::select(PAIRS)),
        prop::collection::vec(((-3i64..=3, -3i64..=3), prop::sample::select(PAIRS)), 0..2),
    )
        .prop_map(|(tile, at, rot, discard, meeple, ferry, moves)| Turn {
            tile: tile.to_string(),
            at: at.map(|(x, y)| [x, y]),
            rot,
            discard,
            meeple: meeple.map(str::to_string),
            ferry: ferry.map(str::to_string),
            moves: moves.into_iter().map(|((x, y), f)| FerryMove { at: [x, y], ferry: f.to_string() }).collect(),
            ..Turn::default()
        })
}

/// A record as JSON text: the setup's names are written as given, so that
/// an unknown edition (`c1`) reaches the reader too.
fn record() -> impl Strategy<Value = String> {
    (
        1usize..=6,
        prop::sample::select(EXPANSIONS),
        prop::option::of(prop::sample::select(&["c3", "c2", "c1"][..])),
        prop::collection::vec(turn(), 0..40),
        prop::option::of(prop::sample::select(&[4u32, 2, 3, 0][..])),
    )
        .prop_map(|(players, expansions, edition, turns, tiny)| {
            let record = Record {
                format: "carcassonne-record/1".into(),
                setup: Setup {
                    players: (0..players).map(|i| format!("P{i}")).collect(),
                    expansions: expansions.iter().map(|s| s.parse().unwrap()).collect(),
                    edition: None,
                    seed: None,
                    rules: RuleOptions { tiny_city_scoring: tiny, ..RuleOptions::default() },
                },
                turns,
            };
            let mut json = serde_json::to_value(&record).unwrap();
            if let Some(e) = edition {
                json["setup"]["edition"] = e.into();
            }
            json.to_string()
        })
}

fn action() -> impl Strategy<Value = Action> {
    let side = prop::sample::select(&Side::ALL[..]);
    let coord = prop_oneof![8 => -3i32..=3, 1 => Just(i32::MAX), 1 => Just(i32::MIN)];
    let pos = (coord.clone(), coord).prop_map(|(x, y)| Pos::new(x, y));
    let pair = (side.clone(), side.clone())
        .prop_map(|(a, b)| JettyPair::new(a, b).unwrap_or(JettyPair::new(Side::N, Side::S).unwrap()));
    prop_oneof![
        (0usize..27).prop_map(|i| Action::Draw(TileKind::all().nth(i % TileKind::all().count()).unwrap())),
        (pos.clone(), 0u8..4).prop_map(|(pos, r)| Action::Place(Placement { pos, rot: Rotation::from_quarters(r) })),
        Just(Action::Discard),
        side.clone().prop_map(|s| Action::Deploy(FollowerKind::Normal, Location::Road(s))),
        side.clone().prop_map(|s| Action::Deploy(FollowerKind::Normal, Location::City(s))),
        (0usize..8).prop_map(|h| Action::Deploy(FollowerKind::Normal, Location::Field(HalfEdge::ALL[h]))),
        Just(Action::Deploy(FollowerKind::Normal, Location::Monastery)),
        pair.clone().prop_map(Action::PlaceFerry),
        (pos, pair).prop_map(|(at, ferry)| Action::MoveFerry { at, ferry }),
        Just(Action::Pass),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn replaying_any_record_returns_a_game_or_an_error(text in record()) {
        let turns = serde_json::from_str::<serde_json::Value>(&text).unwrap()["turns"].as_array().unwrap().len();
        match Game::from_json(&text) {
            Ok(game) => prop_assert_eq!(game.record().turns.len(), turns),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn parsing_any_text_returns_a_record_or_an_error(text in "\\PC{0,200}") {
        let _ = Record::from_json(&text);
        let _ = Game::from_json(&text);
    }

    #[test]
    fn parsing_mangled_records_never_panics(cut in 0usize..400, junk in "[\\[\\]{}:,\"0-9a-z -]{0,12}") {
        let text = r#"{"format":"carcassonne-record/1","setup":{"players":["A","B"],"expansions":["ferries"]},"turns":[{"tile":"F4","at":[1,0],"rot":90,"meeple":"road:N","ferry":"N-S","moves":[{"at":[1,0],"ferry":"E-W"}]}]}"#;
        let cut = cut.min(text.len());
        let mangled = format!("{}{}{}", &text[..cut], junk, &text[cut..]);
        let _ = Game::from_json(&mangled);
    }

    /// Random games with arbitrary actions mixed in: each is played or
    /// refused, and a refused one changes nothing.
    #[test]
    fn play_never_panics_and_refusals_change_nothing(seed in any::<u64>(), ferries in any::<bool>(), junk in prop::collection::vec(action(), 1..300)) {
        let exp = if ferries { vec![carcassonne_engine::Expansion::Ferries] } else { vec![] };
        let mut state = State::new(Rules::new(2, &exp, Default::default()).unwrap());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut buf = Vec::new();
        for a in junk {
            let before = state.clone();
            match state.play(a) {
                Ok(()) => {}
                Err(e) => {
                    prop_assert_eq!(&state, &before, "refused {} ({}) but the state changed", a, e);
                }
            }
            if let Some(r) = random_action(&state, &mut rng, &mut buf) {
                state.play(r).unwrap();
            }
        }
    }
}
