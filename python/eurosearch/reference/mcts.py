"""The same search as csrc/core/mcts.c written in plain Python over the public API: the
baseline a user would write, for `eurosearch bench --search` and bench/test_bench_search.py.

UCT with a value per player (max^n), chance sampled, open mode (no determinization).
Playouts as in the C search: depth 0 plays to the end, depth k > 0 plays k random moves and
then takes the game's evaluation as win chances (softmax), depth -1 evaluates the leaf.
"""

from __future__ import annotations

import math
import random
from typing import Any



class Node:
    __slots__ = ("children", "visits", "value")

    def __init__(self, players: int):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.value = [0.0] * players


def evaluation_returns(state: Any, scale: float = 0.5) -> list[float]:
    v = state.evaluate()
    top = max(v)
    e = [math.exp(scale * (x - top)) for x in v]
    total = sum(e)
    return [x / total for x in e]


def playout(state: Any, rng: random.Random, depth: int) -> list[float]:
    if depth < 0:
        return evaluation_returns(state)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng.getrandbits(64)))
            continue
        if depth and decisions >= depth:
            return evaluation_returns(state)
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        decisions += 1
    return state.returns()


def search(root: Any, iterations: int, seed: int = 0, c: float = 1.4, depth: int = 20) -> dict[int, int]:
    """Visit counts of the root moves after `iterations` iterations."""
    rng = random.Random(seed)
    players = root.game.players
    tree = Node(players)
    for _ in range(iterations):
        s = root.clone()
        node = tree
        path = [node]
        expanded = False
        while not s.is_terminal() and not expanded:
            if s.is_chance():
                m = s.sample_chance(rng.getrandbits(64))
                child = node.children.get(m)
                if child is None:
                    child = node.children[m] = Node(players)
                    expanded = True
            else:
                moves = s.legal_moves()
                untried = [m for m in moves if m not in node.children]
                if untried:
                    m = untried[rng.randrange(len(untried))]
                    child = node.children[m] = Node(players)
                    expanded = True
                else:
                    p = s.current_player
                    log_n = math.log(max(node.visits, 1))
                    m = max(moves, key=lambda mv: node.children[mv].value[p] / node.children[mv].visits
                            + c * math.sqrt(log_n / node.children[mv].visits))
                    child = node.children[m]
            s.apply(m)
            node = child
            path.append(node)
        returns = s.returns() if s.is_terminal() else playout(s, rng, depth)
        for n in path:
            n.visits += 1
            for i in range(players):
                n.value[i] += returns[i]
    return {m: ch.visits for m, ch in tree.children.items()}
