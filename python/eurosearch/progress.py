"""A small progress bar for long runs, written to stderr and only to a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``with Progress(total, "games") as bar: ... bar.update()`` draws count, rate and time left.

    It draws only when the stream is a terminal (or ``enabled=True``), at most ten times a
    second, so it costs nothing in logs and pipes.
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
        self._drawn = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and now - self.start >= self.min_seconds and (now - self._last_draw >= 0.1 or self.done >= self.total):
            self._last_draw = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The text of the bar, e.g. ``[#####.....] 50/100 games 12.3/s ~4s left``."""
        now = time.monotonic() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta = f"~{_duration(left)} left" if self.done < self.total else f"{_duration(elapsed)}"
        return f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.unit} {rate:.1f}/s {eta}"

    def _draw(self, now: float) -> None:
        self.stream.write("\r" + self.line(now))
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _duration(seconds: float) -> str:
    if seconds == float("inf"):
        return "?"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
