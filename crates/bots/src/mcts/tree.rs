//! One search tree: its nodes, and what both ways of treating the draws
//! share (growing the root, running iterations, backing rewards up).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Action, Actor, State, Step, TileKind};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Draws, MctsConfig};
use crate::evaluation::{self, Evaluator};

/// The mover of chance's nodes (and of the root).
pub(super) const CHANCE: u8 = u8::MAX;
/// No node: the end of a list of children.
pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The action that leads here from the parent.
    pub(super) action: Action,
    /// Who chose `action`: a seat, or [`CHANCE`].
    pub(super) mover: u8,
    /// The step at which `action` was chosen (determinized trees tell a
    /// pass of one step from a pass of another by it).
    pub(super) step: Step,
    pub(super) expanded: bool,
    /// The first child. Chance trees add all children of a node at once,
    /// at `first..first + len`; determinized trees add them one at a time,
    /// each linking to the next by `next`.
    pub(super) first: u32,
    pub(super) len: u32,
    /// The next child of the same parent (determinized trees), or [`NONE`].
    pub(super) next: u32,
    pub(super) visits: u32,
    /// Determinized trees: iterations in which this node's action was legal
    /// and its parent was selected from (counted even when another child
    /// was chosen): UCT's parent count for this child.
    pub(super) avail: u32,
    /// Sum of the mover's rewards.
    pub(super) value: f32,
}

impl Node {
    pub(super) fn new(action: Action, mover: u8, step: Step) -> Node {
        Node { action, mover, step, expanded: false, first: NONE, len: 0, next: NONE, visits: 0, avail: 0, value: 0.0 }
    }
}

/// One search tree and the buffers its iterations reuse.
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) path: Vec<u32>,
    pub(super) actions: Vec<Action>,
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) iterations: u64,
    /// The state each iteration plays on, copied from the root into the
    /// same buffers every time (boxed: taken and put back each iteration,
    /// it moves as a pointer, not as a whole state).
    pub(super) scratch: Option<Box<State>>,
    /// Determinized trees: the tiles left in the bag at the root, shuffled
    /// into this iteration's draw order.
    pub(super) order: Vec<TileKind>,
    /// Whether some of them must be drawn before others (The River's
    /// tiles): each shuffled order is then sorted by draw stage.
    pub(super) staged_order: bool,
    /// Determinized trees, while selecting: which legal actions (sorted in
    /// `actions`) have a child, and the children that are legal.
    pub(super) tried: Vec<bool>,
    pub(super) legal_children: Vec<u32>,
    /// Scores the positions where playouts are cut.
    pub(super) evaluator: Evaluator,
    /// The node the last run started from, and what its children's
    /// iterations ended in (for analysis: win chances and margins).
    pub(super) root_at: u32,
    pub(super) root_stats: Vec<RootStat>,
    /// Ends the iterations early when set (the engine protocol's `stop`).
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// What a margin is rewarded against: 0, except in a solo game, where
    /// the margin is the player's score and its reward is taken against
    /// the score the evaluation expects at the root, so that the squashed
    /// reward still tells 150 points from 170.
    par: f32,
}

/// What the iterations through one child of the root ended in, per player.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RootStat {
    pub(super) n: u32,
    /// Sums of the win chances (a finished game's win, a tie shared) and of
    /// the margins against the best other player.
    pub(super) wins: [f32; MAX_PLAYERS],
    pub(super) margins: [f32; MAX_PLAYERS],
}

/// How an iteration ended, for each player.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Outcome {
    pub(super) rewards: [f32; MAX_PLAYERS],
    pub(super) wins: [f32; MAX_PLAYERS],
    pub(super) margins: [f32; MAX_PLAYERS],
}

impl Tree {
    pub(super) fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            path: Vec::with_capacity(256),
            actions: Vec::with_capacity(256),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            iterations: 0,
            scratch: None,
            order: Vec::with_capacity(128),
            staged_order: false,
            tried: Vec::with_capacity(256),
            legal_children: Vec::with_capacity(256),
            evaluator: Evaluator::default(),
            par: 0.0,
            root_at: NONE,
            root_stats: Vec::with_capacity(256),
            stop: None,
        }
    }

    pub(super) fn search(
        &mut self,
        root: &State,
        config: &MctsConfig,
        seed: u64,
        iterations: usize,
        deadline: Option<Instant>,
    ) {
        self.search_among(root, None, config, seed, iterations, deadline);
    }

    /// As [`search`](Self::search), with the root's children cut to `only`
    /// when it is given (and legal): what the rest of the game holds after
    /// that one action, for a review of a move that was played.
    pub(super) fn search_among(
        &mut self,
        root: &State,
        only: Option<Action>,
        config: &MctsConfig,
        seed: u64,
        iterations: usize,
        deadline: Option<Instant>,
    ) {
        self.nodes.clear();
        self.iterations = 0;
        self.nodes.push(Node::new(Action::Pass, CHANCE, Step::Draw));
        // Both kinds of tree list the root's children at once, in legal
        // order, so that the trees' root statistics line up.
        self.expand(0, root);
        if let Some(action) = only {
            let first = self.nodes[0].first as usize;
            let Some(c) = (first..first + self.nodes[0].len as usize).find(|&c| self.nodes[c].action == action) else {
                return;
            };
            self.nodes[c].next = NONE;
            let node = &mut self.nodes[0];
            node.first = c as u32;
            node.len = 1;
        } else if self.nodes[0].len <= 1 {
            // Nothing to weigh: one legal action.
            return;
        }
        self.run(0, root, config, seed, iterations, deadline);
    }

    /// Runs `iterations` (or until `deadline`) from node `at`, whose
    /// position is `root`. Determinized trees always run from their root.
    pub(super) fn run(
        &mut self,
        at: usize,
        root: &State,
        config: &MctsConfig,
        seed: u64,
        iterations: usize,
        deadline: Option<Instant>,
    ) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.iterations = 0;
        self.evaluator.set_weights(config.weights);
        self.par = if root.rules().players() == 1 { self.evaluator.values(root)[0] } else { 0.0 };
        if self.root_at != at as u32 || self.root_stats.len() != self.nodes[at].len as usize {
            self.root_at = at as u32;
            self.root_stats.clear();
            self.root_stats.resize(self.nodes[at].len as usize, RootStat::default());
        }
        if config.draws == Draws::Determinized {
            let bag = root.bag();
            self.order.clear();
            for kind in bag.kinds() {
                self.order.extend(std::iter::repeat_n(kind, bag.count(kind) as usize));
            }
            self.staged_order = bag.drawable_total() != bag.total();
        }
        for i in 0..iterations {
            if i % 16 == 0 && i > 0 {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                if self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                    break;
                }
            }
            match config.draws {
                Draws::Chance => self.iterate(at, root, config),
                Draws::Determinized => self.iterate_determinized(root, config),
            }
            self.iterations += 1;
        }
    }

    /// Adds all the children of node `n`, whose position is `state`.
    pub(super) fn expand(&mut self, n: usize, state: &State) {
        let first = self.nodes.len();
        let step = state.step();
        match state.actor() {
            None => {}
            Some(Actor::Chance) => {
                self.nodes.extend(state.bag().drawable().map(|k| Node::new(Action::Draw(k), CHANCE, step)));
            }
            Some(Actor::Player(p)) => {
                self.actions.clear();
                state.legal_actions(&mut self.actions);
                self.nodes.extend(self.actions.iter().map(|a| Node::new(*a, p as u8, step)));
            }
        }
        let end = self.nodes.len();
        for c in first..end.saturating_sub(1) {
            self.nodes[c].next = c as u32 + 1;
        }
        let node = &mut self.nodes[n];
        node.first = first as u32;
        node.len = (end - first) as u32;
        node.expanded = true;
    }

    /// Adds the rewards of the finished game `state` to the nodes on the path.
    pub(super) fn back_up(&mut self, state: &State, config: &MctsConfig) {
        let outcome = outcome(state, config, self.par);
        self.back_up_outcome(&outcome);
    }

    /// Ends an iteration at `state`: plays it out to the end, or with
    /// [`MctsConfig::cut`] for that many turns and scores it by the
    /// evaluation; then backs the outcome up the path.
    pub(super) fn finish(&mut self, state: &mut State, config: &MctsConfig) {
        let Some(turns) = config.cut else {
            crate::random::play_out(state, &mut self.rng, &mut self.actions);
            return self.back_up(state, config);
        };
        carcassonne_engine::playout::play_random_turns(state, &mut self.rng, &mut self.actions, u32::from(turns));
        if state.is_over() {
            return self.back_up(state, config);
        }
        let v = self.evaluator.values(state);
        let phase = self.evaluator.phase(state);
        let players = state.rules().players();
        let wins = self.evaluator.win_probabilities(&v, players, phase);
        let mut out = Outcome { wins, ..Outcome::default() };
        for i in 0..players {
            out.margins[i] = evaluation::margin(&v, players, i);
            out.rewards[i] = reward(out.wins[i], out.margins[i] - self.par, config);
        }
        self.back_up_outcome(&out);
    }

    fn back_up_outcome(&mut self, outcome: &Outcome) {
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            if node.mover != CHANCE {
                node.value += outcome.rewards[node.mover as usize];
            }
        }
        // The root's child on this path, for the analysis.
        if let (Some(&root), Some(&child)) = (self.path.first(), self.path.get(1)) {
            if root == self.root_at {
                let first = self.nodes[root as usize].first;
                if let Some(st) = child.checked_sub(first).and_then(|k| self.root_stats.get_mut(k as usize)) {
                    st.n += 1;
                    for p in 0..MAX_PLAYERS {
                        st.wins[p] += outcome.wins[p];
                        st.margins[p] += outcome.margins[p];
                    }
                }
            }
        }
    }
}

/// A player's reward in [0, 1] from their chance to win and their margin.
fn reward(win: f32, margin: f32, config: &MctsConfig) -> f32 {
    let squashed = 0.5 + 0.5 * (margin / config.margin_scale).tanh();
    (1.0 - config.margin_weight) * win + config.margin_weight * squashed
}

/// Each player's outcome, rewards in [0, 1], from the final scores of a
/// finished game, margins rewarded against `par`.
pub(super) fn outcome(state: &State, config: &MctsConfig, par: f32) -> Outcome {
    let scores = state.final_score_array();
    let players = state.rules().players();
    let top = scores[..players].iter().copied().max().unwrap_or(0);
    let winners = scores[..players].iter().filter(|s| **s == top).count() as f32;
    let mut out = Outcome::default();
    for i in 0..players {
        let best_other = (0..players).filter(|j| *j != i).map(|j| scores[j]).max().unwrap_or(0);
        out.margins[i] = scores[i] as f32 - best_other as f32;
        out.wins[i] = if scores[i] == top { 1.0 / winners } else { 0.0 };
        out.rewards[i] = reward(out.wins[i], out.margins[i] - par, config);
    }
    out
}
