"""Oh My Goods! component data: the bundled file, source tags, and errors that name the entry."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

import eurosearch as es
from eurosearch.gamedata import read_file
from eurosearch.games import oh_my_goods_data as omg

RAW = read_file(omg.DEFAULT_DATA)


def test_bundled_data_matches_the_rulebook_counts():
    d = omg.load()
    assert len(d.cards) == 94 and len(d.charburners) == 4 and len(d.assistants) == 8   # spec 2.1
    by_resource = Counter(c.resource for c in d.cards)
    assert by_resource[omg.RESOURCES.index("wood") + 1] == 26                          # green = wood
    assert all(n == 17 for r, n in by_resource.items() if r != omg.RESOURCES.index("wood") + 1)
    offices = [c for c in d.cards if not c.producing]
    assert len(offices) == 17 and sum(c.office == 0 for c in offices) == 3              # spec 2.8.6
    assert {g: d.good_values[d.goods.index(g)] for g in ("coal", "flour", "iron", "leather", "shoes")} == \
        {"coal": 1, "flour": 2, "iron": 3, "leather": 6, "shoes": 8}                    # rulebook values
    src = d.sources
    assert src["provisional"] > 0 and 0 < src["provisional_fraction"] < 0.5
    assert any("assistants" in item for item in src["provisional_items"])


def write(tmp_path, raw) -> str:
    path = tmp_path / "omg.json"
    path.write_text(json.dumps(raw))
    return str(path)


def edited(fn):
    raw = copy.deepcopy(RAW)
    fn(raw)
    return raw


BAD = [
    ("unknown resource", lambda r: r["cards"][0].update(resource="gold"), r"cards\[0\] \(br1\): field 'resource'"),
    ("bad input count", lambda r: r["cards"][3]["input"].update(stone=9), r"cards\[3\] \(br4\).*field 'stone'"),
    ("unknown good", lambda r: r["cards"][5].update(output="beer"), r"cards\[5\] \(br6\): field 'output'"),
    ("chain of two hand cards", lambda r: r["cards"][8].update(chain=["grain", "wood"]), r"cards\[8\] \(ca1\): field 'chain'"),
    ("chain of unknown input", lambda r: r["cards"][8].update(chain=["magic"]), r"cards\[8\] \(ca1\): field 'chain'"),
    ("missing tag", lambda r: r["cards"][2].pop("tag"), r"cards\[2\] \(br3\): field 'tag'"),
    ("bad tag", lambda r: r["offices"][0].update(tag={"card": "rumour", "bonus": "provisional", "sun": "provisional"}),
     r"offices\[0\] \(office_card1\): field 'tag.card'"),
    ("a card too few", lambda r: r["cards"].pop(), r"field 'cards'.*94"),
    ("wrong resource split", lambda r: r["cards"][0].update(resource="wood"), r"26 green cards"),
    ("three sides", lambda r: r["assistants"][1]["sides"].append(r["assistants"][1]["sides"][0]),
     r"assistants\[1\] \(A2\): field 'sides'"),
    ("unknown colour", lambda r: r["assistants"][0]["sides"][0]["requires"].update(purple=1), r"field 'purple'"),
    ("duplicate id", lambda r: r["cards"][1].update(id="br1"), r"cards\[1\].*duplicate id 'br1'"),
    ("unknown key", lambda r: r["cards"][0].update(colour="red"), r"cards\[0\] \(br1\): unknown key\(s\) colour"),
    ("Charburner without coal", lambda r: r["charburners"][0].update(output="flour"), r"charburners\[0\].*field 'output'"),
]


@pytest.mark.parametrize("name,edit,message", BAD, ids=[b[0] for b in BAD])
def test_bad_entries_name_the_entry_and_the_field(tmp_path, name, edit, message):
    path = write(tmp_path, edited(edit))
    with pytest.raises(es.DataError, match=message):
        es.game("oh_my_goods", players=2, data=path)


def test_a_users_corrected_file_is_used(tmp_path):
    def correct(r):
        r["assistants"][0]["sides"][0].update(cost=1, vp=9)
        r["assistants"][0]["tag"] = "rulebook"
    raw = edited(correct)
    g = es.game("oh_my_goods", players=2, data=write(tmp_path, raw))
    assert g.data.assistants[0].sides[0].cost == 1 and g.data.assistants[0].sides[0].vp == 9
    assert g.data_sources()["provisional"] == omg.load().sources["provisional"] - 1
    s = g.new_state(seed=1)
    assert s.current_player >= 0
