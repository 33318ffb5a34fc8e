//! Actions as named fields: the JSON form beside the notation, for
//! programs that would rather not write or parse text. The server's API
//! shows and accepts it (docs/api.md), every field in the notation's own
//! words:
//!
//! | notation | fields |
//! |---|---|
//! | `draw U` | `{"type": "draw", "tile": "U"}` |
//! | `place at [1, 0] turned 90` | `{"type": "place", "at": [1, 0], "rot": 90}` |
//! | `discard` | `{"type": "discard"}` |
//! | `deploy big on city:N` | `{"type": "deploy", "meeple": "city:N", "figure": "big"}` (no `figure` for the normal follower) |
//! | `pass` | `{"type": "pass"}` |
//! | `ferry E-W` | `{"type": "ferry", "ferry": "E-W"}` |
//! | `move ferry at [1, 0] to S-W` | `{"type": "move", "at": [1, 0], "ferry": "S-W"}` |
//! | `abbey at [1, 1]` | `{"type": "abbey", "at": [1, 1]}` |
//! | `move wagon to road:E at [1, 0]` | `{"type": "wagon", "at": [1, 0], "to": "road:E"}` |
//! | `take back abbot at [1, 0]` | `{"type": "return_abbot", "at": [1, 0]}` |

use serde::{Deserialize, Serialize};

use crate::action::{Action, Location, NotationError};
use crate::board::Placement;
use crate::figure::FollowerKind;
use crate::geometry::{Pos, Rotation};
use crate::tile::TileKind;

/// An action as named fields (see the module's table). Positions and
/// rotations are read as any JSON integer, so that one out of range is
/// refused in the notation's words rather than serde's. Other fields are
/// ignored, so that a client may send back an action as it was shown to
/// it, hints and all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionFields {
    Draw {
        tile: String,
    },
    Place {
        at: [i64; 2],
        rot: i64,
    },
    Discard,
    Deploy {
        meeple: String,
        /// The figure, when not the normal follower (`big`, `builder`, ...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
    ReturnAbbot {
        at: [i64; 2],
    },
}

fn xy(p: Pos) -> [i64; 2] {
    [p.x.into(), p.y.into()]
}

fn pos(at: [i64; 2]) -> Result<Pos, NotationError> {
    match (i32::try_from(at[0]), i32::try_from(at[1])) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(NotationError { text: format!("[{}, {}]", at[0], at[1]), expected: "a board position" }),
    }
}

impl From<Action> for ActionFields {
    fn from(a: Action) -> ActionFields {
        match a {
            Action::Draw(k) => ActionFields::Draw { tile: k.id().to_string() },
            Action::Place(p) => ActionFields::Place { at: xy(p.pos), rot: p.rot.degrees().into() },
            Action::Discard => ActionFields::Discard,
            Action::Deploy(figure, l) => ActionFields::Deploy {
                meeple: l.to_string(),
                figure: (figure != FollowerKind::Normal).then(|| figure.name().to_string()),
            },
            Action::Pass => ActionFields::Pass,
            Action::PlaceFerry(f) => ActionFields::Ferry { ferry: f.to_string() },
            Action::MoveFerry { at, ferry } => ActionFields::Move { at: xy(at), ferry: ferry.to_string() },
            Action::PlaceAbbey(at) => ActionFields::Abbey { at: xy(at) },
            Action::MoveWagon { at, to } => ActionFields::Wagon { at: xy(at), to: to.to_string() },
            Action::ReturnAbbot(at) => ActionFields::ReturnAbbot { at: xy(at) },
        }
    }
}

impl TryFrom<&ActionFields> for Action {
    type Error = NotationError;

    /// The action these fields name; only the notation is checked, not the rules.
    fn try_from(f: &ActionFields) -> Result<Action, NotationError> {
        Ok(match f {
            ActionFields::Draw { tile } => Action::Draw(
                TileKind::parse(tile).ok_or_else(|| NotationError { text: tile.clone(), expected: "a tile's name" })?,
            ),
            ActionFields::Place { at, rot } => Action::Place(Placement {
                pos: pos(*at)?,
                rot: Rotation::from_degrees(*rot).ok_or_else(|| NotationError {
                    text: rot.to_string(),
                    expected: "a rotation (0, 90, 180 or 270)",
                })?,
            }),
            ActionFields::Discard => Action::Discard,
            ActionFields::Deploy { meeple, figure } => {
                let figure = match figure.as_deref() {
                    None => FollowerKind::Normal,
                    Some(name) => FollowerKind::parse(name).ok_or_else(|| NotationError {
                        text: name.to_string(),
                        expected: "a figure (normal, big, builder, pig, mayor, wagon, barn or abbot)",
                    })?,
                };
                Action::Deploy(figure, meeple.parse::<Location>()?)
            }
            ActionFields::Pass => Action::Pass,
            ActionFields::Ferry { ferry } => Action::PlaceFerry(ferry.parse()?),
            ActionFields::Move { at, ferry } => Action::MoveFerry { at: pos(*at)?, ferry: ferry.parse()? },
            ActionFields::Abbey { at } => Action::PlaceAbbey(pos(*at)?),
            ActionFields::Wagon { at, to } => Action::MoveWagon { at: pos(*at)?, to: to.parse()? },
            ActionFields::ReturnAbbot { at } => Action::ReturnAbbot(pos(*at)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_table_of_the_module_holds_both_ways() {
        let rows = [
            ("draw U", json!({"type": "draw", "tile": "U"})),
            ("place at [1, 0] turned 90", json!({"type": "place", "at": [1, 0], "rot": 90})),
            ("discard", json!({"type": "discard"})),
            ("deploy on road:E", json!({"type": "deploy", "meeple": "road:E"})),
            ("deploy big on city:N", json!({"type": "deploy", "meeple": "city:N", "figure": "big"})),
            ("pass", json!({"type": "pass"})),
            ("ferry E-W", json!({"type": "ferry", "ferry": "E-W"})),
            ("move ferry at [1, 0] to S-W", json!({"type": "move", "at": [1, 0], "ferry": "S-W"})),
            ("abbey at [1, 1]", json!({"type": "abbey", "at": [1, 1]})),
            ("move wagon to road:E at [1, 0]", json!({"type": "wagon", "at": [1, 0], "to": "road:E"})),
            ("take back abbot at [1, 0]", json!({"type": "return_abbot", "at": [1, 0]})),
            ("deploy abbot on garden", json!({"type": "deploy", "meeple": "garden", "figure": "abbot"})),
        ];
        for (text, fields) in rows {
            let action: Action = text.parse().unwrap();
            assert_eq!(serde_json::to_value(ActionFields::from(action)).unwrap(), fields, "{text}");
            let read: ActionFields = serde_json::from_value(fields).unwrap();
            assert_eq!(Action::try_from(&read).unwrap(), action, "{text}");
        }
    }

    #[test]
    fn fields_outside_the_notation_are_refused_in_its_words() {
        let refused = |v: serde_json::Value| Action::try_from(&serde_json::from_value::<ActionFields>(v).unwrap());
        let e = refused(json!({"type": "place", "at": [5_000_000_000i64, 0], "rot": 0})).unwrap_err();
        assert_eq!(e.to_string(), "'[5000000000, 0]' is not a board position");
        let e = refused(json!({"type": "place", "at": [1, 0], "rot": 45})).unwrap_err();
        assert_eq!(e.to_string(), "'45' is not a rotation (0, 90, 180 or 270)");
        let e = refused(json!({"type": "deploy", "meeple": "road:E", "figure": "knight"})).unwrap_err();
        assert!(e.to_string().starts_with("'knight' is not a figure"), "{e}");
        let e = refused(json!({"type": "deploy", "meeple": "road:Q"})).unwrap_err();
        assert!(e.to_string().starts_with("'road:Q' is not a feature name"), "{e}");
        assert!(refused(json!({"type": "draw", "tile": "ZZ"})).is_err());
        // An action shown with hints reads back as the action.
        let shown =
            json!({"type": "deploy", "meeple": "road:E", "piece": 1, "kind": "road", "text": "deploy on road:E"});
        assert_eq!(refused(shown).unwrap(), "deploy on road:E".parse().unwrap());
        assert!(serde_json::from_value::<ActionFields>(json!({"type": "fly"})).is_err());
    }
}
