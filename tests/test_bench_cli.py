"""`eurosearch bench --search` runs and reports every figure (speed itself is for bench/)."""

from __future__ import annotations

import json

import pytest

from eurosearch.cli import main


def test_bench_search_reports_mcts_and_expectimax_rates(capsys) -> None:
    assert main(["bench", "oh_my_goods", "--search", "--seconds", "0.1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (r,) = report["results"]
    assert r["game"] == "oh_my_goods" and r["players"] == 2
    assert set(r["mcts"]) == {"playout", "depth20", "eval", "playouts_alone"}
    for m in r["mcts"].values():
        assert m["native_per_s"] > 0 and m["python_per_s"] > 0
        assert abs(m["ratio"] - m["native_per_s"] / m["python_per_s"]) < 1e-9
    assert set(r["expectimax"]) == {"exact", "depth3"}
    assert all(m["nodes_per_s"] > 0 and m["nodes"] > 0 for m in r["expectimax"].values())
    assert main(["bench", "coal_baron", "--search", "--seconds", "0.1"]) == 0
    assert "x Python" in capsys.readouterr().out


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
@pytest.mark.parametrize("search", [[], ["--search"]])
def test_bench_refuses_a_non_positive_time_in_one_line(seconds, search, capsys) -> None:
    assert main(["bench", "vienna", "--seconds", seconds, *search]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("eurosearch bench: seconds must be") and "> 0" in err
