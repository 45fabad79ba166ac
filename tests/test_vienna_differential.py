"""The C core against the plain Python reference, step by step over seeded random games.

Both implement docs/vienna_engine.md independently; at every step they must agree on the
current player, the legal moves, the chance outcomes with their exact probabilities, and the
scores.
"""

from __future__ import annotations

import random

import pytest

import eurosearch as es
from eurosearch.reference.vienna import ViennaReference

OPTION_SETS = [
    {},
    {"carriage": "furthest"},
    {"modify_every_turn": False},
    {"person_optional": True, "start_player": 1},
]


def play_both(players: int, options: dict, seed: int) -> int:
    g = es.game("vienna", players=players, options=options)
    ref = ViennaReference(g.data, players, g.options).initial_state()
    s = g.initial_state()
    rng = random.Random(seed)
    steps = 0
    while True:
        cp = s.current_player
        assert cp == ref.current_player(), f"step {steps}: current player"
        assert s.scores() == ref.scores(), f"step {steps}: scores"
        if cp == es.TERMINAL:
            assert s.returns() == pytest.approx(ref.returns(), abs=0)
            return steps
        if cp == es.CHANCE:
            native = sorted(s.chance_outcomes())
            assert native == sorted(ref.chance_outcomes()), f"step {steps}: chance outcomes"
            move = s.sample_chance(rng.getrandbits(64))
        else:
            native = sorted(s.legal_moves())
            assert native == sorted(ref.legal_moves()), (
                f"step {steps}: legal moves differ: only native "
                f"{[s.move_to_str(m) for m in set(native) - set(ref.legal_moves())]}, only reference "
                f"{[s.move_to_str(m) for m in set(ref.legal_moves()) - set(native)]}"
            )
            move = rng.choice(native)
        s.apply(move)
        ref.apply(move)
        steps += 1


@pytest.mark.parametrize("seed", range(200))
def test_native_matches_reference(seed: int) -> None:
    players = 3 + seed % 3
    options = OPTION_SETS[(seed // 3) % len(OPTION_SETS)]
    steps = play_both(players, options, seed)
    assert steps > 50
