"""Expectimax agent; the search runs in C (csrc/core/expectimax.c)."""

from __future__ import annotations

import random
import time
from typing import Any

from ..limits import check_count, check_seconds, check_table_mb
from .base import AgentBase
from .mcts import MAX_WORLDS

OBJECTIVES = ("win", "score")


class ExpectimaxAgent(AgentBase):
    """Depth-limited expectimax with iterative deepening and the game's evaluation at the horizon.

    Two players: alpha-beta with Star1/Star2 pruning at chance nodes; more players: max^n, or
    paranoid (every opponent against this player) with paranoid=True. A transposition table
    keyed by the state hash is shared by the iterations of one move.

    Budget per move: `nodes` (deterministic: the same seed gives the same move), `seconds`,
    or both (whichever ends first); the deepest finished iteration decides, never deeper than
    `depth` turns (0: no cap; a player's consecutive decisions, such as a reroll and the
    placement after it, are one turn, so no horizon falls inside a turn). With hidden information the agent searches
    determinizations for its player: one by default (a "determinized expectimax"), or
    `worlds` = k of them, each with an equal share of the budget, choosing the move with the
    best value averaged over the k worlds (as the solver's ``info`` mode does).
    """

    def __init__(self, depth: int = 0, nodes: int = 100_000, seconds: float = 0.0, paranoid: bool = False,
                 objective: str = "win", scale: float = 0.5, table_mb: int = 16, seed: int = 0, worlds: int = 1):
        check_count("expectimax nodes", nodes)
        check_seconds("expectimax seconds", seconds)
        table_bytes = check_table_mb("expectimax table_mb", table_mb)
        if nodes <= 0 and seconds <= 0 and depth <= 0:
            raise ValueError("expectimax needs a budget: nodes > 0, seconds > 0 or depth > 0")
        if depth < 0:
            raise ValueError("expectimax depth is a number of turns (0: no cap)")
        if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MAX_WORLDS:
            raise ValueError(f"expectimax worlds must be an integer 1..{MAX_WORLDS}, got {worlds!r}")
        if objective not in OBJECTIVES:
            raise ValueError(f"expectimax objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        self.name = "expectimax"
        self.depth = depth
        self.nodes = nodes
        self.seconds = seconds
        self.paranoid = paranoid
        self.objective = objective
        self.scale = scale
        self.table_bytes = table_bytes
        self.worlds = worlds
        self.rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}

    def choose(self, state: Any, player: int) -> int:
        started = time.monotonic()
        moves = state.legal_moves()
        seed = self.rng.getrandbits(63)
        if len(moves) == 1:
            return moves[0]
        if self.worlds > 1:
            return self._choose_over_worlds(state, player, seed, started)
        root = state.determinize(player, seed)
        _, _, info = root.expectimax(
            depth=self.depth, iterative=True, seconds=self.seconds, max_nodes=self.nodes,
            table_bytes=self.table_bytes, objective=self.objective, paranoid=self.paranoid,
            all_values=False, eval_scale=self.scale)
        self.last_stats = info
        if info["best"] is None:   # not even one ply within the budget
            return root.heuristic_move(seed)
        return info["best"]

    def _choose_over_worlds(self, state: Any, player: int, seed: int, started: float) -> int:
        """The move with the best mean value over `worlds` determinizations (every move's
        value from each world's deepest finished iteration; a world that finished none is
        left out)."""
        rng = random.Random(seed)
        total: dict[int, float] = {}
        seen: dict[int, int] = {}
        counted = nodes = 0
        for k in range(self.worlds):
            seconds = 0.0
            if self.seconds > 0:
                left = self.seconds - (time.monotonic() - started)
                seconds = max(left / (self.worlds - k), 1e-4)
            root = state.determinize(player, rng.getrandbits(63))
            found, values, info = root.expectimax(
                depth=self.depth, iterative=True, seconds=seconds, max_nodes=self.nodes // self.worlds,
                table_bytes=self.table_bytes, objective=self.objective, paranoid=self.paranoid,
                all_values=True, eval_scale=self.scale)
            nodes += info["nodes"]
            if info["best"] is None:
                continue
            counted += 1
            for move, value in zip(found, values):
                total[move] = total.get(move, 0.0) + value
                seen[move] = seen.get(move, 0) + 1
        self.last_stats = {"worlds": counted, "nodes": nodes, "seconds": time.monotonic() - started}
        if not total:
            return state.determinize(player, seed).heuristic_move(seed)
        return max(total, key=lambda m: (total[m] / seen[m], -m))
