//! Decisions: what chance or a player does at a step of the turn.

use std::fmt;
use std::str::FromStr;

use crate::board::Placement;
use crate::geometry::{HalfEdge, Pos, Side};
use crate::tile::{FeatureKind, TileKind};

/// Where the turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Step {
    /// Chance draws a tile from the bag.
    Draw,
    /// The player places the drawn tile, or discards it when it fits nowhere.
    Place,
    /// The player may deploy a follower on the tile just placed.
    Deploy,
    /// The Ferries: the player puts a ferry on the lake just placed (F3).
    PlaceFerry,
    /// The Ferries: the player may move ferries the new tile reaches (F6, F7).
    MoveFerries,
    /// The bag is empty and the last turn is over.
    GameOver,
}

impl Step {
    pub const fn name(self) -> &'static str {
        match self {
            Step::Draw => "draw a tile",
            Step::Place => "place the tile",
            Step::Deploy => "deploy a follower",
            Step::PlaceFerry => "place a ferry",
            Step::MoveFerries => "move ferries",
            Step::GameOver => "game over",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who acts now.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Actor {
    /// Chance draws the next tile.
    Chance,
    /// The player with this seat index.
    Player(usize),
}

/// A feature of the tile just placed, named as it lies on the board
/// (`road:E`, `city:N`, `field:SSE`, `monastery`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Location {
    Road(Side),
    City(Side),
    Field(HalfEdge),
    Monastery,
}

impl Location {
    pub fn kind(self) -> FeatureKind {
        match self {
            Location::Road(_) => FeatureKind::Road,
            Location::City(_) => FeatureKind::City,
            Location::Field(_) => FeatureKind::Field,
            Location::Monastery => FeatureKind::Monastery,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Road(s) => write!(f, "road:{s}"),
            Location::City(s) => write!(f, "city:{s}"),
            Location::Field(h) => write!(f, "field:{h}"),
            Location::Monastery => f.write_str("monastery"),
        }
    }
}

impl FromStr for Location {
    type Err = String;

    fn from_str(s: &str) -> Result<Location, String> {
        let bad = || format!("'{s}' is not a feature name (road:E, city:N, field:SSE or monastery)");
        if s == "monastery" {
            return Ok(Location::Monastery);
        }
        let (kind, at) = s.split_once(':').ok_or_else(bad)?;
        match kind {
            "road" => Side::parse(at).map(Location::Road).ok_or_else(bad),
            "city" => Side::parse(at).map(Location::City).ok_or_else(bad),
            "field" => HalfEdge::parse(at).map(Location::Field).ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

/// Two jetties of a lake joined by a ferry, as sides on the board (`E-W`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct JettyPair(u8);

impl JettyPair {
    pub fn new(a: Side, b: Side) -> Option<JettyPair> {
        (a != b).then_some(JettyPair(a.bit() | b.bit()))
    }

    pub(crate) fn from_mask(mask: u8) -> JettyPair {
        debug_assert_eq!(mask.count_ones(), 2);
        JettyPair(mask)
    }

    /// The two sides, in N, E, S, W order.
    pub fn sides(self) -> [Side; 2] {
        let mut it = Side::ALL.into_iter().filter(|s| self.0 & s.bit() != 0);
        let a = it.next().unwrap_or(Side::N);
        let b = it.next().unwrap_or(Side::N);
        [a, b]
    }

    pub fn mask(self) -> u8 {
        self.0
    }

    pub fn contains(self, s: Side) -> bool {
        self.0 & s.bit() != 0
    }
}

impl fmt::Display for JettyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.sides();
        write!(f, "{a}-{b}")
    }
}

impl FromStr for JettyPair {
    type Err = String;

    fn from_str(s: &str) -> Result<JettyPair, String> {
        let bad = || format!("'{s}' is not a pair of jetties such as E-W");
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        let (a, b) = (Side::parse(a).ok_or_else(bad)?, Side::parse(b).ok_or_else(bad)?);
        JettyPair::new(a, b).ok_or_else(bad)
    }
}

/// A decision of chance or of the player to act.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Chance: this tile is drawn from the bag.
    Draw(TileKind),
    /// Place the drawn tile.
    Place(Placement),
    /// The drawn tile fits nowhere: it leaves the game, and the player draws again.
    Discard,
    /// Deploy a follower from supply on a feature of the tile just placed.
    Deploy(Location),
    /// The Ferries: put the new ferry on two jetties of the lake just placed.
    PlaceFerry(JettyPair),
    /// The Ferries: put the ferry of the lake at `at` on other jetties.
    MoveFerry { at: Pos, ferry: JettyPair },
    /// Skip an optional step: deploy no follower, or move no more ferries.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Draw(k) => write!(f, "draw {k}"),
            Action::Place(p) => write!(f, "place at {} turned {}", p.pos, p.rot),
            Action::Discard => f.write_str("discard"),
            Action::Deploy(l) => write!(f, "deploy on {l}"),
            Action::PlaceFerry(p) => write!(f, "ferry {p}"),
            Action::MoveFerry { at, ferry } => write!(f, "move ferry at {at} to {ferry}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}
