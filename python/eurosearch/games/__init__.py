"""The registry of implemented games: for each, its data loader, options and native name.

Adding a game means a C module registered in ``csrc/core/registry.c`` and one entry here;
nothing in the search code changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import oh_my_goods, vienna


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


GAMES: dict[str, GameSpec] = {
    "oh_my_goods": GameSpec(
        name="oh_my_goods",
        min_players=oh_my_goods.MIN_PLAYERS,
        max_players=oh_my_goods.MAX_PLAYERS,
        load_data=oh_my_goods.load_data,
        parse_options=oh_my_goods.parse_options,
        table=oh_my_goods.table,
        option_array=oh_my_goods.option_array,
        reference=oh_my_goods.reference,
        reference_playout=oh_my_goods.reference_playout,
    ),
    "vienna": GameSpec(
        name="vienna",
        min_players=vienna.MIN_PLAYERS,
        max_players=vienna.MAX_PLAYERS,
        load_data=vienna.load_data,
        parse_options=vienna.parse_options,
        table=vienna.table,
        option_array=vienna.option_array,
        reference=vienna.reference,
        reference_playout=vienna.reference_playout,
    ),
}
