//! Lists the legal actions of positions of seeded random games, for
//! counting a list's instructions under callgrind (docs/performance.md):
//! `cargo run --release -p carcassonne-bots --example legal_lists -- 400 [ferries|inns,abbey,traders,ferries]`
//! lists the actions of 400 positions (about one decision in 16, every
//! step of the turn, as `carcassonne bench` does) a hundred times and
//! prints the time a list took and a checksum of the actions listed.

mod common;

fn main() {
    let (n, rules) = common::args(400);
    let positions = common::positions(rules, n, 16, |_| true);
    let mut buf = Vec::with_capacity(512);
    let mut sum = 0u64;
    let start = std::time::Instant::now();
    for _ in 0..100 {
        for s in &positions {
            buf.clear();
            s.legal_actions(&mut buf);
            sum += buf.len() as u64;
        }
    }
    let lists = 100 * positions.len();
    let ns = start.elapsed().as_nanos() as f64 / lists as f64;
    println!("{lists} lists in {ns:.1} ns each (checksum {sum})");
}
