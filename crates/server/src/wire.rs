//! The JSON forms of actions, events and the tile catalogue (see docs/api.md).

use std::sync::LazyLock;

use carcassonne_engine::catalogue::catalogue;
use carcassonne_engine::tile::EdgeKind;
use carcassonne_engine::{
    Action, ActionFields, Bag, Edition, Event, Expansion, FeatureKind, HalfEdge, JettyPair, Location, NotationError,
    Pos, Rules, Side, State, TileKind,
};
use serde::{Deserialize, Serialize};

use crate::error::GameError;

/// An action as a client sends it: the engine's notation as a string
/// (`"place at [1, 0] turned 90"`), or the same decision as the engine's
/// fields (`{"type": "place", "at": [1, 0], "rot": 90}`), or one of the
/// server's own commands, `undo` and `end_turn` (in either form).
#[derive(Clone, Debug)]
pub enum ActionIn {
    Notation(String),
    Fields(ActionFields),
    Undo,
    EndTurn,
}

impl<'de> Deserialize<'de> for ActionIn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ActionIn, D::Error> {
        // Read as a JSON value first, so that each form keeps its own error
        // message (an untagged enum would only say that neither matched).
        let value = serde_json::Value::deserialize(d)?;
        match &value {
            serde_json::Value::String(text) => return Ok(ActionIn::Notation(text.clone())),
            serde_json::Value::Object(o) => match o.get("type").and_then(|t| t.as_str()) {
                Some("undo") => return Ok(ActionIn::Undo),
                Some("end_turn") => return Ok(ActionIn::EndTurn),
                _ => {}
            },
            _ => {}
        }
        ActionFields::deserialize(value).map(ActionIn::Fields).map_err(serde::de::Error::custom)
    }
}

/// What a seat asks for: an engine action, or (games created with `undo`)
/// taking back or confirming the turn's provisional decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Play(Action),
    Undo,
    EndTurn,
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
            ActionIn::Undo => Ok(Command::Undo),
            ActionIn::EndTurn => Ok(Command::EndTurn),
            _ => self.to_action().map(Command::Play),
        }
    }

    /// The engine's action; only the notation is checked here, the rules by the engine.
    pub fn to_action(&self) -> Result<Action, GameError> {
        match self {
            ActionIn::Notation(text) => text.parse().map_err(malformed),
            ActionIn::Fields(fields) => Action::try_from(fields).map_err(malformed),
            ActionIn::Undo | ActionIn::EndTurn => {
                Err(GameError::Malformed("undo and end_turn are not moves of the game".into()))
            }
        }
    }
}

/// An action as the server shows it (legal actions, history): the engine's
/// fields, hints for the UI on legal actions, and `text`, the engine's
/// notation of it.
#[derive(Clone, Debug, Serialize)]
pub struct ActionOut {
    #[serde(flatten)]
    pub fields: FieldsOut,
    #[serde(flatten)]
    pub hints: Hints,
    pub text: String,
}

/// The fields of an action, or the end of a turn whose decisions are
/// provisional (games created with `undo`), which is the server's own.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum FieldsOut {
    Action(ActionFields),
    Command(CommandOut),
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CommandOut {
    EndTurn,
}

/// What a legal action does on the board, for the UI.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Hints {
    /// The piece of its tile that a deployment or a wagon goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<u8>,
    /// The kind of that feature (`road`, `city`, `field`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// The road a ferry's placement or move makes: its tiles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub road: Option<Vec<[i32; 2]>>,
}

pub fn xy(p: Pos) -> [i32; 2] {
    [p.x, p.y]
}

impl ActionOut {
    /// The plain form of `a` (no hints).
    pub fn of(a: Action) -> ActionOut {
        ActionOut { fields: FieldsOut::Action(a.into()), hints: Hints::default(), text: a.to_string() }
    }

    /// The end of a turn whose decisions are provisional.
    pub fn end_turn() -> ActionOut {
        ActionOut { fields: FieldsOut::Command(CommandOut::EndTurn), hints: Hints::default(), text: "end turn".into() }
    }

    /// A legal action of `state`, with the piece a deployment or a wagon
    /// goes on, and the road a ferry makes.
    pub fn legal(state: &State, a: Action) -> ActionOut {
        let mut out = ActionOut::of(a);
        let on = match a {
            Action::Deploy(_, l) => state.placed_tile().and_then(|t| state.board().tile_index(t.pos)).map(|i| (i, l)),
            Action::MoveWagon { at, to } => state.board().tile_index(at).map(|i| (i, to)),
            _ => None,
        };
        if let Some((tile, l)) = on {
            out.hints.piece = state.resolve(tile, l).map(|p| state.features().info(p).local);
            out.hints.kind = Some(l.kind().name());
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
            out.hints.road = next.play(a).ok().and_then(|()| road_through(&next, at, pair));
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
    /// A tile that starts a game: D, or The River's spring.
    start: bool,
    edges: [&'static str; 4],
    lake: bool,
    /// The sides a river reaches (The River), as `edges` has them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    river: Vec<&'static str>,
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
    let starts: Vec<TileKind> = [&[][..], &[Expansion::River]]
        .iter()
        .filter_map(|e| Rules::new(2, e, Edition::default()).ok())
        .map(|r| Bag::start_for(&r))
        .collect();
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
                        FeatureKind::Garden => Some(Location::Garden),
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
                start: starts.iter().any(|s| s.index() == i),
                edges: k.edges.map(|e| match e {
                    EdgeKind::Field => "field",
                    EdgeKind::Road => "road",
                    EdgeKind::City => "city",
                    EdgeKind::River => "river",
                }),
                lake: k.lake,
                river: Side::ALL.into_iter().filter(|s| k.river & s.bit() != 0).map(|s| s.name()).collect(),
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
        assert_eq!(big, Action::Deploy(carcassonne_engine::FollowerKind::Big, Location::City(Side::N)));
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
