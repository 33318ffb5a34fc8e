//! The core of `carcassonne.VectorEnv`: `n` games stepped together inside
//! Rust, on threads, writing their observations, rewards and ends straight
//! into NumPy arrays that live as long as the environment (docs/python.md,
//! "A batched environment"). The legal-action masks are written only when
//! asked for: a mask row has a byte for each of the game's ids (a quarter
//! of a million with The Ferries), and setting and clearing a few dozen of
//! them scattered over it costs a step more than all the rest.
//!
//! Each game is a slot. A step takes one action id a slot, checks them all
//! against the legal ids the slot last listed (not against the mask array,
//! which Python may have written to), and only then plays them, so a bad
//! action changes nothing. After its action a slot plays chance's draws
//! (weighted by the bag, from the slot's own generator) and, with an
//! opponent, the opponent's decisions, until a decision of the player the
//! environment speaks for comes or the game ends. A game that ends is
//! scored, its last observation kept apart, and a new game dealt in the
//! same step (Gymnasium's "same-step" autoreset).

use carcassonne_bots::{derive_seed, Bot, BotSpec};
use carcassonne_engine::playout::random_action;
use carcassonne_engine::{Action, Actor, Rules, State};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::actions::Ids;
use crate::observe::{Canvas, Observer, Plane, Shape};
use crate::IllegalActionError;

/// What a finished game gives the player the environment speaks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Utility {
    /// (opponents with a lower final score − those with a higher one) /
    /// (players − 1): +1 for a sole winner, −1 for a sole loser.
    Rank,
    /// The final score itself.
    Score,
}

impl Utility {
    fn of(self, scores: &[u32], seat: usize) -> f32 {
        match self {
            // A solo game is played for the highest score (as the OpenSpiel game).
            Utility::Score => scores[seat] as f32,
            Utility::Rank if scores.len() < 2 => scores[seat] as f32,
            Utility::Rank => {
                let mine = scores[seat];
                let net: i32 = scores.iter().map(|s| i32::from(*s < mine) - i32::from(*s > mine)).sum();
                net as f32 / (scores.len() - 1) as f32
            }
        }
    }
}

/// Games a thread steps at the least: below this, handing work to a
/// thread costs more than it saves.
const MIN_PER_THREAD: usize = 4;

/// One game of the batch.
struct Slot {
    state: State,
    /// Chance's draws (and the learner's seat when it is drawn).
    deal: Xoshiro256PlusPlus,
    /// `sample_actions`' picks, apart from the deals so that a deal does
    /// not depend on how the actions were chosen.
    sampler: Xoshiro256PlusPlus,
    /// The legal ids of the decision now, ascending.
    legal: Vec<u32>,
    /// The ids set in this slot's row of the mask array, last written.
    shown: Vec<u32>,
    buf: Vec<Action>,
    /// With an opponent: the seat the environment speaks for in this game,
    /// and the bot playing every other seat.
    learner: usize,
    opponent: Option<Box<dyn Bot>>,
    /// Decisions of the player the environment speaks for in this game.
    length: u32,
    /// What the slot's row of the observation array holds, to write only
    /// what changed.
    canvas: Canvas,
}

/// A slot's rows of the output arrays, for one step.
struct Rows<'a> {
    obs: Obs<'a>,
    final_obs: Obs<'a>,
    reward: &'a mut f32,
    done: &'a mut bool,
    actor: &'a mut i64,
    returns: &'a mut [f32],
    scores: &'a mut [f32],
    length: &'a mut i64,
}

/// A slot's observation row: one flat `f32` vector, or compact `u8`
/// board planes and the numbers as `f32`.
enum Obs<'a> {
    Flat(&'a mut [f32]),
    Compact(&'a mut [u8], &'a mut [f32]),
}

/// The setup every slot shares.
struct Config {
    rules: Rules,
    /// A new game of these rules, copied into a slot for its next game
    /// (into the buffers the slot's last game grew, allocating nothing).
    fresh: State,
    ids: Ids,
    observer: Observer,
    compact: bool,
    opponent: Option<BotSpec>,
    /// A fixed seat for the learner, or `None` for a random seat each game.
    seat: Option<usize>,
    utility: Utility,
}

impl Config {
    fn deal(&self, slot: &mut Slot) {
        slot.state.clone_from(&self.fresh);
        slot.length = 0;
        slot.canvas.forget();
        if self.opponent.is_some() {
            slot.learner = self.seat.unwrap_or_else(|| slot.deal.random_range(0..self.rules.players()));
        }
    }

    /// Plays chance's draws and the opponent's decisions until the player
    /// the environment speaks for decides, or the game is over.
    fn advance(&self, slot: &mut Slot) {
        loop {
            match slot.state.actor() {
                Some(Actor::Chance) => match random_action(&slot.state, &mut slot.deal, &mut slot.buf) {
                    Some(a) => slot.state.play_unchecked(a),
                    None => return,
                },
                Some(Actor::Player(p)) if p != slot.learner => {
                    let Some(bot) = slot.opponent.as_mut() else { return };
                    match bot.choose(&slot.state) {
                        // A bot's choice is checked as any other: a bot in
                        // error must not corrupt the game.
                        Some(a) if slot.state.play(a).is_ok() => {}
                        _ => {
                            let a = random_action(&slot.state, &mut slot.sampler, &mut slot.buf);
                            match a {
                                Some(a) => slot.state.play_unchecked(a),
                                None => return,
                            }
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// Lists the legal ids of the decision now into the slot, and writes
    /// the observation by the player to act.
    fn show(&self, slot: &mut Slot, obs: &mut Obs<'_>) {
        slot.legal.clear();
        if matches!(slot.state.actor(), Some(Actor::Player(_))) {
            slot.buf.clear();
            slot.state.legal_actions(&mut slot.buf);
            // Every legal action lies in the ids' window (the rules bound the board).
            slot.legal.extend(slot.buf.iter().filter_map(|a| self.ids.encode(*a)).map(|id| id as u32));
            slot.legal.sort_unstable();
        }
        let observer = self.seat_of(slot);
        self.observe(&slot.state, observer, obs, Some(&mut slot.canvas));
    }

    /// Writes the observation of `state` by `observer`: only what changed
    /// since the row was last written, with the `canvas` that says what it
    /// holds, else all of it.
    fn observe(&self, state: &State, observer: usize, obs: &mut Obs<'_>, canvas: Option<&mut Canvas>) {
        let o = &self.observer;
        fn board<V: Plane>(o: &Observer, s: &State, by: usize, out: &mut [V], c: Option<&mut Canvas>) -> (i64, i64) {
            match c {
                Some(c) => o.update_board(s, by, out, c),
                None => o.write_board(s, by, out),
            }
        }
        let (corner, numbers) = match obs {
            Obs::Flat(out) => {
                let (planes, numbers) = out.split_at_mut(o.board_size());
                (board(o, state, observer, planes, canvas), numbers)
            }
            Obs::Compact(planes, numbers) => (board(o, state, observer, planes, canvas), &mut **numbers),
        };
        o.write_numbers(state, observer, corner, numbers);
    }

    /// The seat the environment speaks for, whose view the observation
    /// is: the learner's against an opponent, else the player to act (seat
    /// 0 once the game is over).
    fn seat_of(&self, slot: &Slot) -> usize {
        if self.opponent.is_some() {
            slot.learner
        } else {
            slot.state.current_player()
        }
    }

    /// Plays one checked action in a slot and everything up to its next
    /// decision, dealing a new game if this one ended.
    fn step(&self, slot: &mut Slot, action: Action, rows: Rows<'_>) {
        let seat = self.seat_of(slot);
        slot.state.play_unchecked(action);
        slot.length += 1;
        self.advance(slot);
        *rows.reward = 0.0;
        *rows.done = false;
        if slot.state.actor().is_none() {
            let scores = slot.state.final_scores();
            *rows.reward = self.utility.of(&scores, seat);
            *rows.done = true;
            for (p, (r, s)) in rows.returns.iter_mut().zip(rows.scores.iter_mut()).enumerate() {
                *r = self.utility.of(&scores, p);
                *s = scores[p] as f32;
            }
            *rows.length = i64::from(slot.length);
            let mut last = rows.final_obs;
            self.observe(&slot.state, seat, &mut last, None);
            self.deal(slot);
            self.advance(slot);
        }
        self.finish(slot, rows.obs, rows.actor);
    }

    fn finish(&self, slot: &mut Slot, mut obs: Obs<'_>, actor: &mut i64) {
        self.show(slot, &mut obs);
        *actor = match slot.state.actor() {
            Some(Actor::Player(p)) => p as i64,
            Some(Actor::Chance) => crate::CHANCE,
            None => crate::TERMINAL,
        };
    }
}

/// The output arrays, one row a slot.
struct Arrays {
    /// Flat: (n, size) `f32`. Compact: the board (n, planes, side, side)
    /// as `u8` and the numbers (n, rest) as `f32`.
    obs: Py<PyAny>,
    numbers: Option<Py<PyArray2<f32>>>,
    final_obs: Py<PyAny>,
    final_numbers: Option<Py<PyArray2<f32>>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    done: Py<PyArray1<bool>>,
    actor: Py<PyArray1<i64>>,
    returns: Py<PyArray2<f32>>,
    scores: Py<PyArray2<f32>>,
    lengths: Py<PyArray1<i64>>,
}

/// `n` games stepped together inside Rust (the `carcassonne.VectorEnv`
/// wrapper gives it Gymnasium's interface).
#[pyclass(name = "_VectorEnv", module = "carcassonne")]
pub struct PyVectorEnv {
    config: Config,
    /// Behind a mutex only to make the class `Sync`, as Python objects
    /// must be: `&mut self` already gives each call the slots alone, so
    /// it is reached with `get_mut`, never locked.
    slots: std::sync::Mutex<Vec<Slot>>,
    arrays: Arrays,
    pool: rayon::ThreadPool,
}

/// Splits a flat buffer into `n` rows of `len` values.
fn rows<T>(all: &mut [T], len: usize) -> Vec<&mut [T]> {
    if len == 0 {
        return all.iter_mut().map(|_| &mut [][..]).collect();
    }
    all.chunks_mut(len).collect()
}

type Packed<'py> = (numpy::PyReadwriteArray4<'py, u8>, numpy::PyReadwriteArray2<'py, f32>);

/// The observation rows of one of the two layouts (`sizes`: flat, board, numbers).
fn obs_rows<'a>(
    flat: &'a mut Option<numpy::PyReadwriteArray2<'_, f32>>,
    packed: &'a mut Option<Packed<'_>>,
    sizes: (usize, usize, usize),
) -> PyResult<Vec<Obs<'a>>> {
    Ok(match (flat, packed) {
        (Some(f), _) => rows(f.as_slice_mut().map_err(slice_err)?, sizes.0).into_iter().map(Obs::Flat).collect(),
        (None, Some((b, m))) => {
            let boards = rows(b.as_slice_mut().map_err(slice_err)?, sizes.1);
            let numbers = rows(m.as_slice_mut().map_err(slice_err)?, sizes.2);
            boards.into_iter().zip(numbers).map(|(b, m)| Obs::Compact(b, m)).collect()
        }
        (None, None) => unreachable!("one of the two layouts"),
    })
}

fn poisoned() -> PyErr {
    PyValueError::new_err("the environment failed in an earlier call; make a new one")
}

fn slice_err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("the environment's arrays are borrowed elsewhere: {e}"))
}

impl PyVectorEnv {
    /// Runs `f` on every slot with its rows of the output arrays, on the
    /// environment's threads with the interpreter released.
    fn each<F>(&mut self, py: Python<'_>, actions: Option<&[Action]>, f: F) -> PyResult<()>
    where
        F: Fn(&Config, &mut Slot, Option<Action>, Rows<'_>) + Sync + Send,
    {
        let n = self.slots.get_mut().map_or(0, |s| s.len());
        let a = &self.arrays;
        let o = &self.config.observer;
        let sizes = (o.size(), o.board_size(), o.numbers_size());
        let players = self.config.rules.players();
        let compact = self.config.compact;
        let bind_obs = |obs: &Py<PyAny>, numbers: &Option<Py<PyArray2<f32>>>| -> PyResult<_> {
            Ok(if compact {
                let board = obs.bind(py).cast::<numpy::PyArray4<u8>>()?.try_readwrite().map_err(slice_err)?;
                let numbers = numbers.as_ref().expect("compact").bind(py).try_readwrite().map_err(slice_err)?;
                (None, Some((board, numbers)))
            } else {
                (Some(obs.bind(py).cast::<PyArray2<f32>>()?.try_readwrite().map_err(slice_err)?), None)
            })
        };
        let (mut flat, mut packed) = bind_obs(&a.obs, &a.numbers)?;
        let (mut last_flat, mut last_packed) = bind_obs(&a.final_obs, &a.final_numbers)?;
        let mut rewards = a.rewards.bind(py).try_readwrite().map_err(slice_err)?;
        let mut done = a.done.bind(py).try_readwrite().map_err(slice_err)?;
        let mut actor = a.actor.bind(py).try_readwrite().map_err(slice_err)?;
        let mut returns = a.returns.bind(py).try_readwrite().map_err(slice_err)?;
        let mut scores = a.scores.bind(py).try_readwrite().map_err(slice_err)?;
        let mut lengths = a.lengths.bind(py).try_readwrite().map_err(slice_err)?;

        let obs = obs_rows(&mut flat, &mut packed, sizes)?;
        let final_obs = obs_rows(&mut last_flat, &mut last_packed, sizes)?;
        let returns = rows(returns.as_slice_mut().map_err(slice_err)?, players);
        let scores = rows(scores.as_slice_mut().map_err(slice_err)?, players);
        let mut all: Vec<Rows<'_>> = obs
            .into_iter()
            .zip(final_obs)
            .zip(rewards.as_slice_mut().map_err(slice_err)?)
            .zip(done.as_slice_mut().map_err(slice_err)?)
            .zip(actor.as_slice_mut().map_err(slice_err)?)
            .zip(returns)
            .zip(scores)
            .zip(lengths.as_slice_mut().map_err(slice_err)?)
            .map(|(((((((obs, final_obs), reward), done), actor), returns), scores), length)| Rows {
                obs,
                final_obs,
                reward,
                done,
                actor,
                returns,
                scores,
                length,
            })
            .collect();
        debug_assert_eq!(all.len(), n);
        let (config, pool) = (&self.config, &self.pool);
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let run = |(i, (slot, r)): (usize, (&mut Slot, Rows<'_>))| f(config, slot, actions.map(|a| a[i]), r);
        if pool.current_num_threads() == 1 || n < 2 * MIN_PER_THREAD {
            py.detach(|| slots.iter_mut().zip(all).enumerate().for_each(run));
        } else {
            py.detach(|| {
                pool.install(|| {
                    slots.par_iter_mut().zip(all.par_drain(..)).enumerate().with_min_len(MIN_PER_THREAD).for_each(run)
                })
            });
        }
        Ok(())
    }

    fn zeros_obs(py: Python<'_>, n: usize, shape: &Shape, compact: bool) -> (Py<PyAny>, Option<Py<PyArray2<f32>>>) {
        if compact {
            let board = numpy::PyArray4::<u8>::zeros(py, [n, shape.planes(), shape.side(), shape.side()], false);
            (board.into_any().unbind(), Some(PyArray2::zeros(py, [n, shape.numbers_size()], false).unbind()))
        } else {
            (PyArray2::<f32>::zeros(py, [n, shape.size()], false).into_any().unbind(), None)
        }
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (n, players, expansions, edition, tiny_city_scoring, window, compact, opponent, seat, utility, threads))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        players: &Bound<'_, PyAny>,
        expansions: Vec<String>,
        edition: &str,
        tiny_city_scoring: u32,
        window: Option<usize>,
        compact: bool,
        opponent: Option<&str>,
        seat: Option<usize>,
        utility: &str,
        threads: Option<usize>,
    ) -> PyResult<PyVectorEnv> {
        if n == 0 {
            return Err(PyValueError::new_err("a vector environment has at least 1 game"));
        }
        const MOST: usize = 65_536;
        if n > MOST {
            return Err(PyValueError::new_err(format!("a vector environment has at most {MOST} games, not {n}")));
        }
        let players: usize = players.extract().map_err(|_| PyValueError::new_err("players is a number of seats"))?;
        let rules = crate::rules_from(players, &expansions, edition, tiny_city_scoring)?;
        let ids = Ids::for_rules(&rules);
        let radius = window.unwrap_or(crate::DEFAULT_WINDOW);
        if radius > crate::MAX_WINDOW {
            return Err(PyValueError::new_err(format!(
                "the observation window's radius is at most {}, not {radius}",
                crate::MAX_WINDOW
            )));
        }
        let shape = Shape { players: rules.players(), radius, ids };
        let utility = match utility {
            "rank" => Utility::Rank,
            "score" => Utility::Score,
            other => return Err(PyValueError::new_err(format!("utility is 'rank' or 'score', not {other:?}"))),
        };
        let opponent = match opponent {
            None => None,
            Some(spec) => {
                Some(spec.parse::<BotSpec>().map_err(|e| PyValueError::new_err(format!("opponent {spec:?}: {e}")))?)
            }
        };
        if let Some(s) = seat {
            if opponent.is_none() {
                return Err(PyValueError::new_err(
                    "a seat is chosen only with an opponent (without one, every seat is played)",
                ));
            }
            if s >= rules.players() {
                return Err(PyValueError::new_err(format!(
                    "seat {s} is not a seat of this game (0 to {})",
                    rules.players() - 1
                )));
            }
        }
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if threads == 0 || threads > 256 {
            return Err(PyValueError::new_err(format!("threads is from 1 to 256, not {threads}")));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| PyValueError::new_err(format!("cannot start the threads: {e}")))?;
        let fresh = State::new(rules);
        let config = Config { rules, fresh, ids, observer: Observer::new(shape), compact, opponent, seat, utility };
        let slots = (0..n)
            .map(|_| Slot {
                state: State::new(rules),
                deal: Xoshiro256PlusPlus::seed_from_u64(0),
                sampler: Xoshiro256PlusPlus::seed_from_u64(0),
                legal: Vec::new(),
                shown: Vec::new(),
                buf: Vec::with_capacity(256),
                learner: 0,
                opponent: None,
                length: 0,
                canvas: Canvas::default(),
            })
            .collect();
        let (obs, numbers) = Self::zeros_obs(py, n, &shape, compact);
        let (final_obs, final_numbers) = Self::zeros_obs(py, n, &shape, compact);
        let p = rules.players();
        let arrays = Arrays {
            obs,
            numbers,
            final_obs,
            final_numbers,
            mask: PyArray2::zeros(py, [n, ids.distinct() as usize], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            done: PyArray1::zeros(py, n, false).unbind(),
            actor: PyArray1::zeros(py, n, false).unbind(),
            returns: PyArray2::zeros(py, [n, p], false).unbind(),
            scores: PyArray2::zeros(py, [n, p], false).unbind(),
            lengths: PyArray1::zeros(py, n, false).unbind(),
        };
        Ok(PyVectorEnv { config, slots: std::sync::Mutex::new(slots), arrays, pool })
    }

    /// Deals a new game in every slot, seeded from `seed` (slot `i`'s
    /// deals, picks and opponent from streams of it).
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let spec = self.config.opponent.clone();
        for (i, slot) in self.slots.get_mut().map_err(|_| poisoned())?.iter_mut().enumerate() {
            let i = i as u64;
            slot.deal = Xoshiro256PlusPlus::seed_from_u64(derive_seed(seed, 3 * i));
            slot.sampler = Xoshiro256PlusPlus::seed_from_u64(derive_seed(seed, 3 * i + 1));
            slot.opponent = spec.as_ref().map(|s| s.build(derive_seed(seed, 3 * i + 2)));
        }
        self.each(py, None, |config, slot, _, rows| {
            config.deal(slot);
            config.advance(slot);
            *rows.reward = 0.0;
            *rows.done = false;
            config.finish(slot, rows.obs, rows.actor);
        })
    }

    /// Plays one action id in every slot. All are checked before any is
    /// played: an illegal one raises IllegalActionError and changes nothing.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let ids = actions.as_slice().map_err(|e| PyValueError::new_err(format!("actions: {e}")))?;
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        if ids.len() != slots.len() {
            return Err(IllegalActionError::new_err(format!(
                "{} actions for {} games: one action a game",
                ids.len(),
                slots.len()
            )));
        }
        let mut checked = Vec::with_capacity(ids.len());
        for (i, (slot, id)) in slots.iter().zip(ids).enumerate() {
            let legal = u32::try_from(*id).is_ok_and(|id| slot.legal.binary_search(&id).is_ok());
            let action = self.config.ids.decode(*id).filter(|_| legal).ok_or_else(|| {
                let why = if slot.legal.is_empty() {
                    "no decision is due: call reset() first".to_string()
                } else {
                    match self.config.ids.decode(*id) {
                        Some(a) => format!("'{}' is not legal now", crate::actions::text(a)),
                        None => format!("it is not one of this game's ids (0 to {})", self.config.ids.distinct() - 1),
                    }
                };
                IllegalActionError::new_err(format!("game {i}: action id {id}: {why}"))
            })?;
            checked.push(action);
        }
        self.each(py, Some(&checked), |config, slot, action, rows| {
            config.step(slot, action.expect("one action a slot"), rows)
        })
    }

    /// Writes every game's legal ids into the mask array (clearing those
    /// written last time) and returns it.
    fn action_masks<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let array = self.arrays.mask.bind(py);
        {
            let mut rw = array.try_readwrite().map_err(slice_err)?;
            let all = rw.as_slice_mut().map_err(slice_err)?;
            for (slot, row) in slots.iter_mut().zip(rows(all, self.config.ids.distinct() as usize)) {
                for id in slot.shown.drain(..) {
                    row[id as usize] = false;
                }
                for id in &slot.legal {
                    row[*id as usize] = true;
                }
                slot.shown.extend_from_slice(&slot.legal);
            }
        }
        Ok(array.clone())
    }

    /// A uniformly random legal id for every game (from each game's own
    /// generator, apart from its deals).
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let mut out = Vec::with_capacity(slots.len());
        for (i, slot) in slots.iter_mut().enumerate() {
            if slot.legal.is_empty() {
                return Err(IllegalActionError::new_err(format!("game {i}: no decision is due: call reset() first")));
            }
            let pick = slot.sampler.random_range(0..slot.legal.len());
            out.push(i64::from(slot.legal[pick]));
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// The legal ids of game `i`'s decision now, ascending.
    fn legal_ids(&mut self, i: usize) -> PyResult<Vec<u32>> {
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let n = slots.len();
        slots
            .get(i)
            .map(|s| s.legal.clone())
            .ok_or_else(|| PyValueError::new_err(format!("game {i} is not one of the {n} games")))
    }

    /// The seat the environment speaks for in each game: the learner's
    /// against an opponent, else the player to act.
    fn seats<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        Ok(PyArray1::from_vec(py, slots.iter().map(|s| self.config.seat_of(s) as i64).collect()))
    }

    #[getter]
    fn num_envs(&mut self) -> usize {
        self.slots.get_mut().map_or(0, |s| s.len())
    }

    #[getter]
    fn num_distinct_actions(&self) -> u64 {
        self.config.ids.distinct()
    }

    #[getter]
    fn players(&self) -> usize {
        self.config.rules.players()
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.config.observer.shape.size()
    }

    #[getter]
    fn board_shape(&self) -> (usize, usize, usize) {
        let s = &self.config.observer.shape;
        (s.planes(), s.side(), s.side())
    }

    #[getter]
    fn numbers_size(&self) -> usize {
        self.config.observer.shape.numbers_size()
    }

    #[getter]
    fn observation_layout(&self) -> Vec<(&'static str, Vec<usize>)> {
        self.config.observer.shape.layout()
    }

    #[getter]
    fn observation_planes(&self) -> Vec<String> {
        self.config.observer.shape.plane_names()
    }

    /// The output arrays, which every step overwrites in place: obs,
    /// numbers (compact only, else None), final_obs, final_numbers,
    /// rewards, done, actor, returns, scores, lengths.
    fn arrays<'py>(&self, py: Python<'py>) -> Vec<Option<Bound<'py, PyAny>>> {
        let a = &self.arrays;
        vec![
            Some(a.obs.bind(py).clone()),
            a.numbers.as_ref().map(|x| x.bind(py).clone().into_any()),
            Some(a.final_obs.bind(py).clone()),
            a.final_numbers.as_ref().map(|x| x.bind(py).clone().into_any()),
            Some(a.rewards.bind(py).clone().into_any()),
            Some(a.done.bind(py).clone().into_any()),
            Some(a.actor.bind(py).clone().into_any()),
            Some(a.returns.bind(py).clone().into_any()),
            Some(a.scores.bind(py).clone().into_any()),
            Some(a.lengths.bind(py).clone().into_any()),
        ]
    }
}
