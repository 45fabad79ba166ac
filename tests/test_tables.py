"""The tables of match, arena, bench and solve: rich in a terminal, plain text elsewhere."""

from __future__ import annotations

import re

from eurosearch.arena import format_arena, run_arena
from eurosearch.bench import format_report
from eurosearch.solve import BulkSummary, format_summary
from eurosearch.tables import render

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLUMNS = [("agent", "left"), ("games", "right"), ("win %", "right")]


def test_plain_tables_are_aligned_text_without_styling():
    long = "mcts:iterations=2000,c=1.4," + "x" * 300        # a spec longer than any terminal
    out = render(COLUMNS, [["heuristic", "7", "85.7%"], [long, "12", "9.0%"]], title="a title", notes=["a note"])
    lines = out.splitlines()
    assert lines == [
        "a title",
        "agent" + " " * (len(long) - 5) + "  games  win %",
        "heuristic" + " " * (len(long) - 9) + "      7  85.7%",
        long + "     12   9.0%",
        "a note",
    ]
    assert not ANSI.search(out) and "─" not in out and not any(line != line.rstrip() for line in lines)


def test_terminal_tables_are_styled_by_rich():
    out = render(COLUMNS, [["heuristic", "7", "85.7%"]], title="a title", terminal=True)
    assert ANSI.search(out) and "─" in out                 # bold header over a rule
    plain = ANSI.sub("", out)
    assert plain.splitlines()[0] == "a title"
    assert re.search(r"heuristic\s+7\s+85\.7%", plain)


def test_arena_table_in_both_looks_holds_the_same_figures():
    result = run_arena("coal_baron", ["heuristic", "random"], games=4, seed=2, progress=False)
    d = result.as_dict()
    plain, styled = format_arena(result), ANSI.sub("", format_arena(result, terminal=True))
    for text in (plain, styled):
        for a in d["agents"]:
            lo, hi = a["win_rate_ci95"]
            row = next(line for line in text.splitlines() if line.split()[:1] == [a["name"]])
            assert row.split()[1:5] == [str(a["games"]), f"{100 * a['win_rate']:.1f}%",
                                        f"{100 * lo:.1f}-{100 * hi:.1f}%", f"{a['mean_score']:.2f}"]


def test_bench_table_rows_and_notes():
    m = {"games": 1, "seconds": 1.0, "games_per_s": 10.0, "decisions_per_s": 1234.0}
    report = {"machine": "test cpu", "date": "2026-12-04", "results": [
        {"game": "vienna", "players": 3, "native": dict(m, decisions_per_s=98765.0), "python_driven": m,
         "reference": dict(m, decisions_per_s=617.0), "determinize_us": 1.5, "runs": 3,
         "ratios_native_reference": [150.0, 160.1, 170.2]}]}
    lines = format_report(report).splitlines()
    assert lines[0] == "machine: test cpu  date: 2026-12-04  (one core, random play)"
    assert lines[1].split() == ["game", "players", "engine", "games/s", "decisions/s", "x", "reference"]
    assert lines[2].split() == ["vienna", "3", "native", "10.0", "98,765", "160.1"]
    assert lines[4].split() == ["vienna", "3", "reference", "10.0", "617", "1.0"]
    assert lines[5] == "vienna (3 players): determinize 1.50 us per call"
    assert lines[6].endswith("median of 3 runs; native/reference per run: 150.0, 160.1, 170.2")
    cost = {"decision_unchecked_ns": 30.0, "decision_checked_ns": 39.0, "chance_unchecked_ns": 10.0,
            "chance_checked_ns": 14.0, "decisions": 70, "chance_nodes": 30}
    report["results"][0]["apply_cost"] = cost
    lines = format_report(report).splitlines()
    assert lines[6] == "vienna (3 players): checked apply: decision 30 -> 39 ns (x1.30), chance 10 -> 14 ns (x1.40)"


def test_solve_summary_is_one_line_and_lists_failures():
    s = BulkSummary("out.jsonl", positions=3, solved=2, seconds=1.25)
    assert format_summary(s) == ("2 solved, 0 not solved (limits), 0 failed, 0 already in out.jsonl, "
                                 "0 bad input line(s); 1.2s")
    s.failed.append(("p7", "ValueError: boom"))
    lines = format_summary(s).splitlines()
    assert lines[0].startswith("2 solved, 0 not solved (limits), 1 failed")
    assert lines[1].split() == ["failed", "id", "error"] and lines[2].split() == ["p7", "ValueError:", "boom"]
