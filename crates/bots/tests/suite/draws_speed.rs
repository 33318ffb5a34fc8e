//! Search speed of the two ways of handling the hidden draws, for
//! `docs/bots.md`. Ignored by default (it measures, it does not check); run
//! it with
//!
//! ```text
//! cargo test --release -p carcassonne-bots --test suite draws_speed:: -- --ignored --nocapture
//! ```

use std::time::{Duration, Instant};

use carcassonne_bots::mcts::{Budget, Draws, MctsBot, MctsConfig};
use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Actor, Edition, Expansion, Rules, State};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Player decisions with more than one legal action, every `every`-th of
/// seeded random two-player games with The Ferries.
fn positions(games: u64, every: usize) -> Vec<State> {
    let rules = Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap();
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = State::new(rules);
        let mut decisions = 0;
        while let Some(a) = random_action(&state, &mut rng, &mut buf) {
            if matches!(state.actor(), Some(Actor::Player(_))) && state.legal_action_list().len() > 1 {
                decisions += 1;
                if decisions % every == 0 {
                    out.push(state.clone());
                }
            }
            state.play_unchecked(a);
        }
    }
    out
}

#[test]
#[ignore = "a measurement, for docs/bots.md"]
fn iterations_per_second_of_each_way() {
    let positions = positions(4, 6);
    let ways = [Draws::Chance, Draws::Determinized];
    let mut time = [Duration::ZERO; 2];
    let mut iterations = [0u64; 2];
    let mut nodes = [0u64; 2];
    // Alternate the two on each position, so that both see the same load.
    for round in 0..3u64 {
        for (p, state) in positions.iter().enumerate() {
            for (w, draws) in ways.into_iter().enumerate() {
                let config = MctsConfig { budget: Budget::Iterations(1000), trees: 1, draws, ..MctsConfig::default() };
                let mut bot = MctsBot::new(config, round * 1000 + p as u64);
                let started = Instant::now();
                bot.search(state).unwrap();
                time[w] += started.elapsed();
                iterations[w] += bot.last_stats().iterations;
                nodes[w] += bot.last_stats().nodes;
            }
        }
    }
    println!("{} positions x 3 rounds, 1000 iterations, one tree", positions.len());
    for (w, draws) in ways.into_iter().enumerate() {
        let searches = 3.0 * positions.len() as f64;
        println!(
            "{draws:>12}: {:>7.0} iterations/s, {:>6.0} tree nodes per search",
            iterations[w] as f64 / time[w].as_secs_f64(),
            nodes[w] as f64 / searches
        );
    }
}
