//! Features that grow as tiles join.
//!
//! Every feature piece of every placed tile is a node. Pieces joined across
//! tile edges (or by a link inside a tile, such as a ferry) form one feature.
//! Joins use a union-find with per-feature totals kept at the root, and a
//! circular member list so that a feature's pieces can be walked. Features
//! only merge while tiles are placed; when a link inside a tile is removed
//! (a ferry moves), the affected features are taken apart and joined again
//! from their pieces, which is local and cheap ([`Features::reset`]).

use crate::tile::FeatureKind;

/// A feature piece on the board: index into the piece arrays.
pub type PieceId = u16;

/// No piece.
pub const NONE: PieceId = u16::MAX;

/// Totals of a feature, valid at its root piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Totals {
    /// Road or city edges not yet matched by a neighbouring tile.
    pub open: u16,
    /// Coats of arms in a city.
    pub pennants: u16,
    /// Followers standing on the feature.
    pub followers: u16,
    /// Pieces in the feature.
    pub pieces: u16,
}

/// What a piece is and where it lies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceInfo {
    pub kind: FeatureKind,
    /// Index of its tile in placing order.
    pub tile: u16,
    /// Its index among its tile's pieces.
    pub local: u8,
}

#[derive(Clone, Debug, Default)]
pub struct Features {
    parent: Vec<PieceId>,
    next: Vec<PieceId>,
    totals: Vec<Totals>,
    info: Vec<PieceInfo>,
    /// Edges, pennants and followers of each piece alone, for rebuilding.
    own: Vec<Totals>,
    /// A piece joined to this one inside its tile (a ferry), or [`NONE`].
    link: Vec<PieceId>,
}

impl Features {
    pub fn with_capacity(n: usize) -> Features {
        Features {
            parent: Vec::with_capacity(n),
            next: Vec::with_capacity(n),
            totals: Vec::with_capacity(n),
            info: Vec::with_capacity(n),
            own: Vec::with_capacity(n),
            link: Vec::with_capacity(n),
        }
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Adds a piece on its own.
    pub fn add(&mut self, info: PieceInfo, open: u16, pennants: u16) -> PieceId {
        let id = self.parent.len() as PieceId;
        let own = Totals { open, pennants, followers: 0, pieces: 1 };
        self.parent.push(id);
        self.next.push(id);
        self.totals.push(own);
        self.own.push(own);
        self.info.push(info);
        self.link.push(NONE);
        id
    }

    #[inline]
    pub fn info(&self, p: PieceId) -> PieceInfo {
        self.info[p as usize]
    }

    /// The root piece that stands for `p`'s whole feature.
    #[inline]
    pub fn find(&self, mut p: PieceId) -> PieceId {
        while self.parent[p as usize] != p {
            p = self.parent[p as usize];
        }
        p
    }

    /// As [`find`](Self::find), shortening paths on the way.
    #[inline]
    pub fn find_mut(&mut self, mut p: PieceId) -> PieceId {
        while self.parent[p as usize] != p {
            let gp = self.parent[self.parent[p as usize] as usize];
            self.parent[p as usize] = gp;
            p = gp;
        }
        p
    }

    #[inline]
    pub fn totals(&self, p: PieceId) -> Totals {
        self.totals[self.find(p) as usize]
    }

    /// Joins the features of `a` and `b`, which meet across a tile edge when
    /// `across_edge` (two open edges are closed) or by a link inside a tile.
    pub fn join(&mut self, a: PieceId, b: PieceId, across_edge: bool) {
        let ra = self.find_mut(a);
        let rb = self.find_mut(b);
        let closed = if across_edge { 2 } else { 0 };
        if ra == rb {
            let t = &mut self.totals[ra as usize];
            t.open = t.open.saturating_sub(closed);
            return;
        }
        let (big, small) =
            if self.totals[ra as usize].pieces >= self.totals[rb as usize].pieces { (ra, rb) } else { (rb, ra) };
        let s = self.totals[small as usize];
        let t = &mut self.totals[big as usize];
        t.open = (t.open + s.open).saturating_sub(closed);
        t.pennants += s.pennants;
        t.followers += s.followers;
        t.pieces += s.pieces;
        self.parent[small as usize] = big;
        // Splice the two circular member lists.
        self.next.swap(big as usize, small as usize);
    }

    /// Records a follower deployed on piece `p`.
    pub fn add_follower(&mut self, p: PieceId) {
        self.own[p as usize].followers += 1;
        let r = self.find_mut(p);
        self.totals[r as usize].followers += 1;
    }

    /// Records a follower leaving piece `p`.
    pub fn remove_follower(&mut self, p: PieceId) {
        self.own[p as usize].followers -= 1;
        let r = self.find_mut(p);
        self.totals[r as usize].followers -= 1;
    }

    /// The pieces of `p`'s feature, `p` first.
    pub fn members(&self, p: PieceId) -> Members<'_> {
        Members { features: self, start: p, cur: Some(p) }
    }

    pub fn link(&self, p: PieceId) -> PieceId {
        self.link[p as usize]
    }

    /// Links two pieces inside a tile, or unlinks `a` when `b` is [`NONE`].
    /// The features are not rejoined here; see [`reset`](Self::reset).
    pub fn set_link(&mut self, a: PieceId, b: PieceId) {
        let old = self.link[a as usize];
        if old != NONE {
            self.link[old as usize] = NONE;
        }
        self.link[a as usize] = b;
        if b != NONE {
            let old_b = self.link[b as usize];
            if old_b != NONE {
                self.link[old_b as usize] = NONE;
            }
            self.link[b as usize] = a;
        }
    }

    /// Takes every piece in `pieces` apart into a feature of its own, to be
    /// joined again by the caller. `pieces` must be whole features.
    pub fn reset(&mut self, pieces: &[PieceId]) {
        for &p in pieces {
            let i = p as usize;
            self.parent[i] = p;
            self.next[i] = p;
            self.totals[i] = self.own[i];
        }
    }

    pub fn pieces(&self) -> impl Iterator<Item = PieceId> {
        0..self.parent.len() as PieceId
    }

    /// The edges, pennants and followers of piece `p` alone.
    pub fn own(&self, p: PieceId) -> Totals {
        self.own[p as usize]
    }
}

/// Iterator over a feature's pieces.
pub struct Members<'a> {
    features: &'a Features,
    start: PieceId,
    cur: Option<PieceId>,
}

impl Iterator for Members<'_> {
    type Item = PieceId;

    #[inline]
    fn next(&mut self) -> Option<PieceId> {
        let c = self.cur?;
        let n = self.features.next[c as usize];
        self.cur = if n == self.start { None } else { Some(n) };
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(f: &mut Features, open: u16) -> PieceId {
        f.add(PieceInfo { kind: FeatureKind::Road, tile: 0, local: 0 }, open, 0)
    }

    #[test]
    fn joining_across_an_edge_closes_two_open_edges() {
        let mut f = Features::default();
        let a = piece(&mut f, 2);
        let b = piece(&mut f, 1);
        f.join(a, b, true);
        assert_eq!(f.find(a), f.find(b));
        assert_eq!(f.totals(a).open, 1);
        assert_eq!(f.totals(a).pieces, 2);
        let mut m: Vec<_> = f.members(b).collect();
        m.sort();
        assert_eq!(m, vec![a, b]);
    }

    #[test]
    fn closing_a_loop_closes_edges_without_merging() {
        let mut f = Features::default();
        let a = piece(&mut f, 2);
        let b = piece(&mut f, 2);
        f.join(a, b, true);
        f.join(b, a, true);
        assert_eq!(f.totals(a).open, 0);
        assert_eq!(f.members(a).count(), 2);
    }

    #[test]
    fn reset_restores_pieces_with_their_followers() {
        let mut f = Features::default();
        let a = piece(&mut f, 1);
        let b = piece(&mut f, 1);
        f.add_follower(b);
        f.join(a, b, false);
        assert_eq!(f.totals(a).followers, 1);
        f.reset(&[a, b]);
        assert_ne!(f.find(a), f.find(b));
        assert_eq!(f.totals(a).followers, 0);
        assert_eq!(f.totals(b).followers, 1);
        assert_eq!(f.totals(b).open, 1);
    }
}
