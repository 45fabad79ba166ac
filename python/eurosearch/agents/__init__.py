"""Agents: anything with ``choose(state, player) -> move``, built from a spec string.

``make("random:seed=3")`` takes the same ``name[:key=value]...`` form as the command line.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from .ai import AIAgent
from .base import AgentBase
from .expectimax import ExpectimaxAgent
from .heuristic import HeuristicAgent
from .mcts import MCTSAgent, ismcts, moismcts
from .random_agent import RandomAgent


class Agent(Protocol):
    name: str

    def choose(self, state: Any, player: int) -> int:
        """A legal move for `player` in `state` (a decision node of that player)."""
        ...


def _flag(text: str) -> bool:
    """A yes/no parameter: 1/0, true/false, yes/no."""
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


_flag.__name__ = "a flag (0/1)"

#: name -> (factory, {parameter: type})
_SEARCH = {"iterations": int, "seconds": float, "c": float, "seed": int, "max_nodes": int,
           "depth": int, "rollout": str, "scale": float, "worlds": int, "threads": int,
           "widening": float, "eval": str}

REGISTRY: dict[str, tuple[Callable[..., Agent], dict[str, type]]] = {
    "ai": (AIAgent, {"seconds": float, "iterations": int, "threads": int, "seed": int}),
    "random": (RandomAgent, {"seed": int}),
    "heuristic": (HeuristicAgent, {"seed": int}),
    "mcts": (MCTSAgent, _SEARCH),
    "ismcts": (ismcts, _SEARCH),
    "moismcts": (moismcts, _SEARCH),
    "expectimax": (ExpectimaxAgent, {"depth": int, "nodes": int, "seconds": float, "paranoid": _flag,
                                     "objective": str, "scale": float, "table_mb": int, "seed": int,
                                     "worlds": int}),
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value:key=value`` into the name and typed parameters."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("an agent spec is a non-empty string like 'random' or 'random:seed=3'")
    name, *parts = spec.strip().split(":")
    if name not in REGISTRY:
        raise ValueError(f"unknown agent {name!r}; valid agents: {', '.join(sorted(REGISTRY))}")
    types = REGISTRY[name][1]
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in types:
            raise ValueError(f"agent {name}: bad parameter {part!r}; valid keys: {', '.join(sorted(types)) or 'none'}")
        try:
            params[key] = types[key](value)
        except ValueError:
            raise ValueError(f"agent {name}: {key} must be {types[key].__name__}, got {value!r}") from None
    return name, params


def make(spec: str, **defaults: Any) -> Agent:
    """Build an agent from a spec string; ``defaults`` fill parameters the spec leaves out."""
    name, params = parse_spec(spec)
    factory, types = REGISTRY[name]
    for key, value in defaults.items():
        if key in types:
            params.setdefault(key, value)
    agent = factory(**params)
    agent.name = spec.strip()     # the repr shows it: <mcts:iterations=1000 agent>
    return agent


__all__ = ["AIAgent", "Agent", "AgentBase", "ExpectimaxAgent", "HeuristicAgent", "MCTSAgent", "RandomAgent", "REGISTRY", "ismcts", "make", "moismcts", "parse_spec"]
