"""Progressive widening in the C MCTS (es_mcts_config.widening, the agents' `widening=`):
a node visited N times has at most ceil(widening * sqrt(N + 1)) children, in both modes."""

from __future__ import annotations

import math
import random

import pytest

import eurosearch as es
from eurosearch import agents


def wide_position(name: str, players: int, seed: int = 2):
    """The decision node with the most legal moves met in one seeded random game."""
    s, rng, best = es.game(name, players=players).new_state(seed=1), random.Random(seed), None
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(32)))
            continue
        moves = s.legal_moves()
        if best is None or len(moves) > len(best.legal_moves()):
            best = s.clone()
        s.apply(rng.choice(moves))
    return best


@pytest.mark.parametrize("information_sets", [False, True])
def test_widening_bounds_the_children_of_the_root(information_sets):
    s = wide_position("vienna", 3)
    n = len(s.legal_moves())
    assert n > 100
    p = s.current_player
    plain = s.mcts(p, iterations=100, seed=4, rollout_depth=-1, information_sets=information_sets)
    assert len(plain[0]) == 100   # without widening every iteration tries a new root move
    for widening in (1.0, 2.0):
        moves, visits, _, _ = s.mcts(p, iterations=100, seed=4, rollout_depth=-1, widening=widening,
                                     information_sets=information_sets)
        # the last child was added at a root visit count of at most 99
        assert 1 < len(moves) <= math.ceil(widening * math.sqrt(100))
        assert sum(visits) == 100 and set(moves) <= set(s.legal_moves())


def test_widening_adds_the_move_the_evaluation_prefers():
    """A new child is the best by the evaluation among ES_WIDEN_SAMPLE (8) untried moves drawn at
    random: at a node with 2..8 legal moves, the root's first child is the best of them all."""
    s, rng = es.game("oh_my_goods", players=2).new_state(seed=3), random.Random(7)
    checked = 0
    while not s.is_terminal() and checked < 5:
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(32)))
            continue
        moves, p = s.legal_moves(), s.current_player
        if 2 <= len(moves) <= 8:
            def promise(m):
                child = s.clone()
                child.apply(m)
                v = child.returns() if child.is_terminal() else child.evaluate()
                return v[p] - max(v[q] for q in range(len(v)) if q != p)

            values = sorted((promise(m) for m in moves), reverse=True)
            if values[0] > values[1] + 1e-9:   # a unique best move
                found, _, _, _ = s.mcts(p, iterations=1, seed=checked, rollout_depth=-1, widening=0.5)
                assert len(found) == 1 and promise(found[0]) == values[0]
                checked += 1
        s.apply(rng.choice(moves))
    assert checked == 5


def test_widening_is_reproducible_and_validated():
    s = wide_position("vienna", 3)
    p = s.current_player
    a = s.mcts(p, iterations=300, seed=9, widening=1.5)
    b = s.mcts(p, iterations=300, seed=9, widening=1.5)
    assert a[:3] == b[:3]
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="widening"):
            s.mcts(p, iterations=10, widening=bad)
        with pytest.raises(ValueError, match="widening"):
            agents.MCTSAgent(iterations=10, widening=bad)
    with pytest.raises(ValueError, match="widening"):
        agents.make("mcts:widening=lots")
    agent = agents.make("mcts:iterations=50:widening=1:threads=1")
    assert agent.widening == 1.0 and agent.choose(s, p) in s.legal_moves()
