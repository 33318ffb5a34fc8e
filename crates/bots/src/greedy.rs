//! One-turn lookahead: the best position at the end of this turn.
//!
//! Every decision of a turn (place, deploy, ferry, ferry moves) is made by
//! the same player before chance draws again, so the bot tries every way to
//! finish the turn and keeps the one whose end position is worth most: by
//! the learned evaluation ([`Evaluator`], the default), or by the hand-set
//! [`Estimator`] of the first greedy player (`greedy:eval=hand`). Asked again at a later step of the same turn, it
//! searches the rest of the turn again, which is small.

use carcassonne_engine::{Action, Actor, Pos, State, Step};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::eval::{Estimator, Weights};
use crate::evaluation::{margin, Evaluator, Model};
use crate::Bot;

/// End positions evaluated per decision at most; past it the rest of a turn
/// is finished by passing (only many movable ferries come near it).
const MAX_EVALUATIONS: u32 = 20_000;

/// Values closer than this are ties, broken at random.
const TIE: f32 = 1e-4;

#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: Xoshiro256PlusPlus,
    valuer: Valuer,
    /// Legal action lists, one per depth of the turn, reused.
    lists: Vec<Vec<Action>>,
    /// How it picks below the best (`greedy:top=P:temp=T`, the easy
    /// levels); `None` always takes the best.
    top: Option<Slips>,
    /// Each first action with the value of its best continuation, reused.
    ranked: Vec<(f32, Action)>,
    /// Look one reply further (`greedy:reply=K`): the `K` best actions
    /// are valued after the next player's greedy reply to each next tile.
    reply: Option<u8>,
}

/// A weaker player's choice: among the best `percent` of the actions, by
/// a softmax of their values at `temperature` points.
#[derive(Clone, Copy, Debug)]
struct Slips {
    percent: u8,
    temperature: Option<f32>,
}

/// What values the end positions of a turn.
#[derive(Clone, Debug)]
enum Valuer {
    /// The hand-set estimate of [`crate::eval`] (`greedy:eval=hand`).
    Hand(Estimator),
    /// The learned evaluation of [`crate::evaluation`] (the default).
    Learned(Evaluator),
}

impl Valuer {
    fn margin(&mut self, state: &State, player: usize) -> f32 {
        let v = match self {
            Valuer::Hand(e) => e.values(state),
            Valuer::Learned(e) => e.values(state),
        };
        margin(&v, state.rules().players(), player)
    }
}

impl GreedyBot {
    /// The greedy player with the learned evaluation, its weights those
    /// of each game's rules.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot::with_valuer(seed, Valuer::Learned(Evaluator::default()))
    }

    /// The greedy player with the learned evaluation of `model`.
    pub fn with_model(seed: u64, model: &'static Model) -> GreedyBot {
        GreedyBot::with_valuer(seed, Valuer::Learned(Evaluator::new(model)))
    }

    /// The greedy player of the hand-set estimate (before the learned evaluation).
    pub fn hand(seed: u64) -> GreedyBot {
        GreedyBot::with_weights(seed, Weights::default())
    }

    /// The greedy player of the hand-set estimate with these weights.
    pub fn with_weights(seed: u64, weights: Weights) -> GreedyBot {
        GreedyBot::with_valuer(seed, Valuer::Hand(Estimator::new(weights)))
    }

    fn with_valuer(seed: u64, valuer: Valuer) -> GreedyBot {
        GreedyBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            valuer,
            lists: Vec::new(),
            top: None,
            ranked: Vec::new(),
            reply: None,
        }
    }

    /// This bot, playing like a weaker player: each decision keeps only
    /// the best `percent` of its actions (1 to 100) and picks among them at
    /// random, an action `x` points worse than the best with weight
    /// `exp(-x / temperature)` (all alike without a temperature). Nothing
    /// from below the cut is ever played, and small slips are likelier than
    /// blunders.
    pub fn erring(mut self, percent: u8, temperature: Option<f32>) -> GreedyBot {
        self.top = Some(Slips { percent: percent.clamp(1, 100), temperature });
        self
    }

    /// This bot, looking one turn further: the `k` best actions of each
    /// decision (by the end of this turn) are each valued by the mean, over
    /// every tile the next draw may bring (weighted by the copies left), of
    /// the position after the next player answers it greedily.
    pub fn replying(mut self, k: u8) -> GreedyBot {
        self.reply = Some(k.max(1));
        self
    }

    fn choose_with_reply(&mut self, state: &State, player: usize, k: u8) -> Option<Action> {
        let mut ranked = std::mem::take(&mut self.ranked);
        self.rank_into(state, &mut ranked);
        let mut best = (f32::NEG_INFINITY, ranked.first().map(|r| r.1));
        if ranked.len() > 1 {
            for &(_, a) in ranked.iter().take(k as usize) {
                let mut next = state.clone();
                next.play_unchecked(a);
                self.play_greedily_while(&mut next, |actor| actor == Actor::Player(player));
                let v = self.after_the_next_draw(&next, player);
                if v > best.0 + TIE {
                    best = (v, Some(a));
                }
            }
        }
        self.ranked = ranked;
        best.1
    }

    /// Plays greedy decisions while the actor to move passes `go_on`.
    fn play_greedily_while(&mut self, state: &mut State, go_on: impl Fn(Actor) -> bool) {
        while let Some(actor @ Actor::Player(p)) = state.actor() {
            if !go_on(actor) {
                break;
            }
            let mut budget = MAX_EVALUATIONS;
            match self.search(state, p, 0, None, &mut budget).1 {
                Some(a) => state.play_unchecked(a),
                None => break,
            }
        }
    }

    /// `player`'s margin at `state` (the end of their turn), after the
    /// next draw and the greedy turn of whoever it is drawn for, as the
    /// mean over the tiles the draw may bring.
    fn after_the_next_draw(&mut self, state: &State, player: usize) -> f32 {
        if state.actor() != Some(Actor::Chance) {
            return self.valuer.margin(state, player);
        }
        let (mut sum, mut weight) = (0.0, 0.0);
        let kinds: Vec<_> = state.bag().drawable().collect();
        for kind in kinds {
            let w = f32::from(state.bag().count(kind));
            let mut next = state.clone();
            next.play_unchecked(Action::Draw(kind));
            // One turn of another player (and any chance step it has), up to
            // the next draw or `player`'s own decision.
            self.play_greedily_while(&mut next, |actor| actor != Actor::Player(player));
            sum += w * self.valuer.margin(&next, player);
            weight += w;
        }
        if weight > 0.0 {
            sum / weight
        } else {
            self.valuer.margin(state, player)
        }
    }

    /// Every legal action of this decision with the value its best
    /// continuation reaches, best first (ties in a random order).
    pub fn rank(&mut self, state: &State) -> Vec<(f32, Action)> {
        let mut out = Vec::new();
        self.rank_into(state, &mut out);
        out
    }

    fn rank_into(&mut self, state: &State, out: &mut Vec<(f32, Action)>) {
        out.clear();
        let Some(Actor::Player(player)) = state.actor() else {
            return;
        };
        let mut list = Vec::new();
        state.legal_actions(&mut list);
        let mut budget = MAX_EVALUATIONS;
        for a in list {
            let mut next = state.clone();
            next.play_unchecked(a);
            let moved = match a {
                Action::MoveFerry { at, .. } => Some(at),
                _ => None,
            };
            let (v, _) =
                if budget == 0 { self.finish(next, player) } else { self.search(&next, player, 1, moved, &mut budget) };
            out.push((v, a));
        }
        // Shuffled first, so that equal values fall in a random order.
        for i in (1..out.len()).rev() {
            out.swap(i, self.rng.random_range(0..=i));
        }
        out.sort_by(|x, y| y.0.total_cmp(&x.0));
    }

    fn choose_erring(&mut self, state: &State, slips: Slips) -> Option<Action> {
        let mut ranked = std::mem::take(&mut self.ranked);
        self.rank_into(state, &mut ranked);
        let kept = (ranked.len() * slips.percent as usize).div_ceil(100).min(ranked.len());
        let choice = ranked.first().map(|&(best, first)| {
            let weight = |v: f32| slips.temperature.map_or(1.0, |t| ((v - best) / t).exp());
            let total: f32 = ranked[..kept].iter().map(|(v, _)| weight(*v)).sum();
            let mut r = self.rng.random_range(0.0..total);
            for &(v, a) in &ranked[..kept] {
                r -= weight(v);
                if r < 0.0 {
                    return a;
                }
            }
            first
        });
        self.ranked = ranked;
        choice
    }

    /// The best value reachable by `player` before the turn ends, and the
    /// first action towards it. `after` is the last ferry moved on this path:
    /// moves of different ferries commute, so they are tried in one order.
    fn search(
        &mut self,
        state: &State,
        player: usize,
        depth: usize,
        after: Option<Pos>,
        budget: &mut u32,
    ) -> (f32, Option<Action>) {
        if state.actor() != Some(Actor::Player(player)) {
            *budget = budget.saturating_sub(1);
            return (self.valuer.margin(state, player), None);
        }
        while self.lists.len() <= depth {
            self.lists.push(Vec::with_capacity(128));
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        list.clear();
        state.legal_actions(&mut list);
        if state.step() == Step::MoveFerries {
            list.retain(|a| match a {
                Action::MoveFerry { at, .. } => after.is_none_or(|last| *at > last),
                _ => true,
            });
        }
        let mut best = (f32::NEG_INFINITY, None);
        let mut ties = 0u32;
        for &a in &list {
            if *budget == 0 && best.1.is_some() {
                break;
            }
            let mut next = state.clone();
            next.play_unchecked(a);
            let moved = match a {
                Action::MoveFerry { at, .. } => Some(at),
                _ => None,
            };
            let (v, _) = if *budget == 0 {
                self.finish(next, player)
            } else {
                self.search(&next, player, depth + 1, moved, budget)
            };
            if v > best.0 + TIE {
                best = (v, Some(a));
                ties = 1;
            } else if v >= best.0 - TIE {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best.1 = Some(a);
                }
            }
        }
        self.lists[depth] = list;
        best
    }

    /// Ends the turn the cheapest way (passing where allowed) and values it.
    fn finish(&mut self, mut state: State, player: usize) -> (f32, Option<Action>) {
        let mut buf = Vec::new();
        while state.actor() == Some(Actor::Player(player)) {
            buf.clear();
            state.legal_actions(&mut buf);
            let a = if buf.contains(&Action::Pass) { Action::Pass } else { buf[0] };
            state.play_unchecked(a);
        }
        (self.valuer.margin(&state, player), None)
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, state: &State) -> Option<Action> {
        let Some(Actor::Player(player)) = state.actor() else {
            return None;
        };
        if let Some(slips) = self.top {
            return self.choose_erring(state, slips);
        }
        if let Some(k) = self.reply {
            return self.choose_with_reply(state, player, k);
        }
        let mut budget = MAX_EVALUATIONS;
        self.search(state, player, 0, None, &mut budget).1
    }
}
