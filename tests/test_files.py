"""Users' files (python/eurosearch/files.py): unreadable files raise the caller's error, and a
failed write leaves the old file whole and no temporary file behind."""

from __future__ import annotations

import pytest

from eurosearch.files import read_text, write_atomically


class Oops(ValueError):
    pass


def test_read_text_names_the_file_and_the_reason(tmp_path):
    with pytest.raises(Oops, match=r"cannot read game record .*missing\.json: No such file"):
        read_text(tmp_path / "missing.json", Oops, "game record")
    (tmp_path / "bin.json").write_bytes(b'{"a": "\xff"}')
    with pytest.raises(Oops, match=r"bin\.json: not UTF-8 text \(invalid start byte at byte 7\)"):
        read_text(tmp_path / "bin.json", Oops, "game record")
    with pytest.raises(Oops, match="cannot read"):
        read_text(tmp_path, Oops, "game record")     # a folder
    (tmp_path / "ok.txt").write_text("héllo")
    assert read_text(tmp_path / "ok.txt", Oops, "x") == "héllo"


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "model.json"
    path.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "new \udc80")         # a lone surrogate cannot be written as UTF-8
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json"]
    assert write_atomically(path, "new") == path and path.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json"]
