"""Backgammon's Python glue (a calibration game: OpenSpiel's rules, see docs/backgammon_engine.md)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import backgammon_data
from .backgammon_data import BackgammonData
from .options import parse_options as parse

MIN_PLAYERS = 2
MAX_PLAYERS = 2


@dataclass(frozen=True)
class BackgammonOptions:
    """OpenSpiel's default parameters; only its turn cap is adjustable."""

    #: OpenSpiel's max_player_turns: the game is a draw once more turns than this were played.
    max_turns: int = 500

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_options(options: dict[str, Any] | None, players: int) -> BackgammonOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    return parse("backgammon", BackgammonOptions, options, players, choices={},
                 int_ranges={"max_turns": (1, 60000)})


def load_data(path: str | Path | None, options: BackgammonOptions) -> BackgammonData:
    return backgammon_data.load(path)


def table(data: BackgammonData) -> list[int]:
    return backgammon_data.to_table(data)


#: Order of the int32 option array (csrc/games/backgammon.h, BG_OPT_*).
def option_array(o: BackgammonOptions) -> list[int]:
    return [o.max_turns]


def reference(data: BackgammonData, players: int, options: BackgammonOptions):
    """The plain-Python implementation of the same rules (the differential test's oracle)."""
    from ..reference.backgammon import BackgammonReference

    return BackgammonReference(data, players, options)


def reference_playout(ref, rng):
    from ..reference.backgammon import random_playout

    return random_playout(ref, rng)
