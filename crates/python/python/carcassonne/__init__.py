"""Carcassonne with The Ferries: the Rust engine for Python.

See docs/python.md in the repository. The OpenSpiel game is in
``carcassonne.openspiel`` (importing it registers the game "carcassonne").
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
    play_random_games,
)


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
    "analyse",
    "play_random_games",
]
