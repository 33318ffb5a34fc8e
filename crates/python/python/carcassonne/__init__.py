"""Carcassonne with The Ferries: the Rust engine for Python.

See docs/python.md in the repository. The OpenSpiel game is in
``carcassonne.openspiel`` (importing it registers the game "carcassonne").
"""

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
    play_random_games,
)

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
    "play_random_games",
]
