"""Bruges through the command line and the terminal UI: `eurosearch match bruges`,
`eurosearch arena bruges` (both warn that the bundled data is provisional) and a scripted
terminal game against the search (the board says "provisional data" on every view)."""

from __future__ import annotations

import io
import json

import pytest

import eurosearch as es
from eurosearch.cli import main
from eurosearch.play import Session
from eurosearch.play.terminal import play_terminal

pytestmark = pytest.mark.provisional


def test_match_bruges_prints_a_table_and_warns_about_provisional_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "bruges", "--agents", "random,heuristic,random", "--games", "2", "--seed", "5",
                 "--json", "--no-progress"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["game"] == "bruges" and out["players"] == 3
    assert sum(s["wins"] for s in out["seats"]) == pytest.approx(2)
    assert all(s["mean_score"] >= 0 for s in out["seats"])
    assert "bruges runs on provisional component data" in captured.err


def test_arena_bruges_rates_agents_and_warns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "bruges", "--agents", "random,heuristic", "--games", "2", "--seed", "1",
                 "--json", "--no-progress"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["game"] == "bruges"
    assert "bruges runs on provisional component data" in captured.err


def test_a_scripted_person_plays_bruges_in_the_terminal() -> None:
    g = es.game("bruges", players=2)
    s = Session(g, ["human", "mcts:iterations=20"], seed=3)
    out = io.StringIO()
    assert play_terminal(s, stdin=io.StringIO("1\n" * 3000), stdout=out, stderr=io.StringIO(), color=False) == 0
    text = out.getvalue()
    assert s.state.is_terminal() and "game over: scores" in text
    assert "P0 to move:" in text and "draw piles: [" in text and "provisional data" in text
    assert "card (hidden)" in text                       # the opponent's draws are shown as hidden
