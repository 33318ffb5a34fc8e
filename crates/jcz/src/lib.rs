//! Conversion between JCloisterZone 5.x saved games (`.jcz`) and game
//! records (`carcassonne-record/1`, or `/2` once a figure other than the
//! follower is deployed), for the base game with any of The Ferries, Inns &
//! Cathedrals, Abbey & Mayor, Traders & Builders, The River, The Abbot and
//! The Labyrinth.
//!
//! The crate is pure: it reads and writes text, and checks every game with
//! the engine. [`import`] turns a saved game into a record (refusing, with
//! the place in the file and the reason, anything it cannot represent);
//! [`export`] writes a record as a saved game that JCloisterZone replays.
//! `docs/jcz.md` describes the mapping.
//!
//! ```
//! use carcassonne_engine::Record;
//! let record = Record::from_json(r#"{"format": "carcassonne-record/1",
//!     "setup": {"players": ["Ann", "Bob"], "edition": "c2"},
//!     "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "meeple": "field:NNW"}]}"#).unwrap();
//! let jcz = carcassonne_jcz::export(&record).unwrap();
//! let back = carcassonne_jcz::import(&jcz.text).unwrap();
//! assert_eq!(back.record, record);
//! ```

mod error;
mod export;
mod import;
mod location;
mod tiles;
mod walk;

pub use error::{JczError, JczErrorKind};
pub use export::{export, export_with, Export, ExportOptions};
pub use import::{import, import_record, Import};

use carcassonne_engine::{Action, State, Step};

/// Whether JCloisterZone offers the player a follower step now, just after
/// the tile is placed: only with a follower in supply and a feature of the
/// new tile that holds no follower (counting every tile the feature spans;
/// one completed by this tile counts), or an abbot to take back. Without
/// one, JCloisterZone skips the step and no message says so, while our
/// engine lets the player pass.
pub(crate) fn follower_step_offered(state: &State) -> bool {
    state.step() == Step::Deploy
        && state.legal_action_list().iter().any(|a| matches!(a, Action::Deploy(..) | Action::ReturnAbbot(_)))
}
