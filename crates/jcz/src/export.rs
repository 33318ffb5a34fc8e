//! Writing a game record as a JCloisterZone 5.x saved game.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{json, Value};

use carcassonne_engine::features::PieceId;
use carcassonne_engine::{
    Action, Actor, Corner, Edition, Event, Expansion, FollowerKind, Game, HalfEdge, JettyPair, Location, Placement,
    Pos, Record, Step,
};

use crate::error::{illegal, unsupported, JczError};
use crate::follower_step_offered;
use crate::location;
use crate::tiles;
use crate::walk::offered_ferries;

/// Settings of an export that the record does not hold.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The `created` time of the saved game (ISO 8601, UTC).
    pub created: String,
    /// The `appVersion` written into the saved game.
    pub app_version: String,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions { created: "1970-01-01T00:00:00.000Z".to_string(), app_version: "5.12.0".to_string() }
    }
}

/// A record written as a saved game.
#[derive(Clone, Debug)]
pub struct Export {
    /// The saved game (JSON, pretty-printed).
    pub text: String,
    /// Differences the saved game cannot avoid, one sentence each.
    pub warnings: Vec<String>,
}

/// JCloisterZone's lake tiles: those of our second edition (c2).
const JCZ_LAKE_COUNTS: [(&str, u8); 3] = [("FC", 3), ("F3", 4), ("F4", 1)];

/// Milliseconds between two messages in the written game clock.
const CLOCK_STEP: u64 = 1000;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SavedGame {
    app_version: String,
    game_id: String,
    name: String,
    initial_random: f64,
    initial_seed: String,
    created: String,
    clock: u64,
    setup: Value,
    players: Vec<Value>,
    replay: Vec<Value>,
    game_annotations: Value,
}

/// Writes a record as a saved game with default [`ExportOptions`].
pub fn export(record: &Record) -> Result<Export, JczError> {
    export_with(record, &ExportOptions::default())
}

/// Writes a record as a saved game that JCloisterZone 5 opens and replays:
/// its setup, the players in turn order, one message per decision, and a
/// `drawOrder` annotation that makes JCloisterZone draw the record's tiles,
/// discarded ones included, in the record's order.
pub fn export_with(record: &Record, options: &ExportOptions) -> Result<Export, JczError> {
    let entries = record.actions().map_err(|e| illegal("", e.to_string()))?;
    let rules = record.setup.rules().map_err(|e| illegal("", e.to_string()))?;
    let ferries = rules.has(Expansion::Ferries);
    let inns = rules.has(Expansion::Inns);
    let abbey = rules.has(Expansion::Abbey);
    if ferries && !rules.has_tiles(Expansion::Ferries) || inns && !rules.has_tiles(Expansion::Inns) {
        return Err(unsupported(
            "setup.rules.tile-sets",
            "JCloisterZone plays The Ferries and Inns & Cathedrals with their tiles only",
        ));
    }
    if rules.figure_count(FollowerKind::Normal) != 7 {
        return Err(unsupported(
            "setup.rules.figures",
            "JCloisterZone's saved games are read here with 7 followers a player only",
        ));
    }
    let mut warnings = Vec::new();
    if ferries {
        check_lake_counts(record, rules.edition(), &mut warnings)?;
    }

    let mut writer = Writer {
        game: Game::new(record.setup.clone()).map_err(|e| illegal("", e.to_string()))?,
        replay: Vec::new(),
        draw_order: Vec::new(),
        clock: 0,
        meeples: BTreeSet::new(),
        on_board: BTreeMap::new(),
        last_deployed: 0,
    };
    for (i, actions) in entries.iter().enumerate() {
        writer.entry(i, actions)?;
    }
    if let Some(last) = record.turns.last().filter(|t| t.is_pending()) {
        warnings.push(format!(
            "turn {}: tile {} is drawn and not yet placed; a JCloisterZone saved game holds whole turns, so it is the next tile JCloisterZone draws (an import of the saved game ends before it)",
            record.turns.len(),
            last.tile
        ));
    }

    let mut sets = json!({"basic:1": 1});
    let mut elements = json!({"small-follower": 7, "farmers": true});
    if inns {
        // As JCloisterZone writes the expansion's set and its three elements.
        sets["inns-and-cathedrals:1"] = json!(1);
        elements["big-follower"] = json!(1);
        elements["cathedral"] = json!(true);
        elements["inn"] = json!(true);
    }
    if ferries {
        sets["ferries"] = json!(1);
        elements["ferry"] = json!(1);
    }
    let mut jcz_rules = json!({"tiny-city-scoring": rules.tiny_city_scoring().to_string()});
    if abbey {
        // JCloisterZone chooses A&M's tiles and each of its figures apart.
        if rules.has_tiles(Expansion::Abbey) {
            sets["abbey-and-mayor:1"] = json!(1);
        }
        for (name, n) in [
            ("abbey", rules.abbeys()),
            ("mayor", rules.figure_count(FollowerKind::Mayor)),
            ("wagon", rules.figure_count(FollowerKind::Wagon)),
            ("barn", rules.figure_count(FollowerKind::Barn)),
        ] {
            if n > 0 {
                elements[name] = json!(n);
            }
        }
        jcz_rules["wagon-move"] = json!(rules.wagon_move().name());
        jcz_rules["barn-placement"] = json!("not-occupied");
    }
    if rules.has(Expansion::River) {
        // JCloisterZone's set with the garden bend is the third edition's.
        sets[if rules.edition() == Edition::C3 { "river/1:2" } else { "river/1:1" }] = json!(1);
    }
    if rules.has(Expansion::Abbot) {
        // The abbot, and the gardens of the third edition's base set.
        elements["abbot"] = json!(rules.figure_count(FollowerKind::Abbot));
        if rules.has_tiles(Expansion::Abbot) {
            sets.as_object_mut().expect("an object").remove("basic:1");
            sets["basic:2"] = json!(1);
            elements["garden"] = json!(1);
        }
    }
    if rules.has(Expansion::Labyrinth) {
        sets["labyrinth"] = json!(1);
        jcz_rules["labyrinth-variant"] = json!(rules.labyrinth_variant().name());
    }
    if rules.has(Expansion::Traders) {
        // As JCloisterZone's client sets the expansion: its set, the two
        // figures and the goods, each of which a setup may leave out.
        if rules.has_tiles(Expansion::Traders) {
            sets["traders-and-builders:1"] = json!(1);
            elements["traders"] = json!(true);
        }
        for (name, kind) in [("builder", FollowerKind::Builder), ("pig", FollowerKind::Pig)] {
            if rules.figure_count(kind) > 0 {
                elements[name] = json!(rules.figure_count(kind));
            }
        }
    }
    let setup = json!({
        "sets": sets,
        "elements": elements,
        "rules": jcz_rules,
        "timer": null,
        "start": [{"tile": tiles::to_jcz(carcassonne_engine::Bag::start_for(&rules)), "x": 0, "y": 0, "rotation": 0}],
    });
    let players = record.setup.players.iter().enumerate().map(|(i, name)| json!({"name": name, "slot": i})).collect();
    let body = serde_json::to_string(record).expect("a record serializes");
    let saved = SavedGame {
        app_version: options.app_version.clone(),
        game_id: format!("{:016x}", fnv1a(body.as_bytes())),
        name: String::new(),
        initial_random: 0.0,
        initial_seed: "0".to_string(),
        created: options.created.clone(),
        clock: writer.clock,
        setup,
        players,
        replay: writer.replay,
        game_annotations: json!({"drawOrder": writer.draw_order}),
    };
    let text = serde_json::to_string_pretty(&saved).expect("a saved game serializes") + "\n";
    Ok(Export { text, warnings })
}

/// JCloisterZone has only the second edition's lake tiles; a third-edition
/// game exports as long as it draws no more of each than that.
fn check_lake_counts(record: &Record, edition: Edition, warnings: &mut Vec<String>) -> Result<(), JczError> {
    if edition == Edition::C2 {
        return Ok(());
    }
    for (id, most) in JCZ_LAKE_COUNTS {
        let mut n = 0;
        for (i, turn) in record.turns.iter().enumerate() {
            if turn.tile == id {
                n += 1;
                if n > most {
                    return Err(unsupported(
                        format!("turn {}", i + 1),
                        format!("JCloisterZone's The Ferries has {most} {id} lake tile(s) (the c2 edition's); this {edition} game draws another"),
                    ));
                }
            }
        }
    }
    warnings.push(format!(
        "JCloisterZone deals the c2 edition's lake tiles, not the {edition} edition's: the game is the same up to here, but its bag holds other lake tiles"
    ));
    Ok(())
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ *b as u64).wrapping_mul(0x100_0000_01b3))
}

struct Writer {
    game: Game,
    replay: Vec<Value>,
    draw_order: Vec<&'static str>,
    clock: u64,
    /// The meeples on the board: player, figure and number (JCloisterZone
    /// numbers each player's figures of a kind from 1: `0.small.1` to
    /// `0.small.7`, `0.big.1`).
    meeples: BTreeSet<(usize, FollowerKind, u8)>,
    /// The meeple on each piece (a piece holds one at most).
    on_board: BTreeMap<PieceId, (usize, FollowerKind, u8)>,
    /// Number of the meeple deployed last (it may be back in supply
    /// already, if its feature scored at once).
    last_deployed: u8,
}

impl Writer {
    fn message(&mut self, kind: &str, payload: Value, player: usize) {
        self.clock += CLOCK_STEP;
        self.replay.push(json!({"type": kind, "payload": payload, "player": player, "clock": self.clock}));
    }

    /// Plays an action of the record, keeping track of which meeple is where.
    fn play(&mut self, action: Action, at: &str) -> Result<(), JczError> {
        let mut events = Vec::new();
        self.game.play_with(action, &mut events).map_err(|e| illegal(at, e.to_string()))?;
        for e in events {
            match e {
                Event::FollowerDeployed { player, figure, at: pos, location } => {
                    let piece = self.piece(pos, location);
                    let free =
                        (1..=u8::MAX).find(|n| !self.meeples.contains(&(player, figure, *n))).expect("few figures");
                    self.meeples.insert((player, figure, free));
                    self.on_board.insert(piece, (player, figure, free));
                    self.last_deployed = free;
                }
                Event::FollowerReturned { at: pos, location, .. } => {
                    let piece = self.piece(pos, location);
                    if let Some(meeple) = self.on_board.remove(&piece) {
                        self.meeples.remove(&meeple);
                    }
                }
                Event::WagonMoved { from, from_location, at: pos, location, .. } => {
                    let (old, new) = (self.piece(from, from_location), self.piece(pos, location));
                    if let Some(meeple) = self.on_board.remove(&old) {
                        self.on_board.insert(new, meeple);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn piece(&self, pos: Pos, loc: Location) -> PieceId {
        let state = self.game.state();
        let tile = state.board().tile_index(pos).expect("a placed tile");
        state.resolve(tile, loc).expect("a feature of the tile")
    }

    /// Writes the turn's COMMIT once: before the wagon moves that follow
    /// its scoring, or at its end.
    fn commit(&mut self, committed: &mut bool, placed: Option<Pos>, moved: &[Pos], player: usize) {
        if std::mem::replace(committed, true) {
            return;
        }
        // JCloisterZone waits for a PASS while it offers ferries to move.
        if let Some(pos) = placed {
            if ferries_in_play(&self.game) && !offered_ferries(self.game.state(), pos, moved).is_empty() {
                self.message("PASS", json!({}), player);
            }
        }
        self.message("COMMIT", json!({"random": 0.0, "salt": "0"}), player);
    }

    /// Writes the messages of one record entry, from its actions.
    fn entry(&mut self, i: usize, actions: &[Action]) -> Result<(), JczError> {
        let at = format!("turn {}", i + 1);
        let player = self.game.state().current_player();
        let mut placed: Option<Pos> = None;
        let mut moved: Vec<Pos> = Vec::new();
        // Whether the turn's COMMIT is written, and who acted after it.
        let (mut committed, mut last) = (false, player);
        for &action in actions {
            match action {
                Action::Draw(kind) => {
                    self.draw_order.push(tiles::to_jcz(kind));
                    self.play(action, &at)?;
                }
                // JCloisterZone discards a tile that fits nowhere by itself.
                Action::Discard => return self.play(action, &at),
                Action::Place(Placement { pos, rot }) => {
                    let kind = self.game.state().drawn().expect("a tile is drawn before it is placed");
                    self.play(action, &at)?;
                    self.message(
                        "PLACE_TILE",
                        json!({"tileId": tiles::to_jcz(kind), "rotation": format!("R{}", rot.degrees()), "position": [pos.x, pos.y]}),
                        player,
                    );
                    placed = Some(pos);
                }
                Action::Deploy(FollowerKind::Barn, Location::Corner(corner)) => {
                    let tile = *self.game.state().placed_tile().expect("a barn goes on the tile just placed");
                    // JCloisterZone points at the field of the tile south-east
                    // of the corner, whose north-west corner it is.
                    let (dx, dy) = match corner {
                        Corner::Nw => (0, 0),
                        Corner::Ne => (1, 0),
                        Corner::Sw => (0, 1),
                        Corner::Se => (1, 1),
                    };
                    let pos = Pos::new(tile.pos.x + dx, tile.pos.y + dy);
                    let se = *self.game.state().board().tile_at(pos).expect("a barn's corner has four tiles");
                    self.play(action, &at)?;
                    let (feature, location) = location::to_jcz(se.kind, se.rot, Location::Field(HalfEdge::Nnw));
                    let n = self.last_deployed;
                    self.message(
                        "DEPLOY_MEEPLE",
                        json!({
                            "pointer": {"position": [pos.x, pos.y], "feature": feature, "location": location},
                            "meepleId": format!("{player}.barn.{n}"),
                        }),
                        player,
                    );
                }
                Action::Deploy(figure, loc) => {
                    let tile = *self.game.state().placed_tile().expect("a follower goes on the tile just placed");
                    self.play(action, &at)?;
                    let (feature, location) = location::to_jcz(tile.kind, tile.rot, loc);
                    let n = self.last_deployed;
                    self.message(
                        "DEPLOY_MEEPLE",
                        json!({
                            "pointer": {"position": [tile.pos.x, tile.pos.y], "feature": feature, "location": location},
                            "meepleId": format!("{player}.{}.{n}", meeple_class(figure)),
                        }),
                        player,
                    );
                }
                Action::ReturnAbbot(pos) => {
                    let tile = *self.game.state().board().tile_at(pos).ok_or_else(|| illegal(&at, "no tile there"))?;
                    let state = self.game.state();
                    let piece = state.followers().iter().find(|f| {
                        f.kind == FollowerKind::Abbot
                            && f.player as usize == player
                            && state.piece_location(f.piece).0 == pos
                    });
                    let (loc, n) = match piece {
                        Some(f) => (state.piece_location(f.piece).1, self.on_board.get(&f.piece).map_or(1, |m| m.2)),
                        None => (Location::Monastery, 1),
                    };
                    self.play(action, &at)?;
                    let (feature, location) = location::to_jcz(tile.kind, tile.rot, loc);
                    self.message(
                        "RETURN_MEEPLE",
                        json!({
                            "pointer": {
                                "featurePointer": {"position": [pos.x, pos.y], "feature": feature, "location": location},
                                "meepleId": format!("{player}.abbot.{n}"),
                            },
                            "source": "ABBOT_RETURN",
                        }),
                        player,
                    );
                }
                Action::PlaceAbbey(pos) => {
                    self.play(action, &at)?;
                    self.message(
                        "PLACE_TILE",
                        json!({"tileId": tiles::ABBEY_TILE, "rotation": "R0", "position": [pos.x, pos.y]}),
                        player,
                    );
                    placed = Some(pos);
                }
                Action::MoveWagon { at: to_pos, to } => {
                    self.commit(&mut committed, placed, &moved, player);
                    let state = self.game.state();
                    let w = state.abbey_mayor().waiting[0];
                    let wagon = self.on_board.get(&w.piece).copied();
                    let owner = w.player as usize;
                    let tile =
                        *state.board().tile_at(to_pos).ok_or_else(|| illegal(&at, "a wagon moves to a placed tile"))?;
                    self.play(action, &at)?;
                    let (feature, location) = location::to_jcz(tile.kind, tile.rot, to);
                    let n = wagon.map_or(1, |m| m.2);
                    self.message(
                        "DEPLOY_MEEPLE",
                        json!({
                            "pointer": {"position": [to_pos.x, to_pos.y], "feature": feature, "location": location},
                            "meepleId": format!("{owner}.wagon.{n}"),
                        }),
                        owner,
                    );
                    last = owner;
                }
                Action::Pass if self.game.state().step() == Step::MoveWagon => {
                    self.commit(&mut committed, placed, &moved, player);
                    let owner = match self.game.state().actor() {
                        Some(Actor::Player(p)) => p,
                        _ => player,
                    };
                    self.play(action, &at)?;
                    self.message("PASS", json!({}), owner);
                    last = owner;
                }
                // Declining the abbey: JCloisterZone draws without a word,
                // except in the last round after the final tile.
                Action::Pass if self.game.state().step() == Step::Abbey => {
                    let last_round = self.game.state().abbey_mayor().final_round.is_some();
                    self.play(action, &at)?;
                    if last_round {
                        self.message("PASS", json!({}), player);
                    }
                }
                Action::Pass if self.game.state().step() == Step::Deploy => {
                    // JCloisterZone has no follower step to pass when it offers no follower.
                    let offered = follower_step_offered(self.game.state());
                    self.play(action, &at)?;
                    if offered {
                        self.message("PASS", json!({}), player);
                    }
                }
                Action::PlaceFerry(pair) => {
                    let pos = placed.expect("a ferry goes on the tile just placed");
                    self.play(action, &at)?;
                    self.message("PLACE_TOKEN", ferry_payload(pos, pair), player);
                }
                Action::MoveFerry { at: ferry_pos, ferry: pair } => {
                    let pos = placed.expect("ferries move after a tile is placed");
                    let at = format!("turn {}: moves[{}]", i + 1, moved.len());
                    if !offered_ferries(self.game.state(), pos, &moved).contains(&ferry_pos) {
                        return Err(unsupported(
                            &at,
                            format!(
                                "JCloisterZone would not offer to move the ferry at {ferry_pos}: it works out again after each move which ferries the new tile's roads reach"
                            ),
                        ));
                    }
                    self.play(action, &at)?;
                    self.message("PLACE_TOKEN", ferry_payload(ferry_pos, pair), player);
                    moved.push(ferry_pos);
                }
                // Ending the ferry moves: JCloisterZone's PASS is written below.
                Action::Pass => self.play(action, &at)?,
            }
        }
        // A game in progress: the drawn tile waits in the draw order, so
        // JCloisterZone draws it next.
        if placed.is_none() {
            return Ok(());
        }
        if committed {
            // The wagon moves are committed by whoever made the last.
            self.message("COMMIT", json!({"random": 0.0, "salt": "0"}), last);
        } else {
            self.commit(&mut committed, placed, &moved, player);
        }
        Ok(())
    }
}

/// JCloisterZone's name of a figure in a meeple id (`0.small.1`).
fn meeple_class(figure: FollowerKind) -> &'static str {
    match figure {
        FollowerKind::Normal => "small",
        FollowerKind::Big => "big",
        other => other.name(),
    }
}

fn ferries_in_play(game: &Game) -> bool {
    game.state().rules().has(Expansion::Ferries)
}

fn ferry_payload(pos: Pos, pair: JettyPair) -> Value {
    json!({
        "token": "FERRY",
        "pointer": {"position": [pos.x, pos.y], "feature": "Road", "location": location::jetty_pair_name(pair)},
    })
}
