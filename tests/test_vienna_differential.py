"""The C core against the plain Python reference, step by step over seeded random games.

Both implement docs/vienna_engine.md independently; at every step they must agree on the
current player, the legal moves, the chance outcomes with their exact probabilities, and the
scores.
"""

from __future__ import annotations

import random

import pytest
from lockstep import play_both

import eurosearch as es
from eurosearch.reference.vienna import ViennaReference

OPTION_SETS = [
    {},
    {"carriage": "furthest"},
    {"modify_every_turn": False},
    {"person_optional": True, "start_player": 1},
]


def play(players: int, options: dict, seed: int) -> int:
    g = es.game("vienna", players=players, options=options)
    ref = ViennaReference(g.data, players, g.options).initial_state()
    return play_both(g.initial_state(), ref, random.Random(seed))


@pytest.mark.parametrize("seed", range(200))
def test_native_matches_reference(seed: int) -> None:
    players = 3 + seed % 3
    options = OPTION_SETS[(seed // 3) % len(OPTION_SETS)]
    steps = play(players, options, seed)
    assert steps > 50
