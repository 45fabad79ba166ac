"""The Vienna component data file: the bundled provisional set and users' own files.

The five count checks are P8 of shared/rules/vienna.md ("Provisional data set"), written here
against the parsed TOML of the bundled file (not by running the spec's snippet).
"""

from __future__ import annotations

import copy
import json
import shutil
import tomllib
from pathlib import Path

import pytest

import eurosearch as es
from eurosearch.games import vienna_data

BUNDLED = Path(vienna_data.DEFAULT_DATA)
SYM = ("citizen", "cross", "crown")
SPECIAL_IDS = ["S1", "S2", "S3", "S4", "S5"]


@pytest.fixture(scope="module")
def raw() -> dict:
    return tomllib.loads(BUNDLED.read_text(encoding="utf-8"))


def street(d: dict) -> list[dict]:
    return sorted(d["board"]["fields"], key=lambda f: f["pos"])


# ----------------------------------------------------------------------------- a tiny TOML writer


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def _toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and not k.isdigit() and k.isascii() else json.dumps(k)


def to_toml(d: dict) -> str:
    """Top-level tables as [sections]; everything below them inline (as the bundled file)."""
    lines = []
    for section, table in d.items():
        if not isinstance(table, dict):
            lines.append(f"{_toml_key(section)} = {_toml_value(table)}")
    for section, table in d.items():
        if isinstance(table, dict):
            lines.append(f"[{_toml_key(section)}]")
            for k, v in table.items():
                if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                    lines.append(f"{_toml_key(k)} = [")
                    lines += [f"  {_toml_value(x)}," for x in v]
                    lines.append("]")
                else:
                    lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, d: dict, fmt: str) -> Path:
    p = tmp_path / f"my_vienna.{fmt}"
    p.write_text(to_toml(d) if fmt == "toml" else json.dumps(d), encoding="utf-8")
    return p


def test_toml_writer_round_trips(raw):
    assert tomllib.loads(to_toml(raw)) == raw


# ----------------------------------------------------------------------------- P8 count checks


def test_p8_c1_street(raw):
    F = street(raw)
    off = raw["board"]["offstreet"]
    assert len(raw["board"]["fields"]) == 24
    assert [f["pos"] for f in F] == list(range(1, 25))
    assert len(off) == 1 and off[0]["id"] == "geheimbund" and off[0]["kind"] == "geheimbund"
    assert F[0]["id"] == "krieau" and F[0]["kind"] == "krieau"
    assert F[23]["id"] == "heuriger" and F[23]["kind"] == "heuriger"
    immediate = {f["id"] for f in F + off if f.get("immediate")}
    assert immediate == {"krieau", "prater", "geheimbund"}
    assert [f["id"] for f in F if f.get("pair")] == ["tiergarten", "heuriger"]


def test_p8_c2_values(raw):
    F = street(raw)
    numeric = [f for f in F if not f.get("pair")]
    assert [f["pos"] for f in numeric] == list(range(1, 23))
    assert all(F[i]["pair"] for i in (22, 23))
    lows = [min(f["accept"]) for f in numeric]
    highs = [max(f["accept"]) for f in numeric]
    assert all(a <= b for a, b in zip(lows, lows[1:])), lows
    assert all(a <= b for a, b in zip(highs, highs[1:])), highs
    covered = set()
    for f in numeric:
        covered |= set(f["accept"])
    assert covered == set(range(1, 13))
    for f in numeric:
        a = f["accept"]
        assert a == [a[0]] or a == [a[0], a[0] + 1], (f["id"], a)
    worth = [f.get("vp", 0) + f.get("coins", 0) / 2 - f.get("pay", 0) / 2 for f in F if f["kind"] == "gain"]
    assert worth == [1, 1, 1.5, 1.5, 1.5, 2]
    assert all(a <= b for a, b in zip(worth, worth[1:]))


def test_p8_c3_field_kinds(raw):
    F = street(raw)
    pos = {f["id"]: f["pos"] for f in F}
    specials = [f for f in F if f["kind"] == "special"]
    two_number = [f for f in F if len(f["accept"]) == 2]
    assert len(specials) == 5
    assert [f["id"] for f in specials] == [f["id"] for f in two_number]
    assert sorted(f["card"] for f in specials) == SPECIAL_IDS
    s4 = next(f for f in specials if f["card"] == "S4")
    assert s4["pos"] < pos["stephansdom"]
    persons = [f for f in F if f["kind"] == "person"]
    assert len(persons) == 5
    assert all(f["accept"] == [6] for f in persons)
    assert [f.get("cost", 0) for f in persons] == [1, 1, 1, 1, 0]
    compare = [(f["accept"], f["symbol"]) for f in F if f["kind"] == "compare"]
    assert compare == [([8], "citizen"), ([9], "cross"), ([10], "crown")]


def test_p8_c4_persons(raw):
    P = raw["cards"]["persons"]
    assert len(P) == 22
    assert sum(p["copies"] for p in P) == 44
    for p in P:
        assert 1 <= sum(p[s] for s in SYM) <= 3, p["id"]
    totals = [sum(p[s] * p["copies"] for p in P) for s in SYM]
    assert totals == [22, 22, 22] and sum(totals) == 66


def test_p8_c5_other_cards_and_constants(raw):
    F = street(raw)
    by_id = {f["id"]: f for f in F}
    St, Sc, P = raw["cards"]["starting"], raw["cards"]["special"], raw["cards"]["persons"]
    assert len(St) == 6
    assert sum(c["coins"] for c in St) == 15
    assert any(c["coins"] == 2 for c in St)
    assert [sum(c[s] for c in St) for s in SYM] == [3, 3, 3]
    assert len(Sc) == 5 and sorted(c["id"] for c in Sc) == SPECIAL_IDS
    for c in Sc:
        f = by_id[c["field"]]
        assert f["kind"] == "special" and f["card"] == c["id"], c["id"]
    assert len(St) + len(Sc) + sum(p["copies"] for p in P) == 55
    sv = [raw["start_vp"][k] for k in ("3", "4", "5")]
    assert sv == [0, 3, 4]
    assert sv == sorted(sv) and len(set(sv)) > 1
    assert raw["greater_influence"]["cross"] >= 1


def test_loaded_data_matches_the_file(raw):
    d = vienna_data.load()
    assert [f.id for f in d.street] == [f["id"] for f in street(raw)]
    assert [c.copies for c in d.persons] == [p["copies"] for p in raw["cards"]["persons"]]
    assert d.start_vp == {3: 0, 4: 3, 5: 4}
    assert [s.id for s in d.specials] == SPECIAL_IDS
    assert d.status == "provisional"


# ----------------------------------------------------------------------------- users' files


def test_copy_of_bundled_file_works(tmp_path):
    p = tmp_path / "copy.toml"
    shutil.copyfile(BUNDLED, p)
    default = es.game("vienna", players=4)
    for data in (p, str(p)):
        g = es.game("vienna", players=4, data=data)
        assert g.data.street == default.data.street
        assert g.data.persons == default.data.persons
        assert g.data.specials == default.data.specials
        assert g.data_sources()["by_tag"] == default.data_sources()["by_tag"]
        assert str(p) in g.data_sources()["file"]
        # the same data makes the same game: same states, same playouts
        assert g.new_state(seed=3).to_bytes() == default.new_state(seed=3).to_bytes()
        assert (g.random_playouts(5, 9) == default.random_playouts(5, 9)).all()


def test_json_data_file_works(tmp_path, raw):
    p = write(tmp_path, raw, "json")
    g = es.game("vienna", players=3, data=p)
    default = es.game("vienna", players=3)
    assert g.data.street == default.data.street
    assert g.data.persons == default.data.persons
    assert g.new_state(seed=1).to_bytes() == default.new_state(seed=1).to_bytes()


def test_written_toml_file_works(tmp_path, raw):
    g = es.game("vienna", players=5, data=write(tmp_path, raw, "toml"))
    assert g.data.street == es.game("vienna", players=5).data.street


def test_user_data_changes_the_game(tmp_path, raw):
    d = copy.deepcopy(raw)
    d["start_vp"]["3"] = 7
    g = es.game("vienna", players=3, data=write(tmp_path, d, "toml"))
    assert g.new_state(seed=1).scores() == [7.0, 7.0, 7.0]
    # a state of other data is foreign to this game
    with pytest.raises(es.StateFormatError):
        g.state_from_bytes(es.game("vienna", players=3).new_state(seed=1).to_bytes())


def test_missing_data_file(tmp_path):
    with pytest.raises(es.DataError, match="nothere"):
        es.game("vienna", players=3, data=tmp_path / "nothere.toml")


# ----------------------------------------------------------------------------- bad entries


def _field(d, field_id):
    return next(f for f in d["board"]["fields"] if f["id"] == field_id)


def _person(d, pid):
    return next(p for p in d["cards"]["persons"] if p["id"] == pid)


def _swap_pos(d, a, b):
    fa, fb = _field(d, a), _field(d, b)
    fa["pos"], fb["pos"] = fb["pos"], fa["pos"]


def _set(path, value):
    def edit(d):
        *head, last = path
        t = d
        for k in head:
            t = t[k]
        t[last] = value
    return edit


def _delete(path):
    def edit(d):
        *head, last = path
        t = d
        for k in head:
            t = t[k]
        del t[last]
    return edit


# (edit, substrings the message must contain: the entry and the field)
BAD_CASES = {
    "wrong type (int field given a string)": (
        lambda d: _field(d, "oper").__setitem__("vp", "one"), ["fields[2]", "oper", "'vp'"]),
    "wrong type (copies a float)": (
        lambda d: _person(d, "P03").__setitem__("copies", 2.5), ["persons[2]", "P03", "'copies'"]),
    "wrong type (accept not a list)": (
        lambda d: _field(d, "naschmarkt").__setitem__("accept", 3), ["naschmarkt", "'accept'"]),
    "wrong type (pair not a bool)": (
        lambda d: _field(d, "parlament").__setitem__("pair", "no"), ["parlament", "'pair'"]),
    "out of range (pos)": (
        lambda d: _field(d, "burgtheater").__setitem__("pos", 99), ["burgtheater", "'pos'", "99"]),
    "out of range (accepted total)": (
        lambda d: _field(d, "oper").__setitem__("accept", [13]), ["oper", "'accept'", "13"]),
    "out of range (symbols)": (
        lambda d: _person(d, "P10").__setitem__("crown", 9), ["P10", "'crown'", "9"]),
    "out of range (start VP)": (_set(("start_vp", "4"), 99), ["start_vp", "'4'", "99"]),
    "out of range (negative coins)": (
        lambda d: d["cards"]["starting"][1].__setitem__("coins", -1), ["starting[1]", "ST2", "'coins'"]),
    "unknown kind": (
        lambda d: _field(d, "parlament").__setitem__("kind", "casino"), ["parlament", "'kind'", "casino"]),
    "duplicate pos": (
        lambda d: _field(d, "secession").__setitem__("pos", 3), ["'pos'", "secession"]),
    "missing tag (card)": (
        lambda d: _person(d, "P05").pop("tag"), ["persons[4]", "P05", "'tag'", "missing"]),
    "missing tag (field part)": (
        lambda d: _field(d, "rathaus")["tag"].pop("action"), ["rathaus", "'tag'", "action"]),
    "missing tag (table)": (_delete(("compare_reward", "tag")), ["compare_reward", "'tag'", "missing"]),
    "bad tag value (field part)": (
        lambda d: _field(d, "prater")["tag"].__setitem__("accept", "guess"), ["prater", "tag.accept", "guess"]),
    "bad tag value (table)": (_set(("greater_influence", "tag"), "maybe"), ["greater_influence", "'tag'", "maybe"]),
    "bad tag value (special card)": (
        lambda d: d["cards"]["special"][2].__setitem__("tag", "rumour"), ["special[2]", "S3", "'tag'", "rumour"]),
    "unknown key (field)": (
        lambda d: _field(d, "oper").__setitem__("colour", "red"), ["fields[2]", "oper", "colour"]),
    "unknown key (person)": (
        lambda d: _person(d, "P01").__setitem__("cost", 1), ["persons[0]", "P01", "cost"]),
    "unknown key (top level)": (_set(("extras",), {"a": 1}), ["extras"]),
    "key of another kind": (
        lambda d: _field(d, "oper").__setitem__("card", "S1"), ["oper", "'card'"]),
    "Krieau not first": (lambda d: _swap_pos(d, "krieau", "prater"), ["Krieau", "'kind'"]),
    "Krieau twice": (lambda d: _field(d, "oper").__setitem__("kind", "krieau"), ["Krieau"]),
    "Heuriger not last": (lambda d: _swap_pos(d, "tiergarten", "heuriger"), ["Heuriger", "'kind'"]),
    "last person field not free": (
        lambda d: _field(d, "unnamed_3").__setitem__("cost", 1), ["unnamed_3", "'cost'", "free"]),
    "person copies add to 45": (
        lambda d: _person(d, "P07").__setitem__("copies", 3), ["persons", "45", "44"]),
    "person copies add to 43": (
        lambda d: _person(d, "P22").__setitem__("copies", 1), ["persons", "43", "44"]),
    "unknown special card on a special field": (
        lambda d: _field(d, "heldenplatz").__setitem__("card", "S9"), ["heldenplatz", "'card'", "S9"]),
    "special card naming the wrong field": (
        lambda d: d["cards"]["special"][0].__setitem__("field", "oper"), ["special", "S1", "oper"]),
    "duplicate field id": (
        lambda d: _field(d, "oper").__setitem__("id", "krieau"), ["fields[2]", "'id'", "krieau"]),
    "duplicate person id": (
        lambda d: _person(d, "P02").__setitem__("id", "P01"), ["persons[1]", "'id'", "P01"]),
    "missing section": (_delete(("greater_influence",)), ["greater_influence"]),
}


@pytest.mark.parametrize("fmt", ["toml", "json"])
@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_entry_raises_data_error_naming_entry_and_field(tmp_path, raw, case, fmt):
    edit, needles = BAD_CASES[case]
    d = copy.deepcopy(raw)
    edit(d)
    p = write(tmp_path, d, fmt)
    with pytest.raises(es.DataError) as info:
        es.game("vienna", players=3, data=p)
    msg = str(info.value)
    for needle in needles:
        assert needle in msg, f"{case}: {needle!r} not in {msg!r}"
    assert p.name in msg, f"{case}: the message does not name the file: {msg!r}"


def test_data_error_is_a_value_error():
    assert issubclass(es.DataError, ValueError)


def test_malformed_toml(tmp_path):
    text = BUNDLED.read_text(encoding="utf-8").replace("majority_vp = 2", "majority_vp = = 2", 1)
    p = tmp_path / "broken.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(es.DataError) as info:
        es.game("vienna", players=3, data=p)
    msg = str(info.value)
    assert "broken.toml" in msg and "line" in msg, msg


def test_malformed_json(tmp_path, raw):
    p = tmp_path / "broken.json"
    p.write_text(json.dumps(raw)[:-5], encoding="utf-8")
    with pytest.raises(es.DataError, match="broken.json"):
        es.game("vienna", players=3, data=p)


def test_top_level_not_a_table(tmp_path):
    p = tmp_path / "list.json"
    p.write_text("[1, 2, 3]", encoding="utf-8")
    with pytest.raises(es.DataError):
        es.game("vienna", players=3, data=p)


def test_not_utf8(tmp_path):
    p = tmp_path / "latin.toml"
    p.write_bytes(BUNDLED.read_bytes().replace("Universität".encode(), "Universit\xe4t".encode("latin-1")))
    with pytest.raises(es.DataError):
        es.game("vienna", players=3, data=p)


# ----------------------------------------------------------------------------- sources


def _retag(obj, tag: str):
    """Every source tag in the data set (plain, per part and field_tag) set to `tag`."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("tag", "field_tag"):
                obj[k] = {part: tag for part in v} if isinstance(v, dict) else tag
            else:
                _retag(v, tag)
    elif isinstance(obj, list):
        for x in obj:
            _retag(x, tag)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_all_rulebook_tags_report_no_provisional(tmp_path, raw, fmt):
    d = copy.deepcopy(raw)
    _retag(d, "rulebook")
    d["meta"]["status"] = "transcribed"
    g = es.game("vienna", players=3, data=write(tmp_path, d, fmt))
    src = g.data_sources()
    bundled = es.game("vienna", players=3).data_sources()
    assert src["provisional"] == 0
    assert src["provisional_fraction"] == 0
    assert src["provisional_items"] == []
    assert src["entries"] == bundled["entries"] > 0
    assert src["by_tag"]["rulebook"] == src["entries"]
    assert sum(src["by_tag"].values()) == src["entries"]
    assert src["status"] == "transcribed"


def test_bundled_sources_count_every_tag(raw):
    """The ledger counts exactly the tags in the file: one per table tag, one per part."""
    counts: dict[str, int] = {}

    def visit(obj):
        if isinstance(obj, dict):
            for k, v in obj.items():
                if k in ("tag", "field_tag"):
                    for t in (v.values() if isinstance(v, dict) else [v]):
                        counts[t] = counts.get(t, 0) + 1
                else:
                    visit(v)
        elif isinstance(obj, list):
            for x in obj:
                visit(x)

    visit(raw)
    src = es.game("vienna", players=3).data_sources()
    assert {k: v for k, v in src["by_tag"].items() if v} == counts
    assert src["provisional_fraction"] == pytest.approx(counts["provisional"] / sum(counts.values()))
    assert src["provisional_fraction"] > 0
