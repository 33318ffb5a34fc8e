//! Traders & Builders' tiles: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::Good::{Cloth, Grain, Wine};
use crate::tile::{city, city_with_good, field, monastery, road, tile, TileSet};

/// The 24 tiles of JCloisterZone's set `traders-and-builders:1`, one of
/// each, at rotation 0. Goods: wine 9, grain 6, cloth 5. No T&B tile has a
/// lake with jetties: none takes a ferry (F12).
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Traders),
    tiles: &[
        // N with grain, and with wine.
        tile!("T1", 1, [city_with_good(&[N, W], Grain), field(&[Ene, Ese, Sse, Ssw], &[0])]),
        tile!("T2", 1, [city_with_good(&[N, W], Wine), field(&[Ene, Ese, Sse, Ssw], &[0])]),
        // A band W-E with cloth (or wine) over a cap S, a field inside between them.
        tile!("T3", 1, [city_with_good(&[W, E], Cloth), city(&[S]), field(&[Nnw, Nne], &[0]), field(&[], &[0, 1])]),
        tile!("T4", 1, [city_with_good(&[W, E], Wine), city(&[S]), field(&[Nnw, Nne], &[0]), field(&[], &[0, 1])]),
        // R with grain.
        tile!("T5", 1, [city_with_good(&[N, E, W], Grain), field(&[Sse, Ssw], &[0])]),
        // A city N+W with cloth, caps S and E, a field inside.
        tile!("T6", 1, [city_with_good(&[N, W], Cloth), city(&[S]), city(&[E]), field(&[], &[0, 1, 2])]),
        // A city N+W with cloth, roads E and S ending at it; its spike to
        // the south-east corner parts the four fields.
        tile!(
            "T7",
            1,
            [
                city_with_good(&[N, W], Cloth),
                road(&[S]),
                road(&[E]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0]),
                field(&[Ese], &[0]),
                field(&[Ene], &[0]),
            ],
            [[0, 1], [0, 2]]
        ),
        // A city N+W with wine, roads E and S ending at it.
        tile!(
            "T8",
            1,
            [
                city_with_good(&[N, W], Wine),
                road(&[S]),
                road(&[E]),
                field(&[Ssw], &[0]),
                field(&[Ese, Sse], &[0]),
                field(&[Ene], &[0]),
            ],
            [[0, 1], [0, 2]]
        ),
        // A city N+W with cloth (or grain), a cap S, a road E ending at the first.
        tile!(
            "T9",
            1,
            [city_with_good(&[N, W], Cloth), city(&[S]), road(&[E]), field(&[Ene], &[0]), field(&[Ese], &[0, 1])],
            [[0, 2]]
        ),
        tile!(
            "T10",
            1,
            [city_with_good(&[N, W], Grain), city(&[S]), road(&[E]), field(&[Ene], &[0]), field(&[Ese], &[0, 1])],
            [[0, 2]]
        ),
        // A city N+W with cloth, a road E ending at it.
        tile!(
            "T11",
            1,
            [city_with_good(&[N, W], Cloth), road(&[E]), field(&[Ene], &[0]), field(&[Ese, Sse, Ssw], &[0])],
            [[0, 1]]
        ),
        // The same with wine and a spike parting the south-east field.
        tile!(
            "T12",
            1,
            [
                city_with_good(&[N, W], Wine),
                road(&[E]),
                field(&[Ene], &[0]),
                field(&[Ese], &[0]),
                field(&[Sse, Ssw], &[0]),
            ],
            [[0, 1]]
        ),
        // T with wine.
        tile!(
            "T13",
            1,
            [city_with_good(&[N, E, W], Wine), road(&[S]), field(&[Ssw], &[0]), field(&[Sse], &[0])],
            [[0, 1]]
        ),
        // Two corner cities, N+W with wine and E+S, a field between them.
        tile!("T14", 1, [city_with_good(&[N, W], Wine), city(&[S, E]), field(&[], &[0, 1])]),
        // G with wine.
        tile!("T15", 1, [city_with_good(&[W, E], Wine), field(&[Nnw, Nne], &[0]), field(&[Sse, Ssw], &[0])]),
        // A cap N; a road from E ends at it.
        tile!(
            "T16",
            1,
            [city(&[N]), road(&[E]), field(&[Ene], &[0]), field(&[Ese, Sse, Ssw, Wsw, Wnw], &[0])],
            [[0, 1]]
        ),
        // A band W-E with grain (or wine); a road from S ends at it.
        tile!(
            "T17",
            1,
            [
                city_with_good(&[W, E], Grain),
                road(&[S]),
                field(&[Nnw, Nne], &[0]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0])
            ],
            [[0, 1]]
        ),
        tile!(
            "T18",
            1,
            [
                city_with_good(&[W, E], Wine),
                road(&[S]),
                field(&[Nnw, Nne], &[0]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0])
            ],
            [[0, 1]]
        ),
        // A band W-E with wine; roads from N and from S end at it.
        tile!(
            "T19",
            1,
            [
                city_with_good(&[W, E], Wine),
                road(&[N]),
                road(&[S]),
                field(&[Nnw], &[0]),
                field(&[Nne], &[0]),
                field(&[Sse], &[0]),
                field(&[Ssw], &[0]),
            ],
            [[0, 1], [0, 2]]
        ),
        // W with a monastery where its three roads end.
        tile!(
            "T20",
            1,
            [
                monastery(),
                road(&[E]),
                road(&[S]),
                road(&[W]),
                field(&[Nnw, Nne, Ene, Wnw], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ],
            [[0, 1], [0, 2], [0, 3]]
        ),
        // A city N+W with grain; a road from S ends at it (and the same
        // with a spike parting the south-east field).
        tile!(
            "T21",
            1,
            [city_with_good(&[N, W], Grain), road(&[S]), field(&[Ssw], &[0]), field(&[Ene, Ese, Sse], &[0])],
            [[0, 1]]
        ),
        tile!(
            "T22",
            1,
            [
                city_with_good(&[N, W], Grain),
                road(&[S]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0]),
                field(&[Ene, Ese], &[0])
            ],
            [[0, 1]]
        ),
        // A cap N; a road from S ends at it, a road from W ends alone.
        tile!(
            "T23",
            1,
            [
                city(&[N]),
                road(&[W]),
                road(&[S]),
                field(&[Wnw], &[0]),
                field(&[Ssw, Wsw], &[]),
                field(&[Ene, Ese, Sse], &[0]),
            ],
            [[0, 2]]
        ),
        // Two roads crossing without meeting, N-S over W-E.
        tile!(
            "T24",
            1,
            [
                road(&[N, S]),
                road(&[W, E]),
                field(&[Nnw, Wnw], &[]),
                field(&[Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ]
        ),
    ],
    start: None,
    stages: &[],
    replaces: &[],
};
