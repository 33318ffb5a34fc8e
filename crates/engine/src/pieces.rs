//! Pieces of placed tiles: their names on the board, the sides they reach
//! as they lie, the piece across an edge, and roads joined again after a
//! link inside a tile changed. Below the state and the rules, which both
//! use them.

use crate::action::Location;
use crate::board::{Board, PlacedTile};
use crate::features::{Features, Joint, PieceId, PieceSet, Totals, NONE};
use crate::figure::Follower;
use crate::geometry::{rotate_sides, Side};
use crate::tile::NO_PIECE;

/// The canonical name of piece `local` of a placed tile: its first side or
/// half-edge in clockwise order from north, as it lies on the board.
#[inline(always)]
pub(crate) fn location_of(t: &PlacedTile, local: u8) -> Location {
    t.oriented().names[local as usize]
}

/// The index among its tile's pieces of the piece named `loc` on a placed
/// tile, if it has one.
pub(crate) fn local_piece(t: &PlacedTile, loc: Location) -> Option<u8> {
    let k = t.info();
    let o = &k.oriented[t.rot.quarters() as usize];
    let local = match loc {
        Location::Road(s) | Location::City(s) => o.side_piece[s.index()],
        Location::Field(h) => o.half_piece[h.index()],
        Location::Monastery => k.monastery,
        Location::Garden => k.garden,
        Location::InnerField => k.inner_field,
        Location::InnerField2 => k.inner_field2,
        // A corner: the one field that holds both its halves.
        Location::Corner(c) => {
            let [a, b] = c.halves();
            let p = o.half_piece[a.index()];
            if p != o.half_piece[b.index()] {
                return None;
            }
            p
        }
    };
    (local != NO_PIECE && k.def.features[local as usize].kind == loc.kind()).then_some(local)
}

/// The sides a road or city piece reaches, as it lies on the board.
#[inline]
pub(crate) fn piece_sides(board: &Board, features: &Features, p: PieceId) -> u8 {
    let info = features.info(p);
    let t = board.tile(info.tile as usize);
    rotate_sides(t.info().def.features[info.local as usize].sides, t.rot)
}

/// The piece across `side` of the tile at index `tile`, on its neighbour.
#[inline]
pub(crate) fn piece_across(board: &Board, tile: usize, side: Side) -> Option<PieceId> {
    let t = board.tile(tile);
    let n = board.tile(board.tile_index(t.pos.step(side))?);
    let local = n.oriented().side_piece[side.opposite().index()];
    (local != NO_PIECE).then_some(n.first_piece + local as PieceId)
}

/// Takes apart the whole features of `pieces` (each piece once, in `set`
/// too) and joins them again across tile edges and links inside tiles,
/// counting the followers on them again. A link from one of them to a
/// piece of a feature left whole joins that feature.
pub(crate) fn rejoin(
    board: &Board,
    features: &mut Features,
    followers: &[Follower],
    set: &PieceSet,
    pieces: &[PieceId],
) {
    features.reset(pieces, |info| {
        Totals::of_piece(&board.tile(info.tile as usize).info().def.features[info.local as usize])
    });
    for &p in pieces {
        let tile = features.info(p).tile as usize;
        let at = board.tile(tile).pos;
        let sides = piece_sides(board, features, p);
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                let Some(ni) = board.tile_index(at.step(s)) else {
                    continue;
                };
                let n = board.tile(ni);
                let local = n.oriented().side_piece[s.opposite().index()];
                if local == NO_PIECE {
                    // A tile there without a piece across has wild edges: it ends this piece.
                    features.close_edge(p);
                } else if p < n.first_piece + local as PieceId {
                    features.join(p, n.first_piece + local as PieceId, Joint::Edge);
                }
            }
        }
        // A link is joined once: from the lower piece, or from this one
        // when the other lies on a feature that was not taken apart.
        let l = features.link(p);
        if l != NONE && (p < l || !set.contains(l)) {
            features.join(p, l, Joint::Link);
        }
    }
    for f in followers {
        if set.contains(f.piece) {
            features.add_follower(f.piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use crate::geometry::{Pos, Rotation};
    use crate::tile::TileKind;

    /// Each piece's name, read from its kind's table, leads back to that
    /// piece by the tile's sides and half-edges (`local_piece`): for every
    /// kind of every set, at every rotation.
    #[test]
    fn every_piece_is_named_so_that_the_name_finds_it_again() {
        for kind in TileKind::all() {
            for rot in Rotation::ALL {
                let mut board = Board::new();
                board.place(kind, Placement { pos: Pos::ORIGIN, rot }, 0);
                let t = board.tile(0);
                for local in 0..t.info().pieces() as u8 {
                    let name = location_of(t, local);
                    assert_eq!(local_piece(t, name), Some(local), "{kind} turned {rot}: piece {local} named {name}");
                }
            }
        }
    }
}
