//! The base game as a rules module: its 72 tiles, its follower, the
//! place-and-deploy steps, its scoring formulas, turns in seat order, and
//! the end when the bag is empty. It names no expansion.

use crate::action::Step;
use crate::bag::Bag;
use crate::figure::FollowerKind;
use crate::setup::{Rules, TINY_CITY_VARIANT};
use crate::tile::FeatureKind;

use super::context::Feature;

pub(crate) mod tiles;
pub use tiles::TILES;

/// The most players of the base game.
pub const MAX_PLAYERS: usize = 5;

/// Figures each player has: seven followers.
pub const FIGURES: &[(FollowerKind, u8)] = &[(FollowerKind::Normal, 7)];

/// The turn: draw a tile, place it, then deploy (or pass).
pub const STEPS: &[Step] = &[Step::Draw, Step::Place, Step::Deploy];

/// Points a completed city scores per tile and per pennant.
const CITY_POINTS: u32 = 2;
/// Points a completed monastery scores.
const MONASTERY_POINTS: u32 = 9;
/// Points a farm scores per completed city.
pub(crate) const FARM_POINTS: u32 = 3;

pub(crate) fn completed_points(rules: &Rules, f: &Feature) -> u32 {
    match f.kind {
        FeatureKind::City => {
            // The tiny-city variant scores a completed two-tile city as if
            // it were incomplete; any other size scores in full.
            let per = if f.tiles == 2 && rules.tiny_city_scoring() == TINY_CITY_VARIANT { 1 } else { CITY_POINTS };
            per * (f.tiles + f.totals.pennants as u32)
        }
        // A garden scores as a monastery does.
        FeatureKind::Monastery | FeatureKind::Garden => MONASTERY_POINTS,
        FeatureKind::Road | FeatureKind::Field => f.tiles,
    }
}

pub(crate) fn open_points(_rules: &Rules, f: &Feature) -> u32 {
    match f.kind {
        FeatureKind::Road => f.tiles,
        FeatureKind::City => f.tiles + f.totals.pennants as u32,
        FeatureKind::Monastery | FeatureKind::Garden => 1 + f.neighbours,
        FeatureKind::Field => FARM_POINTS * f.cities,
    }
}

/// A follower counts once in a majority.
pub(crate) const FOLLOWER_STRENGTH: u8 = 1;

/// Seats take turns in order.
#[inline]
pub(crate) fn next_player(rules: &Rules, current: u8) -> u8 {
    // A compare, not a division: asked every turn.
    let next = current + 1;
    if next as usize == rules.players() {
        0
    } else {
        next
    }
}

/// The game ends after the turn in which the bag runs empty.
#[inline]
pub(crate) fn game_over(bag: &Bag) -> bool {
    bag.is_empty()
}
