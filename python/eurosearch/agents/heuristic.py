"""A greedy player: one ply ahead on the game's own evaluation (written from the rules:
immediate points, coins and goods at their exchange rate, fields and buildings about to pay)."""

from __future__ import annotations

import random
from typing import Any

from .base import AgentBase


class HeuristicAgent(AgentBase):
    """Plays the legal move with the best evaluation margin over the strongest opponent.

    The evaluation lives in each game's C module (es_game_def.evaluate). In a game with hidden
    information the agent looks only at a determinization for its player."""

    def __init__(self, seed: int = 0):
        self.name = "heuristic"
        self.rng = random.Random(seed)

    def choose(self, state: Any, player: int) -> int:
        seed = self.rng.getrandbits(63)
        return state.determinize(player, seed).heuristic_move(seed)
