"""The output file of a bulk job: checked, locked, and appended to one whole line at a time.

The file is JSON lines, one result per line, each written with one ``write`` the moment its
position is solved. Before anything is written, the whole file is read: every line must be a
result line of the same job (else ValueError, the file untouched), and only a torn last line
-- the start of a result line without its newline, left by a kill inside a write -- is cut.
The file stays locked (``flock``) while the job runs, so a second job on it is refused; the
operating system drops the lock when the process ends, however it ends.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

MAX_LINE = 1 << 24              # a result line is a few kB; a longer "line" is not ours
_LINE_START = b'{"id":'         # how every line written by ResultFile.write starts


class JobError(RuntimeError):
    """A bulk job that cannot start or go on (output unusable or in use, a full disk, Ray
    unreachable, a worker died). The message is one line; finished results are kept."""


def job_of(rec: dict[str, Any]) -> dict[str, Any]:
    """What a result line says about the job that made it (compared when resuming)."""
    return {"game": rec.get("game"), "objective": rec.get("objective"), "mode": rec.get("mode"),
            "samples": rec.get("samples") if rec.get("mode") == "info" else None}


def _is_torn_result(tail: bytes) -> bool:
    """Whether a last line without newline is the start of a result line cut by a kill: it
    begins like every line written here (JSON text is ASCII, as json.dumps writes it)."""
    head = tail[:len(_LINE_START)].replace(b'": ', b'":')
    return _LINE_START.startswith(head) and all(0x20 <= b < 0x7f for b in tail)


class ResultFile:
    """The output of one job, opened for appending after checking and locking it.

    want: the job (see job_of) every line must belong to. ``done`` holds the ids finished
    already (the last line of an id decides; with retry_unsolved only solved ones count),
    ``repaired`` tells whether a torn last line was cut off.
    """

    def __init__(self, path: str | Path, want: dict[str, Any], retry_unsolved: bool = False):
        self.path = str(path)
        p = Path(path)
        if not p.parent.is_dir():
            what = "is not a directory" if p.parent.exists() else "does not exist"
            raise JobError(f"{path}: the directory {p.parent} {what}")
        if p.is_dir():
            raise JobError(f"{path} is a directory; give a file for the results")
        try:
            self.fd = os.open(p, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise JobError(f"cannot write {path}: {exc.strerror}") from None
        try:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise JobError(f"{path} is in use by another running job; wait for it or give "
                               "another output file") from None
            self.done, keep = self._read(want, retry_unsolved)
            self.size = os.fstat(self.fd).st_size
            self.repaired = keep < self.size
            if self.repaired:
                os.ftruncate(self.fd, keep)
                self.size = keep
        except BaseException:
            os.close(self.fd)
            raise

    def _read(self, want: dict[str, Any], retry_unsolved: bool) -> tuple[set[str], int]:
        """(finished ids, bytes to keep): every line checked, a torn last line not kept."""
        status: dict[str, bool] = {}
        keep = 0
        with open(self.fd, "rb", closefd=False) as fh:
            fh.seek(0)
            for n, text in enumerate(iter(lambda: fh.readline(MAX_LINE), b""), start=1):
                if not text.endswith(b"\n"):
                    if not _is_torn_result(text):
                        raise ValueError(f"{self.path}, line {n}: not a result file of eurosearch solve "
                                         "(its end is no torn result line); use another output file")
                    break
                try:
                    rec = json.loads(text)
                    status[str(rec["id"])] = bool(rec["solved"])
                except (ValueError, KeyError, TypeError):
                    raise ValueError(f"{self.path}, line {n}: not a result line of eurosearch solve; "
                                     "use another output file or remove the line") from None
                if job_of(rec) != want:
                    got = ", ".join(f"{k}={v}" for k, v in job_of(rec).items() if v is not None)
                    raise ValueError(f"{self.path}, line {n}: a result of another job ({got}); "
                                     "resume with the same settings or use another output file")
                keep += len(text)
        return {i for i, ok in status.items() if ok or not retry_unsolved}, keep

    def write(self, record: dict[str, Any]) -> None:
        """Append one result line. If the write fails (a full disk) or is interrupted, the
        part written is taken back, so the file stays whole and resumable."""
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")
        start = self.size
        try:
            while data:
                written = os.write(self.fd, data)
                data = data[written:]
                self.size += written
        except BaseException as exc:
            try:
                os.ftruncate(self.fd, start)
                self.size = start
            except OSError:
                pass                   # a torn line is left; resuming cuts it
            if isinstance(exc, OSError):
                raise JobError(f"cannot write {self.path}: {exc.strerror}; the results before this one "
                               "are kept, rerun the same command to resume") from None
            raise

    def close(self) -> None:
        """Close the file (which drops the lock)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
