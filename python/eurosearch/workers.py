"""Worker processes that never outlive their parent: the pool of the arena and of bulk solving.

Why not ``concurrent.futures``: its workers outlive a parent killed with SIGKILL (they sleep
forever on a pipe that they hold open themselves), Ctrl-C prints a traceback from every one
of them, and a result comes back only with its whole chunk. Here every worker

- is a fresh interpreter (spawn), so it inherits no open file -- nor the lock on an output;
- asks the kernel to kill it when its parent dies (prctl PR_SET_PDEATHSIG on Linux; elsewhere
  a thread watches the parent's pid);
- ignores SIGINT: Ctrl-C reaches the parent, which stops the workers itself;
- takes one task at a time, so each result comes back the moment it is done.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable, Iterator

_PR_SET_PDEATHSIG = 1


class WorkerError(RuntimeError):
    """A worker process died (killed, out of memory, a crash) or its task raised."""


def _die_with_parent(parent: int) -> None:
    """Have this process killed when `parent` (the process that started it) goes away."""
    if sys.platform.startswith("linux"):
        try:
            if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:      # it died before the prctl took effect
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _serve(conn: Connection, fn: Callable[[Any], Any], parent: int) -> None:
    """A worker's life: run fn on each task received, send back (ok, result or message)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})    # blocked by the parent until now
    _die_with_parent(parent)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):   # the parent closed its end
            return
        if task is None:
            return
        try:
            reply = (True, fn(task))
        except Exception as exc:   # reported by the parent as a WorkerError
            reply = (False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except OSError:           # the parent stopped listening (Ctrl-C): go quietly
            return


class WorkerPool:
    """``with WorkerPool(fn, 4) as pool: for result in pool.imap_unordered(tasks): ...``

    fn and the tasks must be picklable (fn a module-level function or a partial of one).
    Leaving the ``with`` block -- normally, by an exception or by Ctrl-C -- stops every worker.
    (On Linux a worker dies with the *thread* that started it: use a pool in that thread.)
    """

    def __init__(self, fn: Callable[[Any], Any], workers: int):
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        ctx = multiprocessing.get_context("spawn")
        self._procs: list[Any] = []
        self._conns: list[Connection] = []
        # SIGINT blocked while starting them: a worker inherits the mask, so a Ctrl-C during
        # its start-up (imports take a while) cannot interrupt it before _serve ignores SIGINT
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for _ in range(workers):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(theirs, fn, os.getpid()), daemon=True)
                proc.start()
                theirs.close()
                self._procs.append(proc)
                self._conns.append(mine)
        except BaseException:
            self.close()
            raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._procs]

    def imap_unordered(self, tasks: Iterable[Any]) -> Iterator[Any]:
        """fn(task) for every task, in the order they finish; tasks are drawn only as workers
        free up, so a long (or endless) iterable is streamed."""
        pending = iter(tasks)
        busy: dict[int, Any] = {}            # worker index -> the task it is running

        def feed(w: int) -> None:
            for task in pending:
                self._conns[w].send(task)
                busy[w] = task
                return

        for w in range(len(self._procs)):
            feed(w)
        while busy:
            by_handle = {}
            for w in busy:
                by_handle[self._conns[w]] = w
                by_handle[self._procs[w].sentinel] = w
            ready = {by_handle[h] for h in wait(list(by_handle))}
            for w in sorted(ready):
                conn = self._conns[w]
                if not conn.poll():
                    self._procs[w].join(1)
                    raise WorkerError(f"a worker process died (exit code {self._procs[w].exitcode})")
                try:
                    ok, value = conn.recv()
                except EOFError:
                    raise WorkerError("a worker process died while sending a result") from None
                del busy[w]
                if not ok:
                    raise WorkerError(value)
                yield value
                feed(w)

    def close(self) -> None:
        """Stop every worker now (a running task is abandoned) and wait for them to go.
        Killed before their pipes close, so that none finds its pipe broken while alive."""
        for proc in self._procs:
            if proc.is_alive():
                proc.kill()
        for proc in self._procs:
            proc.join()
        for conn in self._conns:
            conn.close()
        self._procs, self._conns = [], []
