//! Evaluates positions of seeded random games, for counting an
//! evaluation's instructions under callgrind (docs/performance.md):
//! `cargo run --release -p carcassonne-bots --example evaluations -- 400 [ferries|inns,abbey,traders,ferries]`
//! evaluates 400 positions (about one decision in 16, every step of the
//! turn) ten times and prints a checksum of the values.

mod common;

use carcassonne_bots::evaluation::Evaluator;

fn main() {
    let (n, rules) = common::args(400);
    let positions = common::positions(rules, n, 16, |_| true);
    let mut e = Evaluator::default();
    let mut sum = 0.0f64;
    for _ in 0..10 {
        for s in &positions {
            sum += e.values(s)[0] as f64;
        }
    }
    println!("{} evaluations (checksum {sum:.3})", 10 * positions.len());
}
