//! Game records (formats `carcassonne-record/1` and `/2`): their data and
//! how they read and write as JSON. Playing one, and the match type that
//! keeps a record beside a [`State`], are [`crate::game`]'s.
//!
//! A record is the setup plus one entry per turn, naming the tile drawn, so a
//! replay needs no random generator. Reading validates everything: a record
//! that is malformed, names something that does not exist or holds an illegal
//! turn is refused with the turn (counting from 1) and a typed reason.
//!
//! Version 1 names each decision of the base game and The Ferries by a field
//! (`at`, `meeple`, `ferry`, `moves`); version 2 lists a turn's decisions as
//! [`Action`]s in their one notation, so any expansion's decisions fit. One
//! pair of functions turns a record into actions and back
//! ([`Record::actions`], [`Record::from_actions`]); version 1 is written
//! whenever it can hold the game.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::{Action, NotationError, Step};
use crate::error::{PlayError, SetupError};
use crate::figure::FollowerKind;
use crate::setup::{Edition, Expansion, LabyrinthVariant, Rules, WagonMove, TINY_CITY_STANDARD};
use crate::state::State;
use crate::tile::TileKind;

/// The format tag of version 1.
pub const FORMAT_V1: &str = "carcassonne-record/1";
/// The format tag of version 2: turns list their actions.
pub const FORMAT_V2: &str = "carcassonne-record/2";

/// A game record as stored: JSON, fields as in the record format.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Record {
    pub format: String,
    pub setup: Setup,
    #[serde(default)]
    pub turns: Vec<Turn>,
}

/// The `setup` object of a record.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Setup {
    pub players: Vec<String>,
    #[serde(default)]
    pub expansions: Vec<Expansion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<Edition>,
    /// Seed of the bag's shuffle, for a game still being played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Rule variants; absent for the standard rules.
    #[serde(default, skip_serializing_if = "RuleOptions::is_empty")]
    pub rules: RuleOptions,
}

/// The `setup.rules` object of a record: rule variants by name. A name this
/// program does not know is refused, since the game could not be replayed
/// as it was played.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOptions {
    /// What a completed city of exactly two tiles scores without a pennant:
    /// 4 (standard, also when absent) or 2.
    #[serde(rename = "tiny-city-scoring", default, skip_serializing_if = "Option::is_none")]
    pub tiny_city_scoring: Option<u32>,
    /// The expansions (of those in play) whose tiles are in the bag; absent:
    /// all of them.
    #[serde(rename = "tile-sets", default, skip_serializing_if = "Option::is_none")]
    pub tile_sets: Option<Vec<Expansion>>,
    /// Figures a player starts with, by figure name (`normal`, `big`,
    /// `mayor`, `wagon`, `barn`), where they differ from what the
    /// expansions give; 0 leaves a figure out.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, u8>,
    /// Abbeys a player starts with, where not one (Abbey & Mayor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbeys: Option<u8>,
    /// Where a scored wagon may move: `C2` (standard, also when absent) or `C1`.
    #[serde(rename = "wagon-move", default, skip_serializing_if = "Option::is_none")]
    pub wagon_move: Option<WagonMove>,
    /// How a road through the labyrinth scores: `advanced` (standard, also
    /// when absent: 2 more a figure on it) or `basic`.
    #[serde(rename = "labyrinth-variant", default, skip_serializing_if = "Option::is_none")]
    pub labyrinth_variant: Option<LabyrinthVariant>,
}

impl RuleOptions {
    /// The variants of `rules`, naming only those that differ from the
    /// standard rules of its expansions.
    pub fn of(rules: &Rules) -> RuleOptions {
        let tiny = rules.tiny_city_scoring();
        let standard = Rules::new(rules.players(), &rules.expansions().collect::<Vec<_>>(), rules.edition())
            .expect("rules that were valid stay valid");
        let tile_sets = (rules.tile_sets().ne(rules.expansions())).then(|| rules.tile_sets().collect());
        let figures = FollowerKind::ALL
            .into_iter()
            .filter(|&k| rules.figure_count(k) != standard.figure_count(k))
            .map(|k| (k.name().to_string(), rules.figure_count(k)))
            .collect();
        RuleOptions {
            tiny_city_scoring: (tiny != TINY_CITY_STANDARD).then_some(tiny),
            tile_sets,
            figures,
            abbeys: (rules.abbeys() != standard.abbeys()).then_some(rules.abbeys()),
            wagon_move: (rules.wagon_move() != WagonMove::C2).then_some(rules.wagon_move()),
            labyrinth_variant: (rules.labyrinth_variant() != LabyrinthVariant::Advanced)
                .then_some(rules.labyrinth_variant()),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == RuleOptions::default()
    }

    /// `rules` with these variants.
    pub fn apply(&self, mut rules: Rules) -> Result<Rules, SetupError> {
        if let Some(points) = self.tiny_city_scoring {
            rules = rules.with_tiny_city_scoring(points)?;
        }
        if let Some(sets) = &self.tile_sets {
            rules = rules.with_tile_sets(sets)?;
        }
        for (name, &n) in &self.figures {
            let kind = FollowerKind::parse(name).ok_or_else(|| SetupError::UnknownFigureName(name.clone()))?;
            rules = rules.with_figures(kind, n)?;
        }
        if let Some(n) = self.abbeys {
            rules = rules.with_abbeys(n)?;
        }
        if let Some(rule) = self.wagon_move {
            rules = rules.with_wagon_move(rule)?;
        }
        if let Some(variant) = self.labyrinth_variant {
            rules = rules.with_labyrinth_variant(variant)?;
        }
        Ok(rules)
    }
}

/// One entry of `turns`: a turn, from its draw to the next turn's.
///
/// Version 1 uses `tile` and the fields after it; version 2 uses `tile`
/// (absent for a turn that begins without a draw), `player` and `actions`.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Turn {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tile: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[i64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rot: Option<i64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub discard: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeple: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ferry: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<FerryMove>,
    /// Version 2: the seat whose turn it is (checked when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<usize>,
    /// Version 2: whether this is a second turn of the same player, given
    /// by their builder (Traders & Builders); written `true` on each second
    /// turn, and checked when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<bool>,
    /// Version 2: every decision after the draw, in order, each made by
    /// whoever is to act then, passes included.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// Both versions: the seats that asked for a hint (the strongest bot's
    /// choice) during this turn, once per hint. Hints change nothing in the
    /// game; they are written so that a review and the final scores can
    /// say who used them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<usize>,
}

/// One entry of a turn's `moves`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct FerryMove {
    pub at: [i64; 2],
    pub ferry: String,
}

impl Turn {
    /// Whether this entry holds only the drawn tile: a game in progress,
    /// waiting for the tile's placement.
    pub fn is_pending(&self) -> bool {
        self.at.is_none()
            && self.rot.is_none()
            && !self.discard
            && self.meeple.is_none()
            && self.ferry.is_none()
            && self.moves.is_empty()
            && self.actions.is_empty()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why a record cannot be read or replayed.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum RecordError {
    #[error("not a game record: {0}")]
    Malformed(String),
    #[error("unknown record format '{0}' (this program reads {FORMAT_V1} and {FORMAT_V2})")]
    Format(String),
    #[error("setup: {}{}", if .0.is_rule_option() { "rules: " } else { "" }, .0)]
    Setup(#[from] SetupError),
    #[error("turn {turn}: {error}")]
    Turn { turn: usize, error: TurnError },
    /// An action given to [`Record::from_actions`] (counting from 0) is refused.
    #[error("action {index}: {error}")]
    Action { index: usize, error: PlayError },
    /// [`Record::actions_upto`] was asked for more actions than the record holds.
    #[error("the record holds {held} actions, not {count}")]
    TooFewActions { count: usize, held: usize },
}

impl RecordError {
    /// The rules' refusal behind this error, if it is one.
    pub fn play_error(&self) -> Option<&PlayError> {
        match self {
            RecordError::Turn { error: TurnError::Play(e), .. } | RecordError::Action { error: e, .. } => Some(e),
            _ => None,
        }
    }

    /// A stable name of what is wrong, for tests and programs.
    pub fn kind(&self) -> &'static str {
        match self {
            RecordError::Malformed(_) => "malformed",
            RecordError::Format(_) => "format",
            RecordError::Setup(e) => e.kind(),
            RecordError::Turn { error, .. } => error.kind(),
            RecordError::Action { error, .. } => error.kind(),
            RecordError::TooFewActions { .. } => "too-few-actions",
        }
    }

    /// The numbered ruling broken, if any (see [`PlayError::ruling`]).
    pub fn ruling(&self) -> Option<&'static str> {
        match self {
            RecordError::Turn { error, .. } => error.ruling(),
            RecordError::Action { error, .. } => error.ruling(),
            _ => None,
        }
    }

    /// The turn refused (counting from 1), for a refused turn.
    pub fn turn(&self) -> Option<usize> {
        match self {
            RecordError::Turn { turn, .. } => Some(*turn),
            _ => None,
        }
    }
}

/// Why one entry of `turns` is refused: the rules refuse one of its
/// decisions, or the entry itself is not well formed.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum TurnError {
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error("there is no tile '{0}'")]
    UnknownTile(String),
    #[error("rotation {0} is not one of 0, 90, 180, 270")]
    BadRotation(i64),
    #[error("[{0}, {1}] is far off the board: a tile must share an edge with a placed tile")]
    OffBoard(i64, i64),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("a discarded tile is not placed: 'discard' goes without 'at', 'rot', 'meeple', 'ferry' and 'moves'")]
    DiscardPlaced,
    #[error("a turn places its tile ('at' and 'rot') or discards it ('discard': true)")]
    NotPlaced,
    #[error(
        "only the last entry may hold only 'tile' (the drawn tile waiting to be placed); \
         every other entry places its tile ('at' and 'rot') or discards it ('discard': true)"
    )]
    PendingNotLast,
    #[error("a lake tile takes a ferry: 'ferry' names the two jetties it joins (F3)")]
    FerryMissing,
    #[error("tile {0} has no lake for a ferry")]
    NoLake(TileKind),
    #[error("a version-2 entry holds 'tile', 'player' and 'actions' only")]
    MixedFields,
    #[error(
        "this turn is player {expected}'s{}, not player {named}'s",
        if *.second { " second turn (a tile of theirs extended their builder's road or city)" } else { "" }
    )]
    WrongPlayer { named: usize, expected: usize, second: bool },
    #[error(
        "this turn {}: a second turn follows a turn whose tile extended its player's builder's road or city, and gives no third",
        if *.0 { "is no second turn" } else { "is a second turn" }
    )]
    SecondTurn(bool),
    #[error("the entry ends before the turn does (at the step '{0}'); only the last entry may")]
    Unfinished(Step),
    #[error("the turn is over after {0} of the entry's actions; the next turn is a new entry")]
    Overlong(usize),
    #[error("a hint was asked for by player {seat}, and the game has players 0 to {last}", last = .players - 1)]
    HintSeat { seat: usize, players: usize },
}

impl TurnError {
    /// A stable name of what is wrong: the [`PlayError::kind`] of a refused
    /// decision, or the entry's own fault.
    pub fn kind(&self) -> &'static str {
        match self {
            TurnError::Play(e) => e.kind(),
            TurnError::UnknownTile(_) => "unknown-tile",
            TurnError::BadRotation(_) => "bad-rotation",
            TurnError::OffBoard(..) => "off-board",
            TurnError::Notation(_) => "notation",
            TurnError::DiscardPlaced => "discard-placed",
            TurnError::NotPlaced => "not-placed",
            TurnError::PendingNotLast => "pending-not-last",
            TurnError::FerryMissing => "ferry-missing",
            TurnError::NoLake(_) => "no-lake",
            TurnError::MixedFields => "mixed-fields",
            TurnError::WrongPlayer { .. } => "wrong-player",
            TurnError::SecondTurn(_) => "second-turn",
            TurnError::Unfinished(_) => "unfinished",
            TurnError::Overlong(_) => "overlong",
            TurnError::HintSeat { .. } => "hint-seat",
        }
    }

    /// The numbered ruling broken, if any.
    pub fn ruling(&self) -> Option<&'static str> {
        match self {
            TurnError::Play(e) => e.ruling(),
            TurnError::FerryMissing | TurnError::NoLake(_) => Some("F3"),
            _ => None,
        }
    }
}

impl Record {
    /// Parses a record from JSON text (structure only; see [`Game::replay`]).
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let record: Record = serde_json::from_str(text)
            .map_err(|e| setup_error(text).unwrap_or_else(|| RecordError::Malformed(e.to_string())))?;
        record.version()?;
        Ok(record)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serializes")
    }

    /// 1 or 2, from `format`.
    pub fn version(&self) -> Result<u8, RecordError> {
        match self.format.as_str() {
            FORMAT_V1 => Ok(1),
            FORMAT_V2 => Ok(2),
            _ => Err(RecordError::Format(self.format.clone())),
        }
    }
}

/// A record refused for an unknown expansion or edition in its setup, with
/// the setup's own error (its kind kept), rather than as malformed JSON.
#[cold]
fn setup_error(text: &str) -> Option<RecordError> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let setup = value.get("setup")?;
    let names = setup.get("expansions").and_then(|e| e.as_array()).into_iter().flatten();
    let sets = setup.pointer("/rules/tile-sets").and_then(|e| e.as_array()).into_iter().flatten();
    for name in names.chain(sets).filter_map(|n| n.as_str()) {
        if let Err(e) = name.parse::<Expansion>() {
            return Some(RecordError::Setup(e));
        }
    }
    match setup.get("edition").and_then(|e| e.as_str()).map(str::parse::<Edition>) {
        Some(Err(e)) => Some(RecordError::Setup(e)),
        _ => None,
    }
}

impl Setup {
    /// The validated rules of this setup.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let rules = Rules::new(self.players.len(), &self.expansions, self.edition.unwrap_or_default())?;
        Ok(self.rules.apply(rules)?)
    }
}

/// The figures `replay --json` prints.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Summary {
    pub turns: u32,
    pub scores: Vec<u32>,
    pub final_scores: Vec<u32>,
    pub supply: Vec<u8>,
    pub finished: bool,
}

impl Summary {
    pub fn of(state: &State) -> Summary {
        Summary {
            turns: state.turns(),
            scores: state.scores().to_vec(),
            final_scores: state.final_scores(),
            supply: state.supply().to_vec(),
            // Over, not just an empty bag: the last tile may be drawn and
            // still wait for its placement.
            finished: state.is_over(),
        }
    }
}
