"""Plain expectimax over the Python API: the yardstick for the native search and solver.

No pruning and no transposition table, so it is slow and obviously right: every decision
node takes the first best move (in legal-move order) of the player to move, every chance
node the exact average over its outcomes. Values follow the native definitions
(csrc/core/expectimax.c): the win objective uses the game's returns at the end and a softmax
of the evaluation at the horizon; the score objective the margin over the best opponent.
"""

from __future__ import annotations

import math
from typing import Any, Sequence


class TooLarge(Exception):
    """The search would visit more nodes than the budget it was given."""


class _Budget:
    def __init__(self, nodes: float) -> None:
        self.left = nodes

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise TooLarge("the plain expectimax ran out of its node budget")


def _margins(values: Sequence[float]) -> list[float]:
    if len(values) == 1:
        return list(values)
    return [v - max(w for j, w in enumerate(values) if j != i) for i, v in enumerate(values)]


def _softmax(values: Sequence[float], scale: float) -> list[float]:
    top = max(values)
    e = [math.exp(scale * (v - top)) for v in values]
    total = sum(e)
    return [x / total for x in e]


def leaf_values(state: Any, objective: str, scale: float = 0.5) -> list[float]:
    """Every player's value at the end of the game or, elsewhere, from the evaluation."""
    if state.is_terminal():
        return list(state.returns()) if objective == "win" else _margins(state.scores())
    estimate = state.evaluate()
    return _softmax(estimate, scale) if objective == "win" else _margins(estimate)


def values(state: Any, objective: str = "win", depth: int = 0, paranoid_for: int | None = None,
           scale: float = 0.5) -> list[float]:
    """The expectimax value vector of `state`.

    depth: turns left (0: to the end); a decision by the player who made the previous one
    continues that turn and costs no depth (as in the native search). paranoid_for: a player whose value every other
    player minimises (two players, or the paranoid option); None: max^n.
    """
    return _search(state, objective, depth if depth > 0 else math.inf, None, paranoid_for, scale,
                   _Budget(math.inf))


def _search(state: Any, objective: str, depth: float, prev: int | None, paranoid_for: int | None,
            scale: float, budget: _Budget) -> list[float]:
    budget.spend()
    if not state.is_terminal() and not state.is_chance() and state.current_player == prev:
        depth += 1   # the same player decides again: still one turn
    if state.is_terminal() or depth <= 0:
        return leaf_values(state, objective, scale)
    if state.is_chance():
        total: list[float] | None = None
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply(outcome)
            v = _search(child, objective, depth, prev, paranoid_for, scale, budget)
            total = [p * x for x in v] if total is None else [t + p * x for t, x in zip(total, v)]
        assert total is not None
        return total
    mover = state.current_player
    best: list[float] | None = None
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        v = _search(child, objective, depth - 1, mover, paranoid_for, scale, budget)
        if best is None or _better(v, best, mover, paranoid_for):
            best = v
    assert best is not None
    return best


def _better(v: list[float], best: list[float], mover: int, paranoid_for: int | None) -> bool:
    if paranoid_for is None:
        return v[mover] > best[mover]
    if mover == paranoid_for:
        return v[paranoid_for] > best[paranoid_for]
    return v[paranoid_for] < best[paranoid_for]


def move_values(state: Any, objective: str = "win", depth: int = 0, paranoid: bool = False,
                scale: float = 0.5, max_nodes: float = math.inf) -> dict[int, float]:
    """The value of each legal move for the player to move (as the native search reports them).

    Raises TooLarge when the search would visit more than `max_nodes` nodes.
    """
    budget = _Budget(max_nodes)
    mover = state.current_player
    players = len(state.scores())
    paranoid_for = mover if players == 2 or paranoid else None
    left = depth - 1 if depth > 0 else math.inf
    out = {}
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        out[move] = _search(child, objective, left, mover, paranoid_for, scale, budget)[mover]
    return out
