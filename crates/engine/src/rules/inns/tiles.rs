//! Inns & Cathedrals' tiles: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{city, city_with_cathedral, city_with_pennant, field, monastery, road, road_with_inn, tile, TileSet};

/// The 18 tiles (17 kinds) of JCloisterZone's set `inns-and-cathedrals:1`,
/// at rotation 0; the same in both editions. No I&C tile has a lake with
/// jetties: its little lakes take no ferry (F12).
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Inns),
    tiles: &[
        // A cathedral city on all four sides (like C, without a pennant).
        tile!("I1", 2, [city_with_cathedral(&[N, E, S, W])]),
        // A monastery between two roads that end at it.
        tile!(
            "I2",
            1,
            [monastery(), road(&[W]), road(&[E]), field(&[Wnw, Nnw, Nne, Ene], &[]), field(&[Ese, Sse, Ssw, Wsw], &[])],
            [[0, 1], [0, 2]]
        ),
        // Four separate city caps around a field inside the tile.
        tile!("I3", 1, [city(&[N]), city(&[W]), city(&[E]), city(&[S]), field(&[], &[0, 1, 2, 3])]),
        // Three separate city caps.
        tile!("I4", 1, [city(&[N]), city(&[W]), city(&[E]), field(&[Sse, Ssw], &[0, 1, 2])]),
        // Two city caps, N and S; roads W and E end in the middle.
        tile!(
            "I5",
            1,
            [
                city(&[N]),
                city(&[S]),
                road(&[W]),
                road(&[E]),
                field(&[Ese], &[1]),
                field(&[Wsw], &[1]),
                field(&[Ene], &[0]),
                field(&[Wnw], &[0]),
            ],
            [[0, 1, 2, 3]]
        ),
        // A city N+W with a pennant, and a separate cap S.
        tile!("I6", 1, [city_with_pennant(&[N, W]), city(&[S]), field(&[Ene, Ese], &[0, 1])]),
        // A city cap N whose wall cuts the east field from the rest.
        tile!("I7", 1, [city(&[N]), field(&[Ene, Ese], &[0]), field(&[Sse, Ssw, Wsw, Wnw], &[0])]),
        // A city N; a road from S ends at it.
        tile!(
            "I8",
            1,
            [city(&[N]), road(&[S]), field(&[Ssw, Wsw, Wnw], &[0]), field(&[Ene, Ese, Sse], &[0])],
            [[0, 1]]
        ),
        // A city N+W; a road from E ends at it.
        tile!("I9", 1, [city(&[N, W]), road(&[E]), field(&[Ene], &[0]), field(&[Ese, Sse, Ssw], &[0])], [[0, 1]]),
        // A city W+E with a pennant; roads from N and from S end at it.
        tile!(
            "I10",
            1,
            [
                city_with_pennant(&[W, E]),
                road(&[N]),
                road(&[S]),
                field(&[Nnw], &[0]),
                field(&[Nne], &[0]),
                field(&[Sse], &[0]),
                field(&[Ssw], &[0]),
            ],
            [[0, 1], [0, 2]]
        ),
        // A city N+W; a road with an inn from S ends at it.
        tile!(
            "I11",
            1,
            [city(&[N, W]), road_with_inn(&[S]), field(&[Ssw], &[0]), field(&[Ene, Ese, Sse], &[0])],
            [[0, 1]]
        ),
        // K with an inn.
        tile!(
            "I12",
            1,
            [city(&[N]), road_with_inn(&[S, W]), field(&[Wnw, Ene, Ese, Sse], &[0]), field(&[Wsw, Ssw], &[])]
        ),
        // O with an inn.
        tile!(
            "I13",
            1,
            [city_with_pennant(&[N, W]), road_with_inn(&[E, S]), field(&[Ene, Ssw], &[0]), field(&[Ese, Sse], &[])]
        ),
        // W with an inn on the east road only.
        tile!(
            "I14",
            1,
            [
                road_with_inn(&[E]),
                road(&[S]),
                road(&[W]),
                field(&[Wnw, Nnw, Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ],
            [[0, 1, 2]]
        ),
        // U with an inn.
        tile!("I15", 1, [road_with_inn(&[W, E]), field(&[Wnw, Nnw, Nne, Ene], &[]), field(&[Ese, Sse, Ssw, Wsw], &[])]),
        // V with an inn.
        tile!("I16", 1, [road_with_inn(&[S, W]), field(&[Wnw, Nnw, Nne, Ene, Ese, Sse], &[]), field(&[Ssw, Wsw], &[])]),
        // Two curves, N-W and E-S, with a field between them.
        tile!(
            "I17",
            1,
            [
                road(&[N, W]),
                road(&[E, S]),
                field(&[Nnw, Wnw], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Nne, Ene, Ssw, Wsw], &[]),
            ]
        ),
    ],
    start: None,
    stages: &[],
    replaces: &[],
};
