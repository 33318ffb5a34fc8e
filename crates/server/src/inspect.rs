//! The feature inspector (`POST /api/games/{id}/feature`): a feature's
//! tiles and pieces, the figures on it per seat, and what it scores if
//! completed now and if left as it is at the end.
//!
//! The points follow the rules of docs/rules.md as the engine scores them
//! (its scoring functions are internal to it); the tests below check them
//! against the engine's own scorings, feature by feature, over whole games.

use carcassonne_engine::features::{PieceId, PieceSet};
use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Expansion, FeatureKind, FollowerKind, Pos, State};
use serde::Serialize;

use crate::error::ApiError;
use crate::wire::xy;

/// Points per tile and pennant of a completed city, per tile of a road.
const CITY_POINTS: u32 = 2;
const MONASTERY_POINTS: u32 = 9;
const FARM_POINTS: u32 = 3;
/// Inns & Cathedrals: an inn's road and a cathedral's city.
const INN_ROAD_POINTS: u32 = 2;
const CATHEDRAL_CITY_POINTS: u32 = 3;
/// Abbey & Mayor: what a completed city is worth at the end to the farmers
/// of a farm with a barn, and to each player with a barn there.
const BARN_JOINED_FARM_POINTS: u32 = 1;
const BARN_END_POINTS: u32 = 4;
/// Traders & Builders: what a pig adds a completed city to its owner's farm.
const PIG_POINTS_PER_CITY: u32 = 1;
/// The tiny-city variant's value of a completed two-tile city's tiles.
const TINY_CITY_VARIANT: u32 = 2;

/// What the inspector tells of one feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FeatureReport {
    pub kind: &'static str,
    /// Its tiles, each once (a monastery: its own tile).
    pub tiles: Vec<[i32; 2]>,
    /// Its pieces: where, and the index into the tile kind's `features`.
    pub pieces: Vec<PieceAt>,
    /// Complete: a road or city closed on every side, a monastery surrounded.
    pub complete: bool,
    /// Road or city edges still open.
    pub open_edges: u16,
    pub pennants: u8,
    /// Inns on the road or cathedrals in the city (Inns & Cathedrals).
    pub marks: u8,
    /// Figures on it, per seat.
    pub followers: Vec<u8>,
    /// Their strength in the majority, per seat.
    pub strength: Vec<u8>,
    /// What it is worth completed as it is now (`None` for a farm, which is
    /// never completed), and each seat's share of that.
    pub value_complete: Option<u32>,
    pub if_completed: Option<Vec<u32>>,
    /// What it is worth at the end of the game if it stays as it is, and
    /// each seat's share (a feature completed during the play was scored
    /// then and its figures went home: no one's share is left; a farm's
    /// barn owners, Abbey & Mayor, score besides its farmers).
    pub value_end: u32,
    pub at_end: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceAt {
    pub at: [i32; 2],
    pub piece: u8,
}

/// The feature of piece `local` of the tile at `at`.
pub fn inspect(s: &State, at: Pos, local: usize) -> Result<FeatureReport, ApiError> {
    let tile =
        s.board().tile_index(at).ok_or_else(|| ApiError::NotFound(format!("no tile at [{}, {}]", at.x, at.y)))?;
    let t = s.board().tile(tile);
    let count = t.kind.info().def.features.len();
    if local >= count {
        return Err(ApiError::NotFound(format!(
            "the tile at [{}, {}] has {count} features, not {}",
            at.x,
            at.y,
            local + 1
        )));
    }
    Ok(report(s, t.first_piece() + local as PieceId))
}

/// The report of the feature piece `p` belongs to.
pub fn report(s: &State, p: PieceId) -> FeatureReport {
    let f = s.features();
    let root = f.find(p);
    let totals = f.totals(root);
    let kind = f.info(root).kind;
    let players = s.rules().players();
    let mut tiles: Vec<[i32; 2]> = Vec::new();
    let mut pieces = Vec::new();
    let mut set = PieceSet::default();
    for m in f.members(root) {
        set.insert(m);
        let info = f.info(m);
        let pos = s.board().tile(info.tile as usize).pos;
        pieces.push(PieceAt { at: xy(pos), piece: info.local });
        if !tiles.contains(&xy(pos)) {
            tiles.push(xy(pos));
        }
    }
    let mut followers = vec![0u8; players];
    let mut strength = [0u8; MAX_PLAYERS];
    let mut barns = [false; MAX_PLAYERS];
    let mut pigs = [false; MAX_PLAYERS];
    for fo in s.followers() {
        if set.contains(fo.piece) {
            barns[fo.player as usize] |= fo.kind == FollowerKind::Barn;
            pigs[fo.player as usize] |= fo.kind == FollowerKind::Pig;
            followers[fo.player as usize] += 1;
            strength[fo.player as usize] += carcassonne_engine::rules::strength(fo.kind, &totals);
        }
    }
    let n = tiles.len() as u32;
    let pennants = totals.pennants as u32;
    let marked = totals.marks > 0 && s.rules().has(Expansion::Inns);
    let (complete, value_complete, value_end) = match kind {
        FeatureKind::Road => {
            let done = if marked { INN_ROAD_POINTS * n } else { n };
            (totals.open == 0, Some(done), if marked { 0 } else { n })
        }
        FeatureKind::City => {
            let per = if marked {
                CATHEDRAL_CITY_POINTS
            } else if n == 2 && s.rules().tiny_city_scoring() == TINY_CITY_VARIANT {
                1
            } else {
                CITY_POINTS
            };
            (totals.open == 0, Some(per * (n + pennants)), if marked { 0 } else { n + pennants })
        }
        FeatureKind::Monastery => {
            let at = s.board().tile(f.info(root).tile as usize).pos;
            let around = at.surrounding().filter(|q| s.board().tile_index(*q).is_some()).count() as u32;
            (around == 8, Some(MONASTERY_POINTS), 1 + around)
        }
        FeatureKind::Field => {
            let per = if barns[..players].contains(&true) { BARN_JOINED_FARM_POINTS } else { FARM_POINTS };
            (false, None, per * completed_cities_bordered(s, &set))
        }
    };
    let best = strength[..players].iter().copied().max().unwrap_or(0);
    let share = |value: u32| -> Vec<u32> {
        strength[..players].iter().map(|&st| if best > 0 && st == best { value } else { 0 }).collect()
    };
    // Abbey & Mayor: each player with a barn on the farm scores it once more at the end.
    let mut at_end = share(value_end);
    if kind == FeatureKind::Field && barns.contains(&true) {
        let cities = completed_cities_bordered(s, &set);
        for (points, barn) in at_end.iter_mut().zip(barns) {
            if barn {
                *points += BARN_END_POINTS * cities;
            }
        }
    }
    // Traders & Builders: a pig adds to what its owner scores of the farm.
    if kind == FeatureKind::Field && pigs.contains(&true) {
        let cities = completed_cities_bordered(s, &set);
        for (points, pig) in at_end.iter_mut().zip(pigs) {
            if pig && *points > 0 {
                *points += PIG_POINTS_PER_CITY * cities;
            }
        }
    }
    FeatureReport {
        kind: kind.name(),
        tiles,
        pieces,
        complete,
        open_edges: totals.open,
        pennants: totals.pennants,
        marks: totals.marks,
        followers,
        strength: strength[..players].to_vec(),
        value_complete,
        if_completed: value_complete.map(share),
        value_end,
        at_end,
    }
}

/// Completed cities that a farm (its pieces) borders, each once.
fn completed_cities_bordered(s: &State, farm: &PieceSet) -> u32 {
    let f = s.features();
    let mut cities = PieceSet::default();
    let mut count = 0;
    for p in farm.iter() {
        let info = f.info(p);
        let t = s.board().tile(info.tile as usize);
        let mut borders = t.kind.info().def.features[info.local as usize].borders;
        while borders != 0 {
            let local = borders.trailing_zeros() as PieceId;
            borders &= borders - 1;
            let city = f.find(t.first_piece() + local);
            if f.totals(city).open == 0 && cities.insert(city) {
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::record::Setup;
    use carcassonne_engine::{Event, Game, Scoring};
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn sorted(mut v: Vec<[i32; 2]>) -> Vec<[i32; 2]> {
        v.sort();
        v
    }

    /// The reports of the features a scoring may be about: of the pieces of
    /// its first tile with its kind, those whose feature has its tiles (a
    /// crossing's road ends all lie on one tile).
    fn reports_of(s: &State, sc: &Scoring) -> Vec<FeatureReport> {
        let want = sorted(sc.tiles.iter().map(|p| xy(*p)).collect());
        let at = sc.tiles[0];
        let t = s.board().tile(s.board().tile_index(at).unwrap());
        let found: Vec<FeatureReport> = (0..t.kind.info().def.features.len())
            .map(|local| report(s, t.first_piece() + local as PieceId))
            .filter(|r| r.kind == sc.kind.name() && sorted(r.tiles.clone()) == want)
            .collect();
        assert!(!found.is_empty(), "a {} with tiles {want:?}", sc.kind.name());
        found
    }

    /// Over whole random games, what the inspector says a feature scores is
    /// what the engine scores: completed during play, and at the end.
    #[test]
    fn the_inspector_scores_as_the_engine() {
        let mut checked = (0, 0);
        for (seed, expansions, tiny) in [
            (1, vec!["ferries"], None),
            (2, vec![], Some(2)),
            (3, vec!["inns", "ferries"], None),
            (4, vec!["inns"], None),
            (5, vec!["ferries"], None),
            (6, vec!["abbey", "ferries"], None),
            (7, vec!["abbey", "inns"], None),
            (8, vec!["traders", "ferries"], None),
            (9, vec!["traders", "abbey"], None),
        ] {
            let mut setup = Setup {
                players: vec!["a".into(), "b".into(), "c".into()],
                expansions: expansions.iter().map(|e| e.to_string()).collect(),
                edition: None,
                seed: None,
                rules: Default::default(),
            };
            setup.rules.tiny_city_scoring = tiny;
            let mut game = Game::new(setup).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            while !game.state().is_over() {
                let a = if game.state().actor() == Some(carcassonne_engine::Actor::Chance) {
                    carcassonne_engine::Action::Draw(game.state().bag().sample(&mut rng).unwrap())
                } else {
                    *game.state().legal_action_list().choose(&mut rng).unwrap()
                };
                let mut events: Vec<Event> = Vec::new();
                game.play_with(a, &mut events).unwrap();
                for e in &events {
                    if let Event::Scored(sc) = e {
                        if sc.end_of_game || sc.kind == FeatureKind::Field {
                            continue;
                        }
                        let most = sc.points.iter().copied().max().unwrap_or(0);
                        let found = reports_of(game.state(), sc);
                        // (A mayor alone in a city without pennants wins nothing there.)
                        let nothing = |r: &FeatureReport| most == 0 && r.if_completed.iter().flatten().all(|p| *p == 0);
                        assert!(
                            found.iter().any(|r| r.complete && (r.value_complete == Some(most) || nothing(r))),
                            "completed {sc:?}: {found:?}"
                        );
                        checked.0 += 1;
                    }
                }
                // Every feature with figures, as the end-of-game scoring would score it now.
                let state = game.state();
                state.final_scores_with(|sc| {
                    let found = reports_of(state, &sc);
                    assert!(found.iter().any(|r| r.at_end == sc.points), "at the end {sc:?}: {found:?}");
                    checked.1 += 1;
                });
            }
        }
        assert!(checked.0 > 10 && checked.1 > 1000, "{checked:?}");
    }
}
