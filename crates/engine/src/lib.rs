//! A rules engine for Carcassonne with The Ferries.
//!
//! The engine is a pure library: no I/O, no global mutable state, and
//! deterministic: a game is its [`Rules`] plus a sequence of [`Action`]s,
//! chance's tile draws among them.
//!
//! ```
//! use carcassonne_engine::{Rules, State, Actor};
//! let mut state = State::new(Rules::base(2).unwrap());
//! assert_eq!(state.actor(), Some(Actor::Chance));
//! let draw = state.legal_action_list()[0];
//! state.play(draw).unwrap();
//! assert_eq!(state.actor(), Some(Actor::Player(0)));
//! ```
//!
//! Vocabulary: a tile *kind* is a static definition ([`tile`]); a
//! [`Placement`] is where a tile goes; an [`Action`] is a decision; an
//! [`Event`] is what happened; a [`Step`] is where the turn stands; a
//! *feature* is a road, city, field or monastery grown from *pieces* of tiles.

pub mod action;
pub mod audit;
pub mod bag;
pub mod board;
pub mod catalogue;
pub mod error;
pub mod event;
pub mod expansion;
pub mod features;
pub mod fields;
pub mod figure;
pub mod game;
pub mod geometry;
mod names;
mod pieces;
mod plan;
pub mod playout;
pub mod record;
pub mod rules;
pub mod setup;
pub mod state;
pub mod tile;

pub use action::{Action, Actor, JettyPair, Location, NotationError, Step};
pub use bag::Bag;
pub use board::{Board, PlacedTile, Placement};
pub use error::{PlayError, SetupError};
pub use event::{Event, EventSink, NoEvents, Scoring};
pub use fields::ActionFields;
pub use figure::{Follower, FollowerKind};
pub use game::{Game, HintError};
pub use geometry::{Corner, HalfEdge, Pos, Rotation, Side};
pub use record::{Record, RecordError, RuleOptions, Summary, TurnError};
pub use rules::ferries::Ferry;
pub use setup::{Edition, Expansion, LabyrinthVariant, Rules, WagonMove};
pub use state::scoring::FeatureWorth;
pub use state::State;
pub use tile::{FeatureKind, TileKind};
