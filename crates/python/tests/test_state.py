"""The Python API of the engine: setup, actors, actions as text and ids,
chance, apply, clone, scores, records and refused actions."""

import copy
import json
import pickle

import numpy as np
import pytest

import carcassonne
from carcassonne import IllegalActionError, RecordError, SetupError, State
from conftest import play_random


def test_a_new_game_waits_for_chance_to_draw():
    s = State()
    assert s.players == 2
    assert s.player_names == ["P1", "P2"]
    assert s.expansions == ["ferries"]
    assert s.edition == "c3"
    assert s.tiny_city_scoring == 4
    assert s.actor == carcassonne.CHANCE
    assert s.is_chance() and not s.is_over()
    assert s.step == "draw"
    assert s.drawn is None
    assert s.turns == 0
    assert s.scores() == [0, 0]
    assert s.supply() == [7, 7]
    assert s.tiles() == [(0, 0, "D", 0)]
    assert s.bag_total == 79


def test_setups_of_every_kind():
    s = State(["ann", "bob", "cy"], [], "c2", tiny_city_scoring=2)
    assert s.players == 3 and s.player_names == ["ann", "bob", "cy"]
    assert s.expansions == [] and s.edition == "c2" and s.tiny_city_scoring == 2
    assert s.bag_total == 71
    assert State(5).players == 5
    assert State(1).players == 1


@pytest.mark.parametrize(
    "args, message",
    [
        ((0,), "a game has 1 to 5 players, not 0"),
        ((6,), "a game has 1 to 5 players, not 6"),
        ((2, ["inns"]), "unknown expansion 'inns' (known: ferries, river, abbot, labyrinth)"),
        ((2, ["ferries", "ferries"]), "expansion ferries is named twice"),
        ((2, [], "c1"), "unknown edition 'c1' (c3 or c2)"),
        ((2, [], "c3", 3), "tiny-city-scoring is 4"),
        (("two",), "players is a number of players or a list of their names"),
    ],
)
def test_setups_that_cannot_be_are_refused_with_the_engines_message(args, message):
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        State(*args)


def test_chance_outcomes_are_the_bag_with_probabilities_count_over_total():
    s = State()
    outcomes = s.chance_outcomes()
    assert [i for i, _ in outcomes] == s.legal_action_ids() == sorted(s.legal_action_ids())
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    bag = dict(s.bag())
    for i, p in outcomes:
        kind = carcassonne.TILE_KINDS[i]
        assert p == bag[kind] / s.bag_total
        assert s.action_text(i) == f"draw {kind}"
    s.apply("draw U")
    assert s.drawn == "U" and s.chance_outcomes() == []
    assert s.actor == 0 and s.step == "place"


def test_legal_actions_as_text_and_as_ids_name_the_same_actions():
    s = State(3)
    checked = 0
    while not s.is_over():
        texts = s.legal_actions()
        ids = s.legal_action_ids()
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        assert sorted(s.action_id(t) for t in texts) == ids
        assert sorted(s.action_text(i) for i in ids) == sorted(texts)
        bound = s.num_chance_outcomes if s.is_chance() else s.num_distinct_actions
        assert all(0 <= i < bound for i in ids)
        assert all(s.is_legal(i) for i in ids) and all(s.is_legal(t) for t in texts)
        s.apply(ids[(checked * 7919) % len(ids)])
        checked += 1
    assert checked > 200  # the whole game, every step of it


def test_the_number_of_ids_is_fixed_by_the_rules():
    # The board window is -R..R with R the tiles in the bag (docs/python.md).
    base, ferries = State(2, []), State(2, ["ferries"])
    assert base.board_radius == 71 and ferries.board_radius == 79
    assert base.num_distinct_actions == 2 + 4 * 143**2 + 17
    assert ferries.num_distinct_actions == 2 + 4 * 159**2 + 17 + 6 + 6 * 159**2
    assert base.num_chance_outcomes == ferries.num_chance_outcomes == len(carcassonne.TILE_KINDS)
    s = State(2, [])
    s.apply("draw U")
    ids = s.legal_action_ids()
    # Place ids: 2 + 4 * cell + quarter turns, cell = (y + R) * W + (x + R).
    r, w = 71, 143
    for text in s.legal_actions():
        assert text.startswith("place at ")
        x, y = json.loads(text.split(" at ")[1].split(" turned ")[0])
        quarters = int(text.rsplit(" ", 1)[1]) // 90
        assert s.action_id(text) == 2 + 4 * ((y + r) * w + (x + r)) + quarters
    assert ids


def test_apply_plays_ids_and_text_and_a_random_game_ends_with_final_scores():
    s = play_random(State(), seed=1)
    assert s.is_over() and s.actor == carcassonne.TERMINAL and s.step == "game-over"
    assert s.legal_actions() == [] and s.legal_action_ids() == [] and s.chance_outcomes() == []
    assert s.bag_total == 0
    final = s.final_scores()
    assert all(f >= p for f, p in zip(final, s.scores()))
    discards = sum(1 for t in json.loads(s.to_json())["turns"] if t.get("discard"))
    assert len(s.tiles()) + discards == 80  # the start tile and every tile of the bag
    t = State()
    t.apply("draw D")
    t.apply(t.legal_actions()[0])
    assert t.step in ("deploy", "draw")


def test_play_random_inside_rust_finishes_the_game():
    s = State()
    s.play_random(seed=5)
    assert s.is_over()
    again = State()
    again.play_random(seed=5)
    assert again == s and again.final_scores() == s.final_scores()


def test_clones_are_independent():
    s = State()
    s.apply("draw U")
    for c in (s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert c == s
        c.apply(c.legal_action_ids()[0])
        assert c != s
        assert s.step == "place"


def test_pickling_keeps_a_turn_in_progress():
    s = State()
    play_random(s, seed=3, stop=lambda s: s.turns == 20 and s.step not in ("draw", "place"))
    assert s.step not in ("draw", "place")
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.step == s.step and back.legal_action_ids() == s.legal_action_ids()


def test_the_record_round_trips_through_json():
    s = play_random(State(["ann", "bob"], ["ferries"], "c2"), seed=2)
    text = s.to_json()
    record = json.loads(text)
    assert record["format"] == "carcassonne-record/1"
    assert record["setup"]["players"] == ["ann", "bob"]
    assert record["setup"]["expansions"] == ["ferries"] and record["setup"]["edition"] == "c2"
    back = State.from_json(text)
    assert back == s and back.final_scores() == s.final_scores()
    assert json.loads(s.to_json(pretty=True)) == record


def test_a_record_in_the_middle_of_a_turn_holds_its_drawn_tile_alone():
    s = State()
    play_random(s, seed=4, stop=lambda s: s.turns == 10 and s.step == "deploy")
    record = json.loads(s.to_json())
    assert record["turns"][-1] == {"tile": s.drawn}
    back = State.from_json(s.to_json())
    assert back.step == "place" and back.drawn == s.drawn and back.turns == s.turns


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not a game record"),
        ('{"format": "carcassonne-record/9", "setup": {"players": ["a", "b"]}}', "unknown record format"),
        ('{"format": "carcassonne-record/1", "setup": {"players": []}}', "setup: a game has 1 to 5 players"),
        (
            '{"format": "carcassonne-record/1", "setup": {"players": ["a", "b"]}, '
            '"turns": [{"tile": "U", "at": [5, 5], "rot": 0}]}',
            "turn 1: a tile must share an edge with a placed tile",
        ),
    ],
)
def test_bad_records_are_refused_with_the_engines_message(text, message):
    with pytest.raises(RecordError, match=message):
        State.from_json(text)


def test_records_of_expansions_this_package_does_not_play_are_refused():
    text = '{"format": "carcassonne-record/1", "setup": {"players": ["a", "b"], "expansions": ["traders"]}}'
    with pytest.raises(SetupError, match="expansion 'traders' is not played by this package"):
        State.from_json(text)


def test_refused_actions_raise_and_leave_the_state_unchanged():
    s = State()
    before = s.clone()
    refusals = [
        (s.num_chance_outcomes, "action id 27 is not one of this game's ids"),
        (-1, "action id -1 is not one of this game's ids"),
        (2**80, "an action is an integer id or a string"),
        ("place at [1, 0] turned 0", "cannot place a tile now: the turn is at the step 'draw a tile'"),
        ("draw Z", "is not an action"),
        ("fly away", "is not an action"),
        (1.5, "an action is an integer id or a string in the engine's notation, not float"),
        (None, "not NoneType"),
    ]
    for action, message in refusals:
        with pytest.raises(IllegalActionError, match=message):
            s.apply(action)
        assert s == before
        assert not s.is_legal(action)
    s.apply("draw U")
    before = s.clone()
    for action, message in [
        ("place at [5, 5] turned 0", "a tile must share an edge with a placed tile, and \\[5, 5\\] touches none"),
        ("place at [0, 0] turned 0", "\\[0, 0\\] already holds a tile"),
        ("discard", "tile U fits on the board, so it must be placed"),
        ("draw D", "cannot draw a tile now"),
        (s.num_distinct_actions, "is not one of this game's ids"),
        (0, "cannot pass now"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            s.apply(action)
        assert s == before
    assert issubclass(IllegalActionError, ValueError)
    play_random(s, seed=9)
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply("pass")


def test_every_id_is_checked_and_nothing_reaches_the_engine_unchecked():
    s = State(2, [])
    s.apply("draw U")
    legal = set(s.legal_action_ids())
    for i in range(0, s.num_distinct_actions, 97):
        if i in legal:
            continue
        with pytest.raises(IllegalActionError):
            s.apply(i)
    assert s.step == "place"


def test_bots_choose_legal_actions():
    s = State()
    s.apply("draw U")
    for spec in ("random", "greedy", "mcts:iters=50:trees=1"):
        bot = carcassonne.Bot(spec, seed=1)
        assert bot.choose(s) in s.legal_actions()
        assert bot.choose_id(s) in s.legal_action_ids()
    with pytest.raises(ValueError, match="unknown bot 'alpha'"):
        carcassonne.Bot("alpha")
    with pytest.raises(IllegalActionError, match="no player is to act"):
        carcassonne.Bot("random").choose(State())


def test_a_batch_of_random_games_is_played_inside_rust():
    scores = carcassonne.play_random_games(20, players=3, seed=1)
    assert len(scores) == 20 and all(len(s) == 3 for s in scores)
    assert scores == carcassonne.play_random_games(20, players=3, seed=1)
    with pytest.raises(SetupError):
        carcassonne.play_random_games(1, players=9)


def test_arbitrary_input_is_refused_or_legal_and_never_crashes():
    """Random ids, near-miss texts and other objects at every step of random
    games: each is either legal and played, or refused with
    IllegalActionError and the state unchanged."""
    import random

    rng = random.Random(12)
    for game in range(3):
        s = State(2 + game, ["ferries"] if game != 1 else [])
        while not s.is_over():
            legal_ids, legal_texts = set(s.legal_action_ids()), s.legal_actions()
            bound = s.num_chance_outcomes if s.is_chance() else s.num_distinct_actions
            tries = [rng.randrange(-5, bound + 5) for _ in range(4)] + [rng.choice([2**31, -(2**31), 2**63 - 1])]
            text = rng.choice(legal_texts)
            tries += [text[:-1], text + " ", text.upper(), text.replace("[", "[9"), "", b"pass", [], {}]
            for t in tries:
                before = s.clone()
                probe = s.clone()
                try:
                    probe.apply(t)
                except IllegalActionError:
                    assert s == before
                    continue
                assert (t in legal_ids) or (t in legal_texts), t
            s.apply(rng.choice(sorted(legal_ids)))


def test_the_river_the_abbot_and_the_labyrinth_are_played_with_their_ids():
    # Chance's ids: the 27 kinds of TILE_KINDS, then those of the expansions in play.
    s = State(2, ["river", "abbot", "labyrinth"])
    assert s.tile_kinds[:27] == list(carcassonne.TILE_KINDS)
    assert len(s.tile_kinds) == s.num_chance_outcomes == 27 + 11 + 8 + 1
    assert "RS" not in dict(s.bag()) and dict(s.bag())["D"] == 4
    # The river's tiles come first: chance offers only them.
    first = {s.tile_kinds[i] for i, _ in s.chance_outcomes()}
    assert first <= {"R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"}
    assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-9
    assert s.supply_of("abbot") == [1, 1]
    abbots = returns = 0
    seed = 0
    while not s.is_over():
        if s.is_chance():
            ids, probs = zip(*s.chance_outcomes())
            s.apply(ids[seed % len(ids)])
        else:
            ids, texts = s.legal_action_ids(), s.legal_actions()
            assert sorted(s.action_id(t) for t in texts) == ids
            take = [t for t in texts if t.startswith("take back abbot")]
            put = [t for t in texts if t.startswith("deploy abbot")]
            pick = (take or put or texts)[(seed * 7919) % len(take or put or texts)]
            abbots += pick.startswith("deploy abbot")
            returns += pick.startswith("take back abbot")
            s.apply(s.action_id(pick))
        seed += 1
    assert abbots > 0 and returns > 0
    assert State.from_json(s.to_json()) == s


def test_pickling_keeps_a_turn_in_progress_of_a_version_2_record():
    # An abbot deployed makes the record version 2, which holds the turn
    # in progress itself.
    s = State(1, ["abbot"])
    s.apply("draw B")
    s.apply(s.legal_actions()[0])
    s.apply("deploy abbot on monastery")
    s.apply("draw UG")
    s.apply(s.legal_actions()[0])
    assert json.loads(s.to_json())["format"] == "carcassonne-record/2"
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.step == "deploy"


def test_the_observation_has_the_planes_of_the_expansions_in_play():
    s = State(2, ["river", "abbot", "labyrinth"])
    planes = s.observation_planes()
    assert planes[-7:] == ["river_n", "river_e", "river_s", "river_w", "garden", "follower_abbot", "labyrinth"]
    layout = dict(s.observation_layout())
    assert layout["abbots"] == [2] and layout["drawn"] == [47]
    assert s.observation().size == sum(int(np.prod(shape)) for shape in layout.values())
    # The spring lies in the middle: its river runs east.
    side = layout["board"][1]
    board = s.observation()[: len(planes) * side * side].reshape(len(planes), side, side)
    assert board[planes.index("river_e"), side // 2, side // 2] == 1
    assert State(2, ["ferries"]).observation_planes()[-1] == "follower_player_1"
