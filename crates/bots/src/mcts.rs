//! Monte Carlo tree search with chance nodes, parallel over the cores.
//!
//! The bag's order is hidden from everyone alike (the state holds only its
//! contents), so the game is one of perfect information with chance. The
//! tree says so directly: a draw is a chance node whose children are the
//! kinds left in the bag, and each iteration samples one as likely as it is
//! to be drawn. Every other node is a decision of the player to act, chosen
//! by UCT on that player's own mean reward, which serves any player count
//! and the several decisions of one turn alike.
//!
//! Iterations clone the root state (it has no history, so this is cheap),
//! walk down the tree, add one node, and finish the game with random
//! actions. The reward is computed from [`State::final_scores`]: a blend of
//! win (shared on a tie) and a squashed score margin, so that the search
//! still tells good from bad when the game is won or lost anyway.
//!
//! Parallelism is at the root: several independent trees, each on its own
//! thread with a seed derived from the bot's, their root visit counts summed.
//! With an iteration budget the result depends only on the seed, the budget
//! and the number of trees, never on timing.

use std::time::{Duration, Instant};

use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Action, Actor, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::random::play_out;
use crate::{derive_seed, Bot};

/// How much search a decision gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Budget {
    /// Iterations in all, shared among the trees: reproducible.
    Iterations(u32),
    /// Wall-clock time per decision: each tree searches until it is over.
    Time(Duration),
}

/// The settings of an [`MctsBot`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MctsConfig {
    pub budget: Budget,
    /// Independent trees searched in parallel (root parallelization).
    pub trees: usize,
    /// UCT's exploration constant, for rewards in [0, 1].
    pub exploration: f32,
    /// Share of the score margin in the reward (the rest is win or loss).
    pub margin_weight: f32,
    /// Points of margin that count as decisive: the margin enters the
    /// reward as `tanh(margin / margin_scale)`.
    pub margin_scale: f32,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(2000),
            trees: default_trees(),
            exploration: 0.7,
            margin_weight: 0.5,
            margin_scale: 20.0,
        }
    }
}

/// One tree per core of the machine.
pub fn default_trees() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What the last search did.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct SearchStats {
    /// Iterations summed over the trees.
    pub iterations: u64,
    /// Tree nodes summed over the trees.
    pub nodes: u64,
    pub elapsed: Duration,
    /// Share of the root's visits that went to the chosen action.
    pub confidence: f32,
}

/// Monte Carlo tree search; see the module documentation.
pub struct MctsBot {
    config: MctsConfig,
    rng: Xoshiro256PlusPlus,
    trees: Vec<Tree>,
    /// The root's legal actions.
    root: Vec<Action>,
    last: SearchStats,
}

impl MctsBot {
    pub fn new(config: MctsConfig, seed: u64) -> MctsBot {
        let trees = (0..config.trees.max(1)).map(|_| Tree::new()).collect();
        MctsBot {
            config,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            trees,
            root: Vec::new(),
            last: SearchStats::default(),
        }
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Statistics of the last decision (zero iterations when it had one legal action).
    pub fn last_stats(&self) -> SearchStats {
        self.last
    }

    /// Searches `state` (a player's decision) and returns the most visited action.
    pub fn search(&mut self, state: &State) -> Option<Action> {
        let Some(Actor::Player(_)) = state.actor() else {
            return None;
        };
        let started = Instant::now();
        // Draw the seed first, so that later decisions do not depend on
        // whether this one needed a search.
        let base = self.rng.random::<u64>();
        self.root.clear();
        state.legal_actions(&mut self.root);
        if self.root.len() <= 1 {
            self.last = SearchStats { elapsed: started.elapsed(), confidence: 1.0, ..SearchStats::default() };
            return self.root.first().copied();
        }
        let config = self.config;
        let n = self.trees.len();
        let deadline = match config.budget {
            Budget::Time(d) => Some(started + d),
            Budget::Iterations(_) => None,
        };
        let run = |(t, tree): (usize, &mut Tree)| {
            let iterations = match config.budget {
                Budget::Iterations(total) => total as usize / n + usize::from(t < total as usize % n),
                Budget::Time(_) => usize::MAX,
            };
            tree.search(state, &config, derive_seed(base, t as u64), iterations, deadline);
        };
        if n == 1 {
            run((0, &mut self.trees[0]));
        } else {
            self.trees.par_iter_mut().enumerate().for_each(run);
        }

        // Sum the root's visits over the trees: every tree lists the root's
        // children in the same (legal action) order.
        let root_len = self.trees[0].nodes[0].len as usize;
        let first = self.trees[0].nodes[0].first as usize;
        let mut best: Option<(u64, f32, usize)> = None;
        let mut total_visits = 0u64;
        for i in 0..root_len {
            let (mut visits, mut value) = (0u64, 0f32);
            for tree in &self.trees {
                let c = &tree.nodes[tree.nodes[0].first as usize + i];
                visits += c.visits as u64;
                value += c.value;
            }
            total_visits += visits;
            let mean = if visits > 0 { value / visits as f32 } else { 0.0 };
            if best.is_none_or(|(bv, bm, _)| visits > bv || (visits == bv && mean > bm)) {
                best = Some((visits, mean, i));
            }
        }
        let (visits, _, i) = best?;
        self.last = SearchStats {
            iterations: self.trees.iter().map(|t| t.iterations).sum(),
            nodes: self.trees.iter().map(|t| t.nodes.len() as u64).sum(),
            elapsed: started.elapsed(),
            confidence: if total_visits > 0 { visits as f32 / total_visits as f32 } else { 1.0 },
        };
        Some(self.trees[0].nodes[first + i].action)
    }
}

impl Bot for MctsBot {
    fn choose(&mut self, state: &State) -> Option<Action> {
        self.search(state)
    }

    fn last_search(&self) -> Option<SearchStats> {
        Some(self.last)
    }
}

/// The mover of chance's nodes.
const CHANCE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The action that leads here from the parent.
    action: Action,
    /// Children are `first..first + len`, once expanded.
    first: u32,
    len: u16,
    expanded: bool,
    /// Who chose `action`: a seat, or [`CHANCE`].
    mover: u8,
    visits: u32,
    /// Sum of the mover's rewards.
    value: f32,
}

impl Node {
    fn new(action: Action, mover: u8) -> Node {
        Node { action, first: 0, len: 0, expanded: false, mover, visits: 0, value: 0.0 }
    }
}

/// One search tree and the buffers its iterations reuse.
struct Tree {
    nodes: Vec<Node>,
    path: Vec<u32>,
    actions: Vec<Action>,
    rng: Xoshiro256PlusPlus,
    iterations: u64,
    /// The state each iteration plays on, copied from the root into the
    /// same buffers every time.
    scratch: Option<State>,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            path: Vec::with_capacity(256),
            actions: Vec::with_capacity(256),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            iterations: 0,
            scratch: None,
        }
    }

    fn search(&mut self, root: &State, config: &MctsConfig, seed: u64, iterations: usize, deadline: Option<Instant>) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.nodes.clear();
        self.iterations = 0;
        self.nodes.push(Node::new(Action::Pass, CHANCE));
        self.expand(0, root);
        // Nothing to weigh: one legal action.
        if self.nodes[0].len <= 1 {
            return;
        }
        for i in 0..iterations {
            if let Some(d) = deadline {
                if i % 16 == 0 && i > 0 && Instant::now() >= d {
                    break;
                }
            }
            self.iterate(root, config);
            self.iterations += 1;
        }
    }

    /// Adds the children of node `n`, whose position is `state`.
    fn expand(&mut self, n: usize, state: &State) {
        let first = self.nodes.len();
        match state.actor() {
            None => {}
            Some(Actor::Chance) => {
                self.nodes.extend(state.bag().kinds().map(|k| Node::new(Action::Draw(k), CHANCE)));
            }
            Some(Actor::Player(p)) => {
                self.actions.clear();
                state.legal_actions(&mut self.actions);
                self.nodes.extend(self.actions.iter().map(|a| Node::new(*a, p as u8)));
            }
        }
        let len = (self.nodes.len() - first) as u16;
        let node = &mut self.nodes[n];
        node.first = first as u32;
        node.len = len;
        node.expanded = true;
    }

    fn iterate(&mut self, root: &State, config: &MctsConfig) {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        self.path.clear();
        self.path.push(0);
        let mut n = 0usize;
        while let Some(actor) = state.actor() {
            if !self.nodes[n].expanded {
                self.expand(n, &state);
            }
            let c = match actor {
                Actor::Chance => self.chance_child(n, &state),
                Actor::Player(_) => self.select(n, config.exploration),
            };
            state.play_unchecked(self.nodes[c].action);
            self.path.push(c as u32);
            if self.nodes[c].visits == 0 {
                break;
            }
            n = c;
        }
        play_out(&mut state, &mut self.rng, &mut self.actions);
        let rewards = rewards(&state, config);
        self.scratch = Some(state);
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            if node.mover != CHANCE {
                node.value += rewards[node.mover as usize];
            }
        }
    }

    /// The child of chance node `n` for a tile drawn at random from the bag.
    fn chance_child(&mut self, n: usize, state: &State) -> usize {
        let node = self.nodes[n];
        let kind = state.bag().sample(&mut self.rng).expect("chance draws from a bag that is not empty");
        let range = node.first as usize..node.first as usize + node.len as usize;
        range
            .clone()
            .find(|&c| self.nodes[c].action == Action::Draw(kind))
            .expect("a chance node has a child for every kind in the bag")
    }

    /// UCT over the children of decision node `n`; unvisited ones first, at random.
    fn select(&mut self, n: usize, exploration: f32) -> usize {
        let node = self.nodes[n];
        let children = &self.nodes[node.first as usize..node.first as usize + node.len as usize];
        let unvisited = children.iter().filter(|c| c.visits == 0).count();
        if unvisited > 0 {
            let mut k = self.rng.random_range(0..unvisited);
            for (i, c) in children.iter().enumerate() {
                if c.visits == 0 {
                    if k == 0 {
                        return node.first as usize + i;
                    }
                    k -= 1;
                }
            }
        }
        let log_n = (node.visits.max(1) as f32).ln();
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, c) in children.iter().enumerate() {
            let v = c.visits as f32;
            let score = c.value / v + exploration * (log_n / v).sqrt();
            if score > best.0 {
                best = (score, i);
            }
        }
        node.first as usize + best.1
    }
}

/// Each player's reward in [0, 1] from the final scores of a finished game.
fn rewards(state: &State, config: &MctsConfig) -> [f32; MAX_PLAYERS] {
    let scores = state.final_score_array();
    let players = state.rules().players();
    let top = scores.iter().copied().max().unwrap_or(0);
    let winners = scores.iter().filter(|s| **s == top).count() as f32;
    let mut out = [0.0; MAX_PLAYERS];
    for (i, r) in out.iter_mut().take(players).enumerate() {
        let best_other = (0..players).filter(|j| *j != i).map(|j| scores[j]).max().unwrap_or(0);
        let margin = scores[i] as f32 - best_other as f32;
        let win = if scores[i] == top { 1.0 / winners } else { 0.0 };
        let squashed = 0.5 + 0.5 * (margin / config.margin_scale).tanh();
        *r = (1.0 - config.margin_weight) * win + config.margin_weight * squashed;
    }
    out
}
