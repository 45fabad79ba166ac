"""Coal Baron component data: the bundled file against the spec (sections 2.5 and 3), source
tags, a user's own file, and bad entries that raise DataError naming the file, entry and field."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

import eurosearch as es
from eurosearch.gamedata import read_file
from eurosearch.games import coal_baron_data as cbd

RAW = read_file(cbd.DEFAULT_DATA)


def test_bundled_cards_match_spec_2_5_1():
    d = cbd.load()
    assert len(d.cards) == 44 and Counter(c.vehicle for c in d.cards) == {0: 11, 1: 11, 2: 11, 3: 11}
    assert [c.id for c in d.cards[:11]] == [f"WB{i:02d}" for i in range(1, 12)]
    assert [c.id for c in d.cards[33:]] == [f"LO{i:02d}" for i in range(1, 12)]
    for v in range(4):
        deck = [c for c in d.cards if c.vehicle == v]
        assert sum(c.total_spaces for c in deck) == 22 and sum(c.vp for c in deck) == 64
    per_colour = [sum(c.spaces[k] for c in d.cards) for k in range(4)]
    assert per_colour == [22, 22, 22, 22] and sum(c.vp for c in d.cards) == 256
    wb = [(c.vp, c.spaces) for c in d.cards if c.vehicle == 0]
    lo = [(c.vp, c.spaces) for c in d.cards if c.vehicle == 3]
    hc = [(c.vp, c.spaces) for c in d.cards if c.vehicle == 1]
    tr = [(c.vp, c.spaces) for c in d.cards if c.vehicle == 2]
    assert wb == lo and hc == tr                                   # identical decks (spec 2.5.1)
    assert d.cards[d.card_index("HC11")].vp == 12 and d.cards[d.card_index("HC11")].spaces == (0, 0, 0, 3)
    assert d.cards[d.card_index("WB11")].spaces == (1, 1, 1, 1)


def test_bundled_tiles_and_board_match_spec_2_5_2_and_2_5_3():
    d = cbd.load()
    assert [t.copies for t in d.tiles] == [3] * 16 and sum(t.copies for t in d.tiles) == 48
    assert [t.cost for t in d.tiles] == [1, 1, 2, 2, 2, 2, 4, 4, 3, 3, 6, 6, 4, 4, 8, 8]
    assert d.tiles[d.tile_index("G2L")].index == 4 * 2 + 2 + 0
    assert len(d.spaces) == 26 and d.space_index("bank") == 26
    opened = {n: sum(s.open(n) for s in d.spaces) for n in (2, 3, 4)}
    assert opened == {2: 19, 3: 23, 4: 26}                        # spec 2.5.3 (+ the Bank)
    locked3 = {s.id for s in d.spaces if not s.open(3)}
    locked2 = {s.id for s in d.spaces if not s.open(2)}
    assert locked3 == {"F8", "M4", "$3"} and locked2 == {"F4", "F8", "M4", "M8", "$3", "$5", "O1"}
    assert [s.value for s in d.spaces if s.kind == "mining"] == [4, 6, 8, 10]
    assert [s.value for s in d.spaces if s.kind == "money"] == [3, 4, 5, 6]
    assert d.leftover_slot == d.space_index("O4")


def test_bundled_setup_and_scoring_values_match_the_rulebook():
    d = cbd.load()
    assert d.workers == {2: 18, 3: 15, 4: 13} and d.money == {2: 10, 3: 9, 4: 8}
    assert d.draft_pool == {2: 7, 3: 10, 4: 13} and d.draft_picks == 3
    assert (d.coal_per_colour, d.cage_capacity, d.draw_count, d.bank_marks) == (16, 5, 5, 1)
    assert d.shift_clock == ((2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 3), (9, 3),
                             (10, 5), (11, 5), (12, 6), (13, 6))  # CB-A1: TR/LO 2nd = 3 (text)
    assert (d.marks_per_vp, d.cubes_per_vp, d.outstanding_penalty, d.balance_penalty) == (5, 3, 1, 2)


def test_sources_count_every_tag():
    src = cbd.load().sources
    assert src["game"] == "coal_baron" and src["provisional"] == 0
    assert src["by_tag"]["rulebook"] > 10 and src["by_tag"]["external-high"] > 60
    assert src["entries"] == sum(src["by_tag"].values())
    assert es.game("coal_baron", players=3).data_sources()["provisional"] == 0


def write(tmp_path, raw, name="cb.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(raw))
    return str(path)


def edited(fn):
    raw = copy.deepcopy(RAW)
    fn(raw)
    return raw


BAD = [
    ("card vehicle out of order", lambda r: r["deck"]["orders"][0].update(vehicle="HC"),
     r"deck\.orders\[0\] \(WB01\): field 'vehicle'"),
    ("unknown colour letter", lambda r: r["deck"]["orders"][4].update(spaces="KX"),
     r"deck\.orders\[4\] \(WB05\): field 'spaces'"),
    ("too many spaces", lambda r: r["deck"]["orders"][4].update(spaces="KKYYB"), r"\(WB05\): field 'spaces'"),
    ("four of a colour", lambda r: r["deck"]["orders"][10].update(spaces="KKKK"), r"\(WB11\): field 'spaces'"),
    ("negative VP", lambda r: r["deck"]["orders"][2].update(vp=-1), r"\(WB03\): field 'vp'"),
    ("a card too few", lambda r: r["deck"]["orders"].pop(), r"field 'orders'.*44"),
    ("duplicate card id", lambda r: r["deck"]["orders"][1].update(id="WB01"), r"orders\[1\].*duplicate id 'WB01'"),
    ("tile in the wrong row", lambda r: r["deck"]["tiles"][0].update(colour="B"), r"deck\.tiles\[0\] \(Y1L\): field 'colour'"),
    ("tile copies", lambda r: r["deck"]["tiles"][3].update(copies=4), r"field 'tiles'.*48"),
    ("three minecarts", lambda r: r["deck"]["tiles"][2].update(carts=3), r"tiles\[2\] \(Y2L\): field 'carts'"),
    ("missing tag", lambda r: r["deck"]["tiles"][5].pop("tag"), r"tiles\[5\] \(B1D\): field 'tag'"),
    ("bad tag", lambda r: r["board"]["mining"][1].update(tag="rumour"), r"board\.mining\[1\] \(M6\): field 'tag'"),
    ("mining steps", lambda r: r["board"]["mining"][0].update(steps=0), r"board\.mining\[0\] \(M4\): field 'steps'"),
    ("min players", lambda r: r["board"]["money"][0].update(min_players=5), r"board\.money\[0\] \(\$3\): field 'min_players'"),
    ("two delivery spaces for a vehicle", lambda r: r["board"]["delivery"][1].update(vehicle="WB"),
     r"delivery\[1\] \(DHC\): field 'vehicle'"),
    ("a factory slot too many", lambda r: r["board"]["factory"].append({"id": "F9", "min_players": 2, "tag": "provisional"}),
     r"board: field 'factory'.*8"),
    ("duplicate space id", lambda r: r["board"]["money"][1].update(id="M6"), r"duplicate id 'M6'"),
    ("reserved id", lambda r: r["board"]["money"][1].update(id="bank"), r"money\[1\].*field 'id'"),
    ("locked leftover slot", lambda r: r["setup"].update(leftover_slot="O1"), r"setup: field 'leftover_slot'.*CB-A14"),
    ("leftover not an order slot", lambda r: r["setup"].update(leftover_slot="M6"), r"setup: field 'leftover_slot'"),
    ("draft pool", lambda r: r["setup"]["draft_pool"].update({"3": 11}), r"setup: field 'draft_pool'.*3 x 3"),
    ("too many workers", lambda r: r["setup"]["workers"].update({"2": 19}), r"setup\.workers: field '2'"),
    ("missing player count", lambda r: r["setup"]["money"].pop("4"), r"setup\.money: field '4'"),
    ("cage capacity", lambda r: r["components"].update(cage_capacity=0), r"components: field 'cage_capacity'"),
    ("cart cost colour", lambda r: r["components"]["cart_cost"].update(R=1), r"cart_cost: unknown key"),
    ("shift clock element order", lambda r: r["shift_clock"]["elements"][0].update(id="brown"),
     r"shift_clock\.elements\[0\]: field 'id'"),
    ("shift clock length", lambda r: r["shift_clock"]["elements"].pop(), r"field 'elements'.*12"),
    ("elements per shift", lambda r: r["shift_clock"].update(elements_per_shift=3), r"field 'elements_per_shift'"),
    ("conversion rate", lambda r: r["final"].update(marks_per_vp=0), r"final: field 'marks_per_vp'"),
    ("unknown key", lambda r: r["final"].update(bonus=1), r"final: unknown key\(s\) bonus"),
    ("unknown section", lambda r: r.update(extras={}), r"unknown key\(s\) extras"),
]


@pytest.mark.parametrize("name,edit,message", BAD, ids=[b[0] for b in BAD])
def test_bad_entries_name_the_file_entry_and_field(tmp_path, name, edit, message):
    path = write(tmp_path, edited(edit))
    with pytest.raises(es.DataError, match=message) as exc:
        es.game("coal_baron", players=3, data=path)
    assert path in str(exc.value)


def test_data_errors_are_value_errors_and_bad_files_are_named(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(es.DataError, match="cannot read"):
        es.game("coal_baron", players=2, data=str(missing))
    bad = tmp_path / "bad.toml"
    bad.write_text("[meta\nx=")
    with pytest.raises(ValueError, match="not a valid"):
        es.game("coal_baron", players=2, data=str(bad))


def test_a_users_file_changes_the_game(tmp_path):
    """An owner's corrected file is loaded: here the printed board's 4 VP for truck and
    locomotive 2nd place (CB-A1) and a dearer black minecart."""
    def correct(r):
        r["shift_clock"]["elements"][6].update(second=4, tag="external-medium")
        r["shift_clock"]["elements"][7].update(second=4, tag="external-medium")
        r["components"]["cart_cost"]["K"] = 5
    path = write(tmp_path, edited(correct))
    g = es.game("coal_baron", players=3, data=path)
    assert g.data.shift_clock[6] == (8, 4) and g.data.tiles[g.data.tile_index("K2D")].cost == 10
    assert g.data_sources()["by_tag"]["external-medium"] == 2
    scores = g.random_playouts(20, seed=1)
    assert scores.shape == (20, 3)
    # the same file as TOML
    toml_text = cbd.DEFAULT_DATA.read_text().replace("cart_cost = {Y = 1, B = 2, G = 3, K = 4}",
                                                     "cart_cost = {Y = 1, B = 2, G = 3, K = 5}")
    tpath = tmp_path / "mine.toml"
    tpath.write_text(toml_text)
    assert es.game("coal_baron", players=2, data=str(tpath)).data.tiles[15].cost == 10


def test_states_of_other_data_are_foreign(tmp_path):
    def correct(r):
        r["components"]["bank_marks"] = 2
    other = es.game("coal_baron", players=3, data=write(tmp_path, edited(correct)))
    mine = es.game("coal_baron", players=3)
    s = mine.new_state(seed=1)
    with pytest.raises(es.StateFormatError, match="other game data"):
        other.state_from_bytes(s.to_bytes())


def test_options_are_checked():
    with pytest.raises(ValueError, match="second_tr_lo"):
        es.game("coal_baron", players=3, options={"second_tr_lo": "four"})
    with pytest.raises(ValueError, match="second_tr_lo"):
        es.game("coal_baron", players=3, options={"second_tr_lo": 21})
    with pytest.raises(ValueError, match="start_player"):
        es.game("coal_baron", players=2, options={"start_player": 2})
    with pytest.raises(ValueError, match="empty_carts_need_delivery"):
        es.game("coal_baron", players=2, options={"empty_carts_need_delivery": 1})
    with pytest.raises(ValueError, match="unknown coal_baron option"):
        es.game("coal_baron", players=2, options={"delivered_public": False})
    with pytest.raises(ValueError, match="2 to 4"):
        es.game("coal_baron", players=5)
    g = es.game("coal_baron", players=4, options={"second_tr_lo": 4, "empty_carts_need_delivery": False})
    assert g.options.second_tr_lo == 4


def test_table_layout_is_checked_by_the_core():
    """The C core re-checks the int32 table: a hand-made bad table is an error, not a crash."""
    from eurosearch import _native
    d = cbd.load()
    t = cbd.to_table(d)
    assert _native.Game("coal_baron", 3, t, [-1, -1, 1]).players == 3
    for i, bad in ((0, 2), (1 + 1, 40), (20, 3), (49, 7), (49 + 3 * 26, 3)):
        broken = list(t)
        broken[i] = bad
        with pytest.raises(ValueError, match="coal_baron data: "):
            _native.Game("coal_baron", 3, broken, [-1, -1, 1])
    with pytest.raises(ValueError, match="coal_baron data: "):
        _native.Game("coal_baron", 3, t[:-1], [-1, -1, 1])


def test_random_games_with_every_option_set():
    for opts in ({}, {"second_tr_lo": 4}, {"empty_carts_need_delivery": False}, {"start_player": 1}):
        for n in (2, 3, 4):
            g = es.game("coal_baron", players=n, options=opts)
            scores = g.random_playouts(30, seed=n)
            assert scores.shape == (30, n)
    rng = random.Random(1)
    g = es.game("coal_baron", players=3)
    s = g.new_state(seed=2)
    while not s.is_terminal():
        s.apply(s.sample_chance(rng.getrandbits(64)) if s.is_chance() else rng.choice(s.legal_moves()))
    assert sum(s.returns()) == pytest.approx(1.0)
