"""Bulk solving: many positions, on all cores or on a Ray cluster, into a resumable file.

The output is JSON lines, one finished position per line, appended the moment it is solved
with one write. A job killed at any moment therefore loses only the positions in flight; a
torn last line (the kill landed inside a write) is cut off when the job is resumed, and every
id already in the file is skipped. When an id appears twice (``retry_unsolved``), the last
line is the one that counts.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..progress import Progress
from .positions import Position, PositionError
from .solver import MODES, OBJECTIVES, solve

ON_ERROR = ("skip", "stop")


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
    """How a bulk job went. ``errors`` holds (line, message) of the rejected input lines."""

    out: str
    positions: int = 0        # valid positions given
    already_done: int = 0     # skipped because their id was in the output
    solved: int = 0
    unsolved: int = 0         # a node or time limit stopped the search
    failed: list[tuple[str, str]] = field(default_factory=list)   # (id, error) raised while solving
    errors: list[tuple[int, str]] = field(default_factory=list)
    repaired: bool = False    # a torn last line was cut off
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"out": self.out, "positions": self.positions, "already_done": self.already_done,
                "solved": self.solved, "unsolved": self.unsolved,
                "failed": [{"id": i, "error": e} for i, e in self.failed],
                "errors": [{"line": n, "error": e} for n, e in self.errors],
                "repaired": self.repaired, "seconds": round(self.seconds, 3)}


def check_settings(settings: SolveSettings) -> None:
    """The settings' errors (bad objective, mode, samples, limits) before any position is solved."""
    if settings.objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {settings.objective!r}")
    if settings.mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {settings.mode!r}")
    if settings.mode == "info" and settings.samples < 1:
        raise ValueError(f"samples must be a positive integer, got {settings.samples}")
    if settings.max_nodes < 0 or settings.seconds < 0 or settings.table_mb <= 0:
        raise ValueError("max_nodes and seconds must be >= 0 (0: no limit) and table_mb > 0")


# ---------------------------------------------------------------- the output file

def repair_output(path: str | Path) -> bool:
    """Cut a torn last line (no newline at its end) off the output; True if it had one."""
    p = Path(path)
    if not p.exists():
        return False
    size = p.stat().st_size
    if size == 0:
        return False
    with open(p, "rb+") as fh:
        fh.seek(max(0, size - 1))
        if fh.read(1) == b"\n":
            return False
        # scan back for the last newline, in blocks
        end = size
        while end > 0:
            start = max(0, end - 65536)
            fh.seek(start)
            block = fh.read(end - start)
            i = block.rfind(b"\n")
            if i >= 0:
                fh.truncate(start + i + 1)
                return True
            end = start
        fh.truncate(0)
        return True


def _job_of(rec: dict[str, Any]) -> dict[str, Any]:
    """What a result line says about the job that made it (compared when resuming)."""
    return {"game": rec.get("game"), "objective": rec.get("objective"), "mode": rec.get("mode"),
            "samples": rec.get("samples") if rec.get("mode") == "info" else None}


def finished_ids(path: str | Path, retry_unsolved: bool = False,
                 settings: SolveSettings | None = None) -> set[str]:
    """The ids whose result is in the output (the last line of an id decides).

    With `settings`, a line solved with another game, objective, mode or sample count is a
    ValueError: resuming must not mix two different jobs in one file."""
    p = Path(path)
    if not p.exists():
        return set()
    want = None if settings is None else {
        "game": settings.game, "objective": settings.objective, "mode": settings.mode,
        "samples": settings.samples if settings.mode == "info" else None}
    status: dict[str, bool] = {}
    with open(p, encoding="utf-8") as fh:
        for n, text in enumerate(fh, start=1):
            try:
                rec = json.loads(text)
                status[str(rec["id"])] = bool(rec.get("solved"))
            except (json.JSONDecodeError, KeyError, TypeError):
                raise ValueError(f"{path}, line {n}: not a result line of eurosearch solve; "
                                 "use another --out or remove the line") from None
            if want is not None and _job_of(rec) != want:
                got = ", ".join(f"{k}={v}" for k, v in _job_of(rec).items() if v is not None)
                raise ValueError(f"{path}, line {n}: a result of another job ({got}); "
                                 "resume with the same settings or use another --out")
    return {i for i, ok in status.items() if ok or not retry_unsolved}


class _Appender:
    """Appends whole lines with one write each (O_APPEND), so lines never interleave or tear."""

    def __init__(self, path: str | Path):
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def write(self, record: dict[str, Any]) -> None:
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data):]

    def close(self) -> None:
        os.close(self.fd)


# ---------------------------------------------------------------- solving a batch (in any process)

_GAMES: dict[tuple, Any] = {}


def _game_for(settings: SolveSettings) -> Any:
    from ..api import game

    key = (settings.game, settings.players, json.dumps(settings.options, sort_keys=True), settings.data)
    if key not in _GAMES:
        _GAMES[key] = game(settings.game, players=settings.players, data=settings.data, options=settings.options)
    return _GAMES[key]


def solve_batch(settings: SolveSettings, batch: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Solve (id, state JSON) pairs; one result record per position, an ``error`` record if it fails."""
    g = _game_for(settings)
    out = []
    for pid, state_json in batch:
        try:
            s = g.state_from_json(state_json)
            r = solve(s, objective=settings.objective, mode=settings.mode, samples=settings.samples,
                      seed=settings.seed, max_nodes=settings.max_nodes, seconds=settings.seconds,
                      table_mb=settings.table_mb)
            out.append({"id": pid, "game": settings.game, **r.as_dict(), "position": json.loads(state_json)})
        except Exception as exc:       # reported per position; the batch goes on
            out.append({"id": pid, "error": f"{type(exc).__name__}: {exc}"})
    return out


def _solve_job(job: tuple[SolveSettings, list[tuple[str, str]]]) -> list[dict[str, Any]]:
    return solve_batch(*job)


# ---------------------------------------------------------------- the job

def _batches(items: Sequence[Position], size: int) -> list[list[tuple[str, str]]]:
    pairs = [(p.id, p.state_json) for p in items]
    return [pairs[i:i + size] for i in range(0, len(pairs), size)]


def run_bulk(settings: SolveSettings, positions: Iterable[Position | PositionError], out: str | Path, *,
             workers: int = 1, on_error: str = "skip", ray: str | None = None, batch_size: int = 0,
             retry_unsolved: bool = False, progress: bool | None = None,
             report: Callable[[str], None] | None = None) -> BulkSummary:
    """Solve every position not yet in `out`, appending one line per finished position.

    positions: Position objects, or PositionError for malformed input lines; with
    ``on_error="stop"`` any such line rejects the job before anything is solved (ValueError
    naming the lines), with ``"skip"`` it is reported through `report` and left out.
    ray: None for local processes (`workers` of them), else a Ray address ("auto", or
    "host:port"); a Ray already initialised in this process is used as it is.
    """
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be one of {', '.join(ON_ERROR)}, got {on_error!r}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    check_settings(settings)
    say = report or (lambda _msg: None)
    start = time.perf_counter()
    summary = BulkSummary(out=str(out))

    valid: list[Position] = []
    seen: dict[str, int] = {}
    for item in positions:
        if isinstance(item, PositionError):
            summary.errors.append((item.line, item.message))
            continue
        if item.id in seen:
            summary.errors.append((item.line, f"duplicate id {item.id!r} (first on line {seen[item.id]})"))
            continue
        seen[item.id] = item.line
        valid.append(item)
    for line, message in summary.errors:
        say(f"line {line}: {message}" + ("" if on_error == "stop" else " (skipped)"))
    if summary.errors and on_error == "stop":
        lines = ", ".join(str(n) for n, _ in summary.errors[:20])
        raise ValueError(f"{len(summary.errors)} malformed input line(s) ({lines}); nothing solved "
                         "(use --on-error skip to solve the others)")
    summary.positions = len(valid)

    summary.repaired = repair_output(out)
    if summary.repaired:
        say(f"{out}: cut off a torn last line left by an interrupted run")
    done = finished_ids(out, retry_unsolved, settings)
    pending = [p for p in valid if p.id not in done]
    summary.already_done = len(valid) - len(pending)

    size = batch_size or max(1, min(16, len(pending) // (8 * workers) or 1))
    batches = _batches(pending, size)
    writer = _Appender(out)
    bar = Progress(len(pending), "positions", enabled=progress)

    def record(results: list[dict[str, Any]]) -> None:
        for rec in results:
            if "error" in rec:
                summary.failed.append((rec["id"], rec["error"]))
                say(f"position {rec['id']}: {rec['error']}")
            else:
                writer.write(rec)
                if rec["solved"]:
                    summary.solved += 1
                else:
                    summary.unsolved += 1
        bar.update(len(results))

    try:
        if ray is not None:
            from .ray_backend import run_on_ray
            run_on_ray(ray, settings, batches, record)
        elif workers == 1:
            for b in batches:
                record(solve_batch(settings, b))
        else:
            _run_local(settings, batches, workers, record)
    finally:
        bar.close()
        writer.close()
        summary.seconds = time.perf_counter() - start
    return summary


def _run_local(settings: SolveSettings, batches: list[list[tuple[str, str]]], workers: int,
               record: Callable[[list[dict[str, Any]]], None]) -> None:
    """Batches on a process pool, at most 2 per worker in flight, results recorded as they finish."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        queue = iter(batches)
        running = set()
        try:
            for b in queue:
                running.add(pool.submit(_solve_job, (settings, b)))
                if len(running) >= 2 * workers:
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for f in finished:
                        record(f.result())
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for f in finished:
                    record(f.result())
        except BaseException:
            for f in running:
                f.cancel()
            raise
