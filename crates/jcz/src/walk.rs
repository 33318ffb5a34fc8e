//! Which ferries JCloisterZone offers to move.
//!
//! JCloisterZone follows every road of the tile just placed away from it,
//! through the new lake's own ferry, and stops at the first jetty that holds
//! another ferry: that ferry is offered unless it moved this turn already. It
//! works this out again after every move (our rule F7 fixes the set once),
//! and waits for a PASS while anything is offered. An export must know both:
//! that each move of the record is offered, and whether a PASS ends the moves.

use std::collections::BTreeSet;

use carcassonne_engine::geometry::Side;
use carcassonne_engine::tile::NO_PIECE;
use carcassonne_engine::{FeatureKind, Pos, State};

/// The positions of the ferries JCloisterZone offers to move now, for the
/// tile just placed at `new` and the ferries already moved this turn.
pub(crate) fn offered_ferries(state: &State, new: Pos, moved: &[Pos]) -> BTreeSet<Pos> {
    let board = state.board();
    let mut found = BTreeSet::new();
    let Some(start) = board.tile_at(new) else {
        return found;
    };
    let mut stack: Vec<(Pos, u8)> = start
        .kind
        .info()
        .def
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::Road)
        .map(|(i, _)| (new, i as u8))
        .collect();
    let mut seen: BTreeSet<(Pos, u8)> = BTreeSet::new();
    while let Some((pos, local)) = stack.pop() {
        if !seen.insert((pos, local)) {
            continue;
        }
        let Some(tile) = board.tile_at(pos) else { continue };
        let info = tile.kind.info();
        let o = &info.oriented[tile.rot.quarters() as usize];
        let sides: Vec<Side> = Side::ALL.into_iter().filter(|s| o.side_piece[s.index()] == local).collect();
        if info.def.features[local as usize].jetty {
            if let Some(ferry) = state.ferry_at(pos) {
                let on_ferry = sides.iter().any(|s| ferry.jetties.contains(*s));
                if on_ferry && pos != new {
                    if !moved.contains(&pos) {
                        found.insert(pos);
                    }
                    continue;
                }
                if on_ferry {
                    // Across the new lake's own ferry to its other jetty.
                    for s in ferry.jetties.sides() {
                        let other = o.side_piece[s.index()];
                        if other != local && other != NO_PIECE {
                            stack.push((pos, other));
                        }
                    }
                }
            }
        }
        for s in sides {
            let next = pos.step(s);
            if let Some(n) = board.tile_at(next) {
                let no = &n.kind.info().oriented[n.rot.quarters() as usize];
                let piece = no.side_piece[s.opposite().index()];
                if piece != NO_PIECE && n.kind.info().def.features[piece as usize].kind == FeatureKind::Road {
                    stack.push((next, piece));
                }
            }
        }
    }
    found
}
