"""Monte Carlo tree search agents; the search itself runs in C (csrc/core/mcts.c)."""

from __future__ import annotations

import random
from typing import Any

from ..limits import check_count, check_seconds
from .base import AgentBase


ROLLOUTS = {"random": 0, "greedy": 1}


class MCTSAgent(AgentBase):
    """UCT with max^n backup and random playouts in C.

    In a game with hidden information the search never sees the true hidden cards: `mcts`
    searches one determinization for the player per move; `ismcts` (information_sets=True)
    draws a new determinization every iteration and keys the tree by what the player sees.
    Budget: `iterations` per move, or `seconds` per move (iterations win if both are set).
    Playouts: `depth` moves (random, or greedy with rollout="greedy") and then the game's
    evaluation turned into win chances (a softmax with `scale` per point of estimated score);
    depth=0 plays to the end, depth=-1 evaluates the new leaf at once.
    """

    def __init__(self, iterations: int = 1000, seconds: float = 0.0, c: float = 1.4, seed: int = 0,
                 max_nodes: int = 0, information_sets: bool = False, depth: int = 20, rollout: str = "random",
                 scale: float = 0.5):
        check_count("mcts iterations", iterations)
        check_seconds("mcts seconds", seconds)
        check_count("mcts max_nodes", max_nodes)
        if iterations <= 0 and seconds <= 0:
            raise ValueError("mcts needs iterations > 0 or seconds > 0")
        if rollout not in ROLLOUTS:
            raise ValueError(f"mcts rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if depth < -1:
            raise ValueError("mcts depth is -1 (evaluate the leaf), 0 (play to the end) or a number of moves")
        self.depth = depth
        self.rollout = rollout
        self.scale = scale
        self.name = "ismcts" if information_sets else "mcts"
        self.iterations = iterations if iterations > 0 else 0
        self.seconds = seconds if iterations <= 0 else 0.0
        self.c = c
        self.max_nodes = max_nodes
        self.information_sets = information_sets
        self.rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}

    def choose(self, state: Any, player: int) -> int:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        seed = self.rng.getrandbits(63)
        root = state if self.information_sets else state.determinize(player, seed)
        found, visits, values, stats = root.mcts(
            player, iterations=self.iterations, seconds=self.seconds, exploration=self.c,
            information_sets=self.information_sets, max_nodes=self.max_nodes, seed=seed,
            rollout_depth=self.depth, rollout_policy=ROLLOUTS[self.rollout], eval_scale=self.scale)
        self.last_stats = stats
        if not found:
            return moves[self.rng.randrange(len(moves))]
        best = max(range(len(found)), key=lambda i: (visits[i], values[i]))
        return found[best]


def ismcts(**kwargs: Any) -> MCTSAgent:
    """Single-observer information-set MCTS."""
    return MCTSAgent(information_sets=True, **kwargs)
