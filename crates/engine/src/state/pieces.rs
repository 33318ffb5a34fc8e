//! Tiles joining the board's features, and figures deployed on them.

use crate::board::{Placement, NO_TILE};
use crate::features::{Joint, PieceId};
use crate::figure::{Follower, FollowerKind};
use crate::geometry::Side;
use crate::pieces::piece_across;
use crate::rules;
use crate::tile::{TileKind, NO_PIECE};

use super::State;

impl State {
    /// Puts a tile on the board and joins its pieces to its neighbours'.
    pub(crate) fn put_tile(&mut self, kind: TileKind, p: Placement) -> usize {
        let first = self.features.len() as PieceId;
        let info = kind.info();
        let (idx, around) = self.board.place_kind(kind, info, p, first);
        self.features.add_tile(idx as u16, info);
        let o = info.at(p.rot);
        let (tiles, features) = (self.board.tiles(), &mut self.features);
        // By index: the side's halves and those they face are sums, not
        // look-ups (half 2s and 2s + 1 face 2s + 5 and 2s + 4 across).
        #[allow(clippy::needless_range_loop)] // `s` also gives the halves and the sides across
        for s in 0..4 {
            let ni = around[s];
            if ni == NO_TILE {
                continue;
            }
            let n = &tiles[ni as usize];
            let (no, theirs_first) = (n.oriented(), n.first_piece);
            let mine = o.side_piece[s];
            if mine != NO_PIECE {
                let theirs = no.side_piece[(s + 2) & 3];
                features.join(first + mine as PieceId, theirs_first + theirs as PieceId, Joint::Edge);
            }
            let (h0, h1) = (2 * s, 2 * s + 1);
            let (mine0, mine1) = (o.half_piece[h0], o.half_piece[h1]);
            let (theirs0, theirs1) = (no.half_piece[(h0 + 5) & 7], no.half_piece[(h1 + 3) & 7]);
            if mine0 != NO_PIECE {
                features.join(first + mine0 as PieceId, theirs_first + theirs0 as PieceId, Joint::Edge);
            }
            // One field on both halves of each side (most edges) is joined
            // once: fields have no open edges to close.
            if mine1 != NO_PIECE && (mine1, theirs1) != (mine0, theirs0) {
                features.join(first + mine1 as PieceId, theirs_first + theirs1 as PieceId, Joint::Edge);
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
        self.stand(Follower { player, kind, piece: p });
    }

    /// Puts figure `f` on the board, on its piece.
    #[inline]
    pub(crate) fn stand(&mut self, f: Follower) {
        self.followers.push(f);
        self.features.add_follower(f.piece);
        if self.features.info(f.piece).kind.scores_as_monastery() {
            self.monks.push(f.piece);
        }
    }

    /// Takes the `i`-th figure on the board off it.
    #[inline]
    pub(crate) fn lift(&mut self, i: usize) -> Follower {
        let f = self.followers.swap_remove(i);
        self.features.remove_follower(f.piece);
        if self.features.info(f.piece).kind.scores_as_monastery() {
            if let Some(i) = self.monks.iter().position(|&p| p == f.piece) {
                self.monks.swap_remove(i);
            }
        }
        f
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

    /// The pieces of the tile just placed where a follower may go: found
    /// once for a deploy step's list, which names them for every figure
    /// that deploys as a follower.
    #[inline]
    pub(crate) fn spots(&self) -> super::Spots<'_> {
        let t = self.board.tile(self.placed);
        let (mut free, mut count) = (0, 0);
        for p in t.pieces_in(t.info().follower_pieces) {
            if self.may_deploy_on(p) {
                free |= 1 << (p - t.first_piece);
                count += 1;
            }
        }
        super::Spots { tile: t, free, count }
    }
}
