"""Vienna positions one roll from the end: the exact solver against a hand calculation.

From the bulk-solving issue: "in Vienna, a position one roll from the end has the value a hand
calculation gives". Each position is the last turn of the final round (3 players, the default
data file python/eurosearch/data/vienna.toml): seats 1 and 2 have placed all their dice, seat
0 (P0) is to move, somebody already has 25 VP, so the game ends after this round's evaluation
(spec ``shared/rules/vienna.md`` 4.11 step 5, 7.3 step 1). P0 can settle for a sure result or
pay its only coin for a reroll (spec 4.3 (a), 5.2) and let the dice decide. The value of every
move is worked out below from the rules, with the arithmetic written out (faces, multiset
probabilities, tie-breaks), and compared with the solver's value to 1e-12.

Values are for the player to move (P0):
- objective "win": the game's return, 1/w for each of the w winners (7.3 step 4);
- objective "score": P0's final VP minus the best opponent's final VP.

How the positions are built: round 1 is played from the initial state with chosen rolls and
moves (start player fixed to seat 1, so that P0 acts last in each turn cycle and is alone
with dice at its third turn; P1 and P2 roll 6s and put everything on Geheimbund, which
resolves at once and leaves nothing to evaluate). Then VP, coins, special-card owners and the
round number are set by a JSON edit (as tests/test_vienna_rules.py does for T13), because a
25-VP end is out of reach of a short script.

Common to both positions:
- Starting cards (spec P3): P0 ST4 (citizen 1, cross 1), P1 ST5 (cross 1, crown 1), P2 ST6
  (citizen 1, crown 1). Every symbol's top count is shared by two players, so nobody has a
  final majority (7.3 step 2, VI-A31: strictly more than both neighbours; ties give 0).
- Display: P01 (1 citizen) and P05 (1 cross). Either card makes P0 the only player with 2 of
  that symbol: +1 VP at the end.
- P1 holds S1 (it started the round). No opponent has a decision left, so the values do not
  depend on how the solver breaks an opponent's ties.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod

import pytest

import eurosearch as es

S1, S2, S3 = 0, 1, 2          # special cards, engine order (docs/vienna_engine.md)


def solved_values(state: es.State, objective: str) -> dict[int, float]:
    """{move: exact value for the player to move}, from es.solve (open mode, to the end)."""
    r = es.solve(state, objective=objective, mode="open")
    assert r.solved, r
    out = dict(zip(r.moves, r.values))
    assert len(out) == len(r.moves)
    assert r.value == pytest.approx(max(r.values), abs=1e-12)
    return out


# ---------------------------------------------------------------- helpers

def multiset_p(*faces: int) -> Fraction:
    """Spec 5.1/5.2: a roll of k dice shows the multiset with face counts c_i with
    probability k! / (c_1! ... c_6!) / 6^k."""
    k = len(faces)
    return Fraction(factorial(k), prod(factorial(faces.count(f)) for f in range(1, 7)) * 6 ** k)


def step(s: es.State, text: str) -> None:
    s.apply(s.str_to_move(text))


def final_turn(p0_roll: str, p0_turns: tuple[str, str], *, vp, coins, specials) -> es.State:
    """P0 to move at its third turn of the round, P1 and P2 done; then the JSON edit."""
    g = es.game("vienna", players=3, options={"start_player": 1})
    s = g.initial_state()
    for card in ("ST4", "ST6", "ST5"):          # draft order right(sp) = P0, P2, then P1 (3.1 step 5)
        step(s, f"draft {card}")
    step(s, "reveal P01")
    step(s, "reveal P05")
    for text in ("roll 6,6,6,6,6", "place geheimbund 6+6",        # P1
                 "roll 6,6,6,6,6", "place geheimbund 6+6",        # P2
                 f"roll {p0_roll}", p0_turns[0],                 # P0
                 "place geheimbund 6+6", "place geheimbund 6+6",  # P1, P2
                 p0_turns[1],                                     # P0
                 "place geheimbund 6", "place geheimbund 6"):     # P1, P2: all placed
        step(s, text)
    doc = json.loads(s.to_json(format=1))
    doc["state"].update(vp=vp + [0, 0], coins=coins + [0, 0], special_owner=specials, round=7)
    s = g.state_from_json(json.dumps(doc))
    assert not s.is_chance() and s.current_player == 0
    state = json.loads(s.to_json(format=1))["state"]
    assert state["sym"][:3] == [[1, 1, 0], [0, 1, 1], [1, 0, 1]]
    assert sum(state["hand"][1]) == sum(state["hand"][2]) == 0
    return s


def check(s: es.State, objective: str, expected: dict[str, Fraction]) -> dict[str, float]:
    got = {s.move_to_str(m): v for m, v in solved_values(s, objective).items()}
    assert sorted(got) == sorted(expected)
    for text, value in expected.items():
        assert got[text] == pytest.approx(float(value), abs=1e-12), (objective, text, got[text], value)
    return got


# ---------------------------------------------------------------- position A: one die

def position_a() -> es.State:
    """P0: 24 VP, 1 coin, S2, one die showing 3, no carriage (its other 4 dice are on
    Geheimbund, which never moves the carriage, VI-A10), so no placement needs a bribe.
    P1: 25 VP, 0 coins, S1. P2: 25 VP, 0 coins, S3.

    P1 and P2 tie on 25 VP, 1 special card, 0 coins. P0 needs 25 VP: then the three tie on VP
    and cards and the coins left after the 3-for-1 conversion decide (VI-A33): P0 wins alone
    with a coin left, shares three ways (1/3 each) with none. 24 VP loses."""
    s = final_turn("3,6,6,6,6", ("place geheimbund 6+6", "place geheimbund 6+6"),
                   vp=[24, 25, 25], coins=[1, 0, 0], specials=[1, 0, 2, -1, -1])
    state = json.loads(s.to_json(format=1))["state"]
    assert state["hand"][0] == [0, 0, 1, 0, 0, 0] and state["carriage"][0] == -1
    return s


# Final results (P0's VP, coins left) by the field P0's last die ends on (spec 4.10.1, 2.6.2 and
# the data file; coins are converted 3 = 1 VP at the end, VI-A32):
#   Krieau 1 (take the VP)     +1 VP                 -> 25 VP, coins unchanged
#   Oper 2                     +1 VP                 -> 25 VP, coins unchanged
#   Naschmarkt 3               +2 coins              -> from 1 coin: 3 coins = 1 VP, 0 left: 25 VP
#                                                       from 0 coins: 2 coins, 24 VP
#   Parlament 4                +3 coins              -> from 0 coins: 3 coins = 1 VP, 0 left: 25 VP
#   Burgtheater 5              +1 VP +1 coin         -> from 0 coins: 25 VP, 1 coin left
#   unnamed_3 6 (last person field, free, VI-A21)    -> a person card, a final majority: 25 VP
# Worthless here: Secession 2/3 (takes S1 from P1, but P0 stays on 24 VP; then P2 has more
# cards than P1 and wins), Heldenplatz 4/5 (S2, already P0's: no change, VI-A37), Universitaet
# 5/6 (S3 from P2, 24 VP), Rathaus 5 (pay 3 with 0 coins: action lost, VI-A23), the paid person
# fields with 0 coins (4.10.2: nothing), Prater 1 (+1 coin, no die left to turn, VI-A19),
# Krieau's coin option, Geheimbund (+1 coin): all 24 VP.
THIRD = Fraction(1, 3)
A_WIN = {
    # keep the coin, no modification (1 coin left)
    "place naschmarkt 3": THIRD,      # 1 + 2 = 3 coins -> 25 VP, 0 left: three-way tie (VI-A33;
                                      # comparing coins before conversion would give P0 a win)
    "place secession 3": Fraction(0),  # 24 VP
    "place geheimbund 3": Fraction(0),  # 24 VP, 2 coins
    # nudge (spec 4.3 (b)): pay the coin, die 3 -> 2 or 4, then 0 coins
    "nudge 3->2": THIRD,              # Oper: 25 VP, 0 coins -> tie of three
    "nudge 3->4": THIRD,              # Parlament: 3 coins -> 25 VP, 0 left -> tie of three
    # reroll (spec 4.3 (a), 5.2): pay the coin, then each face with probability 1!/1!/6 = 1/6
    "reroll 3": multiset_p(1) * THIRD           # 1: Krieau, take the VP: 25 VP, 0 coins: tie
              + multiset_p(2) * THIRD           # 2: Oper: 25 VP, 0 coins: tie
              + multiset_p(3) * 0               # 3: Naschmarkt: 2 coins, 24 VP: lost
              + multiset_p(4) * THIRD           # 4: Parlament: 3 coins = 1 VP, 0 left: tie
              + multiset_p(5) * 1               # 5: Burgtheater: 25 VP and 1 coin left: P0 alone
              + multiset_p(6) * THIRD,          # 6: free person card, final majority: tie
}
assert A_WIN["reroll 3"] == Fraction(7, 18)     # > 1/3: the gamble is the best move

# Score: margin over the best opponent (25). 25 VP -> 0, 24 VP -> -1.
A_SCORE = {
    "place naschmarkt 3": Fraction(0),
    "place secession 3": Fraction(-1),
    "place geheimbund 3": Fraction(-1),
    "nudge 3->2": Fraction(0),
    "nudge 3->4": Fraction(0),
    "reroll 3": sum(multiset_p(f) * (-1 if f == 3 else 0) for f in range(1, 7)),   # only a 3 misses 25
}
assert A_SCORE["reroll 3"] == Fraction(-1, 6)   # here the sure 25 is better


@pytest.mark.parametrize("objective, expected, best", [
    ("win", A_WIN, "reroll 3"),
    ("score", A_SCORE, None),                   # three moves share the top value 0
])
def test_one_die_reroll_against_a_three_way_tie(objective, expected, best):
    """Position A: a sure three-way shared win (1/3) against a reroll that wins alone on a 5
    (Burgtheater's coin breaks the tie, 7.3 step 4, VI-A33)."""
    s = position_a()
    got = check(s, objective, expected)
    if best is not None:
        assert max(got, key=got.get) == best


# ---------------------------------------------------------------- position B: two dice

def position_b() -> es.State:
    """P0: 20 VP, 1 coin, S2; dice {1, 4}; carriage on Hofreitschule (its 3+4 this round,
    +2 VP at the evaluation, so 22 VP; one more die is on Geheimbund).
    P1: 25 VP, 0 coins, S1. P2: 12 VP, 0 coins, no card: out of the race.

    P0 wins with 25 VP and a coin left (P1 has 25 VP, 1 card, 0 coins), loses below 25."""
    s = final_turn("1,3,4,4,6", ("place hofreitschule 3+4", "place geheimbund 6"),
                   vp=[20, 25, 12], coins=[1, 0, 0], specials=[1, 0, -1, -1, -1])
    state = json.loads(s.to_json(format=1))["state"]
    assert state["hand"][0] == [1, 0, 0, 1, 0, 0]
    assert state["carriage"][0] == s.game.data.field_index("hofreitschule")
    return s


# P0's fields ahead of Hofreitschule (pos 16) need two dice: Hofburg 7/8, Pestsaeule 8,
# Stephansdom 9, Belvedere 10, Schoenbrunn 10/11, Gloriette 12, Tiergarten and Heuriger (pairs).
# For two dice {a, b} placed together there (spec 4.10):
#   a + b = 8: Pestsaeule, citizen (VI-A25): P0 1 vs P1 0 -> majority 2 VP + 1 coin; vs P2 1 ->
#              tie 1 VP (4.10.5, VI-A24): +3 VP +1 coin -> 25 VP, 1 coin: P0 wins.
#   a + b = 9: Stephansdom, cross: vs P1 1 tie 1 VP, vs P2 0 majority 2 VP + 1 coin: the same.
#   a + b = 7: Hofburg takes S4 (+1 of each symbol, spec P6): P0 2/2/1 has the citizen and the
#              cross majority at the end (VI-A31): +2 VP -> 24.
#   pairs:     Heuriger +1 VP per special card (S2 only, VI-A30) -> 23; Tiergarten: nobody has a
#              coin to take (VI-A29).
#   10, 11:    Schoenbrunn (S5, a card, no VP), Belvedere (crown 0 < 1, 1: nothing) -> 22.
#   12:        Gloriette needs 1 coin (VI-A27); {6,6} is a pair anyway -> 23.
# After the coin is spent on a modification, the two dice either go together on one of those
# fields, or one goes to Geheimbund first. Geheimbund pays its coin at once (4.6.3) and moves
# no carriage, and a coin allows, at the start of P0's next turn (VI-A12), one more
# modification or one bribe (VI-A9) to put the other die on a field behind the carriage. A
# single die is worth at most +1 VP anywhere (Krieau, Oper, Burgtheater; Parlament's 3 coins =
# 1 VP; a person card = one final majority), so that line ends on 23 VP.
# Final VP by the dice after the modification: 8 or 9 -> 25 (win), 7 -> 24, anything else -> 23.


def win_after_coin_spent(a: int, b: int) -> int:
    return 1 if a + b in (8, 9) else 0


def margin_after_coin_spent(a: int, b: int) -> int:
    """Final VP minus P1's 25."""
    return {8: 0, 9: 0, 7: -1}.get(a + b, -2)


def kept_and_rerolled(kept: int, value) -> Fraction:
    """Reroll one die (spec 5.2, j = 1: each face 1/6), keep the other."""
    return sum(multiset_p(f) * value(kept, f) for f in range(1, 7))


def both_rerolled(value) -> Fraction:
    """Reroll both dice: the 21 multisets {a <= b} with P = 2!/(c_a! c_b!)/36 (1/36 for a
    pair, 2/36 otherwise)."""
    return sum(multiset_p(a, b) * value(a, b) for a, b in combinations_with_replacement(range(1, 7), 2))


# Keeping the coin (PLACE now, possibly with a bribe, VI-A8 / VI-A9): P0 needs +3 VP on top of
# 22 but every line is at most two single-die placements worth +1 VP each (Prater turns the
# other die to any face, VI-A19, but it stays a single die), or 1 + 4 = 5 on one field (at most
# Burgtheater's +1 VP). The best is 24: Krieau taking the VP, then the 4 on Parlament. All lose.
PLACES = ["place krieau 1", "place prater 1", "place geheimbund 1", "place geheimbund 4",
          "place geheimbund 1+4", "place burgtheater 1+4", "place parlament 4",
          "place heldenplatz 4", "place heldenplatz 1+4", "place rathaus 1+4",
          "place universitaet 1+4"]
B_WIN = {
    **{text: Fraction(0) for text in PLACES},
    # nudges (VI-A14: the 1 cannot go down): {2,4}, {1,5}, {1,3} -> sums 6, 6, 4: lost
    "nudge 1->2": Fraction(win_after_coin_spent(2, 4)),
    "nudge 4->5": Fraction(win_after_coin_spent(1, 5)),
    "nudge 4->3": Fraction(win_after_coin_spent(1, 3)),
    # keep the 4, reroll the 1: a 4 or a 5 wins ({4,4} Pestsaeule, {4,5} Stephansdom): 2/6
    "reroll 1": kept_and_rerolled(4, win_after_coin_spent),
    # keep the 1, reroll the 4: 1 + 6 = 7 at most: never
    "reroll 4": kept_and_rerolled(1, win_after_coin_spent),
    # both (VI-A15): sum 8 {2,6} {3,5} {4,4} and sum 9 {3,6} {4,5}: 2 + 2 + 1 + 2 + 2 = 9 of 36
    "reroll 1,4": both_rerolled(win_after_coin_spent),
}
assert B_WIN["reroll 1"] == Fraction(1, 3)
assert B_WIN["reroll 4"] == 0
assert B_WIN["reroll 1,4"] == (multiset_p(2, 6) + multiset_p(3, 5) + multiset_p(4, 4)
                               + multiset_p(3, 6) + multiset_p(4, 5)) == Fraction(1, 4)

B_SCORE = {
    # margin over P1's 25 (P2 ends on 12)
    "place krieau 1": Fraction(-1),          # bribe; take the VP (23); the 4 on Parlament: 3 coins = 1 VP: 24
    "place prater 1": Fraction(-2),          # bribe, Prater +1 coin; the other die, turned, is one die: 23
    "place geheimbund 1": Fraction(-2),      # 2 coins; the 4 bribed to Parlament (or nudged to Burgtheater): 23
    "place geheimbund 4": Fraction(-2),      # 2 coins; the 1 bribed to Krieau, take the VP: 23
    "place geheimbund 1+4": Fraction(-2),    # 1 + 2 = 3 coins = 1 VP: 23
    "place burgtheater 1+4": Fraction(-2),   # bribe; +1 VP +1 coin: 23
    "place parlament 4": Fraction(-2),       # bribe (0 coins); the 1 has no field ahead and no bribe:
                                             # Geheimbund; 3 + 1 = 4 coins = 1 VP: 23
    "place heldenplatz 4": Fraction(-3),     # S2 already held (VI-A37); the 1 to Geheimbund: 22
    "place heldenplatz 1+4": Fraction(-3),   # the same: 22
    "place rathaus 1+4": Fraction(-3),       # 0 coins after the bribe: pay 3 impossible, action lost (VI-A23)
    "place universitaet 1+4": Fraction(-3),  # S3: a card, no VP: 22
    "nudge 1->2": Fraction(margin_after_coin_spent(2, 4)),
    "nudge 4->5": Fraction(margin_after_coin_spent(1, 5)),
    "nudge 4->3": Fraction(margin_after_coin_spent(1, 3)),
    # 1: {1,4} -2, 2: {2,4} -2, 3: {3,4} -1, 4: {4,4} 0, 5: {4,5} 0, 6: {4,6} -2
    "reroll 1": kept_and_rerolled(4, margin_after_coin_spent),
    # 1: {1,1} -2, 2..5: -2, 6: {1,6} -1
    "reroll 4": kept_and_rerolled(1, margin_after_coin_spent),
    # 9/36 at 0, sum 7 ({1,6} {2,5} {3,4}) 6/36 at -1, the other 21/36 at -2
    "reroll 1,4": both_rerolled(margin_after_coin_spent),
}
assert B_SCORE["nudge 1->2"] == B_SCORE["nudge 4->5"] == B_SCORE["nudge 4->3"] == -2
assert B_SCORE["reroll 1"] == Fraction(-7, 6)
assert B_SCORE["reroll 4"] == Fraction(-11, 6)
assert B_SCORE["reroll 1,4"] == Fraction(-6 - 42, 36) == Fraction(-4, 3)


@pytest.mark.parametrize("objective, expected, best", [
    ("win", B_WIN, "reroll 1"),
    ("score", B_SCORE, "place krieau 1"),
])
def test_two_dice_reroll_one_or_both(objective, expected, best):
    """Position B: nothing wins without a reroll; rerolling the 1 (a 4 or 5 comes up: 1/3)
    beats rerolling both (sum 8 or 9: 9/36) and rerolling the 4 (never). For the margin, the
    sure 24 (Krieau, Parlament) beats every gamble."""
    s = position_b()
    got = check(s, objective, expected)
    assert max(got, key=got.get) == best


def test_the_rerolls_of_position_b_have_multiset_probabilities():
    """The chance nodes behind B's rerolls are the ones the hand calculation uses (5.2)."""
    for text, dice in (("reroll 1,4", 2), ("reroll 1", 1)):
        s = position_b()
        step(s, text)
        assert s.is_chance()
        outcomes = s.chance_outcomes()
        assert len(outcomes) == {1: 6, 2: 21}[dice]
        for move, p in outcomes:
            faces = tuple(int(f) for f in s.move_to_str(move).split()[1].split(","))
            assert len(faces) == dice
            assert p == pytest.approx(float(multiset_p(*faces)), abs=1e-15)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
