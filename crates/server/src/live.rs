//! A game held by the server: the engine's game with its record, the seats,
//! the secret seed, the version, the log, and the view built from them.

use std::sync::Arc;
use std::time::Duration;

use carcassonne_bots::mcts::Budget;
use carcassonne_bots::{derive_seed, Bot, BotSpec, MctsBot, MctsConfig};
use carcassonne_engine::record::{Record, Setup};
use carcassonne_engine::{Action, Actor, Event, Game};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::error::GameError;
use crate::wire::{xy, LogEntry};

/// Stream of [`derive_seed`] for tile draws; bots use others.
const DRAW_STREAM: u64 = 0xD4A3;
const BOT_STREAM: u64 = 0xB07;

/// The longest search a bot level may ask for.
const MAX_BOT_TIME: Duration = Duration::from_secs(5);
const MAX_BOT_ITERATIONS: u32 = 50_000;

/// One seat as stored (with its secret token, for humans).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatRow {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: SeatKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// This seat's decisions stay provisional until it ends its turn, and
    /// it may take them back until then (games created with `undo`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undo: bool,
    /// The seat's colour, one of [`COLOURS`] (games from before colours
    /// were chosen have none: the UI colours them by seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// This seat may ask for hints, the strongest bot's choice for the
    /// decision at hand (games created with `hints`); each is written in
    /// the record.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

/// The colours a seat may have, the defaults in seat order first.
pub const COLOURS: [&str; 8] = ["red", "blue", "yellow", "black", "purple", "green", "orange", "pink"];

/// The seats' colours: those asked for (each one of [`COLOURS`], no two
/// alike), the others the first ones left, in seat order.
pub fn colours(asked: &[Option<String>]) -> Result<Vec<String>, GameError> {
    let mut taken: Vec<&str> = Vec::new();
    for c in asked.iter().flatten() {
        let Some(known) = COLOURS.iter().find(|k| **k == c.as_str()) else {
            return Err(GameError::InvalidSetup(format!(
                "colour '{}' is not one of {}",
                crate::error::clip(c, 20),
                COLOURS.join(", ")
            )));
        };
        if taken.contains(known) {
            return Err(GameError::InvalidSetup(format!("two seats cannot both be {known}")));
        }
        taken.push(known);
    }
    let mut free = COLOURS.iter().filter(|c| !taken.contains(c));
    asked
        .iter()
        .map(|c| match c {
            Some(c) => Ok(c.clone()),
            None => free.next().map(|c| c.to_string()).ok_or_else(|| GameError::InvalidSetup("no colour left".into())),
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    Human,
    Bot,
}

/// A seat as everyone may see it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatPublic {
    pub seat: usize,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: SeatKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// The seat may ask for hints.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

/// How a bot seat plays.
#[derive(Clone, Debug)]
pub enum BotPlan {
    Spec(BotSpec),
    Mcts(MctsConfig),
}

impl BotPlan {
    /// `random`, a level of the ladder (`beginner` to `expert`, the bots'
    /// [`LEVELS`](carcassonne_bots::LEVELS)) or a bot spec, capped: one tree, and at most
    /// [`MAX_BOT_TIME`] or [`MAX_BOT_ITERATIONS`] a decision.
    pub fn parse(level: &str) -> Result<BotPlan, GameError> {
        // The bots' message names random and every level of the ladder.
        let spec: BotSpec = level
            .parse()
            .map_err(|e: carcassonne_bots::SpecError| GameError::InvalidSetup(format!("bot level: {e}")))?;
        match spec.mcts() {
            None => Ok(BotPlan::Spec(spec)),
            Some(c) => {
                let mut c = *c;
                c.trees = 1;
                c.budget = match c.budget {
                    Budget::Time(t) => Budget::Time(t.min(MAX_BOT_TIME)),
                    Budget::Iterations(n) => Budget::Iterations(n.min(MAX_BOT_ITERATIONS)),
                };
                Ok(BotPlan::Mcts(c))
            }
        }
    }

    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotPlan::Spec(s) => s.build(seed),
            BotPlan::Mcts(c) => Box::new(MctsBot::new(*c, seed)),
        }
    }
}

/// What is fixed when a game is created.
#[derive(Clone, Debug)]
pub struct Meta {
    pub id: String,
    pub created: i64,
    pub seed: u64,
    pub seats: Vec<SeatRow>,
    /// Created as rated ([`crate::ratings`]).
    pub rated: bool,
}

impl Meta {
    pub fn public_seats(&self) -> Vec<SeatPublic> {
        self.seats
            .iter()
            .enumerate()
            .map(|(seat, s)| SeatPublic {
                seat,
                name: s.name.clone(),
                kind: s.kind,
                level: s.level.clone(),
                colour: s.colour.clone(),
                hints: s.hints,
            })
            .collect()
    }
}

/// The most recently placed tile.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct LastPlaced {
    pub tile: &'static str,
    pub at: [i32; 2],
    pub rot: u16,
    pub seat: usize,
}

/// A game in play (or replayed to some version).
#[derive(Clone, Debug)]
pub struct Live {
    pub meta: Arc<Meta>,
    pub game: Game,
    /// Actions applied since creation, draws included.
    pub version: u64,
    /// The game log as JSON: its entries, comma-separated, without brackets
    /// (kept serialized, so that a view costs no more late in the game).
    pub log: String,
    pub last_placed: Option<LastPlaced>,
    /// Who made each action (`None`: the server's draw), for the history.
    pub actions: Vec<(Option<usize>, Action)>,
    /// The acting seat's provisional decisions of this turn, if any (only
    /// on the game as stored, never on a tentative one).
    pub pending: Option<Box<Pending>>,
    /// The game's clocks, if it has a time control ([`crate::game::clock`]).
    pub clock: Option<crate::game::clock::Clock>,
}

/// A seat's decisions of the current turn that are not final yet: kept in
/// memory, seen by that seat alone, taken back one by one or made final
/// together with the next draw when the seat ends its turn.
#[derive(Clone, Debug)]
pub struct Pending {
    pub seat: usize,
    pub actions: Vec<Action>,
    /// The game with those decisions played (no draw after them).
    pub next: Live,
    /// Turns completed in the stored game, before these decisions.
    pub turns: u32,
}

impl Pending {
    /// Whether the seat's turn is played out: a draw is due, the game is
    /// over, another seat decides next (a wagon's owner), or the next turn
    /// has begun (Traders & Builders: the same seat's second turn, which
    /// may begin with its abbey before any draw). The seat may then only
    /// end the turn or take decisions back.
    pub fn played_out(&self) -> bool {
        self.next.to_act() != Some(self.seat) || self.next.state().turns() != self.turns
    }
}

/// A client's action applied to a copy of the game: the new game, and only
/// the new log entries and actions.
pub struct Applied {
    pub next: Live,
}

impl Applied {
    pub fn version(&self) -> u64 {
        self.next.version
    }

    pub fn game(&self) -> &Game {
        &self.next.game
    }
}

impl Live {
    /// `game` before any action is played on it.
    fn fresh(meta: Arc<Meta>, game: Game) -> Live {
        Live {
            meta,
            game,
            version: 0,
            log: String::new(),
            last_placed: None,
            actions: Vec::new(),
            pending: None,
            clock: None,
        }
    }

    /// A new game with its first tile drawn.
    pub fn create(meta: Arc<Meta>, setup: Setup) -> Result<Live, GameError> {
        let game = Game::new(setup).map_err(|e| GameError::InvalidSetup(e.to_string()))?;
        let mut live = Live::fresh(meta, game);
        live.draw_if_due()?;
        Ok(live)
    }

    pub fn state(&self) -> &carcassonne_engine::State {
        self.game.state()
    }

    pub fn record(&self) -> &Record {
        self.game.record()
    }

    /// The game is over: played to its end, or lost on time by a seat.
    pub fn is_over(&self) -> bool {
        self.state().is_over() || self.forfeit().is_some()
    }

    /// The seat that lost on time, if one did.
    pub fn forfeit(&self) -> Option<usize> {
        self.clock.as_ref().and_then(|c| c.forfeit)
    }

    /// Whether the server's bot plays for `seat`: a bot's seat, or a human
    /// seat whose time ran out.
    pub fn bot_plays(&self, seat: usize) -> bool {
        self.meta.seats.get(seat).is_some_and(|s| s.kind == SeatKind::Bot)
            || self.clock.as_ref().is_some_and(|c| c.is_out(seat))
    }

    /// The seat that must act now.
    pub fn to_act(&self) -> Option<usize> {
        match self.state().actor() {
            Some(Actor::Player(p)) => Some(p),
            _ => None,
        }
    }

    /// The bot seat that must act now, with how it plays.
    pub fn bot_to_act(&self) -> Option<(usize, BotPlan)> {
        if self.is_over() {
            return None;
        }
        let seat = self.to_act()?;
        let s = self.meta.seats.get(seat)?;
        let level = match s.kind {
            SeatKind::Bot => s.level.as_deref().unwrap_or("easy"),
            SeatKind::Human if self.bot_plays(seat) => crate::game::clock::TIMEOUT_LEVEL,
            SeatKind::Human => return None,
        };
        BotPlan::parse(level).ok().map(|p| (seat, p))
    }

    /// A seed for the bot deciding at the current version.
    pub fn bot_seed(&self) -> u64 {
        derive_seed(derive_seed(self.meta.seed, BOT_STREAM), self.version)
    }

    /// Plays one action, logging its events.
    fn play(&mut self, action: Action) -> Result<(), GameError> {
        let turn = self.state().turns() + 1;
        let seat = self.to_act();
        let mut events: Vec<Event> = Vec::new();
        self.game.play_with(action, &mut events)?;
        self.version += 1;
        self.actions.push((seat, action));
        for e in &events {
            if let Event::TilePlaced { player, tile, placement } = e {
                self.last_placed = Some(LastPlaced {
                    tile: tile.id(),
                    at: xy(placement.pos),
                    rot: placement.rot.degrees(),
                    seat: *player,
                });
            }
            let entry = LogEntry { version: self.version, turn, event: e.clone() };
            if let Ok(json) = serde_json::to_string(&entry) {
                if !self.log.is_empty() {
                    self.log.push(',');
                }
                self.log.push_str(&json);
            }
        }
        Ok(())
    }

    /// Chance's move, when due: the k-th draw is sampled from the bag with a
    /// generator seeded from (seed, k).
    pub(crate) fn draw_if_due(&mut self) -> Result<(), GameError> {
        if self.state().actor() != Some(Actor::Chance) {
            return Ok(());
        }
        let k = self.record().turns.len() as u64;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(derive_seed(self.meta.seed, DRAW_STREAM), k));
        let kind =
            self.state().bag().sample(&mut rng).ok_or_else(|| GameError::Internal("draw from an empty bag".into()))?;
        self.play(Action::Draw(kind))
    }

    /// Whether `seat`'s `action` is final at once even in a game whose turns
    /// are provisional: a discard or passing the abbey (a draw follows
    /// either), and a decision out of turn (a wagon's owner moving it after
    /// another player's turn: that player's turn is final already).
    pub fn final_at_once(&self, seat: usize, action: Action) -> bool {
        let s = self.state();
        action == Action::Discard
            || (s.step() == carcassonne_engine::Step::Abbey && action == Action::Pass)
            || seat != s.current_player()
    }

    /// Whether `seat` may play `action` on this game at `version`.
    /// Whether `seat` may decide now, having seen `version`: the game goes
    /// on, nothing was played since, and the seat is the one to act.
    pub(crate) fn check_turn(&self, seat: usize, version: u64) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if version != self.version {
            return Err(GameError::StaleVersion { current: self.version, sent: version });
        }
        match self.to_act() {
            Some(p) if p == seat => Ok(()),
            Some(p) => Err(GameError::NotYourTurn { seat, to_act: p }),
            // A game that goes on always has a player to act (the server draws).
            None => Err(GameError::Internal("no player is to act".into())),
        }
    }

    fn check_act(&self, seat: usize, version: u64, action: Action) -> Result<(), GameError> {
        self.check_turn(seat, version)?;
        if matches!(action, Action::Draw(_)) {
            return Err(GameError::Malformed("tiles are drawn by the server".into()));
        }
        Ok(self.state().check(action)?)
    }

    /// Checks `action` of `seat` and plays it, with the draw that follows,
    /// on a copy; `self` is unchanged.
    pub fn apply(&self, seat: usize, version: u64, action: Action) -> Result<Applied, GameError> {
        self.check_act(seat, version, action)?;
        let mut next = Live {
            meta: self.meta.clone(),
            game: self.game.clone(),
            version: self.version,
            log: String::new(),
            last_placed: self.last_placed,
            actions: Vec::new(),
            pending: None,
            clock: self.clock.clone(),
        };
        next.play(action)?;
        next.draw_if_due()?;
        Ok(Applied { next })
    }

    /// A whole copy of the game as stored, without provisional decisions
    /// (to play them on, or to change its clock).
    pub(crate) fn fork(&self) -> Live {
        Live {
            meta: self.meta.clone(),
            game: self.game.clone(),
            version: self.version,
            log: self.log.clone(),
            last_placed: self.last_placed,
            actions: self.actions.clone(),
            pending: None,
            clock: self.clock.clone(),
        }
    }

    /// Plays `action` of `seat` provisionally: after the seat's earlier
    /// provisional decisions of this turn, and without drawing after it.
    pub fn decide(&mut self, seat: usize, version: u64, action: Action) -> Result<(), GameError> {
        // Another seat knows only the stored game, never the decisions.
        let mine = self.pending.as_deref().filter(|p| p.seat == seat);
        // A turn played out is ended before the seat's next one (a second
        // turn) is played: only `end_turn` and `undo` are taken then.
        if let Some(p) = mine.filter(|p| p.played_out() && p.next.to_act() == Some(seat)) {
            if version != p.next.version {
                return Err(GameError::StaleVersion { current: p.next.version, sent: version });
            }
            return Err(GameError::EndTurnFirst);
        }
        let base = mine.map_or(&*self, |p| &p.next);
        base.check_act(seat, version, action)?;
        let mut next = base.fork();
        next.play(action)?;
        let mut actions = self.pending.take().map(|p| p.actions).unwrap_or_default();
        actions.push(action);
        let turns = self.state().turns();
        self.pending = Some(Box::new(Pending { seat, actions, next, turns }));
        Ok(())
    }

    /// The provisional decisions, as stored.
    pub fn provisional(&self) -> Option<String> {
        let p = self.pending.as_deref()?;
        let stored =
            crate::store::Provisional { seat: p.seat, actions: p.actions.iter().map(|a| a.to_string()).collect() };
        serde_json::to_string(&stored).ok()
    }

    /// Plays stored provisional decisions again.
    pub fn restore_provisional(&mut self, stored: &str) -> Result<(), String> {
        let p: crate::store::Provisional = serde_json::from_str(stored).map_err(|e| e.to_string())?;
        for a in &p.actions {
            let action: Action = a.parse().map_err(|e| format!("provisional decision '{a}': {e}"))?;
            let version = self.pending.as_deref().map_or(self.version, |p| p.next.version);
            self.decide(p.seat, version, action).map_err(|e| format!("provisional decision '{a}': {e}"))?;
        }
        Ok(())
    }

    /// The provisional decisions of `seat` at `version`, checked.
    fn pending_of(&self, seat: usize, version: u64) -> Result<&Pending, GameError> {
        let p = self.pending.as_deref().filter(|p| p.seat == seat);
        match p {
            Some(p) if p.next.version != version => {
                Err(GameError::StaleVersion { current: p.next.version, sent: version })
            }
            Some(p) => Ok(p),
            None if version != self.version => Err(GameError::StaleVersion { current: self.version, sent: version }),
            None => Err(GameError::NothingToUndo),
        }
    }

    /// Takes back the last provisional decision of `seat`.
    pub fn undo(&mut self, seat: usize, version: u64) -> Result<(), GameError> {
        let mut actions = self.pending_of(seat, version)?.actions.clone();
        actions.pop();
        if actions.is_empty() {
            self.pending = None;
            return Ok(());
        }
        let mut next = self.fork();
        for a in &actions {
            next.play(*a)?;
        }
        let turns = self.state().turns();
        self.pending = Some(Box::new(Pending { seat, actions, next, turns }));
        Ok(())
    }

    /// The game once `seat` ends its turn: its provisional decisions and the
    /// draw that follows them, on a copy, to store; `self` is unchanged.
    pub fn end_turn(&self, seat: usize, version: u64) -> Result<Live, GameError> {
        let p = self.pending_of(seat, version).map_err(|e| match e {
            GameError::NothingToUndo => GameError::TurnNotOver("this seat has no decision of this turn to end".into()),
            e => e,
        })?;
        // Played out for this seat: a draw is due, the game is over,
        // another seat decides next (a wagon's owner, out of turn), or its
        // second turn begins (with its abbey, before any draw).
        if !p.played_out() {
            let step = crate::view::step_name(p.next.state().step());
            return Err(GameError::TurnNotOver(format!("the turn goes on: the {step} step is to be played first")));
        }
        let mut next = p.next.fork();
        next.draw_if_due()?;
        Ok(next)
    }

    /// Takes in what [`apply`](Self::apply) made, once it is stored.
    pub fn commit(&mut self, applied: Applied) {
        let n = applied.next;
        self.game = n.game;
        self.version = n.version;
        if !self.log.is_empty() && !n.log.is_empty() {
            self.log.push(',');
        }
        self.log.push_str(&n.log);
        self.actions.extend(n.actions);
        self.last_placed = n.last_placed;
        self.clock = n.clock;
    }

    /// Replays a stored record up to `version` actions (the record's last
    /// entry may stop in the middle of a turn: the version says where), the
    /// whole record's hints with it.
    pub fn rebuild(meta: Arc<Meta>, record: &Record, version: u64) -> Result<Live, String> {
        Live::rebuild_hints(meta, record, version, true)
    }

    /// As [`rebuild`](Self::rebuild), to a past position: with the hints of
    /// the turns completed by then only, none asked later.
    pub fn rebuild_past(meta: Arc<Meta>, record: &Record, version: u64) -> Result<Live, String> {
        Live::rebuild_hints(meta, record, version, false)
    }

    fn rebuild_hints(meta: Arc<Meta>, record: &Record, version: u64, all_hints: bool) -> Result<Live, String> {
        let count = usize::try_from(version).map_err(|_| format!("version {version} is too large"))?;
        let actions = record.actions_upto(count).map_err(|e| e.to_string())?;
        let game = Game::new(record.setup.clone()).map_err(|e| e.to_string())?;
        let mut live = Live::fresh(meta, game);
        for action in actions {
            live.play(action).map_err(|e| format!("action {}: {e}", live.version + 1))?;
        }
        // The hints asked for are in the record, not among its actions.
        let turns = if all_hints { record.turns.len() } else { live.state().turns() as usize };
        live.game.copy_hints_of_turns(record, turns).map_err(|e| e.to_string())?;
        Ok(live)
    }

    /// Plays on to `version` of `record`, a later state of this same game
    /// (written by another server), without its provisional decisions.
    /// Fails, changing nothing, if the record does not continue this game;
    /// an action of it that does not play leaves the game part-way (the
    /// caller replays the record from the start then).
    pub fn catch_up(&mut self, record: &Record, version: u64) -> Result<(), String> {
        let count = usize::try_from(version).map_err(|_| format!("version {version} is too large"))?;
        let done = usize::try_from(self.version).map_err(|_| "version too large".to_string())?;
        if count < done || record.setup != self.record().setup {
            return Err("the stored game does not continue this one".into());
        }
        let actions = record.actions_upto(count).map_err(|e| e.to_string())?;
        if !actions[..done].iter().eq(self.actions.iter().map(|(_, a)| a)) {
            return Err("the stored game does not continue this one".into());
        }
        self.pending = None;
        for action in &actions[done..] {
            self.play(*action).map_err(|e| format!("action {}: {e}", self.version + 1))?;
        }
        self.game.copy_hints(record).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Current scores, or final ones once over.
    pub fn standing(&self) -> Vec<u32> {
        if self.is_over() {
            self.state().final_scores()
        } else {
            self.state().scores().to_vec()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Mode;
    use serde_json::json;

    fn meta() -> Arc<Meta> {
        let seat = |name: &str| SeatRow {
            name: name.into(),
            kind: SeatKind::Human,
            level: None,
            token: None,
            undo: false,
            colour: None,
            hints: false,
        };
        Arc::new(Meta {
            id: "0123456789abcdef".into(),
            created: 0,
            seed: 42,
            seats: vec![seat("a"), seat("b")],
            rated: false,
        })
    }

    fn setup() -> Setup {
        setup_with(&["ferries"])
    }

    fn setup_with(expansions: &[&str]) -> Setup {
        Setup {
            players: vec!["a".into(), "b".into()],
            expansions: expansions.iter().map(|e| e.parse().unwrap()).collect(),
            edition: None,
            seed: None,
            rules: Default::default(),
        }
    }

    /// Plays a whole game with random legal actions, rebuilding from the
    /// record at every version.
    #[test]
    fn every_version_rebuilds_from_the_record() {
        every_version_rebuilds(setup());
    }

    /// With Abbey & Mayor: abbeys before draws, wagons moved out of turn.
    #[test]
    fn every_version_of_an_abbey_game_rebuilds_from_the_record() {
        every_version_rebuilds(setup_with(&["abbey", "ferries"]));
    }

    fn every_version_rebuilds(setup: Setup) {
        use rand::seq::IndexedRandom;
        let mut live = Live::create(meta(), setup.clone()).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        // A copy that falls behind and catches up now and then, as a
        // server's copy of a game another server plays.
        let mut behind = live.clone();
        let other = Live::create(meta(), setup_with(&[])).unwrap();
        while let Some(seat) = live.to_act() {
            let legal = live.state().legal_action_list();
            let a = *legal.choose(&mut rng).unwrap();
            let applied = live.apply(seat, live.version, a).unwrap();
            live.commit(applied);
            let again = Live::rebuild(meta(), live.record(), live.version).unwrap();
            assert_eq!(again.state(), live.state());
            assert_eq!(again.record(), live.record());
            assert_eq!(again.view_json(true), live.view_json(true));
            if live.version.is_multiple_of(7) || live.is_over() {
                behind.catch_up(live.record(), live.version).unwrap();
                assert_eq!(behind.view_json(true), live.view_json(true));
                assert!(behind.catch_up(other.record(), 1).is_err(), "another game is refused");
                assert!(behind.catch_up(live.record(), live.version - 1).is_err(), "no going back");
                assert_eq!(behind.view_json(true), live.view_json(true), "a refused catch-up changes nothing");
            }
        }
        assert!(live.is_over());
        let v: serde_json::Value = serde_json::from_str(&live.view_json(true)).unwrap();
        assert_eq!(v["status"], "finished");
        assert!(v["final"]["scores"].is_array());
        // Draws depend on the seed alone: the same seed deals the same first tile.
        let other = Live::create(meta(), setup).unwrap();
        assert_eq!(other.record().turns[0].tile, live.record().turns[0].tile);
    }

    /// Traders & Builders (with Abbey & Mayor and The Ferries), every seat
    /// deciding provisionally as the hub has it: a turn ends where the
    /// next one would begin, a second turn too, even when it begins with
    /// the seat's abbey before any draw; the seat's view then asks to end
    /// the turn, and anything else is refused until it is ended.
    #[test]
    fn provisional_turns_end_before_a_second_turn_even_one_beginning_with_an_abbey() {
        use rand::seq::IndexedRandom;
        let (mut second_turns, mut abbey_first) = (0, 0);
        for seed in 0..40u64 {
            let mut live = Live::create(meta(), setup_with(&["traders", "abbey", "ferries"])).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            while !live.is_over() {
                if let Some(p) = live.pending.as_deref().filter(|p| p.played_out()) {
                    let (seat, version) = (p.seat, p.next.version);
                    assert!(p.next.state().turns() <= p.turns + 1, "a provisional turn never spans two");
                    let view: serde_json::Value = serde_json::from_str(&{
                        let mut out = Vec::new();
                        p.next.write_view(&mut out, Mode::Seat { seat, undoable: 1, seq: 1, played_out: true });
                        String::from_utf8(out).unwrap()
                    })
                    .unwrap();
                    assert_eq!((view["step"].clone(), view["to_act"].clone()), (json!("end_turn"), json!(seat)));
                    if p.next.to_act() == Some(seat) {
                        // Its second turn begins with its abbey: played once this one is ended.
                        assert_eq!(p.next.state().step(), carcassonne_engine::Step::Abbey);
                        assert!(p.next.state().is_second_turn());
                        abbey_first += 1;
                        let next_action = p.next.state().legal_action_list()[0];
                        assert!(matches!(live.decide(seat, version, next_action), Err(GameError::EndTurnFirst)));
                    }
                    let next = live.end_turn(seat, version).unwrap();
                    second_turns += usize::from(next.state().is_second_turn() && next.state().current_player() == seat);
                    live = next;
                    continue;
                }
                let base = live.pending.as_deref().map_or(&live, |p| &p.next);
                let seat = base.to_act().unwrap();
                let legal = base.state().legal_action_list();
                // Builders whenever they may go, to earn second turns.
                let builder = legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Deploy(carcassonne_engine::FollowerKind::Builder, _)));
                let a = builder.unwrap_or_else(|| *legal.choose(&mut rng).unwrap());
                let version = base.version;
                if live.pending.is_none() && live.final_at_once(seat, a) {
                    let applied = live.apply(seat, version, a).unwrap();
                    live.commit(applied);
                } else {
                    live.decide(seat, version, a).unwrap();
                }
            }
            let again = Live::rebuild(meta(), live.record(), live.version).unwrap();
            assert_eq!(again.state(), live.state());
            if second_turns > 0 && abbey_first > 0 && seed >= 3 {
                break;
            }
        }
        assert!(
            second_turns > 0 && abbey_first > 0,
            "second turns {second_turns}, beginning with an abbey {abbey_first}"
        );
    }

    #[test]
    fn bot_levels_parse_and_cap() {
        for level in ["random", "beginner", "easy", "medium", "hard"] {
            assert!(matches!(BotPlan::parse(level), Ok(BotPlan::Spec(_))), "{level}");
        }
        match BotPlan::parse("expert") {
            Ok(BotPlan::Mcts(c)) => assert_eq!((c.trees, c.budget), (1, Budget::Time(Duration::from_millis(2500)))),
            _ => panic!("expert searches"),
        }
        match BotPlan::parse("mcts:ms=60000:trees=8") {
            Ok(BotPlan::Mcts(c)) => {
                assert_eq!(c.trees, 1);
                assert_eq!(c.budget, Budget::Time(MAX_BOT_TIME));
            }
            _ => panic!("mcts spec"),
        }
        let Err(GameError::InvalidSetup(e)) = BotPlan::parse("alphago") else { panic!("an unknown level") };
        let names: Vec<&str> = carcassonne_bots::LEVELS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["beginner", "easy", "medium", "hard", "expert"]);
        assert!(e.ends_with("(known: random, greedy, mcts, or a level: beginner, easy, medium, hard, expert)"), "{e}");
    }
}
