"""Records between Python and the command line: a record written from Python
replays with `carcassonne replay --json`, records written by `carcassonne
simulate --records` read in Python, and the examples of docs/examples."""

import json
import subprocess

import pytest

import carcassonne
from conftest import REPO, play_random


def replay(cli, path):
    done = subprocess.run([cli, "replay", "--json", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "players, expansions, edition, seed", [(2, ["ferries"], "c3", 1), (3, [], "c2", 2), (5, ["ferries"], "c2", 3)]
)
def test_a_record_written_from_python_replays_on_the_command_line(cli, tmp_path, players, expansions, edition, seed):
    s = play_random(carcassonne.State(players, expansions, edition), seed)
    path = tmp_path / "game.json"
    path.write_text(s.to_json(pretty=True))
    summary = replay(cli, path)
    assert summary == {
        "turns": s.turns,
        "scores": s.scores(),
        "final_scores": s.final_scores(),
        "supply": s.supply(),
        "finished": True,
    }


def test_a_game_in_progress_written_from_python_replays_on_the_command_line(cli, tmp_path):
    s = play_random(carcassonne.State(), 4, stop=lambda s: s.turns == 30 and s.step == "deploy")
    path = tmp_path / "game.json"
    path.write_text(s.to_json())
    summary = replay(cli, path)
    assert summary["finished"] is False and summary["turns"] == s.turns


def test_records_of_carcassonne_simulate_read_in_python(cli, tmp_path):
    done = subprocess.run(
        [cli, "simulate", "--players", "greedy,mcts:iters=30:trees=1", "--games", "2", "--seed", "7",
         "--records", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    for path in files:
        s = carcassonne.State.from_json(path.read_text())
        assert s.is_over()
        assert sorted(s.player_names) == ["greedy", "mcts:iters=30:trees=1"]
        cli_summary = replay(cli, path)
        assert cli_summary["final_scores"] == s.final_scores()
        assert cli_summary["turns"] == s.turns
        assert json.loads(s.to_json()) == json.loads(path.read_text())


@pytest.mark.parametrize("name", ["ferries-c2-three-players.json", "ferries-in-progress.json", "ferries-mcts-vs-greedy.json"])
def test_the_documented_example_records_read_in_python(cli, name):
    path = REPO / "docs" / "examples" / name
    s = carcassonne.State.from_json(path.read_text())
    summary = replay(cli, path)
    assert summary["final_scores"] == s.final_scores() and summary["scores"] == s.scores()
    assert summary["finished"] == s.is_over()
    if not s.is_over():
        assert s.step == "place" and s.legal_actions()
