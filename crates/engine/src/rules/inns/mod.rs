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
use crate::tile::FeatureKind;

use super::context::Feature;

/// Two to six players with this expansion.
pub const MAX_PLAYERS: usize = 6;

/// Figures each player has besides the base game's: one big follower.
pub const FIGURES: &[(FollowerKind, u8)] = &[(FollowerKind::Big, 1)];

/// Points a road with an inn scores per tile, completed (0 if open at the end).
const INN_ROAD_POINTS: u32 = 2;
/// Points a city with a cathedral scores per tile and pennant, completed
/// (0 if open at the end).
const CATHEDRAL_CITY_POINTS: u32 = 3;

pub(crate) mod tiles;
pub use tiles::TILES;

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
