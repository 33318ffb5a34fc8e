//! Tiles as data.
//!
//! A tile kind is a list of feature pieces (road, city, field, monastery) given
//! at rotation 0. Edges are derived from the pieces, so a definition cannot
//! disagree with itself. Every expansion brings its own [`TileSet`]; the
//! [`catalogue`](crate::catalogue) joins them, and everything else addresses a kind by its
//! [`TileKind`] index.

use crate::expansion::{Edition, Expansion};
use crate::geometry::{rotate_halves, rotate_sides, Corner, HalfEdge, Rotation, Side};
use crate::names::written_names;

/// What a piece of a tile is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FeatureKind {
    Road,
    City,
    Field,
    Monastery,
    /// A garden (The Abbot): only an abbot stands on it, and it scores as
    /// a monastery does.
    Garden,
}

written_names!(FeatureKind {
    Road => "road",
    City => "city",
    Field => "field",
    Monastery => "monastery",
    Garden => "garden",
});

impl FeatureKind {
    /// A monastery or a garden: a feature of one tile, completed when the
    /// eight cells around it hold tiles.
    #[inline]
    pub const fn scores_as_monastery(self) -> bool {
        matches!(self, FeatureKind::Monastery | FeatureKind::Garden)
    }
}

/// What lies along an edge; neighbours must agree on it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EdgeKind {
    Field = 0,
    Road = 1,
    City = 2,
    /// A river (The River): it meets only a river, and a field lies on
    /// either bank of it.
    River = 3,
}

/// One feature piece of a tile, at rotation 0.
#[derive(Clone, Copy, Debug)]
pub struct FeatureDef {
    pub kind: FeatureKind,
    /// Sides reached by a road or city piece (bit per [`Side`]).
    pub sides: u8,
    /// Half-edges touched by a field (bit per [`HalfEdge`]).
    pub halves: u8,
    /// Coats of arms on a city piece.
    pub pennants: u8,
    /// For a field: the city pieces of this tile it borders (bit per piece index).
    pub borders: u16,
    /// A road piece that ends at a lake's jetty (The Ferries).
    pub jetty: bool,
    /// An inn on a road piece, or a cathedral in a city piece (Inns &
    /// Cathedrals): the mark that changes what the feature scores.
    pub mark: bool,
    /// A trade good shown on a city piece (Traders & Builders).
    pub good: Option<Good>,
}

/// A trade good of Traders & Builders, shown on city pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Good {
    Wine = 0,
    Grain = 1,
    Cloth = 2,
}

impl Good {
    pub const ALL: [Good; 3] = [Good::Wine, Good::Grain, Good::Cloth];
}

crate::names::written_names!(Good { Wine => "wine", Grain => "grain", Cloth => "cloth" });

pub(crate) const fn side_mask(sides: &[Side]) -> u8 {
    let mut m = 0;
    let mut i = 0;
    while i < sides.len() {
        m |= sides[i].bit();
        i += 1;
    }
    m
}

const fn half_mask(halves: &[HalfEdge]) -> u8 {
    let mut m = 0;
    let mut i = 0;
    while i < halves.len() {
        m |= halves[i].bit();
        i += 1;
    }
    m
}

const EMPTY: FeatureDef = FeatureDef {
    kind: FeatureKind::Field,
    sides: 0,
    halves: 0,
    pennants: 0,
    borders: 0,
    jetty: false,
    mark: false,
    good: None,
};

/// A road piece reaching `sides`; with one side it ends inside the tile.
pub const fn road(sides: &[Side]) -> FeatureDef {
    FeatureDef { kind: FeatureKind::Road, sides: side_mask(sides), ..EMPTY }
}

/// A road piece from `side` to a jetty on the tile's lake.
pub const fn jetty(side: Side) -> FeatureDef {
    FeatureDef { kind: FeatureKind::Road, sides: side.bit(), jetty: true, ..EMPTY }
}

/// A city piece reaching `sides`.
pub const fn city(sides: &[Side]) -> FeatureDef {
    FeatureDef { kind: FeatureKind::City, sides: side_mask(sides), ..EMPTY }
}

/// A road piece with an inn (Inns & Cathedrals).
pub const fn road_with_inn(sides: &[Side]) -> FeatureDef {
    FeatureDef { kind: FeatureKind::Road, sides: side_mask(sides), mark: true, ..EMPTY }
}

/// A city piece with a cathedral (Inns & Cathedrals).
pub const fn city_with_cathedral(sides: &[Side]) -> FeatureDef {
    FeatureDef { kind: FeatureKind::City, sides: side_mask(sides), mark: true, ..EMPTY }
}

/// A city piece showing a trade good (Traders & Builders).
pub const fn city_with_good(sides: &[Side], good: Good) -> FeatureDef {
    FeatureDef { kind: FeatureKind::City, sides: side_mask(sides), good: Some(good), ..EMPTY }
}

/// A city piece with a coat of arms.
pub const fn city_with_pennant(sides: &[Side]) -> FeatureDef {
    FeatureDef { kind: FeatureKind::City, sides: side_mask(sides), pennants: 1, ..EMPTY }
}

/// A city piece with `n` coats of arms.
pub const fn city_with_pennants(sides: &[Side], n: u8) -> FeatureDef {
    FeatureDef { kind: FeatureKind::City, sides: side_mask(sides), pennants: n, ..EMPTY }
}

/// A field touching `halves`, bordering the city pieces `borders` (piece
/// indices). A field touching no half-edge lies inside the tile between
/// its cities (`field:inner`) and joins no other.
pub const fn field(halves: &[HalfEdge], borders: &[u8]) -> FeatureDef {
    let mut b = 0u16;
    let mut i = 0;
    while i < borders.len() {
        b |= 1 << borders[i];
        i += 1;
    }
    FeatureDef { kind: FeatureKind::Field, halves: half_mask(halves), borders: b, ..EMPTY }
}

pub const fn monastery() -> FeatureDef {
    FeatureDef { kind: FeatureKind::Monastery, ..EMPTY }
}

/// A garden (The Abbot), in a field of its tile: the field is whole around it.
pub const fn garden() -> FeatureDef {
    FeatureDef { kind: FeatureKind::Garden, ..EMPTY }
}

/// One entry of a [`TileSet`]: a tile with the same count in both editions.
macro_rules! tile {
    ($id:literal, $count:literal, [$($f:expr),* $(,)?]) => {
        (crate::tile::TileDef { id: $id, features: &[$($f),*], links: &[], river: 0 }, $count, $count)
    };
    // The fourth argument: the pieces the picture links (`TileDef::links`).
    ($id:literal, $count:literal, [$($f:expr),* $(,)?], [$([$($l:literal),*]),* $(,)?]) => {
        (crate::tile::TileDef { id: $id, features: &[$($f),*], links: &[$(&[$($l),*]),*], river: 0 }, $count, $count)
    };
}

pub(crate) use tile;

/// A tile's definition: its id as written in records, and its pieces.
#[derive(Debug)]
pub struct TileDef {
    pub id: &'static str,
    pub features: &'static [FeatureDef],
    /// Groups of pieces (by index) that the tile's picture links: a road
    /// that ends at a monastery or a city, the roads of a crossing. A
    /// wagon under the first edition's rule follows them (Abbey & Mayor).
    pub links: &'static [&'static [u8]],
    /// The sides a river reaches (bit per [`Side`]; The River): not a
    /// feature, nothing stands or scores on it, but its edges meet only
    /// rivers and it parts the fields.
    pub river: u8,
}

/// The tiles an expansion (or the base game) brings, with counts per edition.
pub struct TileSet {
    pub expansion: Option<Expansion>,
    /// `(tile, count in c3, count in c2)`.
    pub tiles: &'static [(TileDef, u8, u8)],
    /// The tile that starts the game in place of the base game's, which
    /// then goes into the bag (The River's spring).
    pub start: Option<&'static str>,
    /// Tiles drawn before the rest of the bag: `(tile, stage)`, the
    /// highest stage first (The River's tiles, then its lake).
    pub stages: &'static [(&'static str, u8)],
    /// Tiles of this set that each take the place of one copy of another
    /// set's tile: `(tile, the tile it replaces)` (The Abbot's garden
    /// tiles, drawn instead of as many plain ones of the same layout).
    pub replaces: &'static [(&'static str, &'static str)],
}

/// The most draw stages a bag has (see [`TileSet::stages`]).
pub const STAGES: usize = 3;

/// Index of a tile kind in the [`catalogue`](crate::catalogue).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TileKind(pub(crate) u8);

/// No piece there.
pub const NO_PIECE: u8 = u8::MAX;

/// A tile kind at one rotation, precomputed for placement and feature lookup.
#[derive(Clone, Copy, Debug)]
pub struct Oriented {
    /// Edge kinds of N, E, S, W packed two bits each (see [`EdgeKind`]).
    pub signature: u8,
    /// The road or city piece reaching each side, or [`NO_PIECE`].
    pub side_piece: [u8; 4],
    /// The field touching each half-edge, or [`NO_PIECE`].
    pub half_piece: [u8; 8],
    /// What the tile demands of the cell across each of its sides: that
    /// cell's side facing it shows its edge kind there. As an open cell
    /// keeps it (its demands are the union of its neighbours'): the kind
    /// in that side's two bits of the low half, the side's mask `0b11`
    /// in the high half, each byte repeated four times.
    pub demands: [u64; 4],
    /// Each piece's name on the board at this rotation (see
    /// [`Location`]), named once here rather than at every deploy list.
    pub names: [Location; MAX_TILE_PIECES],
}

/// The most pieces a tile kind may have (a mask of pieces is a `u16`).
pub const MAX_TILE_PIECES: usize = 16;

/// Everything derived from a [`TileDef`].
pub struct KindInfo {
    pub def: &'static TileDef,
    pub expansion: Option<Expansion>,
    pub counts: [u8; 2],
    pub edges: [EdgeKind; 4],
    pub oriented: [Oriented; 4],
    /// The edge signatures of its four rotations, a byte each (rotation
    /// `r` in byte `r`, as [`Oriented::signature`]): a cell tests them at once.
    pub signatures: u32,
    /// At each rotation, the corners (a bit per [`Corner`]) where one
    /// field holds both half-edges: where a barn may stand, if the tiles
    /// around agree.
    pub field_corners: [u8; 4],
    /// Piece index of the monastery, or [`NO_PIECE`].
    pub monastery: u8,
    /// Piece index of the garden, or [`NO_PIECE`] (The Abbot).
    pub garden: u8,
    /// The pieces a follower may stand on (a bit per piece): all but a
    /// garden, which holds only an abbot.
    pub follower_pieces: u16,
    /// The road pieces (a bit per piece).
    pub road_pieces: u16,
    /// The road and city pieces: those a turn checks for completion.
    pub edge_pieces: u16,
    /// Piece index of a field touching no edge (`field:inner`), or [`NO_PIECE`].
    pub inner_field: u8,
    /// Piece index of a second such field (`field:inner2`), or [`NO_PIECE`].
    pub inner_field2: u8,
    /// Edges with nothing on them, which match any neighbour and end the
    /// roads and cities that reach them: a tile with nothing but a
    /// monastery (Abbey & Mayor's abbey).
    pub wild_edges: bool,
    /// Whether it has a lake with jetties (The Ferries).
    pub lake: bool,
    /// Bit mask of sides with a jetty, at rotation 0.
    pub jetties: u8,
    /// Bit mask of sides with a river, at rotation 0 (The River).
    pub river: u8,
    /// Its draw stage: 0 for most tiles, higher for those drawn first.
    pub stage: u8,
    /// Where its pieces begin among the pieces of every kind in catalogue
    /// order: the union-find finds the nodes a placed tile starts with there.
    pub(crate) first_node: u16,
}

impl KindInfo {
    pub fn count(&self, edition: Edition) -> u8 {
        self.counts[edition as usize]
    }

    /// The monastery's piece as a bit (as in [`follower_pieces`](Self::follower_pieces)), or none.
    #[inline]
    pub fn monastery_piece(&self) -> u16 {
        if self.monastery == NO_PIECE {
            0
        } else {
            1 << self.monastery
        }
    }

    pub fn pieces(&self) -> usize {
        self.def.features.len()
    }

    /// Its pieces' edges and half-edges at rotation `rot`.
    #[inline]
    pub fn at(&self, rot: Rotation) -> &Oriented {
        &self.oriented[rot.quarters() as usize & 3]
    }
}

/// All tile kinds known to the engine.
pub struct Catalogue {
    pub kinds: Vec<KindInfo>,
    /// The most pieces any kind has.
    pub max_pieces: usize,
    /// Each tile set's kinds, as a range of indices, with its expansion.
    pub sets: Vec<(Option<Expansion>, std::ops::Range<usize>)>,
}

pub(crate) fn derive(def: &'static TileDef, expansion: Option<Expansion>, counts: [u8; 2], stage: u8) -> KindInfo {
    let mut edges = [EdgeKind::Field; 4];
    for s in Side::ALL {
        if def.river & s.bit() != 0 {
            edges[s.index()] = EdgeKind::River;
        }
    }
    let mut side_piece = [NO_PIECE; 4];
    let mut half_piece = [NO_PIECE; 8];
    let mut monastery = NO_PIECE;
    let mut garden = NO_PIECE;
    let mut inner_field = NO_PIECE;
    let mut inner_field2 = NO_PIECE;
    let mut jetties = 0;
    for (i, f) in def.features.iter().enumerate() {
        for s in Side::ALL {
            if f.sides & s.bit() != 0 {
                assert_eq!(side_piece[s.index()], NO_PIECE, "tile {}: two pieces reach {s}", def.id);
                assert_eq!(def.river & s.bit(), 0, "tile {}: a piece and the river reach {s}", def.id);
                side_piece[s.index()] = i as u8;
                edges[s.index()] = match f.kind {
                    FeatureKind::City => EdgeKind::City,
                    _ => EdgeKind::Road,
                };
                if f.jetty {
                    jetties |= s.bit();
                }
            }
        }
        for h in HalfEdge::ALL {
            if f.halves & h.bit() != 0 {
                assert_eq!(half_piece[h.index()], NO_PIECE, "tile {}: two fields touch {h}", def.id);
                half_piece[h.index()] = i as u8;
            }
        }
        if f.kind == FeatureKind::Monastery {
            monastery = i as u8;
        }
        if f.kind == FeatureKind::Garden {
            garden = i as u8;
        }
        if f.kind == FeatureKind::Field && f.halves == 0 {
            if inner_field == NO_PIECE {
                inner_field = i as u8;
            } else {
                assert_eq!(inner_field2, NO_PIECE, "tile {}: three inner fields", def.id);
                inner_field2 = i as u8;
            }
        }
    }
    assert!(def.features.len() <= MAX_TILE_PIECES, "tile {}: more than {MAX_TILE_PIECES} pieces", def.id);
    let names = [Location::Monastery; MAX_TILE_PIECES];
    let mut oriented = [Oriented { signature: 0, side_piece, half_piece, demands: [0; 4], names }; 4];
    let mut field_corners = [0u8; 4];
    for rot in Rotation::ALL {
        let o = &mut oriented[rot.quarters() as usize];
        o.signature = 0;
        for s in Side::ALL {
            let to = s.rotated(rot);
            o.side_piece[to.index()] = side_piece[s.index()];
            o.signature |= (edges[s.index()] as u8) << (2 * to.index());
            let facing = 2 * to.opposite().index();
            let (required, mask) = ((edges[s.index()] as u64) << facing, 3u64 << facing);
            o.demands[to.index()] = (required | mask << 32) * 0x0101_0101;
            for h in s.halves() {
                o.half_piece[h.rotated(rot).index()] = half_piece[h.index()];
            }
        }
        for (local, f) in def.features.iter().enumerate() {
            o.names[local] = name_of(f, local as u8 == inner_field, rot);
        }
        for c in Corner::ALL {
            let [a, b] = c.halves();
            let field = o.half_piece[a.index()];
            if field != NO_PIECE && field == o.half_piece[b.index()] {
                field_corners[rot.quarters() as usize] |= 1 << c as u8;
            }
        }
    }
    let wild_edges = def.features.len() == 1 && monastery == 0;
    let mut follower_pieces = ((1u32 << def.features.len()) - 1) as u16;
    if garden != NO_PIECE {
        follower_pieces &= !(1 << garden);
    }
    let mut road_pieces = 0u16;
    let mut edge_pieces = 0u16;
    for (i, f) in def.features.iter().enumerate() {
        road_pieces |= u16::from(f.kind == FeatureKind::Road) << i;
        edge_pieces |= u16::from(matches!(f.kind, FeatureKind::Road | FeatureKind::City)) << i;
    }
    KindInfo {
        def,
        expansion,
        counts,
        edges,
        oriented,
        signatures: u32::from_le_bytes(oriented.map(|o| o.signature)),
        field_corners,
        monastery,
        garden,
        follower_pieces,
        road_pieces,
        edge_pieces,
        inner_field,
        inner_field2,
        wild_edges,
        lake: jetties != 0,
        jetties,
        river: def.river,
        stage,
        // Numbered by the catalogue, which knows the kinds before.
        first_node: 0,
    }
}

/// A feature of the tile just placed, named as it lies on the board
/// (`road:E`, `city:N`, `field:SSE`, `monastery`, `garden`; `field:inner` and
/// `field:inner2` for fields inside a tile that touch no edge, between its
/// cities; `corner:NW` for the field corner a barn stands on).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Location {
    Road(Side),
    City(Side),
    Field(HalfEdge),
    Monastery,
    /// The Abbot: the garden of a tile.
    Garden,
    InnerField,
    /// The second field inside a tile (Abbey & Mayor's crossing cities have two).
    InnerField2,
    /// Abbey & Mayor: a corner of the tile where four fields meet, for a barn.
    Corner(Corner),
}

impl Location {
    pub fn kind(self) -> FeatureKind {
        match self {
            Location::Road(_) => FeatureKind::Road,
            Location::City(_) => FeatureKind::City,
            Location::Field(_) | Location::InnerField | Location::InnerField2 | Location::Corner(_) => {
                FeatureKind::Field
            }
            Location::Monastery => FeatureKind::Monastery,
            Location::Garden => FeatureKind::Garden,
        }
    }
}

/// The canonical name of a piece at rotation `rot`: its first side or
/// half-edge in clockwise order from north, as it lies on the board
/// (`inner` tells the first field touching no edge from the second).
fn name_of(f: &FeatureDef, inner: bool, rot: Rotation) -> Location {
    let first_side = || Side::from_index(rotate_sides(f.sides, rot).trailing_zeros() as usize);
    match f.kind {
        FeatureKind::Road => Location::Road(first_side()),
        FeatureKind::City => Location::City(first_side()),
        FeatureKind::Field if f.halves == 0 && inner => Location::InnerField,
        FeatureKind::Field if f.halves == 0 => Location::InnerField2,
        FeatureKind::Field => {
            Location::Field(HalfEdge::from_index(rotate_halves(f.halves, rot).trailing_zeros() as usize))
        }
        FeatureKind::Monastery => Location::Monastery,
        FeatureKind::Garden => Location::Garden,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::catalogue;

    fn kind(id: &str) -> &'static KindInfo {
        TileKind::parse(id).unwrap().info()
    }

    #[test]
    fn base_game_has_72_tiles_in_both_editions() {
        for edition in [Edition::C3, Edition::C2] {
            let n: u32 =
                catalogue().kinds.iter().filter(|k| k.expansion.is_none()).map(|k| k.count(edition) as u32).sum();
            assert_eq!(n, 72);
        }
    }

    #[test]
    fn every_half_edge_of_a_field_or_road_edge_has_a_field() {
        // A road edge has fields on both halves; a city edge has none (an
        // abbey's edges are neither: they match anything).
        for k in catalogue().kinds.iter().filter(|k| !k.wild_edges) {
            for s in Side::ALL {
                for h in s.halves() {
                    let has_field = k.oriented[0].half_piece[h.index()] != NO_PIECE;
                    assert_eq!(has_field, k.edges[s.index()] != EdgeKind::City, "{} {h}", k.def.id);
                }
            }
        }
    }

    #[test]
    fn rotation_moves_edges_clockwise() {
        let d = kind("D");
        // D: city N, road W-E. Turned 90°, the city faces east and the road runs N-S.
        let o = d.oriented[1];
        let edge = |s: Side| (o.signature >> (2 * s.index())) & 3;
        assert_eq!(edge(Side::E), EdgeKind::City as u8);
        assert_eq!(edge(Side::N), EdgeKind::Road as u8);
        assert_eq!(edge(Side::S), EdgeKind::Road as u8);
        assert_eq!(edge(Side::W), EdgeKind::Field as u8);
        assert_eq!(o.side_piece[Side::E.index()], 0);
    }

    #[test]
    fn a_field_corner_has_one_field_on_both_its_halves_as_the_tile_lies() {
        let corners = |cs: &[Corner]| cs.iter().fold(0u8, |m, c| m | 1 << *c as u8);
        // A monastery in a field: every corner, at every rotation.
        assert_eq!(kind("B").field_corners, [corners(&Corner::ALL); 4]);
        // A city on one side: the two corners away from it, turning with it.
        let e = kind("E").field_corners;
        assert_eq!(e[0], corners(&[Corner::Se, Corner::Sw]));
        assert_eq!(e[1], corners(&[Corner::Sw, Corner::Nw]));
        // A city and a road: the road parts the corners below it from each
        // other, but each holds one field on both its halves.
        assert_eq!(kind("D").field_corners[0], corners(&[Corner::Se, Corner::Sw]));
    }

    #[test]
    fn fields_border_only_cities_of_their_tile() {
        for k in &catalogue().kinds {
            for f in k.def.features {
                for (i, g) in k.def.features.iter().enumerate() {
                    if f.borders & (1 << i) != 0 {
                        assert_eq!(f.kind, FeatureKind::Field);
                        assert_eq!(g.kind, FeatureKind::City, "{}", k.def.id);
                    }
                }
            }
        }
    }
}
