//! The odds a player reads off the board (docs/analysis.md): for each open
//! cell, the chance that the next tile drawn fits it and the tiles left
//! that can (a cell no tile left fits is dead); for each open road, city,
//! monastery and garden, the chance it is completed before the bag is
//! empty, by the learned evaluation's own estimate
//! ([`Evaluator::prospects`]). One implementation for the command line
//! (`carcassonne odds`), the server (`GET /api/games/{id}/odds`) and Python
//! (`carcassonne.odds`).
//!
//! A tile fits a cell when its edges match the cell's neighbours in some
//! rotation. Rules that restrict a placement further (The River's) are not
//! read: the odds never call a cell dead that a tile could fill, and may
//! count a river tile that its river's course would refuse.

use carcassonne_engine::features::PieceId;
use carcassonne_engine::{Expansion, FeatureKind, State};
use serde::Serialize;

use crate::evaluation::{open_cells_of, Evaluator};

/// The odds of a position.
#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    /// Tiles the next draw may give (all the bag's but while The River's
    /// come first).
    pub drawable: u16,
    /// Tiles in the bag.
    pub bag: u16,
    pub cells: Vec<CellOdds>,
    pub features: Vec<FeatureOdds>,
}

/// An empty cell beside the board.
#[derive(Clone, Debug, Serialize)]
pub struct CellOdds {
    pub at: [i32; 2],
    /// The chance that the next tile drawn fits here.
    pub next: f32,
    /// Tiles left in the bag that fit here, in all, and by kind.
    pub fitting: u16,
    pub tiles: Vec<TileCount>,
    /// A hole (a tile on each side) that an abbey left in a player's hand
    /// may fill (Abbey & Mayor), whatever the tiles left.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub abbey: bool,
    /// No tile left fits and no abbey may fill it: it stays empty, and so
    /// every feature that needs it stays open.
    pub dead: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct TileCount {
    pub tile: &'static str,
    pub count: u8,
}

/// An open road, city, monastery or garden.
#[derive(Clone, Debug, Serialize)]
pub struct FeatureOdds {
    pub kind: &'static str,
    /// A piece of it to point at: its tile, and the index into the tile
    /// kind's `features`.
    pub at: [i32; 2],
    pub piece: u8,
    /// Its tiles, each once.
    pub tiles: Vec<[i32; 2]>,
    /// The empty cells it needs filled (a monastery's: around it).
    pub needs: Vec<[i32; 2]>,
    /// The chance it is completed before the bag is empty (0 when dead).
    pub chance: f32,
    /// A cell it needs is dead.
    pub dead: bool,
    /// Figures on it, per seat.
    pub followers: Vec<u8>,
}

fn xy(p: carcassonne_engine::Pos) -> [i32; 2] {
    [p.x, p.y]
}

/// The odds of `state`'s position.
pub fn odds(state: &State) -> Odds {
    let bag = state.bag();
    // An abbey in a player's hand may fill any hole.
    let abbeys = state.rules().has(Expansion::Abbey) && state.abbeys().iter().any(|&n| n > 0);
    let drawable = bag.drawable_total();
    let cells = state
        .board()
        .open_cells()
        .iter()
        .map(|cell| {
            let mut tiles = Vec::new();
            let (mut fitting, mut next) = (0u16, 0u16);
            for kind in bag.kinds() {
                let o = &kind.info().oriented;
                if !o.iter().any(|r| cell.accepts(r.signature)) {
                    continue;
                }
                let count = bag.count(kind);
                fitting += u16::from(count);
                if bag.may_draw(kind) {
                    next += u16::from(count);
                }
                tiles.push(TileCount { tile: kind.id(), count });
            }
            let abbey = abbeys && cell.surrounded();
            CellOdds {
                at: xy(cell.pos),
                next: if drawable > 0 { f32::from(next) / f32::from(drawable) } else { 0.0 },
                fitting,
                tiles,
                abbey,
                dead: fitting == 0 && !abbey,
            }
        })
        .collect();
    Odds { drawable, bag: bag.total(), cells, features: features(state) }
}

/// Every open road, city, monastery and garden, with its prospects.
fn features(state: &State) -> Vec<FeatureOdds> {
    let features = state.features();
    let players = state.rules().players();
    // Each feature once: by its root piece.
    let roots: Vec<PieceId> =
        features.pieces().filter(|&p| features.find(p) == p && features.info(p).kind != FeatureKind::Field).collect();
    let prospects = Evaluator::default().prospects(state, &roots);
    roots
        .iter()
        .zip(prospects)
        .filter_map(|(&root, prospect)| {
            let prospect = prospect?;
            let info = features.info(root);
            let tile = state.board().tile(info.tile as usize);
            let mut tiles: Vec<[i32; 2]> = Vec::new();
            for m in features.members(root) {
                let at = xy(state.board().tile(features.info(m).tile as usize).pos);
                if !tiles.contains(&at) {
                    tiles.push(at);
                }
            }
            let mut needs = Vec::new();
            match info.kind {
                FeatureKind::Monastery | FeatureKind::Garden => {
                    needs.extend(tile.pos.surrounding().filter(|p| state.board().tile_index(*p).is_none()).map(xy))
                }
                _ => open_cells_of(state, root, |at| needs.push(xy(at))),
            }
            let mut followers = vec![0u8; players];
            for f in state.followers().iter().filter(|f| features.find(f.piece) == root) {
                if let Some(n) = followers.get_mut(f.player as usize) {
                    *n += 1;
                }
            }
            Some(FeatureOdds {
                kind: info.kind.name(),
                at: xy(tile.pos),
                piece: info.local,
                tiles,
                needs,
                chance: prospect.chance,
                dead: prospect.dead,
                followers,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::{Action, Actor, Edition, Rules};
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random positions of these rules, every so many actions.
    fn positions(rules: Rules, seed: u64, mut at: impl FnMut(&State)) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = State::new(rules);
        let mut n = 0;
        while !state.is_over() {
            let a = if state.actor() == Some(Actor::Chance) {
                Action::Draw(state.bag().sample(&mut rng).unwrap())
            } else {
                *state.legal_action_list().choose(&mut rng).unwrap()
            };
            state.play(a).unwrap();
            n += 1;
            if n % 7 == 0 {
                at(&state);
            }
        }
    }

    /// Whether some tile of `kind` fits at `cell` by the engine's own check.
    fn engine_fits(state: &State, kind: carcassonne_engine::TileKind, at: [i32; 2]) -> bool {
        let pos = carcassonne_engine::Pos::new(at[0], at[1]);
        carcassonne_engine::Rotation::ALL
            .into_iter()
            .any(|rot| state.board().check_fit(kind, carcassonne_engine::Placement { pos, rot }).is_ok())
    }

    #[test]
    fn a_cells_tiles_are_those_the_engine_lets_fit_there_and_the_chance_counts_them() {
        let mut dead = 0;
        for (seed, expansions) in
            [(1, vec![Expansion::Ferries]), (2, vec![]), (3, vec![Expansion::Inns, Expansion::Traders])]
        {
            positions(Rules::new(2, &expansions, Edition::C3).unwrap(), seed, |s| {
                let o = odds(s);
                assert_eq!(o.cells.len(), s.board().open_cells().len());
                for c in &o.cells {
                    let naive: Vec<_> = s.bag().kinds().filter(|k| engine_fits(s, *k, c.at)).collect();
                    let listed: Vec<_> = c.tiles.iter().map(|t| t.tile).collect();
                    assert_eq!(listed, naive.iter().map(|k| k.id()).collect::<Vec<_>>(), "at {:?}", c.at);
                    let n: u16 = naive.iter().map(|k| u16::from(s.bag().count(*k))).sum();
                    assert_eq!(c.fitting, n);
                    let total = f32::from(s.bag().total().max(1));
                    assert!((c.next - f32::from(n) / total).abs() < 1e-6, "{} of {n} fitting", c.next);
                    assert_eq!(c.dead, n == 0);
                    dead += u32::from(c.dead);
                }
            });
        }
        assert!(dead > 0, "the games left some dead cell");
    }

    #[test]
    fn every_open_feature_is_listed_with_the_cells_it_needs_and_a_dead_one_needs_a_dead_cell() {
        let (mut listed, mut dead) = (0, 0);
        positions(Rules::new(3, &[Expansion::Ferries], Edition::C3).unwrap(), 4, |s| {
            let o = odds(s);
            for f in &o.features {
                listed += 1;
                assert!((0.0..=1.0).contains(&f.chance));
                assert!(!f.needs.is_empty(), "an open feature needs a cell: {f:?}");
                let cell = |at: &[i32; 2]| o.cells.iter().find(|c| &c.at == at);
                // A dead feature needs a dead cell; a live one none.
                assert_eq!(f.dead, f.needs.iter().any(|at| cell(at).is_some_and(|c| c.dead)), "{f:?}");
                assert_eq!(f.dead, f.chance == 0.0);
                dead += u32::from(f.dead);
                // More fitting tiles make a likelier completion: the estimate is the evaluation's product.
                if f.kind != "monastery" {
                    let want: f32 = f
                        .needs
                        .iter()
                        .map(|at| cell(at).map_or(1.0, |c| f32::from(c.fitting) / (f32::from(c.fitting) + 2.0)))
                        .product();
                    assert!((f.chance - want).abs() < 1e-5, "{f:?}");
                }
                let figures: u32 = f.followers.iter().map(|&n| u32::from(n)).sum();
                let on = s.followers().iter().filter(|x| {
                    let tile = s.board().tile(s.features().info(x.piece).tile as usize);
                    f.tiles.contains(&[tile.pos.x, tile.pos.y]) && s.features().info(x.piece).kind.name() == f.kind
                });
                assert!(figures as usize <= on.count());
            }
        });
        assert!(listed > 500 && dead > 0, "{listed} features, {dead} dead");
    }
}
