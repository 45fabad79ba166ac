"""`eurosearch data template GAME` and `eurosearch data check FILE` (issue 20), as the
README's component-data section runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import eurosearch as es
from eurosearch import cli
from eurosearch.datatool import MARK, template


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", es.games())
def test_template_loads_as_the_bundled_data_and_marks_every_provisional_entry(name, tmp_path, capsys):
    code, text, _ = run(capsys, "data", "template", name)
    assert code == 0 and text == template(name)
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    bundled = es.game(name)
    assert es.game(name, data=mine).fingerprint == bundled.fingerprint
    provisional = bundled.data_sources()["provisional"]
    assert (text.count(MARK) > 0) == (provisional > 0)
    code, out, _ = run(capsys, "data", "check", str(mine))
    assert code == 0 and f"valid {name} data" in out
    assert (f"still provisional ({provisional})" in out) if provisional else ("nothing provisional" in out)
    code, out, _ = run(capsys, "data", "check", str(mine), "--json")
    assert json.loads(out)["provisional"] == provisional


def test_check_names_the_entry_at_fault_and_the_missing_game(tmp_path, capsys):
    text = template("vienna")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("[meta]", "[meta]\nbogus_key = 1", 1))
    code, _, err = run(capsys, "data", "check", str(bad))
    assert code == 1 and "bogus_key" in err
    headless = tmp_path / "headless.toml"
    headless.write_text("\n".join(text.splitlines()[1:]))
    code, _, err = run(capsys, "data", "check", str(headless))
    assert code == 1 and "--game" in err
    code, out, _ = run(capsys, "data", "check", str(headless), "--game", "vienna")
    assert code == 0
    code, _, err = run(capsys, "data", "check", str(tmp_path / "nope.toml"))
    assert code == 1 and "no such file" in err


def test_readme_documents_the_two_commands():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "eurosearch data template vienna > mine.toml" in readme
    assert "eurosearch data check mine.toml" in readme
    r = subprocess.run([sys.executable, "-m", "eurosearch", "data", "template", "vienna"],
                       capture_output=True, text=True, check=True)
    assert r.stdout == template("vienna")
