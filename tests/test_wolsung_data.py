"""Wolsung's data file: the spec's provisional data set (P1-P8) loads, validates and is tagged."""

from __future__ import annotations

import copy
import tomllib

import pytest

from eurosearch.gamedata import DataError
from eurosearch.games import wolsung_data as wd

pytestmark = pytest.mark.provisional


def raw():
    return tomllib.loads(wd.DEFAULT_DATA.read_text())


def test_bundled_file_is_the_provisional_set_p1_to_p8():
    d = wd.load()
    assert d.sources["status"] == "provisional"
    assert d.sources["provisional_fraction"] == 1.0          # every entry tagged provisional
    assert len(d.machines) == 40 and d.strike_id == "P40"
    assert sum(m.vp <= 2 for m in d.machines) + 1 == 25      # deck A with the Strike
    assert sum(m.vp >= 3 for m in d.machines) == 16          # deck B
    assert all(max(m.cost) <= 3 and len(m.cost) == 4 for m in d.machines)
    assert [sum(m.type == t for m in d.machines) for t in range(4)] == [10] * 4
    assert [sum(m.region == r for m in d.machines) for r in range(4)] == [10] * 4
    assert d.siding_small[0] == (1, 1, 2, 2, 0)               # E1/E5 siding (WO-A37)
    assert all(sum(s) == 6 for s in d.siding_small) and all(sum(s) == 8 for s in d.siding_large)
    assert sum(d.supply) == 76
    assert sum(1 for r in d.schedule[:25] if r) == 12
    assert d.schedule[8] == (0, 1) and d.schedule[24] == (0, 2) and d.schedule[0] == ()
    assert len(d.task_cards) == 8 and all(len(c.tasks) == 3 for c in d.task_cards)
    assert all(len(t.icons) == {3: 4, 2: 3}[t.points] for c in d.task_cards for t in c.tasks)
    assert sorted(s.value for s in d.specials) == [1, 2, 3, 4, 5] and d.change_symbols == 2
    assert d.specials[0].order == (1, 0, 3, 4, 2)             # glass > coal > wood > gold > iron (E5)


def test_p5_cost_formula():
    vp_of = [1, 1, 1, 2, 2, 2, 3, 3, 4, 4]
    amounts = {1: (2, 1, 0), 2: (2, 1, 1), 3: (2, 2, 1), 4: (3, 2, 1)}
    for i, m in enumerate(wd.load().machines):
        t, j = i % 4, i // 4
        r = (t + j) % 4
        cost = [0] * 4
        a = amounts[vp_of[j]]
        cost[r] += a[0]
        cost[(r + 1 + t % 3) % 4] += a[1]
        cost[(r + 1 + (t + 1) % 3) % 4] += a[2]
        assert (m.type, m.region, m.vp, m.cost) == (t, r, vp_of[j], tuple(cost))


@pytest.mark.parametrize("mutate, needle", [
    (lambda d: d["machines"].pop(), "40"),
    (lambda d: d["machines"][0].update(cost={"gold": 1}), "gold"),
    (lambda d: d["machines"][0].update(type="tank"), "type"),
    (lambda d: d["machines"][3].update(tag="guess"), "source tag"),
    (lambda d: d["specials"][1].update(value=1), "distinct"),
    (lambda d: d["specials"][0].update(order=["coal", "coal", "iron", "wood", "gold"]), "order"),
    (lambda d: d["task_cards"][0]["tasks"][0].update(icons=["golem"]), "4 icons"),
    (lambda d: d["supply"].update(gold=13), "76"),
    (lambda d: d["rounds"]["schedule"].append({"round": 3, "open": ["F2"]}), "twice"),
    (lambda d: d["rounds"]["schedule"][0].update(open=["F9"]), "F9"),
    (lambda d: d["factory_order"].update(order=["F1", "F1", "F3"]), "order"),
    (lambda d: d["machines"][0].update(colour="red"), "unknown key"),
])
def test_malformed_data_is_refused_with_the_entry_named(mutate, needle):
    d = copy.deepcopy(raw())
    mutate(d)
    with pytest.raises(DataError, match=needle):
        wd.validate(d, "x.toml")


def test_table_layout_length():
    d = wd.load()
    t = wd.to_table(d)
    head = 1 + 3 + 5 + 29 * 4 + 3 * 10 + 40 * 7 + 8 * (1 + 3 * (2 + wd.MAX_ICONS)) + 5 * 7
    assert len(t) == head + (40 + 1 + 8 + 5) * 6
    assert all(-2**31 <= x < 2**31 for x in t)
