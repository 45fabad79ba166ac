"""Search speed per game: MCTS in C against the same MCTS in plain Python, and expectimax.

    pytest bench/test_bench_search.py --benchmark-only --benchmark-columns=mean,rounds

Each MCTS call runs ITERATIONS iterations on the same mid-game position; the ratio of the
means is the speed-up. `eurosearch bench --search` prints the same figures without pytest.
"""

from __future__ import annotations

import pytest

import eurosearch as es
from eurosearch.bench_search import late_positions, midgame_positions
from eurosearch.reference.mcts import search as python_search

ITERATIONS = 1000
GAMES = [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 2)]


@pytest.fixture(scope="module", params=GAMES, ids=lambda gp: f"{gp[0]}-{gp[1]}p")
def game(request):
    return es.game(request.param[0], players=request.param[1])


@pytest.mark.parametrize("depth", [0, -1], ids=["playout", "eval"])
def test_mcts_native(benchmark, game, depth):
    s = midgame_positions(game, 1, seed=1)[0]
    benchmark(lambda: s.mcts(s.current_player, iterations=ITERATIONS, seed=1, rollout_depth=depth))
    benchmark.extra_info["iterations_per_call"] = ITERATIONS


@pytest.mark.parametrize("depth", [0, -1], ids=["playout", "eval"])
def test_mcts_plain_python(benchmark, game, depth):
    s = midgame_positions(game, 1, seed=1)[0]
    benchmark.pedantic(lambda: python_search(s, ITERATIONS, seed=1, depth=depth), rounds=3)
    benchmark.extra_info["iterations_per_call"] = ITERATIONS


def test_exact_solver(benchmark, game):
    positions = late_positions(game, 4, from_end=4, seed=2)

    def run():
        return sum(s.expectimax(max_nodes=200_000)[2]["nodes"] for s in positions)

    benchmark.extra_info["nodes_per_call"] = benchmark(run)
