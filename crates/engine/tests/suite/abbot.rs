//! The Abbot beyond the scenarios: its garden tiles take the place of
//! plain ones in the bag, and without it the bag is the base game's.

use carcassonne_engine::{Edition, Expansion, Rules, State, TileKind};

fn count(state: &State, id: &str) -> u8 {
    state.bag().count(TileKind::parse(id).unwrap())
}

#[test]
fn each_garden_tile_takes_the_place_of_one_plain_copy() {
    let pairs =
        [("EG", "E"), ("HG", "H"), ("IG", "I"), ("MG", "M"), ("NG", "N"), ("RG", "R"), ("UG", "U"), ("VG", "V")];
    for edition in [Edition::C3, Edition::C2] {
        let plain = State::new(Rules::new(2, &[], edition).unwrap());
        let abbot = State::new(Rules::new(2, &[Expansion::Abbot], edition).unwrap());
        assert_eq!(abbot.bag().total(), plain.bag().total(), "the same 72 tiles, less the start tile");
        for (garden, base) in pairs {
            assert_eq!(count(&plain, garden), 0, "{garden} without The Abbot");
            assert_eq!(count(&abbot, garden), 1, "{garden}");
            assert_eq!(count(&abbot, base) + 1, count(&plain, base), "{base} gives a copy to {garden}");
            let (g, b) = (TileKind::parse(garden).unwrap().info(), TileKind::parse(base).unwrap().info());
            assert_eq!(g.edges, b.edges, "{garden} has {base}'s layout");
            assert_eq!(g.pieces(), b.pieces() + 1, "{garden} is {base} with a garden");
        }
    }
}

#[test]
fn the_abbots_tiles_may_be_left_out_and_the_abbot_stays() {
    // As JCloisterZone's abbot element without its garden element.
    let rules = Rules::new(2, &[Expansion::Abbot], Edition::C3).unwrap().with_tile_sets(&[]).unwrap();
    let state = State::new(rules);
    assert_eq!(count(&state, "EG"), 0);
    assert_eq!(count(&state, "E"), 5);
    assert_eq!(state.supply_of(carcassonne_engine::FollowerKind::Abbot), &[1, 1]);
}
