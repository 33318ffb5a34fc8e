//! A review of a game: every decision of a record searched by the
//! strongest bot, with each player's chance to win and expected margin
//! before and after the move played, the points it lost, a mark for the
//! worst moves, and the luck of each player's draws (docs/analysis.md).
//!
//! Before a decision is what the position holds with the bot's best move;
//! after it, what it holds with the move played, both averaged over the
//! draws still to come (chance nodes), so that a move is judged by what its
//! player could know, never by the tile that came next. The luck of a draw
//! is apart: the drawer's value with the tile drawn, less its mean over
//! every tile the bag could have given.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use carcassonne_engine::record::Setup;
use carcassonne_engine::{Action, Actor, Game, Record, RecordError, State, Step};
use serde::Serialize;

use crate::evaluation::{self, Evaluator};
use crate::mcts::{Budget, MctsBot, MctsConfig, MoveStat, Per};
use crate::{derive_seed, GreedyBot, LEVELS};

/// Milliseconds of search a decision by default: a whole 2-player game
/// with The Ferries is reviewed in under a minute on one core (measured in
/// docs/analysis.md).
pub const DEFAULT_MS: u64 = 150;

/// A move played with fewer samples than this in the full search is
/// searched again alone, so that its value is not a guess from a handful
/// of iterations.
const MIN_SAMPLES: u64 = 200;

/// Why a review did not end.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The caller's stop flag was set (a server shutting down).
    #[error("the review was stopped")]
    Stopped,
}

/// How much of a search a decision gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReviewBudget {
    /// Milliseconds a decision (and as much again for a move played that
    /// the search tried too rarely).
    Millis(u64),
    /// Iterations a decision: the same review every time for a given seed.
    Iterations(u32),
}

/// What a drop in the mover's chance to win earns: Lichess's thresholds of
/// 0.1, 0.2 and 0.3 on its -1..1 scale are 0.05, 0.1 and 0.15 of a
/// probability. In a solo game, where the chance to win means nothing, the
/// points lost are marked instead: 3, 6 and 10 points.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Mark {
    #[serde(rename = "?!")]
    Inaccuracy,
    #[serde(rename = "?")]
    Mistake,
    #[serde(rename = "??")]
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];
    /// The least drop in the chance to win for each mark.
    pub const DROPS: [f32; 3] = [0.05, 0.10, 0.15];
    /// The least points lost for each mark, in a solo game.
    pub const SOLO_POINTS: [f32; 3] = [3.0, 6.0, 10.0];

    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark of a drop of `drop` in the chance to win (or of `loss`
    /// points in a solo game), if any.
    pub fn of(drop: f32, loss: f32, solo: bool) -> Option<Mark> {
        let (x, thresholds) = if solo { (loss, Mark::SOLO_POINTS) } else { (drop, Mark::DROPS) };
        Mark::ALL.iter().zip(thresholds).rev().find(|(_, t)| x >= *t - 1e-6).map(|(m, _)| *m)
    }
}

/// The accuracy of one decision, in percent: `100 exp(-loss / 10)` for
/// `loss` expected points lost against the best move (100 for it, 60.7 for
/// 5 points, 36.8 for 10). Points, not the chance to win, so that a player
/// who is far behind or far ahead, whose chance hardly moves, is still told
/// how well they play.
pub fn accuracy_of(loss: f32) -> f32 {
    100.0 * (-loss.max(0.0) / 10.0).exp()
}

/// One decision reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// The turn, counted from 1 as the record's entries.
    pub turn: usize,
    /// The action's place among all the record's actions, draws included,
    /// from 0: the server's game is at version `index` before it and at
    /// `index + 1` after it.
    pub index: usize,
    pub player: usize,
    /// The step decided (`place the tile`, `deploy a follower`, ...).
    #[serde(serialize_with = "as_text")]
    pub step: Step,
    #[serde(serialize_with = "as_text")]
    pub played: Action,
    #[serde(serialize_with = "as_text")]
    pub best: Action,
    /// Each player's chance to win after the move played (ties shared;
    /// they sum to 1), and before it, with the best move.
    pub win: Vec<f32>,
    pub win_before: Vec<f32>,
    /// Each player's expected final margin against the best other player
    /// (a solo player's: the expected score), after and before.
    pub margin: Vec<f32>,
    pub margin_before: Vec<f32>,
    /// The mover's expected points lost against the best move (0 for it).
    pub loss: f32,
    /// The drop in the mover's chance to win (0 for the best move).
    pub drop: f32,
    pub accuracy: f32,
    pub mark: Option<Mark>,
    /// Legal actions at this decision.
    pub choices: usize,
    /// The mover asked for a hint during this turn (the record's `hints`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hinted: bool,
}

/// What a review says of a player.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayerReview {
    /// The mean accuracy of their decisions that had a choice.
    pub accuracy: f32,
    /// How many `?!`, `?` and `??` they earned.
    pub marks: MarkCounts,
    /// Points their draws were worth above the bag's mean (negative: worse).
    pub luck: f32,
    /// Expected points lost over the game.
    pub loss: f32,
    pub decisions: usize,
    /// Hints they asked for (the record's `hints`).
    pub hints: u32,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct MarkCounts {
    #[serde(rename = "?!")]
    pub inaccuracies: u32,
    #[serde(rename = "?")]
    pub mistakes: u32,
    #[serde(rename = "??")]
    pub blunders: u32,
}

impl MarkCounts {
    fn add(&mut self, mark: Mark) {
        match mark {
            Mark::Inaccuracy => self.inaccuracies += 1,
            Mark::Mistake => self.mistakes += 1,
            Mark::Blunder => self.blunders += 1,
        }
    }
}

/// A whole review.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Review {
    /// Every decision that had more than one legal action, in order.
    pub decisions: Vec<Decision>,
    pub players: Vec<PlayerReview>,
    /// Whether the record's game is over.
    pub finished: bool,
}

fn as_text<T: std::fmt::Display, S: serde::Serializer>(x: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(x)
}

/// The search a review uses: the strongest level's, one tree, a fresh
/// search for each decision.
fn review_config(budget: ReviewBudget) -> MctsConfig {
    let expert = LEVELS.iter().find(|(name, _)| *name == "expert").map(|(_, spec)| *spec).unwrap_or("mcts");
    let mut config = expert.parse::<crate::BotSpec>().ok().and_then(|s| s.mcts().copied()).unwrap_or_default();
    config.trees = 1;
    config.per = Per::Decision;
    config.budget = match budget {
        ReviewBudget::Millis(ms) => Budget::Time(std::time::Duration::from_millis(ms.max(1))),
        ReviewBudget::Iterations(n) => Budget::Iterations(n.max(1)),
    };
    config
}

/// Reviews `record`'s game (finished or not) decision by decision, telling
/// `progress` how many of its actions are done out of how many.
pub fn review(
    record: &Record,
    budget: ReviewBudget,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    review_until(record, budget, seed, None, progress)
}

/// As [`review`], given up as soon as `stop` is set (the search under way
/// ends at once too).
pub fn review_until(
    record: &Record,
    budget: ReviewBudget,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let entries = record.actions()?;
    let mut review = review_actions(record.setup.clone(), &entries, budget, seed, stop, progress)?;
    // Hints change nothing in the game: they are told beside it.
    for (turn, entry) in record.turns.iter().enumerate() {
        for &seat in &entry.hints {
            if let Some(p) = review.players.get_mut(seat) {
                p.hints += 1;
            }
        }
        for d in review.decisions.iter_mut().filter(|d| d.turn == turn + 1) {
            d.hinted |= entry.hints.contains(&d.player);
        }
    }
    Ok(review)
}

/// A hint: the strongest bot's choice for the decision at hand, with each
/// player's chance to win and expected margin after it.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    #[serde(serialize_with = "as_text")]
    pub action: Action,
    pub win: Vec<f32>,
    pub margin: Vec<f32>,
}

/// The hint for the player to act at `state` (`None` when no player is to
/// act): the review's search of one decision.
pub fn hint(state: &State, budget: ReviewBudget, seed: u64, stop: Option<Arc<AtomicBool>>) -> Option<Hint> {
    let Some(Actor::Player(_)) = state.actor() else { return None };
    let players = state.rules().players();
    let legal = state.legal_action_list();
    let (win, margin) = static_figures(state);
    if let [only] = legal[..] {
        return Some(Hint { action: only, win, margin });
    }
    let mut bot = MctsBot::new(review_config(budget), derive_seed(seed, 3));
    bot.set_stop(stop);
    let action = bot.search(state)?;
    let stat = bot.analysis(state).moves.iter().find(|m| m.action == action && m.samples > 0).copied();
    let (win, margin) = stat.map_or((win, margin), |m| figures(&m, players));
    Some(Hint { action, win, margin })
}

/// As [`review_until`], from a setup and the actions of each turn (draws among them).
pub fn review_actions(
    setup: Setup,
    entries: &[Vec<Action>],
    budget: ReviewBudget,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let mut game = Game::new(setup)?;
    let players = game.state().rules().players();
    let solo = players == 1;
    let total: usize = entries.iter().map(Vec::len).sum();
    let mut bot = MctsBot::new(review_config(budget), derive_seed(seed, 1));
    bot.set_stop(stop.clone());
    let mut luck = DrawLuck::new(derive_seed(seed, 2));
    let mut out = Review { players: vec![PlayerReview::default(); players], ..Review::default() };
    let mut accuracy_sum = vec![0.0f32; players];
    let mut done = 0;
    progress(0, total);
    for (entry, actions) in entries.iter().enumerate() {
        for &action in actions {
            if stopped() {
                return Err(ReviewError::Stopped);
            }
            let state = game.state();
            match state.actor() {
                Some(Actor::Player(p)) => {
                    let choices = state.legal_action_list().len();
                    if choices > 1 {
                        let mut d = decide(&mut bot, state, action, entry + 1, p, choices, solo);
                        d.index = done;
                        let r = &mut out.players[p];
                        r.decisions += 1;
                        r.loss += d.loss;
                        if let Some(m) = d.mark {
                            r.marks.add(m);
                        }
                        accuracy_sum[p] += d.accuracy;
                        out.decisions.push(d);
                    }
                }
                Some(Actor::Chance) => {
                    if let Action::Draw(kind) = action {
                        let mut next = state.clone();
                        next.play_unchecked(action);
                        let drawer = match next.actor() {
                            Some(Actor::Player(p)) => p,
                            _ => state.current_player(),
                        };
                        out.players[drawer].luck += luck.of_draw(state, kind, drawer);
                    }
                }
                None => {}
            }
            game.play(action).map_err(|error| RecordError::Action { index: done, error })?;
            done += 1;
            progress(done, total);
        }
    }
    for (r, sum) in out.players.iter_mut().zip(accuracy_sum) {
        r.accuracy = if r.decisions > 0 { sum / r.decisions as f32 } else { 100.0 };
    }
    out.finished = game.state().is_over();
    Ok(out)
}

/// Reviews one decision: `played` by `player` at `state`.
fn decide(
    bot: &mut MctsBot,
    state: &State,
    played: Action,
    turn: usize,
    player: usize,
    choices: usize,
    solo: bool,
) -> Decision {
    let players = state.rules().players();
    let best_action = bot.search(state).unwrap_or(played);
    let analysis = bot.analysis(state);
    let stat_of = |a: Action| analysis.moves.iter().find(|m| m.action == a && m.samples > 0).copied();
    let best = stat_of(best_action);
    let mut after = stat_of(played);
    if played != best_action && after.is_none_or(|m| m.samples < MIN_SAMPLES) {
        after = bot.search_action(state, played).filter(|m| m.samples > 0).or(after);
    }
    let (before, after) = match (best, after) {
        (Some(b), Some(a)) => (figures(&b, players), figures(&a, players)),
        (Some(b), None) => (figures(&b, players), figures(&b, players)),
        (None, Some(a)) => (figures(&a, players), figures(&a, players)),
        (None, None) => {
            let f = static_figures(state);
            (f.clone(), f)
        }
    };
    let same = played == best_action;
    let loss = if same { 0.0 } else { (before.1[player] - after.1[player]).max(0.0) };
    let drop = if same || solo { 0.0 } else { (before.0[player] - after.0[player]).max(0.0) };
    Decision {
        turn,
        index: 0,
        player,
        step: state.step(),
        played,
        best: best_action,
        win: after.0,
        win_before: before.0,
        margin: after.1,
        margin_before: before.1,
        loss,
        drop,
        accuracy: accuracy_of(loss),
        mark: if same { None } else { Mark::of(drop, loss, solo) },
        choices,
        hinted: false,
    }
}

/// The chances to win (normalised to sum to 1) and the margins of a move's
/// iterations.
fn figures(m: &MoveStat, players: usize) -> (Vec<f32>, Vec<f32>) {
    let mut win = m.wins[..players].to_vec();
    let sum: f32 = win.iter().sum();
    if sum > 0.0 {
        win.iter_mut().for_each(|w| *w /= sum);
    } else {
        win.fill(1.0 / players as f32);
    }
    (win, m.margins[..players].to_vec())
}

/// The evaluation's figures of `state` itself, when no search tells more.
fn static_figures(state: &State) -> (Vec<f32>, Vec<f32>) {
    let mut e = Evaluator::default();
    let players = state.rules().players();
    let v = e.values(state);
    let phase = e.phase(state);
    let win = e.win_probabilities(&v, players, phase);
    let margins = (0..players).map(|p| evaluation::margin(&v, players, p)).collect();
    (win[..players].to_vec(), margins)
}

/// The luck of draws, valued by the learned evaluation after greedy's best
/// turn with each tile.
pub struct DrawLuck {
    greedy: GreedyBot,
    evaluator: Evaluator,
}

impl DrawLuck {
    pub fn new(seed: u64) -> DrawLuck {
        DrawLuck { greedy: GreedyBot::new(seed), evaluator: Evaluator::default() }
    }

    /// Points the tile `kind` drawn at `state` (chance's step) is worth to
    /// `drawer` above the mean of every tile the bag could have given: over
    /// the bag's tiles, weighted by their counts, the luck sums to zero.
    pub fn of_draw(&mut self, state: &State, kind: carcassonne_engine::TileKind, drawer: usize) -> f32 {
        let bag = state.bag();
        let total = bag.drawable_total();
        if total <= 1 {
            return 0.0;
        }
        let kinds: Vec<_> = bag.drawable().map(|k| (k, bag.count(k))).collect();
        if kinds.len() <= 1 {
            return 0.0;
        }
        let mut mean = 0.0;
        let mut drawn = None;
        for (k, count) in kinds {
            let v = self.value_after(state, k, drawer);
            mean += v * count as f32 / total as f32;
            if k == kind {
                drawn = Some(v);
            }
        }
        drawn.map_or(0.0, |v| v - mean)
    }

    /// The drawer's margin after drawing `kind` and playing the turn as
    /// greedy would.
    fn value_after(&mut self, state: &State, kind: carcassonne_engine::TileKind, drawer: usize) -> f32 {
        let mut next = state.clone();
        next.play_unchecked(Action::Draw(kind));
        if next.actor() == Some(Actor::Player(drawer)) {
            if let Some(&(v, _)) = self.greedy.rank(&next).first() {
                return v;
            }
        }
        let v = self.evaluator.values(&next);
        evaluation::margin(&v, next.rules().players(), drawer)
    }
}
