"""EUROSEARCH_PORTABLE: the core's CPU-specific path (BMI2's pdep to pick the k-th member of a
set, where the CPU runs it fast) plays exactly the games the portable code plays.

Each run is a fresh interpreter, since the library reads the variable when it is loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Random games, and MCTS with playouts to the end and of 20 decisions, in every game: the set
# selection is in draws (Oh My Goods!, Bruges, Wolsung), random moves (all) and determinization.
SCRIPT = r"""
import json
import eurosearch as es
from eurosearch import _native
out = {"pdep": _native.USES_PDEP}
for name, players in [("oh_my_goods", 2), ("oh_my_goods", 4), ("vienna", 3), ("coal_baron", 3),
                      ("wolsung", 2), ("bruges", 4), ("backgammon", 2)]:
    g = es.game(name, players=players)
    scores, dec, ch = g.random_playout_stats(30, 5)
    s = g.new_state(seed=2)
    while s.is_chance():
        s.apply(s.sample_chance(3))
    p = s.current_player
    full = s.mcts(p, iterations=300, seed=1)
    depth = s.mcts(p, iterations=300, seed=1, rollout_depth=20)
    sets = s.mcts(p, iterations=200, seed=1, information_sets=g.has_hidden_information)
    out[f"{name}/{players}"] = [dec, ch, scores.round(9).tolist(), [list(r[:3]) for r in (full, depth, sets)]]
print(json.dumps(out))
"""


def _run(portable: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "EUROSEARCH_PORTABLE"}
    if portable:
        env["EUROSEARCH_PORTABLE"] = "1"
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_variable_turns_the_cpu_specific_path_off():
    assert _run(portable=True)["pdep"] is False


def test_pdep_and_portable_play_the_same_games():
    fast = _run(portable=False)
    if not fast.pop("pdep"):
        pytest.skip("this CPU has no fast pdep: only the portable path runs here")
    portable = _run(portable=True)
    assert portable.pop("pdep") is False
    assert fast == portable
