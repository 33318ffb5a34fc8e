"""Shared helpers of the Python package's tests."""

import os
import pathlib
import random
import shutil

import pytest

import carcassonne

REPO = pathlib.Path(__file__).resolve().parents[3]


def play_random(state, seed, stop=None):
    """Plays random legal ids (draws by their probabilities) from Python
    until the game is over or `stop(state)` is true."""
    rng = random.Random(seed)
    while not state.is_over() and not (stop and stop(state)):
        if state.is_chance():
            ids, probs = zip(*state.chance_outcomes())
            state.apply(rng.choices(ids, probs)[0])
        else:
            state.apply(rng.choice(state.legal_action_ids()))
    return state


@pytest.fixture(scope="session")
def cli():
    """The `carcassonne` command line: $CARCASSONNE_BIN, else the release
    build in the cargo target directory, else `carcassonne` on the PATH."""
    candidates = [os.environ.get("CARCASSONNE_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR", str(REPO / "target"))
    candidates.append(str(pathlib.Path(target) / "release" / "carcassonne"))
    candidates.append(shutil.which("carcassonne"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    pytest.fail(
        "the carcassonne binary was not found: build it (cargo build --release -p carcassonne-cli) "
        "or set CARCASSONNE_BIN"
    )


@pytest.fixture
def ferries():
    return carcassonne.State(2, ["ferries"])
