"""Search rates on fixed positions, for comparing two builds in the same session.

    python bench/search_rates.py        # one line of JSON: expectimax nodes/s, MCTS iterations/s

Run it alternately with each build's interpreter (e.g. five times each) and compare medians:
the positions are 12 decisions before the end of a seeded random game, so both builds search
the same positions as long as the rules and data are unchanged.
"""

from __future__ import annotations

import json
import random
import time

import eurosearch as es
from eurosearch.solve.positions import decision_path

GAMES = [("vienna", 3), ("coal_baron", 2), ("oh_my_goods", 2)]


def rates(name: str, players: int) -> dict[str, float]:
    """Best of three: expectimax (depth 4, 2 M nodes) and MCTS (30,000 iterations, depth-20 playouts)."""
    s = decision_path(es.game(name, players=players), random.Random(5))[-12]
    ex = mc = 0.0
    for _ in range(3):
        t = time.perf_counter()
        _, _, info = s.expectimax(depth=4, max_nodes=2_000_000)
        ex = max(ex, info["nodes"] / (time.perf_counter() - t))
        t = time.perf_counter()
        s.mcts(s.current_player, iterations=30_000, seed=1, rollout_depth=20)
        mc = max(mc, 30_000 / (time.perf_counter() - t))
    return {"expectimax_nodes_per_s": round(ex), "mcts_iterations_per_s": round(mc)}


if __name__ == "__main__":
    print(json.dumps({name: rates(name, players) for name, players in GAMES}))
