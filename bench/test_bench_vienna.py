"""Vienna speed: native random play, Python-driven play and the plain-Python reference.

    pytest bench/test_bench_vienna.py --benchmark-only --benchmark-columns=mean,rounds

Each benchmark stores decisions per second in extra_info; docs/benchmarks.md records them
with the ratios to the reference measured in the same run.
"""

from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch.bench import python_driven_game
from eurosearch.reference.vienna import ViennaReference, random_playout


@pytest.fixture(scope="module", params=[3, 4, 5], ids=lambda n: f"{n}p")
def game(request):
    return es.game("vienna", players=request.param)


def test_native_random_playouts(benchmark, game):
    seeds = iter(range(10**9))

    def run():
        return game.random_playout_stats(200, next(seeds))[1]

    decisions = benchmark(run)
    benchmark.extra_info["decisions_per_call"] = decisions
    benchmark.extra_info["games_per_call"] = 200


def test_python_driven_play(benchmark, game):
    rng = random.Random(1)
    decisions = benchmark(lambda: sum(python_driven_game(game, rng) for _ in range(5)))
    benchmark.extra_info["decisions_per_call"] = decisions
    benchmark.extra_info["games_per_call"] = 5


def test_reference_play(benchmark, game):
    ref = ViennaReference(game.data, game.players, game.options)
    rng = random.Random(1)
    decisions = benchmark.pedantic(lambda: random_playout(ref, rng)[1], rounds=5, iterations=1)
    benchmark.extra_info["decisions_per_call"] = decisions
    benchmark.extra_info["games_per_call"] = 1
