"""State.random_move: the move a native random playout takes, without building the list.

A game may draw it from a compact description of its moves (Vienna does in a turn, where the
list is often a hundred rerolls and placements); the contract is that it is exactly
legal_moves()[k] for k the generator's first draw below len(legal_moves()), so that random play
is the same with or without the shortcut.
"""

from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch import _native


@pytest.mark.parametrize("game, players", [("vienna", 3), ("vienna", 4), ("vienna", 5), ("oh_my_goods", 2),
                                           ("oh_my_goods", 4), ("coal_baron", 2), ("coal_baron", 4),
                                           ("wolsung", 2), ("wolsung", 3), ("wolsung", 4), ("bruges", 2), ("bruges", 4)])
def test_random_move_is_the_listed_move_at_the_drawn_index(game, players):
    g = es.game(game, players=players)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            if s.is_chance():
                s.apply(s.sample_chance(rng.getrandbits(63)))
                continue
            moves = s.legal_moves()
            for draw_seed in (rng.getrandbits(64), rng.getrandbits(64)):
                assert s.random_move(draw_seed) == moves[_native.rng_below(draw_seed, len(moves))], s.to_json()
            checked += 1
            s.apply(rng.choice(moves))
    assert checked > 100


def test_every_vienna_turn_move_can_be_drawn():
    """Over many seeds the shortcut reaches every listed move of a turn (rerolls, nudges, each
    field of each dice choice, Geheimbund), and nothing else."""
    g = es.game("vienna", players=3)
    rng = random.Random(11)
    s = g.new_state(seed=11)
    while s.is_chance() or len(s.legal_moves()) < 40:
        s.apply(s.sample_chance(rng.getrandbits(63)) if s.is_chance() else rng.choice(s.legal_moves()))
    moves = s.legal_moves()
    drawn = {s.random_move(seed) for seed in range(40 * len(moves))}
    assert drawn == set(moves)


def test_random_move_refuses_chance_and_terminal_nodes():
    s = es.game("vienna", players=3).initial_state()
    assert s.is_chance()
    with pytest.raises(ValueError, match="decision node"):
        s.random_move(1)
    with pytest.raises(ValueError):
        _native.rng_below(1, 0)
