//! Game records (format `carcassonne-record/1`) and the match type that
//! keeps one beside a [`State`].
//!
//! A record is the setup plus one entry per turn, naming the tile drawn, so a
//! replay needs no random generator. Reading validates everything: a record
//! that is malformed, names something that does not exist or holds an illegal
//! turn is refused with the turn (counting from 1) and the rule broken.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::{Action, JettyPair, Location, Step};
use crate::board::Placement;
use crate::error::PlayError;
use crate::event::{EventSink, NoEvents};
use crate::geometry::{Pos, Rotation};
use crate::setup::{Edition, Expansion, Rules, TINY_CITY_STANDARD};
use crate::state::State;
use crate::tile::TileKind;

/// The format tag of version 1.
pub const FORMAT_V1: &str = "carcassonne-record/1";

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
    pub expansions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
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
}

impl RuleOptions {
    /// The variants of `rules`, naming only those that differ from the
    /// standard rules.
    pub fn of(rules: &Rules) -> RuleOptions {
        let tiny = rules.tiny_city_scoring();
        RuleOptions { tiny_city_scoring: (tiny != TINY_CITY_STANDARD).then_some(tiny) }
    }

    pub fn is_empty(&self) -> bool {
        self.tiny_city_scoring.is_none()
    }
}

/// One entry of `turns`.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Turn {
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
    #[error("unknown record format '{0}' (this program reads {FORMAT_V1})")]
    Format(String),
    #[error("setup: {0}")]
    Setup(String),
    #[error("turn {turn}: {reason}")]
    Turn { turn: usize, reason: String },
}

impl Record {
    /// Parses a record from JSON text (structure only; see [`Game::replay`]).
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let record: Record = serde_json::from_str(text).map_err(|e| RecordError::Malformed(e.to_string()))?;
        if record.format != FORMAT_V1 {
            return Err(RecordError::Format(record.format));
        }
        Ok(record)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serializes")
    }
}

impl Setup {
    /// The validated rules of this setup.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let mut expansions = Vec::new();
        for e in &self.expansions {
            let known: Vec<_> = Expansion::ALL.iter().map(|e| e.name()).collect();
            expansions.push(
                Expansion::parse(e).ok_or_else(|| {
                    RecordError::Setup(format!("unknown expansion '{e}' (known: {})", known.join(", ")))
                })?,
            );
        }
        let edition = match &self.edition {
            None => Edition::default(),
            Some(e) => {
                Edition::parse(e).ok_or_else(|| RecordError::Setup(format!("unknown edition '{e}' (c3 or c2)")))?
            }
        };
        let mut rules =
            Rules::new(self.players.len(), &expansions, edition).map_err(|e| RecordError::Setup(e.to_string()))?;
        if let Some(points) = self.rules.tiny_city_scoring {
            rules = rules.with_tiny_city_scoring(points).map_err(|e| RecordError::Setup(format!("rules: {e}")))?;
        }
        Ok(rules)
    }
}

/// A game being played or replayed: its state, and its record so far.
#[derive(Clone, Debug)]
pub struct Game {
    state: State,
    record: Record,
}

impl Game {
    /// A new game from a setup (its turns, if any, are ignored).
    pub fn new(setup: Setup) -> Result<Game, RecordError> {
        let rules = setup.rules()?;
        Ok(Game {
            state: State::new(rules),
            record: Record { format: FORMAT_V1.to_string(), setup, turns: Vec::new() },
        })
    }

    /// Plays a whole record, checking every turn.
    pub fn replay(record: &Record) -> Result<Game, RecordError> {
        Game::replay_with(record, &mut NoEvents)
    }

    /// As [`replay`](Self::replay), reporting what happened to `events`.
    pub fn replay_with<E: EventSink>(record: &Record, events: &mut E) -> Result<Game, RecordError> {
        if record.format != FORMAT_V1 {
            return Err(RecordError::Format(record.format.clone()));
        }
        let mut game = Game::new(record.setup.clone())?;
        let last = record.turns.len();
        for (i, turn) in record.turns.iter().enumerate() {
            let pending = turn.is_pending();
            let result = if pending && i + 1 < last {
                Err("only the last entry may hold only 'tile' (the drawn tile waiting to be placed); \
                     every other entry places its tile ('at' and 'rot') or discards it ('discard': true)"
                    .to_string())
            } else if pending {
                game.draw_pending(turn, events)
            } else {
                game.play_turn(turn, events)
            };
            result.map_err(|reason| RecordError::Turn { turn: i + 1, reason })?;
        }
        Ok(game)
    }

    /// Parses and replays a record in JSON.
    pub fn from_json(text: &str) -> Result<Game, RecordError> {
        Game::replay(&Record::from_json(text)?)
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Names of the players, in seat order.
    pub fn players(&self) -> &[String] {
        &self.record.setup.players
    }

    /// Plays an action and writes it into the record.
    pub fn play(&mut self, action: Action) -> Result<(), PlayError> {
        self.play_with(action, &mut NoEvents)
    }

    pub fn play_with<E: EventSink>(&mut self, action: Action, events: &mut E) -> Result<(), PlayError> {
        self.state.play_with(action, events)?;
        let turns = &mut self.record.turns;
        match action {
            Action::Draw(kind) => turns.push(Turn { tile: kind.id().to_string(), ..Turn::default() }),
            Action::Place(p) => {
                if let Some(t) = turns.last_mut() {
                    t.at = Some([p.pos.x as i64, p.pos.y as i64]);
                    t.rot = Some(p.rot.degrees() as i64);
                }
            }
            Action::Discard => {
                if let Some(t) = turns.last_mut() {
                    t.discard = true;
                }
            }
            Action::Deploy(loc) => {
                if let Some(t) = turns.last_mut() {
                    t.meeple = Some(loc.to_string());
                }
            }
            Action::PlaceFerry(pair) => {
                if let Some(t) = turns.last_mut() {
                    t.ferry = Some(pair.to_string());
                }
            }
            Action::MoveFerry { at, ferry } => {
                if let Some(t) = turns.last_mut() {
                    t.moves.push(FerryMove { at: [at.x as i64, at.y as i64], ferry: ferry.to_string() });
                }
            }
            Action::Pass => {}
        }
        Ok(())
    }

    /// The record as it can be read back: a turn in progress (its tile
    /// placed, its other decisions still to come) is shown as its drawn tile
    /// alone, waiting to be placed, since a record's entry is a whole turn.
    pub fn settled_record(&self) -> Record {
        let mut record = self.record.clone();
        if !matches!(self.state.step(), Step::Draw | Step::GameOver) {
            if let Some(turn) = record.turns.last_mut() {
                *turn = Turn { tile: std::mem::take(&mut turn.tile), ..Turn::default() };
            }
        }
        record
    }

    /// The tile drawn and not yet placed, if the game waits for its placement.
    pub fn pending_tile(&self) -> Option<TileKind> {
        (self.state.step() == Step::Place).then(|| self.state.drawn()).flatten()
    }

    /// Draws the tile of a record's last entry that holds only `tile`.
    fn draw_pending<E: EventSink>(&mut self, turn: &Turn, events: &mut E) -> Result<(), String> {
        if self.state.is_over() {
            return Err(PlayError::GameOver.to_string());
        }
        let kind = TileKind::parse(&turn.tile).ok_or_else(|| format!("there is no tile '{}'", turn.tile))?;
        self.play_with(Action::Draw(kind), events).map_err(|e| e.to_string())
    }

    /// Plays one record entry: draw, place or discard, deploy, ferry, moves.
    fn play_turn<E: EventSink>(&mut self, turn: &Turn, events: &mut E) -> Result<(), String> {
        let err = |e: PlayError| e.to_string();
        if self.state.is_over() {
            return Err(PlayError::GameOver.to_string());
        }
        let kind = TileKind::parse(&turn.tile).ok_or_else(|| format!("there is no tile '{}'", turn.tile))?;
        self.play_with(Action::Draw(kind), events).map_err(err)?;
        if turn.discard {
            if turn.at.is_some()
                || turn.rot.is_some()
                || turn.meeple.is_some()
                || turn.ferry.is_some()
                || !turn.moves.is_empty()
            {
                return Err(
                    "a discarded tile is not placed: 'discard' goes without 'at', 'rot', 'meeple', 'ferry' and 'moves'"
                        .into(),
                );
            }
            return self.play_with(Action::Discard, events).map_err(err);
        }
        let (Some([x, y]), Some(rot)) = (turn.at, turn.rot) else {
            return Err("a turn places its tile ('at' and 'rot') or discards it ('discard': true)".into());
        };
        let rot = Rotation::from_degrees(rot).ok_or_else(|| format!("rotation {rot} is not one of 0, 90, 180, 270"))?;
        let pos = coordinate(x, y)
            .ok_or_else(|| format!("[{x}, {y}] is far off the board: a tile must share an edge with a placed tile"))?;
        self.play_with(Action::Place(Placement { pos, rot }), events).map_err(err)?;

        match &turn.meeple {
            Some(name) => {
                let loc: Location = name.parse()?;
                self.play_with(Action::Deploy(loc), events).map_err(err)?;
            }
            None => self.play_with(Action::Pass, events).map_err(err)?,
        }

        let lake = self.state.step() == Step::PlaceFerry;
        match (&turn.ferry, lake) {
            (Some(f), true) => {
                let pair: JettyPair = f.parse()?;
                self.play_with(Action::PlaceFerry(pair), events).map_err(err)?;
            }
            (None, true) => return Err("a lake tile takes a ferry: 'ferry' names the two jetties it joins (F3)".into()),
            (Some(_), false) => return Err(format!("tile {kind} has no lake for a ferry")),
            (None, false) => {}
        }

        for m in &turn.moves {
            let ferry: JettyPair = m.ferry.parse()?;
            let at = coordinate(m.at[0], m.at[1])
                .ok_or_else(|| format!("there is no ferry at [{}, {}]", m.at[0], m.at[1]))?;
            if self.state.step() != Step::MoveFerries {
                // Step 4 was not entered: no ferry may move this turn.
                return Err(match self.state.ferry_at(at) {
                    None => PlayError::NoFerry(at),
                    Some(_) => PlayError::FerryNotMovable(at),
                }
                .to_string());
            }
            self.play_with(Action::MoveFerry { at, ferry }, events).map_err(err)?;
        }
        if self.state.step() == Step::MoveFerries {
            self.play_with(Action::Pass, events).map_err(err)?;
        }
        debug_assert!(matches!(self.state.step(), Step::Draw | Step::GameOver));
        Ok(())
    }
}

fn coordinate(x: i64, y: i64) -> Option<Pos> {
    Some(Pos::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?))
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
