"""Bruges's Python glue: options (the spec's switchable ambiguities) and data loading.

The bundled data is the spec's provisional person set: label every result made with it
provisional.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import bruges_data
from .bruges_data import BrugesData
from .options import parse_options as parse

MIN_PLAYERS = 2
MAX_PLAYERS = 4


@dataclass(frozen=True)
class BrugesOptions:
    """Switches for the spec's open questions; the defaults are the spec's recommendations."""

    #: None: the first start player is a chance node; an int fixes the seat (spec 3.1 step 7).
    start_player: int | None = None
    #: BR-A5: "per_two" (1 VP per 2 workers, the rule text) or "caption" (twice that).
    bishop_rate: str = "per_two"
    #: Engine safety cap (not a rule): the round reaching it is final.
    max_rounds: int = 30

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_options(options: dict[str, Any] | None, players: int) -> BrugesOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    return parse(
        "bruges", BrugesOptions, options, players,
        choices={"bishop_rate": ("per_two", "caption")},
        int_ranges={"max_rounds": (1, 60)},
    )


def load_data(path: str | Path | None, options: BrugesOptions) -> BrugesData:
    return bruges_data.load(path)


def table(data: BrugesData) -> list[int]:
    return bruges_data.to_table(data)


#: Order of the int32 option array (csrc/games/bruges.h, BR_OPT_*).
def option_array(o: BrugesOptions) -> list[int]:
    return [
        -1 if o.start_player is None else o.start_player,
        int(o.bishop_rate == "caption"),
        o.max_rounds,
    ]


def reference(data: BrugesData, players: int, options: BrugesOptions):
    """The plain-Python implementation of the same rules (the differential test's oracle)."""
    from ..reference.bruges import BrugesReference

    return BrugesReference(data, players, options)


def reference_playout(ref, rng):
    from ..reference.bruges import random_playout

    return random_playout(ref, rng)
