//! Abbey & Mayor's tiles: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{city, city_with_pennant, city_with_pennants, field, monastery, road, tile, TileSet};

/// The 12 tiles of JCloisterZone's set `abbey-and-mayor:1`, one of each,
/// at rotation 0, and the abbey (count 0: each player holds one).
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Abbey),
    tiles: &[
        // C with two pennants.
        tile!("M1", 1, [city_with_pennants(&[N, E, S, W], 2)]),
        // Two cities crossing, N-S with a pennant and W-E, with a field
        // inside each pair of corners between them.
        tile!("M2", 1, [city_with_pennant(&[N, S]), city(&[W, E]), field(&[], &[0, 1]), field(&[], &[0, 1])]),
        // A cap N with a pennant over a band W-E; a field inside between
        // them and one along the south edge (JCloisterZone has it border
        // both cities).
        tile!("M3", 1, [city_with_pennant(&[N]), city(&[W, E]), field(&[], &[0, 1]), field(&[Sse, Ssw], &[0, 1])]),
        // Caps N and W; roads from E and from S end at them.
        tile!(
            "M4",
            1,
            [
                city(&[N]),
                city(&[W]),
                road(&[E]),
                road(&[S]),
                field(&[Ene], &[0]),
                field(&[Ssw], &[1]),
                field(&[Ese, Sse], &[0, 1]),
            ],
            [[0, 2], [1, 3]]
        ),
        // X with a monastery where the four roads end.
        tile!(
            "M5",
            1,
            [
                monastery(),
                road(&[N]),
                road(&[W]),
                road(&[S]),
                road(&[E]),
                field(&[Nnw, Wnw], &[]),
                field(&[Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ],
            [[0, 1], [0, 2], [0, 3], [0, 4]]
        ),
        // A cap N; a road from W ends at it.
        tile!(
            "M6",
            1,
            [city(&[N]), road(&[W]), field(&[Wnw], &[0]), field(&[Ene, Ese, Sse, Ssw, Wsw], &[0])],
            [[0, 1]]
        ),
        // J with its north-east field cut off by the city wall.
        tile!(
            "M7",
            1,
            [city(&[N]), road(&[E, S]), field(&[Ssw, Wsw, Wnw], &[0]), field(&[Ene], &[0]), field(&[Ese, Sse], &[])]
        ),
        // K with its north-west field cut off by the city wall.
        tile!(
            "M8",
            1,
            [city(&[N]), road(&[S, W]), field(&[Ene, Ese, Sse], &[0]), field(&[Wnw], &[0]), field(&[Ssw, Wsw], &[])]
        ),
        // A cap W with a pennant, its wall cutting three fields apart.
        tile!(
            "M9",
            1,
            [city_with_pennant(&[W]), field(&[Nnw, Nne], &[0]), field(&[Ene, Ese], &[0]), field(&[Sse, Ssw], &[0])]
        ),
        // A road from S that ends in the middle of one field.
        tile!("M10", 1, [road(&[S]), field(&[Nnw, Nne, Ene, Ese, Sse, Ssw, Wsw, Wnw], &[])]),
        // A roundabout: one road with three legs, N, E and W (a branched road).
        tile!(
            "M11",
            1,
            [road(&[N, E, W]), field(&[Nnw, Wnw], &[]), field(&[Nne, Ene], &[]), field(&[Ese, Sse, Ssw, Wsw], &[])]
        ),
        // A band W-E with a pennant; the road N-S runs under it.
        tile!(
            "M12",
            1,
            [
                city_with_pennant(&[W, E]),
                road(&[N, S]),
                field(&[Sse, Ssw], &[0]),
                field(&[Nnw], &[0]),
                field(&[Nne], &[0]),
            ]
        ),
        // The abbey: a monastery whose edges match anything.
        tile!("AB", 0, [monastery()]),
    ],
    start: None,
    stages: &[],
    replaces: &[],
};
