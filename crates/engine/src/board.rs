//! The board: placed tiles on a grid, and the open cells next to them with
//! the edges their neighbours demand.
//!
//! Each open cell keeps its edge constraints up to date as tiles are placed,
//! so listing a tile's legal placements is one mask comparison per open cell
//! and rotation, never a scan of the board.

use std::num::NonZeroU32;

use wide::{u32x4, u64x2, u8x16};

use crate::geometry::{Pos, Rotation, Side};
use crate::tile::{KindInfo, Oriented, TileKind};

/// Where and how a tile is placed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Placement {
    pub pos: Pos,
    pub rot: Rotation,
}

/// A tile on the board.
#[derive(Clone, Copy)]
pub struct PlacedTile {
    pub kind: TileKind,
    pub rot: Rotation,
    pub pos: Pos,
    /// Its first piece; its pieces are numbered on from there.
    pub(crate) first_piece: u16,
    /// Its kind's data, and at its rotation, looked up once: joining,
    /// scoring and listing read them for every tile placed beside it.
    pub(crate) info: &'static KindInfo,
    pub(crate) oriented: &'static Oriented,
}

/// Two placed tiles are equal by what they are and where: the data looked
/// up for them follows from their kind and rotation.
impl PartialEq for PlacedTile {
    fn eq(&self, o: &Self) -> bool {
        (self.kind, self.rot, self.pos, self.first_piece) == (o.kind, o.rot, o.pos, o.first_piece)
    }
}

impl Eq for PlacedTile {}

impl std::fmt::Debug for PlacedTile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlacedTile")
            .field("kind", &self.kind)
            .field("rot", &self.rot)
            .field("pos", &self.pos)
            .field("first_piece", &self.first_piece)
            .finish()
    }
}

impl PlacedTile {
    /// Its first feature piece; its pieces are numbered on from there, in
    /// the order of its kind's definition.
    pub fn first_piece(&self) -> u16 {
        self.first_piece
    }

    /// Its kind's data (as `kind.info()`).
    #[inline]
    pub fn info(&self) -> &'static KindInfo {
        self.info
    }

    /// Its pieces' edges and half-edges at its rotation.
    #[inline]
    pub fn oriented(&self) -> &'static Oriented {
        self.oriented
    }

    /// The ids of its pieces in `mask` (a bit per piece of its kind, as
    /// the kind's masks of pieces give them), in order.
    #[inline]
    pub fn pieces_in(&self, mut mask: u16) -> impl Iterator<Item = u16> + Clone {
        let first = self.first_piece;
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let local = mask.trailing_zeros() as u16;
                mask &= mask - 1;
                first + local
            })
        })
    }

    /// The corners where a barn may stand as it lies (see
    /// [`KindInfo::field_corners`]).
    #[inline]
    pub fn field_corners(&self) -> u8 {
        self.info.field_corners[self.rot.quarters() as usize & 3]
    }
}

/// No tile on that side ([`Board::place`]'s neighbours).
pub const NO_TILE: u16 = u16::MAX;

/// An empty cell next to the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OpenCell {
    pub pos: Pos,
    /// What its neighbours demand (see [`Oriented::demands`]): in the low
    /// half, the required edge kinds, two bits per side, where the high
    /// half (the mask) has `0b11`; each half's byte repeated four times,
    /// to test four rotations at once.
    demand: u64,
    /// Its index in the grid (kept when the grid grows).
    cell: u32,
}

impl OpenCell {
    /// Whether a tile lies on each of its four sides (a hole, where an
    /// abbey may go).
    #[inline]
    pub fn surrounded(&self) -> bool {
        self.mask() == 0xFFFF_FFFF
    }

    #[inline]
    pub fn accepts(&self, signature: u8) -> bool {
        (signature ^ self.required() as u8) & self.mask() as u8 == 0
    }

    #[inline]
    fn required(&self) -> u32 {
        self.demand as u32
    }

    #[inline]
    fn mask(&self) -> u32 {
        (self.demand >> 32) as u32
    }

    /// Whether a tile fits here in some rotation, given its four rotations'
    /// edge signatures packed a byte each (rotation `r` in byte `r`, as
    /// [`Oriented::signature`]): the four tested at once.
    #[inline]
    pub fn accepts_any(&self, signatures: u32) -> bool {
        self.fitting_rotations(signatures) != 0
    }

    /// The rotations (as the high bit of byte `r`) whose packed signature
    /// fits here: all four compared at once, one byte each.
    #[inline]
    fn fitting_rotations(&self, sigs: u32) -> u32 {
        const LOW7: u32 = 0x7F7F_7F7F;
        let v = (sigs ^ self.required()) & self.mask();
        // High bit set exactly in the bytes of `v` that are zero.
        !(((v & LOW7) + LOW7) | v | LOW7)
    }
}

/// Open cells tested together for a tile's fit: two vectors of four.
const RUN: usize = 8;

/// Bit `4c + r` set where rotation `r` of a tile whose rotations' edge
/// signatures are `sigs` (byte `r` for rotation `r`) fits the run's `c`-th
/// cell: a byte compare of four cells at a time, its sign bits gathered
/// (`wide` picks the instructions: SSE2 on x86-64, NEON on ARM, plain
/// code elsewhere).
#[inline(always)]
fn fit_mask(run: &[OpenCell; RUN], sigs: u32) -> u32 {
    // The vectors' lanes and bytes are read in memory order, which is
    // the words' order only on little-endian machines.
    if cfg!(target_endian = "big") {
        return fit_mask_plain(run, sigs);
    }
    let s = u32x4::splat(sigs);
    let four = |c: &[OpenCell]| {
        // The four cells' demands, then their required kinds and masks
        // in lanes apart.
        let a: u32x4 = bytemuck::cast(u64x2::new([c[0].demand, c[1].demand]));
        let b: u32x4 = bytemuck::cast(u64x2::new([c[2].demand, c[3].demand]));
        let (lo, hi) = (a.unpack_lo(b), a.unpack_hi(b));
        let (required, mask) = (lo.unpack_lo(hi), lo.unpack_hi(hi));
        bytemuck::cast::<u32x4, u8x16>((required ^ s) & mask).simd_eq(u8x16::ZERO).to_bitmask()
    };
    four(&run[..4]) | four(&run[4..]) << 16
}

/// [`fit_mask`] a cell at a time.
fn fit_mask_plain(run: &[OpenCell; RUN], sigs: u32) -> u32 {
    let mut fits = 0;
    for (c, cell) in run.iter().enumerate() {
        // The high bit of byte `r` says whether rotation `r` fits.
        let rotations = cell.fitting_rotations(sigs);
        for r in 0..4 {
            fits |= (rotations >> (8 * r + 7) & 1) << (4 * c + r);
        }
    }
    fits
}

/// The placement of a run's lowest fit in `fits` (as [`fit_mask`] gives).
#[inline(always)]
fn placement_at(run: &[OpenCell; RUN], fits: NonZeroU32) -> Placement {
    let b = fits.trailing_zeros() as usize;
    Placement { pos: run[b / 4 % RUN].pos, rot: Rotation::from_quarters(b as u8 % 4) }
}

const EMPTY: u16 = 0;
const OPEN: u16 = 0x8000;

/// The index of the tile a grid cell holds, if it holds one (not empty, not open).
#[inline(always)]
const fn tile_in(cell: u16) -> Option<u16> {
    if cell != EMPTY && cell & OPEN == 0 {
        Some(cell - 1)
    } else {
        None
    }
}

/// Why a tile cannot go somewhere.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Misfit {
    Occupied,
    NotTouching,
    Edge(Side),
}

#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    /// Cells cover x and y in `-half..half`.
    half: i32,
    /// Per cell: `EMPTY`, a tile index + 1, or `OPEN | open cell index`.
    cells: Vec<u16>,
    tiles: Vec<PlacedTile>,
    open: Vec<OpenCell>,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board { half: self.half, cells: self.cells.clone(), tiles: self.tiles.clone(), open: self.open.clone() }
    }

    /// Reuses this board's buffers (for search, which copies states often).
    fn clone_from(&mut self, source: &Self) {
        self.half = source.half;
        self.cells.clone_from(&source.cells);
        self.tiles.clone_from(&source.tiles);
        self.open.clone_from(&source.open);
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        Board::for_tiles(72)
    }

    /// A board with room for a game of `tiles` tiles: a grid that random
    /// games of that many tiles seldom outgrow (a larger one costs its
    /// clearing in every game; growing, a copy in a few).
    pub fn for_tiles(tiles: usize) -> Board {
        // Measured on random games: a base game outgrows a 28 by 28 grid
        // about one time in seventy, one with The Ferries one in forty (a
        // 24 by 24 one in five), which costs less than the larger grid's
        // copy in every search iteration.
        let half = if tiles <= 80 { 14 } else { 16 };
        Board {
            half,
            cells: vec![EMPTY; (2 * half * 2 * half) as usize],
            tiles: Vec::with_capacity(tiles + 1),
            open: Vec::with_capacity(2 * tiles + 4),
        }
    }

    #[inline]
    fn index(&self, p: Pos) -> Option<usize> {
        // A coordinate far off the grid (any a record names) wraps to a
        // value past its side: one unsigned test an axis.
        let side = 2 * self.half as u32;
        let x = p.x.wrapping_add(self.half) as u32;
        let y = p.y.wrapping_add(self.half) as u32;
        (x < side && y < side).then(|| (y * side + x) as usize)
    }

    /// Makes room so that `p` and its neighbours lie on the grid.
    #[inline]
    fn make_room(&mut self, p: Pos) {
        let need = p.x.abs().max(p.y.abs()) + 2;
        if need >= self.half {
            self.grow(need);
        }
    }

    /// Doubles the grid's side until `need` fits in its half.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, need: i32) {
        let mut half = self.half;
        while need >= half {
            half *= 2;
        }
        let old = std::mem::replace(
            self,
            Board { half, cells: vec![EMPTY; (4 * half * half) as usize], tiles: Vec::new(), open: Vec::new() },
        );
        self.tiles = old.tiles;
        self.open = old.open;
        for (i, t) in self.tiles.iter().enumerate() {
            let c = self.index(t.pos).expect("grid grew to hold every tile");
            self.cells[c] = i as u16 + 1;
        }
        for i in 0..self.open.len() {
            let c = self.index(self.open[i].pos).expect("grid grew to hold every open cell");
            self.cells[c] = OPEN | i as u16;
            self.open[i].cell = c as u32;
        }
    }

    /// Index (in placing order) of the tile at `p`.
    #[inline]
    pub fn tile_index(&self, p: Pos) -> Option<usize> {
        tile_in(*self.cells.get(self.index(p)?)?).map(|i| i as usize)
    }

    /// How many of the eight cells around `p` hold tiles.
    pub fn tiles_around(&self, p: Pos) -> u32 {
        let side = 2 * self.half;
        let (x, y) = (p.x.wrapping_add(self.half), p.y.wrapping_add(self.half));
        if x < 1 || y < 1 || x >= side - 1 || y >= side - 1 {
            // At the grid's edge (or off it): cell by cell.
            return p.surrounding().filter(|q| self.tile_index(*q).is_some()).count() as u32;
        }
        let (side, c) = (side as usize, (y * side + x) as usize);
        let tile = |c: usize| u32::from(tile_in(self.cells[c]).is_some());
        let row = |c: usize| tile(c - 1) + tile(c) + tile(c + 1);
        row(c - side) + tile(c - 1) + tile(c + 1) + row(c + side)
    }

    /// The tile at `p`, one of the nine cells centred on placed tile
    /// `tile`, which placing keeps on the grid with a margin: looked up
    /// without testing `p` against the grid.
    #[inline]
    pub(crate) fn tile_near(&self, tile: usize, p: Pos) -> Option<&PlacedTile> {
        let at = self.tiles[tile].pos;
        debug_assert!((p.x - at.x).abs() <= 1 && (p.y - at.y).abs() <= 1, "{p} is not next to {at}");
        // Within a cell of a placed tile, `p` is on the grid: no test of its
        // coordinates against the grid's sides.
        let c = (p.y + self.half) * 2 * self.half + p.x + self.half;
        tile_in(self.cells[c as usize]).map(|i| &self.tiles[i as usize])
    }

    #[inline]
    pub fn tile_at(&self, p: Pos) -> Option<&PlacedTile> {
        self.tile_index(p).map(|i| &self.tiles[i])
    }

    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    #[inline]
    pub fn tile(&self, i: usize) -> &PlacedTile {
        &self.tiles[i]
    }

    /// Empty cells that share an edge with a placed tile.
    pub fn open_cells(&self) -> &[OpenCell] {
        &self.open
    }

    /// The open cell at `p`, if `p` is one (looked up on the grid).
    #[inline]
    pub fn open_cell(&self, p: Pos) -> Option<&OpenCell> {
        self.open_cell_index(p).map(|i| &self.open[i])
    }

    /// The index in [`open_cells`](Self::open_cells) of the open cell at
    /// `p`, if `p` is one (looked up on the grid).
    #[inline]
    pub fn open_cell_index(&self, p: Pos) -> Option<usize> {
        let c = *self.cells.get(self.index(p)?)?;
        (c & OPEN != 0).then_some((c & !OPEN) as usize)
    }

    /// Whether `kind` turned by `rot` may go at `pos`.
    pub fn check_fit(&self, kind: TileKind, p: Placement) -> Result<(), Misfit> {
        if self.tile_at(p.pos).is_some() {
            return Err(Misfit::Occupied);
        }
        let Some(cell) = self.open_cell(p.pos) else {
            return Err(Misfit::NotTouching);
        };
        let sig = kind.info().oriented[p.rot.quarters() as usize].signature;
        if cell.accepts(sig) {
            return Ok(());
        }
        let bad = (sig ^ cell.required() as u8) & cell.mask() as u8;
        let side = Side::ALL.into_iter().find(|s| bad >> (2 * s.index()) & 3 != 0).unwrap_or(Side::N);
        Err(Misfit::Edge(side))
    }

    /// Calls `f(run, fits)` for runs of [`RUN`] open cells that cover
    /// them all, each cell once, in order, where bit `4c + r` of `fits`
    /// says that `kind` turned by `r` fits the run's `c`-th cell (a run
    /// without a fit is skipped). The last run ends at the last cell,
    /// its bits for cells an earlier run had cleared; on a board of fewer
    /// cells, the run is padded with cells whose bits are clear.
    #[inline]
    fn for_each_fit_mask(&self, kind: TileKind, mut f: impl FnMut(&[OpenCell; RUN], u32)) {
        let sigs = kind.info().signatures;
        let n = self.open.len();
        if n < RUN {
            return self.fit_mask_few(sigs, f);
        }
        let runs = self.open.chunks_exact(RUN);
        let last = runs.remainder().len();
        for run in runs {
            let run = run.try_into().expect("a whole run");
            let fits = fit_mask(run, sigs);
            if fits != 0 {
                f(run, fits);
            }
        }
        if last > 0 {
            let run = self.open[n - RUN..].try_into().expect("a whole run");
            let fits = fit_mask(run, sigs) & (u32::MAX << (4 * (RUN - last)));
            if fits != 0 {
                f(run, fits);
            }
        }
    }

    /// [`for_each_fit_mask`](Self::for_each_fit_mask) on a board of fewer
    /// than [`RUN`] open cells (the first turns).
    #[cold]
    fn fit_mask_few(&self, sigs: u32, mut f: impl FnMut(&[OpenCell; RUN], u32)) {
        // Padding that demands nothing (it would fit): its bits are cleared.
        let pad = OpenCell { pos: Pos::ORIGIN, demand: 0, cell: 0 };
        let mut run = [pad; RUN];
        let n = self.open.len();
        run[..n].copy_from_slice(&self.open);
        let fits = fit_mask(&run, sigs) & !(u32::MAX << (4 * n));
        if fits != 0 {
            f(&run, fits);
        }
    }

    /// Calls `f` with every legal placement of `kind`, cell by cell and
    /// by rotation within a cell.
    #[inline]
    pub fn for_each_placement(&self, kind: TileKind, mut f: impl FnMut(Placement)) {
        self.for_each_fit_mask(kind, |run, mut fits| {
            while let Some(nonzero) = NonZeroU32::new(fits) {
                fits &= fits - 1;
                f(placement_at(run, nonzero));
            }
        });
    }

    /// Appends `make(p)` to `out` for every legal placement `p` of `kind`,
    /// in [`for_each_placement`](Self::for_each_placement)'s order: a run
    /// of cells' placements at once, without testing the vector's room for
    /// each.
    #[inline]
    pub fn extend_placements<T>(&self, kind: TileKind, out: &mut Vec<T>, make: impl Fn(Placement) -> T) {
        self.for_each_fit_mask(kind, |run, mut fits| {
            // A range mapped has a known length, which `extend` trusts.
            out.extend((0..fits.count_ones()).map(|_| {
                // As many bits as placements: `fits` is not zero here, and
                // its top bit, set, changes neither its lowest bit nor
                // anything when it is set already, but shows the compiler
                // that no test is needed.
                let lowest = NonZeroU32::new(fits | 1 << 31).expect("a bit is set");
                fits &= fits - 1;
                make(placement_at(run, lowest))
            }));
        });
    }

    /// Whether `kind` fits anywhere.
    pub fn fits_somewhere(&self, kind: TileKind) -> bool {
        let mut any = false;
        self.for_each_fit_mask(kind, |_, _| any = true);
        any
    }

    /// Puts a tile down (the caller has checked it fits) and returns its
    /// index, with the index of the tile on each side ([`NO_TILE`] where
    /// there is none), found on the way.
    pub fn place(&mut self, kind: TileKind, p: Placement, first_piece: u16) -> (usize, [u16; 4]) {
        self.place_kind(kind, kind.info(), p, first_piece)
    }

    /// As [`place`](Self::place), with the kind's data looked up already.
    #[inline]
    pub(crate) fn place_kind(
        &mut self,
        kind: TileKind,
        info: &'static KindInfo,
        p: Placement,
        first_piece: u16,
    ) -> (usize, [u16; 4]) {
        self.make_room(p.pos);
        let c = self.index(p.pos).expect("room was made");
        // Borrowed apart, so that the grid's and the lists' pointers stay
        // in registers across the writes below.
        let Board { half, cells, tiles, open } = self;
        let cells = &mut cells[..];
        let idx = tiles.len();
        if cells[c] & OPEN != 0 {
            let oi = (cells[c] & !OPEN) as usize;
            open.swap_remove(oi);
            if let Some(moved) = open.get(oi) {
                cells[moved.cell as usize] = OPEN | oi as u16;
            }
        }
        cells[c] = idx as u16 + 1;
        let oriented = info.at(p.rot);
        tiles.push(PlacedTile { kind, rot: p.rot, pos: p.pos, first_piece, info, oriented });
        let mut neighbours = [NO_TILE; 4];
        // make_room keeps a margin, so the neighbours' cells are on the grid.
        let side = 2 * *half as usize;
        let around = [c - side, c + 1, c + side, c - 1];
        for s in Side::ALL {
            let nc = around[s.index()];
            let cell = cells[nc];
            // `tile_in`'s test written out: through its `Option` the
            // compiler lays this loop out worse (0.5% of a base game).
            if cell != EMPTY && cell & OPEN == 0 {
                neighbours[s.index()] = cell - 1;
                continue;
            }
            // The neighbour's side facing us must show our edge.
            let demand = oriented.demands[s.index()];
            if cell == EMPTY {
                cells[nc] = OPEN | open.len() as u16;
                open.push(OpenCell { pos: p.pos.step(s), demand, cell: nc as u32 });
            } else {
                open[(cell & !OPEN) as usize].demand |= demand;
            }
        }
        (idx, neighbours)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(id: &str) -> TileKind {
        TileKind::parse(id).unwrap()
    }

    #[test]
    fn a_tile_must_touch_the_board() {
        let mut b = Board::new();
        b.place(kind("D"), Placement { pos: Pos::ORIGIN, rot: Rotation::R0 }, 0);
        let far = Placement { pos: Pos::new(2, 0), rot: Rotation::R0 };
        assert_eq!(b.check_fit(kind("U"), far), Err(Misfit::NotTouching));
        let on = Placement { pos: Pos::ORIGIN, rot: Rotation::R0 };
        assert_eq!(b.check_fit(kind("U"), on), Err(Misfit::Occupied));
    }

    #[test]
    fn edges_must_match_city_to_city_and_road_to_road() {
        let mut b = Board::new();
        b.place(kind("D"), Placement { pos: Pos::ORIGIN, rot: Rotation::R0 }, 0);
        // East of D is its road: U at 0° continues it, U at 90° shows a field there.
        let east = Pos::new(1, 0);
        assert!(b.check_fit(kind("U"), Placement { pos: east, rot: Rotation::R0 }).is_ok());
        assert_eq!(b.check_fit(kind("U"), Placement { pos: east, rot: Rotation::R90 }), Err(Misfit::Edge(Side::W)));
        // North of D is its city: E at 180° turns its city south, to meet it.
        let north = Pos::new(0, -1);
        assert!(b.check_fit(kind("E"), Placement { pos: north, rot: Rotation::R180 }).is_ok());
        assert_eq!(b.check_fit(kind("E"), Placement { pos: north, rot: Rotation::R0 }), Err(Misfit::Edge(Side::S)));
    }

    #[test]
    fn tiles_around_a_cell_are_counted_on_the_grid_and_at_its_edge() {
        let mut b = Board::new();
        let near = [(0, 0), (1, 0), (1, 1), (-1, 1), (2, 2)];
        for (x, y) in near {
            b.place(kind("B"), Placement { pos: Pos::new(x, y), rot: Rotation::R0 }, 0);
        }
        let naive = |b: &Board, p: Pos| p.surrounding().filter(|q| b.tile_at(*q).is_some()).count() as u32;
        for x in -4..5 {
            for y in -4..5 {
                assert_eq!(b.tiles_around(Pos::new(x, y)), naive(&b, Pos::new(x, y)), "{x}, {y}");
            }
        }
        // Cells on the grid's edge and far off it.
        let half = b.half;
        for p in [Pos::new(half - 1, 0), Pos::new(-half, -half), Pos::new(1000, -1000)] {
            assert_eq!(b.tiles_around(p), naive(&b, p));
        }
        assert_eq!(b.tiles_around(Pos::new(0, 1)), 4);
    }

    /// Every placement, found cell by cell and rotation by rotation.
    fn naive_placements(b: &Board, kind: TileKind) -> Vec<Placement> {
        let mut out = Vec::new();
        for cell in b.open_cells() {
            for r in 0..4 {
                if cell.accepts(kind.info().oriented[r as usize].signature) {
                    out.push(Placement { pos: cell.pos, rot: Rotation::from_quarters(r) });
                }
            }
        }
        out
    }

    #[test]
    fn eight_cells_compared_as_vectors_give_what_a_cell_at_a_time_gives() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..2000 {
            let run: [OpenCell; RUN] = std::array::from_fn(|_| {
                // A side unconstrained, or one edge kind demanded, as the board makes them.
                let (mut required, mut mask) = (0u64, 0u64);
                for side in 0..4 {
                    if rng.random_bool(0.6) {
                        required |= rng.random_range(0..4u64) << (2 * side);
                        mask |= 3 << (2 * side);
                    }
                }
                OpenCell { pos: Pos::ORIGIN, demand: (required | mask << 32) * 0x0101_0101, cell: 0 }
            });
            let sigs = rng.random::<u32>();
            assert_eq!(fit_mask(&run, sigs), fit_mask_plain(&run, sigs));
        }
    }

    #[test]
    fn placements_tested_eight_cells_at_once_are_those_tested_one_at_a_time() {
        use rand::{Rng, SeedableRng};
        let kinds: Vec<TileKind> = TileKind::all().collect();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..40 {
            let mut b = Board::new();
            b.place(kinds[rng.random_range(0..kinds.len())], Placement { pos: Pos::ORIGIN, rot: Rotation::R0 }, 0);
            // Boards of every size, fewer open cells than a run included.
            for _ in 0..30 {
                for &kind in &kinds {
                    let naive = naive_placements(&b, kind);
                    let mut each = Vec::new();
                    b.for_each_placement(kind, |p| each.push(p));
                    assert_eq!(each, naive, "{} open cells", b.open_cells().len());
                    let mut extended = vec![Placement { pos: Pos::new(99, 99), rot: Rotation::R0 }];
                    b.extend_placements(kind, &mut extended, |p| p);
                    assert_eq!(extended[1..], naive[..]);
                    assert_eq!(b.fits_somewhere(kind), !naive.is_empty());
                }
                let kind = kinds[rng.random_range(0..kinds.len())];
                let options = naive_placements(&b, kind);
                if !options.is_empty() {
                    b.place(kind, options[rng.random_range(0..options.len())], 0);
                }
            }
        }
    }

    #[test]
    fn the_grid_grows_for_long_rows() {
        let mut b = Board::new();
        for x in 0..60 {
            b.place(kind("U"), Placement { pos: Pos::new(x, 0), rot: Rotation::R0 }, 0);
        }
        assert_eq!(b.tile_at(Pos::new(59, 0)).unwrap().kind, kind("U"));
        assert_eq!(b.tile_at(Pos::new(3, 0)).unwrap().pos, Pos::new(3, 0));
        assert_eq!(b.open_cells().len(), 60 * 2 + 2);
        let mut out = Vec::new();
        b.for_each_placement(kind("U"), |p| out.push(p));
        assert!(out.contains(&Placement { pos: Pos::new(60, 0), rot: Rotation::R180 }));
    }
}
