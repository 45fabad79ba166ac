"""Endgame values of one position: ``es.solve``.

The search itself is the native expectimax (csrc/core/expectimax.c), deepened one turn at a
time with the game's evaluation at the horizon until no leaf is a horizon: then every value is
the game's exact value. This module adds what an analyst asks for on top of it: the open (all
cards face up) and the information-set (average over determinizations) modes, the gap between
the best and the second best move, and one result object that says plainly whether it is
solved, or else how deep the estimates it holds were searched.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..limits import check_count, check_seconds, check_table_mb

OBJECTIVES = ("win", "score")
MODES = ("open", "info")
DEFAULT_SECONDS = 30.0   # es.solve(s) without limits stops here rather than run for hours
MIN_SHARE_NODES = 10_000  # info mode: the least budget of one determinization's search ...
MIN_SHARE_SECONDS = 0.01  # ... so that a small budget searches fewer samples, not none well


@dataclass
class SolveResult:
    """The values of the legal moves of the player to move.

    values[i] is the value of moves[i] for that player: the chance of winning (ties shared)
    for the win objective, the expected final score margin over the best opponent for the
    score objective. In info mode a value is the mean over the determinizations in which the
    move exists (``move_samples[i]`` of them).

    ``solved`` says the values are exact. When a node or time limit ended the search first,
    ``solved`` is False and the values are estimates from the deepest search that finished:
    ``depth`` turns ahead with the game's evaluation at the horizon (in info mode: the
    shallowest such depth over the determinizations; depth 0 with solved False: exact values
    of fewer determinizations than asked, ``samples`` of them). When not even a one-turn
    search finished, ``depth`` is None and every value is None. ``values`` is always a list.
    """

    player: int
    objective: str
    mode: str
    solved: bool
    moves: list[int]
    values: list[float | None]
    best: int | None
    margin: float | None        # best value minus the second best (None with one move)
    nodes: int
    seconds: float
    samples: int = 0            # determinizations searched (info mode)
    move_samples: list[int] = field(default_factory=list)
    table_bytes: int = 0
    move_names: list[str] = field(default_factory=list)
    depth: int | None = 0       # 0: exact; d > 0: estimates from d turns ahead; None: no values

    @property
    def value(self) -> float | None:
        """The value of the position for the player to move (its best move's value)."""
        if self.best is None:
            return None
        return self.values[self.moves.index(self.best)]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: per move its id, name and value."""
        moves = [{"move": m, "name": n, "value": self.values[i]}
                 for i, (m, n) in enumerate(zip(self.moves, self.move_names))]
        if self.mode == "info":
            for entry, k in zip(moves, self.move_samples):
                entry["samples"] = k
        best_name = None if self.best is None else self.move_names[self.moves.index(self.best)]
        out = {"player": self.player, "objective": self.objective, "mode": self.mode,
               "solved": self.solved, "depth": self.depth, "value": self.value, "best": self.best,
               "best_name": best_name, "margin": self.margin, "moves": moves, "nodes": self.nodes,
               "seconds": round(self.seconds, 6), "table_bytes": self.table_bytes}
        if self.mode == "info":
            out["samples"] = self.samples
        return out


def check_limits(max_nodes: object, seconds: object, table_mb: object, table_over_memory: bool = False) -> int:
    """Refuse absurd limits (ValueError naming the parameter); the table size in bytes."""
    check_count("max_nodes", max_nodes)
    check_seconds("seconds", seconds)
    return check_table_mb("table_mb", table_mb, table_over_memory, knob="table_over_memory=True")


def check_job(objective: str, mode: str, samples: object) -> None:
    """Refuse an unknown objective or mode, or a sample count that is not a positive integer."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode == "info" and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise ValueError(f"samples must be a positive integer, got {samples!r}")


def _check(state: Any, objective: str, mode: str, samples: int) -> None:
    check_job(objective, mode, samples)
    if state.is_terminal():
        raise ValueError("the game is over: there is no move to solve")
    if state.is_chance():
        raise ValueError("this is a chance node: solve a position where a player is to move")


def _best_of(moves: list[int], values: list[float]) -> tuple[int | None, float | None]:
    """The first best move in legal-move order, and its lead over the second best."""
    if not moves:
        return None, None
    order = sorted(range(len(moves)), key=lambda i: (-values[i], i))
    best = moves[order[0]]
    margin = values[order[0]] - values[order[1]] if len(order) > 1 else None
    return best, margin


def _positions(state: Any, mode: str, samples: int, seed: int) -> Iterator[Any]:
    """The states to search: the state itself, or determinizations made one at a time (so a
    million samples never sit in memory together)."""
    if mode == "open":
        yield state
        return
    rng = random.Random(seed)
    for _ in range(samples):
        yield state.determinize(state.current_player, rng.getrandbits(63))


def solve(state: Any, objective: str = "win", mode: str = "open", samples: int = 16, seed: int = 0,
          max_nodes: int = 0, seconds: float = DEFAULT_SECONDS, table_mb: float = 64,
          table_over_memory: bool = False) -> SolveResult:
    """Solve the position for the player to move, exactly if the limits allow.

    Args:
        state: a decision node of any game (``es.State``).
        objective: "win" (chance of winning, ties shared) or "score" (expected final score
            margin over the best opponent).
        mode: "open" searches the state as it is, every card face up (double-dummy); "info"
            averages the open values over ``samples`` determinizations for the player to move
            (what that player cannot see is resampled consistently with what it saw).
        seed: the seed of the determinizations (info mode).
        max_nodes, seconds: limits on the whole call (0: none); by default 30 seconds. In info
            mode each determinization gets an equal share of what is left (at least 10,000
            nodes or 10 ms, so a small budget searches fewer determinizations). A search that
            reaches a limit returns ``solved=False`` with estimates from the deepest finished
            search (see ``SolveResult``).
        table_mb: transposition table memory per search (at least 1); more than the machine's
            memory is refused unless ``table_over_memory=True``.
    """
    _check(state, objective, mode, samples)
    table_bytes = check_limits(max_nodes, seconds, table_mb, table_over_memory)
    player = state.current_player
    legal = state.legal_moves()
    start = time.perf_counter()
    runs = 1 if mode == "open" else samples

    totals = {m: 0.0 for m in legal}
    counts = {m: 0 for m in legal}
    nodes, used_table, searched, exact = 0, 0, 0, True
    horizons: list[int] = []     # the depths of the searches that stopped short of exactness
    for k, s in enumerate(_positions(state, mode, samples, seed)):
        left_nodes = max_nodes - nodes
        left_seconds = seconds - (time.perf_counter() - start)
        if (max_nodes and left_nodes <= 0) or (seconds and left_seconds <= 0):
            exact = False
            break
        # an equal share of what is left, but enough to finish a shallow search
        share_nodes = min(left_nodes, max(left_nodes // (runs - k), MIN_SHARE_NODES)) if max_nodes else 0
        share_seconds = min(left_seconds, max(left_seconds / (runs - k), MIN_SHARE_SECONDS)) if seconds else 0.0
        moves, values, info = s.expectimax(objective=objective, iterative=True, max_nodes=share_nodes,
                                           seconds=share_seconds, table_bytes=table_bytes)
        nodes += info["nodes"]
        used_table = max(used_table, info["table_bytes"])
        exact = exact and info["exact"]
        if not moves:            # not even a one-turn search finished
            continue
        searched += 1
        if not info["exact"]:
            horizons.append(info["depth"])
        for m, v in zip(moves, values):
            if m in totals:      # a determinization never offers a move its player cannot make
                totals[m] += v
                counts[m] += 1
    elapsed = time.perf_counter() - start

    solved = exact and searched == runs
    depth = None if not searched else min(horizons, default=0)
    present = [m for m in legal if counts[m]]
    values: list[float | None] = [totals[m] / counts[m] if counts[m] else None for m in legal]
    best, margin = _best_of(present, [totals[m] / counts[m] for m in present])
    return SolveResult(player, objective, mode, solved, legal, values, best, margin, nodes, elapsed,
                       searched if mode == "info" else 0, [counts[m] for m in legal] if mode == "info" else [],
                       used_table, [state.move_to_str(m) for m in legal], depth)
