"""Data the C setup refuses is a DataError naming the file and the entry, like the loader's.

The loaders check each entry of a data file; a few checks need the player count or the
engine's limits and run in the game's C setup (csrc/games/<game>.c). Their failures used to
surface as a bare ValueError with an offset into the int32 table.
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest

import eurosearch as es
from eurosearch.games import vienna, vienna_data

BUNDLED = Path(vienna_data.DEFAULT_DATA)


def _vienna_file(tmp_path: Path, edit) -> Path:
    raw = tomllib.loads(BUNDLED.read_text(encoding="utf-8"))
    edited = copy.deepcopy(raw)
    edit(edited)
    path = tmp_path / "my_vienna.json"
    path.write_text(json.dumps(edited), encoding="utf-8")
    return path


def _two_starting_cards(raw: dict) -> None:
    raw["cards"]["starting"] = raw["cards"]["starting"][:2]


def _a_second_prater(raw: dict) -> None:
    fields = raw["board"]["fields"]
    prater = next(f for f in fields if f["kind"] == "prater")
    oper = next(f for f in fields if f["id"] == "oper")
    second = dict(prater, id="prater_two", name="Second Prater", pos=oper["pos"])
    fields[fields.index(oper)] = second


def _data_error(path: Path, players: int) -> str:
    """The message of the DataError that loading `path` raises; it names the file."""
    with pytest.raises(es.DataError) as info:
        es.game("vienna", players=players, data=path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message


def test_fewer_starting_cards_than_players_is_a_data_error_naming_the_entry(tmp_path):
    message = _data_error(_vienna_file(tmp_path, _two_starting_cards), players=3)
    assert "cards.starting" in message and "3 players" in message, message
    assert "data table" not in message and "(at " not in message


def test_the_check_needs_the_player_count(tmp_path):
    """Three starting cards are enough for 3 players, not for 4."""
    path = _vienna_file(tmp_path, lambda raw: raw["cards"].update(starting=raw["cards"]["starting"][:3]))
    assert es.game("vienna", players=3, data=path).players == 3
    with pytest.raises(es.DataError, match="3 starting cards for 4 players"):
        es.game("vienna", players=4, data=path)


def test_a_second_prater_is_a_data_error_naming_the_field(tmp_path):
    message = _data_error(_vienna_file(tmp_path, _a_second_prater), players=3)
    assert "board.fields (prater_two" in message and "Prater" in message, message


def test_a_bad_player_count_stays_a_plain_value_error():
    with pytest.raises(ValueError) as info:
        es.game("vienna", players=2)
    assert not isinstance(info.value, es.DataError)


def test_the_native_message_names_the_entry_for_any_ffi_caller():
    """es_game_new's own message (what a C or cffi caller sees) names the entry too."""
    raw = tomllib.loads(BUNDLED.read_text(encoding="utf-8"))
    _two_starting_cards(raw)
    table = vienna_data.to_table(vienna_data.validate(raw, "x"))
    with pytest.raises(ValueError, match=r"^vienna data: cards\.starting: 2 starting cards for 3 players"):
        es.Game("vienna", 3, table, vienna.option_array(vienna.ViennaOptions()))


def _native_error(name: str, players: int, edit) -> str:
    spec = es.game_spec(name)
    opts = spec.parse_options(None, players)
    loaded = spec.load_data(None, opts)
    table = spec.table(loaded)
    edit(table, loaded)
    with pytest.raises(ValueError) as info:
        es.Game(name, players, table, spec.option_array(opts))
    return str(info.value)


def test_every_games_setup_names_the_entry_and_field():
    """A table value out of the engine's range (from a table not built by the loader)."""
    def vienna_copies(t, d):
        start = 17 + 13 * len(d.street) + 4 * len(d.starting)   # the first person card
        t[start] = 0
    msg = _native_error("vienna", 3, vienna_copies)
    assert msg.startswith("vienna data: cards.persons (") and "field 'copies'" in msg, msg

    def omg_good_value(t, d):
        t[3] = 99
    msg = _native_error("oh_my_goods", 2, omg_good_value)
    assert msg.startswith("oh_my_goods data: goods (good 1): field 'value': 99"), msg

    def coal_baron_card_vp(t, d):
        t[49 + 3 * len(d.spaces) + 1] = 99   # the first order card's VP
    msg = _native_error("coal_baron", 2, coal_baron_card_vp)
    assert "coal_baron data: deck.orders (" in msg and "field 'vp': 99" in msg, msg
