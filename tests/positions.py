"""Positions for the search tests: a decision state some way into a seeded random game."""
from __future__ import annotations

import random

import eurosearch as es


def midgame(g: es.Game, seed: int, steps: int) -> es.State:
    """The decision state after `steps` random decisions (chance drawn with the seed) of a
    seeded game of `g`; the test needs one that is not over."""
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        while s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(32)))
        if s.is_terminal():
            break
        moves = s.legal_moves()
        s.apply(moves[rng.randrange(len(moves))])
    while s.is_chance():
        s.apply(s.sample_chance(rng.getrandbits(32)))
    assert not s.is_terminal()
    return s
