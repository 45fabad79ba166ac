"""C MCTS speed with the game's evaluation or the shipped learned one (docs/benchmarks.md, stop 31),
and with greedy or half-greedy rollouts (stop 34).

    python bench/mcts_eval_rate.py hand       # one line of JSON: iterations per CPU-second per game
    python bench/mcts_eval_rate.py learned    # the same with eval_weights (games with a shipped model)
    python bench/mcts_eval_rate.py mix        # hand evaluation, half of the rollout moves greedy
    python bench/mcts_eval_rate.py greedy     # hand evaluation, every rollout move greedy

Per game: 4 positions 40 random actions into seeded games; on each, one search of 2,000
iterations and five of 4,000, depth-20 rollouts, open mode. Run it with two builds (e.g. two
virtual environments), alternately, and compare medians.
"""

from __future__ import annotations

import json
import random
import sys
import time

import eurosearch as es

GAMES = (("oh_my_goods", 2), ("vienna", 3), ("bruges", 2), ("coal_baron", 2), ("wolsung", 2))
ROLLOUTS = {"hand": {}, "learned": {}, "mix": {"rollout_policy": 1, "greedy_share": 0.5},
            "greedy": {"rollout_policy": 1}}


def rate(name: str, players: int, mode: str) -> int | None:
    g = es.game(name, players=players)
    extra = dict(ROLLOUTS[mode])
    if mode == "learned":
        from eurosearch import evalmodel   # here, so that `hand` runs on builds from before it
        model = evalmodel.shipped(name, players)
        if model is None:
            return None
        extra = model.search_arguments()
    iterations = cpu = 0.0
    for seed in range(4):
        s, rng = g.new_state(seed=seed), random.Random(seed)
        for _ in range(40):
            if s.is_terminal():
                break
            s.apply(s.sample_chance(rng.getrandbits(60)) if s.is_chance() else rng.choice(s.legal_moves()))
        while s.is_chance():
            s.apply(s.sample_chance(1))
        for rep, budget in enumerate((2000, 4000, 4000, 4000, 4000, 4000)):
            start = time.process_time()
            stats = s.mcts(s.current_player, iterations=budget, seed=seed * 10 + rep, rollout_depth=20, **extra)[3]
            cpu += time.process_time() - start
            iterations += stats["iterations"]
    return round(iterations / cpu)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ROLLOUTS:
        sys.exit(f"usage: python bench/mcts_eval_rate.py {'|'.join(ROLLOUTS)}")
    mode = sys.argv[1]
    print(json.dumps({name: r for name, players in GAMES if (r := rate(name, players, mode)) is not None}))
