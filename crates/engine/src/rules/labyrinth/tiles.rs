//! The Labyrinth's tile: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.
//!
//! One tile (JCloisterZone's `LA/Rrrr`): four roads that meet in the
//! labyrinth at its centre and do not end there, so they are one road
//! reaching every side, with a field in each corner.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{field, road, tile, TileSet};

/// The labyrinth tile's id.
pub const LABYRINTH: &str = "LA";

pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Labyrinth),
    tiles: &[tile!(
        "LA",
        1,
        [
            road(&[N, E, S, W]),
            field(&[Wnw, Nnw], &[]),
            field(&[Nne, Ene], &[]),
            field(&[Ese, Sse], &[]),
            field(&[Ssw, Wsw], &[]),
        ]
    )],
    start: None,
    stages: &[],
    replaces: &[],
};
