"""Wolsung's Python glue: options (the spec's open flags, section 10) and data loading."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import wolsung_data
from .options import parse_options as parse
from .wolsung_data import WolsungData

MIN_PLAYERS = 2
MAX_PLAYERS = 4


@dataclass(frozen=True)
class WolsungOptions:
    """Switches for the spec's open questions; the defaults are the spec's recommendations."""

    #: None: the start player is a chance node (C4, WO-A32); an int fixes the seat.
    start_player: int | None = None
    #: Section 4.9: placements private until a factory opens.
    hidden_placement: bool = False
    #: WO-A8 / section 4.6: an upgrade's gold unit may be paid with 3 cubes including gold.
    exchange_allows_gold_input: bool = False
    #: WO-A7 alternative: gold may be one of the Converter's 2 substitutes.
    converter_accepts_gold: bool = False
    #: WO-A19: refill sidings only from the finite supply of the data file (default unlimited).
    finite_supply: bool = False
    #: WO-A4 alternative: the FE is forced only at the end of the round's last factory.
    fe_forced_last_factory_only: bool = False
    #: WO-A4 alternative: the FE cannot be taken on the double first turn.
    fe_single_pick_only: bool = False
    #: WO-A9 alternative: the Time machine works once per factory opening, not per round.
    time_machine_per_factory: bool = False
    #: WO-A13 alternative: the Strike returns to the draw deck at the end of round 22.
    strike_returns_at_22: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_options(options: dict[str, Any] | None, players: int) -> WolsungOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    return parse("wolsung", WolsungOptions, options, players, choices={}, int_ranges={})


def load_data(path: str | Path | None, options: WolsungOptions) -> WolsungData:
    return wolsung_data.load(path)


def table(data: WolsungData) -> list[int]:
    return wolsung_data.to_table(data)


#: Order of the int32 option array (csrc/games/wolsung.h, WO_OPT_*).
def option_array(o: WolsungOptions) -> list[int]:
    return [
        -1 if o.start_player is None else o.start_player,
        int(o.hidden_placement),
        int(o.exchange_allows_gold_input),
        int(o.converter_accepts_gold),
        int(o.finite_supply),
        int(o.fe_forced_last_factory_only),
        int(o.fe_single_pick_only),
        int(o.time_machine_per_factory),
        int(o.strike_returns_at_22),
    ]


def reference(data: WolsungData, players: int, options: WolsungOptions):
    from ..reference.wolsung import WolsungReference

    return WolsungReference(data, players, options)


def reference_playout(ref, rng):
    from ..reference.wolsung import random_playout

    return random_playout(ref, rng)
