"""bench/ladder.py: the table it prints, and redrawing a saved ladder (--from-json)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import ladder  # noqa: E402

SAVED = {"game": "oh_my_goods", "players": 2, "seconds": 0.05, "games": 6, "seed": 0, "rows": [
    {"agent": "random", "seconds": None, "games": 3, "win_rate": 0.0, "elo": 0.0, "elo_ci95": [-100.0, 60.0]},
    {"agent": "mcts:seconds=0.2:threads=1", "seconds": 0.2, "games": 3, "win_rate": 1.0, "elo": 900.0,
     "elo_ci95": [700.0, 1200.0]},
    {"agent": "ismcts:seconds=0.05:threads=1", "seconds": 0.05, "games": 3, "win_rate": 0.5, "elo": 400.0,
     "elo_ci95": [200.0, 600.0]},
]}


def test_ladder_specs_hold_the_three_mcts_budgets_around_the_middle_one():
    budgets = [b for spec, b in ladder.ladder_specs(0.04) if spec.startswith("mcts:")]
    assert budgets == [0.01, 0.04, 0.16]


def test_markdown_lists_the_agents_strongest_first_with_their_intervals():
    rows = ladder.markdown(SAVED).splitlines()[2:]
    assert [r.split("|")[1].strip() for r in rows] == [
        "`mcts:seconds=0.2:threads=1`", "`ismcts:seconds=0.05:threads=1`", "`random`"]
    assert "+700 to +1200" in rows[0] and "| - |" in rows[2]


def test_the_title_labels_a_ladder_on_provisional_data():
    assert ladder.title(SAVED) == "oh_my_goods, 2 players, 6 games"
    partly = dict(SAVED, data_sources={"status": "partly provisional"})
    assert ladder.title(partly).endswith("6 games (partly provisional data)")


def test_from_json_redraws_a_saved_ladder_without_playing(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    saved = tmp_path / "ladder.json"
    saved.write_text(json.dumps(SAVED))
    png = tmp_path / "ladder.png"
    assert ladder.main(["oh_my_goods", "--from-json", str(saved), "--png", str(png)]) == 0
    assert capsys.readouterr().out.strip() == ladder.markdown(SAVED)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
