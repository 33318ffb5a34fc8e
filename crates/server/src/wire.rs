//! The JSON forms of actions, events and the tile catalogue (see docs/api.md).

use std::sync::LazyLock;

use carcassonne_engine::tile::{catalogue, EdgeKind};
use carcassonne_engine::{
    Action, Bag, Event, FeatureKind, FollowerKind, HalfEdge, JettyPair, Location, NotationError, Placement, Pos,
    Rotation, Side, State,
};
use serde::{Deserialize, Serialize};

use crate::error::GameError;

/// An action as a client sends it: the engine's notation as a string
/// (`"place at [1, 0] turned 90"`), or the same decision as fields
/// (`{"type": "place", "at": [1, 0], "rot": 90}`).
#[derive(Clone, Debug)]
pub enum ActionIn {
    Notation(String),
    Fields(ActionFields),
}

impl<'de> Deserialize<'de> for ActionIn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ActionIn, D::Error> {
        // Read as a JSON value first, so that each form keeps its own error
        // message (an untagged enum would only say that neither matched).
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(text) => Ok(ActionIn::Notation(text)),
            value => ActionFields::deserialize(value).map(ActionIn::Fields).map_err(serde::de::Error::custom),
        }
    }
}

/// An action as named fields.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionFields {
    Place {
        at: [i64; 2],
        rot: i64,
    },
    Discard,
    Deploy {
        meeple: String,
        /// The figure, when not the normal follower (`big`, `builder`, ...).
        #[serde(default)]
        figure: Option<String>,
    },
    Pass,
    Ferry {
        ferry: String,
    },
    Move {
        at: [i64; 2],
        ferry: String,
    },
    Abbey {
        at: [i64; 2],
    },
    Wagon {
        at: [i64; 2],
        to: String,
    },
    /// Takes back the seat's last provisional decision of this turn.
    Undo,
    /// Ends the turn: its provisional decisions become final and the next tile is drawn.
    EndTurn,
}

/// What a seat asks for: an engine action, or (games created with `undo`)
/// taking back or confirming the turn's provisional decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Play(Action),
    Undo,
    EndTurn,
}

fn pos_of(at: [i64; 2]) -> Result<Pos, GameError> {
    match (i32::try_from(at[0]), i32::try_from(at[1])) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(GameError::Malformed(format!("[{}, {}] is not a board position", at[0], at[1]))),
    }
}

fn malformed(e: NotationError) -> GameError {
    GameError::Malformed(e.to_string())
}

impl ActionIn {
    /// The command: `undo`, `end turn`, or an engine action (only the
    /// notation is checked here, the rules by the engine).
    pub fn to_command(&self) -> Result<Command, GameError> {
        match self {
            ActionIn::Notation(text) if text.trim() == "undo" => Ok(Command::Undo),
            ActionIn::Notation(text) if text.trim() == "end turn" => Ok(Command::EndTurn),
            ActionIn::Fields(ActionFields::Undo) => Ok(Command::Undo),
            ActionIn::Fields(ActionFields::EndTurn) => Ok(Command::EndTurn),
            _ => self.to_action().map(Command::Play),
        }
    }

    /// The engine's action; only the notation is checked here, the rules by the engine.
    pub fn to_action(&self) -> Result<Action, GameError> {
        let fields = match self {
            ActionIn::Notation(text) => return text.parse().map_err(malformed),
            ActionIn::Fields(fields) => fields,
        };
        Ok(match fields {
            ActionFields::Place { at, rot } => Action::Place(Placement {
                pos: pos_of(*at)?,
                rot: Rotation::from_degrees(*rot)
                    .ok_or_else(|| GameError::Malformed(format!("rotation {rot} is not one of 0, 90, 180, 270")))?,
            }),
            ActionFields::Discard => Action::Discard,
            ActionFields::Deploy { meeple, figure } => {
                let figure = match figure.as_deref() {
                    None => FollowerKind::Normal,
                    Some(name) => FollowerKind::parse(name)
                        .ok_or_else(|| GameError::Malformed(format!("'{name}' is not a figure")))?,
                };
                Action::Deploy(figure, meeple.parse::<Location>().map_err(malformed)?)
            }
            ActionFields::Pass => Action::Pass,
            ActionFields::Ferry { ferry } => Action::PlaceFerry(ferry.parse::<JettyPair>().map_err(malformed)?),
            ActionFields::Move { at, ferry } => {
                Action::MoveFerry { at: pos_of(*at)?, ferry: ferry.parse::<JettyPair>().map_err(malformed)? }
            }
            ActionFields::Abbey { at } => Action::PlaceAbbey(pos_of(*at)?),
            ActionFields::Wagon { at, to } => {
                Action::MoveWagon { at: pos_of(*at)?, to: to.parse::<Location>().map_err(malformed)? }
            }
            ActionFields::Undo | ActionFields::EndTurn => {
                return Err(GameError::Malformed("undo and end_turn are not moves of the game".into()))
            }
        })
    }
}

/// An action as the server shows it (legal actions, history): its fields,
/// and `text`, the engine's notation of it.
#[derive(Clone, Debug, Serialize)]
pub struct ActionOut {
    #[serde(flatten)]
    pub fields: FieldsOut,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FieldsOut {
    Draw {
        tile: &'static str,
    },
    Place {
        at: [i32; 2],
        rot: u16,
    },
    Discard,
    Deploy {
        meeple: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        figure: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        piece: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        kind: Option<&'static str>,
    },
    Pass,
    Ferry {
        ferry: String,
        /// The road this ferry makes (legal actions only): its tiles.
        #[serde(skip_serializing_if = "Option::is_none")]
        road: Option<Vec<[i32; 2]>>,
    },
    Move {
        at: [i32; 2],
        ferry: String,
        /// The road this crossing makes (legal actions only): its tiles.
        #[serde(skip_serializing_if = "Option::is_none")]
        road: Option<Vec<[i32; 2]>>,
    },
    Abbey {
        at: [i32; 2],
    },
    Wagon {
        at: [i32; 2],
        to: String,
        /// Where the wagon would stand (legal actions only), as for a deployment.
        #[serde(skip_serializing_if = "Option::is_none")]
        piece: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        kind: Option<&'static str>,
    },
    /// Ends a turn whose decisions are provisional (games created with `undo`).
    EndTurn,
}

pub fn xy(p: Pos) -> [i32; 2] {
    [p.x, p.y]
}

impl ActionOut {
    /// The plain form of `a` (no hints).
    pub fn of(a: Action) -> ActionOut {
        let fields = match a {
            Action::Draw(k) => FieldsOut::Draw { tile: k.id() },
            Action::Place(p) => FieldsOut::Place { at: xy(p.pos), rot: p.rot.degrees() },
            Action::Discard => FieldsOut::Discard,
            Action::Deploy(figure, l) => FieldsOut::Deploy {
                meeple: l.to_string(),
                figure: (figure != FollowerKind::Normal).then(|| figure.name()),
                piece: None,
                kind: None,
            },
            Action::Pass => FieldsOut::Pass,
            Action::PlaceFerry(f) => FieldsOut::Ferry { ferry: f.to_string(), road: None },
            Action::MoveFerry { at, ferry } => FieldsOut::Move { at: xy(at), ferry: ferry.to_string(), road: None },
            Action::PlaceAbbey(at) => FieldsOut::Abbey { at: xy(at) },
            Action::MoveWagon { at, to } => {
                FieldsOut::Wagon { at: xy(at), to: to.to_string(), piece: None, kind: None }
            }
        };
        ActionOut { fields, text: a.to_string() }
    }

    /// The end of a turn whose decisions are provisional.
    pub fn end_turn() -> ActionOut {
        ActionOut { fields: FieldsOut::EndTurn, text: "end turn".to_string() }
    }

    /// A legal action of `state`, with the piece a deployment goes on.
    pub fn legal(state: &State, a: Action) -> ActionOut {
        let mut out = ActionOut::of(a);
        if let (Action::Deploy(_, l), FieldsOut::Deploy { piece, kind, .. }) = (a, &mut out.fields) {
            *piece = state
                .placed_tile()
                .and_then(|t| state.board().tile_index(t.pos))
                .and_then(|i| state.resolve(i, l))
                .map(|p| state.features().info(p).local);
            *kind = Some(l.kind().name());
        }
        if let (Action::MoveWagon { at, to }, FieldsOut::Wagon { piece, kind, .. }) = (a, &mut out.fields) {
            *piece =
                state.board().tile_index(at).and_then(|i| state.resolve(i, to)).map(|p| state.features().info(p).local);
            *kind = Some(to.kind().name());
        }
        // A ferry's choices show the road each crossing makes: play it on a
        // copy and take the tiles of the road through the ferry.
        let lake = match a {
            Action::PlaceFerry(f) => state.placed_tile().map(|t| (t.pos, f)),
            Action::MoveFerry { at, ferry } => Some((at, ferry)),
            _ => None,
        };
        if let Some((at, pair)) = lake {
            let mut next = state.clone();
            let tiles = next.play(a).ok().and_then(|()| road_through(&next, at, pair));
            if let FieldsOut::Ferry { road, .. } | FieldsOut::Move { road, .. } = &mut out.fields {
                *road = tiles;
            }
        }
        out
    }
}

/// The tiles of the road that the ferry of the lake at `at`, on the jetties
/// `pair`, is part of.
fn road_through(state: &State, at: Pos, pair: JettyPair) -> Option<Vec<[i32; 2]>> {
    let tile = state.board().tile_index(at)?;
    let piece = state.resolve(tile, Location::Road(pair.sides()[0]))?;
    let mut tiles: Vec<[i32; 2]> = Vec::new();
    for p in state.features().members(state.features().find(piece)) {
        let xy = xy(state.piece_location(p).0);
        if !tiles.contains(&xy) {
            tiles.push(xy);
        }
    }
    Some(tiles)
}

/// One entry of the game log.
#[derive(Clone, Debug, Serialize)]
pub struct LogEntry {
    pub version: u64,
    pub turn: u32,
    /// The engine's event in its wire form (`carcassonne_engine::Event`'s
    /// `Serialize`: a `type` and its fields, as docs/api.md lists them).
    #[serde(flatten)]
    pub event: Event,
}

// ----- the catalogue ------------------------------------------------------

#[derive(Serialize)]
struct CatalogueOut {
    tiles: Vec<TileOut>,
}

#[derive(Serialize)]
struct Counts {
    c3: u8,
    c2: u8,
}

#[derive(Serialize)]
struct TileOut {
    id: &'static str,
    expansion: Option<&'static str>,
    count: Counts,
    start: bool,
    edges: [&'static str; 4],
    lake: bool,
    features: Vec<FeatureOut>,
}

#[derive(Serialize)]
struct FeatureOut {
    index: usize,
    kind: &'static str,
    name: String,
    sides: Vec<&'static str>,
    halves: Vec<&'static str>,
    pennants: u8,
    jetty: bool,
    /// `inn` on a road, `cathedral` in a city (Inns & Cathedrals).
    #[serde(skip_serializing_if = "Option::is_none")]
    mark: Option<&'static str>,
    /// `wine`, `grain` or `cloth` on a city piece (Traders & Builders).
    #[serde(skip_serializing_if = "Option::is_none")]
    good: Option<&'static str>,
    borders: Vec<usize>,
}

fn build_catalogue() -> String {
    let start = Bag::start_tile();
    let tiles = catalogue()
        .kinds
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let features = k
                .def
                .features
                .iter()
                .enumerate()
                .map(|(index, f)| {
                    let sides: Vec<Side> = Side::ALL.into_iter().filter(|s| f.sides & s.bit() != 0).collect();
                    let halves: Vec<HalfEdge> = HalfEdge::ALL.into_iter().filter(|h| f.halves & h.bit() != 0).collect();
                    let name = match f.kind {
                        FeatureKind::Road => sides.first().map(|s| Location::Road(*s)),
                        FeatureKind::City => sides.first().map(|s| Location::City(*s)),
                        FeatureKind::Field => {
                            Some(halves.first().map_or(Location::InnerField, |h| Location::Field(*h)))
                        }
                        FeatureKind::Monastery => Some(Location::Monastery),
                    };
                    FeatureOut {
                        index,
                        kind: f.kind.name(),
                        name: name.map(|l| l.to_string()).unwrap_or_default(),
                        sides: sides.iter().map(|s| s.name()).collect(),
                        halves: halves.iter().map(|h| h.name()).collect(),
                        pennants: f.pennants,
                        jetty: f.jetty,
                        mark: f.mark.then_some(match f.kind {
                            FeatureKind::Road => "inn",
                            _ => "cathedral",
                        }),
                        good: f.good.map(|g| g.name()),
                        borders: (0..16).filter(|b| f.borders & (1 << b) != 0).collect(),
                    }
                })
                .collect();
            TileOut {
                id: k.def.id,
                expansion: k.expansion.map(|e| e.name()),
                count: Counts { c3: k.counts[0], c2: k.counts[1] },
                start: i == start.index(),
                edges: k.edges.map(|e| match e {
                    EdgeKind::Field => "field",
                    EdgeKind::Road => "road",
                    EdgeKind::City => "city",
                }),
                lake: k.lake,
                features,
            }
        })
        .collect();
    serde_json::to_string(&CatalogueOut { tiles }).unwrap_or_else(|_| "{\"tiles\":[]}".to_string())
}

static CATALOGUE_JSON: LazyLock<String> = LazyLock::new(build_catalogue);

/// The tile catalogue as JSON (built once).
pub fn catalogue_json() -> &'static str {
    &CATALOGUE_JSON
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    #[test]
    fn catalogue_names_every_kind() {
        let v: serde_json::Value = serde_json::from_str(catalogue_json()).unwrap();
        let tiles = v["tiles"].as_array().unwrap();
        assert_eq!(tiles.len(), catalogue().kinds.len());
        let d = tiles.iter().find(|t| t["id"] == "D").unwrap();
        assert_eq!(d["start"], true);
        assert_eq!(d["edges"], serde_json::json!(["city", "road", "field", "road"]));
        assert_eq!(d["features"][1]["name"], "road:E");
        let f4 = tiles.iter().find(|t| t["id"] == "F4").unwrap();
        assert_eq!(f4["lake"], true);
        assert_eq!(f4["features"][0]["jetty"], true);
        // Traders & Builders: goods on city pieces, none elsewhere.
        let t1 = tiles.iter().find(|t| t["id"] == "T1").unwrap();
        assert_eq!((t1["expansion"].clone(), t1["features"][0]["good"].clone()), (json!("traders"), json!("grain")));
        assert!(t1["features"][1].get("good").is_none());
        let goods =
            |g: &str| tiles.iter().flat_map(|t| t["features"].as_array().unwrap()).filter(|f| f["good"] == g).count();
        assert_eq!((goods("wine"), goods("grain"), goods("cloth")), (9, 6, 5));
    }

    #[test]
    fn actions_read_as_fields_or_notation_and_show_both() {
        let text = r#"{"type":"move","at":[2,-1],"ferry":"N-S"}"#;
        let a: ActionIn = serde_json::from_str(text).unwrap();
        let action = a.to_action().unwrap();
        assert_eq!(
            serde_json::to_string(&ActionOut::of(action)).unwrap(),
            r#"{"type":"move","at":[2,-1],"ferry":"N-S","text":"move ferry at [2, -1] to N-S"}"#
        );
        let notation: ActionIn = serde_json::from_str(r#""move ferry at [2, -1] to N-S""#).unwrap();
        assert_eq!(notation.to_action().unwrap(), action);
        let big: ActionIn = serde_json::from_str(r#"{"type":"deploy","meeple":"city:N","figure":"big"}"#).unwrap();
        let big = big.to_action().unwrap();
        assert_eq!(big, Action::Deploy(FollowerKind::Big, Location::City(Side::N)));
        assert_eq!(
            serde_json::to_string(&ActionOut::of(big)).unwrap(),
            r#"{"type":"deploy","meeple":"city:N","figure":"big","text":"deploy big on city:N"}"#
        );
        for bad in [
            r#"{"type":"place","at":[1,0],"rot":45}"#,
            r#"{"type":"place","at":[99999999999,0],"rot":0}"#,
            r#"{"type":"deploy","meeple":"city:N","figure":"giant"}"#,
            r#""place at [1, 0] turned 45""#,
            r#""fly""#,
        ] {
            let a: ActionIn = serde_json::from_str(bad).unwrap();
            assert!(matches!(a.to_action(), Err(GameError::Malformed(_))), "{bad}");
        }
        for unreadable in [r#"{"type":"fly"}"#, "17", "null"] {
            assert!(serde_json::from_str::<ActionIn>(unreadable).is_err(), "{unreadable}");
        }
    }
}
