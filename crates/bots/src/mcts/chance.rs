//! Chance nodes ([`Draws::Chance`](super::Draws::Chance)): a draw is a node
//! whose children are the kinds left in the bag.

use carcassonne_engine::{Action, Actor, State};
use rand::Rng;

use super::tree::{Node, Tree};
use super::MctsConfig;

impl Tree {
    /// One iteration of the tree with chance nodes, from node `at`.
    pub(super) fn iterate(&mut self, at: usize, root: &State, config: &MctsConfig) {
        let mut state = self.scratch.take().unwrap_or_else(|| Box::new(root.clone()));
        (*state).clone_from(root);
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
        let (first, len) = (self.nodes[n].first as usize, self.nodes[n].len as usize);
        let kind = state.bag().sample(&mut self.rng).expect("chance draws from a bag that is not empty");
        // The children are the drawable kinds in the bag's order, which is
        // the kinds' (`expand`): a binary search finds the drawn one.
        let children = &self.nodes[first..first + len];
        let i = children.partition_point(|c| matches!(c.action, Action::Draw(k) if k < kind));
        if children.get(i).is_some_and(|c| c.action == Action::Draw(kind)) {
            return first + i;
        }
        // Not in order after all: looked for one by one.
        first
            + children
                .iter()
                .position(|c| c.action == Action::Draw(kind))
                .expect("a chance node has a child for every kind in the bag")
    }

    /// UCT over the children of decision node `n`. Children not yet tried
    /// come first, at random; with first-play urgency `fpu` they come only
    /// when the value it gives them beats the best tried child's score.
    fn select(&mut self, n: usize, exploration: f32, fpu: Option<f32>) -> usize {
        let (first, len) = (self.nodes[n].first as usize, self.nodes[n].len as usize);
        let children = &self.nodes[first..first + len];
        let (mut unvisited, mut visits) = (0, 0u32);
        for c in children {
            unvisited += u32::from(c.visits == 0);
            visits += c.visits;
        }
        // Without first-play urgency an untried child comes first whatever
        // the scores: they are computed only when one may be chosen.
        if visits > 0 && (fpu.is_some() || unvisited == 0) {
            let log_n = (self.nodes[n].visits.max(1) as f32).ln();
            let best = best_uct(children, log_n, exploration);
            let untried_first = fpu.is_some_and(|r| {
                // The tried children's values summed in order (an untried
                // one adds +0.0, which changes no sum of rewards).
                let value = children.iter().fold(0.0, |sum, c| sum + c.value);
                unvisited > 0 && value / visits as f32 - r + exploration * log_n.sqrt() > best.0
            });
            if !untried_first {
                return first + best.1;
            }
        }
        let mut k = self.rng.random_range(0..unvisited);
        for (i, c) in children.iter().enumerate() {
            if c.visits == 0 {
                if k == 0 {
                    return first + i;
                }
                k -= 1;
            }
        }
        unreachable!("k < unvisited")
    }
}

/// The child with the highest UCT score (the first of equals) and its
/// score; `log_n` is the log of the parent's visits. Untried children are
/// never it (see below), unless none was tried: then the first, at -inf.
fn best_uct(children: &[Node], log_n: f32, exploration: f32) -> (f32, usize) {
    // An untried child's score is NaN (0 / 0: its value is 0), which never
    // compares greater, so no test is needed to leave it out.
    let score = |c: &Node| {
        let v = c.visits as f32;
        c.value / v + exploration * (log_n / v).sqrt()
    };
    // Eight lanes, so that the scores and comparisons can be vector
    // instructions: lane j keeps the best of children j, j + 8, ..., the
    // first of its equals, as a pass in order would.
    const LANES: usize = 8;
    let mut lane_best = [f32::NEG_INFINITY; LANES];
    let mut lane_at = [0u32; LANES];
    let chunks = children.chunks_exact(LANES);
    let rest = chunks.remainder();
    for (k, chunk) in chunks.enumerate() {
        let scores: [f32; LANES] = std::array::from_fn(|j| score(&chunk[j]));
        for j in 0..LANES {
            if scores[j] > lane_best[j] {
                lane_best[j] = scores[j];
                lane_at[j] = (k * LANES + j) as u32;
            }
        }
    }
    // The best lane, the first child among equals; then the rest in order.
    let mut best = (f32::NEG_INFINITY, 0);
    for (s, at) in lane_best.into_iter().zip(lane_at) {
        if s > best.0 || (s == best.0 && (at as usize) < best.1) {
            best = (s, at as usize);
        }
    }
    for (i, c) in rest.iter().enumerate() {
        let s = score(c);
        if s > best.0 {
            best = (s, children.len() - rest.len() + i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use carcassonne_engine::{Action, Step};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    /// The one-by-one pass `best_uct` must agree with, bit for bit.
    fn best_in_order(children: &[Node], log_n: f32, exploration: f32) -> (f32, usize) {
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, c) in children.iter().enumerate() {
            if c.visits == 0 {
                continue;
            }
            let v = c.visits as f32;
            let score = c.value / v + exploration * (log_n / v).sqrt();
            if score > best.0 {
                best = (score, i);
            }
        }
        best
    }

    #[test]
    fn best_uct_picks_as_a_pass_in_order_does() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..20_000 {
            let len = rng.random_range(1..40);
            // Few distinct visits and values, so that equal scores are common.
            let children: Vec<Node> = (0..len)
                .map(|_| {
                    let mut c = Node::new(Action::Pass, 0, Step::Place);
                    c.visits = [0, 0, 1, 2, 4, 9][rng.random_range(0..6)];
                    c.value = c.visits as f32 * rng.random_range(0..3) as f32 / 2.0;
                    c
                })
                .collect();
            let log_n = (rng.random_range(1..200u32) as f32).ln();
            let exploration = [0.0, 0.7, 1.4][rng.random_range(0..3)];
            let (a, b) = (best_uct(&children, log_n, exploration), best_in_order(&children, log_n, exploration));
            assert_eq!((a.0.to_bits(), a.1), (b.0.to_bits(), b.1), "{children:?}");
        }
    }
}
