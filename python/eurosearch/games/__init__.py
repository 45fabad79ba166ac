"""The registry of implemented games: for each, its data loader, options and native name.

Adding a game means a C module registered in ``csrc/core/registry.c`` and one entry here;
nothing in the search code changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import backgammon, bruges, coal_baron, oh_my_goods, vienna, wolsung


@dataclass(frozen=True)
class GameSpec:
    """What the Python layer needs to create one game."""

    name: str
    min_players: int
    max_players: int
    #: (data path or None, parsed options) -> validated data object with a ``sources`` dict
    load_data: Callable[[str | Path | None, Any], Any]
    #: (user options dict or None, players) -> options object
    parse_options: Callable[[dict[str, Any] | None, int], Any]
    #: validated data -> int32 table for the C core
    table: Callable[[Any], list[int]]
    #: options object -> int32 option array for the C core
    option_array: Callable[[Any], list[int]]
    #: (data, players, options) -> the plain-Python reference engine (has initial_state())
    reference: Callable[[Any, int, Any], Any]
    #: (reference engine, random.Random) -> (final scores, decisions): one random game
    reference_playout: Callable[[Any, Any], tuple[list[float], int]]


def _spec(name: str, module: Any) -> GameSpec:
    """A registry entry from a game module's standard names."""
    return GameSpec(
        name=name,
        min_players=module.MIN_PLAYERS,
        max_players=module.MAX_PLAYERS,
        load_data=module.load_data,
        parse_options=module.parse_options,
        table=module.table,
        option_array=module.option_array,
        reference=module.reference,
        reference_playout=module.reference_playout,
    )


GAMES: dict[str, GameSpec] = {
    "backgammon": _spec("backgammon", backgammon),
    "bruges": _spec("bruges", bruges),
    "coal_baron": _spec("coal_baron", coal_baron),
    "oh_my_goods": _spec("oh_my_goods", oh_my_goods),
    "vienna": _spec("vienna", vienna),
    "wolsung": _spec("wolsung", wolsung),
}
