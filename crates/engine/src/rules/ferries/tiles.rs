//! The Ferries' tiles: data only, below the rules and the catalogue
//! ([`crate::catalogue`]), which gathers every set.

use crate::expansion::Expansion;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::tile::{city, field, jetty, TileDef, TileSet};

/// The 8 lake tiles (F1). Each is like L, W or X of the base game with a
/// lake where the village is: every road ends at a jetty.
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Ferries),
    tiles: &[
        (
            TileDef {
                id: "FC",
                features: &[
                    city(&[N]),
                    jetty(E),
                    jetty(S),
                    jetty(W),
                    field(&[Wnw, Ene], &[0]),
                    field(&[Wsw, Ssw], &[]),
                    field(&[Ese, Sse], &[]),
                ],
                links: &[],
                river: 0,
            },
            3,
            3,
        ),
        (
            TileDef {
                id: "F3",
                features: &[
                    jetty(E),
                    jetty(S),
                    jetty(W),
                    field(&[Wnw, Nnw, Nne, Ene], &[]),
                    field(&[Ese, Sse], &[]),
                    field(&[Ssw, Wsw], &[]),
                ],
                links: &[],
                river: 0,
            },
            3,
            4,
        ),
        (
            TileDef {
                id: "F4",
                features: &[
                    jetty(N),
                    jetty(E),
                    jetty(S),
                    jetty(W),
                    field(&[Wnw, Nnw], &[]),
                    field(&[Nne, Ene], &[]),
                    field(&[Ese, Sse], &[]),
                    field(&[Ssw, Wsw], &[]),
                ],
                links: &[],
                river: 0,
            },
            2,
            1,
        ),
    ],
    start: None,
    stages: &[],
    replaces: &[],
};
