"""The review of a game from Python (`carcassonne.analyse`) is the command
line's (`carcassonne analyse --json`): one implementation, the same figures
for the same seed and iterations; bad input raises."""

import json
import subprocess

import pytest

import carcassonne
from conftest import play_random


def test_analyse_gives_the_command_line_s_review(cli, tmp_path):
    s = play_random(carcassonne.State(2, ["ferries"]), 3, stop=lambda s: s.turns == 14 and s.step == "place")
    path = tmp_path / "game.json"
    path.write_text(s.to_json())
    review = carcassonne.analyse(s, iterations=120, seed=5)
    done = subprocess.run(
        [cli, "analyse", "--json", "--iterations", "120", "--seed", "5", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert review == json.loads(done.stdout)
    assert review["finished"] is False
    decisions = review["decisions"]
    assert decisions and {d["player"] for d in decisions} == {0, 1}
    for d in decisions:
        assert abs(sum(d["win"]) - 1) < 1e-3
        assert d["mark"] in (None, "?!", "?", "??")
        assert d["loss"] >= 0
    assert [set(p["marks"]) for p in review["players"]] == [{"?!", "?", "??"}] * 2
    # The record's text gives the same review as the state.
    assert carcassonne.analyse(path.read_text(), iterations=120, seed=5) == review


def test_analyse_refuses_bad_input():
    with pytest.raises(carcassonne.RecordError):
        carcassonne.analyse("{not a record")
    s = carcassonne.State()
    with pytest.raises(ValueError):
        carcassonne.analyse(s, ms=10, iterations=10)
    with pytest.raises(ValueError):
        carcassonne.analyse(s, iterations=0)


def test_odds_give_the_command_line_s_figures_for_a_record_and_a_state(cli, tmp_path):
    s = play_random(carcassonne.State(2, ["ferries"]), 4, stop=lambda s: s.turns == 20 and s.step == "place")
    path = tmp_path / "game.json"
    path.write_text(s.to_json())
    done = subprocess.run([cli, "odds", "--json", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    expected = json.loads(done.stdout)
    assert carcassonne.odds(path.read_text()) == expected
    # At the place step the state is the record's position: the same odds.
    assert carcassonne.odds(s) == expected
    assert expected["cells"] and expected["features"]
    for c in expected["cells"]:
        assert 0 <= c["next"] <= 1
        assert c["dead"] == (c["fitting"] == 0)
        assert c["fitting"] == sum(t["count"] for t in c["tiles"])
    for f in expected["features"]:
        assert 0 <= f["chance"] <= 1 and f["needs"]
        assert f["kind"] in ("road", "city", "monastery", "garden")
    with pytest.raises(carcassonne.RecordError):
        carcassonne.odds("{not a record")
