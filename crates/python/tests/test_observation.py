"""The observation: a flat float32 NumPy array whose layout is documented."""

import numpy as np
import pytest

import carcassonne
from conftest import play_random

PLANES = [
    "tile", "road_n", "road_e", "road_s", "road_w", "city_n", "city_e", "city_s", "city_w", "pennants",
    "monastery", "lake", "ferry_n", "ferry_e", "ferry_s", "ferry_w", "placed_this_turn",
    "fits_0", "fits_90", "fits_180", "fits_270",
    "follower_road", "follower_city", "follower_field", "follower_monastery",
]  # fmt: skip


def pieces(state, obs, window=None):
    out, at = {}, 0
    for name, shape in state.observation_layout(window):
        size = int(np.prod(shape))
        out[name] = obs[at : at + size].reshape(shape)
        at += size
    assert at == obs.size
    return out


def test_the_layout_is_as_documented():
    s = carcassonne.State(3)
    k = len(carcassonne.TILE_KINDS)
    side = 2 * carcassonne.DEFAULT_WINDOW + 1
    assert s.observation_layout() == [
        ("board", [len(PLANES) + 3, side, side]),
        ("step", [6]),
        ("actor", [3]),
        ("drawn", [k]),
        ("bag", [k]),
        ("scores", [3]),
        ("supply", [3]),
        ("window", [2]),
        ("tiles_left", [1]),
    ]
    assert s.observation_planes() == PLANES + ["follower_player_0", "follower_player_1", "follower_player_2"]
    obs = s.observation()
    assert obs.dtype == np.float32 and obs.ndim == 1
    assert obs.size == (len(PLANES) + 3) * side * side + 6 + 3 + 2 * k + 3 + 3 + 2 + 1
    assert s.observation(window=4).size == (len(PLANES) + 3) * 81 + 6 + 3 + 2 * k + 3 + 3 + 2 + 1


def test_a_new_game_shows_the_start_tile_in_the_middle_and_the_full_bag():
    s = carcassonne.State()
    p = pieces(s, s.observation(0))
    board, r = p["board"], carcassonne.DEFAULT_WINDOW
    assert board[0].sum() == 1 and board[0, r, r] == 1
    # The start tile D: city north, road east-west.
    assert board[PLANES.index("city_n"), r, r] == 1
    assert board[PLANES.index("road_e"), r, r] == 1 and board[PLANES.index("road_w"), r, r] == 1
    assert board[PLANES.index("road_n"), r, r] == 0
    assert list(p["step"]) == [1, 0, 0, 0, 0, 0]
    assert p["actor"].sum() == 0  # chance acts
    assert p["drawn"].sum() == 0
    assert p["bag"].sum() == 79 and p["tiles_left"][0] == 79
    assert list(p["window"]) == [-r, -r]
    assert list(p["supply"]) == [7, 7]


def test_the_placement_step_shows_where_the_tile_fits_and_players_are_counted_from_the_observer():
    s = carcassonne.State(3)
    play_random(s, seed=8, stop=lambda s: s.turns == 12 and s.step == "place")
    s.apply  # the drawn tile waits
    p0 = pieces(s, s.observation(s.actor))
    fits = p0["board"][PLANES.index("fits_0") : PLANES.index("fits_270") + 1]
    placements = [a for a in s.legal_actions() if a.startswith("place")]
    assert fits.sum() == len(placements)
    assert p0["actor"][0] == 1
    assert p0["drawn"][carcassonne.TILE_KINDS.index(s.drawn)] == 1
    other = (s.actor + 1) % 3
    p1 = pieces(s, s.observation(other))
    assert p1["actor"][2] == 1
    scores = s.scores()
    assert list(p1["scores"]) == [scores[other], scores[(other + 1) % 3], scores[(other + 2) % 3]]


def test_followers_and_ferries_of_a_finished_game_are_on_the_board():
    s = play_random(carcassonne.State(2), seed=6)
    p = pieces(s, s.observation(1, window=30), window=30)
    board = p["board"]
    assert board[0].sum() == len(s.tiles())
    followers = board[len(PLANES) :]
    assert followers.sum() == len(s.followers())
    mine = sum(1 for f in s.followers() if f[0] == 1)
    assert followers[0].sum() == mine
    assert board[PLANES.index("lake")].sum() == len(s.ferries()) > 0
    assert board[PLANES.index("ferry_n") : PLANES.index("ferry_w") + 1].sum() == 2 * len(s.ferries())
    assert list(p["step"]) == [0, 0, 0, 0, 0, 1]
    assert np.isfinite(p["board"]).all()


def test_write_observation_fills_a_given_array():
    s = carcassonne.State()
    out = np.full(s.observation().size, 7.0, np.float32)
    s.write_observation(out, 0)
    assert np.array_equal(out, s.observation(0))
    with pytest.raises(ValueError, match="the observation has"):
        s.write_observation(np.zeros(10, np.float32))
    with pytest.raises(TypeError):
        s.write_observation(np.zeros(out.size, np.float64))
    with pytest.raises(ValueError, match="player 2 is not a seat"):
        s.observation(2)


def test_the_window_is_bounded():
    s = carcassonne.State()
    assert s.observation(window=100).size > 0
    for call in (lambda: s.observation(window=101), lambda: s.observation_layout(10**12)):
        with pytest.raises(ValueError, match="radius is at most 100"):
            call()
    with pytest.raises(OverflowError):
        s.observation(window=-1)
