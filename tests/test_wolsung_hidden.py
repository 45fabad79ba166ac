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


# ---------------------------------------------------------------- hidden placement (spec 4.9)

PH_PLACE, PH_TM = 5, 7
HIDDEN = {"hidden_placement": True, "start_player": 0}


def _play_to(g, stop, seed, limit=20000):
    rng = random.Random(seed)
    s = g.initial_state()
    for _ in range(limit):
        if stop(s):
            return s
        assert not s.is_terminal(), "the game ended before the position"
        s.apply(s.sample_chance(rng.getrandbits(64)) if s.is_chance() else rng.choice(s.legal_moves()))
    raise AssertionError("position not reached")


def _view(s, p):
    return (s.to_json(viewer=p), s.to_text(viewer=p), s.observation(p).tobytes(),
            tuple(sorted(s.legal_moves())) if s.current_player == p else ())


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("rnd", [1, 4])
def test_4_9_a_later_player_sees_nothing_of_an_earlier_placement(n, rnd):
    """Spec 4.9 and 7: placement is sequenced in seat order, and whatever the start player
    places, the next player's view (JSON, text, observation, legal moves) is the same; the
    placer's own view does depend on it, so the check can fail."""
    g = es.game("wolsung", players=n, options=HIDDEN)
    s = _play_to(g, lambda s: fields(s)["phase"] == PH_PLACE and fields(s)["round"] == rnd
                 and s.current_player == (rnd - 1) % n, seed=rnd)
    placer, nxt = s.current_player, (s.current_player + 1) % n
    variants = []
    for m in s.legal_moves():
        t = s.clone()
        t.apply(m)
        assert t.current_player == nxt
        variants.append(t)
    assert len(variants) >= 3
    assert len({_view(t, nxt) for t in variants}) == 1, "the next player's view depends on the placement"
    for q in range(n):                       # nobody else learns it either
        if q != placer:
            assert len({_view(t, q) for t in variants}) == 1
    assert len({_view(t, placer) for t in variants}) == len(variants)
    # the total placed stays public: every viewer sees it among the hidden workers
    for t in variants:
        assert fields(t, viewer=nxt)["hidden_workers"][placer] == sum(fields(t)["fac"][placer])


def test_4_9_open_placement_is_public_without_the_option():
    """Spec 4.2 step 2 (the standard rules): everyone sees who put how many workers where."""
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = _play_to(g, lambda s: fields(s)["phase"] == PH_PLACE and s.current_player == 0 and fields(s)["round"] == 2, seed=3)
    views = set()
    for m in s.legal_moves():
        t = s.clone()
        t.apply(m)
        views.add(t.to_json(viewer=1))
        assert fields(t, viewer=1)["fac"] == fields(t)["fac"] and fields(t, viewer=1)["hidden_workers"] == [0] * 4
    assert len(views) == len(s.legal_moves())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_4_9_counts_become_public_at_the_opening_and_others_stay_hidden(n):
    """Spec 4.9: the counts of the factory being opened are public to everyone (the neutral's
    count draw, the Time-machine window); the other factories stay private to their owners."""
    g = es.game("wolsung", players=n, options=HIDDEN)
    rng = random.Random(n)
    s = g.initial_state()
    opened = 0
    while not s.is_terminal():
        f = fields(s)
        if f["phase"] in (PH_NCOUNT, PH_TM) or (f["phase"] == PH_PLACE and f["round"] > 2):
            fac = g.data.schedule[f["round"] - 1][f["fac_idx"]] if f["phase"] != PH_PLACE else None
            for p in range(n):
                v = fields(s, viewer=p)
                for q in range(n):
                    if q == p:
                        assert v["fac"][q] == f["fac"][q] and v["hidden_workers"][q] == 0
                        continue
                    shown = [f["fac"][q][x] if x == fac else 0 for x in range(3)]
                    assert v["fac"][q] == shown
                    assert v["hidden_workers"][q] == sum(f["fac"][q]) - sum(shown)
                    # the total still hidden is public: 21 - workshop - supply - the opened count
                    assert v["hidden_workers"][q] == 21 - v["workshop"][q] - v["supply"][q] - sum(v["fac"][q])
            opened += fac is not None and any(f["fac"][q][fac] for q in range(n))
        s.apply(s.sample_chance(rng.getrandbits(64)) if s.is_chance() else rng.choice(s.legal_moves()))
    assert opened > 5


def test_4_9_render_view_shows_only_the_hidden_total():
    g = es.game("wolsung", players=3, options=HIDDEN)
    s = _play_to(g, lambda s: fields(s)["phase"] == PH_PLACE and fields(s)["round"] == 2 and s.current_player == 2, seed=1)
    f = fields(s)
    text = s.to_text(viewer=2).splitlines()
    p0 = next(line for line in text if line.startswith("P0 "))
    assert "factories 0/0/0" in p0 and f" +{sum(f['fac'][0])} hidden" in p0
    own = next(line for line in text if line.startswith("P2 "))
    assert "hidden" not in own.split("task")[0]
    assert "hidden" not in next(line for line in s.to_text().splitlines() if line.startswith("P0 ")).split("task")[0]
    # the play view (python/eurosearch/views/wolsung.py) shows the same
    from eurosearch.views import wolsung as wolsung_view
    seats = {x["seat"]: x["facts"] for x in wolsung_view.view(s, 2)["seats"]}
    assert seats[0]["in factories"] == "0/0/0" and seats[0]["hidden in factories"] == sum(f["fac"][0])
    assert "hidden in factories" not in seats[2] and seats[2]["in factories"] == "/".join(map(str, f["fac"][2]))


def _caps(g, s, p):
    """Workers p placed since each factory last opened (public): the bound determinize keeps."""
    f = fields(s)
    placed = f["placed"][p]
    caps = []
    for x in range(3):
        last = 0
        for r in range(1, f["round"] + 1):
            if x in g.data.schedule[r - 1] and (r < f["round"] or f["phase"] not in (PH_PLACE,)):
                last = r
        caps.append(sum(placed[last + 1:f["round"] + 1]))
    return caps


@pytest.mark.parametrize("n", [2, 3, 4])
def test_4_9_determinize_keeps_the_view_and_resamples_hidden_placements(n):
    """Spec 6 (information set under 4.9): determinize(p) changes nothing p sees, keeps every
    public total, keeps each factory within what its owner placed since it last opened, and
    does move the hidden workers."""
    g, states = random_states(n, 40 + n, every=11, games=2, options=HIDDEN)
    moved = 0
    for s in states:
        for p in range(n):
            for seed in (1, 2):
                d = s.determinize(p, seed)
                assert d.to_json(viewer=p) == s.to_json(viewer=p)
                assert d.to_text(viewer=p) == s.to_text(viewer=p)
                assert d.observation(p).tobytes() == s.observation(p).tobytes()
                assert d.current_player == s.current_player
                assert sorted(d.legal_moves()) == sorted(s.legal_moves()) or d.current_player != p
                g.state_from_bytes(d.to_bytes())              # a full, valid state
                fd, fs = fields(d), fields(s)
                for q in range(n):
                    assert sum(fd["fac"][q]) == sum(fs["fac"][q])
                moved += fd["fac"] != fs["fac"]
    assert moved > len(states) // 2


def test_4_9_determinize_is_uniform_over_the_allowed_splits():
    """The documented distribution (docs/wolsung_engine.md): each other player's hidden workers
    are spread uniformly over the vectors with their total in which no factory holds more than
    they placed since it last opened. Checked with fixed seeds by a chi-square test."""
    g = es.game("wolsung", players=3, options=HIDDEN)
    s = _play_to(g, lambda s: fields(s)["phase"] == PH_PLACE and fields(s)["round"] == 6 and s.current_player == 2, seed=7)
    f = fields(s)
    q = 1
    h, caps = sum(f["fac"][q]), _caps(g, s, q)
    allowed = [(a, b, h - a - b) for a in range(h + 1) for b in range(h + 1 - a)
               if a <= caps[0] and b <= caps[1] and h - a - b <= caps[2]]
    assert len(allowed) >= 4 and tuple(f["fac"][q]) in [tuple(x) for x in allowed]
    runs = 200 * len(allowed)
    counts = Counter(tuple(fields(s.determinize(2, seed))["fac"][q]) for seed in range(runs))
    assert set(counts) == set(allowed)
    exp = runs / len(allowed)
    chi2 = sum((counts[x] - exp) ** 2 / exp for x in allowed)
    assert chi2 < len(allowed) + 6 * (2 * len(allowed)) ** 0.5, chi2


def test_4_9_information_set_search_runs_on_hidden_placements():
    """ISMCTS keys an opponent's placement by what the searcher sees of it (move_view:
    PLACE_HIDDEN with the total), so it must search a placement node without error."""
    g = es.game("wolsung", players=3, options=HIDDEN)
    s = _play_to(g, lambda s: fields(s)["phase"] == PH_PLACE and fields(s)["round"] == 3 and s.current_player == 2, seed=2)
    res = s.mcts(2, iterations=300, information_sets=True)
    assert res
