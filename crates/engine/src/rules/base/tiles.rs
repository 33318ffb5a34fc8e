//! The 72 tiles of the base game (ids A to X), at rotation 0.
//!
//! Piece order matters only inside a tile: a field's `borders` names city
//! pieces by their index in the list.

use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{city, city_with_pennant, field, monastery, road, tile, TileSet};

const ALL_HALVES: &[crate::geometry::HalfEdge] = &[Nnw, Nne, Ene, Ese, Sse, Ssw, Wsw, Wnw];

/// Base game tiles; counts are the same in both editions. The start tile is
/// one of the four D.
pub static TILES: TileSet = TileSet {
    expansion: None,
    tiles: &[
        tile!("A", 2, [monastery(), road(&[S]), field(ALL_HALVES, &[])], [[0, 1]]),
        tile!("B", 4, [monastery(), field(ALL_HALVES, &[])]),
        tile!("C", 1, [city_with_pennant(&[N, E, S, W])]),
        tile!("D", 4, [city(&[N]), road(&[W, E]), field(&[Wnw, Ene], &[0]), field(&[Ese, Sse, Ssw, Wsw], &[]),]),
        tile!("E", 5, [city(&[N]), field(&[Ene, Ese, Sse, Ssw, Wsw, Wnw], &[0])]),
        tile!("F", 2, [city_with_pennant(&[W, E]), field(&[Nnw, Nne], &[0]), field(&[Sse, Ssw], &[0]),]),
        tile!("G", 1, [city(&[W, E]), field(&[Nnw, Nne], &[0]), field(&[Sse, Ssw], &[0])]),
        tile!("H", 3, [city(&[N]), city(&[S]), field(&[Ene, Ese, Wsw, Wnw], &[0, 1])]),
        tile!("I", 2, [city(&[N]), city(&[W]), field(&[Ene, Ese, Sse, Ssw], &[0, 1])]),
        tile!("J", 3, [city(&[N]), road(&[E, S]), field(&[Ene, Wnw, Wsw, Ssw], &[0]), field(&[Ese, Sse], &[]),]),
        tile!("K", 3, [city(&[N]), road(&[S, W]), field(&[Wnw, Ene, Ese, Sse], &[0]), field(&[Wsw, Ssw], &[]),]),
        tile!(
            "L",
            3,
            [
                city(&[N]),
                road(&[E]),
                road(&[S]),
                road(&[W]),
                field(&[Wnw, Ene], &[0]),
                field(&[Wsw, Ssw], &[]),
                field(&[Ese, Sse], &[]),
            ],
            [[1, 2, 3]]
        ),
        tile!("M", 2, [city_with_pennant(&[N, W]), field(&[Ene, Ese, Sse, Ssw], &[0])]),
        tile!("N", 3, [city(&[N, W]), field(&[Ene, Ese, Sse, Ssw], &[0])]),
        tile!("O", 2, [city_with_pennant(&[N, W]), road(&[E, S]), field(&[Ene, Ssw], &[0]), field(&[Ese, Sse], &[]),]),
        tile!("P", 3, [city(&[N, W]), road(&[E, S]), field(&[Ene, Ssw], &[0]), field(&[Ese, Sse], &[]),]),
        tile!("Q", 1, [city_with_pennant(&[N, E, W]), field(&[Sse, Ssw], &[0])]),
        tile!("R", 3, [city(&[N, E, W]), field(&[Sse, Ssw], &[0])]),
        tile!("S", 2, [city_with_pennant(&[N, E, W]), road(&[S]), field(&[Sse], &[0]), field(&[Ssw], &[0]),], [[0, 1]]),
        tile!("T", 1, [city(&[N, E, W]), road(&[S]), field(&[Sse], &[0]), field(&[Ssw], &[0])], [[0, 1]]),
        tile!("U", 8, [road(&[W, E]), field(&[Wnw, Nnw, Nne, Ene], &[]), field(&[Ese, Sse, Ssw, Wsw], &[])]),
        tile!("V", 9, [road(&[S, W]), field(&[Wnw, Nnw, Nne, Ene, Ese, Sse], &[]), field(&[Ssw, Wsw], &[])]),
        tile!(
            "W",
            4,
            [
                road(&[E]),
                road(&[S]),
                road(&[W]),
                field(&[Wnw, Nnw, Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ],
            [[0, 1, 2]]
        ),
        tile!(
            "X",
            1,
            [
                road(&[N]),
                road(&[E]),
                road(&[S]),
                road(&[W]),
                field(&[Wnw, Nnw], &[]),
                field(&[Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ],
            [[0, 1, 2, 3]]
        ),
    ],
    start: None,
    stages: &[],
    replaces: &[],
};

/// The tile that lies at [0, 0] before the first turn.
pub const START_TILE: &str = "D";
