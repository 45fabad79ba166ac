"""Oh My Goods!'s Python glue: options (the spec's flags, section 9.6) and data loading."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import oh_my_goods_data
from .options import parse_options as parse
from .oh_my_goods_data import OmgData

MIN_PLAYERS = 2
MAX_PLAYERS = 4


@dataclass(frozen=True)
class OmgOptions:
    """Switches for the spec's open questions; the defaults follow the Hungarian rulebook."""

    #: None: the start player is a chance node; an int fixes the seat (OMG-A33).
    start_player: int | None = None
    #: OMG-A1: "chains_only" (this rulebook) or "full_round" (2nd edition).
    final_round: str = "chains_only"
    #: OMG-A2: "any" number of cards, or "all_or_nothing" (2nd edition).
    phase1_redraw: str = "any"
    #: OMG-A12: several extra-card offices give 2 + k cards instead of 3.
    office_extra_card_stacks: bool = False
    #: OMG-A18: False (this rulebook): the brown worker stays on its building all round, so a
    #: newly hired assistant may not go there; True (2nd edition): the worker leaves after
    #: production and the assistant may.
    worker_leaves_after_production: bool = False
    #: OMG-A37: engine-only cap; the game is scored after this many rounds.
    round_cap: int = 60

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_options(options: dict[str, Any] | None, players: int) -> OmgOptions:
    """Build options from a user dict; unknown keys or bad values raise ValueError."""
    return parse(
        "oh_my_goods", OmgOptions, options, players,
        choices={"final_round": ("chains_only", "full_round"), "phase1_redraw": ("any", "all_or_nothing")},
        int_ranges={"round_cap": (1, 100)},
    )


def load_data(path: str | Path | None, options: OmgOptions) -> OmgData:
    return oh_my_goods_data.load(path)


def table(data: OmgData) -> list[int]:
    return oh_my_goods_data.to_table(data)


#: Order of the int32 option array (csrc/games/oh_my_goods.h, OMG_OPT_*).
def option_array(o: OmgOptions) -> list[int]:
    return [
        -1 if o.start_player is None else o.start_player,
        int(o.final_round == "full_round"),
        int(o.phase1_redraw == "all_or_nothing"),
        int(o.office_extra_card_stacks),
        int(o.worker_leaves_after_production),
        o.round_cap,
    ]


def reference(data: OmgData, players: int, options: OmgOptions):
    from ..reference.oh_my_goods import OmgReference

    return OmgReference(data, players, options)


def reference_playout(ref, rng):
    from ..reference.oh_my_goods import random_playout

    return random_playout(ref, rng)
