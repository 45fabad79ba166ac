"""The default AI: for each game the strongest search configuration found in arena runs
(docs/strength.md), played for a time per move on every core.

``ai:seconds=1`` is what ``eurosearch play`` and the README use. The configuration per game
lives in PER_GAME below; a game without an entry (a new one) gets the safe choice for any
game, information-set MCTS, which never looks at cards its player cannot see. ``eval:
learned`` plays with the package's learned evaluation (evalmodel.py) at the player counts
it ships one for, and with the game's own evaluation at the others.
"""

from __future__ import annotations

from typing import Any

from ..evalmodel import shipped_path
from ..limits import check_count, check_seconds
from .base import AgentBase
from .mcts import MAX_WORLDS, MCTSAgent, cpu_count

#: game -> MCTSAgent keyword arguments (besides the budget, threads and seed), chosen from
#: the arena runs recorded in docs/strength.md (the rollouts: sections "2026-12-07 (stop 34)"
#: and "(stop 35)").
PER_GAME: dict[str, dict[str, Any]] = {
    "vienna": {"information_sets": False, "depth": 20, "widening": 0.5, "eval": "learned"},   # up to 224 moves
    "coal_baron": {"information_sets": False, "depth": 20, "eval": "learned", "rollout": 0.5},  # half greedy
    "oh_my_goods": {"information_sets": True, "depth": 20, "eval": "learned", "rollout": 0.5},   # half greedy
    "bruges": {"information_sets": True, "depth": 20, "eval": "learned", "rollout": 0.5},        # half greedy
    "wolsung": {"information_sets": True, "depth": 20, "rollout": 0.5},                          # half greedy
}
FALLBACK: dict[str, Any] = {"information_sets": True, "depth": 20}


class AIAgent(AgentBase):
    """The strongest configuration for the game being played, `seconds` per move.

    One tree per thread (root parallelism over `threads` threads, 0: every core); with a
    fixed `iterations` budget instead of seconds the moves are reproducible for a seed and a
    thread count."""

    def __init__(self, seconds: float = 1.0, iterations: int = 0, threads: int = 0, seed: int = 0):
        check_seconds("ai seconds", seconds)
        check_count("ai iterations", iterations)
        check_count("ai threads", threads)
        if seconds <= 0 and iterations <= 0:
            raise ValueError("ai needs seconds > 0 or iterations > 0")
        if threads > MAX_WORLDS:
            raise ValueError(f"ai threads must be 0 (every core) .. {MAX_WORLDS}, got {threads}")
        self.name = "ai"
        self.seconds = seconds
        self.iterations = iterations
        self.threads = threads or cpu_count()
        self.seed = seed
        self._agents: dict[tuple[str, int], MCTSAgent] = {}

    def agent_for(self, game_name: str, players: int) -> MCTSAgent:
        """The search this AI plays `game_name` with `players` players with (made once)."""
        key = (game_name, players)
        if key not in self._agents:
            config = dict(PER_GAME.get(game_name, FALLBACK))
            if config.get("eval") == "learned" and not shipped_path(game_name, players).exists():
                config["eval"] = "hand"
            self._agents[key] = MCTSAgent(
                iterations=self.iterations, seconds=self.seconds, seed=self.seed, worlds=self.threads,
                threads=self.threads, **config)
        return self._agents[key]

    @property
    def last_stats(self) -> dict[str, Any]:
        return next(iter(self._agents.values())).last_stats if self._agents else {}

    def choose(self, state: Any, player: int) -> int:
        return self.agent_for(state.game.name, state.game.players).choose(state, player)
