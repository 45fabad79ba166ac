"""Gymnasium single-agent environments for every eurosearch game (optional extra: ``pip
install eurosearch[gym]``): the learner plays one seat against built-in opponents.

    env = eurosearch.gym.make("vienna", players=3, opponents="heuristic")

Observation: the learner's ``State.observation`` vector. Actions: the dense action space
(``Game.num_distinct_actions``); ``info["action_mask"]`` (numpy bool) marks the legal ones
(``env.action_space.sample(mask=info["action_mask"].astype(np.int8))`` draws one). An action
the mask forbids ends the episode (terminated) with reward ``illegal_reward`` (default -1)
and ``info["illegal_action"] = True``, so that agents learn the mask rather than crash the
run. Opponents ("heuristic": the greedy evaluation move, "random": uniform) and chance nodes
move inside ``step``; the reward is the learner's return at the end (winners share 1).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import eurosearch as es

OPPONENTS = ("heuristic", "random")


class EurosearchEnv(gymnasium.Env):
    """One seat of a eurosearch game against built-in opponents."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, name: str, players: int | None = None, opponents: str = "heuristic", seat: int = 0,
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 data: Any = None, options: dict[str, Any] | None = None):
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}, got {opponents!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game = es.game(name, players=players, data=data, options=options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.players:
            raise ValueError(f"seat must be 0..{self.game.players - 1}, got {seat!r}")
        self.seat = seat
        self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.game.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: es.State | None = None
        self._rng = random.Random()

    def _advance(self) -> None:
        """Chance and opponents move until the learner is to move or the game is over."""
        s = self.state
        while True:
            cp = s.current_player
            if cp == es.CHANCE:
                s.apply(s.sample_chance(self._rng.getrandbits(64)))
            elif cp >= 0 and cp != self.seat:
                seed = self._rng.getrandbits(64)
                s.apply(s.heuristic_move(seed) if self.opponents == "heuristic" else s.random_move(seed))
            else:
                return

    def _info(self, **extra: Any) -> dict[str, Any]:
        s = self.state
        mask = s.legal_actions_mask() if s.current_player == self.seat else \
            np.zeros(self.action_space.n, dtype=np.bool_)
        return {"action_mask": mask, **extra}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._rng = random.Random(seed)
        self.state = self.game.new_state()
        self._advance()
        return self.state.observation(self.seat), self._info()

    def step(self, action):
        s = self.state
        try:
            move = self.game.action_to_move(int(action))
            s.apply(move)
        except (ValueError, es.IllegalMoveError):
            return s.observation(self.seat), self.illegal_reward, True, False, self._info(illegal_action=True)
        self._advance()
        done = s.is_terminal()
        reward = s.returns()[self.seat] if done else 0.0
        return s.observation(self.seat), float(reward), done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return self.state.to_text(viewer=self.seat)


def make(name: str, players: int | None = None, opponents: str = "heuristic", **kwargs: Any) -> EurosearchEnv:
    """The environment of game `name` (see es.games()): seat 0 (or ``seat=``) against opponents."""
    return EurosearchEnv(name, players=players, opponents=opponents, **kwargs)
