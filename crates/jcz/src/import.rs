//! Reading a JCloisterZone 5.x saved game into a game record.

use serde_json::{Map, Value};

use carcassonne_engine::record::{Setup, FORMAT_V1, FORMAT_V2};
use carcassonne_engine::setup::MAX_FIGURES;
use carcassonne_engine::{
    Action, Actor, Edition, Expansion, FollowerKind, Game, JettyPair, Placement, PlayError, Pos, Record, Rotation,
    RuleOptions, Step, TileKind, WagonMove,
};
use carcassonne_engine::{Corner, Location};

use crate::error::{illegal, malformed, unsupported, JczError};
use crate::follower_step_offered;
use crate::location;
use crate::tiles::{self, Sets};

/// A saved game read into a record, and what the reader had to point out.
#[derive(Clone, Debug)]
pub struct Import {
    /// The game as a record (format `carcassonne-record/1`), replayed and
    /// checked by the engine.
    pub record: Record,
    /// Things the record cannot say for sure, one sentence each (for
    /// example: the file does not prove which tiles were discarded).
    pub warnings: Vec<String>,
}

/// Reads a saved game (the text of a `.jcz` file) into a checked record.
pub fn import_record(text: &str) -> Result<Record, JczError> {
    import(text).map(|i| i.record)
}

/// Reads a saved game (the text of a `.jcz` file) into a checked record,
/// with warnings.
pub fn import(text: &str) -> Result<Import, JczError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| malformed("", format!("not a JSON document: {e}")))?;
    let top = doc.as_object().ok_or_else(|| malformed("", "not a JCloisterZone saved game: not a JSON object"))?;
    check_version(top)?;
    let (sets, rules) = read_setup(top.get("setup").ok_or_else(|| malformed("setup", "missing"))?)?;
    let players = read_players(top.get("players"))?;
    let replay = match top.get("replay") {
        Some(Value::Array(a)) => a,
        Some(_) => return Err(malformed("replay", "not a list of messages")),
        None => return Err(malformed("replay", "missing: this file holds a game setup, not a game")),
    };
    let draw_order = read_draw_order(top.get("gameAnnotations"), sets)?;
    let end_turn = read_end_turn(top.get("gameAnnotations"))?;

    let mut expansions = Vec::new();
    if sets.ferries {
        expansions.push(Expansion::Ferries);
    }
    if sets.inns {
        expansions.push(Expansion::Inns);
    }
    if sets.abbey_rules {
        expansions.push(Expansion::Abbey);
    }
    if sets.traders_rules {
        expansions.push(Expansion::Traders);
    }
    let setup = Setup {
        players,
        expansions,
        // JCloisterZone's lake tiles are those of the second edition.
        edition: Some(Edition::C2),
        seed: None,
        rules,
    };
    let game = Game::new(setup).map_err(|e| unsupported("players", strip_setup(&e.to_string())))?;
    let mut reader = Reader {
        game,
        sets,
        draw_order,
        next_draw: 0,
        unproven: false,
        turn: None,
        warnings: Vec::new(),
        needless_passes: Vec::new(),
        after_turn: false,
    };
    for (i, msg) in replay.iter().enumerate() {
        let next = replay.get(i + 1).and_then(|m| m.get("type")).and_then(Value::as_str);
        reader.message(i, msg, next)?;
    }
    let mut got = reader.finish()?;
    if let Some(n) = end_turn {
        let state = Game::replay(&got.record).expect("checked").state().bag().total();
        got.warnings.push(format!(
            "gameAnnotations.endTurn: JCloisterZone ended this game after {n} tiles (a test setting) and scored it as finished; the record stops there with {state} tiles still in the bag, so its final scores are those JCloisterZone gave"
        ));
    }
    Ok(got)
}

fn strip_setup(message: &str) -> String {
    message.strip_prefix("setup: ").unwrap_or(message).to_string()
}

fn check_version(top: &Map<String, Value>) -> Result<(), JczError> {
    let Some(v) = top.get("appVersion") else { return Ok(()) };
    let v = v.as_str().ok_or_else(|| malformed("appVersion", "not a version string"))?;
    let major: Option<u32> = v.split('.').next().and_then(|m| m.trim().parse().ok());
    match major {
        Some(m) if m >= 5 => Ok(()),
        Some(_) => Err(unsupported(
            "appVersion",
            format!("saved games of JCloisterZone {v} are not supported (only JCloisterZone 5 saved games are)"),
        )),
        None => Err(malformed("appVersion", format!("'{v}' is not a version number"))),
    }
}

/// Whether an element's or set's value switches it on (JCloisterZone writes
/// numbers, booleans, or "off").
fn enabled(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !matches!(s.as_str(), "" | "off" | "false" | "0"),
        _ => true,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// Rules of JCloisterZone that only matter with expansions or game elements
/// that an imported game cannot have (refused elsewhere), so their values
/// are of no consequence.
const EXPANSION_RULES: &[&str] = &[
    "princess-action",
    "fairy-placement",
    "dragon-move",
    "barn-placement",
    "wagon-move",
    "bazaar-no-auction",
    "hill-tiebreaker",
    "espace-variant",
    "gq11-pig-herd",
    "tunnelize-other-expansions",
    "more-tunnel-tokens",
    "festival-return",
    "keep-monasteries",
    "labyrinth-variant",
    "coc-final-scoring",
    "count-move",
    "little-buildings-scoring",
    "king-and-robber-scoring",
];

fn read_setup(v: &Value) -> Result<(Sets, RuleOptions), JczError> {
    let setup = v.as_object().ok_or_else(|| malformed("setup", "not an object"))?;
    if !setup.contains_key("sets") {
        if let Some(Value::Object(exps)) = setup.get("expansions") {
            for (name, on) in exps {
                if enabled(on)
                    && !matches!(name.as_str(), "BASIC" | "FERRIES" | "INNS_AND_CATHEDRALS" | "ABBEY_AND_MAYOR")
                {
                    return Err(unsupported("setup.expansions", format!("expansion {name} is not supported")));
                }
            }
            return Err(unsupported(
                "setup.expansions",
                "saved games of JCloisterZone before 5 are not supported (open the game in JCloisterZone 5 and save it again)",
            ));
        }
        return Err(malformed("setup.sets", "missing: the setup names no tile sets"));
    }
    let sets_v = setup["sets"].as_object().ok_or_else(|| malformed("setup.sets", "not an object"))?;
    let mut sets = Sets::default();
    let mut base = false;
    for (name, count) in sets_v {
        if !enabled(count) {
            continue;
        }
        match name.as_str() {
            "basic" | "basic:1" => base = true,
            "basic:2" => {
                base = true;
                sets.gardens = true;
            }
            "ferries" | "ferries:1" => sets.ferries = true,
            "inns-and-cathedrals" | "inns-and-cathedrals:1" => sets.inns = true,
            "abbey-and-mayor" | "abbey-and-mayor:1" => sets.abbey = true,
            "traders-and-builders" | "traders-and-builders:1" => sets.traders = true,
            "traders-and-builders:2" => {
                return Err(unsupported(
                    "setup.sets",
                    "tile set traders-and-builders:2 is not supported: two of its tiles carry gardens of the abbot (only traders-and-builders:1 is read)",
                ))
            }
            "inns-and-cathedrals:2" => {
                return Err(unsupported(
                    "setup.sets",
                    "tile set inns-and-cathedrals:2 is not supported: its garden tiles IC/CCCCG and IC/RFr.iG belong to the abbot (only inns-and-cathedrals:1 is read)",
                ))
            }
            other => {
                return Err(unsupported(
                    "setup.sets",
                    format!(
                        "tile set {other} is not supported (only the base game, The Ferries, Inns & Cathedrals, Abbey & Mayor and Traders & Builders are)"
                    ),
                ))
            }
        }
        if number(count) != Some(1.0) && count != &Value::Bool(true) {
            return Err(unsupported(
                format!("setup.sets.{name}"),
                format!("{count} copies of a tile set are not supported"),
            ));
        }
    }
    if !base {
        return Err(unsupported("setup.sets", "a game without the base game's tiles (basic) is not supported"));
    }

    let no_elements = Map::new();
    let elements = match setup.get("elements") {
        None => &no_elements,
        Some(Value::Object(e)) => e,
        Some(_) => return Err(malformed("setup.elements", "not an object")),
    };
    let (mut followers, mut farmers, mut ferry) = (None, false, false);
    let (mut big, mut inn, mut cathedral) = (None, false, false);
    // Abbey & Mayor's elements, each a number a player.
    let mut abbey_counts: [(&str, u8); 4] = [("abbey", 0), ("mayor", 0), ("wagon", 0), ("barn", 0)];
    // Traders & Builders' figures, a number a player, and its goods.
    let mut traders_counts: [(&str, u8); 2] = [("builder", 0), ("pig", 0)];
    let mut goods = false;
    for (name, value) in elements {
        if !enabled(value) {
            continue;
        }
        match name.as_str() {
            "small-follower" => followers = number(value),
            "farmers" => farmers = true,
            "ferry" => ferry = true,
            // A number a player (JCloisterZone allows more than one).
            "big-follower" => big = Some(number(value).unwrap_or(f64::NAN)),
            "inn" => inn = true,
            "cathedral" => cathedral = true,
            // Pig-herd fields are on tiles of other sets only.
            "pig-herd" => {}
            "traders" => goods = true,
            "abbey" | "mayor" | "wagon" | "barn" | "builder" | "pig" => {
                let n = match value {
                    Value::Bool(true) => Some(1.0),
                    v => number(v),
                };
                let at = format!("setup.elements.{name}");
                let n = match n {
                    Some(n) if n.fract() == 0.0 && (1.0..=f64::from(MAX_FIGURES)).contains(&n) => n as u8,
                    _ => return Err(unsupported(at, format!("{value} {name}s a player are not supported (1 to {MAX_FIGURES} are)"))),
                };
                let slot = abbey_counts.iter_mut().chain(traders_counts.iter_mut()).find(|(k, _)| k == name);
                slot.expect("listed").1 = n;
            }
            other => {
                return Err(unsupported(
                    format!("setup.elements.{other}"),
                    format!(
                        "game element {other} is not supported (only followers, farmers, ferries, big followers, inns, cathedrals, abbeys, mayors, wagons, barns, builders, pigs, traders and pig-herds are)"
                    ),
                ))
            }
        }
    }
    match followers {
        Some(7.0) => {}
        Some(n) => {
            return Err(unsupported(
                "setup.elements.small-follower",
                format!("{n} followers a player are not supported (the rules give 7)"),
            ))
        }
        None => return Err(unsupported("setup.elements", "a game without small followers is not supported")),
    }
    if !farmers {
        return Err(unsupported("setup.elements.farmers", "a game without farmers is not supported"));
    }
    if sets.ferries && !ferry {
        return Err(unsupported("setup.elements.ferry", "lake tiles without ferries are not supported"));
    }
    check_inns_elements(sets, big, inn, cathedral)?;

    let mut options = RuleOptions::default();
    // Abbey & Mayor is in play with its tiles or any of its elements; what
    // the setup leaves out, the record says.
    sets.abbeys = abbey_counts[0].1 > 0;
    sets.abbey_rules = sets.abbey || abbey_counts.iter().any(|(_, n)| *n > 0);
    sets.traders_rules = sets.traders || traders_counts.iter().any(|(_, n)| *n > 0);
    if sets.traders && !goods {
        return Err(unsupported(
            "setup.elements.traders",
            "Traders & Builders' tiles without their trade goods are not supported (here a completed city's goods always count)",
        ));
    }
    if sets.traders_rules {
        for (name, n) in traders_counts {
            if n != 1 {
                options.figures.insert(name.to_string(), n);
            }
        }
    }
    if sets.abbey_rules {
        for (name, n) in abbey_counts {
            if n != 1 {
                if name == "abbey" {
                    options.abbeys = Some(n);
                } else {
                    options.figures.insert(name.to_string(), n);
                }
            }
        }
    }
    // An expansion in play for its figures only: the record names the
    // expansions whose tiles are in the bag.
    if sets.abbey_rules && !sets.abbey || sets.traders_rules && !sets.traders {
        let mut with_tiles = Vec::new();
        for (on, e) in [
            (sets.ferries, Expansion::Ferries),
            (sets.inns, Expansion::Inns),
            (sets.abbey, Expansion::Abbey),
            (sets.traders, Expansion::Traders),
        ] {
            if on {
                with_tiles.push(e);
            }
        }
        options.tile_sets = Some(with_tiles);
    }
    if let Some(rules) = setup.get("rules") {
        let rules = match rules {
            Value::Object(r) => r,
            Value::Null => &no_elements,
            _ => return Err(malformed("setup.rules", "not an object")),
        };
        for (name, value) in rules {
            let at = format!("setup.rules.{name}");
            if name == "tiny-city-scoring" {
                // JCloisterZone writes the value as a string, "4" or "2".
                match number(value) {
                    Some(4.0) => {}
                    Some(2.0) => options.tiny_city_scoring = Some(2),
                    _ => {
                        return Err(unsupported(
                            at,
                            format!("a two-tile city scoring {value} points is not supported (only 4 or 2)"),
                        ))
                    }
                }
            } else if name == "wagon-move" && sets.abbey_rules {
                match value.as_str() {
                    Some("C1") => options.wagon_move = Some(WagonMove::C1),
                    Some("C2") | None => {}
                    Some(other) => {
                        return Err(unsupported(at, format!("wagon-move {other} is not supported (only C1 or C2)")))
                    }
                }
            } else if name == "barn-placement" && sets.abbey_rules && value.as_str() == Some("occupied") {
                return Err(unsupported(
                    at,
                    "barn-placement occupied is not supported (a barn goes only on a farm without one, as JCloisterZone's default not-occupied has it)",
                ));
            } else if !EXPANSION_RULES.contains(&name.as_str()) && enabled(value) {
                return Err(unsupported(at, format!("rule {name} = {value} is not supported")));
            }
        }
    }

    if let Some(start) = setup.get("start") {
        let ok = match start {
            Value::Null => true,
            Value::Array(items) => {
                items.len() == 1
                    && items[0].get("tile").and_then(Value::as_str) == Some("BA/RCr")
                    && items[0].get("x").and_then(Value::as_i64) == Some(0)
                    && items[0].get("y").and_then(Value::as_i64) == Some(0)
                    && items[0].get("rotation").is_none_or(|r| read_rotation(r).ok() == Some(Rotation::R0))
            }
            _ => false,
        };
        if !ok {
            return Err(unsupported("setup.start", "only the start tile BA/RCr at [0, 0] turned 0 is supported"));
        }
    }
    Ok((sets, options))
}

/// Inns & Cathedrals is played here with all its parts: each player's one
/// big follower, inns and cathedrals. JCloisterZone lets a setup switch each
/// off (an inn or cathedral then scores as a plain road or city), which our
/// rules cannot play, so such a file is refused rather than scored otherwise.
/// Without the expansion's tiles, `inn` and `cathedral` name nothing on any
/// tile and are ignored; a big follower has no place in our base game.
fn check_inns_elements(sets: Sets, big: Option<f64>, inn: bool, cathedral: bool) -> Result<(), JczError> {
    if !sets.inns {
        return match big {
            Some(_) => Err(unsupported(
                "setup.elements.big-follower",
                "big followers without the tiles of Inns & Cathedrals (inns-and-cathedrals:1) are not supported",
            )),
            None => Ok(()),
        };
    }
    match big {
        Some(1.0) => {}
        Some(n) if n.is_finite() => {
            return Err(unsupported(
                "setup.elements.big-follower",
                format!("{n} big followers a player are not supported (Inns & Cathedrals gives 1)"),
            ))
        }
        Some(_) => return Err(malformed("setup.elements.big-follower", "not a number of big followers")),
        None => {
            return Err(unsupported(
                "setup.elements.big-follower",
                "Inns & Cathedrals without the big follower is not supported (it gives each player one)",
            ))
        }
    }
    for (on, name, what) in [(inn, "inn", "inns"), (cathedral, "cathedral", "cathedrals")] {
        if !on {
            return Err(unsupported(
                format!("setup.elements.{name}"),
                format!(
                    "Inns & Cathedrals with its {what} switched off is not supported (JCloisterZone would score them as plain features; here they always count)"
                ),
            ));
        }
    }
    Ok(())
}

fn read_players(v: Option<&Value>) -> Result<Vec<String>, JczError> {
    let list = match v {
        Some(Value::Array(a)) => a,
        Some(_) => return Err(malformed("players", "not a list of players")),
        None => return Err(malformed("players", "missing: this file holds a game setup, not a game")),
    };
    list.iter()
        .enumerate()
        .map(|(i, p)| match p.get("name") {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            Some(Value::String(_)) | Some(Value::Null) | None if p.is_object() => Ok(format!("Player {}", i + 1)),
            _ => Err(malformed(format!("players[{i}]"), "not a player with a name")),
        })
        .collect()
}

/// The tiles a saved game is forced to draw, in order (JCloisterZone's
/// `drawOrder` annotation, or the older `tilePack` one that carries it).
fn read_draw_order(v: Option<&Value>, sets: Sets) -> Result<Option<Vec<TileKind>>, JczError> {
    let Some(Value::Object(ann)) = v else { return Ok(None) };
    let (list, at) = if let Some(l) = ann.get("drawOrder") {
        (l, "gameAnnotations.drawOrder")
    } else if let Some(l) = ann.get("tilePack").and_then(|t| t.get("params")).and_then(|p| p.get("drawOrder")) {
        (l, "gameAnnotations.tilePack.params.drawOrder")
    } else {
        return Ok(None);
    };
    let list = list.as_array().ok_or_else(|| malformed(at, "not a list of tile ids"))?;
    list.iter()
        .enumerate()
        .map(|(i, t)| {
            let at = format!("{at}[{i}]");
            let id = t.as_str().ok_or_else(|| malformed(&at, "not a tile id"))?;
            tiles::to_ours(id, sets).map_err(|e| unsupported(&at, e))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// How many tiles JCloisterZone was told to draw before it ended the game
/// (`endTurn`, a setting of its test games, or the older `drawLimit`).
fn read_end_turn(v: Option<&Value>) -> Result<Option<u64>, JczError> {
    let Some(Value::Object(ann)) = v else { return Ok(None) };
    let (value, at) = if let Some(n) = ann.get("endTurn") {
        (n, "gameAnnotations.endTurn")
    } else if let Some(n) = ann.get("tilePack").and_then(|t| t.get("params")).and_then(|p| p.get("drawLimit")) {
        (n, "gameAnnotations.tilePack.params.drawLimit")
    } else {
        return Ok(None);
    };
    match value {
        Value::Null => Ok(None),
        v => v.as_u64().map(Some).ok_or_else(|| malformed(at, format!("{v} is not a number of tiles"))),
    }
}

fn read_rotation(v: &Value) -> Result<Rotation, String> {
    let degrees = match v {
        Value::String(s) => s.strip_prefix('R').unwrap_or(s).parse::<i64>().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    };
    degrees.and_then(Rotation::from_degrees).ok_or_else(|| format!("{v} is not a rotation (R0, R90, R180 or R270)"))
}

fn read_position(v: Option<&Value>) -> Result<Pos, String> {
    let bad = || format!("{} is not a position [x, y]", v.map_or("nothing".to_string(), |v| v.to_string()));
    let arr = v.and_then(Value::as_array).ok_or_else(bad)?;
    let coord = |i: usize| arr.get(i).and_then(Value::as_i64).and_then(|c| i32::try_from(c).ok());
    match (arr.len(), coord(0), coord(1)) {
        (2, Some(x), Some(y)) => Ok(Pos::new(x, y)),
        _ => Err(bad()),
    }
}

/// The turn being read: from its PLACE_TILE to its COMMIT.
struct OpenTurn {
    /// Index of its PLACE_TILE message.
    start: usize,
    /// The game and draw-order position before it, to leave it out if it is
    /// never committed.
    before: Game,
    next_draw: usize,
    player: usize,
    pos: Pos,
    /// Whether its follower step (DEPLOY_MEEPLE or PASS) was read.
    acted: bool,
}

struct Reader {
    game: Game,
    sets: Sets,
    draw_order: Option<Vec<TileKind>>,
    next_draw: usize,
    /// Whether some tile was placed that the draw order does not account for.
    unproven: bool,
    turn: Option<OpenTurn>,
    warnings: Vec<String>,
    /// PASS messages where JCloisterZone has nothing to pass (older exports
    /// of this program wrote them), by message index.
    needless_passes: Vec<usize>,
    /// Whether a wagon moved, or a player passed, after the turn's COMMIT
    /// (JCloisterZone commits those once more).
    after_turn: bool,
}

impl Reader {
    fn play(&mut self, action: Action, at: &str) -> Result<(), JczError> {
        self.game.play(action).map_err(|e| illegal(at, e.to_string()))
    }

    /// Reads message `i`; `next` is the type of the message after it.
    fn message(&mut self, i: usize, msg: &Value, next: Option<&str>) -> Result<(), JczError> {
        let at = format!("replay[{i}]");
        let m = msg.as_object().ok_or_else(|| malformed(&at, "not a message"))?;
        let kind = m.get("type").and_then(Value::as_str).ok_or_else(|| malformed(&at, "a message without a type"))?;
        let empty = Value::Object(Map::new());
        let payload = m.get("payload").unwrap_or(&empty);
        if !payload.is_object() {
            return Err(malformed(&at, format!("{kind}: the payload is not an object")));
        }
        if kind == "PLACE_TILE" && self.turn.is_some() {
            return Err(malformed(&at, "PLACE_TILE before the COMMIT that ends the turn before it"));
        }
        if kind == "PLACE_TILE" {
            self.wagons_left_behind(&at)?;
        }
        let expected = match (&self.turn, self.game.state().actor()) {
            // Whoever moved the last wagon commits it.
            (None, _) if kind == "COMMIT" && self.after_turn => None,
            (Some(t), _) => Some(t.player),
            (None, Some(Actor::Player(p))) => Some(p),
            (None, Some(Actor::Chance)) => Some(self.game.state().current_player()),
            (None, None) => None,
        };
        if let (Some(p), Some(want)) = (m.get("player").and_then(Value::as_u64), expected) {
            if p as usize != want {
                return Err(illegal(
                    &at,
                    format!(
                        "{kind} by player {p} ({}), but it is the turn of player {want} ({})",
                        self.name(p),
                        self.name(want as u64)
                    ),
                ));
            }
        }
        match kind {
            "PLACE_TILE" => self.place_tile(i, &at, payload),
            "DEPLOY_MEEPLE" => self.deploy(&at, payload),
            "PASS" => self.pass(i, &at, next),
            "PLACE_TOKEN" => self.place_token(&at, payload),
            "COMMIT" => self.commit(&at),
            other => Err(unsupported(
                &at,
                format!("message {other} is not supported (only PLACE_TILE, DEPLOY_MEEPLE, PLACE_TOKEN, PASS and COMMIT are)"),
            )),
        }
    }

    fn name(&self, p: u64) -> &str {
        self.game.players().get(p as usize).map_or("?", String::as_str)
    }

    fn place_tile(&mut self, i: usize, at: &str, payload: &Value) -> Result<(), JczError> {
        if self.turn.is_some() {
            return Err(malformed(at, "PLACE_TILE before the COMMIT that ends the turn before it"));
        }
        if self.game.state().is_over() {
            return Err(illegal(at, PlayError::GameOver.to_string()));
        }
        let id = payload
            .get("tileId")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(at, "PLACE_TILE without a tileId"))?;
        let kind = tiles::to_ours(id, self.sets).map_err(|e| unsupported(at, e))?;
        let rot = read_rotation(payload.get("rotation").unwrap_or(&Value::Null)).map_err(|e| malformed(at, e))?;
        let pos = read_position(payload.get("position")).map_err(|e| malformed(at, e))?;
        let before = self.game.clone();
        let next_draw = self.next_draw;
        let player = self.game.state().current_player();
        if id == tiles::ABBEY_TILE {
            // An abbey from the hand instead of a draw; JCloisterZone turns it
            // as it likes (it fits anywhere).
            self.play(Action::PlaceAbbey(pos), at)?;
        } else {
            if self.game.state().step() == Step::Abbey {
                // Not taking the abbey: JCloisterZone writes nothing for it.
                self.play(Action::Pass, at)?;
            }
            self.discards_before(kind, id)?;
            self.play(Action::Draw(kind), at)?;
            self.play(Action::Place(Placement { pos, rot }), at)?;
        }
        self.turn = Some(OpenTurn { start: i, before, next_draw, player, pos, acted: false });
        Ok(())
    }

    /// Tiles the draw order has before the one placed were drawn and
    /// discarded (JCloisterZone discards a tile that fits nowhere by itself,
    /// without a message); the engine checks that each fits nowhere.
    fn discards_before(&mut self, kind: TileKind, id: &str) -> Result<(), JczError> {
        let Some(order) = self.draw_order.clone() else {
            self.unproven = true;
            return Ok(());
        };
        loop {
            let Some(&next) = order.get(self.next_draw) else {
                self.unproven = true;
                return Ok(());
            };
            let at = format!("gameAnnotations.drawOrder[{}]", self.next_draw);
            self.next_draw += 1;
            if next == kind {
                return Ok(());
            }
            self.play(Action::Draw(next), &at)?;
            self.game.play(Action::Discard).map_err(|e| {
                illegal(
                    &at,
                    format!("tile {} is drawn here, and the replay goes on with {id}, but {e}", tiles::to_jcz(next)),
                )
            })?;
        }
    }

    fn open_turn(&mut self, at: &str, what: &str) -> Result<&mut OpenTurn, JczError> {
        self.turn.as_mut().ok_or_else(|| malformed(at, format!("{what} outside a turn (no PLACE_TILE before it)")))
    }

    fn deploy(&mut self, at: &str, payload: &Value) -> Result<(), JczError> {
        let meeple = payload.get("meepleId").and_then(Value::as_str).unwrap_or("");
        let parts: Vec<&str> = meeple.split('.').collect();
        // `player.small.n` or `player.big.n`; a file without a type is read
        // as a small follower, as before.
        let figure = match parts.get(1) {
            None | Some(&"small") => FollowerKind::Normal,
            Some(&"big") => FollowerKind::Big,
            Some(&"mayor") => FollowerKind::Mayor,
            Some(&"wagon") => FollowerKind::Wagon,
            Some(&"barn") => FollowerKind::Barn,
            Some(&"builder") => FollowerKind::Builder,
            Some(&"pig") => FollowerKind::Pig,
            Some(_) => {
                return Err(unsupported(
                    at,
                    format!(
                        "meeple {meeple} is not supported (only small and big followers, mayors, wagons, barns, builders and pigs are)"
                    ),
                ))
            }
        };
        if self.game.state().rules().figure_count(figure) == 0 {
            return Err(illegal(
                at,
                format!("meeple {meeple} is a {}, and this game gives the players none", figure.noun()),
            ));
        }
        let pointer = payload.get("pointer").ok_or_else(|| malformed(at, "DEPLOY_MEEPLE without a pointer"))?;
        if self.turn.is_none() && self.game.state().step() == Step::MoveWagon {
            return self.move_wagon(at, meeple, figure, pointer);
        }
        let turn = self.open_turn(at, "DEPLOY_MEEPLE")?;
        if turn.acted {
            return Err(illegal(at, "a second follower step in one turn"));
        }
        let (player, placed) = (turn.player, turn.pos);
        if let Some(owner) = parts.first().and_then(|p| p.parse::<usize>().ok()) {
            if owner != player {
                return Err(illegal(at, format!("meeple {meeple} is not one of player {player}'s")));
            }
        }
        let pos = read_position(pointer.get("position")).map_err(|e| malformed(at, e))?;
        if figure == FollowerKind::Barn {
            // JCloisterZone points at the field of the tile south-east of the
            // barn's corner (the corner is that tile's north-west one).
            let corner = match (pos.x - placed.x, pos.y - placed.y) {
                (0, 0) => Corner::Nw,
                (1, 0) => Corner::Ne,
                (0, 1) => Corner::Sw,
                (1, 1) => Corner::Se,
                _ => {
                    return Err(illegal(
                        at,
                        format!(
                            "a barn goes on a corner of the tile just placed at {placed}; the field at {pos} has none"
                        ),
                    ))
                }
            };
            self.play(Action::Deploy(figure, Location::Corner(corner)), at)?;
            self.turn.as_mut().expect("open").acted = true;
            return Ok(());
        }
        if pos != placed {
            return Err(illegal(at, format!("a follower goes on the tile just placed at {placed}, not at {pos}")));
        }
        let text = pointer
            .get("location")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(at, "a pointer without a location"))?;
        let jcz = location::parse(text).map_err(|e| unsupported(at, e))?;
        let tile = *self.game.state().board().tile_at(pos).expect("the tile was placed");
        let feature = pointer.get("feature").and_then(Value::as_str);
        let loc = location::to_ours(tile.kind, tile.rot, feature, jcz, text).map_err(|e| illegal(at, e))?;
        self.play(Action::Deploy(figure, loc), at)?;
        self.turn.as_mut().expect("open").acted = true;
        Ok(())
    }

    /// JCloisterZone has a follower step only when the player has a follower
    /// in supply and the tile just placed a feature free of followers; without
    /// one it goes on to the ferry or the commit with no message. Read
    /// before a message that comes after that step: `what` is its name.
    fn follower_step_done(&mut self, at: &str, what: &str) -> Result<(), JczError> {
        if self.open_turn(at, what)?.acted {
            return Ok(());
        }
        let state = self.game.state();
        if follower_step_offered(state) {
            let player = state.current_player();
            return Err(malformed(
                at,
                format!(
                    "{what} before the follower step: JCloisterZone offers {} a follower here, so DEPLOY_MEEPLE or PASS comes first",
                    self.name(player as u64)
                ),
            ));
        }
        self.play(Action::Pass, at)?;
        self.turn.as_mut().expect("open").acted = true;
        Ok(())
    }

    fn pass(&mut self, i: usize, at: &str, next: Option<&str>) -> Result<(), JczError> {
        if self.turn.is_none() && matches!(self.game.state().step(), Step::MoveWagon | Step::Abbey) {
            // A wagon that stays in its owner's supply, or the last round's abbey declined.
            self.after_turn = true;
            return self.play(Action::Pass, at);
        }
        let acted = self.open_turn(at, "PASS")?.acted;
        if !acted && follower_step_offered(self.game.state()) {
            self.play(Action::Pass, at)?;
            self.turn.as_mut().expect("open").acted = true;
            return Ok(());
        }
        if !acted && next == Some("PLACE_TOKEN") {
            // JCloisterZone commits right after a PASS that ends the ferry
            // moves, so this one stands for a follower step it does not have.
            self.follower_step_done(at, "PASS")?;
            self.needless_passes.push(i);
            return Ok(());
        }
        // Not the follower step: either JCloisterZone skipped it, or it was read.
        self.follower_step_done(at, "PASS")?;
        match self.game.state().step() {
            // Ends the ferry moves.
            Step::MoveFerries => self.play(Action::Pass, at),
            Step::PlaceFerry => {
                Err(illegal(at, "a lake tile takes a ferry: PLACE_TOKEN FERRY comes before this PASS (F3)"))
            }
            // Nothing to pass: no follower step, no ferry to move (any more).
            _ => {
                if !acted {
                    self.needless_passes.push(i);
                }
                Ok(())
            }
        }
    }

    fn place_token(&mut self, at: &str, payload: &Value) -> Result<(), JczError> {
        let token = match payload.get("token") {
            Some(Value::String(s)) => s.clone(),
            // Older saves write [class name, token name].
            Some(Value::Array(a)) => a.last().and_then(Value::as_str).unwrap_or("").to_string(),
            _ => String::new(),
        };
        if token != "FERRY" {
            return Err(unsupported(at, format!("token {token} is not supported (only FERRY is)")));
        }
        self.follower_step_done(at, "PLACE_TOKEN")?;
        let placed = self.open_turn(at, "PLACE_TOKEN")?.pos;
        let pointer = payload.get("pointer").ok_or_else(|| malformed(at, "PLACE_TOKEN without a pointer"))?;
        let pos = read_position(pointer.get("position")).map_err(|e| malformed(at, e))?;
        let text = pointer
            .get("location")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(at, "a ferry without a location"))?;
        let pair: JettyPair = location::jetty_pair(text).map_err(|e| malformed(at, e))?;
        match self.game.state().step() {
            Step::PlaceFerry if pos == placed => self.play(Action::PlaceFerry(pair), at),
            Step::PlaceFerry => {
                Err(illegal(at, format!("the new ferry goes on the lake just placed at {placed}, not at {pos}")))
            }
            Step::MoveFerries => self.play(Action::MoveFerry { at: pos, ferry: pair }, at),
            _ => Err(illegal(
                at,
                match self.game.state().ferry_at(pos) {
                    None => PlayError::NoFerry(pos),
                    Some(_) => PlayError::FerryNotMovable(pos),
                }
                .to_string(),
            )),
        }
    }

    fn commit(&mut self, at: &str) -> Result<(), JczError> {
        if self.turn.is_none() && std::mem::take(&mut self.after_turn) {
            // Ends the wagon moves after a turn's scoring.
            return Ok(());
        }
        self.follower_step_done(at, "COMMIT")?;
        match self.game.state().step() {
            Step::PlaceFerry => {
                return Err(illegal(at, "a lake tile takes a ferry: PLACE_TOKEN FERRY comes before the COMMIT (F3)"))
            }
            Step::MoveFerries => self.play(Action::Pass, at)?,
            _ => {}
        }
        self.turn = None;
        Ok(())
    }

    /// A wagon's move after its feature scored (out of turn: its owner's).
    fn move_wagon(&mut self, at: &str, meeple: &str, figure: FollowerKind, pointer: &Value) -> Result<(), JczError> {
        let Some(Actor::Player(owner)) = self.game.state().actor() else {
            return Err(illegal(at, "no wagon waits to move"));
        };
        if figure != FollowerKind::Wagon || meeple.split('.').next() != Some(&owner.to_string()) {
            return Err(illegal(
                at,
                format!(
                    "meeple {meeple} cannot be deployed now: {} moves a wagon whose feature scored",
                    self.name(owner as u64)
                ),
            ));
        }
        let pos = read_position(pointer.get("position")).map_err(|e| malformed(at, e))?;
        let text = pointer
            .get("location")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(at, "a pointer without a location"))?;
        let jcz = location::parse(text).map_err(|e| unsupported(at, e))?;
        let tile = *self
            .game
            .state()
            .board()
            .tile_at(pos)
            .ok_or_else(|| illegal(at, format!("a wagon moves to a placed tile, and {pos} holds none")))?;
        let feature = pointer.get("feature").and_then(Value::as_str);
        let loc = location::to_ours(tile.kind, tile.rot, feature, jcz, text).map_err(|e| illegal(at, e))?;
        self.after_turn = true;
        self.play(Action::MoveWagon { at: pos, to: loc }, at)
    }

    /// Wagons still waiting when the next turn begins: JCloisterZone offered
    /// them no move that the rules here allow, so they go back to supply.
    fn wagons_left_behind(&mut self, at: &str) -> Result<(), JczError> {
        while self.turn.is_none() && self.game.state().step() == Step::MoveWagon {
            let owner = match self.game.state().actor() {
                Some(Actor::Player(p)) => p,
                _ => break,
            };
            self.warnings.push(format!(
                "{at}: {}'s wagon could move after its feature scored, and JCloisterZone wrote no move for it: it goes back to supply",
                self.name(owner as u64)
            ));
            self.play(Action::Pass, at)?;
        }
        self.after_turn = false;
        Ok(())
    }

    fn finish(mut self) -> Result<Import, JczError> {
        if let Some(turn) = self.turn.take() {
            self.warnings.push(format!(
                "replay[{}]: the last turn was never committed in JCloisterZone, so it is left out",
                turn.start
            ));
            self.game = turn.before;
            self.next_draw = turn.next_draw;
        }
        // Trailing tiles of the draw order that fit nowhere were discarded.
        if let Some(order) = self.draw_order.clone() {
            while let Some(&next) = order.get(self.next_draw) {
                let state = self.game.state();
                if state.is_over() || state.bag().count(next) == 0 || state.board().fits_somewhere(next) {
                    break;
                }
                let at = format!("gameAnnotations.drawOrder[{}]", self.next_draw);
                self.play(Action::Draw(next), &at)?;
                self.play(Action::Discard, &at)?;
                self.next_draw += 1;
            }
        }
        if !self.needless_passes.is_empty() {
            let list: Vec<String> = self.needless_passes.iter().take(5).map(|i| format!("replay[{i}]")).collect();
            let more = if self.needless_passes.len() > 5 { ", ..." } else { "" };
            self.warnings.push(format!(
                "{} PASS message(s) where JCloisterZone has no step to pass ({}{more}): JCloisterZone itself refuses such a file (older exports of this program wrote them); each is read as no follower",
                self.needless_passes.len(),
                list.join(", ")
            ));
        }
        let state = self.game.state();
        if self.unproven && !state.bag().is_empty() {
            let placed = state.board().tiles().len() - 1;
            self.warnings.push(format!(
                "JCloisterZone saved games do not record discarded tiles{}: the record holds the {placed} tiles placed, and a tile discarded in JCloisterZone is still in the bag here ({} tiles)",
                if self.draw_order.is_some() { " and this one's draw order ends early" } else { "" },
                state.bag().total()
            ));
        }
        let record = self.game.record().clone();
        // Version 2 once a figure other than the small follower is deployed.
        debug_assert!(record.format == FORMAT_V1 || record.format == FORMAT_V2);
        Game::replay(&record).map_err(|e| illegal("", format!("the converted record does not replay: {e}")))?;
        Ok(Import { record, warnings: self.warnings })
    }
}
