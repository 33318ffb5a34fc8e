//! Inns & Cathedrals as a rules module: its 18 tiles, the big follower, the
//! sixth player, and the scoring of roads with an inn and cities with a
//! cathedral.
//!
//! Its hooks: its [`TILES`] (ids `I1` to `I17`; docs/rules.md lists them
//! beside JCloisterZone's), its [`FIGURES`] (one big follower each, strength
//! 2 in [`super::strength`]), [`MAX_PLAYERS`], and the points of a feature
//! with a mark ([`completed_points`], [`open_points`]). Inns and cathedrals
//! are marks on road and city pieces ([`crate::tile::FeatureDef::mark`]),
//! counted in a feature's totals as it grows, so a road joined by ferries
//! carries its inn along its whole length (ruling F12, see
//! [`super::interactions`]).

use crate::figure::FollowerKind;
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::setup::Expansion;
use crate::tile::{
    city, city_with_cathedral, city_with_pennant, field, monastery, road, road_with_inn, tile, FeatureKind, TileSet,
};

use super::Feature;

/// Two to six players with this expansion.
pub const MAX_PLAYERS: usize = 6;

/// Figures each player has besides the base game's: one big follower.
pub const FIGURES: &[(FollowerKind, u8)] = &[(FollowerKind::Big, 1)];

/// Points a road with an inn scores per tile, completed (0 if open at the end).
const INN_ROAD_POINTS: u32 = 2;
/// Points a city with a cathedral scores per tile and pennant, completed
/// (0 if open at the end).
const CATHEDRAL_CITY_POINTS: u32 = 3;

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
};

/// Points of a completed road with an inn or city with a cathedral; `None`
/// for any other feature (the base game scores it).
#[inline]
pub(crate) fn completed_points(f: &Feature) -> Option<u32> {
    if f.totals.marks == 0 {
        return None;
    }
    match f.kind {
        FeatureKind::Road => Some(INN_ROAD_POINTS * f.tiles),
        FeatureKind::City => Some(CATHEDRAL_CITY_POINTS * (f.tiles + f.totals.pennants as u32)),
        _ => None,
    }
}

/// An inn's road or a cathedral's city still open at the end scores nothing.
#[inline]
pub(crate) fn open_points(f: &Feature) -> Option<u32> {
    match f.kind {
        FeatureKind::Road | FeatureKind::City if f.totals.marks > 0 => Some(0),
        _ => None,
    }
}
