//! The Abbot's tiles: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.
//!
//! The third edition draws a garden on one copy of eight base tiles
//! (JCloisterZone's set `basic:2`: `BA/CG`, `BA/CFCG`, `BA/CCG`,
//! `BA/Cc+G`, `BA/CcG`, `BA/CccG`, `BA/RFrG`, `BA/RrG`). Each garden tile
//! has its plain tile's layout plus a garden in a field, and with The
//! Abbot it takes the place of one plain copy, so the bag still holds the
//! 72 base tiles. Without The Abbot the plain tiles are drawn instead.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{city, city_with_pennant, field, garden, road, tile, TileSet};

pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Abbot),
    tiles: &[
        tile!("EG", 1, [city(&[N]), field(&[Ene, Ese, Sse, Ssw, Wsw, Wnw], &[0]), garden()]),
        tile!("HG", 1, [city(&[N]), city(&[S]), field(&[Ene, Ese, Wsw, Wnw], &[0, 1]), garden()]),
        tile!("IG", 1, [city(&[N]), city(&[W]), field(&[Ene, Ese, Sse, Ssw], &[0, 1]), garden()]),
        tile!("MG", 1, [city_with_pennant(&[N, W]), field(&[Ene, Ese, Sse, Ssw], &[0]), garden()]),
        tile!("NG", 1, [city(&[N, W]), field(&[Ene, Ese, Sse, Ssw], &[0]), garden()]),
        tile!("RG", 1, [city(&[N, E, W]), field(&[Sse, Ssw], &[0]), garden()]),
        tile!("UG", 1, [road(&[W, E]), field(&[Wnw, Nnw, Nne, Ene], &[]), field(&[Ese, Sse, Ssw, Wsw], &[]), garden()]),
        tile!("VG", 1, [road(&[S, W]), field(&[Wnw, Nnw, Nne, Ene, Ese, Sse], &[]), field(&[Ssw, Wsw], &[]), garden()]),
    ],
    start: None,
    stages: &[],
    replaces: &[("EG", "E"), ("HG", "H"), ("IG", "I"), ("MG", "M"), ("NG", "N"), ("RG", "R"), ("UG", "U"), ("VG", "V")],
};
