//! The feature inspector (`POST /api/games/{id}/feature`): a feature's
//! tiles and pieces, the figures on it per seat, and what it scores if
//! completed now and if left as it is at the end.
//!
//! The points are the engine's own (`State::feature_worth`, built on its
//! scoring functions); the tests below check them against the engine's
//! scorings, feature by feature, over whole games.

use carcassonne_engine::features::{PieceId, PieceSet};
use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Pos, State};
use serde::Serialize;

use crate::error::GameError;
use crate::wire::xy;

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
pub fn inspect(s: &State, at: Pos, local: usize) -> Result<FeatureReport, GameError> {
    let tile =
        s.board().tile_index(at).ok_or_else(|| GameError::NotFound(format!("no tile at [{}, {}]", at.x, at.y)))?;
    let t = s.board().tile(tile);
    let count = t.kind.info().def.features.len();
    if local >= count {
        return Err(GameError::NotFound(format!(
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
    for fo in s.followers() {
        if set.contains(fo.piece) {
            followers[fo.player as usize] += 1;
            strength[fo.player as usize] += carcassonne_engine::rules::strength(fo.kind, &totals);
        }
    }
    let worth = s.feature_worth(root);
    FeatureReport {
        kind: kind.name(),
        tiles,
        pieces,
        complete: worth.complete,
        open_edges: totals.open,
        pennants: totals.pennants,
        marks: totals.marks,
        followers,
        strength: strength[..players].to_vec(),
        value_complete: worth.value_complete,
        if_completed: worth.if_completed,
        value_end: worth.value_end,
        at_end: worth.at_end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::record::Setup;
    use carcassonne_engine::{Event, FeatureKind, Game, Scoring};
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
                expansions: expansions.iter().map(|e| e.parse().unwrap()).collect(),
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
