"""The C core against the plain Python reference for Oh My Goods!, step by step.

Both implement docs/oh_my_goods_engine.md independently; at every step they must agree on
the current player, the legal moves, the chance outcomes with their exact probabilities and
the scores.
"""

from __future__ import annotations

import random

import pytest
from lockstep import play_both

import eurosearch as es
from eurosearch.reference.oh_my_goods import OmgReference

OPTION_SETS = [
    {},
    {"final_round": "full_round"},
    {"phase1_redraw": "all_or_nothing", "start_player": 1},
    {"office_extra_card_stacks": True, "worker_leaves_after_production": True},
]


def play(players: int, options: dict, seed: int) -> int:
    g = es.game("oh_my_goods", players=players, options=options)
    ref = OmgReference(g.data, players, g.options).initial_state()
    return play_both(g.initial_state(), ref, random.Random(seed))


@pytest.mark.parametrize("seed", range(200))
def test_native_matches_reference(seed: int) -> None:
    players = 2 + seed % 3
    options = OPTION_SETS[(seed // 3) % len(OPTION_SETS)]
    assert play(players, options, seed) > 100
