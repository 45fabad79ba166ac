"""The C core against the plain Python reference for Oh My Goods!, step by step.

Both implement docs/oh_my_goods_engine.md independently; at every step they must agree on
the current player, the legal moves, the chance outcomes with their exact probabilities and
the scores.
"""

from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch.reference.oh_my_goods import OmgReference

OPTION_SETS = [
    {},
    {"final_round": "full_round"},
    {"phase1_redraw": "all_or_nothing", "start_player": 1},
    {"office_extra_card_stacks": True, "worker_leaves_after_production": False},
]


def play_both(players: int, options: dict, seed: int) -> int:
    g = es.game("oh_my_goods", players=players, options=options)
    ref = OmgReference(g.data, players, g.options).initial_state()
    s = g.initial_state()
    rng = random.Random(seed)
    steps = 0
    while True:
        cp = s.current_player
        assert cp == ref.current_player(), f"step {steps}: current player"
        assert s.scores() == ref.scores(), f"step {steps}: scores"
        if cp == es.TERMINAL:
            assert s.returns() == ref.returns()
            return steps
        if cp == es.CHANCE:
            native = sorted(s.chance_outcomes())
            assert native == sorted(ref.chance_outcomes()), f"step {steps}: chance outcomes"
            move = s.sample_chance(rng.getrandbits(64))
        else:
            native = sorted(s.legal_moves())
            theirs = sorted(ref.legal_moves())
            assert native == theirs, (
                f"step {steps}: legal moves differ: only native "
                f"{[s.move_to_str(m) for m in set(native) - set(theirs)]}, only reference "
                f"{[s.move_to_str(m) for m in set(theirs) - set(native)]}"
            )
            move = rng.choice(native)
        s.apply(move)
        ref.apply(move)
        steps += 1


@pytest.mark.parametrize("seed", range(200))
def test_native_matches_reference(seed: int) -> None:
    players = 2 + seed % 3
    options = OPTION_SETS[(seed // 3) % len(OPTION_SETS)]
    assert play_both(players, options, seed) > 100
