"""PettingZoo AEC environments for every eurosearch game (optional extra: ``pip install
eurosearch[pettingzoo]``).

    env = eurosearch.pettingzoo.env("coal_baron", players=3)

Agents are ``player_0`` .. ``player_{n-1}``. Actions are the game's dense action space
(``Game.num_distinct_actions``); each observation is a dict with the player's
``observation`` vector (``State.observation``, layout in ``Game.observation_layout``) and an
``action_mask`` (int8, all zero unless that agent is to move). Chance nodes are resolved
inside ``reset``/``step`` with the exact probabilities, from the seed given to ``reset``.
Rewards are the game's returns (winners share 1), given once at the end.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import eurosearch as es


class EurosearchAEC(AECEnv):
    """One eurosearch game as an agent-environment-cycle environment."""

    def __init__(self, name: str, players: int | None = None, render_mode: str | None = None,
                 data: Any = None, options: dict[str, Any] | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game = es.game(name, players=players, data=data, options=options)
        self.metadata = {"render_modes": ["ansi"], "name": f"eurosearch_{name}_v0", "is_parallelizable": False}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        n = self.game.num_distinct_actions()
        obs = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_: es.State | None = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _resolve_chance(self) -> None:
        s = self.state_
        while s.is_chance():
            s.apply(s.sample_chance(self._rng.getrandbits(64)))

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._rng = random.Random(seed)
        self.state_ = self.game.new_state()
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        cp = self.state_.current_player
        if cp >= 0:
            self.agent_selection = self.possible_agents[cp]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.possible_agents.index(agent)
        s = self.state_
        if s.current_player == p:
            mask = s.legal_actions_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        return {"observation": s.observation(p), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state_
        move = self.game.action_to_move(int(action))
        s.apply(move)   # IllegalMoveError for an action the mask forbids
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        if s.is_terminal():
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return self.state_.to_text(viewer=self.possible_agents.index(self.agent_selection))

    def close(self) -> None:
        pass


def env(name: str, players: int | None = None, render_mode: str | None = None, **kwargs: Any) -> EurosearchAEC:
    """The AEC environment of game `name` (see es.games()) for `players` seats."""
    return EurosearchAEC(name, players=players, render_mode=render_mode, **kwargs)
