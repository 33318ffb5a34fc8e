//! Monte Carlo tree search over the hidden draw order, parallel over the cores.
//!
//! The bag's order is hidden from everyone alike (the state holds only its
//! contents): no player knows more than another, so the game is one of
//! perfect information with chance. The search can treat the draws in two
//! ways, chosen by [`MctsConfig::draws`] (`draws=` in a bot spec):
//!
//! - [`Draws::Chance`]: chance nodes. A draw is a node whose children are
//!   the kinds left in the bag, and each iteration samples one as likely as
//!   it is to be drawn. The tree is the game's own expectimax tree, so its
//!   values converge to the expected reward of each decision, and every
//!   decision below a draw is searched for the tile actually drawn; the
//!   price is that every draw splits the iterations among the kinds left,
//!   so with a modest budget the tree sees little past the next draw.
//! - [`Draws::Determinized`]: information-set MCTS over determinizations.
//!   Each iteration shuffles the tiles left in the bag into one full order
//!   (with the tree's generator) and plays the whole iteration, tree and
//!   playout, with that order. The tree has decision nodes only, keyed by
//!   the players' actions (and who took them, at which step): positions
//!   after different draws share a node. A node's children are added one per
//!   iteration, for an action legal in this determinization and not tried
//!   yet; selection considers only the children legal now, by UCT with
//!   *availability* counts (how often a child could have been chosen, in
//!   place of the parent's visits), since a placement legal for one tile is
//!   not for another. Each determinization is an equally likely order (the
//!   order is hidden from everyone, so every permutation of the bag is
//!   consistent with what the player knows), so a node's value is a mean
//!   over the hidden order, as a chance tree's is; and the iterations are
//!   no longer split at each draw, so the tree reaches further turns. What it gives up is that a later decision
//!   in the tree cannot depend on the tile drawn before it (it is chosen for
//!   all draws at once); the root decision, made on the real position with
//!   the real tile in hand, is unaffected.
//!
//! Every decision node is chosen by UCT on its mover's own mean reward,
//! which serves any player count and the several decisions of one turn
//! alike. Iterations copy the root state into a reused scratch state (it has
//! no history, so this is cheap), walk down the tree, add one node, and
//! finish the game with random actions, allocating nothing once the buffers
//! have grown. The reward is computed from [`State::final_scores`]: a blend
//! of win (shared on a tie) and a squashed score margin, so that the search
//! still tells good from bad when the game is won or lost anyway.
//!
//! A budget covers one decision, or with [`Per::Turn`] a whole turn: the
//! turn's first decision searches, and its later ones (follower, ferries)
//! continue in the chosen child's subtree, which that search already grew.
//!
//! Parallelism is at the root: several independent trees, each on its own
//! thread with a seed derived from the bot's, their root visit counts summed.
//! With an iteration budget the result depends only on the seed, the budget
//! and the number of trees, never on timing.
//!
//! `docs/bots.md` measures the two ways against each other: for the same
//! number of iterations neither is measurably stronger, and chance nodes
//! run about 30% more iterations per second (a determinized tree lists
//! the legal actions at every node of every iteration, to know which
//! children are available), so they are the default.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Action, Actor, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::{derive_seed, Bot};

mod chance;
mod determinized;
mod tree;

use tree::Tree;

/// How much search a decision gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Budget {
    /// Iterations in all, shared among the trees: reproducible.
    Iterations(u32),
    /// Wall-clock time per decision: each tree searches until it is over.
    Time(Duration),
}

/// How the search treats the hidden draw order; see the module documentation.
/// Chance nodes are the default: as strong as determinizations for the same
/// iterations, and faster (`docs/bots.md`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Draws {
    /// A chance node at each draw, sampled by the bag's counts.
    #[default]
    Chance,
    /// One shuffled order of the bag per iteration, and a tree of decisions
    /// only (information-set MCTS with availability counts).
    Determinized,
}

impl Draws {
    /// The name in bot specs: `chance` or `determinized`.
    pub fn name(self) -> &'static str {
        match self {
            Draws::Chance => "chance",
            Draws::Determinized => "determinized",
        }
    }
}

impl fmt::Display for Draws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Draws {
    type Err = String;

    fn from_str(s: &str) -> Result<Draws, String> {
        match s {
            "chance" => Ok(Draws::Chance),
            "determinized" | "det" => Ok(Draws::Determinized),
            _ => Err(format!("'{s}' is not a way of handling draws (chance or determinized)")),
        }
    }
}

/// The settings of an [`MctsBot`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MctsConfig {
    pub budget: Budget,
    /// Independent trees searched in parallel (root parallelization).
    pub trees: usize,
    /// UCT's exploration constant, for rewards in [0, 1].
    pub exploration: f32,
    /// First-play urgency (chance trees): `None` tries every child of a
    /// decision once before comparing any; `Some(r)` gives a child not yet
    /// tried the mean reward of its tried siblings less `r`, so that a
    /// decision with a good reply found need not try every other first.
    pub fpu: Option<f32>,
    /// Share of the score margin in the reward (the rest is win or loss).
    pub margin_weight: f32,
    /// Points of margin that count as decisive: the margin enters the
    /// reward as `tanh(margin / margin_scale)`.
    pub margin_scale: f32,
    /// Chance nodes or determinizations for the hidden draw order.
    pub draws: Draws,
    /// What the budget is for: each decision, or each turn (the first
    /// decision of a turn searches, the later ones continue in its tree).
    pub per: Per,
    /// Playouts: `None` plays each to the end of the game; `Some(n)` plays
    /// `n` turns at random and scores the position by the learned
    /// evaluation (`Some(0)` scores the new leaf itself). Chance trees only.
    pub cut: Option<u16>,
    /// The learned evaluation's weights for cut playouts: those of the
    /// game's rules, or those of the mix of rule sets.
    pub weights: crate::evaluation::Weights,
}

/// What a search budget covers (`per=` in a bot spec).
///
/// A turn has up to four decisions by the same player (place, deploy, place
/// a ferry, move ferries), and no draw comes between them, so the first
/// decision's tree already holds the later ones below the chosen action. With
/// [`Per::Turn`] a later decision re-roots the trees at that child and
/// answers from their visits, topping the search up only when the child has
/// too few of them. That is what "a second a move" means to a player, and it
/// spends the time where it matters, on the placement. Determinized trees
/// share nodes between draws, so they search every decision afresh (bot
/// specs refuse `per=turn` with `draws=determinized`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Per {
    /// A fresh search for every decision.
    #[default]
    Decision,
    /// One search for the whole turn, carried over its later decisions.
    Turn,
}

impl Per {
    /// The name in bot specs: `decision` or `turn`.
    pub fn name(self) -> &'static str {
        match self {
            Per::Decision => "decision",
            Per::Turn => "turn",
        }
    }
}

impl FromStr for Per {
    type Err = String;

    fn from_str(s: &str) -> Result<Per, String> {
        match s {
            "decision" => Ok(Per::Decision),
            "turn" => Ok(Per::Turn),
            _ => Err(format!("'{s}' is not what a budget covers (decision or turn)")),
        }
    }
}

/// A decision carried over from the turn's search gets at least this many
/// visits per legal action (or the budget's iterations, if fewer) before it
/// is answered; the search is topped up to that when the child has fewer.
const CARRIED_VISITS_PER_ACTION: u64 = 32;

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(2000),
            trees: default_trees(),
            exploration: 0.7,
            fpu: None,
            margin_weight: 0.5,
            margin_scale: 20.0,
            draws: Draws::default(),
            per: Per::default(),
            cut: None,
            weights: crate::evaluation::Weights::default(),
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

/// What a search found so far: the root's actions, most visited first,
/// and the principal line of the turn.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub iterations: u64,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The player to move at the root.
    pub mover: usize,
    pub moves: Vec<MoveStat>,
    /// The most visited line from the root until the next draw.
    pub pv: Vec<Action>,
}

/// One action of the root and what its iterations found.
#[derive(Clone, Copy, Debug)]
pub struct MoveStat {
    pub action: Action,
    pub visits: u64,
    /// The mover's mean reward.
    pub value: f32,
    /// Each player's chance to win (ties shared) and expected margin
    /// against the best other player, over the iterations that chose this
    /// action in this search (empty for a turn's later decision answered
    /// from the tree of its first: then `samples` is 0).
    pub samples: u64,
    pub wins: [f32; MAX_PLAYERS],
    pub margins: [f32; MAX_PLAYERS],
}

/// Monte Carlo tree search; see the module documentation.
pub struct MctsBot {
    config: MctsConfig,
    rng: Xoshiro256PlusPlus,
    trees: Vec<Tree>,
    /// The root's legal actions.
    root: Vec<Action>,
    last: SearchStats,
    /// Where the trees continue if the next decision is the expected one.
    carried: Option<Carried>,
    /// The root node of each tree in the last search.
    roots: Vec<u32>,
}

/// The position after the last decision, when it is the same player's next
/// decision of the turn, and its node in each tree.
struct Carried {
    state: State,
    nodes: Vec<u32>,
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
            carried: None,
            roots: Vec::new(),
        }
    }

    /// A flag that ends the search at once when set (the engine protocol's
    /// `stop`); the search then answers with its best action so far.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        for tree in &mut self.trees {
            tree.stop = stop.clone();
        }
    }

    /// Searches `state` as [`search`](Self::search) does, calling `report`
    /// with the analysis so far every `every` (time budgets) or every
    /// thousand iterations (iteration budgets, so that the result still
    /// depends on the seed only); the last report is the search's end.
    pub fn search_reporting(
        &mut self,
        state: &State,
        every: Duration,
        report: &mut dyn FnMut(&Analysis),
    ) -> Option<Action> {
        let Some(Actor::Player(_)) = state.actor() else {
            return None;
        };
        let carried = self.carried.as_ref().is_some_and(|c| c.state == *state);
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        if carried || legal.len() <= 1 {
            let action = self.search(state);
            report(&self.analysis(state));
            return action;
        }
        let started = Instant::now();
        let config = self.config;
        let base = self.rng.random::<u64>();
        self.root = legal;
        self.carried = None;
        let n = self.trees.len();
        for (t, tree) in self.trees.iter_mut().enumerate() {
            tree.search(state, &config, derive_seed(base, t as u64), 0, None);
        }
        let deadline = match config.budget {
            Budget::Time(d) => Some(started + d),
            Budget::Iterations(_) => None,
        };
        let mut done = 0u64;
        for slice in 1u64.. {
            let stopped = self.trees[0].stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
            let (iterations, until) = match config.budget {
                Budget::Iterations(total) => ((total as u64).saturating_sub(done).min(1000), None),
                Budget::Time(_) => (u64::MAX, deadline.map(|d| d.min(Instant::now() + every))),
            };
            if stopped || iterations == 0 || until.is_some_and(|u| Instant::now() >= u) {
                break;
            }
            let sum = std::sync::atomic::AtomicU64::new(0);
            each_tree(&mut self.trees, |t, tree| {
                let share = if iterations == u64::MAX { usize::MAX } else { share(iterations, n, t) };
                tree.run(0, state, &config, derive_seed(base, slice * 1024 + t as u64), share, until);
                sum.fetch_add(tree.iterations, Ordering::Relaxed);
            });
            done += sum.load(Ordering::Relaxed);
            self.roots = vec![0; n];
            let mut a = self.analysis(state);
            a.iterations = done;
            a.elapsed = started.elapsed();
            report(&a);
        }
        self.roots = vec![0; n];
        let mut a = self.analysis(state);
        a.iterations = done;
        a.elapsed = started.elapsed();
        let action = a.moves.first().map(|m| m.action);
        self.last = SearchStats {
            iterations: done,
            nodes: a.nodes,
            elapsed: a.elapsed,
            confidence: a
                .moves
                .first()
                .map_or(1.0, |m| m.visits as f32 / a.moves.iter().map(|m| m.visits).sum::<u64>().max(1) as f32),
        };
        if let (Some(action), Per::Turn) = (action, self.config.per) {
            self.carry(state, action);
        }
        action
    }

    /// Remembers where the trees continue after `action`, if the same
    /// player decides again in this turn.
    fn carry(&mut self, state: &State, action: Action) {
        let Some(Actor::Player(mover)) = state.actor() else {
            return;
        };
        let mut next = state.clone();
        next.play_unchecked(action);
        if next.actor() != Some(Actor::Player(mover)) {
            return;
        }
        let mut nodes = Vec::with_capacity(self.trees.len());
        for (tree, &root) in self.trees.iter().zip(&self.roots) {
            let node = tree.nodes[root as usize];
            let range = node.first as usize..node.first as usize + node.len as usize;
            match range.clone().find(|&c| tree.nodes[c].action == action) {
                Some(c) => nodes.push(c as u32),
                None => return,
            }
        }
        self.carried = Some(Carried { state: next, nodes });
    }

    /// What the last search of `state` found, summed over the trees.
    pub fn analysis(&self, state: &State) -> Analysis {
        let mover = match state.actor() {
            Some(Actor::Player(p)) => p,
            _ => 0,
        };
        let mut a = Analysis {
            iterations: self.last.iterations,
            nodes: self.trees.iter().map(|t| t.nodes.len() as u64).sum(),
            elapsed: self.last.elapsed,
            mover,
            ..Analysis::default()
        };
        if self.roots.len() != self.trees.len()
            || self.trees.iter().zip(&self.roots).any(|(t, r)| *r as usize >= t.nodes.len())
        {
            return a;
        }
        let root0 = self.trees[0].nodes[self.roots[0] as usize];
        for i in 0..root0.len as usize {
            let action = self.trees[0].nodes[root0.first as usize + i].action;
            let mut m = MoveStat {
                action,
                visits: 0,
                value: 0.0,
                samples: 0,
                wins: [0.0; MAX_PLAYERS],
                margins: [0.0; MAX_PLAYERS],
            };
            for (tree, &root) in self.trees.iter().zip(&self.roots) {
                let node = tree.nodes[root as usize];
                if node.len != root0.len {
                    continue;
                }
                let c = &tree.nodes[node.first as usize + i];
                m.visits += c.visits as u64;
                m.value += c.value;
                if tree.root_at == root {
                    if let Some(st) = tree.root_stats.get(i) {
                        m.samples += st.n as u64;
                        for p in 0..MAX_PLAYERS {
                            m.wins[p] += st.wins[p];
                            m.margins[p] += st.margins[p];
                        }
                    }
                }
            }
            if m.visits > 0 {
                m.value /= m.visits as f32;
            }
            if m.samples > 0 {
                for p in 0..MAX_PLAYERS {
                    m.wins[p] /= m.samples as f32;
                    m.margins[p] /= m.samples as f32;
                }
            }
            a.moves.push(m);
        }
        a.moves.sort_by(|x, y| y.visits.cmp(&x.visits).then(y.value.total_cmp(&x.value)));
        // The principal line in the first tree: most visited children of
        // the same player's decisions, up to the next draw.
        // It starts with the action chosen (the most visited over all trees).
        let tree = &self.trees[0];
        let mut n = self.roots[0] as usize;
        let mut first = a.moves.first().map(|m| m.action);
        while tree.nodes[n].expanded && tree.nodes[n].len > 0 {
            let node = tree.nodes[n];
            let mut children = node.first as usize..node.first as usize + node.len as usize;
            let best = match first.take() {
                Some(action) => children.find(|&c| tree.nodes[c].action == action),
                None => children.max_by_key(|&c| tree.nodes[c].visits),
            };
            let Some(best) = best else { break };
            let child = tree.nodes[best];
            if child.mover == tree::CHANCE || child.visits == 0 {
                break;
            }
            a.pv.push(child.action);
            n = best;
        }
        a
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
        let Some(Actor::Player(mover)) = state.actor() else {
            return None;
        };
        let started = Instant::now();
        // Draw the seed first, so that later decisions do not depend on
        // whether this one needed a search.
        let base = self.rng.random::<u64>();
        self.root.clear();
        state.legal_actions(&mut self.root);
        let carried = self.carried.take().filter(|c| c.state == *state);
        let roots = match carried {
            Some(carried) => {
                self.top_up(state, &carried.nodes, base);
                carried.nodes
            }
            None => {
                if self.root.len() <= 1 {
                    self.last = SearchStats { elapsed: started.elapsed(), confidence: 1.0, ..SearchStats::default() };
                    return self.root.first().copied();
                }
                self.search_afresh(state, base);
                vec![0; self.trees.len()]
            }
        };

        // Sum the root's visits over the trees: every tree lists the root's
        // children in the same (legal action) order, one after the other.
        let first = |t: usize| self.trees[t].nodes[roots[t] as usize].first as usize;
        let root_len = self.trees[0].nodes[roots[0] as usize].len as usize;
        let mut best: Option<(u64, f32, usize)> = None;
        let mut total_visits = 0u64;
        for i in 0..root_len {
            let (mut visits, mut value) = (0u64, 0f32);
            for (t, tree) in self.trees.iter().enumerate() {
                let c = &tree.nodes[first(t) + i];
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
        let action = self.trees[0].nodes[first(0) + i].action;
        self.roots.clone_from(&roots);
        self.last = SearchStats {
            iterations: self.trees.iter().map(|t| t.iterations).sum(),
            nodes: self.trees.iter().map(|t| t.nodes.len() as u64).sum(),
            elapsed: started.elapsed(),
            confidence: if total_visits > 0 { visits as f32 / total_visits as f32 } else { 1.0 },
        };
        if self.config.per == Per::Turn && self.config.draws == Draws::Chance {
            let mut next = state.clone();
            next.play_unchecked(action);
            if next.actor() == Some(Actor::Player(mover)) {
                let nodes = (0..self.trees.len()).map(|t| (first(t) + i) as u32).collect();
                self.carried = Some(Carried { state: next, nodes });
            }
        }
        Some(action)
    }

    /// What the search expects of the game after `action` at `state` (a
    /// player's decision), within the same budget as a decision: a search
    /// whose root has that one child. `None` if `action` is not legal
    /// there. Reviews use it for a move the full search tried too rarely to
    /// tell its value.
    pub fn search_action(&mut self, state: &State, action: Action) -> Option<MoveStat> {
        let Some(Actor::Player(_)) = state.actor() else {
            return None;
        };
        let started = Instant::now();
        let base = self.rng.random::<u64>();
        self.carried = None;
        self.search_trees(state, Some(action), base);
        self.roots = vec![0; self.trees.len()];
        let a = self.analysis(state);
        self.last = SearchStats {
            iterations: self.trees.iter().map(|t| t.iterations).sum(),
            nodes: a.nodes,
            elapsed: started.elapsed(),
            confidence: 1.0,
        };
        a.moves.first().copied().filter(|m| m.action == action)
    }

    /// A new tree for each root-parallel search of `state`, within the budget.
    fn search_afresh(&mut self, state: &State, base: u64) {
        self.search_trees(state, None, base);
    }

    /// New trees for `state`, their roots cut to `only` if it is given.
    fn search_trees(&mut self, state: &State, only: Option<Action>, base: u64) {
        let config = self.config;
        let n = self.trees.len();
        let deadline = match config.budget {
            Budget::Time(d) => Some(Instant::now() + d),
            Budget::Iterations(_) => None,
        };
        each_tree(&mut self.trees, |t, tree| {
            let iterations = match config.budget {
                Budget::Iterations(total) => share(total as u64, n, t),
                Budget::Time(_) => usize::MAX,
            };
            tree.search_among(state, only, &config, derive_seed(base, t as u64), iterations, deadline);
        });
    }

    /// Continues the turn's trees at `nodes` (the position `state` in each),
    /// searching on only if they hold too few visits to answer from.
    fn top_up(&mut self, state: &State, nodes: &[u32], base: u64) {
        let config = self.config;
        for (tree, &at) in self.trees.iter_mut().zip(nodes) {
            tree.iterations = 0;
            if !tree.nodes[at as usize].expanded {
                tree.expand(at as usize, state);
            }
        }
        let mut wanted = CARRIED_VISITS_PER_ACTION * self.root.len() as u64;
        if let Budget::Iterations(total) = config.budget {
            wanted = wanted.min(total as u64);
        }
        // The children's visits: the node's own first visit chose none of them.
        let have: u64 = self
            .trees
            .iter()
            .zip(nodes)
            .map(|(tree, &at)| {
                let node = &tree.nodes[at as usize];
                let first = node.first as usize;
                tree.nodes[first..first + node.len as usize].iter().map(|c| c.visits as u64).sum::<u64>()
            })
            .sum();
        if self.root.len() <= 1 || have >= wanted {
            return;
        }
        let (missing, n) = (wanted - have, self.trees.len());
        each_tree(&mut self.trees, |t, tree| {
            tree.run(nodes[t] as usize, state, &config, derive_seed(base, t as u64), share(missing, n, t), None);
        });
    }
}

/// Runs `f` on every tree with its index: on this thread for one tree, on
/// the thread pool for more.
fn each_tree(trees: &mut [Tree], f: impl Fn(usize, &mut Tree) + Sync) {
    if let [tree] = trees {
        f(0, tree);
    } else {
        trees.par_iter_mut().enumerate().for_each(|(t, tree)| f(t, tree));
    }
}

/// Tree `t`'s share of `total` iterations split among `n` trees.
fn share(total: u64, n: usize, t: usize) -> usize {
    (total / n as u64 + u64::from((t as u64) < total % n as u64)) as usize
}

impl Bot for MctsBot {
    fn choose(&mut self, state: &State) -> Option<Action> {
        self.search(state)
    }

    fn last_search(&self) -> Option<SearchStats> {
        Some(self.last)
    }
}

#[cfg(test)]
mod tests {
    use carcassonne_engine::playout::random_action;

    use super::tree::NONE;
    use super::*;
    use carcassonne_engine::{Edition, Expansion, Rules};

    /// Seeded random games with The Ferries, every position of them.
    fn positions(games: u64, mut f: impl FnMut(&State)) {
        let rules = Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap();
        let mut buf = Vec::new();
        for seed in 0..games {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut state = State::new(rules);
            while let Some(a) = random_action(&state, &mut rng, &mut buf) {
                f(&state);
                state.play_unchecked(a);
            }
        }
    }

    #[test]
    fn the_order_on_actions_tells_actions_apart() {
        let mut seen: Vec<Action> = Vec::new();
        positions(3, |state| seen.extend(state.legal_action_list()));
        seen.sort_unstable();
        seen.dedup();
        assert!(seen.len() > 500, "enough actions to compare: {}", seen.len());
        for w in seen.windows(2) {
            assert!(w[0] < w[1], "{} and {} are ordered as equal", w[0], w[1]);
            assert_ne!(w[0], w[1]);
        }
    }

    #[test]
    fn determinized_trees_keep_their_counts_consistent() {
        let config = MctsConfig { draws: Draws::Determinized, trees: 1, ..MctsConfig::default() };
        let mut checked = 0;
        let mut step = 0;
        positions(1, |state| {
            step += 1;
            if !matches!(state.actor(), Some(Actor::Player(_))) || step % 10 != 0 {
                return;
            }
            let mut tree = Tree::new();
            tree.search(state, &config, 5, 400, None);
            if tree.nodes[0].len <= 1 {
                return;
            }
            checked += 1;
            assert_eq!(tree.iterations, 400);
            // The root's children at once, then at most one node per
            // iteration once each of them has been visited.
            let root_len = tree.nodes[0].len;
            assert!(tree.nodes.len() as u32 <= 1 + root_len + 400u32.saturating_sub(root_len));
            for (i, node) in tree.nodes.iter().enumerate() {
                let mut c = node.first;
                let (mut children, mut visits) = (0, 0);
                while c != NONE && node.len > 0 {
                    let child = &tree.nodes[c as usize];
                    assert!(child.visits <= child.avail, "a child is visited only when available");
                    assert!(child.visits > 0 || i == 0, "only the root has unvisited children");
                    assert!((0.0..=child.visits as f32 + 1e-3).contains(&child.value));
                    children += 1;
                    visits += child.visits;
                    c = child.next;
                }
                assert_eq!(children, node.len);
                assert!(visits <= node.visits, "a parent is visited with each of its children");
            }
            // The tree goes past the root's decision.
            assert!(tree.nodes.iter().skip(1).any(|n| n.len > 0));
        });
        assert!(checked >= 3, "positions searched: {checked}");
    }
}
