"""The floor of strength: a uniformly random legal move."""

from __future__ import annotations

import random
from typing import Any

from .base import AgentBase


class RandomAgent(AgentBase):
    """Chooses uniformly among the legal moves, reproducibly for a seed."""

    def __init__(self, seed: int = 0):
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: Any, player: int) -> int:
        moves = state.legal_moves()
        if not moves:
            raise ValueError(f"player {player} has no legal move here")
        return moves[self.rng.randrange(len(moves))]
