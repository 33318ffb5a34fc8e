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
  of one clone, on positions from the middle of random games;
- decision steps a second with an observation at every step, by wall time:
  one game stepped from Python (legal ids, a random pick, ``apply``, the
  observation, chance's draws) against ``carcassonne.VectorEnv`` (random
  legal ids by ``sample_actions``, ``step``), flat and compact, on one
  thread and on every core (``--envs`` games, default 64).
"""

import argparse
import importlib
import os
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


def python_steps(expansions, seconds):
    """Decision steps a wall second of one game at a time from Python, with
    the observation of every position a decision is due in."""
    rng = random.Random(2)
    s, steps, start = carcassonne.State(2, expansions), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if s.is_over():
            s = carcassonne.State(2, expansions)
        if s.is_chance():
            ids, probs = zip(*s.chance_outcomes())
            s.apply(rng.choices(ids, probs)[0])
        else:
            s.observation()
            s.apply(rng.choice(s.legal_action_ids()))
            steps += 1
    return steps / (time.perf_counter() - start)


def vector_steps(env, seconds):
    """Decision steps a wall second of a VectorEnv in random play."""
    env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.sample_actions())
        steps += env.num_envs
    return steps / (time.perf_counter() - start)


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
    parser.add_argument("--envs", type=int, default=64, help="games of the VectorEnv measures")
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

        # Registers the game; through importlib so that `carcassonne` stays this module's global.
        importlib.import_module("carcassonne.openspiel")

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

    print(f"\ndecision steps a second with an observation at every step, {args.seconds:g} wall seconds a measure")
    vector = [("one game stepped from Python (State: legal ids, pick, apply, observation)", python_steps(expansions, args.seconds))]
    cores = os.cpu_count() or 1
    for observation in ("flat", "compact"):
        for threads in sorted({1, cores}):
            env = carcassonne.VectorEnv(
                args.envs, {"expansions": expansions}, seed=1, observation=observation, threads=threads, copy=False
            )
            name = f"VectorEnv({args.envs}), {observation}, {threads} thread{'s' if threads > 1 else ''}"
            vector.append((name, vector_steps(env, args.seconds)))
    width = max(len(r[0]) for r in vector)
    for name, value in vector:
        print(f"{name:<{width}}  {value:>10,.0f} steps/s  {value / vector[0][1]:5.1f}x")


if __name__ == "__main__":
    main()
