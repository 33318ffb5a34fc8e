//! Features that grow as tiles join.
//!
//! Every feature piece of every placed tile is a node. Pieces joined across
//! tile edges (or by a link inside a tile, such as a ferry) form one feature.
//! Joins use a union-find with per-feature totals kept at the root, and a
//! circular member list so that a feature's pieces can be walked. Features
//! only merge while tiles are placed; when a link inside a tile is removed
//! (a ferry moves), the affected features are taken apart and joined again
//! from their pieces, which is local and cheap ([`Features::reset`]).

use std::sync::LazyLock;

use crate::catalogue::catalogue;
use crate::tile::{FeatureDef, FeatureKind, KindInfo};

/// A feature piece on the board: index into the piece arrays.
pub type PieceId = u16;

/// No piece.
pub const NONE: PieceId = u16::MAX;

/// Totals of a feature, valid at its root piece. Laid out as eight bytes
/// in this order, so that two are added as one word ([`Totals::absorb`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[repr(C)]
pub struct Totals {
    /// Road or city edges not yet matched by a neighbouring tile.
    pub open: u16,
    /// Coats of arms in a city.
    pub pennants: u8,
    /// Figures standing on the feature.
    pub followers: u8,
    /// Pieces in the feature.
    pub pieces: u16,
    /// Links inside tiles in the feature (ferries on a road).
    pub links: u8,
    /// Inns on a road, cathedrals in a city (Inns & Cathedrals).
    pub marks: u8,
}

impl Totals {
    /// The totals of one piece on its own.
    #[inline]
    pub fn of_piece(f: &FeatureDef) -> Totals {
        // Fields and monasteries have no open edges.
        Totals {
            open: f.sides.count_ones() as u16,
            pennants: f.pennants,
            followers: 0,
            pieces: 1,
            links: 0,
            marks: f.mark as u8,
        }
    }

    /// Adds another feature's totals to these (the open edges as they
    /// are; the caller closes the edges where the two meet).
    #[inline]
    fn absorb(&mut self, o: Totals) {
        // No field of a feature's totals comes near its type's limit (a
        // game has fewer than 2^16 pieces and 2^8 of every other thing),
        // so adding the words adds each field without a carry between them.
        let sum = Totals::from_word(self.word() + o.word());
        debug_assert_eq!(
            sum,
            Totals {
                open: self.open + o.open,
                pennants: self.pennants + o.pennants,
                followers: self.followers + o.followers,
                pieces: self.pieces + o.pieces,
                links: self.links + o.links,
                marks: self.marks + o.marks,
            },
            "a carry between the totals' fields"
        );
        *self = sum;
    }

    #[inline(always)]
    fn word(self) -> u64 {
        let Totals { open, pennants, followers, pieces, links, marks } = self;
        open as u64
            | (pennants as u64) << 16
            | (followers as u64) << 24
            | (pieces as u64) << 32
            | (links as u64) << 48
            | (marks as u64) << 56
    }

    #[inline(always)]
    fn from_word(w: u64) -> Totals {
        Totals {
            open: w as u16,
            pennants: (w >> 16) as u8,
            followers: (w >> 24) as u8,
            pieces: (w >> 32) as u16,
            links: (w >> 48) as u8,
            marks: (w >> 56) as u8,
        }
    }
}

/// How two pieces meet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Joint {
    /// Across a tile edge: two open edges are closed (fields have none).
    Edge,
    /// By a link inside a tile (a ferry between two jetties).
    Link,
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

/// One piece and, when it is a root, its feature's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    parent: PieceId,
    /// Next piece in the feature's circular member list.
    next: PieceId,
    /// A piece joined to this one inside its tile (a ferry), or [`NONE`].
    link: PieceId,
    /// For a field: the city pieces of its tile it borders (a bit per
    /// piece index), kept here so that a farm's cities are found without
    /// looking at the tiles.
    borders: u16,
    info: PieceInfo,
    totals: Totals,
}

/// The root of `p`, halving the path on the way.
#[inline(always)]
fn find_compressing(nodes: &mut [Node], mut p: PieceId) -> PieceId {
    loop {
        let parent = nodes[p as usize].parent;
        if parent == p {
            return p;
        }
        let grandparent = nodes[parent as usize].parent;
        nodes[p as usize].parent = grandparent;
        p = grandparent;
    }
}

/// Every kind's pieces as the nodes of a tile whose first piece is 0, in
/// catalogue order (a kind's begin at [`KindInfo::first_node`]): placing a
/// tile copies them, which is cheaper than making each again from its
/// definition.
static TEMPLATES: LazyLock<Vec<Node>> = LazyLock::new(|| {
    let mut nodes = Vec::new();
    for kind in &catalogue().kinds {
        debug_assert_eq!(nodes.len(), kind.first_node as usize);
        nodes.extend(kind.def.features.iter().enumerate().map(|(local, f)| {
            let id = local as PieceId;
            let info = PieceInfo { kind: f.kind, tile: 0, local: local as u8 };
            Node { parent: id, next: id, link: NONE, borders: f.borders, info, totals: Totals::of_piece(f) }
        }));
    }
    nodes
});

/// The template nodes of a kind's pieces.
#[inline]
fn template(info: &KindInfo) -> &'static [Node] {
    &TEMPLATES[info.first_node as usize..][..info.def.features.len()]
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Features {
    nodes: Vec<Node>,
}

impl Clone for Features {
    fn clone(&self) -> Self {
        Features { nodes: self.nodes.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.nodes.clone_from(&source.nodes);
    }
}

impl Features {
    pub fn with_capacity(n: usize) -> Features {
        Features { nodes: Vec::with_capacity(n) }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a piece on its own.
    #[inline]
    pub fn add(&mut self, info: PieceInfo, totals: Totals) -> PieceId {
        let id = self.nodes.len() as PieceId;
        self.nodes.push(Node { parent: id, next: id, link: NONE, borders: 0, info, totals });
        id
    }

    /// Adds the pieces of a tile of `kind`, at index `tile`, each on its own:
    /// its kind's nodes, made once, numbered on from the last piece.
    #[inline]
    pub(crate) fn add_tile(&mut self, tile: u16, kind: &KindInfo) {
        let first = self.nodes.len() as PieceId;
        self.nodes.extend(template(kind).iter().map(|n| Node {
            parent: n.parent + first,
            next: n.next + first,
            info: PieceInfo { tile, ..n.info },
            ..*n
        }));
    }

    #[inline]
    pub fn info(&self, p: PieceId) -> PieceInfo {
        self.nodes[p as usize].info
    }

    /// The root piece that stands for `p`'s whole feature.
    #[inline]
    pub fn find(&self, mut p: PieceId) -> PieceId {
        loop {
            let parent = self.nodes[p as usize].parent;
            if parent == p {
                return p;
            }
            p = parent;
        }
    }

    /// As [`find`](Self::find), shortening paths on the way.
    #[inline]
    pub fn find_mut(&mut self, p: PieceId) -> PieceId {
        find_compressing(&mut self.nodes, p)
    }

    #[inline]
    pub fn totals(&self, p: PieceId) -> Totals {
        self.nodes[self.find(p) as usize].totals
    }

    /// The totals of the feature whose root is `root` (as `find` gives it).
    #[inline]
    pub(crate) fn root_totals(&self, root: PieceId) -> Totals {
        debug_assert_eq!(self.find(root), root);
        self.nodes[root as usize].totals
    }

    /// Joins the features of `a` and `b`, which meet at `joint`.
    #[inline(always)]
    pub fn join(&mut self, a: PieceId, b: PieceId, joint: Joint) {
        // On a slice: its pointer and length stay in registers across the writes.
        let nodes = &mut self.nodes[..];
        let ra = find_compressing(nodes, a);
        let rb = find_compressing(nodes, b);
        let (closed, links) = match joint {
            Joint::Edge => (2, 0),
            Joint::Link => (0, 1),
        };
        if ra == rb {
            let t = &mut nodes[ra as usize].totals;
            t.open = t.open.saturating_sub(closed);
            t.links += links;
            return;
        }
        let (big, small) =
            if nodes[ra as usize].totals.pieces >= nodes[rb as usize].totals.pieces { (ra, rb) } else { (rb, ra) };
        let s = nodes[small as usize].totals;
        let t = &mut nodes[big as usize].totals;
        t.absorb(s);
        t.open = t.open.saturating_sub(closed);
        t.links += links;
        nodes[small as usize].parent = big;
        // Splice the two circular member lists.
        let next_big = nodes[big as usize].next;
        nodes[big as usize].next = nodes[small as usize].next;
        nodes[small as usize].next = next_big;
    }

    /// Closes one open edge of `p`'s feature without joining it to anything
    /// (an abbey ends the roads and cities that reach it).
    pub fn close_edge(&mut self, p: PieceId) {
        let r = self.find_mut(p);
        let t = &mut self.nodes[r as usize].totals;
        t.open = t.open.saturating_sub(1);
    }

    /// Records a follower deployed on piece `p`.
    pub fn add_follower(&mut self, p: PieceId) {
        let r = self.find_mut(p);
        self.nodes[r as usize].totals.followers += 1;
    }

    /// Records a follower leaving piece `p`.
    pub fn remove_follower(&mut self, p: PieceId) {
        let r = self.find_mut(p);
        self.nodes[r as usize].totals.followers -= 1;
    }

    /// The pieces of `p`'s feature, `p` first.
    pub fn members(&self, p: PieceId) -> Members<'_> {
        Members { features: self, start: p, cur: Some(p) }
    }

    /// The city pieces a field piece `p` borders on its own tile, by
    /// their ids.
    #[inline]
    pub fn bordered_cities(&self, p: PieceId) -> impl Iterator<Item = PieceId> {
        let n = &self.nodes[p as usize];
        let first = p - n.info.local as PieceId;
        let mut borders = n.borders;
        std::iter::from_fn(move || {
            (borders != 0).then(|| {
                let local = borders.trailing_zeros() as PieceId;
                borders &= borders - 1;
                first + local
            })
        })
    }

    pub fn link(&self, p: PieceId) -> PieceId {
        self.nodes[p as usize].link
    }

    /// Links two pieces inside a tile, or unlinks `a` when `b` is [`NONE`].
    /// The features are not rejoined here; see [`reset`](Self::reset).
    pub fn set_link(&mut self, a: PieceId, b: PieceId) {
        for p in [a, b] {
            if p != NONE {
                let old = self.nodes[p as usize].link;
                if old != NONE {
                    self.nodes[old as usize].link = NONE;
                }
            }
        }
        self.nodes[a as usize].link = b;
        if b != NONE {
            self.nodes[b as usize].link = a;
        }
    }

    /// Takes `pieces` apart, each into a feature of its own with the totals
    /// `alone` gives for it, to be joined again by the caller. The pieces
    /// must make up whole features.
    pub fn reset(&mut self, pieces: &[PieceId], alone: impl Fn(PieceInfo) -> Totals) {
        for &p in pieces {
            let n = &mut self.nodes[p as usize];
            n.parent = p;
            n.next = p;
            n.totals = alone(n.info);
        }
    }

    pub fn pieces(&self) -> impl Iterator<Item = PieceId> {
        0..self.nodes.len() as PieceId
    }
}

/// A set of pieces, on the stack: a bit per piece.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PieceSet([u64; PieceSet::WORDS]);

impl Default for PieceSet {
    fn default() -> Self {
        PieceSet([0; PieceSet::WORDS])
    }
}

impl PieceSet {
    const WORDS: usize = 32;
    /// Pieces a set can hold: more than every tile of every set together has.
    pub const CAPACITY: usize = PieceSet::WORDS * 64;

    /// Adds `p`; false if it was there already.
    #[inline]
    pub fn insert(&mut self, p: PieceId) -> bool {
        let (w, b) = (p as usize / 64 % PieceSet::WORDS, 1u64 << (p % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    #[inline]
    pub fn contains(&self, p: PieceId) -> bool {
        self.0[p as usize / 64 % PieceSet::WORDS] & (1 << (p % 64)) != 0
    }

    /// The pieces, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = PieceId> + '_ {
        self.0.iter().enumerate().flat_map(|(w, bits)| {
            let mut b = *bits;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let i = b.trailing_zeros();
                    b &= b - 1;
                    (w * 64) as PieceId + i as PieceId
                })
            })
        })
    }
}

/// Pieces in the order they come, on the stack up to `N` of them (a
/// feature's pieces, walked to be taken apart: most features are short,
/// and a list on the heap would cost its allocation each time).
pub(crate) struct PieceList<const N: usize> {
    short: [PieceId; N],
    len: usize,
    /// Every piece once there are more than `N`.
    long: Vec<PieceId>,
}

impl<const N: usize> PieceList<N> {
    pub(crate) fn new() -> Self {
        PieceList { short: [NONE; N], len: 0, long: Vec::new() }
    }

    #[inline]
    pub(crate) fn push(&mut self, p: PieceId) {
        if self.len < N {
            self.short[self.len] = p;
            self.len += 1;
        } else {
            if self.long.is_empty() {
                self.long.extend_from_slice(&self.short);
            }
            self.long.push(p);
        }
    }

    pub(crate) fn as_slice(&self) -> &[PieceId] {
        if self.long.is_empty() {
            &self.short[..self.len]
        } else {
            &self.long
        }
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
        let n = self.features.nodes[c as usize].next;
        self.cur = if n == self.start { None } else { Some(n) };
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(f: &mut Features, open: u16) -> PieceId {
        f.add(PieceInfo { kind: FeatureKind::Road, tile: 0, local: 0 }, Totals { open, pieces: 1, ..Totals::default() })
    }

    #[test]
    fn a_piece_list_keeps_its_order_past_its_room_on_the_stack() {
        for n in [0, 1, 3, 4, 5, 9, 40] {
            let mut list = PieceList::<4>::new();
            let pieces: Vec<PieceId> = (0..n).map(|i| (i * 7 % 11) as PieceId).collect();
            for &p in &pieces {
                list.push(p);
            }
            assert_eq!(list.as_slice(), &pieces[..], "{n} pieces");
        }
    }

    #[test]
    fn joining_across_an_edge_closes_two_open_edges() {
        let mut f = Features::default();
        let a = piece(&mut f, 2);
        let b = piece(&mut f, 1);
        f.join(a, b, Joint::Edge);
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
        f.join(a, b, Joint::Edge);
        f.join(b, a, Joint::Edge);
        assert_eq!(f.totals(a).open, 0);
        assert_eq!(f.members(a).count(), 2);
    }

    #[test]
    fn reset_takes_a_feature_apart_into_its_pieces() {
        let mut f = Features::default();
        let a = piece(&mut f, 1);
        let b = piece(&mut f, 1);
        f.add_follower(b);
        f.join(a, b, Joint::Link);
        assert_eq!(f.totals(a).followers, 1);
        assert_eq!(f.totals(a).links, 1);
        f.reset(&[a, b], |_| Totals { open: 1, pieces: 1, ..Totals::default() });
        f.add_follower(b);
        assert_ne!(f.find(a), f.find(b));
        assert_eq!(f.totals(a).followers, 0);
        assert_eq!(f.totals(b).followers, 1);
        assert_eq!(f.totals(b).open, 1);
    }
}
