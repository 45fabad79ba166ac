"""The worked examples of the Bruges spec (shared/rules/bruges.md §10, T1-T30) on the ENGINE.

Positions are engine states built through the public JSON (tests/bruges_positions.py:
Position clears a reached state and places the cards the example needs; state_from_json runs
the engine's validator on it), then the example's moves and chance outcomes are applied through
the public interface. Every BR-A id is named in the test that pins it. The plain-Python
reference has the same examples in test_reference_bruges.py. Provisional person set throughout
(spec "Provisional person set"; BR-A1). BR-A23 and BR-A27 are pinned in test_bruges_hidden.py
too; BR-A34 (typos) has no rule of its own beyond T19 (BR-A20) and T15 (BR-A5).
"""

from __future__ import annotations

import random

import pytest
from bruges_positions import (
    A_CANAL0, A_CANAL1, A_HOUSE, A_MONEY, A_RECRUIT, A_THREAT, A_WORKERS, ACTIVATE, BLUE, BROWN, CARD,
    DATA, DRAW, DRAW_STOP, END_TURN, F_PUBLIC, F_ROTATED, FIRE_CANAL, FIRE_HOUSE, JAILER, ORDER, PH_DICE,
    PH_DISASTER, PH_DRAW, PH_OVER, PH_REP, PH_REVEAL, PH_TURN, PLAGUE, PURPLE, RED, REP, TOP, YELLOW,
    Z_DISCARD, Z_HAND, Z_HOUSE, Z_PERSON, Z_POOL, Position, fields, mv, play_move, reach, roll, step,
    t20_persons,
)

import eurosearch as es
from eurosearch.views import view

pytestmark = pytest.mark.provisional

CANAL = DATA.canal_colour          # [tower][section][space]


def legal(s) -> set[int]:
    return set(s.legal_moves())


def kinds(s) -> set[int]:
    return {m & 15 for m in s.legal_moves()}


def filler(pos: Position, taken=()) -> int:
    """A plain (Citizen-type, cost 0) card still in the piles."""
    return pos.fresh_card("none", cost=0, taken=taken)


def busy(pos: Position, *seats: int) -> Position:
    """Give these seats a card each, so the round stops at their turn instead of running on
    through phase 4 (players with empty hands pass, BR-A24)."""
    for p in seats:
        pos.hand(p, pos.any_card())
    return pos


def final_vp(pos: Position) -> list[float]:
    """The final scores of this position taken as the end of the game (spec §7.2)."""
    s = pos.at(PH_OVER).state()
    assert s.is_terminal()
    return s.scores()


def after_phase4(pos: Position, p: int = 0):
    """Run phase 4 (spec §4.7): p plays a filler card for money as the round's last turn."""
    c = filler(pos)
    s = pos.last_turn(p).hand(p, c).state()
    s.apply(play_move(c, A_MONEY))
    return s


# ---------------------------------------------------------------- setup (T29), phase 2 (T1, T2, T21-T25)

@pytest.mark.parametrize("n, piles, extra_size", [(2, [33, 33], 99), (3, [50, 49], 66), (4, [66, 66], 33)])
def test_t29_setup_sizes_br_a13(n, piles, extra_size):
    """T29; BR-A13 (three players: pile A 50, pile B 49); BR-A32 (the extra pile shows no top)."""
    s = es.game("bruges", players=n).initial_state()
    assert [m & 15 for m, _ in s.chance_outcomes()] == [12] * n     # START, 1/n each
    s.apply(s.chance_outcomes()[0][0])
    s.apply(s.chance_outcomes()[0][0])                             # TOP of pile A
    s.apply(s.chance_outcomes()[0][0])                             # TOP of pile B
    f = fields(s)
    assert f["size"] == piles and f["extra_size"] == extra_size and not f["extra_entered"]
    assert f["phase"] == PH_DRAW and f["round"] == 1 and f["statues_taken"] == 0 and DATA.statues[0] == 7
    for p in range(n):
        assert (f["score"][p], f["rep"][p], f["money"][p], f["workers"][p], f["threats"][p], f["canal"][p],
                f["markers"][p]) == (5, 0, 5, [1] * 5, [0] * 5, [0, 0], 0)
    assert all(z == 0 for z in f["zone"])                          # nobody holds a card
    assert s.scores() == [5.0] * n
    extra = next(it for it in view(s, 0)["board"][0]["items"] if it["label"] == "extra pile")
    assert "top" not in extra["props"] and extra["props"]["cards"] == extra_size   # BR-A32


def test_br_a11_no_complete_set_of_markers_outside_phase_2():
    """BR-A11: a disaster resolves as soon as the 3rd marker arrives, so no state holds 3
    markers of a colour outside the phase-2 disaster step; the engine refuses such a state.
    (No effect of the catalogue hands out markers, so the bundled data never reaches it.)"""
    pos = Position.turn(2)
    pos.hand(0, filler(pos))
    pos.f["threats"][1][RED] = 3
    with pytest.raises(es.StateFormatError, match="3 threat markers outside phase 2"):
        pos.state()
    pos.f["threats"][1][RED] = 2
    pos.state()


def test_t1_threat_distribution():
    """T1: red 5 and yellow 6 give every player, the start player included, +1 red and +1 yellow."""
    s = Position.turn(4).at(PH_DICE).state()
    roll(s, [1, 3, 6, 5, 4])
    assert fields(s)["threats"] == [[0, 0, 1, 1, 0]] * 4


def test_t2_reputation_cost_and_offer_br_a30():
    """T2: purple 1 + blue 2 -> R = 3; paying moves the pawn from the town hall to space 1;
    a player with fewer guilders than R is not offered REP. BR-A30: the dice come after the
    phase-1 drawing (the roll is reached from the refill, tested in the flow test below)."""
    pos = Position.turn(4).at(PH_DICE)
    pos.seats("money", [5, 2, 5, 5])
    s = pos.state()
    roll(s, [2, 3, 4, 3, 1])
    assert s.current_player == 0 and legal(s) == {mv(REP, 0), mv(REP, 1)}
    s.apply(mv(REP, 1))
    f = fields(s)
    assert f["money"][0] == 2 and f["rep"][0] == 1
    assert s.current_player == 2                                   # seat 1 (2 guilders) skipped


@pytest.mark.parametrize("faces, cost", [([3, 4, 5, 6, 3], None), ([1, 1, 2, 2, 2], 8), ([2, 2, 2, 2, 2], 10)])
def test_t2_variants(faces, cost):
    pos = Position.turn(2).at(PH_DICE)
    pos.seats("money", [20, 20])
    s = pos.state()
    roll(s, faces)
    if cost is None:                                               # no die shows 1 or 2: nobody may advance
        assert fields(s)["phase"] != PH_REP
        return
    s.apply(mv(REP, 1))
    assert fields(s)["money"][0] == 20 - cost and fields(s)["rep"][0] == 1


def test_br_a2_no_advance_past_the_last_reputation_space():
    pos = Position.turn(2).at(PH_DICE)
    pos.f["rep"][0] = len(DATA.rep_vp) - 1
    pos.seats("money", [10, 10])
    s = pos.state()
    roll(s, [1, 3, 3, 3, 3])
    assert s.current_player == 1 and fields(s)["phase"] == PH_REP


def test_t21_two_disasters_in_one_roll_br_a28():
    """T21: X (2 red, 2 yellow, two houses, no canal tile) chooses Fire then Riot; Fire can only
    take a house; the markers go back without VP; everybody else got +1 red, +1 yellow.
    BR-A28: the start player resolves first (X is seat 1 here, after seat 0's own choice)."""
    pos = Position.turn(3)
    h1, h2 = filler(pos), pos.fresh_card("none", colour=RED)
    pos.house(1, h1).house(1, h2)
    for p in (0, 1):
        pos.f["threats"][p][RED] = pos.f["threats"][p][YELLOW] = 2
    pos.f["threats"][0][YELLOW] = 0                                 # seat 0: only Fire, no house: nothing
    pos.seats("money", [7, 7, 7])
    s = pos.at(PH_DICE).state()
    roll(s, [3, 3, 6, 5, 4])
    assert s.current_player == 1 and legal(s) == {mv(ORDER, RED), mv(ORDER, YELLOW)}
    s.apply(mv(ORDER, RED))
    assert legal(s) == {mv(FIRE_HOUSE, h1), mv(FIRE_HOUSE, h2)}    # no canal tile: a house
    s.apply(mv(FIRE_HOUSE, h2))
    f = fields(s)
    assert f["zone"][h2] == Z_DISCARD and f["zone"][h1] == Z_HOUSE
    assert f["money"][1] == 0 and f["threats"][1] == [0] * 5 and f["score"][1] == 5
    assert f["threats"][2] == [0, 0, 1, 1, 0] and f["threats"][0] == [0, 0, 1, 0, 0]
    assert f["money"][0] == 7 and f["score"][0] == 5


def test_t22_fire_takes_only_an_outermost_tile_and_the_statue_stays_br_a33_br_a8():
    """T22 (a) legal: section 0's 3rd tile, section 1's 5th tile, or the house; (b) the statue 7
    stays; BR-A33: the tile returns to the supply; (c) at the end 3 + 3 + 7 (BR-A8)."""
    pos = Position.turn(2)
    h = filler(pos)
    pos.house(0, h)
    pos.f["canal"][0] = [3, 5]
    pos.f["statue"][0] = [0, 7]
    pos.f["statues_taken"] = 1
    s = pos.at(PH_DISASTER, fire_left=1).state()
    assert legal(s) == {mv(FIRE_CANAL, 0), mv(FIRE_CANAL, 1), mv(FIRE_HOUSE, h)}
    s.apply(mv(FIRE_CANAL, 1))
    f = fields(s)
    assert f["canal"][0] == [3, 4] and f["statue"][0] == [0, 7] and f["statues_taken"] == 1
    end = Position(s)
    assert final_vp(end)[0] == 5 + 1 + 3 + 3 + 7                  # start, house, two bonuses, statue


def test_t22_rebuilding_the_fifth_tile_gives_no_second_statue():
    pos = Position.turn(2)
    pos.f["canal"][0] = [3, 4]
    pos.f["statue"][0] = [0, 7]
    pos.f["statues_taken"] = 1
    pos.f["money"][0] = 10
    c = pos.fresh_card(colour=CANAL[0][1][4])
    s = pos.hand(0, c).state()
    s.apply(play_move(c, A_CANAL1))
    f = fields(s)
    assert f["canal"][0] == [3, 5] and f["statue"][0] == [0, 7] and f["statues_taken"] == 1
    assert f["money"][0] == 10 - DATA.canal_cost[4]


def test_t23_plague_br_a22_and_br_a21():
    """T23: the player chooses which person; it goes face up to the discard pile (BR-A22); its
    house stays, empty; the hand is unchanged. BR-A21: Plague with no person does nothing."""
    pos = Position.turn(2)
    a, b = pos.fresh_card("none", cost=9), filler(pos)
    pos.house(0, filler(pos, {a, b}), a)
    pos.house(0, filler(pos, {a, b}), b)
    keep = filler(pos)
    pos.hand(0, keep)
    s = pos.at(PH_DISASTER, plague_left=1).state()
    assert legal(s) == {mv(PLAGUE, a), mv(PLAGUE, b)}
    s.apply(mv(PLAGUE, a))
    f = fields(s)
    assert f["zone"][a] == Z_DISCARD and f["flags"][a] & F_PUBLIC and f["zone"][b] == Z_PERSON
    assert sum(1 for c in range(165) if f["zone"][c] == Z_HOUSE and f["owner"][c] == 0) == 2
    assert f["zone"][keep] == Z_HAND
    # BR-A21: nothing to lose (and the same for Flood/Riot with nothing): no node, no change
    pos = Position.turn(2)
    pos.f["threats"][0][BROWN] = 2
    pos.f["workers"][0] = [0] * 5
    pos.f["money"][0] = 0
    s = pos.at(PH_DICE).state()
    before = fields(s)
    roll(s, [3, 5, 3, 3, 3])
    assert fields(s)["threats"][0][BROWN] == 0 and fields(s)["zone"] == before["zone"]


def test_t24_intrigue_floor():
    pos = Position.turn(2)
    pos.f["score"][0] = 2
    pos.f["threats"][0][PURPLE] = 2
    s = pos.at(PH_DICE).state()
    roll(s, [3, 3, 3, 3, 6])
    assert fields(s)["score"][0] == 0 and fields(s)["score"][1] == 5


def test_t25_flood_and_riot_before_reputation_br_a4():
    """T25 with the colour mapping of BR-A4 (blue Flood, yellow Riot; red Fire and purple
    Intrigue above, brown Plague): Flood takes all workers; Riot resolves before the reputation
    step, so that player cannot pay R > 0."""
    pos = Position.turn(2)
    pos.f["threats"][0][BLUE] = 2
    pos.f["threats"][0][YELLOW] = 2
    pos.f["workers"][0] = [2, 0, 3, 1, 1]
    pos.seats("money", [10, 10])
    s = pos.at(PH_DICE).state()
    roll(s, [5, 1, 6, 3, 3])
    assert s.current_player == 0 and legal(s) == {mv(ORDER, BLUE), mv(ORDER, YELLOW)}
    s.apply(mv(ORDER, BLUE))
    f = fields(s)
    assert f["workers"][0] == [0] * 5 and f["money"][0] == 0
    assert s.current_player == 1 and f["phase"] == PH_REP            # seat 0 is not offered REP


# ---------------------------------------------------------------- actions (T3-T9, T30)

def test_t3_t13_action_one_with_lawyers_br_a15():
    """T3 / T13: action I gives 2 workers of the card's colour; a placed Lawyer-type one more
    of that colour (BR-A15); two Lawyer-types stack (spec "Provisional person set")."""
    for lawyers, gain in ((0, 2), (1, 3), (2, 4)):
        pos = Position.turn(2)
        used: set = set()
        for _ in range(lawyers):
            law = pos.fresh_card("extra_workers_action1", taken=used)
            used.add(law)
            pos.house(0, filler(pos, used), law)
        c = pos.fresh_card(colour=RED, cost=0)
        s = pos.hand(0, c).state()
        s.apply(play_move(c, A_WORKERS))
        f = fields(s)
        assert f["workers"][0] == [1, 1, 1, 1 + gain, 1], lawyers
        assert f["zone"][c] == Z_DISCARD and f["flags"][c] & F_PUBLIC


def test_t4_action_two():
    pos = Position.turn(2)
    pos.f["die"] = [1, 1, 6, 1, 1]
    c = pos.fresh_card(colour=YELLOW)
    s = pos.hand(0, c).state()
    s.apply(play_move(c, A_MONEY))
    assert fields(s)["money"][0] == 5 + 6 and fields(s)["zone"][c] == Z_DISCARD


def test_t5_action_three_br_a17():
    """T5; BR-A17: action III needs a marker of the card's own colour."""
    pos = Position.turn(2)
    b, y = pos.fresh_card(colour=BROWN), pos.fresh_card(colour=YELLOW)
    pos.f["threats"][0][BROWN] = 1
    s = pos.hand(0, b, y).state()
    assert play_move(b, A_THREAT) in legal(s) and play_move(y, A_THREAT) not in legal(s)
    s.apply(play_move(b, A_THREAT))
    f = fields(s)
    assert f["threats"][0][BROWN] == 0 and f["score"][0] == 6 and f["zone"][b] == Z_DISCARD


def test_t6_action_four_br_a3():
    """T6 with the provisional board of BR-A3 (tower 0: section 0 starts blue, costs 1..5):
    a blue card builds the first space for 1 guilder; a card of neither first colour cannot."""
    assert CANAL[0][0][0] == BLUE and DATA.canal_cost == (1, 2, 3, 4, 5)
    pos = Position.turn(2)
    blue = pos.fresh_card(colour=BLUE)
    other = next(k for k in range(5) if k not in (CANAL[0][0][0], CANAL[0][1][0]))
    red = pos.fresh_card(colour=other)
    s = pos.hand(0, blue, red).state()
    assert {play_move(red, A_CANAL0), play_move(red, A_CANAL1)}.isdisjoint(legal(s))
    s.apply(play_move(blue, A_CANAL0))
    f = fields(s)
    assert f["money"][0] == 4 and f["canal"][0] == [1, 0] and f["zone"][blue] == Z_DISCARD
    pos = Position.turn(2)                                           # no guilder: not offered
    pos.f["money"][0] = 0
    blue = pos.fresh_card(colour=BLUE)
    s = pos.hand(0, blue).state()
    assert play_move(blue, A_CANAL0) not in legal(s)


def test_t7_canal_bonus_statues_in_order_br_a36():
    """T7: the 5th tile takes the top statue (7) without a decision (BR-A36); the next
    completion gets the 6; at the end 3 + 7 and 3 + 6 (with 3 for a 3-tile section)."""
    pos = Position.turn(2)
    pos.f["canal"][0] = [4, 0]
    pos.f["canal"][1] = [4, 3]
    pos.seats("money", [20, 20])
    c = pos.fresh_card(colour=CANAL[0][0][4])
    s = busy(pos.hand(0, c), 1).state()
    s.apply(play_move(c, A_CANAL0))
    f = fields(s)
    assert f["statue"][0] == [7, 0] and f["statues_taken"] == 1 and f["canal"][0] == [5, 0]
    pos = Position(s)
    pos.at(PH_TURN, cur=1, start=1)
    c = pos.fresh_card(colour=CANAL[1][0][4])
    s = busy(pos.hand(1, c), 0).state()
    s.apply(play_move(c, A_CANAL0))
    assert fields(s)["statue"][1] == [6, 0] and fields(s)["markers"] == [0, 0, 0, 0]
    vp = final_vp(Position(s))
    assert vp[0] == 5 + 3 + 7 and vp[1] == 5 + (3 + 6) + 3          # sections of 5 and 3 tiles


def test_br_a9_no_statue_left():
    pos = Position.turn(2)
    pos.f["canal"][0] = [4, 0]
    pos.f["money"][0] = 10
    pos.f["statues_taken"] = len(DATA.statues)
    pos.f["statue"][1] = [DATA.statues[0], DATA.statues[1]]         # the stack went somewhere
    c = pos.fresh_card(colour=CANAL[0][0][4])
    s = pos.hand(0, c).state()
    s.apply(play_move(c, A_CANAL0))
    f = fields(s)
    assert f["canal"][0] == [5, 0] and f["statue"][0] == [0, 0]


def test_t8_action_five():
    pos = Position.turn(2)
    c = pos.fresh_card(colour=PURPLE, cost=0)
    c2 = pos.fresh_card(colour=PURPLE, cost=0, taken={c})
    s = busy(pos.hand(0, c, c2), 1).state()
    s.apply(play_move(c, A_HOUSE))
    f = fields(s)
    assert f["workers"][0][PURPLE] == 0 and f["zone"][c] == Z_HOUSE and not f["flags"][c] & F_PUBLIC
    assert not any(f["zone"][e] == Z_PERSON and f["link"][e] == c for e in range(165))   # empty
    s = Position(s).at(PH_TURN).state()
    assert play_move(c2, A_HOUSE) not in legal(s)                  # no purple worker left


def test_t9_prince_recruited_and_scored_br_a14():
    """T9; BR-A14: the person scores its printed VP (3 for the 9-guilder Prince-type)."""
    pos = Position.turn(2)
    prince = pos.fresh_card("none", cost=9)
    assert DATA.cards[prince].vp == 3
    pos.house(0, filler(pos))
    pos.f["money"][0] = 8
    s = busy(pos.hand(0, prince), 1).state()
    assert play_move(prince, A_RECRUIT) not in legal(s)              # 8 guilders: illegal
    pos.f["money"][0] = 9
    s = pos.state()
    s.apply(play_move(prince, A_RECRUIT))
    f = fields(s)
    assert f["money"][0] == 0 and f["zone"][prince] == Z_PERSON and f["flags"][prince] & F_PUBLIC
    assert final_vp(Position(s))[0] == 5 + 3 + 1
    pos = Position.turn(2)                                           # no empty house: illegal
    prince = pos.fresh_card("none", cost=9)
    pos.f["money"][0] = 20
    s = pos.hand(0, prince).state()
    assert play_move(prince, A_RECRUIT) not in legal(s)


def test_t30_recruit_onto_a_house_built_this_turn_br_a29():
    """T30: without the Coachman a house built this turn cannot take a person this turn; with
    it (activated after building, BR-A29) the extra play recruits onto the new house."""
    pos = Position.turn(2)
    coach = pos.fresh_card("extra_play")
    pos.house(0, filler(pos), coach)
    h, person = pos.fresh_card(colour=BLUE, cost=0), pos.fresh_card(colour=BROWN, cost=0)
    pos.f["money"][0] = 0
    pos.f["workers"][0][YELLOW] = 0                                   # no Coachman activation
    s = busy(pos.hand(0, h, person), 1).state()
    s.apply(play_move(h, A_HOUSE))
    assert s.current_player == 1                                     # END_TURN was the only move
    pos.f["workers"][0][YELLOW] = 1
    s = pos.state()
    s.apply(play_move(h, A_HOUSE))
    assert legal(s) == {mv(ACTIVATE, coach), mv(END_TURN)}
    s.apply(mv(ACTIVATE, coach))
    assert play_move(person, A_RECRUIT) in legal(s)
    s.apply(play_move(person, A_RECRUIT))
    f = fields(s)
    assert f["zone"][person] == Z_PERSON and f["link"][person] == h and f["flags"][coach] & F_ROTATED
    assert f["workers"][0][YELLOW] == 0


# ---------------------------------------------------------------- persons (T10-T16)

def test_t10_alchemist_and_again_after_fire_br_a31_br_a26():
    """T10: recruiting the Alchemist-type pays +6 at once (BR-A26: a lightning effect is
    carried out); Fire sends it back to hand, and recruiting it again pays again (BR-A31)."""
    pos = Position.turn(2)
    alch = pos.fresh_card("money_on_recruit")
    h = filler(pos)
    pos.house(0, h)
    pos.f["money"][0] = DATA.cards[alch].cost
    s = busy(pos.hand(0, alch), 1).state()
    s.apply(play_move(alch, A_RECRUIT))
    assert fields(s)["money"][0] == 6
    pos = Position(s)
    pos.f["money"][0] = 0
    pos.house(0, filler(pos))                                        # a second target: a choice
    s = pos.at(PH_DISASTER, fire_left=1).state()
    s.apply(mv(FIRE_HOUSE, h))
    f = fields(s)
    assert f["zone"][alch] == Z_HAND and f["flags"][alch] == F_PUBLIC and f["zone"][h] == Z_DISCARD
    pos = Position(s)
    pos.f["money"][0] = DATA.cards[alch].cost
    s = pos.at(PH_TURN).state()
    s.apply(play_move(alch, A_RECRUIT))
    assert fields(s)["money"][0] == 6


def test_jailer_returns_a_marker_of_a_chosen_colour():
    """Jailer-type (P9, provisional text): when recruited, return 1 threat marker of a colour
    of the owner's choice, +1 VP as for action III (spec 4.4 III)."""
    pos = Position.turn(2)
    jailer = pos.fresh_card("return_threat")
    pos.house(0, filler(pos))
    pos.f["threats"][0] = [1, 0, 2, 0, 0]
    pos.f["money"][0] = DATA.cards[jailer].cost
    s = pos.hand(0, jailer).state()
    s.apply(play_move(jailer, A_RECRUIT))
    assert legal(s) == {mv(JAILER, BLUE), mv(JAILER, YELLOW)}
    s.apply(mv(JAILER, YELLOW))
    f = fields(s)
    assert f["threats"][0] == [1, 0, 1, 0, 0] and f["score"][0] == 6


def test_t11_servant_once_per_round_br_a6_br_a27_br_a25():
    """T11: paying a red worker, the Servant-type draws a card (pile choice; the drawer sees it
    at once, BR-A27) and is rotated; a second activation this round is illegal (BR-A6); after
    phase 4 it is available again. BR-A25: activations only in the owner's phase-3 turn."""
    pos = Position.turn(2)
    servant = pos.fresh_card("draw_cards")
    pos.house(0, filler(pos), servant)
    c = filler(pos)
    s = pos.hand(0, c).state()
    assert mv(ACTIVATE, servant) in legal(s)
    s.apply(mv(ACTIVATE, servant))
    assert legal(s) == {mv(DRAW, 0), mv(DRAW, 1)}
    top = fields(s)["top"][1]
    s.apply(mv(DRAW, 1))
    outcomes = s.chance_outcomes()
    assert all(m & 15 == CARD and DATA.cards[m >> 4].colour == top for m, _ in outcomes)
    drawn = outcomes[0][0] >> 4
    s.apply(outcomes[0][0])
    if s.is_chance():
        s.apply(s.chance_outcomes()[0][0])                           # the new top colour
    f = fields(s)
    assert f["workers"][0][RED] == 0 and f["flags"][servant] & F_ROTATED
    assert f["zone"][drawn] == Z_HAND and f["owner"][drawn] == 0
    pos = Position(s)
    pos.f["workers"][0][RED] = 1
    s = pos.state()
    assert mv(ACTIVATE, servant) not in legal(s)                     # once per round (BR-A6)
    # phase 4 turns it back
    s = after_phase4(Position(s).last_turn(0))
    assert not fields(s)["flags"][servant] & F_ROTATED
    # BR-A25: in phase 2 (the REP choice) there is no activation
    pos = Position(s)
    pos.seats("money", [10, 10])
    s = pos.at(PH_DICE).state()
    roll(s, [1, 3, 3, 3, 3])
    assert kinds(s) == {REP}


def test_t12_bookkeeper():
    pos = Position.turn(2)
    book = pos.fresh_card("money_per_round")
    pos.house(0, filler(pos), book)
    c = filler(pos)
    s = pos.hand(0, c).state()
    s.apply(mv(ACTIVATE, book))
    f = fields(s)
    assert f["money"][0] == 7 and f["flags"][book] & F_ROTATED and mv(ACTIVATE, book) not in legal(s)


def draw_position(hand: int, inventor: bool = True):
    """Player 0 at the start of its phase-1 refill with `hand` cards (and an Inventor-type)."""
    pos = Position.turn(2)
    if inventor:
        pos.house(0, filler(pos), pos.fresh_card("hand_target"))
    used: set = set()
    for _ in range(hand):
        c = filler(pos, used)
        used.add(c)
        pos.hand(0, c)
    return pos.at(PH_DRAW).state()


def test_t14_inventor_optional_sixth_card_br_a35_br_a24():
    """T14 / BR-A35: 4 mandatory draws to 5 (only DRAW A/B), then DRAW or DRAW_STOP; with 5
    cards already only the optional draw. BR-A24: no discard-down, nothing mandatory above 5."""
    s = draw_position(1)
    for _ in range(4):
        assert legal(s) == {mv(DRAW, 0), mv(DRAW, 1)}
        s.apply(mv(DRAW, 0))
        while s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
    assert legal(s) == {mv(DRAW, 0), mv(DRAW, 1), mv(DRAW_STOP)}
    s.apply(mv(DRAW_STOP))
    f = fields(s)
    assert f["phase"] == PH_REVEAL and sum(f["pending"][0]) == 4
    s = draw_position(5)
    assert legal(s) == {mv(DRAW, 0), mv(DRAW, 1), mv(DRAW_STOP)}
    s.apply(mv(DRAW, 1))
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    assert sum(1 for z, o in zip(fields(s)["zone"], fields(s)["owner"]) if z == Z_HAND and o == 0) == 6


@pytest.mark.parametrize("rate, bonus", [("per_two", 3), ("caption", 6)])
def test_t15_bishop_br_a5(rate, bonus):
    """T15: 7 workers -> +3 (BR-A5, the rule text) or +6 (the caption's reading, option)."""
    pos = Position.turn(2, options={"bishop_rate": rate})
    bishop = pos.fresh_card("vp_per_workers")
    pos.house(0, filler(pos), bishop)
    pos.f["workers"][0] = [2, 2, 1, 1, 1]
    assert final_vp(pos)[0] == 5 + DATA.cards[bishop].vp + 1 + bonus


def test_t16_coachman_five_cards_in_four_turns_br_a29():
    """T16 / BR-A29: with the Coachman activated once, 5 cards are played in the round's 4
    turns; the next phase 1 refills 5 cards."""
    pos = Position.turn(2)
    coach = pos.fresh_card("extra_play")
    pos.house(0, filler(pos), coach)
    used: set = set()
    hand = []
    for _ in range(5):
        c = filler(pos, used)
        used.add(c)
        hand.append(c)
    s = pos.hand(0, *hand).state()
    s.apply(mv(ACTIVATE, coach))
    s.apply(play_move(hand[0], A_MONEY))
    s.apply(play_move(hand[1], A_MONEY))                             # END_TURN is then forced
    for c in hand[2:]:
        f = fields(s)
        assert s.current_player == 0 and f["phase"] == PH_TURN
        assert legal(s) >= {play_move(c, A_MONEY)} and mv(ACTIVATE, coach) not in legal(s)
        s.apply(play_move(c, A_MONEY))                               # END_TURN is then forced
    f = fields(s)
    assert not any(z == Z_HAND and o == 0 for z, o in zip(f["zone"], f["owner"]))
    assert f["round"] == 2
    while not (fields(s)["phase"] == PH_REVEAL and fields(s)["cur"] == 0):
        step(s, random.Random(1))
    assert sum(fields(s)["pending"][0]) == 5


# ---------------------------------------------------------------- phase 4 and scoring (T17-T20, T28)

def test_t17_reputation_majority_br_a18():
    """T17 (a) alone at the front flips; (b) a tie flips nothing; BR-A18: the town hall is
    position 0, everyone there is a tie."""
    pos = Position.turn(4)
    pos.seats("rep", [3, 3, 1, 0])
    s = after_phase4(pos)
    assert [m & 1 for m in fields(s)["markers"]] == [0, 0, 0, 0]
    pos = Position.turn(4)
    pos.seats("rep", [2, 3, 1, 0])
    s = after_phase4(pos)
    assert [m & 1 for m in fields(s)["markers"]] == [0, 1, 0, 0]
    pos = Position.turn(4)                                           # BR-A18: all in the town hall
    s = after_phase4(pos)
    assert [m & 1 for m in fields(s)["markers"]] == [0, 0, 0, 0]


def test_t18_persons_majority_br_a19():
    """T18: persons 6, 5, 4, 4 -> only the first flips; BR-A19: empty houses do not count."""
    pos = Position.turn(4)
    for p, k in enumerate((6, 5, 4, 4)):
        for _ in range(k):
            h = pos.any_card()
            pos.house(p, h, pos.any_card({h}))
    for _ in range(3):                                               # seat 3: empty houses only
        pos.house(3, pos.any_card())
    s = after_phase4(pos, p=2)
    assert [m >> 1 & 1 for m in fields(s)["markers"]] == [1, 0, 0, 0]


def test_t19_canal_majority_br_a20():
    """T19 as corrected by BR-A20: green 10, blue 6, yellow 2, red 0 -> green flips; a flipped
    marker stays flipped (spec 4.7)."""
    pos = Position.turn(4)
    for p, k in enumerate((0, 10, 6, 2)):
        pos.f["canal"][p] = [min(k, 5), max(0, k - 5)]
    s = after_phase4(pos)
    assert [m >> 2 & 1 for m in fields(s)["markers"]] == [0, 1, 0, 0]
    pos = Position(s)
    pos.f["canal"][1] = [0, 0]                                       # green falls behind, keeps it
    s = after_phase4(pos)
    assert [m >> 2 & 1 for m in fields(s)["markers"]] == [0, 1, 1, 0]


def test_t20_final_scoring_example_br_a16():
    """T20: persons 3 + 1 + 2 + 0 + 2 = 8, six houses 6, the Mayor-type 2 x 2 Office persons 4
    (BR-A16: it counts itself), reputation and persons markers 8, one section of 3 tiles 3,
    reputation space 6 -> 7 (K7): 36 on top of the running score."""
    pos = Position.turn(4)
    persons = t20_persons()
    used = set(persons)
    for person in persons:
        h = filler(pos, used)
        used.add(h)
        pos.house(0, h, person)
    pos.house(0, filler(pos, used))
    pos.f["markers"][0] = 0b011
    pos.f["canal"][0] = [3, 0]
    pos.f["rep"][0] = 6
    pos.f["score"][0] = 20
    assert DATA.rep_vp[6] == 7
    assert final_vp(pos)[0] == 20 + 36


def test_t28_tie_break_by_money():
    """T28: 60 each, 4 vs 7 guilders -> the 7 wins; equal money -> shared victory."""
    pos = Position.turn(2)
    pos.seats("score", [60, 60])
    pos.seats("money", [4, 7])
    s = pos.at(PH_OVER).state()
    assert s.scores() == [60.0, 60.0] and s.returns() == [0.0, 1.0]
    pos.seats("money", [7, 7])
    assert pos.state().returns() == [0.5, 0.5]


# ---------------------------------------------------------------- pile exhaustion (T26, T27)

def test_t26_exhaustion_in_phase1_br_a7_br_a12():
    """T26: n = 4, round 4, pile A holds 2 cards. Drawing the 2nd: the extra pile (33) takes
    slot A at once and this round is final (BR-A7); when pile B then empties, pile A is split,
    bottom half moved (BR-A12); after this round's phase 4, final scoring."""
    pos = Position.turn(4)
    f = pos.f
    assert f["extra_size"] == 33
    f["size"] = [2, f["size"][0] + f["size"][1] - 2]
    s = pos.at(PH_DRAW, round=4).state()
    s.apply(mv(DRAW, 0))
    s.apply(s.chance_outcomes()[0][0])                               # the new top of pile A
    s.apply(mv(DRAW, 0))                                             # pile A's last card
    f = fields(s)
    assert f["extra_entered"] and f["size"][0] == 33 and f["extra_size"] == 0 and f["final_flag"] == 1
    assert all(m & 15 == TOP for m, _ in s.chance_outcomes())       # the extra pile's top colour
    s.apply(s.chance_outcomes()[0][0])
    assert legal(s) == {mv(DRAW, 0), mv(DRAW, 1)}                    # drawing continues
    pos = Position(s)                                                # later in the round: pile B down to 1
    pos.f["size"] = [pos.f["size"][0] + pos.f["size"][1] - 1, 1]
    s = pos.state()
    a = fields(s)["size"][0]
    s.apply(mv(DRAW, 1))
    f = fields(s)
    assert f["size"] == [a - a // 2, a // 2] and f["top"][0] == fields(pos.state())["top"][0]
    assert all(m & 15 == TOP and m >> 4 & 1 == 1 for m, _ in s.chance_outcomes())   # B's new top
    rounds = set()
    rng = random.Random(2)
    while not s.is_terminal():
        rounds.add(fields(s)["round"])
        step(s, rng)
    assert rounds == {4}


def test_t27_exhaustion_in_phase3_makes_the_next_round_final_br_a7():
    """T27: a Servant draw in phase 3 of round 5 empties pile B: the extra pile enters at once,
    round 5 is not final, round 6 is (BR-A7)."""
    pos = Position.turn(2)
    servant = pos.fresh_card("draw_cards")
    pos.house(0, filler(pos), servant)
    pos.hand(0, filler(pos))
    f = pos.f
    f["size"][0] += f["size"][1] - 1
    f["size"][1] = 1
    f["round"] = 5
    s = pos.state()
    s.apply(mv(ACTIVATE, servant))
    s.apply(mv(DRAW, 1))
    s.apply(s.chance_outcomes()[0][0])                               # the card
    f = fields(s)
    assert f["extra_entered"] and f["size"][1] == 99 and f["final_flag"] == 2
    rng = random.Random(3)
    last = 5
    while not s.is_terminal():
        last = fields(s)["round"]
        step(s, rng)
    assert last == 6


def test_br_a10_all_piles_empty_skips_draws_and_an_empty_hand_passes_br_a24():
    """BR-A10: with every pile empty the Servant's draw is skipped; BR-A24: a player with an
    empty hand passes the turn (no node): player 1 here, so player 0 moves again in lap 2."""
    pos = Position.turn(2)
    servant = pos.fresh_card("draw_cards")
    pos.house(0, filler(pos), servant)
    c, c2 = filler(pos), pos.any_card()
    pos.hand(0, c, c2)
    f = pos.f
    for k in range(165):                      # the rest of the deck is discarded: no pile left
        if f["zone"][k] == Z_POOL:
            f["zone"][k], f["flags"][k] = Z_DISCARD, F_PUBLIC
    f.update(extra_entered=1, extra_size=0, size=[0, 0])
    s = pos.state()
    s.apply(mv(ACTIVATE, servant))
    assert fields(s)["flags"][servant] & F_ROTATED and fields(s)["workers"][0][RED] == 0
    assert not s.is_chance() and DRAW not in kinds(s)
    s.apply(play_move(c, A_MONEY))
    f = fields(s)
    assert s.current_player == 0 and f["lap"] == 1 and f["phase"] == PH_TURN


def test_a_whole_round_reaches_every_phase_in_order_br_a30():
    """Spec §4 / BR-A30: draw (phase 1) before the dice (phase 2), then reputation, play,
    and phase 4 into round 2."""
    g = es.game("bruges", players=3, options={"start_player": 0})
    s = g.initial_state()
    rng = random.Random(4)
    phases = []
    while fields(s)["round"] == 1:
        ph = fields(s)["phase"]
        if not phases or phases[-1] != ph:
            phases.append(ph)
        step(s, rng)
    order = [p for p in (PH_DRAW, PH_DICE, PH_TURN) if p in phases]
    assert order == [PH_DRAW, PH_DICE, PH_TURN]
    assert phases.index(PH_DRAW) < phases.index(PH_DICE) < phases.index(PH_TURN)
