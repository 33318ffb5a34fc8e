"""Carcassonne with The Ferries as an OpenSpiel game.

Importing this module registers the game ``"carcassonne"`` with ``pyspiel``
(the ``open_spiel`` package), as OpenSpiel's own Python games do::

    import pyspiel
    import carcassonne.openspiel  # registers "carcassonne"
    game = pyspiel.load_game("carcassonne(players=2,expansions=ferries)")

The game is sequential with explicit stochastic chance: chance draws every
tile, each kind as likely as its share of the bag. It is a game of perfect
information (the bag's contents are public, its order is hidden from all).

Parameters (defaults in brackets):

- ``players`` [2]: 1 to 5 (6 with Inns & Cathedrals); 1 is a solo game, the
  bag played out for the highest score, whose utility is always ``score``
  (whatever ``utility`` says).
- ``expansions`` ["ferries"]: expansion names joined by ``+``, or ``none``
  for the base game.
- ``edition`` ["c3"]: tile distribution, ``c3`` or ``c2``.
- ``utility`` ["rank"]: ``rank`` gives each player (opponents with a lower
  final score - opponents with a higher one) / (players - 1): +1 for a sole
  winner, -1 for a sole loser, 0 for a tie of two, zero-sum. ``score`` gives
  the final scores themselves (general-sum).
- ``window`` [15]: radius of the observation's board window (31 x 31 cells).

Action ids are those of ``carcassonne.State.legal_action_ids`` (documented in
docs/python.md): a fixed encoding over the board window ``-R..R`` where R is
the number of tiles in the bag, so ``num_distinct_actions`` is fixed for the
parameters. Chance ids are tile kinds (``carcassonne.TILE_KINDS``, then the
kinds of The River, The Abbot and The Labyrinth where in play: ``native.tile_kinds``).
Serialization is OpenSpiel's default (the history of ids, replayed).
"""

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import carcassonne

SHORT_NAME = "carcassonne"
DEFAULTS = {
    "players": 2,
    "expansions": "ferries",
    "edition": "c3",
    "utility": "rank",
    "window": carcassonne.DEFAULT_WINDOW,
}
UTILITIES = ("rank", "score")

# Game type as registered; a game with utility=score is general-sum.
GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Carcassonne with The Ferries",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def _expansion_list(text):
    return [] if text in ("", "none") else text.split("+")


class CarcassonneGame(pyspiel.Game):
    """The OpenSpiel game; see the module documentation for its parameters."""

    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)} (known: {sorted(DEFAULTS)})")
        utility = params["utility"]
        if utility not in UTILITIES:
            raise ValueError(f"utility is one of {UTILITIES}, not {utility!r}")
        # A solo game has no rank among players (pyspiel always passes the
        # default rank): its utility is the score.
        if int(params["players"]) == 1:
            utility = "score"
        self._players = int(params["players"])
        self._expansions = _expansion_list(params["expansions"])
        self._edition = params["edition"]
        self._utility = utility
        self._window = int(params["window"])
        probe = self._new_native()  # checks the rules, raising SetupError
        tiles = probe.bag_total
        self._tiles = tiles
        if utility == "rank":
            game_type, low, high, total = GAME_TYPE, -1.0, 1.0, 0.0
        else:
            game_type = pyspiel.GameType(
                **{
                    name: getattr(GAME_TYPE, name)
                    for name in (
                        "short_name long_name dynamics chance_mode information reward_model max_num_players "
                        "min_num_players provides_information_state_string provides_information_state_tensor "
                        "provides_observation_string provides_observation_tensor parameter_specification"
                    ).split()
                },
                utility=pyspiel.GameType.Utility.GENERAL_SUM,
            )
            # A bound, not a score any game reaches: 30 points a tile.
            low, high, total = 0.0, 30.0 * (tiles + 1), None
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_distinct_actions,
            max_chance_outcomes=probe.num_chance_outcomes,
            num_players=self._players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=probe.max_decisions,
        )
        super().__init__(game_type, info, params)

    def _new_native(self):
        return carcassonne.State(self._players, self._expansions, self._edition)

    def new_initial_state(self):
        return CarcassonneState(self)

    def max_chance_nodes_in_history(self):
        return self._tiles

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return CarcassonneObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CarcassonneState(pyspiel.State):
    """A state of the OpenSpiel game around a ``carcassonne.State``
    (``native``), which holds the whole game: cloning copies it in Rust."""

    def __init__(self, game):
        super().__init__(game)
        self._native = game._new_native()
        self._utility = game._utility

    @property
    def native(self):
        """The ``carcassonne.State`` of this state (its record, observation, ...)."""
        return self._native

    def current_player(self):
        actor = self._native.actor
        if actor == carcassonne.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if actor == carcassonne.CHANCE:
            return pyspiel.PlayerId.CHANCE
        return actor

    def _legal_actions(self, player):
        return self._native.legal_action_ids()

    def chance_outcomes(self):
        return self._native.chance_outcomes()

    def _apply_action(self, action):
        self._native.apply(int(action))

    def _action_to_string(self, player, action):
        return self._native.action_text(int(action), chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self):
        return self._native.is_over()

    def returns(self):
        n = self._native.players
        if not self._native.is_over():
            return [0.0] * n
        scores = self._native.final_scores()
        if self._utility == "score":
            return [float(s) for s in scores]
        return [
            (sum(o < s for o in scores) - sum(o > s for o in scores)) / (n - 1) for s in scores
        ]

    def __str__(self):
        return str(self._native)


class CarcassonneObserver:
    """The observation tensor of ``carcassonne.State.observation`` (layout in
    docs/python.md), with a named view of each piece in ``dict``.
    Parameters: ``window``, the board window's radius."""

    def __init__(self, game, params):
        params = dict(params or {})
        self._window = int(params.pop("window", game._window))
        if params:
            raise ValueError(f"observation parameters are window only, not {sorted(params)}")
        layout = game._new_native().observation_layout(self._window)
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in layout), np.float32)
        self.dict = {}
        at = 0
        for name, shape in layout:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state, player):
        state.native.write_observation(self.tensor, player, self._window)

    def string_from(self, state, player):
        return str(state.native)


class RustBot(pyspiel.Bot):
    """A bot of carcassonne-bots playing the OpenSpiel game: ``spec`` as on
    the command line ("mcts:iters=2000:trees=1", "greedy", "random")."""

    def __init__(self, spec, seed=0):
        pyspiel.Bot.__init__(self)
        self._bot = carcassonne.Bot(spec, seed)

    def restart_at(self, state):
        pass

    def step(self, state):
        return self._bot.choose_id(state.native)


pyspiel.register_game(GAME_TYPE, CarcassonneGame)
