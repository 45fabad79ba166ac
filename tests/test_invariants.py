"""Property tests over whole random games: conservation laws and API invariants at every step.

Hypothesis draws the player count, the options and a seed; the seed drives which move index
and which chance outcome is taken at each node. The state is read through its JSON form
(field names of csrc/games/vienna.h).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eurosearch as es

# Phases of csrc/games/vienna.h
PH_START, PH_DRAFT, PH_REVEAL, PH_ROLL, PH_TURN = 1, 2, 3, 4, 5
PH_OVER = 13
DECK = 44
MAX_STEPS = 20000

OPTION_SETS = [
    {},
    {"carriage": "furthest"},
    {"modify_every_turn": False},
    {"person_optional": True},
    {"start_player": 0},
    {"max_rounds": 2},
    {"carriage": "furthest", "person_optional": True, "modify_every_turn": False, "max_rounds": 5},
]

_GAMES: dict = {}


def get_game(players: int, opt_index: int):
    key = (players, opt_index)
    if key not in _GAMES:
        _GAMES[key] = es.game("vienna", players=players, options=OPTION_SETS[opt_index] or None)
    return _GAMES[key]


def check_conservation(g, d: dict) -> None:
    n = g.players
    data = g.data
    k = 5 if n == 3 else 4
    copies = [c.copies for c in data.persons]
    T = len(copies)

    # --- the 44 person cards: deck + discard + queue + display + owned = copies, per type
    queue = d["queue"][: d["queue_len"]]
    assert all(x == 0 for x in d["queue"][d["queue_len"]:]), "stale queue entries"
    for t in range(len(d["deck"])):
        where = (d["deck"][t] + d["discard"][t] + queue.count(t) + ((d["display"] >> t) & 1)
                 + sum(d["owned"][p][t] for p in range(len(d["owned"]))))
        assert where == (copies[t] if t < T else 0), f"person type {t}: {where} copies, want {copies[t] if t < T else 0}"
    total = sum(d["deck"]) + sum(d["discard"]) + len(queue) + bin(d["display"]).count("1") + sum(map(sum, d["owned"]))
    assert total == DECK
    assert d["deck_total"] == sum(d["deck"]) and d["discard_total"] == sum(d["discard"])
    assert bin(d["display"]).count("1") <= n - 1

    # --- coloured dice per player: in hand + on the street + on Geheimbund + being rolled
    on_street = [0] * n
    for f, o in enumerate(d["occupant"]):
        if o >= 0:
            on_street[o] += d["field_dice"][f] & 3
        else:
            assert d["field_dice"][f] == 0
    for p in range(n):
        rolling = d["phase"] == PH_ROLL and d["actor"] == p
        dice = sum(d["hand"][p]) + on_street[p] + d["geheimbund"][p] + (d["roll_n"] if rolling else 0)
        rolled = (d["rolled"] >> p) & 1
        want = k if (rolled or rolling) else 0
        assert dice == want, f"player {p}: {dice} coloured dice, want {want}"
    # the white die: with its holder, once it has been rolled, in exactly one place
    h = d["white_holder"]
    if h >= 0 and (d["rolled"] >> h) & 1:
        places = (d["white_face"] != 0) + (d["white_placed"] != 0) + (d["phase"] == PH_ROLL and d["actor"] == h and d["roll_white"] == 1)
        assert places == 1, "white die in no place or in two"
    elif h < 0:
        assert d["white_face"] == 0 and d["white_placed"] == 0

    # --- symbols = starting card + owned persons (Greater influence is not in sym)
    for p in range(n):
        c = d["start_card"][p]
        for x in range(3):
            want = (data.starting[c].symbols[x] if c >= 0 else 0) + sum(
                d["owned"][p][t] * data.persons[t].symbols[x] for t in range(T))
            assert d["sym"][p][x] == want, f"player {p} symbol {x}: {d['sym'][p][x]}, want {want}"

    # --- money does not wrap around (uint16 underflow would show as ~65535)
    assert all(0 <= c < 1000 for c in d["coins"][:n]), d["coins"]
    assert all(0 <= v < 1000 for v in d["vp"][:n]), d["vp"]


def play_and_check(players: int, opt_index: int, seed: int, all_moves_every: int = 1) -> int:
    g = get_game(players, opt_index)
    max_rounds = g.options.max_rounds
    rng = random.Random(seed)
    s = g.initial_state()
    last_vp = None
    for step in range(MAX_STEPS):
        d = json.loads(s.to_json(format=1))["state"]
        check_conservation(g, d)
        assert d["round"] <= max_rounds
        vp = d["vp"][:players]
        assert s.scores() == [float(v) for v in vp]
        if last_vp is not None:
            assert all(a <= b for a, b in zip(last_vp, vp)), f"VP decreased: {last_vp} -> {vp}"
        last_vp = vp

        # serialization round-trips
        b = s.to_bytes()
        assert g.state_from_bytes(b) == s
        assert g.state_from_json(s.to_json()) == s

        if s.is_terminal():
            assert d["phase"] == PH_OVER
            assert abs(sum(s.returns()) - 1) < 1e-12
            assert s.legal_moves() == [] and s.chance_outcomes() == []
            return step
        assert s.returns() == [0.0] * players

        if s.is_chance():
            outcomes = [m for m, _ in s.chance_outcomes()]
            chosen = s.sample_chance(rng.getrandbits(64))
            assert chosen in outcomes
            # every outcome applies; at the big roll nodes a seeded sample of them
            check = outcomes if len(outcomes) <= 64 else rng.sample(outcomes, 64)
        else:
            moves = s.legal_moves()
            assert moves, "decision node without moves"
            assert len(set(moves)) == len(moves), "a move id appears twice"
            chosen = moves[rng.randrange(len(moves))]
            check = moves if step % all_moves_every == 0 else [chosen]
        for m in check:
            c = s.clone()
            c.apply(m)   # must not raise
        assert s.to_bytes() == b, "applying to clones changed the original"

        # a clone applies the same move to an equal result
        c = s.clone()
        c.apply(chosen)
        s.apply(chosen)
        assert c == s and c.to_bytes() == s.to_bytes() and c.hash() == s.hash()
    raise AssertionError(f"game did not end within {MAX_STEPS} steps")


PROPS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(players=st.sampled_from([3, 4, 5]), opt_index=st.integers(0, len(OPTION_SETS) - 1),
       seed=st.integers(0, 2**64 - 1))
def test_invariants_hold_over_random_games(players, opt_index, seed):
    steps = play_and_check(players, opt_index, seed, all_moves_every=3)
    assert steps > 10


def test_invariants_every_legal_move_of_a_full_game():
    """One game per player count where every legal move of every decision is applied."""
    for players in (3, 4, 5):
        assert play_and_check(players, 0, 12345 + players, all_moves_every=1) > 100


def test_rounds_cap_ends_the_game():
    g = get_game(4, OPTION_SETS.index({"max_rounds": 2}))
    for seed in range(5):
        rng = random.Random(seed)
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            if s.is_chance():
                s.apply(s.sample_chance(rng.getrandbits(64)))
            else:
                moves = s.legal_moves()
                s.apply(moves[rng.randrange(len(moves))])
        assert json.loads(s.to_json(format=1))["state"]["round"] <= 2


def test_the_checker_detects_broken_states():
    """The conservation checks are not vacuous: each corruption below must be caught."""
    import copy

    import pytest

    g = get_game(3, 0)
    rng = random.Random(3)
    s = g.new_state(seed=3)
    while json.loads(s.to_json(format=1))["state"]["phase"] != PH_TURN:
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
        else:
            s.apply(s.legal_moves()[0])
    good = json.loads(s.to_json(format=1))["state"]
    check_conservation(g, good)

    def corrupt(edit):
        d = copy.deepcopy(good)
        edit(d)
        with pytest.raises(AssertionError):
            check_conservation(g, d)

    corrupt(lambda d: d["deck"].__setitem__(0, d["deck"][0] + 1))
    corrupt(lambda d: d["owned"][1].__setitem__(3, 1))
    corrupt(lambda d: d["discard"].__setitem__(5, 1))
    corrupt(lambda d: d.__setitem__("display", d["display"] ^ (1 << 21)))
    corrupt(lambda d: d["hand"][good["actor"]].__setitem__(2, d["hand"][good["actor"]][2] + 1))
    corrupt(lambda d: d["geheimbund"].__setitem__(good["actor"], 1))
    corrupt(lambda d: d["sym"][0].__setitem__(1, d["sym"][0][1] + 1))
    corrupt(lambda d: d["coins"].__setitem__(2, 65535))
