//! A heuristic value of a position for every player, for [`GreedyBot`](crate::GreedyBot).
//!
//! It starts from [`State::final_scores`] (points so far plus what every open
//! feature would score if the game ended now) and adds what the end-of-game
//! count misses while tiles remain: an open city may still be completed and
//! score double, a monastery may still be surrounded, a field may still
//! border cities that get completed, and a follower in supply is worth moves
//! to come. An inn or a cathedral (Inns & Cathedrals) makes its open feature
//! worth nothing at the end but more when completed, so there the completed
//! value, weighted by the chance of completion, is what counts; a big
//! follower weighs twice in a majority and is worth more in supply. With
//! Traders & Builders, the goods' majorities and the pigs are in the final
//! scores, and a builder on an open road or city is worth the second turns
//! it may give.
//! Everything is in points, so it compares directly with scores.

use carcassonne_engine::features::PieceId;
use carcassonne_engine::rules::strength;
use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Bag, FeatureKind, FollowerKind, State};

/// Points per player.
pub type Values = [f32; MAX_PLAYERS];

/// Weights of the estimate; the defaults are hand-set, not tuned.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A follower in supply, at the start of the game (fades to 0 at the end).
    pub supply: f32,
    /// A follower on an open road, city or monastery, which should come back.
    pub returning: f32,
    /// How many tiles per open edge make a city's completion likely.
    pub tiles_per_open_edge: f32,
    /// A big follower in supply, against a follower's `supply`.
    pub big_in_supply: f32,
    /// A builder on an open road or city (Traders & Builders): the second
    /// turns it may give, at the start of the game (fades to 0 at the end).
    pub builder: f32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { supply: 2.0, returning: 1.0, tiles_per_open_edge: 6.0, big_in_supply: 1.5, builder: 4.0 }
    }
}

/// Computes [`Values`], keeping scratch space between calls.
#[derive(Clone, Debug, Default)]
pub struct Estimator {
    pub weights: Weights,
    roots: Vec<PieceId>,
    /// Tiles at the start, for the phase of the game (0 at the end).
    start_tiles: Option<u16>,
}

impl Estimator {
    pub fn new(weights: Weights) -> Estimator {
        Estimator { weights, ..Estimator::default() }
    }

    /// Estimated final points of each player (entries past the player count are 0).
    pub fn values(&mut self, state: &State) -> Values {
        let players = state.rules().players();
        let start = *self.start_tiles.get_or_insert_with(|| Bag::for_rules(state.rules()).total().max(1));
        let left = state.bag().total() as f32;
        let phase = (left / start as f32).min(1.0);

        let mut v = [0.0; MAX_PLAYERS];
        for (i, s) in state.final_scores().iter().enumerate() {
            v[i] = *s as f32;
        }
        for (i, s) in state.supply().iter().enumerate() {
            v[i] += self.weights.supply * phase * *s as f32;
        }
        // Zero for every player when the rules give no big follower.
        for (i, s) in state.supply_of(FollowerKind::Big).iter().enumerate() {
            v[i] += self.weights.supply * self.weights.big_in_supply * phase * *s as f32;
        }

        let features = state.features();
        self.roots.clear();
        for f in state.followers() {
            let root = features.find(f.piece);
            if self.roots.contains(&root) {
                continue;
            }
            self.roots.push(root);
            let kind = features.info(root).kind;
            let t = features.totals(root);
            // What the end-of-game count leaves out, and whether the followers come back.
            let marked = t.marks > 0;
            let (extra, returns) = match kind {
                // An open road with an inn scores nothing at the end, 2 a tile completed.
                FeatureKind::Road if t.open > 0 && marked => {
                    (2.0 * t.pieces as f32 * self.completion(t.open as f32, left), true)
                }
                FeatureKind::Road => (0.0, t.open > 0),
                FeatureKind::City if t.open > 0 => {
                    // Completed, a city gains 1 a tile and pennant over the end count;
                    // with a cathedral it gains all its 3 (open, it scores nothing).
                    let gain = if marked { 3.0 } else { 1.0 };
                    let worth = (t.pieces + u16::from(t.pennants)) as f32;
                    (gain * worth * self.completion(t.open as f32, left), true)
                }
                FeatureKind::City => (0.0, false),
                FeatureKind::Monastery | FeatureKind::Garden => {
                    let pos = state.board().tile(features.info(root).tile as usize).pos;
                    let around = pos.surrounding().filter(|p| state.board().tile_index(*p).is_some()).count() as f32;
                    ((8.0 - around) * left / (left + 8.0), around < 8.0)
                }
                FeatureKind::Field => (3.0 * self.open_cities_bordered(state, root, left), false),
            };
            // Majority strength, and what the figures coming back are worth.
            let mut counts = [0u8; MAX_PLAYERS];
            let mut back = [0.0f32; MAX_PLAYERS];
            for g in state.followers() {
                if features.find(g.piece) == root {
                    counts[g.player as usize] += strength(g.kind, &t);
                    back[g.player as usize] +=
                        if g.kind == FollowerKind::Big { self.weights.big_in_supply } else { 1.0 };
                    if g.kind == FollowerKind::Builder && t.open > 0 {
                        v[g.player as usize] += self.weights.builder * phase;
                    }
                }
            }
            let best = counts.iter().copied().max().unwrap_or(0);
            for p in 0..players {
                if counts[p] == best {
                    v[p] += extra;
                }
                if returns {
                    v[p] += self.weights.returning * phase * back[p];
                }
            }
        }
        v
    }

    /// Chance that a city with `open` open edges is completed before the
    /// bag (with `left` tiles) runs out.
    fn completion(&self, open: f32, left: f32) -> f32 {
        (left / (left + self.weights.tiles_per_open_edge * open)).min(0.9)
    }

    /// Open cities bordered by the field of `root`, each weighted by its
    /// chance of completion (completed ones are in the final scores already).
    fn open_cities_bordered(&mut self, state: &State, root: PieceId, left: f32) -> f32 {
        let features = state.features();
        let mut sum = 0.0;
        state.cities_bordered(root, |city| {
            let open = features.totals(city).open;
            if open > 0 {
                sum += self.completion(open as f32, left);
            }
        });
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::{Action, Edition, Expansion, Rules, TileKind};

    /// Alice's road U-D-U with her follower, and the tile at [2, 0] just
    /// placed on it: she deploys `deploy` there.
    fn road_with(deploy: &str) -> State {
        let rules = Rules::new(2, &[Expansion::Traders], Edition::C3).unwrap();
        let mut state = State::new(rules);
        for (tile, place, then) in [
            ("U", "place at [1, 0] turned 0", "deploy on road:E"),
            ("B", "place at [0, 1] turned 0", "pass"),
            ("U", "place at [2, 0] turned 0", deploy),
        ] {
            state.play(Action::Draw(TileKind::parse(tile).unwrap())).unwrap();
            state.play(place.parse().unwrap()).unwrap();
            state.play(then.parse().unwrap()).unwrap();
        }
        state
    }

    #[test]
    fn a_builder_on_an_open_road_is_worth_its_weight_in_second_turns() {
        let (with, without) = (road_with("deploy builder on road:E"), road_with("pass"));
        for builder in [0.0, 4.0] {
            let mut e = Estimator::new(Weights { builder, ..Weights::default() });
            let gain = e.values(&with)[0] - e.values(&without)[0];
            let phase = with.bag().total() as f32 / Bag::for_rules(with.rules()).total() as f32;
            // The builder comes back like a follower, and adds its weight.
            let expected = (e.weights.returning + builder) * phase;
            assert!((gain - expected).abs() < 1e-3, "builder weight {builder}: gain {gain}, expected {expected}");
        }
    }
}
