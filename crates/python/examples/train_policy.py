"""Trains a small policy against random play on carcassonne.VectorEnv.

    python crates/python/examples/train_policy.py [--minutes 3] [--games N] [--envs 64] [--seed 1]

The policy is linear in a few features of each legal action, read off the
compact observation: for a placement, how many placed tiles the cell
touches and whether the learner's or the opponent's followers stand next to
it; for a follower, the kind of feature (road, city, field, monastery) or
none; ferries by their kind of decision. It starts uniform (every legal
action alike: random play) and learns by REINFORCE with a running baseline
from the game's result (+1 a win, -1 a loss) against `opponent="random"`,
the learner in a random seat each game. NumPy only.

Every `--every` games it prints the time, the games played and the
learner's score rate (wins + half the ties) over those games: it starts
near 50% (random against random) and rises.
docs/python.md has a run's figures.
"""

import argparse
import time

import numpy as np

import carcassonne

# Feature indices of an action.
FEATURES = [
    "place: touches 1 tile",
    "place: touches 2 tiles",
    "place: touches 3 tiles",
    "place: touches 4 tiles",
    "place: beside own follower",
    "place: beside opponent's follower",
    "deploy: none",
    "deploy: road",
    "deploy: city",
    "deploy: field",
    "deploy: monastery",
    "ferry",
]
F = len(FEATURES)


class Actions:
    """Decodes the ids of a setup (docs/python.md, "Action ids")."""

    def __init__(self, setup):
        state = carcassonne.State(**setup)
        self.r = state.board_radius
        self.w = 2 * self.r + 1
        self.deploy = 2 + 4 * self.w * self.w
        self.ferry = self.deploy + 17


def features(ids, board, corner, planes, acts):
    """The feature rows of the legal `ids` of one game."""
    phi = np.zeros((len(ids), F), dtype=np.float32)
    ids = np.asarray(ids)
    side = board.shape[1]
    tile = board[planes["tile"]]
    mine = board[planes["follower_player_0"]]
    theirs = board[planes["follower_player_1"]]
    place = (ids >= 2) & (ids < acts.deploy)
    if place.any():
        cell = (ids[place] - 2) // 4
        col = cell % acts.w - acts.r - int(corner[0])
        row = cell // acts.w - acts.r - int(corner[1])
        touching = np.zeros(len(cell), dtype=np.int64)
        near_mine = np.zeros(len(cell), dtype=bool)
        near_theirs = np.zeros(len(cell), dtype=bool)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, col + dc
            inside = (r >= 0) & (r < side) & (c >= 0) & (c < side)
            rr, cc = np.clip(r, 0, side - 1), np.clip(c, 0, side - 1)
            touching += inside & (tile[rr, cc] > 0)
            near_mine |= inside & (mine[rr, cc] > 0)
            near_theirs |= inside & (theirs[rr, cc] > 0)
        rows = np.flatnonzero(place)
        t = np.clip(touching, 1, 4) - 1
        phi[rows, t] = 1
        phi[rows, 4] = near_mine
        phi[rows, 5] = near_theirs
    deploy = (ids >= acts.deploy) & (ids < acts.ferry)
    if deploy.any():
        f = ids[deploy] - acts.deploy
        kind = np.where(f < 4, 7, np.where(f < 8, 8, np.where(f < 16, 9, 10)))
        phi[np.flatnonzero(deploy), kind] = 1
    phi[ids == 0, 6] = 1  # pass: no follower (or no ferry move)
    phi[ids >= acts.ferry, 11] = 1
    return phi


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


class Policy:
    """Chooses an action a game from the compact observation."""

    def __init__(self, env, setup, seed):
        self.env = env
        self.acts = Actions(setup)
        self.planes = {name: i for i, name in enumerate(env.observation_planes)}
        self.corner_at = 0
        for name, shape in env.observation_layout[1:]:
            if name == "window":
                break
            self.corner_at += int(np.prod(shape))
        self.rng = np.random.default_rng(seed)

    def choose(self, obs, w, traces=None):
        env = self.env
        actions = np.empty(env.num_envs, dtype=np.int64)
        for i in range(env.num_envs):
            ids = env.legal_ids(i)
            if len(ids) == 1:
                actions[i] = ids[0]
                continue
            corner = obs["numbers"][i][self.corner_at : self.corner_at + 2]
            phi = features(ids, obs["board"][i], corner, self.planes, self.acts)
            p = softmax(phi @ w)
            k = self.rng.choice(len(ids), p=p)
            actions[i] = ids[k]
            if traces is not None:
                traces[i] += phi[k] - p @ phi
        return actions


def evaluate(w, games, setup, envs, seed):
    """The score rate of the policy with weights `w` over `games` games
    against random play, without learning."""
    env = carcassonne.VectorEnv(envs, setup, seed=seed, opponent="random", observation="compact", copy=False)
    policy = Policy(env, setup, seed)
    obs, _ = env.reset()
    results = []
    while len(results) < games:
        obs, rewards, terminated, _, _ = env.step(policy.choose(obs, w))
        results.extend(rewards[terminated].tolist())
    return np.mean((np.array(results[:games]) + 1) / 2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--games", type=int, default=10**9, help="stop after this many games (or the minutes)")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--every", type=int, default=500, help="games between reports")
    parser.add_argument("--eval", type=int, default=400, help="games of the evaluations before and after")
    args = parser.parse_args(argv)

    setup = {"players": 2, "expansions": ["ferries"]}
    env = carcassonne.VectorEnv(args.envs, setup, seed=args.seed, opponent="random", observation="compact", copy=False)
    policy = Policy(env, setup, args.seed)
    w = np.zeros(F)
    before = evaluate(w, args.eval, setup, args.envs, args.seed + 1000)
    print(f"before training: score rate {before:.1%} over {args.eval} games (uniform play against random play)")
    baseline = 0.0
    # Each game's gradient so far: sum over its decisions of phi(chosen) - E[phi].
    traces = np.zeros((args.envs, F))
    results = []
    obs, _ = env.reset()
    start = time.time()
    print(f"{'seconds':>8} {'games':>7} {'score rate of these games':>26}")
    while time.time() - start < args.minutes * 60 and len(results) < args.games:
        actions = policy.choose(obs, w, traces)
        obs, rewards, terminated, _, _ = env.step(actions)
        for i in np.flatnonzero(terminated):
            r = float(rewards[i])
            results.append(r)
            w += args.lr * (r - baseline) * traces[i]
            baseline += 0.01 * (r - baseline)
            traces[i] = 0
            if len(results) % args.every == 0:
                these = np.array(results[-args.every :])
                print(f"{time.time() - start:8.1f} {len(results):7d} {np.mean((these + 1) / 2):26.1%}", flush=True)
    after = evaluate(w, args.eval, setup, args.envs, args.seed + 1000)
    print(f"after training: score rate {after:.1%} over {args.eval} games (the same seed)")
    print("weights:")
    for name, v in zip(FEATURES, w):
        print(f"  {name:36} {v:+.2f}")
    return before, after


if __name__ == "__main__":
    main()
