"""Bulk solving: many positions, on all cores or on a Ray cluster, into a resumable file.

The output is JSON lines, one finished position per line, appended the moment it is solved
with one write (see output.py). Positions are streamed from the input to the solvers one at
a time, so a job killed at any moment loses only the positions in flight; a torn last line
(the kill landed inside a write) is cut off when the job is resumed, and every id already in
the file is skipped. When an id appears twice (``retry_unsolved``), the last line counts.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sized

from ..progress import Progress
from ..tables import render
from ..workers import WorkerError, WorkerPool
from .output import JobError, ResultFile, job_of
from .positions import Position, PositionError
from .solver import check_job, check_limits, solve

ON_ERROR = ("skip", "stop")
KEPT_ERRORS = 1000        # bad input lines kept in a summary (all are reported and counted)


@dataclass(frozen=True)
class SolveSettings:
    """What every position of a job is solved with (sent to every worker)."""

    game: str
    players: int
    options: dict[str, Any] | None = None
    data: str | None = None
    objective: str = "win"
    mode: str = "open"
    samples: int = 16
    seed: int = 0
    max_nodes: int = 0
    seconds: float = 0.0
    table_mb: float = 64


@dataclass
class BulkSummary:
    """How a bulk job went. ``errors`` holds (line, message) of the first KEPT_ERRORS rejected
    input lines (each is also reported as it is met); ``bad_lines`` counts them all."""

    out: str
    positions: int = 0        # valid positions given
    already_done: int = 0     # skipped because their id was in the output
    solved: int = 0
    unsolved: int = 0         # a node or time limit stopped the search
    failed: list[tuple[str, str]] = field(default_factory=list)   # (id, error) raised while solving
    errors: list[tuple[int, str]] = field(default_factory=list)
    bad_lines: int = 0
    repaired: bool = False    # a torn last line was cut off
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"out": self.out, "positions": self.positions, "already_done": self.already_done,
                "solved": self.solved, "unsolved": self.unsolved,
                "failed": [{"id": i, "error": e} for i, e in self.failed],
                "errors": [{"line": n, "error": e} for n, e in self.errors], "bad_lines": self.bad_lines,
                "repaired": self.repaired, "seconds": round(self.seconds, 3)}


def format_summary(summary: BulkSummary, terminal: bool = False) -> str:
    """What ``eurosearch solve`` prints: one line of counts, then a table of the positions that
    failed (if any), styled by rich when `terminal`."""
    line = (f"{summary.solved} solved, {summary.unsolved} not solved (limits), {len(summary.failed)} failed, "
            f"{summary.already_done} already in {summary.out}, {summary.bad_lines} bad input line(s); "
            f"{summary.seconds:.1f}s")
    if not summary.failed:
        return line
    return render([("failed id", "left"), ("error", "left")], [[i, e] for i, e in summary.failed],
                  title=line, terminal=terminal)


def check_settings(settings: SolveSettings) -> None:
    """The settings' errors (bad objective, mode, samples, limits) before any position is
    solved: the same checks, with the same messages, as ``es.solve`` makes."""
    check_job(settings.objective, settings.mode, settings.samples)
    check_limits(settings.max_nodes, settings.seconds, settings.table_mb)


# ---------------------------------------------------------------- solving one position (in any process)

_GAMES: dict[tuple, Any] = {}


def _game_for(settings: SolveSettings) -> Any:
    from ..api import game

    key = (settings.game, settings.players, json.dumps(settings.options, sort_keys=True), settings.data)
    if key not in _GAMES:
        _GAMES[key] = game(settings.game, players=settings.players, data=settings.data, options=settings.options)
    return _GAMES[key]


def solve_one(settings: SolveSettings, pid: str, state_json: str) -> dict[str, Any]:
    """The result record of one position, or an ``error`` record if solving it raised."""
    try:
        s = _game_for(settings).state_from_json(state_json)
        r = solve(s, objective=settings.objective, mode=settings.mode, samples=settings.samples,
                  seed=settings.seed, max_nodes=settings.max_nodes, seconds=settings.seconds,
                  table_mb=settings.table_mb)
    except Exception as exc:       # reported per position; the job goes on
        return {"id": pid, "error": f"{type(exc).__name__}: {exc}"}
    return {"id": pid, "game": settings.game, **r.as_dict(), "position": json.loads(state_json)}


def _solve_task(settings: SolveSettings, task: tuple[str, str]) -> dict[str, Any]:
    """solve_one for a worker process, whose tasks are (id, state JSON) pairs."""
    return solve_one(settings, *task)


# ---------------------------------------------------------------- the job

def _screened(positions: Iterable[Position | PositionError],
              bad: Callable[[int, str], None]) -> Iterator[Position]:
    """The valid positions in input order; a malformed line or a repeated id goes to `bad`.
    Only the ids are remembered, never the documents."""
    seen: dict[str, int] = {}
    for item in positions:
        if isinstance(item, PositionError):
            bad(item.line, item.message)
        elif item.id in seen:
            bad(item.line, f"duplicate id {item.id!r} (first on line {seen[item.id]})")
        else:
            seen[item.id] = item.line
            yield item


def _reject_malformed(positions: Iterable[Position | PositionError], say: Callable[[str], None]) -> None:
    """``--on-error stop``: one streaming pass over the whole input; any bad line rejects the job."""
    first: list[int] = []                  # the first line numbers, for the message
    count = 0

    def reject(line: int, message: str) -> None:
        nonlocal count
        say(f"line {line}: {message}")
        count += 1
        if len(first) < 20:
            first.append(line)

    for _ in _screened(positions, reject):
        pass
    if count:
        raise ValueError(f"{count} malformed input line(s) ({', '.join(map(str, first))}); nothing solved "
                         "(use --on-error skip to solve the others)")


def run_bulk(settings: SolveSettings, positions: Iterable[Position | PositionError], out: str | Path, *,
             workers: int = 1, on_error: str = "skip", ray: str | None = None,
             retry_unsolved: bool = False, progress: bool | None = None,
             report: Callable[[str], None] | None = None) -> BulkSummary:
    """Solve every position not yet in `out`, appending one line per position as it finishes.

    positions: Position objects, or PositionError for malformed input lines, streamed: the
    first position is solved before the last is read, and only ids are kept. With
    ``on_error="stop"`` the input is read twice, a first pass rejecting the job (ValueError
    naming the lines) if any line is malformed; give a re-iterable such as read_positions()
    (a one-shot iterator is kept in a list for the second pass). With ``"skip"`` a bad line
    is reported through `report` when it is met, and left out.
    out: refused (ValueError, untouched) unless it is empty, new or a result file of this job;
    a JobError if it is in use by another job, cannot be written, or the disk fills up.
    ray: None for local processes (`workers` of them), else a Ray address ("auto",
    "host:port", or "local"); a Ray already initialised in this process is used as it is.
    """
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be one of {', '.join(ON_ERROR)}, got {on_error!r}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    check_settings(settings)
    say = report or (lambda _msg: None)
    start = time.perf_counter()
    summary = BulkSummary(out=str(out))
    writer = ResultFile(out, _job_wanted(settings), retry_unsolved)
    try:
        summary.repaired = writer.repaired
        if summary.repaired:
            say(f"{out}: cut off a torn last line left by an interrupted run")
        ray_session = None
        if ray is not None:
            from .ray_backend import connect
            ray_session = connect(ray)
        if on_error == "stop":
            if iter(positions) is positions:
                positions = list(positions)
            _reject_malformed(positions, say)
        _run(settings, positions, writer, summary, workers, ray_session, on_error, progress, say)
    finally:
        writer.close()
        summary.seconds = time.perf_counter() - start
    return summary


def _job_wanted(settings: SolveSettings) -> dict[str, Any]:
    return job_of({"game": settings.game, "objective": settings.objective, "mode": settings.mode,
                   "samples": settings.samples})


def _run(settings: SolveSettings, positions: Iterable[Position | PositionError], writer: ResultFile,
         summary: BulkSummary, workers: int, ray_session: Any, on_error: str, progress: bool | None,
         say: Callable[[str], None]) -> None:
    """Stream the positions to the solvers and every result, as it comes, into the file."""
    bar = Progress(0, "positions", enabled=progress)
    if bar.enabled and isinstance(positions, Sized):
        bar.total = len(positions)          # a positions file counts its lines only for the bar

    def bad(line: int, message: str) -> None:
        summary.bad_lines += 1
        if len(summary.errors) < KEPT_ERRORS:
            summary.errors.append((line, message))
        say(f"line {line}: {message}" + (" (skipped)" if on_error == "skip" else ""))
        bar.update()

    def todo() -> Iterator[tuple[str, str]]:
        for p in _screened(positions, bad):
            summary.positions += 1
            if p.id in writer.done:
                summary.already_done += 1
                bar.update()
            else:
                yield p.id, p.state_json

    def record(rec: dict[str, Any]) -> None:
        if "error" in rec:
            summary.failed.append((rec["id"], rec["error"]))
            say(f"position {rec['id']}: {rec['error']}")
        else:
            writer.write(rec)
            if rec["solved"]:
                summary.solved += 1
            else:
                summary.unsolved += 1
        bar.update()

    try:
        if ray_session is not None:
            from .ray_backend import solve_on_ray
            for rec in solve_on_ray(ray_session, settings, todo()):
                record(rec)
        elif workers == 1:
            for pid, state_json in todo():
                record(solve_one(settings, pid, state_json))
        else:
            with WorkerPool(partial(_solve_task, settings), workers) as pool:
                for rec in pool.imap_unordered(todo()):
                    record(rec)
    except WorkerError as exc:
        raise JobError(f"{exc}; the results so far are kept in {writer.path}, rerun to resume") from None
    finally:
        bar.close()
