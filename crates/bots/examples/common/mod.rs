//! What the counting examples share: their command line and the positions
//! of seeded random games they work on.

use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Actor, Edition, Expansion, Rules, State};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The command line `[N] [EXPANSION,...]`: how many positions (`default`
/// if absent) and two-player rules with those expansions.
pub fn args(default: usize) -> (usize, Rules) {
    let mut args = std::env::args().skip(1);
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(default);
    let expansions: Vec<Expansion> = match args.next() {
        Some(list) => list.split(',').map(|e| Expansion::parse(e).expect("an expansion's name")).collect(),
        None => Vec::new(),
    };
    (n, Rules::new(2, &expansions, Edition::C3).expect("valid rules"))
}

/// `n` positions of seeded random games where a player decides and `at`
/// holds: one such decision in `every`.
pub fn positions(rules: Rules, n: usize, every: u64, at: impl Fn(&State) -> bool) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut buf = Vec::new();
    let mut out = Vec::with_capacity(n);
    let mut decision = 0u64;
    while out.len() < n {
        let mut state = State::new(rules);
        while let Some(actor) = state.actor() {
            if matches!(actor, Actor::Player(_)) && at(&state) {
                if decision.is_multiple_of(every) && out.len() < n {
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
