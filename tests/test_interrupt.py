"""Ctrl-C stops a native search: a search runs in C with the GIL released, out of reach of
Python's own SIGINT handling, so the bindings ask the core to stop it (es_request_stop).

Each test runs the search in a subprocess, sends it SIGINT after about a second and expects
KeyboardInterrupt soon after. The bounds are generous: this tests behaviour, not speed (before
the stop requests, a search ran on to its 60 s budget).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# Every kind of long native call: a 60 s (or 10**8 playouts) budget that only Ctrl-C ends.
SEARCHES = {
    "mcts": "s.mcts(s.current_player, seconds=60)",
    "ismcts": "s.mcts(s.current_player, seconds=60, information_sets=True, rollout_policy=1)",
    "mcts_worlds_threads": "s.mcts(s.current_player, seconds=60, worlds=4, threads=3)",
    "expectimax": "s.expectimax(depth=30, iterative=True, seconds=60)",
    "solve": "es.solve(s, seconds=60)",
    "random_playouts": "g.random_playouts(10**8)",
    "random_playout": "while True: s.clone().random_playout(1)",
}

PRELUDE = """
import sys, threading, time
import eurosearch as es
g = es.game("vienna", players=3)
s = g.new_state(seed=1)
"""


def _interrupt(body: str, after: float = 1.0, wait: float = 20.0) -> tuple[str, float]:
    """Runs PRELUDE + body in a subprocess that prints 'ready' first; SIGINT `after` seconds
    later. Returns its output and how long it took to exit after the signal."""
    code = PRELUDE + textwrap.dedent(body)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert p.stdout is not None
        first = p.stdout.readline()
        assert first == "ready\n", first + p.stdout.read()
        time.sleep(after)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=wait)
        return out, time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()


@pytest.mark.parametrize("kind", sorted(SEARCHES))
def test_sigint_stops_a_native_search_with_keyboard_interrupt(kind: str) -> None:
    out, took = _interrupt(f"""
        print("ready", flush=True)
        start = time.monotonic()
        try:
            {SEARCHES[kind]}
        except KeyboardInterrupt:
            print("KeyboardInterrupt after", round(time.monotonic() - start, 2), flush=True)
        """)
    assert "KeyboardInterrupt after" in out, out
    assert took < 2.5, f"{kind}: exited {took:.2f} s after SIGINT; output: {out}"


def test_after_an_interrupt_the_sigint_handler_is_back_and_searches_run_again() -> None:
    out, _took = _interrupt("""
        import signal
        print("ready", flush=True)
        try:
            s.mcts(s.current_player, seconds=60)
        except KeyboardInterrupt:
            pass
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        # not stopped by the old request: runs its whole budget
        stats = s.mcts(s.current_player, iterations=300)[3]
        print("iterations", stats["iterations"], flush=True)
        print("after", g.random_playouts(50).shape, flush=True)
        """)
    assert "iterations 300" in out, out
    assert "after (50, 3)" in out, out


def test_sigint_leaves_searches_of_other_threads_alone() -> None:
    """Ctrl-C stops the main thread's search; a worker thread's search runs to its budget, as
    Python threads do on Ctrl-C."""
    out, _took = _interrupt("""
        result = {}
        def work():
            result["stats"] = s.mcts(s.current_player, seconds=2.5)[3]
        t = threading.Thread(target=work)
        t.start()
        print("ready", flush=True)
        try:
            s.mcts(s.current_player, seconds=60)
        except KeyboardInterrupt:
            print("main interrupted", flush=True)
        t.join()
        print("worker ran", round(result["stats"]["seconds"], 1), flush=True)
        """, wait=30)
    assert "main interrupted" in out, out
    seconds = float(out.split("worker ran")[1].split()[0])
    assert seconds >= 2.4, out


def test_a_custom_sigint_handler_is_left_in_place() -> None:
    """Only Python's default Ctrl-C handling is taken over: a program's own handler stays."""
    code = PRELUDE + textwrap.dedent("""
        import signal
        mine = lambda *a: None
        signal.signal(signal.SIGINT, mine)
        s.mcts(s.current_player, iterations=50)
        g.random_playouts(5)
        assert signal.getsignal(signal.SIGINT) is mine
        print("ok")
        """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == "ok\n", out.stdout + out.stderr
