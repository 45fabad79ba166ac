"""Native random play of every game, in decisions per CPU second.

    python bench/native_rates.py            # three rounds, the medians

The loop of `eurosearch bench`'s native row (Game.random_playout_stats), timed with
time.process_time so that other processes on a shared machine move the figures less. Run it
alternately with two builds' interpreters to compare them.
"""
from __future__ import annotations

import statistics
import time

import eurosearch as es

#: (game, players, games per round)
GAMES = [("coal_baron", 2, 6000), ("oh_my_goods", 2, 3000), ("vienna", 3, 8000), ("wolsung", 2, 20000),
         ("bruges", 2, 8000), ("backgammon", 2, 3000)]


def main(rounds: int = 3) -> None:
    rates: dict[str, list[float]] = {name: [] for name, _, _ in GAMES}
    for r in range(rounds):
        for name, players, games in GAMES:
            g = es.game(name, players=players)
            start = time.process_time()
            _, decisions, _ = g.random_playout_stats(games, 7 + r)
            rates[name].append(decisions / (time.process_time() - start) / 1e6)
    for name, xs in rates.items():
        print(f"{name:12s} {' '.join(f'{x:6.2f}' for x in xs)}   median {statistics.median(xs):6.2f} M decisions/CPU-s")


if __name__ == "__main__":
    main()
