//! The catalogue of every tile kind: each tile set's data gathered in one
//! table (built on first use, never changed), and what a [`TileKind`], an
//! index into it, looks up there. Above the tiles' data of each rules
//! module and below everything that plays with tiles.

use std::fmt;
use std::sync::LazyLock;

use crate::tile::{derive, Catalogue, KindInfo, TileKind, TileSet};

/// Every module's tiles, base game first: the catalogue's order.
pub(crate) static TILE_SETS: [&TileSet; 8] = [
    &crate::rules::base::tiles::TILES,
    &crate::rules::ferries::tiles::TILES,
    &crate::rules::inns::tiles::TILES,
    &crate::rules::abbey::tiles::TILES,
    &crate::rules::traders::tiles::TILES,
    &crate::rules::river::tiles::TILES,
    &crate::rules::abbot::tiles::TILES,
    &crate::rules::labyrinth::tiles::TILES,
];

static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| {
    let sets = &TILE_SETS;
    let mut kinds = Vec::new();
    let mut ranges = Vec::new();
    for set in sets {
        let start = kinds.len();
        for (def, c3, c2) in set.tiles {
            let stage = set.stages.iter().find(|(id, _)| *id == def.id).map_or(0, |(_, s)| *s);
            kinds.push(derive(def, set.expansion, [*c3, *c2], stage));
        }
        ranges.push((set.expansion, start..kinds.len()));
    }
    let mut first_node = 0;
    for kind in &mut kinds {
        kind.first_node = first_node;
        first_node += kind.pieces() as u16;
    }
    let max_pieces = kinds.iter().map(|k| k.pieces()).max().unwrap_or(0);
    Catalogue { kinds, max_pieces, sets: ranges }
});

/// The catalogue of every tile kind (immutable, built on first use).
pub fn catalogue() -> &'static Catalogue {
    &CATALOGUE
}

impl TileKind {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn info(self) -> &'static KindInfo {
        &catalogue().kinds[self.index()]
    }

    pub fn id(self) -> &'static str {
        self.info().def.id
    }

    /// The kind whose record id is `id`, such as `"D"` or `"F3"`.
    pub fn parse(id: &str) -> Option<TileKind> {
        catalogue().kinds.iter().position(|k| k.def.id == id).map(|i| TileKind(i as u8))
    }

    pub fn all() -> impl Iterator<Item = TileKind> {
        (0..catalogue().kinds.len()).map(|i| TileKind(i as u8))
    }
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
