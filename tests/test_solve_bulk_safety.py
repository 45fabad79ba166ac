"""Bulk jobs never destroy or duplicate: foreign outputs, a second job, kills, full disks,
unusable directories, streamed input, unreachable Ray clusters, Ctrl-C."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from procs import children, communicate_or_kill, kill_survivors

import eurosearch as es
from eurosearch.cli import main
from eurosearch.solve import JobError, Position, SolveSettings, generate_positions, read_positions, run_bulk

GAME, PLAYERS = "oh_my_goods", 2
# positions that each take a noticeable search (a node limit stops most of them), for jobs
# that must still be running when a test kills or interrupts them
SLOW_JOB = ["solve", GAME, "--generate", "200", "--from-end", "10", "--seed", "2", "--max-nodes", "300000",
            "--no-progress"]


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return generate_positions(es.game(GAME, players=PLAYERS), 6, from_end=2, seed=5)


def result_lines(path: Path) -> list[dict]:
    return [json.loads(t) for t in path.read_text().splitlines()]


def cli(args: list[str], capsys) -> tuple[int, str]:
    """Exit code and stderr of an in-process `eurosearch ...`."""
    code = main(args)
    return code, capsys.readouterr().err


def start_job(out: Path, *extra: str, **popen) -> subprocess.Popen:
    """A slow `eurosearch solve` in a subprocess, once it has written its first result."""
    proc = subprocess.Popen([sys.executable, "-m", "eurosearch", *SLOW_JOB, "--out", str(out), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 1:
            return proc
        time.sleep(0.01)
    proc.kill()
    raise AssertionError(f"the job wrote nothing: {proc.communicate()[1]}")


FOREIGN = {
    "text without newline": b"my notes, keep them",
    "text lines": b"first line\nsecond line, no newline",
    "binary": bytes(range(256)) * 8,
    "a JSON line that is no result": b'{"id": "a", "note": "mine"}\n',
    "results then text": b'{"id":"a","game":"oh_my_goods","objective":"win","mode":"open","solved":true}\nnotes',
}


@pytest.mark.parametrize("content", FOREIGN.values(), ids=FOREIGN.keys())
def test_an_output_that_is_no_result_file_of_this_job_is_refused_untouched(tmp_path, capsys, positions, content):
    out = tmp_path / "o.jsonl"
    out.write_bytes(content)
    with pytest.raises(ValueError, match="o.jsonl, line"):
        run_bulk(SolveSettings(GAME, PLAYERS), positions[:1], out)
    assert out.read_bytes() == content
    code, err = cli(["solve", GAME, "--generate", "1", "--from-end", "2", "--out", str(out), "--no-progress"], capsys)
    assert code == 2 and err.startswith("eurosearch solve: ") and err.count("\n") == 1
    assert out.read_bytes() == content


def test_a_second_job_on_the_same_output_is_refused_while_the_first_runs(tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    first = start_job(out)
    try:
        code, err = cli(SLOW_JOB + ["--out", str(out)], capsys)
        assert first.poll() is None, "the first job ended before the second was tried"
        assert code == 2 and "in use by another running job" in err and err.count("\n") == 1
    finally:
        first.kill()
        first.communicate()
    # the lock went with the killed process: the job resumes
    assert run_bulk(SolveSettings(GAME, PLAYERS), [], out).positions == 0


def test_the_lock_is_held_on_the_output_itself(tmp_path, positions):
    out = tmp_path / "o.jsonl"
    out.write_text("")
    with open(out, "rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(JobError, match="in use"):
            run_bulk(SolveSettings(GAME, PLAYERS), positions[:1], out)
    assert run_bulk(SolveSettings(GAME, PLAYERS), positions[:1], out).solved == 1


@pytest.mark.parametrize("workers", [1, 2])
def test_positions_are_streamed_and_each_result_written_as_soon_as_solved(tmp_path, positions, workers):
    """The input is drawn as the solvers need it, and every result is in the file before
    more than one position per worker is drawn past it."""
    out = tmp_path / "o.jsonl"
    lag = []

    def source():
        for n, p in enumerate(positions):
            written = out.read_bytes().count(b"\n") if out.exists() else 0
            lag.append(n - written)
            yield p

    summary = run_bulk(SolveSettings(GAME, PLAYERS), source(), out, workers=workers)
    assert summary.solved == len(positions) and len(lag) == len(positions)
    assert max(lag) <= workers


def test_a_positions_file_is_solved_while_it_is_still_being_written(tmp_path, positions):
    """A fifo as the positions file: the job must solve the first lines before the last exist."""
    fifo, out = tmp_path / "in.fifo", tmp_path / "o.jsonl"
    os.mkfifo(fifo)
    rows = [json.dumps({"id": p.id, "state": json.loads(p.state_json)}) + "\n" for p in positions]
    saw_early_result = []

    def feed() -> None:
        with open(fifo, "w") as fh:
            fh.write(rows[0])
            fh.flush()
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n")):
                time.sleep(0.01)
            saw_early_result.append(out.exists() and out.read_bytes().count(b"\n") >= 1)
            fh.writelines(rows[1:])

    writer = threading.Thread(target=feed)
    writer.start()
    code = main(["solve", GAME, "--positions", str(fifo), "--out", str(out), "--no-progress"])
    writer.join()
    assert code == 0 and saw_early_result == [True] and len(result_lines(out)) == len(positions)


def test_killing_the_main_process_ends_its_workers(tmp_path):
    out = tmp_path / "o.jsonl"
    proc = start_job(out, "--workers", "2")
    workers = children(proc.pid)
    assert len(workers) >= 2
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()                  # not communicate(): a surviving worker holds the pipes open
    survivors = kill_survivors(workers)
    proc.stdout.close()
    proc.stderr.close()
    assert survivors == []


def test_a_missing_or_unusable_output_directory_fails_before_any_work(tmp_path, capsys, positions):
    drawn = []

    def source():
        drawn.append(1)
        yield from positions

    note = tmp_path / "note.txt"
    note.write_text("not a directory")
    for out in (tmp_path / "missing" / "o.jsonl", note / "o.jsonl", tmp_path):
        with pytest.raises(JobError):
            run_bulk(SolveSettings(GAME, PLAYERS), source(), out)
        assert not drawn
        code, err = cli(["solve", GAME, "--generate", "1", "--from-end", "2", "--out", str(out)], capsys)
        assert code == 2 and err.startswith("eurosearch solve: ") and err.count("\n") == 1
    assert note.read_text() == "not a directory"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_output_directory_fails_before_any_work(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        code, err = cli(["solve", GAME, "--generate", "1", "--from-end", "2", "--out", str(ro / "o.jsonl")], capsys)
        assert code == 2 and "cannot write" in err and err.count("\n") == 1
    finally:
        ro.chmod(0o755)


def test_a_full_disk_is_a_one_line_error_and_the_file_stays_resumable(tmp_path, capsys, monkeypatch, positions):
    out = tmp_path / "o.jsonl"
    real_write = os.write
    calls = []

    def write_until_full(fd: int, data: bytes) -> int:
        if fd > 2:
            calls.append(len(data))
            if len(calls) == 3:                 # the third line: half of it fits
                return real_write(fd, data[:len(data) // 2])
            if len(calls) > 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write_until_full)
    code, err = cli(["solve", GAME, "--generate", "6", "--from-end", "2", "--seed", "5", "--out", str(out),
                     "--no-progress"], capsys)
    monkeypatch.setattr(os, "write", real_write)
    assert code == 2 and "No space left on device" in err and err.count("\n") == 1
    kept = out.read_text()
    assert kept.endswith("\n") and len(result_lines(out)) == 2      # no partial third line
    summary = run_bulk(SolveSettings(GAME, PLAYERS), positions, out)
    assert summary.already_done == 2 and summary.solved == 4 and not summary.repaired
    assert sorted(r["id"] for r in result_lines(out)) == sorted(p.id for p in positions)


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eurosearch", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_an_unreachable_ray_address_is_a_one_line_error(tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "o.jsonl"
    r = run_cli("solve", GAME, "--generate", "2", "--from-end", "2", "--out", str(out), "--ray", "127.0.0.1:1")
    assert r.returncode == 2 and r.stderr.startswith("eurosearch solve: --ray 127.0.0.1:1")
    assert r.stderr.count("\n") == 1 and result_lines(out) == []


def test_ray_auto_without_a_cluster_is_a_one_line_error(tmp_path):
    pytest.importorskip("ray")
    from ray._private.services import find_gcs_addresses
    if find_gcs_addresses():
        pytest.skip("a Ray cluster runs on this machine")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    out = tmp_path / "o.jsonl"
    r = subprocess.run([sys.executable, "-m", "eurosearch", "solve", GAME, "--generate", "2", "--from-end", "2",
                        "--out", str(out), "--ray", "auto"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2 and r.stderr.startswith("eurosearch solve: --ray auto: no running Ray cluster")
    assert r.stderr.count("\n") == 1


def test_ctrl_c_stops_the_job_and_its_workers_and_keeps_a_resumable_file(tmp_path):
    """SIGINT to the whole process group, as Ctrl-C in a terminal sends it."""
    out = tmp_path / "o.jsonl"
    proc = start_job(out, "--workers", "2", start_new_session=True)
    workers = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = communicate_or_kill(proc)
    assert proc.returncode == 130
    assert err.startswith("eurosearch solve: interrupted") and "rerun the same command" in err
    assert err.count("\n") == 1                       # no traceback from any worker
    survivors = kill_survivors(workers)
    assert survivors == []
    text = out.read_text()
    assert text.endswith("\n") and all(r["id"].startswith("gen-2-") for r in result_lines(out))


def test_bad_input_lines_are_counted_but_only_the_first_ones_kept(tmp_path, positions):
    """A positions file full of garbage must not fill memory with messages."""
    from eurosearch.solve import bulk
    from eurosearch.solve.positions import PositionError

    said = []
    garbage = (PositionError(n, "not JSON") for n in range(1, bulk.KEPT_ERRORS + 51))
    summary = run_bulk(SolveSettings(GAME, PLAYERS), garbage, tmp_path / "o.jsonl", report=said.append)
    assert summary.bad_lines == bulk.KEPT_ERRORS + 50 == len(said)
    assert len(summary.errors) == bulk.KEPT_ERRORS and summary.errors[-1][0] == bulk.KEPT_ERRORS


def test_a_line_that_is_not_utf8_is_a_malformed_line(tmp_path, positions):
    src = tmp_path / "in.jsonl"
    good = json.dumps({"id": positions[0].id, "state": json.loads(positions[0].state_json)}).encode()
    src.write_bytes(b'{"id": "\xff"}\n' + good + b"\n")
    items = list(read_positions(src, es.game(GAME, players=PLAYERS)))
    assert items[0].line == 1 and "not UTF-8" in items[0].message and items[1].id == positions[0].id


def test_on_error_stop_checks_a_positions_file_first_then_solves_it(tmp_path, capsys, positions):
    src, out = tmp_path / "in.jsonl", tmp_path / "o.jsonl"
    rows = [json.dumps({"id": p.id, "state": json.loads(p.state_json)}) for p in positions]
    src.write_text("\n".join(rows) + "\n")
    assert main(["solve", GAME, "--positions", str(src), "--out", str(out), "--on-error", "stop",
                 "--no-progress"]) == 0
    assert [r["id"] for r in result_lines(out)] == [p.id for p in positions]
    src.write_text("\n".join(rows + ["{not json"]) + "\n")       # a bad last line: nothing solved
    out.unlink()
    code, err = cli(["solve", GAME, "--positions", str(src), "--out", str(out), "--on-error", "stop"], capsys)
    assert code == 2 and "line 7: not JSON" in err and result_lines(out) == []
