//! Tiles joining the board's features, and figures deployed on them.

use crate::action::Location;
use crate::board::Placement;
use crate::features::{Joint, PieceId, PieceInfo, Totals};
use crate::figure::{Follower, FollowerKind};
use crate::geometry::Side;
use crate::pieces::{location_of, piece_across};
use crate::rules;
use crate::tile::{TileKind, NO_PIECE};

use super::State;

impl State {
    /// Puts a tile on the board and joins its pieces to its neighbours'.
    pub(crate) fn put_tile(&mut self, kind: TileKind, p: Placement) -> usize {
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
        if info.wild_edges {
            self.close_around(idx);
        }
        idx
    }

    /// A tile with wild edges ends the roads and cities that reach it,
    /// joining nothing across it.
    #[cold]
    fn close_around(&mut self, tile: usize) {
        for s in Side::ALL {
            if let Some(p) = piece_across(&self.board, tile, s) {
                self.features.close_edge(p);
            }
        }
    }

    /// Deploys a figure of the acting player from supply on piece `p`.
    pub(crate) fn deploy(&mut self, kind: FollowerKind, p: PieceId) {
        let player = self.acting;
        self.supply[kind as usize][player as usize] -= 1;
        self.followers.push(Follower { player, kind, piece: p });
        self.features.add_follower(p);
    }

    /// Whether a follower may go on piece `p` of the tile just placed for
    /// the figures already there: none, or the rules let it join them.
    #[inline]
    pub(crate) fn may_deploy_on(&self, p: PieceId) -> bool {
        self.features.totals(p).followers == 0 || (self.plan.shared_features() && rules::may_join(self, p, true))
    }

    /// Whether a figure moving onto piece `p` (Abbey & Mayor's wagon) may join the
    /// figures its feature holds, where the rules let it.
    #[inline]
    pub(crate) fn may_move_onto_held(&self, p: PieceId) -> bool {
        self.plan.shared_features() && rules::may_join(self, p, false)
    }

    /// Calls `f` with each legal location for a follower on the tile just placed.
    pub(crate) fn for_each_deployment(&self, mut f: impl FnMut(Location)) {
        let t = self.board.tile(self.placed);
        let k = t.kind.info();
        for local in 0..k.pieces() {
            let p = t.first_piece + local as PieceId;
            if k.follower_pieces & (1 << local) != 0 && self.may_deploy_on(p) {
                f(location_of(t, local as u8));
            }
        }
    }
}
