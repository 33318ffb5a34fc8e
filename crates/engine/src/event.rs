//! What happened, for logs, replays and user interfaces.

use crate::action::{JettyPair, Location};
use crate::board::Placement;
use crate::geometry::Pos;
use crate::state::FollowerKind;
use crate::tile::{FeatureKind, TileKind};

/// One thing that happened in the game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Event {
    TileDrawn {
        tile: TileKind,
    },
    TilePlaced {
        player: usize,
        tile: TileKind,
        placement: Placement,
    },
    /// The drawn tile fitted nowhere and left the game.
    TileDiscarded {
        player: usize,
        tile: TileKind,
    },
    FollowerDeployed {
        player: usize,
        /// The kind of figure (the normal follower in the base game).
        figure: FollowerKind,
        at: Pos,
        location: Location,
    },
    FerryPlaced {
        player: usize,
        at: Pos,
        ferry: JettyPair,
    },
    FerryMoved {
        player: usize,
        at: Pos,
        from: JettyPair,
        to: JettyPair,
    },
    /// A feature was scored, during the game or at its end.
    Scored(Scoring),
    /// Abbey & Mayor: a wagon whose feature was scored moved on, from
    /// `from_location` of the tile at `from` to `location` of the tile at `at`.
    WagonMoved {
        player: usize,
        from: Pos,
        from_location: Location,
        at: Pos,
        location: Location,
    },
    /// Traders & Builders: the player who completed a city took its goods.
    GoodsTaken {
        player: usize,
        wine: u8,
        grain: u8,
        cloth: u8,
    },
    /// Traders & Builders: the player's tile extended their builder's road
    /// or city, so they play a second turn now.
    SecondTurn {
        player: usize,
    },
    /// A follower went back to its owner's supply.
    FollowerReturned {
        player: usize,
        at: Pos,
        location: Location,
    },
    GameEnded {
        scores: Vec<u32>,
    },
}

/// One feature's scoring.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Scoring {
    pub kind: FeatureKind,
    /// Whether the feature was complete (otherwise: end of game, open).
    pub completed: bool,
    pub end_of_game: bool,
    /// The tiles of the feature (for a field, its tiles), each once.
    pub tiles: Vec<Pos>,
    /// Points each player scored, in seat order (0 for those without majority).
    pub points: Vec<u32>,
}

/// Receives events while actions are played. The fast paths use [`NoEvents`].
pub trait EventSink {
    /// Whether events are wanted at all; when false none are built.
    const ENABLED: bool;
    fn push(&mut self, event: Event);
}

/// Discards events without building them.
pub struct NoEvents;

impl EventSink for NoEvents {
    const ENABLED: bool = false;
    fn push(&mut self, _: Event) {}
}

impl EventSink for Vec<Event> {
    const ENABLED: bool = true;
    fn push(&mut self, event: Event) {
        Vec::push(self, event)
    }
}
