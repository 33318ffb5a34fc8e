//! Evaluates positions of seeded random games, for counting an
//! evaluation's instructions under callgrind (docs/performance.md):
//! `cargo run --release -p carcassonne-bots --example evaluations -- 400 [ferries|inns,abbey,traders,ferries]`
//! evaluates 400 positions ten times and prints a checksum of the values.

use carcassonne_bots::evaluation::Evaluator;
use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Actor, Edition, Expansion, Rules, State};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let expansions: Vec<Expansion> = match args.next() {
        Some(list) => list.split(',').map(|e| Expansion::parse(e).expect("an expansion's name")).collect(),
        None => Vec::new(),
    };
    let rules = Rules::new(2, &expansions, Edition::C3).expect("valid rules");
    let positions = positions(rules, n);
    let mut e = Evaluator::default();
    let mut sum = 0.0f64;
    for _ in 0..10 {
        for s in &positions {
            sum += e.values(s)[0] as f64;
        }
    }
    println!("{} evaluations (checksum {sum:.3})", 10 * positions.len());
}

/// `n` positions where a player decides, about one decision in 16 of
/// seeded random games.
fn positions(rules: Rules, n: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut buf = Vec::new();
    let mut out = Vec::with_capacity(n);
    let mut decision = 0u64;
    while out.len() < n {
        let mut state = State::new(rules);
        while let Some(actor) = state.actor() {
            if let Actor::Player(_) = actor {
                if decision % 16 == 0 && out.len() < n {
                    out.push(state.clone());
                }
                decision += 1;
            }
            if let Some(a) = random_action(&state, &mut rng, &mut buf) {
                state.play_unchecked(a);
            }
        }
    }
    out
}
