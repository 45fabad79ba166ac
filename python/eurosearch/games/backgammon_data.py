"""Backgammon board constants: the checker count and the opening position, from the data file.

Backgammon has no components beyond its board; the file exists so that the game follows the
pattern of the others (rules in C, every number in a tagged data file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamedata import DataError, Entry, SourceLedger, read_file

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon.toml"

TABLE_VERSION = 1
POINTS = 24
CHECKERS = 15   # the engine's fixed size (csrc/games/backgammon.h)


@dataclass(frozen=True)
class BackgammonData:
    """Validated board constants; ``start[i]`` = player 0's checkers on point i (player 1 mirrored)."""

    origin: str
    status: str
    checkers: int
    start: tuple[int, ...]
    sources: dict[str, Any] = field(compare=False, default_factory=dict)


def load(path: str | Path | None = None) -> BackgammonData:
    p = Path(path) if path is not None else DEFAULT_DATA
    return validate(read_file(p), str(p))


def validate(raw: dict[str, Any], origin: str) -> BackgammonData:
    """Check the file: 15 checkers, an opening position of 15 on points 0..23, no point shared."""
    ledger = SourceLedger()
    top = Entry(origin, "", raw)
    b = top.sub("board")
    checkers = b.int("checkers", lo=CHECKERS, hi=CHECKERS)
    st = b.sub("start")
    start = [0] * POINTS
    for key, value in st.table.items():
        st.used.add(key)
        if not key.isdigit() or not 0 <= int(key) < POINTS:
            st.fail(key, f"a point is 0..{POINTS - 1}")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= CHECKERS:
            st.fail(key, f"expected 1..{CHECKERS} checkers, got {value!r}")
        start[int(key)] = value
    if sum(start) != checkers:
        b.fail("start", f"places {sum(start)} checkers, expected {checkers}")
    for i in range(POINTS):
        if start[i] and start[POINTS - 1 - i]:
            b.fail("start", f"point {i} would hold checkers of both players (player 1 starts on point 23 - i)")
    b.tag(ledger)
    b.done()
    top.done()
    data = BackgammonData(origin, "rulebook", checkers, tuple(start))
    object.__setattr__(data, "sources", ledger.report("backgammon", origin, "rulebook"))
    return data


def to_table(d: BackgammonData) -> list[int]:
    """The int32 table of csrc/games/backgammon.h: version, checkers, the 24 opening counts."""
    return [TABLE_VERSION, d.checkers, *d.start]


__all__ = ["BackgammonData", "DataError", "load", "to_table", "validate"]
