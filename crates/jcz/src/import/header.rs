//! The saved game's header: its version, its setup (the tile sets, the
//! rules and figures JCloisterZone was given), its players and its
//! annotations (a draw order, an end turn), and the positions and
//! rotations its messages write. The replay itself is read in `mod.rs`.

use serde_json::{Map, Value};

use carcassonne_engine::setup::MAX_FIGURES;
use carcassonne_engine::{Expansion, LabyrinthVariant, Pos, Rotation, RuleOptions, TileKind, WagonMove};

use crate::error::{malformed, unsupported, JczError};
use crate::tiles::{self, Sets};

pub(super) fn strip_setup(message: &str) -> String {
    message.strip_prefix("setup: ").unwrap_or(message).to_string()
}

pub(super) fn check_version(top: &Map<String, Value>) -> Result<(), JczError> {
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

/// The expansion a game element of JCloisterZone belongs to, for the
/// elements of the expansions played most with those read here.
fn element_expansion(name: &str) -> Option<&'static str> {
    Some(match name {
        "bridge" | "castle" | "bazaar" => "Bridges, Castles & Bazaars",
        "tower" => "The Tower",
        "dragon" | "fairy" | "princess" | "portal" => "The Princess & the Dragon",
        "phantom" => "The Phantom",
        "king" | "robber" => "King & Robber",
        "shepherd" => "Hills & Sheep",
        _ => return None,
    })
}

pub(super) fn read_setup(v: &Value) -> Result<(Sets, RuleOptions), JczError> {
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
            "river/1:1" | "river/1:2" => sets.river = true,
            "labyrinth" | "labyrinth:1" => sets.labyrinth = true,
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
                        "tile set {other} is not supported (only the base game, The Ferries, Inns & Cathedrals, Abbey & Mayor, Traders & Builders, The River I and The Labyrinth are)"
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
    // The Abbot: abbots a player, and whether the gardens count.
    let (mut abbots, mut garden) = (0u8, false);
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
            "garden" => garden = true,
            "abbey" | "mayor" | "wagon" | "barn" | "builder" | "pig" | "abbot" => {
                let n = match value {
                    Value::Bool(true) => Some(1.0),
                    v => number(v),
                };
                let at = format!("setup.elements.{name}");
                let n = match n {
                    Some(n) if n.fract() == 0.0 && (1.0..=f64::from(MAX_FIGURES)).contains(&n) => n as u8,
                    _ => {
                        return Err(unsupported(
                            at,
                            format!("{value} {name}s a player are not supported (1 to {MAX_FIGURES} are)"),
                        ))
                    }
                };
                if name == "abbot" {
                    abbots = n;
                } else {
                    let slot = abbey_counts.iter_mut().chain(traders_counts.iter_mut()).find(|(k, _)| k == name);
                    slot.expect("listed").1 = n;
                }
            }
            other => {
                let of = element_expansion(other).map(|e| format!(" ({e})")).unwrap_or_default();
                return Err(unsupported(
                    format!("setup.elements.{other}"),
                    format!(
                        "game element {other}{of} is not supported (only followers, farmers, ferries, big followers, inns, cathedrals, abbeys, mayors, wagons, barns, builders, pigs, traders, pig-herds, abbots and gardens are)"
                    ),
                ));
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
    // The Abbot: its abbots, and its garden tiles where the set basic:2
    // draws them and the gardens count.
    sets.abbot = abbots > 0;
    sets.abbot_gardens = sets.abbot && garden && sets.gardens;
    if abbots > 1 {
        options.figures.insert("abbot".to_string(), abbots);
    }
    // An expansion in play for its figures only: the record names the
    // expansions whose tiles are in the bag.
    if sets.abbey_rules && !sets.abbey || sets.traders_rules && !sets.traders || sets.abbot && !sets.abbot_gardens {
        let mut with_tiles = Vec::new();
        for (on, e) in [
            (sets.ferries, Expansion::Ferries),
            (sets.inns, Expansion::Inns),
            (sets.abbey, Expansion::Abbey),
            (sets.traders, Expansion::Traders),
            (sets.river, Expansion::River),
            (sets.abbot_gardens, Expansion::Abbot),
            (sets.labyrinth, Expansion::Labyrinth),
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
            } else if name == "labyrinth-variant" && sets.labyrinth {
                match value.as_str() {
                    Some("basic") => options.labyrinth_variant = Some(LabyrinthVariant::Basic),
                    Some("advanced") | None => {}
                    Some(other) => {
                        return Err(unsupported(
                            at,
                            format!("labyrinth-variant {other} is not supported (only basic or advanced)"),
                        ))
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
        // The River's spring starts a game with The River, D any other.
        let tile = if sets.river { "RI/s" } else { "BA/RCr" };
        let ok = match start {
            Value::Null => true,
            Value::Array(items) => {
                items.len() == 1
                    && items[0].get("tile").and_then(Value::as_str) == Some(tile)
                    && items[0].get("x").and_then(Value::as_i64) == Some(0)
                    && items[0].get("y").and_then(Value::as_i64) == Some(0)
                    && items[0].get("rotation").is_none_or(|r| read_rotation(r).ok() == Some(Rotation::R0))
            }
            _ => false,
        };
        if !ok {
            return Err(unsupported(
                "setup.start",
                format!("only the start tile {tile} at [0, 0] turned 0 is supported (BA/RCr, or RI/s with The River)"),
            ));
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

pub(super) fn read_players(v: Option<&Value>) -> Result<Vec<String>, JczError> {
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
pub(super) fn read_draw_order(v: Option<&Value>, sets: Sets) -> Result<Option<Vec<TileKind>>, JczError> {
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
pub(super) fn read_end_turn(v: Option<&Value>) -> Result<Option<u64>, JczError> {
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

pub(super) fn read_rotation(v: &Value) -> Result<Rotation, String> {
    let degrees = match v {
        Value::String(s) => s.strip_prefix('R').unwrap_or(s).parse::<i64>().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    };
    degrees.and_then(Rotation::from_degrees).ok_or_else(|| format!("{v} is not a rotation (R0, R90, R180 or R270)"))
}

pub(super) fn read_position(v: Option<&Value>) -> Result<Pos, String> {
    let bad = || format!("{} is not a position [x, y]", v.map_or("nothing".to_string(), |v| v.to_string()));
    let arr = v.and_then(Value::as_array).ok_or_else(bad)?;
    let coord = |i: usize| arr.get(i).and_then(Value::as_i64).and_then(|c| i32::try_from(c).ok());
    match (arr.len(), coord(0), coord(1)) {
        (2, Some(x), Some(y)) => Ok(Pos::new(x, y)),
        _ => Err(bad()),
    }
}
