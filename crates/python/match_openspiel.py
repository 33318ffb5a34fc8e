"""OpenSpiel's MCTS against carcassonne-bots' MCTS on the OpenSpiel game
(result in docs/python.md).

    python crates/python/match_openspiel.py --games 20 --sims 200 --ours mcts:iters=200:trees=1

Games come in deals: one tile order, played twice with the seats swapped.
OpenSpiel's bot is open_spiel.python.algorithms.mcts.MCTSBot with a
RandomRolloutEvaluator (random playouts in Python, through the OpenSpiel
API); ours is carcassonne.openspiel.RustBot (MctsBot, searching in Rust).
A decision with one legal action is played without asking either bot.
"""

import argparse
import json
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import carcassonne.openspiel as cos


def play(game, bots, deal_seed):
    """One game; returns final scores and thinking seconds and decisions by seat."""
    chance = random.Random(deal_seed)
    state = game.new_initial_state()
    thinking, decisions = [0.0, 0.0], [0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(chance.choices(ids, probs)[0])
            continue
        legal = state.legal_actions()
        player = state.current_player()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        start = time.perf_counter()
        action = bots[player].step(state)
        thinking[player] += time.perf_counter() - start
        decisions[player] += 1
        state.apply_action(action)
    return state.native.final_scores(), thinking, decisions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games, rounded up to whole deals (2 games each)")
    parser.add_argument("--sims", type=int, default=200, help="OpenSpiel MCTS: simulations a decision")
    parser.add_argument("--rollouts", type=int, default=1, help="OpenSpiel MCTS: random rollouts a simulation")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel MCTS: exploration constant")
    parser.add_argument("--ours", default="mcts:iters=200:trees=1", help="our bot, as on the command line")
    parser.add_argument("--expansions", default="ferries")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the games and the summary to this file")
    args = parser.parse_args()

    game = pyspiel.load_game(f"carcassonne(expansions={args.expansions})")
    names = ["openspiel", "ours"]
    results = []
    deals = (args.games + 1) // 2
    for deal in range(deals):
        deal_seed = args.seed * 1_000_003 + deal
        for seating in range(2):
            rng = np.random.RandomState(deal_seed * 2 + seating)
            theirs = mcts.MCTSBot(
                game,
                uct_c=args.uct_c,
                max_simulations=args.sims,
                evaluator=mcts.RandomRolloutEvaluator(args.rollouts, rng),
                random_state=rng,
                solve=True,
            )
            ours = cos.RustBot(args.ours, seed=deal_seed * 2 + seating)
            seats = ["openspiel", "ours"] if seating == 0 else ["ours", "openspiel"]
            bots = [theirs if s == "openspiel" else ours for s in seats]
            scores, thinking, decisions = play(game, bots, deal_seed)
            by = {seats[i]: (scores[i], thinking[i], decisions[i]) for i in range(2)}
            results.append(by)
            t, o = by["openspiel"], by["ours"]
            print(
                f"deal {deal} seating {seating}: openspiel {t[0]} - ours {o[0]}"
                f"  ({t[1] / max(t[2], 1):.2f} s and {o[1] / max(o[2], 1):.3f} s a decision)",
                flush=True,
            )

    summary = {"games": len(results), "settings": vars(args)}
    for name in names:
        other = names[1 - names.index(name)]
        wins = sum(r[name][0] > r[other][0] for r in results)
        ties = sum(r[name][0] == r[other][0] for r in results)
        summary[name] = {
            "wins": wins,
            "ties": ties,
            "losses": len(results) - wins - ties,
            "mean_score": sum(r[name][0] for r in results) / len(results),
            "seconds_per_decision": sum(r[name][1] for r in results) / max(sum(r[name][2] for r in results), 1),
        }
    print(json.dumps(summary, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "games": results}, f, indent=2)


if __name__ == "__main__":
    main()
