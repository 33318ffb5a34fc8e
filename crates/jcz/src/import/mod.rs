//! Reading a JCloisterZone 5.x saved game into a game record.

use serde_json::{Map, Value};

use carcassonne_engine::record::{Setup, FORMAT_V1, FORMAT_V2};
use carcassonne_engine::{
    Action, Actor, Edition, Expansion, FollowerKind, Game, JettyPair, Placement, PlayError, Pos, Record, Step, TileKind,
};
use carcassonne_engine::{Corner, Location};

use crate::error::{illegal, malformed, unsupported, JczError};
use crate::follower_step_offered;
use crate::location;
use crate::tiles::{self, Sets};

mod header;
use header::{
    check_version, read_draw_order, read_end_turn, read_players, read_position, read_rotation, read_setup, strip_setup,
};

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
    if sets.river {
        expansions.push(Expansion::River);
    }
    if sets.abbot {
        expansions.push(Expansion::Abbot);
    }
    if sets.labyrinth {
        expansions.push(Expansion::Labyrinth);
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
            "RETURN_MEEPLE" => self.return_meeple(&at, payload),
            "COMMIT" => self.commit(&at),
            other => Err(unsupported(
                &at,
                format!("message {other} is not supported (only PLACE_TILE, DEPLOY_MEEPLE, RETURN_MEEPLE, PLACE_TOKEN, PASS and COMMIT are)"),
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
            Some(&"abbot") => FollowerKind::Abbot,
            Some(_) => {
                return Err(unsupported(
                    at,
                    format!(
                        "meeple {meeple} is not supported (only small and big followers, mayors, wagons, barns, builders, pigs and abbots are)"
                    ),
                ))
            }
        };
        if self.game.state().rules().figure_count(figure) == 0 {
            return Err(illegal(
                at,
                format!("meeple {meeple} is {}, and this game gives the players none", figure.with_article()),
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

    /// An abbot taken back instead of deploying (source `ABBOT_RETURN`),
    /// from the tile its pointer names.
    fn return_meeple(&mut self, at: &str, payload: &Value) -> Result<(), JczError> {
        let source = payload.get("source").and_then(Value::as_str).unwrap_or("");
        if source != "ABBOT_RETURN" {
            return Err(unsupported(
                at,
                format!("RETURN_MEEPLE from {source} is not supported (only ABBOT_RETURN, the abbot taken back)"),
            ));
        }
        let turn = self.open_turn(at, "RETURN_MEEPLE")?;
        if turn.acted {
            return Err(illegal(at, "a second follower step in one turn"));
        }
        let pointer = payload.get("pointer").ok_or_else(|| malformed(at, "RETURN_MEEPLE without a pointer"))?;
        let meeple = pointer.get("meepleId").and_then(Value::as_str).unwrap_or("");
        if meeple.split('.').nth(1) != Some("abbot") {
            return Err(illegal(at, format!("meeple {meeple} is not an abbot: only an abbot is taken back")));
        }
        let feature = pointer.get("featurePointer").unwrap_or(pointer);
        let pos = read_position(feature.get("position")).map_err(|e| malformed(at, e))?;
        self.play(Action::ReturnAbbot(pos), at)?;
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
