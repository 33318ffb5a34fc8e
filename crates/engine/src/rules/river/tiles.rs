//! The River's tiles: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.
//!
//! The 12 tiles of JCloisterZone's sets `river/1:1` (edition c2) and
//! `river/1:2` (c3, where one plain bend carries a garden of The Abbot;
//! without The Abbot no figure may stand on a garden, so the two bends
//! play alike). The
//! river reaches the sides in `river`; the fields lie on either bank.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{city, field, garden, monastery, road, side_mask, TileDef, TileSet};

const ALL_HALVES: &[crate::geometry::HalfEdge] = &[Nnw, Nne, Ene, Ese, Sse, Ssw, Wsw, Wnw];

/// The spring, which starts the game in place of D.
pub const SPRING: &str = "RS";
/// The lake, where the river ends: drawn after every other river tile.
pub const LAKE: &str = "RL";

/// A river tile: `features` at rotation 0, the river reaching `river`.
macro_rules! river_tile {
    ($id:literal, $c3:literal, $c2:literal, [$($s:expr),*], [$($f:expr),* $(,)?]) => {
        river_tile!($id, $c3, $c2, [$($s),*], [$($f),*], [])
    };
    ($id:literal, $c3:literal, $c2:literal, [$($s:expr),*], [$($f:expr),* $(,)?], [$([$($l:literal),*]),*]) => {
        (TileDef { id: $id, features: &[$($f),*], links: &[$(&[$($l),*]),*], river: side_mask(&[$($s),*]) }, $c3, $c2)
    };
}

pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::River),
    tiles: &[
        river_tile!("RS", 1, 1, [E], [field(ALL_HALVES, &[])]),
        river_tile!("RL", 1, 1, [W], [field(ALL_HALVES, &[])]),
        // A city cap on either bank.
        river_tile!("R1", 1, 1, [W, E], [city(&[N]), city(&[S]), field(&[Ene, Wnw], &[0]), field(&[Ese, Wsw], &[1])]),
        // A city cap north, a road ending at the river south.
        river_tile!(
            "R2",
            1,
            1,
            [W, E],
            [
                city(&[N]),
                road(&[S]),
                field(&[Ene], &[0]),
                field(&[Wnw], &[0]),
                field(&[Ese, Sse], &[]),
                field(&[Wsw, Ssw], &[])
            ],
            [[0, 1]]
        ),
        // A monastery north of the river, a road south of it.
        river_tile!(
            "R3",
            1,
            1,
            [W, E],
            [
                monastery(),
                road(&[S]),
                field(&[Wnw, Nnw, Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Wsw, Ssw], &[])
            ],
            [[0, 1]]
        ),
        // A road crossing the river on a bridge.
        river_tile!(
            "R4",
            1,
            1,
            [N, S],
            [
                road(&[W, E]),
                field(&[Wnw, Nnw], &[]),
                field(&[Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Wsw, Ssw], &[])
            ]
        ),
        // The river straight through fields.
        river_tile!("R5", 2, 2, [W, E], [field(&[Wnw, Nnw, Nne, Ene], &[]), field(&[Wsw, Sse, Ssw, Ese], &[])]),
        // A city on two sides, the river bending around it.
        river_tile!("R6", 1, 1, [S, E], [city(&[N, W]), field(&[Ssw, Ene], &[0]), field(&[Ese, Sse], &[])]),
        // A bending road, the river bending the other way.
        river_tile!(
            "R7",
            1,
            1,
            [W, S],
            [road(&[N, E]), field(&[Wnw, Nnw, Ese, Sse], &[]), field(&[Nne, Ene], &[]), field(&[Wsw, Ssw], &[])]
        ),
        // The river bending through fields; R9 is the same bend with a garden.
        river_tile!("R8", 1, 2, [W, S], [field(&[Wnw, Nnw, Nne, Ene, Ese, Sse], &[]), field(&[Wsw, Ssw], &[])]),
        river_tile!(
            "R9",
            1,
            0,
            [W, S],
            [field(&[Wnw, Nnw, Nne, Ene, Ese, Sse], &[]), field(&[Wsw, Ssw], &[]), garden()]
        ),
    ],
    start: Some(SPRING),
    // The river's tiles come first, then the lake, then the rest.
    stages: &[
        ("RL", 1),
        ("R1", 2),
        ("R2", 2),
        ("R3", 2),
        ("R4", 2),
        ("R5", 2),
        ("R6", 2),
        ("R7", 2),
        ("R8", 2),
        ("R9", 2),
    ],
    replaces: &[],
};
