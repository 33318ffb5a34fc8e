//! The learned evaluation: what its features count, that its dead holes are
//! the cells no tile left fits, and that it allocates nothing once warm.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use carcassonne_bots::evaluation::{Evaluator, Model, FEATURES, NF};
use carcassonne_bots::train::rule_sets;
use carcassonne_engine::playout::random_action;
use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Actor, Placement, Rotation, State};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Counts the allocations of the threads that ask to be counted.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED.with(|c| c.get()) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Every position of seeded random games, under every rule set trained on.
fn positions(games: u64) -> Vec<State> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for (_, rules) in rule_sets() {
        for seed in 0..games {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut state = State::new(rules);
            while let Some(a) = random_action(&state, &mut rng, &mut buf) {
                out.push(state.clone());
                state.play_unchecked(a);
            }
            out.push(state);
        }
    }
    out
}

#[test]
fn an_evaluation_allocates_nothing_once_its_buffers_have_grown() {
    let states = positions(2);
    let mut e = Evaluator::default();
    let mut sum = 0.0;
    for s in &states {
        sum += e.values(s)[0];
    }
    COUNTED.with(|c| c.set(true));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for s in &states {
        sum += e.values(s)[0];
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTED.with(|c| c.set(false));
    assert!(sum.is_finite());
    assert_eq!(after - before, 0, "allocations in {} evaluations", states.len());
}

#[test]
fn a_cell_counts_the_tiles_left_that_fit_it_as_the_engine_does() {
    let mut e = Evaluator::default();
    let (mut cells, mut dead) = (0, 0);
    for s in positions(1).iter().step_by(7) {
        for cell in s.board().open_cells() {
            let want: u32 = s
                .bag()
                .kinds()
                .filter(|k| {
                    Rotation::ALL.iter().any(|r| s.board().check_fit(*k, Placement { pos: cell.pos, rot: *r }).is_ok())
                })
                .map(|k| s.bag().count(k) as u32)
                .sum();
            let got = e.tiles_fitting(s, cell.pos).expect("an open cell");
            assert_eq!(got as u32, want, "cell {:?}", cell.pos);
            cells += 1;
            dead += u32::from(want == 0);
        }
    }
    assert!(cells > 1000 && dead > 0, "cells {cells}, dead {dead}");
}

#[test]
fn features_follow_the_position() {
    let mut e = Evaluator::default();
    let mut f = [[0.0; NF]; MAX_PLAYERS];
    let col = |name: &str| FEATURES.iter().position(|n| *n == name).unwrap();
    let mut dead_seen = false;
    for s in positions(1) {
        e.features(&s, &mut f);
        let players = s.rules().players();
        let end = s.final_score_array();
        for p in 0..players {
            assert_eq!(f[p][col("end_open")], end[p] as f32 - s.scores()[p] as f32);
            assert_eq!(f[p][col("supply")], s.supply()[p] as f32);
            assert!(f.iter().flatten().all(|x| x.is_finite()));
            dead_seen |= f[p][col("dead_followers")] > 0.0;
        }
        for row in &f[players..] {
            assert!(row.iter().all(|x| *x == 0.0), "no features for seats past the players");
        }
        let movers = (0..players).filter(|p| f[*p][col("to_move")] == 1.0).count();
        assert_eq!(movers, usize::from(!s.is_over()));
        if let Some(Actor::Player(p)) = s.actor() {
            assert_eq!(f[p][col("to_move")], 1.0);
        }
        // At the end the expected final points are the final scores.
        if s.is_over() {
            let v = e.values(&s);
            for p in 0..players {
                assert!((v[p] - end[p] as f32).abs() < 1e-3, "seat {p}: {} against {}", v[p], end[p]);
            }
        }
    }
    assert!(dead_seen, "random games leave some follower in a dead feature");
}

/// The evaluation makes the end-of-game count of the open features itself
/// (as it walks them anyway), following each rule set's scoring: it must
/// be the engine's, with more players and every expansion too.
#[test]
fn the_open_features_count_as_the_engine_counts_them_at_the_end() {
    use carcassonne_engine::{Edition, Expansion, Rules};
    let all = [
        Expansion::Inns,
        Expansion::Abbey,
        Expansion::Traders,
        Expansion::Ferries,
        Expansion::River,
        Expansion::Abbot,
        Expansion::Labyrinth,
    ];
    let mut sets: Vec<Rules> = rule_sets().into_iter().map(|(_, r)| r).collect();
    sets.extend([3, 5].map(|n| Rules::new(n, &all, Edition::C3).unwrap()));
    sets.push(Rules::new(3, &[Expansion::Abbey, Expansion::Traders], Edition::C3).unwrap());
    let mut e = Evaluator::default();
    let mut f = [[0.0; NF]; MAX_PLAYERS];
    let mut buf = Vec::new();
    let mut scored = 0;
    for rules in sets {
        for seed in 0..4 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut state = State::new(rules);
            while let Some(a) = random_action(&state, &mut rng, &mut buf) {
                state.play_unchecked(a);
                e.features(&state, &mut f);
                let end = state.final_score_array();
                for p in 0..rules.players() {
                    let open = end[p] - state.scores()[p];
                    assert_eq!(f[p][0], open as f32, "seat {p} of {rules:?}");
                    scored += u32::from(open > 0);
                }
            }
        }
    }
    assert!(scored > 1000, "{scored}");
}

#[test]
fn the_weights_file_reads_back_as_written() {
    let model = Model::learned();
    let again = Model::parse(&model.to_text("a header\nof two lines")).unwrap();
    assert_eq!(&again, model);
    assert!(Model::parse("sigma 1 2 3 4\n").unwrap_err().contains("no weights for feature"));
    assert!(Model::parse("w end_open 1 2 3\n").unwrap_err().contains("expected 4 numbers"));
    assert!(Model::parse("x 1\n").unwrap_err().contains("expected 'w' or 'sigma'"));
}

#[test]
fn win_chances_add_up_and_follow_the_margin() {
    let e = Evaluator::default();
    let mut v = [0.0; MAX_PLAYERS];
    v[0] = 60.0;
    v[1] = 50.0;
    v[2] = 40.0;
    for phase in [0.0, 0.5, 1.0] {
        let w = e.win_probabilities(&v, 3, phase);
        assert!((w[..3].iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(w[0] > w[1] && w[1] > w[2], "{w:?}");
    }
    // The same lead counts for more late in the game (less spread to come).
    let (early, late) = (e.win_probabilities(&v, 2, 1.0)[0], e.win_probabilities(&v, 2, 0.0)[0]);
    assert!(late >= early, "early {early}, late {late}");
}

#[test]
fn each_game_is_valued_with_the_weights_learned_for_its_rules() {
    use carcassonne_bots::evaluation::Weights;
    use carcassonne_bots::train::rule_sets_named;
    let (base, ferries, mixed) = (Model::base(), Model::ferries(), Model::learned());
    assert!(base != mixed && ferries != mixed && base != ferries, "three trainings, three sets of weights");
    for (name, rules) in rule_sets() {
        let want = match name {
            "base" => base,
            "ferries" => ferries,
            _ => mixed,
        };
        assert_eq!(Model::for_rules(&rules), want, "{name}");
    }
    // The small expansions keep the base game's weights.
    let small = carcassonne_engine::Rules::new(
        2,
        &[carcassonne_engine::Expansion::River, carcassonne_engine::Expansion::Abbot],
        carcassonne_engine::Edition::C3,
    )
    .unwrap();
    assert_eq!(Model::for_rules(&small), base);

    // An evaluator by rules switches models with the position's rules, and
    // values a base game as the base model alone does.
    let mut by_rules = Evaluator::default();
    let mut only_base = Evaluator::new(base);
    let mut only_mixed = Evaluator::with_weights(Weights::Mixed);
    let sets = rule_sets_named("base,inns").unwrap();
    let mut differs = false;
    for (name, rules) in sets {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut buf = Vec::new();
        let mut state = State::new(rules);
        for _ in 0..60 {
            let Some(a) = random_action(&state, &mut rng, &mut buf) else { break };
            state.play_unchecked(a);
        }
        let v = by_rules.values(&state);
        assert_eq!(by_rules.model(), Model::for_rules(&rules));
        if name == "base" {
            assert_eq!(v, only_base.values(&state));
            differs |= v != only_mixed.values(&state);
        } else {
            assert_eq!(v, only_mixed.values(&state));
        }
    }
    assert!(differs, "the base weights value a base game otherwise than the mixed ones");
    assert!(rule_sets_named("base,cathars").unwrap_err().contains("known: base, ferries"));
    assert!(rule_sets_named("base,base").unwrap_err().contains("twice"));
}
