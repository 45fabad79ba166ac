"""The Bruges component data file: the spec's provisional person set and users' own files.

The count checks are the "Resulting counts (use as tests)" of shared/rules/bruges.md
("Provisional person set"), written against the bundled file, not by rerunning the rule.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from eurosearch.gamedata import DataError
from eurosearch.games import bruges, bruges_data

BUNDLED = Path(bruges_data.DEFAULT_DATA)


@pytest.fixture(scope="module")
def raw() -> dict:
    return tomllib.loads(BUNDLED.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def data() -> bruges_data.BrugesData:
    return bruges_data.load()


def write(tmp_path: Path, d: dict) -> Path:
    p = tmp_path / "bruges.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


def test_provisional_counts(data):
    cards = data.cards
    assert len(cards) == 165
    assert Counter(c.colour for c in cards) == {k: 33 for k in range(5)}
    assert Counter(c.group for c in cards) == {g: 15 for g in range(11)}
    assert all(n == 3 for n in Counter((c.group, c.colour) for c in cards).values())
    by_template = Counter((c.name.split(" (")[0], c.colour) for c in cards)
    assert len(by_template) == 55 and set(by_template.values()) == {3}
    assert sum(c.vp for c in cards) == 255
    assert sum(c.cost for c in cards) == 765
    assert all(c.provisional for c in cards)
    assert all(c.vp == c.cost // 3 for c in cards)      # BR-A14 consistency check


def test_named_cards_of_the_spec(data):
    p0 = data.cards[0]
    assert (p0.id, p0.colour, data.groups[p0.group], p0.cost, p0.vp) == ("PV000", 0, "Nobility", 9, 3)
    p16 = data.cards[16]
    assert (p16.id, p16.effect, p16.colour, data.groups[p16.group]) == ("PV016", "money_on_recruit", 1, "Trade")
    p164 = data.cards[164]
    assert (p164.name.startswith("Citizen"), p164.colour, data.groups[p164.group]) == (True, 4, "Trade")
    offices = [c.id for c in data.cards if c.effect == "vp_per_group" and data.groups[c.group] == "Office"]
    assert offices == ["PV138", "PV149"]
    servant = next(c for c in data.cards if c.effect == "draw_cards")
    assert (servant.activation, servant.worker_colour, servant.amount) == ("worker", 3, 1)
    coach = next(c for c in data.cards if c.effect == "extra_play")
    assert (coach.activation, coach.worker_colour) == ("worker", 2)


def test_board_values(data):
    assert data.canal_cost == (1, 2, 3, 4, 5)
    for p in range(4):
        for s in range(2):
            assert sorted(data.canal_colour[p][s]) == [0, 1, 2, 3, 4]
            for i in range(5):
                assert data.canal_colour[p][s][i] == (i + p + 2 * s) % 5
        assert data.canal_colour[p][0][0] != data.canal_colour[p][1][0]
    assert data.rep_vp == (0, 1, 2, 3, 4, 5, 7, 9, 12)
    assert data.rep_vp[6] == 7          # T20 / K7: the 6th space is worth 7 VP
    assert data.statues == (7, 6, 5, 4, 3, 2)
    assert data.disaster == ("flood", "plague", "riot", "fire", "intrigue")   # BR-A4


def test_sources_report_provisional(data):
    s = data.sources
    assert s["game"] == "bruges" and s["status"] == "provisional"
    assert s["by_tag"]["provisional"] >= 165
    assert 0.9 < s["provisional_fraction"] < 1.0


def test_table_layout(data):
    t = bruges_data.to_table(data)
    assert t[:6] == [1, 165, 5, 5, 1, 5]
    assert all(-(2 ** 31) <= x < 2 ** 31 for x in t)


def test_options():
    assert bruges.parse_options(None, 3) == bruges.BrugesOptions()
    assert bruges.option_array(bruges.parse_options({"start_player": 1, "bishop_rate": "caption"}, 2)) == [1, 1, 30]
    with pytest.raises(ValueError, match="bishop_rate"):
        bruges.parse_options({"bishop_rate": "x"}, 2)
    with pytest.raises(ValueError, match="start_player"):
        bruges.parse_options({"start_player": 4}, 4)


def test_owner_file_loads(tmp_path, raw):
    d = copy.deepcopy(raw)
    d["cards"][0]["name"] = "Prince"
    d["cards"][0]["tag"] = "rulebook"
    d["cards"][0]["provisional"] = False
    assert bruges_data.load(write(tmp_path, d)).cards[0].name == "Prince"


def test_unknown_effect_kind_names_the_card(tmp_path, raw):
    d = copy.deepcopy(raw)
    d["cards"][7]["effect"] = "steal_statue"
    with pytest.raises(DataError, match=r"PV007.*steal_statue"):
        bruges_data.load(write(tmp_path, d))


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["cards"].pop(), "164 cards"),
    (lambda d: d["cards"][3].update(colour="green"), "colour"),
    (lambda d: d["cards"][3].update(group="Clergy"), "group"),
    (lambda d: d["cards"][16].update(activation="laurel"), "activation"),
    (lambda d: d["cards"][30].pop("worker"), "worker"),
    (lambda d: d["cards"][1].update(id="PV000"), "duplicate"),
    (lambda d: d["cards"][1].update(cost=-1), "cost"),
    (lambda d: d["cards"][1].update(colour_typo=1), "unknown key"),
    (lambda d: d["cards"][1].update(tag="made-up"), "source tag"),
    (lambda d: d["canals"]["towers"][0].pop(), "towers"),
    (lambda d: d["canals"]["towers"][0][0].__setitem__(2, "green"), "not a colour"),
    (lambda d: d["reputation"].update(vp=[1, 2]), "town hall"),
    (lambda d: d["disasters"].update(blue="fire"), "exactly one colour"),
    (lambda d: d["colours"].update(names=["red", "blue", "brown", "yellow", "purple"]), "in this order"),
    (lambda d: d["start"].update(statues=[1] * 9), "statues"),
])
def test_malformed_files_are_refused(tmp_path, raw, mutate, message):
    d = copy.deepcopy(raw)
    mutate(d)
    with pytest.raises(DataError, match=message):
        bruges_data.load(write(tmp_path, d))
