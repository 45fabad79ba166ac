"""Tests of the plain-Python Wolsung reference (python/eurosearch/reference/wolsung.py), on its
own, against the spec (shared/rules/wolsung.md): every worked example of section 11 (E1-E5 from
the book, D1-D10 derived), the chance distributions of section 5 (C1-C11) and the WO-A
resolutions they pin.

The data is the spec's PROVISIONAL data set (P1-P7), rebuilt here from the rules stated in the
spec's last section, independently of the engine's data file (tests/test_wolsung_differential.py
checks that the data file says the same). Positions are set up by writing the reference's
state directly (which factory is open, the order track, storages), then the example's moves
are played through the public interface.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import pytest

from eurosearch.reference.wolsung import (
    COAL, CONVERTER, FE_ON_BOARD, FE_PICK, FOURTH_WORKER, GLASS, GOLD, IRON, NEUTRAL, PASS_MOVE,
    TIME_MACHINE, WOOD, Machine, RefData, Special, Task, WolsungReference, WolsungRefState,
    build_move, change_outcome, deal_outcome, draw_outcome, machine_payments, ncount_outcome,
    norder_outcome, pick_move, place_move, random_playout, start_outcome, strike_outcome,
    task_points, tie_outcome, time_move, upgrade_move, upgrade_payments,
)

pytestmark = pytest.mark.provisional

GOLEM, STEAM_CAR, LOCOMOTIVE, AIRSHIP = range(4)
AQUITAINE, ALFHEIM, MORGOVIA, WOTANY = range(4)
F1, F2, F3 = range(3)


def provisional_data() -> RefData:
    """The spec's provisional data set P1-P7, rebuilt from the rules its last section states."""
    schedule: list[tuple[int, ...]] = [()] * 30          # P1, index = round
    k = 0
    for r in range(3, 30, 2):
        k += 1
        f = (k - 1) % 3
        schedule[r] = tuple(sorted((f, (f + 1) % 3))) if k % 4 == 0 else (f,)
    sidings = (                                           # P3: (SMALL, LARGE) per factory
        ((1, 1, 2, 2, 0), (2, 2, 2, 2, 0)),
        ((2, 2, 1, 0, 1), (2, 2, 2, 1, 1)),
        ((1, 1, 1, 1, 2), (1, 1, 2, 2, 2)),
    )
    amounts = {1: (2, 1, 0), 2: (2, 1, 1), 3: (2, 2, 1), 4: (3, 2, 1)}
    machines = []                                         # P5
    for i in range(40):
        t, j = i % 4, i // 4
        r = (t + j) % 4
        vp = [1, 1, 1, 2, 2, 2, 3, 3, 4, 4][j]
        cost = [0] * 5
        for res, amount in zip((r, (r + 1 + t % 3) % 4, (r + 1 + (t + 1) % 3) % 4), amounts[vp]):
            cost[res] += amount
        machines.append(Machine(t, r, vp, tuple(cost)))
    tasks = []                                            # P6
    for c in range(8):
        x = c % 4
        if c < 4:     # type-minded
            tasks.append((Task(3, (x, x, (x + 1) % 4, (x + 1) % 4)),
                          Task(2, (x, (x + 2) % 4, (x + 3) % 4)),
                          Task(2, (4 + x, 4 + x, 4 + (x + 1) % 4))))
        else:         # region-minded
            tasks.append((Task(3, (4 + x, 4 + x, 4 + (x + 1) % 4, 4 + (x + 1) % 4)),
                          Task(2, (4 + x, 4 + (x + 2) % 4, 4 + (x + 3) % 4)),
                          Task(2, (x, x, (x + 1) % 4))))
    s1 = (GLASS, COAL, WOOD, GOLD, IRON)                  # P7
    specials = tuple(Special(v, v in (2, 4), s1[v - 1:] + s1[:v - 1]) for v in range(1, 6))
    return RefData(tuple(schedule), (0, 1, 2), sidings, tuple(machines), tuple(tasks), specials,
                   (16, 16, 16, 16, 12))


DATA = provisional_data()


# ---------------------------------------------------------------- helpers

def new_state(players: int, data: RefData = DATA, **options) -> WolsungRefState:
    return WolsungReference(data, players, options).initial_state()


def settle_setup(state: WolsungRefState, tasks=None, start: int = 0) -> WolsungRefState:
    """Resolve the setup chance nodes: lowest cards into the office, task cards, start seat."""
    while state.is_chance():
        if state.node == "deal" and tasks is not None:
            state.apply(deal_outcome(tasks[state.actor]))
        elif state.node == "start":
            state.apply(start_outcome(start))
        else:
            outs = [o for o, _ in state.chance_outcomes()]
            state.apply(outs[0] if state.node != "draw" else min(
                o for o in outs if o != draw_outcome(DATA.strike)))
    return state


def refresh(state: WolsungRefState) -> None:
    """After writing the state directly: drop the cached moves, apply forced decisions."""
    state._moves = None
    state._settle()


def probs(state: WolsungRefState) -> dict[int, Fraction]:
    return {o: Fraction(p).limit_denominator(1000) for o, p in state.chance_outcomes()}


def do(state: WolsungRefState, move: int) -> None:
    assert state.current_player() >= 0, state
    assert move in state.legal_moves(), (move, state.legal_moves())
    state.apply(move)


def at_picking(players: int, track, siding, storages=None, fe=FE_ON_BOARD, neutral_order=(),
               factories=(F1,)) -> WolsungRefState:
    """A state whose factory ``factories[0]`` is open and ranked with this order track."""
    s = settle_setup(new_state(players, start_player=0))
    f = factories[0]
    s.phase = "factory"
    s.factories, s.fac_idx = list(factories), 0
    s.sidings[f] = list(siding)
    for p, st in enumerate(storages or []):
        s.players[p].storage = list(st)
    s.fe = fe
    s.track = list(track)
    s.neutral_order = tuple(neutral_order)
    s._begin_picking()
    refresh(s)
    return s


def pick(state: WolsungRefState, who: int, item: int) -> None:
    """``who`` picks ``item``; a forced single option is applied by the engine itself."""
    assert state.node == "pick" and state.actor == who, (state.node, state.actor, who)
    do(state, pick_move(item))


# ---------------------------------------------------------------- E1, E2, E5: picking (4.3)

EXAMPLE_SIDING = (1, 1, 2, 2, 0)      # {wood 2, glass 1, coal 1, iron 2} (WO-A37)
EDINA, ORSI, KATA = 0, 1, 2


def test_e1_picking_three_players():
    """E1 (book): double first pick, then singles; Kata gets nothing more. FE already taken."""
    s = at_picking(3, [EDINA, ORSI, KATA], EXAMPLE_SIDING, fe=ORSI)
    pick(s, EDINA, WOOD)
    pick(s, EDINA, GLASS)
    pick(s, ORSI, IRON)
    pick(s, KATA, WOOD)
    pick(s, EDINA, COAL)                                  # now a single pick
    # Orsi's only option (iron) is forced: the engine applied it; the siding is empty and the FE
    # is off the board, so picking ended and "Kata gets nothing more".
    assert s.players[EDINA].storage == [1, 1, 0, 1, 0]
    assert s.players[ORSI].storage == [0, 0, 2, 0, 0]
    assert s.players[KATA].storage == [0, 0, 0, 1, 0]
    assert s.sidings[F1] == [1, 1, 2, 2, 0]           # refilled at the end of the Factory phase
    assert s.phase == "machine"
    assert all(pl.in_factory[F1] == 0 for pl in s.players)


def test_e1b_fe_forced_after_the_last_cube():
    """E1b, WO-A4 (b): the FE on the board and nobody chose it: Kata must take it."""
    s = at_picking(3, [EDINA, ORSI, KATA], EXAMPLE_SIDING)
    for who, item in [(EDINA, WOOD), (EDINA, GLASS), (ORSI, IRON), (KATA, WOOD), (EDINA, COAL)]:
        pick(s, who, item)
    assert s.node == "pick" and s.actor == ORSI
    assert set(s.legal_moves()) == {pick_move(IRON), pick_move(FE_PICK)}
    pick(s, ORSI, IRON)
    # Kata's only option is the FE: forced, applied without a node; she starts the Machine phase.
    assert s.fe == KATA
    assert s.phase == "machine"


def test_e2_storage_cap_skip():
    """E2 (book): Orsi holds 4 iron and cannot take the last iron: skipped; Kata takes it."""
    # The book's order of turns, mid-picking: Edina (single pick), Orsi, Kata.
    s = at_picking(3, [EDINA, ORSI, KATA], (0, 0, 1, 1, 0),
                   storages=[(0, 0, 0, 0, 0), (0, 0, 4, 0, 0), (0, 0, 0, 0, 0)], fe=EDINA)
    s.picks_left = 1                                      # Edina is on a later (single) turn
    pick(s, EDINA, WOOD)
    # Orsi can store nothing (iron 4): skipped; Kata's only option is iron (forced).
    assert s.players[ORSI].storage == [0, 0, 4, 0, 0]
    assert s.players[KATA].storage == [0, 0, 1, 0, 0]
    assert s.phase == "machine"


def test_e5_two_player_neutral_picking():
    """E5 (book), WO-A20, WO-A31: [Arthur, neutral, Kata]; the neutral's order S1."""
    arthur, kata = 0, 1
    s = at_picking(2, [arthur, NEUTRAL, kata], EXAMPLE_SIDING, fe=arthur,
                   neutral_order=DATA.specials[0].order)
    assert DATA.specials[0].order == (GLASS, COAL, WOOD, GOLD, IRON)
    pick(s, arthur, WOOD)
    pick(s, arthur, GLASS)
    # the neutral takes coal (no glass left): automatic
    assert s.sidings[F1][COAL] == 0
    pick(s, kata, IRON)
    # Arthur: wood or iron left
    pick(s, arthur, WOOD)
    # the neutral takes iron; Kata gets nothing; picking ends
    assert s.players[arthur].storage == [0, 1, 0, 2, 0]
    assert s.players[kata].storage == [0, 0, 1, 0, 0]
    assert s.phase == "machine"


def test_wo_a11_double_first_pick_may_repeat_a_type_and_shrink_to_one():
    """WO-A11: the double first pick may take two of a type; with room for one cube it is 1."""
    s = at_picking(3, [0, 1], (0, 0, 2, 0, 0), fe=2)
    assert s.players[0].storage[IRON] == 2               # both picks forced: iron, iron
    s = at_picking(3, [0, 1], (0, 0, 2, 0, 0), storages=[(0, 0, 3, 0, 0)], fe=2)
    # Player 0 can store one iron only (forced); then player 1 takes the other (forced).
    assert s.players[0].storage[IRON] == 4 and s.players[1].storage[IRON] == 1


def test_wo_a4_single_pick_only_option():
    """WO-A4 alternative FE_SINGLE_PICK_ONLY: no FE on the 1st position's double turn."""
    s = at_picking(3, [0, 1], (1, 1, 0, 0, 0))
    assert pick_move(FE_PICK) in s.legal_moves()
    s = WolsungReference(DATA, 3, {"fe_single_pick_only": True, "start_player": 0}).initial_state()
    settle_setup(s)
    s.factories, s.fac_idx, s.track, s.fe = [F1], 0, [0, 1], FE_ON_BOARD
    s.sidings[F1] = [1, 1, 0, 0, 0]
    s._begin_picking()
    refresh(s)
    assert pick_move(FE_PICK) not in s.legal_moves()


# ---------------------------------------------------------------- E3, D1: Design Office (4.4.3)

def machine_phase(players: int, office, storages=(), fe: int = 0, **options) -> WolsungRefState:
    s = settle_setup(new_state(players, start_player=0, **options))
    for c in s.office:
        s.deck.add(c)
    for c in office:
        s.deck.discard(c)
    s.office = list(office)
    for p, st in enumerate(storages):
        s.players[p].storage = list(st)
    s.fe = fe
    s.phase = "machine"
    s._begin_machine_phase()
    refresh(s)
    return s


def test_e3_office_refill_after_a_build():
    """E3 (book), WO-A24: build slot 2 (Jean-Pierre); the card above moves down; new card on top."""
    steinfaust, jean_pierre, x = 2, 0, 5                  # a locomotive, a golem, another card
    assert DATA.machines[steinfaust].type == LOCOMOTIVE and DATA.machines[jean_pierre].type == GOLEM
    s = machine_phase(3, [steinfaust, jean_pierre, x], storages=[(2, 1, 0, 0, 0)])
    assert s.actor == EDINA
    do(s, build_move(1, (0, 0, 0, 0, 0)))
    assert s.players[EDINA].built == [jean_pierre]
    assert s.players[EDINA].storage == [0, 0, 0, 0, 0]
    assert s.node == "draw" and s.office == [None, steinfaust, x]
    deck = len(s.deck)
    assert set(probs(s).values()) == {Fraction(1, deck)}                    # C5
    new = min(c for c in s.deck if c != DATA.strike)
    s.apply(draw_outcome(new))
    assert s.office == [new, steinfaust, x]


def test_d1_office_change_without_builds():
    """D1, WO-A6: all pass -> no special card; slot 3 discarded; office [new, A, B]; FE back."""
    a, b, c = 0, 1, 2
    s = machine_phase(3, [a, b, c])                      # empty storages: only PASS, forced
    assert s.node == "draw" and s.discard == [c] and s.office == [None, a, b]
    new = min(x for x in s.deck if x != DATA.strike)
    s.apply(draw_outcome(new))
    assert s.office[1:] == [a, b] and s.office[0] == new
    assert s.fe == FE_ON_BOARD


def test_d1_variant_change_check_after_a_build():
    """D1 variant, C8: at least one build -> CHANGE node with P(change) = S/5 = 2/5 (P7)."""
    s = machine_phase(3, [0, 1, 2], storages=[(2, 1, 0, 0, 0)])
    do(s, build_move(0, (0, 0, 0, 0, 0)))
    s.apply(draw_outcome(min(x for x in s.deck if x != DATA.strike)))
    # everyone else can only pass (forced), player 0 passes too: forced as well
    assert s.node == "change"
    assert probs(s) == {change_outcome(True): Fraction(2, 5), change_outcome(False): Fraction(3, 5)}
    s.apply(change_outcome(False))
    assert s.fe == FE_ON_BOARD


# ---------------------------------------------------------------- E4, D8: scoring (8)

def test_e4_task_assignment_is_a_matching():
    """E4: 8 machines of 2 VP; tasks T1 3 pts, T2 2 pts, T3 2 pts; best is 5, score 21."""
    ms = [Machine(GOLEM, AQUITAINE, 2, (0,) * 5), Machine(GOLEM, ALFHEIM, 2, (0,) * 5),
          Machine(GOLEM, MORGOVIA, 2, (0,) * 5), Machine(AIRSHIP, WOTANY, 2, (0,) * 5),
          Machine(AIRSHIP, AQUITAINE, 2, (0,) * 5), Machine(STEAM_CAR, ALFHEIM, 2, (0,) * 5),
          Machine(LOCOMOTIVE, MORGOVIA, 2, (0,) * 5), Machine(LOCOMOTIVE, WOTANY, 2, (0,) * 5)]
    t1 = Task(3, (GOLEM, GOLEM, GOLEM, AIRSHIP))
    t2 = Task(2, (4 + AQUITAINE, 4 + ALFHEIM, 4 + MORGOVIA))
    t3 = Task(2, (4 + WOTANY, 4 + WOTANY, STEAM_CAR))
    assert task_points([t2, t3], ms) == 4                 # the book's 20
    assert task_points([t1, t2], ms) == 5
    assert task_points([t1, t3], ms) == 5
    assert task_points([t1, t2, t3], ms) == 5             # all three would need 10 machines
    assert sum(m.vp for m in ms) + task_points([t1, t2, t3], ms) == 21
    # A machine counts as its type or its region, never both (the trap of E4).
    assert task_points([Task(2, (GOLEM, 4 + AQUITAINE))], ms[:1]) == 0


def ended(players: int, built, storages) -> WolsungRefState:
    s = settle_setup(new_state(players, start_player=0), tasks=list(range(players)))
    for p in range(players):
        s.players[p].built = list(built[p])
        s.players[p].storage = list(storages[p])
        s.players[p].task = -1                            # no task points in these positions
    s._game_over()
    refresh(s)
    return s


def test_d8_end_tie_breaks():
    """D8, WO-A22: equal scores -> most cubes (gold included) -> best single machine -> shared."""
    p0 = [32, 33, 34, 35, 36, 37]                         # six 4-VP machines: 24
    p1 = [24, 25, 26, 27, 28, 29, 30, 31]                 # eight 3-VP machines: 24
    s = ended(2, [p0, p1], [(1, 1, 1, 1, 1), (1, 1, 1, 0, 0)])
    assert s.scores() == [24.0, 24.0] and s.returns() == [1.0, 0.0]      # 5 cubes against 3
    s = ended(2, [p0, p1], [(0, 0, 0, 0, 4), (4, 1, 0, 0, 0)])
    assert s.returns() == [0.0, 1.0]                      # gold counts as a cube
    s = ended(2, [p0, p1], [(1, 1, 1, 1, 1), (1, 1, 1, 1, 1)])
    assert s.returns() == [1.0, 0.0]                      # best machine 4 VP against 3 VP
    p1 = [38, 39, 24, 25, 26, 27, 12, 13]                 # 4+4+3*4+2+2 = 24, best 4 VP
    s = ended(2, [p0, p1], [(1, 1, 1, 1, 1), (1, 1, 1, 1, 1)])
    assert s.scores() == [24.0, 24.0] and s.returns() == [0.5, 0.5]      # shared win


def test_task_points_count_in_scores():
    """8.2: scores() = machine VP + the best task assignment (P6 card K0)."""
    s = settle_setup(new_state(2, start_player=0), tasks=[0, 4])
    # K0 task 1: Golem, Golem, Steam car, Steam car (3 points)
    s.players[0].built = [0, 4, 1, 5]                     # 2 golems, 2 steam cars, 1 VP each
    assert s.scores()[0] == 4 + 3


# ---------------------------------------------------------------- D2: Time machine (WO-A9)

def test_d2_time_machine_makes_a_tie():
    """D2: counts P0 2, P1 3, P2 0; P0 uses the TM -> tie 3-3 -> C7 1/2 each; once per round."""
    s = settle_setup(new_state(3, start_player=2))
    s.players[0].upgrades[TIME_MACHINE] = True
    for p, c in enumerate((2, 3, 0)):
        s.players[p].in_factory[F1] = c
    s.phase = "factory"
    s.factories, s.fac_idx = [F1, F2], 0
    s._open_factory()
    refresh(s)
    assert s.node == "tm" and s.actor == 0               # window P2, P0, P1: only P0 eligible
    assert s.legal_moves() == sorted([time_move(False), time_move(True)])
    s.apply(time_move(True))
    assert s.players[0].workshop == 2
    assert s.node == "tie"
    assert probs(s) == {tie_outcome((0, 1)): Fraction(1, 2), tie_outcome((1, 0)): Fraction(1, 2)}
    s.apply(tie_outcome((1, 0)))
    assert s.track == [1, 0]
    assert s.players[0].tm_used                           # F2 of the same round: no window


# ---------------------------------------------------------------- D3: worker accumulation

def test_d3_workers_accumulate_until_the_factory_opens():
    """D3, WO-A16: F3 first opens in round 4; P1 drops 3 workers into F3 in rounds 1-4."""
    schedule = [()] * 30
    schedule[4] = (F3,)
    s = settle_setup(new_state(2, dataclasses.replace(DATA, schedule=tuple(schedule)),
                               start_player=1), tasks=[0, 1])
    for r in range(1, 5):                                 # the start seat alternates
        for _ in range(2):
            assert s.round == r and s.node == "place"
            do(s, place_move((0, 0, 3) if s.actor == 1 else (3, 0, 0)))
        if r < 4:
            assert s.players[1].in_factory[F3] == 3 * r
            assert s.players[1].supply == 18 - 3 * r       # refilled from the supply
    # Round 4: F3 opens with P1's 12 workers (P0 has none there); with 2 players the neutral
    # count comes first.
    assert s.node == "ncount"
    assert s.counts == [0, 12]
    assert s.players[1].supply == 6                       # the spec's 18 -> 6
    s.apply(ncount_outcome(0))                            # neutral 1 worker
    assert s.players[1].supply == 18                      # every F3 worker is back (WO-A16)
    assert s.players[1].in_factory[F3] == 0


# ---------------------------------------------------------------- D4, D5: payments (4.6)

def test_d4_converter_payment():
    """D4, WO-A7: cost iron 2 + wood 1; coal 2 replaces the second iron with the Converter."""
    cost = (0, 0, 2, 1, 0)
    st = (2, 0, 1, 1, 0)
    assert (0, 0, 0, 0, 0) in machine_payments(st, cost, True, False, False)
    assert machine_payments(st, cost, False, False, False) == frozenset()
    # 3 gold for the second iron (the exchange), no Converter.
    assert (0, 0, 0, 0, 0) in machine_payments((0, 0, 1, 1, 3), cost, False, False, False)
    # Iron for iron, or gold as a substitute, are not Converter payments by default.
    assert machine_payments((0, 0, 3, 1, 0), (0, 0, 2, 1, 0), True, False, False) == \
        frozenset({(0, 0, 1, 0, 0)})
    assert (0, 0, 0, 0, 0) not in machine_payments((0, 0, 1, 1, 2), cost, True, False, False)
    assert (0, 0, 0, 0, 0) in machine_payments((0, 0, 1, 1, 2), cost, True, True, False)


def test_d5_upgrade_paid_with_the_exchange():
    """D5: 1 gold + 3 building cubes pay the Time machine; the Fourth worker is out of reach."""
    st = (1, 1, 1, 0, 1)
    assert upgrade_payments(st, 2, False) == frozenset({(0, 0, 0, 0, 0)})
    assert upgrade_payments(st, 3, False) == frozenset()
    # EXCHANGE_ALLOWS_GOLD_INPUT: 3 gold may pay one gold unit (dominated, but a distinct move).
    assert upgrade_payments((0, 0, 0, 0, 4), 2, False) == frozenset({(0, 0, 0, 0, 2)})
    assert upgrade_payments((0, 0, 0, 0, 4), 2, True) == frozenset({(0, 0, 0, 0, 2), (0, 0, 0, 0, 0)})


def test_same_resulting_storage_is_one_move():
    """4.6: two payments leaving the same storage are one move."""
    s = machine_phase(3, [0, 1, 2], storages=[(2, 1, 0, 0, 3)])
    builds = [m for m in s.legal_moves() if m % 32 == 5]
    assert len(builds) == len(set(builds))
    # P00 costs coal 2 + glass 1: direct, or 3 gold for one unit (either coal: one move).
    assert sorted(builds) == sorted([build_move(0, (0, 0, 0, 0, 3)), build_move(0, (1, 0, 0, 0, 0)),
                                     build_move(0, (0, 1, 0, 0, 0))])


# ---------------------------------------------------------------- D6: Strike (4.4.5)

def test_d6_strike_three_players():
    """D6, C6, WO-A12: ordered pairs 1/6; (P1, P0): P1 loses its only worker, P0 one."""
    s = machine_phase(3, [0, 1, 2], storages=[(2, 1, 0, 0, 0)])
    s.players[1].workshop, s.players[1].supply = 1, 20
    s.deck = {DATA.strike, 3, 4}
    do(s, build_move(0, (0, 0, 0, 0, 0)))
    s.apply(draw_outcome(DATA.strike))
    assert s.node == "strike"
    assert probs(s) == {strike_outcome(a, b): Fraction(1, 6)
                        for a, b in itertools.permutations(range(3), 2)}
    s.apply(strike_outcome(1, 0))
    assert [pl.workshop for pl in s.players] == [2, 0, 3]
    assert s.players[1].supply == 21 and s.players[0].supply == 19     # to personal supply
    assert DATA.strike in s.discard and s.node == "draw" and DATA.strike not in s.deck


def test_strike_two_players_both_hit():
    """C6 with 2 players: 2 outcomes of 1/2; the neutral is never hit."""
    s = machine_phase(2, [0, 1, 2], storages=[(2, 1, 0, 0, 0)])
    s.deck = {DATA.strike}
    do(s, build_move(0, (0, 0, 0, 0, 0)))
    s.apply(draw_outcome(DATA.strike))
    assert probs(s) == {strike_outcome(0, 1): Fraction(1, 2), strike_outcome(1, 0): Fraction(1, 2)}
    s.apply(strike_outcome(0, 1))
    assert [pl.workshop for pl in s.players] == [1, 2]
    assert s.office[0] is None                            # empty deck: slot stays empty (WO-A14)


# ---------------------------------------------------------------- D7: Machine phase end (WO-A6)

def test_d7_machine_phase_ends_after_n_consecutive_passes():
    """D7: FE P1; P1 passes, P2 builds, P0 passes, P1 passes, P2 passes -> phase over."""
    rich = (4, 4, 4, 4, 0)
    s = machine_phase(3, [0, 1, 2], storages=[rich, rich, rich], fe=1)
    assert s.actor == 1
    do(s, PASS_MOVE)
    assert s.actor == 2
    do(s, build_move(0, (2, 3, 4, 4, 0)))
    s.apply(draw_outcome(3))
    for p in (0, 1):
        assert s.node == "machine" and s.actor == p
        do(s, PASS_MOVE)
    assert s.actor == 2
    do(s, PASS_MOVE)
    assert s.node == "change"


# ---------------------------------------------------------------- D9: First Engineer (WO-A4)

def test_d9_fe_forced_in_the_first_factory():
    """D9: SCHEDULE [F1, F2]; only P2 ranks in F1: P2 takes all picks and must take the FE."""
    s = at_picking(3, [2], (1, 1, 2, 2, 0), factories=(F1, F2))
    for _ in range(6):
        assert s.actor == 2 and s.node == "pick"
        s.apply(pick_move(next(t for t in range(5) if s.sidings[F1][t])))
    assert s.fe == 2                                      # then forced
    # Under FE_FORCED_LAST_FACTORY_ONLY, P2 may leave it: picking ends with the cubes.
    s = WolsungReference(DATA, 3, {"fe_forced_last_factory_only": True, "start_player": 0}).initial_state()
    settle_setup(s)
    s.factories, s.fac_idx, s.track, s.fe = [F1, F2], 0, [2], FE_ON_BOARD
    s.sidings[F1] = [1, 1, 2, 2, 0]
    s.players[0].in_factory[F2] = 1                       # P0 ranks in F2
    s._begin_picking()
    refresh(s)
    for _ in range(6):
        s.apply(pick_move(next(t for t in range(5) if s.sidings[F1][t])))
    assert s.fe == FE_ON_BOARD and s.fac_idx == 1         # F2 offers the FE to P0
    assert s.node == "pick" and s.actor == 0 and pick_move(FE_PICK) in s.legal_moves()


def test_fe_goes_to_the_start_player_when_nobody_ranks():
    """WO-A4 (c): nobody in the opened factory -> the start player takes the FE."""
    s = at_picking(3, [], (1, 1, 2, 2, 0))
    assert s.fe == 0 and s.phase == "machine"


# ---------------------------------------------------------------- D10: Fourth worker (WO-A18)

def test_d10_fourth_worker():
    """D10: gold 3 -> 0; workshop 3 -> 4 at once (supply 10 -> 9); 4 workers placed next round."""
    s = machine_phase(3, [0, 1, 2], storages=[(0, 0, 0, 0, 3)])
    s.players[0].supply = 10
    do(s, upgrade_move(FOURTH_WORKER, (0, 0, 0, 0, 0)))
    pl = s.players[0]
    assert pl.storage == [0] * 5 and pl.workshop == 4 and pl.supply == 9 and pl.capacity == 4


# ---------------------------------------------------------------- chance distributions (5)

def test_setup_chance_c1_c3_c4():
    """C1 (office from deck A, 1/|deck|), C3 (tasks 1/8, 1/7, ...), C4 (start seat 1/n)."""
    s = new_state(3)
    assert s.node == "draw" and probs(s) == {draw_outcome(c): Fraction(1, 25)
                                             for c in sorted(WolsungReference(DATA, 3).deck_a)}
    for k in (25, 24, 23):
        assert len(s.chance_outcomes()) == k
        s.apply(draw_outcome(min(c for c in s.deck if c != DATA.strike)))
    for k in (8, 7, 6):
        assert s.node == "deal" and set(probs(s).values()) == {Fraction(1, k)}
        s.apply(s.chance_outcomes()[0][0])
    assert s.node == "start" and probs(s) == {start_outcome(p): Fraction(1, 3) for p in range(3)}


def test_c9_c10_neutral_count_and_order_never_the_count_card():
    """C9 1/5; C10: 1/4 over the 4 cards other than the count card (WO-A5, WO-A34)."""
    s = settle_setup(new_state(2, start_player=0))
    s.players[0].in_factory[F1] = 3
    s.phase = "factory"
    s.factories, s.fac_idx = [F1], 0
    s._open_factory()
    refresh(s)
    assert s.node == "ncount" and set(probs(s).values()) == {Fraction(1, 5)} and len(probs(s)) == 5
    s.apply(ncount_outcome(2))                            # value 3: a tie with P0's 3
    assert s.node == "tie"
    assert probs(s) == {tie_outcome((0, NEUTRAL)): Fraction(1, 2), tie_outcome((NEUTRAL, 0)): Fraction(1, 2)}
    s.apply(tie_outcome((NEUTRAL, 0)))
    assert s.node == "norder"
    assert probs(s) == {norder_outcome(c): Fraction(1, 4) for c in (0, 1, 3, 4)}


def test_c7_ties_are_uniform_permutations_per_group():
    """C7, WO-A10: every tied group (any position) is one node with k! outcomes of 1/k!."""
    s = settle_setup(new_state(4, start_player=0))
    for p, c in enumerate((2, 2, 2, 1)):
        s.players[p].in_factory[F1] = c
    s.phase = "factory"
    s.factories, s.fac_idx = [F1], 0
    s._open_factory()
    refresh(s)
    assert s.node == "tie" and set(probs(s).values()) == {Fraction(1, 6)} and len(probs(s)) == 6
    s.apply(tie_outcome((2, 0, 1)))
    assert s.track == [2, 0, 1, 3]


# ---------------------------------------------------------------- deck events (4.7)

def test_round_12_and_22_deck_events():
    """WO-A25: deck B joins the draw pile at the end of round 12; WO-A13: the discarded
    machines (not the Strike) return at the end of round 22; empty slots fill (WO-A14)."""
    s = settle_setup(new_state(3, start_player=0))
    s.round = 12
    s.deck = set()
    s.office = [None, None, 5]
    s.discard = [6, DATA.strike]
    s._end_round()
    refresh(s)
    assert s.node == "draw" and len(s.chance_outcomes()) == 16
    assert all(DATA.machines[o // 32].vp >= 3 for o, _ in s.chance_outcomes())
    s.apply(draw_outcome(24))
    s.apply(draw_outcome(25))
    assert s.office == [25, 24, 5] and s.round == 13
    s.round = 22
    s.office = [None, 24, 5]
    s.deck = set()
    s._end_round()
    refresh(s)
    assert probs(s) == {draw_outcome(6): 1}
    s.apply(draw_outcome(6))
    assert s.discard == [DATA.strike] and s.round == 23


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_workers_and_end(players):
    """Whole random games: workers conserved (21 each), storage within 0..4, the game ends
    after 25 or 29 rounds, returns sum to 1."""
    ref = WolsungReference(DATA, players)
    for seed in range(5):
        rng = random.Random(seed)
        s = ref.initial_state()
        while not s.is_terminal():
            for pl in s.players:
                assert pl.workshop + pl.supply + sum(pl.in_factory) == 21
                assert all(0 <= x <= 4 for x in pl.storage)
            if s.is_chance():
                s.apply(s.sample_chance(rng))
            else:
                s.apply(rng.choice(s.legal_moves()))
        assert s.round == (29 if players == 4 else 25)
        assert sum(s.returns()) == pytest.approx(1.0)
    scores, decisions = random_playout(ref, random.Random(99))
    assert decisions > 50 and len(scores) == players


# ---------------------------------------------------------------- more WO-A resolutions

def test_wo_a35_one_placement_is_a_whole_allocation():
    """WO-A35, 4.2: one PLACE per player and round, C(w+2, 2) splits of the w workshop workers;
    WO-A27: the start seat moves left (s0 + r - 1) % n."""
    s = settle_setup(new_state(3, start_player=2))
    assert s.node == "place" and s.actor == 2
    assert len(s.legal_moves()) == 10                     # w = 3
    do(s, place_move((1, 1, 1)))
    assert s.actor == 0
    do(s, place_move((0, 0, 3)))
    do(s, place_move((3, 0, 0)))
    assert s.round == 2 and s.actor == 0 and s.start_player == 0


def test_wo_a17_refill_as_far_as_the_supply_allows():
    """WO-A17: a short personal supply refills what it can; the player then places fewer."""
    s = settle_setup(new_state(3, start_player=0))
    s.players[0].supply, s.players[0].in_factory[F3] = 1, 17
    do(s, place_move((0, 0, 3)))
    assert s.players[0].workshop == 0                     # refills come after all placements
    do(s, place_move((3, 0, 0)))
    do(s, place_move((3, 0, 0)))
    assert s.players[0].workshop == 1 and s.players[0].supply == 0
    do(s, place_move((3, 0, 0)))                          # round 2 starts with P1
    do(s, place_move((3, 0, 0)))
    assert s.actor == 0 and len(s.legal_moves()) == 3     # C(3, 2) splits of 1 worker


def test_wo_a19_finite_supply_refills_as_far_as_possible():
    """WO-A19: with the finite supply, a siding refills only from the cubes not in play."""
    s = settle_setup(new_state(3, start_player=0, finite_supply=True))
    assert s.general == [16 - 4, 16 - 4, 16 - 4, 16 - 3, 12 - 3]
    s.general[IRON] = 0
    s = at_picking(3, [0], (1, 1, 2, 2, 0), fe=1)
    s.general = [16, 16, 0, 16, 12]
    s.sidings[F1] = [1, 1, 2, 2, 0]
    s._moves = None
    for item in (IRON, IRON, COAL, GLASS, WOOD, WOOD):
        if s.node == "pick":
            do(s, pick_move(item))
    assert s.players[0].storage == [1, 1, 2, 2, 0]
    assert s.sidings[F1] == [1, 1, 0, 2, 0]               # no iron left in the general supply


def test_wo_a28_converter_bought_this_phase_applies_to_later_builds():
    """WO-A28: a Converter bought in this Machine phase is used by a later build of the phase."""
    s = machine_phase(2, [10, 11, 12], storages=[(0, 0, 3, 4, 1), (0,) * 5])
    # P10: Steam locomotive, Aquitaine, 1 VP: coal 2 + wood 1; no coal, so only the Converter pays.
    assert DATA.machines[10].cost[:4] == (2, 0, 0, 1)
    assert not any(m % 32 == 5 and (m // 32) % 3 == 2 for m in s.legal_moves())
    do(s, upgrade_move(CONVERTER, (0, 0, 3, 4, 0)))
    assert s.actor == 0                                   # P1 can only pass (forced)
    assert any(m % 32 == 5 and (m // 32) % 3 == 2 for m in s.legal_moves())


def test_wo_a28_time_machine_bought_now_is_usable_next_production_round():
    """WO-A28 / WO-A9: the TM acts when a factory opens, so it is first usable next time."""
    s = machine_phase(3, [0, 1, 2], storages=[(0, 0, 0, 0, 2)])
    do(s, upgrade_move(TIME_MACHINE, (0, 0, 0, 0, 0)))
    assert s.players[0].upgrades[TIME_MACHINE]


def test_wo_a33_strike_during_the_office_change():
    """WO-A33: a Strike drawn by the end-of-phase change is resolved, then a machine is drawn."""
    s = machine_phase(2, [0, 1, 2])
    s.deck = {DATA.strike, 7}
    s.deck.discard(2)
    assert s.node == "draw" and s.discard == [2]          # all passed: the change draws
    s.apply(draw_outcome(DATA.strike))
    assert s.node == "strike"
    s.apply(strike_outcome(1, 0))
    assert probs(s) == {draw_outcome(7): 1}
    s.apply(draw_outcome(7))
    assert s.office == [7, 0, 1] and s.discard == [2, DATA.strike]


def test_wo_a12a_strike_at_setup_is_resolved_with_three_workers():
    """WO-A12 (a): a Strike in the initial office fill hits the 3 starting workers."""
    s = new_state(2)
    s.apply(draw_outcome(DATA.strike))
    assert s.node == "strike"
    s.apply(strike_outcome(0, 1))
    assert [pl.workshop for pl in s.players] == [1, 2]
    assert s.node == "draw" and draw_outcome(DATA.strike) not in dict(s.chance_outcomes())


def test_wo_a13_strike_return_flag():
    """WO-A13 alternative: with strike_returns_at_22 the Strike goes back into the deck."""
    s = settle_setup(new_state(3, start_player=0, strike_returns_at_22=True))
    s.round, s.deck, s.office, s.discard = 22, set(), [1, 2, 3], [6, DATA.strike]
    s._end_round()
    refresh(s)
    assert s.deck == {6, DATA.strike}


def test_wo_a23_wo_a29_last_round_played_in_full_and_round_events():
    """WO-A23: the last round (25 with 3 players) is a production round and is played fully.
    WO-A29: the round-12 event happens at the end of round 12, an ordinary round in P1."""
    assert DATA.schedule[25] and not DATA.schedule[12] and not DATA.schedule[22]
    s = settle_setup(new_state(3, start_player=0))
    s.round = 25
    rng = random.Random(1)
    phases = set()
    while not s.is_terminal():
        phases.add(s.phase)
        s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_moves()))
    assert s.round == 25 and {"factory", "machine"} <= phases


def test_wo_a36_three_factories_in_one_round():
    """WO-A36: the data may open 3 factories in a round; they open in FACTORY_ORDER."""
    schedule = [()] * 30
    schedule[1] = (F3, F1, F2)
    s = settle_setup(new_state(3, dataclasses.replace(DATA, schedule=tuple(schedule)), start_player=0))
    for _ in range(3):
        do(s, place_move((1, 1, 1)))
    assert s.factories == [F1, F2, F3]


def test_wo_a21_any_points_and_icons():
    """WO-A21: a 1-point, 2-icon task scores like any other."""
    ms = [Machine(GOLEM, AQUITAINE, 1, (0,) * 5), Machine(AIRSHIP, WOTANY, 1, (0,) * 5)]
    assert task_points([Task(1, (GOLEM, 4 + WOTANY))], ms) == 1
    assert task_points([Task(1, (GOLEM, GOLEM))], ms) == 0


def test_wo_a8_exchange_only_inside_a_payment():
    """WO-A8: there is no free-standing exchange move: a Machine turn is PASS, BUILD or UPGRADE."""
    s = machine_phase(3, [0, 1, 2], storages=[(4, 4, 4, 4, 4)])
    assert {m % 32 for m in s.legal_moves()} == {4, 5, 6}


def test_n1_fe_forced_last_factory_only_blocked_picker_still_takes_the_fe():
    """WO-A4 alternative with WO-A11 (FINDINGS.md N1): in a non-last factory, a picker whose
    storage blocks every remaining cube has the FE as the only option and must take it."""
    s = WolsungReference(DATA, 3, {"fe_forced_last_factory_only": True, "start_player": 0}).initial_state()
    settle_setup(s)
    s.factories, s.fac_idx, s.track, s.fe = [F1, F2], 0, [0], FE_ON_BOARD
    s.sidings[F1] = [1, 1, 2, 2, 0]
    s.players[0].storage = [4, 4, 4, 4, 0]
    s.players[1].in_factory[F2] = 1
    s._begin_picking()
    refresh(s)
    assert s.fe == 0 and s.fac_idx == 1
