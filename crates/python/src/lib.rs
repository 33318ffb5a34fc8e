//! Python bindings of the engine: the native module `carcassonne._carcassonne`
//! behind the `carcassonne` package (see `docs/python.md`).
//!
//! This file is the glue: argument checks, errors and conversions. Action
//! text and integer ids are in [`actions`], the observation in [`observe`].
//! Every input from Python is validated before it reaches the engine, and
//! every engine error becomes a Python exception carrying the engine's
//! message (PyO3 also turns any panic into an exception rather than letting
//! it unwind into the interpreter).

use std::sync::Mutex;

use carcassonne_bots::{Bot, BotSpec};
use carcassonne_engine::catalogue::catalogue;
use carcassonne_engine::playout::{play_random_with, random_action};
use carcassonne_engine::record::Setup;
use carcassonne_engine::{Action, Actor, Bag, Edition, Expansion, Game, RuleOptions, Rules, State, Step, TileKind};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

pub mod actions;
pub mod observe;
pub mod vector;

use actions::{Ids, SUPPORTED};
use observe::Shape;

create_exception!(
    carcassonne,
    IllegalActionError,
    PyValueError,
    "An action that the rules do not allow now, or that names nothing; the state is unchanged."
);
create_exception!(carcassonne, RecordError, PyValueError, "A game record that cannot be read or replayed.");
create_exception!(
    carcassonne,
    SetupError,
    PyValueError,
    "Game rules that cannot be set up (players, expansions, edition, variants)."
);

/// `actor` when chance draws the next tile (OpenSpiel's value).
pub const CHANCE: i64 = -1;
/// `actor` when the game is over (OpenSpiel's value).
pub const TERMINAL: i64 = -4;
/// The observation window's radius when none is given: 31 x 31 cells.
pub const DEFAULT_WINDOW: usize = 15;
/// The largest window radius: more than any game's board needs.
pub const MAX_WINDOW: usize = 100;

/// Followers in supply, by seat (the one place that knows how the engine
/// counts them).
pub fn supplies(state: &State) -> Vec<u32> {
    state.supply().iter().map(|s| u32::from(*s)).collect()
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::Draw => "draw",
        Step::Place => "place",
        Step::Deploy => "deploy",
        Step::PlaceFerry => "place-ferry",
        Step::MoveFerries => "move-ferries",
        Step::GameOver => "game-over",
        // Abbey & Mayor's steps: never reached in the expansions this package plays.
        Step::Abbey => "abbey",
        Step::MoveWagon => "move-wagon",
    }
}

pub(crate) fn rules_from(
    players: usize,
    expansions: &[String],
    edition: &str,
    tiny_city_scoring: u32,
) -> PyResult<Rules> {
    let mut list = Vec::new();
    let known: Vec<&str> = SUPPORTED.iter().map(|e| e.name()).collect();
    for e in expansions {
        // The engine's names; this package plays only some of them.
        let expansion = e
            .parse::<Expansion>()
            .ok()
            .filter(|x| SUPPORTED.contains(x))
            .ok_or_else(|| SetupError::new_err(format!("unknown expansion '{e}' (known: {})", known.join(", "))))?;
        list.push(expansion);
    }
    let edition = edition.parse::<Edition>().map_err(|e| SetupError::new_err(e.to_string()))?;
    Rules::new(players, &list, edition)
        .and_then(|r| r.with_tiny_city_scoring(tiny_city_scoring))
        .map_err(|e| SetupError::new_err(e.to_string()))
}

/// What `__reduce__` gives pickle: the function that rebuilds a state, and
/// its arguments (a record and the actions that follow it).
type Reduced<'py> = (Bound<'py, PyAny>, (String, Vec<String>));

/// A game of Carcassonne: the engine's state and its record so far.
///
/// `State(players=2, expansions=["ferries"], edition="c3", tiny_city_scoring=4)`;
/// `players` is a number of players or a list of their names.
#[pyclass(name = "State", module = "carcassonne")]
#[derive(Clone)]
pub struct PyState {
    game: Game,
    ids: Ids,
    /// The actions of the turn in progress after its draw: with the settled
    /// record (which ends with that draw) they make the state (pickling).
    turn: Vec<Action>,
}

impl PyState {
    fn from_game(game: Game) -> PyState {
        let ids = Ids::for_rules(game.state().rules());
        PyState { game, ids, turn: Vec::new() }
    }

    fn play(&mut self, action: Action) -> PyResult<()> {
        self.game.play(action).map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        if matches!(self.state().step(), Step::Draw | Step::GameOver) || matches!(action, Action::Draw(_)) {
            self.turn.clear();
        } else {
            self.turn.push(action);
        }
        Ok(())
    }

    fn state(&self) -> &State {
        self.game.state()
    }

    /// The action an id names at the current step.
    fn decode(&self, id: i64) -> PyResult<Action> {
        let action =
            if self.state().actor() == Some(Actor::Chance) { self.ids.decode_draw(id) } else { self.ids.decode(id) };
        action.ok_or_else(|| {
            let n = if self.state().actor() == Some(Actor::Chance) {
                self.ids.chance_outcomes()
            } else {
                self.ids.distinct()
            };
            IllegalActionError::new_err(format!("action id {id} is not one of this game's ids (0 to {})", n - 1))
        })
    }

    fn action_of(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Ok(id) = action.extract::<i64>() {
            self.decode(id)
        } else if let Ok(text) = action.extract::<String>() {
            actions::parse(&text).map_err(IllegalActionError::new_err)
        } else {
            Err(IllegalActionError::new_err(format!(
                "an action is an integer id or a string in the engine's notation, not {}",
                action.get_type().name()?
            )))
        }
    }

    fn id_of(&self, action: Action) -> PyResult<u64> {
        self.ids.encode(action).ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "'{}' lies outside the board window of this game's ids (-{r} to {r})",
                actions::text(action),
                r = self.ids.radius()
            ))
        })
    }

    fn shape(&self, radius: Option<usize>) -> PyResult<Shape> {
        let radius = radius.unwrap_or(DEFAULT_WINDOW);
        if radius > MAX_WINDOW {
            return Err(PyValueError::new_err(format!(
                "the observation window's radius is at most {MAX_WINDOW} (the board of any game fits in {}), not {radius}",
                self.ids.radius()
            )));
        }
        Ok(Shape { players: self.state().rules().players(), radius, ids: self.ids })
    }

    fn observer(&self, player: Option<usize>) -> PyResult<usize> {
        let players = self.state().rules().players();
        match player {
            Some(p) if p >= players => {
                Err(PyValueError::new_err(format!("player {p} is not a seat of this game (0 to {})", players - 1)))
            }
            Some(p) => Ok(p),
            None => Ok(self.state().current_player()),
        }
    }
}

#[pymethods]
impl PyState {
    #[new]
    #[pyo3(signature = (players = None, expansions = None, edition = "c3", tiny_city_scoring = 4))]
    fn new(
        players: Option<&Bound<'_, PyAny>>,
        expansions: Option<Vec<String>>,
        edition: &str,
        tiny_city_scoring: u32,
    ) -> PyResult<PyState> {
        let names: Vec<String> = match players {
            None => vec!["P1".into(), "P2".into()],
            Some(p) => match p.extract::<usize>() {
                Ok(n) => (1..=n).map(|i| format!("P{i}")).collect(),
                Err(_) => p
                    .extract::<Vec<String>>()
                    .map_err(|_| SetupError::new_err("players is a number of players or a list of their names"))?,
            },
        };
        let expansions = expansions.unwrap_or_else(|| vec![Expansion::Ferries.name().to_string()]);
        let rules = rules_from(names.len(), &expansions, edition, tiny_city_scoring)?;
        let setup = Setup {
            players: names,
            expansions: rules.expansions().collect(),
            edition: Some(rules.edition()),
            seed: None,
            rules: RuleOptions::of(&rules),
        };
        Game::new(setup).map(PyState::from_game).map_err(|e| SetupError::new_err(e.to_string()))
    }

    /// Reads a game record (JSON) and replays it, checking every turn.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyState> {
        let game = Game::from_json(text).map_err(|e| RecordError::new_err(e.to_string()))?;
        // This package's action ids cover the expansions it plays only.
        if let Some(e) = game.state().rules().expansions().find(|e| !SUPPORTED.contains(e)) {
            let known: Vec<&str> = SUPPORTED.iter().map(|e| e.name()).collect();
            return Err(SetupError::new_err(format!(
                "expansion '{}' is not played by this package (known: {})",
                e.name(),
                known.join(", ")
            )));
        }
        Ok(PyState::from_game(game))
    }

    /// The record of the game so far, in JSON (format carcassonne-record/1).
    /// A turn in progress is written as its drawn tile alone, as records
    /// hold whole turns.
    /// The odds of the next tile and of completing each open feature in
    /// this position, as JSON text (`carcassonne.odds` wraps it).
    fn odds_json(&self) -> PyResult<String> {
        serde_json::to_string(&carcassonne_bots::odds::odds(self.game.state()))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> String {
        let record = self.game.settled_record();
        if pretty {
            record.to_json_pretty()
        } else {
            record.to_json()
        }
    }

    #[getter]
    fn players(&self) -> usize {
        self.state().rules().players()
    }

    #[getter]
    fn player_names(&self) -> Vec<String> {
        self.game.players().to_vec()
    }

    #[getter]
    fn expansions(&self) -> Vec<&'static str> {
        self.state().rules().expansions().map(|e| e.name()).collect()
    }

    #[getter]
    fn edition(&self) -> &'static str {
        self.state().rules().edition().name()
    }

    #[getter]
    fn tiny_city_scoring(&self) -> u32 {
        self.state().rules().tiny_city_scoring()
    }

    /// Where the turn stands: draw, place, deploy, place-ferry, move-ferries or game-over.
    #[getter]
    fn step(&self) -> &'static str {
        step_name(self.state().step())
    }

    /// Who acts now: a seat, CHANCE (-1) or TERMINAL (-4) once the game is over.
    #[getter]
    fn actor(&self) -> i64 {
        match self.state().actor() {
            Some(Actor::Player(p)) => p as i64,
            Some(Actor::Chance) => CHANCE,
            None => TERMINAL,
        }
    }

    /// The seat whose turn it is (also while chance draws its tile).
    #[getter]
    fn current_player(&self) -> usize {
        self.state().current_player()
    }

    fn is_chance(&self) -> bool {
        self.state().actor() == Some(Actor::Chance)
    }

    fn is_over(&self) -> bool {
        self.state().is_over()
    }

    /// The tile drawn this turn (its id, such as "D"), until the turn ends.
    #[getter]
    fn drawn(&self) -> Option<&'static str> {
        self.state().drawn().map(TileKind::id)
    }

    /// Turns played, discards included.
    #[getter]
    fn turns(&self) -> u32 {
        self.state().turns()
    }

    /// Tiles left in the bag, by tile id.
    fn bag(&self) -> Vec<(&'static str, u8)> {
        self.state().bag().kinds().map(|k| (k.id(), self.state().bag().count(k))).collect()
    }

    #[getter]
    fn bag_total(&self) -> u16 {
        self.state().bag().total()
    }

    /// Points so far, by seat, without the end-of-game scoring.
    fn scores(&self) -> Vec<u32> {
        self.state().scores().to_vec()
    }

    /// Points with the end-of-game scoring of everything incomplete (the
    /// final result once the game is over).
    fn final_scores(&self) -> Vec<u32> {
        self.state().final_scores()
    }

    /// Followers in supply, by seat.
    fn supply(&self) -> Vec<u32> {
        supplies(self.state())
    }

    /// Placed tiles in placing order: (x, y, tile id, rotation in degrees).
    fn tiles(&self) -> Vec<(i32, i32, &'static str, u16)> {
        self.state().board().tiles().iter().map(|t| (t.pos.x, t.pos.y, t.kind.id(), t.rot.degrees())).collect()
    }

    /// Followers on the board: (seat, x, y, feature such as "city:N").
    fn followers(&self) -> Vec<(u8, i32, i32, String)> {
        self.state()
            .followers()
            .iter()
            .map(|f| {
                let (pos, loc) = self.state().piece_location(f.piece);
                (f.player, pos.x, pos.y, loc.to_string())
            })
            .collect()
    }

    /// Ferries on the board: (x, y of the lake, jetties such as "E-W").
    fn ferries(&self) -> Vec<(i32, i32, String)> {
        let board = self.state().board();
        self.state()
            .ferries()
            .all()
            .iter()
            .map(|f| {
                let t = board.tile(f.tile as usize);
                (t.pos.x, t.pos.y, f.jetties.to_string())
            })
            .collect()
    }

    /// The legal actions of the current step in the engine's notation.
    fn legal_actions(&self) -> Vec<String> {
        self.state().legal_action_list().into_iter().map(actions::text).collect()
    }

    /// The legal actions of the current step as integer ids, ascending
    /// (draws at a chance node).
    fn legal_action_ids(&self) -> PyResult<Vec<u64>> {
        let mut ids =
            self.state().legal_action_list().into_iter().map(|a| self.id_of(a)).collect::<PyResult<Vec<_>>>()?;
        ids.sort_unstable();
        Ok(ids)
    }

    /// At a chance node, each tile kind that may be drawn now as (id,
    /// probability): its count over the tiles that may be drawn (all those
    /// left, but The River's tiles first). Empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(u64, f64)> {
        if self.state().actor() != Some(Actor::Chance) {
            return Vec::new();
        }
        let bag = self.state().bag();
        let total = f64::from(bag.drawable_total());
        bag.drawable().filter_map(|k| Some((self.ids.kind_id(k)?, f64::from(bag.count(k)) / total))).collect()
    }

    /// The id of an action given in the engine's notation (at a chance node,
    /// a draw's id).
    fn action_id(&self, text: &str) -> PyResult<u64> {
        let action = actions::parse(text).map_err(IllegalActionError::new_err)?;
        self.id_of(action)
    }

    /// The engine's notation of an id: a draw if `chance` (by default, if
    /// chance acts now), else a player's action.
    #[pyo3(signature = (id, chance = None))]
    fn action_text(&self, id: i64, chance: Option<bool>) -> PyResult<String> {
        let chance = chance.unwrap_or(self.state().actor() == Some(Actor::Chance));
        let action = if chance { self.ids.decode_draw(id) } else { self.ids.decode(id) };
        action.map(actions::text).ok_or_else(|| IllegalActionError::new_err(format!("action id {id} names no action")))
    }

    /// Whether an action (id or text) is legal now.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> bool {
        self.action_of(action).is_ok_and(|a| self.state().is_legal(a))
    }

    /// Plays an action, an integer id or text in the engine's notation.
    /// Raises IllegalActionError with the rule broken, leaving the state
    /// unchanged.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = self.action_of(action)?;
        self.play(action)
    }

    /// Plays uniformly random legal actions (draws weighted by the bag) to
    /// the end of the game, inside Rust.
    #[pyo3(signature = (seed = 0))]
    fn play_random(&mut self, seed: u64) -> PyResult<()> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut buf = Vec::new();
        while let Some(a) = random_action(self.state(), &mut rng, &mut buf) {
            self.play(a)?;
        }
        Ok(())
    }

    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    /// Pickling: the settled record and the actions of the turn in progress
    /// that it leaves out (a version-2 record holds them already).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.borrow();
        let v1 = this.game.settled_record().format == carcassonne_engine::record::FORMAT_V1;
        let turn = if v1 { this.turn.iter().map(|a| actions::text(*a)).collect() } else { Vec::new() };
        Ok((slf.get_type().getattr("_restore")?, (this.to_json(false), turn)))
    }

    /// The state of `__reduce__`: a record and the actions that follow it.
    #[staticmethod]
    fn _restore(record: &str, turn: Vec<String>) -> PyResult<PyState> {
        let mut state = PyState::from_json(record)?;
        for text in turn {
            state.play(actions::parse(&text).map_err(IllegalActionError::new_err)?)?;
        }
        Ok(state)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyState>()
            .is_ok_and(|o| o.borrow().game.record() == self.game.record() && *o.borrow().state() == *self.state())
    }

    /// How many distinct player action ids this game's rules have.
    #[getter]
    fn num_distinct_actions(&self) -> u64 {
        self.ids.distinct()
    }

    /// How many chance ids there are: the tile kinds this game may draw.
    #[getter]
    fn num_chance_outcomes(&self) -> u64 {
        self.ids.chance_outcomes()
    }

    /// The tile kinds of this game's chance ids, in id order: those of
    /// `TILE_KINDS`, then The River's, The Abbot's and The Labyrinth's
    /// where they are in play.
    #[getter]
    fn tile_kinds(&self) -> Vec<&'static str> {
        self.ids.kinds().map(TileKind::id).collect()
    }

    /// Figures of `figure` (`normal`, `abbot`) in supply, by seat.
    fn supply_of(&self, figure: &str) -> PyResult<Vec<u32>> {
        let kind = carcassonne_engine::FollowerKind::parse(figure)
            .ok_or_else(|| PyValueError::new_err(format!("unknown figure '{figure}' (normal or abbot)")))?;
        Ok(self.state().supply_of(kind).iter().map(|s| u32::from(*s)).collect())
    }

    /// A bound on the player decisions of a whole game from the start: per
    /// tile a placement or discard and a follower decision, and with The
    /// Ferries a ferry to place on each lake and, each turn, a move of every
    /// ferry on the board and a pass.
    #[getter]
    fn max_decisions(&self) -> u64 {
        let rules = self.state().rules();
        let bag = Bag::for_rules(rules);
        let tiles = u64::from(bag.total());
        let lakes: u64 = bag.kinds().filter(|k| k.info().lake).map(|k| u64::from(bag.count(k))).sum();
        let ferries = if rules.has(Expansion::Ferries) { lakes + tiles * (lakes + 1) } else { 0 };
        2 * tiles + ferries
    }

    /// R: ids number the cells from -R to R on both axes.
    #[getter]
    fn board_radius(&self) -> i32 {
        self.ids.radius()
    }

    /// The observation by `player` (by default the player whose turn it
    /// is) as a flat float32 array; `observation_layout` gives its pieces.
    #[pyo3(signature = (player = None, window = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
        window: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let observer = self.observer(player)?;
        let shape = self.shape(window)?;
        let mut out = vec![0.0f32; shape.size()];
        shape.write(self.state(), observer, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// Writes the observation into `out`, a contiguous float32 array of the
    /// observation's size (no allocation).
    #[pyo3(signature = (out, player = None, window = None))]
    fn write_observation(
        &self,
        out: &Bound<'_, PyArray1<f32>>,
        player: Option<usize>,
        window: Option<usize>,
    ) -> PyResult<()> {
        let observer = self.observer(player)?;
        let shape = self.shape(window)?;
        let mut rw = out.try_readwrite().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let slice = rw.as_slice_mut().map_err(|e| PyValueError::new_err(e.to_string()))?;
        if slice.len() != shape.size() {
            return Err(PyValueError::new_err(format!(
                "the observation has {} values, the array {}",
                shape.size(),
                slice.len()
            )));
        }
        shape.write(self.state(), observer, slice);
        Ok(())
    }

    /// The observation's pieces in order: (name, shape).
    #[pyo3(signature = (window = None))]
    fn observation_layout(&self, window: Option<usize>) -> PyResult<Vec<(&'static str, Vec<usize>)>> {
        Ok(self.shape(window)?.layout())
    }

    /// Names of the board planes, in order.
    #[pyo3(signature = (window = None))]
    fn observation_planes(&self, window: Option<usize>) -> PyResult<Vec<String>> {
        Ok(self.shape(window)?.plane_names())
    }

    fn __str__(&self) -> String {
        let s = self.state();
        let actor = match s.actor() {
            Some(Actor::Player(p)) => format!("player {p}"),
            Some(Actor::Chance) => "chance".into(),
            None => "nobody".into(),
        };
        let join = |v: Vec<u32>| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "turn {} | step {} | {} to act | drawn {} | scores {} | supply {} | bag {}\n{}",
            s.turns(),
            step_name(s.step()),
            actor,
            s.drawn().map_or("-", TileKind::id),
            join(s.scores().to_vec()),
            join(supplies(s)),
            s.bag().total(),
            self.game.record().to_json()
        )
    }

    fn __repr__(&self) -> String {
        let s = self.state();
        format!("<carcassonne.State turn {} step {} scores {:?}>", s.turns(), step_name(s.step()), s.scores())
    }
}

/// A bot of carcassonne-bots, named as on the command line: "random",
/// "greedy", "mcts:iters=2000", "mcts:ms=1000:trees=1", ...
#[pyclass(name = "Bot", module = "carcassonne")]
pub struct PyBot {
    bot: Mutex<Box<dyn Bot>>,
    spec: String,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyBot> {
        let parsed: BotSpec =
            spec.parse().map_err(|e: carcassonne_bots::SpecError| PyValueError::new_err(e.to_string()))?;
        Ok(PyBot { bot: Mutex::new(parsed.build(seed)), spec: parsed.to_string() })
    }

    /// The bot's choice for the player to act, in the engine's notation.
    fn choose(&self, py: Python<'_>, state: &PyState) -> PyResult<String> {
        self.decide(py, state).map(actions::text)
    }

    /// The bot's choice as an integer id.
    fn choose_id(&self, py: Python<'_>, state: &PyState) -> PyResult<u64> {
        let action = self.decide(py, state)?;
        state.id_of(action)
    }

    fn __repr__(&self) -> String {
        format!("<carcassonne.Bot {}>", self.spec)
    }
}

impl PyBot {
    fn decide(&self, py: Python<'_>, state: &PyState) -> PyResult<Action> {
        if !matches!(state.state().actor(), Some(Actor::Player(_))) {
            return Err(IllegalActionError::new_err("no player is to act: chance draws, or the game is over"));
        }
        let game = state.state();
        let choice = py.detach(|| -> Result<Option<Action>, String> {
            let mut bot = self.bot.lock().map_err(|_| "the bot failed in an earlier call".to_string())?;
            Ok(bot.choose(game))
        });
        choice.map_err(PyValueError::new_err)?.ok_or_else(|| IllegalActionError::new_err("the bot found no action"))
    }
}

/// Plays `games` random games inside Rust, each to its end (one thread,
/// the interpreter released), and returns their final scores.
#[pyfunction]
#[pyo3(signature = (games, players = 2, expansions = None, edition = "c3", seed = 0))]
fn play_random_games(
    py: Python<'_>,
    games: u64,
    players: usize,
    expansions: Option<Vec<String>>,
    edition: &str,
    seed: u64,
) -> PyResult<Vec<Vec<u32>>> {
    let expansions = expansions.unwrap_or_else(|| vec![Expansion::Ferries.name().to_string()]);
    let rules = rules_from(players, &expansions, edition, 4)?;
    Ok(py.detach(|| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut buf = Vec::with_capacity(256);
        (0..games)
            .map(|_| {
                let mut state = State::new(rules);
                play_random_with(&mut state, &mut rng, &mut buf);
                state.final_scores()
            })
            .collect()
    }))
}

/// The review of a record's game (`carcassonne.analyse` wraps it): the same
/// as `carcassonne analyse --json`, as JSON text. `iterations` makes it
/// reproducible; otherwise each decision gets `ms` milliseconds.
#[pyfunction]
#[pyo3(signature = (record, ms = None, iterations = None, seed = 1))]
fn analyse_json(py: Python<'_>, record: &str, ms: Option<u64>, iterations: Option<u32>, seed: u64) -> PyResult<String> {
    use carcassonne_bots::review::{self, ReviewBudget};
    let record = carcassonne_engine::Record::from_json(record).map_err(|e| RecordError::new_err(e.to_string()))?;
    let budget = match (ms, iterations) {
        (Some(_), Some(_)) => return Err(PyValueError::new_err("give ms or iterations, not both")),
        (_, Some(0)) | (Some(0), _) => {
            return Err(PyValueError::new_err("a review needs at least 1 ms or 1 iteration"))
        }
        (_, Some(n)) => ReviewBudget::Iterations(n),
        (Some(ms), None) => ReviewBudget::Millis(ms),
        (None, None) => ReviewBudget::Millis(review::DEFAULT_MS),
    };
    let reviewed = py.detach(|| review::review(&record, budget, seed, &mut |_, _| {})).map_err(|e| match e {
        review::ReviewError::Record(e) => RecordError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    })?;
    serde_json::to_string(&reviewed).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The odds of the position a record leaves, as JSON text
/// (`carcassonne.odds` wraps it): the same as `carcassonne odds --json`.
#[pyfunction]
fn odds_json(py: Python<'_>, record: &str) -> PyResult<String> {
    let record = carcassonne_engine::Record::from_json(record).map_err(|e| RecordError::new_err(e.to_string()))?;
    let game = py.detach(|| Game::replay(&record)).map_err(|e| RecordError::new_err(e.to_string()))?;
    serde_json::to_string(&carcassonne_bots::odds::odds(game.state())).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The native module of the `carcassonne` package.
#[pymodule]
fn _carcassonne(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyState>()?;
    m.add_class::<PyBot>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(analyse_json, m)?)?;
    m.add_function(wrap_pyfunction!(odds_json, m)?)?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    // The kinds whose chance ids every game shares: the base game's and The Ferries'.
    let shared = catalogue().kinds.iter().filter(|k| k.expansion.is_none_or(|e| e == Expansion::Ferries));
    m.add("TILE_KINDS", shared.map(|k| k.def.id).collect::<Vec<_>>())?;
    m.add("EXPANSIONS", SUPPORTED.iter().map(|e| e.name()).collect::<Vec<_>>())?;
    m.add("EDITIONS", [Edition::C3.name(), Edition::C2.name()])?;
    m.add("DEFAULT_WINDOW", DEFAULT_WINDOW)?;
    Ok(())
}
