//! Learning the evaluation's weights from self-play (`carcassonne train-eval`).
//!
//! Two-player games are played by greedy players that take a random action
//! now and then (each seat's share of random actions is drawn per game, so
//! that the positions range from careful to careless play). Positions are
//! sampled along each game; each gives a row: the difference of the two
//! players' features (seat 0 less seat 1) spread over the knots of the bag
//! left, and as target the final margin less the margin now. The weights
//! solve the ridge regression of the target on the rows. A second round
//! plays its games with a greedy player that uses the first round's
//! weights, so that the positions resemble those the learned bots reach,
//! and learns again from those.
//!
//! The last games of each round (a fifth) are held out: the report gives
//! the R² of the final margin on their positions, beside what the margin
//! now and the hand-set estimate of [`crate::eval`] explain. Everything
//! follows from the seed, on one thread.

use std::fmt::Write as _;
use std::time::Instant;

use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Action, Actor, Edition, Expansion, Rules, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::eval::Estimator;
use crate::evaluation::{Evaluator, Features, Model, KNOTS, NF};
use crate::greedy::GreedyBot;
use crate::{derive_seed, Bot};

/// Columns of a row: each feature at each knot.
const DIM: usize = NF * KNOTS.len();

/// What `train-eval` does.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Games per round (two rounds).
    pub games: u64,
    pub seed: u64,
    /// Ridge penalty.
    pub lambda: f64,
    /// Chance that a position is sampled.
    pub sample: f64,
    /// The rule sets the games cycle through (by default all of
    /// [`rule_sets`]).
    pub sets: Vec<(&'static str, Rules)>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig { games: 6000, seed: 32, lambda: 20.0, sample: 0.15, sets: rule_sets() }
    }
}

/// The rule sets of [`rule_sets`] named in `names` (comma-separated), in
/// that order; the error names the known ones.
pub fn rule_sets_named(names: &str) -> Result<Vec<(&'static str, Rules)>, String> {
    let all = rule_sets();
    let mut out = Vec::new();
    for name in names.split(',').map(str::trim) {
        let found = all.iter().find(|(n, _)| *n == name).ok_or_else(|| {
            let known: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
            format!("unknown rule set '{name}' (known: {})", known.join(", "))
        })?;
        if out.iter().any(|(n, _): &(&str, Rules)| *n == name) {
            return Err(format!("rule set '{name}' is named twice"));
        }
        out.push(*found);
    }
    Ok(out)
}

/// The rule sets the games cycle through: the base game, each expansion
/// alone, all four together.
pub fn rule_sets() -> Vec<(&'static str, Rules)> {
    let r = |e: &[Expansion]| Rules::new(2, e, Edition::C3).expect("two players suit every expansion");
    vec![
        (BASE, r(&[])),
        ("ferries", r(&[Expansion::Ferries])),
        ("inns", r(&[Expansion::Inns])),
        ("abbey", r(&[Expansion::Abbey])),
        ("traders", r(&[Expansion::Traders])),
        ("all four", r(&[Expansion::Inns, Expansion::Abbey, Expansion::Traders, Expansion::Ferries])),
    ]
}

/// The base game's rule set's name.
pub const BASE: &str = "base";

/// A held-out position.
struct Held {
    z: [f32; DIM],
    /// The margin now (seat 0 less seat 1), the final margin, the hand
    /// estimate's margin, the phase, the rule set.
    now: f32,
    end: f32,
    hand: f32,
    /// The margin the compiled-in model of the same rules predicts.
    compiled: f32,
    phase: f32,
    set: usize,
}

/// The normal equations of the ridge regression, summed row by row.
struct Normal {
    a: Vec<f64>,
    b: Vec<f64>,
    rows: u64,
}

impl Normal {
    fn new() -> Normal {
        Normal { a: vec![0.0; DIM * DIM], b: vec![0.0; DIM], rows: 0 }
    }

    fn add(&mut self, z: &[f32; DIM], y: f64) {
        self.rows += 1;
        // Only the two knots around the phase are non-zero.
        let nz: Vec<usize> = (0..DIM).filter(|i| z[*i] != 0.0).collect();
        for &i in &nz {
            let zi = z[i] as f64;
            self.b[i] += zi * y;
            for &j in &nz {
                self.a[i * DIM + j] += zi * z[j] as f64;
            }
        }
    }

    /// Solves (A + λI) w = b by Gaussian elimination with partial pivoting.
    fn solve(&self, lambda: f64) -> Vec<f64> {
        let n = DIM;
        let mut m = self.a.clone();
        let mut x = self.b.clone();
        for i in 0..n {
            m[i * n + i] += lambda;
        }
        for c in 0..n {
            let p = (c..n).max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs())).unwrap_or(c);
            if p != c {
                for k in 0..n {
                    m.swap(c * n + k, p * n + k);
                }
                x.swap(c, p);
            }
            let d = m[c * n + c];
            if d.abs() < 1e-12 {
                continue;
            }
            for r in c + 1..n {
                let f = m[r * n + c] / d;
                if f == 0.0 {
                    continue;
                }
                for k in c..n {
                    m[r * n + k] -= f * m[c * n + k];
                }
                x[r] -= f * x[c];
            }
        }
        for c in (0..n).rev() {
            let mut s = x[c];
            for k in c + 1..n {
                s -= m[c * n + k] * x[k];
            }
            let d = m[c * n + c];
            x[c] = if d.abs() < 1e-12 { 0.0 } else { s / d };
        }
        x
    }
}

/// The row of a position: seat 0's features less seat 1's, at the knots.
fn row(f: &Features, phase: f32) -> [f32; DIM] {
    let h = Model::knot_weights(phase);
    let mut z = [0.0; DIM];
    for (k, hk) in h.iter().enumerate() {
        if *hk == 0.0 {
            continue;
        }
        for i in 0..NF {
            z[k * NF + i] = hk * (f[0][i] - f[1][i]);
        }
    }
    z
}

/// A model's weights in the order of a row's columns.
fn flat(model: &Model) -> [f32; DIM] {
    let mut w = [0.0; DIM];
    for (k, knot) in model.weights.iter().enumerate() {
        w[k * NF..(k + 1) * NF].copy_from_slice(knot);
    }
    w
}

fn model_of(w: &[f64], sigma: [f32; KNOTS.len()]) -> Model {
    let mut weights = [[0.0; NF]; KNOTS.len()];
    for (k, row) in weights.iter_mut().enumerate() {
        for (i, x) in row.iter_mut().enumerate() {
            *x = w[k * NF + i] as f32;
        }
    }
    Model { weights, sigma }
}

/// The result of training: the model and a report in words.
pub struct Trained {
    pub model: Model,
    pub report: String,
}

/// Trains the evaluation (two rounds of self-play and regression).
pub fn train(config: &TrainConfig, mut progress: impl FnMut(&str)) -> Trained {
    let started = Instant::now();
    let mut report = String::new();
    let mut model: Option<&'static Model> = None;
    let mut last = None;
    for round in 0..2u64 {
        let (m, text) = train_round(config, round, model, &mut progress);
        let _ = write!(report, "round {}: {text}", round + 1);
        // The next round's greedy players need a model for as long as they live.
        model = Some(Box::leak(Box::new(m.clone())));
        last = Some(m);
    }
    let _ = writeln!(report, "time: {:.0} s on one thread", started.elapsed().as_secs_f64());
    Trained { model: last.expect("two rounds ran"), report }
}

fn train_round(
    config: &TrainConfig,
    round: u64,
    policy: Option<&'static Model>,
    progress: &mut impl FnMut(&str),
) -> (Model, String) {
    let sets = &config.sets;
    assert!(!sets.is_empty(), "training needs a rule set");
    let mut normal = Normal::new();
    let mut held: Vec<Held> = Vec::new();
    let held_from = config.games - config.games / 5;
    let mut evaluator = match policy {
        Some(m) => Evaluator::new(m),
        None => Evaluator::default(),
    };
    let mut hand = Estimator::default();
    let mut feats = [[0.0; NF]; carcassonne_engine::setup::MAX_PLAYERS];
    let mut buf: Vec<Action> = Vec::with_capacity(256);
    let started = Instant::now();
    for g in 0..config.games {
        let seed = derive_seed(config.seed, round * 1_000_000 + g);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (set, rules) = (g as usize % sets.len(), sets[g as usize % sets.len()].1);
        let mut bots: Vec<GreedyBot> = (0..2u64)
            .map(|s| match policy {
                Some(m) => GreedyBot::with_model(derive_seed(seed, s + 1), m),
                None => GreedyBot::hand(derive_seed(seed, s + 1)),
            })
            .collect();
        let eps: [f64; 2] = std::array::from_fn(|_| [0.0, 0.05, 0.15, 0.4][rng.random_range(0..4)]);
        let mut state = State::new(rules);
        // Positions of this game: their row, margin now, hand estimate,
        // the compiled-in model's margin, phase.
        let compiled = flat(Model::for_rules(&rules));
        let mut rows: Vec<([f32; DIM], f32, f32, f32, f32)> = Vec::new();
        while let Some(actor) = state.actor() {
            if rng.random_bool(config.sample) {
                evaluator.features(&state, &mut feats);
                let phase = evaluator.phase(&state);
                let now = state.scores()[0] as f32 - state.scores()[1] as f32;
                let hv = hand.values(&state);
                let z = row(&feats, phase);
                let by_compiled = now + z.iter().zip(&compiled).map(|(a, b)| a * b).sum::<f32>();
                rows.push((z, now, hv[0] - hv[1], by_compiled, phase));
            }
            let action = match actor {
                Actor::Chance => random_action(&state, &mut rng, &mut buf),
                Actor::Player(p) => {
                    if rng.random_bool(eps[p]) {
                        random_action(&state, &mut rng, &mut buf)
                    } else {
                        bots[p].choose(&state)
                    }
                }
            };
            let Some(action) = action else { break };
            state.play_unchecked(action);
        }
        let fin = state.final_score_array();
        let end = fin[0] as f32 - fin[1] as f32;
        for (z, now, hv, by_compiled, phase) in rows {
            if g >= held_from {
                held.push(Held { z, now, end, hand: hv, compiled: by_compiled, phase, set });
            } else {
                normal.add(&z, (end - now) as f64);
            }
        }
        if (g + 1) % 500 == 0 {
            progress(&format!(
                "round {}: {} of {} games, {:.0} s",
                round + 1,
                g + 1,
                config.games,
                started.elapsed().as_secs_f64()
            ));
        }
    }
    let w = normal.solve(config.lambda * (normal.rows as f64 / 10_000.0).max(1.0));
    let predict = |h: &Held| h.now as f64 + h.z.iter().zip(&w).map(|(a, b)| *a as f64 * b).sum::<f64>();
    // The residual spread per knot, for win probabilities.
    let mut num = [0.0f64; KNOTS.len()];
    let mut den = [0.0f64; KNOTS.len()];
    for h in &held {
        let r = h.end as f64 - predict(h);
        for (k, hk) in Model::knot_weights(h.phase).iter().enumerate() {
            num[k] += *hk as f64 * r * r;
            den[k] += *hk as f64;
        }
    }
    let sigma = std::array::from_fn(|k| if den[k] > 0.0 { (num[k] / den[k]).sqrt() as f32 } else { 30.0 });
    let model = model_of(&w, sigma);

    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} games ({} for training, {} held out), {} training positions, {} held-out positions, {:.0} s",
        config.games,
        held_from,
        config.games - held_from,
        normal.rows,
        held.len(),
        started.elapsed().as_secs_f64()
    );
    let r2 = |rows: &[&Held], pred: &dyn Fn(&Held) -> f64| {
        let n = rows.len().max(1) as f64;
        let mean = rows.iter().map(|h| h.end as f64).sum::<f64>() / n;
        let sst: f64 = rows.iter().map(|h| (h.end as f64 - mean).powi(2)).sum();
        let sse: f64 = rows.iter().map(|h| (h.end as f64 - pred(h)).powi(2)).sum();
        if sst > 0.0 {
            1.0 - sse / sst
        } else {
            0.0
        }
    };
    let _ = writeln!(
        text,
        "held-out R² of the final margin (positions: learned / compiled-in model / hand-set estimate / margin now):"
    );
    let all: Vec<&Held> = held.iter().collect();
    let mut line = |name: &str, rows: Vec<&Held>| {
        let _ = writeln!(
            text,
            "  {name:<24} {:>6}  {:.3} / {:.3} / {:.3} / {:.3}",
            rows.len(),
            r2(&rows, &predict),
            r2(&rows, &|h| h.compiled as f64),
            r2(&rows, &|h| h.hand as f64),
            r2(&rows, &|h| h.now as f64)
        );
    };
    line("all", all.clone());
    for (lo, hi, name) in [
        (2.0 / 3.0, 2.0, "first third of the bag"),
        (1.0 / 3.0, 2.0 / 3.0, "second third"),
        (-1.0, 1.0 / 3.0, "last third"),
    ] {
        line(name, all.iter().copied().filter(|h| h.phase > lo && h.phase <= hi).collect());
    }
    for (s, (name, _)) in sets.iter().enumerate() {
        line(name, all.iter().copied().filter(|h| h.set == s).collect());
    }
    (model, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ridge_regression_recovers_a_linear_target() {
        let mut normal = Normal::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let truth: Vec<f64> = (0..DIM).map(|i| (i % 7) as f64 - 3.0).collect();
        for _ in 0..4000 {
            let phase = rng.random::<f32>();
            let mut f = [[0.0; NF]; carcassonne_engine::setup::MAX_PLAYERS];
            for x in f[0].iter_mut() {
                *x = rng.random::<f32>() * 4.0 - 2.0;
            }
            let z = row(&f, phase);
            let y: f64 = z.iter().zip(&truth).map(|(a, b)| *a as f64 * b).sum();
            normal.add(&z, y);
        }
        let w = normal.solve(1e-6);
        for (got, want) in w.iter().zip(&truth) {
            assert!((got - want).abs() < 1e-3, "{got} vs {want}");
        }
    }
}
