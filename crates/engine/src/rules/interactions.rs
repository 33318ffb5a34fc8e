//! Where expansions meet (ruling F12): the one home of every rule that
//! belongs to two expansions at once, so that neither module names the
//! other. With only the base game and The Ferries in play there is nothing
//! to decide yet; each coming interaction has its place here:
//!
//! - Inns & Cathedrals with The Ferries: an inn scores a road with ferries
//!   as any road with an inn (a [`super::completed_points`] adjustment),
//!   and that expansion's lake is no ferry lake (its tiles carry no jetty).
//! - Traders & Builders with The Ferries: a ferry move never gives a second
//!   turn, and a builder that a move leaves without its owner's follower on
//!   the road goes back at once ([`after_ferry_move`]).
//! - Abbey & Mayor with The Ferries: an abbey closes roads but extends none,
//!   so it makes no ferry movable (the F6 walk starts only from a placed
//!   tile's roads, and an abbey has none).

/// After a ferry moved and the roads through its lake were joined again.
#[inline]
pub(crate) fn after_ferry_move() {}
