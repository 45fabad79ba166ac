"""The command line: eurosearch match / python -m eurosearch, and the progress bar."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from eurosearch import agents
from eurosearch.cli import main
from eurosearch.match import run_match
from eurosearch.progress import Progress


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eurosearch", *args], capture_output=True, text=True, timeout=300)


def test_match_prints_a_table_per_seat_and_warns_about_provisional_data() -> None:
    r = run_cli("match", "vienna", "--agents", "random,random,random", "--games", "20", "--seed", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "vienna, 3 players, 20 games, seed 1"
    seat_rows = [l for l in lines if l.strip().split()[:2] in (["0", "random"], ["1", "random"], ["2", "random"])]
    assert len(seat_rows) == 3
    assert "game length:" in lines[-1]
    wins = sum(float(row.split()[2]) for row in seat_rows)
    assert wins == pytest.approx(20.0)   # every game has winners sharing 1
    assert "provisional" in r.stderr and r.stderr.count("\n") == 1


def test_match_json_is_reproducible_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for _ in range(2):
        assert main(["match", "vienna", "--agents", "random,random,random,random", "--games", "5",
                     "--seed", "3", "--json", "--no-progress"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    assert outs[0]["players"] == 4 and len(outs[0]["seats"]) == 4
    assert sum(s["wins"] for s in outs[0]["seats"]) == pytest.approx(5)


def test_match_rejects_bad_agents_and_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "vienna", "--agents", "random,nope,random", "--games", "1"]) == 2
    # The message lists every registered agent, sorted, so a new agent shows up without editing this test.
    assert "valid agents: " + ", ".join(sorted(agents.REGISTRY)) in capsys.readouterr().err
    assert main(["match", "vienna", "--agents", "random,random", "--games", "1"]) == 2
    assert "3 to 5 players" in capsys.readouterr().err


def test_agent_specs_parse_and_reject_unknown_keys() -> None:
    assert agents.parse_spec("random:seed=4") == ("random", {"seed": 4})
    with pytest.raises(ValueError, match="valid keys: seed"):
        agents.make("random:depth=3")
    with pytest.raises(ValueError, match="seed must be int"):
        agents.make("random:seed=x")


def test_run_match_seats_different_seeds_differ() -> None:
    a = run_match("vienna", ["random"] * 3, 3, seed=1, progress=False)
    b = run_match("vienna", ["random"] * 3, 3, seed=2, progress=False)
    assert a.scores != b.scores


def test_progress_bar_draws_only_when_enabled() -> None:
    quiet = io.StringIO()
    with Progress(10, "games", stream=quiet) as bar:   # StringIO is not a terminal
        bar.update(10)
    assert quiet.getvalue() == ""
    loud = io.StringIO()
    with Progress(4, "games", stream=loud, enabled=True, min_seconds=0) as bar:
        for _ in range(4):
            bar.update()
        bar.update(0, status="LLR +1.25 [-2.94, +2.94]")
    out = loud.getvalue()
    assert "4/4 games" in out and "/s" in out   # count and rate, drawn by rich
    assert "LLR +1.25 [-2.94, +2.94]" in out    # a status text, not read as rich markup
    assert out.replace("\x1b[?25h", "").endswith("\n")   # the line is finished (cursor shown again)


def test_match_runs_oh_my_goods(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "oh_my_goods", "--agents", "random,random", "--games", "4", "--seed", "2",
                 "--json", "--no-progress"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["game"] == "oh_my_goods" and out["players"] == 2
    assert sum(s["wins"] for s in out["seats"]) == pytest.approx(4)
    assert all(s["mean_score"] > 0 for s in out["seats"])
    assert "provisional" in captured.err


def test_match_runs_coal_baron(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "coal_baron", "--agents", "random,random,random", "--games", "3", "--seed", "4",
                 "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "coal_baron" and out["players"] == 3
    assert sum(s["wins"] for s in out["seats"]) == pytest.approx(3)
