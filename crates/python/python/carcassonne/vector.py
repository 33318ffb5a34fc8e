"""A batched environment: ``n`` games stepped together inside Rust.

``VectorEnv(n, setup, seed)`` follows Gymnasium's vector-environment
conventions (``reset``, ``step``, ``num_envs``, ``single_observation_space``,
``single_action_space``, "same-step" autoreset) and is a
``gymnasium.vector.VectorEnv`` when Gymnasium is installed; it needs only
NumPy otherwise. See docs/python.md, "A batched environment".
"""

import numpy as np

from carcassonne._carcassonne import DEFAULT_WINDOW, _VectorEnv

try:  # Gymnasium is optional: its spaces and base class when it is there.
    import gymnasium as _gym
    from gymnasium.vector import VectorEnv as _Base

    try:
        from gymnasium.vector import AutoresetMode as _AutoresetMode

        _SAME_STEP = _AutoresetMode.SAME_STEP
    except ImportError:  # Gymnasium before 1.1 names no modes
        _SAME_STEP = "same-step"
except ImportError:
    _gym = None
    _Base = object
    _SAME_STEP = "same-step"

OBSERVATIONS = ("flat", "compact")


def _readonly(array):
    view = array.view()
    view.flags.writeable = False
    return view


class VectorEnv(_Base):
    """``num_envs`` games of one setup, stepped together inside Rust.

    - ``setup``: a dictionary of ``carcassonne.State``'s arguments
      (``players``, ``expansions``, ``edition``, ``tiny_city_scoring``);
      by default 2 players with The Ferries, edition c3.
    - ``seed``: the deals (and ``sample_actions``' picks, and the
      opponent's choices) follow from it; ``reset(seed=...)`` sets another.
    - ``opponent``: ``None`` (every seat's decisions are steps: self-play,
      each observation by the player to act, ``infos["actor"]`` says who),
      or a bot named as for ``carcassonne.Bot`` (``"random"``,
      ``"greedy"``, ``"mcts:iters=200"``, ...) playing every seat but the
      learner's, inside Rust; then ``seat`` fixes the learner's seat
      (``None``: a random seat each game).
    - ``observation``: ``"flat"`` (the float32 vector of
      ``State.observation``) or ``"compact"`` (a dictionary: ``"board"``,
      the board planes as uint8, shape (planes, side, side), and
      ``"numbers"``, the rest as float32); ``window`` is the board window's
      radius.
    - ``utility``: ``"rank"`` (+1 for a sole winner, -1 for a sole loser)
      or ``"score"`` (the final score; always, in a solo game), given as the reward of the step
      that ends a game, to the player who made it (self-play) or to the
      learner.
    - ``threads``: threads stepping the games (default: the machine's cores).
    - ``copy``: ``step`` and ``reset`` return copies of the arrays
      (default, as Gymnasium's own vector environments); with
      ``copy=False`` they return the environment's arrays themselves,
      which the next call overwrites.

    A game that ends is dealt again in the same step: the step returns
    the new game's first observation, with the ended game's reward,
    ``terminations`` true, and in ``infos`` its ``final_obs``, ``returns``
    (every seat's utility), ``scores`` (final scores) and ``lengths``
    (its decisions), each with a ``_``-prefixed mask of the games that
    ended. ``truncations`` are always false: every game ends.

    ``action_masks()`` gives the legal actions of every game as a boolean
    array (num_envs, num_distinct_actions), the ids of
    ``State.legal_action_ids``; ``sample_actions()`` a uniformly random
    legal id for each game, drawn inside Rust.
    """

    metadata = {"autoreset_mode": _SAME_STEP}

    def __init__(
        self,
        num_envs,
        setup=None,
        seed=None,
        *,
        opponent=None,
        seat=None,
        observation="flat",
        window=DEFAULT_WINDOW,
        utility="rank",
        threads=None,
        copy=True,
    ):
        setup = dict(setup or {})
        unknown = set(setup) - {"players", "expansions", "edition", "tiny_city_scoring"}
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}: players, expansions, edition, tiny_city_scoring")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is one of {OBSERVATIONS}, not {observation!r}")
        if not isinstance(num_envs, int) or isinstance(num_envs, bool):
            raise ValueError(f"num_envs is a number of games, not {num_envs!r}")
        expansions = setup.get("expansions", ["ferries"])
        if isinstance(expansions, str):
            raise ValueError("expansions is a list of names, such as ['ferries']")
        self._core = _VectorEnv(
            num_envs,
            setup.get("players", 2),
            list(expansions),
            setup.get("edition", "c3"),
            setup.get("tiny_city_scoring", 4),
            window,
            observation == "compact",
            opponent,
            seat,
            utility,
            threads,
        )
        self.num_envs = num_envs
        self.compact = observation == "compact"
        self.window = window
        self.copy = copy
        self.num_distinct_actions = self._core.num_distinct_actions
        self.players = self._core.players
        self.observation_layout = self._core.observation_layout
        self.observation_planes = self._core.observation_planes
        (
            self._obs,
            self._numbers,
            self._final_obs,
            self._final_numbers,
            self._rewards,
            self._done,
            self._actor,
            self._returns,
            self._scores,
            self._lengths,
        ) = self._core.arrays()
        # What copy=False hands out: read-only views, so that what Python
        # does with them cannot disturb the environment's own arrays.
        self._shown = {
            name: _readonly(getattr(self, name))
            for name in ("_obs", "_numbers", "_rewards", "_done", "_actor")
            if getattr(self, name) is not None
        }
        self._masks = None
        self._seed = 0 if seed is None else int(seed)
        self._dealt = False
        if _gym is not None:
            self._spaces()

    def _spaces(self):
        from gymnasium import spaces
        from gymnasium.vector.utils import batch_space

        if self.compact:
            board = self._core.board_shape
            self.single_observation_space = spaces.Dict(
                {
                    "board": spaces.Box(0, 255, board, np.uint8),
                    "numbers": spaces.Box(-np.inf, np.inf, (self._core.numbers_size,), np.float32),
                }
            )
        else:
            size = self._core.observation_size
            self.single_observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.single_action_space = spaces.Discrete(self.num_distinct_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _observations(self):
        if self.copy:
            return {"board": self._obs.copy(), "numbers": self._numbers.copy()} if self.compact else self._obs.copy()
        if self.compact:
            return {"board": self._shown["_obs"], "numbers": self._shown["_numbers"]}
        return self._shown["_obs"]

    def _get(self, name):
        return getattr(self, name).copy() if self.copy else self._shown[name]

    def reset(self, *, seed=None, options=None):
        """Deals a new game everywhere; returns (observations, infos)."""
        if seed is not None:
            self._seed = int(seed)
        elif self._dealt:
            self._seed += 1  # a new set of deals each reset without a seed
        if self._seed < 0 or self._seed >= 2**64:
            raise ValueError(f"seed is from 0 to 2**64 - 1, not {self._seed}")
        self._core.reset(self._seed)
        self._dealt = True
        return self._observations(), {"actor": self._get("_actor")}

    def step(self, actions):
        """Plays one action id per game; returns (observations, rewards,
        terminations, truncations, infos). Raises IllegalActionError,
        changing nothing, if any id is not legal in its game."""
        actions = np.ascontiguousarray(actions)
        if actions.dtype != np.int64:
            if not np.issubdtype(actions.dtype, np.integer):
                raise ValueError(f"actions are integer ids, not {actions.dtype}")
            actions = actions.astype(np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions has shape {actions.shape}, not ({self.num_envs},): one id a game")
        self._core.step(actions)
        infos = {"actor": self._get("_actor")}
        if self._done.any():
            ended = self._done.copy()
            objects = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(ended):
                if self.compact:
                    objects[i] = {"board": self._final_obs[i].copy(), "numbers": self._final_numbers[i].copy()}
                else:
                    objects[i] = self._final_obs[i].copy()
            infos.update(
                final_obs=objects,
                _final_obs=ended,
                returns=self._returns.copy(),
                _returns=ended,
                scores=self._scores.copy(),
                _scores=ended,
                lengths=self._lengths.copy(),
                _lengths=ended,
            )
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._observations(), self._get("_rewards"), self._get("_done"), truncated, infos

    def action_masks(self):
        """The legal ids of every game now, as booleans (num_envs,
        num_distinct_actions). Written when asked for, into one array that
        the next call overwrites (a read-only view of it: a copy costs
        num_distinct_actions bytes a game)."""
        masks = self._core.action_masks()
        if self._masks is None:
            self._masks = _readonly(masks)
        return self._masks

    def legal_ids(self, i):
        """The legal ids of game ``i`` now, ascending."""
        return self._core.legal_ids(i)

    def sample_actions(self):
        """A uniformly random legal id for every game (drawn inside Rust)."""
        return self._core.sample_actions()

    def seats(self):
        """The seat the environment speaks for in each game: the learner's
        against an opponent, else the player to act."""
        return self._core.seats()

    def close(self, **kwargs):
        pass

    def __repr__(self):
        return f"<carcassonne.VectorEnv {self.num_envs} games>"
