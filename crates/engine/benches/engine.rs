//! Engine speed: complete random games per second and legal placements
//! listed per second. Run with `cargo bench -p carcassonne-engine`.

use carcassonne_engine::playout::{play_random, random_action};
use carcassonne_engine::{Action, Actor, Edition, Expansion, Rules, State, Step};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn random_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_game");
    g.throughput(Throughput::Elements(1));
    for (name, rules) in [
        ("base_2p", Rules::base(2).unwrap()),
        ("ferries_2p_c3", Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap()),
    ] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s = State::new(rules);
                play_random(&mut s, &mut rng);
                s.scores()[0]
            })
        });
    }
    g.finish();
}

/// Mid-game positions (tile drawn, about to place) from seeded random games.
fn mid_game_positions(n: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut out = Vec::new();
    let mut buf = Vec::new();
    while out.len() < n {
        let mut s = State::new(Rules::base(2).unwrap());
        let stop = 20 + out.len() % 40;
        let mut placed = 0;
        while let Some(a) = random_action(&s, &mut rng, &mut buf) {
            if s.step() == Step::Place {
                placed += 1;
                if placed == stop {
                    out.push(s.clone());
                    break;
                }
            }
            s.play_unchecked(a);
        }
    }
    out
}

fn placements(c: &mut Criterion) {
    let positions = mid_game_positions(64);
    let mut g = c.benchmark_group("legal_placements");
    g.throughput(Throughput::Elements(positions.len() as u64));
    let mut buf: Vec<Action> = Vec::with_capacity(512);
    g.bench_function("mid_game_64_positions", |b| {
        b.iter_batched_ref(
            || (),
            |_| {
                let mut n = 0;
                for s in &positions {
                    debug_assert_eq!(s.actor(), Some(Actor::Player(s.current_player())));
                    buf.clear();
                    s.legal_actions(&mut buf);
                    n += buf.len();
                }
                n
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, random_games, placements);
criterion_main!(benches);
