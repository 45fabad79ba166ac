"""The progress bar of long runs (match, arena, solve), drawn by ``rich`` on stderr and only
to a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress


class Progress:
    """``with Progress(total, "games") as bar: ... bar.update()`` draws count, rate and time left.

    It draws only when the stream is a terminal (or ``enabled=True``), at most ten times a
    second and not for runs shorter than ``min_seconds``, so it costs nothing in logs and
    pipes (``--no-progress`` and ``--json`` output are untouched). ``total`` may be set
    after construction, before the first update. ``update(status=...)`` shows a short text
    after the counts (the SPRT's running LLR).
    """

    def __init__(self, total: int, unit: str = "items", stream: TextIO | None = None,
                 enabled: bool | None = None, min_seconds: float = 0.5):
        self.total = max(int(total), 0)
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", lambda: False)
        self.enabled = isatty() if enabled is None else enabled
        self.min_seconds = min_seconds   # runs shorter than this never draw
        self.done = 0
        self.start = time.monotonic()
        self._last_draw = 0.0
        self._bar: RichProgress | None = None
        self._task = None
        self.status = ""

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, n: int = 1, status: str | None = None) -> None:
        self.done += n
        if status is not None:
            self.status = status
        now = time.monotonic()
        if self.enabled and now - self.start >= self.min_seconds and (now - self._last_draw >= 0.1 or self.done >= self.total):
            self._last_draw = now
            self._draw()

    def _draw(self) -> None:
        if self._bar is None:
            console = Console(file=self.stream, force_terminal=True, color_system=None, width=100)
            self._bar = RichProgress(
                BarColumn(bar_width=30), MofNCompleteColumn(), TextColumn(self.unit),
                TextColumn("[progress.data.speed]{task.fields[rate]}"),
                TextColumn("{task.fields[status]}", markup=False),
                TimeRemainingColumn(), TimeElapsedColumn(),
                console=console, auto_refresh=False)
            self._bar.start()
            self._task = self._bar.add_task("", total=self.total or None, rate="", status="")
        elapsed = max(time.monotonic() - self.start, 1e-9)
        self._bar.update(self._task, completed=self.done, total=self.total or None,
                         rate=f"{self.done / elapsed:.1f}/s", status=self.status)
        self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._draw()
            self._bar.stop()
            self._bar = None
