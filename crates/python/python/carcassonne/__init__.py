"""Carcassonne with The Ferries: the Rust engine for Python.

See docs/python.md in the repository. The OpenSpiel game is in
``carcassonne.openspiel`` (importing it registers the game "carcassonne");
``carcassonne.VectorEnv`` steps many games at once inside Rust.
"""

import json as _json

from carcassonne._carcassonne import (
    CHANCE,
    DEFAULT_WINDOW,
    EDITIONS,
    EXPANSIONS,
    TERMINAL,
    TILE_KINDS,
    Bot,
    IllegalActionError,
    RecordError,
    SetupError,
    State,
    analyse_json as _analyse_json,
    odds_json as _odds_json,
    play_random_games,
)
from carcassonne.vector import VectorEnv


def analyse(record, ms=None, iterations=None, seed=1):
    """Reviews every decision of a game with the strongest bot.

    ``record`` is a game record (its JSON text) or a ``State`` (its game so
    far). Each decision with a choice gets ``ms`` milliseconds of search
    (150 by default), or ``iterations`` iterations, which makes the review
    the same every time for a given ``seed``. Returns the dictionary that
    ``carcassonne analyse --json`` prints: ``decisions`` (turn, player,
    played, best, win, win_before, margin, margin_before, loss, drop,
    accuracy, mark, ...) and ``players`` (accuracy, marks, luck, loss).
    See docs/analysis.md.
    """
    if isinstance(record, State):
        record = record.to_json(False)
    return _json.loads(_analyse_json(record, ms=ms, iterations=iterations, seed=seed))

def odds(record):
    """The odds a player reads off the board, in a position.

    ``record`` is a game record (its JSON text: the position it leaves) or a
    ``State`` (its position, a turn in progress included). Returns the
    dictionary ``carcassonne odds --json`` prints: ``cells`` (each open
    cell's ``next`` chance that the next tile drawn fits, the ``tiles`` left
    that fit, ``dead`` when none does) and ``features`` (each open road,
    city, monastery and garden with its ``chance`` to be completed by the
    bots' evaluation's estimate, ``needs``, ``dead``, ``followers``). See
    docs/analysis.md.
    """
    if isinstance(record, State):
        return _json.loads(record.odds_json())
    return _json.loads(_odds_json(record))


__all__ = [
    "CHANCE",
    "DEFAULT_WINDOW",
    "EDITIONS",
    "EXPANSIONS",
    "TERMINAL",
    "TILE_KINDS",
    "Bot",
    "IllegalActionError",
    "RecordError",
    "SetupError",
    "State",
    "VectorEnv",
    "analyse",
    "odds",
    "play_random_games",
]
