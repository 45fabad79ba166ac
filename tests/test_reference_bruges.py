"""The plain-Python Bruges reference against the spec's worked examples (shared/rules/bruges.md
§10, T1-T30), independently of the C core. Positions are set up directly on the reference's
state and its rule steps (one action, one disaster, one draw, phase 4, final scoring) are driven
by hand; the flow tests go through the public interface. Provisional person set throughout.
"""

from __future__ import annotations

import random
from typing import Callable

import pytest

from bruges_positions import BLUE, BROWN, DATA, PURPLE, RED, YELLOW, card, t20_persons

from eurosearch.games import bruges
from eurosearch.reference import bruges as R


def fresh(n: int = 4, **options) -> R.BrugesRefState:
    options.setdefault("start_player", 0)
    return R.BrugesReference(DATA, n, bruges.parse_options(options, n)).initial_state()


def drive(gen, answer: Callable = lambda node: None):
    """Run one rule step (a sub-generator of the reference) to its end; answer(node) picks
    each decision or chance outcome (default: the first). Returns (value, nodes seen)."""
    nodes = []
    try:
        node = next(gen)
        while True:
            nodes.append(node)
            m = answer(node)
            if m is None:
                m = node[1][0][0] if node[0] == R.CHANCE else sorted(node[1])[0]
            node = gen.send(m)
    except StopIteration as stop:
        return stop.value, nodes


def place(st, p: int, *persons: int, empty_houses: int = 0) -> None:
    """Give p houses carrying these persons (the house cards are Citizens) plus empty houses."""
    used = set(persons)
    for person in persons:
        house = card("none", cost=0, taken=used)
        used.add(house)
        st.p[p].houses.append([house, person])
    for _ in range(empty_houses):
        house = card("none", cost=0, taken=used)
        used.add(house)
        st.p[p].houses.append([house, -1])


def to_dice(st) -> None:
    """Play random moves until the first die of the game is to be rolled."""
    rng = random.Random(1)
    while not (st.is_chance() and st.chance_outcomes()[0][0] & 15 == R.DIE):
        st.apply(st.sample_chance(rng) if st.is_chance() else rng.choice(st.legal_moves()))


def roll(st, faces) -> None:
    for col, f in enumerate(faces):
        st.apply(R.die_move(col, f))


# ---------------------------------------------------------------- setup, chance (T29, §5)

@pytest.mark.parametrize("n, piles, extra", [(2, [33, 33], 99), (3, [50, 49], 66), (4, [66, 66], 33)])
def test_t29_setup_sizes(n, piles, extra):
    """T29 (BR-A13 for the 50/49 split at three players)."""
    st = fresh(n)
    assert st.size == piles and st.extra_size == extra
    for pl in st.p:
        assert (pl.score, pl.rep, pl.money, pl.workers, pl.threats, pl.canal, pl.markers, pl.hand) == \
            (5, 0, 5, [1] * 5, [0] * 5, [0, 0], [False] * 3, [])
    assert st.statue_stack[0] == 7 and st.scores() == [5.0] * n


def test_start_player_and_top_colour_chances():
    """§5.1 start player 1/n; §5.3 first top colours: 33 of each colour, the first top pinned."""
    st = R.BrugesReference(DATA, 3, bruges.parse_options({}, 3)).initial_state()
    assert st.chance_outcomes() == [(R.start_move(p), 1 / 3) for p in range(3)]
    st.apply(R.start_move(2))
    assert st.chance_outcomes() == [(R.top_move(0, k), 33 / 165) for k in range(5)]
    st.apply(R.top_move(0, RED))
    assert dict(st.chance_outcomes())[R.top_move(1, RED)] == 32 / 164
    assert dict(st.chance_outcomes())[R.top_move(1, BLUE)] == 33 / 164
    st.apply(R.top_move(1, BLUE))
    assert st.current_player() == 2 and st.legal_moves() == [R.draw_move(0), R.draw_move(1)]


def test_phase1_draw_identity_revealed_after_the_refill():
    """§4.2.2: a phase-1 card stays pending (colour only) until the drawer's refill ends; then
    CARD chances, uniform over the pool cards of that colour."""
    st = fresh(2)
    st.apply(R.top_move(0, RED))
    st.apply(R.top_move(1, BLUE))
    st.apply(R.draw_move(0))
    assert st.p[0].pending[RED] == 1 and st.p[0].hand == []
    rng = random.Random(3)
    while st.p[0].hand == []:
        assert st.current_player() in (0, R.CHANCE)
        st.apply(st.sample_chance(rng) if st.is_chance() else st.legal_moves()[0])
        if st.is_chance() and st.chance_outcomes()[0][0] & 15 == R.CARD:
            outcomes = st.chance_outcomes()
            assert len({p for _, p in outcomes}) == 1 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert len(st.p[0].hand) == 1


# ---------------------------------------------------------------- phase 2 (T1, T2, T21, T25)

def test_t1_threat_distribution():
    st = fresh(4)
    to_dice(st)
    roll(st, [1, 3, 6, 5, 4])     # blue 1, brown 3, yellow 6, red 5, purple 4
    for pl in st.p:
        assert pl.threats == [0, 0, 1, 1, 0]


def test_t2_reputation_cost_and_offer():
    st = fresh(4)
    to_dice(st)
    for pl in st.p:
        pl.money = 5
    st.p[1].money = 2                       # fewer than R: REP not offered
    roll(st, [2, 3, 4, 3, 1])               # purple 1 + blue 2: R = 3
    assert st.current_player() == 0 and st.legal_moves() == sorted([R.rep_move(False), R.rep_move(True)])
    st.apply(R.rep_move(True))
    assert st.p[0].money == 2 and st.p[0].rep == 1
    assert st.current_player() == 2         # seat 1 skipped


def test_t2_no_low_die_no_reputation():
    st = fresh(4)
    to_dice(st)
    roll(st, [3, 4, 5, 6, 3])
    assert all(m & 15 in (R.PLAY, R.ACTIVATE) for m in st.legal_moves())


def test_t21_two_disasters_player_orders_them():
    """T21: Fire then Riot chosen; no VP for the returned markers."""
    st = fresh(3)
    place(st, 0, empty_houses=2)
    pl = st.p[0]
    pl.threats[RED] = pl.threats[YELLOW] = 3
    pl.money = 7
    st.phase = 2
    order = []

    def answer(node):
        if any(m & 15 == R.ORDER for m in node[1]):
            order.append(sorted(node[1]))
            return R.order_move(RED)
        return sorted(node[1])[-1]          # Fire: the newer house
    drive(st._disasters(0), answer)
    assert order == [[R.order_move(YELLOW), R.order_move(RED)]]
    assert len(pl.houses) == 1 and pl.money == 0 and pl.threats == [0] * 5 and pl.score == 5


def test_t25_riot_before_reputation():
    """T25 / spec 4.3.3 note: Riot resolves before the reputation step."""
    st = fresh(2)
    to_dice(st)
    st.p[0].threats[YELLOW] = 2
    st.p[0].money = st.p[1].money = 10
    roll(st, [3, 3, 6, 3, 1])
    assert st.p[0].money == 0 and st.current_player() == 1    # seat 0 not offered REP


def test_t25_flood_and_t24_intrigue_floor():
    st = fresh(2)
    pl = st.p[0]
    pl.workers = [2, 0, 3, 1, 1]
    drive(st._disaster(0, BLUE))
    assert pl.workers == [0] * 5
    pl.score = 2
    drive(st._disaster(0, PURPLE))
    assert pl.score == 0


def test_t23_plague_and_br_a21_nothing_to_lose():
    """T23 (BR-A22: the person goes to the discard pile), BR-A21."""
    st = fresh(2)
    a, b = card("none", cost=9), card("none", cost=0, taken={card("none", cost=0)})
    place(st, 0, a, b)
    _, nodes = drive(st._disaster(0, BROWN), lambda node: R.plague_move(a))
    assert sorted(nodes[0][1]) == sorted([R.plague_move(a), R.plague_move(b)])
    assert st.p[0].persons() == [b] and len(st.p[0].houses) == 2 and a in st.discard
    st2 = fresh(2)
    assert drive(st2._disaster(0, BROWN))[1] == []            # BR-A21


def test_t22_fire_outermost_tiles_and_statue_kept():
    """T22 (BR-A33): only a section's outermost tile, or a house; statue kept; no second one."""
    st = fresh(2)
    pl = st.p[0]
    place(st, 0, card("money_on_recruit"))
    pl.canal = [3, 5]
    pl.statue_got = [False, True]
    pl.statues = [st.statue_stack.pop(0)]
    _, nodes = drive(st._disaster(0, RED), lambda node: R.fire_canal_move(1))
    assert sorted(nodes[0][1]) == sorted([R.fire_canal_move(0), R.fire_canal_move(1),
                                          R.fire_house_move(pl.houses[0][0])])
    assert pl.canal == [3, 4] and pl.statues == [7]
    st._final_scoring()
    assert st.final_vp[0] == 1 + 2 + 3 + 3 + 7    # house, person VP, canal 3 + 3, statue
    # Rebuilding the 5th tile gives no statue.
    st.phase, st.dice = 3, [3] * 5
    colour = DATA.canal_colour[0][1][4]
    c = card("none", colour=colour)
    pl.hand, pl.money = [c], 10
    drive(st._play(0, c, R.A_CANAL1))
    assert pl.canal == [3, 5] and pl.statues == [7] and st.statue_stack[0] == 6


def test_t10_fire_returns_person_to_hand_and_lightning_fires_again():
    """T10, BR-A31 (re-recruited: the lightning fires again), BR-A14 (printed VP)."""
    st = fresh(2)
    alch = card("money_on_recruit")
    pl = st.p[0]
    place(st, 0, empty_houses=1)
    pl.hand, pl.money = [alch], DATA.cards[alch].cost
    drive(st._play(0, alch, R.A_RECRUIT))
    assert pl.money == 6 and pl.persons() == [alch]
    drive(st._disaster(0, RED))                     # only target: the house
    assert pl.hand == [alch] and pl.houses == []
    place(st, 0, empty_houses=1)
    pl.money = DATA.cards[alch].cost
    drive(st._play(0, alch, R.A_RECRUIT))
    assert pl.money == 6


# ---------------------------------------------------------------- actions (T3-T9, T30)

def actions(st, p, c):
    return st._actions(p, c)


def test_t3_action_one_and_lawyer_copies_stack():
    """T3, T13, BR-A15 (the extra worker is of the card's colour); copies add up."""
    st = fresh(2)
    pl = st.p[0]
    c = card("none", colour=RED)
    pl.hand = [c]
    drive(st._play(0, c, R.A_WORKERS))
    assert pl.workers[RED] == 3 and st.discard == [c]
    law1 = card("extra_workers_action1")
    place(st, 0, law1)
    c2 = card("none", colour=RED, taken={c})
    pl.hand = [c2]
    drive(st._play(0, c2, R.A_WORKERS))
    assert pl.workers[RED] == 6                      # 3 with one Lawyer
    st.p[1].houses = []
    law2 = card("extra_workers_action1", taken={law1})
    pl.houses.append([card("none", cost=9), law2])
    c3 = card("none", colour=RED, taken={c, c2})
    pl.hand = [c3]
    drive(st._play(0, c3, R.A_WORKERS))
    assert pl.workers[RED] == 10                     # two Lawyer-types: 4


def test_t4_t5_money_and_threat_return():
    """T4, T5, BR-A17 (action III needs a marker of the card's colour)."""
    st = fresh(2)
    st.dice = [1, 1, 6, 1, 1]
    pl = st.p[0]
    y, b = card("none", colour=YELLOW), card("none", colour=BROWN)
    pl.hand = [y, b]
    assert R.A_THREAT not in actions(st, 0, b)
    drive(st._play(0, y, R.A_MONEY))
    assert pl.money == 11
    pl.threats[BROWN] = 1
    assert R.A_THREAT in actions(st, 0, b)
    drive(st._play(0, b, R.A_THREAT))
    assert pl.threats[BROWN] == 0 and pl.score == 6


def test_t6_t7_canals_statues_and_bonus():
    st = fresh(2)
    pl = st.p[0]
    pl.money = 100
    first = [DATA.canal_colour[0][s][0] for s in (0, 1)]
    other = next(k for k in range(5) if k not in first)
    assert not {R.A_CANAL0, R.A_CANAL1} & set(actions(st, 0, card("none", colour=other)))
    used: set = set()
    for i in range(5):
        c = card("none", colour=DATA.canal_colour[0][0][i], taken=used)
        used.add(c)
        pl.hand = [c]
        assert R.A_CANAL0 in actions(st, 0, c)
        before = pl.money
        drive(st._play(0, c, R.A_CANAL0))
        assert before - pl.money == DATA.canal_cost[i]
    assert pl.canal[0] == 5 and pl.statues == [7] and st.statue_stack[0] == 6
    st.p[1].canal = [4, 0]
    st.p[1].money = 100
    c = card("none", colour=DATA.canal_colour[1][0][4], taken=used)
    st.p[1].hand = [c]
    drive(st._play(1, c, R.A_CANAL0))
    assert st.p[1].statues == [6]
    st._final_scoring()
    assert st.final_vp[0] == 3 + 7 and st.final_vp[1] == 3 + 6


def test_br_a9_no_statue_left():
    st = fresh(2)
    st.statue_stack = []
    pl = st.p[0]
    pl.canal, pl.money = [4, 0], 10
    c = card("none", colour=DATA.canal_colour[0][0][4])
    pl.hand = [c]
    drive(st._play(0, c, R.A_CANAL0))
    assert pl.canal[0] == 5 and pl.statues == []


def test_t8_house_and_t9_prince():
    st = fresh(2)
    pl = st.p[0]
    purple = card("none", colour=PURPLE, cost=0)
    pl.hand = [purple]
    drive(st._play(0, purple, R.A_HOUSE))
    assert pl.workers[PURPLE] == 0 and pl.houses == [[purple, -1]]
    purple2 = card("none", colour=PURPLE, cost=0, taken={purple})
    assert R.A_HOUSE not in actions(st, 0, purple2)
    prince = card("none", cost=9)
    pl.hand, pl.money = [prince], 8
    assert R.A_RECRUIT not in actions(st, 0, prince)
    pl.money = 9
    assert R.A_RECRUIT in actions(st, 0, prince)
    drive(st._play(0, prince, R.A_RECRUIT))
    assert pl.money == 0 and pl.houses == [[purple, prince]]
    assert R.A_RECRUIT not in actions(st, 0, purple2)   # no empty house left
    st._final_scoring()
    assert st.final_vp[0] == 3 + 1


def test_t30_coachman_recruits_onto_the_new_house():
    """T30, BR-A29 (the Coachman's extra play, after the normal play here)."""
    st = fresh(2)
    st.phase, st.dice = 3, [3] * 5
    pl = st.p[0]
    coach = card("extra_play")
    place(st, 0, coach)
    h, person = card("none", colour=BLUE, cost=0), card("none", cost=0, colour=BROWN)
    pl.hand, pl.money = [h, person], 0
    seen = []

    def answer(node):
        moves = set(node[1])
        seen.append(moves)
        if R.play_move(h, R.A_HOUSE) in moves:
            return R.play_move(h, R.A_HOUSE)
        if R.activate_move(coach) in moves:
            assert not any(m & 15 == R.PLAY for m in moves)   # one play without the Coachman
            return R.activate_move(coach)
        if R.play_move(person, R.A_RECRUIT) in moves:
            return R.play_move(person, R.A_RECRUIT)
        return R.END_TURN
    drive(st._turn(0), answer)
    assert pl.houses[-1] == [h, person] and pl.workers[YELLOW] == 0 and coach in pl.rotated


# ---------------------------------------------------------------- persons (T11-T16)

def test_t11_servant_draws_once_per_round():
    """T11, BR-A6 (once per round), BR-A27 (the card is seen at once)."""
    st = fresh(2)
    st.apply(R.top_move(0, RED))
    st.apply(R.top_move(1, BLUE))
    st.phase, st.dice = 3, [3] * 5
    pl = st.p[0]
    servant = card("draw_cards")
    place(st, 0, servant)
    pl.hand = [card("none", cost=0)]

    def answer(node):
        if node[0] == R.CHANCE:
            return None
        if R.activate_move(servant) in node[1]:
            return R.activate_move(servant)
        if R.draw_move(1) in node[1]:
            return R.draw_move(1)
        return R.END_TURN if R.END_TURN in node[1] else sorted(node[1])[0]
    _, nodes = drive(st._turn(0), answer)
    assert pl.workers[RED] == 0 and servant in pl.rotated
    card_nodes = [n for n in nodes if n[0] == R.CHANCE and n[1][0][0] & 15 == R.CARD]
    assert len(card_nodes) == 1 and all(DATA.cards[m >> 4].colour == BLUE for m, _ in card_nodes[0][1])
    assert len(pl.hand) == 1 and st.size[1] == 32      # drew 1, then played 1
    assert all(R.activate_move(servant) not in n[1] for n in nodes[nodes.index(card_nodes[0]):]
               if n[0] != R.CHANCE)
    st._phase4()
    assert pl.rotated == set()


def test_t12_bookkeeper():
    st = fresh(2)
    book = card("money_per_round")
    place(st, 0, book)
    assert drive(st._activate(0, book))[0] == 0
    assert st.p[0].money == 7 and book in st.p[0].rotated


def test_t14_inventor_optional_sixth_card():
    """T14, BR-A35: 4 mandatory draws to 5, then DRAW or DRAW_STOP."""
    st = fresh(2)
    st.apply(R.top_move(0, RED))
    st.apply(R.top_move(1, BLUE))
    inv = card("hand_target")
    place(st, 0, inv)
    st.p[0].hand = [card("none", cost=0)]
    st.phase = 1
    decisions = []

    def answer(node):
        if node[0] == R.CHANCE:
            return None
        decisions.append(sorted(node[1]))
        return R.DRAW_STOP if R.DRAW_STOP in node[1] else R.draw_move(0)
    drive(st._phase1_refill(0), answer)
    assert decisions[:4] == [[R.draw_move(0), R.draw_move(1)]] * 4
    assert decisions[4] == sorted([R.draw_move(0), R.draw_move(1), R.DRAW_STOP])
    assert len(st.p[0].hand) == 5
    decisions.clear()                               # 5 in hand: only the optional draw
    drive(st._phase1_refill(0), answer)
    assert decisions == [sorted([R.draw_move(0), R.draw_move(1), R.DRAW_STOP])]


def test_t15_bishop_br_a5_both_readings():
    for rate, vp in (("per_two", 3), ("caption", 6)):
        st = fresh(2, bishop_rate=rate)
        bishop = card("vp_per_workers")
        place(st, 0, bishop)
        st.p[0].workers = [2, 2, 1, 1, 1]
        st._final_scoring()
        assert st.final_vp[0] == DATA.cards[bishop].vp + 1 + vp


def test_t16_coachman_empties_the_hand():
    """T16, BR-A29: 5 cards in 4 turns."""
    st = fresh(2)
    st.phase, st.dice = 3, [3] * 5
    pl = st.p[0]
    place(st, 0, card("extra_play"))
    pl.hand = sorted(set(range(150, 155)))
    coach = pl.persons()[0]
    turns = 0
    while pl.hand and turns < 4:
        turns += 1

        def answer(node):
            if R.activate_move(coach) in node[1]:
                return R.activate_move(coach)
            plays = sorted(m for m in node[1] if m & 15 == R.PLAY and m >> 12 & 7 == R.A_WORKERS)
            return plays[0] if plays else R.END_TURN
        drive(st._turn(0), answer)
    assert pl.hand == [] and turns == 4


# ---------------------------------------------------------------- phase 4, scoring (T17-T20, T28)

def test_t17_t18_t19_majorities():
    """T17-T19, BR-A18 (town hall = 0, ties flip nothing), BR-A19 (persons only), BR-A20."""
    st = fresh(4)
    st.p[0].rep, st.p[1].rep = 3, 3                   # T17 (b): tie flips nothing
    for p, k in enumerate((6, 5, 4, 4)):              # T18
        st.p[p].houses = [[0, 1] for _ in range(k)]
    for p, k in enumerate((6, 10, 2, 0)):             # T19 (BR-A20)
        st.p[p].canal = [min(k, 5), max(0, k - 5)]
    st._phase4()
    assert [pl.markers for pl in st.p] == [[False, True, False], [False, False, True],
                                           [False, False, False], [False, False, False]]
    st.p[0].rep = 4                                   # T17 (a); a flipped marker stays
    st.p[1].canal = [0, 0]
    st._phase4()
    assert st.p[0].markers == [True, True, True] and st.p[1].markers[2]


def test_t20_final_scoring_example():
    """T20: 8 + 6 + 4 + 8 + 3 + 7 = 36 (BR-A16: the Mayor counts itself if Office)."""
    prince, one, mayor, zero, two = t20_persons()
    st = fresh(4)
    place(st, 0, prince, one, mayor, zero, two, empty_houses=1)
    st.p[0].markers = [True, True, False]
    st.p[0].canal = [3, 0]
    st.p[0].rep = 6
    st._final_scoring()
    assert st.final_vp[0] == 36
    assert DATA.rep_vp[6] == 7


def test_t28_tie_break_by_money():
    st = fresh(2)
    st.over = True
    st.p[0].score = st.p[1].score = 60
    st.p[0].money, st.p[1].money = 4, 7
    assert st.returns() == [0.0, 1.0]
    st.p[0].money = 7
    assert st.returns() == [0.5, 0.5]


# ---------------------------------------------------------------- pile exhaustion (T26, T27)

def test_t26_exhaustion_in_phase1_makes_this_round_final():
    """T26, BR-A7: the extra pile enters at once; this round is final; later a split."""
    st = fresh(4)
    st.apply(R.top_move(0, RED))
    st.apply(R.top_move(1, BLUE))
    st.size[0] = 2
    st.apply(R.draw_move(0))
    st.apply(st.chance_outcomes()[0][0])
    st.apply(R.draw_move(0))
    assert st.extra_entered and st.size[0] == 33 and st.extra_size == 0 and st.final_round
    assert [m & 15 for m, _ in st.chance_outcomes()] == [R.TOP] * len(st.chance_outcomes())
    st.apply(st.chance_outcomes()[0][0])
    # Later exhaustion: the other pile is split (BR-A12), bottom half moved.
    st.size[1] = 1
    st.apply(R.draw_move(1))
    assert st.size == [17, 16] and st.is_chance()


def test_t27_exhaustion_in_phase3_makes_next_round_final():
    st = fresh(2)
    st.apply(R.top_move(0, RED))
    st.apply(R.top_move(1, BLUE))
    st.phase = 3
    st.size[1] = 1
    drive(st._draw(0), lambda node: R.draw_move(1) if node[0] != R.CHANCE else None)
    assert st.extra_entered and st.final_next and not st.final_round


def test_br_a10_nothing_left_to_draw():
    st = fresh(2)
    st.extra_entered = True
    st.size = [0, 0]
    assert drive(st._draw(0)) == (False, [])


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_end_and_conserve_cards(n):
    for seed in range(5):
        st = R.BrugesReference(DATA, n, bruges.parse_options({}, n)).initial_state()
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.is_chance():
                outs = st.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                st.apply(st.sample_chance(rng))
            else:
                moves = st.legal_moves()
                assert len(moves) >= 2          # forced decisions are never shown
                st.apply(rng.choice(moves))
            placed = sum(len(pl.hand) + len(pl.houses) + sum(1 for h in pl.houses if h[1] >= 0)
                         for pl in st.p)
            assert placed + len(st.discard) + sum(len(s) for s in st.pool) == 165
        assert sum(st.returns()) == pytest.approx(1.0)
        clone = st.clone()
        assert clone.scores() == st.scores() and clone.is_terminal()


# ---------------------------------------------------------------- more BR-A ids, interface

def test_br_a2_no_advance_past_the_last_space():
    st = fresh(2)
    to_dice(st)
    st.p[0].rep = len(DATA.rep_vp) - 1
    st.p[0].money = st.p[1].money = 10
    roll(st, [1, 3, 3, 3, 3])
    assert st.current_player() == 1            # seat 0, at the top, is not offered REP


def test_br_a24_empty_hand_passes_the_turn():
    rng = random.Random(0)
    st2 = fresh(2)
    while st2.phase != 3 or st2.is_chance():
        st2.apply(st2.sample_chance(rng) if st2.is_chance() else rng.choice(st2.legal_moves()))
    st2.p[1].hand = []                         # seat 1 will pass all its turns
    seats = set()
    while st2.phase == 3:
        if not st2.is_chance():
            seats.add(st2.current_player())
        st2.apply(st2.sample_chance(rng) if st2.is_chance() else rng.choice(st2.legal_moves()))
    assert seats == {0}


def test_br_a8_br_a36_canal_bonus_on_the_final_state_statue_automatic():
    """BR-A36: the statue is taken without a decision; BR-A8: the 3-VP bonus needs >= 3 tiles
    at the end (a section cut back to 2 by Fire scores nothing)."""
    st = fresh(2)
    pl = st.p[0]
    pl.canal = [3, 0]
    drive(st._disaster(0, RED))                 # the only target: section 0's outer tile
    st._final_scoring()
    assert pl.canal == [2, 0] and st.final_vp[0] == 0


def test_illegal_moves_are_refused_and_clone_is_independent():
    st = fresh(3)
    with pytest.raises(ValueError):
        st.apply(R.draw_move(0))                # a chance node: TOP expected
    with pytest.raises(ValueError):
        st.apply(True)
    st.apply(R.top_move(0, RED))
    st.apply(R.top_move(1, RED))
    with pytest.raises(ValueError):
        st.apply(R.END_TURN)
    copy = st.clone()
    st.apply(R.draw_move(0))
    assert copy.p[0].pending == [0] * 5 and st.p[0].pending[RED] == 1
    assert copy.legal_moves() == [R.draw_move(0), R.draw_move(1)]


def test_br_a18_br_a19_town_hall_and_empty_houses():
    st = fresh(3)
    st.p[0].houses = [[150, -1], [151, -1], [152, -1]]     # houses without persons: 0 persons
    st.p[1].houses = [[153, 0]]
    st._phase4()
    assert [pl.markers for pl in st.p] == [[False, False, False], [False, True, False], [False, False, False]]


def test_br_a28_disasters_start_player_first_clockwise():
    """BR-A28: after the roll, the start player resolves (and orders) their disasters first."""
    st = fresh(3, start_player=2)
    to_dice(st)
    for pl in st.p:
        pl.threats[RED] = pl.threats[PURPLE] = 2
    roll(st, [3, 3, 3, 5, 6])
    assert st.current_player() == 2 and st.legal_moves() == [R.order_move(RED), R.order_move(PURPLE)]
