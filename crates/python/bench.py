"""Speed of the engine from Python (figures in docs/python.md).

    python crates/python/bench.py [--seconds 5] [--expansions ferries|none]

Measures, on one core, per second of the process's CPU time:

- random games a second stepped from Python: every decision and draw is a
  call from Python (legal ids or chance outcomes, a random pick, apply);
- the same through OpenSpiel's API (``pyspiel`` state of carcassonne.openspiel),
  if open_spiel is installed;
- random games a second played inside Rust by one batch call
  (``carcassonne.play_random_games``);
- the cost of one observation (a new array, and written into an array), and
  of one clone, on positions from the middle of random games.
"""

import argparse
import random
import time

import numpy as np

import carcassonne


def python_game(expansions, rng):
    s = carcassonne.State(2, expansions)
    while not s.is_over():
        if s.is_chance():
            ids, probs = zip(*s.chance_outcomes())
            s.apply(rng.choices(ids, probs)[0])
        else:
            s.apply(rng.choice(s.legal_action_ids()))
    return s


def openspiel_game(game, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def rate(seconds, one):
    """Calls `one()` for about `seconds` of this process's CPU time; returns
    calls per CPU second. CPU time rather than wall time, so that other
    work on a shared machine slows the figure less (it still shares caches)."""
    n, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        one()
        n += 1
    return n / elapsed


def mid_game_positions(expansions, count):
    rng = random.Random(1)
    positions = []
    for i in range(count):
        s = carcassonne.State(2, expansions)
        stop = rng.randrange(10, 60)
        while not s.is_over() and not (s.turns >= stop and s.step == "place"):
            if s.is_chance():
                ids, probs = zip(*s.chance_outcomes())
                s.apply(rng.choices(ids, probs)[0])
            else:
                s.apply(rng.choice(s.legal_action_ids()))
        positions.append(s)
    return positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time for each measure")
    parser.add_argument("--expansions", default="ferries", help="ferries (default) or none")
    args = parser.parse_args()
    expansions = [] if args.expansions == "none" else args.expansions.split("+")
    label = "+".join(expansions) or "base game"
    rows = []

    rng = random.Random(0)
    steps = []

    def one_python_game():
        s = python_game(expansions, rng)
        steps.append(s.turns)

    rows.append(("random games stepped from Python (carcassonne.State)", rate(args.seconds, one_python_game), "games/s"))

    try:
        import pyspiel

        import carcassonne.openspiel  # noqa: F401

        game = pyspiel.load_game(f"carcassonne(expansions={'+'.join(expansions) or 'none'})")
        rows.append(
            ("random games stepped through OpenSpiel (pyspiel state)", rate(args.seconds, lambda: openspiel_game(game, rng)), "games/s")
        )
    except ImportError:
        pass

    batch = 200
    games = rate(args.seconds, lambda: carcassonne.play_random_games(batch, 2, expansions, seed=rng.randrange(2**32)))
    rows.append(("random games inside Rust (play_random_games, batches of 200)", games * batch, "games/s"))

    positions = mid_game_positions(expansions, 64)
    size = positions[0].observation().size
    out = np.zeros(size, np.float32)
    it = iter(range(10**12))
    rows.append(("observation, new array (%d floats)" % size, 1e6 / rate(args.seconds, lambda: positions[next(it) % 64].observation()), "µs"))
    rows.append(("observation written into an array", 1e6 / rate(args.seconds, lambda: positions[next(it) % 64].write_observation(out)), "µs"))
    rows.append(("clone of a mid-game state", 1e6 / rate(args.seconds, lambda: positions[next(it) % 64].clone()), "µs"))
    rows.append(("legal ids at the placement step", 1e6 / rate(args.seconds, lambda: positions[next(it) % 64].legal_action_ids()), "µs"))

    print(f"2 players, {label}, {args.seconds:g} CPU seconds a measure, one core")
    width = max(len(r[0]) for r in rows)
    for name, value, unit in rows:
        print(f"{name:<{width}}  {value:>10,.1f} {unit}")


if __name__ == "__main__":
    main()
