"""Vienna's Python glue: options (the spec's switchable ambiguities) and data loading."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import vienna_data
from .options import parse_options as parse
from .vienna_data import ViennaData

MIN_PLAYERS = 3
MAX_PLAYERS = 5


@dataclass(frozen=True)
class ViennaOptions:
    """Switches for the spec's open questions; the defaults are the spec's recommendations."""

    #: None: the first start player is a chance node; an int fixes the seat (spec 3.1 step 2).
    start_player: int | None = None
    #: VI-A8: "last" (the most recently placed street field) or "furthest".
    carriage: str = "last"
    #: VI-A12: paid modifications at the start of every own turn, not only the roll turn.
    modify_every_turn: bool = True
    #: VI-A20: person-card picks may be declined.
    person_optional: bool = False
    #: Board side; both sides share one data set when the file says ``sides_identical`` (X8).
    side: str = "day"
    #: Engine safety cap (not a rule): the game also ends after this round's evaluation.
    max_rounds: int = 100

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_options(options: dict[str, Any] | None, players: int) -> ViennaOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    return parse(
        "vienna", ViennaOptions, options, players,
        choices={"carriage": ("last", "furthest"), "side": ("day", "night")},
        int_ranges={"max_rounds": (1, 200)},
    )


def load_data(path: str | Path | None, options: ViennaOptions) -> ViennaData:
    return vienna_data.load(path, side=options.side)


def table(data: ViennaData) -> list[int]:
    return vienna_data.to_table(data)


#: Order of the int32 option array (csrc/games/vienna.h, VI_OPT_*).
def option_array(o: ViennaOptions) -> list[int]:
    return [
        -1 if o.start_player is None else o.start_player,
        0 if o.carriage == "last" else 1,
        int(o.modify_every_turn),
        int(o.person_optional),
        o.max_rounds,
    ]


def reference(data: ViennaData, players: int, options: ViennaOptions):
    """The plain-Python implementation of the same rules (the differential test's oracle)."""
    from ..reference.vienna import ViennaReference

    return ViennaReference(data, players, options)


def reference_playout(ref, rng):
    from ..reference.vienna import random_playout

    return random_playout(ref, rng)
