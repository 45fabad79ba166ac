"""Search speed printed by ``eurosearch bench --search``: MCTS iterations per second in C
against the same MCTS in plain Python over the API (python/eurosearch/reference/mcts.py), and
expectimax nodes per second, exact (endgame solving) and depth-limited (play). Both sides of a
ratio run in the same call on the same positions, so the ratio survives a noisy machine."""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from .api import game as make_game
from .limits import check_duration
from .solve.positions import decision_path
from .tables import render

#: MCTS leaf treatments compared: playouts to the end, 20 random moves then the evaluation,
#: the evaluation at the leaf (the same `depth` meaning in C and in the reference).
ROLLOUTS = {"playout": 0, "depth20": 20, "eval": -1}


def midgame_positions(g: Any, count: int, seed: int, skip: int = 30) -> list[Any]:
    """Decision nodes `skip` random decisions into seeded random games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = g.new_state(seed=rng.getrandbits(63))
        for _ in range(skip):
            while s.is_chance():
                s.apply(s.sample_chance(rng.getrandbits(63)))
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_moves()))
        while s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(63)))
        if not s.is_terminal():
            out.append(s)
    return out


def late_positions(g: Any, count: int, from_end: int, seed: int) -> list[Any]:
    """Decision nodes `from_end` decisions before the end of seeded random games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        path = decision_path(g, rng)
        if len(path) >= from_end:
            out.append(path[-from_end])
    return out


def bench_mcts(g: Any, seconds: float, seed: int, iterations: int = 2000) -> dict[str, Any]:
    """Iterations/s of C and plain-Python MCTS, `iterations` per search, per rollout kind."""
    from .reference.mcts import search as python_search

    positions = midgame_positions(g, 4, seed)
    out: dict[str, Any] = {}
    for name, depth in ROLLOUTS.items():
        def native(s: Any, k: int, depth: int = depth) -> int:
            s.mcts(s.current_player, iterations=iterations, seed=k, rollout_depth=depth)
            return iterations

        def python(s: Any, k: int, depth: int = depth) -> int:
            python_search(s, iterations, seed=k, depth=depth)
            return iterations

        out[name] = compare_rates(positions, seconds, native, python)
    out["playouts_alone"] = bench_playouts(positions, seconds)
    return out


def bench_playouts(positions: list[Any], seconds: float) -> dict[str, float]:
    """Random playouts to the end from the same positions, with no tree: one C call against
    the reference's playout driven from Python. When playouts dominate an iteration, this
    ratio bounds what any tree can add to the `playout` row."""
    from .reference.mcts import playout as python_playout

    def native(s: Any, k: int) -> int:
        s.random_playout(k)
        return 1

    def python(s: Any, k: int) -> int:
        python_playout(s, random.Random(k), 0)
        return 1

    return compare_rates(positions, seconds, native, python, fresh=True)


def compare_rates(positions: list[Any], seconds: float, native: Callable[[Any, int], int],
                  python: Callable[[Any, int], int], fresh: bool = False) -> dict[str, float]:
    """Units per second of two engines over the same positions in turn, seconds/2 each (at
    least one call). A call gets a position and its call number and returns the units it did;
    fresh: it gets a clone, made outside the timing, to play on."""
    rates = {}
    for engine, call in (("native", native), ("python", python)):
        done, elapsed, k = 0, 0.0, 0
        while elapsed < seconds / 2 or done == 0:
            s = positions[k % len(positions)]
            if fresh:
                s = s.clone()
            k += 1
            t = time.perf_counter()
            done += call(s, k)
            elapsed += time.perf_counter() - t
        rates[engine] = done / elapsed
    return {"native_per_s": rates["native"], "python_per_s": rates["python"],
            "ratio": rates["native"] / rates["python"]}


def bench_expectimax(g: Any, seconds: float, seed: int) -> dict[str, Any]:
    """Nodes/s of the exact solver on late positions and of depth-limited search mid-game."""
    out = {}
    cases = {"exact": (late_positions(g, 8, 4, seed), 0), "depth3": (midgame_positions(g, 4, seed), 3)}
    for name, (positions, depth) in cases.items():
        nodes, elapsed, k = 0, 0.0, 0
        while elapsed < seconds or nodes == 0:
            s = positions[k % len(positions)]
            k += 1
            _, _, info = s.expectimax(depth=depth, max_nodes=200_000, table_bytes=16 << 20)
            nodes += info["nodes"]
            elapsed += info["seconds"]
        out[name] = {"nodes_per_s": nodes / elapsed, "nodes": nodes, "searches": k}
    return out


def bench_search(name: str, players: int | None = None, seconds: float = 2.0, seed: int = 1) -> dict[str, Any]:
    check_duration("seconds", seconds)
    g = make_game(name, players=players)
    return {"game": name, "players": g.players, "mcts": bench_mcts(g, seconds, seed),
            "expectimax": bench_expectimax(g, seconds / 2, seed)}


def format_search_report(report: dict[str, Any], terminal: bool = False) -> str:
    """The table printed by ``eurosearch bench --search`` (styled by rich when `terminal`)."""
    rows, notes = [], []
    for r in report["results"]:
        for kind, m in r["mcts"].items():
            rows.append([r["game"], str(r["players"]), kind, f"{m['native_per_s']:,.0f}", f"{m['python_per_s']:,.0f}",
                         f"{m['ratio']:.1f}"])
        for kind, m in r["expectimax"].items():
            notes.append(f"{r['game']} ({r['players']} players): expectimax {kind}: {m['nodes_per_s']:,.0f} nodes/s")
    notes.append("playouts_alone: random playouts from the same positions with no tree (per second), "
                 "the bound of the playout row")
    return render([("game", "left"), ("players", "right"), ("MCTS leaf", "left"), ("C it/s", "right"),
                   ("Python it/s", "right"), ("x Python", "right")], rows,
                  title=f"machine: {report['machine']}  date: {report['date']}  (one core)", notes=notes,
                  terminal=terminal)
