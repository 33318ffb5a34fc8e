//! One search tree: its nodes, and what both ways of treating the draws
//! share (growing the root, running iterations, backing rewards up).

use std::time::Instant;

use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Action, Actor, State, Step, TileKind};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Draws, MctsConfig};

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
    /// same buffers every time.
    pub(super) scratch: Option<State>,
    /// Determinized trees: the tiles left in the bag at the root, shuffled
    /// into this iteration's draw order.
    pub(super) order: Vec<TileKind>,
    /// Determinized trees, while selecting: which legal actions (sorted in
    /// `actions`) have a child, and the children that are legal.
    pub(super) tried: Vec<bool>,
    pub(super) legal_children: Vec<u32>,
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
            tried: Vec::with_capacity(256),
            legal_children: Vec::with_capacity(256),
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
        self.nodes.clear();
        self.iterations = 0;
        self.nodes.push(Node::new(Action::Pass, CHANCE, Step::Draw));
        // Both kinds of tree list the root's children at once, in legal
        // order, so that the trees' root statistics line up.
        self.expand(0, root);
        // Nothing to weigh: one legal action.
        if self.nodes[0].len <= 1 {
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
        if config.draws == Draws::Determinized {
            let bag = root.bag();
            self.order.clear();
            for kind in bag.kinds() {
                self.order.extend(std::iter::repeat_n(kind, bag.count(kind) as usize));
            }
        }
        for i in 0..iterations {
            if let Some(d) = deadline {
                if i % 16 == 0 && i > 0 && Instant::now() >= d {
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
                self.nodes.extend(state.bag().kinds().map(|k| Node::new(Action::Draw(k), CHANCE, step)));
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
        let rewards = rewards(state, config);
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            if node.mover != CHANCE {
                node.value += rewards[node.mover as usize];
            }
        }
    }
}

/// Each player's reward in [0, 1] from the final scores of a finished game.
pub(super) fn rewards(state: &State, config: &MctsConfig) -> [f32; MAX_PLAYERS] {
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
