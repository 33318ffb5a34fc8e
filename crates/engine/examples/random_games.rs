//! Plays N uniformly random games and prints games per second (for profiling).
//! `cargo run --release -p carcassonne-engine --example random_games -- 20000 [ferries|inns,ferries|inns]`

use std::time::Instant;

use carcassonne_engine::playout::play_random_with;
use carcassonne_engine::{Edition, Expansion, Rules, State};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let expansions: Vec<Expansion> = match args.next() {
        Some(list) => list.split(',').map(|e| Expansion::parse(e).expect("an expansion's name")).collect(),
        None => Vec::new(),
    };
    let rules = Rules::new(2, &expansions, Edition::C3).expect("valid rules");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let start = Instant::now();
    let mut total = 0u64;
    // Each game a copy of a new one, into the buffers the last one grew,
    // with one scratch list for the steps played from a list (as
    // `carcassonne bench` and the Python VectorEnv play their games).
    let fresh = State::new(rules);
    let mut s = fresh.clone();
    let mut buf = Vec::with_capacity(256);
    for _ in 0..n {
        s.clone_from(&fresh);
        play_random_with(&mut s, &mut rng, &mut buf);
        total += s.final_scores().iter().map(|x| *x as u64).sum::<u64>();
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{n} games in {secs:.3} s: {:.0} games/s (checksum {total})", n as f64 / secs);
}
