//! Where expansions meet (ruling F12): the one home of every rule that
//! belongs to two expansions at once, so that neither module names the
//! other. Each interaction has its place here:
//!
//! - Inns & Cathedrals with The Ferries: nothing to decide. A road's inns
//!   are a total of its feature, summed as pieces join, so a road joined
//!   by ferries carries an inn along its whole length and scores as any
//!   road with an inn; without an inn it scores 1 a tile as any road (F11).
//!   The I&C lake is no ferry lake: its tiles carry no jetty.
//! - Traders & Builders with The Ferries: a ferry move never gives a second
//!   turn (a second turn comes only from a tile placed), and a builder or
//!   pig that a move leaves without its owner's follower on its feature
//!   goes back before the turn's scoring ([`before_scoring`]).
//! - Abbey & Mayor with The Ferries: an abbey closes roads but extends none,
//!   so it makes no ferry movable (the F6 walk starts only from a placed
//!   tile's roads, and an abbey has none).
//! - Abbey & Mayor with Traders & Builders: a city an abbey completes gives
//!   its goods (the abbey's touched features are among those the goods
//!   look at); a pig counts in a barn's scorings too, as JCloisterZone has
//!   it ([`farm_scored_during_the_game`]); and builders and pigs whose
//!   farmers or followers went back with a barn's scoring go back too
//!   ([`after_barn_scoring`]).

use crate::event::EventSink;
use crate::features::PieceId;
use crate::setup::{Expansion, MAX_PLAYERS};
use crate::state::State;
use crate::tile::FeatureKind;

use super::{ferries, traders};

/// Traders & Builders, before the turn's scoring, with The Ferries: only a
/// ferry move parts a feature, so only then may a builder or pig be left
/// without its owner's follower.
#[inline]
pub(crate) fn before_scoring<E: EventSink>(state: &mut State, events: &mut E) {
    if ferries::touched_any(&state.ext.ferries) {
        traders::return_lonely(state, events);
    }
}

/// Abbey & Mayor's barn scored a farm during the game: with Traders &
/// Builders, its pigs add to it as to any farm scoring.
#[inline]
pub(crate) fn farm_scored_during_the_game(state: &State, root: PieceId, cities: u32, won: &mut [u32; MAX_PLAYERS]) {
    if state.rules.has(Expansion::Traders) {
        traders::farm_bonus(state, root, cities, won);
    }
}

/// After Abbey & Mayor's barns scored: with Traders & Builders, builders and
/// pigs left without their owner's follower go back.
#[inline]
pub(crate) fn after_barn_scoring<E: EventSink>(state: &mut State, events: &mut E) {
    if state.rules.has(Expansion::Traders) {
        traders::return_lonely(state, events);
    }
}

/// What the farm of `root` scores when a rule scores it during the game
/// (a barn), at `per_city` a completed city to its farmers' majority.
pub(crate) fn farm_now(state: &State, root: PieceId, cities: u32, per_city: u32) -> [u32; MAX_PLAYERS] {
    let mut won = state.won(root, FeatureKind::Field, per_city * cities);
    farm_scored_during_the_game(state, root, cities, &mut won);
    won
}
