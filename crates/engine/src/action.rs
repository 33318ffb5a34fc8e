//! Decisions: what chance or a player does at a step of the turn, and their
//! one text form (the notation of records, the server, `play` and the bots):
//!
//! | action | written |
//! |---|---|
//! | `Draw` | `draw U` |
//! | `Place` | `place at [1, 0] turned 90` |
//! | `Discard` | `discard` |
//! | `Deploy` | `deploy on road:E` (the normal follower), `deploy big on city:N` |
//! | `PlaceFerry` | `ferry E-W` |
//! | `MoveFerry` | `move ferry at [1, 0] to S-W` |
//! | `PlaceAbbey` | `abbey at [1, 1]` |
//! | `MoveWagon` | `move wagon to road:E at [1, 0]` |
//! | `ReturnAbbot` | `take back abbot at [1, 0]` |
//! | `Pass` | `pass` |
//!
//! `Display` writes it, `FromStr` reads exactly that form (anything else is
//! refused), and serde uses it as a string.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::board::Placement;
use crate::figure::FollowerKind;
use crate::geometry::{Corner, HalfEdge, Pos, Rotation, Side};
pub use crate::tile::Location;
use crate::tile::TileKind;

/// Text that is not in the notation.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("'{text}' is not {expected}")]
pub struct NotationError {
    /// The text refused.
    pub text: String,
    /// What was expected, such as "a feature name (road:E, city:N, field:SSE or monastery)".
    pub expected: &'static str,
}

impl NotationError {
    fn new(text: &str, expected: &'static str) -> NotationError {
        NotationError { text: text.to_string(), expected }
    }
}

/// Serde as the notation's string, for the types that have one.
macro_rules! serde_as_notation {
    ($ty:ty) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

/// Where the turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
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
    /// Abbey & Mayor: before drawing, the player may place their abbey in a
    /// hole instead (and, after the last tile, once more).
    Abbey,
    /// Abbey & Mayor: after scoring, a wagon's owner may move it on.
    MoveWagon,
}

impl Step {
    /// How many steps there are.
    pub const COUNT: usize = 8;

    pub const fn name(self) -> &'static str {
        match self {
            Step::Draw => "draw a tile",
            Step::Place => "place the tile",
            Step::Deploy => "deploy a follower",
            Step::PlaceFerry => "place a ferry",
            Step::MoveFerries => "move ferries",
            Step::GameOver => "game over",
            Step::Abbey => "place an abbey or draw",
            Step::MoveWagon => "move a wagon",
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

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Road(s) => write!(f, "road:{s}"),
            Location::City(s) => write!(f, "city:{s}"),
            Location::Field(h) => write!(f, "field:{h}"),
            Location::Monastery => f.write_str("monastery"),
            Location::Garden => f.write_str("garden"),
            Location::InnerField => f.write_str("field:inner"),
            Location::InnerField2 => f.write_str("field:inner2"),
            Location::Corner(c) => write!(f, "corner:{c}"),
        }
    }
}

impl FromStr for Location {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Location, NotationError> {
        let bad = || {
            NotationError::new(
                s,
                "a feature name (road:E, city:N, field:SSE, field:inner, monastery, garden or corner:NW)",
            )
        };
        match s {
            "monastery" => return Ok(Location::Monastery),
            "garden" => return Ok(Location::Garden),
            "field:inner" => return Ok(Location::InnerField),
            "field:inner2" => return Ok(Location::InnerField2),
            _ => {}
        }
        let (kind, at) = s.split_once(':').ok_or_else(bad)?;
        match kind {
            "road" => Side::parse(at).map(Location::Road).ok_or_else(bad),
            "city" => Side::parse(at).map(Location::City).ok_or_else(bad),
            "field" => HalfEdge::parse(at).map(Location::Field).ok_or_else(bad),
            "corner" => Corner::parse(at).map(Location::Corner).ok_or_else(bad),
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
    type Err = NotationError;

    fn from_str(s: &str) -> Result<JettyPair, NotationError> {
        let bad = || NotationError::new(s, "a pair of jetties such as E-W");
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        let (a, b) = (Side::parse(a).ok_or_else(bad)?, Side::parse(b).ok_or_else(bad)?);
        JettyPair::new(a, b).ok_or_else(bad)
    }
}

/// A decision of chance or of the player to act. The order (`Ord`) is a
/// total order for search structures, not a preference.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Action {
    /// Chance: this tile is drawn from the bag.
    Draw(TileKind),
    /// Place the drawn tile.
    Place(Placement),
    /// The drawn tile fits nowhere: it leaves the game, and the player draws again.
    Discard,
    /// Deploy a figure of this kind from supply on a feature of the tile
    /// just placed (the normal follower in the base game).
    Deploy(FollowerKind, Location),
    /// The Ferries: put the new ferry on two jetties of the lake just placed.
    PlaceFerry(JettyPair),
    /// The Ferries: put the ferry of the lake at `at` on other jetties.
    MoveFerry { at: Pos, ferry: JettyPair },
    /// Abbey & Mayor: place the player's abbey in the hole at this cell,
    /// instead of drawing.
    PlaceAbbey(Pos),
    /// Abbey & Mayor: move the wagon whose feature was scored onto this
    /// feature of the tile at `at`.
    MoveWagon { at: Pos, to: Location },
    /// The Abbot: instead of deploying, take back the abbot on the
    /// monastery or garden of the tile at `at`, scoring it as it stands.
    ReturnAbbot(Pos),
    /// Skip an optional step: deploy no follower, move no more ferries,
    /// draw instead of placing an abbey, or take a wagon back.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Draw(k) => write!(f, "draw {k}"),
            Action::Place(p) => write!(f, "place at {} turned {}", p.pos, p.rot),
            Action::Discard => f.write_str("discard"),
            Action::Deploy(FollowerKind::Normal, l) => write!(f, "deploy on {l}"),
            Action::Deploy(kind, l) => write!(f, "deploy {kind} on {l}"),
            Action::PlaceFerry(p) => write!(f, "ferry {p}"),
            Action::MoveFerry { at, ferry } => write!(f, "move ferry at {at} to {ferry}"),
            Action::PlaceAbbey(at) => write!(f, "abbey at {at}"),
            Action::MoveWagon { at, to } => write!(f, "move wagon to {to} at {at}"),
            Action::ReturnAbbot(at) => write!(f, "take back abbot at {at}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

const ACTION: &str = "an action (draw U, place at [1, 0] turned 90, discard, deploy on road:E, deploy big on city:N, \
                      ferry E-W, move ferry at [1, 0] to S-W, abbey at [1, 1], move wagon to road:E at [1, 0], take back abbot at [1, 0] or pass)";

impl FromStr for Action {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Action, NotationError> {
        let bad = || NotationError::new(s, ACTION);
        // `[x, y]` exactly as `Pos` writes it.
        let pos = |s: &str| -> Option<Pos> {
            let (x, y) = s.strip_prefix('[')?.strip_suffix(']')?.split_once(", ")?;
            let coordinate = |w: &str| w.parse::<i32>().ok().filter(|_| !w.starts_with('+'));
            Some(Pos::new(coordinate(x)?, coordinate(y)?))
        };
        if s == "pass" {
            Ok(Action::Pass)
        } else if s == "discard" {
            Ok(Action::Discard)
        } else if let Some(tile) = s.strip_prefix("draw ") {
            TileKind::parse(tile).map(Action::Draw).ok_or_else(bad)
        } else if let Some(rest) = s.strip_prefix("place at ") {
            let (at, rot) = rest.split_once(" turned ").ok_or_else(bad)?;
            let rot = rot.parse::<i64>().ok().and_then(Rotation::from_degrees).ok_or_else(bad)?;
            Ok(Action::Place(Placement { pos: pos(at).ok_or_else(bad)?, rot }))
        } else if let Some(loc) = s.strip_prefix("deploy on ") {
            Ok(Action::Deploy(FollowerKind::Normal, loc.parse()?))
        } else if let Some(rest) = s.strip_prefix("deploy ") {
            // Any figure but the normal follower is named: `deploy big on city:N`.
            let (kind, loc) = rest.split_once(" on ").ok_or_else(bad)?;
            let kind = FollowerKind::parse(kind).filter(|k| *k != FollowerKind::Normal).ok_or_else(bad)?;
            Ok(Action::Deploy(kind, loc.parse()?))
        } else if let Some(p) = s.strip_prefix("ferry ") {
            p.parse().map(Action::PlaceFerry)
        } else if let Some(rest) = s.strip_prefix("move ferry at ") {
            let (at, p) = rest.split_once(" to ").ok_or_else(bad)?;
            Ok(Action::MoveFerry { at: pos(at).ok_or_else(bad)?, ferry: p.parse()? })
        } else if let Some(at) = s.strip_prefix("abbey at ") {
            Ok(Action::PlaceAbbey(pos(at).ok_or_else(bad)?))
        } else if let Some(at) = s.strip_prefix("take back abbot at ") {
            Ok(Action::ReturnAbbot(pos(at).ok_or_else(bad)?))
        } else if let Some(rest) = s.strip_prefix("move wagon to ") {
            let (to, at) = rest.split_once(" at ").ok_or_else(bad)?;
            Ok(Action::MoveWagon { at: pos(at).ok_or_else(bad)?, to: to.parse()? })
        } else {
            Err(bad())
        }
    }
}

serde_as_notation!(Action);
serde_as_notation!(Location);
serde_as_notation!(JettyPair);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_from_its_text() {
        let u = TileKind::parse("U").unwrap();
        let all = [
            Action::Draw(u),
            Action::Place(Placement { pos: Pos::new(-3, 12), rot: Rotation::R270 }),
            Action::Discard,
            Action::Deploy(FollowerKind::Normal, Location::Field(HalfEdge::Sse)),
            Action::Deploy(FollowerKind::Normal, Location::Monastery),
            Action::Deploy(FollowerKind::Big, Location::City(Side::N)),
            Action::Deploy(FollowerKind::Builder, Location::Road(Side::E)),
            Action::PlaceFerry(JettyPair::new(Side::E, Side::W).unwrap()),
            Action::MoveFerry { at: Pos::new(1, 0), ferry: JettyPair::new(Side::S, Side::W).unwrap() },
            Action::Pass,
            Action::PlaceAbbey(Pos::new(-1, 2)),
            Action::MoveWagon { at: Pos::new(0, -1), to: Location::Monastery },
            Action::Deploy(FollowerKind::Barn, Location::Corner(Corner::Se)),
            Action::Deploy(FollowerKind::Normal, Location::InnerField2),
            Action::Deploy(FollowerKind::Abbot, Location::Garden),
            Action::ReturnAbbot(Pos::new(2, -1)),
        ];
        for a in all {
            assert_eq!(a.to_string().parse::<Action>(), Ok(a), "{a}");
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(json, format!("\"{a}\""));
            assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
        }
        assert_eq!(all[1].to_string(), "place at [-3, 12] turned 270");
        assert_eq!(all[8].to_string(), "move ferry at [1, 0] to S-W");
        assert_eq!(all[5].to_string(), "deploy big on city:N");
        assert_eq!(all[10].to_string(), "abbey at [-1, 2]");
        assert_eq!(all[11].to_string(), "move wagon to monastery at [0, -1]");
        assert_eq!(all[12].to_string(), "deploy barn on corner:SE");
        assert_eq!(all[14].to_string(), "deploy abbot on garden");
        assert_eq!(all[15].to_string(), "take back abbot at [2, -1]");
    }

    #[test]
    fn text_outside_the_notation_is_refused() {
        for text in [
            "",
            "draw",
            "draw Z",
            "place 1 0",
            "place 1 0 45",
            "place 1  0 90",
            "place +1 0 90",
            " pass",
            "pass ",
            "deploy road:Q",
            "deploy normal on road:E",
            "deploy giant on road:E",
            "deploy big road:E",
            "place-ferry E-E",
            "move-ferry 1 0",
            "move-ferry x 0 E-W",
            "PASS",
            "abbey at 1 1",
            "abbey [1, 1]",
            "move wagon to road:E",
            "move wagon to corner:XX at [1, 0]",
            "deploy barn on corner:N",
            "take back abbot",
            "take back abbot [1, 0]",
            "take back at [1, 0]",
        ] {
            assert!(text.parse::<Action>().is_err(), "{text:?}");
        }
    }
}
