"""carcassonne.VectorEnv: n games stepped together inside Rust.

Each game of the environment is followed by a `carcassonne.State` played
from Python with the same actions and the draws the environment shows: the
environment's observations and masks must be exactly the State's."""

import numpy as np
import pytest

import carcassonne

gymnasium = pytest.importorskip("gymnasium")


def piece(layout, obs, name):
    at = 0
    for n, shape in layout:
        size = int(np.prod(shape))
        if n == name:
            return obs[at : at + size].reshape(shape)
        at += size
    raise KeyError(name)


def flat(env, obs, i):
    """Game i's observation as the flat float32 vector of State.observation."""
    if env.compact:
        return np.concatenate([obs["board"][i].astype(np.float32).ravel(), obs["numbers"][i]])
    return obs[i]


def draw(env, obs, i, state):
    """Plays into `state` the draw that the environment's game i shows."""
    drawn = piece(env.observation_layout, flat(env, obs, i), "drawn")
    (kind,) = np.flatnonzero(drawn)
    state.apply(int(kind))


def rank(scores, seat):
    mine = scores[seat]
    return sum((s < mine) - (s > mine) for s in scores) / (len(scores) - 1)


def follow(env, setup, steps, seed):
    """Steps the environment with random legal actions and checks every game
    against a State played alongside; returns the games that ended."""
    obs, infos = env.reset(seed=seed)
    mirrors = []
    for i in range(env.num_envs):
        s = carcassonne.State(**setup)
        draw(env, obs, i, s)
        mirrors.append(s)
    ended = 0
    for _ in range(steps):
        masks = env.action_masks()
        for i, s in enumerate(mirrors):
            assert infos["actor"][i] == s.current_player
            assert list(np.flatnonzero(masks[i])) == s.legal_action_ids()
            np.testing.assert_array_equal(flat(env, obs, i), s.observation(s.current_player, window=env.window))
        actions = env.sample_actions()
        movers = [s.current_player for s in mirrors]
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        for i, s in enumerate(mirrors):
            s.apply(int(actions[i]))
            if terminated[i]:
                ended += 1
                assert s.is_over()
                final = s.final_scores()
                assert rewards[i] == rank(final, movers[i])
                assert list(infos["scores"][i]) == final
                assert list(infos["returns"][i]) == [rank(final, p) for p in range(len(final))]
                assert infos["_final_obs"][i]
                last = infos["final_obs"][i]
                if env.compact:
                    last = np.concatenate([last["board"].astype(np.float32).ravel(), last["numbers"]])
                np.testing.assert_array_equal(last, s.observation(movers[i], window=env.window))
                s = mirrors[i] = carcassonne.State(**setup)
            else:
                assert rewards[i] == 0
            while s.is_chance():
                draw(env, obs, i, s)
    return ended


def test_every_observation_and_mask_is_the_states_and_games_end_and_start_again():
    setup = {"players": 2, "expansions": ["ferries"]}
    env = carcassonne.VectorEnv(3, setup, seed=5)
    assert follow(env, setup, 450, seed=5) >= 3


def test_the_compact_observation_holds_the_same_values_with_three_players_and_the_base_game():
    setup = {"players": 3, "expansions": []}
    env = carcassonne.VectorEnv(2, setup, observation="compact", window=12)
    obs, _ = env.reset(seed=2)
    assert obs["board"].dtype == np.uint8 and obs["board"].shape == (2, 28, 25, 25)
    assert obs["numbers"].dtype == np.float32
    assert follow(env, setup, 250, seed=2) >= 1


def test_the_same_seed_gives_the_same_games_whatever_the_threads():
    runs = []
    for threads in (1, 2):
        env = carcassonne.VectorEnv(16, seed=9, threads=threads, observation="compact")
        obs, _ = env.reset()
        trace = [obs["board"].sum(axis=(1, 2, 3))]
        for _ in range(120):
            obs, rewards, terminated, _, _ = env.step(env.sample_actions())
            trace += [obs["board"].sum(axis=(1, 2, 3)), obs["numbers"].sum(axis=1), rewards, terminated]
        runs.append(trace)
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    # Another seed deals other games.
    other = carcassonne.VectorEnv(16, seed=10, observation="compact").reset()[0]["numbers"]
    first = carcassonne.VectorEnv(16, seed=9, observation="compact").reset()[0]["numbers"]
    assert not np.array_equal(other, first)


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = carcassonne.VectorEnv(4, seed=1)
    obs, _ = env.reset()
    masks = env.action_masks().copy()
    actions = env.sample_actions()
    bad = actions.copy()
    bad[2] = 1  # discard: never legal while the tile fits somewhere
    with pytest.raises(carcassonne.IllegalActionError, match="game 2: action id 1"):
        env.step(bad)
    for wrong in (-1, env.num_distinct_actions, 2**40):
        bad[2] = wrong
        with pytest.raises(carcassonne.IllegalActionError, match="game 2"):
            env.step(bad)
    with pytest.raises(ValueError, match="one id a game"):
        env.step(actions[:3])
    with pytest.raises(ValueError, match="integer ids"):
        env.step(actions.astype(np.float64))
    np.testing.assert_array_equal(env.action_masks(), masks)
    # The games stand where they were: the same actions are still legal.
    after, _, _, _, _ = env.step(actions)
    assert after.shape == obs.shape


def test_the_arrays_handed_out_are_read_only_and_a_mask_is_no_licence():
    env = carcassonne.VectorEnv(1, seed=3, copy=False)
    obs, _ = env.reset()
    masks = env.action_masks()
    for array in (obs, masks):
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 1
    # Even a mask made writable again does not make an action legal: the
    # environment checks against its own list.
    raw = masks.base
    raw[0, :] = True
    with pytest.raises(carcassonne.IllegalActionError):
        env.step(np.array([1]))


def test_bad_setups_are_refused_with_the_reason():
    cases = [
        (dict(num_envs=0), "at least 1 game"),
        (dict(num_envs=2, setup={"player": 2}), "unknown setup keys"),
        (dict(num_envs=2, setup={"expansions": ["cathars"]}), "unknown expansion"),
        (dict(num_envs=2, setup={"players": 9}), "player"),
        (dict(num_envs=2, opponent="grandmaster"), "opponent"),
        (dict(num_envs=2, seat=0), "only with an opponent"),
        (dict(num_envs=2, opponent="random", seat=2), "seat 2"),
        (dict(num_envs=2, utility="money"), "utility"),
        (dict(num_envs=2, window=500), "radius"),
        (dict(num_envs=2, observation="pixels"), "observation"),
        (dict(num_envs=2, threads=0), "threads"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            carcassonne.VectorEnv(**kwargs)


def test_against_an_opponent_every_step_is_the_learners_and_greedy_beats_random_play():
    env = carcassonne.VectorEnv(8, seed=4, opponent="greedy", seat=1, observation="compact")
    obs, infos = env.reset()
    assert (infos["actor"] == 1).all() and (env.seats() == 1).all()
    results = []
    while len(results) < 40:
        obs, rewards, terminated, _, infos = env.step(env.sample_actions())
        assert (infos["actor"] == 1).all()
        for i in np.flatnonzero(terminated):
            assert infos["returns"][i].sum() == 0
            assert rewards[i] == infos["returns"][i][1]
            results.append(rewards[i])
    # A random learner against greedy loses most games.
    assert np.mean(results) < -0.5
    # The observation is the learner's: its followers are plane 0's player.
    env = carcassonne.VectorEnv(4, seed=4, opponent="random")
    env.reset()
    seats = set()
    for _ in range(400):
        _, _, terminated, _, infos = env.step(env.sample_actions())
        seats.update(env.seats().tolist())
        assert (infos["actor"] == env.seats()).all()
    assert seats == {0, 1}  # a random seat each game


def test_the_score_utility_and_gymnasium_spaces():
    env = carcassonne.VectorEnv(2, {"players": 2, "expansions": []}, utility="score")
    assert isinstance(env, gymnasium.vector.VectorEnv)
    obs, _ = env.reset(seed=1)
    assert env.single_observation_space.contains(obs[0])
    assert env.single_action_space.n == env.num_distinct_actions == 81815
    assert env.action_space.shape == (2,)
    while True:
        obs, rewards, terminated, _, infos = env.step(env.sample_actions())
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            mover_score = rewards[i]
            assert mover_score in infos["scores"][i]
            break
    compact = carcassonne.VectorEnv(2, observation="compact")
    obs, _ = compact.reset(seed=1)
    assert compact.single_observation_space.contains({k: v[0] for k, v in obs.items()})


def test_the_example_policy_learns_to_beat_random_play():
    import importlib.util

    from conftest import REPO

    path = REPO / "crates" / "python" / "examples" / "train_policy.py"
    spec = importlib.util.spec_from_file_location("train_policy", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    before, after = example.main(["--games", "500", "--envs", "32", "--eval", "200", "--every", "250"])
    assert 0.38 <= before <= 0.62  # uniform play against random play
    assert after >= 0.7


def test_a_solo_game_is_rewarded_with_its_score():
    env = carcassonne.VectorEnv(2, {"players": 1, "expansions": []}, seed=6, observation="compact")
    env.reset()
    while True:
        _, rewards, terminated, _, infos = env.step(env.sample_actions())
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            assert rewards[i] == infos["scores"][i][0] > 0
            break
