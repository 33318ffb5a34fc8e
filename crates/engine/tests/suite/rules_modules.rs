//! The rules in play as modules: the turn plan, figures and supplies per
//! kind, and the player count come from the rules, not from fixed tables.

use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Expansion, FollowerKind, Rules, SetupError, State, Step};

#[test]
fn the_turn_plan_is_built_from_the_rules_in_play() {
    let base = State::new(Rules::base(2).unwrap());
    assert_eq!(base.turn_plan(), [Step::Draw, Step::Place, Step::Deploy]);
    let ferries = State::new(Rules::new(3, &[Expansion::Ferries], Default::default()).unwrap());
    assert_eq!(ferries.turn_plan(), [Step::Draw, Step::Place, Step::Deploy, Step::PlaceFerry, Step::MoveFerries]);
}

#[test]
fn supplies_are_kept_per_kind_and_supply_reports_normal_followers() {
    let state = State::new(Rules::base(4).unwrap());
    assert_eq!(state.supply(), [7, 7, 7, 7]);
    assert_eq!(state.supply_of(FollowerKind::Normal), state.supply());
    for kind in FollowerKind::ALL.into_iter().skip(1) {
        assert_eq!(state.supply_of(kind), [0, 0, 0, 0], "no {kind} without its expansion");
    }
}

#[test]
fn there_is_room_for_six_players_and_the_base_game_allows_five() {
    assert_eq!(MAX_PLAYERS, 6);
    assert_eq!(Rules::base(5).unwrap().max_players(), 5);
    assert_eq!(Rules::base(6), Err(SetupError::PlayerCount { players: 6, min: 1, max: 5 }));
}

#[test]
fn follower_kinds_have_written_names() {
    for kind in FollowerKind::ALL {
        assert_eq!(FollowerKind::parse(kind.name()), Some(kind));
    }
}
