"""The backgammon data file: the bundled board loads as the standard opening; a malformed
file is refused with a DataError naming the entry and the field."""

from __future__ import annotations

import pytest

import eurosearch as es
from eurosearch.games.backgammon_data import DataError, load, to_table, validate


def test_the_bundled_file_is_the_standard_opening():
    d = load()
    assert d.checkers == 15 and d.sources["by_tag"]["rulebook"] == 1
    assert [i for i, n in enumerate(d.start) if n] == [0, 11, 16, 18]
    assert to_table(d) == [1, 15, *d.start]


@pytest.mark.parametrize("board, words", [
    ({"checkers": 14, "start": {"0": 14}, "tag": "rulebook"}, "checkers"),
    ({"checkers": 15, "start": {"0": 2, "11": 5, "16": 3, "18": 4}, "tag": "rulebook"}, "places 14"),
    ({"checkers": 15, "start": {"24": 15}, "tag": "rulebook"}, "point"),
    ({"checkers": 15, "start": {"0": 10, "23": 5}, "tag": "rulebook"}, "both players"),
    ({"checkers": 15, "start": {"0": 15}, "tag": "guess"}, "source tag"),
    ({"checkers": 15, "start": {"0": 15}, "tag": "rulebook", "bar": 1}, "unknown key"),
])
def test_a_malformed_board_is_refused(board, words):
    with pytest.raises(DataError, match=words):
        validate({"board": board}, "test.toml")


def test_an_owners_file_is_used(tmp_path):
    """Any valid opening loads, e.g. every checker on x's 1-point (absolute 23): x wins at once."""
    f = tmp_path / "bg.toml"
    f.write_text('[board]\ncheckers = 15\nstart = {23 = 15}\ntag = "provisional"\n')
    s = es.game("backgammon", data=str(f)).initial_state()
    assert "15x" in str(s)
