"""The C core against the plain Python reference for Coal Baron, step by step.

Both implement docs/coal_baron_engine.md independently; at every step they must agree on the
current player, the legal moves, the chance outcomes with their exact probabilities, the scores
and (at the end) the returns. Uniformly random games rarely empty the tile stack, so a few games
are also played with a policy that favours the factory slots and money (deck exhaustion, empty
slots holding workers, coal shortage with an empty supply).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from lockstep import play_both

import eurosearch as es
from eurosearch.reference.coal_baron import (
    CARD_DECK, CHANCE_TYPES, DECISION_TYPES, MOVE_NAMES, PLACE, TILE_DECK, CoalBaronReference,
    move_type,
)

# Spread over every option: start_player fixed / None (CB-A20), second_tr_lo None / 4 (CB-A1),
# empty_carts_need_delivery True / False (CB-A2).
OPTION_SETS = [
    {},
    {"start_player": 1, "second_tr_lo": 4},
    {"empty_carts_need_delivery": False},
    {"start_player": 0, "second_tr_lo": 4, "empty_carts_need_delivery": False},
]


class Recorder:
    """Wraps a reference state for play_both and records what the game went through."""

    def __init__(self, state):
        self.state = state
        self.types: Counter[str] = Counter()
        self.events: set[str] = set()

    def __getattr__(self, name):
        return getattr(self.state, name)

    def apply(self, move: int) -> None:
        self.types[MOVE_NAMES[move_type(move)]] += 1
        self.state.apply(move)
        st = self.state
        for name in (TILE_DECK, CARD_DECK):
            if len(st.decks[name]) == 0:
                self.events.add(f"{name} deck empty")
        if any(t is None and st.count[s] > 0 for s, t in st.factory.items()):
            self.events.add("empty factory slot with workers")


def game(players: int, options: dict, seed: int):
    g = es.game("coal_baron", players=players, options=options)
    ref = CoalBaronReference(g.data, players, g.options).initial_state()
    return g.initial_state(), Recorder(ref)


def case(seed: int) -> tuple[int, dict]:
    return 2 + seed % 3, OPTION_SETS[(seed // 3) % len(OPTION_SETS)]


@pytest.mark.parametrize("seed", range(240))
def test_native_matches_reference(seed: int) -> None:
    players, options = case(seed)
    native, ref = game(players, options, seed)
    steps = play_both(native, ref, random.Random(seed))
    assert steps > 150 and ref.shift == 3 and ref.is_terminal()


def favour_factory_and_money(moves, rng: random.Random) -> int:
    """80% of placements go to a factory slot or a money space when one is legal (so that the
    tile stack runs out, which uniform play never does)."""
    favoured = [m for m in moves if move_type(m) == PLACE and ((m >> 5) <= 7 or 17 <= (m >> 5) <= 20)]
    return rng.choice(favoured if favoured and rng.random() < 0.8 else moves)


@pytest.mark.parametrize("seed", range(1000, 1024))
def test_native_matches_reference_factory_heavy(seed: int) -> None:
    players, options = case(seed)
    native, ref = game(players, options, seed)
    assert play_both(native, ref, random.Random(seed), favour_factory_and_money) > 80 and ref.shift == 3


def test_differential_is_not_vacuous() -> None:
    """Over a few seeds every move type and every chance-node type of the contract occurs, and
    the rare paths (deck exhaustion, emptied factory slots) are reached."""
    types: Counter[str] = Counter()
    events: set[str] = set()
    for seed in range(24):
        players, options = case(seed)
        native, ref = game(players, options, seed)
        play_both(native, ref, random.Random(seed))
        types.update(ref.types)
        events |= ref.events
    for seed in range(1000, 1012):
        players, options = case(seed)
        native, ref = game(players, options, seed)
        play_both(native, ref, random.Random(seed), favour_factory_and_money)
        types.update(ref.types)
        events |= ref.events
    missing = [MOVE_NAMES[t] for t in DECISION_TYPES + CHANCE_TYPES if types[MOVE_NAMES[t]] == 0]
    assert not missing, f"never played: {missing}"
    assert events >= {"tile deck empty", "card deck empty", "empty factory slot with workers"}, events
