//! `carcassonne bench`: how fast the engine and the search run here.
//!
//! Each figure is a rate measured for a fixed time: random games per second
//! (the cost of a playout) on one core and on all of them, legal action lists
//! per second, and MCTS iterations per second with one tree and with a tree
//! per core. Figures come with the rules they were measured with, since lakes
//! and ferries add work.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use anyhow::Result;
use carcassonne_bots::derive_seed;
use carcassonne_bots::eval::Estimator;
use carcassonne_bots::evaluation::Evaluator;
use carcassonne_bots::mcts::{Budget, MctsBot, MctsConfig};
use carcassonne_bots::random::play_out;
use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Actor, Edition, Expansion, Rules, State};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seconds to measure each figure.
    #[arg(long, default_value_t = 1.0, value_parser = seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Measure each figure this many times and keep the best: on a shared
    /// machine, others' work only ever slows a run down.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 3600.0 => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds from above 0 to 3600")),
    }
}

/// One measured figure.
#[derive(Serialize, Debug)]
pub struct Figure {
    pub what: &'static str,
    pub rules: &'static str,
    pub threads: usize,
    pub rate: f64,
    pub unit: &'static str,
}

pub fn run(args: &Args) -> Result<()> {
    let time = Duration::from_secs_f64(args.seconds);
    let cores = rayon::current_num_threads();
    let base = Rules::base(2)?;
    let ferries = Rules::new(2, &[Expansion::Ferries], Edition::C3)?;
    let inns_ferries = Rules::new(2, &[Expansion::Inns, Expansion::Ferries], Edition::C3)?;
    let traders_ferries = Rules::new(2, &[Expansion::Traders, Expansion::Ferries], Edition::C3)?;
    let all = Rules::new(2, &[Expansion::Inns, Expansion::Traders, Expansion::Abbey, Expansion::Ferries], Edition::C3)?;
    // What is being measured, shown while it runs (on a terminal only).
    let progress = ProgressBar::new(19);
    progress
        .set_style(ProgressStyle::with_template("{pos}/{len} measuring {msg}…").expect("a valid progress template"));
    progress.enable_steady_tick(Duration::from_millis(250));
    let mut figures = Vec::new();
    let mut measure = |what, rules, threads, unit, rate: &dyn Fn() -> f64| {
        progress.set_message(format!("{what} ({rules}, {threads} thread{})", if threads == 1 { "" } else { "s" }));
        let best = (0..args.rounds).map(|_| rate()).fold(0.0, f64::max);
        figures.push(Figure { what, rules, threads, rate: best, unit });
        progress.inc(1);
    };
    for (name, rules) in [
        ("base", base),
        ("ferries", ferries),
        ("inns+ferries", inns_ferries),
        ("traders+ferries", traders_ferries),
        ("inns+traders+abbey+ferries", all),
    ] {
        measure("random games", name, 1, "games/s", &|| random_games(rules, time, 0));
        measure("random games", name, cores, "games/s", &|| {
            rayon::broadcast(|ctx| random_games(rules, time, ctx.index() as u64 + 1)).iter().sum()
        });
    }
    let positions = positions(ferries, 400);
    let lists = std::cell::Cell::new((0.0, 0.0));
    measure("legal action lists", "ferries", 1, "lists/s", &|| {
        // The actions listed a second are those of the best round of lists.
        let round = legal_lists(&positions, time);
        if round.0 > lists.get().0 {
            lists.set(round);
        }
        round.0
    });
    measure("legal actions listed", "ferries", 1, "actions/s", &|| lists.get().1);
    measure("evaluations", "ferries", 1, "positions/s", &|| evaluations(&positions, time, true));
    measure("hand-set estimates", "ferries", 1, "positions/s", &|| evaluations(&positions, time, false));
    let all_positions = self::positions(all, 400);
    measure("evaluations", "inns+traders+abbey+ferries", 1, "positions/s", &|| evaluations(&all_positions, time, true));
    let places: Vec<State> = positions.into_iter().filter(|s| s.step() == carcassonne_engine::Step::Place).collect();
    for trees in [1, cores] {
        measure("mcts iterations", "ferries", trees, "iterations/s", &|| mcts_iterations(&places, trees, time, None));
    }
    for cut in [0, 4] {
        let what = if cut == 0 { "mcts iterations, cut=0" } else { "mcts iterations, cut=4" };
        measure(what, "ferries", 1, "iterations/s", &|| mcts_iterations(&places, 1, time, Some(cut)));
    }
    progress.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
    } else {
        print!("{}", table(&figures, args.seconds, args.rounds));
    }
    Ok(())
}

/// Random two-player games per second on this thread.
fn random_games(rules: Rules, time: Duration, stream: u64) -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(1, stream));
    let mut buf = Vec::with_capacity(256);
    // Each game starts as a copy of a new one, into the last game's buffers.
    let fresh = State::new(rules);
    let mut state = fresh.clone();
    let start = Instant::now();
    let mut games = 0u64;
    while start.elapsed() < time {
        state.clone_from(&fresh);
        play_out(&mut state, &mut rng, &mut buf);
        games += 1;
    }
    games as f64 / start.elapsed().as_secs_f64()
}

/// `n` positions where a player decides, from seeded random games, from
/// every stage of the game and every step of the turn.
fn positions(rules: Rules, n: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut buf = Vec::new();
    let mut out = Vec::with_capacity(n);
    let mut game = 0u64;
    while out.len() < n {
        let mut state = State::new(rules);
        let mut decision = 0u64;
        while let Some(actor) = state.actor() {
            if let Actor::Player(_) = actor {
                // About one decision in 16, at a different offset each game.
                if (decision + game).is_multiple_of(16) && out.len() < n {
                    out.push(state.clone());
                }
                decision += 1;
            }
            if let Some(a) = random_action(&state, &mut rng, &mut buf) {
                state.play_unchecked(a);
            }
        }
        game += 1;
    }
    out
}

/// Legal action lists and actions listed per second, over `positions`.
fn legal_lists(positions: &[State], time: Duration) -> (f64, f64) {
    let mut buf = Vec::with_capacity(512);
    let start = Instant::now();
    let (mut lists, mut actions) = (0u64, 0u64);
    while start.elapsed() < time {
        for s in positions {
            buf.clear();
            s.legal_actions(&mut buf);
            actions += buf.len() as u64;
        }
        lists += positions.len() as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    (lists as f64 / secs, actions as f64 / secs)
}

/// Evaluations of `positions` per second: the learned evaluation, or the
/// hand-set estimate of the first greedy player.
fn evaluations(positions: &[State], time: Duration, learned: bool) -> f64 {
    let mut e = Evaluator::default();
    let mut h = Estimator::default();
    let start = Instant::now();
    let (mut n, mut sum) = (0u64, 0.0f32);
    while start.elapsed() < time {
        for s in positions {
            sum += if learned { e.values(s)[0] } else { h.values(s)[0] };
        }
        n += positions.len() as u64;
    }
    assert!(sum.is_finite());
    n as f64 / start.elapsed().as_secs_f64()
}

/// MCTS iterations per second with `trees` trees, searching placements,
/// with playouts to the end or cut after `cut` turns.
fn mcts_iterations(positions: &[State], trees: usize, time: Duration, cut: Option<u16>) -> f64 {
    let config = MctsConfig { budget: Budget::Iterations(500 * trees as u32), trees, cut, ..MctsConfig::default() };
    let mut bot = MctsBot::new(config, 1);
    let start = Instant::now();
    let mut iterations = 0u64;
    for s in positions.iter().cycle() {
        if start.elapsed() >= time {
            break;
        }
        bot.search(s);
        iterations += bot.last_stats().iterations;
    }
    iterations as f64 / start.elapsed().as_secs_f64()
}

fn table(figures: &[Figure], seconds: f64, rounds: u32) -> String {
    let mut out = String::new();
    // Columns as wide as their longest entry, so that a long rule set's
    // name (all four expansions) does not push the rest out of line.
    let what = figures.iter().map(|f| f.what.len()).max().unwrap_or(0).max("what".len());
    let rules = figures.iter().map(|f| f.rules.len()).max().unwrap_or(0).max("rules".len());
    let _ = writeln!(out, "{:what$}  {:rules$}  {:>7}  {:>14}  unit", "what", "rules", "threads", "rate");
    for f in figures {
        let _ = writeln!(
            out,
            "{:what$}  {:rules$}  {:>7}  {:>14}  {}",
            f.what,
            f.rules,
            f.threads,
            thousands(f.rate),
            f.unit
        );
    }
    let measured = if rounds == 1 {
        format!("each figure measured for {seconds} s")
    } else {
        format!("each figure the best of {rounds} measurements of {seconds} s")
    };
    let _ = writeln!(
        out,
        "\n2 players; {measured}; games are uniformly random; mcts searches tile \
         placements of mid-game positions, 500 iterations per tree; evaluations score 400 positions of random games (every \
         step of the turn)"
    );
    out
}

/// A rate with thousands separators, no decimals above 100.
fn thousands(x: f64) -> String {
    if x < 100.0 {
        return format!("{x:.1}");
    }
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_keeps_its_columns_for_long_rule_set_names() {
        let figure = |rules, rate| Figure { what: "random games", rules, threads: 1, rate, unit: "games/s" };
        let figures = [figure("base", 45_000.0), figure("inns,abbey,traders,ferries", 8_000.0)];
        let text = table(&figures, 1.0, 1);
        let rows: Vec<&str> = text.lines().take(3).collect();
        // Every row's rate ends where the header's does, and each row names its unit after it.
        let end = rows[0].find("rate").unwrap() + "rate".len();
        for row in &rows[1..] {
            assert_eq!(row.find("  games/s"), Some(end), "{text}");
        }
        assert!(rows[2].contains("inns,abbey,traders,ferries  "), "{text}");
        assert!(text.contains("each figure measured for 1 s"), "{text}");
        assert!(table(&figures, 0.5, 3).contains("each figure the best of 3 measurements of 0.5 s"));
    }
}
