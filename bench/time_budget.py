"""How closely the agents keep a `seconds=` budget, Python included (issue 18: within 10%).

    python bench/time_budget.py                          # 0.05, 0.2 and 1 s; every game
    python bench/time_budget.py --seconds 0.2 --positions 5 --json

Per game: mid-game positions with at least two moves, 30 random decisions into seeded games
(eurosearch.bench_search.midgame_positions, as `eurosearch bench --search`); on each, one
`choose` per agent spec and budget, timed with the wall clock around the whole call
(determinization, the search, merging the worlds, picking the move). Prints per
game, spec and budget the median and the largest ratio of the time taken to the budget.
Run it on a quiet machine: a loaded one stretches every move alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import eurosearch as es
from eurosearch import agents
from eurosearch.bench_search import midgame_positions

SPECS = ("ai:seconds={t}", "ai:seconds={t}:threads=1", "mcts:seconds={t}:worlds=4", "ismcts:seconds={t}",
         "expectimax:seconds={t}:nodes=0")


def positions(name: str, count: int) -> list[es.State]:
    """`count` decision nodes with a choice (a forced move is played without a search), from
    the benchmarks' mid-game positions: 30 random decisions into seeded games."""
    g = es.game(name)
    out: list[es.State] = []
    seed = 0
    while len(out) < count:
        out += [s for s in midgame_positions(g, count, seed) if len(s.legal_moves()) >= 2]
        seed += 1
    return out[:count]


def measure(name: str, budgets: list[float], count: int) -> list[dict]:
    """One row per spec and budget: the ratios of time taken to the budget."""
    states = positions(name, count)
    rows = []
    for budget in budgets:
        for template in SPECS:
            spec = template.format(t=f"{budget:g}")
            agent = agents.make(spec)
            ratios = []
            for s in states:
                start = time.monotonic()
                agent.choose(s, s.current_player)
                ratios.append((time.monotonic() - start) / budget)
            rows.append({"game": name, "spec": spec, "seconds": budget, "moves": len(ratios),
                         "median_ratio": round(statistics.median(ratios), 3), "max_ratio": round(max(ratios), 3)})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, action="append", help="a budget (repeatable; default 0.05, 0.2, 1)")
    p.add_argument("--positions", type=int, default=4, help="positions per game (default 4)")
    p.add_argument("--games", nargs="*", default=es.games(), choices=es.games())
    p.add_argument("--json", action="store_true", help="one JSON object per row")
    a = p.parse_args(argv)
    budgets = a.seconds or [0.05, 0.2, 1.0]
    if a.positions < 1 or any(not 0 < b <= 60 for b in budgets):
        p.error("--positions must be at least 1 and every --seconds in (0, 60]")
    if not a.json:
        print("| game | agent | budget (s) | moves | time / budget, median | largest |\n|---|---|---:|---:|---:|---:|")
    for name in a.games:
        for row in measure(name, budgets, a.positions):
            print(json.dumps(row) if a.json else
                  f"| {row['game']} | `{row['spec']}` | {row['seconds']:g} | {row['moves']} | "
                  f"{row['median_ratio']:.3f} | {row['max_ratio']:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
