//! `carcassonne simulate`: many games between bots, and who won.
//!
//! Games come in deals: one tile order (fixed by the deal's seed) played once
//! per seating, the seats rotated each time, so that no bot is favoured by
//! the tiles or by playing first. With two players that is every deal played
//! twice with the seats swapped.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::options::{rules, with_variants};
use crate::players::{parse_players, Player};
use anyhow::{bail, Context, Result};
use carcassonne_bots::arena::{self, SeatStats};
use carcassonne_bots::derive_seed;
use carcassonne_bots::sprt::{Sprt, Verdict};
use carcassonne_engine::{RuleOptions, Rules};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

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
    /// (Traders & Builders), `river` (The River), `abbot` (The Abbot),
    /// `labyrinth` (The Labyrinth), or `none` for the base game.
    #[arg(long, default_value = "ferries", value_name = "LIST")]
    pub expansions: String,
    /// Tile distribution: `c3` (third edition) or `c2` (second).
    #[arg(long, default_value = "c3")]
    pub edition: String,
    /// Rule variants, `NAME=VALUE`, separated by commas or the option
    /// repeated: `tiny-city-scoring=2` (a completed two-tile city scores 2,
    /// not 4), `wagon-move=C1`, `abbeys=N`, `labyrinth-variant=basic`, or a
    /// figure and how many each player has (`barn=2`, `pig=0`, `abbot=2`).
    /// Default: the standard rules.
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
    /// Stop the match by a sequential probability ratio test on the first
    /// bot's score rate (two bots), deal by deal: H0 50% against H1 60%,
    /// α = β = 0.05 unless the options below say otherwise. `--games` is
    /// then the most the match plays.
    #[arg(long)]
    pub sprt: bool,
    #[arg(long, default_value_t = 0.5, value_name = "RATE")]
    pub sprt_h0: f64,
    #[arg(long, default_value_t = 0.6, value_name = "RATE")]
    pub sprt_h1: f64,
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    pub sprt_alpha: f64,
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    pub sprt_beta: f64,
    /// Keep the match in this folder: each game is written to
    /// DIR/games.jsonl as it ends, and a match started again with the same
    /// folder (and the same players, rules and seed) plays only the games
    /// missing there. `--games` may grow between runs.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
}

/// The settings a resumed match must share with the one in its folder.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct MatchFile {
    players: Vec<String>,
    expansions: String,
    edition: String,
    rules: Vec<String>,
    seed: u64,
}

/// One finished game as `games.jsonl` holds it.
#[derive(Serialize, Deserialize, Debug)]
struct GameLine {
    game: u64,
    bots: Vec<usize>,
    scores: Vec<u32>,
    turns: u32,
    /// Per seat: decisions, turns, thinking time in microseconds, searches, iterations.
    seats: Vec<[u64; 5]>,
}

impl GameLine {
    fn of(g: u64, o: &Outcome) -> GameLine {
        GameLine {
            game: g,
            bots: o.bots.clone(),
            scores: o.scores.clone(),
            turns: o.turns,
            seats: o
                .seats
                .iter()
                .map(|s| [s.decisions, s.turns, s.thinking.as_micros() as u64, s.searches, s.iterations])
                .collect(),
        }
    }

    fn outcome(self) -> (u64, Outcome) {
        let seats = self
            .seats
            .iter()
            .map(|s| SeatStats {
                decisions: s[0],
                turns: s[1],
                thinking: Duration::from_micros(s[2]),
                searches: s[3],
                iterations: s[4],
            })
            .collect();
        (self.game, Outcome { bots: self.bots, scores: self.scores, turns: self.turns, seats })
    }
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
    /// Time and rate of the games played by this run.
    pub seconds: f64,
    pub games_per_second: f64,
    /// Games of the match read from its `--resume` folder, not played now.
    pub resumed: u64,
    /// The sequential test, with `--sprt`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSummary>,
}

#[derive(Serialize, Debug)]
pub struct SprtSummary {
    pub h0: f64,
    pub h1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// The log-likelihood ratio and its bounds.
    pub llr: f64,
    pub bounds: [f64; 2],
    /// `H1` (the first bot scores at least h1), `H0`, or `undecided`.
    pub verdict: String,
    /// Deals counted (the test stops at the first deal that decides).
    pub deals: u64,
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
    /// The rates and the margin are left out of solo games, which have no
    /// rival to beat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate: Option<f64>,
    /// Wilson score interval, 95%.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate_ci95: Option<[f64; 2]>,
    /// Wins plus half the ties, per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_rate_ci95: Option<[f64; 2]>,
    pub mean_score: f64,
    /// The mean score's 95% interval (normal approximation).
    pub mean_score_ci95: [f64; 2],
    pub min_score: u32,
    pub max_score: u32,
    /// Score less the best other score, per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_margin: Option<f64>,
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
    let sprt = if args.sprt {
        if specs.len() != 2 {
            bail!("--sprt compares two bots, not {}", specs.len());
        }
        let t = Sprt { h0: args.sprt_h0, h1: args.sprt_h1, alpha: args.sprt_alpha, beta: args.sprt_beta };
        let rate = |x: f64| (0.0..1.0).contains(&x) && x > 0.0;
        if !(rate(t.h0) && rate(t.h1) && t.h0 < t.h1 && rate(t.alpha) && rate(t.beta)) {
            bail!("--sprt: need 0 < h0 < h1 < 1 and error rates between 0 and 1");
        }
        Some(t)
    } else {
        None
    };
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create the records folder {}", dir.display()))?;
    }
    // Games already played in the match's folder, and the file that takes the new ones.
    let mut done: BTreeMap<u64, Outcome> = BTreeMap::new();
    let journal = match &args.resume {
        Some(dir) => Some(Mutex::new(open_match(dir, args, &labels, &mut done)?)),
        None => None,
    };
    done.retain(|g, _| *g < total);

    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} to go")
            .expect("a valid progress template");
        bar.set_style(style);
        bar.set_position(done.len() as u64);
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
            write_record(dir, deal, seating, &played.record()?.to_json_pretty())?;
        }
        Ok(Outcome { bots: bots_by_seat, scores: played.scores(), turns: played.state.turns(), seats: played.seats })
    };
    let todo: Vec<u64> = (0..total).filter(|g| !done.contains_key(g)).collect();
    let resumed = done.len() as u64;
    let decided = |done: &BTreeMap<u64, Outcome>| sprt.and_then(|t| t.first_decision(&deal_scores(done, n)));
    let stop = AtomicBool::new(decided(&done).is_some());
    let shared = Mutex::new(done);
    let on_done = |g: u64, o: Outcome| -> Result<()> {
        if let Some(j) = &journal {
            let mut f = j.lock().expect("no thread panicked");
            writeln!(f, "{}", serde_json::to_string(&GameLine::of(g, &o))?)?;
            f.flush()?;
        }
        let mut d = shared.lock().expect("no thread panicked");
        d.insert(g, o);
        if decided(&d).is_some() {
            stop.store(true, Ordering::Relaxed);
        }
        progress.inc(1);
        Ok(())
    };
    play_all(&todo, args.parallel.min(1024) as usize, &stop, play, on_done)?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut done = shared.into_inner().expect("no thread panicked");

    // With a test, the match is the deals up to the one that decided it,
    // whatever else the threads had finished meanwhile.
    let mut sprt_summary = None;
    if let Some(t) = sprt {
        let scores = deal_scores(&done, n);
        let (used, verdict) = match t.first_decision(&scores) {
            Some((k, v)) => (k, v),
            None => (scores.len(), Verdict::Continue),
        };
        done.retain(|g, _| g / n < used as u64);
        let (lo, hi) = t.bounds();
        sprt_summary = Some(SprtSummary {
            h0: t.h0,
            h1: t.h1,
            alpha: t.alpha,
            beta: t.beta,
            llr: t.llr(&scores[..used]),
            bounds: [lo, hi],
            verdict: match verdict {
                Verdict::H1 => "H1",
                Verdict::H0 => "H0",
                Verdict::Continue => "undecided",
            }
            .to_string(),
            deals: used as u64,
        });
    } else if done.len() as u64 != total {
        bail!("{} of {total} games were played", done.len());
    }
    let outcomes: Vec<Outcome> = done.into_values().collect();
    let deals_played = outcomes.len() as u64 / n;

    let mut summary = summarize(&specs, &labels, &rules, args, deals_played, &outcomes, seconds);
    summary.resumed = resumed.min(summary.games);
    summary.games_per_second = (summary.games - summary.resumed) as f64 / seconds.max(1e-9);
    summary.sprt = sprt_summary;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", table(&summary));
    }
    Ok(())
}

/// The first bot's score in each complete deal from the first on, in
/// order, up to the first deal not complete.
fn deal_scores(done: &BTreeMap<u64, Outcome>, n: u64) -> Vec<f64> {
    let mut out = Vec::new();
    for deal in 0.. {
        let mut points = 0.0;
        for g in deal * n..(deal + 1) * n {
            let Some(o) = done.get(&g) else {
                return out;
            };
            let seat = o.bots.iter().position(|b| *b == 0).expect("every bot has a seat");
            let mine = o.scores[seat];
            let best_other = o.scores.iter().enumerate().filter(|(j, _)| *j != seat).map(|(_, x)| *x).max();
            points += match mine.cmp(&best_other.unwrap_or(0)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        out.push(points / n as f64);
    }
    out
}

/// Opens the match folder `dir`: checks (or writes) its settings, reads
/// the games played, and returns the games file to append to.
fn open_match(dir: &Path, args: &Args, labels: &[String], done: &mut BTreeMap<u64, Outcome>) -> Result<std::fs::File> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the match folder {}", dir.display()))?;
    let settings = MatchFile {
        players: labels.to_vec(),
        expansions: args.expansions.clone(),
        edition: args.edition.clone(),
        rules: args.rules.clone(),
        seed: args.seed,
    };
    let path = dir.join("match.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let old: MatchFile =
                serde_json::from_str(&text).with_context(|| format!("{} is not a match file", path.display()))?;
            if old != settings {
                bail!(
                    "{} holds another match ({}); resume it with the same players, expansions, edition, rules and seed",
                    dir.display(),
                    text.trim()
                );
            }
        }
        Err(_) => std::fs::write(&path, serde_json::to_string_pretty(&settings)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
    }
    let games = dir.join("games.jsonl");
    if let Ok(text) = std::fs::read_to_string(&games) {
        for line in text.lines() {
            // A line cut short by an interruption is played again.
            if let Ok(g) = serde_json::from_str::<GameLine>(line) {
                let (g, o) = g.outcome();
                done.insert(g, o);
            }
        }
        if !text.is_empty() && !text.ends_with('\n') {
            // End the cut line, so that the next game starts a line of its own.
            std::fs::OpenOptions::new().append(true).open(&games)?.write_all(b"\n")?;
        }
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&games)
        .with_context(|| format!("cannot open {}", games.display()))
}

/// Names for the table and the records: a bot named twice gets its place
/// in the list after it (`greedy#1`, `greedy#2`).
fn labels(specs: &[Player]) -> Vec<String> {
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

/// Plays the games `todo` on `threads` threads, in their order, handing
/// each outcome to `done` as it ends. The first error stops the rest, and
/// so does `stop` (no new game starts once it is set).
fn play_all(
    todo: &[u64],
    threads: usize,
    stop: &AtomicBool,
    play: impl Fn(u64) -> Result<Outcome> + Sync,
    done: impl Fn(u64, Outcome) -> Result<()> + Sync,
) -> Result<()> {
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let error = Mutex::new(None);
    let threads = threads.min(todo.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while !failed.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&g) = todo.get(i) else {
                        break;
                    };
                    if let Err(e) = play(g).and_then(|o| done(g, o)) {
                        failed.store(true, Ordering::Relaxed);
                        error.lock().expect("no thread panicked").get_or_insert(e);
                    }
                }
            });
        }
    });
    match error.into_inner().expect("no thread panicked") {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn summarize(
    specs: &[Player],
    labels: &[String],
    rules: &Rules,
    args: &Args,
    deals: u64,
    outcomes: &[Outcome],
    seconds: f64,
) -> Summary {
    let solo = rules.players() == 1;
    let mut bots = Vec::new();
    for (b, label) in labels.iter().enumerate() {
        let (mut games, mut wins, mut ties, mut margin) = (0u64, 0u64, 0u64, 0f64);
        let mut scores = Vec::new();
        let mut stats = SeatStats::default();
        for o in outcomes {
            for (s, _) in o.bots.iter().enumerate().filter(|(_, ob)| **ob == b) {
                games += 1;
                let mine = o.scores[s];
                scores.push(mine);
                let best_other = o.scores.iter().enumerate().filter(|(j, _)| *j != s).map(|(_, x)| *x).max();
                if let Some(best_other) = best_other {
                    match mine.cmp(&best_other) {
                        std::cmp::Ordering::Greater => wins += 1,
                        std::cmp::Ordering::Equal => ties += 1,
                        std::cmp::Ordering::Less => {}
                    }
                    margin += mine as f64 - best_other as f64;
                }
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
        let rival = |x: f64| (!solo).then_some(x);
        bots.push(BotSummary {
            name: label.clone(),
            games,
            wins,
            ties,
            losses: if solo { 0 } else { games - wins - ties },
            win_rate: rival(wins as f64 / g),
            win_rate_ci95: (!solo).then(|| wilson(wins as f64, games)),
            score_rate: rival(points / g),
            score_rate_ci95: (!solo).then(|| wilson(points, games)),
            mean_score: scores.iter().map(|x| *x as f64).sum::<f64>() / g,
            mean_score_ci95: mean_interval(&scores),
            min_score: scores.iter().copied().min().unwrap_or(0),
            max_score: scores.iter().copied().max().unwrap_or(0),
            mean_margin: rival(margin / g),
            ms_per_decision: stats.thinking.as_secs_f64() * 1e3 / stats.decisions.max(1) as f64,
            ms_per_turn: stats.thinking.as_secs_f64() * 1e3 / stats.turns.max(1) as f64,
            iterations_per_search: specs[b].searches().then(|| {
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
        games_per_second: 0.0,
        resumed: 0,
        sprt: None,
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

/// The 95% interval of the mean of `xs` (normal approximation).
fn mean_interval(xs: &[u32]) -> [f64; 2] {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return [0.0, 0.0];
    }
    let mean = xs.iter().map(|x| *x as f64).sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (*x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    let half = 1.96 * (var / n).sqrt();
    [mean - half, mean + half]
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
    if s.players.len() == 1 {
        return solo_table(s, out, w);
    }
    let pct = |x: Option<f64>| format!("{:.1}%", 100.0 * x.unwrap_or(0.0));
    let ci = |c: Option<[f64; 2]>| {
        let c = c.unwrap_or_default();
        format!("{:.1}-{:.1}%", 100.0 * c[0], 100.0 * c[1])
    };
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
            b.mean_margin.unwrap_or(0.0),
            b.ms_per_decision,
            b.ms_per_turn,
            iters
        );
    }
    let _ = writeln!(
        out,
        "\nscore rate: wins plus half the ties; score and margin: means per game, margin against the best other \
         player\nms/move: thinking time per decision (a turn has one to four: tile, follower, ferries); ms/turn: per \
         turn; iters: search iterations per searched move\nmean game length {:.1} turns; {}",
        s.mean_turns,
        pace(s)
    );
    if let Some(t) = &s.sprt {
        let _ = writeln!(
            out,
            "SPRT on {}'s score rate, H0 {:.0}% against H1 {:.0}%, alpha {} beta {}: LLR {:.2} (bounds {:.2}, {:.2}) after {} deals: {}",
            s.players[0],
            100.0 * t.h0,
            100.0 * t.h1,
            t.alpha,
            t.beta,
            t.llr,
            t.bounds[0],
            t.bounds[1],
            t.deals,
            match t.verdict.as_str() {
                "H1" => "H1 accepted (stronger)",
                "H0" => "H0 accepted (not stronger)",
                _ => "undecided",
            }
        );
    }
    out
}

/// A solo game's table: no rival, so the scores alone.
fn solo_table(s: &Summary, mut out: String, w: usize) -> String {
    let _ = writeln!(
        out,
        "{:w$}  {:>5}  {:>22}  {:>5}  {:>5}  {:>8}  {:>8}  {:>8}",
        "bot", "games", "score (95% CI)", "min", "max", "ms/move", "ms/turn", "iters"
    );
    for b in &s.bots {
        let iters = b.iterations_per_search.map_or("-".to_string(), |i| format!("{i:.0}"));
        let score = format!("{:.1} ({:.1}-{:.1})", b.mean_score, b.mean_score_ci95[0], b.mean_score_ci95[1]);
        let _ = writeln!(
            out,
            "{:w$}  {:>5}  {:>22}  {:>5}  {:>5}  {:>8.2}  {:>8.2}  {:>8}",
            b.name, b.games, score, b.min_score, b.max_score, b.ms_per_decision, b.ms_per_turn, iters
        );
    }
    let _ = writeln!(
        out,
        "\nsolo games: one player, the bag played out for the highest score\nmean game length {:.1} turns; {}",
        s.mean_turns,
        pace(s)
    );
    out
}

/// How long the games of this run took, and how many came from the match's folder.
fn pace(s: &Summary) -> String {
    let now = s.games - s.resumed;
    let played = format!("{now} games in {:.2} s, {:.2} games/s", s.seconds, s.games_per_second);
    match s.resumed {
        0 => played,
        r if now == 0 => format!("all {r} games read from the match folder"),
        r => format!("{played}; {r} more read from the match folder"),
    }
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

    #[test]
    fn the_mean_score_interval_is_centred_and_narrows_with_more_games() {
        let [lo, hi] = mean_interval(&[90, 110]);
        assert!((lo + hi) / 2.0 - 100.0 < 1e-9 && hi - lo > 0.0);
        let [lo4, hi4] = mean_interval(&[90, 110, 90, 110, 90, 110, 90, 110]);
        assert!(hi4 - lo4 < hi - lo, "{lo4}-{hi4} against {lo}-{hi}");
        assert_eq!(mean_interval(&[100]), [100.0, 100.0]);
    }
}
