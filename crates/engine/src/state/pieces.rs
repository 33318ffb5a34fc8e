//! Figures and pieces: follower kinds, the followers on the board, the
//! names of pieces, and tiles joining the board's features.

use crate::action::Location;
use crate::board::{Board, PlacedTile, Placement};
use crate::features::{Features, Joint, PieceId, PieceInfo, PieceSet, Totals, NONE};
use crate::geometry::{HalfEdge, Rotation, Side};
use crate::names::written_names;
use crate::tile::{FeatureKind, TileKind, NO_PIECE};

use super::State;

/// What a figure is. The base game has the normal follower; the kinds after
/// it are those the coming expansions bring, each with its own supply and
/// strength in a majority (see [`crate::rules`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub enum FollowerKind {
    #[default]
    Normal = 0,
    /// Inns & Cathedrals: counts as two followers.
    Big,
    /// Traders & Builders: counts for no majority; gives a second turn.
    Builder,
    /// Traders & Builders: on a farm, raises what its owner's farm scores.
    Pig,
    /// Abbey & Mayor: counts as many followers as its city has pennants.
    Mayor,
    /// Abbey & Mayor: counts as one follower; moves on after its feature scores.
    Wagon,
    /// Abbey & Mayor: on a field corner; scores its farm at the end.
    Barn,
}

written_names!(FollowerKind {
    Normal => "normal",
    Big => "big",
    Builder => "builder",
    Pig => "pig",
    Mayor => "mayor",
    Wagon => "wagon",
    Barn => "barn",
});

impl FollowerKind {
    pub const COUNT: usize = 7;

    /// The figure as the rules name it in a sentence.
    pub const fn noun(self) -> &'static str {
        match self {
            FollowerKind::Normal => "follower",
            FollowerKind::Big => "big follower",
            FollowerKind::Builder => "builder",
            FollowerKind::Pig => "pig",
            FollowerKind::Mayor => "mayor",
            FollowerKind::Wagon => "wagon",
            FollowerKind::Barn => "barn",
        }
    }

    pub const ALL: [FollowerKind; FollowerKind::COUNT] = [
        FollowerKind::Normal,
        FollowerKind::Big,
        FollowerKind::Builder,
        FollowerKind::Pig,
        FollowerKind::Mayor,
        FollowerKind::Wagon,
        FollowerKind::Barn,
    ];
}

/// A figure standing on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Follower {
    pub player: u8,
    pub kind: FollowerKind,
    pub piece: PieceId,
}

#[inline]
pub(crate) fn rotate_sides(mask: u8, rot: Rotation) -> u8 {
    let (m, q) = (mask as u16 & 0xF, rot.quarters());
    ((m << q | m >> (4 - q)) & 0xF) as u8
}

#[inline]
pub(crate) fn rotate_halves(mask: u8, rot: Rotation) -> u8 {
    let q = 2 * rot.quarters() as u32;
    mask.rotate_left(q)
}

/// The canonical name of piece `local` of a placed tile: its first side or
/// half-edge in clockwise order from north, as it lies on the board.
#[inline(always)]
pub(crate) fn location_of(t: &PlacedTile, local: u8) -> Location {
    let f = &t.kind.info().def.features[local as usize];
    match f.kind {
        FeatureKind::Road | FeatureKind::City => {
            let sides = rotate_sides(f.sides, t.rot);
            let s = Side::from_index(sides.trailing_zeros() as usize);
            if f.kind == FeatureKind::Road {
                Location::Road(s)
            } else {
                Location::City(s)
            }
        }
        FeatureKind::Field if f.halves == 0 && local == t.kind.info().inner_field => Location::InnerField,
        FeatureKind::Field if f.halves == 0 => Location::InnerField2,
        FeatureKind::Field => {
            Location::Field(HalfEdge::from_index(rotate_halves(f.halves, t.rot).trailing_zeros() as usize))
        }
        FeatureKind::Monastery => Location::Monastery,
    }
}

/// The sides a road or city piece reaches, as it lies on the board.
#[inline]
pub(crate) fn piece_sides(board: &Board, features: &Features, p: PieceId) -> u8 {
    let info = features.info(p);
    let t = board.tile(info.tile as usize);
    rotate_sides(t.kind.info().def.features[info.local as usize].sides, t.rot)
}

/// The piece across `side` of the tile at index `tile`, on its neighbour.
#[inline]
pub(crate) fn piece_across(board: &Board, tile: usize, side: Side) -> Option<PieceId> {
    let t = board.tile(tile);
    let n = board.tile(board.tile_index(t.pos.step(side))?);
    let local = n.kind.info().oriented[n.rot.quarters() as usize].side_piece[side.opposite().index()];
    (local != NO_PIECE).then_some(n.first_piece + local as PieceId)
}

/// Joins `pieces` (whole features just taken apart) again across tile
/// edges and links inside tiles, counting the followers on them again.
pub(crate) fn rejoin(board: &Board, features: &mut Features, followers: &[Follower], pieces: &PieceSet) {
    features.reset(pieces, |info| {
        Totals::of_piece(&board.tile(info.tile as usize).kind.info().def.features[info.local as usize])
    });
    for p in pieces.iter() {
        let tile = features.info(p).tile as usize;
        let at = board.tile(tile).pos;
        let sides = piece_sides(board, features, p);
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                let Some(ni) = board.tile_index(at.step(s)) else {
                    continue;
                };
                let n = board.tile(ni);
                let local = n.kind.info().oriented[n.rot.quarters() as usize].side_piece[s.opposite().index()];
                if local == NO_PIECE {
                    // A tile there without a piece across is an abbey: it ends this piece.
                    features.close_edge(p);
                } else if p < n.first_piece + local as PieceId {
                    features.join(p, n.first_piece + local as PieceId, Joint::Edge);
                }
            }
        }
        let l = features.link(p);
        if l != NONE && p < l {
            features.join(p, l, Joint::Link);
        }
    }
    for f in followers {
        if pieces.contains(f.piece) {
            features.add_follower(f.piece);
        }
    }
}

impl State {
    /// Puts a tile on the board and joins its pieces to its neighbours'.
    pub(super) fn put_tile(&mut self, kind: TileKind, p: Placement) -> usize {
        let first = self.features.len() as PieceId;
        let idx = self.board.place(kind, p, first);
        let info = kind.info();
        for (local, f) in info.def.features.iter().enumerate() {
            let piece = PieceInfo { kind: f.kind, tile: idx as u16, local: local as u8 };
            self.features.add(piece, Totals::of_piece(f));
        }
        let o = &info.oriented[p.rot.quarters() as usize];
        for s in Side::ALL {
            let Some(ni) = self.board.tile_index(p.pos.step(s)) else {
                continue;
            };
            let n = *self.board.tile(ni);
            let no = &n.kind.info().oriented[n.rot.quarters() as usize];
            let mine = o.side_piece[s.index()];
            if mine != NO_PIECE {
                let theirs = no.side_piece[s.opposite().index()];
                self.features.join(first + mine as PieceId, n.first_piece + theirs as PieceId, Joint::Edge);
            }
            for h in s.halves() {
                let mine = o.half_piece[h.index()];
                if mine != NO_PIECE {
                    let theirs = no.half_piece[h.facing().index()];
                    self.features.join(first + mine as PieceId, n.first_piece + theirs as PieceId, Joint::Edge);
                }
            }
        }
        if info.abbey {
            self.close_around_abbey(idx);
        }
        idx
    }

    /// An abbey's edges match anything and end the roads and cities that
    /// reach them, joining nothing across it.
    #[cold]
    fn close_around_abbey(&mut self, abbey: usize) {
        for s in Side::ALL {
            if let Some(p) = piece_across(&self.board, abbey, s) {
                self.features.close_edge(p);
            }
        }
    }

    /// Deploys a figure of the acting player from supply on piece `p`.
    pub(super) fn deploy(&mut self, kind: FollowerKind, p: PieceId) {
        let player = self.acting;
        self.supply[kind as usize][player as usize] -= 1;
        self.followers.push(Follower { player, kind, piece: p });
        self.features.add_follower(p);
    }

    /// Calls `f` with each legal location for a follower on the tile just placed.
    pub(super) fn for_each_deployment(&self, mut f: impl FnMut(Location)) {
        let t = self.board.tile(self.placed);
        let n = t.kind.info().pieces();
        for local in 0..n {
            let p = t.first_piece + local as PieceId;
            if self.features.totals(p).followers == 0 {
                f(location_of(t, local as u8));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotating_side_masks_turns_clockwise() {
        let n = Side::N.bit();
        assert_eq!(rotate_sides(n, Rotation::R0), n);
        assert_eq!(rotate_sides(n, Rotation::R90), Side::E.bit());
        assert_eq!(rotate_sides(Side::W.bit(), Rotation::R90), Side::N.bit());
        assert_eq!(rotate_sides(Side::W.bit() | Side::S.bit(), Rotation::R270), Side::S.bit() | Side::E.bit());
        assert_eq!(rotate_halves(HalfEdge::Wnw.bit(), Rotation::R90), HalfEdge::Nne.bit());
    }
}
