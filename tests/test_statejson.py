"""The JSON form of a state refuses bad documents with StateFormatError only, and refuses a
state made under other options or another data file (the fingerprint, as in the bytes)."""

from __future__ import annotations

import json
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
