//! `carcassonne simulate`: many games between bots, and who won.
//!
//! Games come in deals: one tile order (fixed by the deal's seed) played once
//! per seating, the seats rotated each time, so that no bot is favoured by
//! the tiles or by playing first. With two players that is every deal played
//! twice with the seats swapped.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::options::{rules, with_variants};
use anyhow::{bail, Context, Result};
use carcassonne_bots::arena::{self, SeatStats};
use carcassonne_bots::spec::parse_players;
use carcassonne_bots::{derive_seed, BotSpec};
use carcassonne_engine::{RuleOptions, Rules};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bots, one per seat, separated by commas: `random`, `greedy`,
    /// `mcts:iters=N` or `mcts:ms=N`. More mcts options follow, each after a
    /// colon: `trees=N` (parallel search trees; default one per core; with
    /// `iters=N` the games follow from `--seed` for a given number of trees),
    /// `c=X` (exploration), `margin=X` (share of score margin in the reward), `draws=chance` (chance nodes over the bag, the default) or `draws=determinized` (one sampled bag order per iteration), `per=turn` (the budget covers a whole turn: its first decision searches and the later ones continue in that tree; the default `per=decision` searches every decision).
    #[arg(long, value_name = "BOTS")]
    pub players: String,
    /// Games to play, rounded up to whole deals (one game per seating).
    #[arg(long, default_value_t = 2, value_parser = at_least_one)]
    pub games: u64,
    /// Expansions in play, separated by commas: `ferries` (the default),
    /// `inns` (Inns & Cathedrals), `abbey` (Abbey & Mayor), `traders`
    /// (Traders & Builders), or `none` for the base game.
    #[arg(long, default_value = "ferries", value_name = "LIST")]
    pub expansions: String,
    /// Tile distribution: `c3` (third edition) or `c2` (second).
    #[arg(long, default_value = "c3")]
    pub edition: String,
    /// Rule variants, `NAME=VALUE`, separated by commas or the option
    /// repeated: `tiny-city-scoring=2` (a completed two-tile city scores 2,
    /// not 4), `wagon-move=C1`, `abbeys=N`, or a figure and how many each
    /// player has (`barn=2`, `pig=0`). Default: the standard rules.
    #[arg(long = "rules", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// Seed of everything: the deals' tile orders and the bots' choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games played at the same time. Each search bot already uses every
    /// core, so more than 1 suits fast bots; it also shares the cores among
    /// bots with time budgets (`ms=`), which then search less.
    #[arg(long, default_value_t = 1, value_parser = at_least_one)]
    pub parallel: u64,
    /// Write every game's record into this folder (created if missing), for
    /// `carcassonne replay`.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
}

fn at_least_one(s: &str) -> Result<u64, String> {
    s.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| format!("'{s}' is not a whole number above 0"))
}

/// One finished game.
struct Outcome {
    /// The bot (index into the players) in each seat.
    bots: Vec<usize>,
    scores: Vec<u32>,
    turns: u32,
    seats: Vec<SeatStats>,
}

/// The summary `--json` prints.
#[derive(Serialize, Debug)]
pub struct Summary {
    pub players: Vec<String>,
    pub expansions: Vec<String>,
    pub edition: String,
    /// Rule variants, as a record's `setup.rules`; left out for the standard rules.
    #[serde(skip_serializing_if = "RuleOptions::is_empty")]
    pub rules: RuleOptions,
    pub seed: u64,
    pub deals: u64,
    pub games: u64,
    pub bots: Vec<BotSummary>,
    /// Turns per game (discards count as turns, as in records).
    pub mean_turns: f64,
    pub seconds: f64,
    pub games_per_second: f64,
}

#[derive(Serialize, Debug)]
pub struct BotSummary {
    pub name: String,
    pub games: u64,
    /// Games with the best score alone.
    pub wins: u64,
    /// Games with the best score shared.
    pub ties: u64,
    pub losses: u64,
    pub win_rate: f64,
    /// Wilson score interval, 95%.
    pub win_rate_ci95: [f64; 2],
    /// Wins plus half the ties, per game.
    pub score_rate: f64,
    pub score_rate_ci95: [f64; 2],
    pub mean_score: f64,
    /// Score less the best other score, per game.
    pub mean_margin: f64,
    pub ms_per_decision: f64,
    /// Thinking time per turn (all the decisions of one turn).
    pub ms_per_turn: f64,
    /// Search iterations per decision that searched (search bots only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations_per_search: Option<f64>,
}

pub fn run(args: &Args) -> Result<()> {
    let specs = parse_players(&args.players).context("--players")?;
    let rules = with_variants(rules(specs.len(), &args.expansions, &args.edition)?, &args.rules)?;
    let labels = labels(&specs);
    let n = specs.len() as u64;
    let deals = args.games.div_ceil(n);
    let total = deals * n;
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create the records folder {}", dir.display()))?;
    }

    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} to go")
            .expect("a valid progress template");
        bar.set_style(style);
        // Drawn from the start and kept current while the first games run.
        bar.enable_steady_tick(std::time::Duration::from_millis(500));
        bar
    } else {
        ProgressBar::hidden()
    };

    let started = Instant::now();
    let play = |g: u64| -> Result<Outcome> {
        let (deal, seating) = (g / n, g % n);
        let deal_seed = derive_seed(args.seed, deal);
        let bots_by_seat: Vec<usize> = (0..n).map(|s| ((s + seating) % n) as usize).collect();
        let names: Vec<String> = bots_by_seat.iter().map(|b| labels[*b].clone()).collect();
        let mut bots: Vec<_> = bots_by_seat
            .iter()
            .enumerate()
            .map(|(s, b)| specs[*b].build(derive_seed(deal_seed, 1 + seating * n + s as u64)))
            .collect();
        let played = arena::play_game(rules, &names, &mut bots, deal_seed)
            .with_context(|| format!("deal {deal}, seating {seating}"))?;
        if let Some(dir) = &args.records {
            write_record(dir, deal, seating, &played.game.record().to_json_pretty())?;
        }
        progress.inc(1);
        Ok(Outcome {
            bots: bots_by_seat,
            scores: played.scores(),
            turns: played.game.state().turns(),
            seats: played.seats,
        })
    };
    let outcomes = play_all(total, args.parallel.min(1024) as usize, play)?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();

    let summary = summarize(&specs, &labels, &rules, args, deals, &outcomes, seconds);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", table(&summary));
    }
    Ok(())
}

/// Names for the table and the records: a bot named twice gets its place
/// in the list after it (`greedy#1`, `greedy#2`).
fn labels(specs: &[BotSpec]) -> Vec<String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if specs.iter().filter(|o| o.label() == s.label()).count() > 1 {
                format!("{}#{}", s.label(), i + 1)
            } else {
                s.label().to_string()
            }
        })
        .collect()
}

fn write_record(dir: &Path, deal: u64, seating: u64, json: &str) -> Result<()> {
    let path = dir.join(format!("deal{deal:04}-seating{seating}.json"));
    std::fs::write(&path, json).with_context(|| format!("cannot write {}", path.display()))
}

/// Plays games `0..total` on `threads` threads, in the order of their index.
/// The first error stops the rest.
fn play_all(total: u64, threads: usize, play: impl Fn(u64) -> Result<Outcome> + Sync) -> Result<Vec<Outcome>> {
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let error = Mutex::new(None);
    let done = Mutex::new(Vec::new());
    let threads = threads.min(total as usize).max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while !failed.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= total {
                        break;
                    }
                    match play(g) {
                        Ok(o) => done.lock().expect("no thread panicked").push((g, o)),
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            error.lock().expect("no thread panicked").get_or_insert(e);
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("no thread panicked") {
        return Err(e);
    }
    let mut done = done.into_inner().expect("no thread panicked");
    if done.len() as u64 != total {
        bail!("{} of {total} games were played", done.len());
    }
    done.sort_by_key(|(g, _)| *g);
    Ok(done.into_iter().map(|(_, o)| o).collect())
}

fn summarize(
    specs: &[BotSpec],
    labels: &[String],
    rules: &Rules,
    args: &Args,
    deals: u64,
    outcomes: &[Outcome],
    seconds: f64,
) -> Summary {
    let mut bots = Vec::new();
    for (b, label) in labels.iter().enumerate() {
        let (mut games, mut wins, mut ties, mut score, mut margin) = (0u64, 0u64, 0u64, 0f64, 0f64);
        let mut stats = SeatStats::default();
        for o in outcomes {
            for (s, _) in o.bots.iter().enumerate().filter(|(_, ob)| **ob == b) {
                games += 1;
                let mine = o.scores[s];
                let best_other = o.scores.iter().enumerate().filter(|(j, _)| *j != s).map(|(_, x)| *x).max();
                let best_other = best_other.unwrap_or(0);
                match mine.cmp(&best_other) {
                    std::cmp::Ordering::Greater => wins += 1,
                    std::cmp::Ordering::Equal => ties += 1,
                    std::cmp::Ordering::Less => {}
                }
                score += mine as f64;
                margin += mine as f64 - best_other as f64;
                let st = o.seats[s];
                stats.decisions += st.decisions;
                stats.turns += st.turns;
                stats.thinking += st.thinking;
                stats.searches += st.searches;
                stats.iterations += st.iterations;
            }
        }
        let g = games.max(1) as f64;
        let points = wins as f64 + ties as f64 / 2.0;
        bots.push(BotSummary {
            name: label.clone(),
            games,
            wins,
            ties,
            losses: games - wins - ties,
            win_rate: wins as f64 / g,
            win_rate_ci95: wilson(wins as f64, games),
            score_rate: points / g,
            score_rate_ci95: wilson(points, games),
            mean_score: score / g,
            mean_margin: margin / g,
            ms_per_decision: stats.thinking.as_secs_f64() * 1e3 / stats.decisions.max(1) as f64,
            ms_per_turn: stats.thinking.as_secs_f64() * 1e3 / stats.turns.max(1) as f64,
            iterations_per_search: specs[b].mcts().map(|_| {
                if stats.searches > 0 {
                    stats.iterations as f64 / stats.searches as f64
                } else {
                    0.0
                }
            }),
        });
    }
    let games = outcomes.len() as u64;
    Summary {
        players: labels.to_vec(),
        expansions: rules.expansions().map(|e| e.name().to_string()).collect(),
        edition: rules.edition().name().to_string(),
        rules: RuleOptions::of(rules),
        seed: args.seed,
        deals,
        games,
        bots,
        mean_turns: outcomes.iter().map(|o| o.turns as f64).sum::<f64>() / games.max(1) as f64,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
    }
}

/// The Wilson score interval at 95% for `successes` out of `n` (ties
/// counted as half a success, which keeps it a fair approximation).
fn wilson(successes: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, z) = (n as f64, 1.96f64);
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

fn table(s: &Summary) -> String {
    let mut out = String::new();
    let mut expansions = if s.expansions.is_empty() { "base game".to_string() } else { s.expansions.join(", ") };
    if let Some(n) = s.rules.tiny_city_scoring {
        expansions.push_str(&format!(", tiny-city-scoring {n}"));
    }
    let _ = writeln!(
        out,
        "{} games ({} deals x {} seatings), {expansions}, edition {}, seed {}\n",
        s.games,
        s.deals,
        s.players.len(),
        s.edition,
        s.seed
    );
    let w = s.bots.iter().map(|b| b.name.len()).max().unwrap_or(3).max(3);
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let ci = |c: [f64; 2]| format!("{:.1}-{:.1}%", 100.0 * c[0], 100.0 * c[1]);
    let _ = writeln!(
        out,
        "{:w$}  {:>5}  {:>5}  {:>5}  {:>20}  {:>20}  {:>6}  {:>7}  {:>8}  {:>8}  {:>8}",
        "bot",
        "games",
        "wins",
        "ties",
        "win rate (95% CI)",
        "score rate (95% CI)",
        "score",
        "margin",
        "ms/move",
        "ms/turn",
        "iters"
    );
    for b in &s.bots {
        let iters = b.iterations_per_search.map_or("-".to_string(), |i| format!("{i:.0}"));
        let _ = writeln!(
            out,
            "{:w$}  {:>5}  {:>5}  {:>5}  {:>20}  {:>20}  {:>6.1}  {:>+7.1}  {:>8.2}  {:>8.2}  {:>8}",
            b.name,
            b.games,
            b.wins,
            b.ties,
            format!("{} ({})", pct(b.win_rate), ci(b.win_rate_ci95)),
            format!("{} ({})", pct(b.score_rate), ci(b.score_rate_ci95)),
            b.mean_score,
            b.mean_margin,
            b.ms_per_decision,
            b.ms_per_turn,
            iters
        );
    }
    let _ = writeln!(
        out,
        "\nscore rate: wins plus half the ties; score and margin: means per game, margin against the best other \
         player\nms/move: thinking time per decision (a turn has one to four: tile, follower, ferries); ms/turn: per \
         turn; iters: search iterations per searched move\nmean game length {:.1} turns; {} games in {:.2} s, {:.2} \
         games/s",
        s.mean_turns, s.games, s.seconds, s.games_per_second
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_holds_the_rate_and_stays_in_bounds() {
        let [lo, hi] = wilson(50.0, 100);
        assert!((lo - 0.404).abs() < 0.001 && (hi - 0.596).abs() < 0.001, "{lo} {hi}");
        assert_eq!(wilson(0.0, 10)[0], 0.0);
        assert_eq!(wilson(10.0, 10)[1], 1.0);
    }
}
