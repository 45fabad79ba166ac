"""Bulk solving: resumable output, malformed input, local workers, Ray, and the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import eurosearch as es
from eurosearch.cli import main
from eurosearch.solve import Position, PositionError, SolveSettings, generate_positions, read_positions, run_bulk

GAME, PLAYERS = "oh_my_goods", 2


def settings(**kw) -> SolveSettings:
    return SolveSettings(GAME, PLAYERS, **kw)


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return generate_positions(es.game(GAME, players=PLAYERS), 12, from_end=2, seed=5)


def lines(path: Path) -> list[dict]:
    return [json.loads(t) for t in path.read_text().splitlines()]


def by_id(records: list[dict]) -> dict[str, dict]:
    return {r["id"]: r for r in records}


def test_generated_positions_are_reproducible_decision_nodes():
    g = es.game(GAME, players=PLAYERS)
    a = generate_positions(g, 5, from_end=3, seed=9)
    b = generate_positions(g, 5, from_end=3, seed=9)
    assert a == b and len({p.id for p in a}) == 5
    for p in a:
        s = g.state_from_json(p.state_json)
        assert not s.is_chance() and not s.is_terminal()
    assert generate_positions(g, 5, from_end=3, seed=10) != a
    with pytest.raises(ValueError, match="from-end"):
        generate_positions(g, 5, from_end=0)


def test_each_result_line_has_the_position_values_best_nodes_and_time(tmp_path, positions):
    out = tmp_path / "out.jsonl"
    summary = run_bulk(settings(), positions, out)
    assert summary.solved == len(positions) and not summary.errors and not summary.failed
    records = lines(out)
    assert [r["id"] for r in records] == [p.id for p in positions]
    g = es.game(GAME, players=PLAYERS)
    for p, r in zip(positions, records):
        s = g.state_from_json(json.dumps(r["position"]))
        assert s == g.state_from_json(p.state_json)
        direct = es.solve(s)
        assert r["solved"] and r["best"] == direct.best
        assert [m["value"] for m in r["moves"]] == pytest.approx(direct.values, abs=1e-12)
        assert r["nodes"] > 0 and r["seconds"] >= 0 and r["objective"] == "win" and r["mode"] == "open"


def test_a_rerun_skips_what_is_done_and_a_torn_last_line_is_cut_off(tmp_path, positions):
    out = tmp_path / "out.jsonl"
    run_bulk(settings(), positions[:5], out)
    first = out.read_text()
    with open(out, "a") as fh:
        fh.write('{"id": "gen-5-5", "game": "oh_my')      # a kill inside a write
    summary = run_bulk(settings(), positions, out)
    assert summary.repaired and summary.already_done == 5 and summary.solved == 7
    text = out.read_text()
    assert text.startswith(first) and text.endswith("\n")
    records = lines(out)
    assert sorted(r["id"] for r in records) == sorted(p.id for p in positions)
    again = run_bulk(settings(), positions, out)
    assert again.already_done == 12 and again.solved == 0 and out.read_text() == text


def test_resuming_with_other_settings_is_refused_and_bad_settings_fail_first(tmp_path, positions):
    out = tmp_path / "o.jsonl"
    run_bulk(settings(), positions[:2], out)
    text = out.read_text()
    with pytest.raises(ValueError, match="another job .*objective=win, mode=open"):
        run_bulk(settings(objective="score"), positions, out)
    with pytest.raises(ValueError, match="another job"):
        run_bulk(settings(mode="info", samples=4), positions, out)
    with pytest.raises(ValueError, match="samples"):
        run_bulk(settings(mode="info", samples=0), positions, tmp_path / "new.jsonl")
    assert out.read_text() == text and not (tmp_path / "new.jsonl").exists()


@pytest.mark.parametrize("bad, name", [({"seconds": float("nan")}, "seconds"), ({"seconds": -1.0}, "seconds"),
                                       ({"max_nodes": -5}, "max_nodes"), ({"table_mb": 0.001}, "table_mb"),
                                       ({"table_mb": float("inf")}, "table_mb")])
def test_a_bulk_job_refuses_the_limits_es_solve_refuses_before_solving(tmp_path, positions, bad, name):
    """One set of limit checks for es.solve and bulk jobs: a NaN time no longer slips through."""
    out = tmp_path / "o.jsonl"
    with pytest.raises(ValueError, match=name):
        run_bulk(settings(**bad), positions[:1], out)
    assert not out.exists()


def test_a_complete_file_is_left_alone(tmp_path, positions):
    out = tmp_path / "o.jsonl"
    run_bulk(settings(), positions[:2], out)
    text = out.read_text()
    summary = run_bulk(settings(), positions[:2], out)
    assert not summary.repaired and summary.already_done == 2 and out.read_text() == text


def test_an_output_file_that_is_not_ours_is_refused(tmp_path, positions):
    out = tmp_path / "o.jsonl"
    out.write_text("hello world\n")
    with pytest.raises(ValueError, match="line 1"):
        run_bulk(settings(), positions[:1], out)
    assert out.read_text() == "hello world\n"


def test_unsolved_positions_are_recorded_and_can_be_retried(tmp_path, positions):
    out = tmp_path / "o.jsonl"
    hard = generate_positions(es.game(GAME, players=PLAYERS), 2, from_end=12, seed=1)
    s = run_bulk(settings(max_nodes=50), hard, out)
    assert s.unsolved == 2 and all(not r["solved"] for r in lines(out))
    assert run_bulk(settings(max_nodes=50), hard, out).already_done == 2
    s = run_bulk(settings(max_nodes=60), hard, out, retry_unsolved=True)
    assert s.already_done == 0 and len(lines(out)) == 4


def write_input(path: Path, positions: list[Position], bad: dict[int, str]) -> None:
    """Positions one per line, with malformed lines inserted at the given (1-based) line numbers."""
    rows, it = [], iter(positions)
    total = len(positions) + len(bad)
    for n in range(1, total + 1):
        if n in bad:
            rows.append(bad[n])
        else:
            p = next(it)
            rows.append(json.dumps({"id": p.id, "state": json.loads(p.state_json)}))
    path.write_text("\n".join(rows) + "\n")


BAD_LINES = {
    2: "{not json",
    4: json.dumps({"id": "x", "state": {"game": "vienna", "players": 3, "format": 1, "state": {}}}),
    5: json.dumps({"id": "y"}),
    7: json.dumps(["a", "list"]),
}


def test_malformed_lines_are_reported_with_their_numbers_and_skipped_or_rejected(tmp_path, positions):
    src = tmp_path / "in.jsonl"
    write_input(src, positions[:6], BAD_LINES)
    g = es.game(GAME, players=PLAYERS)
    items = list(read_positions(src, g))
    errors = [e for e in items if isinstance(e, PositionError)]
    assert [e.line for e in errors] == [2, 4, 5, 7]
    assert "not JSON" in errors[0].message and "vienna" in errors[1].message and "state" in errors[2].message

    said: list[str] = []
    out = tmp_path / "out.jsonl"
    summary = run_bulk(settings(), items, out, on_error="skip", report=said.append)
    assert summary.solved == 6 and [n for n, _ in summary.errors] == [2, 4, 5, 7]
    assert len(said) == 4 and said[0].startswith("line 2:")

    out2 = tmp_path / "out2.jsonl"
    with pytest.raises(ValueError, match=r"4 malformed input line\(s\) \(2, 4, 5, 7\)"):
        run_bulk(settings(), items, out2, on_error="stop")
    assert not out2.exists() or out2.read_text() == ""


def test_duplicate_ids_are_input_errors(tmp_path, positions):
    items = [positions[0], Position(positions[0].id, 2, positions[1].state_json)]
    summary = run_bulk(settings(), items, tmp_path / "o.jsonl")
    assert summary.solved == 1 and summary.errors == [(2, f"duplicate id {positions[0].id!r} (first on line 0)")]


def test_two_workers_give_the_same_results(tmp_path, positions):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_bulk(settings(), positions, one, workers=1)
    run_bulk(settings(), positions, two, workers=2)
    a, b = by_id(lines(one)), by_id(lines(two))
    assert a.keys() == b.keys()
    for k in a:
        assert a[k]["moves"] == b[k]["moves"] and a[k]["best"] == b[k]["best"]


def test_cli_solve_generate_and_positions_file(tmp_path, capsys, positions):
    out = tmp_path / "o.jsonl"
    assert main(["solve", GAME, "--generate", "4", "--from-end", "2", "--seed", "5", "--out", str(out),
                 "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["solved"] == 4 and len(lines(out)) == 4
    assert {r["id"] for r in lines(out)} == {p.id for p in positions[:4]}   # same seed, same positions

    src = tmp_path / "in.jsonl"
    write_input(src, positions[:3], {2: "{not json"})
    out2 = tmp_path / "o2.jsonl"
    assert main(["solve", GAME, "--positions", str(src), "--out", str(out2), "--on-error", "stop",
                 "--no-progress"]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["solve", GAME, "--positions", str(src), "--out", str(out2), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert "line 2: not JSON" in captured.err and "3 solved" in captured.out
    assert main(["solve", GAME, "--out", str(out2)]) == 2
    assert "either --positions" in capsys.readouterr().err
    assert main(["solve", GAME, "--positions", str(tmp_path / "missing.jsonl"), "--out", str(out2)]) == 2
    assert "no positions file" in capsys.readouterr().err
    assert main(["solve", "vienna", "--players", "2", "--generate", "1", "--out", str(out2)]) == 2
    assert "3 to 5 players" in capsys.readouterr().err


def test_a_killed_job_loses_no_finished_result_and_resumes(tmp_path):
    """Kill a running `eurosearch solve` mid-way (SIGKILL, no clean-up), then resume it."""
    out = tmp_path / "o.jsonl"
    total = 300
    cmd = [sys.executable, "-m", "eurosearch", "solve", GAME, "--generate", str(total), "--from-end", "5",
           "--seed", "2", "--max-nodes", "30000", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count("\n") >= 3:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "the job ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    before = out.read_text()
    assert 3 <= before.count("\n") < total
    kept = before[:before.rfind("\n") + 1] if not before.endswith("\n") else before
    with open(out, "a") as fh:          # make sure resuming also copes with a torn write
        fh.write('{"id":"gen-2-')
    assert subprocess.run(cmd, capture_output=True, cwd=tmp_path).returncode == 0
    after = out.read_text()
    assert after.startswith(kept)
    records = lines(out)
    assert sorted(r["id"] for r in records) == sorted(f"gen-2-{i}" for i in range(total))


def test_a_small_job_runs_on_a_local_ray(tmp_path, positions):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        out = tmp_path / "ray.jsonl"
        summary = run_bulk(settings(), positions[:8], out, ray="auto")
        assert summary.solved == 8
        local = tmp_path / "local.jsonl"
        run_bulk(settings(), positions[:8], local)
        a, b = by_id(lines(out)), by_id(lines(local))
        assert a.keys() == b.keys() and all(a[k]["moves"] == b[k]["moves"] for k in a)
        # resumable on Ray too
        assert run_bulk(settings(), positions, out, ray="auto").already_done == 8
        assert len(lines(out)) == len(positions)
    finally:
        ray.shutdown()
