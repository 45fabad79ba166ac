"""Wolsung's hidden information (spec 6) and every chance distribution (spec 5, C1-C11)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import eurosearch as es

pytestmark = pytest.mark.provisional   # positions and numbers use the provisional data set (P1-P8)

DRAW, DEAL, START, STRIKE, TIE, NCOUNT, NORDER, CHANGE = 16, 17, 18, 19, 20, 21, 22, 23
PH_DRAW, PH_DEAL, PH_START, PH_NCOUNT, PH_TIE, PH_NORDER, PH_CHANGE = 1, 3, 4, 6, 8, 9, 12


def fields(s, viewer=None):
    return json.loads(s.to_json(viewer=viewer, format=1))["state"]


def random_states(n, seed, every=7, games=3, options=None):
    g = es.game("wolsung", players=n, options=options)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = g.initial_state()
        k = 0
        while not s.is_terminal():
            if k % every == 0:
                out.append(s.clone())
            k += 1
            if s.is_chance():
                outs = s.chance_outcomes()
                s.apply(rng.choices([m for m, _ in outs], [p for _, p in outs])[0])
            else:
                s.apply(rng.choice(s.legal_moves()))
    return g, out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_views_hide_only_the_other_task_cards(n):
    g, states = random_states(n, n)
    for s in states[-40:]:
        full = fields(s)
        for p in range(n):
            v = fields(s, viewer=p)
            assert v["task"][p] == full["task"][p]
            assert all(v["task"][q] == -1 for q in range(4) if q != p)
            rest = {k: x for k, x in v.items() if k != "task"}
            assert rest == {k: x for k, x in full.items() if k != "task"}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinize_resamples_opponent_tasks_from_unseen_cards_and_never_leaks(n):
    g, states = random_states(n, 10 + n)
    s = states[-1]
    full = fields(s)
    seen_for_opp = Counter()
    for seed in range(400):
        d = s.determinize(0, seed)
        f = fields(d)
        assert f["task"][0] == full["task"][0]
        assert {k: x for k, x in f.items() if k != "task"} == {k: x for k, x in full.items() if k != "task"}
        tasks = [t for t in f["task"][:n]]
        assert len(set(tasks)) == n and all(0 <= t < 8 for t in tasks)
        assert d.to_text(viewer=0) == s.to_text(viewer=0)
        assert list(d.observation(0)) == list(s.observation(0))
        seen_for_opp[tasks[1]] += 1
    # uniform over the 7 cards p0 has not seen: every one appears, none is p0's
    assert set(seen_for_opp) == set(range(8)) - {full["task"][0]}
    assert min(seen_for_opp.values()) > 400 / 7 * 0.5


def _node(n, phase, seed=0, options=None, tries=40):
    g = es.game("wolsung", players=n, options=options)
    rng = random.Random(seed)
    for _ in range(tries):
        s = g.initial_state()
        while not s.is_terminal():
            if fields(s)["phase"] == phase:
                return g, s
            if s.is_chance():
                outs = s.chance_outcomes()
                s.apply(rng.choices([m for m, _ in outs], [p for _, p in outs])[0])
            else:
                s.apply(rng.choice(s.legal_moves()))
    raise AssertionError(f"phase {phase} not reached")


def _probs(s):
    return {m: p for m, p in s.chance_outcomes()}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c1_c5_draws_are_uniform_over_the_draw_deck(n):
    g = es.game("wolsung", players=n)
    s = g.initial_state()
    f = fields(s)
    assert f["phase"] == PH_DRAW and f["fill_slot"] == 2            # setup fills from the bottom
    pr = _probs(s)
    deck = [c for c in range(41) if f["deck"] >> c & 1]
    assert sorted(pr) == sorted(DRAW + 32 * c for c in deck) and len(deck) == 25   # deck A + Strike (C1)
    assert all(p == pytest.approx(1 / 25) for p in pr.values())
    assert f["deck_b"] == sum(1 << i for i, m in enumerate(g.data.machines) if m.vp >= 3)   # C2: set aside


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c3_deal_and_c4_start(n):
    g = es.game("wolsung", players=n)
    s = g.initial_state()
    while fields(s)["phase"] == PH_DRAW or fields(s)["phase"] == 2:
        s.apply(s.chance_outcomes()[0][0])
    for k in range(n):
        pr = _probs(s)
        assert fields(s)["phase"] == PH_DEAL and len(pr) == 8 - k
        assert all(p == pytest.approx(1 / (8 - k)) for p in pr.values())
        s.apply(max(pr))
    pr = _probs(s)
    assert fields(s)["phase"] == PH_START and sorted(pr) == [START + 32 * p for p in range(n)]
    assert all(p == pytest.approx(1 / n) for p in pr.values())


def test_c9_c10_neutral_count_and_order_card_never_the_count_card():
    g, s = _node(2, PH_NCOUNT, seed=1)
    pr = _probs(s)
    assert sorted(pr) == [NCOUNT + 32 * i for i in range(5)] and all(p == pytest.approx(0.2) for p in pr.values())
    for card in range(5):
        t = s.clone()
        t.apply(NCOUNT + 32 * card)
        assert fields(t)["neutral_count"] == g.data.specials[card].value
        rng = random.Random(card)
        while fields(t)["phase"] != PH_NORDER:
            t.apply(t.chance_outcomes()[0][0] if t.is_chance() else rng.choice(t.legal_moves()))
        pr2 = _probs(t)
        assert sorted(pr2) == [NORDER + 32 * i for i in range(5) if i != card]
        assert all(p == pytest.approx(0.25) for p in pr2.values())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c7_tie_orders_are_the_permutations_each_1_over_k_factorial(n):
    from math import factorial
    g, s = _node(n, PH_TIE, seed=n)
    f = fields(s)
    lo, hi = f["tie_lo"], f["tie_hi"]
    k = hi - lo + 1
    group = f["order"][lo:hi + 1]
    pr = _probs(s)
    assert len(pr) == factorial(k) and all(p == pytest.approx(1 / factorial(k)) for p in pr.values())
    for m in pr:
        a, order = m >> 5, []
        for _ in range(k):
            order.append(a % 5)
            a //= 5
        assert sorted(order) == sorted(group)


def test_c8_change_check_probability_is_s_over_5():
    g, s = _node(3, PH_CHANGE, seed=2)
    assert _probs(s) == {CHANGE: pytest.approx(0.6), CHANGE + 32: pytest.approx(0.4)}


def test_c11_deck_b_joins_after_round_12_and_discards_after_round_22_wo_a13_wo_a25_wo_a29():
    g = es.game("wolsung", players=3)
    deck_b = sum(1 << i for i, m in enumerate(g.data.machines) if m.vp >= 3)
    rng = random.Random(5)
    s = g.new_state(seed=5)
    seen12 = seen22 = False
    while not s.is_terminal():
        f = fields(s)
        if f["round"] <= 12:
            assert f["deck_b"] == deck_b                      # set aside, untouched
        if f["round"] == 13 and not seen12:
            assert f["deck_b"] == 0 and f["deck"] & deck_b   # merged into the draw deck
            seen12 = True
        if f["round"] == 23 and not seen22:
            assert f["discard"] & ~(1 << 40) == 0             # every machine went back; the Strike stays
            seen22 = True
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(rng.choices([m for m, _ in outs], [p for _, p in outs])[0])
        else:
            s.apply(rng.choice(s.legal_moves()))
    assert seen12 and seen22


def test_hidden_placement_variant_is_refused_until_implemented():
    with pytest.raises(ValueError, match="hidden_placement"):
        es.game("wolsung", players=3, options={"hidden_placement": True})
