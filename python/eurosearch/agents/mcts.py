"""Monte Carlo tree search agents; the search itself runs in C (csrc/core/mcts.c)."""

from __future__ import annotations

import math
import os
import random
import time
from typing import Any

from .. import evalmodel
from ..limits import check_count, check_seconds
from .base import AgentBase

MAX_WORLDS = 256            # es_mcts_ensemble's bound on trees and threads
PYTHON_RESERVE = 0.002      # seconds kept back for the Python work after the search
MIN_SEARCH_SECONDS = 1e-4   # a budget already spent still gets a token search


def cpu_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


ROLLOUTS = {"random": 0.0, "greedy": 1.0}


def greedy_share(rollout: str | float) -> float:
    """The share of playout moves chosen greedily for a `rollout` setting: "random" (0),
    "greedy" (1), or a probability in between (a mix; e.g. "0.5")."""
    if isinstance(rollout, str) and rollout in ROLLOUTS:
        return ROLLOUTS[rollout]
    try:
        share = float(rollout)
    except (TypeError, ValueError):
        share = math.nan
    if isinstance(rollout, bool) or not 0 <= share <= 1:
        raise ValueError(f"mcts rollout must be random, greedy or the share of greedy moves 0..1, got {rollout!r}")
    return share


class MCTSAgent(AgentBase):
    """UCT with max^n backup and random playouts in C.

    In a game with hidden information the search never sees the true hidden cards: `mcts`
    searches determinizations for the player; `ismcts` (information_sets=True) draws a new
    determinization every iteration and keys the tree by what the player sees; `moismcts`
    (multi_observer=True as well) keeps one such tree per player, so that an opponent's hidden
    choices (a card laid face down, a secret commitment) are made by the opponent's own tree
    from what it knows, instead of at random among the options the player cannot tell apart.
    Budget per move: `iterations`, `seconds`, or both (whichever runs out first); with neither
    given, 1000 iterations. The time budget covers the whole move, Python included.
    Many worlds: `worlds` = k > 1 searches k independent trees (each, for `mcts`, on its own
    determinization: the average over possible worlds that single-determinization MCTS
    lacks) and adds up their root statistics; the iterations are the total over the trees.
    `threads` runs the trees on that many threads (0: every core of the machine, at most one
    per tree). With an iteration budget the move depends on the seed and `worlds`, never on
    `threads`; a time budget makes it depend on the machine's speed and load.
    Playouts: `depth` moves (random; greedy with rollout="greedy"; each greedy with
    probability p and random otherwise with rollout=p) and then the game's
    evaluation turned into win chances (a softmax with `scale` per point of estimated score);
    depth=0 plays to the end, depth=-1 evaluates the new leaf at once.
    Large branching: `widening` > 0 lets a node visited N times have at most
    ceil(widening * sqrt(N + 1)) children, each new one the best by the game's evaluation of
    a few untried moves drawn at random (progressive widening; 0, the default, tries every
    move once before any twice).
    Evaluation: `eval` = "hand" (the default) ends a playout cut short in the game's own
    evaluation; "learned" in the package's learned one for the game and player count
    (python/eurosearch/evalmodel.py: win chances fitted to self-play); a file path in a model
    the user trained with ``eurosearch train-eval``.
    """

    def __init__(self, iterations: int | None = None, seconds: float = 0.0, c: float = 1.4, seed: int = 0,
                 max_nodes: int = 0, information_sets: bool = False, depth: int = 20, rollout: str | float = "random",
                 scale: float = 0.5, worlds: int = 1, threads: int = 0, widening: float = 0.0,
                 multi_observer: bool = False, eval: str = "hand"):
        check_seconds("mcts seconds", seconds)
        if iterations is None:
            iterations = 0 if seconds > 0 else 1000
        check_count("mcts iterations", iterations)
        check_count("mcts max_nodes", max_nodes)
        check_count("mcts threads", threads)
        if iterations <= 0 and seconds <= 0:
            raise ValueError("mcts needs iterations > 0 or seconds > 0")
        if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MAX_WORLDS:
            raise ValueError(f"mcts worlds must be an integer 1..{MAX_WORLDS}, got {worlds!r}")
        if threads > MAX_WORLDS:
            raise ValueError(f"mcts threads must be 0 (every core) .. {MAX_WORLDS}, got {threads}")
        self.greedy_share = greedy_share(rollout)
        if depth < -1:
            raise ValueError("mcts depth is -1 (evaluate the leaf), 0 (play to the end) or a number of moves")
        if not (isinstance(widening, (int, float)) and not isinstance(widening, bool)
                and math.isfinite(widening) and widening >= 0):
            raise ValueError(f"mcts widening must be a finite number >= 0 (0: off), got {widening!r}")
        if multi_observer and not information_sets:
            raise ValueError("mcts multi_observer needs information_sets (the moismcts agent)")
        if not isinstance(eval, str) or not eval:
            raise ValueError(f"mcts eval must be 'hand', 'learned' or a model file path, got {eval!r}")
        self.eval = eval
        self._models: dict[tuple[str, int], evalmodel.EvalModel | None] = {}
        self.widening = float(widening)
        self.multi_observer = bool(multi_observer)
        self.depth = depth
        self.scale = scale
        self.name = ("moismcts" if multi_observer else "ismcts") if information_sets else "mcts"
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.max_nodes = max_nodes
        self.information_sets = information_sets
        self.worlds = worlds
        self.threads = min(threads or cpu_count(), worlds)
        self.rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}

    def search(self, state: Any, player: int, seed: int, information_sets: bool | None = None,
               started: float | None = None) -> tuple[list[int], list[int], list[float], dict[str, Any]]:
        """This agent's search of `state` for `player`, from `player`'s information only:
        (root moves, their visits, their mean returns for `player`, stats). `information_sets`
        overrides the agent's mode; `started` is when the move's clock started (default now)."""
        started = time.monotonic() if started is None else started
        ism = self.information_sets if information_sets is None else information_sets
        search = self.search_settings(seed, ism, started, state.game)
        if self.worlds == 1:
            root = state if ism else state.determinize(player, seed)
            return root.mcts(player, **search)
        return state.mcts(player, worlds=self.worlds, threads=self.threads, **search)

    def model_for(self, game: Any) -> evalmodel.EvalModel | None:
        """The learned evaluation this agent uses in `game` (None: the game's own), loaded
        and checked once per game and player count."""
        key = (game.name, game.players)
        if key not in self._models:
            self._models[key] = evalmodel.for_game(self.eval, game)
        return self._models[key]

    def search_settings(self, seed: int, information_sets: bool, started: float, game: Any) -> dict[str, Any]:
        """The keyword arguments of State.mcts for one search of this agent (one tree) in
        `game`, the time budget less what Python has spent on the move since `started`."""
        seconds = 0.0
        if self.seconds > 0:   # what Python has spent on this move already comes off the budget
            seconds = max(self.seconds - (time.monotonic() - started) - PYTHON_RESERVE, MIN_SEARCH_SECONDS)
        settings = dict(iterations=self.iterations, seconds=seconds, exploration=self.c,
                        information_sets=information_sets, max_nodes=self.max_nodes, seed=seed,
                        rollout_depth=self.depth, rollout_policy=int(self.greedy_share > 0), greedy_share=self.greedy_share,
                        eval_scale=self.scale,
                        widening=self.widening, multi_observer=information_sets and self.multi_observer)
        model = self.model_for(game)
        if model is not None:
            settings.update(model.search_arguments())
        return settings

    def choose(self, state: Any, player: int) -> int:
        started = time.monotonic()
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        found, visits, values, self.last_stats = self.search(state, player, self.rng.getrandbits(63), started=started)
        if not found:
            return moves[self.rng.randrange(len(moves))]
        best = max(range(len(found)), key=lambda i: (visits[i], values[i]))
        return found[best]


def ismcts(**kwargs: Any) -> MCTSAgent:
    """Single-observer information-set MCTS."""
    return MCTSAgent(information_sets=True, **kwargs)


def moismcts(**kwargs: Any) -> MCTSAgent:
    """Multiple-observer information-set MCTS: one tree per player."""
    return MCTSAgent(information_sets=True, multi_observer=True, **kwargs)
