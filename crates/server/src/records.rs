//! Records opened in the browser (`POST /api/records/view`): a game record
//! (`carcassonne-record/1` or `/2`) or a JCloisterZone saved game (`.jcz`),
//! checked by replaying it with the engine, shown a version at a time as the
//! server shows its own games. Nothing is stored: the browser keeps the
//! record and sends it with each step.

use std::sync::Arc;

use carcassonne_engine::record::Record;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{clip, GameError};
use crate::live::{Live, Meta, SeatKind, SeatRow};

/// Largest body of `POST /api/records/view`: a saved game of a long game
/// with six players fits with room to spare.
pub const MAX_RECORD_BODY: usize = 512 * 1024;

#[derive(Deserialize)]
pub struct RecordRequest {
    /// A file's text, as opened: a record or a JCloisterZone saved game.
    #[serde(default)]
    pub file: Option<String>,
    /// A record as this endpoint gave it back before.
    #[serde(default)]
    pub record: Option<Value>,
    /// The version to show (default 1, the start).
    #[serde(default)]
    pub version: Option<u64>,
}

/// Reads a file's text: a record if it says so, else a JCloisterZone save.
fn read_file(text: &str) -> Result<Record, GameError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| GameError::InvalidRecord(format!("the file is not JSON (a record or a .jcz saved game): {e}")))?;
    let is_record = value.get("format").and_then(Value::as_str).is_some_and(|f| f.starts_with("carcassonne-record"));
    if is_record {
        return read_record(value);
    }
    if value.get("appVersion").is_none() && value.get("replay").is_none() {
        return Err(GameError::InvalidRecord(
            "the file is neither a game record (its \"format\" is carcassonne-record/1 or /2) nor a JCloisterZone saved game"
                .into(),
        ));
    }
    carcassonne_jcz::import_record(text).map_err(|e| GameError::InvalidRecord(format!("JCloisterZone saved game: {e}")))
}

fn read_record(value: Value) -> Result<Record, GameError> {
    let text = value.to_string();
    Record::from_json(&text).map_err(|e| GameError::InvalidRecord(format!("record: {e}")))
}

/// The answer: the version asked for (and, for a file, the record and its history).
pub fn answer(req: RecordRequest) -> Result<String, GameError> {
    let (record, first) = match (req.file, req.record) {
        (Some(text), _) => (read_file(&text)?, true),
        (None, Some(value)) => (read_record(value)?, false),
        (None, None) => return Err(GameError::Malformed("send a \"file\" or a \"record\"".into())),
    };
    let (at, total) = replay_to(&record, req.version.unwrap_or(1))?;
    let view = at.view_json(false);
    if !first {
        return Ok(format!("{{\"versions\":{total},\"view\":{view}}}"));
    }
    let end = if at.version == total { at } else { live_at(&record, total, total)? };
    let history = end.history_json();
    Ok(format!("{{\"versions\":{total},\"record\":{},\"history\":{history},\"view\":{view}}}", record.to_json()))
}

/// `POST /api/records/feature`: the feature inspector on a record opened
/// in the browser, at one of its versions.
#[derive(Deserialize)]
pub struct RecordFeatureRequest {
    /// The record, as `/api/records/view` gave it back.
    pub record: Value,
    pub version: u64,
    pub at: [i64; 2],
    pub piece: usize,
}

/// What the inspector tells of the feature of piece `piece` of the tile at
/// `at`, in the record's game at `version`.
pub fn feature(req: RecordFeatureRequest) -> Result<crate::inspect::FeatureReport, GameError> {
    let record = read_record(req.record)?;
    let (at, _) = replay_to(&record, req.version)?;
    let pos = match (i32::try_from(req.at[0]), i32::try_from(req.at[1])) {
        (Ok(x), Ok(y)) => carcassonne_engine::Pos::new(x, y),
        _ => return Err(GameError::Malformed("not a board position".into())),
    };
    crate::inspect::inspect(at.state(), pos, req.piece)
}

/// The record's game at `version` (checked whole first: every turn, or the
/// first broken one named), and how many versions it has.
fn replay_to(record: &Record, version: u64) -> Result<(Live, u64), GameError> {
    let total: usize = record
        .actions()
        .map_err(|e| GameError::InvalidRecord(format!("record: {}", clip(&e.to_string(), 300))))?
        .iter()
        .map(Vec::len)
        .sum();
    let total = total as u64;
    if version == 0 || version > total {
        return Err(GameError::NotFound(format!("versions of this record run from 1 to {total}, not {version}")));
    }
    Ok((live_at(record, version, total)?, total))
}

fn live_at(record: &Record, version: u64, total: u64) -> Result<Live, GameError> {
    let seats = record
        .setup
        .players
        .iter()
        .map(|name| SeatRow {
            name: name.clone(),
            kind: SeatKind::Human,
            level: None,
            token: None,
            undo: false,
            colour: None,
            hints: false,
        })
        .collect();
    let meta = Arc::new(Meta { id: "record".into(), created: 0, seed: 0, seats, rated: false });
    if version == total { Live::rebuild(meta, record, version) } else { Live::rebuild_past(meta, record, version) }
        .map_err(GameError::InvalidRecord)
}
