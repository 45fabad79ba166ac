"""Playing the native engine and a plain-Python reference side by side (differential tests).

Both must agree at every step on the current player, the scores, the sorted legal moves, and
the sorted chance outcomes with their exact probabilities; the native engine picks the moves.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

import eurosearch as es

Chooser = Callable[[Sequence[int], random.Random], int]


def play_both(native, reference, rng: random.Random, choose: Chooser | None = None) -> int:
    """Play one game from these two initial states in lockstep; returns the number of steps.

    choose(legal moves, rng) picks each decision (default: uniformly at random)."""
    s, ref = native, reference
    steps = 0
    while True:
        cp = s.current_player
        assert cp == ref.current_player(), f"step {steps}: current player"
        assert s.scores() == ref.scores(), f"step {steps}: scores"
        if cp == es.TERMINAL:
            assert s.returns() == ref.returns(), "returns"
            return steps
        if cp == es.CHANCE:
            assert sorted(s.chance_outcomes()) == sorted(ref.chance_outcomes()), f"step {steps}: chance outcomes"
            move = s.sample_chance(rng.getrandbits(64))
        else:
            mine, theirs = sorted(s.legal_moves()), sorted(ref.legal_moves())
            assert mine == theirs, (
                f"step {steps}: legal moves differ: only native "
                f"{[s.move_to_str(m) for m in set(mine) - set(theirs)]}, only reference "
                f"{sorted(set(theirs) - set(mine))} (ids: not moves of the native state)"
            )
            move = choose(mine, rng) if choose else rng.choice(mine)
        s.apply(move)
        ref.apply(move)
        steps += 1
