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
//!   turn, and a builder that a move leaves without its owner's follower on
//!   the road goes back at once ([`after_ferry_move`]).
//! - Abbey & Mayor with The Ferries: an abbey closes roads but extends none,
//!   so it makes no ferry movable (the F6 walk starts only from a placed
//!   tile's roads, and an abbey has none).

/// After a ferry moved and the roads through its lake were joined again.
#[inline]
pub(crate) fn after_ferry_move() {}
