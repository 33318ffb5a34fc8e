//! Searches placements of seeded random games, for counting a search
//! iteration's instructions under callgrind (docs/performance.md):
//! `cargo run --release -p carcassonne-bots --example searches -- 40 [ferries|inns,abbey,traders,ferries]`
//! searches 40 positions at the Place step with 500 iterations each and
//! `cut=0` (the leaf scored by the learned evaluation), and prints the
//! iterations run and a checksum of the chosen placements.

use carcassonne_bots::mcts::{Budget, MctsBot, MctsConfig};
use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Action, Actor, Edition, Expansion, Rules, State, Step};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let expansions: Vec<Expansion> = match args.next() {
        Some(list) => list.split(',').map(|e| Expansion::parse(e).expect("an expansion's name")).collect(),
        None => Vec::new(),
    };
    let rules = Rules::new(2, &expansions, Edition::C3).expect("valid rules");
    let config = MctsConfig { budget: Budget::Iterations(500), cut: Some(0), ..MctsConfig::default() };
    let mut bot = MctsBot::new(config, 1);
    let (mut iterations, mut checksum) = (0u64, 0i64);
    for s in places(rules, n) {
        if let Some(Action::Place(p)) = bot.search(&s) {
            checksum += i64::from(p.pos.x) * 31 + i64::from(p.pos.y) * 7 + i64::from(p.rot.quarters());
        }
        iterations += bot.last_stats().iterations;
    }
    println!("{iterations} iterations (checksum {checksum})");
}

/// `n` positions at the Place step, about one placement in 8 of seeded
/// random games.
fn places(rules: Rules, n: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut buf = Vec::new();
    let mut out = Vec::with_capacity(n);
    let mut decision = 0u64;
    while out.len() < n {
        let mut state = State::new(rules);
        while let Some(actor) = state.actor() {
            if let (Actor::Player(_), Step::Place) = (actor, state.step()) {
                if decision % 8 == 0 && out.len() < n {
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
