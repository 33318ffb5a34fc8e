//! Determinized trees ([`Draws::Determinized`](super::Draws::Determinized)):
//! each iteration plays one shuffled draw order; nodes are keyed by the
//! players' actions, chosen by UCT with availability counts.

use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Action, Actor, State};
use rand::seq::SliceRandom;
use rand::Rng;

use super::tree::{Node, Tree, NONE};
use super::MctsConfig;

impl Tree {
    /// One iteration of the determinized tree: a fresh draw order, then
    /// decisions from the tree while it has the position's node, random
    /// ones after.
    pub(super) fn iterate_determinized(&mut self, root: &State, config: &MctsConfig) {
        let mut state = self.scratch.take().unwrap_or_else(|| Box::new(root.clone()));
        (*state).clone_from(root);
        self.order.shuffle(&mut self.rng);
        if self.staged_order {
            // A stable sort: random within each stage, the first stage first.
            self.order.sort_by_key(|k| std::cmp::Reverse(k.info().stage));
        }
        let mut drawn = 0;
        self.path.clear();
        self.path.push(0);
        let mut n = 0usize;
        let mut in_tree = true;
        while let Some(actor) = state.actor() {
            let action = match actor {
                Actor::Chance => {
                    // The order holds every tile left in the bag at the root.
                    drawn += 1;
                    Action::Draw(self.order[drawn - 1])
                }
                Actor::Player(p) if in_tree => {
                    let c = self.select_available(n, &state, p as u8, config.exploration);
                    self.path.push(c as u32);
                    // A new node: its first visit finishes with a playout.
                    in_tree = self.nodes[c].visits > 0;
                    n = c;
                    debug_assert!(state.is_legal(self.nodes[c].action), "the tree offers legal actions only");
                    self.nodes[c].action
                }
                Actor::Player(_) => {
                    random_action(&state, &mut self.rng, &mut self.actions).expect("a player to act has a legal action")
                }
            };
            state.play_unchecked(action);
        }
        self.back_up(&state, config);
        self.scratch = Some(state);
    }

    /// The child of node `n` to follow in a determinized tree, where player
    /// `mover` acts in `state`: a new child for a legal action not tried
    /// here yet, at random, if there is one; else an unvisited child (the
    /// root's); else UCT with availability counts over the legal children.
    fn select_available(&mut self, n: usize, state: &State, mover: u8, exploration: f32) -> usize {
        let step = state.step();
        self.actions.clear();
        state.legal_actions(&mut self.actions);
        self.actions.sort_unstable();
        self.tried.clear();
        self.tried.resize(self.actions.len(), false);
        self.legal_children.clear();
        let mut c = self.nodes[n].first;
        while c != NONE {
            let child = &mut self.nodes[c as usize];
            if child.mover == mover && child.step == step {
                if let Ok(i) = self.actions.binary_search(&child.action) {
                    self.tried[i] = true;
                    child.avail += 1;
                    self.legal_children.push(c);
                }
            }
            c = child.next;
        }

        let untried = self.actions.len() - self.legal_children.len();
        if untried > 0 {
            let k = self.rng.random_range(0..untried);
            let i = self.tried.iter().enumerate().filter(|(_, t)| !**t).nth(k).expect("k < untried").0;
            let new = self.nodes.len();
            let parent = &mut self.nodes[n];
            let mut child = Node::new(self.actions[i], mover, step);
            child.avail = 1;
            child.next = parent.first;
            parent.first = new as u32;
            parent.len += 1;
            self.nodes.push(child);
            return new;
        }

        let unvisited = self.legal_children.iter().filter(|c| self.nodes[**c as usize].visits == 0).count();
        if unvisited > 0 {
            let k = self.rng.random_range(0..unvisited);
            let c = self.legal_children.iter().filter(|c| self.nodes[**c as usize].visits == 0).nth(k);
            return *c.expect("k < unvisited") as usize;
        }

        let mut best = (f32::NEG_INFINITY, self.legal_children[0]);
        for &c in &self.legal_children {
            let child = &self.nodes[c as usize];
            let v = child.visits as f32;
            let score = child.value / v + exploration * ((child.avail as f32).ln() / v).sqrt();
            if score > best.0 {
                best = (score, c);
            }
        }
        best.1 as usize
    }
}
