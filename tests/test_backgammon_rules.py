"""Backgammon worked positions (docs/backgammon_engine.md) on the native engine and the reference,
and exact bear-off races solved by hand against es.solve.

Points in move texts are the mover's own numbering (x's point n is absolute point 24 - n);
positions are given in absolute points 0..23 (x moves up, o moves down).
"""

from __future__ import annotations

import json

import pytest

import eurosearch as es
from eurosearch.games.backgammon_data import load
from eurosearch.reference.backgammon import BAR, BackgammonReference

GAME = es.game("backgammon")


def position(x: dict[int, int], o: dict[int, int], dice: tuple[int, int], player: int = 0,
             x_bar: int = 0, o_bar: int = 0, double_half: int = 0):
    """A decision state: checkers per absolute point, the rest of the 15 borne off."""
    board = [[x.get(i, 0) for i in range(24)], [o.get(i, 0) for i in range(24)]]
    off = [15 - sum(board[0]) - x_bar, 15 - sum(board[1]) - o_bar]
    d = json.loads(GAME.initial_state().to_json())
    d["state"].update(board=board, bar=[x_bar, o_bar], off=off, turns=3, phase=3, player=player,
                      dice=sorted(dice), double_half=double_half)
    return GAME.state_from_json(json.dumps(d))


def reference_of(s):
    """The same position as a reference state (the reference counts pips per player)."""
    st = json.loads(s.to_json())["state"]
    r = BackgammonReference(load()).initial_state()
    r.pips = [[0] * 26 for _ in range(2)]
    for i in range(24):
        r.pips[0][24 - i] += st["board"][0][i]
        r.pips[1][i + 1] += st["board"][1][i]
    for p in (0, 1):
        r.pips[p][BAR], r.pips[p][0] = st["bar"][p], st["off"][p]
    r.stage, r.player, r.dice, r.second_half, r.turns = 3, st["player"], tuple(st["dice"]), bool(st["double_half"]), 3
    return r


def moves(s) -> set[str]:
    """The legal half-turns as text; the reference must list the same ids."""
    assert sorted(s.legal_moves()) == reference_of(s).legal_moves()
    return {s.move_to_str(m) for m in s.legal_moves()}


def test_entering_from_the_bar_comes_first():
    """x on the bar with 6-4; o holds x's entry point for the 6 (absolute 5): x enters with the
    4 (absolute 3 = x's 21-point), then plays the 6 with any checker."""
    s = position({0: 2, 11: 5, 16: 3, 18: 4}, {5: 5, 7: 3, 12: 5, 23: 2}, (6, 4), x_bar=1)
    got = moves(s)
    assert got and all(m.startswith("bar/21 ") for m in got)
    assert "bar/21 21/15" in got and "bar/21 13/7" in got


def test_both_entry_points_blocked_is_a_pass():
    s = position({0: 2, 11: 5, 16: 3, 18: 4}, {3: 2, 5: 5, 7: 3, 12: 3, 23: 2}, (6, 4), x_bar=1)
    assert moves(s) == {"pass"}
    s.apply(s.legal_moves()[0])
    assert s.current_player == es.CHANCE and json.loads(s.to_json())["state"]["player"] == 1


def test_hitting_a_blot_sends_it_to_the_bar():
    s = position({0: 2, 11: 5, 16: 3, 18: 5}, {5: 5, 7: 3, 12: 4, 14: 1, 23: 2}, (3, 1))
    m = s.str_to_move("13/10* 10/9")       # x's 13-point is absolute 11; o's blot on absolute 14
    s.apply(m)
    st = json.loads(s.to_json())["state"]
    assert st["bar"] == [0, 1] and st["board"][1][14] == 0 and st["board"][0][15] == 1


def test_both_dice_must_be_played_when_possible():
    """x's last checker on absolute 10 with 6-1; o holds 16 (10+6), so the 6 cannot be played
    first, but 1 then 6 (10 -> 11 -> 17) plays both: that is the only legal half-turn."""
    s = position({10: 1}, {16: 2, 0: 13}, (6, 1))
    assert moves(s) == {"14/13 13/7"}


def test_the_larger_die_when_only_one_can_be_played():
    """x's last checker on absolute 10 with 6-1: 16 and 11 are open, 17 is held, so either die
    alone can be played but not both: x must play the 6 (10 -> 16)."""
    s = position({10: 1}, {17: 2, 0: 13}, (6, 1))
    assert moves(s) == {"14/8"}


def test_bearing_off_with_a_higher_die():
    """All home on x's 3- and 2-points with 6-5: each die bears off the furthest checker."""
    assert moves(position({21: 1, 22: 1}, {0: 15}, (6, 5))) == {"3/off 2/off"}
    # 6-1 with checkers on x's 5- and 2-points: the 6 can bear off only the 5-point checker
    # (the furthest); the 1 moves one of them first, so two positions can result
    got = moves(position({19: 1, 22: 1}, {0: 15}, (6, 1)))
    assert got == {"2/1 5/off", "5/4 4/off"}   # one text per position: the smallest id


def test_a_double_is_two_half_turns():
    s = position({0: 2, 11: 5, 16: 3, 18: 5}, {5: 5, 7: 3, 12: 5, 23: 2}, (3, 3))
    s.apply(s.str_to_move("8/5 8/5"))
    assert s.current_player == 0           # the second half of 3-3
    s.apply(s.str_to_move("6/3 6/3"))
    assert s.current_player == es.CHANCE


# ---- exact bear-off races, worked out by hand from the dice

def o_bears_off_one_checker_from(point: int) -> float:
    """The chance that o's single checker on its `point` is borne off in one roll.

    A non-double a-b moves it a + b pips (either die may bear off from the furthest point); a
    double d-d is two half-turns of 2d pips each, 4d in all. Out of the 36 ordered rolls."""
    hits = sum(1 for a in range(1, 7) for b in range(1, 7) if (4 * a if a == b else a + b) >= point)
    return hits / 36


def test_one_checker_each_x_on_its_6_point_o_on_its_6_point():
    """x to play 2-1 with one checker on its 6-point; o has one on its 6-point.

    x's 3 pips leave it on its 3-point (6/5/3 or 6/4/3: one position). o then needs 6 pips:
    every roll but 1-1 (4 pips), 1-2, 2-1, 1-3, 3-1, 1-4, 4-1, 2-3, 3-2 (sums 3 to 5; 2-2 moves
    8) bears it off: 36 - 9 = 27 of 36. Otherwise x bears off from its 3-point with any roll
    (the smallest, 1-2, moves 3 pips). So x wins with 9/36 = 1/4."""
    assert o_bears_off_one_checker_from(6) == 27 / 36
    s = position({18: 1}, {5: 1}, (2, 1))
    res = es.solve(s, mode="open")
    assert res.solved and res.value == pytest.approx(1 - 27 / 36, abs=1e-12)


def test_x_on_its_2_and_2_points_o_on_its_4_point():
    """x to play 2-1 with two checkers on its 2-point; o has one checker on its 4-point.

    x must bear one off with the 2 and move the other 2/1 (the 2 cannot bear off the 1-point
    checker while one is on the 2-point): one checker left, on the 1-point. o needs 4 pips:
    only 1-2 and 2-1 fail (1-1 moves 4): 34 of 36. If o fails, x bears off with any roll.
    So x wins with 2/36 = 1/18."""
    assert o_bears_off_one_checker_from(4) == 34 / 36
    s = position({22: 2}, {3: 1}, (2, 1))
    assert moves(s) == {"2/1 2/off"}
    res = es.solve(s, mode="open")
    assert res.solved and res.value == pytest.approx(2 / 36, abs=1e-12)


def test_a_double_in_the_race():
    """x to play 1-1 (two half-turns of 2 pips) with one checker on its 6-point; o on its
    6-point. x reaches its 2-point; o bears off with 27/36 (as above); else x bears off
    (any roll moves 2 pips). x wins with 9/36, whatever it plays on the way."""
    s = position({18: 1}, {5: 1}, (1, 1))
    res = es.solve(s, mode="open")
    assert res.solved and res.value == pytest.approx(9 / 36, abs=1e-12)


def test_o_to_move_one_checker_each_on_the_1_points():
    """o to play any roll with a checker on its 1-point bears it off: a sure win for o."""
    s = position({23: 1}, {0: 1}, (4, 3), player=1)
    res = es.solve(s, mode="open")
    assert res.solved and res.value == 1.0
