//! Searches placements of seeded random games, for counting a search
//! iteration's instructions under callgrind (docs/performance.md):
//! `cargo run --release -p carcassonne-bots --example searches -- 40 [ferries|inns,abbey,traders,ferries]`
//! searches 40 positions at the Place step (about one placement in 8)
//! with 500 iterations each and `cut=0` (the leaf scored by the learned
//! evaluation), and prints the iterations run and a checksum of the
//! chosen placements.

mod common;

use carcassonne_bots::mcts::{Budget, MctsBot, MctsConfig};
use carcassonne_engine::{Action, Step};

fn main() {
    let (n, rules) = common::args(40);
    let config = MctsConfig { budget: Budget::Iterations(500), cut: Some(0), ..MctsConfig::default() };
    let mut bot = MctsBot::new(config, 1);
    let (mut iterations, mut checksum) = (0u64, 0i64);
    for s in common::positions(rules, n, 8, |s| s.step() == Step::Place) {
        if let Some(Action::Place(p)) = bot.search(&s) {
            checksum += i64::from(p.pos.x) * 31 + i64::from(p.pos.y) * 7 + i64::from(p.rot.quarters());
        }
        iterations += bot.last_stats().iterations;
    }
    println!("{iterations} iterations (checksum {checksum})");
}
