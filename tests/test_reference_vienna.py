"""Tests of the pure-Python Vienna reference (python/eurosearch/reference/vienna.py).

Worked examples follow shared/rules/vienna.md section 10. Examples 1-4 use the spec's fixture
board TB (built here from the bundled data with the street replaced); the others use the
bundled (provisional) data set. Every position is reached from the initial state by applying
chance outcomes and moves.
"""

from __future__ import annotations

import copy
import random

import pytest

from eurosearch.gamedata import read_file
from eurosearch.games import vienna_data
from eurosearch.games.vienna import ViennaOptions
from eurosearch.games.vienna_data import GEHEIMBUND
from eurosearch.reference.vienna import (
    PERSON_DECLINE, PLACE, ViennaRefState, ViennaReference, double_move, draft_move,
    gendarme_move, gloriette_move, krieau_move, nudge_move, person_move, place_move, prater_move,
    random_playout, reroll_move, reveal_move, roll_move, start_move, tiergarten_move,
)

DATA = vienna_data.load()


# ---------------------------------------------------------------- helpers

def counts(*faces: int) -> list[int]:
    c = [0] * 7
    for f in faces:
        c[f] += 1
    return c


def do(state: ViennaRefState, move: int) -> None:
    assert state.current_player() >= 0, state
    assert move in state.legal_moves(), (move, state)
    state.apply(move)


def roll(state: ViennaRefState, *faces: int, white: int = 0) -> float:
    """Apply the ROLL outcome with these faces; return its probability."""
    assert state.is_chance()
    move = roll_move(counts(*faces), white)
    probs = dict(state.chance_outcomes())
    assert move in probs
    state.apply(move)
    return probs[move]


def reveal_smallest(state: ViennaRefState) -> None:
    while state.is_chance() and state.node == "reveal":
        state.apply(min(o for o, _ in state.chance_outcomes()))


def place_ids(state: ViennaRefState) -> set[int]:
    return {m for m in state.legal_moves() if m & 0xF == PLACE}


def geheimbund(state: ViennaRefState) -> None:
    """Place two (else one) of the current player's dice on Geheimbund."""
    moves = [m for m in place_ids(state) if (m >> 4) & 0x1F == GEHEIMBUND]
    two = [m for m in moves if ((m >> 9) & 7 > 0) + ((m >> 12) & 7 > 0) + ((m >> 15) & 1) == 2]
    do(state, max(two or moves))


def tb_data() -> vienna_data.ViennaData:
    """Fixture board TB of spec section 10 (18 street fields); cards from the bundled data.

    Fields whose action TB leaves open (Secession, Heldenplatz, Burgtheater, Universitaet) are
    plain fields with no reward here.
    """
    raw = copy.deepcopy(read_file(vienna_data.DEFAULT_DATA))

    def fld(pos, fid, kind, accept=(), pair=False, **kw):
        return {"pos": pos, "id": fid, "name": fid, "accept": list(accept), "pair": pair,
                "kind": kind, "tag": "provisional", **kw}

    raw["board"]["fields"] = [
        fld(1, "krieau", "krieau", [1], vp=1, coins=1, choose_one=True),
        fld(2, "prater", "prater", [1]),
        fld(3, "secession", "gain", [2]),
        fld(4, "oper", "gain", [2], vp=1),
        fld(5, "naschmarkt", "gain", [3], coins=2),
        fld(6, "heldenplatz", "gain", [4]),
        fld(7, "burgtheater", "gain", [5]),
        fld(8, "rathaus", "gain", [5], pay=3, vp=3),
        fld(9, "universitaet", "gain", [5]),
        fld(10, "cafe_landtmann", "person", [6], cost=0),
        fld(11, "hofreitschule", "gain", [7], vp=2),
        fld(12, "gi_field", "special", [7], card="S4"),
        fld(13, "pestsaeule", "compare", [8], symbol="citizen"),
        fld(14, "stephansdom", "compare", [9], symbol="cross"),
        fld(15, "belvedere", "compare", [10], symbol="crown"),
        fld(16, "gloriette", "gloriette", [11], pay=1),
        fld(17, "tiergarten", "tiergarten", pair=True, steal_one=3, steal_two=1),
        fld(18, "heuriger", "heuriger", pair=True, vp_per_special=1),
    ]
    for sc in raw["cards"]["special"]:
        sc.pop("field", None)
        sc.pop("field_tag", None)
    return vienna_data.validate(raw, "<fixture TB>")


TB = tb_data()
TB_IDX = {f.id: f.index for f in TB.street}
D_IDX = {f.id: f.index for f in DATA.street}


def fixed(players: int, data=None, **opts) -> ViennaRefState:
    return ViennaReference(data or DATA, players, ViennaOptions(start_player=0, **opts)).initial_state()


# ---------------------------------------------------------------- whole games

def check_node(state: ViennaRefState) -> None:
    """Node invariants checked at every step of the random games."""
    cp = state.current_player()
    if state.is_terminal():
        assert cp == -2 and state.legal_moves() == [] and state.chance_outcomes() == []
    elif state.is_chance():
        outcomes = state.chance_outcomes()
        assert cp == -1 and state.legal_moves() == [] and outcomes
        assert len({o for o, _ in outcomes}) == len(outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) <= 1e-12
        assert all(p > 0 for _, p in outcomes)
    else:
        moves = state.legal_moves()
        assert 0 <= cp < state.ref.players and state.chance_outcomes() == []
        assert moves and len(set(moves)) == len(moves) and all(m > 0 for m in moves)


def play_checked(ref: ViennaReference, seed: int) -> ViennaRefState:
    rng = random.Random(seed)
    state = ref.initial_state()
    while True:
        check_node(state)
        if state.is_terminal():
            return state
        assert state.returns() == [0.0] * ref.players
        if state.is_chance():
            outcomes = state.chance_outcomes()
            move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(state.legal_moves())
        state.apply(move)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_reach_terminal(players):
    ref = ViennaReference(DATA, players)
    for seed in range(50):
        state = play_checked(ref, 1000 * players + seed)
        assert state.is_terminal()
        r = state.returns()
        assert abs(sum(r) - 1.0) < 1e-12 and max(r) > 0
        assert len(state.scores()) == players
        ended = max(state.scores()) >= 25 or state.round >= ref.options.max_rounds
        assert ended


@pytest.mark.parametrize("opts", [
    dict(carriage="furthest"), dict(modify_every_turn=False), dict(person_optional=True),
    dict(start_player=2, max_rounds=3),
])
def test_random_games_with_options(opts):
    for players in (3, 4, 5):
        ref = ViennaReference(DATA, players, ViennaOptions(**opts))
        for seed in range(4):
            assert play_checked(ref, seed).is_terminal()


def test_random_playout_deterministic():
    ref = ViennaReference(DATA, 4)
    a = random_playout(ref, random.Random(7))
    b = random_playout(ref, random.Random(7))
    assert a == b and a[1] > 0 and len(a[0]) == 4


def test_clone_is_independent():
    ref = ViennaReference(DATA, 3)
    rng = random.Random(3)
    state = ref.initial_state()
    for _ in range(200):
        if state.is_terminal():
            break
        twin = state.clone()
        snap = state.snapshot()
        moves = [o for o, _ in state.chance_outcomes()] or state.legal_moves()
        move = rng.choice(moves)
        state.apply(move)
        assert twin.snapshot() == snap
        twin.apply(move)
        assert twin.snapshot() == state.snapshot()


# ---------------------------------------------------------------- setup, draft, deck

def test_start_chance_and_draft_order():
    state = ViennaReference(DATA, 4).initial_state()
    assert state.is_chance() and state.current_player() == -1
    assert state.chance_outcomes() == [(start_move(p), float(1) / float(4)) for p in range(4)]
    state.apply(start_move(2))
    # Draft order right(sp), right(right(sp)), ..., sp last (spec 3.1 step 5).
    order = []
    for card in (0, 1, 2, 3):
        order.append(state.current_player())
        assert state.legal_moves() == [draft_move(c) for c in range(6) if c >= card]
        do(state, draft_move(card))
    assert order == [1, 0, 3, 2]
    assert [pl.coins for pl in state.players] == [3, 3, 2, 3]       # ST2, ST1, ST4, ST3 coins
    assert state.special_owner[0] == 2
    assert state.is_chance() and state.node == "reveal"


def test_duplicate_reveal_goes_to_known_queue():
    """T12: a revealed duplicate goes to the bottom (known queue); probabilities c/total."""
    state = fixed(4)
    for c in (0, 1, 2, 3):
        do(state, draft_move(c))
    probs = dict(state.chance_outcomes())
    assert probs[reveal_move(0)] == float(2) / float(44)
    state.apply(reveal_move(0))
    probs = dict(state.chance_outcomes())
    assert probs[reveal_move(0)] == float(1) / float(43)
    state.apply(reveal_move(0))                   # a second P01: to the queue, reveal again
    assert state.display == [0] and state.deck_queue == [0] and state.node == "reveal"
    assert dict(state.chance_outcomes())[reveal_move(1)] == float(2) / float(42)
    state.apply(reveal_move(1))
    state.apply(reveal_move(2))
    assert state.display == [0, 1, 2] and state.round == 1 and state.node == "roll"


def test_reshuffle_and_duplicates_only_stop():
    """VI-A34 / VI-A35 on a hand-prepared deck (white-box: the deck fields are set directly)."""
    state = fixed(3)
    for c in (0, 1, 2):
        do(state, draft_move(c))
    reveal_smallest(state)
    assert state.round == 1
    # VI-A34: deck empty -> the discard pile becomes the new unknown part.
    state.display, state.deck_queue = [], []
    state.deck_unknown = [0] * len(DATA.persons)
    state.discard = [0] * len(DATA.persons)
    state.discard[5], state.discard[7] = 2, 1
    state._refill_display()
    state._clear_cache()
    assert state.chance_outcomes() == [(reveal_move(5), 2 / 3), (reveal_move(7), 1 / 3)]
    state.apply(reveal_move(5))
    state.apply(reveal_move(5))                    # duplicate -> queue
    assert state.deck_queue == [5]
    assert state.chance_outcomes() == [(reveal_move(7), 1.0)]
    state.apply(reveal_move(7))
    assert state.display == [5, 7] and state.round == 2 and state.node == "roll"
    # VI-A35: only duplicates of the display remain -> stop with a short display.
    state.display, state.deck_queue = [3], [3]
    state.deck_unknown = [0] * len(DATA.persons)
    state.discard[9] = 4
    state._refill_display()
    assert state.display == [3] and state.node == "roll"


# ---------------------------------------------------------------- examples 1-3 (board TB)

def example_start(players: int = 4, **opts) -> ViennaRefState:
    """Tuende = seat 0 (start player, ST4 = 2 coins), Peter = 1, Moni = 2 (spec 10)."""
    state = fixed(players, TB, **opts)
    picks = {4: (0, 1, 2, 3), 3: (0, 1, 3)}[players]
    for c in picks:
        do(state, draft_move(c))
    reveal_smallest(state)
    return state


def test_examples_1_to_3():
    T = TB_IDX
    state = example_start()
    assert state.players[0].coins == 2 and state.current_player() == -1
    # T1: Tuende rolls {2,2,3,5}: probability 12/1296.
    assert roll(state, 2, 2, 3, 5) == float(12) / float(1296)
    assert place_move(T["secession"], 2) in state.legal_moves()
    assert place_move(T["secession"], 3) not in state.legal_moves()
    assert place_move(T["secession"], 2, 2) not in state.legal_moves()
    do(state, place_move(T["secession"], 2))
    assert state.players[0].hand == counts(2, 3, 5) and state.players[0].carriage == T["secession"]
    # T2: Peter -> Heldenplatz {4}; Moni -> Oper {2}; the fourth seat -> Geheimbund.
    roll(state, 4, 6, 6, 6)
    do(state, place_move(T["heldenplatz"], 4))
    roll(state, 2, 5, 6, 6)
    do(state, place_move(T["oper"], 2))
    roll(state, 6, 6, 6, 6)
    assert nudge_move(6, True) not in state.legal_moves()         # VI-A14: no wrap
    assert nudge_move(6, False) in state.legal_moves()
    geheimbund(state)
    # Tuende again: no new roll (4.2).
    assert state.current_player() == 0 and state.players[0].hand == counts(2, 3, 5)
    before_t3b = state.clone()
    do(state, place_move(T["rathaus"], 2, 3))
    assert state.players[0].hand == counts(5) and state.players[0].carriage == T["rathaus"]
    assert state.players[0].coins == 2
    # T2 negative: Oper is occupied for everyone.
    assert not any((m >> 4) & 0x1F == T["oper"] for m in place_ids(state))
    # T3: Peter -> Cafe Landtmann {6}; Moni -> Universitaet {5}.
    do(state, place_move(T["cafe_landtmann"], 6))
    do(state, place_move(T["universitaet"], 5))
    geheimbund(state)
    assert state.current_player() == 0
    assert place_ids(state) == {place_move(T["burgtheater"], 5), place_move(GEHEIMBUND, 5)}
    do(state, place_move(T["burgtheater"], 5))                    # bribe 1
    assert state.players[0].coins == 1 and state.players[0].carriage == T["burgtheater"]
    assert state.current_player() == 1                            # Tuende is skipped from now on

    # T3b: the same with 0 coins (spent on two nudges): only Geheimbund is left.
    state = before_t3b
    do(state, nudge_move(5, False))
    do(state, nudge_move(4, True))
    assert state.players[0].coins == 0 and state.players[0].hand == counts(2, 3, 5)
    do(state, place_move(T["rathaus"], 2, 3))
    do(state, place_move(T["cafe_landtmann"], 6))
    do(state, place_move(T["universitaet"], 5))
    geheimbund(state)
    assert state.legal_moves() == [place_move(GEHEIMBUND, 5)]
    do(state, place_move(GEHEIMBUND, 5))
    assert state.players[0].coins == 1


@pytest.mark.parametrize("carriage, coins_after", [("last", 1), ("furthest", 0)])
def test_example_3c_carriage_switch(carriage, coins_after):
    T = TB_IDX
    state = example_start(carriage=carriage)
    roll(state, 2, 3, 4, 5)
    do(state, place_move(T["rathaus"], 2, 3))
    for _ in range(3):
        roll(state, 6, 6, 6, 6)
        geheimbund(state)
    do(state, place_move(T["heldenplatz"], 4))                     # behind Rathaus: bribe
    assert state.players[0].coins == 1
    for _ in range(3):
        geheimbund(state)
    do(state, place_move(T["burgtheater"], 5))
    assert state.players[0].coins == coins_after


def test_modify_only_on_roll_turn():
    T = TB_IDX
    state = example_start(modify_every_turn=False)
    roll(state, 2, 2, 3, 5)
    assert reroll_move(counts(2)) in state.legal_moves()
    do(state, place_move(T["secession"], 2))
    for _ in range(3):
        roll(state, 6, 6, 6, 6)
        geheimbund(state)
    assert state.current_player() == 0
    assert set(state.legal_moves()) == place_ids(state)            # no modification offered


def test_reroll_is_a_chance_node():
    """T15: a nudge, then a reroll of one die (6 outcomes), each for 1 coin."""
    state = example_start()
    roll(state, 2, 6, 6, 1)
    do(state, nudge_move(6, False))
    assert state.players[0].hand == counts(1, 2, 5, 6) and state.players[0].coins == 1
    do(state, reroll_move(counts(2)))
    assert state.players[0].coins == 0 and state.current_player() == -1
    assert sorted(state.chance_outcomes()) == sorted(
        (roll_move(counts(f)), float(1) / float(6)) for f in range(1, 7))
    state.apply(roll_move(counts(4)))
    assert state.players[0].hand == counts(1, 4, 5, 6)
    assert not any(m & 0xF in (3, 4) for m in state.legal_moves())  # 0 coins: no modification


def test_prater():
    """T9: after Prater, turn one unplaced die to any face, or skip."""
    state = example_start()
    roll(state, 1, 5, 6, 6)
    do(state, place_move(TB_IDX["prater"], 1))
    expected = {prater_move()} | {prater_move(5, False, t) for t in (1, 2, 3, 4, 6)} | \
        {prater_move(6, False, t) for t in (1, 2, 3, 4, 5)}
    assert set(state.legal_moves()) == expected and state.current_player() == 0
    do(state, prater_move(5, False, 3))
    assert state.players[0].hand == counts(3, 6, 6)
    assert state.players[0].carriage == TB_IDX["prater"] and state.current_player() == -1


# ---------------------------------------------------------------- example 4 (board TB)

def example_4(gi_taken: bool, max_rounds: int = 100) -> ViennaRefState:
    """3 players: Tuende 0 (ST2: 1 cross), Peter 1 (ST3: 1 crown), Moni 2 (ST1: 1 citizen).

    Tuende occupies Stephansdom {4,5} and Gloriette {5,6}; Peter the GI field {3,4} or not.
    Returns the state at Tuende's Gloriette decision.
    """
    T = TB_IDX
    state = fixed(3, TB, max_rounds=max_rounds)
    for c in (0, 2, 1):                     # pickers Moni, Peter, Tuende
        do(state, draft_move(c))
    reveal_smallest(state)
    roll(state, 1, 4, 5, 5, 6)
    do(state, place_move(T["stephansdom"], 4, 5))
    roll(state, 3, 4, 6, 6, 6)
    do(state, place_move(T["gi_field"] if gi_taken else GEHEIMBUND, 3, 4))
    roll(state, 6, 6, 6, 6, 6)
    geheimbund(state)
    do(state, place_move(T["gloriette"], 5, 6))
    for _ in range(2):
        geheimbund(state)
    do(state, place_move(GEHEIMBUND, 1))
    geheimbund(state)
    geheimbund(state)
    assert state.current_player() == 0 and state.node == "gloriette"
    return state


def test_example_4_greater_influence_mid_evaluation():
    state = example_4(gi_taken=True)
    # Peter took S4 before Stephansdom: cross 1 = 1 tie (+1 VP), Moni 0 < 1 (+2 VP +1 coin).
    assert state.special_owner[3] == 1
    assert [pl.vp for pl in state.players] == [3, 0, 0]
    assert [pl.coins for pl in state.players] == [3 + 1 + 1, 3 + 3, 3 + 5]
    # T4c: Gloriette offers the symbols not yet evaluated: citizen and crown.
    assert state.legal_moves() == [gloriette_move(0), gloriette_move(2)]
    do(state, gloriette_move(2))            # crown: Peter 1 + 1 > 0 (nothing), Moni 0 = 0 (+1)
    assert [pl.vp for pl in state.players] == [4, 0, 0]
    assert state.players[0].coins == 4
    assert state.node == "reveal" and state.round == 1


def test_example_4b_without_greater_influence():
    state = example_4(gi_taken=False)
    assert state.special_owner[3] == -1
    assert state.players[0].vp == 4 and state.players[0].coins == 3 + 1 + 2


def test_example_4_final_scoring():
    """Game capped at one round: final majorities, coin conversion, winner (7.3)."""
    state = example_4(gi_taken=True, max_rounds=1)
    do(state, gloriette_move(2))
    assert state.is_terminal() and state.current_player() == -2
    # Symbols: Tuende (0,1,0); Peter (0,0,1) + GI (1,1,1); Moni (1,0,0).
    # Only Peter's crown 2 beats both neighbours: +1. Coins 4, 6, 8 -> +1, +2, +2 VP.
    assert state.scores() == [5.0, 3.0, 2.0]
    assert [pl.coins for pl in state.players] == [1, 0, 2]
    assert state.returns() == [1.0, 0.0, 0.0]
    with pytest.raises(ValueError):
        state.apply(gloriette_move(0))


# ---------------------------------------------------------------- T6/T7/T8/T11/T14 (bundled data)

def test_krieau_tiergarten_double_joker_white_die():
    F = D_IDX
    state = fixed(4)
    for c in (4, 3, 0, 1):                  # pickers 3, 2, 1, 0: ST5, ST4, ST1, ST2
        do(state, draft_move(c))
    assert [pl.coins for pl in state.players] == [3, 3, 2, 2]
    reveal_smallest(state)
    # Round 1.
    roll(state, 3, 3, 4, 4)
    do(state, place_move(F["hofburg"], 4, 4))
    roll(state, 2, 2, 6, 6)
    do(state, place_move(F["oper"], 2))
    roll(state, 3, 5, 6, 6)
    do(state, nudge_move(3, True))
    do(state, place_move(F["heldenplatz"], 4))
    roll(state, 1, 5, 5, 6)
    assert place_move(F["tiergarten"], 1, 5) not in state.legal_moves()   # no joker: no pair
    assert place_move(F["tiergarten"], 5, 5) in state.legal_moves()
    do(state, nudge_move(5, True))
    do(state, nudge_move(6, False))
    assert state.players[3].coins == 0 and state.players[3].hand == counts(1, 5, 5, 6)
    # T8: Krieau -> gendarme (every empty street field), then VP or coin.
    do(state, place_move(F["krieau"], 1))
    assert state.node == "gendarme" and state.current_player() == 3
    empty = [g for g in range(24) if g not in (F["krieau"], F["hofburg"], F["oper"], F["heldenplatz"])]
    assert state.legal_moves() == [gendarme_move(g) for g in empty]
    do(state, gendarme_move(F["gloriette"]))
    assert state.legal_moves() == [krieau_move(False), krieau_move(True)]
    do(state, krieau_move(False))
    assert state.players[3].vp == 3 + 1
    do(state, place_move(F["tiergarten"], 3, 3))
    assert not any((m >> 4) & 0x1F == F["gloriette"] for m in place_ids(state))
    do(state, place_move(F["secession"], 2))
    do(state, place_move(F["universitaet"], 5))
    do(state, place_move(F["cafe_landtmann"], 6))   # a paid person field; 0 coins: nothing
    assert state.current_player() == 1                            # seat 0 has no dice: skipped
    do(state, place_move(GEHEIMBUND, 6, 6))
    do(state, place_move(F["heuriger"], 6, 6))
    do(state, place_move(F["schoenbrunn"], 5, 5))
    # Evaluation reaches Tiergarten (Gloriette holds the gendarme). Coins: 3, 5, 1, 0.
    assert state.node == "tiergarten" and state.current_player() == 0
    assert [pl.coins for pl in state.players] == [3, 5, 1, 0]
    # T11: 7 maximal options, 5 distinct outcomes.
    assert state.legal_moves() == sorted({
        tiergarten_move([0, 0, 0, 0]), tiergarten_move([0, 3, 0, 0]),
        tiergarten_move([0, 0, 1, 0]), tiergarten_move([0, 1, 1, 0]),
        tiergarten_move([0, 1, 0, 0]),
    })
    do(state, tiergarten_move([0, 3, 0, 0]))
    assert [pl.coins for pl in state.players] == [6, 2, 1, 0]
    # Heuriger for seat 2, who took S2 and S3 this evaluation: +2 VP.
    assert state.special_owner == [1, 2, 2, 0, 3]
    assert [pl.vp for pl in state.players] == [3, 4, 5, 4]
    assert state.players[3].persons == [0] * len(DATA.persons)
    assert state.node == "reveal"
    # Round 2: S1 owner (seat 1) starts; the gendarme is off; seat 3 has the white die.
    reveal_smallest(state)
    assert state.round == 2 and state.gendarme == -1 and state.white_holder == 3
    assert state.actor == 1 and len(state.chance_outcomes()) == 126
    roll(state, 2, 3, 4, 5)
    do(state, place_move(GEHEIMBUND, 2, 3))
    # T14: seat 2 holds the Dice joker: its 1s are wild.
    roll(state, 1, 1, 4, 6)
    legal = set(state.legal_moves())
    for move in (place_move(F["stephansdom"], 1, 6), place_move(F["tiergarten"], 1, 4),
                 place_move(F["belvedere"], 1, 6), place_move(F["heldenplatz"], 1)):
        assert move in legal
    do(state, place_move(F["heldenplatz"], 1))
    # T7: Double move offer, an extra turn without a roll, then no more offers.
    assert state.legal_moves() == [double_move(False), double_move(True)]
    do(state, double_move(True))
    assert state.current_player() == 2 and state.node == "main"
    do(state, place_move(F["stephansdom"], 1, 6))
    assert state.double_used and state.current_player() == -1     # seat 3 rolls next
    # T6: the white die: 756 outcomes; never alone on a street field.
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 756 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert roll(state, 3, 4, 4, 6, white=3) == float(12) / float(7776)
    moves = state.legal_moves()
    alone = [m for m in moves if m & 0xF == PLACE and (m >> 15) & 1 and (m >> 9) & 7 == 0]
    assert alone == [place_move(GEHEIMBUND, 0, 0, True)]
    assert place_move(F["hofreitschule"], 4, 0, True) in moves      # white 3 + 4 = 7
    assert state.players[3].coins == 0 and all(m & 0xF == PLACE for m in moves)
    # With a coin (set directly on a copy), the white die can be nudged and rerolled alone.
    rich = state.clone()
    rich.players[3].coins = 1
    rich._clear_cache()
    assert nudge_move(3, True, True) in rich.legal_moves()
    do(rich, reroll_move(counts(), True))
    assert sorted(rich.chance_outcomes()) == [(roll_move(counts(), w), float(1) / float(6))
                                              for w in range(1, 7)]
    rich.apply(roll_move(counts(), 6))
    assert rich.white_face == 6 and rich.players[3].hand == counts(3, 4, 4, 6)
    do(state, place_move(F["hofreitschule"], 4, 0, True))
    assert state.white_placed and state.players[3].hand == counts(3, 4, 6)


def test_person_pick():
    """A person field takes one displayed card; with person_optional it may be declined."""
    F = D_IDX
    for optional in (False, True):
        state = fixed(3, person_optional=optional)
        for c in (0, 1, 2):
            do(state, draft_move(c))
        reveal_smallest(state)
        display = list(state.display)
        assert len(display) == 2
        roll(state, 6, 6, 6, 6, 6)
        do(state, place_move(F["cafe_landtmann"], 6))
        for _ in range(2):
            roll(state, 6, 6, 6, 6, 6)
            geheimbund(state)
        while state.node == "main":
            geheimbund(state)
        assert state.node == "person" and state.current_player() == 0
        expected = [person_move(t) for t in display] + ([PERSON_DECLINE] if optional else [])
        assert state.legal_moves() == sorted(expected)
        coins = state.players[0].coins
        do(state, person_move(display[1]))
        assert state.players[0].coins == coins - 1 and state.players[0].persons[display[1]] == 1


# ---------------------------------------------------------------- illegal moves

def test_illegal_moves_raise_and_leave_state_unchanged():
    state = example_start()
    positions = [state.clone()]                     # a ROLL chance node
    roll(state, 2, 2, 3, 5)
    positions.append(state.clone())                 # a main decision
    state2 = example_start()
    roll(state2, 1, 5, 6, 6)
    do(state2, place_move(TB_IDX["prater"], 1))
    positions.append(state2)                        # a Prater decision
    bad = [0, -1, 1 << 40, place_move(TB_IDX["secession"], 3), place_move(TB_IDX["oper"], 2, 2),
           nudge_move(6, True), roll_move(counts(1, 1, 1, 1, 1)), draft_move(0), 2.0, "2", None,
           True, prater_move(2, False, 2)]
    for pos in positions:
        legal = set(pos.legal_moves()) | {o for o, _ in pos.chance_outcomes()}
        for move in bad:
            if move in legal and isinstance(move, int) and not isinstance(move, bool):
                continue
            snap = pos.snapshot()
            with pytest.raises(ValueError):
                pos.apply(move)
            assert pos.snapshot() == snap
    # A decision id at a chance node, and a chance id at a decision node.
    chance, decision = positions[0], positions[1]
    for pos, move in ((chance, decision.legal_moves()[0]),
                      (decision, chance.chance_outcomes()[0][0])):
        snap = pos.snapshot()
        with pytest.raises(ValueError):
            pos.apply(move)
        assert pos.snapshot() == snap


def test_sample_chance_draws_outcomes_with_their_probabilities() -> None:
    """The reference's direct sampler (dice rolled, cards picked) matches chance_outcomes()."""
    state = ViennaReference(DATA, 3, ViennaOptions(start_player=0)).initial_state()
    while not (state.is_chance() and state.node != "reveal"):   # the first round roll
        if state.is_chance():
            state.apply(state.sample_chance(random.Random(0)))
        else:
            state.apply(state.legal_moves()[0])
    probs = dict(state.chance_outcomes())
    rng = random.Random(5)
    draws = 20000
    seen: dict[int, int] = {}
    for _ in range(draws):
        m = state.sample_chance(rng)
        assert m in probs
        seen[m] = seen.get(m, 0) + 1
    # the most likely 5-dice multisets (p = 120/7776) land within 5 standard deviations
    for m, p in probs.items():
        sd = (draws * p * (1 - p)) ** 0.5
        assert abs(seen.get(m, 0) - draws * p) <= 5 * sd + 1
