"""Coal Baron's Python glue: options (the spec's switchable ambiguities) and data loading."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import coal_baron_data
from .coal_baron_data import CoalBaronData
from .options import parse_options as parse

MIN_PLAYERS = 2
MAX_PLAYERS = 4


@dataclass(frozen=True)
class CoalBaronOptions:
    """Switches for the spec's open questions; the defaults follow the Hungarian rulebook text
    and the spec's recommendations (docs/coal_baron_engine.md, "Seats, options, data")."""

    #: CB-A20: None: the first start player is a chance node; an int fixes the seat.
    start_player: int | None = None
    #: CB-A1: None uses the data file's 2nd-place VP for truck and locomotive (bundled: 3, the
    #: Hungarian text); an int replaces both (4 = the printed board / online version).
    second_tr_lo: int | None = None
    #: CB-A2: shift-clock VP need at least one delivered order (False: count >= 1 suffices).
    empty_carts_need_delivery: bool = True

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_options(options: dict[str, Any] | None, players: int) -> CoalBaronOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    o = parse("coal_baron", CoalBaronOptions, options, players, choices={}, int_ranges={})
    v = o.second_tr_lo
    if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 20):
        raise ValueError(f"coal_baron option second_tr_lo must be None or an integer 0..20, got {v!r}")
    return o


def load_data(path: str | Path | None, options: CoalBaronOptions) -> CoalBaronData:
    return coal_baron_data.load(path)


def table(data: CoalBaronData) -> list[int]:
    return coal_baron_data.to_table(data)


#: Order of the int32 option array (csrc/games/coal_baron.h, CB_OPT_*).
def option_array(o: CoalBaronOptions) -> list[int]:
    return [
        -1 if o.start_player is None else o.start_player,
        -1 if o.second_tr_lo is None else o.second_tr_lo,
        int(o.empty_carts_need_delivery),
    ]


def reference(data: CoalBaronData, players: int, options: CoalBaronOptions):
    """The plain-Python implementation of the same rules (the differential test's oracle)."""
    from ..reference.coal_baron import CoalBaronReference

    return CoalBaronReference(data, players, options)


def reference_playout(ref, rng):
    from ..reference.coal_baron import random_playout

    return random_playout(ref, rng)
