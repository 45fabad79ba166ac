"""Native searches called from a thread with a small stack (threading.stack_size(256 KiB)).

The exact solver recurses once per ply, hundreds of plies deep; on such a thread it used to
overflow the stack and kill the process. Each case runs in a subprocess, so that a crash fails
the test instead of killing pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

GAMES = [("vienna", 3), ("oh_my_goods", 2), ("coal_baron", 3)]

RUN_ON_SMALL_STACK = """
import threading
import eurosearch as es

def on_small_stack(job):
    result, failure = [], []
    def run():
        try:
            result.append(job())
        except BaseException as exc:
            failure.append(exc)
    threading.stack_size(256 * 1024)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    if failure:
        raise failure[0]
    return result[0]

def endgame(g, seed, left):
    # a decision node `left` random moves before the end of a random game
    s, trail = g.new_state(seed=seed), []
    k = 0
    while not s.is_terminal():
        if s.current_player >= 0:
            trail.append(s.clone())
        s.apply(s.sample_chance(k) if s.is_chance() else s.random_move(k))
        k += 1
    return trail[-left]
"""


def _run(body: str) -> str:
    code = RUN_ON_SMALL_STACK + textwrap.dedent(body)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"exit {p.returncode} (-11: segfault)\n{p.stdout}\n{p.stderr}"
    return p.stdout


@pytest.mark.parametrize("name,players", GAMES)
def test_solve_from_the_start_on_a_small_thread_stack(name: str, players: int) -> None:
    """From the first decision the solver dives to the end of the game before the node limit."""
    out = _run(f"""
        s = es.game({name!r}, players={players}).new_state(seed=1)
        r = on_small_stack(lambda: es.solve(s, max_nodes=200_000))
        print(r.solved, r.nodes > 1000)
        """)
    assert out == "False True\n", out


# decisions before the end of the game: endgames that solve in well under a second
ENDGAMES = [("vienna", 3, 5), ("oh_my_goods", 2, 1), ("coal_baron", 3, 2)]


@pytest.mark.parametrize("name,players,left", ENDGAMES)
def test_solve_a_real_endgame_on_a_small_thread_stack(name: str, players: int, left: int) -> None:
    out = _run(f"""
        g = es.game({name!r}, players={players})
        s = endgame(g, seed=3, left={left})
        small = on_small_stack(lambda: es.solve(s, objective="score"))
        big = es.solve(s, objective="score")
        print(small.solved, small.values == big.values)
        """)
    assert out == "True True\n", out


@pytest.mark.parametrize("name,players", GAMES)
def test_mcts_and_expectimax_on_a_small_thread_stack(name: str, players: int) -> None:
    out = _run(f"""
        g = es.game({name!r}, players={players})
        s = g.new_state(seed=2)
        p = s.current_player
        for kw in ({{}}, {{"information_sets": True}}, {{"rollout_policy": 1}}, {{"rollout_depth": 4}}):
            moves, visits, values, stats = on_small_stack(lambda: s.mcts(p, iterations=300, **kw))
            assert stats["iterations"] == 300 and moves
        moves, values, info = on_small_stack(lambda: s.expectimax(depth=2))
        assert info["complete"] and moves
        print("ok")
        """)
    assert out == "ok\n", out
