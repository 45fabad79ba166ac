"""Wolsung rules: the worked examples of shared/rules/wolsung.md section 11 (E1-E5 from the book,
D1-D10 derived) against the C engine. Positions are built by playing to a node of the right kind
and editing the public fields (the validator accepts only reachable-looking states).

All of this runs on the PROVISIONAL data set (spec P1-P8) where a position needs card data."""

from __future__ import annotations

import json
from itertools import permutations

import pytest

import eurosearch as es

pytestmark = pytest.mark.provisional   # positions and numbers use the provisional data set (P1-P8)

PH_DRAW, PH_STRIKE, PH_PLACE, PH_NCOUNT, PH_TM, PH_TIE, PH_NORDER, PH_PICK, PH_MACHINE, PH_CHANGE = 1, 2, 5, 6, 7, 8, 9, 10, 11, 12
PLACE, TM, PICK, PASS, BUILD, UPGRADE = 1, 2, 3, 4, 5, 6
DRAW, STRIKE, TIE, NCOUNT, NORDER, CHANGE = 16, 19, 20, 21, 22, 23
COAL, GLASS, IRON, WOOD, GOLD, FE = 0, 1, 2, 3, 4, 5


def mv(kind: int, payload: int = 0) -> int:
    return kind + 32 * payload


def st_index(st) -> int:
    return st[0] + 5 * st[1] + 25 * st[2] + 125 * st[3] + 625 * st[4]


def fields(s) -> dict:
    return json.loads(s.to_json(format=1))["state"]


def edit(g, s, **changes):
    j = json.loads(s.to_json(format=1))
    j["state"].update(changes)
    return g.state_from_json(json.dumps(j))


def drive(g, s, until, place=lambda w: mv(PLACE, w), limit=5000, last=False):
    """Play deterministically (first chance outcome, all workers into F1, first move otherwise)
    until `until(fields)` holds."""
    for _ in range(limit):
        f = fields(s)
        if until(f):
            return s
        if s.is_terminal():
            raise AssertionError("game over before the position")
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        elif f["phase"] == PH_PLACE:
            s.apply(place(f["workshop"][f["actor"]], f["actor"]) if place.__code__.co_argcount == 2
                    else place(f["workshop"][f["actor"]]))
        else:
            s.apply(s.legal_moves()[-1 if last else 0])
    raise AssertionError("position not reached")


def first_pick(n: int):
    g = es.game("wolsung", players=n, options={"start_player": 0})
    s = drive(g, g.new_state(seed=5), lambda f: f["phase"] == PH_PICK)
    return g, s


def pick_position(n, order, siding, fe=-1, storage=None):
    g, s = first_pick(n)
    k = len(order)
    st = storage or [[0] * 5 for _ in range(4)]
    s = edit(g, s, order=list(order) + [0] * (5 - k), cnt=[k - i for i in range(k)] + [0] * (5 - k), order_len=k,
             turn=0, picks_left=2, took=0, skip_run=0, actor=order[0], fe=fe,
             siding=[siding, [2, 2, 1, 0, 1], [1, 1, 1, 1, 2]], storage=st)
    return g, s


def test_e1_factory_picking_three_players_book():
    """E1: Edina (P0), Orsi (P1), Kata (P2) share {wood 2, glass 1, coal 1, iron 2}; FE taken."""
    g, s = pick_position(3, [0, 1, 2], [1, 1, 2, 2, 0], fe=1)
    for p, r in [(0, WOOD), (0, GLASS), (1, IRON), (2, WOOD), (0, COAL)]:
        assert s.current_player == p
        s.apply(mv(PICK, r))
    # Orsi's last iron is her only option (forced, applied by the engine); Kata gets nothing.
    f = fields(s)
    assert f["storage"][0] == [1, 1, 0, 1, 0]
    assert f["storage"][1] == [0, 0, 2, 0, 0]
    assert f["storage"][2] == [0, 0, 0, 1, 0]
    assert f["phase"] == PH_MACHINE and f["fac"][0][0] == f["fac"][1][0] == f["fac"][2][0] == 0
    assert f["siding"][0] == [1, 1, 2, 2, 0]          # refilled at the end of the Factory phase
    assert all(f["workshop"][p] + f["supply"][p] + sum(f["fac"][p]) == 21 for p in range(3))


def test_e1b_first_engineer_must_be_taken_wo_a4():
    """E1b (WO-A4 b): FE on the board, nobody takes it: Kata must take it after the last cube."""
    g, s = pick_position(3, [0, 1, 2], [1, 1, 2, 2, 0], fe=-1)
    for p, r in [(0, WOOD), (0, GLASS), (1, IRON), (2, WOOD), (0, COAL)]:
        assert mv(PICK, FE) in s.legal_moves()
        s.apply(mv(PICK, r))
    # Orsi still has a choice (iron or FE): she takes iron; Kata's only option is then the FE.
    assert s.current_player == 1 and sorted(s.legal_moves()) == [mv(PICK, IRON), mv(PICK, FE)]
    s.apply(mv(PICK, IRON))
    f = fields(s)
    assert f["fe"] == 2 and f["storage"][2] == [0, 0, 0, 1, 0]
    assert f["phase"] == PH_MACHINE and f["actor"] == 2 or s.is_chance() is False


def test_e2_storage_cap_skip_book():
    """E2: Orsi holds 4 iron and is skipped; Kata takes the iron."""
    st = [[0] * 5 for _ in range(4)]
    st[1] = [0, 0, 4, 0, 0]
    g, s = pick_position(3, [0, 1, 2], [0, 0, 1, 1, 0], fe=1, storage=st)
    s = edit(g, s, turn=3, picks_left=1)          # Edina's later single turn
    assert s.current_player == 0
    s.apply(mv(PICK, WOOD))
    f = fields(s)
    assert f["storage"][0][WOOD] == 1 and f["storage"][1][IRON] == 4 and f["storage"][2][IRON] == 1


def test_e5_neutral_picking_two_players_book_wo_a20_wo_a31():
    """E5: [Arthur (P0), Neutral, Kata (P1)], order card S1 (glass > coal > wood > gold > iron)."""
    g, s = first_pick(2)
    s = edit(g, s, order=[0, 4, 1, 0, 0], cnt=[3, 2, 1, 0, 0], order_len=3, turn=0, picks_left=2, took=0,
             skip_run=0, actor=0, fe=1, count_card=1, neutral_count=2, order_card=0,
             siding=[[1, 1, 2, 2, 0], [2, 2, 1, 0, 1], [1, 1, 1, 1, 2]], storage=[[0] * 5 for _ in range(4)])
    s.apply(mv(PICK, WOOD))
    s.apply(mv(PICK, GLASS))          # the neutral then takes coal (no glass left)
    assert s.current_player == 1
    assert fields(s)["siding"][0] == [0, 0, 2, 1, 0]
    s.apply(mv(PICK, IRON))
    assert s.current_player == 0
    s.apply(mv(PICK, WOOD))           # the neutral then takes the iron (no glass, coal, wood, gold)
    f = fields(s)
    assert f["storage"][0] == [0, 1, 0, 2, 0] and f["storage"][1] == [0, 0, 1, 0, 0]
    assert f["phase"] != PH_PICK      # Kata gets nothing; the factory is over


def test_e3_office_refill_after_a_build_wo_a24():
    """E3: building slot 2 (index 1): slot 1's card moves down, a new card fills the top."""
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    f = fields(s)
    p = f["actor"]
    top, mid, bottom = f["office"]
    s = edit(g, s, storage=[[4, 4, 4, 4, 0] if q == p else f["storage"][q] for q in range(4)])
    build = [m for m in s.legal_moves() if m % 32 == BUILD and (m >> 5) % 3 == 1]
    s.apply(build[0])
    assert s.is_chance() and fields(s)["phase"] == PH_DRAW
    f2 = fields(s)
    assert f2["office"][1] == top and f2["office"][2] == bottom and f2["office"][0] == -1
    assert f2["owned"][p] >> mid & 1


def test_e4_task_assignment_is_a_matching():
    """E4 (task card hypothetical, as in the spec): 8 machines worth 16 VP, best 2 tasks = 5 -> 21."""
    from eurosearch.games import wolsung_data as wd
    raw = __import__("tomllib").loads(wd.DEFAULT_DATA.read_text())
    raw["task_cards"][0]["tasks"] = [
        {"points": 3, "icons": ["golem", "golem", "golem", "airship"]},
        {"points": 2, "icons": ["aquitaine", "alfheim", "morgovia"]},
        {"points": 2, "icons": ["wotany", "wotany", "steam_car"]},
    ]
    path = __import__("tempfile").mktemp(suffix=".json")
    open(path, "w").write(json.dumps(raw))
    g = es.game("wolsung", players=3, data=path, options={"start_player": 0})
    d = g.data
    want = [(0, 0), (0, 1), (0, 2), (3, 3), (3, 0), (1, 1), (2, 2), (2, 3)]   # (type, region)
    ids = [next(i for i, m in enumerate(d.machines) if (m.type, m.region) == tr) for tr in want]
    assert len(set(ids)) == 8
    s = g.new_state(seed=1)
    mask = sum(1 << i for i in ids)
    allc = (1 << 41) - 1
    s = edit(g, s, owned=[mask, 0, 0, 0], office=[-1, -1, -1], deck=allc & ~mask & ~(1 << 40), deck_b=0,
             discard=1 << 40, task=[0, 1, 2, -1])
    sc = s.scores()
    vp = sum(d.machines[i].vp for i in ids)
    assert sc[0] == vp + 5      # not vp + 7: a machine serves one icon of one task (all three need 10)


def test_d1_change_without_builds_and_c8_probability():
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    a, b, c = fields(s)["office"]
    n = 0
    while fields(s)["phase"] == PH_MACHINE:
        s.apply(mv(PASS))
        n += 1
    assert n <= 3
    f = fields(s)
    assert f["phase"] == PH_DRAW and f["office"][1:] == [a, b] and (f["discard"] >> c) & 1 and f["fe"] >= 0
    s.apply(s.chance_outcomes()[0][0])
    assert fields(s)["fe"] == -1                                   # the FE is back on the board
    # With a build: CHANGE chance with P = S/5 = 2/5 (P7).
    s = drive(g, g.new_state(seed=4), lambda f: f["phase"] == PH_CHANGE, last=True)
    assert sorted(s.chance_outcomes()) == [(mv(CHANGE, 0), pytest.approx(0.6)), (mv(CHANGE, 1), pytest.approx(0.4))]


def test_d4_converter_payment_wo_a7():
    """D4: cost {iron 2, wood 1}; storage {coal 2, iron 1, wood 1}; Converter: pay to all 0."""
    g = es.game("wolsung", players=3, options={"start_player": 0})
    d = g.data
    card = next(i for i, m in enumerate(d.machines) if m.cost == (0, 0, 2, 1))
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    f = fields(s)
    p = f["actor"]
    office = f["office"]
    if card not in office:
        deck = f["deck"] | (1 << office[0]) & ~(1 << card)
        deck = (f["deck"] | (1 << office[0])) & ~(1 << card)
        s = edit(g, s, office=[card] + office[1:], deck=deck)
    slot = fields(s)["office"].index(card)
    stor = [[0] * 5 for _ in range(4)]
    stor[p] = [2, 0, 1, 1, 0]
    upg = fields(s)["upg"]
    s1 = edit(g, s, storage=stor, upg=[4 if q == p else upg[q] for q in range(4)])
    assert mv(BUILD, slot + 3 * 0) in s1.legal_moves()
    s2 = edit(g, s, storage=stor, upg=[0 if q == p else upg[q] for q in range(4)])
    assert not any(m % 32 == BUILD and (m >> 5) % 3 == slot for m in s2.legal_moves())
    stor[p] = [0, 0, 1, 1, 3]                      # the exchange: 3 gold for the second iron
    s3 = edit(g, s, storage=stor, upg=[0 if q == p else upg[q] for q in range(4)])
    assert mv(BUILD, slot + 3 * 0) in s3.legal_moves()
    # no gold as a Converter substitute (default): 2 gold cannot replace the iron
    stor[p] = [0, 0, 1, 1, 2]
    s4 = edit(g, s, storage=stor, upg=[4 if q == p else upg[q] for q in range(4)])
    assert not any(m % 32 == BUILD and (m >> 5) % 3 == slot for m in s4.legal_moves())


def test_d5_upgrade_paid_with_the_exchange_and_d10_fourth_worker_wo_a18():
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    f = fields(s)
    p = f["actor"]
    stor = [[0] * 5 for _ in range(4)]
    stor[p] = [1, 1, 1, 0, 1]
    s = edit(g, s, storage=stor, upg=[0, 0, 0, 0], office=[-1, -1, -1], deck=f["deck"] | sum(1 << c for c in f["office"] if c >= 0))
    moves = s.legal_moves()
    assert mv(UPGRADE, 1 + 3 * 0) in moves                      # Time machine: 1 gold + coal, glass, iron
    assert not any(m % 32 == UPGRADE and (m >> 5) % 3 == 0 for m in moves)   # no Fourth worker
    stor[p] = [0, 0, 0, 0, 3]
    s = edit(g, s, storage=stor)
    before = fields(s)
    s.apply(mv(UPGRADE, 0 + 3 * 0))
    after = fields(s)
    assert after["upg"][p] & 1 and after["storage"][p] == [0] * 5
    assert after["workshop"][p] == before["workshop"][p] + 1 and after["supply"][p] == before["supply"][p] - 1


def test_d6_strike_outcomes_ordered_pairs_c6():
    for n in (2, 3, 4):
        g = es.game("wolsung", players=n, options={"start_player": 0})
        s = g.initial_state()
        while not (s.is_chance() and any(m == mv(DRAW, 40) for m, _ in s.chance_outcomes())):
            s.apply(s.chance_outcomes()[0][0])
        s.apply(mv(DRAW, 40))
        outs = s.chance_outcomes()
        assert fields(s)["phase"] == PH_STRIKE
        assert sorted(m for m, _ in outs) == sorted(mv(STRIKE, a + 4 * b) for a in range(n) for b in range(n) if a != b)
        assert all(p == pytest.approx(1 / (n * (n - 1))) for _, p in outs)
    # D6 proper: workshops P0 = 3, P1 = 1, P2 = 3; outcome (P1, P0).
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    f = fields(s)
    s = edit(g, s, phase=PH_STRIKE, cont=43, fill_slot=0, built=1, pass_run=0,
             office=[-1] + f["office"][1:], deck=(f["deck"] | (1 << f["office"][0])) & ~(1 << 40),
             discard=f["discard"] | (1 << 40), workshop=[3, 1, 3, 0], supply=[f["supply"][0] + f["workshop"][0] - 3, f["supply"][1] + f["workshop"][1] - 1, f["supply"][2] + f["workshop"][2] - 3, 0])
    s.apply(mv(STRIKE, 1 + 4 * 0))
    f2 = fields(s)
    assert f2["workshop"][:3] == [2, 0, 3] and f2["phase"] == PH_DRAW and f2["office"][0] == -1


def test_d7_machine_phase_ends_after_n_consecutive_passes_wo_a6():
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    f = fields(s)
    fe = f["fe"]
    rich = [[4, 4, 4, 4, 4]] * 3 + [[0] * 5]
    s = edit(g, s, storage=rich, actor=fe)
    s.apply(mv(PASS))
    b = [m for m in s.legal_moves() if m % 32 == BUILD][0]
    s.apply(b)
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    assert fields(s)["pass_run"] == 0
    for k in range(3):
        assert fields(s)["phase"] == PH_MACHINE and fields(s)["actor"] == (fe + 2 + k) % 3
        s.apply(mv(PASS))
    assert fields(s)["phase"] != PH_MACHINE


def test_d8_end_tie_breaks_wo_a22_via_returns():
    g = es.game("wolsung", players=2, options={"start_player": 0})
    s = g.new_state(seed=9)
    while not s.is_terminal():
        s.apply(s.chance_outcomes()[0][0] if s.is_chance() else s.legal_moves()[0])
    f = fields(s)
    d = g.data
    a4 = next(i for i, m in enumerate(d.machines) if m.vp == 4)
    b4 = next(i for i, m in enumerate(d.machines) if m.vp == 4 and i != a4)
    a3 = next(i for i, m in enumerate(d.machines) if m.vp == 3)
    a1 = next(i for i, m in enumerate(d.machines) if m.vp == 1)
    allc = (1 << 41) - 1
    def base(o0, o1):
        return dict(office=[-1, -1, -1], deck=0, deck_b=0, discard=allc & ~o0 & ~o1, owned=[o0, o1, 0, 0])
    # equal scores are made by giving both players machines with the same VP and no task progress
    s1 = edit(g, s, storage=[[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [0] * 5, [0] * 5], **base(1 << a4, (1 << a3) | (1 << a1)))
    sc = s1.scores()
    assert sc[0] == sc[1]
    if True:
        assert s1.returns() == [1.0, 0.0]          # more cubes
        s2 = edit(g, s1, storage=[[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [0] * 5, [0] * 5])
        assert s2.returns() == [1.0, 0.0]          # best machine 4 VP vs 3 VP
    s3 = edit(g, s, storage=[[1] * 5, [1] * 5, [0] * 5, [0] * 5], **base(1 << a4, 1 << b4))
    assert s3.scores()[0] == s3.scores()[1]
    if True:
        assert s3.returns() == [0.5, 0.5]          # shared


def test_d2_time_machine_and_c7_tie_permutations_wo_a9_wo_a10():
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_TIE, place=lambda w: mv(PLACE, w))
    outs = s.chance_outcomes()
    f = fields(s)
    k = f["tie_hi"] - f["tie_lo"] + 1
    assert len(outs) == len(list(permutations(range(k)))) and all(p == pytest.approx(1 / len(outs)) for _, p in outs)


def test_d3_workers_accumulate_until_the_factory_opens_wo_a16_wo_a17():
    """D3 on the provisional schedule: F3 first opens in round 7. P1 drops all 3 workers into F3
    every round (F1 for the others): 7 rounds x 3 = all 21 of P1's workers are in F3 when it
    opens, and they all go back to P1's personal supply."""
    g = es.game("wolsung", players=3, options={"start_player": 0})

    def place(w, actor):
        return mv(PLACE, 25 * w) if actor == 1 else mv(PLACE, w)
    s = drive(g, g.new_state(seed=3), lambda f: f["round"] == 7 and f["phase"] == PH_PICK, place=place)
    f = fields(s)
    assert 1 in f["order"][:f["order_len"]]
    assert f["cnt"][f["order"].index(1)] == 21
    assert f["fac"][1] == [0, 0, 0] and f["supply"][1] == 21 - f["workshop"][1] and f["workshop"][1] == 0


def test_d9_first_engineer_only_in_the_first_factory_wo_a4():
    g = es.game("wolsung", players=3, options={"start_player": 0})
    s = drive(g, g.new_state(seed=3), lambda f: f["round"] == 9 and f["phase"] == PH_PICK)
    f = fields(s)
    assert f["fac_idx"] == 0 and f["fe"] == -1 and mv(PICK, FE) in s.legal_moves()
    s = drive(g, s, lambda f: f["phase"] != PH_PICK or f["fac_idx"] == 1)
    assert fields(s)["fe"] >= 0             # taken in F1, never offered in F2


@pytest.mark.parametrize("n, last", [(2, 25), (3, 25), (4, 29)])
def test_start_player_rotates_and_the_last_round_is_played_wo_a23_wo_a27_wo_a35(n, last):
    g = es.game("wolsung", players=n, options={"start_player": 1 % n})
    s = g.new_state(seed=2)
    f = fields(s)
    assert f["phase"] == PH_PLACE and f["actor"] == 1 % n
    assert len(s.legal_moves()) == 10                # one whole allocation of 3 workers: C(5, 2)
    firsts, prev_round = {}, 0
    while not s.is_terminal():
        f = fields(s)
        if f["phase"] == PH_PLACE and f["round"] != prev_round:
            firsts[f["round"]] = f["actor"]
            prev_round = f["round"]
        s.apply(s.chance_outcomes()[0][0] if s.is_chance() else s.legal_moves()[0])
    assert fields(s)["round"] == last
    assert firsts[2] == (1 % n + 1) % n and firsts[last] == (1 % n + last - 1) % n


def test_three_factories_in_one_round_are_accepted_from_an_owners_file_wo_a36():
    from eurosearch.games import wolsung_data as wd
    import tomllib, tempfile
    raw = tomllib.loads(wd.DEFAULT_DATA.read_text())
    raw["meta"]["status"] = "owner"
    raw["rounds"]["schedule"][0]["open"] = ["F3", "F1", "F2"]
    path = tempfile.mktemp(suffix=".json")
    open(path, "w").write(json.dumps(raw))
    g = es.game("wolsung", players=3, data=path, options={"start_player": 0})
    assert g.data.schedule[2] == (0, 1, 2)            # sorted by factory_order (WO-A15)
    s = g.new_state(seed=1)
    opened = set()
    while not s.is_terminal() and fields(s)["round"] <= 3:
        f = fields(s)
        if f["round"] == 3 and f["phase"] in (PH_PICK, PH_TIE):
            opened.add(f["fac_idx"])
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        elif f["phase"] == PH_PLACE and f["workshop"][f["actor"]] == 3:
            s.apply(mv(PLACE, 1 + 5 + 25))                # one worker into each factory
        else:
            s.apply(s.legal_moves()[0])
    assert opened == {0, 1, 2}


# ---------------------------------------------------------------- the move-list bound (WO_MAX_MOVES)

def _worst_machine_turn(g, cards, upg):
    """A Machine-phase node where the actor holds 4 of every cube (the worst storage: the number
    of payments only grows with the storage), with `cards` in the office and upgrades `upg`."""
    s = drive(g, g.new_state(seed=3), lambda f: f["phase"] == PH_MACHINE)
    f = fields(s)
    p = f["actor"]
    deck = f["deck"] | sum(1 << c for c in f["office"] if c >= 0)
    deck &= ~sum(1 << c for c in cards)
    others = [c for c in range(40) if f["owned"][p] >> c & 1 == 0]
    assert all(c in others for c in cards)
    stor = f["storage"]
    stor[p] = [4] * 5
    return p, edit(g, s, office=list(cards), deck=deck & ~sum(f["owned"][q] for q in range(4)),
                   deck_b=f["deck_b"] & ~sum(1 << c for c in cards),
                   storage=stor, upg=[upg if q == p else f["upg"][q] for q in range(4)])


def _expected_list(g, cards, upg, options):
    """The reference's count: PASS + every distinct payment of each office card and upgrade."""
    from eurosearch.reference import wolsung as ref
    full = (4,) * 5
    conv = bool(upg & 4)
    n = 1 + sum(len(ref.machine_payments(full, g.data.machines[c].cost + (0,), conv, options.get("converter_accepts_gold", False),
                                         False)) for c in cards)
    n += sum(len(ref.upgrade_payments(full, ref.UPGRADE_COST[u], options.get("exchange_allows_gold_input", False)))
             for u in range(3) if not upg >> u & 1)
    return n


@pytest.mark.parametrize("options", [{}, {"converter_accepts_gold": True, "exchange_allows_gold_input": True}])
def test_move_list_bound_holds_in_the_worst_case_of_the_provisional_data(options):
    """WO_MAX_MOVES (wolsung.h): a full storage, the Converter owned and three 4-VP machines
    (the most payments of the provisional cards) in the office. With both gold options the list is far above the old
    cap of 4096 (it used to be cut there) and must be complete."""
    g = es.game("wolsung", players=3, options={"start_player": 0, **options})
    cards = [32, 33, 34]                 # 4 VP, 6 cubes of 3 types: the most payments (P5)
    assert all(sum(g.data.machines[c].cost) == 6 for c in cards)
    p, s = _worst_machine_turn(g, cards, upg=4)
    moves = s.legal_moves()
    assert len(moves) == len(set(moves)) == _expected_list(g, cards, 4, options)
    assert len(moves) <= g.max_moves
    assert len(moves) == (5903 if options else 2185)      # docs/wolsung_engine.md, the bound
    if options:
        assert len(moves) > 4096
    # random play draws from the same complete list (the random_move hook)
    assert {s.random_move(seed) for seed in range(200)} <= set(moves)


def test_move_list_bound_holds_for_any_data_the_engine_accepts():
    """The bound is over every cost the engine accepts (0..3 of each building type): an owner's
    file whose three office cards cost coal 2, glass 2, iron 2, wood 1 (the most payments of
    any cost, 1837 with converter_accepts_gold) gives 1 + 3 x 1837 + 221 + 575 = 6308 moves."""
    from eurosearch.games import wolsung_data as wd
    import tomllib, tempfile
    raw = tomllib.loads(wd.DEFAULT_DATA.read_text())
    raw["meta"]["status"] = "owner"
    for m in raw["machines"][32:35]:
        m["cost"] = {"coal": 2, "glass": 2, "iron": 2, "wood": 1}
    path = tempfile.mktemp(suffix=".json")
    open(path, "w").write(json.dumps(raw))
    options = {"converter_accepts_gold": True, "exchange_allows_gold_input": True}
    g = es.game("wolsung", players=3, data=path, options={"start_player": 0, **options})
    p, s = _worst_machine_turn(g, [32, 33, 34], upg=4)
    moves = s.legal_moves()
    assert len(moves) == len(set(moves)) == _expected_list(g, [32, 33, 34], 4, options) == 6308
    assert g.max_moves >= 6308


@pytest.mark.parametrize("options", [{"converter_accepts_gold": True, "exchange_allows_gold_input": True},
                                     {"hidden_placement": True, "fe_single_pick_only": True}])
def test_random_move_is_the_listed_move_at_the_drawn_index_with_options(options):
    """The random_move hook (eurosearch.h contract) under the options that change the lists."""
    import random
    from eurosearch import _native
    g = es.game("wolsung", players=3, options=options)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            if s.is_chance():
                s.apply(s.sample_chance(rng.getrandbits(63)))
                continue
            moves = s.legal_moves()
            draw = rng.getrandbits(64)
            assert s.random_move(draw) == moves[_native.rng_below(draw, len(moves))]
            checked += 1
            s.apply(rng.choice(moves))
    assert checked > 300
