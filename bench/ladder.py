"""The strength ladder: every agent of a game rated on one Elo scale, at fixed time per move.

    python bench/ladder.py vienna --seconds 0.05 --games 200 --workers 2 --png ladder_vienna.png
    python bench/ladder.py vienna --from-json ladder_vienna.json --png ladder_vienna.png   # redraw

Random, heuristic, mcts at three budgets (seconds / 4, seconds, 4 x seconds), ismcts,
expectimax and ai at `seconds` per move, all on one thread each (the arena's workers use the
cores), play in every group of seats (every pair in a two-player game) equally often, and
one Bradley-Terry fit (eurosearch.arena.rate: Elo scale, 95% bootstrap intervals) rates them
all, anchored at random = 0. It prints
a Markdown table for docs/strength.md and, with --png (needs matplotlib: pip install
'.[plot]'), draws Elo against time per move: the three mcts budgets as a line, the other
searches as points at their budget.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from typing import Any

import eurosearch as es
from eurosearch.arena import GameRecord, rate, run_arena


def ladder_specs(seconds: float) -> list[tuple[str, float | None]]:
    """(agent spec, seconds per move or None for the floors) of one ladder."""
    t = seconds
    return [
        ("random", None),
        ("heuristic", None),
        (f"mcts:seconds={t / 4:g}:threads=1", t / 4),
        (f"mcts:seconds={t:g}:threads=1", t),
        (f"mcts:seconds={4 * t:g}:threads=1", 4 * t),
        (f"ismcts:seconds={t:g}:threads=1", t),
        (f"expectimax:seconds={t:g}:nodes=0", t),
        (f"ai:seconds={t:g}:threads=1", t),
    ]


def run_ladder(game: str, players: int | None, seconds: float, games: int, workers: int, seed: int) -> dict[str, Any]:
    """Plays the ladder and returns its rows, anchored at random = 0.

    Every group of `players` agents (every pair in a two-player game) plays the same number
    of games, each group in an arena of its own with the seats rotating, so that every agent
    meets every other; the Bradley-Terry rating is then fitted to all the games at once."""
    specs = ladder_specs(seconds)
    k = len(specs)
    n = players or es.game_spec(game).min_players
    groups = list(itertools.combinations(range(k), n))
    per_group = max(n, round(games / len(groups) / n) * n)   # whole rotations of the seats
    started = time.monotonic()
    records: list[GameRecord] = []
    sources: Any = None
    for index, group in enumerate(groups):
        result = run_arena(game, [specs[a][0] for a in group], games=per_group, seed=seed + index,
                           workers=workers, players=n, progress=False)
        sources = result.data_sources
        for r in result.records:
            records.append(GameRecord(seats=[group[a] for a in r.seats], returns=r.returns, scores=r.scores))
        print(f"group {index + 1}/{len(groups)} done", file=sys.stderr)
    ratings = rate(records, k)
    anchor = ratings[0][0]
    rows = []
    for a, ((spec, budget), (rating, lo, hi)) in enumerate(zip(specs, ratings)):
        mine = [r.returns[s] for r in records for s, x in enumerate(r.seats) if x == a]
        rows.append({"agent": spec, "seconds": budget, "games": len(mine),
                     "win_rate": sum(mine) / len(mine) if mine else 0.0,
                     "elo": rating - anchor, "elo_ci95": [lo - anchor, hi - anchor]})
    return {"game": game, "players": n, "seconds": seconds, "games": len(records), "seed": seed,
            "wall_seconds": round(time.monotonic() - started, 1), "data_sources": sources, "rows": rows}


def markdown(ladder: dict[str, Any]) -> str:
    """The ladder as a Markdown table."""
    out = [f"| agent | s/move | games | win rate | Elo (random = 0) | 95% interval |",
           "|---|---|---|---|---|---|"]
    for r in sorted(ladder["rows"], key=lambda r: -r["elo"]):
        lo, hi = r["elo_ci95"]
        budget = "-" if r["seconds"] is None else f"{r['seconds']:g}"
        out.append(f"| `{r['agent']}` | {budget} | {r['games']} | {100 * r['win_rate']:.1f}% | "
                   f"{r['elo']:+.0f} | {lo:+.0f} to {hi:+.0f} |")
    return "\n".join(out)


def title(ladder: dict[str, Any]) -> str:
    """The picture's title; a ladder played on provisional data says so (its results are)."""
    status = (ladder.get("data_sources") or {}).get("status", "")
    label = f" ({status} data)" if "provisional" in status else ""
    return f"{ladder['game']}, {ladder['players']} players, {ladder['games']} games{label}"


def plot(ladder: dict[str, Any], path: str) -> None:
    """Elo against time per move (log scale), with the intervals as error bars."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("--png needs matplotlib: pip install '.[plot]'") from None
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    rows = ladder["rows"]
    line = [r for r in rows if r["agent"].startswith("mcts:")]
    def bars(rs):
        return [[r["elo"] - r["elo_ci95"][0] for r in rs], [r["elo_ci95"][1] - r["elo"] for r in rs]]
    ax.errorbar([r["seconds"] for r in line], [r["elo"] for r in line], yerr=bars(line), marker="o", capsize=3,
                label="mcts")
    others = [r for r in rows if r["seconds"] is not None and not r["agent"].startswith("mcts:")]
    for k, r in enumerate(others):   # side by side around their common budget, not on top of each other
        x = r["seconds"] * 1.08 ** (k - (len(others) - 1) / 2)
        ax.errorbar([x], [r["elo"]], yerr=bars([r]), marker="s", capsize=3, label=r["agent"].split(":")[0],
                    linestyle="none")
    for r in rows:
        if r["seconds"] is None:
            ax.axhline(r["elo"], linestyle=":", color="grey")
            ax.annotate(r["agent"], (min(x["seconds"] for x in line), r["elo"]), fontsize=8, color="grey")
    ax.set_xscale("log")
    budgets = sorted({r["seconds"] for r in rows if r["seconds"] is not None})
    ax.set_xticks(budgets, [f"{b:g}" for b in budgets])   # the budgets played, not log-scale clutter
    ax.minorticks_off()
    ax.set_xlabel("seconds per move (one thread)")
    ax.set_ylabel("Elo (random = 0)")
    ax.set_title(title(ladder))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=es.games())
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--seconds", type=float, default=0.05, help="time per move of the middle budget")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--png", help="write the Elo-against-time picture here")
    p.add_argument("--json", action="store_true", help="print the ladder as JSON instead of Markdown")
    p.add_argument("--from-json", metavar="FILE", help="read a ladder saved with --json instead of playing one")
    a = p.parse_args(argv)
    if a.from_json:
        with open(a.from_json, encoding="utf-8") as f:
            ladder = json.load(f)
    else:
        ladder = run_ladder(a.game, a.players, a.seconds, a.games, a.workers, a.seed)
    print(json.dumps(ladder) if a.json else markdown(ladder))
    if a.png:
        plot(ladder, a.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
