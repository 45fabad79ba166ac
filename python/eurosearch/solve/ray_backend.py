"""Solving a bulk job's positions as Ray tasks (``eurosearch solve --ray ADDRESS``).

One task per position; results stream back as tasks finish and are written by the caller
into the same resumable output as a local run. Every node of the cluster needs eurosearch
installed (and the same --data file, if one is given).
"""

from __future__ import annotations

import logging
import socket
from typing import Any, Iterator

from .bulk import JobError, SolveSettings, solve_one

CONNECT_SECONDS = 5.0     # how long a cluster address may take to answer before it counts as unreachable


def _bootstrap_address(address: str) -> str | None:
    """The host:port that ray.init(address) would contact, None for a new local Ray.

    Ray itself waits minutes for an address that does not answer; resolving it here lets an
    unreachable cluster be reported at once. "auto" is resolved as Ray does (RAY_ADDRESS, a
    running local cluster), through a helper that is not public API: if it is gone, "auto"
    goes to ray.init unchecked."""
    if address == "local":
        return None
    if address != "auto":
        return address
    try:
        from ray._private.services import canonicalize_bootstrap_address
    except ImportError:
        return None
    try:
        return canonicalize_bootstrap_address(address)
    except ConnectionError as exc:
        raise JobError(f"--ray auto: no running Ray cluster found ({exc.args[0].split('.')[0]}); "
                       "start one with 'ray start --head' or give --ray local or host:port") from None


def _check_reachable(address: str) -> None:
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise JobError(f"--ray {address}: expected auto, local or host:port")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise JobError(f"--ray {address}: no Ray cluster answers there ({reason})") from None


def connect(address: str) -> Any:
    """The ray module, connected to `address` ("auto", "host:port", or "local" for a new
    local Ray); JobError within seconds if there is no cluster there."""
    try:
        import ray
    except ImportError:
        raise JobError("--ray needs Ray: pip install 'eurosearch[ray]'") from None
    if ray.is_initialized():
        return ray
    target = _bootstrap_address(address)
    if target is not None:
        _check_reachable(target)
    try:
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True,
                 log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise JobError(f"--ray {address}: cannot connect ({str(exc).splitlines()[0]})") from None
    return ray


def solve_on_ray(ray: Any, settings: SolveSettings, tasks: Iterator[tuple[str, str]]) -> Iterator[dict[str, Any]]:
    """The result record of every (id, state JSON) task, in the order they finish; at most
    two tasks per CPU of the cluster in flight, so that tasks are drawn as they are needed."""
    remote = ray.remote(solve_one)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    running: list[Any] = []

    def finish_one() -> dict[str, Any]:
        nonlocal running
        finished, running = ray.wait(running, num_returns=1)
        try:
            return ray.get(finished[0])
        except ray.exceptions.RayError as exc:
            raise JobError(f"a Ray task failed: {str(exc).splitlines()[0]}") from None

    try:
        for pid, state_json in tasks:
            running.append(remote.remote(settings, pid, state_json))
            if len(running) >= 2 * cpus:        # keep the cluster busy without flooding it
                yield finish_one()
        while running:
            yield finish_one()
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
