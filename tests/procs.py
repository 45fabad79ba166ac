"""Processes seen through /proc: the children of a process, and waiting for processes to end."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie that has finished and waits to be reaped)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid`."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def wait_gone(pids: list[int], seconds: float = 20) -> list[int]:
    """The pids still alive after waiting up to `seconds` for them to end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def communicate_or_kill(proc: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
    """proc.communicate(timeout); if it does not end in time, kill its whole process group
    (it was started with start_new_session=True), so a failing test leaves nothing running."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise


def kill_survivors(pids: list[int]) -> list[int]:
    """The pids still alive after waiting for them (wait_gone); those are killed."""
    survivors = wait_gone(pids)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return survivors
