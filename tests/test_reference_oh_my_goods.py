"""Tests of the pure-Python Oh My Goods! reference (python/eurosearch/reference/oh_my_goods.py).

Worked examples follow shared/rules/oh_my_goods.md section 11 (T1, T2, T3, T6, T10, T17, T19,
T25) on the bundled data. Every position is reached from the initial state by applying chosen
chance outcomes and moves (start_player fixed), as docs/oh_my_goods_engine.md sequences them.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

from eurosearch.games import oh_my_goods_data
from eurosearch.games.oh_my_goods import OmgOptions
from eurosearch.reference.oh_my_goods import (
    BUILD_MOVE, CHAIN, END_CHAINS_MOVE, END_PRODUCTION_MOVE, HIRE, MOVE, NO_CARD, PASS_MOVE, PAY,
    REDRAW_ALL, STAY, WORKER, OmgRefState, OmgReference, chain_move, charburner_move, describe,
    draw_move, move_type, pay_move, produce_move, random_playout, redraw_move, set_aside_move,
    side_move, supply_move, worker_move,
)

DATA = oh_my_goods_data.load()
GRAIN, WOOD, CLAY, STONE, WOOL = range(1, 6)
CB_GRAIN, CB_STONE = 1, 2          # Charburner ids in data order (clay, grain, stone, wool)


def card(card_id: str) -> int:
    return DATA.card_index(card_id)


def new_state(players: int, **options) -> OmgRefState:
    return OmgReference(DATA, players, OmgOptions(**options)).initial_state()


# ---------------------------------------------------------------- invariants

def check_node(s: OmgRefState) -> None:
    """Invariants that hold at every node."""
    s.card_places()                                   # every card in exactly one place
    cp = s.current_player()
    if s.is_terminal():
        assert cp == -2 and s.legal_moves() == [] and s.chance_outcomes() == []
        return
    if s.is_chance():
        assert cp == -1 and s.legal_moves() == []
        outcomes = s.chance_outcomes()
        ids = [o for o, _ in outcomes]
        assert outcomes and len(set(ids)) == len(ids)
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
        n = len(outcomes)
        assert all(p == float(1) / float(n) for _, p in outcomes)   # every node is uniform
    else:
        assert 0 <= cp < s.ref.players and s.chance_outcomes() == []
        moves = s.legal_moves()
        assert len(moves) >= 2, (s, [describe(m) for m in moves])   # forced moves never shown
        assert len(set(moves)) == len(moves)


def play_random(s: OmgRefState, rng: random.Random, check: bool = True, max_steps: int = 100_000
                ) -> int:
    """Play to the end uniformly at random; return the number of decisions."""
    decisions = 0
    for _ in range(max_steps):
        if check:
            check_node(s)
        if s.is_terminal():
            return decisions
        if s.is_chance():
            outcome = s.sample_chance(rng)
            assert outcome in dict(s.chance_outcomes())
            s.apply_sampled(outcome)
        else:
            moves = s.legal_moves()
            if check and moves and move_type(moves[0]) == PAY:
                check_payment_node(s)
            s.apply(rng.choice(moves))
            decisions += 1
    raise AssertionError("game did not end")


def check_payment_node(s: OmgRefState) -> None:
    """PAY(k) is legal iff some full payment vector with this prefix is minimal (OMG-A32)."""
    _, p, cost, _, paid = s.tasks[-1]
    values, avail = s._pay_values(p)
    j = len(paid)
    ranges = [range(a + 1) for a in avail[j + 1:]]
    if math.prod(len(r) for r in ranges) * (avail[j] + 1) > 20_000:
        return
    legal = {m >> 5 for m in s.legal_moves()}
    expect = set()
    for k in range(avail[j] + 1):
        for rest in itertools.product(*ranges):
            vec = list(paid) + [k] + list(rest)
            total = sum(x * v for x, v in zip(vec, values))
            paid_values = [v for x, v in zip(vec, values) if x]
            if total >= cost and (not paid_values or total - min(paid_values) < cost):
                expect.add(k)
                break
    assert legal == expect, (paid, values, avail, cost)


# ---------------------------------------------------------------- random games

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_the_end(players: int) -> None:
    for seed in range(30):
        s = new_state(players)
        decisions = play_random(s, random.Random(1000 * players + seed), check=seed < 10)
        assert s.is_terminal() and decisions > 50
        returns = s.returns()
        assert math.isclose(sum(returns), 1.0)
        check_final_result(s)


OPTION_SETS = [
    {"final_round": "full_round"},
    {"phase1_redraw": "all_or_nothing"},
    {"office_extra_card_stacks": True},
    {"worker_leaves_after_production": True},
    {"round_cap": 4},
    {"start_player": 1},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_with_options(options: dict) -> None:
    for seed in range(4):
        players = 2 + seed % 3
        s = new_state(players, **options)
        play_random(s, random.Random(seed))
        check_final_result(s)
        if "round_cap" in options:
            assert s.rounds_done == options["round_cap"]


def check_final_result(s: OmgRefState) -> None:
    """Spec 8: VP formula and the winner with its tie-breaks (OMG-A25)."""
    n = s.ref.players
    vp = []
    for p in range(n):
        gold = sum(len(pile) * s._value(p, slot) for slot, pile in enumerate(s.goods[p]))
        total = sum(DATA.cards[c].vp for c in s.built[p]) + gold // 5
        total += sum(DATA.assistants[a].sides[s.assistant_side[a]].vp
                     for a in range(8) if s.assistant_owner[a] == p)
        assert s.scores()[p] == float(total)
        vp.append((total, gold % 5))
    best = max(vp)
    winners = [p for p in range(n) if vp[p] == best]
    assert s.returns() == [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


def test_random_playout_is_reproducible() -> None:
    ref = OmgReference(DATA, 3)
    a = random_playout(ref, random.Random(7))
    b = random_playout(ref, random.Random(7))
    assert a == b and a[1] > 50 and len(a[0]) == 3


def test_game_end_and_final_round() -> None:
    """T22/T23: the end triggers at 8 buildings; the default final round has only chains."""
    rng = random.Random(5)
    s = new_state(3)
    saw_final_chains = False
    while not s.is_terminal():
        before = s.end_triggered
        if s.is_chance():
            s.apply_sampled(s.sample_chance(rng))
        else:
            if s.stage() == "final_chains":
                saw_final_chains = True
                assert all(move_type(m) == CHAIN or m == END_CHAINS_MOVE for m in s.legal_moves())
            s.apply(rng.choice(s.legal_moves()))
        if s.end_triggered and not before:
            assert max(s.slot_count(p) for p in range(3)) >= 8
    assert s.end_triggered and (saw_final_chains or s.rounds_done >= 60)


def test_hire_and_build_legality_in_random_games() -> None:
    """T11/T13: BUILD needs a set-aside card and enough gold; HIRE needs < 2 assistants."""
    rng = random.Random(11)
    for _ in range(6):
        s = new_state(4)
        while not s.is_terminal():
            if s.is_chance():
                s.apply_sampled(s.sample_chance(rng))
                continue
            moves = s.legal_moves()
            if s.stage() == "build_or_hire":
                p = s.current_player()
                can_build = s.aside[p] >= 0 and s.gold(p) >= DATA.cards[s.aside[p]].cost
                assert (BUILD_MOVE in moves) == can_build
                if sum(o == p for o in s.assistant_owner) >= 2:
                    assert not any(move_type(m) == HIRE for m in moves)
            s.apply(rng.choice(moves))


def test_illegal_moves_raise_and_leave_the_state_unchanged() -> None:
    rng = random.Random(3)
    s = new_state(2)
    checked_decision = checked_chance = 0
    for _ in range(400):
        if s.is_terminal():
            break
        before = s.snapshot()
        if s.is_chance():
            legal = {o for o, _ in s.chance_outcomes()}
            bad = [draw_move(c) for c in range(94) if draw_move(c) not in legal][:1]
            for move in bad + [draw_move(100), PASS_MOVE, 0, -5]:
                with pytest.raises(ValueError):
                    s.apply(move)
            checked_chance += 1
        else:
            legal = set(s.legal_moves())
            for bad in (PASS_MOVE if PASS_MOVE not in legal else BUILD_MOVE, -1, 10**9,
                        draw_move(0)):
                if bad not in legal:
                    with pytest.raises(ValueError):
                        s.apply(bad)
            with pytest.raises(ValueError):
                s.apply(True)
            with pytest.raises(ValueError):
                s.apply("1")                                       # type: ignore[arg-type]
            checked_decision += 1
        assert s.snapshot() == before
        if s.is_chance():
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_moves()))
    assert checked_decision > 20 and checked_chance > 20


def test_clone_is_independent() -> None:
    rng = random.Random(9)
    s = new_state(3)
    for _ in range(300):
        if s.is_chance():
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_moves()))
    c = s.clone()
    before = s.snapshot()
    assert c.snapshot() == before
    play_random(c, rng, check=False)
    assert s.snapshot() == before and not s.is_terminal()


def test_exhaustion_cards_are_known_to_their_discarder_only() -> None:
    """T21 / contract "Knowledge": exhaustion discards form the draw pile, seen by the owner."""
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = new_state(4)
        while not s.is_terminal() and found < 3:
            if s.is_chance():
                s.apply_sampled(s.sample_chance(rng))
                continue
            if s.stage() == "halve":
                p = s.current_player()
                assert not s.draw and not s.discard
                h = len(s.hand[p])
                assert h >= 2 and s.tasks[-1][2] <= h // 2
            stage = s.stage()
            s.apply(rng.choice(s.legal_moves()))
            if stage == "halve" and s.stage() != "halve" and s.draw:
                for c in s.draw:
                    assert bin(s.seen[c]).count("1") == 1
                found += 1
        if found >= 3:
            break
    assert found >= 1


# ---------------------------------------------------------------- scripted positions

class Script:
    """Drives a game from its initial state with chosen chance outcomes and moves."""

    def __init__(self, players: int, charburners: list[int], hands: list[list[int]],
                 reserved: list[int] = (), **options):
        options.setdefault("start_player", 0)
        self.s = new_state(players, **options)
        self.reserved = set(reserved) | {c for h in hands for c in h}
        for cb in charburners:
            self.chance(charburner_move(cb))
        while self.s.stage() == "display":
            self.chance(min(o for o, _ in self.s.chance_outcomes()))
        while self.s.stage() == "side":
            self.chance(side_move(0))
        for hand in hands:                       # seats in turn order from seat 0
            self.draw(*hand)
            self.fill(5 - len(hand))             # hands are padded with filler cards
        self.fill(7 * players)
        assert self.s.stage() == "redraw"

    def filler(self) -> int:
        return min(c for c in self.s.draw if c not in self.reserved)

    def chance(self, outcome: int) -> float:
        s = self.s
        assert s.is_chance(), s
        probs = dict(s.chance_outcomes())
        assert outcome in probs, (describe(outcome), s.stage())
        s.apply(outcome)
        check_node(s)
        return probs[outcome]

    def fill(self, count: int = 1) -> None:
        """Draw ``count`` filler cards, one at a time."""
        for _ in range(count):
            self.draw(self.filler())

    def draw(self, *cards: int) -> None:
        for c in cards:
            assert self.s.stage() == "batch", self.s
            self.chance(draw_move(c))

    def do(self, *moves: int) -> None:
        for m in moves:
            s = self.s
            assert m in s.legal_moves(), (describe(m), s.stage(), [describe(x) for x in s.legal_moves()])
            s.apply(m)
            check_node(s)

    def moves(self, kind: int | None = None) -> set[int]:
        return {m for m in self.s.legal_moves() if kind is None or move_type(m) == kind}


def test_t1_setup_sizes() -> None:
    for players, pile in ((2, 70), (3, 58), (4, 46)):
        s = new_state(players)
        assert s.stage() == "charburner" and s.current_player() == -1
        assert dict(s.chance_outcomes())[charburner_move(0)] == 0.25
        kinds = []
        while s.is_chance():
            if s.stage() == "batch" and "batch" not in kinds:
                assert dict(s.chance_outcomes())[draw_move(0)] == float(1) / float(94)
            kinds.append(s.stage())
            s.apply(min(o for o, _ in s.chance_outcomes()))
        assert kinds.count("charburner") == players
        assert kinds.count("display") == (2 * players if players < 4 else 0)
        assert kinds.count("side") == 2 * players
        assert kinds.count("start") == 1
        assert kinds.count("batch") == 12 * players
        assert s.stage() == "redraw"
        assert len(s.draw) == pile and not s.discard
        assert all(len(s.hand[p]) == 5 and len(s.goods[p][0]) == 7 and s.gold(p) == 7
                   for p in range(players))
        assert sum(o == -1 for o in s.assistant_owner) == 2 * players
        # Hand cards are known to their owner only; the coal to nobody.
        for p in range(players):
            assert all(s.seen[c] == 1 << p for c in s.hand[p])
            assert all(s.seen[c] == 0 for c in s.goods[p][0])
        assert all(s.seen[c] == 0 for c in s.draw)


# Scenario A cards. P0: grain Charburner (2 grain + 1 wood, chain wood); P1: stone Charburner.
M2, S1, S2, M5, OFF_CARD3 = (card(x) for x in ("m2", "s1", "s2", "m5", "office_card3"))
P1_HAND = [card(x) for x in ("office_stone1", "s3", "br2", "br3", "br4")]
MARKET_A = [card(x) for x in ("m1", "br5", "br1", "office_card1", "br6")]   # T2 row 1: A..E
MARKET_B = [card(x) for x in ("br7", "tl1", "tl2")]                          # T2 row 2: F..H
NEXT_I = card("we1")
DEAL_A = [card(x) for x in ("office_stone3", "office_clay1", "ca5", "ca6")]   # P0 2, P1 2


def scenario_a(reserved: list[int] = ()) -> Script:
    """Round 1 up to P0's phase IV: worker short on the Charburner, market {grain 1, wood 0}."""
    sc = Script(2, [CB_GRAIN, CB_STONE], [[M2, S1, S2, M5, OFF_CARD3], P1_HAND],
                reserved=MARKET_A + MARKET_B + [NEXT_I] + DEAL_A + list(reserved))
    # Phase I: nobody redraws (T19 has 0 cards); each receives 2 cards.
    sc.do(redraw_move(NO_CARD))
    sc.do(redraw_move(NO_CARD))
    sc.draw(*DEAL_A)
    assert [len(h) for h in sc.s.hand] == [7, 7]
    # T2, Sunrise: A (no sun), B (sun), C, D, E (sun) -> the row closes right after E.
    assert [DATA.cards[c].sun for c in MARKET_A] == [False, True, False, False, True]
    sc.draw(*MARKET_A[:4])
    assert sc.s.stage() == "batch"
    sc.draw(MARKET_A[4])
    assert sc.s.market == [MARKET_A, []] and sc.s.stage() == "worker"
    # Planning: P0 short worker on the Charburner and sets the Mill m5 aside; P1 exact.
    assert sc.moves(WORKER) == {worker_move(0, True), worker_move(0, False)}
    sc.do(worker_move(0, False), set_aside_move(M5))
    sc.do(worker_move(0, True), set_aside_move(NO_CARD))
    assert sc.s.aside == [M5, -1] and sc.s.worker_exact == [False, True]
    # T2, Sunset: F (sun), G, H (sun) -> 3 cards; I stays in the pile.
    assert [DATA.cards[c].sun for c in MARKET_B] == [True, False, True]
    sc.draw(*MARKET_B)
    assert sc.s.market == [MARKET_A, MARKET_B] and NEXT_I in sc.s.draw
    assert sc.s.stage() == "production" and sc.s.current_player() == 0
    return sc


def test_t2_market_stop_rule() -> None:
    sc = scenario_a()
    assert len(sc.s.market[0]) + len(sc.s.market[1]) == 8


def test_t3_short_worker_and_t6_chain() -> None:
    sc = scenario_a()
    s = sc.s
    # T3: market {grain 1, wood 0}: short -> omit grain (supply a wood) or omit wood (a grain).
    assert sc.moves() == {produce_move(0, GRAIN), produce_move(0, WOOD), END_PRODUCTION_MOVE}
    # The set-aside Mill (a grain card) is not in the hand (T12, OMG-A17).
    assert M5 not in s.hand[0]
    sc.do(produce_move(0, GRAIN))
    assert sc.moves() == {supply_move(S1), supply_move(S2)}     # either wood card
    sc.do(supply_move(S1))
    assert S1 in s.discard and s.seen[S1] == 3
    assert s.stage() == "batch"                                  # 1 good (short)
    sc.fill()
    assert len(s.goods[0][0]) == 8 and 0 in s.produced[0]
    # The Charburner produced, so its chain (wood from hand -> coal) is open (spec 4.4.3).
    assert sc.moves() == {chain_move(0, S2), END_PRODUCTION_MOVE}
    sc.do(chain_move(0, S2))
    assert S2 in s.goods[0][0] and s.seen[S2] == 3             # shown: a public good
    assert s.gold(0) == 9
    # Build or hire: the Mill m5 costs 3; no displayed assistant can be hired yet.
    assert sc.moves() == {BUILD_MOVE, PASS_MOVE}
    sc.do(BUILD_MOVE)
    # One slot with 9 coal: PAY(3) is forced; 3 TAKE nodes over 9, 8, 7 goods (OMG-A15).
    for g in (9, 8, 7):
        assert s.stage() == "take" and len(s.chance_outcomes()) == g
        assert sc.chance(min(o for o, _ in s.chance_outcomes())) == float(1) / float(g)
    assert s.built[0] == [M5] and s.gold(0) == 6 and s.seen[M5] == 3
    assert s.scores()[0] == 2.0 + 1.0                            # Mill 2 VP + floor(6/5)


def test_t3_exact_worker_supplies_both() -> None:
    """T3 variant (a) at P1: stone Charburner exact, market {stone 1, wood 0}: 1 stone + 1 wood."""
    sc = scenario_a()
    sc.do(END_PRODUCTION_MOVE, PASS_MOVE)
    s = sc.s
    assert s.current_player() == 1 and s.stage() == "production"
    assert sc.moves() == {produce_move(0, 0), END_PRODUCTION_MOVE}
    sc.do(produce_move(0, 0))
    stone, wood = card("office_stone1"), card("s3")
    # Resources are supplied in increasing order (contract IV.1), wood before stone; with a
    # single card of each, both supplies are forced and the goods are drawn at once.
    assert s.stage() == "batch"
    assert stone in s.discard and wood in s.discard
    sc.fill(2)                            # exact: 2 goods
    assert len(s.goods[1][0]) == 9 and s.aside[0] == -1 and M5 in s.hand[0]


def test_t25_simultaneous_commitments_are_masked() -> None:
    sc = Script(2, [CB_GRAIN, CB_STONE], [[M2, S1, S2, M5, OFF_CARD3], P1_HAND],
                reserved=MARKET_A + DEAL_A)
    sc.do(redraw_move(NO_CARD), redraw_move(NO_CARD))
    sc.draw(*DEAL_A)
    sc.draw(*MARKET_A)
    assert sc.s.stage() == "worker" and sc.s.current_player() == 0
    a, b = sc.s.clone(), sc.s.clone()
    a.apply(worker_move(0, True))
    a.apply(set_aside_move(M5))
    b.apply(worker_move(0, False))
    b.apply(set_aside_move(NO_CARD))
    assert a.current_player() == b.current_player() == 1
    assert a.observation_key(1) == b.observation_key(1)          # P1 learns nothing
    assert a.observation_key(0) != b.observation_key(0)
    for st in (a, b):
        st.apply(worker_move(0, True))
        st.apply(set_aside_move(NO_CARD))
    # After the reveal: workers, modes and "a card was set aside" are public, not which card.
    assert a.observation_key(1) != b.observation_key(1)
    assert a.worker_exact[0] and not b.worker_exact[0]
    assert a.aside[0] == M5 and a.seen[M5] == 1
    c = a.clone()
    other = min(x for x in c.hand[0] if x != M5)
    c.hand[0].remove(other)
    c.hand[0].add(M5)
    c.aside[0] = other
    c.seen[other], c.seen[M5] = 1, 1
    assert c.observation_key(1) == a.observation_key(1)          # identity stays private
    assert c.observation_key(0) != a.observation_key(0)


def scenario_b(**options) -> Script:
    """T17: P0 builds an extra-card office in round 1 and holds 3 cards at the start of round 2."""
    off = card("office_card1")
    m1, m2, s1 = card("m1"), card("m2"), card("s1")
    deal = [card("office_stone1"), card("office_stone3"), card("br2"), card("br3")]
    market = [card("br5"), card("br6"), card("tl2"), card("tl3")]   # no grain, no wood; all suns
    sc = Script(2, [CB_GRAIN, CB_STONE],
                [[off, m1, m2, s1, card("office_clay1")],
                 [card(x) for x in ("br4", "ca1", "ca2", "ca3", "ca4")]],
                reserved=deal + market, **options)
    sc.do(redraw_move(NO_CARD), redraw_move(NO_CARD))
    sc.draw(*deal)
    sc.draw(*market[:2])
    sc.do(worker_move(0, True), set_aside_move(off))
    sc.do(worker_move(0, True), set_aside_move(NO_CARD))
    sc.draw(*market[2:])
    s = sc.s
    # Exact: 2 grain + 1 wood from hand. Grain goes first, in increasing ids, and a card is
    # offered only if enough higher grain cards remain (m2 alone cannot start the pair): with
    # exactly m1, m2 and s1 every supply is forced, so the goods are drawn at once.
    sc.do(produce_move(0, 0))
    assert s.stage() == "batch" and {m1, m2, s1} <= s.discard
    sc.fill(2)                           # 2 goods
    assert s.gold(0) == 9 and s.stage() == "build_or_hire"
    sc.do(BUILD_MOVE)
    for g in range(9, 1, -1):                                   # PAY(8) forced; 8 TAKEs
        sc.chance(min(o for o, _ in s.chance_outcomes()))
    assert s.built[0] == [off] and s.gold(0) == 1 and len(s.hand[0]) == 3
    assert s.round == 2 and s.stage() == "redraw"
    return sc


@pytest.mark.parametrize("stacks", [False, True])
def test_t17_extra_card_office(stacks: bool) -> None:
    sc = scenario_b(office_extra_card_stacks=stacks)
    s = sc.s
    sc.do(redraw_move(NO_CARD))                                 # P1 (start player)
    sc.do(redraw_move(NO_CARD))                                 # P0, 3 cards
    p1_before = len(s.hand[1])
    sc.fill(2)                           # P1 receives 2
    assert len(s.hand[1]) == p1_before + 2
    sc.fill(3)              # P0 receives 3 (2 + 1 office)
    assert len(s.hand[0]) == 6 and s.stage() == "batch" and not s.market[0]


def test_t19_redraw_any_subset() -> None:
    """T19: discard any cards (canonical increasing ids), draw as many, then the deal."""
    sc = Script(2, [CB_GRAIN, CB_STONE], [[M2, S1, S2, M5, OFF_CARD3], P1_HAND])
    s = sc.s
    hand = sorted(s.hand[0])
    assert sc.moves() == {redraw_move(c) for c in hand} | {redraw_move(NO_CARD)}
    sc.do(redraw_move(hand[1]))
    assert sc.moves() == {redraw_move(c) for c in hand[2:]} | {redraw_move(NO_CARD)}
    sc.do(redraw_move(hand[3]))
    sc.do(redraw_move(NO_CARD))
    assert s.current_player() == 1 and len(s.hand[0]) == 5      # pending, not yet discarded
    sc.do(redraw_move(NO_CARD))
    assert s.discard == {hand[1], hand[3]}
    for _ in range(4):                                          # P0: 2 replacements + 2 dealt
        sc.fill()
    assert len(s.hand[0]) == 7 and len(s.hand[1]) == 5
    sc.fill(2)
    assert len(s.hand[1]) == 7


def test_all_or_nothing_redraw() -> None:
    sc = Script(2, [CB_GRAIN, CB_STONE], [[M2, S1, S2, M5, OFF_CARD3], P1_HAND],
                phase1_redraw="all_or_nothing")
    assert sc.moves() == {redraw_move(REDRAW_ALL), redraw_move(NO_CARD)}
    sc.do(redraw_move(REDRAW_ALL), redraw_move(NO_CARD))
    assert sc.s.discard == {M2, S1, S2, M5, OFF_CARD3}
    for _ in range(7):
        sc.fill()
    assert len(sc.s.hand[0]) == 7


def test_mill_chain_and_minimal_payment() -> None:
    """T6 (Mill chain: grain from hand -> flour) and T10-style minimality with coal + flour."""
    grain_deal = card("m4")                                     # P0's round-2 deal: a grain card
    cost5 = card("br8")                                         # cost 5, a clay card
    sunrise = [card("m3"), card("m6")]                          # grain, grain (both suns)
    sunset = [card(x) for x in ("ca2", "ca3", "tl3", "tl4")]    # clay, clay, wool sun x2
    sc = scenario_a(reserved=[grain_deal, cost5] + sunrise + sunset)
    s = sc.s
    sc.do(produce_move(0, GRAIN), supply_move(S1))
    sc.fill()
    sc.do(chain_move(0, S2), BUILD_MOVE)
    while s.stage() == "take":
        sc.chance(min(o for o, _ in s.chance_outcomes()))
    assert s.built[0] == [M5] and s.gold(0) == 6 and s.current_player() == 1
    sc.do(END_PRODUCTION_MOVE)                                  # P1; its PASS is forced
    # Round 2: the start player moved to P1; the clean-up discarded the market.
    assert s.round == 2 and s.start == 1 and s.current_player() == 1 and s.stage() == "redraw"
    assert not s.market[0] and not s.market[1] and set(MARKET_A + MARKET_B) <= s.discard
    sc.do(redraw_move(NO_CARD), redraw_move(NO_CARD))
    sc.fill(2)                                                  # P1's deal
    sc.draw(cost5, grain_deal)                                  # P0's deal
    sc.draw(*sunrise)
    assert s.stage() == "worker" and s.current_player() == 1
    sc.do(worker_move(0, True), set_aside_move(NO_CARD))        # P1
    assert sc.moves() == {worker_move(0, True), worker_move(0, False),
                          worker_move(1, True), worker_move(1, False)}
    sc.do(worker_move(1, True), set_aside_move(cost5))          # P0: exact on the Mill m5
    sc.draw(*sunset)
    # Phase IV: P1 first (start player; it cannot produce, so its turn passes by itself).
    assert s.current_player() == 0 and s.stage() == "production"
    # The Mill (2 grain + 2 clay) is fully supplied by the market; it has not produced yet,
    # so its chain is closed (T6 negative).
    assert sc.moves() == {produce_move(1, 0), END_PRODUCTION_MOVE}
    sc.do(produce_move(1, 0))
    sc.fill(2)                           # exact: 2 flour
    grain_in_hand = sorted(c for c in s.hand[0] if DATA.cards[c].resource == GRAIN)
    assert grain_in_hand == sorted([M2, grain_deal])
    assert sc.moves() == {chain_move(1, c) for c in grain_in_hand} | {END_PRODUCTION_MOVE}
    # T10-style payment, cost 5 from 6 coal (1 gold) + 2 flour (2 gold): at the coal slot
    # PAY(1) (+2 flour), PAY(3) (+1 flour), PAY(5); PAY(2) or PAY(4) would leave a coal spare.
    t = s.clone()
    t.apply(END_PRODUCTION_MOVE)
    t.apply(BUILD_MOVE)
    assert t.stage() == "pay" and {m >> 5 for m in t.legal_moves()} == {1, 3, 5}
    t.apply(pay_move(3))                                        # then PAY(1) on the Mill: forced
    assert t.stage() == "take" and len(t.chance_outcomes()) == 6   # 3 of 6 coal leave
    # T6: one chain use moves the grain card onto the Mill as a public flour.
    sc.do(chain_move(1, M2))
    assert M2 in s.goods[0][1] and s.seen[M2] == 3 and len(s.goods[0][1]) == 3
    assert sc.moves() == {chain_move(1, grain_deal), END_PRODUCTION_MOVE}
    sc.do(END_PRODUCTION_MOVE, BUILD_MOVE)
    # With 3 flour (6 gold) paying no coal is minimal too.
    assert {m >> 5 for m in s.legal_moves()} == {0, 1, 3, 5}
    sc.do(pay_move(0))                                          # then all 3 flour, no TAKE node
    assert s.built[0] == [M5, cost5] and not s.goods[0][1] and s.discard >= {M2}
    assert s.gold(0) == 6 and s.scores()[0] == 2.0 + 2.0 + 1.0


def test_hidden_payment_for_assistant_move_is_reserved() -> None:
    """Contract II.2: a MOVE's payment is reserved, leaves at the reveal (TAKE nodes)."""
    rng = random.Random(2)
    for seed in range(60):
        rng = random.Random(seed)
        s = new_state(2)
        while not s.is_terminal():
            if s.is_chance():
                s.apply_sampled(s.sample_chance(rng))
                continue
            moves = s.legal_moves()
            moving = [m for m in moves if move_type(m) == MOVE and (m >> 8) & 0xF != STAY]
            if s.stage() == "move" and moving:
                p = s.current_player()
                gold = s.gold(p)
                s.apply(moving[0])
                while s.current_player() == p and s.stage() == "pay":
                    s.apply(s.legal_moves()[0])
                assert s.gold(p) == gold                        # nothing left the slots yet
                reserved = sum(k * s._value(p, slot) for slot, k in s.reserved[p].items())
                assert 2 <= reserved
                return
            s.apply(rng.choice(moves))
    pytest.fail("no assistant move found")


def exhausted_state(hand_sizes: list[int]) -> OmgRefState:
    """Round 1, at the first Sunrise draw, with empty draw and discard piles (T21).

    Reaching exhaustion by play is very rare, so this one position is made by moving cards:
    every draw-pile card and the surplus hand cards become face-down goods on P0's Charburner
    (card conservation still holds).
    """
    sc = Script(3, [0, 1, 2], [[], [], []])
    s = sc.s
    for _ in range(3):
        sc.do(redraw_move(NO_CARD))
    sc.fill(6)
    assert s.stage() == "batch" and s.tasks[-1][1] == "market"
    extra = list(s.draw)
    for p, size in enumerate(hand_sizes):
        keep = sorted(s.hand[p])[:size]
        extra += [c for c in s.hand[p] if c not in keep]
        s.hand[p] = set(keep)
    s.draw = []
    for c in extra:
        s.goods[0][0].append(c)
        s.seen[c] = 0
    s._clear_cache()
    s._advance()
    s.card_places()
    return s


def test_t21_exhaustion_halves_hands() -> None:
    s = exhausted_state([5, 2, 1])
    # P0 (start player) discards floor(5/2) = 2, P1 1, P2 nothing; hidden, increasing ids.
    assert s.stage() == "halve" and s.current_player() == 0
    hand0 = sorted(s.hand[0])
    assert set(s.legal_moves()) == {2 | (c << 5) for c in hand0[:4]}   # 2 more cards needed
    s.apply(2 | (hand0[3] << 5))
    assert s.stage() == "halve" and s.current_player() == 1          # hand0[4] was forced
    assert s.halve_pending[0] == [hand0[3], hand0[4]]
    assert s.observation_key(1)[3] == ((), (), (), (), None, -1)      # nothing of P0's shown
    hand1 = sorted(s.hand[1])
    s.apply(2 | (hand1[0] << 5))
    # The 3 cards form the draw pile, each known only to its discarder; the draw goes on.
    assert sorted(s.draw) == sorted([hand0[3], hand0[4], hand1[0]])
    assert [s.seen[c] for c in sorted(s.draw)] == [1 << (0 if c in hand0 else 1) for c in sorted(s.draw)]
    assert s.stage() == "batch" and len(s.chance_outcomes()) == 3
    assert [len(h) for h in s.hand] == [3, 1, 1]


def test_t21_exhaustion_without_cards_closes_the_row() -> None:
    s = exhausted_state([1, 1, 0])
    # Nobody holds 2 cards: nothing is collected, the Sunrise draw fails and the row closes.
    assert s.market == [[], []] and s.stage() == "worker" and s.current_player() == 0
    for _ in range(3):
        s.apply(worker_move(0, True))
        if s.stage() == "aside":
            s.apply(set_aside_move(NO_CARD))
    # The Sunset row fails the same way; in phase IV nobody can produce, so every turn passes
    # by itself, and round 2 begins with the new start player P1.
    assert s.round == 2 and s.stage() == "redraw" and s.current_player() == 1
    assert not s.draw and not s.discard and s.market == [[], []]
    # Draws fail until paid goods refill the discard pile; the game still ends.
    play_random(s, random.Random(0))
    assert s.is_terminal()
