"""Exact endgame values of one position: ``es.solve``.

The search itself is the native expectimax (csrc/core/expectimax.c) run to the end of the
game: no depth limit, no evaluation at a horizon, so every value is exact when the search
completes. This module adds what an analyst asks for on top of it: the open (all cards face
up) and the information-set (average over determinizations) modes, the gap between the best
and the second best move, and one result object that says plainly whether it is solved.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

OBJECTIVES = ("win", "score")
MODES = ("open", "info")


@dataclass
class SolveResult:
    """The exact values of the legal moves of the player to move.

    values[i] is the value of moves[i] for that player: the chance of winning (ties shared)
    for the win objective, the expected final score margin over the best opponent for the
    score objective. In info mode a value is the mean over the determinizations in which the
    move exists (``move_samples[i]`` of them). ``solved`` is False when a node or time limit
    ended the search first; the values and best move are then None.
    """

    player: int
    objective: str
    mode: str
    solved: bool
    moves: list[int]
    values: list[float | None] | None
    best: int | None
    margin: float | None        # best value minus the second best (None with one move)
    nodes: int
    seconds: float
    samples: int = 0            # determinizations (info mode)
    move_samples: list[int] = field(default_factory=list)
    table_bytes: int = 0
    move_names: list[str] = field(default_factory=list)

    @property
    def value(self) -> float | None:
        """The value of the position for the player to move (its best move's value)."""
        if self.values is None or self.best is None:
            return None
        return self.values[self.moves.index(self.best)]  # type: ignore[return-value]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: per move its id, name and value."""
        moves = [{"move": m, "name": n, "value": None if self.values is None else self.values[i]}
                 for i, (m, n) in enumerate(zip(self.moves, self.move_names))]
        if self.mode == "info":
            for entry, k in zip(moves, self.move_samples):
                entry["samples"] = k
        best_name = None if self.best is None else self.move_names[self.moves.index(self.best)]
        out = {"player": self.player, "objective": self.objective, "mode": self.mode,
               "solved": self.solved, "value": self.value, "best": self.best, "best_name": best_name,
               "margin": self.margin, "moves": moves, "nodes": self.nodes,
               "seconds": round(self.seconds, 6), "table_bytes": self.table_bytes}
        if self.mode == "info":
            out["samples"] = self.samples
        return out


def _check(state: Any, objective: str, mode: str, samples: int, max_nodes: int, seconds: float,
           table_mb: float) -> None:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode == "info" and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    if max_nodes < 0 or seconds < 0 or table_mb <= 0:
        raise ValueError("max_nodes and seconds must be >= 0 (0: no limit) and table_mb > 0")
    if state.is_terminal():
        raise ValueError("the game is over: there is no move to solve")
    if state.is_chance():
        raise ValueError("this is a chance node: solve a position where a player is to move")


def _best_of(moves: list[int], values: list[float]) -> tuple[int, float | None]:
    """The first best move in legal-move order, and its lead over the second best."""
    order = sorted(range(len(moves)), key=lambda i: (-values[i], i))
    best = moves[order[0]]
    margin = values[order[0]] - values[order[1]] if len(order) > 1 else None
    return best, margin


def solve(state: Any, objective: str = "win", mode: str = "open", samples: int = 16, seed: int = 0,
          max_nodes: int = 0, seconds: float = 0.0, table_mb: float = 64) -> SolveResult:
    """Solve the position exactly for the player to move.

    Args:
        state: a decision node of any game (``es.State``).
        objective: "win" (chance of winning, ties shared) or "score" (expected final score
            margin over the best opponent).
        mode: "open" searches the state as it is, every card face up (double-dummy); "info"
            averages the open values over ``samples`` determinizations for the player to move
            (what that player cannot see is resampled consistently with what it saw).
        seed: the seed of the determinizations (info mode).
        max_nodes, seconds: limits on the whole call (0: none); a search that reaches one
            returns ``solved=False`` instead of running on.
        table_mb: transposition table memory, per search.
    """
    _check(state, objective, mode, samples, max_nodes, seconds, table_mb)
    player = state.current_player
    legal = state.legal_moves()
    table_bytes = int(table_mb * (1 << 20))
    start = time.perf_counter()
    if mode == "open":
        positions = [state]
    else:
        rng = random.Random(seed)
        positions = [state.determinize(player, rng.getrandbits(63)) for _ in range(samples)]

    totals = {m: 0.0 for m in legal}
    counts = {m: 0 for m in legal}
    nodes, used_table, solved = 0, 0, True
    for s in positions:
        left_nodes = max_nodes - nodes if max_nodes else 0
        left_seconds = seconds - (time.perf_counter() - start) if seconds else 0.0
        if (max_nodes and left_nodes <= 0) or (seconds and left_seconds <= 0):
            solved = False
            break
        moves, values, info = s.expectimax(objective=objective, max_nodes=left_nodes, seconds=left_seconds,
                                           table_bytes=table_bytes)
        nodes += info["nodes"]
        used_table = max(used_table, info["table_bytes"])
        if not (info["complete"] and info["exact"]):
            solved = False
            break
        for m, v in zip(moves, values):
            if m in totals:      # a determinization never offers a move its player cannot make
                totals[m] += v
                counts[m] += 1
    elapsed = time.perf_counter() - start

    names = [state.move_to_str(m) for m in legal]
    if not solved:
        return SolveResult(player, objective, mode, False, legal, None, None, None, nodes, elapsed,
                           samples if mode == "info" else 0, [], used_table, names)
    present = [m for m in legal if counts[m]]
    values: list[float | None] = [totals[m] / counts[m] if counts[m] else None for m in legal]
    best, margin = _best_of(present, [totals[m] / counts[m] for m in present])
    return SolveResult(player, objective, mode, True, legal, values, best, margin, nodes, elapsed,
                       len(positions) if mode == "info" else 0, [counts[m] for m in legal] if mode == "info" else [],
                       used_table, names)
