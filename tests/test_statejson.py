"""The JSON form of a state refuses bad documents with StateFormatError only, and refuses a
state made under other options or another data file (the fingerprint, as in the bytes)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import eurosearch as es

DATA = Path(es.__file__).resolve().parent / "data" / "vienna.toml"


@pytest.fixture(scope="module")
def vienna():
    g = es.game("vienna", players=3)
    return g, g.new_state(seed=1)


def _doc(s) -> dict:
    return json.loads(s.to_json())


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,                 # RecursionError in json
    '{"a":' * 100_000 + "1" + "}" * 100_000,
], ids=["deep-list", "deep-object"])
def test_deeply_nested_json_is_a_state_format_error(vienna, text):
    g, _ = vienna
    with pytest.raises(es.StateFormatError, match="nested too deeply"):
        g.state_from_json(text)


@pytest.mark.parametrize("number", ["1" * 5000, "-" + "9" * 5000, "1e999", "-1e999", "2.5", "NaN", "Infinity"])
@pytest.mark.parametrize("where", ["players", "field"])
def test_huge_and_non_integer_numbers_are_a_state_format_error(vienna, number, where):
    g, s = vienna
    doc = _doc(s)
    if where == "players":
        doc["players"] = "@@"
    else:
        doc["state"][next(iter(doc["state"]))] = "@@"
    text = json.dumps(doc).replace('"@@"', number)
    with pytest.raises(es.StateFormatError):     # not ValueError (int digits limit) nor OverflowError
        g.state_from_json(text)


def test_unknown_top_level_key_is_refused(vienna):
    g, s = vienna
    doc = _doc(s)
    doc["comment"] = "hello"
    with pytest.raises(es.StateFormatError, match="unknown key.*comment"):
        g.state_from_json(json.dumps(doc))


def test_document_carries_the_fingerprint_of_data_and_options(vienna):
    g, s = vienna
    assert _doc(s)["fingerprint"] == g.fingerprint
    assert g.state_from_json(s.to_json()) == s


def test_state_of_other_options_is_refused(vienna):
    g, s = vienna
    other = es.game("vienna", players=3, options={"carriage": "furthest"})
    assert other.fingerprint != g.fingerprint
    with pytest.raises(es.StateFormatError, match="other game data or options"):
        other.state_from_json(s.to_json())
    with pytest.raises(es.StateFormatError, match="other game data or options"):
        other.state_from_bytes(s.to_bytes())      # the bytes have always refused it


def test_state_of_another_data_file_is_refused(vienna, tmp_path):
    g, s = vienna
    edited = tmp_path / "my_vienna.toml"
    text = DATA.read_text(encoding="utf-8")
    assert "majority_vp = 2" in text
    edited.write_text(text.replace("majority_vp = 2", "majority_vp = 3"), encoding="utf-8")
    other = es.game("vienna", players=3, data=edited)
    with pytest.raises(es.StateFormatError, match="other game data or options"):
        other.state_from_json(s.to_json())


def test_document_without_fingerprint_is_accepted(vienna):
    """Positions files written before the fingerprint existed stay loadable."""
    g, s = vienna
    doc = _doc(s)
    del doc["fingerprint"]
    assert g.state_from_json(json.dumps(doc)) == s


# ----------------------------------------------------------------------------- format 2

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from eurosearch import statejson  # noqa: E402

SAFE = 1 << 53
KEYS = [(name, p) for name in es.games()
        for p in range(es.game_spec(name).min_players, es.game_spec(name).max_players + 1)]
_GAMES: dict = {}


def _game(name: str, players: int):
    if (name, players) not in _GAMES:
        _GAMES[name, players] = es.game(name, players=players)
    return _GAMES[name, players]


def _walk(g, seed: int, steps: int):
    """The states of one seeded random game (at most `steps` of them)."""
    rng = random.Random(seed)
    s = g.initial_state()
    for _ in range(steps):
        yield s
        if s.is_terminal():
            return
        s = s.clone()
        s.apply(s.sample_chance(rng.getrandbits(64)) if s.is_chance() else rng.choice(s.legal_moves()))


def _ints(x):
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        yield x
    elif isinstance(x, list):
        for y in x:
            yield from _ints(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _ints(y)


def _as_doubles(text: str) -> str:
    """What a tool that reads every number as a double (jq, JavaScript) writes back."""
    return json.dumps(json.loads(text, parse_int=lambda t: int(float(t))), separators=(",", ":"), ensure_ascii=False)


def _check_round_trips(g, s) -> None:
    text = s.to_json()
    doc = json.loads(text)
    assert doc["format"] == 2 == statejson.FORMAT
    assert all(abs(v) <= SAFE for v in _ints(doc)), "an integer a double would round"
    t = g.state_from_json(text)
    assert t._raw() == s._raw() and t.to_json() == text
    assert g.state_from_json(_as_doubles(text)) == s          # jq cannot corrupt it any more
    assert g.state_from_json(s.to_json(format=1)) == s        # the old form still loads
    for p in range(g.players):
        view = s.to_json(viewer=p)
        assert all(abs(v) <= SAFE for v in _ints(json.loads(view)))
        raw, viewer = statejson.decode(g, view)
        assert viewer == p and statejson.json_from_raw(g, raw, viewer=p) == view


@pytest.mark.parametrize("key", KEYS, ids=lambda k: f"{k[0]}-{k[1]}")
def test_seeded_games_round_trip_through_format_2(key):
    """Every 40th state of a seeded random game, whole and as each seat's view: bytes -> JSON ->
    bytes identical, no integer above 2^53, and the doubles of a jq round trip still load."""
    g = _game(*key)
    for i, s in enumerate(_walk(g, seed=sum(map(ord, key[0])) + key[1], steps=3000)):
        if i % 40 == 0 or s.is_terminal():
            _check_round_trips(g, s)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(KEYS), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 600))
def test_any_reachable_state_round_trips_through_format_2(key, seed, steps):
    g = _game(*key)
    last = None
    for last in _walk(g, seed, steps):
        pass
    _check_round_trips(g, last)


@pytest.mark.parametrize("name", es.games())
def test_no_field_is_a_bare_64_bit_number(name):
    """The guarantee behind "no integer above 2^53": every 64-bit field declares a set kind,
    or is a derived cache that no document holds."""
    g = _game(name, es.game_spec(name).min_players)
    written = json.loads(g.initial_state().to_json())["state"]
    for fname, _, ftype, _, _, kind, names in g.state_fields():
        if ftype == 5:   # ES_U64
            assert kind in (statejson.K_ITEMSET, statejson.K_ITEMSET_ROW, statejson.K_DERIVED), fname
        if kind == statejson.K_DERIVED:
            assert fname not in written, fname
        if kind in (statejson.K_ITEM, statejson.K_ITEMSET, statejson.K_ITEMSET_ROW, statejson.K_PER_ITEM):
            assert names and any(names), fname


def _cb_state():
    """A Coal Baron state after the draft: orders in hands, cards on the display."""
    g = _game("coal_baron", 3)
    for s in _walk(g, 5, 400):
        d = json.loads(s.to_json())["state"]
        if all(d["outstanding"][:3]) and d["actor"] is not None:
            return g, s
    raise AssertionError("no such state")


def test_cards_are_data_ids_and_sentinels_are_null():
    from eurosearch.games import coal_baron_data
    data = coal_baron_data.load()
    cards = [c.id for c in data.cards]
    tiles = [t.id for t in data.tiles]
    g, s = _cb_state()
    d = json.loads(s.to_json())["state"]
    raw = json.loads(s.to_json(format=1))["state"]
    for p in range(3):   # a card set is the sorted list of the ids of its bits
        assert d["outstanding"][p] == [cards[c] for c in range(64) if (raw["outstanding"][p] >> c) & 1]
    assert d["outstanding"][3] == []   # the empty fourth seat
    assert d["display"] == [None if c == 255 else cards[c] for c in raw["display"]]
    assert d["factory"] == [None if t == 255 else tiles[t] for t in raw["factory"]]
    assert d["owner"] == [None if o == -1 else o for o in raw["owner"]] and None in d["owner"]
    assert d["owned"][0] == dict(zip(tiles, raw["owned"][0]))
    assert "reserved" not in d and "reserved" in raw   # padding is no part of format 2
    v = _game("vienna", 3).initial_state()
    assert json.loads(v.to_json())["state"]["gendarme"] is None
    assert json.loads(v.to_json())["state"]["double_used"] is False


def test_a_view_writes_hidden_cards_as_null_or_a_question_mark():
    g, s = _cb_state()
    mine = json.loads(s.to_json(viewer=0))["state"]["outstanding"]
    assert mine[0] and all(isinstance(c, str) for c in mine[0])
    # Oh My Goods!: a set-aside card others have not seen is there, but unknown: "?"
    omg = _game("oh_my_goods", 2)
    for t in _walk(omg, 3, 3000):
        full = json.loads(t.to_json())["state"]
        if full["aside"][0] is not None:
            view = json.loads(t.to_json(viewer=1))["state"]
            if view["aside"][0] == statejson.HIDDEN:
                return
    raise AssertionError("no hidden set-aside card met")


@pytest.mark.parametrize("fmt", [3, 0, "2", None, True])
def test_unknown_format_is_refused_naming_it(fmt):
    g, s = _cb_state()
    doc = json.loads(s.to_json())
    doc["format"] = fmt
    text = json.dumps(doc)
    with pytest.raises(es.StateFormatError, match=r"unknown state format .*reads formats 1, 2"):
        g.state_from_json(text)
    del doc["format"]
    with pytest.raises(es.StateFormatError, match=r"unknown state format None"):
        g.state_from_json(json.dumps(doc))
    with pytest.raises(ValueError, match="unknown state format 7"):
        s.to_json(format=7)


def _edited(edit):
    g, s = _cb_state()
    doc = json.loads(s.to_json())
    edit(doc["state"])
    return g, json.dumps(doc)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["display"].__setitem__(0, "NOPE"), r"field 'display'\[0\]: unknown name 'NOPE'"),
    (lambda d: d["display"].__setitem__(0, 3), r"field 'display'\[0\]: expected a name, got 3"),
    (lambda d: d["outstanding"][0].append(d["outstanding"][0][0]), r"field 'outstanding'\[0\]\[\d\]: .* listed twice"),
    (lambda d: d["outstanding"].__setitem__(1, "WB01"), r"field 'outstanding'\[1\]: expected a list"),
    (lambda d: d["outstanding"].pop(), r"field 'outstanding': expected a list of 4"),
    (lambda d: d["vp"].__setitem__(0, None), r"field 'vp'\[0\]: expected an integer, got null"),
    (lambda d: d["vp"].__setitem__(0, True), r"field 'vp'\[0\]: expected an integer, got true"),
    (lambda d: d["vp"].__setitem__(0, 70000), r"field 'vp'\[0\]: 70000 is out of range 0..65535"),
    (lambda d: d["vp"].__setitem__(0, "12"), r"field 'vp'\[0\]: expected an integer"),
    (lambda d: d.__setitem__("actor", 3), r"field 'actor': 3 is out of range 0..2"),
    (lambda d: d.__setitem__("actor", "P1"), r"field 'actor': expected an integer"),
    (lambda d: d["tiles.top_seen"].__setitem__(0, [5]), r"field 'tiles.top_seen'\[0\]\[0\]: 5 is out of range 0..2"),
    (lambda d: d["buf"].__setitem__(0, 255), r"field 'buf'\[0\]: 255 is the 'none' value: write null"),
    (lambda d: d["owned"][0].pop("Y1L"), r"field 'owned'\[0\]: missing 'Y1L'"),
    (lambda d: d["owned"][0].__setitem__("ZZZ", 1), r"field 'owned'\[0\]: unknown name 'ZZZ'"),
    (lambda d: d["owned"].__setitem__(0, [0] * 16), r"field 'owned'\[0\]: expected an object"),
    (lambda d: d.__setitem__("reserved", [0, 0]), r"unknown state field\(s\) reserved"),
    (lambda d: d.pop("pool"), r"missing state field 'pool'"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_each_bad_value_is_named(edit, message):
    g, text = _edited(edit)
    with pytest.raises(es.StateFormatError, match=message):
        g.state_from_json(text)


def test_a_flag_must_be_a_boolean():
    v = _game("vienna", 3)
    doc = json.loads(v.initial_state().to_json())
    doc["state"]["double_used"] = 0
    with pytest.raises(es.StateFormatError, match=r"field 'double_used': expected true or false, got 0"):
        v.state_from_json(json.dumps(doc))


def test_consistent_names_still_meet_the_validator():
    """Well-formed values that contradict each other: the C validator still refuses them."""
    g, text = _edited(lambda d: d["outstanding"][1].extend(d["outstanding"][0]))   # a card in two hands
    with pytest.raises(es.StateFormatError):
        g.state_from_json(text)


@pytest.mark.parametrize("field, value, message", [
    ("double_used", 2, "field 'double_used' element 0 \\(2\\) is not 0 or 1"),
    ("actor", 4, "field 'actor' element 0 \\(4\\) is not a seat of this game"),
    ("start_card", [7, -1, -1, -1, -1], "field 'start_card' element 0 \\(7\\) is not an entry of the data"),
])
def test_the_core_checks_each_field_against_its_kind(field, value, message):
    """A format-1 document reaches the C core with raw values: es_validate refuses a value that
    is not of its field's declared kind, so every valid state has a format-2 document."""
    v = _game("vienna", 3)
    doc = json.loads(v.initial_state().to_json(format=1))
    doc["state"][field] = value
    with pytest.raises(es.StateFormatError, match=message):
        v.state_from_json(json.dumps(doc))


def test_a_view_document_is_no_state():
    g, s = _cb_state()
    with pytest.raises(es.StateFormatError, match="one player's view"):
        g.state_from_json(s.to_json(viewer=1))
    doc = json.loads(s.to_json(viewer=1))
    doc["viewer"] = 9
    with pytest.raises(es.StateFormatError, match="viewer 9 is not a seat"):
        statejson.decode(g, json.dumps(doc))
