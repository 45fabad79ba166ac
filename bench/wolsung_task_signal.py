"""How much a Wolsung player's built machines tell about their secret task card (PROVISIONAL
data): the hidden information that bench/clairvoyant.py finds worth the most.

    python bench/wolsung_task_signal.py --games 12 --every 30

Seeded games between two `mcts:seconds=0.005` agents; every `every` decisions, for each
player q, each task card q could hold as another player sees it (the 8 cards but the viewer's
own) is scored on q's machines built so far (the state's score with that card put in), and
the belief P(card) ~ exp(beta * points) gives the true card a probability. Uniform is 1/7 in
a two-player game: the closer the figure stays to it, the less an inference from the
opponents' builds could add to a determinization that deals the card uniformly.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import Any

import eurosearch as es
from eurosearch.agents.mcts import MCTSAgent

BETAS = (0.5, 1.0, 2.0)


def card_points(g: Any, s: Any, q: int) -> tuple[dict[int, float], int]:
    """q's score with each task card another player cannot rule out, and q's true card."""
    raw = json.loads(s.to_json())
    tasks = raw["state"]["task"]
    true = int(tasks[q][1:])
    excluded = {int(t[1:]) for i, t in enumerate(tasks) if t is not None and i != q}
    points = {}
    for c in range(8):
        if c in excluded:
            continue
        tasks[q] = f"K{c}"
        points[c] = g.state_from_json(json.dumps(raw)).scores()[q]
    return points, true


def run(games: int, every: int, seed: int) -> dict[int, dict[float, list[float]]]:
    """P(true card) per checkpoint (decisions // every) and beta, over both players."""
    g = es.game("wolsung", players=2)
    out: dict[int, dict[float, list[float]]] = {}
    for i in range(games):
        agents = [MCTSAgent(seconds=0.005, threads=1, seed=seed + 2 * i + k) for k in (1, 2)]
        s, rng, decisions = g.new_state(seed=seed + 100 + i), random.Random(seed + i), 0
        while not s.is_terminal():
            if s.is_chance():
                s.apply(s.sample_chance(rng.getrandbits(63)))
                continue
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
            decisions += 1
            if decisions % every:
                continue
            for q in (0, 1):
                points, true = card_points(g, s, q)
                for beta in BETAS:
                    z = sum(math.exp(beta * v) for v in points.values())
                    out.setdefault(decisions // every, {}).setdefault(beta, []).append(math.exp(beta * points[true]) / z)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--every", type=int, default=30, help="decisions between checkpoints")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print("PROVISIONAL data (Wolsung's task cards are invented by its spec)")
    print(f"{'decisions':>9} {'samples':>7} " + " ".join(f"{'beta=' + format(b, 'g'):>9}" for b in BETAS) + "   (uniform 0.143)")
    for k, by_beta in sorted(run(a.games, a.every, a.seed).items()):
        n = len(by_beta[BETAS[0]])
        print(f"{k * a.every:>9} {n:>7} " + " ".join(f"{sum(v) / len(v):>9.3f}" for v in by_beta.values()))


if __name__ == "__main__":
    main()
