"""What every agent shares: its name (the spec it was made from) and a readable repr."""

from __future__ import annotations


class AgentBase:
    """``name`` is the agent's spec string (``make`` sets it, e.g. ``mcts:iterations=1000``)."""

    name: str = "agent"

    def __repr__(self) -> str:
        return f"<{self.name} agent>"
