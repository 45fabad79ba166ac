"""Ctrl-C during `eurosearch match` and `arena`: prompt stop, the finished games reported, exit 130."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time

from procs import children, communicate_or_kill, kill_survivors


def interrupt(*args: str, workers: int = 0) -> tuple[subprocess.CompletedProcess, list[int]]:
    """Run `eurosearch ARGS`, send Ctrl-C (SIGINT to its process group) once it plays -- it
    warns about Vienna's provisional data first, then starts its `workers` -- and return how
    it ended and its child processes."""
    proc = subprocess.Popen([sys.executable, "-m", "eurosearch", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    if not select.select([proc.stderr], [], [], 60)[0]:
        proc.kill()
        raise AssertionError("no warning before the games were played")
    warning = proc.stderr.readline()
    assert warning.startswith("warning: vienna runs on provisional component data"), warning
    deadline = time.monotonic() + 60
    while len(children(proc.pid)) < workers and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)                     # let some games finish (none finished is fine too)
    kids = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = communicate_or_kill(proc)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, warning + err), kids


def test_ctrl_c_during_a_match_prints_the_finished_games():
    r, _ = interrupt("match", "vienna", "--agents", "random,random,random", "--games", "1000000", "--no-progress")
    assert r.returncode == 130, r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith("vienna, 3 players, ") and first.endswith("(interrupted: the games finished before Ctrl-C)")
    games = int(first.split(", ")[2].split()[0])
    assert games < 1_000_000
    assert r.stderr.count("\n") == 1      # the warning; no traceback


def test_ctrl_c_during_an_arena_on_two_processes_stops_them_and_rates_the_finished_games():
    r, workers = interrupt("arena", "vienna", "--agents", "heuristic,random,random", "--games", "1000000",
                           "--workers", "2", "--json", "--no-progress", workers=2)
    assert r.returncode == 130, r.stderr
    d = json.loads(r.stdout)
    assert d["interrupted"] is True and d["games"] < 1_000_000
    assert [a["name"] for a in d["agents"]] == ["heuristic", "random", "random #2"]
    assert r.stderr.count("\n") == 1      # the warning; no traceback from any worker
    survivors = kill_survivors(workers)
    assert len(workers) >= 2 and survivors == []


def test_ctrl_c_before_any_result_is_one_line_and_exit_130(monkeypatch, capsys):
    from eurosearch import match
    from eurosearch.cli import main

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(match, "run_match", interrupted)
    assert main(["match", "oh_my_goods", "--agents", "random,random", "--games", "1"]) == 130
    assert capsys.readouterr().err.endswith("eurosearch match: interrupted\n")


def test_a_worker_whose_parent_stopped_listening_exits_quietly(capfd):
    """On Ctrl-C the parent stops reading; a worker that finishes its task just then finds its
    pipe closed. It must leave without a traceback (the arena's stderr stays one line)."""
    import multiprocessing

    from eurosearch import workers

    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe()
    proc = ctx.Process(target=workers._serve, args=(theirs, time.sleep, os.getpid()), daemon=True)
    proc.start()
    theirs.close()
    mine.send(0.5)              # the task: sleep half a second, then reply ...
    mine.close()                # ... to a parent that no longer listens
    proc.join(30)
    assert proc.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err
