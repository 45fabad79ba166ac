"""Vienna's Python glue: options (the spec's switchable ambiguities) and data loading."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from . import vienna_data
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


_CHOICES = {"carriage": ("last", "furthest"), "side": ("day", "night")}


def parse_options(options: dict[str, Any] | None, players: int) -> ViennaOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    if options is None:
        return ViennaOptions()
    if isinstance(options, ViennaOptions):
        return options
    if not isinstance(options, dict):
        raise ValueError(f"vienna options must be a dict, got {type(options).__name__}")
    known = {f.name for f in fields(ViennaOptions)}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unknown vienna option(s) {', '.join(sorted(unknown))}; valid: {', '.join(sorted(known))}")
    o = ViennaOptions(**options)
    sp = o.start_player
    if sp is not None and (isinstance(sp, bool) or not isinstance(sp, int) or not 0 <= sp < players):
        raise ValueError(f"vienna option start_player must be None or a seat 0..{players - 1}, got {sp!r}")
    for key, allowed in _CHOICES.items():
        if getattr(o, key) not in allowed:
            raise ValueError(f"vienna option {key} must be one of {', '.join(allowed)}, got {getattr(o, key)!r}")
    for key in ("modify_every_turn", "person_optional"):
        if not isinstance(getattr(o, key), bool):
            raise ValueError(f"vienna option {key} must be true or false, got {getattr(o, key)!r}")
    if isinstance(o.max_rounds, bool) or not isinstance(o.max_rounds, int) or not 1 <= o.max_rounds <= 200:
        raise ValueError(f"vienna option max_rounds must be an integer 1..200, got {o.max_rounds!r}")
    return o


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
