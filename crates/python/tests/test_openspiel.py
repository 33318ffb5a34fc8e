"""The OpenSpiel game: registration, OpenSpiel's own random simulation test,
observation tensors, serialization, and OpenSpiel's MCTS against ours."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import carcassonne
import carcassonne.openspiel as cos


def test_the_game_is_registered_with_its_parameters():
    assert "carcassonne" in pyspiel.registered_names()
    game = pyspiel.load_game("carcassonne")
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_parameters() == {
        "players": 2, "expansions": "ferries", "edition": "c3", "utility": "rank", "window": 15,
    }  # fmt: skip
    assert game.num_players() == 2
    assert game.num_distinct_actions() == carcassonne.State().num_distinct_actions == 252835
    assert game.max_chance_outcomes() == len(carcassonne.TILE_KINDS)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [carcassonne.State().observation().size]
    base = pyspiel.load_game("carcassonne(players=4,expansions=none,edition=c2,utility=score)")
    assert base.num_players() == 4
    assert base.num_distinct_actions() == carcassonne.State(4, []).num_distinct_actions
    assert base.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert base.min_utility() == 0


@pytest.mark.parametrize(
    "name",
    [
        "carcassonne",
        "carcassonne(players=3,edition=c2)",
        "carcassonne(expansions=none,utility=score)",
        "carcassonne(players=5,window=6)",
        "carcassonne(players=1,expansions=none)",
        "carcassonne(players=2,expansions=river+abbot+labyrinth)",
    ],
)
def test_openspiels_random_simulation_test_passes(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="a game has 1 to 5 players"):
        pyspiel.load_game("carcassonne(players=7)")
    with pytest.raises(Exception, match="utility is one of"):
        pyspiel.load_game("carcassonne(utility=money)")
    with pytest.raises(Exception, match="unknown expansion"):
        pyspiel.load_game("carcassonne(expansions=inns)")


def test_states_serialize_and_clone():
    game = pyspiel.load_game("carcassonne")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.move_number() < 30 or state.is_chance_node():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state) and back.history() == state.history()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    assert state.action_to_string(state.current_player(), state.legal_actions()[0]) in state.native.legal_actions()


def test_the_observation_tensor_has_the_documented_pieces():
    game = pyspiel.load_game("carcassonne(players=3)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    tensor = np.array(state.observation_tensor(state.current_player()))
    assert np.array_equal(tensor, state.native.observation(state.current_player()))
    obs = game.make_py_observer()
    obs.set_from(state, 1)
    assert obs.dict["board"].shape == (25 + 3, 31, 31)
    assert obs.dict["actor"].shape == (3,) and obs.dict["actor"][2] == 1
    assert state.observation_string(0) == str(state.native)


def test_returns_are_rank_based_and_zero_sum():
    game = pyspiel.load_game("carcassonne(players=3)")
    state = game.new_initial_state()
    assert state.returns() == [0.0, 0.0, 0.0]
    rng = np.random.RandomState(5)
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    scores = state.native.final_scores()
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    for p in range(3):
        expected = (sum(o < scores[p] for o in scores) - sum(o > scores[p] for o in scores)) / 2
        assert returns[p] == expected


def test_openspiels_mcts_plays_a_whole_game_against_ours():
    game = pyspiel.load_game("carcassonne")
    rng = np.random.RandomState(1)
    theirs = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    ours = cos.RustBot("mcts:iters=20:trees=1", seed=1)
    state = game.new_initial_state()
    decisions = [0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
            continue
        player = state.current_player()
        bot = theirs if player == 0 else ours
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions[player] += 1
    assert min(decisions) > 40
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_our_bots_play_through_openspiels_own_game_loop():
    game = pyspiel.load_game("carcassonne(players=3)")
    bots = [cos.RustBot("greedy", 1), cos.RustBot("random", 2), cos.RustBot("mcts:iters=10:trees=1", 3)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 4)
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9
