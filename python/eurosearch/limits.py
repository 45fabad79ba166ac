"""Checks of the limits a user gives a search (time, node counts, table memory).

One place for them, so that ``es.solve``, the agents and the command line refuse the same
absurd values with the same messages: a NaN or negative time, a negative count, a table
smaller than the smallest useful one or larger than the machine's memory.
"""

from __future__ import annotations

import math
import os
from numbers import Real

MIN_TABLE_MB = 1.0     # below this the native search would silently use its 64 MiB default


def check_seconds(name: str, value: object) -> float:
    """A time limit: a finite number >= 0 (0: no limit)."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number of seconds >= 0 (0: no limit), got {value!r}")
    return float(value)


def check_duration(name: str, value: object) -> float:
    """A time to spend (a measurement): a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number of seconds > 0, got {value!r}")
    return float(value)


def check_count(name: str, value: object) -> int:
    """A count limit (nodes, iterations): an integer >= 0 (0: no limit)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be an integer >= 0 (0: no limit), got {value!r}")
    return value


def machine_memory() -> int | None:
    """The machine's physical memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_table_mb(name: str, value: object, over_memory: bool = False, knob: str = "") -> int:
    """A transposition table size in MB (2**20 bytes), returned in bytes.

    At least MIN_TABLE_MB; more than the machine's physical memory only with `over_memory`
    (the search would swap or be killed otherwise). `knob` names the switch that allows it.
    """
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) or value < MIN_TABLE_MB:
        raise ValueError(f"{name} must be a number of MB >= {MIN_TABLE_MB:g}, got {value!r}")
    size = int(value * (1 << 20))
    memory = machine_memory()
    if not over_memory and memory is not None and size > memory:
        hint = f" (pass {knob} to use it anyway)" if knob else ""
        raise ValueError(f"{name}={value:g} asks for a {size / 1e9:.1f} GB table, more than this machine's "
                         f"{memory / 1e9:.1f} GB of memory{hint}")
    return size
