//! Random play's shortcuts (the deploy step without listing its actions,
//! playouts cut after some turns) pick exactly what `random_action` picks,
//! so that a seed plays the same game whichever way it is played.

use carcassonne_engine::playout::{play_random_turns, play_random_with, random_action};
use carcassonne_engine::{Action, Edition, Expansion, Rules, State};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn rule_sets() -> Vec<Rules> {
    let sets: [&[Expansion]; 5] = [
        &[],
        &[Expansion::Ferries],
        &[Expansion::Inns, Expansion::Ferries],
        &[Expansion::Abbey],
        &[Expansion::Inns, Expansion::Abbey, Expansion::Traders, Expansion::Ferries],
    ];
    sets.iter().flat_map(|e| [2, 4].map(|players| Rules::new(players, e, Edition::C3).expect("valid rules"))).collect()
}

/// The game `random_action` plays from `seed`, action by action.
fn by_random_action(rules: Rules, seed: u64) -> (State, Vec<Action>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut state, mut buf, mut actions) = (State::new(rules), Vec::new(), Vec::new());
    while let Some(a) = random_action(&state, &mut rng, &mut buf) {
        actions.push(a);
        state.play_unchecked(a);
    }
    (state, actions)
}

#[test]
fn a_random_playout_plays_the_game_random_action_plays() {
    for rules in rule_sets() {
        for seed in 0..6 {
            let (expected, actions) = by_random_action(rules, seed);
            assert!(expected.is_over() && actions.len() > 100);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut state = State::new(rules);
            play_random_with(&mut state, &mut rng, &mut Vec::new());
            assert_eq!(state, expected, "{rules:?}, seed {seed}");
        }
    }
}

#[test]
fn a_cut_playout_stops_after_its_turns_where_random_action_s_game_stands() {
    for rules in rule_sets() {
        for seed in 0..4 {
            let (expected, _) = by_random_action(rules, seed);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let (mut state, mut buf) = (State::new(rules), Vec::new());
            // Ten turns at a time, to the end: the same game.
            let mut last = 0;
            while !state.is_over() {
                play_random_turns(&mut state, &mut rng, &mut buf, 10);
                assert!(state.is_over() || state.turns() == last + 10, "{rules:?}, seed {seed}");
                last = state.turns();
            }
            assert_eq!(state, expected, "{rules:?}, seed {seed}");
            // No turns: nothing played.
            let mut fresh = State::new(rules);
            play_random_turns(&mut fresh, &mut rng, &mut buf, 0);
            assert_eq!(fresh, State::new(rules));
        }
    }
}
