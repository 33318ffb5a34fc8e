//! What happened, for logs, replays and user interfaces.

use serde::{Serialize, Serializer};

use crate::action::{JettyPair, Location};
use crate::board::Placement;
use crate::figure::FollowerKind;
use crate::geometry::Pos;
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

/// The wire form of an event, as the server's game log and the golden
/// transcripts write it (docs/api.md): a `type` in snake case, `seat` for
/// the player, positions as `[x, y]`, features and ferries in the notation.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Wire<'a> {
    TileDrawn {
        tile: &'static str,
    },
    TilePlaced {
        seat: usize,
        tile: &'static str,
        at: [i32; 2],
        rot: u16,
    },
    TileDiscarded {
        seat: usize,
        tile: &'static str,
    },
    FollowerDeployed {
        seat: usize,
        at: [i32; 2],
        feature: String,
        /// The figure, when not the normal follower.
        #[serde(skip_serializing_if = "Option::is_none")]
        figure: Option<&'static str>,
    },
    FerryPlaced {
        seat: usize,
        at: [i32; 2],
        ferry: String,
    },
    FerryMoved {
        seat: usize,
        at: [i32; 2],
        from: String,
        to: String,
    },
    Scored(&'a Scoring),
    WagonMoved {
        seat: usize,
        from: [i32; 2],
        from_feature: String,
        at: [i32; 2],
        feature: String,
    },
    FollowerReturned {
        seat: usize,
        at: [i32; 2],
        feature: String,
    },
    GameEnded {
        scores: &'a [u32],
    },
    GoodsTaken {
        seat: usize,
        wine: u8,
        grain: u8,
        cloth: u8,
    },
    SecondTurn {
        seat: usize,
    },
}

fn xy(p: Pos) -> [i32; 2] {
    [p.x, p.y]
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let wire = match self {
            Event::TileDrawn { tile } => Wire::TileDrawn { tile: tile.id() },
            Event::TilePlaced { player, tile, placement } => {
                Wire::TilePlaced { seat: *player, tile: tile.id(), at: xy(placement.pos), rot: placement.rot.degrees() }
            }
            Event::TileDiscarded { player, tile } => Wire::TileDiscarded { seat: *player, tile: tile.id() },
            Event::FollowerDeployed { player, at, location, figure } => Wire::FollowerDeployed {
                seat: *player,
                at: xy(*at),
                feature: location.to_string(),
                figure: (*figure != FollowerKind::Normal).then(|| figure.name()),
            },
            Event::FerryPlaced { player, at, ferry } => {
                Wire::FerryPlaced { seat: *player, at: xy(*at), ferry: ferry.to_string() }
            }
            Event::FerryMoved { player, at, from, to } => {
                Wire::FerryMoved { seat: *player, at: xy(*at), from: from.to_string(), to: to.to_string() }
            }
            Event::Scored(scoring) => Wire::Scored(scoring),
            Event::WagonMoved { player, from, from_location, at, location } => Wire::WagonMoved {
                seat: *player,
                from: xy(*from),
                from_feature: from_location.to_string(),
                at: xy(*at),
                feature: location.to_string(),
            },
            Event::FollowerReturned { player, at, location } => {
                Wire::FollowerReturned { seat: *player, at: xy(*at), feature: location.to_string() }
            }
            Event::GameEnded { scores } => Wire::GameEnded { scores },
            Event::GoodsTaken { player, wine, grain, cloth } => {
                Wire::GoodsTaken { seat: *player, wine: *wine, grain: *grain, cloth: *cloth }
            }
            Event::SecondTurn { player } => Wire::SecondTurn { seat: *player },
        };
        wire.serialize(s)
    }
}

/// A scoring on the wire: the feature's kind by name, its tiles as `[x, y]`.
impl Serialize for Scoring {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Wire<'a> {
            kind: &'static str,
            completed: bool,
            end_of_game: bool,
            tiles: Vec<[i32; 2]>,
            points: &'a [u32],
        }
        Wire {
            kind: self.kind.name(),
            completed: self.completed,
            end_of_game: self.end_of_game,
            tiles: self.tiles.iter().map(|p| xy(*p)).collect(),
            points: &self.points,
        }
        .serialize(s)
    }
}
