//! Invariants of a state, checked from its public parts: the conformance
//! test runs [`check`] after every action of its random games.

use crate::features::PieceId;
use crate::figure::FollowerKind;
use crate::rules;
use crate::state::State;
use crate::tile::FeatureKind;

/// Checks that every figure is in supply, on the board (once) or waiting
/// to move on (a wagon after its feature scored), that each
/// feature counts exactly the figures standing on it, as the state counts
/// those on monasteries and keeps the barns, and that every ferry
/// joins two jetties of its own lake. Says what is broken.
pub fn check(state: &State) -> Result<(), String> {
    let players = state.rules().players();
    let mut owned = [0usize; FollowerKind::COUNT];
    rules::figures(state.rules(), |kind, n| owned[kind as usize] += n as usize);
    for kind in FollowerKind::ALL {
        for p in 0..players {
            let on_board = state.followers().iter().filter(|f| f.kind == kind && f.player as usize == p).count();
            let waiting = match kind {
                FollowerKind::Wagon => state.abbey_mayor().waiting.iter().filter(|w| w.player as usize == p).count(),
                _ => 0,
            };
            let total = state.supply_of(kind)[p] as usize + on_board + waiting;
            if total != owned[kind as usize] {
                return Err(format!("player {p} has {total} {kind} figures, not {}", owned[kind as usize]));
            }
        }
    }
    let features = state.features();
    let mut on_root: Vec<(PieceId, u16)> = Vec::new();
    for (i, f) in state.followers().iter().enumerate() {
        if state.followers()[..i].iter().any(|g| g.piece == f.piece) {
            return Err(format!("two figures stand on piece {}", f.piece));
        }
        let root = features.find(f.piece);
        match on_root.iter_mut().find(|(r, _)| *r == root) {
            Some((_, n)) => *n += 1,
            None => on_root.push((root, 1)),
        }
    }
    for (root, n) in on_root {
        let counted = u16::from(features.totals(root).followers);
        if counted != n {
            return Err(format!("the feature of piece {root} counts {counted} figures, {n} stand on it"));
        }
    }
    let on_monasteries = state.followers().iter().filter(|f| features.info(f.piece).kind.scores_as_monastery());
    let (monks, kept) = (sorted(on_monasteries.map(|f| f.piece)), sorted(state.monks.iter().copied()));
    if monks != kept {
        return Err(format!("figures stand on the monasteries of pieces {monks:?}, the state keeps {kept:?}"));
    }
    // The barns kept are the barns on the board: a farm's barn is looked
    // for among them.
    let barns = sorted(state.followers().iter().filter(|f| f.kind == FollowerKind::Barn).map(|f| (f.player, f.piece)));
    let kept = sorted(state.abbey_mayor().barns.iter().map(|b| (b.player, b.piece)));
    if barns != kept {
        return Err(format!("barns stand on pieces {barns:?}, the state keeps {kept:?}"));
    }
    for ferry in state.ferries().all() {
        let t = state.board().tile(ferry.tile as usize);
        let jetties = crate::geometry::rotate_sides(t.info().jetties, t.rot);
        if ferry.jetties.mask() & !jetties != 0 || ferry.jetties.mask().count_ones() != 2 {
            return Err(format!("the ferry at {} joins {}, not two of its lake's jetties", t.pos, ferry.jetties));
        }
        for s in ferry.jetties.sides() {
            let p = state.resolve(ferry.tile as usize, crate::action::Location::Road(s));
            if p.is_none_or(|p| features.info(p).kind != FeatureKind::Road) {
                return Err(format!("the ferry at {} has no road at its jetty {s}", t.pos));
            }
        }
    }
    Ok(())
}

/// The items in order: two lists kept in different orders compare so.
fn sorted<T: Ord>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = items.collect();
    v.sort_unstable();
    v
}
