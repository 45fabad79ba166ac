"""Running a bulk job's batches as Ray tasks (``eurosearch solve --ray ADDRESS``).

One task per batch of positions; results stream back as tasks finish and are written by the
caller into the same resumable output as a local run. Every node of the cluster needs
eurosearch installed (and the same --data file, if one is given).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .bulk import SolveSettings, solve_batch


def run_on_ray(address: str, settings: SolveSettings, batches: Sequence[list[tuple[str, str]]],
               record: Callable[[list[dict[str, Any]]], None]) -> None:
    """Run the batches on Ray at `address` ("auto", "host:port", or "local" for a new local Ray)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'eurosearch[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True,
                 log_to_driver=False)
    task = ray.remote(solve_batch)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    queue = iter(batches)
    running: list[Any] = []
    try:
        for b in queue:
            running.append(task.remote(settings, b))
            if len(running) >= 2 * cpus:        # keep the cluster busy without flooding it
                finished, running = ray.wait(running, num_returns=1)
                for ref in finished:
                    record(ray.get(ref))
        while running:
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                record(ray.get(ref))
    except BaseException:
        for ref in running:
            ray.cancel(ref, force=True)
        raise
