//! Chance nodes ([`Draws::Chance`](super::Draws::Chance)): a draw is a node
//! whose children are the kinds left in the bag.

use carcassonne_engine::{Action, Actor, State};
use rand::Rng;

use super::tree::Tree;
use super::MctsConfig;

impl Tree {
    /// One iteration of the tree with chance nodes, from node `at`.
    pub(super) fn iterate(&mut self, at: usize, root: &State, config: &MctsConfig) {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        self.path.clear();
        self.path.push(at as u32);
        let mut n = at;
        while let Some(actor) = state.actor() {
            if !self.nodes[n].expanded {
                self.expand(n, &state);
            }
            let c = match actor {
                Actor::Chance => self.chance_child(n, &state),
                Actor::Player(_) => self.select(n, config.exploration, config.fpu),
            };
            state.play_unchecked(self.nodes[c].action);
            self.path.push(c as u32);
            if self.nodes[c].visits == 0 {
                break;
            }
            n = c;
        }
        self.finish(&mut state, config);
        self.scratch = Some(state);
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

    /// UCT over the children of decision node `n`. Children not yet tried
    /// come first, at random; with first-play urgency `fpu` they come only
    /// when the value it gives them beats the best tried child's score.
    fn select(&mut self, n: usize, exploration: f32, fpu: Option<f32>) -> usize {
        let node = self.nodes[n];
        let children = &self.nodes[node.first as usize..node.first as usize + node.len as usize];
        let log_n = (node.visits.max(1) as f32).ln();
        let (mut best, mut unvisited, mut value, mut visits) = ((f32::NEG_INFINITY, 0), 0, 0.0, 0u32);
        for (i, c) in children.iter().enumerate() {
            if c.visits == 0 {
                unvisited += 1;
                continue;
            }
            let v = c.visits as f32;
            let score = c.value / v + exploration * (log_n / v).sqrt();
            if score > best.0 {
                best = (score, i);
            }
            value += c.value;
            visits += c.visits;
        }
        let untried_first = match fpu {
            _ if visits == 0 => true,
            None => unvisited > 0,
            Some(r) => unvisited > 0 && value / visits as f32 - r + exploration * log_n.sqrt() > best.0,
        };
        if untried_first {
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
        node.first as usize + best.1
    }
}
