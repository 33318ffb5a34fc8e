//! Board geometry: positions, sides, half-edges and rotations.
//!
//! x grows to the east and y to the **south** (screen order). Rotation is
//! clockwise: turning 90° moves what was on N to E.

use std::fmt;

use crate::names::written_names;

/// A cell of the board, `[x, y]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring cell across `side`.
    #[inline]
    pub const fn step(self, side: Side) -> Pos {
        // By table, not by branch: a walk steps to a side it computed.
        const DX: [i32; 4] = [0, 1, 0, -1];
        const DY: [i32; 4] = [-1, 0, 1, 0];
        Pos::new(self.x + DX[side as usize], self.y + DY[side as usize])
    }

    /// The eight cells around this one (for monasteries).
    pub fn surrounding(self) -> impl Iterator<Item = Pos> {
        (-1..=1)
            .flat_map(move |dy| (-1..=1).map(move |dx| Pos::new(self.x + dx, self.y + dy)))
            .filter(move |p| *p != self)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// One of the four edges of a tile.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Side {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    #[inline]
    pub const fn from_index(i: usize) -> Side {
        match i & 3 {
            0 => Side::N,
            1 => Side::E,
            2 => Side::S,
            _ => Side::W,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    #[inline]
    pub const fn opposite(self) -> Side {
        Side::from_index(self as usize + 2)
    }

    /// Where this side ends up when its tile turns by `rot`.
    #[inline]
    pub const fn rotated(self, rot: Rotation) -> Side {
        Side::from_index(self as usize + rot.quarters() as usize)
    }

    /// The two half-edges of this side, in clockwise order.
    pub const fn halves(self) -> [HalfEdge; 2] {
        [HalfEdge::from_index(self as usize * 2), HalfEdge::from_index(self as usize * 2 + 1)]
    }
}

written_names!(Side { N => "N", E => "E", S => "S", W => "W" });

/// Half of an edge, named on a 16-point compass: `NNE` is the east half of
/// the north edge. Fields touch edges by halves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum HalfEdge {
    Nnw = 0,
    Nne = 1,
    Ene = 2,
    Ese = 3,
    Sse = 4,
    Ssw = 5,
    Wsw = 6,
    Wnw = 7,
}

impl HalfEdge {
    pub const ALL: [HalfEdge; 8] = [
        HalfEdge::Nnw,
        HalfEdge::Nne,
        HalfEdge::Ene,
        HalfEdge::Ese,
        HalfEdge::Sse,
        HalfEdge::Ssw,
        HalfEdge::Wsw,
        HalfEdge::Wnw,
    ];

    #[inline]
    pub const fn from_index(i: usize) -> HalfEdge {
        HalfEdge::ALL[i & 7]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    #[inline]
    pub const fn side(self) -> Side {
        Side::from_index(self as usize / 2)
    }

    /// The half-edge of the neighbouring tile that touches this one.
    #[inline]
    pub const fn facing(self) -> HalfEdge {
        // N's west half meets S's west half, E's north half meets W's north half.
        const FACING: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];
        HalfEdge::from_index(FACING[self as usize] as usize)
    }

    #[inline]
    pub const fn rotated(self, rot: Rotation) -> HalfEdge {
        HalfEdge::from_index(self as usize + 2 * rot.quarters() as usize)
    }
}

written_names!(HalfEdge {
    Nnw => "NNW", Nne => "NNE", Ene => "ENE", Ese => "ESE",
    Sse => "SSE", Ssw => "SSW", Wsw => "WSW", Wnw => "WNW",
});

/// A corner of a tile, where four cells meet (Abbey & Mayor's barn stands
/// on one).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Corner {
    Nw = 0,
    Ne = 1,
    Se = 2,
    Sw = 3,
}

impl Corner {
    pub const ALL: [Corner; 4] = [Corner::Nw, Corner::Ne, Corner::Se, Corner::Sw];

    /// The two half-edges that meet at this corner of a tile, clockwise.
    #[inline]
    pub const fn halves(self) -> [HalfEdge; 2] {
        match self {
            Corner::Nw => [HalfEdge::Wnw, HalfEdge::Nnw],
            Corner::Ne => [HalfEdge::Nne, HalfEdge::Ene],
            Corner::Se => [HalfEdge::Ese, HalfEdge::Sse],
            Corner::Sw => [HalfEdge::Ssw, HalfEdge::Wsw],
        }
    }

    /// The four cells around this corner of the tile at `at`, each with
    /// the corner of its own that touches it: the tile itself first, then
    /// clockwise around the corner.
    pub fn cells(self, at: Pos) -> [(Pos, Corner); 4] {
        let (dx, dy) = match self {
            Corner::Nw => (-1, -1),
            Corner::Ne => (1, -1),
            Corner::Se => (1, 1),
            Corner::Sw => (-1, 1),
        };
        let diagonal = Pos::new(at.x + dx, at.y + dy);
        let across_x = Pos::new(at.x + dx, at.y);
        let across_y = Pos::new(at.x, at.y + dy);
        // A corner seen from the cell across an edge is mirrored on that axis.
        let flip_x = |c: Corner| match c {
            Corner::Nw => Corner::Ne,
            Corner::Ne => Corner::Nw,
            Corner::Se => Corner::Sw,
            Corner::Sw => Corner::Se,
        };
        let flip_y = |c: Corner| match c {
            Corner::Nw => Corner::Sw,
            Corner::Sw => Corner::Nw,
            Corner::Ne => Corner::Se,
            Corner::Se => Corner::Ne,
        };
        [(at, self), (across_x, flip_x(self)), (diagonal, flip_x(flip_y(self))), (across_y, flip_y(self))]
    }
}

written_names!(Corner { Nw => "NW", Ne => "NE", Se => "SE", Sw => "SW" });

/// A clockwise turn of a tile: 0, 90, 180 or 270 degrees.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Rotation(u8);

impl Rotation {
    pub const R0: Rotation = Rotation(0);
    pub const R90: Rotation = Rotation(1);
    pub const R180: Rotation = Rotation(2);
    pub const R270: Rotation = Rotation(3);
    pub const ALL: [Rotation; 4] = [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// Number of quarter turns clockwise, 0 to 3.
    #[inline]
    pub const fn quarters(self) -> u8 {
        self.0
    }

    pub const fn from_quarters(q: u8) -> Rotation {
        Rotation(q & 3)
    }

    pub const fn degrees(self) -> u16 {
        self.0 as u16 * 90
    }

    /// 0, 90, 180 or 270; anything else is not a rotation.
    pub fn from_degrees(deg: i64) -> Option<Rotation> {
        match deg {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }

    /// The turn that undoes this one.
    pub const fn inverse(self) -> Rotation {
        Rotation((4 - self.0) & 3)
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.degrees())
    }
}

/// A mask of sides (a bit per [`Side`]) turned clockwise by `rot`.
#[inline]
pub(crate) fn rotate_sides(mask: u8, rot: Rotation) -> u8 {
    let (m, q) = (mask as u16 & 0xF, rot.quarters());
    ((m << q | m >> (4 - q)) & 0xF) as u8
}

/// A mask of half-edges (a bit per [`HalfEdge`]) turned clockwise by `rot`.
#[inline]
pub(crate) fn rotate_halves(mask: u8, rot: Rotation) -> u8 {
    let q = 2 * rot.quarters() as u32;
    mask.rotate_left(q)
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

    #[test]
    fn turning_moves_north_to_east() {
        assert_eq!(Side::N.rotated(Rotation::R90), Side::E);
        assert_eq!(Side::W.rotated(Rotation::R90), Side::N);
        assert_eq!(Side::S.rotated(Rotation::R270), Side::E);
        assert_eq!(HalfEdge::Nnw.rotated(Rotation::R90), HalfEdge::Ene);
        assert_eq!(HalfEdge::Wnw.rotated(Rotation::R90), HalfEdge::Nne);
    }

    #[test]
    fn facing_half_edges_lie_on_opposite_sides_and_pair_up() {
        for h in HalfEdge::ALL {
            assert_eq!(h.facing().side(), h.side().opposite());
            assert_eq!(h.facing().facing(), h);
        }
        assert_eq!(HalfEdge::Nne.facing(), HalfEdge::Sse);
        assert_eq!(HalfEdge::Ene.facing(), HalfEdge::Wnw);
    }

    #[test]
    fn y_grows_to_the_south() {
        assert_eq!(Pos::ORIGIN.step(Side::N), Pos::new(0, -1));
        assert_eq!(Pos::ORIGIN.step(Side::S), Pos::new(0, 1));
        assert_eq!(Pos::ORIGIN.step(Side::E), Pos::new(1, 0));
        assert_eq!(Pos::ORIGIN.surrounding().count(), 8);
    }
}
